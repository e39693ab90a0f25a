"""The layout of the compiled tables: card codes, hand-class keys and the Tables value.

Card codes
----------
Each card of the deck gets one integer code; a holding's key is the *sum* of
its codes. The low bits hold one counter per suit (a wild card adds one to
every suit), started at a bias so that "some suit holds ``hand.size`` cards" is
a single AND; above them the rank counts (plus a wild-card count) sit in
mixed-radix fields grouped into parts of at most 17 bits. Python's ``sum``
adds such codes in C while they fit in 63 bits, and the same layout serves the
NumPy batch path, which ranks a part vector densely with small offset tables.

The tables themselves (:class:`Tables`) are built by :mod:`evaluator.compiled.tables`
and cached on disk by :mod:`evaluator.compiled.table_cache`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import numpy as np

from ..engine.evaluate import engine_for
from ..rules.cards import Card
from ..rules.patterns import term_kinds
from .suittable import SUIT_MODE, SuitTable, why_not_suit_mode

if TYPE_CHECKING:
    from ..core.errors import RulesetError
    from ..rules.ruleset import Rules
    from .classwords import ClassWords

#: Tables are built for holdings of up to hand.size + EXTRA_CARDS cards (seven for
#: five-card poker); larger holdings are filled in lazily, in memory.
EXTRA_CARDS = 2
#: The widest part of a rank-count vector (mixed radix), in bits: keeps the
#: NumPy offset tables small enough to stay in cache.
PART_BITS = 17
#: Codes must add up inside a C long for ``sum`` to stay fast and for NumPy int64.
CODE_BITS = 63
#: The most cards a holding may have (as ``read_cards`` reads them).
MAX_HOLDING = 52
#: The batch path builds tables of every class of k cards up to this k; bigger
#: holdings are covered by smaller ones (``batch_rank.py``).
BATCH_CARDS = 10

Strength = tuple[tuple[int, ...], ...]


# --- the card layout --------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """How cards turn into additive integer codes for one ruleset.

    Digits are the natural ranks that have natural cards (weakest first, as
    ``Ruleset.rank_symbols``) and, when the ruleset has wild cards, one wild
    digit last. ``radix[d]`` is one more than the most cards a holding of at
    most ``limit`` cards can have in digit ``d``.
    """

    digit_rank: tuple[int, ...]  # rank value of each natural digit
    has_wild_digit: bool
    radix: tuple[int, ...]
    parts: tuple[tuple[int, ...], ...]  # digits of each part, in order
    part_shift: tuple[int, ...]  # bit offset of each part above the suit fields
    part_bits: tuple[int, ...]
    suit_bits: int  # width of one suit counter
    suits: int
    size: int  # hand.size: the flush threshold
    limit: int  # holdings of more cards may overflow a field (checked by callers)

    @property
    def digits(self) -> int:
        """Number of digits (natural ranks with cards, plus the wild digit)."""
        return len(self.radix)

    @property
    def wild_digit(self) -> int:
        """Index of the wild digit (only meaningful when ``has_wild_digit``)."""
        return len(self.radix) - 1

    @property
    def key_bits(self) -> int:
        """Bits of a rank key (``code >> shift``); a suit index may sit above them."""
        return sum(self.part_bits)

    @property
    def key_mask(self) -> int:
        """The rank key without a suit index above it."""
        return (1 << self.key_bits) - 1

    @property
    def shift(self) -> int:
        """Bits taken by the suit counters: ``code >> shift`` is the rank key."""
        return self.suits * self.suit_bits

    @property
    def bias(self) -> int:
        """Start value of a sum: each suit counter starts so that reaching
        ``size`` sets its top bit."""
        start = (1 << (self.suit_bits - 1)) - self.size
        return sum(start << (self.suit_bits * s) for s in range(self.suits))

    @property
    def flush_bits(self) -> int:
        """The top bit of every suit counter."""
        return sum(1 << (self.suit_bits * s + self.suit_bits - 1) for s in range(self.suits))

    def suit_one(self, suit: int) -> int:
        """The lowest bit of suit counter ``suit``."""
        return 1 << (self.suit_bits * suit)

    def suit_flush_bit(self, suit: int) -> int:
        """The top bit of suit counter ``suit``."""
        return 1 << (self.suit_bits * suit + self.suit_bits - 1)

    def place(self, digit: int) -> int:
        """The key (``code >> shift``) of one card in ``digit``."""
        for part, shift in zip(self.parts, self.part_shift, strict=False):
            if digit in part:
                value = 1
                for d in part:
                    if d == digit:
                        return value << shift
                    value *= self.radix[d]
        raise ValueError(digit)

    def keys(self, counts: np.ndarray) -> np.ndarray:
        """Rank keys (int64) of count vectors, shape (n, digits)."""
        places = np.array([self.place(d) for d in range(self.digits)], dtype=np.int64)
        return counts.astype(np.int64) @ places

    def decode(self, key: int) -> list[int]:
        """The count vector of a rank key."""
        counts = [0] * self.digits
        for part, shift, bits in zip(self.parts, self.part_shift, self.part_bits, strict=False):
            value = (key >> shift) & ((1 << bits) - 1)
            for d in part:
                value, counts[d] = divmod(value, self.radix[d])
        return counts


def make_layout(
    ruleset: Rules,
    digit_rank: tuple[int, ...],
    caps: Sequence[int],
    has_wild_digit: bool,
    suit_max: int,
    limit: int,
    threshold: int | None = None,
) -> Layout | None:
    """Pack digits with the given caps into parts; None when the codes would not
    fit in 63 bits for holdings of up to ``limit`` cards. Suit counters are wide
    enough to test any count from ``threshold`` (default ``hand.size``) up to ``hand.size``."""
    size = ruleset.hand_size
    lowest = size if threshold is None else threshold
    suits = len(ruleset.suits)
    radix = tuple(min(cap, limit) + 1 for cap in caps)
    most_in_suit = min(suit_max, limit)
    suit_bits = 1
    while (1 << (suit_bits - 1)) < size or (1 << (suit_bits - 1)) + lowest <= most_in_suit:
        suit_bits += 1
    parts: list[list[int]] = [[]]
    product = 1
    for digit, r in enumerate(radix):
        if parts[-1] and product * r > (1 << PART_BITS):
            parts.append([])
            product = 1
        parts[-1].append(digit)
        product *= r
    shifts, widths = [], []
    offset = 0
    for part in parts:
        span = 1
        for d in part:
            span *= radix[d]
        bits = max(1, (span - 1).bit_length())
        shifts.append(offset)
        widths.append(bits)
        offset += bits
    if suits * suit_bits + offset > CODE_BITS:
        return None
    return Layout(
        digit_rank,
        has_wild_digit,
        radix,
        tuple(tuple(p) for p in parts),
        tuple(shifts),
        tuple(widths),
        suit_bits,
        suits,
        size,
        limit,
    )


# --- what the tables see of a ruleset ----------------------------------------------------


@dataclass
class CardModel:
    """The deck as the tables see it: natural digits, wild cards, card codes."""

    ruleset: Rules
    cards: tuple[Card, ...]  # id -> card (Ruleset.deck order)
    natural_caps: tuple[int, ...]  # per natural digit: natural cards in the deck (all packs)
    digit_rank: tuple[int, ...]  # natural digit -> rank value (index in rank_symbols)
    wild_cap: int  # the most wild cards a holding can have
    static_wild: tuple[bool, ...]  # per id: always wild
    dead: tuple[bool, ...]  # per id: a joker that is not wild (never plays)
    mode: str  # "direct", "suited", "suitclass" (suitkey.py) or "generic"
    why_generic: str
    suit_sensitive: bool
    layout: Layout
    suit_keyed: bool = False  # one-suited tables per suit (a pattern names a suit, no wilds)
    codes: tuple[int, ...] = field(default=())  # per id
    wild_code: int = 0
    wild_limit: int | None = None  # the most wild cards one hand may hold (None: the deck's supply)

    @property
    def digits(self) -> int:
        """Digits of a class key: natural ranks, then the wild digit when there is one."""
        return self.layout.digits

    @property
    def caps(self) -> tuple[int, ...]:
        """Per digit: the most cards of the deck that can sit in it."""
        return self.natural_caps + ((self.wild_cap,) if self.layout.has_wild_digit else ())


def card_model(ruleset: Rules) -> CardModel:
    """Work out digits, caps, the evaluation mode and the card codes of ``ruleset``."""
    wild = ruleset.wild
    deck = ruleset.deck
    suits = ruleset.suits
    value_of = {symbol: value for value, symbol in enumerate(ruleset.rank_symbols)}
    static_wild = tuple(
        bool((card.is_joker and wild.jokers) or card in wild.cards or (not card.is_joker and card.rank in wild.ranks))
        for card in deck
    )
    dead = tuple(card.is_joker and not is_wild for card, is_wild in zip(deck, static_wild, strict=False))
    per_rank = [0] * len(ruleset.rank_symbols)
    per_suit = [0] * len(suits)
    for card, is_wild in zip(deck, static_wild, strict=False):
        if not is_wild and not card.is_joker:
            per_rank[value_of[card.rank or ""]] += ruleset.copies
            per_suit[suits.index(card.suit or "")] += ruleset.copies
    digit_rank = tuple(value for value, count in enumerate(per_rank) if count > 0)
    natural_caps = tuple(per_rank[value] for value in digit_rank)
    static_count = sum(
        ruleset.copies if not card.is_joker else 1 for card, w in zip(deck, static_wild, strict=False) if w
    )
    wild_cap = static_count + (max(natural_caps, default=0) if wild.lowest_rank else 0)
    # the generic evaluator refuses (C105) a hand of more wild cards than it can fill:
    # the tables stop there too, and rank() refuses such a hand the same way
    # (only when a hand can hold that many: a bigger holding plays hand.size of its cards)
    fillable = engine_for(ruleset).wild_limit
    wild_limit = fillable if min(wild_cap, ruleset.hand_size) > fillable else None
    if wild_limit is not None:
        wild_cap = wild_limit
    has_wild_digit = wild.any or static_count > 0
    sensitive = _suit_sensitive(ruleset)
    mode, why = "direct", ""
    engine = engine_for(ruleset)
    if engine.by_suit_class:
        not_suited = why_not_suit_mode(ruleset, engine, any(dead))
        mode, why = (SUIT_MODE, "") if not_suited is None else ("generic", not_suited)
    elif any(dead):
        mode, why = "generic", "the deck has jokers that are not wild"
    elif sensitive and has_wild_digit:
        mode, why = "generic", "a pattern names a suit, and a hand of wild cards takes the suit of its one natural"
    elif ruleset.tiebreak != "none" and has_wild_digit:
        mode, why = "generic", "a suit tie-break together with wild cards"
    elif ruleset.tiebreak != "none":
        mode = "suited"
    caps = natural_caps + ((wild_cap,) if has_wild_digit else ())
    suit_max = max(per_suit, default=0) + wild_cap
    layout = None
    # Too wide for 63 bits (several packs)? Lay out for fewer cards; bigger holdings
    # are then ranked subset by subset.
    # suit classes test suits against a threshold down to one card: counters wide enough for it
    threshold = 1 if mode == SUIT_MODE else ruleset.hand_size
    # the widest that fits: every holding, else up to the batch's direct rows (two packs fit
    # ten cards), else fewer
    for limit in (MAX_HOLDING, *range(max(BATCH_CARDS, ruleset.hand_size + EXTRA_CARDS), ruleset.hand_size - 1, -1)):
        layout = make_layout(ruleset, digit_rank, caps, has_wild_digit, suit_max, limit, threshold)
        if layout is not None:
            break
    if layout is None:
        raise too_wide(ruleset)
    model = CardModel(
        ruleset,
        deck,
        natural_caps,
        digit_rank,
        wild_cap,
        static_wild,
        dead,
        mode,
        why,
        sensitive,
        layout,
        sensitive and mode != "generic",
    )
    model.wild_limit = wild_limit
    shift = layout.shift
    every_suit = sum(layout.suit_one(s) for s in range(len(suits)))
    digit_of_rank = {value: digit for digit, value in enumerate(digit_rank)}
    wild_code = (every_suit + (layout.place(layout.wild_digit) << shift)) if has_wild_digit else 0
    codes = []
    for card, is_wild, is_dead in zip(deck, static_wild, dead, strict=False):
        if is_wild:
            codes.append(wild_code)
        elif is_dead:
            codes.append(0)
        else:
            digit = digit_of_rank[value_of[card.rank or ""]]
            codes.append(layout.suit_one(suits.index(card.suit or "")) + (layout.place(digit) << shift))
    model.codes = tuple(codes)
    model.wild_code = wild_code
    return model


def too_wide(ruleset: Rules) -> RulesetError:
    """R104: the deck's packs are too many for lookup tables of this hand size."""
    from ..core.errors import RulesetError, error

    position = ruleset.document.position(("deck",)) if "deck" in ruleset.data else ruleset.document.position(())
    problem = error(
        RulesetError,
        "R104",
        f"the deck ({ruleset.deck_size} cards, {ruleset.copies} packs) is too large for lookup tables of {ruleset.hand_size}-card hands: "
        "a holding's rank counts do not fit in 63 bits",
        position.source,
        position.line,
        position.col,
        hint="use fewer packs (deck.copies) or a smaller hand.size",
    )
    assert isinstance(problem, RulesetError)
    return problem


