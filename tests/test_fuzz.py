"""Fuzzing: whatever the input, nothing but ``PokerRulesError`` escapes, and the
command line never prints a traceback.

Inputs are random text made mostly of the characters that matter to each
reader, and mutations of valid files (every catalogue ruleset and a small
one): slices replaced, lines dropped, duplicated or swapped. The loader and
the whole ``check`` pipeline, the pattern parser (and the checker, compiler
and matchers behind it), the card reader, and ``pokerrules check`` / ``eval``
end to end are each driven this way.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from functools import cache
from itertools import combinations_with_replacement
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaluator.cli.main import main
from evaluator.core.errors import CardError, PatternError, PokerRulesError
from evaluator.core.resources import rulesets_dir
from evaluator.rules.cards import tokenize
from evaluator.rules.load import Document, load_document, parse_yaml
from evaluator.rules.patterns import (
    HandClass,
    PatternContext,
    Where,
    check_pattern,
    compile_pattern,
    key_terms,
    parse_pattern,
)
from evaluator.ruleset import build_ruleset, load
from evaluator.tools import lint_coverage
from evaluator.tools.check import check_file

SMALL = """\
name: small
deck:
  ranks: [9, T, J, Q, K, A]
  jokers: 1
hand: {size: 5, min: 3}
categories:
  five_of_a_kind:  {pattern: "XXXXX"}
  four_of_a_kind:  {pattern: "XXXX Y"}
  full_house:      {pattern: "XXX YY", describe: "{X:plural} full of {Y:plural}"}
  flush:           {pattern: "flush & suit = h | flush"}
  straight:        {pattern: "run", describe: "{top}-high straight"}
  three_of_a_kind: {pattern: "XXX Y Z"}
  two_pair:        {pattern: "XX YY Z"}
  pair:            {pattern: "XX Y Z W & X >= 9"}
  high_card:       {pattern: "X Y Z W V"}
order: [five_of_a_kind, four_of_a_kind, full_house, flush, straight, three_of_a_kind, two_pair, pair, high_card]
qualifier: "category >= pair | XX Y Z W"
wild: {jokers: true}
examples:
  - "As Ks Qs Js 9s is flush"
  - "As Ah Kd Qc Js > Ks Kh Qd Jc 9s"
  - hand: "X Ah Ad Ac Kh"
    category: five_of_a_kind
"""

SOURCES = [SMALL] + [path.read_text(encoding="utf-8") for path in sorted(rulesets_dir().glob("*.yaml"))]

YAML_CHARS = list(":-[]{}&*!|>#'\"\n\n\n\t ,?%@`\\~=<") + [
    "  ",
    "\n  ",
    "- ",
    ": ",
    "null",
    "true",
    "~",
    "0",
    "5",
    "99999999999999999999",
    "1e9",
    "-1",
    "XX",
    "run",
    "flush",
    "&",
    "|",
    "not ",
    "X >= ",
    "extends: ",
    "standard",
    "!!python/object:os.system",
    "&a ",
    "*a",
    "categories:",
    "order:",
    "deck:",
    "hand:",
    "wild:",
    "examples:",
    "\ufeff",
    "\x00",
    "\x85",
]
PATTERN_TOKENS = [
    "X",
    "Y",
    "Z",
    "W",
    "V",
    "U",
    "XX",
    "YYY",
    "XXXX",
    "XY",
    "run",
    "flush",
    "top",
    "bottom",
    "all",
    "lowest",
    "highest",
    "suit",
    "category",
    "pair",
    "flush",
    "h",
    "s",
    "q",
    "A",
    "K",
    "T",
    "10",
    "2",
    "9",
    "1",
    "=",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "&",
    "and",
    "|",
    "or",
    ",",
    "not",
    "!",
    "(",
    ")",
    " ",
    " ",
    " ",
    "\t",
    "\n",
]
CARD_CHARS = list("23456789TJQKAtjqka10shdcSHDCXx12 ,;\t\n♠♥♦♣♤♡♢♧") + ["10", "X1", "X2", "As", "Kd", "\x1b", "\u202e"]

FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def noise(tokens: list[str], max_size: int) -> st.SearchStrategy[str]:
    """Text made mostly of ``tokens``, with any character mixed in."""
    return st.lists(st.one_of(st.sampled_from(tokens), st.characters()), max_size=max_size).map("".join)


@st.composite
def mutated(draw: st.DrawFn, sources: list[str] = SOURCES) -> str:
    """A valid file with a few slices replaced and lines dropped, doubled or swapped."""
    text = draw(st.sampled_from(sources))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["replace", "replace", "drop-line", "double-line", "swap-lines"]))
        lines = text.split("\n")
        if kind == "replace":
            start = draw(st.integers(0, len(text)))
            end = draw(st.integers(start, min(len(text), start + 20)))
            text = text[:start] + draw(noise(YAML_CHARS, 6)) + text[end:]
            continue
        i = draw(st.integers(0, len(lines) - 1))
        j = draw(st.integers(0, len(lines) - 1))
        if kind == "drop-line":
            del lines[i]
        elif kind == "double-line":
            lines.insert(i, lines[i])
        else:
            lines[i], lines[j] = lines[j], lines[i]
        text = "\n".join(lines)
    return text


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder for fuzzed files (module-scoped: Hypothesis reruns the test body many times)."""
    return tmp_path_factory.mktemp("fuzz")


