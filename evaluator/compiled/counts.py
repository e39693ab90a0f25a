"""What an exact count of deals is: the result type and the number of deals.

Shared by the class walk (``counting.py``), the tables' own counter and the
suit-class counter (``suitcount.py``), which all answer with a :class:`Counting`.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..rules.ruleset import Rules


@dataclass(frozen=True, slots=True)
class Counting:
    """The exact category table of every ``cards``-card deal of a ruleset's deck.

    ``counts`` and ``distinct`` list every category of the ruleset, highest first,
    zeros included. ``unplayable`` counts deals that make no hand at all (a joker
    that is not wild, categories that leave hands uncovered); it is 0 for every
    catalogue ruleset.
    """

    ruleset: str
    cards: int
    deals: int
    counts: dict[str, int]
    distinct: dict[str, int]
    unplayable: int
    classes: int  # how many classes were valued (a class met twice counts twice)

    @property
    def distinct_total(self) -> int:
        """The number of distinct hand values over all categories."""
        return sum(self.distinct.values())


def deal_count(ruleset: Rules, cards: int) -> int:
    """The number of ``cards``-card deals of the deck, every physical card distinct.

    With several packs the copies of a card are different physical cards, so this
    is ``C(deck size, cards)`` -- the sum over card multisets of
    ``prod C(packs, times held)``.

    Args:
        ruleset: the ruleset whose deck (all packs, jokers included) is dealt.
        cards: how many cards one deal holds.

    Returns:
        The number of deals; the category counts add up to it.

    >>> from evaluator import load
    >>> deal_count(load("standard"), 5)
    2598960
    >>> deal_count(load("two-decks"), 2)
    5356
    """
    if cards < 0:
        raise ValueError("cards must be 0 or more")
    return comb(ruleset.deck_size, cards)
