"""Every rule decision of DESIGN.md (ace, runs, low games, incomplete hands,
qualifiers, suit tie-breaks, comparison order, descriptions), one test each."""

from __future__ import annotations

from pathlib import Path

import pytest

import evaluator


def load(name: str) -> evaluator.Ruleset:
    return evaluator.load(name)


# --- the ace -----------------------------------------------------------------------


def test_ace_both_plays_low_in_a_run_with_the_five_on_top() -> None:
    wheel = load("standard").evaluate("5s 4d 3h 2c As")
    assert wheel.category == "straight"
    assert wheel.describe() == "five-high straight"
    assert wheel.cards[-1] == "As"  # the low ace plays last
    assert load("standard").compare("6s 5d 4h 3c 2s", "5s 4d 3h 2c As") == 1


@pytest.mark.parametrize(
    ("ruleset", "lowest", "not_a_run"),
    [
        ("short-deck", "As 6d 7h 8c 9s", "As 5d 4h 3c 2s"),
        ("stripped-32", "As 7d 8h 9c Ts", "As 6d 7h 8c 9s"),
        ("stripped-40", "As 5d 6h 7c 8s", "As 4d 3h 2c 5s"),
    ],
)
def test_ace_sits_below_the_lowest_rank_of_a_stripped_deck(ruleset: str, lowest: str, not_a_run: str) -> None:
    rules = load(ruleset)
    hand = rules.evaluate(lowest)
    assert hand.category == "straight"
    # it is the lowest straight: every other straight beats it
    top = rules.deck_ranks[-5:]
    highest = " ".join(f"{r}{s}" for r, s in zip(top, "sdhcs", strict=False))
    assert rules.compare(highest, lowest) == 1
    with pytest.raises(evaluator.PokerRulesError):
        rules.evaluate(not_a_run)  # those cards are not even in the deck


def test_runs_never_wrap() -> None:
    assert load("standard").evaluate("Ks As 2d 3h 4c").category == "high_card"
    assert load("standard").evaluate("Qs Ks As 2d 3h").category == "high_card"


def test_ace_high_only_in_deuce_to_seven() -> None:
    rules = load("deuce-to-seven")
    hand = rules.evaluate("As 2d 3h 4c 5s")
    assert hand.category == "high_card"
    # ranks between K-Q-J-T-8 and A-6-4-3-2 (the lower hand wins in lowball)
    assert rules.compare("Ks Qd Jh Tc 8s", "As 2d 3h 4c 5s") == 1
    assert rules.compare("As 2d 3h 4c 5s", "Ad 6d 4h 3c 2s") == 1


def test_ace_low_makes_aces_the_lowest_pair() -> None:
    rules = load("ace-to-five")
    assert rules.compare("As Ad 4h 3c 2s", "2d 2h 4c 3h 5s") == 1
    assert rules.evaluate("Ks Qs Js Ts As").category == "high_card"  # no runs or flushes in A-5


def test_ace_low_king_high_is_not_a_run_in_ace_to_six() -> None:
    rules = load("ace-to-six")
    assert rules.evaluate("As Kd Qh Jc Ts").category == "high_card"
    assert rules.evaluate("As 2d 3h 4c 5s").category == "straight"
    assert rules.compare("As Kd Qh Jc Ts", "Ks Qd Jh Tc 2s") == 1  # king-down beats K-Q-J-T-2


# --- low games --------------------------------------------------------------------------


def test_ace_to_five_order_from_the_source() -> None:
    rules = load("ace-to-five")
    order = [
        "5s 4d 3h 2c As",
        "6s 4d 3h 2c As",
        "6s 5d 3h 2c As",
        "6s 5d 4h 2c As",
        "6s 5d 4h 3c As",
        "6s 5d 4h 3c 2s",
        "7s 4d 3h 2c As",
    ]
    for better, worse in zip(order, order[1:], strict=False):
        assert rules.compare(better, worse) == 1, (better, worse)
    assert rules.compare("5h 4h 3h 2h Ah", "6s 4d 3h 2c As") == 1  # suited wheel is still the best


def test_eight_or_better_qualifier() -> None:
    rules = load("ace-to-five-eight-or-better")
    assert rules.evaluate("8s 7d 6h 5c 4s").qualifies
    assert not rules.evaluate("9s 4d 3h 2c As").qualifies
    assert not rules.evaluate("As Ad 2h 3c 4s").qualifies
    assert rules.compare("8s 7d 6h 5c 4s", "9s 4d 3h 2c As") == 1
    assert rules.compare("9s 4d 3h 2c As", "Ks Kd 2h 3c 4s") == 0  # two non-qualifying hands tie


def test_jacks_or_better_qualifier() -> None:
    rules = load("jacks-or-better")
    assert rules.evaluate("Js Jd 2h 3c 4s").qualifies
    assert not rules.evaluate("Ts Td Ah Kc Qs").qualifies
    assert rules.evaluate("2s 2d 3h 3c 4s").qualifies


