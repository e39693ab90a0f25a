"""Error messages a newcomer can act on: what went wrong in words, at the right
place, once, with a hint that fits (and no hint that does not)."""

from __future__ import annotations

import inspect
import itertools
import pydoc
from pathlib import Path

import pytest
from samples import SMALL

import evaluator
from evaluator import Ruleset
from evaluator.cli.main import main
from evaluator.core.errors import Diagnostic, PokerRulesError
from evaluator.rules.patterns import parse_pattern
from evaluator.tools.check import check_file

pytestmark = pytest.mark.usefixtures("table_cache")

FIVE = "order: [five_of_a_kind, royal_flush, straight_flush, four_of_a_kind, full_house, flush, straight, three_of_a_kind, two_pair, pair, high_card]\n"


def check_text(tmp_path: Path, text: str, name: str = "house.yaml") -> list[Diagnostic]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return check_file(path)


def only(found: list[Diagnostic]) -> Diagnostic:
    assert len(found) == 1, "\n".join(map(str, found))
    return found[0]


# --------------------------------------------------------------------------- patterns


def test_pattern_hints_name_tokens_in_words() -> None:
    with pytest.raises(PokerRulesError) as caught:
        parse_pattern("XX Y Z W & X >= J &")
    hint = caught.value.first.hint or ""
    assert "__" not in hint and "anon" not in hint.lower()
    assert hint.startswith("expected more pattern: a shape such as XX Y Z, run, flush")
    with pytest.raises(PokerRulesError) as caught:
        parse_pattern("XX Y Z W & X >=")
    assert caught.value.first.hint == (
        "expected something to compare: a rank (2-9, T, J, Q, K, A), a variable such as X, "
        "a number, or one of top, bottom, lowest, highest, all, any, suit, suits, wilds, category"
    )
    with pytest.raises(PokerRulesError) as caught:
        parse_pattern("run(3")
    assert caught.value.first.hint == "expected ')' or ','"


def test_no_truncated_pattern_shows_a_parser_name() -> None:
    patterns = ["XX Y Z W & X >= J", "run(4, flush) | category >= pair", "X in {J, Q, K} & not flush", "(run & flush)"]
    for text in patterns:
        for cut in range(1, len(text)):
            try:
                parse_pattern(text[:cut])
            except PokerRulesError as problem:
                assert "__" not in (problem.first.hint or "") + problem.first.message, (text[:cut], problem)


# --------------------------------------------------------------------------- YAML syntax


def test_a_tab_is_named_at_the_tab(tmp_path: Path) -> None:
    found = only(check_text(tmp_path, "name: tab\nextends: standard\nwild:\n\tranks: [2]\n"))
    assert (found.code, found.line, found.col) == ("Y103", 4, 1)
    assert found.message == "tabs are not allowed in YAML; indent with spaces"
    assert found.context is not None and "\ufffd" not in found.context and found.context.startswith("    \u2192ranks")
    assert "while scanning" not in str(found)
    found = only(check_text(tmp_path, "name: tab\nextends: standard\nwild:\n  ranks:\t[2]\n"))
    assert (found.line, found.col, found.hint) == (4, 9, "replace the tab with a space")


@pytest.mark.parametrize(
    ("text", "line", "col", "message", "hint"),
    [
        (
            "wild:\n  cards: [Js]\n ranks: [2]\n",
            5,
            2,
            "'ranks' is indented 1 space, which lines up with no key above it",
            "indent it 2 spaces to put it beside 'cards' under 'wild:', or 0 spaces to make it a key beside 'wild'",
        ),
        (
            "wild:\n  cards: [Js]\n   ranks: [2]\n",
            5,
            4,
            "'ranks' is indented more than 'cards' above it, which already has a value",
            "indent it 2 spaces to put it beside 'cards'",
        ),
        (
            "wild: none\n  ranks: [2]\n",
            4,
            3,
            "'ranks' is indented under 'wild: none', which already has a value",
            "indent it 0 spaces to make it a key beside 'wild', or give 'wild:' no value on its line to hold it",
        ),
    ],
    ids=["between-levels", "under-a-value", "under-a-scalar"],
)
def test_indentation_in_words(tmp_path: Path, text: str, line: int, col: int, message: str, hint: str) -> None:
    found = only(check_text(tmp_path, "name: x\nextends: standard\n" + text))
    assert (found.code, found.line, found.col, found.message, found.hint) == ("Y103", line, col, message, hint)
    assert "block end" not in str(found) and "while parsing" not in str(found)


