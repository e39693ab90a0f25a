"""Per-hand tables of the suit-class rulesets, when the deck is small enough.

A suit-class ruleset whose threshold is low (badugi's two, a ``run(2, flush)``)
builds a reduced key for nearly every hand, which costs a pass over the cards
per suit. When every card of the deck has its own code (one pack, at most one
wild card) and the hands of ``hand.size`` cards are few, each hand can have its
own entry instead, valued once by the suit-class tables themselves
(``suitbatch.SuitBatch``, tested against the generic evaluator):

- batch: one int32 array per hand size, indexed by the hand's *colex rank*
  (``sum(comb(id_j, j + 1))`` over its ids sorted ascending); a row is sorted
  by a small sorting network and ranked with one gather per card; a bigger
  holding is sorted once, so each of its subsets is sorted already and its
  rank is a sum of per-position binomials;
- per call (fewer hands still): a dict keyed by the sum of one bit per card
  plus the card count in the top bits, so a repeated card (a carry) or a
  bigger holding is simply absent and takes the reduced-key path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import comb
from typing import Any

import numpy as np

from .classgrid import NO_HAND

#: Most hands of ``hand.size`` cards a batch table holds (int32: 16 MB).
DIRECT_HANDS = 4_000_000
#: Most hands (all sizes) a per-call dict holds (about 70 bytes an entry).
PER_CALL_HANDS = 400_000
#: Rows valued at once while building (bounds the memory of the build).
BUILD_ROWS = 1 << 19
#: Bit of the card count in a per-call key (one bit per card below it).
COUNT_SHIFT = 60
#: Share of hands reaching the suit threshold above which a per-hand table pays (below it
#: most hands are one plain lookup, as fast as the per-hand table or faster).
REACHING_SHARE = 0.5
#: Compare-exchanges sorting five values (and, on a prefix, fewer).
NETWORKS = {
    1: [],
    2: [(0, 1)],
    3: [(0, 1), (1, 2), (0, 1)],
    4: [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)],
    5: [(0, 1), (3, 4), (2, 4), (2, 3), (1, 4), (0, 3), (0, 2), (1, 3), (1, 2)],
}


def direct_deck(codes: Sequence[int], size: int, limit: int) -> bool:
    """True when every card has its own code and there are at most ``limit`` hands of ``size`` cards.

    >>> direct_deck([1, 2, 4, 8], 2, 6), direct_deck([1, 2, 4, 4], 2, 6), direct_deck([1, 2, 4, 8], 2, 5)
    (True, False, False)
    """
    return len(set(codes)) == len(codes) and size in NETWORKS and comb(len(codes), size) <= limit


def worth_direct(ranker: Any, limit: int) -> bool:
    """True when a per-hand table of at most ``limit`` hands of ``hand.size`` cards can be built for
    ``ranker``'s suit-class ruleset and pays: most hands reach the suit threshold."""
    codes: list[int] = ranker.code_list
    size: int = ranker.size
    if not direct_deck(codes, size, limit):
        return False
    layout = ranker.layout
    wild = ranker.model.wild_code if layout.has_wild_digit else None
    naturals = [code for code in codes if code != wild]
    suit_sizes = [sum(1 for code in naturals if code & layout.suit_one(s)) for s in range(layout.suits)]
    threshold: int = ranker.tables.suit_table.threshold
    return reaching_share(suit_sizes, len(codes) - len(naturals), size, threshold) > REACHING_SHARE


def reaching_share(suit_sizes: Sequence[int], wilds: int, size: int, threshold: int) -> float:
    """The share of ``size``-card hands some suit of which holds ``threshold`` cards (a wild card
    counting in every suit): when it is small the reduced-key path is one lookup for most hands.

    >>> round(reaching_share([13, 13, 13, 13], 0, 4, 2), 4)  # all but the rainbow hands
    0.8945
    """
    below = 0  # hands no suit of which reaches the threshold
    for wild in range(min(wilds, size, threshold - 1) + 1):
        ways = [1]  # ways[j]: j naturals, every suit below threshold - wild
        for cards in suit_sizes:
            one = [comb(cards, j) for j in range(threshold - wild)]
            ways = [
                sum(ways[i] * one[j - i] for i in range(len(ways)) if 0 <= j - i < len(one))
                for j in range(len(ways) + len(one) - 1)
            ]
        naturals = size - wild
        below += comb(wilds, wild) * (ways[naturals] if naturals < len(ways) else 0)
    return 1 - below / comb(sum(suit_sizes) + wilds, size)


