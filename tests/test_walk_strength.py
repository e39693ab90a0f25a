"""The rank-class step of a suit-class build reads its strengths from the suit-class walk
(``compiled/walkstrength.py``): every answer it gives is the generic evaluator's, it
answers the hands the build asks about, and the tables built with it are the tables
built without it."""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from evaluator import load
from evaluator.compiled import tables as tables_module
from evaluator.compiled import walkstrength
from evaluator.compiled.suitvalue_cache import suit_values
from evaluator.compiled.table_cache import _payload
from evaluator.compiled.table_layout import value_part
from evaluator.compiled.walkstrength import WalkStrengths
from evaluator.engine.evaluate import engine_for
from evaluator.rules.cards import Card
from evaluator.ruleset import Ruleset

SHORT = "deck: {{ranks: [9, T, J, Q, K, A], suits: [s, h, d, c], jokers: {jokers}}}\n"
FREAKS = """categories:
  four_flush: {pattern: "flush(4)", describe: "four flush"}
  bobtail: {pattern: "run(3, flush)", describe: "{top}-high bobtail"}
order: [five_of_a_kind, royal_flush, straight_flush, four_of_a_kind, full_house, flush, straight, bobtail,
        three_of_a_kind, two_pair, four_flush, pair, high_card]
"""
RULESETS = {
    # a wild joker: every card tried for it, as freak-hands
    "joker": "extends: standard\n" + SHORT.format(jokers=1) + "wild: {jokers: true}\n" + FREAKS,
    # a wild joker, and a category that names a suit: suits are not interchangeable
    "hearts": "extends: standard\n"
    + SHORT.format(jokers=1)
    + "wild: {jokers: true}\n"
    + FREAKS.replace("order: [", "order: [hearts, ").replace(
        "categories:\n", 'categories:\n  hearts: {pattern: "flush & suit = h", describe: "hearts"}\n'
    ),
    # nines wild beside the joker: the walk holds wild nines the build never asks about
    "nines": "extends: standard\n" + SHORT.format(jokers=1) + "wild: {jokers: true, ranks: ['9']}\n" + FREAKS,
}


@pytest.fixture(scope="module")
def rulesets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Ruleset]:
    folder: Path = tmp_path_factory.mktemp("walk-strength")
    for name, text in RULESETS.items():
        (folder / f"{name}.yaml").write_text(f"name: walk-{name}\n{text}", encoding="utf-8")
    return {name: load(folder / f"{name}.yaml") for name in RULESETS}


def known(ruleset: Ruleset) -> WalkStrengths:
    sizes = range(max(ruleset.hand_min, 1), ruleset.hand_size + 1)
    return WalkStrengths(ruleset, engine_for(ruleset), [suit_values(ruleset, k) for k in sizes])


def generic(ruleset: Ruleset, naturals: list[Card], wilds: list[Card]) -> object:
    fill = engine_for(ruleset).fill([*naturals, *wilds], [False] * len(naturals) + [True] * len(wilds))
    return None if fill is None else value_part(fill.strength)


@pytest.mark.parametrize("name", list(RULESETS))
def test_every_answer_is_the_generic_evaluators(rulesets: dict[str, Ruleset], name: str) -> None:
    ruleset = rulesets[name]
    lookup = known(ruleset)
    assert lookup.usable
    naturals = [card for card in ruleset.deck if not card.is_joker and card.rank not in ruleset.wild.ranks]
    rng = random.Random(7)
    answered = 0
    for jokers in range(ruleset.jokers + 1):
        wilds = [Card.joker(n + 1) for n in range(jokers)]
        hands = list(combinations(naturals, 5 - jokers))
        for hand in rng.sample(hands, min(400, len(hands))):
            found, strength = lookup.strength(list(hand), wilds)
            assert found, (hand, wilds)  # every such hand is a walked class
            assert strength == generic(ruleset, list(hand), wilds), (hand, wilds)
            answered += 1
    assert answered > 400


def test_hands_that_are_no_walked_class_are_left_to_the_evaluator(rulesets: dict[str, Ruleset]) -> None:
    ruleset = rulesets["nines"]
    lookup = known(ruleset)
    ace, king, queen, jack, ten = (Card(rank, "s") for rank in "AKQJT")
    assert lookup.strength([ace, king, queen, jack], [Card.joker(1)])[0]
    # a wild nine held as a natural card, more jokers than the deck has, a card from outside the deck
    assert lookup.strength([ace, king, queen, Card("9", "s")], [Card.joker(1)]) == (False, None)
    assert lookup.strength([ace, king, queen], [Card.joker(1), Card.joker(2)]) == (False, None)
    assert lookup.strength([ace, king, queen, jack, Card("2", "s")], []) == (False, None)
    assert not known(load("badugi")).usable  # its best subset is chosen among subsets: not one class


@pytest.mark.parametrize("name", ["joker", "nines"])  # (a named suit is not built by suit class)
def test_the_tables_are_those_built_without_the_walk(
    rulesets: dict[str, Ruleset], name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ruleset = rulesets[name]
    asked: list[tuple[bool, int]] = []
    original = WalkStrengths.strength

    def counted(self: WalkStrengths, naturals: list[Card], wilds: list[Card]) -> tuple[bool, object]:
        found = original(self, naturals, wilds)
        asked.append((found[0], len(wilds)))
        return found

    monkeypatch.setattr(WalkStrengths, "strength", counted)
    with_walk = _payload(tables_module.build_tables(ruleset))
    # every rank class is read from the walk, but those with more wild cards than the deck has
    # jokers (wild nines stand in as jokers in the build, the walk holds them as nines)
    assert len(asked) > 100
    assert all(found == (wilds <= ruleset.jokers) for found, wilds in asked)
    monkeypatch.setattr(walkstrength, "KEY_BITS", 0)  # no key fits: every class played again
    without = _payload(tables_module.build_tables(ruleset))
    assert set(with_walk) == set(without)
    for key, array in without.items():
        assert np.array_equal(with_walk[key], array), key
