"""How many pairs of hands can meet in one deal: the weights of the exact flip census.

Two hands can meet when they share no card. The census (see
:mod:`evaluator.tools.flips`) needs, for every two parts of different rank
multisets (:mod:`evaluator.tools.flips_hands`), the number of ordered pairs
(a hand of the first, a hand of the second) that share no card. With ``S``
suits and ``m(r)`` cards of rank ``r``:

- one hand of multiset ``R1`` leaves ``T(R1, R2) = prod_r C(S - m1(r), m2(r))``
  hands of multiset ``R2`` free (suits are chosen per rank, away from the
  cards taken); a one-suited hand leaves the same number;
- two one-suited hands meet unless they are of one suit and share a rank:
  ``S (S - 1)`` ordered pairs, ``S S`` when the ranks are apart;
- so the four pairs of rank classes (one-suited or not, on each side) follow
  by subtraction.

An exceptional part is not a whole class: against a whole class it counts
its hands' free hands one by one, through the rank masks of each of its
suits (a one-suited hand of ``R2`` is free of a hand when the hand holds no
rank of ``R2`` in that suit). Two exceptional parts are counted by inclusion
and exclusion over the cards their hands share
(:mod:`evaluator.tools.flips_overlap`). The base part of a class is its class
minus its exceptional parts, which is where the subtractions below come from.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING, Any

import numpy as np

from .flips_overlap import ExceptionalOverlap

if TYPE_CHECKING:
    from .flips_hands import HandSpace

IntArray = np.ndarray[Any, np.dtype[np.int64]]
FloatArray = np.ndarray[Any, np.dtype[np.float64]]
Floats = np.ndarray[Any, np.dtype[np.floating[Any]]]  # 32 or 64 bits

SUITED_KEYS_PER_SLICE = 2048  # (part, suit mask) keys tested at once: about 10 MB of rows
GRID_SHARE = 4  # pairs of classes read from a grid when they are at least a quarter of its cells
NO_FREE = -1e4  # the log of no free hand (a rank with more cards than its suits left)


@dataclass(frozen=True, slots=True)
class Block:
    """Rows of the census: the base parts of classes ``start``..``stop`` and their exceptional parts."""

    start: int
    stop: int
    first_exceptional: int  # exceptional part numbers (from 0) of these classes
    stop_exceptional: int

    def rows(self, classes: int) -> IntArray:
        """The part numbers of the rows: bases, then exceptional parts."""
        bases = np.arange(self.start, self.stop, dtype=np.int64)
        return np.concatenate([bases, classes + np.arange(self.first_exceptional, self.stop_exceptional)])

    def columns(self, classes: int, parts: int) -> IntArray:
        """The parts of classes ``start`` on (of ``parts``): bases, then exceptional parts. A pair of parts
        of two blocks is in the rows of the first only; a pair within the block is there twice."""
        bases = np.arange(self.start, classes, dtype=np.int64)
        return np.concatenate([bases, np.arange(classes + self.first_exceptional, parts, dtype=np.int64)])


class MeetCounter:
    """Ordered pairs of hands that share no card, part against part (see the module docstring).

    ``symmetric``: the rules cannot tell one suit from another (no pattern names
    a suit), so the exceptional parts may be paired one orbit of suit renamings
    at a time.
    """

    def __init__(self, space: HandSpace, symmetric: bool) -> None:
        self.space = space
        suits = space.suits
        self.suits = suits
        counts = space.counts
        multisets = len(counts)
        # hands of each multiset: a choice of suits per rank, C(S, m(r)) ways each
        choose = np.array([comb(suits, k) for k in range(suits + 1)], dtype=np.int64)
        self.total = choose[counts].prod(axis=1)
        self.flushable = (counts.max(axis=1) <= 1) & (space.size > 1)
        self.rank_mask = ((counts > 0).astype(np.int64) << np.arange(space.ranks, dtype=np.int64)).sum(axis=1)
        # T(R1, R2) = prod_r C(S - m1(r), m2(r)) as exp(phi(R1) . psi(R2)): phi marks the ranks R1
        # holds a times, psi holds log C(S - a, m2(r)) at (a, r); a rank overfull is no free hand at all
        levels = np.arange(suits + 1)
        binomial = np.array([[comb(suits - a, k) for k in levels] for a in levels], dtype=np.float64)
        self.count_marks = (counts[:, None, :] == levels[None, :, None]).reshape(multisets, -1).astype(np.float64)
        # an overfull rank weighs far below any product of binomials: exp() of the sum is exactly 0
        log_binomial = np.where(binomial > 0, np.log(np.maximum(binomial, 1.0)), NO_FREE)
        self.log_free = log_binomial[:, counts].transpose(1, 0, 2).reshape(multisets, -1)
        classes = space.classes
        self.classes = classes
        self.class_multiset = space.class_multiset
        self.class_flush = space.class_flush
        self.class_factors = self._class_factors()
        self.exceptional_class = space.part_class[classes:]
        self.exceptional_multiset = space.class_multiset[self.exceptional_class]
        self.exceptional_size = space.part_size[classes:]
        self.part_multiset = space.class_multiset[space.part_class]
        self.col_slot = np.full(classes, -1, dtype=np.int64)
        with_exceptions, self.col_starts = np.unique(self.exceptional_class, return_index=True)
        self.col_slot[with_exceptions] = np.arange(len(with_exceptions))
        self._exceptional_hands(symmetric)

    # --- free hands of one multiset against one hand of another -------------------------------

    def free_rows(self, start: int, stop: int) -> FreeRows:
        """T(R1, R2) for R1 among multisets ``start``..``stop`` (a block's) and every R2 from ``start``
        on (see :class:`FreeRows`)."""
        dtype = np.int16 if int(self.total.max()) < 2**15 else np.int64
        rows = np.rint(np.exp(self.count_marks[start:stop] @ self.log_free[start:].T)).astype(dtype)
        return FreeRows(start, stop, rows, self.total)

    # --- whole classes ------------------------------------------------------------------------

    def class_pairs(self, first: IntArray, second: IntArray, free: FreeRows) -> FloatArray:
        """Ordered pairs of hands that share no card, class ``first[k]`` against class ``second[k]``.

        With F one-suited classes, N the others, f "the multiset can be one-suited", T12 the hands
        of the second multiset free of one hand of the first and T21 the other way: F-F ``both``;
        F-N ``S T12 - both``; N-F ``S T21 - both``; N-N ``all - f1 S T12 - f2 S T21 + both``,
        written as ``rest2 ahead1 T12 + rest1 back2 T21 + sign1 sign2 both`` with a factor per class.
        """
        one, two = self.class_multiset[first], self.class_multiset[second]
        return self._class_pairs(first, second, free(one, two), free(two, one))

    def class_grid(self, rows: IntArray, columns: IntArray, free: FreeRows) -> FloatArray:
        """:meth:`class_pairs` of every class of ``rows`` (the block's) against every class of
        ``columns``, as a (rows, columns) matrix: where most pairs of a stretch are wanted, one
        pass over the stretch is quicker than reading each pair."""
        ahead, back = free.grid(self.class_multiset[rows], self.class_multiset[columns])
        return self._class_pairs(rows[:, None], columns[None, :], ahead, back)

    def _class_pairs(self, first: IntArray, second: IntArray, ahead: np.ndarray, back: np.ndarray) -> FloatArray:
        """The formula of :meth:`class_pairs` with T12 (``ahead``) and T21 (``back``) read; any
        shapes that broadcast (pairs side by side, or a row of classes against a column)."""
        factor_ahead, factor_back, rest, sign, masks = self.class_factors
        s = self.suits
        apart = (masks[first] & masks[second]) == 0
        result: FloatArray = rest[second] * factor_ahead[first] * ahead
        result += rest[first] * factor_back[second] * back
        result += sign[first] * sign[second] * (s * (s - 1 + apart))
        return result

    def _class_factors(self) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, IntArray]:
        """Per class: the factors of :meth:`class_pairs` (ahead, back, rest, sign) and its rank mask."""
        s = self.suits
        multiset = self.class_multiset
        flush = self.class_flush.astype(np.float64)
        rest = 1.0 - flush
        flushable = self.flushable[multiset].astype(np.float64)
        ahead = rest * (self.total[multiset] - flushable * s) + flush * s
        back = s * (flush - rest * flushable)
        sign = (2 * flush - 1) * flushable  # one-suited pairs count only between multisets that can be
        return ahead, back, rest, sign, self.rank_mask[multiset]

    # --- exceptional parts against whole classes ---------------------------------------------

    def against_classes(
        self, size: IntArray, multiset: IntArray, parts: tuple[IntArray, IntArray], classes: IntArray, free: FreeRows
    ) -> FloatArray:
        """Pair by pair: ``size[k]`` hands of rank multiset ``multiset[k]``, those of the exceptional
        parts ``parts[0][k]``..``parts[1][k]``, against the whole class ``classes[k]``."""
        m2 = self.class_multiset[classes]
        column = self.flush_index[m2]
        one_suited = self.suited_before[parts[1], column] - self.suited_before[parts[0], column]
        every = size * free(multiset, m2)
        return np.where(self.class_flush[classes], one_suited, every - self.flushable[m2] * one_suited)

    def exceptional_against(self, parts: IntArray, classes: IntArray, free: FreeRows) -> FloatArray:
        """Exceptional part ``parts[k]`` (numbered from 0) against the whole class ``classes[k]``."""
        multiset = self.exceptional_multiset[parts]
        return self.against_classes(self.exceptional_size[parts], multiset, (parts, parts + 1), classes, free)

    def exceptions_against(self, owners: IntArray, classes: IntArray, free: FreeRows) -> FloatArray:
        """Every exceptional part of class ``owners[k]`` (none: 0) against the whole class ``classes[k]``."""
        slot = self.col_slot[owners]  # -1 (no exceptional part) reads the last entries: none
        multiset = self.class_multiset[owners]
        sizes = self.class_exceptional_size[slot]
        bounds = (self.class_first_exceptional[slot], self.class_stop_exceptional[slot])
        return self.against_classes(sizes, multiset, bounds, classes, free)

    # --- exceptional parts against each other --------------------------------------------------

    def _exceptional_hands(self, symmetric: bool) -> None:
        space = self.space
        classes = self.classes
        hands = np.nonzero(space.part >= classes)[0]
        hands = hands[np.argsort(space.part[hands], kind="stable")]
        part = space.part[hands].astype(np.int64) - classes
        # rank masks of each suit of each exceptional hand
        cards = space.cards[hands].astype(np.int64)
        suit_masks = np.zeros((len(hands), self.suits), dtype=np.int64)
        for column in range(space.size):
            bit = np.int64(1) << (cards[:, column] // self.suits)
            suit_masks[np.arange(len(hands)), cards[:, column] % self.suits] |= bit
        # (hand of exceptional part e, one-suited hand of flushable multiset f) pairs sharing no card,
        # kept as suited_before[e, f]: their sum over the exceptional parts before e. Those are
        # numbered class by class, so the parts of a class add up as a difference too.
        flushable = np.nonzero(self.flushable)[0]
        self.flush_index = np.full(len(self.total), len(flushable), dtype=np.int64)  # the last column: zeros
        self.flush_index[flushable] = np.arange(len(flushable))
        # whole numbers, at most the exceptional hands times the suits: exact in float32 below 2**24
        # (half the memory)
        dtype = np.float32 if len(hands) * self.suits < 2**24 else np.float64
        self.suited_before = np.zeros((len(self.exceptional_size) + 1, len(flushable) + 1), dtype=dtype)
        if len(hands) and len(flushable):
            self._suited_free(part, suit_masks, flushable, self.suited_before[1:, : len(flushable)])
            np.cumsum(self.suited_before, axis=0, out=self.suited_before)
        self.overlap = ExceptionalOverlap(space, hands, part, self.exceptional_size, symmetric)
        # per class with exceptional parts, then a last entry for the others (no part, no hand)
        with_exceptions = int(self.col_slot.max()) + 1
        slot = self.col_slot[self.exceptional_class]
        self.class_exceptional_size = np.bincount(slot, self.exceptional_size, with_exceptions + 1).astype(np.int64)
        stops = np.append(self.col_starts, len(self.exceptional_size))[1:]
        self.class_first_exceptional = np.append(self.col_starts, 0).astype(np.int64)
        self.class_stop_exceptional = np.append(stops, 0).astype(np.int64)

    def _suited_free(self, part: IntArray, suit_masks: IntArray, flushable: IntArray, result: Floats) -> None:
        """Into ``result`` (exceptional parts, flushable multisets; zeros): pairs of a hand of the part and a
        one-suited hand of the multiset that share no card, from each hand's rank masks per suit (``suit_masks``).

        A one-suited hand of ranks F in suit s is free of a hand when the hand holds no rank of F in
        s; the hands of a part hold few distinct masks, so each distinct mask is tested against every
        multiset once and its rows are added up per part, a slice of keys at a time.
        """
        span = np.int64(1) << self.space.ranks
        key, ways = np.unique(np.repeat(part, self.suits) * span + suit_masks.reshape(-1), return_counts=True)
        key_part = key // span
        masks, which = np.unique(key % span, return_inverse=True)
        apart = ((masks[:, None] & self.rank_mask[flushable][None, :]) == 0).astype(result.dtype)
        for start in range(0, len(key), SUITED_KEYS_PER_SLICE):
            stop = start + SUITED_KEYS_PER_SLICE
            rows = apart[which[start:stop]]
            rows *= ways[start:stop, None].astype(result.dtype)
            group_sum(rows, key_part[start:stop], result)

    @property
    def feasible(self) -> bool:
        """False when the exceptional parts are too many to pair up exactly."""
        return self.overlap.feasible

    def exceptional_pairs(self, first: int, stop: int) -> FloatArray:
        """(stop - first, exceptional parts from ``first`` on): exceptional parts ``first``..``stop`` against
        those (pairs of one rank multiset excepted: they are not needed)."""
        return self.overlap.rows(first, stop, first)

    # --- a block of rows ------------------------------------------------------------------------

    def blocks(self, rows_per_block: int) -> list[Block]:
        """Blocks of about ``rows_per_block`` classes with their exceptional parts."""
        found = []
        bounds = np.searchsorted(self.exceptional_class, np.arange(0, self.classes + rows_per_block, rows_per_block))
        for index, start in enumerate(range(0, self.classes, rows_per_block)):
            stop = min(self.classes, start + rows_per_block)
            found.append(Block(start, stop, int(bounds[index]), int(bounds[index + 1])))
        return found

    def weights(self, block: Block) -> BlockWeights:
        """The weights of the pairs of ``block``'s rows against the parts of its classes and later
        ones (see :class:`BlockWeights`)."""
        return BlockWeights(self, block)


class FreeRows:
    """T(R1, R2), the hands of multiset R2 that share no card with one hand of R1, for the rank
    multisets R1 of one block (``start``..``stop``) against every R2 from ``start`` on (a block's
    pairs are with its own classes and later ones); called with R2 in the block instead it answers
    by symmetry: a pair of hands is counted from either side, so
    ``total(R1) T(R1, R2) = total(R2) T(R2, R1)`` (whole numbers, divided exactly)."""

    def __init__(self, start: int, stop: int, rows: np.ndarray, total: IntArray) -> None:
        self.start, self.stop = start, stop
        self.rows = rows  # (stop - start, multisets - start)
        self.total = total

    def __call__(self, first: IntArray, second: IntArray) -> IntArray:
        """T(first[k], second[k]); one of the two must be a multiset of the block, the other not before it."""
        mine = (first >= self.start) & (first < self.stop)
        if mine.all():  # most calls ask one way round only
            return self._ahead(first, second)
        if not mine.any():
            return self._back(first, second)
        result = np.empty(len(first), dtype=np.int64)
        result[mine] = self._ahead(first[mine], second[mine])
        result[~mine] = self._back(first[~mine], second[~mine])
        return result

    def _ahead(self, first: IntArray, second: IntArray) -> IntArray:
        """T(first[k], second[k]) for ``first`` in the block."""
        if len(second) and int(second.min()) < self.start:
            raise RuntimeError("internal error: free hands asked for a multiset before the block")
        found: IntArray = self.rows[first - self.start, second - self.start].astype(np.int64)
        return found

    def grid(self, first: IntArray, second: IntArray) -> tuple[FloatArray, FloatArray]:
        """(T(first[i], second[j]), T(second[j], first[i])) as matrices, for ``first`` in the block
        and ``second`` not before it."""
        if len(second) and int(second.min()) < self.start:
            raise RuntimeError("internal error: free hands asked for a multiset before the block")
        ahead: FloatArray = self.rows[np.ix_(first - self.start, second - self.start)].astype(np.float64)
        # whole numbers below 2**53 whose quotient is whole: the division is exact
        back: FloatArray = ahead * self.total[first][:, None]
        back /= self.total[second][None, :]
        return ahead, back

    def _back(self, first: IntArray, second: IntArray) -> IntArray:
        """T(first[k], second[k]) for ``second`` in the block: by symmetry."""
        if len(second) and (int(second.min()) < self.start or int(second.max()) >= self.stop):
            raise RuntimeError("internal error: free hands asked for two multisets outside the block")
        found = self._ahead(second, first) * self.total[second]
        found //= self.total[first]
        return found


class BlockWeights:
    """Ordered pairs of hands that share no card, a block's row parts against the parts of its
    classes and later ones.

    Only the sums over exceptional parts are built per block (small: rows or
    columns only for classes with exceptional parts); :meth:`at` reads the
    weight of the pairs asked for, each from closed forms (whole classes less
    what their exceptional parts take). Pairs of one rank multiset weigh zero
    (they are judged hand by hand).
    """

    def __init__(self, meet: MeetCounter, block: Block) -> None:
        self.meet = meet
        classes = meet.classes
        self.rows = block.rows(classes)
        self.start = block.start
        # the block's classes are consecutive, and so are their rank multisets
        multisets = meet.class_multiset[block.start : block.stop]
        self.free = meet.free_rows(int(multisets[0]), int(multisets[-1]) + 1)
        self.bases = block.stop - block.start
        self.first_exceptional = block.first_exceptional
        own = np.arange(block.first_exceptional, block.stop_exceptional)
        # (own, exceptional parts from the block's first on: those of the block's classes and later ones)
        self.pairs = meet.exceptional_pairs(block.first_exceptional, block.stop_exceptional)
        own_class = meet.exceptional_class[own] - block.start
        # the classes of the block that have exceptional parts
        self.row_slot = np.full(self.bases, -1, dtype=np.int64)
        row_classes, row_starts = np.unique(own_class, return_index=True)
        self.row_slot[row_classes] = np.arange(len(row_classes))
        # the classes with exceptional parts from the block's first on are slots ``first_slot`` on
        self.first_slot = int(np.searchsorted(meet.col_starts, block.first_exceptional))
        column_starts = meet.col_starts[self.first_slot :] - block.first_exceptional
        self.pairs_by_class = _reduce(self.pairs, column_starts, 1)  # (own, those classes)
        self.pairs_by_row = _reduce(self.pairs, row_starts, 0)  # (block classes with some, exceptional)
        # the exceptional parts of a block class against those of a class (both with some)
        self.classes_by_class = _reduce(self.pairs_by_class, row_starts, 0)

    def at(self, row: IntArray, part: IntArray) -> FloatArray:
        """The weights of the pairs (``self.rows[row[k]]``, ``part[k]``)."""
        meet = self.meet
        classes = meet.classes
        first = self.rows[row]
        result = np.zeros(len(row))
        base_row, base_col = first < classes, part < classes
        # base against base: the whole classes, less what the exceptional parts of either take
        # (those of both were taken twice)
        pick = np.flatnonzero(base_row & base_col)
        if len(pick):
            one, two = first[pick], part[pick]
            weight = self._class_pairs(one, two)
            # only classes with exceptional parts take any (often none or few: read those alone)
            row_has, column_has = meet.col_slot[one] >= 0, meet.col_slot[two] >= 0
            for owners, others, has in ((one, two, row_has), (two, one, column_has)):
                if has.any():
                    weight[has] -= meet.exceptions_against(owners[has], others[has], self.free)
            both = np.flatnonzero(row_has & column_has)
            if len(both):
                slot = self.row_slot[one[both] - self.start]
                weight[both] += _lookup(self.classes_by_class, slot, self._column_slot(two[both]))
            result[pick] = weight
        # base against exceptional: the exceptional part against the whole class, less its exceptional parts
        pick = np.flatnonzero(base_row & ~base_col)
        if len(pick):
            one, two = first[pick], part[pick] - classes
            taken = _lookup(self.pairs_by_row, self.row_slot[one - self.start], two - self.first_exceptional)
            result[pick] = meet.exceptional_against(two, one, self.free) - taken
        # exceptional against base, the same way round
        pick = np.flatnonzero(~base_row & base_col)
        if len(pick):
            one, two = first[pick] - classes, part[pick]
            taken = _lookup(self.pairs_by_class, one - self.first_exceptional, self._column_slot(two))
            result[pick] = meet.exceptional_against(one, two, self.free) - taken
        pick = np.flatnonzero(~base_row & ~base_col)
        result[pick] = self.pairs[row[pick] - self.bases, part[pick] - classes - self.first_exceptional]
        result[meet.part_multiset[first] == meet.part_multiset[part]] = 0.0
        return result

    def _class_pairs(self, one: IntArray, two: IntArray) -> FloatArray:
        """:meth:`MeetCounter.class_pairs` of the pairs of base rows ``one`` and columns ``two``; read
        from a grid of their stretch of classes when they fill a good share of it (a lowball ruleset
        against a high one flips nearly every pair)."""
        low, high = (int(one.min()), int(two.min())), (int(one.max()) + 1, int(two.max()) + 1)
        if len(one) * GRID_SHARE < (high[0] - low[0]) * (high[1] - low[1]):
            return self.meet.class_pairs(one, two, self.free)
        rows, columns = np.arange(low[0], high[0]), np.arange(low[1], high[1])
        grid = self.meet.class_grid(rows, columns, self.free)
        found: FloatArray = grid[one - low[0], two - low[1]]
        return found

    def _column_slot(self, classes: IntArray) -> IntArray:
        """The columns of ``classes`` in the sums over classes (-1: no exceptional part)."""
        slot = self.meet.col_slot[classes]
        return np.where(slot >= 0, slot - self.first_slot, -1)


def _lookup(table: FloatArray, slot: IntArray, column: IntArray) -> FloatArray:
    """``table[slot[k], column[k]]``, or 0 where ``slot[k]`` or ``column[k]`` is -1 (no row or column)."""
    result = np.zeros(len(slot))
    has = (slot >= 0) & (column >= 0)
    result[has] = table[slot[has], column[has]]
    return result


def _reduce(values: FloatArray, starts: IntArray, axis: int) -> FloatArray:
    """Sums of runs of rows (axis 0) or columns (axis 1) starting at ``starts``.

    A block's rows are few: their runs are added up as a product with a 0/1 matrix of runs by rows,
    four times quicker than ``reduceat`` down the rows (whole numbers: exact in any order).

    >>> _reduce(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), np.array([0, 2]), 0).tolist()
    [[4.0, 6.0], [5.0, 6.0]]
    """
    if len(starts) == 0:
        shape = (0, values.shape[1]) if axis == 0 else (values.shape[0], 0)
        return np.zeros(shape)
    if axis == 1:
        return np.add.reduceat(values, starts, axis=1)
    run = np.searchsorted(starts, np.arange(len(values)), side="right") - 1
    runs: FloatArray = (run[None, :] == np.arange(len(starts))[:, None]).astype(np.float64) @ values
    return runs


def group_sum(values: Floats, group: IntArray, result: Floats) -> None:
    """Add the rows of ``values`` up by ``group`` (sorted: a group number per row) into the rows of
    ``result`` (a row per group number; groups that never occur are left as they are).

    >>> result = np.zeros((3, 1))
    >>> group_sum(np.array([[1.0], [2.0], [4.0]]), np.array([0, 0, 2]), result)
    >>> result.tolist()
    [[3.0], [0.0], [4.0]]
    """
    if len(values) == 0:
        return
    present, starts = np.unique(group, return_index=True)
    result[present] += np.add.reduceat(values, starts, axis=0)
