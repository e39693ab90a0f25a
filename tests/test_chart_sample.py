"""Charts of sampled starting hands (Omaha, stud): the sample, exact hands against
brute force, sampled hands against exact ones, the command line and the page."""

from __future__ import annotations

import csv
import io
import json
import re
import statistics
import xml.etree.ElementTree as ET
from collections import Counter
from itertools import combinations
from pathlib import Path

import jsonschema
import pytest
from browser import chromium, needs_chromium

from evaluator import load
from evaluator.cli.main import main
from evaluator.core.errors import PokerRulesError
from evaluator.odds.chart import chart
from evaluator.odds.chart_sample import canonical_hand, draw_hands, starting_cards, suits_interchangeable
from evaluator.rules.cards import Card
from evaluator.tools.chart_html import render_chart_html

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "docs" / "json" / "chart.schema.json").read_text(encoding="utf-8"))

# Reduced cases: every card dead but a few, so that every deal can be enumerated plainly.
OMAHA_TURN = "Kd 7c 2h 5s"
OMAHA_LEFT = "As Ah Ks Kh Qd Js 7s 7d 6s 6h 4s 4h 3c 2d"
RAZZ_LEFT = "As Ah Ad 2s 3h 4d 5c 6s 6h 7d 8c 9s Ts Jh Qd Kc"


def _dead(name: str, *kept: str) -> str:
    """Every card of the deck but ``kept``, as text."""
    keep = {card for text in kept for card in text.split()}
    return " ".join(str(card) for card in load(name).deck if str(card) not in keep)


OMAHA_DEAD = _dead("omaha", OMAHA_TURN, OMAHA_LEFT)
RAZZ_DEAD = _dead("razz", RAZZ_LEFT)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_starting_hand_of_each_game() -> None:
    sizes = {name: starting_cards(load(name)) for name in ("holdem", "omaha", "omaha-hi-lo", "razz", "stud-hi-lo")}
    assert sizes == {"holdem": 2, "omaha": 4, "omaha-hi-lo": 4, "razz": 3, "stud-hi-lo": 3}
    assert starting_cards(load("italian")) == 5  # a five-card game: the hand as dealt
    assert suits_interchangeable(load("omaha-hi-lo")) and suits_interchangeable(load("seven-card-stud"))
    # a suit tie-break, or single wild cards, make suits matter
    assert not suits_interchangeable(load("italian")) and not suits_interchangeable(load("one-eyed-jacks"))


@pytest.mark.parametrize(("cards", "classes"), [(2, 169), (3, 1755)])
def test_canonical_forms_partition_the_deck(cards: int, classes: int) -> None:
    """Every hand of the deck maps to one canonical form; the forms are the known class
    counts (169 two-card, 1,755 three-card) and each stands for the hands that map to it."""
    ruleset = load("seven-card-stud")
    seen: Counter[str] = Counter()
    stands_for: dict[str, int] = {}
    for hand in combinations(ruleset.deck, cards):
        form, combos = canonical_hand(ruleset, list(hand), True)
        name = " ".join(map(str, form))
        seen[name] += 1
        stands_for[name] = combos
        assert Counter(c.rank for c in form) == Counter(c.rank for c in hand)
    assert len(seen) == classes and seen == Counter(stands_for)


def test_renaming_the_suits_changes_no_exact_equity() -> None:
    """What merging hands by suit relies on: an Omaha hand and its relabelled copy,
    on the relabelled board and dead cards, have the same exact equity."""
    ruleset = load("omaha")
    swap = str.maketrans("shdc", "hcsd")
    hand = "As Ks Qd 7d"
    first = chart(ruleset, classes=[hand], exact=True, board=OMAHA_TURN, dead=OMAHA_DEAD)
    second = chart(
        ruleset,
        classes=[hand.translate(swap)],
        exact=True,
        board=OMAHA_TURN.translate(swap),
        dead=OMAHA_DEAD.translate(swap),
    )
    assert first.cells[0].equity == second.cells[0].equity and first.cells[0].deals == second.cells[0].deals > 0


