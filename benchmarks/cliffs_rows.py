"""The command rows of ``cliffs.py``: whole ``pokerrules`` processes, timed with their peak memory.

Each command runs as ``python -m evaluator ...`` from this checkout, its
standard output to a file, and is reaped with ``os.wait4`` for its own peak
resident memory. Its base runs in the same rounds: a peer program (a treys
loop), ``python -c "import numpy"``, or the same command on the standard
ruleset.
"""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench_calls import TREYS_SCRIPT
from cliffs_table import Row

Run = Callable[[], tuple[float, float]]  # one timed round: (seconds, peak MiB)

BUILD_SCRIPT = "import sys; from evaluator import load; from evaluator.compiled.tables import tables_for; tables_for(load(sys.argv[1]))"
# Starts a command and reports its time and peak memory: a child's peak counts the memory of
# the process it was forked from, so the fork is made from this small process, not the benchmark.
LAUNCHER = """\
import os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
seconds = time.perf_counter() - start
with open(sys.argv[1], "w") as report:
    report.write(f"{seconds} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)}")
"""
FIRST_RANK_SCRIPT = """\
import sys, time
import numpy as np
from evaluator import load
rs = load("standard")
k = int(sys.argv[1])
ids = np.argsort(np.random.default_rng(k).random((1000, 52)), axis=1)[:, :k]
start = time.perf_counter()
rs.rank_many(ids)
print(time.perf_counter() - start)
"""


@dataclass
class Bench:
    """What every row needs: folders, rounds, the quick switch, and ways to time things."""

    root: Path
    scratch: Path
    warm: Path
    rounds: int
    quick: bool

    def size(self, full: int, quick: int) -> int:
        """The amount of work of a row: ``full``, or ``quick`` with ``--quick``."""
        return quick if self.quick else full

    def interleave(self, ours: Run, base: Run, rounds: int | None = None) -> tuple[list[tuple[float, float]], ...]:
        """Each side once per round, the order alternating; every (seconds, MiB) kept."""
        mine: list[tuple[float, float]] = []
        theirs: list[tuple[float, float]] = []
        for turn in range(rounds or self.rounds):
            if turn % 2:
                theirs.append(base())
                mine.append(ours())
            else:
                mine.append(ours())
                theirs.append(base())
        return mine, theirs

    def empty_cache(self) -> Path:
        """A folder name under the scratch folder that does not exist yet (a cold cache)."""
        for n in itertools.count():
            path = self.scratch / f"empty-{n}"
            if not path.exists():
                path.mkdir(mode=0o700)
                return path
        raise AssertionError("unreachable")

    def process(
        self,
        argv: list[str],
        cache: Path | Callable[[], Path] | None = None,
        stdin: Path | None = None,
        ok: tuple[int, ...] = (0,),
    ) -> Run:
        """A whole process as a timed round: ``cache`` is the folder (or makes a new one per round)."""
        out = self.scratch / "stdout.txt"
        err = self.scratch / "stderr.txt"
        report = self.scratch / "launch.txt"

        def run() -> tuple[float, float]:
            folder = cache() if callable(cache) else (cache or self.warm)
            env = self.environment(folder)
            with (
                open(stdin or os.devnull, "rb") as given,
                open(out, "wb") as stdout,
                open(err, "wb") as stderr,
            ):
                launch = [sys.executable, "-I", "-S", "-c", LAUNCHER, str(report), *argv]
                subprocess.run(launch, stdin=given, stdout=stdout, stderr=stderr, env=env, cwd=self.root, check=False)
            seconds, peak, code = report.read_text(encoding="utf-8").split()
            if int(code) not in ok:
                tail = err.read_text(encoding="utf-8", errors="replace")[-2000:]
                raise SystemExit(f"cliffs.py: {' '.join(argv)} exited {code}\n{tail}")
            return float(seconds), int(peak) / 1024  # kilobytes on Linux

        return run

    def environment(self, cache: Path) -> dict[str, str]:
        """A child's environment: this checkout first, ``cache`` as the table cache, and bytecode
        written (to a folder of the scratch space), as an installed package has it."""
        env = dict(os.environ, PYTHONPATH=str(self.root), POKERRULES_CACHE=str(cache))
        env["PYTHONPYCACHEPREFIX"] = str(self.scratch / "bytecode")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        return env

    def compile_once(self) -> None:
        """Bytecode of this checkout and of what the commands import, before any round is timed."""
        env = self.environment(self.warm)
        for argv in (
            [sys.executable, "-m", "compileall", "-q", str(self.root / "evaluator")],
            [sys.executable, "-c", "import numpy, yaml, lark, jsonschema, evaluator.cli.main"],
        ):
            subprocess.run(argv, env=env, cwd=self.root, check=True, stdout=subprocess.DEVNULL)

    def cli(self, *args: str) -> list[str]:
        """The argv of ``pokerrules ARGS`` from this checkout."""
        return [sys.executable, "-m", "evaluator", *args]


