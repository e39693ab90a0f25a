"""Video-poker strategy lists: every hold typed the same way card by card and
in bulk, lists whose exact return equals a brute force over every deal of a
reduced deck (each deal played literally through the list), the published
9/6 Jacks or Better figures, and the command line (text, JSON, HTML)."""

from __future__ import annotations

import json
import random
from itertools import combinations
from pathlib import Path

import jsonschema
import numpy as np
import pytest
from browser import chromium, needs_chromium

from evaluator.cli.main import main
from evaluator.draw.hold_types import DRAW, MADE, PAT, build_geometry, hold_type, hold_types, unpack
from evaluator.draw.payback import final_hands
from evaluator.draw.paytable import load_paytable
from evaluator.draw.strategy import build_strategy
from evaluator.draw.strategy_text import descriptor_text
from evaluator.draw.videopoker import ReturnCalculator

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "docs" / "json"

SMALL_RULESET = """\
name: small-jacks
extends: jacks-or-better-video
deck: {ranks: [T, J, Q, K, A], suits: [s, h, d]}
examples: []
"""
SMALL_JOKER_RULESET = """\
name: small-joker
extends: joker-poker
deck: {ranks: [T, J, Q, K, A], suits: [s, h, d], jokers: 1}
examples: []
"""
SMALL_PAYS = """\
paytable: {name}
ruleset: {ruleset}
pays: {pays}
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def small_table(tmp_path: Path, ruleset: str, pays: str) -> Path:
    (tmp_path / "small.yaml").write_text(ruleset)
    table = tmp_path / "small-pays.yaml"
    table.write_text(SMALL_PAYS.format(name="small", ruleset="small.yaml", pays=pays))
    return table


def brute_force_evs(path: Path) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """Every deal of the deck and the EV of each of its 32 holds: the mean pay of
    the final hands whose cards in common with the deal are exactly the hold,
    each final hand judged by the generic evaluator."""
    table = load_paytable(path)
    ruleset = table.ruleset
    deck = list(ruleset.deck)
    hands = list(combinations(range(len(deck)), 5))
    pays = np.array([table.pays.get(ruleset.evaluate([deck[i] for i in hand]).category, 0.0) for hand in hands])
    bits = np.array([sum(1 << i for i in hand) for hand in hands], dtype=np.int64)
    evs = np.empty((len(hands), 32))
    for row, hand in enumerate(hands):
        dealt = sum(1 << card for card in hand)
        holds = np.array([sum(1 << hand[p] for p in range(5) if mask >> p & 1) for mask in range(32)])
        fits = (bits & dealt)[None, :] == holds[:, None]
        evs[row] = (fits * pays).sum(axis=1) / fits.sum(axis=1)
    return hands, evs


def check_against_brute_force(path: Path, lines: int | None) -> None:
    strategy = build_strategy(load_paytable(path), lines)
    hands, evs = brute_force_evs(path)
    assert strategy.optimal == pytest.approx(evs.max(axis=1).mean(), abs=1e-12)
    played = [strategy.match(list(hand)) for hand in hands]
    kept = np.array([evs[row, match.mask] for row, match in enumerate(played)])
    assert strategy.return_ == pytest.approx(kept.mean(), abs=1e-12)
    assert strategy.error == pytest.approx(evs.max(axis=1).mean() - kept.mean(), abs=1e-12)
    # the lines each deal meets add up to the lines' counts
    counts: dict[int, int] = {}
    for match in played:
        counts[match.line] = counts.get(match.line, 0) + 1
    listed = [deals for section in strategy.sections for deals in section.line_deals]
    assert [counts.get(number + 1, 0) for number in range(len(listed))] == listed
    if lines is not None:
        assert strategy.line_count <= lines


@pytest.mark.slow
@pytest.mark.parametrize("lines", [None, 3])
def test_a_reduced_deck_list_returns_what_brute_force_finds(tmp_path: Path, lines: int | None) -> None:
    pays = "{royal_flush: 40, straight_flush: 20, four_of_a_kind: 25, full_house: 9, flush: 6, straight: 4, three_of_a_kind: 3, two_pair: 2, jacks_or_better: 1}"
    check_against_brute_force(small_table(tmp_path, SMALL_RULESET, pays), lines)


@pytest.mark.slow
def test_a_reduced_deck_with_a_joker_returns_what_brute_force_finds(tmp_path: Path) -> None:
    pays = "{natural_royal_flush: 40, five_of_a_kind: 30, wild_royal_flush: 20, straight_flush: 15, four_of_a_kind: 10, full_house: 5, flush: 4, straight: 3, three_of_a_kind: 2, two_pair: 1, kings_or_better: 1}"
    path = small_table(tmp_path, SMALL_JOKER_RULESET, pays)
    check_against_brute_force(path, None)
    assert {section.wilds for section in build_strategy(load_paytable(path)).sections} == {0, 1}


@pytest.mark.parametrize(
    "name", ["jacks-or-better-9-6", "deuces-wild-full-pay", "joker-poker-kings", "double-double-bonus-9-6"]
)
def test_hold_types_in_bulk_equal_hold_types_card_by_card(name: str) -> None:
    table = load_paytable(name)
    final = final_hands(table.ruleset)
    pays = table.vector(final.categories)
    geometry = build_geometry(table.ruleset, final, pays)
    calculator = ReturnCalculator(table.ruleset, final, pays)
    representatives, _ = calculator.classes
    rows = np.array(random.Random(name).sample(range(len(representatives)), 300))
    hands = representatives[rows]
    typed = hold_types(geometry, final, hands, calculator.subset_indices(hands))
    for row, hand in enumerate(hands.tolist()):
        for mask in range(32):
            assert hold_type(geometry, final, hand, mask) == (typed.keys[mask, row], typed.ties[mask, row]), (
                name,
                hand,
                mask,
            )


def typed(name: str, cards: str, kept: str) -> tuple[str, object]:
    table = load_paytable(name)
    final = final_hands(table.ruleset)
    geometry = build_geometry(table.ruleset, final, table.vector(final.categories))
    deck = list(table.ruleset.deck)
    hand = table.ruleset.cards(cards)
    mask = sum(1 << p for p, card in enumerate(hand) if str(card) in kept.split())
    key, _ = hold_type(geometry, final, [deck.index(card) for card in hand], mask)
    return descriptor_text(geometry, key), unpack(key)


def test_hold_types_in_the_rulesets_words() -> None:
    text, fields = typed("jacks-or-better-9-6", "Ah Kh Qh Jh 9s", "Ah Kh Qh Jh")
    assert text == "4 to a royal flush (1 gap, 4 high cards)" and fields.kind == DRAW  # type: ignore[attr-defined]
    # K-Q unsuited: straights K-Q-J-T-9 and A-K-Q-J-T (two), 3 high cards short of none; the 9s fits a run
    text, fields = typed("jacks-or-better-9-6", "Kh Qs 9h 5c 3d", "Kh Qs")
    assert text == "2 to a straight (2 gaps, 2 high cards)"
    assert fields.straight_penalty == 1 and fields.flush_penalty == 0  # type: ignore[attr-defined]
    text, fields = typed("jacks-or-better-9-6", "Kh Qh 9h 5c 3d", "Kh Qh")
    assert text.startswith("2 to a royal flush") and fields.flush_penalty == 1  # type: ignore[attr-defined]
    text, fields = typed("jacks-or-better-9-6", "7s 7h Ah 5c 3d", "7s 7h")
    assert text == "pair (77)" and fields.kind == MADE  # type: ignore[attr-defined]
    text, fields = typed("jacks-or-better-9-6", "Ks Kh Ah 5c 3d", "Ks Kh")
    assert text == "jacks or better (KK)"
    text, _ = typed("jacks-or-better-9-6", "Ks Qs Js Ts 9s", "Ks Qs Js Ts 9s")
    assert text == "pat straight flush"
    # wild cards: a deuce counts towards the draw, and the natural royal is out of reach
    text, fields = typed("deuces-wild-full-pay", "2s Kh Qh 7c 4d", "2s Kh Qh")
    assert text == "3 to a wild royal flush (2 gaps)" and fields.wilds == 1  # type: ignore[attr-defined]
    text, fields = typed("deuces-wild-full-pay", "2s 2h 7c 7d 4d", "2s 2h 7c 7d")
    assert text == "four of a kind with 2 deuces (77)"
    text, _ = typed("joker-poker-kings", "X Kh Qs 7c 4d", "X")
    assert text == "1 joker only"
    text, fields = typed("joker-poker-kings", "X Kh Kd Kc 4d", "X Kh Kd Kc 4d")
    assert fields.kind == PAT  # type: ignore[attr-defined]


@pytest.mark.slow
def test_the_full_9_6_jacks_or_better_list_and_a_ten_line_one() -> None:
    table = load_paytable("jacks-or-better-9-6")
    full = build_strategy(table)
    assert round(full.optimal * 100, 4) == 99.5439
    assert full.optimal - full.return_ < 0.00001  # within 0.001% of optimal play
    assert full.error > 0  # no list of types plays every class optimally
    short = build_strategy(table, lines=10)
    assert short.line_count <= 10 and short.optimal == full.optimal
    assert full.return_ >= short.return_ > full.optimal - 0.001  # within 0.1%
    texts = [text for section in full.sections for text in section.texts]
    assert texts[0] == "pat royal flush" and texts[-1] == "draw five new cards"
    assert "4 to a royal flush" in texts and "jacks or better" in texts and "pair" in texts


@pytest.mark.slow
def test_strategy_cli_text_json_and_html(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    page = tmp_path / "list.html"
    argv = ["draw", "deuces-wild-video", "--paytable", "deuces-wild-full-pay", "--strategy", "--lines", "16"]
    code, out, _ = run(capsys, *argv, "--json", "--html", str(page))
    data = json.loads(out)
    jsonschema.Draft202012Validator(json.loads((SCHEMAS / "draw-strategy.schema.json").read_text())).validate(data)
    assert code == 0 and data["lines"] <= 16 and data["max_lines"] == 16 and data["wild_card"] == "deuce"
    assert [section["wild_cards"] for section in data["sections"]] == [0, 1, 2, 3, 4]
    assert 0 < data["error"] == pytest.approx(data["optimal"] - data["return"])
    assert round(data["optimal"] * 100, 4) == 100.7620
    html = page.read_text()
    assert html.count('<tr class="line">') == data["lines"] and "dealt 2 deuces" in html
    code, out, _ = run(capsys, *argv[:-2])
    assert code == 0 and "error" in out and "dealt 4 deuces" in out and "  1  " in out


@needs_chromium
@pytest.mark.slow
def test_the_strategy_page_renders_in_headless_chromium(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "jacks.html"
    argv = ["draw", "jacks-or-better-video", "--paytable", "jacks-or-better-9-6", "--strategy", "--html", str(page)]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    lines = sum(1 for line in out.splitlines() if line[:6].strip().isdigit())
    dom = chromium("--dump-dom", page.as_uri(), tmp_path=tmp_path)
    assert dom.returncode == 0, dom.stderr
    assert dom.stdout.count('<tr class="line">') == lines and "4 to a royal flush" in dom.stdout
    shot = tmp_path / "jacks.png"
    done = chromium(f"--screenshot={shot}", "--window-size=1000,1400", page.as_uri(), tmp_path=tmp_path)
    assert done.returncode == 0 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_a_hand_shows_the_line_it_meets(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["draw", "jacks-or-better-video", "Ah Kh Qh Jh 9h", "--paytable", "jacks-or-better-9-6"]
    code, out, _ = run(capsys, *argv, "--json")
    data = json.loads(out)
    jsonschema.Draft202012Validator(json.loads((SCHEMAS / "draw-holds.schema.json").read_text())).validate(data)
    strategy = data["strategy"]
    assert code == 0 and strategy["hold"] == "4 to a royal flush" and strategy["keep"] == ["Ah", "Kh", "Qh", "Jh"]
    assert strategy["ev"] == strategy["best_ev"] == data["holds"][0]["ev"]
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "line 4, 4 to a royal flush" in out and "keep Ah Kh Qh Jh" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["draw", "jacks-or-better-video", "--strategy"], "one of the arguments --next --discard --paytable"),
        (["draw", "jacks-or-better-video", "--paytable", "jacks-or-better-9-6", "--lines", "0"], "at least 1"),
        (["draw", "jacks-or-better-video", "--paytable", "jacks-or-better-9-6", "--html", "x.html"], "--strategy"),
        (
            ["draw", "jacks-or-better-video", "Ah Kh Qh Jh 9h", "--paytable", "jacks-or-better-9-6", "--strategy"],
            "no hand",
        ),
    ],
)
def test_strategy_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and message in err and "Traceback" not in err  # bad usage: exit 2
    assert "usage: pokerrules draw" in err
