"""Suit tie-breaks per call: codes that carry their card, one lookup per holding class.

``rank`` of a ruleset whose suit keys come from the classes (``suitplay.usable``)
takes codes made for it -- ``Ruleset.encode`` hands them out -- where each
card's code is the sum of

- one byte per rank (rank ``r`` at bits ``8r`` to ``8r + 7``): the card's suit
  bit (bit ``suit rank - 1``) and one in the rank's count (bits 4 to 6);
- above the bytes, the table codes' suit counters (``table_layout.Layout``):
  a suit's counter starts where reaching ``hand.size`` cards sets its top bit.

So one ``sum`` of a holding's codes is the holding seen rank by rank: which
suits it holds of each rank, how many cards, and whether a suit reaches a hand.
When no suit does (most holdings), the count bits of the sum are the holding's
class, and one dict lookup keyed by them gives what ``suitplay.ClassPlay`` says
of the class's table value: the value, the ranks that play, how many cards of
each and which rank comes first. The suit key is then one ``to_bytes`` of the
bytes of those ranks, marked with those counts; ``translate`` keeps each
rank's highest suits that play and drops the ranks that do not, and one dict
lookup of the bytes left gives the key (every such run is made with the
table: a few thousand per ruleset).

The rest -- a suit reaching ``hand.size``, a value several classes share, no
hand -- maps the codes back to the table codes and is ranked as before: the
table value (``direct``), then the class's suit key read from the same sum,
or the subsets (``suited.subsets_rank``). Values that are not these codes
(table codes, card ids) go to the subsets too, which rank table codes and say
what is wrong with anything else.

The codes are wider than 64 bits (a byte per rank): Python ints, summed in C.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations, product

import numpy as np

from .classgrid import NO_HAND
from .suitplay import CHECK, FLUSH, SLOW, ClassPlay, PlaySource, blocks_of, class_play, decode_many, top_suits

#: Marks the rank whose cards come first in a rank byte (its count sits in bits 4 to 6).
FIRST = 0x80
#: Classes of holdings bigger than the tables' kept once looked up, at most.
GROWN_CLASSES = 1 << 16
#: Ranks of a class key that fit in one int64 while the keys are made with NumPy.
RANKS_PER_WORD = 7
ZERO = b"\0"
MISSING: Info = (0, 0, 0)  # not in the class table (a new object: compared by identity)

Info = tuple[int, int, int]  # value * scale, the suit bits of the ranks that play, their counts and mark
Rank = Callable[[Sequence[int]], int]


def _reduced() -> bytes:
    """Per rank byte: its count and mark kept, and only as many of its highest suits as the count."""
    table = bytearray(256)
    for byte in range(256):
        top = top_suits(byte & 0x0F, (byte >> 4) & 7)
        table[byte] = (byte & 0xF0) | sum(1 << (suit - 1) for suit in top)
    return bytes(table)


#: ``bytes.translate`` table of the rank bytes (``_reduced``).
REDUCE = _reduced()


class CallCodes:
    """The per-call codes of a ruleset (by card id) and the masks of their sums."""

    def __init__(self, source: PlaySource) -> None:
        layout = source.layout
        ruleset = source.tables.ruleset
        self.width = len(ruleset.rank_symbols)  # bytes of the ranks
        counters = 8 * self.width
        bits = layout.suit_bits
        start = (1 << (bits - 1)) - source.size
        self.bias = sum(start << (counters + bits * s) for s in range(layout.suits))
        self.flush_bits = sum(1 << (counters + bits * s + bits - 1) for s in range(layout.suits))
        self.count_bits = sum(7 << (8 * rank + 4) for rank in range(self.width))
        # bit 0 of every rank byte: a suit's cards as a rank set, once shifted down by its suit bit
        self.rank_bits = sum(1 << (8 * rank) for rank in range(self.width))
        suit_index = [ruleset.suits.index(card.suit or "") for card in source.tables.model.cards]
        self.codes = [
            (1 << (8 * rank + 4)) + (1 << (8 * rank + suit - 1)) + (1 << (counters + bits * index))
            for rank, suit, index in zip(source.rank_value.tolist(), source.suit_rank.tolist(), suit_index, strict=True)
        ]


def call_codes(source: PlaySource) -> list[int]:
    """The codes ``rank`` per call takes for ``source``'s ruleset, by card id (see the module docstring)."""
    return CallCodes(source).codes


