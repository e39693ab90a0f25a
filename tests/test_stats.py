"""``pokerrules stats`` through the command line, against the published tables.

The CLI runs in-process (``evaluator.cli.main``) with pytest's capsys. Expected
numbers come from ``tests/data/tables`` (see test_counting.py for the names
mapping) or from the issues; JSON output is validated against
``docs/json/stats.schema.json``.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from test_counting import CSV_CATEGORY, expected_for, need_catalogue, reference_table, tables  # noqa: F401 (a fixture)

import evaluator
from evaluator.cli.main import main
from evaluator.core.progress import Bar
from evaluator.tools.stats import StatsRow, default_cards, format_odds, stats_table

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "docs" / "json" / "stats.schema.json"


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    """The JSON Schema of ``stats --json`` (itself checked to be a valid schema)."""
    document = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(document)
    return document


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the CLI; (exit code, stdout, stderr)."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(capsys: pytest.CaptureFixture[str], schema: dict[str, Any], *argv: str) -> dict[str, Any]:
    """Run ``stats ... --json``, validate the output and return it."""
    code, out, err = run(capsys, "stats", *argv, "--json")
    assert code == 0, err
    data = json.loads(out)
    jsonschema.validate(data, schema)
    return data


def csv_rows(text: str) -> dict[str, dict[str, str]]:
    """The rows of ``stats --csv`` by category (the header row is checked)."""
    reader = csv.DictReader(io.StringIO(text))
    assert reader.fieldnames == ["category", "count", "probability", "odds", "distinct_values"]
    return {row["category"]: row for row in reader}


# --- against the published tables -----------------------------------------------------------------


def test_stats_csv_equals_the_five_card_table(capsys: pytest.CaptureFixture[str], tables: Path) -> None:
    counts, distinct, total, total_distinct = reference_table(tables, "standard_5card_52deck.csv")
    code, out, _ = run(capsys, "stats", "standard", "--csv")
    assert code == 0
    rows = csv_rows(out)
    rs = evaluator.load("standard")
    assert list(rows)[:-1] == list(rs.category_names)  # in order, highest first, then the total
    assert {name: int(rows[name]["count"]) for name in rs.category_names} == expected_for(rs, counts)
    assert distinct is not None
    assert {name: int(rows[name]["distinct_values"]) for name in rs.category_names} == expected_for(rs, distinct)
    assert int(rows["total"]["count"]) == total
    assert int(rows["total"]["distinct_values"]) == total_distinct
    royal = rows["royal_flush"]
    assert float(royal["probability"]) == pytest.approx(4 / 2_598_960)
    assert float(royal["odds"]) == 649_740


def test_stats_json_equals_the_five_card_table(
    capsys: pytest.CaptureFixture[str], schema: dict[str, Any], tables: Path
) -> None:
    counts, _, total, total_distinct = reference_table(tables, "standard_5card_52deck.csv")
    data = run_json(capsys, schema, "standard")
    rs = evaluator.load("standard")
    assert data["cards"] == 5 and data["deals"] == total
    assert {row["name"]: row["count"] for row in data["categories"]} == expected_for(rs, counts)
    assert data["distinct_values"] == total_distinct
    royal = data["categories"][0]
    assert royal["name"] == "royal_flush" and royal["odds_text"] == "1 in 649,740"
    assert not [
        note for note in data["notes"] if note["kind"] == "rarity"
    ]  # five cards, no wilds: order follows rarity


def test_stats_six_cards(capsys: pytest.CaptureFixture[str], tables: Path) -> None:
    counts, _, total, _ = reference_table(tables, "standard_6card_52deck.csv")
    code, out, _ = run(capsys, "stats", "standard", "--cards", "6", "--csv")
    assert code == 0
    rows = csv_rows(out)
    rs = evaluator.load("standard")
    assert {name: int(rows[name]["count"]) for name in rs.category_names} == expected_for(rs, counts)
    assert int(rows["total"]["count"]) == total


def test_stats_seven_cards(capsys: pytest.CaptureFixture[str], schema: dict[str, Any], tables: Path) -> None:
    counts, distinct, total, total_distinct = reference_table(tables, "standard_7card_52deck.csv")
    data = run_json(capsys, schema, "standard", "--cards", "7")
    rs = evaluator.load("standard")
    assert data["cards"] == 7 and data["deals"] == total
    assert {row["name"]: row["count"] for row in data["categories"]} == expected_for(rs, counts)
    assert distinct is not None
    assert {row["name"]: row["distinct_values"] for row in data["categories"]} == expected_for(rs, distinct)
    assert data["distinct_values"] == total_distinct == 4824
    # best of 7: a pair and two pair are more frequent than no pair -- a note, not an error
    inverted = {(note["higher"], note["lower"]) for note in data["notes"] if note["kind"] == "rarity"}
    assert inverted == {("pair", "high_card"), ("two_pair", "high_card")}
    context = [note["message"] for note in data["notes"] if note["kind"] == "context"]
    assert any("best 5 of 7" in message and "not an error" in message for message in context)


def test_stats_text_short_deck_as_quoted_in_issue_7(capsys: pytest.CaptureFixture[str]) -> None:
    # issue 7: "24 straight flushes, 288 four of a kind, 1,728 full houses, 480
    # flushes, 6,120 straights, 16,128 three of a kind, 36,288 two pair, 193,536
    # pair, 122,400 high card"
    code, out, err = run(capsys, "stats", "short-deck")
    assert code == 0 and err == ""
    rows = {
        line.split()[0]: line.split() for line in out.splitlines() if line and line.split()[0] in CSV_CATEGORY.values()
    }
    assert int(rows["royal_flush"][1]) + int(rows["straight_flush"][1]) == 24
    shown = {
        name: rows[name][1]
        for name in (
            "four_of_a_kind",
            "full_house",
            "flush",
            "straight",
            "three_of_a_kind",
            "two_pair",
            "pair",
            "high_card",
        )
    }
    assert shown == {
        "four_of_a_kind": "288",
        "full_house": "1,728",
        "flush": "480",
        "straight": "6,120",
        "three_of_a_kind": "16,128",
        "two_pair": "36,288",
        "pair": "193,536",
        "high_card": "122,400",
    }
    lines = out.splitlines()
    assert "376,992" in lines[1]
    names = [line.split()[0] for line in lines if line.split() and line.split()[0] in rows]
    assert names.index("flush") < names.index("full_house")  # short deck's order, highest first
    assert any(line.startswith("total") and line.rstrip().endswith("1,404") for line in lines)


def test_stats_wild_tables(capsys: pytest.CaptureFixture[str], schema: dict[str, Any], tables: Path) -> None:
    rs = need_catalogue("deuces-wild")
    counts, _, total, _ = reference_table(tables, "deuces_wild_5card_52deck_A053085.csv")
    data = run_json(capsys, schema, "deuces-wild")
    assert {row["name"]: row["count"] for row in data["categories"]} == expected_for(rs, counts)
    assert data["deals"] == total and data["wild_cards"] is True
    inverted = {(note["higher"], note["lower"]) for note in data["notes"] if note["kind"] == "rarity"}
    # Emert & Umbach's "inconsistency": three of a kind (355,080) outranks the rarer two pair (95,040)
    assert ("three_of_a_kind", "two_pair") in inverted
    assert any("wild cards" in note["message"] for note in data["notes"] if note["kind"] == "context")


def test_stats_joker_wild(capsys: pytest.CaptureFixture[str], tables: Path) -> None:
    rs = need_catalogue("joker-wild")
    counts, _, total, _ = reference_table(tables, "joker_wild_5card_53deck_A053080.csv")
    code, out, _ = run(capsys, "stats", "joker-wild", "--csv")
    assert code == 0
    rows = csv_rows(out)
    assert {name: int(rows[name]["count"]) for name in rs.category_names} == expected_for(rs, counts)
    assert int(rows["total"]["count"]) == total
    assert int(rows["total"]["distinct_values"]) == 7475  # issue 3


# --- the table and its notes ------------------------------------------------------------------------


def test_stats_table_is_reusable() -> None:
    table = stats_table(evaluator.load("twenty-card"))
    assert table.cards == 5 and table.deals == 15504 and table.deck_size == 20
    assert table.counts["four_of_a_kind"] == 80  # 5 ranks x 16 fifth cards
    assert table.row("high_card").count == 1024  # A-K-Q-J-T in 4^5 ways
    assert sum(table.counts.values()) == table.deals
    with pytest.raises(KeyError):
        table.row("flush")


def test_categories_never_dealt_are_noted(
    capsys: pytest.CaptureFixture[str], schema: dict[str, Any], tmp_path: Path
) -> None:
    # a ten-to-ace deck that keeps the standard order: with five ranks every five
    # distinct ranks are A-K-Q-J-T, a straight (or a royal flush), so flush and
    # high card are never dealt (the catalogue's royal-holdem drops them)
    path = tmp_path / "tens-up.yaml"
    path.write_text("name: tens-up\nextends: standard\ndeck: {ranks: [T, J, Q, K, A]}\nace: high\n", encoding="utf-8")
    data = run_json(capsys, schema, str(path))
    never = {"straight_flush": 0, "flush": 0, "high_card": 0}  # royal_flush takes the only straight flush
    assert {row["name"]: row["count"] for row in data["categories"] if row["count"] == 0} == never
    assert [row["odds"] for row in data["categories"] if row["count"] == 0] == [None, None, None]
    impossible = [note["message"] for note in data["notes"] if note["kind"] == "impossible"]
    assert impossible and "flush, high_card" in impossible[0]


def test_default_cards_follow_the_game(tmp_path: Path) -> None:
    assert default_cards(evaluator.load("standard")) == 5
    stud = tmp_path / "stud7.yaml"
    stud.write_text("name: stud7\nextends: standard\ngame: {hole: 7, board: 0}\n", encoding="utf-8")
    assert default_cards(evaluator.load(stud)) == 7
    holdem = tmp_path / "holdem7.yaml"
    holdem.write_text("name: holdem7\nextends: standard\ngame: {hole: 2, board: 5}\n", encoding="utf-8")
    assert default_cards(evaluator.load(holdem)) == 7
    omaha = tmp_path / "omaha5.yaml"
    omaha.write_text(
        "name: omaha5\nextends: standard\ngame: {hole: 4, board: 5, use_hole: 2, use_board: 3}\n", encoding="utf-8"
    )
    table = stats_table(evaluator.load(omaha))
    assert table.cards == 5
    assert any(note.kind == "game" for note in table.notes)


def test_odds_text() -> None:
    assert format_odds(None) == "never"
    assert StatsRow("pair", 1_098_240, 2_598_960, 2860).odds_text == "1 in 2.37"
    assert StatsRow("royal_flush", 4324, 133_784_560, 1).odds_text == "1 in 30,940"


# --- usage and errors ---------------------------------------------------------------------------------


def test_json_and_csv_together_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "stats", "standard", "--json", "--csv")
    assert code == 2 and out == "" and "--json" in err


def test_too_many_cards_is_a_positioned_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "stats", "standard", "--cards", "11")
    assert code == 1 and out == ""
    assert "C105" in err and "Traceback" not in err


def test_unknown_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "stats", "no-such-ruleset")
    assert code == 1 and out == "" and err


# --- progress ---------------------------------------------------------------------------------------------


class FakeTerminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_progress_bar_waits_a_second_redraws_a_terminal_and_writes_lines_to_a_log() -> None:
    now = [0.0]
    terminal = FakeTerminal()
    bar = Bar("counting standard, 7 cards", terminal, clock=lambda: now[0])
    bar(0.1)
    assert terminal.getvalue() == ""  # not yet a second
    now[0] = 1.5
    bar(0.5)
    assert terminal.getvalue().startswith(
        "\rpokerrules: counting standard, 7 cards ["
    ) and terminal.getvalue().endswith(" 50%")
    now[0] = 1.6
    bar(0.6)  # a terminal redraws at most five times a second
    assert terminal.getvalue().endswith(" 50%")
    now[0] = 3.0
    bar.finish()
    assert terminal.getvalue().endswith("done in 3.0 s" + " " * 30 + "\n") and bar.shown is False
    log = io.StringIO()
    quiet = Bar("counting", log, clock=lambda: now[0])
    quiet(0.5)
    quiet.finish()
    assert log.getvalue() == ""  # under a second: nothing at all
    now[0] = 10.0
    quiet(0.5)
    now[0] = 11.0
    quiet(0.7)  # a log gets a line at most every 30 seconds, not a flood
    now[0] = 39.0
    quiet(0.8)
    now[0] = 41.0
    quiet(0.9)
    quiet.finish()
    assert log.getvalue().split("\n") == [
        "pokerrules: counting [###############---------------]  50%",  # no carriage return in a log
        "pokerrules: counting [###########################---]  90%",
        "pokerrules: counting done in 38.0 s",  # started at 3.0
        "",
    ]


def test_counting_reports_progress(tmp_path: Path) -> None:
    path = tmp_path / "fresh.yaml"  # a ruleset of its own, so that no cached count answers
    path.write_text("name: fresh\nextends: short-deck\n", encoding="utf-8")
    seen: list[float] = []
    stats_table(evaluator.load(path), 6, seen.append)
    assert seen and seen == sorted(seen) and seen[-1] == 1.0 and len(seen) > 10
