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

**Counting.** The population is the unordered pairs of hands of the
ruleset's hand size, dealt from the cards both decks hold, that can meet in
one deal: the two hands share no card. When that deck is plain (one pack of
every rank in every suit, no card of it wild on either side, one hand size)
the count is *exact*: every hand is ranked under both rulesets on the compiled
tables and sorted into parts (:mod:`evaluator.tools.flips_hands`: a rank class,
split where suits within the hand or nothing else change a value), pairs of
parts of different ranks are judged at once with NumPy and weighted by the
pairs of hands that can meet (:mod:`evaluator.tools.flips_meet`), and pairs of
hands of the same ranks, where suits decide (a four flush against the same
ranks unsuited, suit tie-breaks on either side), are judged hand by hand
(:mod:`evaluator.tools.flips_within`). Otherwise pairs of hands are *sampled*
with a seed, dealt from one deck, judged with both rulesets' ``compare``, and
each count is an estimate with a 95% Wilson interval; the census says which
(``method``), and never calls an estimate exact.

Every example pair shown is two hands that share no card, re-read from its
card strings and checked with ``A.compare`` and ``B.compare``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, TextIO

from ..rules.cards import Card
from .flip_types import CAUSE_TITLES, CAUSES, DEFAULT_FLIP_SAMPLES, FlipCensus, FlipGroup, FlipHand
from .flips_exact import exact_census
from .flips_hands import hand_space
from .flips_judge import PartJudge
from .flips_sampled import flip_array_values, sampled_census, verified_example

if TYPE_CHECKING:
    from ..ruleset import Ruleset

__all__ = [
    "CAUSES",
    "CAUSE_TITLES",
    "DEFAULT_FLIP_SAMPLES",
    "FlipCensus",
    "FlipGroup",
    "FlipHand",
    "census",
    "flip_census",
    "flip_array_values",
    "sampled_census",
    "verified_example",
]


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
    return flip_census(a, b, deck, samples, seed)[0]


def flip_census(
    a: Ruleset,
    b: Ruleset,
    deck: Sequence[Card],
    samples: int = DEFAULT_FLIP_SAMPLES,
    seed: int = 2026,
    progress: TextIO | None = None,
) -> tuple[FlipCensus, PartJudge | None]:
    """:func:`census`, and when it is exact the parts of the hand space it judged (the
    hands of every rank class that play alike, valued under both rulesets); ``progress``:
    the stream of a sampled census's progress bar."""
    size = max(a.hand_size, b.hand_size)
    if len(deck) < 2 * size:
        reason = f"the decks share {len(deck)} cards, too few for two hands"
        return FlipCensus("none", size, len(deck), 0, 0, None, (), reason), None
    space = hand_space(a, b, deck)
    if not isinstance(space, str):
        judge = PartJudge(space)
        found = exact_census(a, b, judge)
        if found is not None:
            judge.space = space.parts_only()  # the hands are judged: the report reads the parts only
            return found, judge
        space = "a rank multiset has too many hands to judge pairwise"
    sampled = sampled_census(a, b, deck, size, samples, seed, progress)
    return replace(sampled, reason=f"not counted exactly: {space}"), None
