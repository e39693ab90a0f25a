"""Bugs the generated-ruleset conformance suite found, each pinned by a small test.

Each file here is the smallest ruleset found that showed the bug (the
suite itself is ``tests/test_conformance.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from evaluator.odds.outs import outs
from evaluator.rules.cards import Card
from evaluator.ruleset import load
from evaluator.tools.check import check_file

pytestmark = pytest.mark.usefixtures("table_cache")


def write(folder: Path, text: str) -> Path:
    path = folder / "found.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_cards_sort_with_jokers() -> None:
    """Card ordering compared a joker's missing rank with a rank (TypeError): jokers sort last."""
    assert sorted([Card.joker(2), Card("K", "s"), Card.joker(1), Card("A", "h")]) == [
        Card("A", "h"),
        Card("K", "s"),
        Card.joker(1),
        Card.joker(2),
    ]
    assert sorted([Card("T", "s"), Card("2", "h"), Card("2", "c")]) == [Card("2", "c"), Card("2", "h"), Card("T", "s")]


def test_outs_in_a_deck_with_jokers() -> None:
    """outs sorted the cards left in the deck, the joker among them."""
    result = outs(load("joker-poker"), ["As Ks", "Qd Qh"], board="2c 7d 9h")
    behind = result.players[0]
    # an ace or a king pairs a hole card; the joker would help both players
    assert behind.behind and {str(out.card) for out in behind.outs} == {"Ac", "Ad", "Ah", "Kc", "Kd", "Kh"}


def test_check_names_a_hand_holding_a_wild_rank(tmp_path: Path) -> None:
    """Reachability examples may hold a wild deuce standing for itself; check crashed (R199)
    looking for a natural suit of a rank that has none."""
    path = write(
        tmp_path,
        "name: found\nextends: standard\ndeck: {ranks: [2, 3, 4, 5, 6]}\nwild: {ranks: [2]}\n"
        'categories:\n  corner_straight: {pattern: "run(wrap)"}\n'
        "order: [four_of_a_kind, straight_flush, full_house, flush, corner_straight, straight,\n"
        "        three_of_a_kind, two_pair, pair, high_card]\n",
    )
    found = check_file(path)
    assert [d.code for d in found if d.severity == "error"] == []
    assert any(d.code == "W103" and "2s" in d.message for d in found)


def test_a_showdown_sees_suit_forms_in_every_subset() -> None:
    """The generic showdown classified board subsets by their ranks alone, so patterns that
    read suits inside the hand (``flush(k)``, ``run(k, flush)``) never matched there, and the
    fast path (which is right) disagreed with it."""
    from evaluator.engine.showdown import best_hand, showdown

    four_flush = load("four-flush")  # a four flush ranks above a pair
    # by ranks alone A-K-Q-2-2 (a pair) beats A-K-Q-J-3 (high card): the four flush was never tried
    assert best_hand(four_flush, "Ah Kh", "Qh Jh 2s 2c 3d").category == "four_flush"
    assert showdown(four_flush, ["Ah Kh", "Ac Kc"], "Qh Jh 2s 2c 3d").winners == [0]  # not a tie of two pairs of twos


def test_suits_compares_with_one(tmp_path: Path) -> None:
    """``suits = 1`` (every card of one suit) was a syntax error: 1 read only as a count of wild cards."""
    path = write(
        tmp_path,
        "name: found\nextends: badugi\ncategories:\n"
        '  one_card_hand: {pattern: "X & suits = 1"}\n  suited_pair: {pattern: "X Y & suits <= 1"}\n'
        "order: [one_card_hand, suited_pair, two_card_hand, three_card_hand, four_card_hand]\n",
    )
    assert [d.code for d in check_file(path) if d.severity == "error"] == []
    rules = load(path)
    assert rules.evaluate("Kh Qh").category == "suited_pair"
    assert rules.evaluate("Kh Qd").category == "two_card_hand"


RAINBOW = """\
name: found
extends: standard
deck: {jokers: 2}
hand: {size: 4, min: 4}
categories:
  rainbow: {pattern: "X Y Z W & suits = 4"}
  four: {pattern: "XXXX"}
  three: {pattern: "XXX Y"}
  pairs: {pattern: "XX YY"}
  nothing: {pattern: "X Y Z W"}
  one_pair: {pattern: "XX Y Z"}
order: [rainbow, four, three, pairs, nothing, one_pair]
"""


def test_wild_cards_may_take_several_free_suits(tmp_path: Path) -> None:
    """The engine let every wild card take only one of the suits no natural card holds, so two
    jokers could never make a hand of four suits."""
    rules = load(write(tmp_path, RAINBOW))
    assert rules.evaluate("Ah 2d X X2").category == "rainbow"
    assert rules.evaluate("Ah 3h X X2").category == "three"  # two hearts: four suits are out of reach


def test_tables_stop_where_the_evaluator_fills_wild_cards(tmp_path: Path) -> None:
    """With patterns that read suits inside the hand the evaluator fills wild cards with real
    cards and refuses more of them than rank-filling rulesets allow; the tables were built up
    to the rank-filling count and their build stopped with C105. Both now stop at one count."""
    from evaluator.compiled.tables import tables_for
    from evaluator.core.errors import CardError
    from evaluator.engine.evaluate import engine_for
    from evaluator.engine.showdown import compare

    path = write(
        tmp_path, "name: found\nextends: four-flush\ndeck: {ranks: [9, T, J, Q, K, A], jokers: 1}\nwild: {ranks: [9]}\n"
    )
    rules = load(path)
    assert engine_for(rules).wild_limit == 4
    tables_for(rules)
    with pytest.raises(CardError, match="C105"):
        engine_for(rules).evaluate(rules.cards("9s 9h 9d 9c X"))
    with pytest.raises(CardError, match="C105"):
        rules.rank(rules.encode("9s 9h 9d 9c X"))
    hands = ["9s 9h 9d Ac X", "As Ks Qs Js 9d", "Ah Kh Qh Th Jc", "Td Tc 9h Kd X"]
    for a in hands:
        for b in hands:
            assert (
                rules.compare(a, b)
                == compare(rules, a, b)
                == (rules.rank(rules.encode(a)) > rules.rank(rules.encode(b)))
                - (rules.rank(rules.encode(a)) < rules.rank(rules.encode(b)))
            )


def test_lowball_breakdown_of_a_deck_with_two_jokers(tmp_path: Path) -> None:
    """stats read the second joker (X2) as a rank "X" when it named a low by its top card."""
    from evaluator.cli.main import main

    path = write(tmp_path, "name: found\nextends: ace-to-five\ndeck: {ranks: [9, T, J, Q, K, A], jokers: 2}\n")
    assert main(["stats", str(path), "--json"]) == 0