def _omaha_brute_force(hand: list[Card]) -> float:
    """The hand's equity against one random hand on OMAHA_TURN with OMAHA_DEAD out: every
    opponent hand and every river, each player's best two hole cards and three board cards."""
    ruleset = load("omaha")
    board = ruleset.cards(OMAHA_TURN)
    out = set(board) | set(ruleset.cards(OMAHA_DEAD)) | set(hand)
    rest = [card for card in ruleset.deck if card not in out]

    def best(hole: tuple[Card, ...] | list[Card], full: list[Card]) -> int:
        return int(
            max(
                ruleset.rank(ruleset.encode(list(two) + list(three)))
                for two in combinations(hole, 2)
                for three in combinations(full, 3)
            )
        )

    total, deals = 0.0, 0
    for river in rest:
        full = board + [river]
        mine = best(hand, full)
        for villain in combinations([card for card in rest if card != river], 4):
            theirs = best(villain, full)
            share = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            if deals % 97 == 0:  # the brute force's own reading, checked against the generic showdown
                winners = ruleset.showdown([list(hand), list(villain)], full)
                assert share == (1.0 if winners == [0] else 0.5 if len(winners) == 2 else 0.0)
            total += share
            deals += 1
    return total / deals


def _razz_brute_force(hand: list[Card]) -> float:
    """The three-card razz hand's equity against one random hand with RAZZ_DEAD out: every
    way of dealing its other four cards and the opponent's seven."""
    ruleset = load("razz")
    rest = [card for card in ruleset.deck if card not in set(ruleset.cards(RAZZ_DEAD)) | set(hand)]
    total, deals = 0.0, 0
    for more in combinations(rest, 4):
        mine = ruleset.rank(ruleset.encode(hand + list(more)))
        left = [card for card in rest if card not in more]
        for villain in combinations(left, 7):
            theirs = ruleset.rank(ruleset.encode(list(villain)))
            total += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            deals += 1
    return total / deals


@pytest.mark.parametrize(
    ("name", "board", "dead", "brute_force"),
    [("omaha", OMAHA_TURN, OMAHA_DEAD, _omaha_brute_force), ("razz", "", RAZZ_DEAD, _razz_brute_force)],
)
def test_exact_sampled_hands_equal_brute_force_and_sampled_ones_agree(name, board, dead, brute_force) -> None:  # type: ignore[no-untyped-def]
    ruleset = load(name)
    exact = chart(ruleset, hands=3, exact=True, board=board, dead=dead, seed=12)
    assert exact.method == "exact" and exact.seed is None and exact.sample is not None
    assert exact.sample.seed == 12 and not exact.sample.relabelled  # known cards: suits are not renamed
    assert sum(int(cell.as_dict()["drawn"]) for cell in exact.cells) == 3
    for cell in exact.cells:
        assert cell.std_error == 0.0 and cell.combos == 1
        assert cell.equity == pytest.approx(brute_force(ruleset.cards(cell.hand.name)), abs=1e-12)
    sampled = chart(ruleset, hands=3, samples=4_000, board=board, dead=dead, seed=12)
    assert [c.hand for c in sampled.cells] == [c.hand for c in exact.cells]  # the same hands: drawn with the seed
    for mine, truth in zip(sampled.cells, exact.cells, strict=True):
        assert mine.deals == 4_000 and mine.std_error < 0.02  # 0 for a hand that wins every deal
        assert abs(mine.equity - truth.equity) <= 4 * mine.std_error + 1e-12, (
            mine.hand.name,
            mine.equity,
            truth.equity,
        )


def test_the_same_seed_gives_the_same_chart_and_more_hands_extend_it() -> None:
    ruleset = load("seven-card-stud")
    first = chart(ruleset, hands=12, samples=600, seed=5)
    again = chart(ruleset, hands=12, samples=600, seed=5)
    assert first.as_dict() == again.as_dict()
    longer = chart(ruleset, hands=30, samples=600, seed=5)
    assert [c.as_dict()["equity"] for c in longer.cells[: len(first.cells)]] == [c.equity for c in first.cells]
    assert [c.hand.name for c in longer.cells[: len(first.cells)]] == [c.hand.name for c in first.cells]
    other = chart(ruleset, hands=12, samples=600, seed=6)
    assert [c.hand.name for c in other.cells] != [c.hand.name for c in first.cells]


