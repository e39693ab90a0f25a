"""``pokerrules diff standard R`` for every catalogue ruleset R: where diff is slow, as whole processes.

    python benchmarks/diff_catalogue.py                          # every ruleset, one round
    python benchmarks/diff_catalogue.py --rounds 3 --slowest 15  # the 15 slowest, median of 3
    python benchmarks/diff_catalogue.py --base ../old-checkout   # the same commands of another checkout, in turn
    python benchmarks/diff_catalogue.py --only badugi,razz       # some rulesets
    python benchmarks/diff_catalogue.py --save benchmarks/RESULTS-cliffs.md

Each command runs as ``python -m evaluator diff standard R`` from a checkout,
pinned to one core (``--core``), with a warm cache filled by a first round
that is not timed; with ``--base`` the other checkout runs the same command
right after in each round, and the table gives the ratio and whether both
printed the same report. Read ratios, not absolute times: the machine may be
shared.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from cliffs_rows import Bench  # noqa: E402


def timed(bench: Bench, ruleset: str) -> tuple[float, float, str]:
    """One run of ``diff standard RULESET`` from ``bench``'s checkout: seconds, peak MiB and a
    digest of what it printed."""
    seconds, peak = bench.process(bench.cli("diff", "standard", ruleset))()
    printed = (bench.scratch / "stdout.txt").read_bytes()
    return seconds, peak, hashlib.sha256(printed).hexdigest()


def spread(values: list[float]) -> str:
    """Median (min-max), or the one value."""
    middle = statistics.median(values)
    return f"{middle:.2f} s" if len(values) == 1 else f"{middle:.2f} s ({min(values):.2f}-{max(values):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=1, help="timed rounds per ruleset (default 1)")
    parser.add_argument("--base", type=Path, help="another checkout whose diff runs in the same rounds")
    parser.add_argument("--core", type=int, default=0, help="the core to pin to (default 0)")
    parser.add_argument("--slowest", type=int, help="time only the N slowest of the warm-up round")
    parser.add_argument("--only", help="these rulesets only, comma-separated (e.g. badugi,freak-hands)")
    parser.add_argument("--save", type=Path, help="also append the table to this file")
    args = parser.parse_args()
    os.sched_setaffinity(0, {args.core})
    names = sorted(path.stem for path in (ROOT / "rulesets").glob("*.yaml"))
    if args.only:
        names = [name for name in names if name in args.only.split(",")]
    with tempfile.TemporaryDirectory(prefix="diff-catalogue-") as folder:
        scratch = Path(folder)
        warm = scratch / "cache"
        warm.mkdir()
        ours = Bench(ROOT, scratch / "ours", warm, args.rounds, False)
        base = Bench(args.base.resolve(), scratch / "base", warm, args.rounds, False) if args.base else None
        benches = [bench for bench in (ours, base) if bench is not None]
        for bench in benches:
            bench.scratch.mkdir()
            bench.compile_once()
        first = {name: timed(ours, name)[0] for name in names}  # fills the cache; not counted
        if base is not None:
            for name in names:
                timed(base, name)
        if args.slowest:
            names = sorted(names, key=first.__getitem__, reverse=True)[: args.slowest]
        rows = []
        for name in names:
            found: list[list[tuple[float, float, str]]] = [[] for _ in benches]
            for _ in range(args.rounds):
                for side, bench in enumerate(benches):
                    found[side].append(timed(bench, name))
            rows.append((name, found))
            print(f"  {name}: {spread([r[0] for r in found[0]])}", file=sys.stderr, flush=True)
    rows.sort(key=lambda row: statistics.median(r[0] for r in row[1][0]), reverse=True)
    table = render(rows, args, os.getloadavg()[0])
    print(table)
    if args.save:
        with open(args.save, "a", encoding="utf-8") as out:
            out.write("\n" + table)


def render(rows: list[tuple[str, list[list[tuple[float, float, str]]]]], args: argparse.Namespace, load: float) -> str:
    """The markdown table, slowest first."""
    base = args.base is not None
    title = f"## `diff standard R` over the catalogue ({time.strftime('%Y-%m-%d')}, core {args.core}, "
    title += f"{args.rounds} round{'s' * (args.rounds != 1)}, load average {load:.1f})\n\n"
    head = "| R | this checkout | peak |" + (" base | this / base | same report |" if base else "")
    lines = [title + head, "|---" * (3 + 3 * base) + "|"]
    for name, (mine, *theirs) in rows:
        line = f"| {name} | {spread([r[0] for r in mine])} | {max(r[1] for r in mine):.0f} MiB |"
        if theirs:
            other = theirs[0]
            ratio = statistics.median(m[0] / t[0] for m, t in zip(mine, other, strict=True))
            same = "yes" if {r[2] for r in mine} == {r[2] for r in other} else "NO"
            line += f" {spread([r[0] for r in other])} | {ratio:.2f}x | {same} |"
        lines.append(line)
    command = "python benchmarks/diff_catalogue.py" + (f" --rounds {args.rounds}" if args.rounds != 1 else "")
    command += f" --slowest {args.slowest}" if args.slowest else ""
    command += f" --only {args.only}" if args.only else ""
    command += " --base CHECKOUT" if base else ""
    return "\n".join(lines) + f"\n\nReproduce: `{command}`.\n"


if __name__ == "__main__":
    main()
