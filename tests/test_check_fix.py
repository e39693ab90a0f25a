"""Quick fixes and ``pokerrules check --fix`` (evaluator/tools/check_fix.py).

The fixes come from the hints ``check`` gives: every file of the broken
corpus whose problem has a preferred fix is fixed by ``check --fix`` with
exactly that fix's edit, and is clean afterwards.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
from pathlib import Path

import pytest
from samples import SMALL

from evaluator.cli.main import main
from evaluator.core.errors import Diagnostic
from evaluator.tools.check import check_file, examine_file
from evaluator.tools.check_fix import Fix, apply_fixes, fixes_for, suggestions

BROKEN = Path(__file__).resolve().parent / "broken"
CORPUS = sorted(BROKEN.glob("*.yaml"))
STANDARD_ORDER = "royal_flush, straight_flush, four_of_a_kind, full_house, flush, straight, three_of_a_kind, two_pair, pair, high_card"


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(list(args))
    return code, out.getvalue()


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def offered(path: Path) -> list[tuple[Diagnostic, list[Fix]]]:
    """Each diagnostic of a file with the fixes offered for it."""
    examined = examine_file(path)
    text = path.read_text(encoding="utf-8", errors="replace")
    return [(d, fixes_for(d, text, examined.document)) for d in examined.diagnostics]


def fixed_by_cli(path: Path) -> str:
    code, out = run("check", "--fix", str(path))
    assert "fixed" in out
    return path.read_text(encoding="utf-8")


# --- the corpus -----------------------------------------------------------------------


def _fixable(path: Path) -> bool:
    return any(fix.preferred for _, fixes in offered(path) for fix in fixes)


FIXABLE = [path for path in CORPUS if _fixable(path)]


def test_the_corpus_has_a_fix_for_each_kind_of_hint() -> None:
    codes = {path.name.split("-")[0] for path in FIXABLE}
    # keys, categories (order, patterns, W101), filters, catalogue names
    assert {"S101", "R101", "P206", "T102", "W101", "Y111"} <= codes, codes


@pytest.mark.parametrize("source", FIXABLE, ids=[path.stem for path in FIXABLE])
def test_check_fix_applies_exactly_the_quick_fix_and_leaves_the_file_clean(source: Path, tmp_path: Path) -> None:
    path = tmp_path / source.name
    shutil.copy(source, path)
    ((diagnostic, fixes),) = offered(path)
    preferred = [fix for fix in fixes if fix.preferred]
    assert len(preferred) == 1, diagnostic
    expected, _ = apply_fixes(path.read_text(encoding="utf-8"), preferred)
    assert fixed_by_cli(path) == expected
    assert check_file(path) == []


# --- did you mean ---------------------------------------------------------------------


def test_suggestions_are_read_from_the_hint() -> None:
    assert suggestions("did you mean 'pair'?") == ["pair"]
    assert suggestions("did you mean 'a.yaml' or 'b.yaml'?") == ["a.yaml", "b.yaml"]
    assert suggestions("did you mean it under 'wild:'? indent it with spaces") == []
    assert suggestions(None) == []


def test_several_spellings_are_offered_and_none_is_applied(tmp_path: Path) -> None:
    path = write(tmp_path, "r.yaml", "name: r\nextends: standard\ncategories:\n  pair: {describe: x}\n")
    diagnostic = Diagnostic("S101", "unknown key 'pare'", str(path), 4, 3, hint="did you mean 'pair' or 'par'?")
    text = path.read_text(encoding="utf-8").replace("pair:", "pare:")
    fixes = fixes_for(diagnostic, text)
    assert [fix.title for fix in fixes] == ["Replace 'pare' with 'pair'", "Replace 'pare' with 'par'"]
    assert not any(fix.preferred for fix in fixes)


def test_no_fix_when_the_word_is_not_where_the_diagnostic_points() -> None:
    text = "name: r\ntitle: x\n"
    wrong_place = Diagnostic("S101", "unknown key 'titel'", "r.yaml", 1, 1, hint="did you mean 'title'?")
    assert fixes_for(wrong_place, text) == []
    past_the_end = Diagnostic("S101", "unknown key 'titel'", "r.yaml", 9, 1, hint="did you mean 'title'?")
    assert fixes_for(past_the_end, text) == []


def test_a_quoted_word_is_replaced_inside_its_quotes(tmp_path: Path) -> None:
    path = write(tmp_path, "r.yaml", 'name: r\nextends: "standrd"\n')
    assert fixed_by_cli(path) == 'name: r\nextends: "standard"\n'


@pytest.mark.parametrize("written", ["'As Ks Qs Js 9s beats Kh Kd Qc Jd 9h'", "As Ks Qs Js 9s beats Kh Kd Qc Jd 9h"])
def test_an_example_rewritten_by_the_hint_is_replaced_whole(tmp_path: Path, written: str) -> None:
    """E102's hint is the whole example as it should read: the fix replaces the example, not its first card."""
    path = write(tmp_path, "r.yaml", f"{SMALL}examples:\n  - {written}\n")
    fixed = written.replace(" beats ", " > ")
    assert fixed_by_cli(path) == f"{SMALL}examples:\n  - {fixed}\n"
    assert check_file(path) == []


