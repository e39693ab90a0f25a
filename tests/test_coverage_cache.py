"""Coverage analyses kept in the disk cache: ``check`` enumerates a ruleset's hand classes
once, later checks read what it found and report exactly the same; a file that is forged,
corrupt or does not fit the rules is refused and the classes are enumerated again."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from signed_files import resign

from evaluator.compiled import suitvalue_cache
from evaluator.core import diskcache
from evaluator.core.resources import CACHE_ENV
from evaluator.rules.load import parse_yaml
from evaluator.ruleset import build_ruleset
from evaluator.tools import check, coverage_cache, lint_coverage
from evaluator.tools.check import check_file
from evaluator.tools.coverage_cache import MAGIC, Analysis

pytestmark = pytest.mark.skipif(not diskcache.SUPPORTED, reason="needs O_NOFOLLOW and dir_fd support")
REPO = Path(__file__).resolve().parents[1]

# A joker wild in a small deck, with something for every check that reads the analysis:
# holes of full and incomplete hands (R113), a category no hand is played as (W102),
# two shadowed ones (W103) and a definition left out of order that hands match (W101).
WILD = """\
deck: {ranks: [9, T, J, Q, K, A], suits: [s, h, d], jokers: 1}
hand: {size: 4, min: 3}
categories:
  four:   {pattern: "XXXX"}
  trips:  {pattern: "XXX Y"}
  flush:  {pattern: "flush"}
  twos:   {pattern: "XX YY"}
  pair:   {pattern: "XX Y Z"}
  spare:  {pattern: "XX YY"}
  aces:   {pattern: "XX Y Z & X = A"}
  unused: {pattern: "XXX Y"}
order: [four, trips, flush, twos, pair, spare, aces]
"""
# Suit classes (flush(3) reads suits within the hand): no landed classes are kept, they
# are worked out from the (cached) valuation when W102 asks for them.
SUITED = """\
deck: {ranks: [9, T, J, Q, K, A], suits: [s, h, d]}
hand: {size: 4}
categories:
  flush:   {pattern: "flush"}
  three:   {pattern: "flush(3)"}
  trips:   {pattern: "XXX Y"}
  pair:    {pattern: "XX Y Z | XX YY"}
  high:    {pattern: "X Y Z W"}
  never:   {pattern: "XXX Y & flush(3)"}
order: [flush, three, trips, pair, high, never]
"""


@pytest.fixture()
def folder(own_cache: Path) -> Iterator[Path]:
    forget()
    yield own_cache
    forget()


def forget() -> None:
    """What a new process would not have: the analyses and valuations kept in memory."""
    lint_coverage._ANALYSES.clear()
    suitvalue_cache.forget()


def enumerations(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The rulesets whose hand classes are enumerated from now on."""
    calls: list[str] = []
    real = lint_coverage._Coverage._enumerate

    def counted(self: lint_coverage._Coverage, analysis: Analysis) -> None:
        calls.append(self.ruleset.name)
        real(self, analysis)

    monkeypatch.setattr(lint_coverage._Coverage, "_enumerate", counted)
    return calls


def analysis_of(text: str) -> tuple[Analysis, lint_coverage._Coverage]:
    ruleset = build_ruleset(parse_yaml(text, "a.yaml"))
    linter = check._Linter(ruleset, "a.yaml")
    return linter._analysis(), linter


def kept_file(text: str) -> Path:
    _, linter = analysis_of(text)
    return coverage_cache.cache_file(linter._fingerprint())


def same(first: Analysis, second: Analysis) -> None:
    assert (second.work, second.complete, second.refused) == (first.work, first.complete, first.refused)
    assert second.holes == first.holes and second.reached == first.reached
    assert list(second.landed.items()) == list(first.landed.items())  # the order decides examples


