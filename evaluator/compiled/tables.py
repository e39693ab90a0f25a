"""Compiling a ruleset into lookup tables: the data behind the fast path.

Why a ruleset compiles at all
-----------------------------
The generic evaluator (``evaluate.py``) asks only three things of a set of
cards: the rank multiset of its natural cards, how many wild cards it holds,
and whether its naturals share one suit. Everything it returns is a function
of that *hand class* -- 6,175 rank multisets of five cards in the standard
deck, each flush or not. Compiling runs :meth:`Engine.fill` once per class (on
one representative hand) and numbers the distinct strengths densely, so that
``a > b`` between two table values holds exactly when one ``Fill.strength`` beats
the other (bigger is better in the ruleset's own direction).

Seven cards and more, without enumerating subsets
-------------------------------------------------
A holding of ``k > hand.size`` cards plays its best ``hand.size`` subset. Two
tables give that best directly:

``NF[k-multiset]``
    the best subset *value* when no subset is one-suited: the maximum over
    sub-multisets of the non-flush class value, filled by a dynamic programme
    over ``k`` (the best of a multiset is the best of the multisets one card
    smaller). Exact whenever no suit holds ``hand.size`` cards counting the wild
    cards, which is 97% of seven-card hands.
``FL[multiset of one suit's naturals + wilds]``
    the best one-suited subset drawn from those cards.

When some suit does reach ``hand.size``, the value is ``max(NF, FL of each such
suit)`` -- provided being one-suited never hurts a class (*dominance*: true in
every high game; a wild card can always decline the flush). The non-flush
entries of NF then only over-count subsets whose flush value is at least as
high and is counted by FL. Rulesets where a flush is worse (deuce-to-seven)
take the max over the ``hand.size`` subsets instead, for those rare hands only.
A class with at most one natural card is always one-suited (the generic
evaluator's rule), so such classes carry their flush value in NF as well.

Lowest-card wild is decided on the whole holding: the lowest natural rank held
turns wild before the key is formed. A suit tie-break (``suits.tiebreak``)
orders hands of equal value by the suits of the cards that play: the tables
give the value of every subset and the suit key is computed from the cards
(see ``fast.py``). Patterns that look at suits within the hand (``flush(k)``,
``run(k, flush)``, ``suits``) and ``hand.best_subset`` are valued by suit class
and keyed by a reduced suit key (``suitkey.py``). What the tables cannot see --
a pattern that names a suit, a non-wild joker, a suit tie-break together with
wild cards -- is evaluated by the generic path and numbered with the same dense
values.

Card codes
----------
Each card of the deck gets one integer code; a holding's key is the *sum* of
its codes. The low bits hold one counter per suit (a wild card adds one to
every suit), started at a bias so that "some suit holds ``hand.size`` cards" is
a single AND; above them the rank counts (plus a wild-card count) sit in
mixed-radix fields grouped into parts of at most 17 bits. Python's ``sum``
adds such codes in C while they fit in 63 bits, and the same layout serves the
NumPy batch path, which ranks a part vector densely with small offset tables.

The disk cache
--------------
Tables are cached under ``$POKERRULES_CACHE``, else ``$XDG_CACHE_HOME/pokerrules``,
else ``~/.cache/pokerrules``, in a file named by a hash of the resolved ruleset
data and the package version. A file is a magic string, a JSON header (format,
package version, ruleset hash, payload length, HMAC) and an ``.npz`` payload
read with ``allow_pickle=False``; :mod:`evaluator.core.diskcache` checks the folder
(ours, writable by nobody else), opens files without following symlinks,
bounds every read and verifies the HMAC keyed by the user's secret. Anything
that does not check out -- truncated, corrupted, forged, another version -- is
rebuilt and rewritten atomically (temporary file, then ``os.replace``); the
cache is never trusted blindly. ``POKERRULES_TABLE_CACHE=off`` builds in memory
only. A cold build takes one to two seconds per ruleset (suit-class rulesets
value every suit class through the generic evaluator: about 5 s for five cards
of 52, 40 s with a wild joker); past one second a progress bar shows on stderr.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import comb
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core import diskcache
from ..core.errors import CardError, error
from ..core.resources import user_cache_dir
from ..engine.evaluate import engine_for
from ..rules.cards import Card
from ..rules.patterns import term_kinds
from .classgrid import NO_HAND as NO_HAND  # (re-exported: the other modules import them from here)
from .classgrid import count_vectors as count_vectors
from .classgrid import grow as grow
from .classgrid import sorted_table
from .suitclasses import holdings, supported
from .suittable import (
    SUIT_MODE,
    SuitTable,
    build_suit_table,
    enumerate_classes,
    read_suit_table,
    why_not_suit_mode,
)

if TYPE_CHECKING:
    from ..core.errors import RulesetError
    from ..engine.fill import Fill
    from ..rules.ruleset import Rules

#: Bumped whenever the layout of a cache file or of the tables changes.
FORMAT_VERSION = 4
#: Environment variable that turns the disk cache off when set to "0" or "off".
CACHE_SWITCH_ENV = "POKERRULES_TABLE_CACHE"
MAGIC = b"PRTABLES"
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
    fillable = fillable_wilds(len(ruleset.rank_symbols))
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
    # Too wide for 63 bits (several packs)? Lay out for the holdings the tables are
    # built for; bigger holdings are then ranked subset by subset.
    # suit classes test suits against a threshold down to one card: counters wide enough for it
    threshold = 1 if mode == SUIT_MODE else ruleset.hand_size
    for limit in (MAX_HOLDING, ruleset.hand_size + EXTRA_CARDS, ruleset.hand_size):
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


def fillable_wilds(rank_count: int) -> int:
    """The most wild cards one hand may hold before the generic evaluator refuses it."""
    from ..engine.evaluate import MAX_WILD_CHOICES

    wilds = 0
    while comb(rank_count + wilds, wilds + 1) <= MAX_WILD_CHOICES:
        wilds += 1
    return wilds


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


# --- enumerating classes ----------------------------------------------------------------


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
        return self._index[_value_part(strength)]

    def category_of(self, value: int) -> str | None:
        """The category of a dense value (None when the hand does not qualify)."""
        index = int(self.categories[value]) if value >= 0 else -1
        return self.ruleset.categories[index].name if index >= 0 else None


def _value_part(strength: Strength) -> Strength:
    # (qualifies, score, natural-beats-wild): everything but the suit tie-break
    return tuple(strength[:3])


class _Progress:
    """A progress bar on stderr that shows up only once a build takes over a second."""

    def __init__(self, label: str, delay: float = 1.0) -> None:
        self.label = label
        self.start = time.monotonic()
        self.delay = delay
        self.shown = False
        self.tty = sys.stderr.isatty()
        self.last = -1.0

    def __call__(self, fraction: float) -> None:
        now = time.monotonic()
        if now - self.start < self.delay:
            return
        if not self.tty:
            if not self.shown:
                print(f"pokerrules: compiling lookup tables for {self.label} ...", file=sys.stderr, flush=True)
                self.shown = True
            return
        if now - self.last < 0.1 and fraction < 1.0:
            return
        self.last = now
        width = 30
        done = int(width * min(max(fraction, 0.0), 1.0))
        bar = "#" * done + "-" * (width - done)
        print(f"\rpokerrules: compiling {self.label} [{bar}] {fraction:4.0%}", end="", file=sys.stderr, flush=True)
        self.shown = True

    def finish(self) -> None:
        """End the bar with the elapsed time (nothing when it never showed)."""
        if not self.shown:
            return
        elapsed = time.monotonic() - self.start
        if self.tty:
            print(f"\rpokerrules: compiled {self.label} in {elapsed:.1f} s" + " " * 40, file=sys.stderr, flush=True)
        else:
            print(f"pokerrules: compiled {self.label} in {elapsed:.1f} s", file=sys.stderr, flush=True)


# --- building --------------------------------------------------------------------------


def build_tables(ruleset: Rules, progress: Callable[[float], None] | None = None) -> Tables:
    """Compile ``ruleset`` (no cache involved). See the module docstring."""
    started = time.monotonic()
    model = card_model(ruleset)
    engine = engine_for(ruleset)
    size = ruleset.hand_size
    low = max(ruleset.hand_min, 1)
    top = size + EXTRA_CARDS
    layout = model.layout
    caps = model.caps
    wild_digit = layout.wild_digit if layout.has_wild_digit else -1
    natural_digits = len(model.natural_caps)
    suits = ruleset.suits
    one_suit = len(suits) < 2
    copies = ruleset.copies
    report = progress or (lambda fraction: None)

    # 1. every class of at most hand.size cards, each filled once by the engine;
    # a pattern that names a suit keeps one one-suited table per suit
    keyed = model.suit_keyed
    flush_suits: list[str] = list(suits) if model.suit_sensitive else [suits[0]]
    small = {k: count_vectors(caps, k) for k in range(low, size + 1)}
    total_classes = sum(len(rows) for rows in small.values())
    strengths: dict[Strength, None] = {}
    raw_nf: dict[int, list[Strength | None]] = {}
    raw_fl: list[Strength | None] = []
    fl_rows: list[list[int]] = []
    fl_suit: list[int] = []
    done = 0
    wild_cards = [Card.joker(n + 1) for n in range(max(caps[-1] if wild_digit >= 0 else 0, size))]
    for k, rows in small.items():
        unsuited: list[Strength | None] = []
        for row in rows.tolist():
            naturals = [ruleset.rank_symbols[model.digit_rank[d]] for d in range(natural_digits) for _ in range(row[d])]
            wilds = row[wild_digit] if wild_digit >= 0 else 0
            held = wild_cards[:wilds]
            flushable = k == size and all(row[d] <= copies for d in range(natural_digits))
            by_suit: list[Strength | None] = []
            if flushable:
                for suit in flush_suits:
                    by_suit.append(_strength(engine, [Card(r, suit) for r in naturals], held))
            if k == size and (len(naturals) <= 1 or one_suit):
                plain = max((s for s in by_suit if s is not None), default=None) if flushable else None
            else:
                plain = _strength(engine, _spread(naturals, suits), held)
            unsuited.append(plain)
            if flushable:
                for which in range(len(flush_suits) if keyed else 1):
                    fl_rows.append(row)
                    fl_suit.append(which)
                    raw_fl.append(by_suit[which])
            for s in [plain, *by_suit]:
                if s is not None:
                    strengths[s] = None
            done += 1
            if done % 256 == 0:
                report(0.8 * done / total_classes)
        raw_nf[k] = unsuited
    classes = []
    if model.mode == SUIT_MODE:
        # every holding class by suit, valued once: the suit tables (suitkey.py)
        classes = enumerate_classes(ruleset, model, engine, lambda done: report(min(0.8, done / 200_000)))
        for item in classes:
            if item.strength is not None:
                strengths[item.strength] = None
    elif engine.by_suit_class:
        # the rank classes above miss what suits within the hand make (a four
        # flush): every strength of a suit class, numbered with the rest
        why_not = supported(ruleset, size)
        if why_not is not None:
            raise error(CardError, "C105", f"{ruleset.name} cannot be compiled: {why_not}", "<tables>")
        for k in range(low, size + 1):
            for held, _ in holdings(ruleset, k):
                mask = engine.wild_mask(held)
                wilds = [card for card, is_wild in zip(held, mask, strict=False) if is_wild]
                strength = _strength(
                    engine, [card for card, is_wild in zip(held, mask, strict=False) if not is_wild], wilds
                )
                if strength is not None:
                    strengths[strength] = None
    ordered = sorted(strengths)
    index = {s: i for i, s in enumerate(ordered)}

    def values(items: list[Strength | None]) -> np.ndarray:
        return np.array([index[s] if s is not None else NO_HAND for s in items], dtype=np.int32)

    nf: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    fl: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for k, rows in small.items():
        nf[k] = sorted_table(layout.keys(rows), values(raw_nf[k]))
    flush_rows = np.array(fl_rows, dtype=np.int16).reshape(-1, layout.digits)
    suit_offsets = np.array(fl_suit, dtype=np.int64) << layout.key_bits
    fl[size] = sorted_table(layout.keys(flush_rows) + suit_offsets, values(raw_fl))

    # 2. dominance: is a one-suited five-card class ever worse than unsuited?
    five_keys, five_values = nf[size]
    flush_keys, flush_values = fl[size]
    positions = np.searchsorted(five_keys, flush_keys & layout.key_mask)
    dominant = bool(np.all(flush_values >= five_values[positions]))
    flush_matters = bool(np.any(flush_values != five_values[positions]))

    # 3. larger holdings: the best sub-multiset, one card at a time
    for k in range(size + 1, top + 1):
        nf[k] = grow(layout, caps, k, nf[k - 1])
        fl[k] = grow_suited(model, k, fl[k - 1])
        report(0.8 + 0.2 * (k - size) / max(top - size, 1))
    categories = np.array([_category_index(ruleset, s) for s in ordered], dtype=np.int16)
    suit_table = build_suit_table(classes, index, model, caps, EXTRA_CARDS) if model.mode == SUIT_MODE else None
    report(1.0)
    return Tables(
        ruleset,
        model,
        ordered,
        categories,
        nf,
        fl,
        dominant,
        flush_matters,
        built_in=time.monotonic() - started,
        suit_table=suit_table,
    )


def _strength(engine: Any, naturals: list[Card], wilds: list[Card]) -> Strength | None:
    fill: Fill | None = engine.fill(naturals + wilds, [False] * len(naturals) + [True] * len(wilds))
    return _value_part(fill.strength) if fill is not None else None


def _spread(ranks: list[str], suits: Sequence[str]) -> list[Card]:
    """Cards of the given ranks in suits that are not all the same. Cycling through
    the suits uses a card at most ceil(count / suits) times: within the packs."""
    return [Card(rank, suits[i % len(suits)]) for i, rank in enumerate(ranks)]


def grow_suited(model: CardModel, k: int, smaller: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`grow` for one-suited tables (at most ``copies`` cards of a rank in a suit),
    suit by suit when the keys carry a suit (``CardModel.suit_keyed``)."""
    layout = model.layout
    copies = model.ruleset.copies
    caps = [min(cap, copies) for cap in model.natural_caps] + ([model.wild_cap] if layout.has_wild_digit else [])
    keys, values = smaller
    suit_of = keys >> layout.key_bits
    pieces = []
    for suit in np.unique(suit_of).tolist() or [0]:
        mine = suit_of == suit
        grown_keys, grown_values = grow(layout, caps, k, (keys[mine] & layout.key_mask, values[mine]))
        pieces.append((grown_keys + (np.int64(suit) << layout.key_bits), grown_values))
    return sorted_table(np.concatenate([p[0] for p in pieces]), np.concatenate([p[1] for p in pieces]))


