"""The lowball breakdown is exact: brute force over every hand of a small deck, and published tables.

The top card of a low hand is read from the cards that play, a wild card counted
as the card the evaluator fills it with (``As 2h 3d 5c X`` is a five-low: the
joker plays as a four). The published ace-to-five tables are in
``tests/data/tables/lowball_ace_to_five.csv`` (see its README for sources).
"""

from __future__ import annotations

import csv
import json
from collections import Counter, defaultdict
from itertools import combinations
from pathlib import Path

import jsonschema
import pytest
from refdata import missing_data_reason, reference_data_dir

from evaluator import load
from evaluator.cli.main import main
from evaluator.ruleset import Ruleset
from evaluator.tools.lowball import low_breakdown, played_ranks, top_rank
from evaluator.tools.stats import stats_table

pytestmark = pytest.mark.usefixtures("table_cache")

ROOT = Path(__file__).resolve().parents[1]
STATS_SCHEMA = json.loads((ROOT / "docs" / "json" / "stats.schema.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def small_joker(tmp_path_factory: pytest.TempPathFactory) -> Ruleset:
    """Ace-to-five with the joker on a deck of six ranks and three suits (19 cards)."""
    path = tmp_path_factory.mktemp("lowball") / "small-joker.yaml"
    path.write_text(
        "name: small-joker\nextends: ace-to-five-joker\ndeck: {ranks: [9, T, J, Q, K, A], suits: [s, h, d]}\n",
        encoding="utf-8",
    )
    return load(path)


def brute_tops(ruleset: Ruleset, cards: int) -> Counter[str]:
    """Every deal of ``cards`` cards evaluated on its own: the winning category's hands by top card."""
    winning = ruleset.categories[-1].name
    tops: Counter[str] = Counter()
    for deal in combinations(ruleset.deck, cards):
        hand = ruleset.evaluate(list(deal))
        if hand.category == winning and hand.qualifies:
            # the cards that play, each joker as the card it stands for ("X as 4s" -> 4)
            ranks = [card[:-1] for card in hand.played_as]
            tops[max(ranks, key=ruleset.rank_symbols.index)] += 1
    return tops


@pytest.mark.parametrize("cards", [5, pytest.param(6, marks=pytest.mark.slow)])
def test_the_joker_breakdown_equals_every_deal_of_a_small_deck(small_joker: Ruleset, cards: int) -> None:
    table = low_breakdown(small_joker, cards)
    assert table is not None and table.method == "exact" and table.seed is None
    assert {row.top: row.count for row in table.rows} == brute_tops(small_joker, cards)
    assert table.deals == sum(1 for _ in combinations(small_joker.deck, cards))


def test_ace_to_five_joker_has_no_impossible_low() -> None:
    ruleset = load("ace-to-five-joker")
    table = low_breakdown(ruleset)
    assert table is not None and table.method == "exact" and table.deals == 2_869_685
    symbols = ruleset.rank_symbols
    assert min(symbols.index(row.top) for row in table.rows) == symbols.index("5")  # nothing below a five-low
    # the wheel: 1,024 natural ones, and four distinct cards of A-5 with the joker filling the fifth
    assert table.rows[0].label == "5-low (the wheel)" and table.rows[0].count == 4**5 + 5 * 4**4
    # every hand of the winning category is counted once, as the table above counts it
    assert sum(row.count for row in table.rows) == stats_table(ruleset).row("high_card").count


def test_played_ranks_take_what_the_joker_stands_for() -> None:
    ruleset = load("ace-to-five-joker")
    hand = ruleset.evaluate("As 2h 3d 5c X")
    assert sorted(played_ranks(hand)) == sorted(["A", "2", "3", "4", "5"])
    assert top_rank(ruleset, played_ranks(hand)) == "5"


@pytest.mark.parametrize(
    ("name", "cards"),
    [
        ("ace-to-five", 5),
        ("deuce-to-seven", 5),
        ("ace-to-six", 5),
        ("badugi", 4),
        pytest.param("razz", 7, marks=pytest.mark.slow),
    ],
)
def test_the_breakdown_adds_up_to_the_winning_category(name: str, cards: int) -> None:
    ruleset = load(name)
    table = low_breakdown(ruleset, cards)
    assert table is not None and table.method == "exact"
    counted = stats_table(ruleset, cards)
    assert table.deals == counted.deals
    assert sum(row.count for row in table.rows) == counted.row(table.category).count


def published() -> dict[str, dict[str, int]]:
    folder = reference_data_dir()
    if folder is None:
        pytest.skip(missing_data_reason())
    found: dict[str, dict[str, int]] = defaultdict(dict)
    with (folder / "tables" / "lowball_ace_to_five.csv").open(newline="", encoding="utf-8") as stream:
        for row in csv.DictReader(stream):
            found[row["table"]][row["top"]] = int(row["count"])
    return found


@pytest.mark.parametrize(
    ("table", "name", "cards"),
    [
        ("wikipedia_5card", "ace-to-five", 5),
        ("wikipedia_7card", "razz", 7),
        pytest.param("durangobill_8card", "ace-to-five", 8, marks=[pytest.mark.slow, pytest.mark.exhaustive]),
        pytest.param(
            "durangobill_8card_joker", "ace-to-five-joker", 8, marks=[pytest.mark.slow, pytest.mark.exhaustive]
        ),
    ],
)
def test_the_breakdown_equals_published_ace_to_five_tables(table: str, name: str, cards: int) -> None:
    expected = published()[table]
    breakdown = low_breakdown(load(name), cards)
    assert breakdown is not None and breakdown.method == "exact"
    tops = {row.top: row.count for row in breakdown.rows}
    assert tops == {top: n for top, n in expected.items() if top not in ("total", "pair_or_worse")}
    if "pair_or_worse" in expected:
        assert breakdown.deals == expected["total"]
        assert breakdown.deals - sum(tops.values()) == expected["pair_or_worse"]


def test_stats_json_of_the_joker_game_is_exact_and_valid(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "ace-to-five-joker", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    jsonschema.Draft202012Validator(STATS_SCHEMA).validate(data)
    lowball = data["lowball"]
    assert lowball["method"] == "exact" and lowball["seed"] is None and lowball["deals"] == 2_869_685
    assert [row["top"] for row in lowball["rows"]] == ["5", "6", "7", "8", "9", "T", "J", "Q", "K"]
    assert all(row["interval"] is None for row in lowball["rows"])
