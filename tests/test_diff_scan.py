"""``diff``'s candidate hands classified on the tables equal the same hands classified one by one."""

from __future__ import annotations

import pytest

from evaluator import load
from evaluator.tools import diff_scan
from evaluator.tools.diff import common_deck, find_flip_example, flipped_pairs
from evaluator.tools.diff_scan import EXAMPLE_TRIES, scan_common_hands
from evaluator.tools.diff_types import Scan


def ends(scan: Scan, category: str) -> tuple[list[object], list[object]]:
    """What the example search reads of a category: its strongest and weakest under B, in its order."""
    found = scan.same[category]
    strongest = sorted(found, key=lambda r: r[2].strength, reverse=True)[:EXAMPLE_TRIES]
    weakest = sorted(found, key=lambda r: r[2].strength)[:EXAMPLE_TRIES]
    return [r[0] for r in strongest], [r[0] for r in weakest]


@pytest.mark.parametrize(
    ("a_name", "b_name"),
    [
        ("standard", "badugi"),  # four of five play: suit classes among the candidates
        ("standard", "deuces-wild"),
        ("standard", "kings-and-little-ones"),
        ("ace-to-five-eight-or-better", "deuces-wild"),  # a qualifier: hands that do not qualify named by hand
        ("deuces-wild", "ace-to-five-eight-or-better"),
        ("standard", "friday-night"),  # a suit tie-break: B's strength and value order suits alike
        ("standard", "italian"),  # beats: classified hand by hand
    ],
)
def test_the_tables_classify_the_candidates_as_the_generic_engine_does(
    a_name: str, b_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = load(a_name), load(b_name)
    deck = common_deck(a, b)
    on_tables = scan_common_hands(a, b, deck, 5, 2026)
    monkeypatch.setattr(diff_scan, "_named_on_tables", lambda *args: None)
    by_hand = scan_common_hands(a, b, deck, 5, 2026)
    assert isinstance(on_tables.same, diff_scan.Representatives) != bool(b.beats)  # beats: no tables
    assert not isinstance(by_hand.same, diff_scan.Representatives)
    assert on_tables.moved == by_hand.moved
    assert sorted(on_tables.same) == sorted(by_hand.same)
    for category in by_hand.same:
        assert ends(on_tables, category) == ends(by_hand, category), category
    for pair in flipped_pairs(a, b):
        assert find_flip_example(a, b, pair, on_tables.same, deck) == find_flip_example(a, b, pair, by_hand.same, deck)
