"""Suit tie-breaks at table speed: the suit key of the best hand, read from its rank class.

A holding of more than ``hand.size`` cards is worth the best ``(table value,
suit key)`` over its subsets (``suited.py``). The table value of the holding
is one lookup (``direct``); the suit key only orders subsets of that value.
When every subset worth it plays the same ranks (the value's *class*: one rank
multiset, ``ClassPlay``), the key follows from the holding's cards of those
ranks alone:

- the suit key lists the suits of the cards that play in a fixed order of
  their ranks -- high to low, the first paired rank (``highest_paired``) or
  the highest unpaired rank (``highest_unpaired``) moved to the front -- each
  rank's cards by suit, high to low (``engine.suited.suit_key``);
- so each rank of the class takes the highest suits the holding has of it:
  one block of digits per rank, in a place that depends on the class only.

Three things can still make the choice of cards turn on suits, and are checked:

- a value only a one-suited hand reaches (a flush): the five play in one suit,
  the highest suit that holds every rank of the class;
- a value only a hand of mixed suits reaches, when the class could be one suit
  (distinct ranks): if the highest suits happen to be one suit, that choice
  would be worth something else, and the row is ranked by its subsets;
- a value several classes share (a ``rank_by`` that leaves cards out, a hand
  that does not qualify): ranked by its subsets.

Cards are one bit each, rank-major (``rank * suits + suit rank - 1``), so a
rank's cards are one field of the holding's sum of bits: in batch a field of
``suits`` bits; per call a byte of the per-call codes, whose upper bits carry
the count of that rank (``suitcall.py``). One pack only (a rank holds a suit
once), no suit named in a pattern (the flush tables would differ by suit), and
at most 63 bits of cards in batch / four suits per call; other rulesets keep
``suited.py``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from .classgrid import NO_HAND
from .table_layout import Layout, TableSource

#: Rows per chunk: the working arrays of a chunk stay in the CPU cache.
CHUNK = 16384
#: The most suit keys a batch keeps a flag for (``BatchPlay.passes``).
KEYS_LIMIT = 1 << 20
#: Kinds of a table value (``ClassPlay.kind``, bits).
CHECK = 1  # mixed suits only, distinct ranks: the highest suits must not be one suit
FLUSH = 2  # one suit only
SLOW = 4  # no single class: rank by subsets


class PlaySource(TableSource, Protocol):
    """What the fast suit keys read of a ranker beyond its tables (``fast.FastRanker`` is one)."""

    @property
    def size(self) -> int: ...
    @property
    def suits(self) -> int: ...
    @property
    def suit_base(self) -> int: ...
    @property
    def suit_scale(self) -> int: ...
    @property
    def rank_value(self) -> np.ndarray: ...
    @property
    def suit_rank(self) -> np.ndarray: ...
    @property
    def table_codes(self) -> list[int]: ...
    @property
    def nf(self) -> dict[int, int]: ...
    @property
    def fl(self) -> dict[int, int]: ...
    @property
    def _batch_cache(self) -> dict[str, Any]: ...


def usable(source: PlaySource, batch: bool) -> bool:
    """Whether the ruleset's suit keys can come from the classes (see the module docstring),
    in batch (a bit per card in 63 bits) or per call (a byte per rank: at most four suits)."""
    ruleset = source.tables.ruleset
    fits = (
        len(ruleset.rank_symbols) * source.suits <= 63 and source.suit_base**source.size <= KEYS_LIMIT
        if batch
        else source.suits <= 4
    )
    return (
        fits
        and source.model.mode == "suited"
        and ruleset.copies == 1
        and not source.model.suit_keyed
        and ruleset.tiebreak in ("highest_card", "highest_paired", "highest_unpaired")
    )


def class_play(source: PlaySource) -> ClassPlay:
    """The ruleset's :class:`ClassPlay`, made once and shared by the batch and per-call paths."""
    found = source._batch_cache.get("class-play")
    if found is None:
        found = source._batch_cache["class-play"] = ClassPlay(source)
    assert isinstance(found, ClassPlay)
    return found