def ensure_tables(tables: Tables, k: int) -> None:
    """Grow the tables in memory to ``k``-card holdings (built only to hand.size + 2)."""
    model = tables.model
    while tables.max_cards < k:
        nxt = tables.max_cards + 1
        tables.nf[nxt] = grow(model.layout, model.caps, nxt, tables.nf[nxt - 1])
        tables.fl[nxt] = grow_suited(model, nxt, tables.fl[nxt - 1])


def _category_index(ruleset: Rules, strength: Strength) -> int:
    """The category of a strength: its first score part names it (in direction)."""
    qualifies, score = strength[0], strength[1]
    if not qualifies[0]:
        return -1
    category_strength = score[0] if ruleset.direction == "high" else -score[0]
    for index, category in enumerate(ruleset.categories):
        if category.strength == category_strength:
            return index
    return -1  # pragma: no cover - every score starts with a category strength


# --- the disk cache --------------------------------------------------------------------------


def cache_dir() -> Path:
    """Where table files live (see :func:`resources.user_cache_dir`)."""
    return user_cache_dir()


def ruleset_hash(ruleset: Rules) -> str:
    """A hash of what decides the tables: the resolved ruleset data, the package
    version and the table format (names, titles and examples left out)."""
    from ..core.version import __version__

    data = {key: value for key, value in ruleset.data.items() if key not in ("name", "title", "source", "examples")}
    text = json.dumps({"data": data, "version": __version__, "format": FORMAT_VERSION}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def cache_path(ruleset: Rules) -> Path:
    """The cache file of ``ruleset`` (it may not exist yet)."""
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in ruleset.name)[:40] or "ruleset"
    return cache_dir() / f"{safe}-{ruleset_hash(ruleset)[:20]}.tables"


