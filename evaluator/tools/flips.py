"""Flips of every kind between two rulesets, grouped by cause and counted.

A *flip* is a pair of hands that one ruleset (A) says the first wins and the
other (B) says the second wins. Each flip has one cause, looked for in this
order (the first that applies names it):

``beats``
    a ``beats:`` exception of either ruleset decides the pair;
``qualifier``
    a hand qualifies under one ruleset and not under the other;
``wild_cards``
    a hand holds a card that is wild under either ruleset;
``category_membership``
    the same cards are another category under the other ruleset (a straight
    or flush that counts in one and not the other, a wheel that is a run in
    one only ...);
``category_order``
    both hands keep their categories but the two categories change places;
``ace_rule``
    both hands are of one category under both rulesets, the ace is ranked
    differently, and a hand holds an ace (a pair of aces against kings, the
    wheel);
``rank_order``
    one category, no ace involved: the order of the ranks inside the category
    differs (high against low);
``suit_tiebreak``
    the hands are equal by value in a ruleset that breaks ties by suit.

**Counting.** The population is the unordered pairs of distinct hands of the
ruleset's hand size from the cards both decks hold (the two hands may share
cards: the question is how two hands are ranked, not how they are dealt);
when sampled, the population is the pairs of hands dealt from one deck.
When the common deck is plain (one pack, no jokers, no wild cards on either
side, one hand size) the count is *exact*: every hand class (a rank multiset,
suited or not) is valued once under each ruleset, weighted by the number of
hands it stands for, and every pair of classes is judged at once with NumPy
(flips decided only by suits are then not counted: a class has no suits).
Otherwise pairs of hands are *sampled* with a seed, judged with both rulesets'
``compare``, and the share is given with a 95% Wilson interval.

Every example pair shown has been re-read from its card strings and checked
with ``A.compare`` (1) and ``B.compare`` (-1).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations, combinations_with_replacement, product
from typing import TYPE_CHECKING, Any

import numpy as np

from ..rules.cards import Card
from ..core.errors import PokerRulesError
from ..core.stats_math import Z_95, wilson_interval

if TYPE_CHECKING:
    from ..engine.hand import Hand
    from ..ruleset import Ruleset

#: Causes, in the order they are tried and shown.
CAUSES = (
    "beats",
    "qualifier",
    "wild_cards",
    "category_membership",
    "category_order",
    "ace_rule",
    "rank_order",
    "suit_tiebreak",
)

#: What each cause means, for the reports.
CAUSE_TITLES = {
    "beats": "a beats: exception decides",
    "qualifier": "a hand qualifies under one ruleset only",
    "wild_cards": "wild cards play differently",
    "category_membership": "the same cards are another category (a straight or flush counts in one ruleset only)",
    "category_order": "two categories change places",
    "ace_rule": "the ace is ranked differently inside a category",
    "rank_order": "ranks are ordered differently inside a category",
    "suit_tiebreak": "a suit tie-break decides equal hands",
}

MAX_EXACT_CLASSES = 20_000  # hand classes judged pairwise with NumPy
DEFAULT_FLIP_SAMPLES = 20_000
ROWS_PER_BLOCK = 256


@dataclass(frozen=True, slots=True)
class FlipHand:
    """A concrete hand of a flip example with its category and description under each ruleset."""

    cards: tuple[str, ...]
    category_a: str
    category_b: str
    description_a: str
    description_b: str


@dataclass(frozen=True, slots=True)
class FlipGroup:
    """Hand pairs of one cause and one pair of categories that flip.

    ``first`` is the category (``A / B`` when the rulesets disagree) of the hand
    A ranks higher, ``second`` of the hand B ranks higher; ``outcome_a`` and
    ``outcome_b`` say whether that is a win or a tie (a win that becomes a tie,
    as a qualifier makes it, is a change of winner too). ``pairs`` is
    the exact count, or the estimate from the sample (with ``low``/``high``
    its 95% interval, as counts).
    """

    cause: str
    first: str
    second: str
    pairs: int
    low: int | None
    high: int | None
    example: tuple[FlipHand, FlipHand] | None
    compare_a: int | None
    compare_b: int | None
    outcome_a: int = 1  # what A says of (first, second): 1 first wins, 0 tie
    outcome_b: int = -1  # what B says: -1 second wins, 0 tie (never the same as A)

    @property
    def reversed(self) -> bool:
        """True for a strict flip (A: the first wins; B: the second wins), False when one side ties."""
        return self.outcome_a == 1 and self.outcome_b == -1


@dataclass(frozen=True, slots=True)
class FlipCensus:
    """Every flip group of two rulesets and how they were counted."""

    method: str  # exact, sampled or none
    hand_size: int
    common_deck: int
    population: int  # unordered pairs of distinct hands
    sampled: int  # pairs drawn (sampled only)
    seed: int | None
    groups: tuple[FlipGroup, ...]
    reason: str = ""

    def causes(self) -> list[str]:
        """The causes present, in :data:`CAUSES` order."""
        present = {group.cause for group in self.groups}
        return [cause for cause in CAUSES if cause in present]

    def total(self, cause: str | None = None) -> int:
        """Flipping pairs of one cause (or of all)."""
        return sum(group.pairs for group in self.groups if cause is None or group.cause == cause)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data (``flip_causes`` in ``docs/json/diff.schema.json``)."""
        return {
            "method": self.method,
            "hand_size": self.hand_size,
            "common_deck": self.common_deck,
            "population": self.population,
            "sampled": self.sampled,
            "seed": self.seed,
            "reason": self.reason or None,
            "causes": [
                {"cause": cause, "title": CAUSE_TITLES[cause], "pairs": self.total(cause)} for cause in self.causes()
            ],
            "groups": [_group_dict(group) for group in self.groups],
        }


