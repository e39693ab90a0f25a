"""Pairs of exceptional hands that share no card, by inclusion and exclusion (see :mod:`evaluator.tools.flips_meet`).

For two sets of hands ``P`` and ``Q`` the ordered pairs that share no card are
``sum over card sets X of (-1)^|X| p(X) q(X)``, where ``p(X)`` counts the hands
of ``P`` that hold every card of ``X`` (``X`` empty: all of them). Only sets
``X`` inside some hand count, so the sum runs over the subsets of the
exceptional hands, each tallied per part. Pairs of hands of the same rank
multiset are not needed (the census judges them hand by hand), so ``X`` of a
whole hand is left out.

When the rules cannot tell suits apart, ``p(X)`` is the same for every renaming
of the suits of ``X``: the subsets are tallied per orbit (the suit masks of
``X`` sorted), and an orbit of ``k`` subsets adds ``c c^T / k`` for its tallies
``c``, so the work shrinks by about the number of suit orders.
"""

from __future__ import annotations

from itertools import combinations
from math import factorial
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .flips_hands import HandSpace

IntArray = np.ndarray[Any, np.dtype[np.int64]]
FloatArray = np.ndarray[Any, np.dtype[np.float64]]

MAX_TERMS = 400_000_000  # products of tallies added up, over all subset orbits
TERMS_PER_STEP = 1_000_000
DENSE_SHARE = 20  # an orbit met in at least 1 / DENSE_SHARE of the parts is added up as a matrix product


