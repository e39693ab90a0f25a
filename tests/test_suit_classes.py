"""Suit classes as the walks enumerate them, against every hand dealt by brute force.

A walk values each class once and counts it as many times as its weight says; it
reads the class's key (rank values, flush suit, suits held) from the class's rank
sets instead of from its cards. Here every hand of a deck is keyed card by card
through the generic evaluator's own ``class_key`` and counted: the classes must
be exactly those keys, each weighing the number of hands that have it.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from evaluator import load
from evaluator.compiled.suitclasses import class_sets, held_cards, holdings_by_sets, sets_class_key, suit_classes
from evaluator.engine.evaluate import ClassKey, Engine, engine_for
from evaluator.ruleset import Ruleset

# a pattern that names a suit: each assignment of rank sets to suits is its own class
NAMED = """
extends: standard
deck: {ranks: [9, T, J, Q, K, A]}
categories:
  heart_run: {pattern: "run(3, flush) & suit = h", describe: "heart run"}
order: [royal_flush, straight_flush, heart_run, four_of_a_kind, full_house, flush, straight,
        three_of_a_kind, two_pair, pair, high_card]
"""

# whole five-card hands (flushes among them) of 32 cards: 201,376 hands by brute force
SHORT = """
extends: four-flush
deck: {ranks: [7, 8, 9, T, J, Q, K, A]}
"""

# a wild rank and dead jokers: holdings that are not all natural carry no rank sets
WILD = """
extends: four-flush
deck: {ranks: [8, 9, T, J, Q, K, A], jokers: 2}
wild: {ranks: ["8"]}
"""


def written(tmp_path: Path, name: str, text: str) -> Ruleset:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"name: {name}\n{text}")
    return load(str(path))


def brute_force(ruleset: Ruleset, cards: int) -> Counter[object]:
    """Every hand of ``cards`` natural cards, counted by the engine's key of its cards."""
    engine = engine_for(ruleset)
    deck = [card for card in dict.fromkeys(ruleset.deck) if not card.is_joker]
    return Counter(blind(engine, engine.class_key(list(hand), 0)) for hand in combinations(deck, cards))


def blind(engine: Engine, key: ClassKey) -> ClassKey:
    """``key`` with the flush's suit left unnamed when no pattern names a suit (a class stands
    for the flushes of every suit, and takes the name of the first)."""
    ranks, flush_suit, wilds, suited = key
    if engine.flush_needs_suit or flush_suit is None:
        return key
    return ranks, "", wilds, suited


def walked(ruleset: Ruleset, cards: int, names_matter: bool) -> Counter[object]:
    """The classes :func:`class_sets` yields, by the key read from their rank sets."""
    engine = engine_for(ruleset)
    found: Counter[object] = Counter()
    for sets, weight in class_sets(ruleset, cards, names_matter):
        key = sets_class_key(engine, held_cards(sets), sets)
        assert key not in found, f"two classes share the key {key}"
        assert key == engine.class_key(held_cards(sets), 0), "the key of the sets is the key of the cards"
        found[blind(engine, key)] = weight
    return found


@pytest.mark.parametrize("cards", [1, 2, 3, 4])
def test_the_classes_of_a_suit_blind_deck_are_every_hand_keyed_once(cards: int) -> None:
    ruleset = load("four-flush")
    assert walked(ruleset, cards, False) == brute_force(ruleset, cards)


def test_whole_hands_of_a_short_deck_flushes_included(tmp_path: Path) -> None:
    ruleset = written(tmp_path, "short", SHORT)
    assert walked(ruleset, 5, False) == brute_force(ruleset, 5)


@pytest.mark.parametrize("cards", [2, 3, 4])
def test_with_named_suits_every_assignment_is_a_class(tmp_path: Path, cards: int) -> None:
    ruleset = written(tmp_path, "named", NAMED)
    assert engine_for(ruleset).flush_needs_suit
    assert walked(ruleset, cards, True) == brute_force(ruleset, cards)


def test_the_cards_of_a_class_are_its_sets_suit_by_suit() -> None:
    ruleset = load("standard")
    classes = list(suit_classes(ruleset, 4, False))
    assert [cards for cards, _ in classes] == [held_cards(sets) for sets, _ in class_sets(ruleset, 4, False)]
    for cards, _ in classes[:: len(classes) // 50]:
        by_suit = [[card.rank for card in cards if card.suit == suit] for suit in ruleset.suits]
        nonempty = [ranks for ranks in by_suit if ranks]
        assert by_suit[: len(nonempty)] == nonempty, "the sets fill the deck's suits in order"


def test_only_holdings_of_natural_cards_carry_their_sets(tmp_path: Path) -> None:
    ruleset = written(tmp_path, "wild", WILD)
    naturals = {card for card in ruleset.deck if not card.is_joker and card.rank != "8"}
    seen = Counter[bool]()
    for held, weight, sets in holdings_by_sets(ruleset, 3):
        natural = all(card in naturals for card in held)
        assert (sets is not None) == natural
        if sets is not None:
            assert held_cards(sets) == held
        seen[natural] += weight
    assert seen[True] == len(list(combinations(sorted(naturals), 3)))
    assert sum(seen.values()) == len(list(combinations(range(len(ruleset.deck)), 3)))
