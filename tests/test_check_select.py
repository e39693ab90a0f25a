"""``check --select`` / ``--ignore`` and ``# pokerrules: ignore[...]`` comments (evaluator/tools/check_select.py)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from samples import SMALL

from evaluator.cli.main import main
from evaluator.core.codes import CODES
from evaluator.core.errors import UsageError
from evaluator.tools.check import check_file
from evaluator.tools.check_select import Selection, ignore_comments, known_prefix

# A ten-card hand: coverage cannot be enumerated (W104 at hand:); the order names a category twice (S105).
# seven-card hands whose coverage is too much work to enumerate (W104), and nothing else
TOO_MANY = (
    'name: seven\nhand: {size: 7}\ncategories:\n  h: {pattern: "flush & suit = h"}\n'
    '  any: {pattern: "not (flush & suit = h)"}\norder: [h, any]\n'
)
# W101 (a category left out of order), W103 (a straight flush below flush) and E101 in one file
SHADOWED = SMALL.replace("categories:\n", 'categories:\n  straight_flush: {pattern: "run & flush"}\n').replace(
    "flush, straight,", "flush, straight_flush, straight,"
)
TWO_WARNINGS = SHADOWED.replace("categories:\n", 'categories:\n  big_pair: {pattern: "XX Y Z W & X >= K"}\n').replace(
    ", pair, high_card]", ", pair, high_card]\nexamples: ['Ah Ad Kc Qd Js is high_card']"
)


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def codes_of(path: Path, selection: Selection | None = None) -> list[str]:
    return [d.code for d in check_file(path, selection=selection)]


# --- --select and --ignore ------------------------------------------------------------


@pytest.mark.parametrize(
    ("select", "ignore", "code", "wanted"),
    [
        ((), (), "W104", True),
        (("W",), (), "W104", True),
        (("W",), (), "E101", False),
        (("W",), ("W104",), "W104", False),
        (("W",), ("W104",), "W101", True),
        (("W104",), ("W",), "W104", True),  # the longer prefix decides
        (("W104",), ("W",), "W101", False),
        ((), ("W1",), "W104", False),
        ((), ("W1",), "R113", True),
        (("ALL",), ("E",), "E101", False),
        (("E101",), ("E101",), "E101", False),  # the same code both ways: ignored
    ],
)
def test_selection_by_code_and_prefix(
    select: tuple[str, ...], ignore: tuple[str, ...], code: str, wanted: bool
) -> None:
    assert Selection(select, ignore).wants(code) is wanted


def test_every_registered_code_and_its_prefixes_are_known() -> None:
    for code in CODES:
        assert all(known_prefix(code[:n]) for n in range(1, len(code) + 1))
    assert not known_prefix("W999") and not known_prefix("Z") and not known_prefix("")


def test_an_unknown_code_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="--ignore W999"):
        Selection.parse(["W"], ["W999"])
    code, out, err = run("check", "--select", "Q1", "rulesets/standard.yaml")
    assert (code, out) == (2, "")
    assert "--select Q1 names no diagnostic code" in err


def test_select_and_ignore_on_the_command_line(tmp_path: Path) -> None:
    path = write(tmp_path, "two.yaml", TWO_WARNINGS)
    assert codes_of(path) == ["W101", "W103", "E101"]
    code, out, _ = run("check", "--json", "--select", "W", str(path))
    assert code == 0 and [d["code"] for d in json.loads(out)] == ["W101", "W103"]
    code, out, _ = run("check", "--json", "--select", "W,E", "--ignore", "W103", str(path))
    assert code == 1 and [d["code"] for d in json.loads(out)] == ["W101", "E101"]
    code, out, _ = run("check", "--ignore", "E", "--ignore", "W101", "--strict", str(path))
    assert code == 1 and "W103" in out and "W101" not in out and "E101" not in out
    code, out, _ = run("check", "--ignore", "W,E", "--strict", str(path))
    assert code == 0 and out.endswith("checked 1 file: no problems\n")


def test_a_missing_path_is_reported_unless_y101_is_ignored(tmp_path: Path) -> None:
    code, out, _ = run("check", str(tmp_path / "nothing.yaml"))
    assert code == 1 and "Y101" in out
    code, out, _ = run("check", "--ignore", "Y101", str(tmp_path / "nothing.yaml"))
    assert code == 0 and "Y101" not in out


# --- ignore comments ------------------------------------------------------------------


def test_ignore_comments_are_found_with_their_codes_and_columns() -> None:
    text = (
        "# pokerrules: ignore[W104]\n"
        "name: x  #pokerrules:ignore[w101 , E1]\n"
        'title: "# pokerrules: ignore[W103]"\n'  # inside a string: no comment
        "source: a#pokerrules: ignore[W102]\n"  # no space before '#': part of the value
        "# pokerrules: ignore\n"
    )
    found = [(c.codes, c.line, c.col) for c in ignore_comments(text)]
    assert found == [(("W104",), 1, 1), (("W101", "E1"), 2, 10), ((), 5, 1)]


def test_a_comment_ignores_codes_for_its_file(tmp_path: Path) -> None:
    path = write(tmp_path, "seven.yaml", TOO_MANY)
    assert codes_of(path) == ["W104"]
    path.write_text("# pokerrules: ignore[W104]\n" + TOO_MANY, encoding="utf-8")
    assert codes_of(path) == []
    path.write_text(TOO_MANY.replace("hand: {size: 7}", "hand: {size: 7}  # pokerrules: ignore[W]"), "utf-8")
    assert codes_of(path) == []
    code, out, _ = run("check", "--strict", str(path))
    assert code == 0 and "no problems" in out


def test_an_ignore_comment_naming_no_code_or_an_unknown_one_is_w140(tmp_path: Path) -> None:
    path = write(tmp_path, "seven.yaml", "# pokerrules: ignore[W104, W999]\n" + TOO_MANY)
    (found,) = check_file(path)
    assert (found.code, found.line, found.col, found.severity) == ("W140", 1, 1, "warning")
    assert "W999" in found.message
    path.write_text(TOO_MANY + "# pokerrules: ignore\n", encoding="utf-8")
    assert codes_of(path) == ["W104", "W140"]
    # W140 itself answers to --ignore, not to a comment
    assert codes_of(path, Selection(ignore=("W140",))) == ["W104"]


def test_a_parents_comment_covers_what_is_located_in_the_parent(tmp_path: Path) -> None:
    write(tmp_path, "parent.yaml", TWO_WARNINGS.replace("name: small\n", "name: small\n# pokerrules: ignore[W103]\n"))
    child = write(tmp_path, "child.yaml", "name: child\nextends: parent.yaml\n")
    assert codes_of(tmp_path / "parent.yaml") == ["W101", "E101"]
    # W101 is the parent's own, examples are not inherited, and W103 lies in the parent, which ignores it
    assert codes_of(child) == []


def test_a_childs_comment_covers_what_checking_it_finds_in_its_parent(tmp_path: Path) -> None:
    parent = write(tmp_path, "parent.yaml", SHADOWED)
    child = write(tmp_path, "child.yaml", "name: child\nextends: parent.yaml\n")
    assert codes_of(parent) == codes_of(child) == ["W103"]
    child.write_text("name: child\nextends: parent.yaml  # pokerrules: ignore[W103]\n", encoding="utf-8")
    assert codes_of(child) == [] and codes_of(parent) == ["W103"]
