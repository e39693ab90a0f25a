"""Starting-hand charts: published equities, an exact cell against brute force,
the grid, the command line and the HTML page."""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET
from itertools import combinations
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from browser import chromium, needs_chromium

from evaluator import load
from evaluator.cli.main import main
from evaluator.core.errors import PokerRulesError
from evaluator.odds.chart import ChartResult, chart, compare_charts, hand_classes
from evaluator.tools.chart_html import render_chart_html

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "docs" / "json" / "chart.schema.json").read_text(encoding="utf-8"))

# Pre-flop equity against one random hand, as published by every equity
# calculator's "vs random" table (PokerStove, Equilab): rounded to 0.1%.
PUBLISHED = {"AA": 0.852, "72o": 0.346, "AKs": 0.670}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_holdem_equities_against_a_random_hand_agree_with_published_values() -> None:
    result = chart(load("holdem"), classes=list(PUBLISHED), samples=200_000, seed=2026)
    assert result.method == "sampled" and result.seed == 2026 and result.samples == 200_000
    for name, published in PUBLISHED.items():
        cell = result.cell(name)
        assert cell.deals == 200_000 and 0 < cell.std_error < 0.0015
        # four standard errors, plus the rounding of the published figure
        assert abs(cell.equity - published) <= 4 * cell.std_error + 0.0005, (name, cell.equity, cell.std_error)


def _brute_force_equity(ruleset_name: str, hand_class: str, board: str) -> float:
    """The class's equity against one random hand with ``board`` known: every combination
    of the class, every opponent hand, every remaining board card, plainly enumerated."""
    ruleset = load(ruleset_name)
    known = ruleset.cards(board)
    deck = [card for card in ruleset.deck if card not in known]
    rank, encode = ruleset.rank, ruleset.encode
    first, second = hand_class[0], hand_class[1]
    suited = hand_class.endswith("s")
    mine = [
        (a, b)
        for a, b in combinations(deck, 2)
        if {a.rank, b.rank} == {first, second}
        and (first == second or (a.rank != b.rank and (a.suit == b.suit) == suited))
    ]
    assert len(mine) == len([c for c in mine if c[0] != c[1]]) > 0
    per_combo = []
    checked = 0
    values: dict[tuple[Any, Any], int] = {}
    for hero in mine:
        rest = [card for card in deck if card not in hero]
        total = 0.0
        deals = 0
        for river in rest:
            full = known + [river]
            hero_value = rank(encode(list(hero) + full))
            others = [card for card in rest if card != river]
            for villain in combinations(others, 2):
                if (villain, river) not in values:  # the same villain and river recur for every hero combination
                    values[villain, river] = rank(encode(list(villain) + full))
                villain_value = values[villain, river]
                share = 1.0 if hero_value > villain_value else 0.5 if hero_value == villain_value else 0.0
                if deals % 7919 == 0:  # the tables' answer, spot-checked against the generic showdown
                    winners = ruleset.showdown([list(hero), list(villain)], full)
                    assert share == (1.0 if winners == [0] else 0.5 if len(winners) == 2 else 0.0)
                    checked += 1
                total += share
                deals += 1
        per_combo.append(total / deals)
    assert checked > 10
    return sum(per_combo) / len(per_combo)


@pytest.mark.parametrize(("hand_class", "board"), [("AA", "Kd 7c 2h 5s"), ("T9s", "Td 8c 2h Ks")])
def test_an_exact_cell_equals_brute_force(hand_class: str, board: str) -> None:
    result = chart(load("holdem"), classes=[hand_class], exact=True, board=board)
    cell = result.cell(hand_class)
    assert result.method == "exact" and result.seed is None and cell.std_error == 0.0
    assert cell.equity == pytest.approx(_brute_force_equity("holdem", hand_class, board), abs=1e-12)


def test_an_exact_preflop_chart_against_two_opponents_is_refused_with_its_cost() -> None:
    # against one opponent every board is counted once (chart_exact.py); two are still dealt deal by deal
    with pytest.raises(PokerRulesError) as caught:
        chart(load("holdem"), classes=["AA"], exact=True, opponents=2)
    assert caught.value.code == "O111" and "per combination" in str(caught.value)