@contextlib.contextmanager
def small_budget() -> Iterator[None]:
    """Keep the coverage enumeration of fuzzed catalogue files cheap (the limit path is fuzzed too)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lint_coverage, "MAX_COVERAGE_WORK", 40_000)
        yield


# --------------------------------------------------------------------------- the loader and the check pipeline


def _load_or_error(text: str) -> Document | None:
    try:
        return parse_yaml(text, "fuzz.yaml")
    except PokerRulesError as problem:
        assert problem.diagnostics and all(d.line >= 1 and d.col >= 1 for d in problem.diagnostics)
        return None


def _load_and_build(text: str) -> None:
    """Load and build ``text``; only the project's own errors may escape."""
    document = _load_or_error(text)
    if document is not None:
        with contextlib.suppress(PokerRulesError):
            build_ruleset(document)


@settings(FUZZ, max_examples=200)
@given(noise(YAML_CHARS, 120))
def test_loader_random_text(text: str) -> None:
    _load_and_build(text)


@settings(FUZZ, max_examples=200)
@given(mutated())
def test_loader_and_builder_on_mutated_files(text: str) -> None:
    _load_and_build(text)


@settings(FUZZ, max_examples=100)
@given(text=mutated())
def test_check_pipeline_on_mutated_files(folder: Path, text: str) -> None:
    """check_file turns any failure into R199; fuzzing must never see one."""
    path = folder / "mutated.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    with contextlib.suppress(PokerRulesError):
        load_document(path)
    with small_budget():
        found = check_file(path)
    assert not [d for d in found if d.code == "R199"], [str(d) for d in found]
    for diagnostic in found:
        assert diagnostic.line >= 1 and diagnostic.col >= 1 and diagnostic.code[0] in "YSPRETWG"  # a file's families


# --------------------------------------------------------------------------- the pattern parser


@cache
def _classes() -> tuple[HandClass, ...]:
    """A spread of hand classes (full, incomplete, flush or not) to run compiled matchers on."""
    engine = load("standard").engine
    combos = [combo for k in (4, 5) for combo in combinations_with_replacement(range(12, -1, -3), k)]
    return tuple(engine.hand_class(combo, suit) for combo in combos[:30] for suit in (None, "h"))


@cache
def _contexts() -> tuple[PatternContext, ...]:
    """Standard poker's pattern contexts: category patterns, and qualifier/beats ones."""
    standard = load("standard")
    return tuple(
        PatternContext(standard.rank_symbols, standard.suits, 5, True, standard.category_names, allow_categories=flag)
        for flag in (False, True)
    )


@settings(FUZZ, max_examples=400)
@given(st.one_of(noise(PATTERN_TOKENS, 30), st.lists(st.sampled_from(PATTERN_TOKENS), max_size=25).map(" ".join)))
def test_pattern_parser_checker_and_matchers(text: str) -> None:
    try:
        pattern = parse_pattern(text, Where("p.yaml", 3, 10))
    except PatternError as problem:
        assert problem.code.startswith("P1") and problem.first.line >= 3
        return
    key_terms(pattern)
    for context in _contexts():
        problems = check_pattern(pattern, context, text, Where("p.yaml", 3, 10))
        assert all(p.code.startswith("P2") for p in problems)
        if problems:
            continue
        matcher = compile_pattern(pattern, context)
        for hand_class in _classes():
            matcher(hand_class, {})


# --------------------------------------------------------------------------- the card reader


@settings(FUZZ, max_examples=400)
@given(st.one_of(noise(CARD_CHARS, 40), st.text(max_size=40)))
def test_card_reader(text: str) -> None:
    try:
        tokens = tokenize(text)
    except CardError as problem:
        assert problem.code in ("C101", "C107")
        assert 1 <= problem.first.col <= len(text) + 1
        return
    assert all(1 <= token.col <= len(text) for token in tokens)
    for name in ("standard", "joker-wild", "short-deck"):
        with contextlib.suppress(PokerRulesError):
            load(name).evaluate(text)


# --------------------------------------------------------------------------- the command line


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


@settings(FUZZ, max_examples=300)
@given(text=st.one_of(mutated([SMALL]), mutated()), cards=st.one_of(noise(CARD_CHARS, 30), st.just("As Ks Qs Js 9s")))
def test_cli_check_and_eval_never_print_a_traceback(folder: Path, text: str, cards: str) -> None:
    path = folder / "cli.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    with small_budget():
        code, out, err = _run(["check", str(path)])
    assert code in (0, 1) and "Traceback" not in out + err and "R199" not in out
    code, out, err = _run(["eval", str(path), cards])
    # text that starts with '-' reads as an option: a usage error (exit 2)
    allowed = (0, 1, 2) if cards.startswith("-") else (0, 1)
    assert code in allowed and "Traceback" not in err
    assert (code == 0) == (err == "")
