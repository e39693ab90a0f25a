"""The evaluator against independent, published reference data.

Every expected value here comes from a file under ``tests/data`` (collected
from public sources, see the folder READMEs), never from the code under test:

- ojpoker (lcrocker): 100,000 hands with their equivalence class in high,
  deuce-to-seven, ace-to-five and ace-to-six; the order of ``strength`` must
  be exactly the order of the classes.
- UCI Poker Hand: the category of 25,010 + 18,487 hands.
- Project Euler 54: player 1 wins 376 of 1,000 deals.
- UVa 10315: the sample input/output.
- Exercism poker: the best hands (ties included) of 39 cases.
- Cactus Kev: all 7,462 five-card classes in rank order, with categories.

When the data folder is missing the tests are skipped, or fail in CI (see conftest.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from refdata import (
    CACTUS_KEV_CODES,
    UCI_CLASS_CATEGORY,
    ExercismCase,
    KevClass,
    cactus_kev_classes,
    category_for_kev_rank,
    euler54_deals,
    exercism_cases,
    has_repeated_card,
    missing_data_reason,
    ojpoker_hands,
    reference_data_dir,
    uci_hands,
    uva10315_sample,
)

#: How many offending examples an assertion message shows.
SHOW = 5


@cache
def ruleset(name: str) -> Any:
    """The catalogue ruleset ``name``, loaded once per session.

    ``evaluator`` is imported here, not at module level, so that a package
    that does not import yet fails these tests one by one instead of
    aborting the collection of the whole module.
    """
    import evaluator

    return evaluator.load(name)


def _first(items: Iterable[str], n: int = SHOW) -> str:
    """At most ``n`` lines of ``items``, indented, for an assertion message."""
    lines = list(items)
    shown = "\n".join(f"  {line}" for line in lines[:n])
    more = f"\n  ... and {len(lines) - n} more" if len(lines) > n else ""
    return shown + more


# --------------------------------------------------------------------------
# 1. ojpoker: the order of strength equals the order of published classes
# --------------------------------------------------------------------------

OJPOKER_FILE = ("ojpoker_lcrocker", "poker_hands_100k.jsonc")
OJPOKER_ROWS = 100_000

OJPOKER_GAMES = [
    pytest.param("standard", "high", id="standard-vs-high"),
    pytest.param("deuce-to-seven", "deuce_to_seven", id="deuce-to-seven-vs-2to7"),
    pytest.param("ace-to-five", "ace_to_five", id="ace-to-five-vs-Ato5"),
    pytest.param("ace-to-six", "ace_to_six", id="ace-to-six-vs-Ato6"),
    pytest.param("badugi", "badugi", id="badugi-vs-badugi"),
]


@pytest.mark.parametrize(("ruleset_name", "column"), OJPOKER_GAMES)
def test_ojpoker_strength_order_equals_class_order(reference_data: Path, ruleset_name: str, column: str) -> None:
    """Hands of one class have one strength; a better class a bigger one.

    ojpoker class numbers: LOWER = BETTER in that game. So sorting the
    distinct classes ascending must give strictly decreasing strengths, and
    there must be exactly as many distinct strengths as classes.
    """
    rows = ojpoker_hands(reference_data.joinpath(*OJPOKER_FILE))
    assert len(rows) == OJPOKER_ROWS, "reference file truncated?"
    evaluate = ruleset(ruleset_name).evaluate

    # class -> {strength: first hand seen with it}; one evaluation per hand.
    by_class: dict[int, dict[Any, str]] = {}
    all_strengths: set[Any] = set()
    for row in rows:
        strength = evaluate(row.cards).strength
        all_strengths.add(strength)
        by_class.setdefault(row.klass(column), {}).setdefault(strength, row.cards)

    problems: list[str] = []

    split = [
        f"class {klass}: " + "; ".join(f"{hand} strength={s!r}" for s, hand in list(seen.items())[:3])
        for klass, seen in sorted(by_class.items())
        if len(seen) > 1
    ]
    if split:
        problems.append(f"{len(split)} classes hold hands of different strength (should tie):\n" + _first(split))

    classes = sorted(by_class)
    inverted = []
    for better, worse in zip(classes, classes[1:], strict=False):
        # with a split class, every strength of the better one must be bigger
        low_of_better = min(by_class[better])
        high_of_worse = max(by_class[worse])
        if not low_of_better > high_of_worse:
            inverted.append(
                f"{by_class[better][low_of_better]} class={better} strength={low_of_better!r}"
                f"  should beat  {by_class[worse][high_of_worse]} class={worse}"
                f" strength={high_of_worse!r}"
            )
    if inverted:
        problems.append(
            f"{len(inverted)} neighbouring classes out of order "
            f"(lower class = better = bigger strength):\n" + _first(inverted)
        )

    if len(all_strengths) != len(by_class):
        problems.append(f"{len(all_strengths)} distinct strengths for {len(by_class)} distinct classes")

    if problems:
        pytest.fail(f"{ruleset_name} vs ojpoker column {column!r}:\n" + "\n".join(problems))


# --------------------------------------------------------------------------
# 2. UCI Poker Hand: the category of every row
# --------------------------------------------------------------------------

UCI_FILES = [
    pytest.param("poker-hand-training-true.data", 25_010, id="training-25010"),
    pytest.param("poker-hand-testing.first18487rows.data", 18_487, id="testing-prefix-18487"),
]


@pytest.mark.parametrize(("filename", "rows_expected"), UCI_FILES)
def test_uci_category(reference_data: Path, filename: str, rows_expected: int) -> None:
    """Each hand's category is the UCI CLASS (0 nothing ... 9 royal flush)."""
    rows = uci_hands(reference_data / "uci_poker_hand" / filename)
    assert len(rows) == rows_expected, "reference file truncated?"
    evaluate = ruleset("standard").evaluate

    wrong: list[tuple[str, int, str, str]] = []
    for cards, klass in rows:
        got = evaluate(cards).category
        expected = UCI_CLASS_CATEGORY[klass]
        if got != expected:
            wrong.append((cards, klass, expected, got))

    if wrong:
        kinds = Counter((expected, got) for _, _, expected, got in wrong)
        summary = ", ".join(f"{e}->{g}: {n}" for (e, g), n in kinds.most_common())
        examples = (f"{c}  UCI class {k} = {e}, got {g}" for c, k, e, g in wrong)
        pytest.fail(
            f"{len(wrong)} of {len(rows)} hands in {filename} have the wrong category ({summary}):\n{_first(examples)}"
        )