def runs_key(play: ClassPlay, runs: bytes) -> int:
    """The suit key of reduced rank bytes (high rank first): the marked rank's suits
    first, then the others in order, each rank's suits high to low (``ClassPlay.digits``)."""
    first = [byte for byte in runs if byte & FIRST]
    rest = [byte for byte in runs if not byte & FIRST]
    suits: list[int] = []
    for byte in first + rest:
        suits.extend(top_suits(byte & 0x0F, (byte >> 4) & 7))
    return play.digits(suits)


def marked(blocks: Sequence[tuple[int, int, int]], suits: int) -> tuple[int, int]:
    """(the suit bits of the ranks of ``blocks``, their counts and the first one's mark).

    >>> [hex(part) for part in marked([(1, 2, 0), (0, 1, 2)], 4)]
    ['0xf0f', '0xa010']
    """
    mask = sum(((1 << suits) - 1) << (8 * rank) for rank, _, _ in blocks)
    marks = sum(((cards << 4) | (FIRST if at == 0 else 0)) << (8 * rank) for rank, cards, at in blocks)
    return mask, marks


class CallTable:
    """What ``rank`` per call reads, made on first use (``make``).

    ``classes``: holding class (the count bits of a sum of codes) -> ``Info``, or
    None where the table codes answer; every class of up to the tables' size, and
    bigger ones once met (``GROWN_CLASSES`` kept). ``keys``: the suit key of every
    run of reduced rank bytes those classes leave.
    """

    def __init__(self, source: PlaySource, codes: CallCodes, direct: Rank, slow: Rank) -> None:
        self.source = source
        self.codes = codes
        self.direct = direct
        self.slow = slow
        self.size = source.size
        self.scale = source.suit_scale
        self.view = codes.count_bits | codes.flush_bits  # a suit reaching a hand is no class
        self.classes: dict[int, Info | None] = {}
        self.keys: dict[bytes, int] = {}
        self.table_of = dict(zip(codes.codes, source.table_codes, strict=True))
        self.play: ClassPlay | None = None
        self.made = 0
        self.plain: list[Info | None] = []  # per value: the Info of its one class (not a flush)
        # per value, for the table codes' path: (suit bits, counts and mark, check) of a
        # plain class, the rank set (suit bit 0) of a flush, None for the subsets
        self.by_value: list[tuple[int, int, bool] | int | None] = []
        self.flush_keys: list[tuple[int, int]] = []  # (suit bit, key of hand.size cards of that suit), high first
        self.same_key: dict[int, int] = {}  # suit bit -> the key of hand.size cards of that suit
        self.same: set[int] = set()
        self.reaching: dict[int, int] = {}  # the flush bit of one suit -> its suit bit in a rank byte
        self.flush_values: dict[int, int] = {}  # rank set (bit 8r) of one suit's cards -> its one-suited value

    def make(self) -> None:
        """Every class of the tables' holdings and the suit key of every run of rank bytes they leave."""
        play = self.play = class_play(self.source)
        suits, scale = play.suits, play.scale
        shared: dict[int, int] = {}  # equal masks and marks as one object: fewer to fetch per call
        for value, blocks in enumerate(play.blocks):
            kind = play.kind[value]
            mask, marks = (shared.setdefault(part, part) for part in marked(blocks, suits))
            self.plain.append((value * scale, mask, marks) if not kind & (SLOW | FLUSH) else None)
            if kind & SLOW:
                self.by_value.append(None)
            elif kind & FLUSH:
                self.by_value.append(sum(1 << (8 * rank) for rank, _, _ in blocks))
            else:
                self.by_value.append((mask, marks, bool(kind & CHECK)))
        self.flush_keys = [(bit, play.digits([bit + 1] * play.size)) for bit in range(suits - 1, -1, -1)]
        self.same_key = dict(self.flush_keys)
        self.same = set(self.same_key.values())
        source = self.source
        tables, layout = source.tables, source.layout
        low = max(tables.ruleset.hand_min, 1)
        for k, (keys, values) in sorted(tables.nf.items()):
            if k >= low:
                counts = decode_many(layout, keys & layout.key_mask)
                self.classes.update(
                    zip(_class_keys(counts, layout.digit_rank), self._infos(k, values, counts), strict=True)
                )
        self.made = len(self.classes)
        self.keys.update(_runs(play, {info[2] for info in self.classes.values() if info is not None}, self.codes.width))
        self._make_flushes()

    def _make_flushes(self) -> None:
        """The one-suited value of every rank set a suit's cards of a built holding can hold."""
        source = self.source
        if not source.tables.dominant:
            return  # a flush may be worth less than the plain hand: the table codes decide
        codes, layout = self.codes, source.layout
        ruleset = source.tables.ruleset
        counters = 8 * codes.width
        for index, suit in enumerate(ruleset.suits):
            bit = 1 << (counters + layout.suit_bits * (index + 1) - 1)
            self.reaching[bit] = len(ruleset.suit_order) - ruleset.suit_order.index(suit) - 1
        top = max(source.tables.nf)
        cards = [(1 << (8 * rank), layout.place(d)) for d, rank in enumerate(layout.digit_rank)]
        fl = source.fl
        for count in range(self.size, min(top, len(cards)) + 1):
            for picked in combinations(cards, count):
                rank_set = key = 0
                for bit, place in picked:
                    rank_set += bit
                    key += place
                self.flush_values[rank_set] = fl[key]

    def _infos(self, k: int, values: np.ndarray, counts: np.ndarray) -> list[Info | None]:
        """The Infos of classes of ``k`` cards worth ``values``: their value's class above
        ``hand.size`` cards, else their own (every card plays)."""
        plain = self.plain
        if k > self.size:
            return [plain[value] if value >= 0 else None for value in values.tolist()]
        play = self.play
        assert play is not None
        method = self.source.tables.ruleset.tiebreak
        digit_rank = self.source.layout.digit_rank
        infos: list[Info | None] = []
        for value, row in zip(values.tolist(), counts.tolist(), strict=True):
            found = plain[value] if value >= 0 else None
            if found is None and value >= 0:  # a value several classes share: this holding's own
                own = Counter({digit_rank[d]: count for d, count in enumerate(row) if count})
                found = (value * play.scale, *marked(blocks_of(own, method), play.suits))
            infos.append(found)
        return infos

    def grow(self, key: int) -> Info | None:
        """The Info of a class bigger than the tables' (None: not a holding of these codes)."""
        counts = [(key >> (8 * rank + 4)) & 7 for rank in range(self.codes.width)]
        layout = self.source.layout
        digit_of = {rank: digit for digit, rank in enumerate(layout.digit_rank)}
        if sum(counts) <= max(self.source.tables.nf) or any(c and r not in digit_of for r, c in enumerate(counts)):
            return None  # the tables hold every class of their size: these are not codes of a holding
        value = self.source.nf[sum(count * layout.place(digit_of[rank]) for rank, count in enumerate(counts) if count)]
        found = self.plain[value] if value >= 0 else None
        if len(self.classes) < self.made + GROWN_CLASSES:
            self.classes[key] = found
        return found

    def key(self, total: int, mask: int, marks: int) -> int:
        """The suit key of the ranks ``mask`` selects, ``marks`` giving their counts and first rank."""
        runs = ((total & mask) | marks).to_bytes(self.codes.width, "big").translate(REDUCE, ZERO)
        found = self.keys.get(runs)
        if found is None:  # not a run a holding leaves: a card given twice
            assert self.play is not None
            return runs_key(self.play, runs)
        return found

    def other(self, held: Sequence[int], total: int) -> int:
        """``rank`` of what the first lookup does not settle: the first call (the table is made
        here), a class bigger than the tables', a suit reaching a hand, the rest (see the module
        docstring)."""
        if self.play is None:
            self.make()
        flush = total & self.codes.flush_bits
        info = None if flush else self.classes.get(total & self.view, MISSING)
        if info is MISSING:
            info = self.grow(total & self.view)
        if info is not None:
            value, mask, marks = info
            return value + self.key(total, mask, marks)
        if flush and len(held) > self.size:
            found = self.one_suit(total, flush)
            if found is not None:
                return found
        return self.by_table(held, total)

    def one_suit(self, total: int, flush: int) -> int | None:
        """A holding where one suit reaches a hand: the better of that suit's one-suited value and
        the plain value of its class (a flush is never worse than its plain hand: ``dominant``),
        None where the table codes must answer."""
        bit = self.reaching.get(flush)
        flushed = self.flush_values.get((total >> bit) & self.codes.rank_bits) if bit is not None else None
        info = self.classes.get(total & self.codes.count_bits)
        if flushed is None or info is None:
            return None  # two suits, a big holding, a value several classes share
        assert bit is not None
        base, mask, marks = info
        plain = base // self.scale
        if flushed > plain and isinstance(self.by_value[flushed], int):
            # a value only a flush reaches: its five in the one suit that holds them
            return flushed * self.scale + self.same_key[bit]
        if plain > flushed:
            key = self.key(total, mask, marks)
            shape = self.by_value[plain]
            if isinstance(shape, tuple) and shape[2] and key in self.same:
                return None  # the highest suits are one suit: worth another value
            return base + key
        return None

    def by_table(self, held: Sequence[int], total: int) -> int:
        """``rank`` on the table codes: the table value, then the class's suit key read from
        ``total``, or the subsets."""
        try:
            table_codes = [self.table_of[code] for code in held]
        except KeyError:
            return self.slow(list(held))  # not these codes: the subsets rank table codes, or say what is wrong
        if len(table_codes) <= self.size:
            return self.slow(table_codes)
        value = self.direct(table_codes)
        if value < 0:
            return NO_HAND
        info = self.by_value[value]
        if isinstance(info, tuple):
            mask, marks, check = info
            key = self.key(total, mask, marks)
            if check and key in self.same:  # the highest suits are one suit: worth another value
                return self.slow(table_codes)
            return value * self.scale + key
        if info is None:
            return self.slow(table_codes)
        for bit, key in self.flush_keys:  # the highest suit holding every rank of the flush
            wanted = info << bit
            if total & wanted == wanted:
                return value * self.scale + key
        return self.slow(table_codes)


