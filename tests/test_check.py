"""Tests for ``pokerrules check`` (evaluator/check.py): the broken-file corpus,
coverage and reachability, reporting formats, exit codes, the code registry,
the pre-commit hook, the schema modeline and ``pokerrules schema``.

The corpus: every ``tests/broken/*.yaml`` holds exactly one problem and says
in its header comments what ``check`` must report for it::

    # expect: CODE LINE:COL
    # problem: what is wrong (for the reader)
    # message: a piece of the message       (optional)
    # hint: a piece of the hint             (optional)

``tests/broken/parents/`` holds valid files the corpus extends.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import pytest
from samples import SMALL

from evaluator.cli.main import main
from evaluator.core import codes
from evaluator.core.errors import Diagnostic
from evaluator.core.resources import grammar_dir, rulesets_dir
from evaluator.rules.build import build_ruleset as build_rules
from evaluator.rules.load import Document, parse_yaml
from evaluator.ruleset import Ruleset
from evaluator.tools import check, coverage_cache, lint_coverage
from evaluator.tools.check import check_file, check_paths, render


def build_ruleset(document: Document) -> Ruleset:
    """A document built as the facade's Ruleset (the linter uses its engine)."""
    return build_rules(document, kind=Ruleset)


REPO = Path(__file__).resolve().parents[1]
BROKEN = Path(__file__).resolve().parent / "broken"
MODELINE = "# yaml-language-server: $schema=../grammar/ruleset.schema.json"


#: A progress line: check's own, or the bar of a table build that took over a second.
PROGRESS_LINE = re.compile(
    r"(pokerrules check: .* \.\.\.|pokerrules: .* \[[#-]{30}\] +\d+%|pokerrules: .* done in [\d.]+ s)?"
)


def only_progress(err: str) -> bool:
    """stderr holds nothing but progress lines (shown once work has run a second)."""
    return all(PROGRESS_LINE.fullmatch(line) for line in err.splitlines())


def run_cli(argv: Sequence[str]) -> tuple[int, str, str]:
    """Run the command line in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- the corpus


@dataclass(frozen=True)
class Expected:
    """What the header of a corpus file says ``check`` must report."""

    path: Path
    code: str
    line: int
    col: int
    message: str | None
    hint: str | None


_HEADER = re.compile(r"^# (expect|problem|message|hint): (.*)$")


def _expected(path: Path) -> Expected:
    fields: dict[str, str] = {}
    for raw in path.read_bytes().split(b"\n"):
        match = _HEADER.match(raw.decode("utf-8", "replace"))
        if not match:
            break
        fields[match.group(1)] = match.group(2)
    code, where = fields["expect"].split()
    line, col = (int(part) for part in where.split(":"))
    return Expected(path, code, line, col, fields.get("message"), fields.get("hint"))


CORPUS = sorted(BROKEN.glob("*.yaml"))


def test_the_corpus_is_large_and_covers_every_check() -> None:
    codes_in_corpus = {_expected(path).code for path in CORPUS}
    assert len(CORPUS) >= 40
    required = {
        # loading and hostile input
        "Y103",
        "Y104",
        "Y105",
        "Y106",
        "Y108",
        "Y109",
        "Y110",
        "Y111",
        "Y112",
        "Y114",
        "Y115",
        "Y116",
        # schema: unknown keys (did you mean), types, values, required keys, limits
        "S101",
        "S102",
        "S103",
        "S104",
        "S105",
        # pattern syntax and meaning: unbound variable, rank not in the deck, run longer than the deck
        "P101",
        "P102",
        "P103",
        "P104",
        "P105",
        "P106",
        "P107",
        "P108",
        "P109",
        "P201",
        "P202",
        "P203",
        "P204",
        "P205",
        "P206",
        "P207",
        "P208",
        "P209",
        "P210",
        "P215",
        "P216",
        "P217",
        "P218",
        "P219",
        # order, deck too small, wild cards not in the deck, coverage, dead jokers
        "R101",
        "R103",
        "R105",
        "R107",
        "R108",
        "R109",
        "R111",
        "R112",
        "R113",
        "R114",
        # examples, lint warnings, games
        "E101",
        "E102",
        "E103",
        "W101",
        "W102",
        "W103",
        "W104",
        "R130",
        "R131",
        "G101",
        "G102",
        # dealer's-choice games: streets, deal-decided wild cards, card halves, declare, runs, extra cards
        "G113",
        "G114",
        "G115",
        "G116",
        "G117",
        "G118",
    }
    assert required <= codes_in_corpus, sorted(required - codes_in_corpus)


@pytest.mark.parametrize("path", CORPUS, ids=[path.stem for path in CORPUS])
def test_broken_file(path: Path) -> None:
    expected = _expected(path)
    found = check_file(path)
    assert len(found) == 1, "\n".join(map(str, found))
    diagnostic = found[0]
    assert (diagnostic.code, diagnostic.line, diagnostic.col) == (expected.code, expected.line, expected.col), str(
        diagnostic
    )
    assert diagnostic.source == str(path)
    assert diagnostic.severity == ("warning" if expected.code.startswith("W") else "error")
    if expected.message:
        assert expected.message in diagnostic.message
    if expected.hint:
        assert diagnostic.hint is not None and expected.hint in diagnostic.hint


def test_the_whole_corpus_in_one_run() -> None:
    """One run reports every file's problem; no broken file stops the others."""
    code, out, err = run_cli(["check", "--format", "json", str(BROKEN)])
    assert code == 1 and only_progress(err)
    reported = {(Path(d["path"]).name, d["code"], d["line"], d["col"]) for d in json.loads(out)}
    wanted = {(e.path.name, e.code, e.line, e.col) for e in map(_expected, CORPUS)}
    assert wanted <= reported
    # the valid parents are checked too (directories are searched recursively) and are clean
    assert not any("parents" in Path(d["path"]).parts for d in json.loads(out))


