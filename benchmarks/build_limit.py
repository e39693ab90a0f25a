"""How long do the biggest lookup tables ``check`` accepts take to build? Measured beside standard.

    taskset -c 0 python benchmarks/build_limit.py            # print the table
    taskset -c 0 python benchmarks/build_limit.py --rounds 3

``check`` refuses a ruleset whose tables would take more than 1.5 million
units of work to build (R130, :mod:`evaluator.compiled.build_cost`). This
script builds, without the disk cache, the sweep rulesets (hand size x packs x
jokers: runs, flushes and the rest, as ``tests/test_check_sweep.py``) whose
estimate comes closest to the limit from below, and the shipped rulesets with
the largest estimates, each beside standard in the same run: rounds
interleaved, the fastest kept, ratios to standard printed with the seconds.
"""

from __future__ import annotations

import argparse
import time

from evaluator import load
from evaluator.compiled.build_cost import MAX_TABLE_WORK, build_cost, refusal
from evaluator.compiled.table_layout import card_model
from evaluator.compiled.tables import build_tables
from evaluator.rules.load import parse_yaml
from evaluator.ruleset import Ruleset, build_ruleset

SHIPPED = ("standard", "deuces-wild-video", "lowest-card-wild", "one-eyes")


def sweep_text(size: int, packs: int, jokers: int) -> str:
    """The sweep's ruleset of one grid point."""
    return (
        f"name: sweep-{size}-{packs}-{jokers}\n"
        f"deck: {{ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A], suits: [s, h, d, c], copies: {packs}, jokers: {jokers}}}\n"
        f"hand: {{size: {size}, min: {size}}}\n"
        "categories:\n"
        '  straight_flush: {pattern: "run & flush"}\n'
        "  flush: {pattern: flush}\n"
        "  straight: {pattern: run}\n"
        '  nothing: {pattern: "not (run | flush)"}\n'
        "order: [straight_flush, flush, straight, nothing]\n"
    )


def biggest_accepted(count: int) -> list[tuple[int, Ruleset]]:
    """The ``count`` sweep rulesets with the largest estimates that ``check`` still accepts."""
    found = []
    for size in range(1, 11):
        for packs in range(1, 9):
            for jokers in range(3):
                ruleset = build_ruleset(parse_yaml(sweep_text(size, packs, jokers), "<sweep>"))
                try:
                    cost = build_cost(ruleset, card_model(ruleset))
                except Exception:  # noqa: BLE001 - R104: not buildable at all
                    continue
                if refusal(ruleset, cost) is None:
                    found.append((cost.work, ruleset))
    found.sort(key=lambda item: -item[0])
    return found[:count]


def build_seconds(ruleset: Ruleset) -> float:
    """Seconds to build the tables of ``ruleset`` (no cache involved)."""
    started = time.perf_counter()
    build_tables(ruleset)
    return time.perf_counter() - started


def main() -> None:
    """Print one line per ruleset: its estimate, its fastest build and the ratio to standard."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--sweep", type=int, default=4, help="how many of the biggest accepted sweep points")
    args = parser.parse_args()
    rulesets: list[tuple[int, Ruleset]] = [
        (build_cost(rs, card_model(rs)).work, rs) for rs in (load(name) for name in SHIPPED)
    ]
    rulesets += biggest_accepted(args.sweep)
    best = {rs.name: float("inf") for _, rs in rulesets}
    for _ in range(args.rounds):
        for _, rs in rulesets:
            best[rs.name] = min(best[rs.name], build_seconds(rs))
    base = best["standard"]
    print(f"limit {MAX_TABLE_WORK:,} units; standard builds in {base:.2f} s")
    print(f"{'ruleset':<24}{'units':>12}{'build s':>10}{'x standard':>12}{'us/unit':>9}")
    for work, rs in rulesets:
        seconds = best[rs.name]
        print(f"{rs.name:<24}{work:>12,}{seconds:>10.2f}{seconds / base:>12.1f}{seconds / work * 1e6:>9.2f}")


if __name__ == "__main__":
    main()
