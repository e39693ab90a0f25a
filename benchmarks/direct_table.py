"""A 60-line NumPy evaluator over a 268 MB direct table: exact heads-up hold'em before the flop.

The reference that ``pokerrules odds holdem AhKh QsQd`` is timed against in
``bench_exact.py``: one uint16 value for every set of seven cards of 52
(133,784,560 of them, 268 MB), indexed by the set's colex rank
``sum C(card_i, i + 1)`` over its cards in increasing order. The table is
filled once with ``Ruleset.rank_many`` and kept in a file; a matchup is then
every board (1,712,304), both players' seven cards sorted, two gathers and a
comparison.

    python benchmarks/direct_table.py       # builds /tmp/pokerrules-direct7.u16 once, times AhKh vs QsQd
"""

from __future__ import annotations

import os
import time
from math import comb
from pathlib import Path

import numpy as np

from evaluator import load
from evaluator.odds.deals import combination_indices

TABLE = Path(os.environ.get("DIRECT_TABLE", "/tmp/pokerrules-direct7.u16"))
BINOMIAL = np.array([[comb(n, k) for k in range(8)] for n in range(53)], dtype=np.int64)


def build() -> np.ndarray:
    """The table: every seven-card set by colex rank (sets with a smaller top card come first)."""
    if TABLE.exists() and TABLE.stat().st_size == 2 * comb(52, 7):
        return np.fromfile(TABLE, dtype=np.uint16)
    holdem = load("holdem")
    table = np.empty(comb(52, 7), dtype=np.uint16)
    for top in range(6, 52):
        rest = combination_indices(top, 6).astype(np.int64)
        for start in range(0, len(rest), 1 << 20):
            part = rest[start : start + (1 << 20)]
            hands = np.concatenate([part, np.full((len(part), 1), top)], axis=1)
            table[comb(top, 7) + start : comb(top, 7) + start + len(part)] = holdem.rank_many(hands)
    table.tofile(TABLE)
    return table


def colex(cards: np.ndarray) -> np.ndarray:
    """The colex rank of rows of increasing card ids."""
    rank = BINOMIAL[cards[:, 0], 1]
    for i in range(1, cards.shape[1]):
        rank = rank + BINOMIAL[cards[:, i], i + 1]
    return rank


def matchup(table: np.ndarray, first: list[int], second: list[int]) -> tuple[int, int, int]:
    """Wins of the first hand, ties, and boards, over every board."""
    left = np.array([c for c in range(52) if c not in first + second], dtype=np.int64)
    boards = left[combination_indices(len(left), 5).astype(np.int64)]  # increasing: left is sorted
    values = []
    for hole in (first, second):
        cards = np.sort(np.concatenate([boards, np.broadcast_to(np.array(hole), (len(boards), 2))], axis=1), axis=1)
        values.append(table[colex(cards)])
    return int((values[0] > values[1]).sum()), int((values[0] == values[1]).sum()), len(boards)


if __name__ == "__main__":
    holdem = load("holdem")
    started = time.process_time()
    table = build()
    print(f"table ready ({table.nbytes / 1e6:.0f} MB) in {time.process_time() - started:.1f} s of CPU")
    started = time.process_time()
    hero, villain = ([holdem.deck.index(card) for card in holdem.cards(text)] for text in ("Ah Kh", "Qs Qd"))
    wins, ties, boards = matchup(table, hero, villain)
    print(
        f"AhKh vs QsQd: {wins:,} wins, {ties:,} ties of {boards:,} boards ({time.process_time() - started:.2f} s of CPU)"
    )