# --------------------------------------------------------------------------- coverage and reachability


def _reached_by_brute_force(text: str) -> tuple[set[str], bool]:
    """Categories reached and whether some hand matches none, by evaluating every real hand."""
    ruleset = build_ruleset(parse_yaml(text, "brute.yaml"))
    deck = list(ruleset.deck) * ruleset.copies
    reached, hole = set(), False
    for size in range(ruleset.hand_min, ruleset.hand_size + 1):
        for hand in set(combinations(sorted(deck, key=str), size)):
            fill = ruleset.engine.best(list(hand), [hand])
            if fill is None:
                hole = True
            else:
                reached.add(fill.classification.category.name)
    return reached, hole


def _analysis(text: str) -> coverage_cache.Analysis:
    ruleset = build_ruleset(parse_yaml(text, "a.yaml"))
    return check._Linter(ruleset, "a.yaml")._analysis()


TINY = """\
deck: {ranks: [T, J, Q, K, A], suits: [s, h]}
hand: {size: 4, min: 3}
categories:
  four:   {pattern: "XXXX"}
  flush:  {pattern: "flush"}
  run:    {pattern: "run"}
  trips:  {pattern: "XXX Y"}
  twos:   {pattern: "XX YY"}
  pair:   {pattern: "XX Y Z"}
  high:   {pattern: "X Y Z W"}
order: [four, flush, run, trips, twos, pair, high]
"""


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(TINY, id="natural"),
        pytest.param(TINY.replace('"XX Y Z"', '"XX Y Z & X >= Q"'), id="natural-with-holes"),
        pytest.param(TINY.replace("suits: [s, h]}", "suits: [s, h], jokers: 1}"), id="joker-wild"),
        pytest.param(TINY.replace("suits: [s, h]}", "suits: [s, h]}\nwild: {ranks: [T]}"), id="tens-wild"),
        pytest.param(TINY.replace("suits: [s, h]}", "suits: [s, h]}\nwild: {lowest_rank: true}"), id="lowest-wild"),
        pytest.param(TINY.replace("suits: [s, h]}", "suits: [s, h], copies: 2}"), id="two-packs"),
        pytest.param(TINY.replace("suits: [s, h]}", "suits: [s, h]}\nwild: {cards: [Js, Ah]}"), id="wild-cards"),
        pytest.param(
            TINY.replace('"flush"}', '"flush & suit = h"}').replace(
                "suits: [s, h]}", "suits: [s, h]}\nwild: {cards: [Jh]}"
            ),
            id="wild-card-and-suit-pattern",
        ),
        pytest.param(
            TINY.replace("suits: [s, h]}", "suits: [s, h], jokers: 1}\nwild: {jokers: false}"), id="dead-joker"
        ),
    ],
)
def test_enumeration_agrees_with_evaluating_every_hand(text: str) -> None:
    """The class enumeration finds exactly what evaluating every real hand finds."""
    reached, hole = _reached_by_brute_force(text)
    analysis = _analysis(text)
    assert analysis.complete
    assert analysis.reached == reached
    dead_jokers = "jokers: false" in text
    # dead jokers are reported on their own (R114); the enumeration leaves them out
    assert bool(analysis.holes) == (hole and not dead_jokers)