def test_the_draws_are_uniform_and_merged_by_suits() -> None:
    """Stud three-card hands: trips are 52 of 22,100 hands, pairs 3,744; over 4,000 draws
    their counts stay within four standard deviations, and merged hands keep every draw."""
    ruleset = load("seven-card-stud")
    hands, combos, sample = draw_hands(ruleset, 4_000, seed=3)
    assert sum(hand.drawn for hand in hands) == 4_000 and len(hands) < 1_755 and sample.relabelled
    kinds: Counter[str] = Counter()
    for hand in hands:
        ranks = Counter(token[0] for token in hand.name.split())
        kinds[{1: "trips", 2: "pair", 3: "none"}[len(ranks)]] += hand.drawn
    for kind, share in (("trips", 52 / 22_100), ("pair", 3_744 / 22_100)):
        expected = 4_000 * share
        assert abs(kinds[kind] - expected) <= 4 * (expected * (1 - share)) ** 0.5, (kind, kinds[kind])
    assert all(1 <= c <= 24 for c in combos)


@pytest.mark.parametrize(("name", "opponents"), [("omaha", 1), ("stud-hi-lo", 2)])
def test_a_random_hand_is_worth_its_seat(name: str, opponents: int) -> None:
    """Over uniformly drawn starting hands the mean equity is 1 / players: within four
    standard errors of the mean (the spread between hands includes the deals' own noise)."""
    result = chart(load(name), hands=40, samples=1_000, opponents=opponents, seed=21)
    assert result.sample is not None
    equities = [cell.equity for cell in result.cells for _ in range(int(cell.as_dict()["drawn"]))]
    mean = result.as_dict()["sample"]["mean_equity"]
    assert mean == pytest.approx(statistics.fmean(equities))
    assert abs(mean - 1 / (opponents + 1)) <= 4 * statistics.stdev(equities) / len(equities) ** 0.5


def test_bad_questions_are_refused() -> None:
    with pytest.raises(PokerRulesError) as caught:
        chart(load("omaha"), classes=["As Ad Kc"])
    assert caught.value.code == "O117" and "holds 3 cards" in str(caught.value)
    with pytest.raises(PokerRulesError) as caught:
        chart(load("omaha"), hands=10_001)
    assert caught.value.code == "O117"
    with pytest.raises(PokerRulesError) as caught:
        chart(load("razz"), hands=3, board="As", samples=10)
    assert caught.value.code == "O109"  # stud has no board
    with pytest.raises(PokerRulesError) as caught:
        chart(load("omaha"), hands=2, exact=True)  # pre-flop Omaha: far past the bound
    assert caught.value.code == "O111"