def test_a_key_indented_under_nothing_and_no_warning_that_follows_from_it(tmp_path: Path) -> None:
    text = "name: x\nextends: standard\nwild:\nranks: [2]\n" + FIVE
    found = only(check_text(tmp_path, text))  # no W102: five of a kind needs the wild cards meant here
    assert (found.code, found.line, found.col) == ("S101", 4, 1)
    assert found.message == "'ranks' is indented under nothing, so it is read as a top-level key"
    assert found.hint == "did you mean it under 'wild:'? indent it with spaces"
    found = only(check_text(tmp_path, "name: x\nextends: standard\nsize: 7\n"))
    assert (found.message, found.hint) == ("'size' is not a top-level key", "it belongs under 'hand:'")


# --------------------------------------------------------------------------- one typo, one error


def test_a_misspelt_required_key_is_one_error(tmp_path: Path) -> None:
    found = only(check_text(tmp_path, SMALL.replace("four_of_a_kind:  {pattern:", "four_of_a_kind:  {patern:")))
    assert (found.code, found.message, found.hint) == ("S101", "unknown key 'patern'", "did you mean 'pattern'?")
    # a key that is missing and nothing like it written: still S104
    found = only(check_text(tmp_path, SMALL.replace('four_of_a_kind:  {pattern: "XXXX Y"}', "four_of_a_kind:  {}")))
    assert found.code == "S104"


def test_a_misspelt_field_of_an_inherited_category_warns_of_nothing(tmp_path: Path) -> None:
    # standard defines five_of_a_kind (XXXXX): patern was meant to replace that pattern
    text = 'name: x\nextends: standard\ncategories:\n  five_of_a_kind: {patern: "XXXX Y"}\n' + FIVE
    found = only(check_text(tmp_path, text))
    assert (found.code, found.hint) == ("S101", "did you mean 'pattern'?")


def test_a_scalar_where_a_list_is_wanted_hints_the_list(tmp_path: Path) -> None:
    found = only(check_text(tmp_path, "name: x\nextends: standard\nwild: {ranks: 2}\n"))
    assert (found.code, found.hint) == ("S102", "write a list, even of one item: [2]")
    found = only(check_text(tmp_path, "name: x\nextends: standard\nwild: {cards: Zz}\n"))
    assert (found.code, found.hint) == ("S102", None)  # [Zz] would not do either


# --------------------------------------------------------------------------- examples


def test_e102_says_what_was_meant(tmp_path: Path) -> None:
    text = 'name: x\nextends: standard\nexamples:\n  - "As Ks Qs Js Ts is straigh_flush"\n  - "As Ks Qs Js Ts beats 2c 3d 4h 5s 7c"\n'
    first, second = check_text(tmp_path, text)
    assert (first.code, first.hint) == ("E102", "did you mean 'straight_flush' or 'straight' or 'royal_flush'?")
    assert (second.code, second.hint) == ("E102", "did you mean 'As Ks Qs Js Ts > 2c 3d 4h 5s 7c'?")


def test_e101_says_each_thing_once(tmp_path: Path) -> None:
    text = (
        "name: x\nextends: standard\nexamples:\n"
        '  - "As Ks Qs Js Ts is flush"\n'
        '  - "As Ah Kd Qc Js < Ks Kh Qd Jc 9s"\n'
        "  - {hand: As Ad 5c 5d 9h, category: pair}\n"
    )
    found = check_text(tmp_path, text)
    assert [d.message for d in found] == [
        "As Ks Qs Js Ts is royal_flush, not flush",
        "expected As Ah Kd Qc Js to lose to Ks Kh Qd Jc 9s, but it wins against it",
        "category: expected 'pair', found 'two_pair' (two pair, aces and fives, nine kicker)",
    ]
    assert found[1].context == (
        "    category: first hand pair (pair of aces), second hand pair (pair of kings): the same category\n"
        "    kicker: pair rank A against K: first hand higher"
    )
    wild = check_text(tmp_path, 'name: x\nextends: deuces-wild\nexamples:\n  - "2s 2h 2d 2c As is four_of_a_kind"\n')
    assert only(wild).message == (
        "2s 2h 2d 2c As is five_of_a_kind (five aces; 2c as As, 2s as Ah, 2h as Ad, 2d as Ac), not four_of_a_kind"
    )


