"""The pattern language's wild-card count: ``wilds OP n`` and ``natural``."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import evaluator
from evaluator.core.errors import PokerRulesError
from evaluator.draw.videopoker import category_of_strengths
from evaluator.rules.patterns import CategoryIs, Compare, Term, parse_pattern


def test_natural_is_wilds_equal_zero() -> None:
    assert parse_pattern("natural") == parse_pattern("wilds = 0")
    assert parse_pattern("wilds = 4") == Compare(Term("wilds"), "=", Term("rank", "4"))
    # names that start with a keyword stay names
    assert parse_pattern("natural_royal_flush") == CategoryIs("natural_royal_flush")


@pytest.mark.parametrize(
    ("hand", "category"),
    [
        ("Ah Kh Qh Jh Th", "natural_royal_flush"),
        ("Ah Kh Qh Jh 2c", "wild_royal_flush"),
        ("2s 2h 2d 2c As", "four_deuces"),  # not five aces, not a wild royal
        ("2s 2h 2d 2c 7s", "four_deuces"),
        ("2s 2h 2d Ac Ad", "five_of_a_kind"),
        ("2s 2h Kh Qh Jh", "wild_royal_flush"),
        ("9h 8h 7h 6h 5h", "straight_flush"),
    ],
)
def test_deuces_wild_video_categories(hand: str, category: str) -> None:
    assert evaluator.load("deuces-wild-video").evaluate(hand).category == category


def test_joker_poker_natural_and_wild_royal() -> None:
    joker = evaluator.load("joker-poker")
    assert joker.evaluate("Ah Kh Qh Jh Th").category == "natural_royal_flush"
    assert joker.evaluate("Ah Kh Qh Jh X").category == "wild_royal_flush"
    assert joker.evaluate("As Ah Ad Ac X").category == "five_of_a_kind"
    assert joker.evaluate("Ks 9h 7d 4c X").category == "kings_or_better"
    assert joker.compare("Ah Kh Qh Jh Th", "As Ah Ad Ac X") == 1


def _build(pattern: str, folder: Path) -> evaluator.Ruleset:
    text = f"""extends: standard
categories:
  special: {{pattern: "{pattern}"}}
order: [special, royal_flush, straight_flush, four_of_a_kind, full_house, flush, straight,
        three_of_a_kind, two_pair, pair, high_card]
"""
    path = folder / "special.yaml"
    path.write_text(text)
    return evaluator.load(str(path))


@pytest.mark.parametrize(
    ("pattern", "code", "col"),
    [
        ("wilds = X", "P211", 31),
        ("wilds >= top", "P211", 32),
        ("XX Y Z W & X = 0", "P101", 38),  # 0 and 1 are no ranks: a syntax error, as before
        ("wilds = wilds", "P212", 23),
        ("wilds = 7", "P213", 31),
    ],
)
def test_wild_count_errors_are_positioned(pattern: str, code: str, col: int, tmp_path: Path) -> None:
    with pytest.raises(PokerRulesError) as problem:
        _build(pattern, tmp_path)
    found = problem.value.first
    assert (found.code, found.line) == (code, 3), problem.value
    assert found.col == col, problem.value


def test_wilds_in_a_ruleset_without_wild_cards_means_natural(tmp_path: Path) -> None:
    ruleset = _build("flush & natural & top = A & run", tmp_path)
    assert ruleset.evaluate("Ah Kh Qh Jh Th").category == "special"


@pytest.mark.parametrize("name", ["deuces-wild-video", "joker-poker", "double-double-bonus"])
def test_compiled_tables_agree_with_the_generic_evaluator(name: str) -> None:
    ruleset = evaluator.load(name)
    deck = list(ruleset.deck)
    rng = random.Random(7)
    hands = [rng.sample(range(len(deck)), 5) for _ in range(3000)]
    # rare hands, dealt on purpose: four deuces, natural and wild royals, five of a kind
    specials = ["2s 2h 2d 2c As", "Ah Kh Qh Jh Th", "Ah Kh Qh Jh 2c", "As Ah Ad Ac 3s", "2s 2h 2d 2c 4h"]
    for text in specials:
        try:
            hands.append([deck.index(card) for card in ruleset.cards(text)])
        except PokerRulesError:
            continue  # a card this deck does not hold
    categories = category_of_strengths(ruleset, ruleset.rank_many(np.array(hands)))
    names = ruleset.category_names
    for ids, index in zip(hands, categories, strict=True):
        assert names[int(index)] == ruleset.evaluate([deck[i] for i in ids]).category
