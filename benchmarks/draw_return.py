"""Time the exact optimal-play return of one pay table per kind of game, beside
a plain NumPy solver (benchmarks/draw_reference.py), in one run.

Run pinned to one core, from the repository root:

    taskset -c 0 python benchmarks/draw_return.py [--repeat N]

Measured, each N times (min / median / max of the CPU seconds):

* **in process**: ranking every five-card hand, counting the subsets and
  playing every starting-hand class (``build_final_hands`` and
  ``ReturnCalculator.compute``), from warm ruleset tables and without any
  cached return; the reference ``solve()`` the same way;
* **whole process**: ``pokerrules draw RULESET --paytable P --json`` in a fresh
  copy of a cache folder that holds the compiled ruleset tables and no
  return (Python start-up, imports and loading included), and
  ``python benchmarks/draw_reference.py``;
* the full strategy list of each game (``build_strategy``), once.

Child processes inherit the CPU affinity, so they run on the same core.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

GAMES = [
    ("natural game", "jacks-or-better-video", "jacks-or-better-9-6"),
    ("deuces wild", "deuces-wild-video", "deuces-wild-full-pay"),
    ("joker game", "joker-poker", "joker-poker-kings"),
]


def spread(values: list[float]) -> str:
    """min / median / max, seconds."""
    return f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}"


def cpu_of(work: Callable[[], object]) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def child_cpu(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """CPU and wall seconds of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, capture_output=True, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of each measurement (default 5)")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="draw-bench-"))
    template = scratch / "template"
    template.mkdir(mode=0o700)
    env = {**os.environ, "POKERRULES_CACHE": str(template)}
    os.environ["POKERRULES_CACHE"] = str(template)
    pokerrules = [sys.executable, "-m", "evaluator.cli.main"]
    for _, ruleset, _ in GAMES:  # compile the ruleset tables once, into the template cache
        subprocess.run([*pokerrules, "eval", ruleset, "Ah Kh Qh Jh Th"], env=env, check=True, capture_output=True)

    import draw_reference

    from evaluator.draw.paytable import load_paytable
    from evaluator.draw.strategy import build_strategy
    from evaluator.draw.videopoker import ReturnCalculator, build_final_hands

    print(f"CPU seconds, min / median / max of {args.repeat} runs, pinned to one core (taskset -c 0)\n")
    print("| game | pay table | in process | whole process | return | strategy list (once) |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for kind, ruleset, name in GAMES:
        table = load_paytable(name)
        table.ruleset.rank_many([[0, 1, 2, 3, 4]])  # the compiled tables, from the cache
        returns: list[float] = []

        def ours(table: object = table, returns: list[float] = returns) -> None:
            final = build_final_hands(table.ruleset)  # type: ignore[attr-defined]
            pays = table.vector(final.categories)  # type: ignore[attr-defined]
            returns.append(ReturnCalculator(table.ruleset, final, pays).compute().return_)  # type: ignore[attr-defined]

        inside = [cpu_of(ours) for _ in range(args.repeat)]
        whole = []
        for run in range(args.repeat):
            fresh = scratch / f"{name}-{run}"
            shutil.copytree(template, fresh)
            shutil.rmtree(fresh / "draw", ignore_errors=True)  # no cached return, whatever the layout
            command = [*pokerrules, "draw", ruleset, "--paytable", name, "--json"]
            whole.append(child_cpu(command, {**env, "POKERRULES_CACHE": str(fresh)})[0])
        strategy_seconds = cpu_of(lambda table=table: build_strategy(table))
        print(
            f"| {kind} | {name} | {spread(inside)} | {spread(whole)} | {100 * returns[-1]:.6f}% "
            f"| {strategy_seconds:.1f} |"
        )
    reference_inside = []
    reference_return = 0.0
    for _ in range(args.repeat):
        start = time.process_time()
        reference_return = draw_reference.solve()
        reference_inside.append(time.process_time() - start)
    reference_whole = [
        child_cpu([sys.executable, str(ROOT / "benchmarks" / "draw_reference.py")], env)[0] for _ in range(args.repeat)
    ]
    print(
        f"| reference (plain NumPy) | jacks-or-better-9-6 | {spread(reference_inside)} | {spread(reference_whole)} "
        f"| {100 * reference_return:.6f}% | |"
    )
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
