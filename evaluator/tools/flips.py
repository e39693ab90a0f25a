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
from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING

from ..rules.cards import Card
from .flip_types import CAUSE_TITLES, CAUSES, DEFAULT_FLIP_SAMPLES, MAX_EXACT_CLASSES, FlipCensus, FlipGroup, FlipHand
from .flips_exact import exact_census
from .flips_sampled import disjoint_variants, flip_array_values, sampled_census, verified_example
from .flips_suits import class_key, suit_flips

if TYPE_CHECKING:
    from ..ruleset import Ruleset

__all__ = [
    "CAUSES",
    "CAUSE_TITLES",
    "DEFAULT_FLIP_SAMPLES",
    "MAX_EXACT_CLASSES",
    "FlipCensus",
    "FlipGroup",
    "FlipHand",
    "census",
    "disjoint_variants",
    "flip_array_values",
    "hand_classes",
    "plain_deck",
    "sampled_census",
    "suits_can_flip",
    "verified_example",
]


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
            found = exact_census(a, b, deck, size, classes)
            if suits_can_flip(a, b):
                # a class has no suits: flips decided by two different suit tie-breaks are sampled
                weights = {class_key(cards): weight for cards, weight in classes}
                suited = suit_flips(a, b, deck, size, weights, samples, seed)
                found = replace(found, groups=found.groups + tuple(suited), sampled=samples, seed=seed)
            return found
    return sampled_census(a, b, deck, size, samples, seed)


def suits_can_flip(a: Ruleset, b: Ruleset) -> bool:
    """True when both rulesets break ties by suit, differently: equal hands can change winner."""
    return a.tiebreak != "none" and b.tiebreak != "none" and (a.tiebreak, a.suit_order) != (b.tiebreak, b.suit_order)
