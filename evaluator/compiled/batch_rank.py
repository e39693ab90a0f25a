"""Batch ranking on the tables, without cliffs (the body of ``FastRanker.rank_many``).

Rows of ``k`` card ids become sums of additive codes, chunk by chunk; the sum's
rank key indexes the dense ``k``-card table and its suit counters say which
suits may make a flush. Three things used to fall off that path and are kept
on it here:

- **flush-capable rows** (every row once three or four wild cards are held,
  since a wild card counts in every suit): each suit's cards are summed with a
  per-suit code table (a card of another suit adds 0), and the one-suited
  value is read from the tables of all counts at once (one offset table per
  count), inside the chunk that is already in cache;
- **holdings above ``BATCH_CARDS``**: the value of a holding is the best of
  its ``hand.size``-card subsets. Split ``hand.size + 1`` disjoint blocks off
  the row: any ``hand.size`` cards miss at least one block, so the best over
  "the row without block ``b``" is the row's value. With blocks of ``k - 10``
  cards every such row is a 10-card row whose sum is the full sum minus the
  block's codes (no new gathers). Larger rows recurse on smaller ones;
- **several packs** past the code limit (a count field could overflow): the
  same cover, down to ``layout.limit`` cards.

A cover ranks ``hand.size + 1`` smaller rows per level; past ``COVER_LEAVES``
of them (about 15 cards and more, or three packs and more past the limit) the
rows are ranked one by one on the per-call path.

Rows that need a one-suited table of more than ``BATCH_CARDS`` cards (eleven
cards of one suit) are ranked one by one; they are vanishingly rare.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from typing import Any, Protocol

import numpy as np

from .classgrid import NO_HAND
from .table_layout import BATCH_CARDS, TableSource

Rank = Callable[[np.ndarray], np.ndarray]


class DenseRanking(Protocol):
    """The dense ranking of rank keys (``fast.DenseIndex``)."""

    def index(self, key: np.ndarray, k: int | np.ndarray) -> np.ndarray:
        """Dense indices of rank keys of ``k`` cards."""
        ...


class BatchRanker(TableSource, Protocol):
    """What batch ranking needs of a ranker (``fast.FastRanker`` is one).

    Declared here, below the ranker, so that the ranker can hand its batches
    to this module without the two importing each other.
    """

    @property
    def size(self) -> int: ...
    @property
    def index(self) -> DenseRanking: ...
    @property
    def _code_table(self) -> np.ndarray: ...
    @property
    def _batch_cache(self) -> dict[str, Any]: ...

    def _dense_tables(self, k: int) -> tuple[np.ndarray, np.ndarray]: ...

    def _dense_flush(self, k: int) -> np.ndarray: ...

    def _blocks(self, ids: np.ndarray, limit: int) -> Iterator[tuple[int, np.ndarray]]: ...

    def _direct_rank(self) -> Callable[[Sequence[int]], int]: ...


#: A cover that would rank more smaller rows than this (holdings of about 15
#: cards and more) ranks its rows one by one instead.
COVER_LEAVES = 36
#: Rows some suit of which can flush, gathered from the chunks and valued together.
FLUSH_ROWS = 8192


def blocks_for(k: int, most: int, parts: int) -> tuple[list[list[int]], bool] | None:
    """Column blocks covering every ``parts - 1`` subset of ``k`` columns, and
    whether dropping one block leaves at most ``most`` columns (else: recurse).

    None when ``k`` is too small to split into ``parts`` blocks.

    >>> blocks_for(11, 10, 6)
    ([[0], [1], [2], [3], [4], [5]], True)
    >>> blocks_for(13, 10, 6)[1]
    False
    """
    width = k - most
    if parts * width <= k:
        return [list(range(i * width, (i + 1) * width)) for i in range(parts)], True
    width = k // parts
    if width < 1:
        return None
    return [list(range(i * width, (i + 1) * width)) for i in range(parts)], False


def leaves(k: int, most: int, parts: int) -> int:
    """How many rows of at most ``most`` cards the cover of a ``k``-card row ranks.

    >>> leaves(11, 10, 6), leaves(13, 10, 6), leaves(52, 10, 6) > COVER_LEAVES
    (6, 36, True)
    """
    plan = blocks_for(k, most, parts)
    if k <= most or plan is None:
        return 1
    if plan[1]:
        return parts
    return parts * leaves(k - len(plan[0][0]), most, parts)


def cover_many(ranker: BatchRanker, ids: np.ndarray, most: int, rank: Rank) -> np.ndarray:
    """The best value of every row as the best over the row without one block."""
    n, k = ids.shape
    plan = blocks_for(k, most, ranker.size + 1)
    if plan is None:
        return subsets_many(ranker, ids, rank)
    if leaves(k, most, ranker.size + 1) > COVER_LEAVES:
        return _one_by_one(ranker, ids)
    best = np.full(n, NO_HAND, dtype=np.int64)
    for block in plan[0]:
        kept = [j for j in range(k) if j not in block]
        np.maximum(best, rank(np.ascontiguousarray(ids[:, kept])), out=best)
    return best


def _one_by_one(ranker: BatchRanker, ids: np.ndarray) -> np.ndarray:
    """Rows so big that the cover would rank too many smaller rows: the per-call
    path, hand by hand (its memo of big holdings is bounded)."""
    cache = ranker._batch_cache
    if "direct" not in cache:
        # the per-call path without lowest-card wild: the rows are already lowered
        cache["direct"] = ranker._direct_rank()
    direct = cache["direct"]
    codes = ranker._code_table.tolist()
    return np.array([direct([codes[i] for i in row]) for row in ids.tolist()], dtype=np.int64)


def subsets_many(ranker: BatchRanker, ids: np.ndarray, rank: Rank) -> np.ndarray:
    """The best ``hand.size`` subset of every row (each subset ranked by ``rank``)."""
    n, k = ids.shape
    best = np.full(n, NO_HAND, dtype=np.int64)
    for subset in combinations(range(k), ranker.size):
        np.maximum(best, rank(ids[:, list(subset)]), out=best)
    return best


class SuitTables:
    """One-suited values of every count from hand.size to ``top`` in one array."""

    def __init__(self, ranker: BatchRanker, top: int) -> None:
        layout = ranker.layout
        self.top = top
        self.index = ranker.index
        keyed = ranker.model.suit_keyed
        pieces: list[np.ndarray] = []
        self.offsets = np.zeros((layout.suits if keyed else 1, top + 1), dtype=np.int64)
        at = 0
        for row in range(self.offsets.shape[0]):
            for count in range(ranker.size, top + 1):
                table = ranker._dense_flush(count)[row]
                self.offsets[row, count] = at
                pieces.append(table)
                at += len(table)
        self.values = np.concatenate(pieces)
        table = ranker._code_table
        # per suit: the code of each id that counts in that suit (its own suit, or wild), else 0
        self.suit_codes = [np.where(table & np.int64(layout.suit_one(s)), table, 0) for s in range(layout.suits)]
        self.suit_code_table = np.concatenate(self.suit_codes)  # suit s, id i at s * len(table) + i


def direct_many(ranker: BatchRanker, ids: np.ndarray) -> np.ndarray:
    """The tables' value of each row (any number of cards); see the module docstring."""
    n, k = ids.shape
    layout = ranker.layout
    tables = ranker.tables
    size = ranker.size

    def again(part: np.ndarray) -> np.ndarray:
        return direct_many(ranker, part)

    if k > layout.limit:
        return cover_many(ranker, ids, layout.limit, again)
    wide = k > BATCH_CARDS
    plan = blocks_for(k, BATCH_CARDS, size + 1) if wide else None
    if wide and (plan is None or not plan[1] or (tables.flush_matters and not tables.dominant)):
        return cover_many(ranker, ids, BATCH_CARDS, again)
    looked_up = BATCH_CARDS if wide else k
    dense_nf, dense_fl = ranker._dense_tables(looked_up)
    flush_matters = tables.flush_matters
    # one hand (k == hand.size) is one-suited exactly when its flush bit is set;
    # more cards take the best of both only when being one-suited never hurts
    one_suited = flush_matters and (k == size or (k > size and tables.dominant))
    suited = suit_tables_of(ranker, min(k, BATCH_CARDS)) if one_suited else None
    index = ranker.index
    table = ranker._code_table
    shift = layout.shift
    first_table = table + np.int64(layout.bias)  # the first column carries the suit counters' bias
    flush_bits = np.int64(layout.flush_bits)
    both = (
        np.concatenate([dense_nf, dense_fl[0]])
        if (flush_matters and k == size and not ranker.model.suit_keyed)
        else None
    )
    out = np.empty(n, dtype=np.int64)
    slow_rows: list[np.ndarray] = []
    # rows some suit of which can flush, valued a block at a time (settle_flushable)
    flushable: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    waiting = 0
    # the wild pseudo-id (lowest-card wild) is the one id past the deck
    for start, columns in ranker._blocks(ids, len(table) if ranker.lowest else len(table) - 1):
        stop = start + columns.shape[1]
        total = first_table[columns[0]]
        for j in range(1, k):
            total += table[columns[j]]
        if plan is not None:
            value = np.full(stop - start, NO_HAND, dtype=np.int64)
            for block in plan[0]:
                dropped = total.copy()
                for j in block:
                    dropped -= table[columns[j]]
                np.maximum(value, dense_nf[index.index(dropped >> shift, BATCH_CARDS)], out=value)
        elif both is not None:
            # hand.size cards: the one-suited table sits right after the plain one
            where = index.index(total >> shift, k) + ((total & flush_bits) != 0) * len(dense_nf)
            value = both[where]
        else:
            value = dense_nf[index.index(total >> shift, k)]
        if flush_matters and both is None:
            rows = np.flatnonzero(total & flush_bits)
            if len(rows):
                if suited is None:
                    # not dominant: a forced flush may hurt, so the subsets decide
                    value[rows] = subsets_many(ranker, np.ascontiguousarray(columns[:, rows].T), again)
                else:
                    plain = value[rows] if k > size else np.full(len(rows), NO_HAND, dtype=np.int64)
                    flushable.append((rows + start, total[rows], plain))
                    waiting += len(rows)
        out[start:stop] = value
        if suited is not None and waiting >= FLUSH_ROWS:
            slow_rows.append(settle_flushable(ranker, suited, ids, flushable, out))
            waiting = 0
    if suited is not None and waiting:
        slow_rows.append(settle_flushable(ranker, suited, ids, flushable, out))
    for rows in slow_rows:
        if not len(rows):
            continue
        # more cards of one suit than the one-suited tables hold: covered by 10-card rows
        out[rows] = cover_many(ranker, np.ascontiguousarray(ids[rows]), BATCH_CARDS, again)
    return out