def _payload(tables: Tables) -> dict[str, np.ndarray]:
    arrays: dict[str, np.ndarray] = {}
    for k, (keys, values) in tables.nf.items():
        arrays[f"nf_keys_{k}"], arrays[f"nf_values_{k}"] = keys, values
    for k, (keys, values) in tables.fl.items():
        arrays[f"fl_keys_{k}"], arrays[f"fl_values_{k}"] = keys, values
    flat, shape = _flatten_strengths(tables.strengths)
    arrays["strengths"] = flat
    arrays["strength_shape"] = shape
    arrays["categories"] = tables.categories
    arrays["flags"] = np.array([tables.dominant, tables.flush_matters], dtype=np.int8)
    if tables.suit_table is not None:
        arrays.update(tables.suit_table.arrays())
    return arrays


def _flatten_strengths(strengths: list[Strength]) -> tuple[np.ndarray, np.ndarray]:
    """Strengths as one int array: each part's length then its items."""
    flat: list[int] = []
    for strength in strengths:
        for part in strength:
            flat.append(len(part))
            flat.extend(part)
    return np.array(flat, dtype=np.int64), np.array(
        [len(strengths), len(strengths[0]) if strengths else 0], dtype=np.int64
    )


def _unflatten_strengths(flat: np.ndarray, shape: np.ndarray) -> list[Strength]:
    items = flat.tolist()
    count, parts = int(shape[0]), int(shape[1])
    out: list[Strength] = []
    at = 0
    for _ in range(count):
        strength = []
        for _ in range(parts):
            n = items[at]
            strength.append(tuple(items[at + 1 : at + 1 + n]))
            at += 1 + n
        out.append(tuple(strength))
    if at != len(items):
        raise ValueError("strength table has trailing data")
    return out