class ClassPlay:
    """Per table value of ``hand.size`` cards: the ranks that play, in suit-key order."""

    def __init__(self, source: PlaySource) -> None:
        tables = source.tables
        ruleset = tables.ruleset
        layout = source.layout
        self.size = size = source.size
        self.suits = source.suits
        self.base = source.suit_base
        self.scale = source.suit_scale
        self.ranks = len(ruleset.rank_symbols)
        count = len(tables.strengths)
        found: dict[int, set[int]] = {}  # value -> the rank keys of the classes worth it
        reached: dict[bool, set[int]] = {False: set(), True: set()}  # values reached mixed / one-suited
        counts_of: dict[int, list[int]] = {}  # rank key -> its count per digit
        for flush, part in ((False, tables.nf), (True, tables.fl)):
            if size not in part:
                continue
            part_keys, part_values = part[size]
            part_keys = part_keys & layout.key_mask
            keys = part_keys.tolist()
            counts_of.update(zip(keys, decode_many(layout, part_keys).tolist(), strict=True))
            for key, value in zip(keys, part_values.tolist(), strict=True):
                found.setdefault(value, set()).add(key)
                reached[flush].add(value)
        self.kind = [SLOW] * count
        self.blocks: list[list[tuple[int, int, int]]] = [[] for _ in range(count)]  # (rank, cards, first digit)
        method = ruleset.tiebreak
        digit_rank = layout.digit_rank
        for value, classes in found.items():
            if len(classes) != 1:
                continue  # several classes: the subsets decide
            counts = Counter({digit_rank[d]: c for d, c in enumerate(counts_of[next(iter(classes))]) if c})
            self.blocks[value] = blocks_of(counts, method)
            mixed, one_suited = value in reached[False], value in reached[True]
            if not mixed:
                self.kind[value] = FLUSH
            elif not one_suited and tables.flush_matters and len(counts) == size:
                self.kind[value] = CHECK  # the same ranks in one suit are worth another value
            else:
                self.kind[value] = 0

    def digits(self, suits: Sequence[int]) -> int:
        """Suit ranks as a key (high digit first), padded to ``hand.size`` digits."""
        key = 0
        for suit in suits:
            key = key * self.base + suit
        padded: int = key * self.base ** (self.size - len(suits))
        return padded


def decode_many(layout: Layout, keys: np.ndarray) -> np.ndarray:
    """The count vectors (n, digits) of rank keys: ``Layout.decode``, vectorised.

    >>> from evaluator import load
    >>> from evaluator.compiled.fast import ruleset_ranker
    >>> layout = ruleset_ranker(load("standard")).layout
    >>> key = layout.place(12) * 2 + layout.place(0)
    >>> decode_many(layout, np.array([key])).tolist() == [layout.decode(key)]
    True
    """
    counts = np.zeros((len(keys), layout.digits), dtype=np.int64)
    for part, shift, bits in zip(layout.parts, layout.part_shift, layout.part_bits, strict=True):
        value = (keys >> shift) & ((1 << bits) - 1)
        for d in part:
            value, counts[:, d] = np.divmod(value, layout.radix[d])
    return counts


def blocks_of(counts: Counter[int], method: str) -> list[tuple[int, int, int]]:
    """(rank, cards of it, first digit) in the order the suit key lists the ranks.

    >>> blocks_of(Counter({12: 2, 9: 2, 4: 1}), "highest_card")
    [(12, 2, 0), (9, 2, 2), (4, 1, 4)]
    >>> blocks_of(Counter({12: 2, 9: 3}), "highest_paired"), blocks_of(Counter({12: 2, 9: 1, 3: 1}), "highest_unpaired")
    ([(9, 3, 0), (12, 2, 3)], [(9, 1, 0), (12, 2, 1), (3, 1, 3)])
    """
    ranks = sorted(counts, reverse=True)
    first = None
    if method == "highest_paired":
        paired = sorted(((c, r) for r, c in counts.items() if c >= 2), reverse=True)
        first = paired[0][1] if paired else None
    elif method == "highest_unpaired":
        single = [r for r, c in counts.items() if c == 1]
        first = max(single) if single else None
    if first is not None:
        ranks = [first] + [r for r in ranks if r != first]
    blocks, at = [], 0
    for rank in ranks:
        blocks.append((rank, counts[rank], at))
        at += counts[rank]
    return blocks


def top_suits(field: int, cards: int) -> list[int]:
    """The ``cards`` highest suit ranks set in ``field`` (bit ``s`` = suit rank ``s + 1``), high first.

    >>> top_suits(0b1011, 2)
    [4, 2]
    """
    found = [bit + 1 for bit in range(field.bit_length() - 1, -1, -1) if field >> bit & 1]
    return found[:cards]


