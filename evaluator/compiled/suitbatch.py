"""Batch ranking on the suit-class tables (``CardModel.mode == "suitclass"``, see ``suitkey.py``).

Rows are ranked chunk by chunk as on the direct path: the codes of a row are
summed, the sum's rank key is ranked densely (``fast.DenseIndex``) into the
plain table, and one AND on the suit counters finds the rows some suit of
which reaches the threshold. Only those rows build their reduced key -- the
rank keys of the suits that reach it, sorted -- which is hashed to one int64
(wrapping products, checked free of collisions on the table) and found by
binary search. Holdings above ``hand.size`` cards rank such rows by their
``hand.size`` subsets.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from .suitkey import ABSENT, SuitTable, card_counts, grow_plain
from .tables import NO_HAND

#: Seeds tried for the hash of reduced keys (the first without a collision is kept).
HASH_SEEDS = range(8)


class SuitBatch:
    """``rank_many`` of one ruleset on its suit-class tables."""

    def __init__(self, ranker: Any) -> None:
        table: SuitTable = ranker.tables.suit_table
        layout = ranker.layout
        self.ranker = ranker
        self.size: int = ranker.size
        self.layout = layout
        self.shift = layout.shift
        self.codes: np.ndarray = ranker.codes
        self.table = table
        bias = sum(
            ((1 << (layout.suit_bits - 1)) - table.threshold) << (layout.suit_bits * s) for s in range(layout.suits)
        )
        self.first_codes = self.codes + np.int64(bias)  # the first column carries the counters' bias
        self.reach = np.int64(layout.flush_bits)
        self.bits = [np.int64(layout.suit_flush_bit(s)) for s in range(layout.suits)]
        self.suit_codes = [np.where(self.codes & layout.suit_one(s), self.codes, 0) for s in range(layout.suits)]
        for seed in HASH_SEEDS:
            self.multipliers = np.random.default_rng(seed).integers(1, 1 << 62, layout.suits + 1, dtype=np.int64) | 1
            hashed = self.hash(table.rank_keys, table.suit_keys.T)
            order = np.argsort(hashed)
            self.hashed = hashed[order]
            if len(self.hashed) < 2 or bool(np.all(self.hashed[1:] != self.hashed[:-1])):
                break
        else:  # pragma: no cover - eight 64-bit hashes colliding on one table
            raise RuntimeError("internal error: no collision-free hash of the suit table")
        self.values = table.values[order].astype(np.int64)
        # rank keys of the rows no suit of which reaches the threshold, by card count
        plain = table.suit_keys[:, 0] == ABSENT
        self.plain_keys = table.rank_keys[plain]
        self.plain_values = table.values[plain]
        self.plain_cards = card_counts(layout, self.plain_keys)
        self.index: Any = None
        self.dense: dict[int, np.ndarray] = {}

    def hash(self, rank_keys: np.ndarray, suit_keys: np.ndarray) -> np.ndarray:
        """One int64 per reduced key; ``suit_keys`` has one row per suit (wrapping products)."""
        unsigned = self.multipliers.astype(np.uint64)
        out = rank_keys.astype(np.uint64) * unsigned[0]
        for s, keys in enumerate(suit_keys):
            out += (keys + 1).astype(np.uint64) * unsigned[s + 1]
        hashed: np.ndarray = out.view(np.int64)
        return hashed

    def dense_plain(self, k: int) -> np.ndarray:
        """Values of ``k``-card holdings no suit of which reaches the threshold, by dense rank index."""
        from .fast import DenseIndex

        if k not in self.dense:
            if self.index is None or k > self.index.top:
                self.index = DenseIndex(self.layout, max(k, self.size + 2))
                self.dense.clear()
            if k >= self.size:
                if k not in self.table.plain:
                    grow_plain(self.table, self.ranker.model, self.ranker.model.caps, k)
                keys, values = self.table.plain[k]
            else:
                mine = self.plain_cards == k
                keys, values = self.plain_keys[mine], self.plain_values[mine]
            dense = np.full(self.index.count(k), NO_HAND, dtype=np.int64)
            dense[self.index.index(keys, k)] = values
            self.dense[k] = dense
        return self.dense[k]

    def reduced_values(self, columns: np.ndarray, total: np.ndarray) -> np.ndarray:
        """Values of holdings of at most ``hand.size`` cards by reduced key (``columns``: ids, (k, n))."""
        subs = np.zeros((len(self.suit_codes), columns.shape[1]), dtype=np.int64)
        for column in columns:
            for s, codes in enumerate(self.suit_codes):
                subs[s] += codes[column]
        reached = np.stack([(total & bit) != 0 for bit in self.bits])
        keyed = -np.sort(-np.where(reached, subs >> self.shift, ABSENT), axis=0)
        where = np.searchsorted(self.hashed, self.hash(total >> self.shift, keyed))
        found: np.ndarray = self.values[np.minimum(where, len(self.hashed) - 1)]
        return found

    def rank(self, ids: np.ndarray) -> np.ndarray:
        """Values of an (n, k) array of checked card ids."""
        n, k = ids.shape
        out = np.empty(n, dtype=np.int64)
        dense = self.dense_plain(k)
        index = self.index
        for start, columns in self.ranker._blocks(ids, len(self.codes)):
            total = self.first_codes[columns[0]]
            for column in columns[1:]:
                total += self.codes[column]
            value = dense[index.index(total >> self.shift, k)]
            rows = np.flatnonzero(total & self.reach)
            if len(rows):
                if k <= self.size:
                    value[rows] = self.reduced_values(columns[:, rows], total[rows])
                else:
                    value[rows] = self.best_subsets(columns[:, rows])
            out[start : start + len(value)] = value
        return out

    def best_subsets(self, columns: np.ndarray) -> np.ndarray:
        """The best ``hand.size`` subset of each holding (``columns``: ids, (k, n))."""
        best = np.full(columns.shape[1], NO_HAND, dtype=np.int64)
        for subset in combinations(range(len(columns)), self.size):
            part = columns[list(subset)]
            total = self.first_codes[part[0]]
            for column in part[1:]:
                total += self.codes[column]
            value = self.dense_plain(self.size)[self.index.index(total >> self.shift, self.size)]
            rows = np.flatnonzero(total & self.reach)
            if len(rows):
                value[rows] = self.reduced_values(part[:, rows], total[rows])
            np.maximum(best, value, out=best)
        return best