def _class_keys(counts: np.ndarray, digit_rank: Sequence[int]) -> list[int]:
    """The count bits (bits 4 to 6 of each rank's byte) of count vectors, as Python ints."""
    top = max(digit_rank, default=0)
    words: list[list[int]] = []
    for first in range(0, top + 1, RANKS_PER_WORD):
        word = np.zeros(len(counts), dtype=np.int64)
        for d, rank in enumerate(digit_rank):
            if first <= rank < first + RANKS_PER_WORD:
                word += counts[:, d] << (8 * (rank - first) + 4)
        words.append(word.tolist())
    keys = words[0]
    for i, word_list in enumerate(words[1:], 1):
        shift = 8 * RANKS_PER_WORD * i
        keys = [low | (high << shift) for low, high in zip(keys, word_list, strict=True)]
    return keys


def _runs(play: ClassPlay, marks: Iterable[int], width: int) -> dict[bytes, int]:
    """The suit key of every run of reduced rank bytes that classes marked ``marks`` leave
    (``runs_key`` of each, added up block by block)."""
    found: dict[bytes, int] = {}
    base, size = play.base, play.size
    for shape in {mark.to_bytes(width, "big").translate(None, ZERO) for mark in marks}:
        order = sorted(range(len(shape)), key=lambda i: not shape[i] & FIRST)  # the key's order of the ranks
        at = {}
        digit = 0
        for i in order:
            at[i] = digit
            digit += (shape[i] >> 4) & 7
        # per rank: (its byte with the suits it keeps, what those suits add to the key)
        choices = []
        for i, byte in enumerate(shape):
            cards = (byte >> 4) & 7
            options = []
            for suits in combinations(range(play.suits - 1, -1, -1), cards):  # high first
                block = 0
                for suit in suits:
                    block = block * base + suit + 1
                options.append((byte | sum(1 << suit for suit in suits), block * base ** (size - at[i] - cards)))
            choices.append(options)
        for picked in product(*choices):
            found[bytes(byte for byte, _ in picked)] = sum(part for _, part in picked)
    return found


def call_rank(source: PlaySource, direct: Rank, slow: Rank) -> Rank:
    """``rank`` per call on the per-call codes (``call_codes``): one sum, one lookup of the
    holding's class, one of its suit key; the rest on the table codes by ``direct``
    (the table value) and ``slow`` (the subsets)."""
    codes = CallCodes(source)
    table = CallTable(source, codes, direct, slow)
    classes, keys, other = table.classes, table.keys, table.other
    bias, width, view = codes.bias, codes.width, table.view
    reduce, zero = REDUCE, ZERO

    def rank_played(held: Sequence[int]) -> int:
        total = sum(held, bias)
        try:
            value, mask, marks = classes[total & view]  # type: ignore[misc]  # KeyError: not met; TypeError: None
            return value + keys[((total & mask) | marks).to_bytes(width, "big").translate(reduce, zero)]
        except (KeyError, TypeError):
            return other(held, total)

    return rank_played
