"""Class grids: every rank-count vector of a holding size, and growing value tables one card at a time.

The pieces of ``tables.py`` that the suit-class tables (``suittable.py``) use as
well, kept apart so that neither imports the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

NO_HAND = -1  # table value of a class that matches no category


def count_vectors(caps: Sequence[int], total: int) -> np.ndarray:
    """Every count vector ``c`` with ``0 <= c[d] <= caps[d]`` and ``sum(c) == total``.

    >>> count_vectors([1, 2], 2).tolist()
    [[0, 2], [1, 1]]
    """
    rows = np.zeros((1, 0), dtype=np.int16)
    sums = np.zeros(1, dtype=np.int16)
    for cap in caps:
        pieces, piece_sums = [], []
        for c in range(min(cap, total) + 1):
            keep = sums + c <= total
            pieces.append(np.hstack([rows[keep], np.full((int(keep.sum()), 1), c, dtype=np.int16)]))
            piece_sums.append(sums[keep] + c)
        rows = np.vstack(pieces)
        sums = np.concatenate(piece_sums)
    out = rows[sums == total]
    order = np.lexsort(out.T[::-1])
    result: np.ndarray = out[order]
    return result


def sorted_table(keys: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Keys (int64) and values (int32) in key order."""
    order = np.argsort(keys, kind="stable")
    return keys[order].astype(np.int64), values[order].astype(np.int32)


def grow(
    layout: Any, caps: Sequence[int], k: int, smaller: tuple[np.ndarray, np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """Values of every ``k``-card class: the best of its classes one card smaller."""
    rows = count_vectors(caps, k)
    keys = layout.keys(rows)
    best = np.full(len(rows), NO_HAND, dtype=np.int32)
    small_keys, small_values = smaller
    for digit in range(layout.digits):
        has = rows[:, digit] > 0
        if not has.any():
            continue
        parent = keys[has] - layout.place(digit)
        found = np.searchsorted(small_keys, parent)
        best[has] = np.maximum(best[has], small_values[found])
    return sorted_table(keys, best)
