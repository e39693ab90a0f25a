"""Every hand of a plain common deck, as the exact flip census sees it (see :mod:`evaluator.tools.flips`).

The deck both rulesets hold is *plain* when it is one pack of every rank in
every suit, no card of it is wild under either ruleset and the two hand sizes
agree. Then every hand of it (2,598,960 five-card hands of 52 cards) is ranked
under both rulesets at once on the compiled tables (``rank_many``), and the
hands are sorted into:

- **rank multisets** ``R`` (the ranks held, suits ignored) and **rank classes**
  (a rank multiset, one-suited or not: 7,462 for five cards of 52);
- **parts**: the hands of one rank class that both rulesets value alike (same
  value under A, same value under B, suit tie-breaks left out). A class whose
  hands all play alike is one part. Patterns that read suits within the hand
  (``flush(4)``, ``run(4, flush)``) split a class: a four flush and a plain
  ace-high hand of the same ranks are two parts.

The largest part of each class is its *base*; the others are *exceptional*
(the four flushes of each rank set, the bobtails ...). Pairs of hands that can
meet are counted on rank classes in closed form and corrected by the
exceptional parts (:mod:`evaluator.tools.flips_meet`); two hands of the same
rank multiset are judged hand by hand (:mod:`evaluator.tools.flips_within`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ..compiled.every_hand import MAX_EVERY_HAND, all_combinations, rank_every
from ..rules.pattern_ast import needs_suits, term_kinds

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..rules.cards import Card
    from ..ruleset import Ruleset

IntArray = np.ndarray[Any, np.dtype[np.int64]]
# a number per hand of the deck (millions of them) that fits 32 bits: half the memory
Int32Array = np.ndarray[Any, np.dtype[np.int32]]
Values = np.ndarray[Any, np.dtype[np.signedinteger[Any]]]  # per hand, 32 or 64 bits (values: 32 when they fit)
BoolArray = np.ndarray[Any, np.dtype[np.bool_]]

MAX_GENERIC_HANDS = 20_000  # hands a ruleset without a vectorised ranking may rank one by one
MAX_DECK_BITS = 63  # a hand is a bit mask of its cards


def why_not_plain(a: Ruleset, b: Ruleset, deck: Sequence[Card]) -> str | None:
    """Why pairs of hands from ``deck`` cannot be counted exactly, or None when they can."""
    ranks = list(dict.fromkeys(card.rank for card in deck))
    suits = list(dict.fromkeys(card.suit for card in deck))
    if any(card.rank is None for card in deck):
        return "a joker is in both decks"
    if len(set(deck)) != len(deck):
        return "the decks share several packs"
    if len(deck) != len(ranks) * len(suits):
        return "the common deck does not hold every rank in every suit"
    if a.hand_size != b.hand_size:
        return "the hand sizes differ"
    for side in (a, b):
        wild = side.wild
        if wild.lowest_rank or any(card in wild.cards or card.rank in wild.ranks for card in deck):
            return f"{side.name} has wild cards among the cards both decks hold"
        if any(_reads_suits(pattern) for beat in side.beats for pattern in (beat.winner, beat.loser)):
            return f"a beats: rule of {side.name} reads suits"
        if side.qualifier is not None and side.engine.by_suit_class:
            return f"{side.name} has a qualifier and patterns that read suits within the hand"
    if len(deck) > MAX_DECK_BITS:
        return f"the common deck has {len(deck)} cards, more than {MAX_DECK_BITS}"
    hands = math.comb(len(deck), a.hand_size)
    if hands > MAX_EVERY_HAND:
        return f"{hands:,} hands of {a.hand_size} cards, more than {MAX_EVERY_HAND:,} are ranked at once"
    if hands > MAX_GENERIC_HANDS and any(_ranker(side).mode == "generic" for side in (a, b)):
        return "a ruleset's hands are ranked only one by one by the generic evaluator"
    return None


def _reads_suits(compiled: Any) -> bool:
    pattern = compiled.pattern
    return needs_suits(pattern) or "suit" in term_kinds(pattern)


def _ranker(ruleset: Ruleset) -> Any:
    from ..compiled.fast import ruleset_ranker

    return ruleset_ranker(ruleset)


@dataclass(frozen=True, slots=True)
class Side:
    """One ruleset's values of every hand: with the suit tie-break (``full``) and without (``plain``)."""

    ruleset: Ruleset
    full: Values  # as rank_many gives it: bigger wins, suit tie-break included
    plain: Values  # the same order with the suit tie-break left out
    tiebreak: bool