class ExceptionalOverlap:
    """Ordered pairs of hands of two exceptional parts that share no card (different rank multisets only).

    ``hands`` are hand numbers of ``space`` sorted by part, ``part`` their
    exceptional part numbers (from 0), ``sizes`` the hands of each part.
    """

    def __init__(self, space: HandSpace, hands: IntArray, part: IntArray, sizes: IntArray, symmetric: bool) -> None:
        self.parts = len(sizes)
        self.sizes = sizes.astype(np.float64)
        suits, ranks = space.suits, space.ranks
        symmetric = symmetric and suits * ranks <= 62
        # each card as a bit of its suit's rank mask (suit-major), so a card set's masks are bit fields
        cards = space.cards[hands].astype(np.int64)
        card_bit = (np.int64(1) << (cards // suits)) << (ranks * (cards % suits))
        field = (np.int64(1) << ranks) - 1
        tallies: list[tuple[IntArray, IntArray, FloatArray, FloatArray]] = []  # (orbit, part, tally, sign / orbit size)
        for held in range(1, space.size):
            # the card sets of ``held`` cards tallied per part one choice of positions at a time (all
            # of them at once made the peak of diff's memory), then the tallies merged
            found: list[tuple[np.ndarray, ...]] = []  # (set code, part, tally, orbit size)
            # a set code and a part as one number when both fit in 62 bits: one sort, not two
            small = ranks * (min(held, suits) if symmetric else suits) + self.parts.bit_length() <= 62
            for positions in combinations(range(space.size), held):
                code = card_bit[:, positions].sum(axis=1)
                orbit = np.ones(len(code), dtype=np.int64)
                if symmetric:
                    masks = _sorted_down((code[:, None] >> (ranks * np.arange(suits, dtype=np.int64))) & field)
                    orbit = _orbit_sizes(masks, suits)
                    code = (masks << (ranks * np.arange(suits, dtype=np.int64))).sum(axis=1)
                codes, parts, tally, first = _tallied(code, part, self.parts, small)
                # kept for every choice of positions until merged: parts and tallies in 32 bits, orbit
                # sizes in 8 (at most 4! = 24: a deck has at most four suits)
                found.append((codes, parts.astype(np.int32), tally.astype(np.int32), orbit[first].astype(np.int8)))
            set_codes, set_parts, set_tallies, set_orbits = (
                np.concatenate(column) for column in zip(*found, strict=True)
            )
            del found
            codes, parts, summed, first = _tallied(set_codes, set_parts, self.parts, small, set_tallies)
            orbit_id = np.zeros(len(codes), dtype=np.int64)  # the codes increase: each new one, a new orbit
            orbit_id[1:] = np.cumsum(codes[1:] != codes[:-1])
            sign: FloatArray = (-1.0) ** held / set_orbits[first].astype(np.float64)
            tallies.append((orbit_id, parts, summed.astype(np.float64, copy=False), sign))
        self.orbit = np.concatenate([t[0] + offset for t, offset in zip(tallies, _offsets(tallies), strict=True)])
        self.part = np.concatenate([t[1] for t in tallies])
        self.tally = np.concatenate([t[2] for t in tallies])
        self.scale = np.concatenate([t[3] for t in tallies])
        order = np.lexsort((self.part, self.orbit))
        self.orbit, self.part, self.tally, self.scale = (
            x[order] for x in (self.orbit, self.part, self.tally, self.scale)
        )
        self.entry_key = self.orbit * self.parts + self.part  # increasing: orbit, then part
        bounds = np.flatnonzero(np.diff(self.orbit)) + 1
        self.group_start = np.concatenate([[0], bounds])
        self.group_size = np.diff(np.concatenate([self.group_start, [len(self.orbit)]]))
        self.entry_group = np.repeat(np.arange(len(self.group_start)), self.group_size)
        self.terms = float((self.group_size.astype(np.float64) ** 2).sum())
        self._split_dense()

    def _split_dense(self) -> None:
        """Add the biggest orbits up as one matrix product, the rest term by term.

        An orbit of ``k`` sets adds ``sign c c^T / k``; its tallies ``c`` count each set of it
        alike (a part holds every suit renaming of its hands), so ``c / k`` are whole numbers
        and the product of ``sign c`` with them is exact in floating point. An orbit met in
        about a twentieth of the parts or more (the sets of one or two cards) costs less so
        than as its ``size^2`` terms.
        """
        per_set = self.tally * np.abs(self.scale)
        whole = np.logical_and.reduceat(per_set == np.rint(per_set), self.group_start) if len(per_set) else per_set
        dense = (self.group_size * DENSE_SHARE >= self.parts) & whole.astype(bool)
        slot = np.cumsum(dense) - 1
        entries = np.flatnonzero(dense[self.entry_group])
        rows = slot[self.entry_group[entries]]
        count = int(dense.sum())
        self.dense_left = np.zeros((self.parts, count))  # part by part: sign c
        self.dense_left[self.part[entries], rows] = np.sign(self.scale[entries]) * self.tally[entries]
        self.dense_right = np.zeros((count, self.parts))  # c / k
        self.dense_right[rows, self.part[entries]] = per_set[entries]
        sparse = np.flatnonzero(~dense[self.entry_group])
        self.sparse = sparse[np.argsort(self.part[sparse], kind="stable")]  # the rest, part by part
        self.sparse_bounds = np.searchsorted(self.part[self.sparse], np.arange(self.parts + 1))

    @property
    def feasible(self) -> bool:
        """False when the sum has too many terms to add up."""
        return self.terms <= MAX_TERMS

    def rows(self, first: int, stop: int, column: int = 0) -> FloatArray:
        """(stop - first, parts - column): parts ``first``..``stop`` against exceptional parts ``column`` on."""
        result = np.outer(self.sizes[first:stop], self.sizes[column:])
        if self.dense_right.shape[0]:
            result += self.dense_left[first:stop] @ self.dense_right[:, column:]
        chosen = self.sparse[self.sparse_bounds[first] : self.sparse_bounds[stop]]
        if len(chosen) == 0:
            return result
        # the entries of an orbit are in part order: those of parts ``column`` on end it
        group = self.entry_group[chosen]
        skip = np.searchsorted(self.entry_key, self.orbit[chosen] * self.parts + column) - self.group_start[group]
        span = self.group_size[group] - skip
        width = self.parts - column
        flat = np.zeros((stop - first) * width)
        ends = np.cumsum(span)
        step_bounds = np.searchsorted(ends, np.arange(0, ends[-1] + TERMS_PER_STEP, TERMS_PER_STEP))
        for lo, hi in zip(step_bounds[:-1], step_bounds[1:], strict=False):
            if lo >= hi:
                continue
            entries, spans = chosen[lo:hi], span[lo:hi]
            one = np.repeat(entries, spans)
            offsets = np.arange(int(spans.sum())) - np.repeat(np.cumsum(spans) - spans, spans)
            two = np.repeat(self.group_start[group[lo:hi]] + skip[lo:hi], spans) + offsets
            weight = self.tally[one] * self.tally[two] * self.scale[one]
            at = (self.part[one] - first) * width + self.part[two] - column
            flat += np.bincount(at, weight, minlength=len(flat))
        return result + np.rint(flat).reshape(stop - first, width)


def _tallied(
    code: IntArray, part: np.ndarray, parts: int, small: bool, weight: np.ndarray | None = None
) -> tuple[IntArray, IntArray, np.ndarray, IntArray]:
    """Each (set code, part) met, in increasing order, with its count (or the sum of its ``weight``)
    and the position of its first entry: (codes, parts, counts, firsts). ``small``: a code times
    ``parts`` fits in 64 bits, so the pairs are sorted as one number.

    >>> codes, parts, counts, firsts = _tallied(np.array([9, 4, 9, 9]), np.array([1, 0, 1, 0]), 2, True)
    >>> codes.tolist(), parts.tolist(), counts.tolist(), firsts.tolist()
    ([4, 9, 9], [0, 0, 1], [1, 1, 2], [1, 3, 0])
    """
    if small:
        keys, first, inverse = np.unique(code * parts + part, return_index=True, return_inverse=True)
        codes: IntArray = keys // parts
    else:
        distinct, ids = np.unique(code, return_inverse=True)
        keys, first, inverse = np.unique(ids.reshape(-1) * parts + part, return_index=True, return_inverse=True)
        codes = distinct[keys // parts]
    counts = np.bincount(inverse.reshape(-1), weight, minlength=len(keys))
    found: IntArray = (keys % parts).astype(np.int64)
    return codes, found, counts, first


def _sorted_down(masks: IntArray) -> IntArray:
    """Every row sorted from high to low: compare and swap neighbouring columns in turn (a
    few suits: quicker than sorting each short row).

    >>> _sorted_down(np.array([[1, 3, 2, 3]])).tolist()
    [[3, 3, 2, 1]]
    """
    columns = [masks[:, k].copy() for k in range(masks.shape[1])]
    for turn in range(len(columns)):
        for k in range(turn % 2, len(columns) - 1, 2):
            high = np.maximum(columns[k], columns[k + 1])
            columns[k + 1] = np.minimum(columns[k], columns[k + 1])
            columns[k] = high
    return np.stack(columns, axis=1) if columns else masks.copy()


def _orbit_sizes(sorted_masks: IntArray, suits: int) -> IntArray:
    """How many suit renamings of a card set give distinct sets: S! over the orders of equal suit masks."""
    same = np.ones(len(sorted_masks), dtype=np.int64)
    run = np.ones(len(sorted_masks), dtype=np.int64)
    for column in range(1, suits):
        repeat = sorted_masks[:, column] == sorted_masks[:, column - 1]
        run = np.where(repeat, run + 1, 1)
        same *= run
    return factorial(suits) // same


def _offsets(tallies: list[tuple[IntArray, IntArray, FloatArray, FloatArray]]) -> list[int]:
    offsets, total = [], 0
    for orbit, *_ in tallies:
        offsets.append(total)
        total += int(orbit.max()) + 1 if len(orbit) else 0
    return offsets
