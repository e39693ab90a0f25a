"""Five-card deals as arrays: every hand in colex order, colex indices of
subsets, and the starting-hand classes of a video-poker deck.

The combinatorial number system orders the k-card subsets of cards
``0..n-1`` so that the subsets of ``0..t-1`` come first (colex order); the
index of a subset with ascending ids ``c_1 < ... < c_k`` is
``C(c_1, 1) + ... + C(c_k, k)``. Building the subsets in that order takes one
block copy per top card, and the index of a sub-subset is a sum of table
look-ups, so no step here sorts or searches.
"""

from __future__ import annotations

from itertools import combinations, permutations
from math import comb, factorial

import numpy as np

HAND = 5


def binomials(deck_size: int, k: int = HAND) -> np.ndarray:
    """``C(c, j)`` for c in 0..deck_size and j in 0..k (int64)."""
    table = np.zeros((deck_size + 1, k + 1), dtype=np.int64)
    for c in range(deck_size + 1):
        for j in range(k + 1):
            table[c, j] = comb(c, j)
    return table


def colex_subsets(deck_size: int, k: int) -> np.ndarray:
    """Every k-subset of cards ``0..deck_size-1`` (rows ascending) in colex order:
    row i is the subset whose colex index is i, shape (C(deck_size, k), k), int16.

    >>> colex_subsets(4, 2).tolist()
    [[0, 1], [0, 2], [1, 2], [0, 3], [1, 3], [2, 3]]
    """
    rows = np.zeros((1, 0), dtype=np.int16)
    for size in range(1, k + 1):
        blocks = []
        for top in range(size - 1, deck_size):
            below = rows[: comb(top, size - 1)]  # the (size-1)-subsets of 0..top-1 come first
            block = np.empty((len(below), size), dtype=np.int16)
            block[:, :-1] = below
            block[:, -1] = top
            blocks.append(block)
        rows = np.concatenate(blocks) if blocks else np.zeros((0, size), dtype=np.int16)
    return rows


def colex_index(sorted_ids: np.ndarray, table: np.ndarray) -> np.ndarray:
    """The colex index of each row of ascending card ids.

    >>> colex_index(np.array([[0, 1], [0, 2], [1, 2]]), binomials(3)).tolist()
    [0, 1, 2]
    """
    index = np.zeros(len(sorted_ids), dtype=np.int64)
    for position in range(sorted_ids.shape[1]):
        index += table[sorted_ids[:, position].astype(np.int64), position + 1]
    return index


def drop_one_indices(subsets: np.ndarray, table: np.ndarray) -> np.ndarray:
    """For each row of k ascending ids, the colex index of the row without each
    of its cards: shape (rows, k), column q leaves out the card at position q."""
    rows, k = subsets.shape
    ids = subsets.astype(np.int64)
    same = [table[ids[:, p], p + 1] for p in range(k)]  # the term of a card that keeps its place
    shifted = [table[ids[:, p], p] for p in range(k)]  # the term of a card one place down
    result = np.empty((rows, k), dtype=np.int64)
    suffix = np.zeros(rows, dtype=np.int64)
    for q in range(k - 1, -1, -1):
        prefix = np.zeros(rows, dtype=np.int64)
        for p in range(q):
            prefix += same[p]
        result[:, q] = prefix + suffix
        suffix += shifted[q]
    return result


def colex_drop_column(deck_size: int, k: int, column: int, below: np.ndarray | None) -> np.ndarray:
    """Column ``column`` of :func:`drop_one_indices` for every k-subset in colex
    order, by block copies alone: the k-subsets with top card t are the
    (k-1)-subsets of 0..t-1 (``below``, their own drop table, needed unless
    ``column`` is the top) followed by t, whose term C(t, k-1) stays.

    >>> colex_drop_column(4, 2, 0, None).tolist()  # [0,1] [0,2] [1,2] [0,3] [1,3] [2,3] without the first card
    [1, 2, 2, 3, 3, 3]
    """
    blocks = []
    for top in range(k - 1, deck_size):
        size = comb(top, k - 1)
        if column == k - 1:
            blocks.append(np.arange(size, dtype=np.int64))
        elif below is None:
            blocks.append(np.full(size, top, dtype=np.int64))  # k = 2: what is left is the top card
        else:
            blocks.append(below[:size, column] + comb(top, k - 1))
    return np.concatenate(blocks) if blocks else np.zeros(0, dtype=np.int64)


def colex_drops(deck_size: int, k: int) -> np.ndarray:
    """:func:`drop_one_indices` of every k-subset in colex order, shape (C(n, k), k)."""
    table: np.ndarray | None = None
    for size in range(1, k + 1):
        columns = [colex_drop_column(deck_size, size, q, table) for q in range(size)]
        table = np.stack(columns, axis=1) if columns else np.zeros((comb(deck_size, size), 0), dtype=np.int64)
    return table if table is not None else np.zeros((1, 0), dtype=np.int64)


