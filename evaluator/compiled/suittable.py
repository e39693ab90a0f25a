"""Tables keyed by suit class: the fast path of rulesets whose patterns look at suits within the hand.

``flush(k)``, ``run(k, flush)``, ``suits`` and ``hand.best_subset`` see which
cards share a suit, so a hand's rank multiset does not decide its value. What
does is its *suit class* (``suitclasses.py``): the rank multiset and, up to a
renaming of suits, the ranks each suit holds. Most of that is seldom needed:
a four flush only matters once a suit holds four cards. The tables therefore
pick a **threshold** ``t`` from the data: the largest ``t`` such that every
holding of at most ``hand.size`` cards is valued exactly by its *reduced key*

    (rank key, sorted rank keys of the suits holding at least ``t`` cards)

where a wild card counts in every suit. A hand no suit of which reaches ``t``
is one lookup on its rank key, as on the direct path (one AND on the same
suit counters tells); the others add the suits that reach ``t``. ``t = 1``
is the whole suit class, so a threshold always exists.

Holdings above ``hand.size`` play their best ``hand.size`` subset: when no suit
reaches ``t`` every subset is plain too, and a grown rank table answers at once.
When at most one suit can reach ``t`` (no wild card, fewer than ``2 t`` cards) a
holding's other suits stay below ``t`` in every subset, so its reduced key still
values it exactly: those keys are grown one card at a time from the ``hand.size``
ones (``grow_single_suit``). Other holdings rank their subsets (per call, or
vectorised in batch).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .classgrid import NO_HAND, count_vectors, grow, sorted_table
from .suitclasses import supported
from .suitvalues import REFUSED

if TYPE_CHECKING:
    from ..engine.evaluate import Engine
    from ..rules.ruleset import Rules
    from .suitvalues import SuitValues

# (``CardModel`` and ``Layout`` of ``tables.py`` are duck-typed here: tables.py imports this module)
CardModel = Any
Layout = Any


#: The evaluation mode of rulesets on these tables (``CardModel.mode``).
SUIT_MODE = "suitclass"
#: Absent suit in a row of reduced keys (suit keys are sorted high first, absent last).
ABSENT = -1


def why_not_suit_mode(ruleset: Rules, engine: Engine, dead_jokers: bool) -> str | None:
    """Why a ruleset whose patterns look at suits within the hand stays generic, or None.

    Suit classes need interchangeable suits (one pack, no single wild cards), no
    suit named in a pattern, no suit tie-break, no lowest-card wild and no jokers
    that are not wild.
    """
    if not engine.by_suit_class:
        return "the patterns do not look at suits within the hand"
    why = supported(ruleset, ruleset.hand_size)
    if why is not None:
        return why
    if engine.flush_needs_suit:
        return "a pattern names a suit"
    if ruleset.tiebreak != "none":
        return "a suit tie-break"
    if dead_jokers:
        return "the deck has jokers that are not wild"
    return None


@dataclass
class SuitTable:
    """Values of every holding class up to ``hand.size`` cards by reduced key (and of the
    bigger holdings of ``single_suit_sizes``).

    ``rank_keys[i]`` and ``suit_keys[i]`` (one row per class, the rank keys of
    the suits that reach ``threshold``, high first, ``ABSENT`` padded) make the
    reduced key of ``values[i]``. ``plain[k]`` holds the complete sorted rank
    tables of ``k``-card holdings no suit of which reaches the threshold, for
    ``k`` from ``hand.size`` up (grown like ``tables.grow``).
    """

    threshold: int
    rank_keys: np.ndarray
    suit_keys: np.ndarray
    values: np.ndarray
    plain: dict[int, tuple[np.ndarray, np.ndarray]]

    def arrays(self) -> dict[str, np.ndarray]:
        """The arrays to cache (``plain`` is grown again on reading)."""
        return {
            "suit_threshold": np.array([self.threshold], dtype=np.int64),
            "suit_rank_keys": self.rank_keys,
            "suit_suit_keys": self.suit_keys,
            "suit_values": self.values,
        }


@dataclass
class SuitClasses:
    """Every holding class of ``hand.min`` to ``hand.size`` cards as arrays, one row a class: its rank
    key, per suit the cards that count in it (its naturals and every wild card) and their rank key,
    and its strength (an index into ``strengths``; -1: no hand)."""

    rank_keys: np.ndarray  # (classes,) int64
    counts: np.ndarray  # (classes, suits) int64
    subs: np.ndarray  # (classes, suits) int64
    strength: np.ndarray  # (classes,) int64
    strengths: list[Any]


def enumerate_classes(model: CardModel, valued: Sequence[SuitValues]) -> SuitClasses:
    """Every holding class of ``hand.min`` to ``hand.size`` cards with its strength, from the
    shared valuations of those sizes (``suitvalue_cache.suit_values``); classes the
    evaluator refuses (too many wild cards) are left out, as they are per call and in batch."""
    layout = model.layout
    shift = layout.shift
    code_of = dict(zip(model.cards, model.codes, strict=False))
    strengths: dict[Any, int] = {}
    rank_keys, counts, subs, strength = [], [], [], []
    for values in valued:
        codes = np.array([code_of.get(card, 0) for card in values.deck], dtype=np.int64)[values.held]
        kept = values.outcome != REFUSED
        codes, outcome = codes[kept], values.outcome[kept].astype(np.int64)
        rank_keys.append(codes.sum(axis=1) >> shift)
        in_suits = [np.where(codes & layout.suit_one(s) != 0, codes, 0) for s in range(layout.suits)]
        counts.append(np.stack([(in_suit != 0).sum(axis=1) for in_suit in in_suits], axis=1))
        subs.append(np.stack([in_suit.sum(axis=1) >> shift for in_suit in in_suits], axis=1))
        # the outcomes some kept class plays, numbered in one list of strengths for every size
        number = np.full(len(values.outcomes) + 1, -1, dtype=np.int64)  # the last entry: no hand
        for index in np.unique(outcome[outcome >= 0]).tolist():
            number[index] = strengths.setdefault(values.outcomes[index].strength[:3], len(strengths))
        strength.append(number[np.where(outcome >= 0, outcome, -1)])
    suits = layout.suits
    return SuitClasses(
        np.concatenate(rank_keys) if rank_keys else np.zeros(0, dtype=np.int64),
        np.concatenate(counts) if counts else np.zeros((0, suits), dtype=np.int64),
        np.concatenate(subs) if subs else np.zeros((0, suits), dtype=np.int64),
        np.concatenate(strength) if strength else np.zeros(0, dtype=np.int64),
        list(strengths),
    )


def reduced_keys(classes: SuitClasses, threshold: int) -> np.ndarray:
    """(classes, 1 + suits): each class's reduced key -- its rank key, then the rank keys of the
    suits that reach ``threshold``, high first, ``ABSENT`` padded (a suit's rank key is never 0)."""
    subs = np.where(classes.counts >= threshold, classes.subs, ABSENT)
    return np.column_stack([classes.rank_keys, -np.sort(-subs, axis=1)])


def build_suit_table(
    classes: SuitClasses, index: dict[Any, int], model: CardModel, caps: Sequence[int], extra: int
) -> SuitTable:
    """Pick the threshold (the largest that values every class exactly) and lay out the table:
    one row per reduced key, in the order the classes first show it."""
    dense = np.array([index[strength] for strength in classes.strengths] + [NO_HAND], dtype=np.int64)
    values = dense[classes.strength]  # -1 reads the last entry: no hand
    size = model.ruleset.hand_size
    for threshold in range(size, 0, -1):
        keys = reduced_keys(classes, threshold)
        order, starts = _key_runs(keys)
        if np.array_equal(values[order], values[order[starts]][np.cumsum(starts) - 1]):  # one value a key
            break
    else:  # pragma: no cover - t = 1 keys the whole suit class, which has one value
        raise RuntimeError("internal error: two holdings of one suit class have different values")
    rows = np.sort(order[starts])  # each key's first class, in the classes' order
    table = SuitTable(threshold, keys[rows, 0], keys[rows, 1:], values[rows].astype(np.int32), {})
    grow_plain(table, model, caps, size + extra)
    grow_single_suit(table, model, caps, size + extra)
    return table


def _key_runs(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rows in key order (stable: equal keys keep their order) and where each key's run starts."""
    order = np.lexsort(keys.T[::-1])
    ordered = keys[order]
    starts = np.ones(len(order), dtype=bool)
    starts[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    return order, starts


def single_suit_sizes(table: SuitTable, model: CardModel, caps: Sequence[int], top: int) -> range:
    """Holding sizes above ``hand.size`` (up to ``top``) whose reduced key values them exactly with
    one suit key: no wild card, every rank in every suit, and two suits cannot both reach the threshold.

    Such a holding's suits below the threshold stay below it in every subset, so its
    subsets' reduced keys -- hence its value -- follow from its rank key and the ranks
    of the one suit that reaches it.
    """
    layout = model.layout
    size = model.ruleset.hand_size
    if layout.has_wild_digit or any(cap != layout.suits for cap in caps):
        return range(0)
    return range(size + 1, min(top, 2 * table.threshold - 1) + 1)


def grow_single_suit(table: SuitTable, model: CardModel, caps: Sequence[int], top: int) -> None:
    """Add the reduced keys of holdings above ``hand.size`` cards, one suit reaching the threshold
    (``single_suit_sizes``): each valued as the best of its holdings one card smaller."""
    sizes = single_suit_sizes(table, model, caps, top)
    if not len(sizes):
        return
    layout = model.layout
    size = model.ruleset.hand_size
    places = np.array([layout.place(d) for d in range(layout.digits)], dtype=np.int64)
    high = np.int64(layout.key_bits)
    # the level below, by combined key (rank key, suit key above it): hand.size cards from the table
    mine = (table.suit_keys[:, 0] != ABSENT) & (card_counts(layout, table.rank_keys) == size)
    below = sorted_table(table.rank_keys[mine] + (table.suit_keys[mine, 0] << high), table.values[mine])
    grown: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    for k in sizes:
        suited_parts, other_parts = [], []
        for j in range(table.threshold, min(k, layout.digits) + 1):
            suited = count_vectors([1] * layout.digits, j)
            others = count_vectors([cap - 1 for cap in caps], k - j)
            suited_parts.append(np.repeat(suited, len(others), axis=0))
            other_parts.append(np.tile(others, (len(suited), 1)))
        suited, others = np.vstack(suited_parts), np.vstack(other_parts)
        suit_keys = suited.astype(np.int64) @ places
        rank_keys = suit_keys + others.astype(np.int64) @ places
        values = np.full(len(rank_keys), NO_HAND, dtype=np.int32)
        plain_keys, plain_values = table.plain[k - 1]
        keeps = suited.sum(axis=1) - 1 >= table.threshold
        for d in range(layout.digits):
            # one card of the reaching suit less: still reaching, or plain
            rows = np.flatnonzero(suited[:, d] > 0)
            still = rows[keeps[rows]]
            values[still] = np.maximum(
                values[still], _find(below, rank_keys[still] - places[d] + ((suit_keys[still] - places[d]) << high))
            )
            gone = rows[~keeps[rows]]
            values[gone] = np.maximum(values[gone], _find((plain_keys, plain_values), rank_keys[gone] - places[d]))
            # one card of another suit less
            rows = np.flatnonzero(others[:, d] > 0)
            values[rows] = np.maximum(
                values[rows], _find(below, rank_keys[rows] - places[d] + (suit_keys[rows] << high))
            )
        grown.append((rank_keys, suit_keys, values))
        below = sorted_table(rank_keys + (suit_keys << high), values)
    padding = np.full((sum(len(part[0]) for part in grown), layout.suits - 1), ABSENT, dtype=np.int64)
    table.rank_keys = np.concatenate([table.rank_keys, *(part[0] for part in grown)])
    table.suit_keys = np.vstack([table.suit_keys, np.column_stack([np.concatenate([p[1] for p in grown]), padding])])
    table.values = np.concatenate([table.values, *(part[2] for part in grown)]).astype(np.int32)


def _find(table: tuple[np.ndarray, np.ndarray], keys: np.ndarray) -> np.ndarray:
    """Values of keys that are all in a sorted table (a missing one is an internal error)."""
    sorted_keys, values = table
    where = np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)
    if not np.array_equal(sorted_keys[where], keys):
        raise RuntimeError("internal error: a smaller holding is missing from the suit table")
    found: np.ndarray = values[where]
    return found


def grow_plain(table: SuitTable, model: CardModel, caps: Sequence[int], top: int) -> None:
    """The complete plain rank tables from ``hand.size`` cards to ``top`` (unreachable classes: no hand)."""
    layout = model.layout
    size = model.ruleset.hand_size
    if size not in table.plain:
        keys = layout.keys(count_vectors(caps, size))
        values = np.full(len(keys), NO_HAND, dtype=np.int32)
        plain = table.suit_keys[:, 0] == ABSENT
        sizes = card_counts(layout, table.rank_keys[plain])
        mine = table.rank_keys[plain][sizes == size]
        order = np.argsort(keys)
        where = order[np.searchsorted(keys[order], mine)]
        values[where] = table.values[plain][sizes == size]
        table.plain[size] = sorted_table(keys, values)
    for k in range(max(table.plain) + 1, top + 1):
        table.plain[k] = grow(layout, caps, k, table.plain[k - 1])


def card_counts(layout: Layout, keys: np.ndarray) -> np.ndarray:
    """The number of cards of each rank key (``Layout.decode`` summed, vectorised)."""
    total = np.zeros(len(keys), dtype=np.int64)
    for part, shift, bits in zip(layout.parts, layout.part_shift, layout.part_bits, strict=False):
        value = (keys >> shift) & ((1 << bits) - 1)
        for d in part:
            value, count = np.divmod(value, layout.radix[d])
            total += count
    return total


def reaching_never_hurts(table: SuitTable, layout: Layout, size: int) -> bool:
    """True when no hand of ``hand.size`` cards is worth less than its rank multiset with no suit
    at the threshold: then a bigger holding's plain value is a floor of its best subset."""
    reaching = table.suit_keys[:, 0] != ABSENT
    mine = reaching & (card_counts(layout, table.rank_keys) == size)
    keys, values = table.plain[size]
    floor = values[np.minimum(np.searchsorted(keys, table.rank_keys[mine]), len(keys) - 1)]
    return bool(np.all(table.values[mine] >= floor))


def read_suit_table(arrays: dict[str, np.ndarray], model: CardModel, caps: Sequence[int], extra: int) -> SuitTable:
    """The table back from cached arrays (``SuitTable.arrays``)."""
    table = SuitTable(
        int(arrays["suit_threshold"][0]),
        arrays["suit_rank_keys"],
        arrays["suit_suit_keys"],
        arrays["suit_values"],
        {},
    )
    if table.suit_keys.ndim != 2 or not len(table.rank_keys) == len(table.suit_keys) == len(table.values):
        raise ValueError("suit table shape")
    grow_plain(table, model, caps, model.ruleset.hand_size + extra)
    return table


def reach_ceilings(table: SuitTable, layout: Layout, size: int) -> list[int]:
    """``ceilings[c]``: the most a hand of ``hand.size`` cards that reaches the threshold
    in one suit of at most ``c`` cards is worth where that is more than its rank
    multiset's plain value (``NO_HAND`` when no such hand is).

    When reaching never hurts (``reaching_never_hurts``), a bigger holding one
    suit of which reaches the threshold with ``c`` cards is worth exactly its
    plain value whenever that is at least ``ceilings[c]``: every subset is
    worth its plain value or at most the ceiling.
    """
    single = (table.suit_keys[:, 0] != ABSENT) & (table.suit_keys[:, 1:] == ABSENT).all(axis=1)
    mine = single & (card_counts(layout, table.rank_keys) == size)
    keys, plain = table.plain[size]
    floor = plain[np.minimum(np.searchsorted(keys, table.rank_keys[mine]), len(keys) - 1)]
    raised = table.values[mine] > floor
    counts = card_counts(layout, table.suit_keys[mine, 0])[raised]
    values = table.values[mine][raised]
    ceilings = [NO_HAND] * (size + 1)
    for count, value in zip(counts.tolist(), values.tolist(), strict=False):
        for c in range(count, size + 1):
            ceilings[c] = max(ceilings[c], value)
    return ceilings


def counter_bias(layout: Layout, threshold: int) -> int:
    """Start value of a sum whose suit counters set their top bit from ``threshold`` cards
    (a wild card counts in every suit)."""
    start = (1 << (layout.suit_bits - 1)) - threshold
    return sum(start << (layout.suit_bits * s) for s in range(layout.suits))


def counter_ceilings(table: SuitTable, layout: Layout, size: int) -> list[int]:
    """``reach_ceilings`` by the value of the reaching suit's counter in a sum biased with
    ``counter_bias(layout, table.threshold)`` (``NO_HAND`` for values below any count)."""
    ceilings = reach_ceilings(table, layout, size)
    start = (1 << (layout.suit_bits - 1)) - table.threshold
    return [ceilings[min(value - start, size)] if value >= start else NO_HAND for value in range(1 << layout.suit_bits)]