class BatchPlay:
    """Suit keys of many holdings at once (``rank_many``).

    Per row: the sum of the cards' bits, then per slot of the key (a rank of the
    class) one gather of the block's digits by (slot pattern, the rank's field).
    A value the class does not settle lifts its key past every suit key in its
    first slot, so that one gather of ``flagged`` finds those rows together with
    the keys of one suit (``CHECK``), and only they are looked at again.
    """

    def __init__(self, source: PlaySource, play: ClassPlay) -> None:
        suits, size = play.suits, play.size
        self.play = play
        self.width = suits
        self.field = (1 << suits) - 1
        count = len(play.kind)
        # per card id: its bit, rank-major
        self.bits = np.left_shift(np.int64(1), source.rank_value * suits + source.suit_rank - 1)
        # per slot of the key (at most hand.size ranks), per value (+1: NO_HAND reads the last)
        patterns: dict[tuple[int, int], int] = {(0, 0): 0, (0, 1): 1}  # nothing; lifted
        self.shift = np.zeros((size, count + 1), dtype=np.int64)
        self.pattern = np.zeros((size, count + 1), dtype=np.int64)
        self.pattern[0, count] = 1 << suits  # NO_HAND
        self.rank_set = np.zeros(count + 1, dtype=np.int64)  # one bit per rank played, suit bit 0
        for value, blocks in enumerate(play.blocks):
            for rank, _, _ in blocks:
                self.rank_set[value] |= 1 << (rank * suits)
            if play.kind[value] & (FLUSH | SLOW):
                self.pattern[0, value] = 1 << suits
                continue
            for slot, (rank, cards, at) in enumerate(blocks):
                pattern = patterns.setdefault((cards, at), len(patterns))
                self.shift[slot, value] = rank * suits
                self.pattern[slot, value] = pattern << suits
        self.kind = np.array(play.kind + [0], dtype=np.int64)
        # one gather per slot: the shift in the low byte, the pattern above it
        self.slots = [shift | (pattern << 8) for shift, pattern in zip(self.shift, self.pattern, strict=True)]
        # digits[pattern << suits | field]: the block's digits in place
        self.lift = lift = play.base**size
        digits = np.zeros(len(patterns) << suits, dtype=np.int64)
        digits[1 << suits : 2 << suits] = lift
        for (cards, at), pattern in patterns.items():
            for field in range(1 << suits) if cards else ():
                top = top_suits(field, cards)
                if len(top) == cards:
                    block = 0
                    for suit in top:
                        block = block * play.base + suit
                    digits[(pattern << suits) | field] = block * play.base ** (size - at - cards)
        self.digits = digits
        # per key: flagged when lifted or of one suit (the rows looked at again)
        keys = np.arange(2 * lift, dtype=np.int64)
        flagged = keys >= lift
        for suit in range(1, suits + 1):
            flagged |= keys == play.digits([suit] * size)
        self.flagged = flagged

    def rank(self, ids: np.ndarray, dense: np.ndarray, slow: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        """Values (``dense * scale + suit key``) of rows of card ids worth ``dense``;
        ``slow`` ranks the rows the classes do not settle (by their subsets)."""
        n, k = ids.shape
        play = self.play
        out = np.empty(n, dtype=np.int64)
        bits, digits, field, flagged, slots = self.bits, self.digits, np.int64(self.field), self.flagged, self.slots
        pending: list[np.ndarray] = []
        for start in range(0, n, CHUNK):
            stop = min(n, start + CHUNK)
            cards = bits.take(ids[start:stop])  # one gather; the columns are summed strided
            held = cards[:, 0].copy()
            for j in range(1, k):
                held += cards[:, j]
            value = dense[start:stop]
            key = np.zeros(stop - start, dtype=np.int64)
            for table in slots:
                slot = table.take(value)
                key += digits.take((slot >> 8) + ((held >> (slot & 63)) & field))
            np.multiply(value, play.scale, out=out[start:stop])
            out[start:stop] += key
            odd = np.flatnonzero(flagged.take(key))
            if len(odd):
                out[odd + start], bad = self._odd(held[odd], value[odd], key[odd])
                pending.append(odd[bad] + start)
        if pending:
            rows = np.concatenate(pending)
            if len(rows):
                out[rows] = slow(np.ascontiguousarray(ids[rows]))
        return out

    def _odd(self, held: np.ndarray, value: np.ndarray, key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Values of the flagged rows (a flush, no hand, a key of one suit), and which
        of them the subsets must rank."""
        play = self.play
        kind = self.kind[value]
        settled = kind == 0  # a key of one suit that may be one suit
        key = np.where(settled, key, 0)
        flush = (kind & FLUSH) != 0
        wanted = self.rank_set[value]
        for bit in range(self.width - 1, -1, -1):  # the highest suit holding every rank of the flush
            holds = flush & ~settled & ((held & (wanted << bit)) == (wanted << bit))
            key[holds] = play.digits([bit + 1] * play.size)
            settled |= holds
        found = np.where(value < 0, NO_HAND, value * play.scale + key)
        return found, ~settled & (value >= 0)
