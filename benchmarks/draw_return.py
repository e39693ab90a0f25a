"""Time the exact optimal-play return of one pay table per kind of game.

Run pinned to one core, from the repository root:

    taskset -c 0 python benchmarks/draw_return.py

Each game is timed from a warm table cache (the compiled ruleset tables are on
disk) and a cold return cache: ranking every five-card hand and counting the
categories per card subset, then playing each starting-hand class optimally.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from evaluator.draw.payback import game_return  # noqa: E402
from evaluator.draw.paytable import load_paytable  # noqa: E402
from evaluator.draw.videopoker import ReturnCalculator, build_final_hands  # noqa: E402

GAMES = [
    ("natural game", "jacks-or-better-9-6"),
    ("deuces wild", "deuces-wild-full-pay"),
    ("joker game", "joker-poker-kings"),
]


def main() -> None:
    print("| game | pay table | classes | subset counts | optimal play | total | return |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for kind, name in GAMES:
        table = load_paytable(name)
        table.ruleset.rank_many([[0, 1, 2, 3, 4]])  # the compiled tables, from the disk cache
        start = time.perf_counter()
        final = build_final_hands(table.ruleset)
        middle = time.perf_counter()
        result = ReturnCalculator(table.ruleset, final, table.vector(final.categories)).compute()
        end = time.perf_counter()
        assert abs(result.return_ - game_return(table, use_cache=False).return_) < 1e-12
        print(
            f"| {kind} | {name} | {result.classes:,} | {middle - start:.1f} s | {end - middle:.1f} s "
            f"| {end - start:.1f} s | {result.return_:.6%} |"
        )


if __name__ == "__main__":
    main()
