"""``check`` and ``load`` agree: a file check refuses is refused by load with the same code,
position and reason, and check reports every independent problem of a file.

``load`` does not run what check finds by running the file (its examples,
``E1xx`` / ``R120``, and the coverage enumeration, ``R113``), nor estimate the
time the tables would take to build (``R130``: the commands that build them
refuse it); everything else check calls an error, load raises.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from evaluator.compiled.table_layout import card_model
from evaluator.core.errors import Diagnostic, PokerRulesError
from evaluator.ruleset import load
from evaluator.tools.check import check_file

BROKEN = Path(__file__).resolve().parent / "broken"
#: What check finds by running the file (examples, coverage), and its estimate of the
#: tables' build time (R130, refused by the commands that build them): load leaves them to check.
CHECK_ONLY = frozenset({"E101", "E102", "E103", "R113", "R120", "R130"})


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def errors_of(path: Path) -> list[Diagnostic]:
    return [d for d in check_file(path) if d.severity == "error"]


def load_errors(path: Path) -> list[Diagnostic] | None:
    """The diagnostics load raises, or None when it loads."""
    try:
        load(path)
    except PokerRulesError as problem:
        return list(problem.diagnostics)
    return None


def assert_agree(path: Path) -> None:
    """load raises exactly when check has an error load can see, and only diagnostics check reports."""
    checked = errors_of(path)
    loaded = load_errors(path)
    refusable = [d for d in checked if d.code not in CHECK_ONLY]
    if not refusable:
        assert loaded is None, f"load refused {path.name}, check did not: {loaded}"
        return
    assert loaded, f"check refused {path.name} ({refusable[0]}), load did not"
    for diagnostic in loaded:
        assert diagnostic in checked, f"load said {diagnostic}, check said {checked}"


UNRANKED_BROKEN = """\
name: item
extends: standard
categories:
  junk: {pattern: "XX YX Z"}
"""

BOTH = """\
name: both
extends: standard
categories:
  pair: {pattern: "XX Y Z W & V > 3"}
  junk: {pattern: "XX YX Z"}
"""


def test_a_broken_pattern_outside_order_is_refused_by_load_as_by_check(tmp_path: Path) -> None:
    path = write(tmp_path, "item.yaml", UNRANKED_BROKEN)
    (checked,) = errors_of(path)
    assert (checked.code, checked.line, checked.col) == ("P102", 4, 23)
    assert load_errors(path) == [checked]


def test_a_problem_in_order_does_not_hide_one_outside_it(tmp_path: Path) -> None:
    path = write(tmp_path, "both.yaml", BOTH)
    checked = errors_of(path)
    assert [(d.code, d.line) for d in checked] == [("P201", 4), ("P102", 5)]
    assert load_errors(path) == checked


def test_dead_jokers_are_refused_by_load_as_by_check() -> None:
    path = BROKEN / "R114-jokers-not-wild.yaml"
    (checked,) = errors_of(path)
    assert checked.code == "R114" and "X As Kh Qd Jc" in checked.message
    assert load_errors(path) == [checked]


def test_dead_jokers_do_not_hide_a_pattern_problem(tmp_path: Path) -> None:
    text = (BROKEN / "R114-jokers-not-wild.yaml").read_text(encoding="utf-8")
    path = write(tmp_path, "two.yaml", text.replace('"XX Y Z W"', '"XX Y Z W & V > 9"'))
    assert sorted(d.code for d in errors_of(path)) == ["P201", "R114"]
    assert_agree(path)


def test_a_deck_too_wide_for_the_tables_is_refused_by_load_as_by_check(tmp_path: Path) -> None:
    path = write(
        tmp_path, "wide.yaml", "name: wide\nextends: standard\ndeck: {copies: 2, jokers: 2}\nhand: {size: 10, min: 5}\n"
    )
    (checked,) = errors_of(path)
    assert (checked.code, checked.line) == ("R104", 3)
    assert load_errors(path) == [checked]


def test_a_deck_too_wide_is_reported_beside_a_pattern_problem(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "wide.yaml",
        "name: wide\nextends: standard\ndeck: {copies: 2, jokers: 2}\nhand: {size: 10, min: 5}\n"
        'categories:\n  pair: {pattern: "XX Y Z W & V > 3"}\n',
    )
    assert sorted(d.code for d in errors_of(path)) == ["P201", "R104"]
    assert_agree(path)


def test_a_split_half_that_cannot_be_loaded_is_refused_by_load_as_by_check(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "hilo.yaml",
        "name: hilo\nextends: stud-hi-lo\ngame:\n  split:\n    - {name: high, ruleset: standard}\n"
        "    - {name: low, ruleset: ./missing.yaml}\n",
    )
    (checked,) = errors_of(path)
    assert checked.code == "Y123"
    assert load_errors(path) == [checked]


@pytest.mark.parametrize("path", sorted(BROKEN.glob("*.yaml")), ids=lambda p: p.stem)
def test_the_broken_corpus_agrees(path: Path) -> None:
    assert_agree(path)


def test_failing_examples_are_checks_not_load_errors() -> None:
    """A file whose examples fail still loads: the examples are check's to run."""
    path = BROKEN / "E101-wrong-category.yaml"
    assert [d.code for d in errors_of(path)] == ["E101"]
    assert load_errors(path) is None


@pytest.mark.parametrize(
    ("size", "jokers", "wild"),
    list(itertools.product((5, 7, 10), (0, 2), ("{}", "{ranks: [2, 3, 4, 5, 6, 7]}", "{lowest_rank: true}"))),
)
def test_one_pack_always_fits_the_tables(tmp_path: Path, size: int, jokers: int, wild: str) -> None:
    """The facade asks the tables' width (and imports NumPy) only for two packs or more: one
    pack of 13 ranks, 4 suits and 2 jokers fits whatever the hand and the wild cards."""
    path = write(
        tmp_path,
        "one.yaml",
        f"name: one\nextends: standard\ndeck: {{jokers: {jokers}}}\nhand: {{size: {size}, min: 1}}\nwild: {wild}\n",
    )
    card_model(load(path))


@pytest.mark.parametrize(
    ("change", "line"),
    [("wild: {lowest_rank: true}", 3), ("deck: {copies: 2}", 3), ("wild: {cards: [Js, Jh]}", 3)],
)
def test_suit_patterns_the_tables_cannot_compile_are_refused(tmp_path: Path, change: str, line: int) -> None:
    """A pattern that reads suits inside the hand is compiled by suit class, which needs
    interchangeable suits and no lowest-card wild: check and load refuse the rest (R131)
    rather than let the fast paths fail from the first table build on."""
    path = write(tmp_path, "r131.yaml", f"name: r131\nextends: four-flush\n{change}\n")
    (checked,) = errors_of(path)
    assert (checked.code, checked.line) == ("R131", line)
    assert load_errors(path) == [checked]
