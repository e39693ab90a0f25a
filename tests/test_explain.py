"""``Ruleset.explain`` and ``pokerrules compare``: who wins, and why.

Each kind of step is shown on the catalogue ruleset that has it, with the
values a reader can check by eye against the rule texts. The explanation must
always agree with ``Ruleset.compare``: hypothesis draws random deals on
several catalogue rulesets and checks the explained winner against it, and
that exactly the deciding step is marked decisive.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import evaluator
from evaluator.cli.main import main
from evaluator.engine.explain import STEP_KINDS, Explanation, position_names


def run_cli(argv: Sequence[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def decisive(explanation: Explanation) -> dict[str, object]:
    (step,) = [step.as_dict() for step in explanation.steps if step.decisive]
    return step


# --------------------------------------------------------------------------- each step kind


def test_kicker_standard() -> None:
    rs = evaluator.load("standard")
    found = rs.explain("Kh Kd 9c 7s 2h", "Ks Kc 8d 7h 2c")
    assert (found.winner, found.decided_by) == (0, "kicker")
    step = decisive(found)
    assert step["compared"] == [
        {"position": "pair rank", "values": ["K", "K"]},
        {"position": "first kicker", "values": ["9", "8"]},
    ]
    assert step["first_difference"] == 1
    assert "first kicker 9 against 8" in str(step["text"])
    # the same category was stated first
    assert [s.step for s in found.steps] == ["category", "kicker"]
    # the third kicker of two pair decides here
    found = rs.explain("Qs Qh 8d 8c As", "Qd Qc 8s 8h Ks")
    assert decisive(found)["compared"][-1] == {"position": "kicker", "values": ["A", "K"]}  # type: ignore[index]
    assert [c["position"] for c in decisive(found)["compared"]] == ["first pair rank", "second pair rank", "kicker"]  # type: ignore[attr-defined]


def test_category_standard_and_low() -> None:
    found = evaluator.load("standard").explain("2c 3c 4c 5c 7c", "As Ad Ah Kc Kd")
    assert (found.winner, found.decided_by) == (1, "category")
    assert decisive(found)["categories"] == ["flush", "full_house"]
    assert "full_house ranks higher" in decisive(found)["text"]  # type: ignore[operator]
    # deuce-to-seven: the lower category wins
    found = evaluator.load("deuce-to-seven").explain("2c 3c 4c 5c 7c", "7d 5h 4s 3c 2d")
    assert (found.winner, found.decided_by) == (1, "category")
    assert "lowest hand wins" in decisive(found)["text"]  # type: ignore[operator]


def test_suit_bridge_order() -> None:
    found = evaluator.load("suits-bridge").explain("As Kd 9h 5c 3s", "Ah Kc 9d 5s 3h")
    assert (found.winner, found.decided_by) == (0, "suit")
    step = decisive(found)
    assert step["cards"] == ["As", "Ah"] and step["position"] == 0
    assert step["suit_order"] == ["s", "h", "d", "c"] and step["method"] == "highest_card"
    assert "spades rank above hearts" in str(step["text"])
    # a shared ace (a board card) has one suit: the kings' suits decide, card by card
    found = evaluator.load("suits-bridge").explain("As Kd 9h 5c 3s", "As Kc 9d 5s 3h")
    step = decisive(found)
    assert (found.winner, step["step"], step["position"], step["cards"]) == (0, "suit", 1, ["Kd", "Kc"])
    assert "second card compared" in str(step["text"]) and "diamonds rank above clubs" in str(step["text"])


def test_suit_house_paired_compares_the_pair_first() -> None:
    # J-J-7-7-K: the jacks' suits come first under highest_paired
    found = evaluator.load("suits-house-paired").explain("Js Jc 7h 7d Kc", "Jh Jd 7s 7c Ks")
    step = decisive(found)
    assert step["step"] == "suit" and step["cards"] == ["Js", "Jh"]
    assert found.outcome == evaluator.load("suits-house-paired").compare("Js Jc 7h 7d Kc", "Jh Jd 7s 7c Ks")


def test_natural_beats_wild() -> None:
    found = evaluator.load("natural-beats-wild").explain("Ah Kh Qh Jh Th", "As Ks Qs Js 2s")
    assert (found.winner, found.decided_by) == (0, "wilds")
    assert decisive(found)["counts"] == [0, 1]
    # how the wild was played is stated first
    assert found.steps[0].step == "wilds" and found.steps[0].values["played"] == [{}, {"2s": "Ts"}]


def test_beats_exception_italian() -> None:
    rs = evaluator.load("italian")
    found = rs.explain("Ah 5h 6h 7h 8h", "As Ks Qs Js Ts")
    assert (found.winner, found.decided_by) == (0, "beats")
    (rule,) = decisive(found)["rules"]  # type: ignore[misc]
    assert rule == {"winner": "minimum_straight_flush", "loser": "maximum_straight_flush", "favours": 0}
    # the other way round, the same rule favours the second hand
    assert rs.explain("As Ks Qs Js Ts", "Ah 5h 6h 7h 8h").winner == 1
    # without an exception between them, the order decides
    assert rs.explain("As Ks Qs Js Ts", "9d Td Jd Qd Kd").decided_by == "category"


def test_qualifier_jacks_or_better() -> None:
    rs = evaluator.load("jacks-or-better")
    found = rs.explain("Js Jh 4c 5d 8h", "Ts Th 4d 5c 8c")
    assert (found.winner, found.decided_by) == (0, "qualifier")
    assert decisive(found)["qualifies"] == [True, False]
    neither = rs.explain("Ts Th 4c 5d 8h", "9s 9h 4d 5c 8c")
    assert (neither.winner, neither.decided_by) == (None, "qualifier")
    assert rs.compare("Ts Th 4c 5d 8h", "9s 9h 4d 5c 8c") == 0
    both = rs.explain("Qs Qh 4c 5d 8h", "Js Jd 4d 5c 8c")
    assert both.steps[0].step == "qualifier" and not both.steps[0].decisive
    assert both.decided_by == "kicker"


def test_wild_played_deuces_wild() -> None:
    found = evaluator.load("deuces-wild").explain("2s Ah 9h 8h 5h", "Ks Qs 9s 8s 4s")
    assert found.steps[0].step == "wilds"
    assert found.steps[0].values["played"] == [{"2s": "Kh"}, {}]
    assert "first hand plays 2s as Kh" in found.steps[0].text
    assert (found.winner, found.decided_by) == (0, "kicker")
    assert decisive(found)["compared"] == [{"position": "highest card", "values": ["A", "K"]}]


def test_tie() -> None:
    found = evaluator.load("standard").explain("As Kd 9h 5c 3s", "Ah Kc 9d 5s 3h")
    assert (found.winner, found.decided_by, found.outcome) == (None, "tie", 0)
    assert found.steps[-1].step == "tie"


def test_best_five_of_seven_and_wheel_bottom() -> None:
    rs = evaluator.load("standard")
    found = rs.explain("As 2d 3h 4c 5s Kd Kh", "6h 2c 3d 4s 5h Qd Qc")
    assert (found.winner, found.decided_by) == (1, "kicker")
    assert decisive(found)["compared"] == [{"position": "top card", "values": ["5", "6"]}]


def test_position_names_come_from_the_pattern_not_the_name() -> None:
    rs = evaluator.load("standard")
    names = {c.name: position_names(c, rs.hand_size) for c in rs.categories}
    assert names["full_house"] == ["three of a kind rank", "pair rank"]
    assert names["four_of_a_kind"] == ["four of a kind rank", "kicker"]
    assert names["two_pair"] == ["first pair rank", "second pair rank", "kicker"]
    assert names["pair"] == ["pair rank", "first kicker", "second kicker", "third kicker"]
    assert names["high_card"] == ["highest card", "second card", "third card", "fourth card", "fifth card"]
    assert names["flush"] == ["highest card", "second card", "third card", "fourth card", "fifth card"]
    assert names["straight"] == ["top card"]


def test_rank_by_names(tmp_path: object) -> None:
    from evaluator.rules.build import build_ruleset
    from evaluator.rules.load import parse_yaml
    from evaluator.ruleset import Ruleset

    text = """\