# --------------------------------------------------------------------------
# 3. Project Euler 54
# --------------------------------------------------------------------------

EULER54_PLAYER1_WINS = 376  # published answer (project_euler_54/README.md)
EULER54_DEALS = 1_000


def test_project_euler_54(reference_data: Path) -> None:
    """Player 1 wins exactly 376 of the 1,000 deals, and no deal is a tie."""
    deals = euler54_deals(reference_data / "project_euler_54" / "p054_poker.txt")
    assert len(deals) == EULER54_DEALS, "reference file truncated?"
    compare = ruleset("standard").compare
    results = [compare(p1, p2) for p1, p2 in deals]
    outcomes = Counter(results)
    assert set(outcomes) <= {1, 0, -1}, f"compare returned {sorted(outcomes)}"
    ties = [f"line {i}: {p1} | {p2}" for i, ((p1, p2), r) in enumerate(zip(deals, results, strict=False), 1) if r == 0]
    assert (outcomes[1], outcomes[0]) == (EULER54_PLAYER1_WINS, 0), (
        f"player 1 wins {outcomes[1]} (expected {EULER54_PLAYER1_WINS}), "
        f"ties {outcomes[0]} (expected 0), player 2 wins {outcomes[-1]}" + (f"; ties:\n{_first(ties)}" if ties else "")
    )


# --------------------------------------------------------------------------
# 4. UVa 10315 sample
# --------------------------------------------------------------------------

UVA_VERDICT = {1: "Black wins.", -1: "White wins.", 0: "Tie."}


def test_uva_10315_sample(reference_data: Path) -> None:
    """Black (first five cards) vs White (last five): the sample output."""
    sample = uva10315_sample(reference_data / "uva_10315")
    assert sample, "empty sample"
    compare = ruleset("standard").compare
    got = [(black, white, UVA_VERDICT.get(compare(black, white), "?")) for black, white, _ in sample]
    assert got == list(sample)


# --------------------------------------------------------------------------
# 5. Exercism poker: best hands, ties included
# --------------------------------------------------------------------------

EXERCISM_FILE = ("exercism_poker", "canonical-data.json")
EXERCISM_CASES = 39


