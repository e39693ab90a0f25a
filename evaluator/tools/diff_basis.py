"""What two rulesets are compared on: the cards both decks hold and the rules that judge a showdown.

Shared by ``diff`` (:mod:`evaluator.tools.diff`), the showdown share
(:mod:`evaluator.tools.showdown_share`) and the flip census.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..core.errors import PokerRulesError
from ..rules.cards import Card

if TYPE_CHECKING:
    from ..engine.hand import Hand
    from ..ruleset import Ruleset


def hand_or_none(ruleset: Ruleset, cards: Sequence[Card]) -> Hand | None:
    """The hand ``cards`` make under ``ruleset`` (the generic engine), or None when no category matches.

    >>> from evaluator import load
    >>> from evaluator.rules.cards import parse_cards
    >>> hand_or_none(load("standard"), parse_cards("As Ks Qs Js Ts")).category
    'royal_flush'
    >>> hand_or_none(load("standard"), parse_cards("As Ks")) is None  # too few cards: no hand
    True
    """
    try:
        return ruleset.engine.evaluate(list(cards))
    except PokerRulesError:
        return None


def common_deck(a: Ruleset, b: Ruleset) -> list[Card]:
    """Every physical card both decks hold, copies included (the deck both rulesets permit)."""
    ranks = [rank for rank in a.deck_ranks if rank in b.deck_ranks]
    suits = [suit for suit in a.suits if suit in b.suits]
    copies = min(a.copies, b.copies)
    cards = [Card(rank, suit) for _ in range(copies) for rank in ranks for suit in suits]
    cards += [Card.joker(n) for n in range(1, min(a.jokers, b.jokers) + 1)]
    return cards


def rules_fingerprint(ruleset: Ruleset) -> tuple[Any, ...]:
    """Everything that decides a showdown (names, titles, descriptions excluded).

    Two rulesets with equal fingerprints judge every deal alike.
    """
    wild = ruleset.wild
    return (
        ruleset.deck_ranks,
        ruleset.suits,
        ruleset.jokers,
        ruleset.copies,
        ruleset.ace,
        ruleset.direction,
        ruleset.hand_size,
        ruleset.hand_min,
        tuple((c.name, c.pattern_text, c.key, c.strength) for c in ruleset.categories),
        (
            wild.cards,
            wild.ranks,
            wild.jokers,
            wild.lowest_rank,
            wild.duplicates,
            wild.plays_as_ranks,
            wild.plays_as_hands.text if wild.plays_as_hands is not None else None,
        ),
        ruleset.natural_beats_wild,
        ruleset.suit_order,
        ruleset.tiebreak,
        tuple((x.winner.text, x.loser.text) for x in ruleset.beats),
        ruleset.qualifier.text if ruleset.qualifier is not None else None,
        ruleset.game,
    )
