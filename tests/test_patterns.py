"""The pattern language: grammar, AST, semantic checks, positions inside YAML."""

from __future__ import annotations

from pathlib import Path

import pytest
from lark import Lark

import evaluator
from evaluator.core.errors import PatternError, PokerRulesError
from evaluator.core.resources import grammar_dir
from evaluator.rules.patterns import AllOf, AnyOf, Compare, Not, Run, Shape, key_terms, parse_pattern


def test_grammar_builds_strict_lalr() -> None:
    # strict=True turns shift/reduce conflicts and colliding terminals into errors
    Lark.open(str(grammar_dir() / "pattern.lark"), parser="lalr", strict=True)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("XXXX Y", Shape),
        ("run", Run),
        ("run & flush & top = A", AllOf),
        ("run and flush", AllOf),
        ("run, flush", AllOf),
        ("run | flush", AnyOf),
        ("run or flush", AnyOf),
        ("not flush", Not),
        ("!flush", Not),
        ("(run)", Run),
        ("X Y Z W V & all <= 8", AllOf),
        ("X >= J", Compare),
    ],
)
def test_forms(text: str, kind: type) -> None:
    assert isinstance(parse_pattern(text), kind)


def test_and_binds_tighter_than_or() -> None:
    parsed = parse_pattern("run & flush | XXXX Y")
    assert isinstance(parsed, AnyOf)
    assert isinstance(parsed.items[0], AllOf)


def test_shape_groups() -> None:
    parsed = parse_pattern("XX YY Z")
    assert isinstance(parsed, Shape)
    assert parsed.groups == (("X", 2), ("Y", 2), ("Z", 1))


@pytest.mark.parametrize(
    ("text", "keys"),
    [("XX YY Z", ("X", "Y", "Z")), ("run & flush", ("top",)), ("flush", ("cards",)), ("XXX YY & X > 5", ("X", "Y"))],
)
def test_tie_break_derives_from_the_pattern(text: str, keys: tuple[str, ...]) -> None:
    assert key_terms(parse_pattern(text)) == keys


@pytest.mark.parametrize(
    ("text", "code", "col"),
    [
        ("XX & ", "P101", 6),
        ("XY Z", "P102", 1),
        ("run &&", "P101", 6),
        ("XX Y Z W & X >= 1", "P101", 17),
        ("", "P103", 1),
    ],
)
def test_syntax_errors(text: str, code: str, col: int) -> None:
    with pytest.raises(PatternError) as raised:
        parse_pattern(text)
    assert raised.value.code == code
    assert raised.value.first.col == col


def _ruleset_file(tmp_path: Path, pattern_line: str) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(
        f"name: house\nextends: standard\ncategories:\n  pair: {{pattern: {pattern_line}}}\n",
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize(
    ("pattern_line", "code", "culprit"),
    [
        ('"XX Y Z W & Q >= 1"', "P101", "1"),  # not a rank
        ('"XX Y Z W & V >= J"', "P201", "V"),  # V is compared but not bound
        ("'XX Y Z W & X >= J &'", "P101", "'}"),  # ends too early: points just past the text
        ("XX Y Z W & X >= 2 & X <= Y 2", "P101", "2}"),  # unquoted scalar
    ],
)
def test_pattern_errors_point_into_the_yaml_file(tmp_path: Path, pattern_line: str, code: str, culprit: str) -> None:
    path = _ruleset_file(tmp_path, pattern_line)
    line_text = path.read_text(encoding="utf-8").splitlines()[3]
    with pytest.raises(PokerRulesError) as raised:
        evaluator.load(str(path))
    problem = raised.value.first
    assert (problem.code, problem.source, problem.line, problem.col) == (
        code,
        str(path),
        4,
        line_text.rindex(culprit) + 1,
    )


def test_rank_not_in_deck(tmp_path: Path) -> None:
    path = tmp_path / "short-house.yaml"
    path.write_text('extends: short-deck\ncategories:\n  pair: {pattern: "XX Y Z W & X >= 2"}\n', encoding="utf-8")
    with pytest.raises(PokerRulesError) as raised:
        evaluator.load(str(path))
    assert raised.value.code == "P208"
    assert (raised.value.first.line, raised.value.first.col) == (3, 36)


def test_category_names_only_outside_categories(tmp_path: Path) -> None:
    path = tmp_path / "circular.yaml"
    path.write_text('extends: standard\ncategories:\n  pair: {pattern: "two_pair"}\n', encoding="utf-8")
    with pytest.raises(PokerRulesError) as raised:
        evaluator.load(str(path))
    assert raised.value.code == "P205"


def test_unknown_category_in_order_suggests_a_name(tmp_path: Path) -> None:
    path = tmp_path / "typo.yaml"
    path.write_text(
        "extends: standard\norder: [royal_flush, straight_flush, four_of_a_kind, full_house, flush,\n  straight, three_of_a_kind, two_pairs, pair, high_card]\n",
        encoding="utf-8",
    )
    with pytest.raises(PokerRulesError) as raised:
        evaluator.load(str(path))
    problem = raised.value.first
    assert problem.code == "R101"
    assert (problem.line, problem.col) == (3, 30)
    assert "two_pair" in (problem.hint or "")


def test_rank_by_overrides_the_derived_order(tmp_path: Path) -> None:
    # a house rule: two pair compares the LOWER pair first
    path = tmp_path / "low-pair-first.yaml"
    path.write_text(
        'extends: standard\ncategories:\n  two_pair: {pattern: "XX YY Z", rank_by: [Y, X, Z]}\n', encoding="utf-8"
    )
    house = evaluator.load(str(path))
    assert house.compare("Ks Kh 5d 5c 2s", "Qs Qh 6d 6c 2d") == -1
    assert evaluator.load("standard").compare("Ks Kh 5d 5c 2s", "Qs Qh 6d 6c 2d") == 1