@dataclass(frozen=True, slots=True)
class HandSpace:
    """Every hand of the common deck, ranked under both rulesets and sorted into classes and parts.

    Card ``i`` of ``deck`` has rank ``i // suits`` and suit ``i % suits``.
    Arrays indexed by hand: ``cards``, ``multiset``, ``part``
    (a hand's rank class is its part's); by rank multiset: ``counts``; by rank class: ``class_multiset``,
    ``class_flush``; by part: ``part_class``, ``part_size``, ``part_hand``
    (one hand of it). Parts are numbered bases first (part ``c`` is the base
    of class ``c``), then the exceptional parts.
    """

    deck: tuple[Card, ...]
    size: int
    suits: int
    ranks: int
    cards: np.ndarray  # (hands, size) card indices, increasing (small integers)
    a: Side
    b: Side
    multiset: Int32Array  # (hands,) rank multiset index
    counts: IntArray  # (multisets, ranks) cards of each rank
    class_multiset: IntArray
    class_flush: BoolArray
    part: Int32Array  # (hands,) part index
    part_class: IntArray
    part_size: IntArray
    part_hand: IntArray

    def parts_only(self) -> HandSpace:
        """This space without its arrays by hand (tens of megabytes for 52 cards): what the report
        reads after the census -- the parts' classes, sizes and one hand each -- stays."""
        none = np.zeros(0, dtype=np.int32)
        return replace(
            self,
            cards=self.cards[:0],
            a=Side(self.a.ruleset, none, none, self.a.tiebreak),
            b=Side(self.b.ruleset, none, none, self.b.tiebreak),
            multiset=none,
            part=none,
        )

    @property
    def classes(self) -> int:
        """How many rank classes (and so base parts) there are."""
        return len(self.class_multiset)

    @property
    def parts(self) -> int:
        """How many parts there are (bases and exceptional)."""
        return len(self.part_class)

    @property
    def hands(self) -> int:
        """How many hands the deck deals."""
        return len(self.cards)

    def masks(self, hands: IntArray) -> IntArray:
        """The cards of each of ``hands`` as a bit mask, one bit per card (made when asked: a mask
        for every hand would be 20 MB of five cards of 52 that only a few examples read)."""
        found: IntArray = np.bitwise_or.reduce(np.int64(1) << self.cards[hands].astype(np.int64), axis=1)
        return found

    def hand_cards(self, hand: int) -> tuple[Card, ...]:
        """The cards of hand number ``hand``."""
        return tuple(self.deck[int(i)] for i in self.cards[hand])


def _side(ruleset: Ruleset, deck: Sequence[Card], hands: IntArray) -> Side | str:
    ranker = _ranker(ruleset)
    tiebreak = ruleset.tiebreak != "none"
    if tiebreak and ranker.mode != "suited":
        return f"{ruleset.name}'s suit tie-break is not on the vectorised tables"
    index = {card: i for i, card in enumerate(ruleset.deck)}
    ids = np.array([index[card] for card in deck], dtype=np.int16)[hands]
    full: Values = rank_every(ruleset.rank_many, ids)
    if (full < 0).any():
        return f"some hands make no category in {ruleset.name}"
    if int(full.max()) < 2**31:
        full = full.astype(np.int32)  # half the memory; whoever computes with them widens first
    plain = full // ranker.suit_scale if tiebreak else full
    return Side(ruleset, full, plain, tiebreak)