def test_incomplete_hands_hole_is_reported_per_size() -> None:
    # three odd cards leave W unbound, so the comparison fails: only incomplete hands are holes
    analysis = _analysis(TINY.replace('{pattern: "X Y Z W"}', '{pattern: "X Y Z W & W >= T"}'))
    assert [hole.size for hole in analysis.holes] == [3]
    assert len(analysis.holes[0].example) == 3


ROYAL = 'categories:\n  royal: {pattern: "run & flush & top = A"}\n'


def test_inherited_unused_category_is_not_a_warning(tmp_path: Path) -> None:
    """A child is not blamed for a category its parent defines and it does not rank."""
    write(tmp_path, "parent.yaml", SMALL.replace("categories:\n", ROYAL))
    child = write(tmp_path, "child.yaml", "extends: parent.yaml\nname: child\n")
    assert [d.code for d in check_file(child)] == []
    (found,) = check_file(tmp_path / "parent.yaml")
    assert (found.code, found.line, found.col) == ("W101", 6, 3)
    assert "As Ks Qs Js Ts" in found.message and "ranked as 'flush'" in found.message


def test_unused_category_no_hand_can_match_is_a_definition_for_children(tmp_path: Path) -> None:
    """Five of a kind in a one-pack deck: kept for rulesets that extend this one, not a warning."""
    path = write(tmp_path, "r.yaml", SMALL.replace("categories:\n", 'categories:\n  five: {pattern: "XXXXX"}\n'))
    assert check_file(path) == []
    assert check_file(rulesets_dir() / "standard.yaml") == []


def test_inherited_problem_is_reported_at_extends_with_a_note(tmp_path: Path) -> None:
    write(tmp_path, "parent.yaml", SMALL)
    child = write(
        tmp_path,
        "child.yaml",
        "name: child\nextends: parent.yaml\nhand: {size: 5, min: 4}\n"
        'categories:\n  high_card: {pattern: "X Y Z W V & V >= 9"}\n',
    )
    (found,) = check_file(child)
    assert (found.code, found.source, found.line, found.col) == ("R113", str(child), 2, 10)
    assert "inherited from" in found.message and "parent.yaml:" in found.message


def test_misspelt_order_name_is_one_problem_not_two(tmp_path: Path) -> None:
    path = write(tmp_path, "r.yaml", SMALL.replace(", pair, high_card]", ", pair, hihg_card]"))
    assert [d.code for d in check_file(path)] == ["R101"]


def test_enumeration_limit_is_fast(tmp_path: Path) -> None:
    path = write(
        tmp_path, "r.yaml", 'hand: {size: 10}\ncategories:\n  any: {pattern: "flush | not flush"}\norder: [any]\n'
    )
    started = time.perf_counter()
    found = check_file(path)
    assert time.perf_counter() - started < 2.0
    # ten-card hands: neither enumerated nor built (the tables would take a minute)
    assert [(d.code, d.line, d.col) for d in found] == [("R130", 1, 14)]
    seven = (
        'hand: {size: 7}\ncategories:\n  h: {pattern: "flush & suit = h"}\n  any: {pattern: "not (flush & suit = h)"}\n'
    )
    started = time.perf_counter()
    found = check_file(write(tmp_path, "seven.yaml", seven + "order: [h, any]\n"))
    assert time.perf_counter() - started < 2.0
    assert [(d.code, d.line, d.col) for d in found] == [("W104", 1, 14)]  # too many to enumerate, not to build


