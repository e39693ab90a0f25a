"""The generated-ruleset conformance suite: any rules a user can write work everywhere.

Hypothesis writes ruleset files across the feature space
(``tests/conformance/features.py``). Each file ``check`` refuses must be
refused with codes -- never a traceback, never R199 -- and ``load`` must
refuse it too; on each file ``check`` accepts, every command and API method
runs and the fast paths agree with the generic engine, which agrees with a
brute force on small decks (``tests/conformance/checks.py``, ``brute.py``).

CI runs a bounded profile (a few dozen small-deck files, about a minute of
CPU on two workers). ``pytest --slow tests/test_conformance.py`` (or
``$POKERRULES_CONFORMANCE=slow``) runs thousands, full decks included.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conformance.checks import (
    accepted,
    check_brute_force,
    check_compare,
    check_evaluate,
    check_rank,
    conform,
    examples_hold,
)
from conformance.commands import check_diff_examples, check_lowball
from conformance.deal_features import DEAL_MISTAKES
from conformance.features import MISTAKES, Spec, broken_rulesets, rulesets
from conformance.subject import Subject, write_files
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from evaluator.tools.check import check_file

pytestmark = pytest.mark.usefixtures("table_cache")


def slow(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--slow")) or os.environ.get("POKERRULES_CONFORMANCE") == "slow"


def run_profile(
    request: pytest.FixtureRequest, ci: int, long: int, test: Callable[..., None], *strategies: Any
) -> None:
    """Run ``test`` under hypothesis with CI's or the slow profile's number of examples."""
    examples = long if slow(request) else ci
    wrapped = settings(
        max_examples=examples,
        deadline=None,
        derandomize=not slow(request),  # CI: the same files every run; --slow: new ones each time
        database=None,
        # no shrinking: a failure prints the whole generated ruleset, and shrinking one that
        # builds tables takes minutes
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )(given(*strategies)(test))
    wrapped()


def judge(spec: Spec, seed: int) -> None:
    """Write the file in a folder of its own and judge it (see conformance/checks.py)."""
    for feature in sorted(spec.used):
        event(feature)
    with tempfile.TemporaryDirectory(prefix="conformance-") as folder:
        try:
            verdict = conform(spec, Path(folder), seed)
        except BaseException:
            keep = os.environ.get("POKERRULES_CONFORMANCE_KEEP")
            if keep:  # a folder to copy the failing files to, to replay them by hand
                shutil.copytree(folder, Path(keep) / f"seed-{seed}", dirs_exist_ok=True)
            raise
    event(verdict.split(":")[0])
    # the generator writes patterns that read: a syntax error is a gap of the parser (or of the generator)
    assert not [code for code in verdict.split()[1:] if code.startswith("P1")], verdict


SEEDS = st.integers(0, 2**32 - 1)


def test_generated_rulesets(request: pytest.FixtureRequest) -> None:
    """Every feature, drawn freely, on small decks."""
    run_profile(request, 14, 2000, judge, rulesets(), SEEDS)


def test_wild_cards_with_suit_tie_breaks(request: pytest.FixtureRequest) -> None:
    """Every kind of wild card with a suit tie-break: the fast paths agree with the engine."""
    run_profile(request, 10, 1000, judge, rulesets(focus=frozenset({"wild", "tiebreak"})), SEEDS)


def test_wild_terms(request: pytest.FixtureRequest) -> None:
    """Categories that read the wild cards held (``natural``, ``wilds = k``): the shortcuts that
    value a hand with wild cards as the natural hand it makes must not apply to them."""
    run_profile(request, 6, 600, judge, rulesets(focus=frozenset({"wild", "wild terms"})), SEEDS)


def test_written_examples(request: pytest.FixtureRequest) -> None:
    """Examples written with the brute force's answers (categories, > < =): check finds them true."""
    checks = judge_with(check_brute_force)
    written = rulesets(focus=frozenset({"examples", "wild"})).filter(lambda spec: bool(spec.examples))
    run_profile(request, 4, 400, checks, written, SEEDS)


def test_rank_by(request: pytest.FixtureRequest) -> None:
    """``rank_by:`` on shapes and runs: the brute force reorders the same keys (the fast checks only)."""
    checks = judge_with(check_brute_force, check_evaluate, check_rank, check_compare)
    run_profile(request, 4, 400, checks, rulesets(focus=frozenset({"rank_by"})), SEEDS)