def _hand_dict(hand: FlipHand) -> dict[str, Any]:
    return {
        "cards": list(hand.cards),
        "category_a": hand.category_a,
        "category_b": hand.category_b,
        "description_a": hand.description_a,
        "description_b": hand.description_b,
    }


def _group_dict(group: FlipGroup) -> dict[str, Any]:
    return {
        "cause": group.cause,
        "wins_in_a": group.first,
        "wins_in_b": group.second,
        "pairs": group.pairs,
        "outcome_a": group.outcome_a,
        "outcome_b": group.outcome_b,
        "interval": None
        if group.low is None
        else {"level": 0.95, "method": "wilson", "low": group.low, "high": group.high},
        "example": None
        if group.example is None
        else {
            "wins_in_a": _hand_dict(group.example[0]),
            "wins_in_b": _hand_dict(group.example[1]),
            "compare_a": group.compare_a,
            "compare_b": group.compare_b,
        },
    }


# --- hand classes of a plain deck ----------------------------------------------------------


def plain_deck(a: Ruleset, b: Ruleset, deck: Sequence[Card]) -> bool:
    """True when hand classes (rank multiset, suited or not) decide every hand's value."""
    return (
        not a.wild.any
        and not b.wild.any
        and all(card.rank is not None for card in deck)
        and len(set(deck)) == len(deck)
        and a.hand_size == b.hand_size
    )


def hand_classes(deck: Sequence[Card], size: int) -> list[tuple[tuple[Card, ...], int]]:
    """One concrete hand per class of ``size`` cards from a plain ``deck``, with how many hands it stands for.

    A class is a rank multiset, suited (every card of one suit, distinct ranks)
    or not. The weights sum to ``C(len(deck), size)``.

    >>> from evaluator import load
    >>> classes = hand_classes(load("standard").deck, 5)
    >>> len(classes), sum(weight for _, weight in classes)
    (7462, 2598960)
    """
    ranks = list(dict.fromkeys(card.rank for card in deck if card.rank is not None))
    suits = list(dict.fromkeys(card.suit for card in deck if card.suit is not None))
    held = {(card.rank, card.suit) for card in deck}
    if any((rank, suit) not in held for rank in ranks for suit in suits):
        raise ValueError("hand_classes needs every rank in every suit")
    n = len(suits)
    classes: list[tuple[tuple[Card, ...], int]] = []
    for choice in combinations_with_replacement(range(len(ranks)), size):
        counts = [choice.count(r) for r in sorted(set(choice))]
        if max(counts) > n:
            continue
        distinct = max(counts) == 1
        ways = math.prod(math.comb(n, c) for c in counts)
        if distinct and size > 1:
            classes.append((tuple(Card(ranks[r], suits[0]) for r in choice), n))
            ways -= n
        if ways > 0:
            spread = _spread(choice, ranks, suits)
            classes.append((spread, ways))
    return classes


def _spread(choice: Sequence[int], ranks: Sequence[str], suits: Sequence[str], shift: int = 0) -> tuple[Card, ...]:
    """A hand of the rank multiset ``choice`` whose suits are not all one (when it can)."""
    cards: list[Card] = []
    seen: dict[int, int] = {}
    for position, r in enumerate(choice):
        copy = seen.get(r, 0)
        seen[r] = copy + 1
        suit = (
            suits[(position + copy + shift) % len(suits)]
            if copy == 0
            else suits[(_first_suit(cards, ranks[r], suits) + copy) % len(suits)]
        )
        cards.append(Card(ranks[r], suit))
    if len(cards) > 1 and len({card.suit for card in cards}) == 1:
        cards[-1] = Card(cards[-1].rank or "", suits[(suits.index(cards[-1].suit or "") + 1) % len(suits)])
    return tuple(cards)


