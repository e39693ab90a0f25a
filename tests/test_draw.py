"""Draw poker: the exchange problem and draw odds, checked against brute force
written here with the generic evaluator (every exchange, every draw)."""

from __future__ import annotations

import json
import random
from itertools import combinations
from pathlib import Path

import jsonschema
import pytest

import evaluator
from evaluator.cli.main import main
from evaluator.core.errors import PokerRulesError
from evaluator.draw.draw import NO_CATEGORY, best_exchange, draw_odds

DRAW_SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "docs" / "json" / "draw.schema.json").read_text())


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# --- the exchange problem ----------------------------------------------------------------


def brute_exchange(ruleset: evaluator.Ruleset, hand: list[str], following: list[str]) -> tuple[list[str], object]:
    """Try all 32 exchanges; keep the best final hand, the first found among equals
    (exchanges are tried from throwing none to throwing five)."""
    best_thrown: list[str] = []
    best_hand = ruleset.evaluate(hand)
    for n in range(1, len(following) + 1):
        for thrown in combinations(hand, n):
            kept = [card for card in hand if card not in thrown]
            final = ruleset.evaluate(kept + following[:n])
            if ruleset.compare(final, best_hand) > 0:
                best_thrown, best_hand = list(thrown), final
    return best_thrown, best_hand


@pytest.mark.parametrize(
    ("ruleset", "hand", "following", "discard", "category"),
    [
        # keep all five: nothing beats a straight flush made already
        ("standard", "9h 8h 7h 6h 5h", "Ah Ad Ac As Kh", [], "straight_flush"),
        # throw all five: seven-high nothing against a royal flush coming
        ("standard", "7c 5d 4h 3s 2c", "As Ks Qs Js Ts", ["7c", "5d", "4h", "3s", "2c"], "royal_flush"),
        # throw the kickers of a pair of aces for the third ace and a nine
        ("standard", "As Ad 7c 4h 2s", "Ah 9c 3d Kd 5s", ["4h", "2s"], "three_of_a_kind"),
        # a low game: keeping the smallest cards makes a wheel-ish hand
        ("ace-to-five", "As Kd Qc 4h 2s", "Ah 3c 5d 6d 7s", ["As", "Kd", "Qc"], "high_card"),
        # deuces wild: the deuce keeps, the next cards fill a straight flush
        ("deuces-wild", "2c 9h 8h 7h Kd", "6h 3s 4s 5c 7d", ["Kd"], "straight_flush"),
        # ties go to keeping more cards: throwing the 2c for the 2d makes the same hand
        ("standard", "Ks Kd Kc Kh 2c", "2d 3s 4s 5s 6s", [], "four_of_a_kind"),
    ],
)
def test_exchange_hand_checked(ruleset: str, hand: str, following: str, discard: list[str], category: str) -> None:
    result = best_exchange(evaluator.load(ruleset), hand, following)
    assert [str(c) for c in result.discard] == discard
    assert result.hand.category == category
    assert len(result.cards) == 5


@pytest.mark.slow
def test_exchange_random_cases_equal_brute_force() -> None:
    rng = random.Random(14)
    names = ["standard", "deuces-wild", "ace-to-five", "joker-wild", "deuce-to-seven"]
    rulesets = {name: evaluator.load(name) for name in names}
    for case in range(1000):
        ruleset = rulesets[names[case % len(names)]]
        deck = [str(card) for card in ruleset.deck]
        dealt = rng.sample(deck, 10)
        hand, following = dealt[:5], dealt[5 : 5 + rng.choice([5, 5, 5, 3])]
        result = best_exchange(ruleset, " ".join(hand), " ".join(following))
        thrown, best = brute_exchange(ruleset, hand, following)
        assert ruleset.compare(result.hand, best) == 0, (ruleset.name, hand, following)  # type: ignore[arg-type]
        assert [str(c) for c in result.discard] == thrown, (ruleset.name, hand, following)


def test_exchange_errors_are_positioned_not_tracebacks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "draw", "standard", "As Ad 7c 4h", "--next", "Ah 9c")
    assert code == 1 and "D109" in err and "Traceback" not in err and out == ""
    code, _, err = run(capsys, "draw", "standard", "As Ad 7c 4h 2s", "--next", "As 9c")
    assert code == 1 and "C103" in err
    code, _, err = run(capsys, "draw", "standard", "As Ad 7c 4h 2s", "--next", "Ah 9c 3d Kd 5s 6s")
    assert code == 1 and "D110" in err


def test_exchange_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "draw", "standard", "As Ad 7c 4h 2s", "--next", "Ah 9c 3d Kd 5s", "--json")
    assert code == 0
    data = json.loads(out)
    jsonschema.Draft202012Validator(DRAW_SCHEMA).validate(data)
    assert data["discard"] == ["4h", "2s"]
    assert data["cards"] == ["As", "Ad", "7c", "Ah", "9c"]
    assert data["category"] == "three_of_a_kind" and data["description"] == "three aces"
    code, out, _ = run(capsys, "draw", "standard", "As Ad 7c 4h 2s", "--next", "Ah 9c 3d Kd 5s")
    assert "throw 4h 2s" in out and "keeping more cards" in out


