"""The suit tie-break rows of ``cliffs.py`` in CPU time, for a loaded machine.

    taskset -c 0 python benchmarks/suit_cpu.py

Each suit tie-break ruleset of the catalogue (``suits-*``, ``italian``) against
standard, seven cards: ``rank_many`` of 100,000 holdings and ``rank`` of
20,000, the same seeded hands as ``cliffs.py``'s ``suits`` rows. Rounds are
interleaved and timed with ``time.process_time`` (the CPU time of this process,
which other sessions on a shared core do not inflate as they do the wall
clock); the best of five rounds is kept on each side.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from cliffs_api import dealt  # noqa: E402

from evaluator import load  # noqa: E402
from evaluator.ruleset import Ruleset  # noqa: E402

ROUNDS = 5


def cpu(work: Callable[[], object]) -> float:
    """CPU seconds of one call of ``work``."""
    start = time.process_time()
    work()
    return time.process_time() - start


def rounds(rs: Ruleset, standard: Ruleset, base: np.ndarray, base_codes: list[Any]) -> dict[str, list[float]]:
    """CPU seconds of each round: ``rs`` and standard, batch and per call, interleaved."""
    ids = dealt(rs, 100_000, 7, 12)
    rs.rank_many(ids[:100])  # tables loaded
    codes = [rs.encode(tuple(row)) for row in ids[:20_000].tolist()]
    rs.rank(codes[0])  # the per-call class table made (on first use)
    times: dict[str, list[float]] = {"ours": [], "base": [], "ours-call": [], "base-call": []}
    for _ in range(ROUNDS):
        times["ours"].append(cpu(lambda: rs.rank_many(ids)))
        times["base"].append(cpu(lambda: standard.rank_many(base)))
        times["ours-call"].append(cpu(lambda: [rs.rank(c) for c in codes]))
        times["base-call"].append(cpu(lambda: [standard.rank(c) for c in base_codes]))
    return times


def main() -> None:
    """Print each ruleset's batch and per-call ratio to standard, and the slowest."""
    names = sorted(p.stem for p in (ROOT / "rulesets").glob("suits-*.yaml")) + ["italian"]
    standard = load("standard")
    base = dealt(standard, 100_000, 7, 11)
    base_codes = [standard.encode(tuple(row)) for row in base[:20_000].tolist()]
    standard.rank_many(base[:100])
    found = []
    print("| ruleset | batch | per call |\n|---|---|---|")
    for name in names:
        times = rounds(load(name), standard, base, base_codes)
        batch = min(times["base"]) / min(times["ours"])
        call = min(times["base-call"]) / min(times["ours-call"])
        found.append((name, batch, call))
        print(f"| {name} | {batch:.3f} | {call:.3f} |", flush=True)
    worst_batch = min(found, key=lambda row: row[1])
    worst_call = min(found, key=lambda row: row[2])
    print(f"\nslowest: batch {worst_batch[1]:.3f}x ({worst_batch[0]}), per call {worst_call[2]:.3f}x ({worst_call[0]})")


if __name__ == "__main__":
    main()
