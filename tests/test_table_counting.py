"""``stats`` above the hand size counts with the tables' own exact counter.

The counter of the compiled tables (``class_count.count_values_fast``) must give the
same table as the class walk of ``counting.py`` (its generic counter, valued
by the generic engine): counts, distinct values and unplayable deals.
"""

from __future__ import annotations

import pytest

from evaluator import load
from evaluator.compiled import counting
from evaluator.tools import stats


@pytest.mark.parametrize(
    "name, cards",
    [
        ("standard", 6),
        ("short-deck", 7),
        ("deuce-to-seven", 6),
        ("ace-to-five", 6),
        ("twenty-card", 7),
        ("stripped-32", 7),
    ],
)
def test_the_table_counter_equals_the_generic_counter(name: str, cards: int) -> None:
    rs = load(name)
    fast = counting._table_counting(rs, cards, None)
    assert fast is not None
    slow = counting._Counter(rs, cards, None).run()
    assert (fast.counts, fast.distinct, fast.unplayable, fast.deals) == (
        slow.counts,
        slow.distinct,
        slow.unplayable,
        slow.deals,
    )


def test_stats_at_seven_cards_uses_the_table_counter(monkeypatch: pytest.MonkeyPatch) -> None:
    rs = load("standard")

    class Refused:
        def __init__(self, *args: object) -> None:
            raise AssertionError("the generic counter ran")

    monkeypatch.setattr(counting, "_Counter", Refused)
    table = stats.stats_table(rs, 7)
    assert table.row("straight_flush").count == 37_260
    assert table.row("royal_flush").count == 4_324
    assert table.deals == 133_784_560


def test_rulesets_the_table_counter_does_not_handle_use_the_class_walk() -> None:
    for name in ("deuces-wild", "jacks-or-better", "two-decks"):
        assert counting._table_counting(load(name), 6, None) is None
    assert counting._table_counting(load("standard"), 5, None) is None
