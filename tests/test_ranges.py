"""Hand ranges: every PokerStove form, weights, the deck's ranks, positioned errors, card removal."""

from __future__ import annotations

from itertools import combinations

import pytest

from evaluator import load
from evaluator.core.errors import PokerRulesError
from evaluator.odds.odds import odds, prepare
from evaluator.odds.ranges import parse_range
from evaluator.rules.cards import Card

SUITS = "shdc"


def names(text: str, ruleset: str = "holdem") -> set[frozenset[str]]:
    return {frozenset(str(card) for card in combo) for combo in parse_range(load(ruleset), text).combos}


def pairs(*ranks: str) -> set[frozenset[str]]:
    return {frozenset({r + a, r + b}) for r in ranks for a, b in combinations(SUITS, 2)}


def two(high: str, low: str, suited: bool | None) -> set[frozenset[str]]:
    return {frozenset({high + a, low + b}) for a in SUITS for b in SUITS if suited is None or (a == b) == suited}


def test_pairs_and_plus() -> None:
    assert names("QQ") == pairs("Q")
    assert names("QQ+") == pairs("Q", "K", "A")
    assert len(names("22+")) == 78
    assert names("88-TT") == names("TT-88") == pairs("8", "9", "T")


def test_suited_offsuit_and_both() -> None:
    assert names("AKs") == two("A", "K", True) and len(names("AKs")) == 4
    assert names("AKo") == two("A", "K", False) and len(names("AKo")) == 12
    assert names("AK") == two("A", "K", None) and len(names("AK")) == 16
    assert names("ka") == names("AK")  # either order, any case


def test_plus_raises_the_kicker_below_the_top_rank() -> None:
    assert names("KQs+") == two("K", "Q", True)
    assert names("KTs+") == two("K", "T", True) | two("K", "J", True) | two("K", "Q", True)
    assert names("A2o+") == set().union(*(two("A", r, False) for r in "23456789TJQK"))


def test_spans() -> None:
    assert names("A5s-A2s") == set().union(*(two("A", r, True) for r in "2345"))
    assert names("T9s-65s") == set().union(*(two(h, low, True) for h, low in ["T9", "98", "87", "76", "65"]))
    assert names("J9o-75o") == set().union(*(two(h, low, False) for h, low in ["J9", "T8", "97", "86", "75"]))


def test_explicit_cards_random_and_lists() -> None:
    assert names("AhKh") == {frozenset({"Ah", "Kh"})}
    assert names("random") == names("*") == {frozenset()}
    assert names("QQ+, AKs, 7h6h") == pairs("Q", "K", "A") | two("A", "K", True) | {frozenset({"7h", "6h"})}


def test_weights_and_repeats() -> None:
    hand = parse_range(load("holdem"), "QQ:0.5, AKs, QhQs")
    weights = {frozenset(map(str, combo)): w for combo, w in zip(hand.combos, hand.weights, strict=True)}
    assert weights[frozenset({"Qd", "Qc"})] == 0.5
    assert weights[frozenset({"Qh", "Qs"})] == 1.0  # the last weight given wins
    assert weights[frozenset({"As", "Ks"})] == 1.0
    assert len(hand.combos) == 10
    assert len(parse_range(load("holdem"), "AA:0, KK").combos) == 6


def test_ranks_follow_the_ruleset_deck() -> None:
    assert len(names("66+", "short-deck-holdem")) == 9 * 6
    assert names("A9s-A6s", "short-deck-holdem") == set().union(*(two("A", r, True) for r in "6789"))
    with pytest.raises(PokerRulesError) as caught:
        parse_range(load("short-deck-holdem"), "AKs, A2s")
    assert caught.value.code == "O102" and caught.value.first.col == 7


@pytest.mark.parametrize(
    ("text", "code", "col"),
    [
        ("AKs, QQ+, AXs", "O101", 11),
        ("QQ:2", "O103", 4),
        ("QQ:x", "O103", 4),
        ("A5s-K2s", "O104", 1),
        ("AKs-AQo", "O104", 1),
        ("QQ-AK", "O104", 1),
        ("AKs,,QQ", "O101", 5),
        ("AhKh, Zz", "O101", 7),
        ("AhKh, AhAh", "O110", 9),
        ("AhKh, As", "O107", 1),
        ("AhKhQh", "O107", 1),
        ("AA:0", "O106", 1),
        ("", "O101", 1),
    ],
)
def test_errors_point_at_the_column(text: str, code: str, col: int) -> None:
    with pytest.raises(PokerRulesError) as caught:
        parse_range(load("holdem"), text)
    assert caught.value.code == code
    assert caught.value.first.col == col


def test_classes_need_two_hole_cards() -> None:
    with pytest.raises(PokerRulesError) as caught:
        parse_range(load("omaha"), "AKs", hole=4)
    assert caught.value.code == "O105"
    assert parse_range(load("omaha"), "As Ks Qd Jd", hole=4).combos[0] == tuple(
        Card(r, s) for r, s in ["As", "Ks", "Qd", "Jd"]
    )


def test_card_removal_against_board_dead_and_fixed_hands() -> None:
    table, _ = prepare(load("holdem"), ["AhAd", "AA, KK"], board="Kh 2c 3c", dead="Ks")
    # AA: only As Ac is left; KK: Kd Kc only
    assert sorted(sorted(map(str, (table.ruleset.deck[i] for i in combo))) for combo in table.combos[0].tolist()) == [
        ["Ac", "As"],
        ["Kc", "Kd"],
    ]


def test_card_removal_between_ranges_is_exact() -> None:
    # AA against AK: AK combos that share an ace with AA are dealt less often
    result = odds(load("holdem"), ["AA", "AKs"], board="2c 7d 9h Js")
    truth_weight = 0
    for aa in combinations("shdc", 2):
        for suit in "shdc":
            if suit not in aa:
                truth_weight += 1
    assert result.method == "exact" and result.deals == truth_weight * 44
