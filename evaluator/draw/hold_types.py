"""Hold types: what a set of held cards is, in the ruleset's own words.

A strategy list names holds by type, not by card: "4 to a flush", "pair of
jacks or better", "3 to a straight flush, 1 gap, 1 high card". Every hold of
a dealt hand gets one type, read from the ruleset and the pay table alone:

* **draw five** (nothing held), **wild cards only**;
* **pat**: all five cards, named by their category;
* **made**: the natural cards held share a rank (a pair, trips, two pair...);
  named by the lowest category every completion reaches (what the hold
  already is), with the ranks held;
* **draw**: distinct natural ranks that can still become a category made of
  five related cards -- a category whose hands never pair a natural rank and
  always keep their natural cards in one suit ("flush-like") or within five
  ranks in a row ("run-like"). The type is "n to a <best such category the
  hold can still reach>", with its *gaps* (for run-like targets: the ranks a
  run through the cards must fill beyond the fewest possible, the ends of the
  deck counting as gaps, so A-K-Q-J and J-T-8-7 both have one) and its *high
  cards* (ranks whose pair pays);
* **cards**: distinct natural ranks with no such target (high and low cards).

The *penalty cards* of a draw are the discarded natural cards that would
have helped it: of its suit (flush penalty) or of a rank that fits a run
with it (straight penalty). They are part of the type, so that a list can
put "with a flush penalty" apart.

A type is packed in one integer (:func:`pack`); :func:`hold_types` computes
the type of all 32 holds of many hands at once, and :func:`hold_type` one
hold of one hand, plainly, as the cross-check.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import combinations
from math import comb

import numpy as np

from ..ruleset import Ruleset
from .deals import colex_subsets
from .videopoker import HAND, HOLDS, FinalHands, mask_positions

DRAW_FIVE, WILDS, PAT, MADE, DRAW, CARDS = range(6)
NO_CATEGORY = 127  # the category field of a type that has none
PENALTY_CAP = 3  # penalty counts above this are counted as this

# bit layout of a packed type: (field, width)
_FIELDS = (
    ("kind", 3),
    ("wilds", 3),
    ("naturals", 3),
    ("category", 7),
    ("gaps", 3),
    ("high", 3),
    ("groups", 16),
    ("singles", 16),
    ("flush_penalty", 2),
    ("straight_penalty", 2),
)
_SHIFT: dict[str, int] = {}
_offset = 0
for _name, _width in reversed(_FIELDS):
    _SHIFT[_name] = _offset
    _offset += _width
PENALTY_BITS = (1 << (_FIELDS[-1][1] + _FIELDS[-2][1])) - 1  # the two penalty fields, lowest


def pack(**fields: int) -> int:
    """One type as an integer (fields not given are 0).

    >>> unpack(pack(kind=DRAW, naturals=4, category=5)).naturals
    4
    """
    value = 0
    for name, width in _FIELDS:
        part = fields.get(name, 0)
        assert 0 <= part < 1 << width, (name, part)
        value |= part << _SHIFT[name]
    return value


@dataclass(frozen=True)
class HoldType:
    """A hold type, unpacked."""

    kind: int
    wilds: int
    naturals: int
    category: int  # pat / made: the category; draw: the target; NO_CATEGORY otherwise
    gaps: int
    high: int
    groups: int  # made: bit mask of the ranks held twice or more (rank values)
    singles: int  # bit mask of the other natural ranks held (pat and wild cards only: 0)
    flush_penalty: int
    straight_penalty: int

    @property
    def held(self) -> int:
        """Cards held, wild ones included."""
        return self.wilds + self.naturals


@lru_cache(maxsize=1 << 16)  # a list's wording asks the same few thousand types millions of times
def unpack(key: int) -> HoldType:
    """The fields of a packed type."""
    values = {name: (key >> _SHIFT[name]) & ((1 << width) - 1) for name, width in _FIELDS}
    return HoldType(**values)


def descriptor(key: int) -> int:
    """The type without penalty counts, and without the ranks of a draw (its
    line of a first list: "3 to a straight flush, 1 gap, 1 high card")."""
    if unpack(key).kind in (DRAW, CARDS):
        key &= ~(((1 << 16) - 1) << _SHIFT["singles"])
    return key & ~PENALTY_BITS


@lru_cache(maxsize=1 << 16)
def family(key: int) -> int:
    """The type without what a list may tell apart inside one line: rank detail,
    gaps, high cards and penalties (a family is "3 to a straight flush", "pair"
    -- two cards; a pair and a kicker is another family)."""
    kept = ("kind", "wilds", "category") + (("naturals",) if unpack(key).kind in (DRAW, CARDS, MADE) else ())
    return sum(key & (((1 << width) - 1) << _SHIFT[name]) for name, width in _FIELDS if name in kept)


def penalty_of(key: int) -> int:
    """The penalty fields of a type (0: no penalty card)."""
    return key & PENALTY_BITS


def ranks_of(key: int) -> int:
    """The rank fields of a type (ranks held in groups and alone)."""
    fields = unpack(key)
    return fields.groups << 16 | fields.singles


@dataclass(frozen=True)
class Geometry:
    """What hold types are made of, for one ruleset and pay table."""

    rank_symbols: tuple[str, ...]  # rank values, weakest first
    value_of_card: np.ndarray  # per card id: rank value (-1: a joker)
    suit_of_card: np.ndarray  # per card id: suit index (-1: a joker)
    wild_card: np.ndarray  # per card id: wild?
    windows: tuple[int, ...]  # bit masks over rank values of the runs of five
    high_mask: int  # ranks whose pair pays
    categories: tuple[str, ...]  # category buckets ("" last: no category)
    run_like: tuple[bool, ...]
    flush_like: tuple[bool, ...]
    targets: tuple[int, ...]  # run- or flush-like categories, best first
    wild_word: tuple[str, str]  # singular, plural
    runs_through: np.ndarray  # per rank mask: how many runs of five contain it

    @cached_property
    def card_facts(self) -> list[tuple[int, int, bool]]:
        """Per card id: (rank value, suit index, wild?) as plain Python values."""
        return [
            (int(v), int(s), bool(w))
            for v, s, w in zip(self.value_of_card, self.suit_of_card, self.wild_card, strict=True)
        ]

    def fits_run(self, mask: int) -> int:
        """How many runs of five contain the ranks of ``mask``."""
        return sum(1 for window in self.windows if mask & ~window == 0)


def _windows(ruleset: Ruleset) -> tuple[int, ...]:
    """The rank sets of the runs of five (the ace below the lowest rank too,
    when it plays both ways; with five ranks that is the same set)."""
    count = len(ruleset.rank_symbols)
    found = [sum(1 << v for v in range(start, start + HAND)) for start in range(count - HAND + 1)]
    if ruleset.ace == "both" and "A" in ruleset.deck_ranks and count >= HAND:
        found.insert(0, (1 << (count - 1)) | sum(1 << v for v in range(HAND - 1)))
    return tuple(dict.fromkeys(found))


def _wild_word(ruleset: Ruleset) -> tuple[str, str]:
    from ..engine.hand import RANK_NAMES

    wild = ruleset.wild
    if wild.jokers and not wild.ranks and not wild.cards:
        return ("joker", "jokers")
    if len(wild.ranks) == 1 and not wild.cards and not wild.jokers:
        (rank,) = wild.ranks
        return ("deuce", "deuces") if rank == "2" else RANK_NAMES.get(rank, (rank, rank + "s"))
    return ("wild card", "wild cards")


def build_geometry(ruleset: Ruleset, final: FinalHands, pays: np.ndarray) -> Geometry:
    """The geometry of a game: card values, runs, high cards and the draw targets.

    A category is a draw target when, over all its five-card hands, no natural
    rank is paired and the natural cards always sit within one run of five
    (run-like) or in one suit (flush-like), and some of its hands hold two
    natural cards or more. High cards are the ranks whose plain pair pays.
    """
    deck = list(ruleset.deck)
    wild = ruleset.wild
    value = np.array([ruleset.rank_symbols.index(c.rank) if c.rank else -1 for c in deck], dtype=np.int64)
    suit = np.array([ruleset.suits.index(c.suit) if c.suit else -1 for c in deck], dtype=np.int64)
    is_wild = np.array(
        [(c.rank is None and wild.jokers) or c.rank in wild.ranks or c in wild.cards for c in deck], dtype=bool
    )
    windows = _windows(ruleset)
    hands = colex_subsets(len(deck), HAND)
    naturals = np.zeros(len(hands), dtype=np.int64)
    mask = np.zeros(len(hands), dtype=np.int64)
    low_suit = np.full(len(hands), 99, dtype=np.int64)
    high_suit = np.full(len(hands), -1, dtype=np.int64)
    bit = np.where(is_wild, 0, 1 << np.maximum(value, 0))
    for position in range(HAND):
        cards = hands[:, position]
        natural = ~is_wild[cards]
        naturals += natural
        mask |= bit[cards]
        low_suit = np.minimum(low_suit, np.where(natural, suit[cards], 99))
        high_suit = np.maximum(high_suit, np.where(natural, suit[cards], -1))
    distinct = popcount(mask) == naturals
    suited = low_suit >= high_suit
    runs_through = np.zeros(1 << len(ruleset.rank_symbols), dtype=np.int64)
    every_mask = np.arange(len(runs_through))
    for window in windows:
        runs_through += every_mask & ~window == 0
    in_run = runs_through[mask] > 0
    category = final.category_of_hand.astype(np.int64)
    width = final.width

    def always(flag: np.ndarray) -> np.ndarray:
        return np.asarray(np.bincount(category[~flag], minlength=width) == 0)

    several = np.bincount(category[naturals >= 2], minlength=width) > 0
    run_like = always(distinct & in_run) & several
    flush_like = always(distinct & suited) & several
    run_like[width - 1] = flush_like[width - 1] = False  # "no category" is never a target
    high = 0
    for rank in range(len(ruleset.rank_symbols)):
        if _pair_pay(rank, value, suit, is_wild, final, pays, windows) > 0:
            high |= 1 << rank
    return Geometry(
        tuple(ruleset.rank_symbols),
        value,
        suit,
        is_wild,
        windows,
        high,
        final.categories,
        tuple(bool(x) for x in run_like),
        tuple(bool(x) for x in flush_like),
        tuple(i for i in range(width) if run_like[i] or flush_like[i]),
        _wild_word(ruleset),
        runs_through,
    )


def _pair_pay(
    rank: int,
    value: np.ndarray,
    suit: np.ndarray,
    is_wild: np.ndarray,
    final: FinalHands,
    pays: np.ndarray,
    windows: tuple[int, ...],
) -> float:
    """The pay of a plain pair of ``rank``: the pair and the lowest three other
    natural ranks that make no run, in as many suits as the deck has (0 when
    the deck cannot deal such a hand)."""
    natural = {(int(value[i]), int(suit[i])): i for i in range(len(value)) if value[i] >= 0 and not is_wild[i]}
    suits = int(suit.max()) + 1
    if (rank, 0) not in natural or (rank, 1 % suits) not in natural or suits < 2:
        return 0.0
    others = sorted({v for v, _ in natural if v != rank})
    for kickers in combinations(others, 3):
        ranks = (1 << rank) | sum(1 << v for v in kickers)
        places = [(v, position % suits) for position, v in enumerate(kickers)]
        if any(ranks & ~window == 0 for window in windows) or any(p not in natural for p in places):
            continue
        hand = sorted([natural[(rank, 0)], natural[(rank, 1)], *(natural[p] for p in places)])
        index = sum(comb(card, position + 1) for position, card in enumerate(hand))
        return float(pays[final.category_of_hand[index]])
    return 0.0


_BITS16 = np.array([bin(value).count("1") for value in range(1 << 16)], dtype=np.int64)


def popcount(values: np.ndarray) -> np.ndarray:
    """The number of set bits of each value (below 2**32)."""
    work = np.asarray(values, dtype=np.int64)
    found: np.ndarray = _BITS16[work & 0xFFFF] + _BITS16[(work >> 16) & 0xFFFF]
    return found


@dataclass(frozen=True)
class HoldTable:
    """The type of every hold of many dealt hands: ``keys[mask, row]`` (packed,
    see :func:`pack`) and ``ties[mask, row]`` (which of two holds of one line
    a player keeps: fewer penalty cards, then higher ranks; lower wins)."""

    keys: np.ndarray
    ties: np.ndarray


def hold_types(geometry: Geometry, final: FinalHands, hands: np.ndarray, index: np.ndarray) -> HoldTable:
    """The type of each of the 32 holds of each row of ``hands`` (ascending card
    ids), given the colex index of every hold (``index[mask, row]``)."""
    rows = len(hands)
    ids = hands.astype(np.int64)
    value = geometry.value_of_card[ids]
    suit = geometry.suit_of_card[ids]
    wild = geometry.wild_card[ids]
    bit = np.where(wild, 0, 1 << np.maximum(value, 0))
    keys = np.zeros((HOLDS, rows), dtype=np.int64)
    ties = np.zeros((HOLDS, rows), dtype=np.int64)
    counts = final.counts
    rank_bits = len(geometry.rank_symbols)
    targets = geometry.targets
    padding = (False,) * (NO_CATEGORY + 1 - len(geometry.run_like))
    run_table = np.array(geometry.run_like + padding)
    flush_table = np.array(geometry.flush_like + padding)
    for mask in range(HOLDS):
        kept = list(mask_positions(mask))
        thrown = [p for p in range(HAND) if p not in kept]
        k = len(kept)
        if k == 0:
            keys[mask] = pack(kind=DRAW_FIVE, category=NO_CATEGORY)
            ties[mask] = 0
            continue
        wilds = wild[:, kept].sum(axis=1)
        naturals = k - wilds
        held = np.zeros(rows, dtype=np.int64)
        for position in kept:
            held |= bit[:, position]
        groups = np.zeros(rows, dtype=np.int64)
        for a, b in combinations(kept, 2):
            groups |= np.where(~wild[:, a] & ~wild[:, b] & (value[:, a] == value[:, b]), bit[:, a], 0)
        distinct = groups == 0
        if k == HAND:
            category = final.category_of_hand[index[mask]].astype(np.int64)
            key = _pack_columns(kind=PAT, wilds=wilds, category=category)
            keys[mask] = np.where(naturals == 0, _pack_columns(kind=WILDS, wilds=wilds, category=NO_CATEGORY), key)
            ties[mask] = (1 << rank_bits) - 1 - held
            continue
        reach = counts[k][index[mask]]  # final hands containing the hold, by category, over the whole deck
        lowest = reach.shape[1] - 1 - np.argmax(reach[:, ::-1] > 0, axis=1)
        target = np.full(rows, NO_CATEGORY, dtype=np.int64)
        for category_index in reversed(targets):  # the best reachable target wins
            target = np.where(reach[:, category_index] > 0, category_index, target)
        is_draw = distinct & (naturals > 0) & (target != NO_CATEGORY)
        run_like = run_table[target]
        flush_like = flush_table[target]
        gaps = np.where(is_draw & run_like, np.maximum(HAND + 1 - naturals - geometry.runs_through[held], 0), 0)
        high = np.where(distinct, popcount(held & geometry.high_mask), 0)
        # penalty cards: discarded natural cards of the draw's suit, or of a rank that fits a run with it
        hold_suit = np.where(wild[:, kept], 99, suit[:, kept]).min(axis=1)
        flush_penalty = np.zeros(rows, dtype=np.int64)
        straight_ranks = np.zeros(rows, dtype=np.int64)
        for position in thrown:
            natural = ~wild[:, position]
            flush_penalty += natural & (suit[:, position] == hold_suit)
            fits = geometry.runs_through[held | bit[:, position]] > 0
            straight_ranks |= np.where(natural & fits & (held & bit[:, position] == 0), bit[:, position], 0)
        flush_penalty = np.where(is_draw & flush_like, np.minimum(flush_penalty, PENALTY_CAP), 0)
        straight_penalty = np.where(is_draw & run_like, np.minimum(popcount(straight_ranks), PENALTY_CAP), 0)
        kind = np.where(naturals == 0, WILDS, np.where(~distinct, MADE, np.where(is_draw, DRAW, CARDS)))
        category = np.where(kind == MADE, lowest, np.where(kind == DRAW, target, NO_CATEGORY))
        keys[mask] = _pack_columns(
            kind=kind,
            wilds=wilds,
            naturals=np.where(kind == WILDS, 0, naturals),
            category=category,
            gaps=gaps,
            high=np.where((kind == DRAW) | (kind == CARDS), high, 0),
            groups=np.where(kind == MADE, groups, 0),
            singles=np.where(kind == WILDS, 0, held & ~groups),
            flush_penalty=flush_penalty,
            straight_penalty=straight_penalty,
        )
        ties[mask] = (flush_penalty + straight_penalty) << rank_bits | ((1 << rank_bits) - 1 - held)
    return HoldTable(keys, ties)


def _pack_columns(**fields: np.ndarray | int) -> np.ndarray:
    value: np.ndarray = np.zeros((), dtype=np.int64)
    for name, _ in _FIELDS:
        if name in fields:
            value = value | (np.asarray(fields[name], dtype=np.int64) << _SHIFT[name])
    return value


def hold_type(geometry: Geometry, final: FinalHands, hand: list[int], mask: int) -> tuple[int, int]:
    """The packed type and tie value of one hold of one hand (card ids), card by
    card: the plain counterpart of :func:`hold_types`."""
    facts = geometry.card_facts
    kept = [hand[p] for p in range(HAND) if mask >> p & 1]
    thrown = [card for card in hand if card not in kept]
    rank_bits = len(geometry.rank_symbols)
    if not kept:
        return pack(kind=DRAW_FIVE, category=NO_CATEGORY), 0
    natural = [c for c in kept if not facts[c][2]]
    wilds = len(kept) - len(natural)
    values = [facts[c][0] for c in natural]
    held = sum({1 << v for v in values})
    tie_ranks = (1 << rank_bits) - 1 - held
    if not natural:
        return pack(kind=WILDS, wilds=wilds, category=NO_CATEGORY), tie_ranks
    index = sum(comb(card, position + 1) for position, card in enumerate(sorted(kept)))
    if len(kept) == HAND:
        return pack(kind=PAT, wilds=wilds, category=int(final.category_of_hand[index])), tie_ranks
    reach = final.counts[len(kept)][index].tolist()
    if len(set(values)) < len(values):
        groups = sum({1 << v for v in values if values.count(v) > 1})
        lowest = max(i for i in range(len(reach)) if reach[i] > 0)
        made = pack(
            kind=MADE, wilds=wilds, naturals=len(natural), category=lowest, groups=groups, singles=held & ~groups
        )
        return made, tie_ranks
    reachable = [t for t in geometry.targets if reach[t] > 0]
    high = bin(held & geometry.high_mask).count("1")
    if not reachable:
        cards = pack(kind=CARDS, wilds=wilds, naturals=len(natural), category=NO_CATEGORY, high=high, singles=held)
        return cards, tie_ranks
    target = reachable[0]
    run_like, flush_like = geometry.run_like[target], geometry.flush_like[target]
    gaps = max(HAND + 1 - len(natural) - geometry.fits_run(held), 0) if run_like else 0
    suit = min(facts[c][1] for c in natural)
    thrown_natural = [facts[c] for c in thrown if not facts[c][2]]
    flush_penalty = sum(1 for _, s, _ in thrown_natural if s == suit) if flush_like else 0
    straight_penalty = 0
    if run_like:
        straight_penalty = len(
            {v for v, _, _ in thrown_natural if not held >> v & 1 and geometry.fits_run(held | 1 << v)}
        )
    flush_penalty, straight_penalty = min(flush_penalty, PENALTY_CAP), min(straight_penalty, PENALTY_CAP)
    key = pack(
        kind=DRAW,
        wilds=wilds,
        naturals=len(natural),
        category=target,
        gaps=gaps,
        high=high,
        singles=held,
        flush_penalty=flush_penalty,
        straight_penalty=straight_penalty,
    )
    return key, (flush_penalty + straight_penalty) << rank_bits | tie_ranks
