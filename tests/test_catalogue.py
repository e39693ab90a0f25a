"""The shipped catalogue: every file builds, every example passes, names are pinned."""

from __future__ import annotations

import pytest

import evaluator
from evaluator.core.resources import catalogue_names
from evaluator.tools.examples import run_examples

PINNED = [
    "standard",
    "jacks-or-better",
    "short-deck",
    "short-deck-trips",
    "stripped-32",
    "stripped-40",
    "manila",
    "royal-holdem",
    "twenty-card",
    "incomplete-hands",
    "two-decks",
    "suits-bridge",
    "suits-greek",
    "suits-austrian",
    "suits-italian",
    "suits-brazilian",
    "suits-german",
    "ace-to-five",
    "deuce-to-seven",
    "ace-to-six",
    "ace-to-five-eight-or-better",
]


def test_pinned_names_are_shipped() -> None:
    missing = sorted(set(PINNED) - set(catalogue_names()))
    assert not missing


@pytest.mark.parametrize("name", catalogue_names())
def test_every_example_passes(name: str) -> None:
    rules = evaluator.load(name)
    assert len(rules.examples) >= 5, "every catalogue file carries examples from the rules texts"
    failures = run_examples(rules)
    assert not failures, "\n".join(str(f) for f in failures)


@pytest.mark.parametrize("name", catalogue_names())
def test_file_name_is_the_ruleset_name(name: str) -> None:
    rules = evaluator.load(name)
    assert rules.name == name
    assert rules.title and rules.title != name


def test_a_failing_example_is_reported_at_its_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "wrong.yaml"
    path.write_text(
        'extends: standard\nexamples:\n  - "As Ad 2c 3c 4c > Kh Kd Kc 2s 3s"\n  - "Kc Kd Ks 4h 4c is flush"\n',
        encoding="utf-8",
    )
    failures = run_examples(evaluator.load(str(path)))
    assert [(f.code, f.line, f.col) for f in failures] == [("E101", 3, 6), ("E101", 4, 6)]
    assert "three kings" in (failures[0].context or "")  # the comparison's steps, under the message
    assert "full_house" in failures[1].message