@pytest.mark.parametrize(("name", "ranks", "combos"), [("holdem", 13, 1326), ("short-deck-holdem", 9, 630)])
def test_the_grid_holds_every_class_once(name: str, ranks: int, combos: int) -> None:
    ruleset = load(name)
    classes = hand_classes(ruleset)
    assert len(classes) == ranks * ranks and len({c.name for c in classes}) == ranks * ranks
    from evaluator.odds.ranges import parse_range

    seen = set()
    for cls in classes:
        found = parse_range(ruleset, cls.name).combos
        assert len(found) == {"pair": 6, "suited": 4, "offsuit": 12}[cls.kind]
        seen.update(frozenset(combo) for combo in found)
        assert (cls.kind == "suited") == (cls.row < cls.col) and (cls.kind == "pair") == (cls.row == cls.col)
    assert len(seen) == combos  # every two-card hand of the deck in exactly one class


def test_a_cell_is_the_same_alone_or_in_the_whole_chart_and_seeds_reproduce() -> None:
    ruleset = load("short-deck-holdem")
    whole = chart(ruleset, samples=1_500, seed=9)
    assert len(whole.cells) == 81 and whole.deals == 81 * 1_500
    alone = chart(ruleset, classes=["KQs", "77"], samples=1_500, seed=9)
    assert [c.equity for c in alone.cells] == [whole.cell("KQs").equity, whole.cell("77").equity]
    other = chart(ruleset, classes=["KQs"], samples=1_500, seed=10)
    assert other.cell("KQs").equity != whole.cell("KQs").equity
    # more opponents: every hand's equity falls
    three = chart(ruleset, classes=["AA"], opponents=3, samples=3_000, seed=9)
    assert three.cell("AA").equity < whole.cell("AA").equity - 0.1


def test_games_without_two_hole_cards_have_no_grid_but_a_sample(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(PokerRulesError) as caught:
        hand_classes(load("omaha"))
    assert caught.value.code == "O105" and "omaha deals 4" in str(caught.value)
    code, out, err = run(capsys, "chart", "omaha", "--hands", "3", "--samples", "50", "--seed", "1", "--json")
    assert code == 0 and json.loads(out)["sample"]["hands"] == 3  # see test_chart_sample.py


@pytest.mark.parametrize(
    ("argv", "status", "text"),
    [
        (["chart", "holdem", "--samples", "0"], 1, "O112"),
        (["chart", "holdem", "--opponents", "0"], 1, "O108"),
        (["chart", "holdem", "--samples", "10", "--exact"], 2, "not allowed with"),
        (["chart", "holdem", "--json", "--csv", "--samples", "10"], 2, "choose one of"),
        (["chart", "holdem", "--board", "Kd Kd", "--exact"], 1, "C103"),
    ],
)
def test_bad_questions_exit_with_a_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], status: int, text: str, tmp_path: Path
) -> None:
    page = tmp_path / "chart.html"
    code, out, err = run(capsys, *argv, "--html", str(page))
    assert code == status and out == "" and text in err and not page.exists()
    assert "Traceback" not in err


