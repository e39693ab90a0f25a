"""The typed, immutable Rules a ruleset file builds to, and the parts it is made of.

Every stage below the facade works on :class:`Rules`; the facade
:class:`evaluator.Ruleset` is a ``Rules`` with the methods of those stages.
How a document becomes a ``Rules`` (ordering ranks under the ace rule,
parsing patterns, resolving names, every problem positioned) is
:mod:`evaluator.rules.build`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .cards import Card
from .load import Document
from .patterns import Matcher, Pattern


@dataclass(frozen=True, slots=True)
class Category:
    """One hand category: its pattern, matcher, tie-break key and description."""

    name: str
    pattern_text: str
    pattern: Pattern
    matcher: Matcher
    key: tuple[str, ...]
    describe: str
    strength: int  # higher is a better category (the first in `order` is highest)


@dataclass(frozen=True, slots=True)
class CompiledPattern:
    """A pattern used outside the categories (qualifier, beats, plays_as)."""

    text: str
    pattern: Pattern
    matcher: Matcher


@dataclass(frozen=True, slots=True)
class WildRules:
    """Which cards are wild and what they may stand for."""

    cards: frozenset[Card] = frozenset()
    ranks: frozenset[str] = frozenset()
    jokers: bool = False
    lowest_rank: bool = False
    duplicates: bool = False
    plays_as_ranks: frozenset[str] | None = None  # None: unrestricted
    plays_as_hands: CompiledPattern | None = None

    @property
    def any(self) -> bool:
        """True when the ruleset has wild cards at all."""
        return bool(self.cards or self.ranks or self.jokers or self.lowest_rank)

    @property
    def restricted(self) -> bool:
        """True when wilds may not stand for just anything (the bug)."""
        return self.plays_as_ranks is not None


@dataclass(frozen=True, slots=True)
class Beat:
    """A non-transitive exception: a hand matching ``winner`` beats one matching ``loser``."""

    winner: CompiledPattern
    loser: CompiledPattern


@dataclass(frozen=True, slots=True)
class Split:
    """One half of a split pot: its name and the ruleset that judges it."""

    name: str
    ruleset: str


@dataclass(frozen=True, slots=True)
class Game:
    """How cards are dealt and used: hole cards, board, and what must play."""

    hole: int
    board: int
    use_hole: int | None
    use_board: int | None
    boards: int
    split: tuple[Split, ...]
    odd_chip: str


@dataclass(frozen=True, slots=True)
class Example:
    """One executable example with its position in the file."""

    value: Any  # a string or a mapping
    line: int
    col: int


class Rules:
    """A built ruleset, as data. Immutable: every attribute is fixed when it is built.

    Every stage below the facade works on this; :class:`evaluator.Ruleset`
    is a ``Rules`` with the methods of those stages.

    >>> from evaluator.rules.build import load_rules
    >>> rules = load_rules("standard")
    >>> rules.hand_size, rules.category_names[0]
    (5, 'royal_flush')
    """

    def __init__(self, **fields: Any) -> None:
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        if name in ("engine",) or name.startswith("_cache"):
            object.__setattr__(self, name, value)
            return
        raise AttributeError("a ruleset is immutable")

    # fields, set by build_ruleset()
    name: str
    title: str
    source_note: str
    path: Path | None
    document: Document
    deck_ranks: tuple[str, ...]  # as written, low -> high
    rank_symbols: tuple[str, ...]  # strength order under the ace rule, weakest first
    suits: tuple[str, ...]
    jokers: int
    copies: int
    ace: str
    direction: str
    hand_size: int
    hand_min: int
    categories: tuple[Category, ...]
    wild: WildRules
    natural_beats_wild: bool
    suit_order: tuple[str, ...]  # high -> low
    tiebreak: str
    beats: tuple[Beat, ...]
    qualifier: CompiledPattern | None
    game: Game | None
    examples: tuple[Example, ...]
    data: dict[str, Any]
    # hand.best_subset: the hand is the best subset (hand.min to hand.size cards)
    # that matches a category, as badugi plays
    best_subset: bool = False

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"

    @property
    def deck(self) -> tuple[Card, ...]:
        """Every distinct card of the deck (one of each, jokers last)."""
        cards = [Card(rank, suit) for rank in self.deck_ranks for suit in self.suits]
        cards += [Card.joker(n) for n in range(1, self.jokers + 1)]
        return tuple(cards)

    @property
    def deck_size(self) -> int:
        """Number of cards in the deck, all packs counted."""
        return len(self.deck_ranks) * len(self.suits) * self.copies + self.jokers

    @property
    def category_names(self) -> tuple[str, ...]:
        """Category names in order, highest first."""
        return tuple(category.name for category in self.categories)

    def category(self, name: str) -> Category:
        """The category called ``name``."""
        for category in self.categories:
            if category.name == name:
                return category
        raise KeyError(name)