def _exercism_params() -> list[Any]:
    """One pytest param per case (read at collection time for readable ids)."""
    root = reference_data_dir()
    if root is None:
        return [pytest.param(None, id="no-data", marks=pytest.mark.skip(reason=missing_data_reason()))]
    return [pytest.param(c, id=c.test_id) for c in exercism_cases(root.joinpath(*EXERCISM_FILE))]


def test_exercism_case_count(reference_data: Path) -> None:
    """All 39 cases were read (guards the parametrisation below)."""
    assert len(exercism_cases(reference_data.joinpath(*EXERCISM_FILE))) == EXERCISM_CASES


@pytest.mark.parametrize("case", _exercism_params())
def test_exercism_best_hands(reference_data: Path, case: ExercismCase) -> None:
    """The hands that beat or tie every other hand are the expected ``bestHands``.

    Hands of one case may share cards (several decks), so each hand is
    evaluated on its own and the Hand objects are compared. A hand that
    repeats a card itself needs the ``two-decks`` ruleset.
    """
    name = "two-decks" if any(has_repeated_card(h) for h in case.hands) else "standard"
    rs = ruleset(name)
    hands = [rs.evaluate(text) for text in case.hands]
    best = {
        case.hands[i]
        for i, hand in enumerate(hands)
        if all(rs.compare(hand, other) >= 0 for j, other in enumerate(hands) if j != i)
    }
    details = "\n".join(
        f"  {text!r}: {hand.category} {hand.strength!r}" for text, hand in zip(case.hands, hands, strict=False)
    )
    assert best == set(case.expected), f"{case.description} ({name}):\n{details}"


# --------------------------------------------------------------------------
# 6. Cactus Kev: all 7,462 classes
# --------------------------------------------------------------------------

KEV_CLASSES = 7_462


@cache
def _kev_evaluated(directory: Path) -> tuple[tuple[KevClass, str, Any], ...]:
    """Every Cactus Kev class (rank order) with its representative and Hand."""
    evaluate = ruleset("standard").evaluate
    out = []
    for kev in cactus_kev_classes(directory):
        cards = kev.representative()
        out.append((kev, cards, evaluate(cards)))
    return tuple(out)


def test_cactus_kev_rank_order(reference_data: Path) -> None:
    """Sorting by strength reproduces rank 1..7462: strictly decreasing strength."""
    classes = cactus_kev_classes(reference_data / "cactus_kev_7462")
    assert [k.rank for k in classes] == list(range(1, KEV_CLASSES + 1)), (
        "reference files do not cover rank 1..7462 exactly once"
    )
    evaluated = _kev_evaluated(reference_data / "cactus_kev_7462")
    out_of_order = [
        f"rank {a.rank} {a_cards} strength={ha.strength!r}  should beat  "
        f"rank {b.rank} {b_cards} strength={hb.strength!r}"
        for (a, a_cards, ha), (b, b_cards, hb) in zip(evaluated, evaluated[1:], strict=False)
        if not ha.strength > hb.strength
    ]
    distinct = len({h.strength for _, _, h in evaluated})
    if out_of_order or distinct != KEV_CLASSES:
        pytest.fail(
            f"{distinct} distinct strengths for {KEV_CLASSES} classes; "
            f"{len(out_of_order)} neighbouring ranks out of order "
            f"(bigger strength must mean a better rank):\n{_first(out_of_order)}"
        )


def test_cactus_kev_categories(reference_data: Path) -> None:
    """Rank boundaries (SF 1-10 with royal at 1, 4K 11-166, ...) give our categories."""
    evaluated = _kev_evaluated(reference_data / "cactus_kev_7462")
    assert len(evaluated) == KEV_CLASSES
    # the files' own codes agree with the README's boundaries (data sanity)
    code_mismatch = [
        f"{k.code} {k.ranks} rank {k.rank}"
        for k, _, _ in evaluated
        if CACTUS_KEV_CODES[k.code] != category_for_kev_rank(k.rank)
    ]
    assert not code_mismatch, "reference codes vs boundaries:\n" + _first(code_mismatch)

    wrong = [
        f"rank {k.rank} ({k.code} {k.ranks}) {cards}: expected {category_for_kev_rank(k.rank)}, got {hand.category}"
        for k, cards, hand in evaluated
        if hand.category != category_for_kev_rank(k.rank)
    ]
    if wrong:
        per_category = Counter(
            category_for_kev_rank(k.rank) for k, _, h in evaluated if h.category != category_for_kev_rank(k.rank)
        )
        pytest.fail(f"{len(wrong)} classes in the wrong category ({dict(per_category)}):\n{_first(wrong)}")