def _first_suit(cards: Sequence[Card], rank: str, suits: Sequence[str]) -> int:
    return next(suits.index(card.suit or "") for card in cards if card.rank == rank)


# --- judging ------------------------------------------------------------------------------------


def _evaluate(ruleset: Ruleset, cards: Sequence[Card]) -> Hand | None:
    try:
        return ruleset.engine.evaluate(list(cards))
    except PokerRulesError:
        return None


def _matches(matcher: Any, hand: Hand) -> bool:
    from ..engine.showdown import _matches as matches

    return matches(matcher, hand)


def _label(category_a: str, category_b: str) -> str:
    return category_a if category_a == category_b else f"{category_a} / {category_b}"


def _cause(
    a: Ruleset,
    b: Ruleset,
    first: tuple[Hand, Hand],
    second: tuple[Hand, Hand],
    cards: tuple[Sequence[Card], Sequence[Card]],
) -> str:
    """The cause of one flipping pair (see the module docstring)."""
    from ..engine.showdown import _exception

    if (a.beats and _exception(a, first[0], second[0])) or (b.beats and _exception(b, first[1], second[1])):
        return "beats"
    if first[0].qualifies != first[1].qualifies or second[0].qualifies != second[1].qualifies:
        return "qualifier"
    if any(_is_wild(ruleset, card) for ruleset in (a, b) for hand in cards for card in hand):
        return "wild_cards"
    if first[0].category != first[1].category or second[0].category != second[1].category:
        return "category_membership"
    if first[0].category != second[0].category:
        return "category_order"
    if first[0].strength[:3] == second[0].strength[:3] or first[1].strength[:3] == second[1].strength[:3]:
        return "suit_tiebreak"
    if a.ace != b.ace and any(card.rank == "A" for hand in cards for card in hand):
        return "ace_rule"
    return "rank_order"


def _is_wild(ruleset: Ruleset, card: Card) -> bool:
    wild = ruleset.wild
    return card.rank is None or card in wild.cards or card.rank in wild.ranks


def _flip_hand(cards: Sequence[Card], a: Ruleset, b: Ruleset) -> FlipHand:
    text = " ".join(map(str, cards))
    hand_a, hand_b = a.evaluate(text), b.evaluate(text)
    played = tuple(hand_a.cards) if sorted(hand_a.cards) == sorted(map(str, cards)) else tuple(map(str, cards))
    return FlipHand(played, hand_a.category, hand_b.category, hand_a.describe(), hand_b.describe())


def verified_example(
    a: Ruleset, b: Ruleset, first: Sequence[Card], second: Sequence[Card], outcome_a: int = 1, outcome_b: int = -1
) -> tuple[FlipHand, FlipHand] | None:
    """The pair as reported, when ``A.compare`` and ``B.compare`` on the card strings say what the group says."""
    text_first, text_second = " ".join(map(str, first)), " ".join(map(str, second))
    if a.compare(text_first, text_second) == outcome_a and b.compare(text_first, text_second) == outcome_b:
        return _flip_hand(first, a, b), _flip_hand(second, a, b)
    return None


def disjoint_variants(
    first: Sequence[Card], second: Sequence[Card], deck: Sequence[Card]
) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
    """Ways to deal ``second``'s class (its ranks, suited or not) next to ``first`` without a shared card.

    Falls back to the pair as given when the deck cannot separate them.
    """
    suits = list(dict.fromkeys(card.suit for card in deck if card.suit is not None))
    free = [card for card in deck if card not in set(first)]
    ranks = Counter(card.rank for card in second)
    suited = len(second) > 1 and len({card.suit for card in second}) == 1
    found: list[tuple[tuple[Card, ...], tuple[Card, ...]]] = []
    if suited:
        for suit in suits:
            hand = tuple(Card(card.rank or "", suit) for card in second)
            if all(card in free for card in hand):
                found.append((tuple(first), hand))
        return found or [(tuple(first), tuple(second))]
    choices = [list(combinations([card for card in free if card.rank == rank], n)) for rank, n in ranks.items()]
    for picked in product(*choices):
        hand = tuple(card for group in picked for card in group)
        if len(hand) == 1 or len({card.suit for card in hand}) > 1:
            found.append((tuple(first), hand))
            if len(found) >= 8:
                break
    return found or [(tuple(first), tuple(second))]


