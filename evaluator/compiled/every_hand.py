"""Every hand of a deck at once: the card-index rows of all ``k``-card subsets.

Small enough decks (2,598,960 five-card hands of 52 cards) can be ranked whole
on the tables (``rank_many``) instead of class by class: the suit-class
counter (:mod:`evaluator.compiled.suitcount`) does so, and so does the exact
flip census of ``diff`` (``tools/flips_hands.py``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

#: The most hands of a deck ranked in one go (about 40 MB of card indices and values).
MAX_EVERY_HAND = 3_000_000

#: Rows handed to ``rank_many`` at a time.
RANK_SLICE = 1 << 18


def all_combinations(cards: int, size: int) -> np.ndarray:
    """Every ``size``-subset of ``range(cards)`` as rows of increasing indices, in lexicographic order
    (small integers: int8 up to 127 cards).

    >>> all_combinations(4, 2).tolist()
    [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    """
    if size == 0:
        return np.zeros((1, 0), dtype=np.int8)
    dtype = np.int8 if cards <= 127 else np.int16
    rows = np.arange(cards, dtype=dtype)[:, None]
    for _ in range(size - 1):
        last = rows[:, -1].astype(np.int64)
        extend = cards - 1 - last  # larger cards each row can take next
        starts = np.repeat(np.cumsum(extend) - extend, extend)
        following = np.repeat(last, extend) + 1 + (np.arange(int(extend.sum()), dtype=np.int64) - starts)
        rows = np.column_stack([np.repeat(rows, extend, axis=0), following.astype(dtype)])
    return rows


def rank_every(rank_many: Callable[[np.ndarray], np.ndarray], hands: np.ndarray) -> np.ndarray:
    """``rank_many`` of ``hands`` in slices of :data:`RANK_SLICE` rows (bounded working memory), as int64."""
    values = np.empty(len(hands), dtype=np.int64)
    for start in range(0, len(hands), RANK_SLICE):
        values[start : start + RANK_SLICE] = rank_many(hands[start : start + RANK_SLICE])
    return values
