"""No cliffs: every row of the table of slow spots, each with its peer or base in the same run.

    python benchmarks/cliffs.py                       # every row, 3 rounds each
    python benchmarks/cliffs.py --quick               # smaller work, fewer rounds
    python benchmarks/cliffs.py --rows evaluate,eval-stream   # some rows (a key or its prefix)
    python benchmarks/cliffs.py --list                # the row keys
    python benchmarks/cliffs.py --save benchmarks/RESULTS-cliffs.md   # also append the table there

Each row times pokerrules and its peer (another evaluator doing the same work)
or base (the same work where it is easy: standard rules, seven cards, one
pack) round after round, interleaved, in this process pinned to one core (the
child processes of command rows inherit the pin). A row prints the median and
the spread (min-max) of each side and of the per-round ratio, the peak memory of
command rows (``wait4``), and whether the target is met. Rows about a command
run whole processes (``python -m evaluator ...`` from this checkout); rows about
the API run in this process, the tables loaded before timing. "Warm" commands
use a cache folder filled once before timing (``--cache``, else a temporary one);
"empty cache" and "first build" rounds each get a new, empty folder. The machine
may be shared: read the ratios, and the spread, rather than absolute times.
Child processes write their bytecode to the scratch folder first (an installed
package has its ``.pyc`` files; ``PYTHONDONTWRITEBYTECODE`` would make every
start compile the sources).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from cliffs_api import API_ROWS  # noqa: E402
from cliffs_rows import PROCESS_ROWS, Bench  # noqa: E402
from cliffs_table import Row, render  # noqa: E402

#: Every row, in the order of the table of slow spots.
ORDER = (
    "evaluate",
    "eval-stream",
    "check-freak",
    "check-catalogue",
    "tools",
    "build",
    "suits",
    "omaha-showdown",
    "equity",
    "rank-8",
    "two-packs",
    "first-rank",
    "game-odds",
    "startup",
)
ROWS: dict[str, tuple[str, Callable[[Bench], list[Row]]]] = {key: {**API_ROWS, **PROCESS_ROWS}[key] for key in ORDER}


def pin() -> str:
    """Pin this process (and so its children) to one core."""
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        return "pinned to one core"
    except (AttributeError, OSError):
        return "not pinned"


def chosen(spec: str | None) -> list[str]:
    """Row keys named by ``--rows`` (a key or a prefix of keys, comma-separated)."""
    if not spec:
        return list(ROWS)
    keys: list[str] = []
    for part in (p.strip() for p in spec.split(",")):
        found = [key for key in ROWS if key == part or key.startswith(part)]
        if not found:
            raise SystemExit(f"cliffs.py: no row {part!r} (see --list)")
        keys += [key for key in found if key not in keys]
    return keys


def main() -> int:
    """Run the rows asked for and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", help="row keys or prefixes, comma-separated (default: every row)")
    parser.add_argument("--quick", action="store_true", help="smaller work and fewer rounds (a smoke run)")
    parser.add_argument("--rounds", type=int, help="rounds per row (default 3; 1 with --quick)")
    parser.add_argument("--cache", type=Path, help="the warm table cache folder (default: a temporary one)")
    parser.add_argument("--list", action="store_true", help="print the row keys and stop")
    parser.add_argument("--save", type=Path, help="append the table to this Markdown file")
    args = parser.parse_args()
    if args.list:
        for key, (what, _) in ROWS.items():
            print(f"{key:18} {what}")
        return 0
    keys = chosen(args.rows)
    note = pin()
    rounds = args.rounds or (1 if args.quick else 3)
    with tempfile.TemporaryDirectory(prefix="cliffs-") as scratch:
        warm = args.cache or Path(scratch) / "warm"
        warm.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.environ["POKERRULES_CACHE"] = str(warm)  # the in-process rows and warm commands
        bench = Bench(root=ROOT, scratch=Path(scratch), warm=warm, rounds=rounds, quick=args.quick)
        if any(key in PROCESS_ROWS for key in keys):
            bench.compile_once()
        rows: list[Row] = []
        started = time.perf_counter()
        for key in keys:
            what, run = ROWS[key]
            print(f"[{time.perf_counter() - started:7.1f} s] {key}: {what}", file=sys.stderr, flush=True)
            random.seed(2026)
            rows += run(bench)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    header = (
        f"## No cliffs ({note}; {rounds} interleaved round{'s' if rounds != 1 else ''} per row"
        f"{', quick' if args.quick else ''}; load average {load:.1f} on {os.cpu_count()} cores)"
    )
    text = render(header, rows)
    print(text)
    if args.save:
        with open(args.save, "a", encoding="utf-8") as out:
            out.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