def _mask_multisets(count: int, parts: int, ranks: int) -> np.ndarray:
    """Every multiset of ``parts`` suit masks (the ranks each suit holds) with
    ``count`` cards in all, as rows of mask values (the columns in the order
    (popcount, value) ascending)."""
    values = np.arange(1 << ranks, dtype=np.int64)
    popcount = np.zeros(len(values), dtype=np.int64)
    for bit in range(ranks):
        popcount += (values >> bit) & 1
    keep = popcount <= count
    order = np.lexsort((values[keep], popcount[keep]))
    masks, pops = values[keep][order], popcount[keep][order]
    upto = np.searchsorted(pops, np.arange(count + 2), side="left")  # upto[r]: masks with popcount < r
    chosen = np.zeros((1, 0), dtype=np.int64)  # indices into masks, non-decreasing along a row
    left = np.array([count], dtype=np.int64)
    for part in range(parts):
        last = chosen[:, -1] if part else np.zeros(len(chosen), dtype=np.int64)
        first = last if part < parts - 1 else np.maximum(last, upto[left])  # the last part takes what is left
        stop = upto[left + 1]
        number = np.maximum(stop - first, 0)
        rows = np.repeat(np.arange(len(chosen)), number)
        offsets = np.arange(len(rows)) - np.repeat(np.cumsum(number) - number, number)
        picked = np.repeat(first, number) + offsets
        chosen = np.concatenate([chosen[rows], picked[:, None]], axis=1)
        left = left[rows] - pops[picked]
    return np.asarray(masks[chosen[left == 0]])


def _class_sizes(masks: np.ndarray) -> np.ndarray:
    """How many deals each multiset of suit masks stands for: the distinct ways
    to give its masks the suits (equal masks are adjacent in a row)."""
    parts = masks.shape[1]
    sizes = np.full(len(masks), factorial(parts), dtype=np.int64)
    run = np.ones(len(masks), dtype=np.int64)
    for column in range(1, parts):
        run = np.where(masks[:, column] == masks[:, column - 1], run + 1, 1)
        sizes //= run
    return sizes


def _bit_reversed(masks: np.ndarray, bits: int) -> np.ndarray:
    result = np.zeros_like(masks)
    for bit in range(bits):
        result |= ((masks >> bit) & 1) << (bits - 1 - bit)
    return result


def _first_hands(masks: np.ndarray, ranks: int, cards: int) -> np.ndarray:
    """The lexicographically first hand (ascending card ids) of each class: the
    suits go first to the masks that hold the lowest ranks."""
    parts = masks.shape[1]
    order = np.argsort(-_bit_reversed(masks, ranks), axis=1, kind="stable")
    by_suit = np.take_along_axis(masks, order, axis=1)
    present = np.zeros((len(masks), ranks, parts), dtype=bool)
    for suit in range(parts):
        for rank in range(ranks):
            present[:, rank, suit] = (by_suit[:, suit] >> rank) & 1 == 1
    return np.nonzero(present.reshape(len(masks), ranks * parts))[1].reshape(len(masks), cards)


def starting_classes(deck_size: int, suits: int) -> tuple[np.ndarray, np.ndarray]:
    """One representative per suit-symmetry class of dealt five-card hands, and the class sizes.

    Two hands are alike when a permutation of suits maps one onto the other:
    they have the same multiset of per-suit rank masks (jokers stay jokers).
    Classes come in the order of their key (joker bits, then the suit masks
    ascending); a representative is the class's first hand in lexicographic
    order of ascending card ids (card id = rank * suits + suit, jokers last).

    >>> representatives, sizes = starting_classes(52, 4)
    >>> len(representatives), int(sizes.sum())
    (134459, 2598960)
    """
    natural = (deck_size // suits) * suits
    ranks = natural // suits
    jokers = deck_size - natural
    hands, sizes, keys = [], [], []
    for held in range(min(jokers, HAND) + 1):
        for joker_set in combinations(range(jokers), held):
            masks = _mask_multisets(HAND - held, suits, ranks)
            cards = _first_hands(masks, ranks, HAND - held)
            joker_ids = np.broadcast_to(np.array([natural + j for j in joker_set], dtype=np.int64), (len(masks), held))
            hands.append(np.concatenate([cards, joker_ids], axis=1))
            sizes.append(_class_sizes(masks))
            ascending = np.sort(masks, axis=1)
            keys.append(np.column_stack([np.full(len(masks), sum(1 << j for j in joker_set)), ascending]))
    key = np.concatenate(keys)
    order = np.lexsort(key.T[::-1])
    return np.concatenate(hands)[order].astype(np.int16), np.concatenate(sizes)[order]


def suit_permutations(suits: int) -> list[tuple[int, ...]]:
    """Every renaming of the suits (for tests and brute force)."""
    return list(permutations(range(suits)))