def command_row(
    bench: Bench,
    key: str,
    what: str,
    base_label: str,
    ours: Run,
    base: Run,
    target: str,
    met: Callable[[Row], bool],
    rounds: int | None = None,
    **extra: object,
) -> Row:
    """A row of two commands compared by time, with our peak memory."""
    mine, theirs = bench.interleave(ours, base, rounds)
    row = Row(
        key,
        what,
        base_label,
        "time",
        [s for s, _ in mine],
        [s for s, _ in theirs],
        target,
        met,
        memory=[m for _, m in mine],
        base_memory=[m for _, m in theirs],
    )
    for name, value in extra.items():
        setattr(row, name, value)
    return row


def under(seconds: float, mib: float = 300.0) -> Callable[[Row], bool]:
    """A target on the median seconds and the peak memory."""
    return lambda row: row.seconds <= seconds and row.peak <= mib


# --- the rows ----------------------------------------------------------------------------


def eval_stream(bench: Bench) -> list[Row]:
    """``pokerrules eval standard -`` over seven-card lines against a ten-line treys loop."""
    count = bench.size(200_000, 50_000)
    deck = [r + s for r in "23456789TJQKA" for s in "shdc"]
    rng = random.Random(77)
    lines = bench.scratch / "lines.txt"
    lines.write_text("".join(" ".join(rng.sample(deck, 7)) + "\n" for _ in range(count)), encoding="utf-8")
    script = bench.scratch / "treys_eval.py"
    script.write_text(TREYS_SCRIPT, encoding="utf-8")
    ours = bench.process(bench.cli("eval", "standard", "-"), stdin=lines)
    ours()  # the tables into the warm cache
    peer = bench.process([sys.executable, str(script)], stdin=lines)
    mine, theirs = bench.interleave(ours, peer)
    return [
        Row(
            "eval-stream",
            f"`pokerrules eval standard -`, {count:,} seven-card lines (whole processes)",
            "a 10-line treys loop script",
            "speed",
            [s for s, _ in mine],
            [s for s, _ in theirs],
            ">= 2x",
            lambda row: row.ratio >= 2,
            ours_work=count,
            base_work=count,
            unit="lines",
            memory=[m for _, m in mine],
            base_memory=[m for _, m in theirs],
        )
    ]


def startup(bench: Bench) -> list[Row]:
    """One hand from the command line, warm, against starting Python and importing NumPy."""
    ours = bench.process(bench.cli("eval", "standard", "Kc Kd Ks 4h 4c"))
    ours()
    base = bench.process([sys.executable, "-c", "import numpy"])
    return [
        command_row(
            bench,
            "startup",
            '`pokerrules eval standard "Kc Kd Ks 4h 4c"`, warm cache',
            '`python -c "import numpy"`',
            ours,
            base,
            "<= 1.5x",
            lambda row: row.ratio <= 1.5,
            rounds=bench.rounds * (2 if bench.quick else 5),
        )
    ]


def check_rows(bench: Bench) -> list[Row]:
    """``check freak-hands.yaml`` warm and with an empty cache, against ``check standard.yaml``."""
    freak = bench.process(bench.cli("check", "rulesets/freak-hands.yaml"))
    standard = bench.process(bench.cli("check", "rulesets/standard.yaml"))
    freak()  # the warm cache filled
    standard()
    warm = command_row(
        bench,
        "check-freak-warm",
        "`pokerrules check rulesets/freak-hands.yaml`, warm cache",
        "`check rulesets/standard.yaml`, warm",
        freak,
        standard,
        "<= 3 s, <= 300 MiB",
        under(3),
    )
    cold = command_row(
        bench,
        "check-freak-cold",
        "`pokerrules check rulesets/freak-hands.yaml`, empty cache",
        "`check rulesets/standard.yaml`, empty cache",
        bench.process(bench.cli("check", "rulesets/freak-hands.yaml"), cache=bench.empty_cache),
        bench.process(bench.cli("check", "rulesets/standard.yaml"), cache=bench.empty_cache),
        "<= 10 s, <= 300 MiB",
        under(10),
    )
    return [warm, cold]


def check_catalogue(bench: Bench) -> list[Row]:
    """``check rulesets/`` (every catalogue file), warm, against ``check standard.yaml``."""
    count = len(list((bench.root / "rulesets").glob("*.yaml")))
    every = bench.process(bench.cli("check", "rulesets/"))
    standard = bench.process(bench.cli("check", "rulesets/standard.yaml"))
    every()
    standard()
    return [
        command_row(
            bench,
            "check-catalogue",
            f"`pokerrules check rulesets/` ({count} files), warm cache",
            "`check rulesets/standard.yaml`, warm",
            every,
            standard,
            "<= 10 s, <= 300 MiB",
            under(10),
        )
    ]


