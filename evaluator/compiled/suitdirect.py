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
  rank is a sum of per-position binomials. When suits raise few hands above
  the least value of their rank multiset, a bigger holding first compares
  that floor with a ceiling of what its suits can add (``RaiseBound``), and
  only the holdings where suits may matter rank their subsets;
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
#: Most cards in a hand of a per-hand table.
DIRECT_CARDS = 5
#: Most hands (all sizes) a per-call dict holds (about 70 bytes an entry).
PER_CALL_HANDS = 400_000
#: Rows valued at once while building (bounds the memory of the build).
BUILD_ROWS = 1 << 19
#: Bit of the card count in a per-call key (one bit per card below it).
COUNT_SHIFT = 60
#: Share of hands reaching the suit threshold above which a per-hand table pays (below it
#: most hands are one plain lookup, as fast as the per-hand table or faster).
REACHING_SHARE = 0.5
#: Most share of ``hand.size``-card hands raised above their rank multiset's floor for which
#: bigger holdings try the floor first (``RaiseBound``; badugi raises most, freak-hands few).
RAISED_SHARE = 0.25
#: Compare-exchanges sorting up to seven values (optimal networks; the 0-1 principle checks them in the tests).
NETWORKS = {
    1: [],
    2: [(0, 1)],
    3: [(0, 1), (1, 2), (0, 1)],
    4: [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)],
    5: [(0, 1), (3, 4), (2, 4), (2, 3), (1, 4), (0, 3), (0, 2), (1, 3), (1, 2)],
    6: [(0, 5), (1, 3), (2, 4), (1, 2), (3, 4), (0, 3), (2, 5), (0, 1), (2, 3), (4, 5), (1, 2), (3, 4)],
    7: [
        (0, 6),
        (2, 3),
        (4, 5),
        (0, 2),
        (1, 4),
        (3, 6),
        (0, 1),
        (2, 5),
        (3, 4),
        (1, 2),
        (4, 6),
        (2, 3),
        (4, 5),
        (1, 2),
        (3, 4),
        (5, 6),
    ],
}


def direct_deck(codes: Sequence[int], size: int, limit: int) -> bool:
    """True when every card has its own code and there are at most ``limit`` hands of ``size`` cards.

    >>> direct_deck([1, 2, 4, 8], 2, 6), direct_deck([1, 2, 4, 4], 2, 6), direct_deck([1, 2, 4, 8], 2, 5)
    (True, False, False)
    """
    return len(set(codes)) == len(codes) and 1 <= size <= DIRECT_CARDS and comb(len(codes), size) <= limit


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

    def __init__(
        self,
        cards: int,
        low: int,
        size: int,
        rank_rows: Callable[[np.ndarray], np.ndarray],
        values: dict[int, np.ndarray] | None = None,
    ) -> None:
        """``values``: the table read from the disk cache, when there (else it is built with ``rank_rows``)."""
        self.size = size
        self._work = np.empty((0, 0), dtype=np.int64)
        self.binomials = np.array([[comb(i, j) for i in range(cards)] for j in range(size + 1)], dtype=np.int64)
        self.values: dict[int, np.ndarray] = {}
        if values is not None:
            self.values = values
            return
        hands = colex_combinations(cards, size)
        for k in self.sizes(low, size):
            rows = hands[k]
            found = np.concatenate(
                [rank_rows(rows[start : start + BUILD_ROWS]) for start in range(0, len(rows), BUILD_ROWS)]
            )
            # int16 when the values fit: half the table, so more of it stays in cache
            narrow = len(found) == 0 or (
                found.min() >= np.iinfo(np.int16).min and found.max() <= np.iinfo(np.int16).max
            )
            self.values[k] = found.astype(np.int16 if narrow else np.int32)

    @staticmethod
    def sizes(low: int, size: int) -> range:
        """The hand sizes the table holds."""
        return range(max(low, 1), size + 1)

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
        k, size, n = len(columns), self.size, columns.shape[1]
        values = self.values[size]
        # every intermediate in one reused workspace: fresh arrays each call cost page faults
        spans = [range(j, k - size + j + 1) for j in range(size)]
        work = self.workspace(n, sum(len(span) for span in spans) + size + 1)
        column = sort_columns(columns, work[0])
        # terms[j][i]: the binomial the i-th smallest id adds as the j-th card of a subset
        terms: list[dict[int, np.ndarray]] = []
        row = 1
        for j, span in enumerate(spans):
            terms.append({i: self.binomials[j + 1].take(column[i], out=work[row + t]) for t, i in enumerate(span)})
            row += len(span)
        sums = work[row : row + size]
        best = np.full(n, NO_HAND, dtype=values.dtype)
        found = np.empty(n, dtype=values.dtype)

        def walk(start: int, j: int, partial: np.ndarray | None) -> None:
            for i in range(start, k - size + j + 1):
                index = terms[j][i] if partial is None else np.add(partial, terms[j][i], out=sums[j])
                if j + 1 == size:
                    np.maximum(best, values.take(index, out=found), out=best)
                else:
                    walk(i + 1, j + 1, index)

        walk(0, 0, None)
        return best.astype(np.int64)

    def workspace(self, n: int, rows: int) -> np.ndarray:
        """A reused (rows, n) int64 scratch array (grown when too small)."""
        if self._work.shape[0] < rows or self._work.shape[1] < n:
            self._work = np.empty((max(rows, self._work.shape[0]), max(n, self._work.shape[1])), dtype=np.int64)
        return self._work[:rows, :n]


