"""Judging flipping pairs of hands (see :mod:`evaluator.tools.flips`): causes, examples, the sampled census.

The helpers here are shared by the exact count (:mod:`evaluator.tools.flips_exact`)
and the census that picks between them (:mod:`evaluator.tools.flips`). A
sampled pair is two hands dealt from one deck, so they never share a card.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any, TextIO

import numpy as np

from ..compiled.fasthand import generic_answers
from ..core.progress import Bar
from ..core.stats_math import Z_95, wilson_interval
from ..rules.cards import Card
from .diff_basis import hand_or_none
from .flip_types import CAUSES, FlipCensus, FlipGroup, FlipHand, flip_label
from .flips_batch import Found, is_wild, table_flips
from .showdown_share import Deals, batch_outcomes

if TYPE_CHECKING:
    from ..engine.hand import Hand
    from ..ruleset import Ruleset

PAIRS_PER_STEP = 256  # pairs judged hand by hand between two looks at the progress bar


def flip_cause(
    a: Ruleset,
    b: Ruleset,
    first: tuple[Hand, Hand],
    second: tuple[Hand, Hand],
    cards: tuple[Sequence[Card], Sequence[Card]],
) -> str:
    """The cause of one flipping pair (see the module docstring)."""
    from ..engine.showdown import beats_exception

    if (a.beats and beats_exception(a, first[0], second[0])) or (b.beats and beats_exception(b, first[1], second[1])):
        return "beats"
    if first[0].qualifies != first[1].qualifies or second[0].qualifies != second[1].qualifies:
        return "qualifier"
    if any(is_wild(ruleset, card) for ruleset in (a, b) for hand in cards for card in hand):
        return "wild_cards"
    if first[0].category != first[1].category or second[0].category != second[1].category:
        return "category_membership"
    if first[0].category != second[0].category:
        return "category_order"
    if (a.tiebreak != "none" and first[0].strength[:3] == second[0].strength[:3]) or (
        b.tiebreak != "none" and first[1].strength[:3] == second[1].strength[:3]
    ):
        return "suit_tiebreak"
    if a.ace != b.ace and any(card.rank == "A" for hand in cards for card in hand):
        return "ace_rule"
    return "rank_order"


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
    with generic_answers(a), generic_answers(b):  # a few hands: no per-call closures for them
        if a.compare(text_first, text_second) == outcome_a and b.compare(text_first, text_second) == outcome_b:
            return _flip_hand(first, a, b), _flip_hand(second, a, b)
    return None


def sampled_census(
    a: Ruleset, b: Ruleset, deck: Sequence[Card], size: int, samples: int, seed: int, progress: TextIO | None = None
) -> FlipCensus:
    """Draw ``samples`` pairs of hands with ``seed``, judge each with both ``compare``, count flips per group
    (``progress``: the stream of a bar over the pairs judged hand by hand)."""
    cards = list(deck)
    if len(cards) < 2 * size:
        return FlipCensus(
            "none", size, len(deck), 0, 0, None, (), f"the decks share {len(deck)} cards, too few for two hands"
        )
    found: Found = {}
    deals = Deals.drawn(cards, size, samples, seed)
    # the tables tell at once which pairs change their outcome, and name most of those pairs' causes
    judged = batch_outcomes(a, b, deals)
    by_hand = (
        range(samples) if judged is None else table_flips(a, b, deals, np.flatnonzero(judged[0] != judged[1]), found)
    )
    meter = Bar("diff: judging sampled pairs of hands", progress).running() if progress else nullcontext()
    with meter as bar:
        for done, number in enumerate(by_hand):
            if bar is not None and done % PAIRS_PER_STEP == 0:
                bar(done / len(by_hand))
            _judge_pair(a, b, number, deals.pair(number), found)
    population = math.comb(len(deck), size) * math.comb(len(deck) - size, size) // 2  # two hands dealt from one deck
    groups = []
    # in the order of their first pairs, as judging every pair in deal order finds them (equal sort keys stay so)
    for key, (hits, first, second, _) in sorted(found.items(), key=lambda item: int(item[1][3])):
        cause, first_label, second_label, outcome_a, outcome_b = key
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


def _judge_pair(a: Ruleset, b: Ruleset, number: int, pair: tuple[Sequence[Card], Sequence[Card]], found: Found) -> None:
    """Count the sampled pair of deal ``number`` in its group of ``found`` when its outcome changes
    (a group's first pair in deal order is its example)."""
    first, second = pair
    fa, fb, sa, sb = (hand_or_none(a, first), hand_or_none(b, first), hand_or_none(a, second), hand_or_none(b, second))
    if fa is None or fb is None or sa is None or sb is None:
        return
    verdict_a, verdict_b = a.compare(fa, sa), b.compare(fb, sb)
    if verdict_a == verdict_b:
        return
    if verdict_a < verdict_b:  # orient the pair: A ranks the first hand higher than B does
        first, second, fa, fb, sa, sb = second, first, sa, sb, fa, fb
        verdict_a, verdict_b = -verdict_a, -verdict_b
    cause = flip_cause(a, b, (fa, fb), (sa, sb), (first, second))
    key = (cause, flip_label(fa.category, fb.category), flip_label(sa.category, sb.category), verdict_a, verdict_b)
    entry = found.setdefault(key, [0, first, second, number])
    entry[0] += 1
    if number < entry[3]:  # the tables found this group first at a later deal
        entry[1:] = [first, second, number]


def flip_array_values(values: Sequence[tuple[Any, ...]]) -> np.ndarray[Any, np.dtype[np.int64]]:
    """Dense integer ranks of comparable values: equal values get equal numbers, bigger wins."""
    order = {value: index for index, value in enumerate(sorted(set(values)))}
    return np.array([order[value] for value in values], dtype=np.int64)