# --- draw odds ------------------------------------------------------------------------------


def brute_odds(ruleset: evaluator.Ruleset, hand: list[str], discard: list[str]) -> dict[str, int]:
    """Every replacement from the 47 unseen cards, each evaluated by the generic evaluator."""
    unseen = [str(c) for c in ruleset.deck if str(c) not in hand]
    kept = [card for card in hand if card not in discard]
    counts: dict[str, int] = {}
    for drawn in combinations(unseen, len(discard)):
        category = ruleset.evaluate(kept + list(drawn)).category
        counts[category] = counts.get(category, 0) + 1
    return counts


def test_pair_drawing_three_improves_28_7_percent() -> None:
    standard = evaluator.load("standard")
    hand, discard = ["9s", "9h", "Ac", "Kd", "4h"], ["Ac", "Kd", "4h"]
    odds = draw_odds(standard, " ".join(hand), " ".join(discard))
    assert odds.counts == brute_odds(standard, hand, discard)
    assert odds.draws == 16215
    assert round(100 * (1 - odds.probability("pair")), 1) == 28.7


def test_two_pair_drawing_one_fills_1_in_11_75() -> None:
    standard = evaluator.load("standard")
    hand = ["9s", "9h", "Kc", "Kd", "4h"]
    odds = draw_odds(standard, " ".join(hand), "4h")
    assert odds.counts == brute_odds(standard, hand, ["4h"])
    assert odds.draws / odds.counts["full_house"] == 11.75


def test_four_flush_drawing_one_19_1_percent() -> None:
    standard = evaluator.load("standard")
    hand = ["As", "Js", "7s", "3s", "9d"]
    odds = draw_odds(standard, " ".join(hand), "9d")
    assert odds.counts == brute_odds(standard, hand, ["9d"])
    assert round(100 * odds.probability("flush"), 1) == 19.1


def test_open_ended_straight_17_0_percent() -> None:
    standard = evaluator.load("standard")
    hand = ["9s", "8d", "7s", "6c", "2h"]
    odds = draw_odds(standard, " ".join(hand), "2h")
    assert odds.counts == brute_odds(standard, hand, ["2h"])
    assert round(100 * odds.probability("straight"), 1) == 17.0


def test_odds_with_wild_cards_and_dead_cards() -> None:
    deuces = evaluator.load("deuces-wild")
    hand = ["2s", "2h", "Kc", "9d", "5h"]
    odds = draw_odds(deuces, " ".join(hand), "9d 5h", dead="2c 2d")
    unseen = [str(c) for c in deuces.deck if str(c) not in hand + ["2c", "2d"]]
    counts: dict[str, int] = {}
    for drawn in combinations(unseen, 2):
        category = deuces.evaluate(["2s", "2h", "Kc", *drawn]).category
        counts[category] = counts.get(category, 0) + 1
    assert odds.counts == counts and odds.unseen == 45


def test_odds_qualifier_bucket() -> None:
    # jacks or better: a low pair does not qualify, so it is counted apart
    odds = draw_odds(evaluator.load("jacks-or-better"), "9s 9h Ac Kd 4h", "Ac Kd 4h")
    assert odds.counts[NO_CATEGORY] == 11559 and "pair" not in odds.counts


def test_odds_errors_and_cli(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(PokerRulesError) as problem:
        draw_odds(evaluator.load("standard"), "9s 9h Ac Kd 4h", "Qc")
    assert problem.value.code == "D111"
    code, out, _ = run(capsys, "draw", "standard", "9s 9h Kc Kd 4h", "--discard", "4h", "--json")
    data = json.loads(out)
    jsonschema.Draft202012Validator(DRAW_SCHEMA).validate(data)
    assert code == 0 and data["draws"] == 47
    assert data["categories"]["full_house"] == {"count": 4, "probability": 4 / 47, "one_in": 11.75}
    code, _, err = run(capsys, "draw", "standard", "9s 9h Kc Kd 4h", "--discard", "4h", "--next", "2c")
    assert code == 2 and "usage: pokerrules draw" in err and "not allowed with argument" in err
    code, _, err = run(capsys, "draw", "standard", "--discard", "4h")
    assert code == 2 and "usage: pokerrules draw" in err and "--discard needs the hand" in err
    code, _, err = run(capsys, "draw", "standard", "9s 9h Kc Kd 4h", "--against", "jacks-or-better-8-5", "--next", "2c")
    assert code == 2 and "--against compares with the pay table of --paytable" in err
    code, _, err = run(capsys, "draw", "standard", "9s 9h Kc Kd 4h")
    assert code == 2 and "one of the arguments --next --discard --paytable is required" in err
