"""The data of a flip census (see :mod:`evaluator.tools.flips`): causes, groups, JSON form.

Shared by the counting modules (:mod:`evaluator.tools.flips`,
:mod:`evaluator.tools.flips_exact`, :mod:`evaluator.tools.flips_sampled`) and the
reports, which only read a finished census.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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

DEFAULT_FLIP_SAMPLES = 20_000
ROWS_PER_BLOCK = 64  # rank classes judged against the later parts in one block (more: only memory, no speed)
COLUMNS_PER_JUDGING = 4096  # parts a block's rows are judged against at once: bounds the flips in hand


def flip_label(category_a: str, category_b: str) -> str:
    """The category label of a hand in a flip: one name when both rulesets agree, else "a / b".

    >>> flip_label("pair", "pair"), flip_label("high_card", "four_flush")
    ('pair', 'high_card / four_flush')
    """
    return category_a if category_a == category_b else f"{category_a} / {category_b}"


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
    population: int  # unordered pairs of hands that share no card
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
