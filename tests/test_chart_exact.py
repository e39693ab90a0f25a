"""The exact chart and the matchup table from the command line: JSON against the schema, CSV,
text, the heat map in headless Chromium, usage errors; and the published pre-flop figures."""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from browser import chromium, needs_chromium

from evaluator import load
from evaluator.cli.main import main
from evaluator.odds.chart import chart
from evaluator.odds.matchups import matchups
from evaluator.tools.matchup_html import render_matchups_html

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "docs" / "json" / "chart.schema.json").read_text(encoding="utf-8"))
# the exact equity of a class against one random hand before the flop (PokerStove's exact table)
PUBLISHED = {"AA": 0.852037, "KK": 0.823957, "AKs": 0.670446, "AKo": 0.653201, "72o": 0.345836}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.slow
def test_the_exact_holdem_chart_gives_the_published_figures() -> None:
    result = chart(load("holdem"), exact=True)
    assert result.method == "exact" and result.extra["boards"] == 134_459
    for name, published in PUBLISHED.items():
        assert result.cell(name).equity == pytest.approx(published, abs=1e-6), name


def test_an_exact_chart_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "chart", "short-deck-holdem", "--exact", "--board", "Ah 7d", "--json")
    data = json.loads(out)
    jsonschema.validate(data, SCHEMA)
    assert code == 0 and data["method"] == "exact" and data["seed"] is None and len(data["cells"]) == 81
    aa = next(cell for cell in data["cells"] if cell["class"] == "AA")
    assert aa["combos"] == 3 and aa["std_error"] == 0 and 0.5 < aa["equity"] < 1


def test_an_exact_difference_of_two_rulesets(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "chart", "short-deck-holdem", "--exact", "--against", "short-deck", "--board", "9h 8d 7s", "--csv"
    )
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and len(rows) == 81
    first = chart(load("short-deck-holdem"), exact=True, board="9h 8d 7s", classes=["JTs"]).cell("JTs").equity
    second = chart(load("short-deck"), exact=True, board="9h 8d 7s", classes=["JTs"]).cell("JTs").equity
    jts = next(row for row in rows if row["class"] == "JTs")
    assert float(jts["change"]) == pytest.approx(second - first, abs=1e-6)


def test_the_matchup_table_as_json_csv_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "chart", "royal-holdem", "--matchups", "--exact", "--json")
    data = json.loads(out)
    jsonschema.validate(data, SCHEMA)
    assert code == 0 and data["method"] == "exact" and len(data["classes"]) == 25 and len(data["cells"]) == 625
    cell = next(c for c in data["cells"] if c["class"] == "AA" and c["against"] == "KK")
    assert cell["equity"] == pytest.approx((cell["wins"] + cell["ties"] / 2) / cell["deals"])
    back = next(c for c in data["cells"] if c["class"] == "KK" and c["against"] == "AA")
    assert back["deals"] == cell["deals"] and back["equity"] == pytest.approx(1 - cell["equity"])
    code, out, _ = run(capsys, "chart", "royal-holdem", "--matchups", "--exact", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and len(rows) == 625 and rows[0]["class"] == "AA" and rows[0]["against"] == "AA"
    code, out, _ = run(capsys, "chart", "royal-holdem", "--matchups", "--exact")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("royal-holdem: exact: every class against every class")
    assert len(lines) == 2 + 25 + 1 and lines[2].split()[0] == "AA"


@pytest.mark.parametrize(
    "extra",
    [[], ["--exact", "--against", "short-deck"], ["--exact", "--opponents", "2"], ["--exact", "--hands", "5"]],
)
def test_matchups_refuse_what_they_cannot_give(capsys: pytest.CaptureFixture[str], extra: list[str]) -> None:
    code, out, err = run(capsys, "chart", "royal-holdem", "--matchups", *extra)
    assert code == 2 and out == "" and "--matchups" in err and "Traceback" not in err


def test_a_game_without_a_table_is_refused_with_its_code(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "cycle.yaml"
    path.write_text(
        "name: cycle\nextends: holdem\nbeats:\n  - {winner: pair, loser: straight_flush}\n", encoding="utf-8"
    )
    code, out, err = run(capsys, "chart", str(path), "--matchups", "--exact")
    assert code == 1 and out == "" and "error O126" in err and "beats" in err


def test_the_heat_map_is_well_formed_and_escaped() -> None:
    table = matchups(load("royal-holdem"), board="Ah")
    table.ruleset = '<script>alert("x")</script>'
    page = render_matchups_html(table)
    assert "<script>" not in page and "&lt;script&gt;" in page
    svg = ET.fromstring(re.search(r"<svg.*?</svg>", page, re.DOTALL).group(0))  # type: ignore[union-attr]
    ns = {"s": "http://www.w3.org/2000/svg"}
    rows = svg.findall("s:g", ns)
    assert len(rows) == 25 and all(len(row.findall("s:rect", ns)) == 25 for row in rows)
    aa = rows[0].findall("s:rect", ns)
    title = aa[table.index("KK")].find("s:title", ns).text or ""
    assert title.startswith("AA vs KK: ") and f"{100 * table.equity('AA', 'KK'):.2f}%" in title
    never = aa[0].find("s:title", ns).text or ""  # with the ace of hearts out, two AA hands need four aces
    assert never == "AA vs AA: never dealt together" and aa[0].get("fill") == "#dddddd"


@needs_chromium
def test_the_heat_map_renders_in_headless_chromium(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "matchups.html"
    assert run(capsys, "chart", "royal-holdem", "--matchups", "--exact", "--html", str(page))[0] == 0
    dom = chromium("--dump-dom", page.as_uri(), tmp_path=tmp_path)
    assert dom.returncode == 0, dom.stderr
    assert dom.stdout.count("<rect") == 625 and dom.stdout.count('class="row"') == 25
    shot = tmp_path / "matchups.png"
    done = chromium(f"--screenshot={shot}", "--window-size=800,900", page.as_uri(), tmp_path=tmp_path)
    assert done.returncode == 0 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