def test_selecting_the_low_from_seven_cards() -> None:
    # "10-8-6-6-3-2-A can omit the 10 and one of the 6's to create a qualifying hand"
    hand = load("ace-to-five-eight-or-better").evaluate("Ts 8d 6h 6c 3s 2d Ah")
    assert hand.qualifies
    assert sorted(hand.cards) == sorted(["8d", "6h", "3s", "2d", "Ah"]) or sorted(hand.cards) == sorted(
        ["8d", "6c", "3s", "2d", "Ah"]
    )


# --- incomplete hands -------------------------------------------------------------------


def test_incomplete_hands_have_no_runs_flushes_or_full_houses() -> None:
    rules = load("incomplete-hands")
    assert rules.evaluate("4h 5h 6h 7h").category == "high_card"
    assert rules.evaluate("8s 8d 8h Kc").category == "three_of_a_kind"
    assert rules.evaluate("8s 8d 8h 8c").category == "four_of_a_kind"
    assert rules.evaluate("8s 8d 5h 5c").category == "two_pair"
    assert rules.evaluate("8s 8d").category == "pair"
    assert rules.evaluate("8s").category == "high_card"


def test_a_present_kicker_beats_a_missing_one() -> None:
    rules = load("incomplete-hands")
    chain = ["8s 8d Kh", "8h 8c 6s 2d", "8s 8d 6h", "Ts", "9s 5d", "9h 3c 2s", "9d 3h", "9c"]
    for better, worse in zip(chain, chain[1:], strict=False):
        if better == "8s 8d 6h":
            continue  # pairs beat single cards; the two chains are checked separately
        assert rules.compare(better, worse) == 1, (better, worse)


def test_in_low_games_a_missing_kicker_is_better(tmp_path: Path) -> None:
    path = tmp_path / "low-incomplete.yaml"
    path.write_text("extends: ace-to-five\nhand: {size: 5, min: 1}\n", encoding="utf-8")
    rules = evaluator.load(str(path))
    assert rules.compare("9s 3d", "9h 3c 2s") == 1


# --- suits -------------------------------------------------------------------------------


def test_suits_only_break_ties() -> None:
    assert load("suits-bridge").compare("As Kd 9h 5c 3s", "Ah Kc 9d 5s 3h") == 1
    assert load("suits-greek").compare("As Kd 9h 5c 3s", "Ah Kc 9d 5s 3h") == -1
    assert load("suits-bridge").compare("2s 2c 4h 5d 7c", "Ah Kc 9d 5s 3h") == 1  # category first
    assert load("standard").compare("As Kd 9h 5c 3s", "Ah Kc 9d 5s 3h") == 0


def test_the_three_tie_break_methods_on_the_source_hands() -> None:
    player_a, player_b = "8h 8s Jc 9c 3h", "8d 8c Jd 9s 3d"
    assert load("suits-house-paired").compare(player_a, player_b) == 1  # the spade eight
    assert load("suits-house-unpaired").compare(player_a, player_b) == -1  # the diamond jack
    assert load("suits-bridge").compare("Ks Qc 7d 6c 2s", "Kh Qs 7h 6d 2d") == 1  # highest card: spade king


# --- comparison order, showdowns, descriptions -----------------------------------------------


def test_four_of_a_kind_on_the_board_from_the_source() -> None:
    rules = load("standard")
    board = "Jh Jd Jc Js 9s"
    assert rules.showdown(["Kc 7d", "Qs Td"], board=board) == [0]
    assert rules.showdown(["8c 2d", "6s 5d"], board=board) == [0, 1]
    assert rules.showdown(["As 2c", "Ad Kd"], board=board) == [0, 1]


@pytest.mark.parametrize(
    ("cards", "description"),
    [
        ("Kc Kd Ks 4h 4c", "kings full of fours"),
        ("Qs Qh 8d 8c As", "two pair, queens and eights, ace kicker"),
        ("Ah Kh Qh Jh Th", "royal flush"),
        ("9c 8c 7c 6c 5c", "nine-high straight flush"),
        ("5s 5h 5d 5c Ks", "four fives, king kicker"),
        ("6s 6h 4d 3c 2s", "pair of sixes"),
        ("As Jd 9h 5c 3s", "ace high"),
    ],
)
def test_descriptions(cards: str, description: str) -> None:
    assert load("standard").evaluate(cards).describe() == description


def test_best_five_of_seven_and_hand_ordering() -> None:
    rules = load("standard")
    hand = rules.evaluate("2c 3d As Ks Qs Js Ts")
    assert hand.category == "royal_flush"
    assert set(hand.cards) == {"As", "Ks", "Qs", "Js", "Ts"}
    assert rules.evaluate("Ah Ad Kc Kd 2s") > rules.evaluate("Qh Qd Jc Jd As")
    assert rules.evaluate("Ah Ad Kc Kd 2s") == rules.evaluate("As Ac Kh Ks 2d")


def test_hands_of_different_rulesets_do_not_compare() -> None:
    with pytest.raises(TypeError):
        _ = load("standard").evaluate("As Ad Kc Kd 2s") < load("short-deck").evaluate("As Ad Kc Kd 6s")


def test_a_ruleset_is_immutable() -> None:
    with pytest.raises(AttributeError):
        load("standard").name = "other"  # type: ignore[misc]