# --------------------------------------------------------------------------- did-you-mean that fits


def test_a_missing_parent_suggests_only_close_names(tmp_path: Path) -> None:
    (tmp_path / "nocoverage.yaml").write_text(SMALL, encoding="utf-8")
    (tmp_path / "friday-base.yaml").write_text(SMALL, encoding="utf-8")
    found = only(check_text(tmp_path, "name: x\nextends: base.yaml\n"))
    assert found.code == "Y111" and found.hint is None
    found = only(check_text(tmp_path, "name: x\nextends: friday-bse.yaml\n"))
    assert found.hint == "did you mean 'friday-base.yaml'?"


def test_a_name_that_is_a_file_here_hints_its_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "friday.yaml").write_text(SMALL.replace("name: small", "name: friday"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["eval", "friday", "As Ks Qs Js Ts"]) == 1
    err = capsys.readouterr().err
    assert "error Y101: no ruleset named 'friday' in the catalogue" in err
    assert "hint: a name is looked up in the catalogue; to load the file, give its path: ./friday.yaml" in err
    assert main(["eval", "./friday.yaml", "As Ks Qs Js Ts"]) == 0


# --------------------------------------------------------------------------- the Python API


@pytest.mark.parametrize("name", ["compare", "rank", "encode"])
def test_fast_methods_have_signatures_and_docstrings(name: str) -> None:
    method = getattr(Ruleset, name)
    assert list(inspect.signature(method).parameters)[0] == "self"
    assert method.__doc__ and len(method.__doc__) > 100
    for ruleset in ("standard", "italian"):  # tables from the start, and the generic path (beats:)
        built = getattr(evaluator.load(ruleset), name)
        assert built.__name__ == name and built.__doc__ == method.__doc__
        assert list(inspect.signature(built).parameters) == list(inspect.signature(method).parameters)[1:]
    text = pydoc.render_doc(Ruleset, renderer=pydoc.plaintext)
    assert f"{name}(self, " in text


def test_unbound_calls_and_warm_compare_keep_working() -> None:
    rs = evaluator.load("standard")
    codes = Ruleset.encode(rs, "As Ks Qs Js Ts")
    assert Ruleset.rank(rs, codes) == rs.rank(codes) and Ruleset.compare(rs, "As Ks Qs Js Ts", "2c 3d 4h 5s 7c") == 1
    fresh = evaluator.load("short-deck")
    for a, b in itertools.islice(itertools.cycle([("As Ks Qs Js Ts", "6c 7d 8h 9s Jc")]), 5000):
        assert fresh.compare(a, b) == 1
    assert fresh.compare.__name__ == "compare" and "``a`` wins" in (fresh.compare.__doc__ or "")


@pytest.mark.parametrize("bad", [12345, None, 1.5, b"As Ks Qs Js Ts"])
def test_cards_of_the_wrong_type_are_a_type_error_naming_what_was_expected(bad: object) -> None:
    rs = evaluator.load("standard")
    for call in (rs.evaluate, rs.encode, rs.cards, lambda x: rs.compare(x, "As Ks Qs Js Ts")):
        with pytest.raises(TypeError, match=r"cards must be text such as 'As Kd Qh' or a sequence of cards"):
            call(bad)


def test_odds_of_one_string_is_a_type_error_naming_the_list() -> None:
    with pytest.raises(
        TypeError, match=r"hands must be a list with one hand or range per player, e\.g\. \['AhKh', 'QsQd'\]"
    ):
        evaluator.load("holdem").odds("AhKh QsQd")  # type: ignore[arg-type]