def settle_flushable(
    ranker: BatchRanker,
    suited: SuitTables,
    ids: np.ndarray,
    pending: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
    out: np.ndarray,
) -> np.ndarray:
    """Value the ``pending`` rows (row numbers in ``ids``, their sums and plain values) into
    ``out`` at once, empty ``pending``, and return the rows the one-suited tables do not cover.
    Gathered from several chunks: a few hundred rows a chunk would pay NumPy's per-call cost
    many times over, and a block of about a chunk stays in cache."""
    rows = np.concatenate([part[0] for part in pending])
    picked = np.ascontiguousarray(ids[rows].T, dtype=np.intp)
    totals = np.concatenate([part[1] for part in pending])
    plains = np.concatenate([part[2] for part in pending])
    pending.clear()
    out[rows], slow = flush_values(ranker, suited, picked, totals, plains)
    found: np.ndarray = rows[slow]
    return found


def suit_tables_of(ranker: BatchRanker, top: int) -> SuitTables:
    """The ranker's one-suited tables up to ``top`` cards (built once per dense index)."""
    cache = ranker._batch_cache
    key = f"suit-tables-{top}"
    for count in range(ranker.size, top + 1):
        ranker._dense_flush(count)  # may rebuild the dense index: before looking at it
    found = cache.get(key)
    if found is None or found.index is not ranker.index:
        found = cache[key] = SuitTables(ranker, top)
    assert isinstance(found, SuitTables)
    return found