def test_enumeration_limit_can_be_lowered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, "r.yaml", SMALL)
    assert check_file(path) == []
    monkeypatch.setattr(lint_coverage, "MAX_COVERAGE_WORK", 100)
    assert [d.code for d in check_file(path)] == ["W104"]


def test_hole_example_is_real_cards_of_the_deck(tmp_path: Path) -> None:
    path = write(
        tmp_path, "r.yaml", SMALL.replace('  two_pair:        {pattern: "XX YY Z"}\n', "").replace(" two_pair,", "")
    )
    (found,) = check_file(path)
    assert found.code == "R113"
    example = re.search(r"such as (.*?) matches", found.message)
    assert example is not None
    ruleset = build_ruleset(parse_yaml(SMALL, "s.yaml"))
    assert ruleset.evaluate(example.group(1)).category == "two_pair"


def test_the_wild_catalogue_files_reach_five_of_a_kind() -> None:
    for name in ("joker-wild", "deuces-wild", "two-decks"):
        path = rulesets_dir() / f"{name}.yaml"
        if not path.exists():
            continue
        assert not [d for d in check_file(path) if d.code in ("W102", "W103", "R113")], name


# --------------------------------------------------------------------------- running many files


def test_a_broken_file_never_stops_the_others(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "a: [1, 2\n")
    write(tmp_path, "b.yaml", "- not a mapping\n")
    write(tmp_path, "c.yaml", SMALL.replace('"XX Y Z W"', '"XX Y Z W &"'))
    write(tmp_path, "d.yaml", SMALL)
    diagnostics, problem = check_paths([str(tmp_path)])
    assert problem is None
    assert [(Path(d.source).name, d.code) for d in diagnostics] == [
        ("a.yaml", "Y103"),
        ("b.yaml", "Y108"),
        ("c.yaml", "P101"),
    ]


def test_an_internal_error_is_a_diagnostic_not_a_crash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "a.yaml", SMALL + 'examples:\n  - "As Ks Qs Js 9s is straight"\n')
    write(tmp_path, "b.yaml", SMALL.replace('"XX Y Z W"', '"XX Y Z W &"'))

    def boom(self: object) -> list[Diagnostic]:
        raise ZeroDivisionError("simulated bug")

    monkeypatch.setattr(check._Linter, "diagnostics", boom)
    monkeypatch.delenv("POKERRULES_RAISE_INTERNAL")  # as users run it (the suite raises instead)
    diagnostics, _ = check_paths([str(tmp_path)])
    # the coverage stage failed; the examples of the same file and the other file were still checked
    assert [(Path(d.source).name, d.code) for d in diagnostics] == [
        ("a.yaml", "R199"),
        ("a.yaml", "E101"),
        ("b.yaml", "P101"),
    ]
    assert "simulated bug" in diagnostics[0].message


def test_every_diagnostic_of_a_file_is_reported(tmp_path: Path) -> None:
    text = (
        SMALL.replace('"XX Y Z W"', '"XX Y Z W & V > 9"')
        .replace('"XXX YY"', '"XXX YYY"')
        .replace("order: [", "order: [nope, ")
    )
    found = check_file(write(tmp_path, "r.yaml", text))
    assert sorted(d.code for d in found) == ["P201", "P203", "R101"]
    assert [d.line for d in found] == sorted(d.line for d in found)


def test_directories_are_searched_recursively_skipping_hidden(tmp_path: Path) -> None:
    write(tmp_path, "top.yaml", SMALL)
    (tmp_path / "deep" / "er").mkdir(parents=True)
    write(tmp_path / "deep" / "er", "inner.yml", SMALL)
    write(tmp_path / "deep", "notes.txt", "not yaml")
    (tmp_path / ".github").mkdir()
    write(tmp_path / ".github", "ci.yaml", "on: push\n")
    write(tmp_path, ".pre-commit-config.yaml", "repos: []\n")
    files, problem = check.find_files([str(tmp_path), str(tmp_path / "top.yaml")])
    assert problem is None
    assert sorted(p.name for p in files) == ["inner.yml", "top.yaml"]