@pytest.mark.parametrize("text", [WILD, SUITED], ids=["wild", "suit-classes"])
def test_a_kept_analysis_is_read_not_enumerated_and_is_the_same(
    folder: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    calls = enumerations(monkeypatch)
    first, linter = analysis_of(text)
    assert len(calls) == 1 and coverage_cache.cache_file(linter._fingerprint()).is_file()
    assert first.reached and (first.holes and first.landed if text is WILD else first.landed_later is not None)
    forget()
    again, _ = analysis_of(text)
    assert len(calls) == 1  # read, not enumerated
    same(first, again)


def test_check_of_a_wild_card_ruleset_is_the_same_warm_as_cold(folder: Path, tmp_path: Path) -> None:
    """Fresh processes: the first enumerates and keeps, the second reads; text and JSON agree byte for byte."""
    path = tmp_path / "wild.yaml"
    path.write_text(WILD, encoding="utf-8")
    env = {**os.environ, CACHE_ENV: str(folder)}

    def run(*extra: str) -> subprocess.CompletedProcess[str]:
        argv = [sys.executable, "-m", "evaluator", "check", str(path), *extra]
        return subprocess.run(argv, capture_output=True, text=True, env=env, cwd=REPO, timeout=120)

    cold_text, cold_json = run(), run("--json")
    kept = list(folder.glob(f"*{coverage_cache.SUFFIX}"))
    assert len(kept) == 1
    written = kept[0].stat().st_ino
    warm_text, warm_json = run(), run("--json")
    assert kept[0].stat().st_ino == written  # read, not written again (a write renames a new file in)
    for cold, warm in ((cold_text, warm_text), (cold_json, warm_json)):
        assert (warm.returncode, warm.stdout) == (cold.returncode, cold.stdout)
        assert cold.returncode == 1
    codes = [item["code"] for item in json.loads(cold_json.stdout)]
    assert sorted(codes) == ["R113", "R113", "W101", "W102", "W103", "W103"]  # holes and landed classes both read


def test_a_catalogue_file_whose_check_asks_for_landed_classes_is_the_same_warm(folder: Path) -> None:
    """Low Hole Wild: two variants of wild cards a deal decides, and a category reached in
    one of them only (its reason is looked for in the landed classes)."""
    path = REPO / "rulesets" / "low-hole-wild.yaml"
    cold = check_file(path)
    assert list(folder.glob(f"*{coverage_cache.SUFFIX}"))
    forget()
    assert check_file(path) == cold


def with_summary(change: Callable[[dict[str, Any]], None]) -> Callable[[bytes], bytes]:
    return with_arrays(lambda arrays: _change_summary(arrays, change))


def _change_summary(arrays: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> None:
    summary = json.loads(arrays["summary"].tobytes())
    change(summary)
    arrays["summary"] = np.frombuffer(json.dumps(summary).encode(), dtype=np.uint8)


def with_arrays(change: Callable[[dict[str, Any]], None]) -> Callable[[bytes], bytes]:
    """A payload change: the kept arrays passed through ``change`` (in place)."""

    def changed(payload: bytes) -> bytes:
        with np.load(io.BytesIO(payload), allow_pickle=False) as archive:
            arrays = {name: archive[name].copy() for name in archive.files}
        change(arrays)
        buffer = io.BytesIO()
        np.savez(buffer, **arrays)
        return buffer.getvalue()

    return changed


def _set_cell(row: int, column: int, value: int) -> Callable[[dict[str, Any]], None]:
    def change(arrays: dict[str, Any]) -> None:
        arrays["landed"][row, column] = value

    return change


def _hole_card(summary: dict[str, Any]) -> None:
    summary["holes"][0][1][0] = ["2", "s", 0]  # no deuce in this deck


SPOILS: dict[str, Callable[[bytes], bytes] | None] = {
    "forged": None,  # signed with another key
    "control": lambda payload: payload,  # rewritten as it was: still read
    "not-arrays": lambda payload: b"PK\x03\x04 not a zip archive",
    "rank-out-of-range": with_arrays(_set_cell(0, 0, 6)),  # six ranks: values 0 to 5
    "strength-out-of-range": with_arrays(_set_cell(0, 3 * 4 + 2, 99)),  # columns: 4 ranks, 4 groups, then
    "lands-in-no-category": with_arrays(_set_cell(0, 3 * 4 + 4, 99)),  # flush, top, strength, wilds, category
    "group-of-none": with_arrays(_set_cell(0, 4, 0)),
    "lands-where-none-reached": with_summary(lambda s: s["reached"].remove("trips")),
    "unknown-category": with_summary(lambda s: s["reached"].append("royal")),
    "hole-card-not-in-deck": with_summary(_hole_card),
    "hole-of-impossible-size": with_summary(lambda s: s["holes"][0].__setitem__(0, 9)),
    "work-over-limit": with_summary(lambda s: s.__setitem__("work", lint_coverage.MAX_COVERAGE_WORK + 1)),
    "refused-without-reason": with_summary(lambda s: s.__setitem__("complete", False)),
    "repeated-class": with_arrays(lambda a: a.__setitem__("landed", np.concatenate([a["landed"], a["landed"][:1]]))),
    "extra-array": with_arrays(lambda a: a.__setitem__("more", np.zeros(1, dtype=np.int16))),
    "landed-float": with_arrays(lambda a: a.__setitem__("landed", a["landed"].astype(np.float64))),
}


@pytest.mark.parametrize("spoil", sorted(SPOILS))
def test_a_bad_kept_analysis_is_refused_and_enumerated_again(
    folder: Path, monkeypatch: pytest.MonkeyPatch, spoil: str
) -> None:
    first, linter = analysis_of(WILD)
    path = coverage_cache.cache_file(linter._fingerprint())
    change = SPOILS[spoil]
    if change is None:
        resign(path, MAGIC, b"a forger's guess at the key.....")
    else:
        resign(path, MAGIC, (folder / diskcache.KEY_NAME).read_bytes(), change)
    forget()
    calls = enumerations(monkeypatch)
    again, _ = analysis_of(WILD)
    assert bool(calls) == (spoil != "control")
    same(first, again)


def test_a_suit_class_file_is_not_read_for_rules_that_keep_landed_classes(folder: Path) -> None:
    """The file of a suit-class analysis holds no landed classes: read where they are
    expected it would leave every later W101/W102 check without them."""
    _, linter = analysis_of(SUITED)
    fingerprint = linter._fingerprint()
    rules = linter.ruleset
    limit = lint_coverage.MAX_SUITED_COVERAGE_WORK
    assert coverage_cache.read_analysis(fingerprint, rules, linter.sizes, limit, lazy=True) is not None
    assert coverage_cache.read_analysis(fingerprint, rules, linter.sizes, limit, lazy=False) is None


def test_a_lower_wild_fill_limit_is_not_answered_from_a_kept_analysis(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An analysis made under one evaluator limit is kept apart from one made under another."""
    import evaluator.engine.evaluate as evaluate

    assert analysis_of(WILD)[0].complete
    forget()
    monkeypatch.setattr(evaluate, "MAX_WILD_CHOICES", 2)
    refused, _ = analysis_of(WILD)
    assert not refused.complete and refused.refused


def test_the_file_name_follows_the_code_that_decides_the_analysis(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fingerprint = analysis_of(WILD)[1]._fingerprint()
    before = coverage_cache.cache_file(fingerprint)
    package = REPO / "evaluator"
    for name in coverage_cache.DECIDING_SOURCES:
        assert (package / name).is_file() or list((package / name).glob("*.py")), name
    monkeypatch.setattr(coverage_cache, "_source_digest", lambda: "another evaluator")
    assert coverage_cache.cache_file(fingerprint) != before
    assert coverage_cache.cache_file(fingerprint + " ") != before


def test_with_the_table_cache_off_nothing_is_kept(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POKERRULES_TABLE_CACHE", "off")
    analysis_of(WILD)
    assert not list(folder.glob(f"*{coverage_cache.SUFFIX}"))