def write_cache(tables: Tables, path: Path) -> bool:
    """Write ``tables`` to ``path`` atomically and signed (see :mod:`evaluator.core.diskcache`);
    False when the folder is not usable or the file would be over the size cap."""
    buffer = io.BytesIO()
    save: Any = np.savez  # (the stubs mistake the arrays for its allow_pickle flag; all are int arrays)
    save(buffer, **_payload(tables))
    fields = dict(_expected_header(tables.ruleset), name=tables.ruleset.name)
    with diskcache.open_folder(path.parent) as folder:
        return folder is not None and folder.write(path.name, MAGIC, fields, buffer.getvalue())


def _expected_header(ruleset: Rules) -> dict[str, Any]:
    from ..core.version import __version__

    return {"format": FORMAT_VERSION, "version": __version__, "ruleset": ruleset_hash(ruleset)}


def read_cache(ruleset: Rules, path: Path) -> Tables | None:
    """Tables read from ``path``, or None when the file is missing or does not check out
    (not ours, not a regular file, too big, forged, another version or ruleset)."""
    with diskcache.open_folder(path.parent, create=False) as folder:
        payload = folder.read(path.name, MAGIC, _expected_header(ruleset)) if folder is not None else None
    if payload is None:
        return None
    try:
        with np.load(io.BytesIO(payload), allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in archive.files}
        model = card_model(ruleset)
        nf = {
            int(name[8:]): (arrays[name], arrays["nf_values_" + name[8:]])
            for name in arrays
            if name.startswith("nf_keys_")
        }
        fl = {
            int(name[8:]): (arrays[name], arrays["fl_values_" + name[8:]])
            for name in arrays
            if name.startswith("fl_keys_")
        }
        strengths = _unflatten_strengths(arrays["strengths"], arrays["strength_shape"])
        flags = arrays["flags"]
        tables = Tables(
            ruleset, model, strengths, arrays["categories"], nf, fl, bool(flags[0]), bool(flags[1]), from_cache=True
        )
        if model.mode == SUIT_MODE:
            tables.suit_table = read_suit_table(arrays, model, model.caps, EXTRA_CARDS)
            values = tables.suit_table.values
            if len(values) and (values.max() >= len(strengths) or values.min() < NO_HAND):
                raise ValueError("suit table value out of range")
        _check_shape(tables)
        return tables
    except Exception:  # noqa: BLE001 - whatever is wrong with the file, it is rebuilt
        return None