def test_suit_forms_and_beats(request: pytest.FixtureRequest) -> None:
    """Patterns that read suits in the hand, named suits, cyclic straight flushes and beats:."""
    run_profile(request, 6, 600, judge, rulesets(focus=frozenset({"suit forms", "beats"})), SEEDS)


def test_one_wild_joker_with_suit_forms(request: pytest.FixtureRequest) -> None:
    """One pack, one wild joker and a pattern that reads suits in the hand: the suit-class walk
    chooses the joker's card for every one-wild class at once (``compiled/suitchoice.py``)."""
    run_profile(request, 5, 500, judge, rulesets(focus=frozenset({"one joker"})), SEEDS)


def test_games(request: pytest.FixtureRequest) -> None:
    """Hole and board cards, must-use counts, double boards and hi-lo splits."""
    run_profile(request, 8, 800, judge, rulesets(focus=frozenset({"game", "qualifier"})), SEEDS)


def test_dealers_choice(request: pytest.FixtureRequest) -> None:
    """Games the deal decides (streets, extra cards, card halves, declare, run it twice, wild cards
    that follow a face-up card or a player's lowest face-down rank) with every other feature: each
    deal settled as the plain settle of conformance/deal_judge.py, exact odds as every completion."""
    run_profile(request, 10, 1000, judge, rulesets(focus=frozenset({"game", "deal"})), SEEDS)


def test_full_decks(request: pytest.FixtureRequest) -> None:
    """Full and stripped decks of 28 cards and more (tables take seconds to build: --slow only)."""
    if not slow(request):
        pytest.skip("full decks build their tables in seconds each: run with --slow")
    run_profile(request, 0, 300, judge, rulesets(small=False), SEEDS)


def judge_with(*checks: Callable[[Subject], None]) -> Callable[[Spec, int], None]:
    """A judge that runs ``checks`` on each file check accepts."""

    def run(spec: Spec, seed: int) -> None:
        with tempfile.TemporaryDirectory(prefix="conformance-") as folder:
            path = write_files(spec, Path(folder))
            errors = [d for d in check_file(path) if d.severity == "error"]
            examples_hold(spec, errors)
            event("refused" if errors else "accepted")
            if not errors:
                accepted(spec, path, seed, checks)

    return run


def test_diff_examples_are_real_deals(request: pytest.FixtureRequest) -> None:
    """diff's example pairs never share a card, and each outcome is compare's."""
    run_profile(request, 6, 300, judge_with(check_diff_examples), rulesets(), SEEDS)


def test_lowball_breakdowns_name_real_lows(request: pytest.FixtureRequest) -> None:
    """stats' lowball rows of low rulesets with wild cards: every top rank can be a low's top."""
    low_wild = rulesets(focus=frozenset({"wild"})).filter(lambda spec: spec.direction == "low")
    run_profile(request, 6, 300, judge_with(check_lowball), low_wild, SEEDS)


@pytest.mark.parametrize("mistake", sorted(MISTAKES) + sorted(DEAL_MISTAKES))
def test_broken_rulesets_are_refused_with_codes(request: pytest.FixtureRequest, mistake: str) -> None:
    """One mistake in a generated file: check reports it with a code (never R199), load
    refuses the file with check's own diagnostics, eval exits 1 with an error line."""

    def refuse(broken: tuple[Spec, str, str], seed: int) -> None:
        spec, mistake, text = broken
        event(mistake)
        with tempfile.TemporaryDirectory(prefix="conformance-") as folder:
            verdict = conform(spec, Path(folder), seed, text)
        assert verdict.startswith("refused"), f"check accepted a file with a mistake ({mistake})"

    run_profile(request, 2, 100, refuse, broken_rulesets([mistake]), SEEDS)


def test_best_subsets_with_qualifiers(request: pytest.FixtureRequest) -> None:
    """Best subsets (badugi's family) with a qualifier, a suit tie-break and wild cards: the hand
    that plays is the best-scoring subset also when none qualifies, per call, on the tables and in
    batch, as the brute force says (the fast checks only: these files are about choosing a hand)."""
    focus = frozenset({"best_subset", "qualifier", "tiebreak", "wild"})
    # one pack, wild jokers or ranks: the suit-class tables take them (else R131, which the
    # other profiles meet)
    buildable = rulesets(focus=focus).filter(
        lambda spec: spec.copies == 1 and not spec.wild.get("cards") and not spec.wild.get("lowest_rank")
    )
    checks = judge_with(check_brute_force, check_evaluate, check_rank)
    run_profile(request, 3, 300, checks, buildable, SEEDS)
