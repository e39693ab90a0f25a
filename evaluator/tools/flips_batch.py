"""Sampled flipping pairs judged on the compiled tables (see :func:`evaluator.tools.flips_sampled.sampled_census`).

The sampled census draws pairs of hands and, once the tables have told which
pairs change their outcome, names the cause and the categories of each
changing pair. Hand by hand that is four generic evaluations a pair (a tenth
of a millisecond each for badugi's best four of five); here it is read from
the same tables for all the pairs at once, as the tables say everything the
causes read:

- a table value names a category (each has its own strength: its place in
  ``order``), and with a suit tie-break, the value less its suit key says
  whether two hands tie before suits are looked at;
- but only of a hand that qualifies: a pair with a hand that does not (or
  makes no hand) is judged hand by hand.

``beats:`` exceptions never get here: the tables judge no pair of a ruleset
that has them (``showdown_share.batch_ready``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..compiled.fasthand import fast_hands
from .flip_types import CAUSES, flip_label
from .showdown_share import Deals

if TYPE_CHECKING:
    from ..rules.cards import Card
    from ..ruleset import Ruleset

IntArray = np.ndarray[Any, np.dtype[np.int64]]
FlipKey = tuple[str, str, str, int, int]  # cause, first hand's label, second's, outcome under A, under B
Found = dict[FlipKey, list[Any]]  # a group's pairs, its first pair's two hands and deal number


def table_flips(a: Ruleset, b: Ruleset, deals: Deals, changed: IntArray, found: Found) -> list[int]:
    """Count into ``found`` the pairs of ``deals`` numbered ``changed`` (whose outcome changes, in
    deal order) that the tables judge alone; the numbers of the others, to be judged hand by hand.

    A group's example is its first pair in deal order, oriented so that A ranks the first hand
    higher than B does, as :func:`flip_label` and ``flip_cause`` would say hand by hand.
    """
    if deals.cards < max(a.hand_min, b.hand_min):
        every: list[int] = changed.tolist()
        return every
    chosen = Deals(deals.deck, deals.positions[changed], deals.cards)
    names = sorted(set(a.category_names) | set(b.category_names))
    values_a, named_a, name_a, tie_a = _side(a, chosen, names)
    values_b, named_b, name_b, tie_b = _side(b, chosen, names)
    verdict_a, verdict_b = np.sign(values_a[0] - values_a[1]), np.sign(values_b[0] - values_b[1])
    plain = named_a & named_b & (verdict_a != verdict_b)
    swap = verdict_a < verdict_b  # orient each pair: A ranks the first hand higher than B does
    first_a, second_a = np.where(swap, name_a[1], name_a[0]), np.where(swap, name_a[0], name_a[1])
    first_b, second_b = np.where(swap, name_b[1], name_b[0]), np.where(swap, name_b[0], name_b[1])
    cause = _causes(a, b, chosen, (first_a, second_a, first_b, second_b), tie_a | tie_b)
    count = len(names)
    labels = count * count
    outcome_a, outcome_b = np.where(swap, -verdict_a, verdict_a), np.where(swap, -verdict_b, verdict_b)
    code = (cause * labels + first_a * count + first_b) * labels + second_a * count + second_b
    code = (code * 3 + outcome_a + 1) * 3 + outcome_b + 1
    at = np.flatnonzero(plain)
    codes, first_at, pairs = np.unique(code[at], return_index=True, return_counts=True)
    for key, where, hits in zip(codes.tolist(), at[first_at].tolist(), pairs.tolist(), strict=True):
        number = int(changed[where])
        first, second = deals.pair(number)
        if swap[where]:
            first, second = second, first
        found[_decoded(key, names)] = [hits, first, second, number]
    left: list[int] = changed[~plain].tolist()
    return left


def _side(ruleset: Ruleset, deals: Deals, names: list[str]) -> tuple[IntArray, np.ndarray, IntArray, np.ndarray]:
    """``ruleset``'s table values of the first and the second hands (2, pairs), whether all of a
    pair's hands qualify, each hand's category as an index of ``names``, and whether the pair's
    hands tie before a suit tie-break (always False without one)."""
    hands = fast_hands(ruleset)
    firsts, seconds = deals.numbers(ruleset, 0, len(deals))
    values = np.stack([ruleset.rank_many(firsts), ruleset.rank_many(seconds)])
    dense = np.maximum(values, 0) // hands.value_scale  # the value less its suit key
    index = np.asarray(hands.categories, dtype=np.int64)[dense]
    named = ((values >= 0) & (index >= 0)).all(axis=0)
    of_category = np.array([names.index(name) for name in ruleset.category_names], dtype=np.int64)
    suit_tie = (dense[0] == dense[1]) & (ruleset.tiebreak != "none")
    return values, named, of_category[np.maximum(index, 0)], suit_tie


def _causes(a: Ruleset, b: Ruleset, deals: Deals, names: tuple[IntArray, ...], suit_tie: np.ndarray) -> IntArray:
    """The cause of each pair of qualifying hands (``flip_cause``'s order, less the causes that
    cannot apply here: ``beats`` and ``qualifier``)."""
    first_a, second_a, first_b, second_b = names
    wild_at = np.array([is_wild(a, card) or is_wild(b, card) for card in deals.deck], dtype=bool)
    ace_at = np.array([card.rank == "A" for card in deals.deck], dtype=bool)
    conditions = [
        wild_at[deals.positions].any(axis=1),
        (first_a != first_b) | (second_a != second_b),
        first_a != second_a,
        suit_tie,
        (a.ace != b.ace) & ace_at[deals.positions].any(axis=1),
    ]
    order = ("wild_cards", "category_membership", "category_order", "suit_tiebreak", "ace_rule")
    causes = [CAUSES.index(c) for c in order]
    cause: IntArray = np.select(conditions, causes, default=CAUSES.index("rank_order")).astype(np.int64)
    return cause


def is_wild(ruleset: Ruleset, card: Card) -> bool:
    """A joker, a wild card or a card of a wild rank (as the generic evaluator reads ``wild:``)."""
    wild = ruleset.wild
    return card.rank is None or card in wild.cards or card.rank in wild.ranks


def _decoded(key: int, names: list[str]) -> FlipKey:
    """The group of a key of :func:`table_flips`."""
    count = len(names)
    key, outcome_b = divmod(key, 3)
    key, outcome_a = divmod(key, 3)
    key, second = divmod(key, count * count)
    cause, first = divmod(key, count * count)
    first_label = flip_label(names[first // count], names[first % count])
    second_label = flip_label(names[second // count], names[second % count])
    return CAUSES[cause], first_label, second_label, outcome_a - 1, outcome_b - 1
