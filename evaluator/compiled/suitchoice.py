"""The card one wild joker plays as, for every one-wild suit class at once.

A walk of every suit class (``suitvalues.py``) meets each holding of one wild
joker and four natural cards once, and the generic evaluator tries every card
of the deck in the joker's place (about forty natural hands each, half the
walk's time for a ruleset such as freak-hands). Each of those hands is a
natural class the walk has already valued. Here the choices of every such
holding are made together in NumPy: the natural cards plus each candidate card
are reduced to their class (the rank sets of the suits, sorted), the class's
score is read from the walk, and the first best candidate in the evaluator's
order is kept. The evaluator then plays only that card
(``Engine.wild_choices``), so the answer is the one its own loop finds.

Only plain cases go this way: one pack, jokers the only wild cards, standing
for any natural card, no pattern reading the wild cards held or naming a suit,
holdings of exactly the hand's size. Four naturals of one rank (five of a kind
with a repeated card) are left to the evaluator.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..rules.cards import Card
from .suitclasses import suit_classes

if TYPE_CHECKING:
    from ..engine.evaluate import Engine
    from ..engine.fill import Score
    from ..rules.ruleset import Rules


def applies(ruleset: Rules, engine: Engine, cards: int) -> bool:
    """True when the one-wild choices of ``cards``-card holdings can be made in bulk."""
    wild = ruleset.wild
    plain_wilds = wild.jokers and not (wild.cards or wild.ranks or wild.lowest_rank or wild.duplicates)
    return (
        plain_wilds
        and wild.plays_as_ranks is None
        and wild.plays_as_hands is None
        and ruleset.copies == 1
        and cards == ruleset.hand_size
        and not ruleset.best_subset
        and engine.needs_suits
        and not engine.reads_wilds
        and not engine.flush_needs_suit
        and engine.rank_count * len(ruleset.suits) <= 62  # a class's rank sets fit one int64
    )


class ClassCodes:
    """Natural classes by a code of their rank sets per suit (sorted, so a renaming of suits keeps it)."""

    def __init__(self, engine: Engine, suits: Sequence[str]) -> None:
        self.bits = engine.rank_count
        self.value_of = engine.value_of
        self.suit_index = {suit: i for i, suit in enumerate(suits)}

    def suits_and_bits(self, cards: Sequence[Card]) -> tuple[np.ndarray, np.ndarray]:
        """Each card's suit index and rank bit (a joker's are 0 and 1: no class holds one)."""
        suit = np.array([self.suit_index.get(card.suit or "", 0) for card in cards], dtype=np.int64)
        bit = np.array([1 << self.value_of.get(card.rank or "", 0) for card in cards], dtype=np.int64)
        return suit, bit

    def masks(self, cards: Sequence[Card], held: np.ndarray) -> np.ndarray:
        """(holdings, suits) rank bit masks of ``held`` (rows of indices into ``cards``)."""
        suit, bit = self.suits_and_bits(cards)
        found = np.zeros((len(held), len(self.suit_index)), dtype=np.int64)
        rows = np.arange(len(held))
        for column in range(held.shape[1]):
            found[rows, suit[held[:, column]]] |= bit[held[:, column]]  # one card a row per column
        return found

    def codes(self, masks: np.ndarray) -> np.ndarray:
        """One int64 per row of ``masks`` (last axis: suits), the same for every renaming of suits."""
        ordered = np.sort(masks, axis=-1)
        shifts = np.arange(masks.shape[-1], dtype=np.int64) * self.bits
        code: np.ndarray = (ordered << shifts).sum(axis=-1)
        return code


def one_wild_choices(
    ruleset: Rules, engine: Engine, cards: Sequence[Card], naturals: np.ndarray, scores: Sequence[Score | None]
) -> dict[tuple[Card, ...], Card]:
    """The card the joker plays as in each holding of one wild joker and ``hand size - 1`` natural
    cards, by those natural cards sorted by name (as ``engine.suited.choose_suited`` is asked).

    ``naturals``/``scores``: every natural class of the hand's size (rows of indices into
    ``cards``) and its score, as the walk valued them. Holdings whose every choice plays no hand,
    and four of one rank, are left out.
    """
    codes = ClassCodes(engine, ruleset.suits)
    known = codes.codes(codes.masks(cards, naturals))
    ordered = np.argsort(known)
    known_sorted = known[ordered]
    distinct = sorted({score for score in scores if score is not None})
    place = {score: i for i, score in enumerate(distinct)}
    strength = np.array([-1 if score is None else place[score] for score in scores], dtype=np.int64)[ordered]

    fours = [held for held, _ in suit_classes(ruleset, ruleset.hand_size - 1, False)]
    deck = engine.choice_deck
    index = {card: i for i, card in enumerate(deck)}
    masks = codes.masks(deck, np.array([[index[card] for card in held] for held in fours]))  # (holdings, suits)
    card_suit, card_bit = codes.suits_and_bits(deck)
    # suits no natural card holds are interchangeable: only the first of them (suit order) is tried
    preference = np.array([ruleset.suits.index(suit) for suit in engine.suit_preference])
    empty = masks[:, preference] == 0  # (holdings, suits by preference)
    first_empty = np.where(empty.any(axis=1), preference[np.argmax(empty, axis=1)], -1)
    value = np.full((len(fours), len(deck)), -2, dtype=np.int64)  # -2: a card not tried
    for column in range(len(deck)):  # one candidate at a time: a few MB, not (holdings x deck x suits)
        suit, bit = int(card_suit[column]), card_bit[column]
        tried = ((masks[:, suit] & bit) == 0) & ((masks[:, suit] != 0) | (first_empty == suit))
        grown = masks[tried]
        grown[:, suit] |= bit
        found = codes.codes(grown)
        at = np.minimum(np.searchsorted(known_sorted, found), len(known_sorted) - 1)
        if not np.array_equal(known_sorted[at], found):
            raise RuntimeError("internal error: a wild choice makes a class the walk has not valued")
        value[tried, column] = strength[at]
    best = np.argmax(value, axis=1)  # the first of equal best choices, as the evaluator's loop keeps
    playable = value[np.arange(len(fours)), best] >= 0
    one_rank = np.array([len({card.rank for card in held_cards}) == 1 for held_cards in fours])
    return {
        tuple(sorted(held_cards, key=str)): deck[int(choice)]
        for held_cards, choice, keep in zip(fours, best, playable & ~one_rank, strict=True)
        if keep
    }