def census(
    a: Ruleset, b: Ruleset, deck: Sequence[Card], samples: int = DEFAULT_FLIP_SAMPLES, seed: int = 2026
) -> FlipCensus:
    """Every flip between ``a`` and ``b`` over hands of the common ``deck``, grouped by cause and counted.

    >>> from evaluator import load
    >>> from evaluator.tools.diff import common_deck
    >>> a, b = load("italian"), load("standard")
    >>> found = census(a, b, common_deck(a, b))
    >>> found.method, "beats" in found.causes()
    ('exact', True)
    """
    size = max(a.hand_size, b.hand_size)
    if len(deck) < size:
        return FlipCensus(
            "none", size, len(deck), 0, 0, None, (), f"the decks share {len(deck)} cards, fewer than a hand"
        )
    if plain_deck(a, b, deck):
        classes = hand_classes(deck, size)
        if len(classes) <= MAX_EXACT_CLASSES:
            from .flips_exact import exact_census

            found = exact_census(a, b, deck, size, classes)
            if suits_can_flip(a, b):
                # a class has no suits: flips decided by two different suit tie-breaks are sampled
                from .flips_suits import class_key, suit_flips

                weights = {class_key(cards): weight for cards, weight in classes}
                suited = suit_flips(a, b, deck, size, weights, samples, seed)
                found = replace(found, groups=found.groups + tuple(suited), sampled=samples, seed=seed)
            return found
    return sampled_census(a, b, deck, size, samples, seed)


def suits_can_flip(a: Ruleset, b: Ruleset) -> bool:
    """True when both rulesets break ties by suit, differently: equal hands can change winner."""
    return a.tiebreak != "none" and b.tiebreak != "none" and (a.tiebreak, a.suit_order) != (b.tiebreak, b.suit_order)


def sampled_census(a: Ruleset, b: Ruleset, deck: Sequence[Card], size: int, samples: int, seed: int) -> FlipCensus:
    """Draw ``samples`` pairs of hands with ``seed``, judge each with both ``compare``, count flips per group."""
    rng = random.Random(seed)
    cards = list(deck)
    if len(cards) < 2 * size:
        return FlipCensus(
            "none", size, len(deck), 0, 0, None, (), f"the decks share {len(deck)} cards, too few for two hands"
        )
    found: dict[tuple[str, str, str, int, int], list[Any]] = {}
    for _ in range(samples):
        dealt = rng.sample(cards, 2 * size)
        first, second = tuple(dealt[:size]), tuple(dealt[size:])
        fa, fb, sa, sb = _evaluate(a, first), _evaluate(b, first), _evaluate(a, second), _evaluate(b, second)
        if fa is None or fb is None or sa is None or sb is None:
            continue
        verdict_a, verdict_b = a.compare(fa, sa), b.compare(fb, sb)
        if verdict_a == verdict_b:
            continue
        if verdict_a < verdict_b:  # orient the pair: A ranks the first hand higher than B does
            first, second, fa, fb, sa, sb = second, first, sa, sb, fa, fb
            verdict_a, verdict_b = -verdict_a, -verdict_b
        cause = _cause(a, b, (fa, fb), (sa, sb), (first, second))
        key = (cause, _label(fa.category, fb.category), _label(sa.category, sb.category), verdict_a, verdict_b)
        entry = found.setdefault(key, [0, first, second])
        entry[0] += 1
    population = math.comb(len(deck), size) * math.comb(len(deck) - size, size) // 2  # two hands dealt from one deck
    groups = []
    for (cause, first_label, second_label, outcome_a, outcome_b), (hits, first, second) in found.items():
        low, high = wilson_interval(hits, samples, Z_95)
        example = verified_example(a, b, first, second, outcome_a, outcome_b)
        groups.append(
            FlipGroup(
                cause,
                first_label,
                second_label,
                round(hits / samples * population),
                math.floor(low * population),
                math.ceil(high * population),
                example,
                outcome_a if example else None,
                outcome_b if example else None,
                outcome_a,
                outcome_b,
            )
        )
    groups.sort(key=lambda g: (CAUSES.index(g.cause), not g.reversed, -g.pairs, g.first, g.second))
    return FlipCensus("sampled", size, len(deck), population, samples, seed, tuple(groups))


def flip_array_values(values: Sequence[tuple[Any, ...]]) -> np.ndarray[Any, np.dtype[np.int64]]:
    """Dense integer ranks of comparable values: equal values get equal numbers, bigger wins."""
    order = {value: index for index, value in enumerate(sorted(set(values)))}
    return np.array([order[value] for value in values], dtype=np.int64)