def _suit_sensitive(ruleset: Rules) -> bool:
    """True when a pattern can tell one flush suit from another (``suit = h``)."""
    patterns = [category.pattern for category in ruleset.categories]
    if ruleset.qualifier is not None:
        patterns.append(ruleset.qualifier.pattern)
    if ruleset.wild.plays_as_hands is not None:
        patterns.append(ruleset.wild.plays_as_hands.pattern)
    return any("suit" in term_kinds(pattern) for pattern in patterns)


# --- the compiled tables --------------------------------------------------------------


@dataclass
class Tables:
    """The compiled tables of one ruleset (see the module docstring).

    ``nf[k]`` / ``fl[k]`` are ``(keys, values)``: sorted rank keys of ``k``-card
    classes (naturals and wilds) and their dense values; ``fl`` holds the
    one-suited tables. ``strengths`` lists every strength, index = dense value.
    """

    ruleset: Rules
    model: CardModel
    strengths: list[Strength]
    categories: np.ndarray  # per dense value: category index (order), -1 when not qualifying
    nf: dict[int, tuple[np.ndarray, np.ndarray]]
    fl: dict[int, tuple[np.ndarray, np.ndarray]]
    dominant: bool  # a one-suited class is never worse than the same class unsuited
    flush_matters: bool  # some class changes value when one-suited
    built_in: float = 0.0  # seconds spent building (0 when read from the cache)
    from_cache: bool = False
    suit_table: SuitTable | None = None  # values by reduced suit key (mode "suitclass")
    words: ClassWords | None = None  # descriptions per class (classwords.py)
    _index: dict[Strength, int] | None = None

    @property
    def size(self) -> int:
        """The ruleset's hand size."""
        return self.ruleset.hand_size

    @property
    def max_cards(self) -> int:
        """Holdings up to this many cards are precomputed (more are filled lazily)."""
        return max(self.nf)

    def dense(self, strength: Strength) -> int:
        """The dense value of a generic-evaluator strength (the suit key is dropped)."""
        if self._index is None:
            self._index = {s: i for i, s in enumerate(self.strengths)}
        return self._index[value_part(strength)]

    def category_of(self, value: int) -> str | None:
        """The category of a dense value (None when the hand does not qualify)."""
        index = int(self.categories[value]) if value >= 0 else -1
        return self.ruleset.categories[index].name if index >= 0 else None


def value_part(strength: Strength) -> Strength:
    """A strength without its suit tie-break: (qualifies, score, natural-beats-wild)."""
    # (qualifies, score, natural-beats-wild): everything but the suit tie-break
    return tuple(strength[:3])


class TableSource(Protocol):
    """What the per-call and batch builders read of a ranker: its tables and their layout
    (``fast.FastRanker`` is one)."""

    @property
    def tables(self) -> Tables: ...
    @property
    def model(self) -> CardModel: ...
    @property
    def layout(self) -> Layout: ...
    @property
    def lowest(self) -> bool: ...