def test_a_problem_in_a_shared_parent_is_reported_once(tmp_path: Path) -> None:
    write(tmp_path, "parent.yaml", SMALL.replace('"XX Y Z W"', '"XX Y Z W &"'))
    write(tmp_path, "one.yaml", "extends: parent.yaml\n")
    write(tmp_path, "two.yaml", "extends: parent.yaml\n")
    diagnostics, _ = check_paths([str(tmp_path)])
    assert [d.code for d in diagnostics] == ["P101"]


# --------------------------------------------------------------------------- formats and exit codes


def test_exit_codes(tmp_path: Path) -> None:
    good = write(tmp_path, "good.yaml", SMALL)
    warned = write(tmp_path, "warned.yaml", SMALL.replace("categories:\n", ROYAL))
    bad = write(tmp_path, "bad.yaml", "a: [\n")
    assert run_cli(["check", str(good)]) == (0, "checked 1 file: no problems\n", "")
    assert run_cli(["check", str(warned)])[0] == 0
    assert run_cli(["check", "--strict", str(warned)])[0] == 1
    assert run_cli(["check", str(good), str(bad)])[0] == 1
    # a missing path is a Y101 diagnostic (exit 1), and the other paths are still checked
    code, out, err = run_cli(["check", str(tmp_path / "missing.yaml"), str(bad)])
    assert code == 1 and err == ""
    assert out.splitlines()[0].startswith(f"{tmp_path / 'missing.yaml'}:1:1: error Y101: cannot read")
    assert f"{bad}:2:1: error Y103" in out and out.endswith("checked 2 files: 2 errors\n")


def test_text_json_and_github_formats(tmp_path: Path) -> None:
    path = write(tmp_path, "a,b:c.yaml", SMALL.replace("order: [", "order: [nope, "))
    code, text, _ = run_cli(["check", str(path)])
    assert code == 1
    assert text.splitlines()[0] == f"{path}:14:9: error R101: order names category 'nope', which is not defined"
    code, out, _ = run_cli(["check", "--format", "json", str(path)])
    (item,) = json.loads(out)
    assert item == {
        "path": str(path),
        "line": 14,
        "col": 9,
        "severity": "error",
        "code": "R101",
        "message": "order names category 'nope', which is not defined",
        "hint": None,
    }
    assert run_cli(["check", "--json", str(path)])[1] == out
    code, out, _ = run_cli(["check", "--format", "github", str(path)])
    escaped = str(path).replace(":", "%3A").replace(",", "%2C")
    assert (
        out == f"::error file={escaped},line=14,col=9,title=R101::order names category 'nope', which is not defined\n"
    )


def test_github_format_escapes_newlines_and_percent() -> None:
    diagnostic = Diagnostic("W102", "100% unreachable\nreally", "r.yaml", 2, 3, "warning", "remove it")
    assert (
        render([diagnostic], "github")
        == "::warning file=r.yaml,line=2,col=3,title=W102::100%25 unreachable\\x0areally%0Ahint: remove it\n"
    )


# --------------------------------------------------------------------------- the catalogue


def test_catalogue_passes_check_strict() -> None:
    code, out, err = run_cli(["check", "--strict", "--format", "json", str(rulesets_dir())])
    assert only_progress(err)
    found = json.loads(out)
    assert code == 0, "\n".join(f"{d['path']}:{d['line']}:{d['col']}: {d['code']} {d['message']}" for d in found)


@pytest.mark.parametrize("path", sorted(rulesets_dir().glob("*.yaml")), ids=lambda p: p.stem)
def test_catalogue_file_starts_with_the_schema_modeline(path: Path) -> None:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first == MODELINE
    # the modeline points at the schema from where the file sits
    target = (path.parent / MODELINE.split("$schema=")[1]).resolve()
    assert target == (grammar_dir() / "ruleset.schema.json").resolve()


def test_schema_command_prints_the_schema() -> None:
    code, out, err = run_cli(["schema"])
    assert code == 0 and only_progress(err)
    printed = json.loads(out)
    assert printed == json.loads((grammar_dir() / "ruleset.schema.json").read_text(encoding="utf-8"))
    assert printed["$schema"].startswith("https://json-schema.org/")
    assert "categories" in printed["properties"]