def _check_shape(tables: Tables) -> None:
    """Cheap consistency checks on tables read from disk (beyond the checksum)."""
    size = tables.size
    expected = set(range(max(tables.ruleset.hand_min, 1), size + EXTRA_CARDS + 1))
    if set(tables.nf) != expected or set(tables.fl) != set(range(size, size + EXTRA_CARDS + 1)):
        raise ValueError("missing tables")
    count = len(tables.strengths)
    for keys, values in list(tables.nf.values()) + list(tables.fl.values()):
        if keys.dtype != np.int64 or values.dtype != np.int32 or keys.shape != values.shape or keys.ndim != 1:
            raise ValueError("bad table")
        if len(values) and (values.max() >= count or values.min() < NO_HAND):
            raise ValueError("value out of range")
        if len(keys) > 1 and not np.all(keys[1:] > keys[:-1]):
            raise ValueError("keys not sorted")
    if len(tables.categories) != count:
        raise ValueError("category table")


def cache_enabled() -> bool:
    """False when ``$POKERRULES_TABLE_CACHE`` is ``0`` or ``off``."""
    return os.environ.get(CACHE_SWITCH_ENV, "").lower() not in ("0", "off", "no", "false")


def load_tables(ruleset: Rules, use_cache: bool | None = None) -> Tables:
    """The tables of ``ruleset``: from the disk cache when a good file is there,
    else built (with a progress bar on stderr past one second) and cached."""
    use_cache = cache_enabled() if use_cache is None else use_cache
    path = cache_path(ruleset) if use_cache else None
    if path is not None:
        found = read_cache(ruleset, path)
        if found is not None:
            return found
    progress = _Progress(ruleset.name)
    tables = build_tables(ruleset, progress)
    progress.finish()
    if path is not None:
        write_cache(tables, path)
    return tables


def tables_for(ruleset: Rules) -> Tables:
    """The tables of ``ruleset``, loaded once per Ruleset object."""
    found: Tables | None = getattr(ruleset, "_cache_tables", None)
    if found is None:
        found = load_tables(ruleset)
        object.__setattr__(ruleset, "_cache_tables", found)
    return found