def tool_rows(bench: Bench) -> list[Row]:
    """``stats freak-hands``, ``diff standard freak-hands``, ``diff standard four-flush`` (warm)."""
    rows = []
    for key, args, base_args in (
        ("stats-freak", ("stats", "freak-hands"), ("stats", "standard")),
        ("diff-freak", ("diff", "standard", "freak-hands"), ("diff", "standard", "short-deck")),
        ("diff-four-flush", ("diff", "standard", "four-flush"), ("diff", "standard", "short-deck")),
    ):
        ours = bench.process(bench.cli(*args))
        base = bench.process(bench.cli(*base_args))
        ours()
        base()
        rows.append(
            command_row(
                bench,
                key,
                f"`pokerrules {' '.join(args)}`, warm cache",
                f"`{' '.join(base_args)}`, warm",
                ours,
                base,
                "<= 3 s, <= 300 MiB",
                under(3),
            )
        )
    return rows


def build_rows(bench: Bench) -> list[Row]:
    """The first table build of freak-hands and four-flush (an empty cache), against standard's."""
    base = bench.process([sys.executable, "-c", BUILD_SCRIPT, "standard"], cache=bench.empty_cache)
    rows = []
    for name in ("freak-hands", "four-flush"):
        ours = bench.process([sys.executable, "-c", BUILD_SCRIPT, name], cache=bench.empty_cache)
        rows.append(
            command_row(
                bench,
                f"build-{name}",
                f"first table build of {name} in a new process (load, build, write the cache)",
                "the same for standard",
                ours,
                base,
                "<= 5 s, <= 300 MiB",
                under(5),
            )
        )
    return rows


def game_rows(bench: Bench) -> list[Row]:
    """A few deals of a game whose wild ranks the deal decides, on an empty cache, against the same
    on a warm one (each wild-rank variant's tables built: a second or two each)."""
    args = ("odds", "follow-the-queen", "(As Ad) Qh", "(?? ??) 6d", "--seed", "1", "--samples")
    rows = []
    for deals in (200, 2_000) if not bench.quick else (200,):
        ours = bench.process(bench.cli(*args, str(deals)), cache=bench.empty_cache)
        base = bench.process(bench.cli(*args, str(deals)))
        base()  # every variant met into the warm cache
        rows.append(
            command_row(
                bench,
                f"game-odds-{deals}",
                f"`odds follow-the-queen` of {deals:,} sampled deals, empty cache",
                "the same, warm cache",
                ours,
                base,
                "<= 2x warm (a few deals build no tables)",
                lambda row: row.ratio <= 2,
            )
        )
    return rows


def first_rank_rows(bench: Bench) -> list[Row]:
    """The first ``rank_many`` of 8-12-card holdings in a new process (warm cache), against 7 cards."""
    script = bench.scratch / "first_rank.py"
    script.write_text(FIRST_RANK_SCRIPT, encoding="utf-8")

    def first_call(k: int) -> Callable[[], tuple[float, float]]:
        run = bench.process([sys.executable, str(script), str(k)])

        def timed() -> tuple[float, float]:
            _, peak = run()
            return float((bench.scratch / "stdout.txt").read_text().strip()), peak

        return timed

    base = first_call(7)
    base()  # the tables into the warm cache
    rows = []
    for k in (8, 12) if bench.quick else (8, 9, 10, 11, 12):
        ours = first_call(k)
        ours()  # a grown table that is cached is cached now
        rows.append(
            command_row(
                bench,
                f"first-rank-{k}",
                f"first `rank_many` of 1,000 {k}-card holdings in a new process (the call alone), warm cache",
                "the same with 7 cards",
                ours,
                base,
                "<= 2x (grown tables cached like the rest)",
                lambda row: row.ratio <= 2,
            )
        )
    return rows


PROCESS_ROWS: dict[str, tuple[str, Callable[[Bench], list[Row]]]] = {
    "eval-stream": ("`pokerrules eval standard -` vs a treys loop (whole processes)", eval_stream),
    "startup": ('`pokerrules eval standard "..."` warm vs `python -c "import numpy"`', startup),
    "check-freak": ("`check freak-hands.yaml`, warm and empty cache", check_rows),
    "check-catalogue": ("`check rulesets/`, warm", check_catalogue),
    "tools": ("`stats freak-hands`, `diff standard freak-hands`, `diff standard four-flush`", tool_rows),
    "build": ("first table build of freak-hands and four-flush, with peak memory", build_rows),
    "first-rank": ("first `rank_many` of 8-12-card holdings in a new process", first_rank_rows),
    "game-odds": ("`odds follow-the-queen`, 200 and 2,000 deals, empty cache vs warm", game_rows),
}
