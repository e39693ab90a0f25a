"""Batch ranking on the suit-class tables (``CardModel.mode == "suitclass"``, see ``suittable.py``).

Rows are ranked chunk by chunk as on the direct path: the codes of a row are
summed, the sum's rank key is ranked densely (``fast.DenseIndex``) into the
plain table, and one AND on the suit counters finds the rows some suit of
which reaches the threshold. Only those rows build their reduced key -- the
rank keys of the suits that reach it, sorted -- which is hashed to one int64
(wrapping products, checked free of collisions on the table) and found in an
open-addressing table. Holdings above ``hand.size`` cards rank such rows by their
``hand.size`` subsets. When the deck is small enough, hands of at most
``hand.size`` cards are instead one gather on a per-hand table valued by the
path above (``suitdirect.py``), and bigger holdings the best of their subsets
on it -- unless their rank multiset's floor already beats the ceiling of what
their suits can add (``suitdirect.RaiseBound``): then the floor is their value.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from .classgrid import NO_HAND, count_vectors, grow, sorted_table
from .suitdirect import DIRECT_HANDS, DirectTable, RaiseBound, raise_bound, worth_direct
from .suittable import (
    ABSENT,
    SuitTable,
    card_counts,
    counter_bias,
    counter_ceilings,
    grow_plain,
    reaching_never_hurts,
)
from .table_cache import cache_enabled, read_direct, write_direct

#: Rows ranked subset by subset at once (enough that the walk's numpy calls are few per row).
WALK_ROWS = 1 << 13
#: Seeds tried for the hash of reduced keys (the first without a collision is kept).
HASH_SEEDS = range(8)


class HashTable:
    """Values by int64 key in an open-addressing table (linear probing), looked up vectorised.

    Every key looked up is in the table (the keys of valid holdings), so a probe
    stops at its key; the table is two to four times the keys, so most stop at once.
    A run of keys that passes the last slot goes on past it (the table is that much
    longer) instead of wrapping round to the first.

    Raises:
        ValueError: when two keys are equal.
    """

    def __init__(self, keys: np.ndarray, values: np.ndarray) -> None:
        bits = max(4, int(2 * len(keys) - 1).bit_length())
        self.shift = np.uint64(64 - bits)
        # one sort places every key: by first slot (a key's top bits, so the keys' unsigned
        # order), each key takes the first slot at or after its own that the keys before it
        # left free -- position i = i + the most (first slot - index) of keys 0..i
        order = np.argsort(keys.view(np.uint64), kind="stable")
        ordered = keys[order]
        if len(ordered) > 1 and (ordered[1:] == ordered[:-1]).any():
            raise ValueError("two keys of a hash table are equal")
        home = self.slots(ordered)
        index = np.arange(len(ordered))
        position = np.maximum.accumulate(home - index) + index if len(ordered) else index
        self.probes = int((position - home).max(initial=0)) + 1
        self.last = max(1 << bits, int(position.max(initial=0)) + 1) - 1
        self.keys = np.zeros(self.last + 1, dtype=np.int64)
        self.values = np.full(self.last + 1, NO_HAND, dtype=np.int64)
        self.keys[position], self.values[position] = ordered, values[order]

    def slots(self, keys: np.ndarray) -> np.ndarray:
        """The first slot of each key: its top bits."""
        found: np.ndarray = (keys.view(np.uint64) >> self.shift).astype(np.intp)
        return found

    def find(self, keys: np.ndarray) -> np.ndarray:
        """The value of each key (all present)."""
        slot = self.slots(keys)
        out: np.ndarray = self.values[slot]
        pending = np.flatnonzero(self.keys[slot] != keys)
        for _ in range(self.probes - 1):
            if not len(pending):
                break
            slot[pending] = np.minimum(slot[pending] + 1, self.last)
            hit = self.keys[slot[pending]] == keys[pending]
            out[pending[hit]] = self.values[slot[pending[hit]]]
            pending = pending[~hit]
        return out


class SuitBatch:
    """``rank_many`` of one ruleset on its suit-class tables."""

    def __init__(self, ranker: Any, dense_index: Any) -> None:
        table: SuitTable = ranker.tables.suit_table
        layout = ranker.layout
        self.ranker = ranker
        self.size: int = ranker.size
        self.layout = layout
        self.shift = layout.shift
        self.codes: np.ndarray = ranker.codes
        self.table = table
        bias = counter_bias(layout, table.threshold)
        self.first_codes = self.codes + np.int64(bias)  # the first column carries the counters' bias
        self.reach = np.int64(layout.flush_bits)
        self.bits = [np.int64(layout.suit_flush_bit(s)) for s in range(layout.suits)]
        self.suit_codes = [np.where(self.codes & layout.suit_one(s), self.codes, 0) for s in range(layout.suits)]
        values = table.values.astype(np.int64)
        for seed in HASH_SEEDS:
            self.multipliers = np.random.default_rng(seed).integers(1, 1 << 62, layout.suits + 1, dtype=np.int64) | 1
            try:
                self.lookup = HashTable(self.hash(table.rank_keys, table.suit_keys.T), values)
                break
            except ValueError:  # two keys hash alike: the next seed
                continue
        else:  # pragma: no cover - eight 64-bit hashes colliding on one table
            raise RuntimeError("internal error: no collision-free hash of the suit table")
        # at most one suit of a hand reaches the threshold (a wild card counts in every suit)?
        wilds = min(ranker.model.wild_cap, self.size) if layout.has_wild_digit else 0
        self.single = 2 * table.threshold > self.size + wilds
        # which suit reaches, by the reach bits of a sum (shifted down to the first one)
        self.reach_shift = layout.suit_bits - 1
        which = np.zeros(1 << (layout.shift - self.reach_shift), dtype=np.intp)
        for s in reversed(range(layout.suits)):
            which[np.flatnonzero(np.arange(len(which)) & (1 << (layout.suit_bits * s)))] = s
        self.which = which
        self.suit_code_table = np.concatenate(self.suit_codes)  # [suit * deck + id]
        # rank keys of the rows no suit of which reaches the threshold, by card count
        plain = table.suit_keys[:, 0] == ABSENT
        self.plain_keys = table.rank_keys[plain]
        self.plain_values = table.values[plain]
        self.plain_cards = card_counts(layout, self.plain_keys)
        # holding sizes above hand.size with reduced keys of their own (suittable.grow_single_suit)
        suited_cards = card_counts(layout, table.rank_keys[~plain])
        self.single_suit_sizes = {int(k) for k in np.flatnonzero(np.bincount(suited_cards)) if k > self.size}
        self.dense_index = dense_index  # fast.DenseIndex (passed in: fast.py imports this module)
        self.index: Any = None
        self.dense: dict[int, np.ndarray] = {}
        self.dominant = reaching_never_hurts(table, layout, self.size)
        # by the reaching suit's counter: the most a subset reaching it can be worth above its plain
        # value (reach_ceilings); rows whose plain value is at least that keep it
        self.ceilings: np.ndarray | None = None
        if self.dominant and self.single:
            self.ceilings = np.array(counter_ceilings(table, layout, self.size), dtype=np.int64)
        self.low = max(ranker.low, 1)
        self.direct_wanted = worth_direct(ranker, DIRECT_HANDS)
        self._direct: DirectTable | None = None
        self._bound: RaiseBound | None | bool = None  # False: none can be built
        self.floors: dict[int, np.ndarray] = {}

    def direct(self) -> DirectTable | None:
        """The per-hand table of hands up to ``hand.size`` cards (built on first use), or None
        when the deck is too big for one (or two cards share a code)."""
        if self._direct is None and self.direct_wanted:
            tables, cards = self.ranker.tables, len(self.codes)
            use_cache = cache_enabled()
            found = read_direct(tables, cards, DirectTable.sizes(self.low, self.size)) if use_cache else None
            self._direct = DirectTable(cards, self.low, self.size, self.by_reduced_key, found)
            if found is None and use_cache:
                write_direct(tables, cards, self._direct.values)
        return self._direct

    def hash(self, rank_keys: np.ndarray, suit_keys: np.ndarray) -> np.ndarray:
        """One int64 per reduced key; ``suit_keys`` has one row per suit (wrapping products)."""
        unsigned = self.multipliers.astype(np.uint64)
        out = rank_keys.astype(np.uint64) * unsigned[0]
        for s, keys in enumerate(suit_keys):
            out += (keys + 1).astype(np.uint64) * unsigned[s + 1]
        hashed: np.ndarray = out.view(np.int64)
        return hashed

    def bound(self) -> RaiseBound | None:
        """The floors and ceilings of bigger holdings on the per-hand table (built on first use), or None."""
        if self._bound is None:
            direct = self.direct()
            found = raise_bound(direct, self.ranker.code_list, self.layout) if direct is not None else None
            self._bound = False if found is None else found
        return self._bound if isinstance(self._bound, RaiseBound) else None

    def dense_index_for(self, k: int) -> Any:
        """The dense ranking of rank keys, covering ``k`` cards (a new one drops the dense tables)."""
        if self.index is None or k > self.index.top:
            self.index = self.dense_index(self.layout, max(k, self.size + 2))
            self.dense.clear()
            self.floors.clear()
        return self.index

    def dense_floor(self, bound: RaiseBound, k: int) -> np.ndarray:
        """The floor of ``k``-card holdings (``RaiseBound``), by dense rank index."""
        index = self.dense_index_for(k)
        if k not in self.floors:
            caps = self.ranker.model.caps
            keys = self.layout.keys(count_vectors(caps, self.size))
            floor_keys, floor_values = bound.floors
            where = np.minimum(np.searchsorted(floor_keys, keys), len(floor_keys) - 1)
            table = sorted_table(keys, np.where(floor_keys[where] == keys, floor_values[where], NO_HAND))
            for cards in range(self.size + 1, k + 1):
                table = grow(self.layout, caps, cards, table)
            dense = np.full(index.count(k), NO_HAND, dtype=np.int64)
            dense[index.index(table[0], k)] = table[1]
            self.floors[k] = dense
        return self.floors[k]

    def dense_plain(self, k: int) -> np.ndarray:
        """Values of ``k``-card holdings no suit of which reaches the threshold, by dense rank index."""
        if k not in self.dense:
            self.dense_index_for(k)
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
        rank_keys = total >> self.shift
        if self.single:
            # one suit reaches: its rank key alone, summed through a table by (suit, id)
            offset = self.which.take((total & self.reach) >> self.reach_shift) * len(self.codes)
            sub = self.suit_code_table.take(offset + columns[0])
            for column in columns[1:]:
                sub += self.suit_code_table.take(offset + column)
            keyed = (sub >> self.shift)[None, :]
        else:
            subs = np.zeros((len(self.suit_codes), columns.shape[1]), dtype=np.int64)
            for column in columns:
                for s, codes in enumerate(self.suit_codes):
                    subs[s] += codes[column]
            reached = np.stack([(total & bit) != 0 for bit in self.bits])
            keyed = -np.sort(-np.where(reached, subs >> self.shift, ABSENT), axis=0)
        return self.lookup.find(self.hash(rank_keys, keyed))

    def rank(self, ids: np.ndarray) -> np.ndarray:
        """Values of an (n, k) array of checked card ids."""
        n, k = ids.shape
        direct = self.direct()
        if direct is None:
            return self.by_reduced_key(ids)
        bound = self.bound() if k > self.size else None
        out = np.empty(n, dtype=np.int64)
        # rows whose suits could raise a subset above their floor, with their columns
        pending: list[tuple[np.ndarray, np.ndarray]] = []
        waiting = 0
        for start, columns in self.ranker._blocks(ids, len(self.codes)):
            stop = start + columns.shape[1]
            if k <= self.size:
                out[start:stop] = direct.rank(columns)
            elif bound is None:
                # a bigger holding: its best subset, each one hand of the per-hand table
                out[start:stop] = direct.best(columns)
            else:
                out[start:stop], rows = self.floor_rows(bound, columns)
                pending.append((rows + start, columns[:, rows]))
                waiting += len(rows)
                if waiting >= WALK_ROWS:  # whole blocks, soon: walking them all at the end measures slower
                    waiting = self.raise_rows(out, pending, final=False)
        if waiting:
            self.raise_rows(out, pending, final=True)
        return out

    def floor_rows(self, bound: RaiseBound, columns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The floors of holdings above ``hand.size`` cards (``columns``: ids, (k, n)), and the rows
        whose suits could raise a subset above the floor (``RaiseBound``)."""
        k = len(columns)
        total = self.codes.take(columns[0])
        masks = bound.bits.take(columns[0])
        for column in columns[1:]:
            total += self.codes.take(column)
            masks += bound.bits.take(column)
        floor = self.dense_floor(bound, k).take(self.dense_index_for(k).index(total >> self.shift, k))
        return floor, np.flatnonzero(bound.ceiling(masks) > floor)

    def raise_rows(self, out: np.ndarray, pending: list[tuple[np.ndarray, np.ndarray]], final: bool) -> int:
        """The best subset of the ``pending`` rows (row numbers, columns of ids) on the per-hand
        table, where above ``out``, in whole blocks of ``WALK_ROWS`` unless ``final``; the rows
        left stay in ``pending`` (their number is returned)."""
        direct = self.direct()
        assert direct is not None
        rows = np.concatenate([row for row, _ in pending])
        columns = np.concatenate([part for _, part in pending], axis=1)
        cut = len(rows) if final else len(rows) - len(rows) % WALK_ROWS
        for start in range(0, cut, WALK_ROWS):
            block = rows[start : min(start + WALK_ROWS, cut)]
            best = direct.best(np.ascontiguousarray(columns[:, start : start + len(block)]))
            out[block] = np.maximum(out[block], best)
        pending[:] = [(rows[cut:], columns[:, cut:])]
        return len(rows) - cut

    def by_reduced_key(self, ids: np.ndarray) -> np.ndarray:
        """Values of an (n, k) array of checked card ids, by plain value and reduced key."""
        n, k = ids.shape
        out = np.empty(n, dtype=np.int64)
        dense = self.dense_plain(k)
        index = self.index
        reached_rows: list[np.ndarray] = []
        reached_totals: list[np.ndarray] = []
        reached_columns: list[np.ndarray] = []
        keyed = k <= self.size or (self.single and k in self.single_suit_sizes)  # one suit reaches
        # the ceilings come from hands of hand.size cards: they bound those and bigger holdings only
        ceilings = self.ceilings if keyed and k >= self.size else None
        field = (1 << self.layout.suit_bits) - 1
        for start, columns in self.ranker._blocks(ids, len(self.codes)):
            total = self.first_codes.take(columns[0])
            for column in columns[1:]:
                total += self.codes.take(column)
            plain = dense.take(index.index(total >> self.shift, k))
            out[start : start + len(total)] = plain
            rows = np.flatnonzero(total & self.reach)
            if len(rows) and ceilings is not None:
                reached = total[rows]
                suit = self.which.take((reached & self.reach) >> self.reach_shift)
                rows = rows[plain[rows] < ceilings.take((reached >> (suit * self.layout.suit_bits)) & field)]
            if len(rows):
                reached_rows.append(rows + start)
                reached_totals.append(total[rows])
                reached_columns.append(columns[:, rows])
        if reached_rows:
            # the rows some suit of which reaches the threshold, all at once (few numpy calls)
            rows = np.concatenate(reached_rows)
            columns = np.concatenate(reached_columns, axis=1)
            if keyed:
                out[rows] = self.reduced_values(columns, np.concatenate(reached_totals))
            else:
                out[rows] = self.best_subsets(columns, out[rows] if self.dominant else None)
        return out

    def best_subsets(self, columns: np.ndarray, floor: np.ndarray | None) -> np.ndarray:
        """The best ``hand.size`` subset of each holding (``columns``: ids, (k, n)). With a
        ``floor`` (the plain values, when reaching never hurts) only subsets that reach count."""
        best = np.full(columns.shape[1], NO_HAND, dtype=np.int64) if floor is None else floor.copy()
        for subset in combinations(range(len(columns)), self.size):
            part = columns[list(subset)]
            total = self.first_codes[part[0]]
            for column in part[1:]:
                total += self.codes[column]
            rows = np.flatnonzero(total & self.reach)
            if floor is None:
                value = self.dense_plain(self.size)[self.index.index(total >> self.shift, self.size)]
                if len(rows):
                    value[rows] = self.reduced_values(part[:, rows], total[rows])
                np.maximum(best, value, out=best)
            elif len(rows):
                reached = self.reduced_values(part[:, rows], total[rows])
                best[rows] = np.maximum(best[rows], reached)
        return best