class RaiseBound:
    """What the suits of a holding above ``hand.size`` cards can add to its rank multiset.

    A hand's *floor* is the least value of any hand with its rank multiset; a hand
    worth more is *raised*. A bigger holding is worth the best floor of its rank
    sub-multisets (``floors``, grown like the plain tables) or the value of a raised
    subset. Each raised hand is filed under the ranks (and wild card) of its most
    populated suit -- a set of rank digits, one bit each -- and ``ceilings[mask]``
    is the most any raised hand filed under a subset of ``mask`` is worth. A raised
    subset of a holding is filed under a subset of one of the holding's own suit
    masks, so the best ceiling of those masks bounds every raised subset: where it
    is at most the floor, the floor is the holding's value.
    """

    def __init__(
        self, bits: np.ndarray, width: int, floors: tuple[np.ndarray, np.ndarray], ceilings: np.ndarray
    ) -> None:
        self.bits = bits  # per card id: one bit per (suit, rank digit) it counts in
        self.width = width  # bits per suit field
        self.suits = (int(np.bitwise_or.reduce(bits)).bit_length() + width - 1) // width
        self.floors = floors  # sorted rank keys of hand.size-card classes, and their floors
        self.ceilings = ceilings  # by suit mask

    def ceiling(self, masks: np.ndarray) -> np.ndarray:
        """The bound of each holding, by the sum of its cards' ``bits``."""
        field = (1 << self.width) - 1
        best: np.ndarray = self.ceilings.take(masks & field)
        for s in range(1, self.suits):
            np.maximum(best, self.ceilings.take((masks >> (s * self.width)) & field), out=best)
        return best


def suit_field_bits(codes: Sequence[int], layout: Any) -> np.ndarray | None:
    """Per card, one bit per suit it counts in, at ``suit * layout.digits + rank digit``; None
    when the fields do not fit in an int64 or two cards share a bit (a holding's sum of bits
    is then the union of its cards' suit masks).

    >>> class Two:  # two suits, ranks 0-2 (keys 1, 3, 9 above a 2-bit shift), suit bits 1 and 2
    ...     suits, digits, shift = 2, 3, 2
    ...     def place(self, d): return 3 ** d
    ...     def suit_one(self, s): return 1 << s
    >>> suit_field_bits([(1 << 2) + 1, (3 << 2) + 2], Two()).tolist()  # rank 0 of suit 0, rank 1 of suit 1
    [1, 16]
    """
    width = layout.digits
    if layout.suits * width > 63:
        return None
    digit_of = {layout.place(d): d for d in range(layout.digits)}
    bits: list[int] = []
    for code in codes:
        digit = digit_of.get(code >> layout.shift)
        if digit is None:
            return None
        bits.append(sum(1 << (s * width + digit) for s in range(layout.suits) if code & layout.suit_one(s)))
    union = 0
    for bit in bits:
        if union & bit:
            return None
        union |= bit
    return np.array(bits, dtype=np.int64)


def raise_bound(table: DirectTable, codes: Sequence[int], layout: Any) -> RaiseBound | None:
    """The floors and ceilings of ``RaiseBound`` from the ``hand.size``-card hands of ``table``
    (None when they cannot be laid out, or when suits raise most hands)."""
    bits = suit_field_bits(codes, layout)
    if bits is None or table.size not in table.values:
        return None
    size, width = table.size, layout.digits
    code_array = np.array(codes, dtype=np.int64)
    hands = colex_combinations(len(codes), size)[size]
    values = table.values[size].astype(np.int64)
    keys = np.concatenate(
        [
            code_array[hands[start : start + BUILD_ROWS]].sum(axis=1) >> layout.shift
            for start in range(0, len(hands), BUILD_ROWS)
        ]
    )
    # the floor of each rank key: the least value of its hands
    order = np.lexsort((values, keys))
    first = order[np.r_[True, keys[order][1:] != keys[order][:-1]]]
    floor_keys, floor_values = keys[first], values[first]
    raised = np.flatnonzero(values > floor_values[np.searchsorted(floor_keys, keys)])
    if len(raised) > RAISED_SHARE * len(values):
        return None  # suits raise most hands: the floor would seldom answer
    ceilings = np.full(1 << width, NO_HAND, dtype=np.int64)
    if len(raised):
        sums = bits[hands[raised]].sum(axis=1)
        field = (1 << width) - 1
        masks = np.stack([(sums >> (s * width)) & field for s in range(layout.suits)])
        cards = np.array([bin(mask).count("1") for mask in range(1 << width)], dtype=np.int64)
        fullest = masks[cards[masks].argmax(axis=0), np.arange(len(raised))]
        np.maximum.at(ceilings, fullest, values[raised])
        for bit in range(width):  # a mask's ceiling covers its subsets' (a max over subsets)
            pairs = ceilings.reshape(-1, 2, 1 << bit)
            np.maximum(pairs[:, 1], pairs[:, 0], out=pairs[:, 1])
    return RaiseBound(bits, width, (floor_keys, floor_values), ceilings)


def sort_columns(columns: np.ndarray, spare: np.ndarray | None = None) -> list[np.ndarray]:
    """The columns sorted across (row by row), in place: a sorting network of compare-exchanges
    (``spare``, one more column's room, takes the turns; the rows of ``columns`` are reused)."""
    column = list(columns)
    k = len(column)
    spare = np.empty_like(column[0]) if spare is None else spare
    # the optimal networks up to seven; bubble sort's network beyond
    network = NETWORKS[k] if k in NETWORKS else [(j, j + 1) for i in range(k) for j in range(k - 1 - i)]
    for a, b in network:
        np.minimum(column[a], column[b], out=spare)
        np.maximum(column[a], column[b], out=column[b])
        column[a], spare = spare, column[a]
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