def test_cli_text_json_and_csv(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["chart", "omaha", "--hands", "12", "--samples", "300", "--seed", "4"]
    code, out, _ = run(capsys, *argv, "--json")
    assert code == 0
    data = json.loads(out)
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    sample = data["sample"]
    assert sample["hands"] == 12 and sample["seed"] == 4 and sample["cards"] == 4 and sample["relabelled"]
    assert "SeedSequence(4, spawn_key=(i,))" in sample["rule"] and sample["distinct"] == len(data["cells"])
    assert data["method"] == "sampled" and data["samples_per_class"] == 300
    assert all(cell["kind"] == "sampled" and cell["deals"] == 300 for cell in data["cells"])
    assert [cell["index"] for cell in data["cells"]] == list(range(len(data["cells"])))
    code, out, _ = run(capsys, *argv, "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["class"] for r in rows] == [c["class"] for c in data["cells"]]
    assert [float(r["equity"]) for r in rows] == [round(c["equity"], 6) for c in data["cells"]]
    assert [int(r["drawn"]) for r in rows] == [c["drawn"] for c in data["cells"]]
    code, out, _ = run(capsys, *argv)
    lines = out.splitlines()
    assert lines[0].startswith("omaha: sampled: 300 deals per hand") and lines[1].startswith("sample: 12 starting")
    listed = [float(m) for m in re.findall(r"^\s+\d+\s+.*?\s(\d+\.\d\d)%", out, re.MULTILINE)]
    assert len(listed) == len(data["cells"]) and listed == sorted(listed, reverse=True)
    # a grid chart says it has no sample
    code, out, _ = run(capsys, "chart", "short-deck-holdem", "--samples", "50", "--seed", "1", "--json")
    assert json.loads(out)["sample"] is None


def test_cli_against_charts_the_same_hands(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    page = tmp_path / "chart.html"
    argv = ["chart", "omaha", "--against", "omaha-hi-lo", "--hands", "10", "--samples", "300", "--seed", "2"]
    code, out, _ = run(capsys, *argv, "--json", "--html", str(page))
    assert code == 0
    data = json.loads(out)
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    first, second = data["charts"]
    assert [c["class"] for c in first["cells"]] == [c["class"] for c in second["cells"]]
    assert second["sample"]["seed"] == 2 and "the hands of the omaha chart's sample" in second["sample"]["rule"]
    equity = {c["class"]: c["equity"] for c in first["cells"]}
    assert len(data["difference"]) == len(first["cells"])
    for change, cell in zip(data["difference"], second["cells"], strict=True):
        assert change["equity_change"] == pytest.approx(cell["equity"] - equity[cell["class"]])
    text = page.read_text(encoding="utf-8")
    assert text.count('<svg class="bars"') == 3 and text.count('class="hand"') == 3 * len(first["cells"])
    code, out, _ = run(capsys, *argv, "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == len(first["cells"]) and set(rows[0]) >= {"class", "equity_a", "equity_b", "change"}
    code, out, _ = run(capsys, *argv)
    assert "change from omaha to omaha-hi-lo (" in out


@pytest.mark.parametrize(
    ("argv", "status", "text"),
    [
        (["chart", "omaha", "--hands", "0"], 1, "O117"),
        (["chart", "holdem", "--hands", "5"], 1, "O117"),
        (["chart", "omaha", "--against", "holdem", "--hands", "3"], 1, "grid chart"),
        (["chart", "omaha", "--against", "razz", "--hands", "3"], 1, "no hand in common"),
        (["chart", "razz", "--hands", "3", "--board", "As"], 1, "O109"),
        (["chart", "omaha", "--hands", "3", "--dead", "As As"], 1, "C103"),
        (["chart", "omaha", "--hands", "x"], 2, "invalid int"),
    ],
)
def test_cli_errors(
    capsys: pytest.CaptureFixture[str], argv: list[str], status: int, text: str, tmp_path: Path
) -> None:
    page = tmp_path / "chart.html"
    code, out, err = run(capsys, *argv, "--samples", "10", "--html", str(page))
    assert code == status and out == "" and text in err and not page.exists()
    assert "Traceback" not in err


def test_the_bars_are_well_formed_sorted_and_escaped() -> None:
    result = chart(load("razz"), hands=8, samples=300, seed=8)
    page = render_chart_html(result)
    svg = ET.fromstring(re.search(r'<svg class="bars".*?</svg>', page, re.DOTALL).group(0))  # type: ignore[union-attr]
    ns = {"s": "http://www.w3.org/2000/svg"}
    rows = svg.findall("s:g", ns)
    assert len(rows) == len(result.cells)
    widths = [float(str(g.find("s:rect", ns).get("width"))) for g in rows]  # type: ignore[union-attr]
    assert widths == sorted(widths, reverse=True)  # the strongest first
    strongest = max(result.cells, key=lambda c: c.equity)
    assert rows[0].get("data-hand") == strongest.hand.name
    assert rows[0].find("s:rect", ns).get("fill") == "#2ea043"  # type: ignore[union-attr]
    title = rows[0].find("s:title", ns).text or ""  # type: ignore[union-attr]
    assert title.startswith(f"{strongest.hand.name} (sampled, ") and "\u00b1" in title
    assert "sample: 8 starting hands" in page and "<script" not in page
    result.ruleset = '<script>alert("x")</script>'
    assert "<script>" not in render_chart_html(result)


@needs_chromium
def test_the_sampled_page_renders_in_headless_chromium(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "chart.html"
    argv = ["chart", "omaha", "--against", "omaha-hi-lo", "--hands", "20", "--samples", "200", "--seed", "1"]
    assert run(capsys, *argv, "--html", str(page))[0] == 0
    dom = chromium("--dump-dom", page.as_uri(), tmp_path=tmp_path)
    assert dom.returncode == 0, dom.stderr
    hands = len(re.findall(r'<g class="hand"', page.read_text(encoding="utf-8")))
    assert hands > 0 and dom.stdout.count('class="hand"') == hands
    shot = tmp_path / "chart.png"
    done = chromium(f"--screenshot={shot}", "--window-size=800,1600", page.as_uri(), tmp_path=tmp_path)
    assert done.returncode == 0 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
