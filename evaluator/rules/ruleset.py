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
class Follow:
    """Wild cards that follow a card (Follow the Queen): every card of ``rank`` dealt face up
    makes the rank of the next card dealt face up wild, the last such card deciding.

    ``trigger_wild``: the trigger rank is wild itself in every deal (it is then also
    among the static ``WildRules.ranks``). ``follower``: ``all`` (the follower's rank
    is wild for every player) or ``holder`` (only for the player dealt the follower).
    """

    rank: str
    trigger_wild: bool = True
    follower: str = "all"


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
    follow: Follow | None = None  # wild cards that follow a card dealt face up (resolved per deal)
    lowest_down: bool = False  # each player's lowest face-down rank is wild for them (resolved per deal)

    @property
    def any(self) -> bool:
        """True when the ruleset has wild cards at all (static ones; see ``by_deal``)."""
        return bool(self.cards or self.ranks or self.jokers or self.lowest_rank)

    @property
    def by_deal(self) -> bool:
        """True when some wild cards are decided by the deal (the order and faces of the cards)."""
        return self.follow is not None or self.lowest_down

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
class CardHalf:
    """A pot half won by a card rather than a hand (Chicago: the highest spade in the hole).

    ``suit`` (None: any suit), ``face``: ``down``, ``up`` or ``any``; ``pick``:
    ``highest`` or ``lowest`` by rank (``ace``: ``high`` or ``low``).
    """

    suit: str | None
    face: str = "down"
    pick: str = "highest"
    ace: str = "high"


@dataclass(frozen=True, slots=True)
class Split:
    """One half of a split pot: its name and what judges it.

    ``ruleset``: the ruleset that ranks the half's hands (None: this ruleset
    itself); ``card``: a card half instead (see :class:`CardHalf`).
    """

    name: str
    ruleset: str | None
    card: CardHalf | None = None


@dataclass(frozen=True, slots=True)
class Street:
    """What one street deals: face-down and face-up cards to each player, then board cards."""

    down: int = 0
    up: int = 0
    board: int = 0


@dataclass(frozen=True, slots=True)
class Extra:
    """An extra card triggered by a card dealt (Baseball: a four dealt face up buys a card).

    A card of ``rank`` dealt with ``face`` (``up``, ``down`` or ``any``) gives its
    player one more card at once, dealt ``gives`` (``down`` or ``up``).
    """

    rank: str
    face: str = "up"
    gives: str = "down"


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
    streets: tuple[Street, ...] = ()  # empty: the hole cards face down, then the board
    extra: tuple[Extra, ...] = ()
    declare: str | None = None  # hi-lo declare: what a player declaring every half must do (win | win_or_tie)
    runs: int = 1  # run it twice: the board's missing cards are dealt this many times

    @property
    def dealing(self) -> tuple[Street, ...]:
        """The streets, or the default ones: every hole card face down, then the whole board."""
        if self.streets:
            return self.streets
        return tuple(s for s in (Street(down=self.hole), Street(board=self.board)) if s.down or s.board)

    @property
    def card_halves(self) -> bool:
        """True when some half of the pot goes by a card (Chicago)."""
        return any(split.card is not None for split in self.split)


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
    # a Rules derived from another for one deal's wild cards (see evaluator.deal.resolve)
    variant_of: Rules | None = None

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

    @property
    def by_deal(self) -> bool:
        """True when the outcome depends on how the cards were dealt: wild cards decided by
        the deal, extra cards, a card half, hi-lo declare or run it twice. Such games
        are settled by :mod:`evaluator.deal` from a deal in dealing order."""
        game = self.game
        return self.wild.by_deal or (
            game is not None and bool(game.extra or game.card_halves or game.declare or game.runs > 1)
        )

    def category(self, name: str) -> Category:
        """The category called ``name``."""
        for category in self.categories:
            if category.name == name:
                return category
        raise KeyError(name)
