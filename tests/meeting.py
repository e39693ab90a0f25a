"""Counting pairs of hands that can meet (share no card), plainly, for the flip census tests.

Each helper is a direct count: suit assignments enumerated per rank pattern,
bit masks compared pair by pair, or an inclusion-exclusion over the card sets
two hands share (the pairs sharing a card are the hands holding each card, less
those holding each two cards, and so on).
"""

from __future__ import annotations

from functools import cache
from itertools import chain, combinations, product
from math import comb

import numpy as np


def same_ranks_pairs(multiplicities: tuple[int, ...], suits: int, suited: bool) -> int:
    """Unordered pairs of hands of one rank pattern that share no card (one-suited or not, as ``suited``)."""
    assignments = list(product(*(combinations(range(suits), m) for m in multiplicities)))
    one_suit = [len({s for held in hand for s in held}) == 1 for hand in assignments]
    kept = [hand for hand, flag in zip(assignments, one_suit, strict=True) if flag == suited]
    as_cards = [{(position, s) for position, held in enumerate(hand) for s in held} for hand in kept]
    return sum(1 for x, y in combinations(as_cards, 2) if not x & y)


@cache
def every_hand() -> np.ndarray:
    """Every 5-card hand of 52 card ids (rank * 4 + suit, rank 0 = deuce ... 12 = ace), as int8:
    13 MB, and so are the ranks and suits derived from it (bit masks are made with ``np.int64(1) <<``)."""
    # streamed into the array: a list of 2.6 M tuples first would take a few hundred MB
    cards = chain.from_iterable(combinations(range(52), 5))
    return np.fromiter(cards, dtype=np.int8, count=5 * comb(52, 5)).reshape(-1, 5)


def standard_classes(hands: np.ndarray) -> dict[str, np.ndarray]:
    """Plain five-card classification: category masks and a value that orders hands of no pair."""
    ranks, suits = np.sort(hands // 4, axis=1), hands % 4
    counts = np.stack([(ranks == r).sum(axis=1) for r in range(13)], axis=1)
    distinct = (counts > 0).sum(axis=1)
    flush = (suits == suits[:, :1]).all(axis=1)
    wheel = (ranks == np.array([0, 1, 2, 3, 12])).all(axis=1)
    straight = (distinct == 5) & ((ranks[:, 4] - ranks[:, 0] == 4) | wheel)
    most_of_a_suit = np.stack([(suits == s).sum(axis=1) for s in range(4)], axis=1).max(axis=1)
    no_pair = (distinct == 5) & ~straight & ~flush
    return {
        "pair": distinct == 4,
        "high_card": no_pair & (most_of_a_suit < 4),
        "four_flush": no_pair & (most_of_a_suit == 4),
        "value": (ranks * 13 ** np.arange(5)).sum(axis=1),  # no-pair hands: the ranks, high card first
    }


class SharedCards:
    """Counts of hands holding each card set of 1-4 cards, to count pairs that share a card (inclusion-exclusion)."""

    def __init__(self) -> None:
        self.tallies = {k: np.zeros(comb(52, k), dtype=np.int64) for k in range(1, 5)}
        self.hands = 0

    @staticmethod
    def index(cards: np.ndarray) -> np.ndarray:  # colex rank of sorted card sets
        return sum(np.array([comb(int(c), i + 1) for c in range(52)])[cards[:, i]] for i in range(cards.shape[1]))

    def add(self, hands: np.ndarray, sign: int = 1) -> None:
        self.hands += sign * len(hands)
        for k in range(1, 5):
            for positions in combinations(range(5), k):
                found = np.bincount(self.index(hands[:, list(positions)]), minlength=len(self.tallies[k]))
                self.tallies[k] += sign * found

    def apart(self, hands: np.ndarray) -> int:
        """Pairs (one of ``hands``, one counted hand) that share no card (the two sets of hands are disjoint)."""
        shared = 0
        for k in range(1, 5):
            for positions in combinations(range(5), k):
                shared += (-1) ** (k + 1) * int(self.tallies[k][self.index(hands[:, list(positions)])].sum())
        return len(hands) * self.hands - shared


def meeting(first: list[int], second: list[int]) -> int:
    """Pairs (one of ``first``, one of ``second``) of bit masks that share no card."""
    x, y = np.array(first, dtype=np.int64), np.array(second, dtype=np.int64)
    return sum(int(((x[start : start + 256, None] & y[None, :]) == 0).sum()) for start in range(0, len(x), 256))