def test_cli_json_csv_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "chart", "short-deck-holdem", "--samples", "300", "--seed", "4", "--json")
    assert code == 0
    data = json.loads(out)
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    assert data["method"] == "sampled" and data["seed"] == 4 and len(data["cells"]) == 81
    assert data["ranks"] == ["A", "K", "Q", "J", "T", "9", "8", "7", "6"]
    code, out, _ = run(capsys, "chart", "short-deck-holdem", "--samples", "300", "--seed", "4", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 81 and [r["class"] for r in rows] == [c["class"] for c in data["cells"]]
    assert [float(r["equity"]) for r in rows] == [round(c["equity"], 6) for c in data["cells"]]
    code, out, _ = run(capsys, "chart", "short-deck-holdem", "--samples", "300", "--seed", "4")
    assert "seed 4" in out and "largest standard error" in out
    assert re.search(r"^\s+A\s+\d+\.\d", out, re.MULTILINE)


def test_against_gives_both_charts_and_their_difference(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    page = tmp_path / "chart.html"
    argv = ["chart", "holdem", "--against", "short-deck-holdem", "--samples", "200", "--seed", "1"]
    code, out, _ = run(capsys, *argv, "--json", "--html", str(page))
    assert code == 0
    data = json.loads(out)
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    first, second = data["charts"]
    assert len(first["cells"]) == 169 and len(second["cells"]) == 81 and len(data["difference"]) == 81
    equity = {c["class"]: c["equity"] for c in first["cells"]}
    for change in data["difference"]:
        other = next(c["equity"] for c in second["cells"] if c["class"] == change["class"])
        assert change["equity_change"] == pytest.approx(other - equity[change["class"]])
    assert page.read_text(encoding="utf-8").count("<svg") == 3
    code, out, _ = run(capsys, *argv)
    assert "gain most:" in out and "lose most:" in out


def _small_chart() -> ChartResult:
    return chart(load("holdem"), samples=300, seed=3)


def test_the_svg_grid_is_well_formed_and_coloured_by_equity() -> None:
    result = _small_chart()
    page = render_chart_html(result)
    svg = ET.fromstring(re.search(r"<svg.*?</svg>", page, re.DOTALL).group(0))  # type: ignore[union-attr]
    ns = {"s": "http://www.w3.org/2000/svg"}
    cells = svg.findall("s:g", ns)
    assert len(cells) == 169
    by_class: dict[str, Any] = {g.get("data-class"): g for g in cells}
    strongest = max(result.cells, key=lambda c: c.equity).hand.name
    weakest = min(result.cells, key=lambda c: c.equity).hand.name
    assert by_class[strongest].find("s:rect", ns).get("fill") == "#2ea043"  # green
    assert by_class[weakest].find("s:rect", ns).get("fill") == "#d64541"  # red
    title = by_class["AA"].find("s:title", ns).text or ""
    assert title.startswith("AA (pair, 6 combos): equity ") and "\u00b1" in title
    assert f"{100 * result.cell('AA').equity:.2f}%" in title
    assert "<script" not in page and "http://" not in page.replace("http://www.w3.org/2000/svg", "")


def test_every_string_in_the_page_is_escaped() -> None:
    result = _small_chart()
    result.ruleset = '<script>alert("x")</script>'
    result.board = "<img src=x onerror=alert(1)>"
    other = _small_chart()
    page = render_chart_html(result, compare_charts(result, other))
    assert "<script>" not in page and "<img" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page


@needs_chromium
def test_the_page_renders_in_headless_chromium(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "chart.html"
    argv = ["chart", "holdem", "--against", "short-deck-holdem", "--samples", "200", "--seed", "1"]
    assert run(capsys, *argv, "--html", str(page))[0] == 0
    dom = chromium("--dump-dom", page.as_uri(), tmp_path=tmp_path)
    assert dom.returncode == 0, dom.stderr
    # the browser built the three grids: 169 + 81 cells, and 81 differences
    assert dom.stdout.count('class="cell"') == 169 + 81 + 81
    assert dom.stdout.count("<title>AA (pair, 6 combos): equity") == 2
    shot = tmp_path / "chart.png"
    done = chromium(f"--screenshot={shot}", "--window-size=800,1600", page.as_uri(), tmp_path=tmp_path)
    assert done.returncode == 0 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_unwritable_page_prints_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "chart", "holdem", "--samples", "20", "--html", str(tmp_path / "no" / "chart.html"))
    assert code == 1 and out == "" and "chart.html" in err and "Traceback" not in err


def test_progress_shows_on_stderr(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from evaluator.core import progress

    defaults = progress.Bar.__init__.__defaults__
    assert defaults is not None and defaults[1] == 1.0  # (stream, delay, clock)
    monkeypatch.setattr(progress.Bar.__init__, "__defaults__", (defaults[0], 0.0, defaults[2]))  # no one-second delay
    code, out, err = run(capsys, "chart", "short-deck-holdem", "--samples", "100", "--seed", "1", "--json")
    assert code == 0 and json.loads(out)["method"] == "sampled"
    assert "pokerrules: chart of short-deck-holdem [" in err and "100%" in err


def test_a_class_the_board_blocks_is_an_empty_cell() -> None:
    result = chart(load("holdem"), classes=["AA", "KK", "AKs"], board="As Ad Ah", samples=500, seed=1)
    assert result.cell("AA").combos == 0 and result.cell("AA").deals == 0
    assert result.cell("KK").combos == 6 and result.cell("AKs").combos == 1 and result.cell("KK").deals == 500
    exact = chart(load("holdem"), classes=["AA", "KK"], board="As Ad Ah 7c", exact=True)
    assert exact.cell("AA").deals == 0 and exact.cell("KK").deals > 0
