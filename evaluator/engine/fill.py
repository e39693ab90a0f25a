"""What an evaluation finds: the class of a hand in its category, and the cards that make it.

:class:`Classification` and :class:`Fill` are plain results of
:mod:`evaluator.engine.evaluate`; :class:`~evaluator.engine.hand.Hand` wraps a
:class:`Fill` for users. They live here, below both, so that neither module
needs the other's types.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..rules.cards import Card
from ..rules.patterns import Binding, HandClass

if TYPE_CHECKING:
    from ..rules.ruleset import Category


Score = tuple[bool, tuple[int, ...]]  # qualifies, then the score: what decides between two hands


# not frozen: a frozen dataclass sets each field through object.__setattr__, a good part of what a
# walk of every suit class spends making these; nothing assigns to one (the memos share them)
@dataclass(slots=True, unsafe_hash=True)
class Classification:
    """A hand class placed in its category, with the value that orders it."""

    category: Category
    hand_class: HandClass
    binding: Binding
    value: tuple[int, ...]  # (category strength, key...) as in high poker
    score: tuple[int, ...]  # value oriented so that bigger wins in this ruleset
    qualifies: bool


#: The engine's sort key of played cards for a classification (groups first, high to low).
OrderKey = Callable[[Classification], Callable[[Card], tuple[int, int, int]]]


class Fill:
    """The best way a set of cards plays: each card with what it plays as.

    Only ``strength`` is computed up front: best-of-N compares many fills and
    keeps one, so the playing order of the cards is worked out on demand.
    """

    __slots__ = ("classification", "naturals", "wilds", "played", "strength", "_order", "_order_key")

    def __init__(
        self,
        order_key: OrderKey,
        classification: Classification,
        naturals: Sequence[Card],
        wilds: Sequence[Card],
        played: Sequence[Card],
        strength: tuple[tuple[int, ...], ...],
    ) -> None:
        self._order_key = order_key  # the engine's play_order_key
        self.classification = classification
        self.naturals = naturals
        self.wilds = wilds
        self.played = played  # what each wild stands for, in the order of ``wilds``
        self.strength = strength
        self._order: list[tuple[Card, Card, bool]] | None = None

    def _ordered(self) -> list[tuple[Card, Card, bool]]:
        if self._order is None:
            pairs = [(card, card, False) for card in self.naturals]
            pairs += [(card, as_card, True) for card, as_card in zip(self.wilds, self.played, strict=False)]
            key = self._order_key(self.classification)
            pairs.sort(key=lambda pair: key(pair[1]))
            self._order = pairs
        return self._order

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards held, in playing order (groups first, high to low)."""
        return tuple(card for card, _, _ in self._ordered())

    @property
    def played_as(self) -> tuple[Card, ...]:
        """What each card of :attr:`cards` stands for (wilds filled in)."""
        return tuple(card for _, card, _ in self._ordered())

    @property
    def is_wild(self) -> tuple[bool, ...]:
        """Which of :attr:`cards` are wild."""
        return tuple(flag for _, _, flag in self._ordered())

    @property
    def wild_count(self) -> int:
        """How many wild cards play."""
        return len(self.wilds)


def score_of(found: Classification | None) -> Score | None:
    """What decides between two hands of a classification (None: no hand)."""
    return None if found is None else (found.qualifies, found.score)