def test_ranks_written_as_numbers_letters_or_words(tmp_path: Path) -> None:
    text = (
        f"name: r\nextends: standard\nwild: {{ranks: [1]}}\ncategories:\n"
        f'  low: {{pattern: "X Y Z W V & X in {{2,3,t}}"}}\norder: [{STANDARD_ORDER}, low]\n'
    )
    path = write(tmp_path, "r.yaml", text)
    assert fixed_by_cli(path) == text.replace("[1]", "[A]").replace("3,t}", "3,T}")


def test_several_typos_are_fixed_in_one_run(tmp_path: Path) -> None:
    text = SMALL.replace("name: small", "nme: small").replace(", pair, high_card]", ", piar, high_card]")
    path = write(tmp_path, "r.yaml", text.replace('flush:           {pattern: "flush"}', 'flush: {patern: "flush"}'))
    code, out = run("check", "--fix", str(path))
    assert code == 0 and "fixed 3 problems in 1 file" in out and out.endswith("no problems\n")
    assert path.read_text(encoding="utf-8") == SMALL.replace(
        'flush:           {pattern: "flush"}', 'flush: {pattern: "flush"}'
    )


# --- add a category to order ----------------------------------------------------------

UNRANKED = 'categories:\n  big_pair: {pattern: "XX Y Z W & X >= K"}\n'


def test_an_unranked_category_goes_above_the_one_its_hands_land_in(tmp_path: Path) -> None:
    path = write(tmp_path, "r.yaml", SMALL.replace("categories:\n", UNRANKED))
    ((diagnostic, fixes),) = offered(path)
    assert diagnostic.code == "W101" and [f.title for f in fixes] == ["Add 'big_pair' to order, above 'pair'"]
    assert fixed_by_cli(path) == SMALL.replace("categories:\n", UNRANKED).replace(", pair,", ", big_pair, pair,")
    assert check_file(path) == []


def test_a_block_list_gets_a_new_item_line(tmp_path: Path) -> None:
    block = "order:\n" + "".join(f"  - {name}\n" for name in SMALL.split("order: [")[1].split("]")[0].split(", "))
    text = SMALL.replace("categories:\n", UNRANKED).split("order:")[0] + block
    path = write(tmp_path, "r.yaml", text)
    assert fixed_by_cli(path) == text.replace("  - pair\n", "  - big_pair\n  - pair\n")
    assert check_file(path) == []


def test_an_inherited_order_is_written_into_the_child(tmp_path: Path) -> None:
    write(tmp_path, "parent.yaml", SMALL)
    child = write(tmp_path, "child.yaml", "name: child\nextends: parent.yaml\n" + UNRANKED)
    parent_order = SMALL.split("order: ")[1].strip()
    assert fixed_by_cli(child) == (
        "name: child\nextends: parent.yaml\n"
        + UNRANKED
        + "order: "
        + parent_order.replace(", pair,", ", big_pair, pair,")
        + "\n"
    )
    assert check_file(child) == []


# --- what --fix touches ---------------------------------------------------------------


def test_a_clean_file_is_not_rewritten(tmp_path: Path) -> None:
    path = write(tmp_path, "r.yaml", SMALL)
    os.utime(path, (1_000_000, 1_000_000))
    code, out = run("check", "--fix", str(path))
    assert code == 0 and "fixed nothing" in out
    assert path.stat().st_mtime == 1_000_000 and path.read_text(encoding="utf-8") == SMALL


def test_a_parent_outside_the_files_named_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    typo = SMALL.replace('{pattern: "XX Y Z W"}', '{pattern: "XX Y Z W", desribe: "a pair"}')
    parent = write(tmp_path / "lib", "parent.yaml", typo)
    folder = tmp_path / "rules"
    folder.mkdir()
    child = write(folder, "child.yaml", "name: child\nextends: ../lib/parent.yaml\n")
    code, out = run("check", "--fix", "--root", str(tmp_path), str(child))
    assert code == 1 and "parent.yaml:" in out and "desribe" in out and "fixed nothing" in out
    assert parent.read_text(encoding="utf-8") == typo