def flush_values(
    ranker: BatchRanker, suited: SuitTables, columns: np.ndarray, total: np.ndarray, plain: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Best of the plain value and each flush-capable suit's one-suited value
    (dominant tables); and the rows whose suit holds more than the tables cover."""
    layout = ranker.layout
    flags = total & np.int64(layout.flush_bits)
    several = np.flatnonzero((flags & (flags - 1)) != 0)
    if not len(several):
        return _one_suit_values(ranker, suited, columns, total, plain, flags)
    if len(several) * 8 < len(total):
        # few rows have several flush-capable suits (wild cards lift every suit): every row
        # in one pass by its highest such suit, then those few suit by suit
        best, slow = _one_suit_values(ranker, suited, columns, total, plain, flags)
        best[several], slow_several = flush_values(ranker, suited, columns[:, several], total[several], best[several])
        return best, np.union1d(slow, several[slow_several])
    shift = layout.shift
    counter = (1 << layout.suit_bits) - 1
    start_count = (1 << (layout.suit_bits - 1)) - ranker.size
    keyed = ranker.model.suit_keyed
    index = ranker.index
    best = plain.copy()
    too_many = np.zeros(len(total), dtype=bool)
    for suit in range(layout.suits):
        rows = np.flatnonzero(total & np.int64(layout.suit_flush_bit(suit)))
        if not len(rows):
            continue
        own = suited.suit_codes[suit]
        # most rows: sum the suit over all of them (cheaper than gathering their columns)
        picked = columns[:, rows] if 2 * len(rows) < len(total) else columns
        suit_total = own.take(picked[0])
        for j in range(1, picked.shape[0]):
            suit_total += own.take(picked[j])
        if len(suit_total) != len(rows):
            suit_total = suit_total[rows]
        held = ((total[rows] >> (layout.suit_bits * suit)) & counter) - start_count
        over = held > suited.top
        if over.any():
            # ranked apart by the caller; a harmless key keeps the lookup in bounds
            too_many[rows[over]] = True
            held = np.where(over, ranker.size, held)
            suit_total = np.where(over, 0, suit_total)
        offsets = suited.offsets[suit if keyed else 0]
        values = suited.values[offsets[held] + index.index(suit_total >> shift, held)]
        best[rows] = np.maximum(best[rows], values)
    return best, np.flatnonzero(too_many)


def _one_suit_values(
    ranker: BatchRanker,
    suited: SuitTables,
    columns: np.ndarray,
    total: np.ndarray,
    plain: np.ndarray,
    flags: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`flush_values` when each row has exactly one flush-capable suit (``flags``: its
    counter's top bit): one pass over the rows, each in its own suit, instead of one per suit.
    A row with several takes its highest."""
    layout = ranker.layout
    position = np.frexp(flags.astype(np.float64))[1] - 1  # the one bit set: exact in a double
    suit = position // layout.suit_bits
    base = suit * (len(suited.suit_code_table) // layout.suits)
    codes = suited.suit_code_table
    suit_total = codes[base + columns[0]]
    for j in range(1, columns.shape[0]):
        suit_total += codes[base + columns[j]]
    counter = (1 << layout.suit_bits) - 1
    held = ((total >> (layout.suit_bits * suit)) & counter) - ((1 << (layout.suit_bits - 1)) - ranker.size)
    over = held > suited.top
    if over.any():
        # ranked apart by the caller; a harmless key keeps the lookup in bounds
        held = np.where(over, ranker.size, held)
        suit_total = np.where(over, 0, suit_total)
    offsets = suited.offsets[suit, held] if ranker.model.suit_keyed else suited.offsets[0, held]
    values = suited.values[offsets + ranker.index.index(suit_total >> layout.shift, held)]
    return np.maximum(plain, values), np.flatnonzero(over)