def colex_combinations(cards: int, size: int) -> list[np.ndarray]:
    """Every hand of 0 to ``size`` ids from ``range(cards)``, ids ascending, in colex order (row = colex rank).

    >>> colex_combinations(4, 2)[2].tolist()
    [[0, 1], [0, 2], [1, 2], [0, 3], [1, 3], [2, 3]]
    """
    found = [np.zeros((1, 0), dtype=np.int64)]
    for k in range(1, size + 1):
        below = found[-1]
        # colex order: the hands within range(top) come first, so those below a top id are a prefix
        found.append(
            np.concatenate(
                [
                    np.column_stack([below[: comb(top, k - 1)], np.full(comb(top, k - 1), top, dtype=np.int64)])
                    for top in range(k - 1, cards)
                ]
            )
        )
    return found


class DirectTable:
    """Values of every hand of ``low`` to ``size`` cards of the deck, by colex rank (batch)."""

    def __init__(self, cards: int, low: int, size: int, rank_rows: Callable[[np.ndarray], np.ndarray]) -> None:
        self.size = size
        self.binomials = np.array([[comb(i, j) for i in range(cards)] for j in range(size + 1)], dtype=np.int64)
        hands = colex_combinations(cards, size)
        self.values: dict[int, np.ndarray] = {}
        for k in range(max(low, 1), size + 1):
            rows = hands[k]
            self.values[k] = np.concatenate(
                [rank_rows(rows[start : start + BUILD_ROWS]) for start in range(0, len(rows), BUILD_ROWS)]
            ).astype(np.int32)

    def rank(self, columns: np.ndarray) -> np.ndarray:
        """Values of hands given as columns of distinct, checked ids (shape (k, n), ``low <= k <= size``;
        ``columns`` is sorted in place, so pass a copy the caller owns)."""
        column = sort_columns(columns)
        index = self.binomials[1].take(column[0])
        for j in range(1, len(column)):
            index += self.binomials[j + 1].take(column[j])
        found: np.ndarray = self.values[len(column)].take(index)
        return found

    def best(self, columns: np.ndarray) -> np.ndarray:
        """The best ``size``-card subset of holdings of more cards (columns of distinct, checked ids,
        shape (k, n), sorted in place): the ids are sorted once, so every subset is sorted too and
        its colex rank is a sum of per-position binomials, shared along common prefixes."""
        column = sort_columns(columns)
        k, size = len(column), self.size
        # terms[j][i]: the binomial the i-th smallest id adds as the j-th card of a subset
        terms = [{i: self.binomials[j + 1].take(column[i]) for i in range(j, k - size + j + 1)} for j in range(size)]
        values = self.values[size]
        best = np.full(len(column[0]), NO_HAND, dtype=np.int64)

        def walk(start: int, j: int, partial: np.ndarray | None) -> None:
            for i in range(start, k - size + j + 1):
                index = terms[j][i] if partial is None else partial + terms[j][i]
                if j + 1 == size:
                    np.maximum(best, values.take(index), out=best)
                else:
                    walk(i + 1, j + 1, index)

        walk(0, 0, None)
        return best


def sort_columns(columns: np.ndarray) -> list[np.ndarray]:
    """The columns sorted across (row by row), in place: a sorting network of compare-exchanges."""
    column = list(columns)
    k = len(column)
    # the optimal networks up to five; bubble sort's network beyond
    network = NETWORKS[k] if k in NETWORKS else [(j, j + 1) for i in range(k) for j in range(k - 1 - i)]
    for a, b in network:
        low = np.minimum(column[a], column[b])
        np.maximum(column[a], column[b], out=column[b])
        column[a] = low
    return column


def per_call_table(table: DirectTable, codes: Sequence[int]) -> tuple[dict[int, int], dict[int, int]]:
    """The per-call form: values by key (the sum of the cards' ``bits``), and the bit of each code.

    A card's bit is ``1 << id`` plus one in the count field at ``COUNT_SHIFT``.
    """
    bits = {code: (1 << card) + (1 << COUNT_SHIFT) for card, code in enumerate(codes)}
    hands = colex_combinations(len(codes), table.size)
    shared: dict[int, int] = {}  # one int object per value
    values: dict[int, int] = {}
    for k, found in table.values.items():
        keys = np.left_shift(np.int64(1), hands[k]).sum(axis=1) + np.int64(k << COUNT_SHIFT)
        for key, value in zip(keys.tolist(), found.tolist(), strict=False):
            values[key] = shared.setdefault(value, value)
    return values, bits