def hand_space(a: Ruleset, b: Ruleset, deck: Sequence[Card]) -> HandSpace | str:
    """Every hand of ``deck`` sorted into classes and parts, or why that cannot be done exactly.

    >>> from evaluator import load
    >>> from evaluator.tools.diff_basis import common_deck
    >>> a, b = load("standard"), load("four-flush")
    >>> space = hand_space(a, b, common_deck(a, b))
    >>> space.hands, space.classes, space.parts
    (2598960, 7462, 8739)
    """
    why = why_not_plain(a, b, deck)
    if why is not None:
        return why
    size = a.hand_size
    suit_names = list(dict.fromkeys(card.suit for card in deck))
    rank_names = list(dict.fromkeys(card.rank for card in deck))
    grid = [
        card for rank in rank_names for suit in suit_names for card in deck if (card.rank, card.suit) == (rank, suit)
    ]
    suits, ranks = len(suit_names), len(rank_names)
    hands = all_combinations(len(grid), size)
    side_a, side_b = _side(a, grid, hands), _side(b, grid, hands)
    if isinstance(side_a, str):
        return side_a
    if isinstance(side_b, str):
        return side_b
    # a rank multiset as a number (the count of rank r is its digit r in base suits + 1),
    # summed card by card from a small table
    card_ids = np.arange(len(grid), dtype=np.int64)
    digit = np.int64(suits + 1) ** (card_ids // suits)
    code = digit[hands[:, 0]].copy()
    flush = np.full(len(hands), size > 1)
    first_suit = hands[:, 0] % suits
    for column in range(1, size):
        code += digit[hands[:, column]]
        flush &= hands[:, column] % suits == first_suit
    codes, multiset = _multisets(hands, code, suits)
    del code, first_suit  # (2.6 million numbers each: the peak of diff's memory is here)
    counts = (codes[:, None] // np.int64(suits + 1) ** np.arange(ranks, dtype=np.int64)) % (suits + 1)
    # rank classes: a multiset, and its one-suited hands apart when it can have any
    flushable = (counts.max(axis=1) <= 1) & (size > 1)
    per_multiset = 1 + flushable.astype(np.int64)
    offset = np.cumsum(per_multiset) - per_multiset
    klass = offset[multiset] + flush
    del flush
    class_multiset = np.repeat(np.arange(len(counts), dtype=np.int64), per_multiset)
    class_flush = np.zeros(len(class_multiset), dtype=bool)
    class_flush[offset[flushable] + 1] = True
    part, part_class, part_size, part_hand = _parts(klass, side_a.plain, side_b.plain, len(class_multiset))
    del klass  # a hand's class is its part's
    for side in (side_a, side_b):
        why = _tiebreak_reason(side, class_multiset[part_class], part_hand)
        if why is not None:
            return why
    return HandSpace(
        deck=tuple(grid),
        size=size,
        suits=suits,
        ranks=ranks,
        cards=hands,
        a=side_a,
        b=side_b,
        multiset=multiset,
        counts=counts,
        class_multiset=class_multiset,
        class_flush=class_flush,
        part=part,
        part_class=part_class,
        part_size=part_size,
        part_hand=part_hand,
    )


MAX_RANK_KEY_BITS = 22  # a hand's ranks as one number this small are numbered through a table


def _multisets(hands: np.ndarray, code: IntArray, suits: int) -> tuple[IntArray, Int32Array]:
    """The rank multiset codes present, increasing, and the index of every hand's among them.

    A hand's cards increase, so its ranks do: they read as one number, last card most
    significant, which orders multisets as their codes do (the most of the highest rank
    first). When that number is small, a table numbers them without sorting every hand.
    """
    size = hands.shape[1]
    bits = max(1, (int(hands.max(initial=0)) // suits).bit_length())
    if size * bits > MAX_RANK_KEY_BITS:
        codes, inverse = np.unique(code, return_inverse=True)
        return codes, inverse.reshape(-1).astype(np.int32)
    key = np.zeros(len(hands), dtype=np.int64)
    for column in range(size):
        key |= (hands[:, column].astype(np.int64) // suits) << (bits * column)
    present = np.zeros(1 << (size * bits), dtype=bool)
    present[key] = True
    number = np.cumsum(present, dtype=np.int32) - 1  # at most 2**MAX_RANK_KEY_BITS multisets
    multiset: Int32Array = number[key]
    codes = np.zeros(int(number[-1]) + 1, dtype=np.int64)
    codes[multiset] = code
    return codes, multiset


def _tiebreak_reason(side: Side, part_multiset: IntArray, part_hand: IntArray) -> str | None:
    """A suit tie-break must only ever decide hands of one rank multiset (else suits
    would order hands of different ranks, which the census does not model)."""
    if not side.tiebreak:
        return None
    plain = side.plain[part_hand]
    if len(np.unique(plain)) != len(np.unique(np.stack([plain, part_multiset], axis=1), axis=0)):
        return f"{side.ruleset.name}'s suit tie-break decides between hands of different ranks"
    return None


#: Hands renumbered at a time at the end of :func:`_parts`.
RENUMBER_SLICE = 1 << 18
#: Rounds of taking each class's first hand left as the reference of a part (then the rest is sorted).
REFERENCE_ROUNDS = 4


def _parts(
    klass: IntArray, plain_a: Values, plain_b: Values, classes: int
) -> tuple[Int32Array, IntArray, IntArray, IntArray]:
    """Part of every hand (bases first), and per part: its class, size and one hand (its first).

    Parts are found without sorting every hand (a hundred megabytes and a quarter second for
    2.6 million): in each round, the first hand left of every class is the reference of a new
    part, and the hands of its class with its values (under A and under B) join it; most
    classes are one or two parts, so after a few rounds the hands left are few and are sorted.
    """
    hands = len(klass)
    # numbered as found here, renumbered at the end; fewer parts than hands, so 32 bits, like every
    # hand-sized array made here (they make the peak of diff's memory)
    part = np.empty(hands, dtype=np.int32)
    found: list[tuple[IntArray, IntArray, IntArray, IntArray]] = []  # class, value A, value B, first hand
    count = 0
    left: IntArray | None = None  # None: every hand
    for _ in range(REFERENCE_ROUNDS):
        if left is not None and len(left) <= hands // 32:
            break
        owner = klass if left is None else klass[left]
        first_of = np.full(classes, hands, dtype=np.int64)
        np.minimum.at(first_of, owner, np.arange(hands, dtype=np.int64) if left is None else left)
        present = np.flatnonzero(first_of < hands)
        new_part = np.zeros(classes, dtype=np.int32)  # by class: the part its reference starts
        new_part[present] = count + np.arange(len(present))
        reference = first_of[owner]
        same = (plain_a if left is None else plain_a[left]) == plain_a[reference]
        same &= (plain_b if left is None else plain_b[left]) == plain_b[reference]
        del reference
        if left is None:
            part[same] = new_part[owner[same]]
            left = np.flatnonzero(~same)
        else:
            part[left[same]] = new_part[owner[same]]
            left = left[~same]
        del owner, same
        firsts = first_of[present]
        found.append((present, plain_a[firsts], plain_b[firsts], firsts))
        count += len(present)
        if len(left) == 0:
            break
    if left is not None and len(left):
        rows, first, inverse = np.unique(
            np.stack([klass[left], plain_a[left], plain_b[left]], axis=1),
            axis=0,
            return_index=True,
            return_inverse=True,
        )
        part[left] = count + inverse.reshape(-1)
        found.append((rows[:, 0], rows[:, 1], rows[:, 2], left[first]))
    part_class, value_a, value_b, first = (np.concatenate(column) for column in zip(*found, strict=True))
    sizes = np.bincount(part, minlength=len(part_class)).astype(np.int64)
    # numbered in the order of (class, value under A, value under B), bases first
    order = np.lexsort((value_b, value_a, part_class))
    found_class, sizes, first = part_class[order], sizes[order], first[order]
    # the base of a class: its largest part (the first in that order on a tie)
    by_size = np.lexsort((np.arange(len(found_class)), -sizes, found_class))
    is_base = np.zeros(len(found_class), dtype=bool)
    starts = np.ones(len(by_size), dtype=bool)
    starts[1:] = found_class[by_size][1:] != found_class[by_size][:-1]
    is_base[by_size[starts]] = True
    number = np.empty(len(found_class), dtype=np.int64)
    number[is_base] = found_class[is_base]
    exceptional = np.nonzero(~is_base)[0]
    number[exceptional] = classes + np.arange(len(exceptional))
    part_class_out = np.empty(len(found_class), dtype=np.int64)
    part_size = np.empty(len(found_class), dtype=np.int64)
    part_hand = np.empty(len(found_class), dtype=np.int64)
    part_class_out[number] = found_class
    part_size[number] = sizes
    part_hand[number] = first
    renumber = np.empty(len(found_class), dtype=np.int32)
    renumber[order] = number
    for start in range(0, hands, RENUMBER_SLICE):  # in place, a slice at a time
        part[start : start + RENUMBER_SLICE] = renumber[part[start : start + RENUMBER_SLICE]]
    return part, part_class_out, part_size, part_hand