def test_schema_reads_the_same_for_draft_07_editors() -> None:
    """Editors validate each file as written, often with a draft-07 validator (docs/editors.md)."""
    from jsonschema import Draft7Validator, Draft202012Validator

    schema = json.loads((grammar_dir() / "ruleset.schema.json").read_text(encoding="utf-8"))
    old, new = Draft7Validator(schema), Draft202012Validator(schema)
    for path in sorted(rulesets_dir().glob("*.yaml")) + sorted(BROKEN.glob("S1*.yaml")):
        data = parse_yaml(path.read_text(encoding="utf-8"), str(path)).data
        assert old.is_valid(data) == new.is_valid(data), path.name
        if path.parent == rulesets_dir() and "extends" not in data:
            # No red squiggles in a complete file. (A file that extends another may
            # override part of a category, e.g. only its describe:, which the schema,
            # written for the merged ruleset, reports as a missing pattern.)
            assert old.is_valid(data), path.name


# --------------------------------------------------------------------------- the code registry


_CODE_LITERAL = re.compile(r"""["']([A-Z]\d{3})["']""")


def _codes_in_sources() -> dict[str, list[str]]:
    used: dict[str, list[str]] = {}
    for source in sorted((REPO / "evaluator").rglob("*.py")):
        for code in _CODE_LITERAL.findall(source.read_text(encoding="utf-8")):
            used.setdefault(code, []).append(source.name)
    return used


def test_every_code_used_is_registered() -> None:
    used = _codes_in_sources()
    missing = {code: files for code, files in used.items() if code not in codes.CODES}
    assert not missing, f"add these codes to evaluator/codes.py: {missing}"


def test_every_registered_code_is_used() -> None:
    stale = sorted(set(codes.CODES) - set(_codes_in_sources()))
    assert not stale, f"codes in evaluator/codes.py that nothing reports: {stale}"


def test_registry_is_well_formed() -> None:
    for code, meaning in codes.CODES.items():
        assert re.fullmatch(r"[A-Z]\d{3}", code) and code[0] in codes.RANGES
        assert meaning and "\n" not in meaning and "|" not in meaning


def test_docs_codes_md_is_generated_from_the_registry() -> None:
    text = (REPO / "docs" / "codes.md").read_text(encoding="utf-8")
    assert text == codes.markdown(), "regenerate: python -m evaluator.core.codes > docs/codes.md"
    for code in codes.CODES:
        assert f"| `{code}` |" in text


def test_a_hand_the_evaluator_refuses_stops_coverage_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the evaluator cannot fill a hand's wild cards, coverage is not decided (W104, not a crash)."""
    import evaluator.engine.evaluate as evaluate

    monkeypatch.setattr(evaluate, "MAX_WILD_CHOICES", 10)
    path = write(
        tmp_path, "r.yaml", SMALL.replace("  ranks: [9, T, J, Q, K, A]\n", "  ranks: [9, T, J, Q, K, A]\n  jokers: 2\n")
    )
    (found,) = check_file(path)
    assert (found.code, found.severity) == ("W104", "warning")
    assert "refuses some hands" in found.message


def test_check_judges_the_examples_without_building_tables(tmp_path: Path, own_cache: Path) -> None:
    """A file's examples are judged by the generic evaluator: a cold check builds no lookup tables for
    them (a first build takes seconds for a ruleset walked by suit class), and still finds a wrong one."""
    import subprocess
    import sys

    from evaluator import load
    from evaluator.compiled.fasthand import WARM_CALLS

    text = (rulesets_dir() / "standard.yaml").read_text(encoding="utf-8")
    path = write(tmp_path, "house.yaml", text.replace("examples:\n", 'examples:\n  - "Ah Kh Qh Jh Th is pair"\n', 1))
    # enough calls that the tables would be loaded for the rest: each comparison evaluates two hands
    examples = [str(example.value) for example in load(str(path)).examples]
    assert sum(3 if any(op in text for op in "<>=") else 1 for text in examples) > WARM_CALLS
    done = subprocess.run(
        [sys.executable, "-m", "evaluator", "check", str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 1 and "E101" in done.stdout + done.stderr, done.stdout + done.stderr
    assert "royal_flush, not pair" in done.stdout + done.stderr
    assert list(own_cache.glob("*.coverage")) and not list(own_cache.glob("*.tables")), sorted(own_cache.iterdir())
