"""What makes a ruleset that builds unusable all the same: jokers that can never play,
and ``game.split`` halves that cannot be loaded.

Both ``pokerrules check`` and ``load`` ask these questions of a built ruleset
(the facade adds the tables' width, ``compiled/table_layout.too_wide``), so a
file ``check`` refuses is refused by ``load`` with the same code, position and
reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import Diagnostic, PokerRulesError
from .cards import Card
from .place import place_of

if TYPE_CHECKING:
    from .ruleset import Rules


def dead_jokers(ruleset: Rules, source: str | None = None) -> list[Diagnostic]:
    """R114: jokers in the deck that are not wild can never play (a hand holding one
    matches no category). ``source`` is the file being checked (default: the ruleset's own).

    >>> from evaluator.rules.build import load_rules
    >>> dead_jokers(load_rules("joker-poker"))
    []
    """
    if not ruleset.jokers or ruleset.wild.jokers:
        return []
    document = ruleset.document
    source = source if source is not None else (document.sources[0] if document.sources else "")
    count = ruleset.jokers
    example = " ".join(str(card) for card in [Card.joker(1), *_top_naturals(ruleset)])
    # The choice that makes them dead is wild.jokers: false (jokers are wild by default).
    where, note = place_of(document, source, ("wild", "jokers"), ("deck", "jokers"), ("deck",))
    return [
        Diagnostic(
            "R114",
            f"the deck has {count} joker{'s' * (count > 1)} that {'are' if count > 1 else 'is'} "
            f"not wild, so a hand holding one (e.g. {example}) matches no category{note}",
            where.source,
            where.line,
            where.col,
            "error",
            "set wild.jokers: true, or deck.jokers: 0",
        )
    ]


def _top_naturals(ruleset: Rules) -> list[Card]:
    """The highest natural ranks, one card each, for the rest of a hand (suits rotated)."""
    wild = ruleset.wild
    cards: list[Card] = []
    for symbol in reversed(ruleset.rank_symbols):
        if len(cards) == ruleset.hand_size - 1:
            break
        if symbol in wild.ranks:
            continue
        suits = [suit for suit in ruleset.suits if Card(symbol, suit) not in wild.cards]
        if suits:
            cards.append(Card(symbol, suits[len(cards) % len(suits)]))
    return cards


def split_targets(ruleset: Rules) -> list[Diagnostic]:
    """Each ``game.split`` ruleset loaded as a showdown would load it (confined like ``extends:``):
    the problems of those that cannot be."""
    from .build import load_split_half

    game = ruleset.game
    found: list[Diagnostic] = []
    for index, split in enumerate(game.split if game is not None else ()):
        if split.ruleset is None:
            continue  # a card half, or this ruleset itself
        try:
            load_split_half(ruleset.document, index, split.ruleset)
        except PokerRulesError as problem:
            found += problem.diagnostics
    return found
