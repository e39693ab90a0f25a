"""Flips decided by suit tie-breaks, on a plain deck (see :mod:`evaluator.tools.flips`).

Hand classes have no suits, so :mod:`evaluator.tools.flips_exact` cannot see two
hands of one class that two different suit tie-breaks order differently. Such
pairs are always two hands of the same class (equal value under both rulesets),
so they are sampled here: a random hand, then a random other hand of its class.
With ``N`` hands, ``w`` hands in the class drawn and ``I`` whether the two
rulesets order the pair oppositely, ``N (w - 1) I / 2`` is an unbiased estimate
of the number of flipping pairs; its mean over the draws is reported with a 95%
normal interval.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..core.stats_math import Z_95
from ..rules.cards import Card
from .flip_types import FlipGroup
from .flips_sampled import flip_label, verified_example

if TYPE_CHECKING:
    from ..ruleset import Ruleset

ClassKey = tuple[tuple[str, ...], bool]


def class_key(cards: Sequence[Card]) -> ClassKey:
    """The class of a hand: its ranks (sorted) and whether it is one-suited."""
    return tuple(sorted(card.rank or "" for card in cards)), len(cards) > 1 and len({card.suit for card in cards}) == 1


def _same_class(hand: Sequence[Card], suits: Sequence[str], rng: random.Random) -> tuple[Card, ...] | None:
    """Another hand of ``hand``'s class, drawn at random (None when the class has one hand)."""
    key = class_key(hand)
    for _ in range(200):
        if key[1]:
            suit = rng.choice(suits)
            other = tuple(Card(card.rank or "", suit) for card in hand)
        else:
            by_rank = Counter(card.rank for card in hand)
            other = tuple(Card(rank or "", suit) for rank, n in by_rank.items() for suit in rng.sample(list(suits), n))
        if class_key(other) == key and set(other) != set(hand):
            return other
    return None


def suit_flips(
    a: Ruleset, b: Ruleset, deck: Sequence[Card], size: int, weights: dict[ClassKey, int], draws: int, seed: int
) -> list[FlipGroup]:
    """Groups of same-class pairs that the two suit tie-breaks order oppositely, estimated with an interval."""
    rng = random.Random(seed)
    suits = list(dict.fromkeys(card.suit for card in deck if card.suit is not None))
    hands = sum(weights.values())
    values: dict[tuple[str, str], list[float]] = {}
    examples: dict[tuple[str, str], tuple[tuple[Card, ...], tuple[Card, ...]]] = {}
    for _ in range(draws):
        first = tuple(rng.sample(list(deck), size))
        second = _same_class(first, suits, rng)
        if second is None:
            continue
        text_first, text_second = " ".join(map(str, first)), " ".join(map(str, second))
        verdict_a, verdict_b = a.compare(text_first, text_second), b.compare(text_first, text_second)
        if verdict_a * verdict_b != -1:
            continue
        if verdict_a == -1:
            first, second = second, first
        category_a, category_b = a.evaluate(text_first).category, b.evaluate(text_first).category
        key = (flip_label(category_a, category_b), flip_label(category_a, category_b))
        values.setdefault(key, []).append(hands * (weights[class_key(first)] - 1) / 2)
        examples.setdefault(key, (first, second))
    groups = []
    for key, hits in values.items():
        total = sum(hits)
        mean = total / draws
        square = sum(v * v for v in hits) / draws
        spread = math.sqrt(max(0.0, square - mean * mean) / draws)
        first, second = examples[key]
        example = verified_example(a, b, first, second)
        groups.append(
            FlipGroup(
                "suit_tiebreak",
                key[0],
                key[1],
                round(mean),
                max(0, math.floor(mean - Z_95 * spread)),
                math.ceil(mean + Z_95 * spread),
                example,
                1 if example else None,
                -1 if example else None,
            )
        )
    return sorted(groups, key=lambda g: -g.pairs)