hand: {size: 5}
categories:
  any_pair: {pattern: "XX Y Z W", rank_by: [Y, X, cards]}
  other: {pattern: "not XX Y Z W"}
order: [any_pair, other]
"""
    rs = build_ruleset(parse_yaml(text, "r.yaml"), None, Ruleset)
    names = position_names(rs.category("any_pair"), 5)
    assert names[:2] == ["first kicker", "pair rank"]
    assert names[2:] == ["highest card", "second card", "third card", "fourth card", "fifth card"]
    found = rs.explain("Ks Kd 9c 7s 2h", "Qs Qd Tc 7h 2c")
    # rank_by puts the first kicker first: the ten beats the nine before the pair is looked at
    assert (found.winner, decisive(found)["compared"][0]) == (1, {"position": "first kicker", "values": ["9", "T"]})  # type: ignore[index]


# --------------------------------------------------------------------------- agreement with compare

RULESETS = [
    "standard",
    "suits-bridge",
    "suits-house-paired",
    "suits-house-unpaired",
    "natural-beats-wild",
    "italian",
    "jacks-or-better",
    "deuces-wild",
    "deuce-to-seven",
    "ace-to-five-eight-or-better",
    "joker-wild",
    "bug",
    "short-deck",
    "one-eyed-jacks",
    "lowest-card-wild",
    "incomplete-hands",
]


@st.composite
def deals(draw: st.DrawFn) -> tuple[str, list[str], list[str]]:
    name = draw(st.sampled_from(RULESETS))
    rs = evaluator.load(name)
    deck = [str(card) for card in rs.deck]
    low = rs.hand_min
    sizes = draw(st.tuples(st.integers(low, rs.hand_size + 2), st.integers(low, rs.hand_size + 2)))
    cards = draw(st.permutations(deck))
    return name, cards[: sizes[0]], cards[sizes[0] : sizes[0] + sizes[1]]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals())
def test_explanation_agrees_with_compare(deal: tuple[str, list[str], list[str]]) -> None:
    name, first, second = deal
    rs = evaluator.load(name)
    found = rs.explain(first, second)
    assert found.outcome == rs.compare(first, second)
    assert found.decided_by in STEP_KINDS
    marked = [step for step in found.steps if step.decisive]
    if found.decided_by == "tie" or (found.decided_by == "qualifier" and found.winner is None):
        assert found.winner is None
    assert len(marked) == 1 and marked[0].step == found.decided_by
    assert found.steps[-1] is marked[0]  # nothing is looked at after the decision
    # swapping the hands swaps the winner and keeps the reason
    swapped = rs.explain(second, first)
    assert swapped.decided_by == found.decided_by
    assert swapped.winner == (None if found.winner is None else 1 - found.winner)
    data = json.loads(json.dumps(found.as_dict()))
    assert set(data) >= {"winner", "decided_by", "steps"}
    assert all({"step", "text", "decisive"} <= set(step) for step in data["steps"])


@pytest.mark.parametrize("name", RULESETS)
def test_catalogue_comparison_examples_explain_the_same(name: str) -> None:
    """Every `A > B` / `A < B` / `A = B` example of the catalogue, explained, gives the stated result."""
    rs = evaluator.load(name)
    for example in rs.examples:
        if isinstance(example.value, str) and any(f" {op} " in example.value for op in "<>="):
            for op, outcome in ((" > ", 1), (" < ", -1), (" = ", 0)):
                if op in example.value:
                    first, second = example.value.split("#")[0].split(op)
                    assert rs.explain(first, second).outcome == outcome, example.value


# --------------------------------------------------------------------------- the command line


def test_cli_text_and_json() -> None:
    code, out, err = run_cli(["compare", "standard", "Kh Kd 9c 7s 2h", "Ks Kc 8d 7h 2c"])
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "category: first hand pair (pair of kings), second hand pair (pair of kings): the same category",
        "kicker: pair rank K against K; first kicker 9 against 8: first hand higher",
        "first hand wins (decided by: kicker)",
    ]
    code, out, err = run_cli(["compare", "italian", "As Ks Qs Js Ts", "Ah 5h 6h 7h 8h", "--json"])
    assert code == 0
    data = json.loads(out)
    assert (data["winner"], data["decided_by"]) == (1, "beats")
    assert data["hands"][0]["category"] == "maximum_straight_flush"


def test_cli_bad_cards_are_a_positioned_error() -> None:
    code, out, err = run_cli(["compare", "short-deck", "As Ks Qs Js 2s", "Ah Kh Qh Jh Th"])
    assert code == 1 and out == ""
    assert "C102" in err and "Traceback" not in err


def test_cli_help_has_a_description_and_an_example() -> None:
    code, out, _ = run_cli(["compare", "--help"])
    assert code == 0
    assert "explain the decision" in out and "pokerrules compare standard" in out
