"""``pokerrules diff``: settings, orders, verified flips, the changed-showdown share, the HTML report.

The flip examples are re-checked here independently of the code that found
them: the cards must be legal in both decks, disjoint, of the named
categories in both rulesets, and win under A and lose under B.
"""

from __future__ import annotations

import json
import struct
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from browser import chromium, needs_chromium

from evaluator import load
from evaluator.cli.main import main
from evaluator.tools.diff import common_deck, flipped_pairs, heads_up_deals, wilson_interval

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "docs" / "json" / "diff.schema.json").read_text(encoding="utf-8"))
FEW = ["--samples", "400"]  # enough to exercise sampling, cheap enough for every run


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the command line; (exit code, stdout, stderr)."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def diff_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    """``diff --json`` output, validated against docs/json/diff.schema.json."""
    code, out, _ = run(capsys, "diff", *argv, "--json")
    assert code == 0
    data = json.loads(out)
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    return data


def assert_verified_flip(a_name: str, b_name: str, flip: dict[str, Any]) -> None:
    """Check one flip example from scratch."""
    a, b = load(a_name), load(b_name)
    example = flip["example"]
    assert example is not None, flip
    first, second = example["wins_in_a"]["cards"], example["wins_in_b"]["cards"]
    legal = Counter(str(card) for card in common_deck(a, b))
    assert not Counter(first + second) - legal, "cards must be legal in both decks and dealt once"
    text_first, text_second = " ".join(first), " ".join(second)
    assert a.evaluate(text_first).category == b.evaluate(text_first).category == flip["winner_in_a"]
    assert a.evaluate(text_second).category == b.evaluate(text_second).category == flip["winner_in_b"]
    assert a.compare(text_first, text_second) == 1
    assert b.compare(text_first, text_second) == -1


def fresh_copy(name: str, folder: Path) -> Any:
    """A catalogue ruleset loaded from a copy of its file: a new object, with no caches of its own yet."""
    from evaluator.core.resources import rulesets_dir

    path = folder / f"{name}.yaml"
    path.write_text((rulesets_dir() / f"{name}.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    return load(str(path))


# --- standard against short deck --------------------------------------------------------------


def test_short_deck_names_the_deck_change_and_the_flush_full_house_swap(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "diff", "standard", "short-deck", *FEW)
    assert code == 0, err
    assert "deck: 52 → 36 cards" in out
    assert "full_house beats flush in standard; flush beats full_house in short-deck" in out
    assert "No difference" not in out


def test_short_deck_json_has_one_verified_flip(capsys: pytest.CaptureFixture[str]) -> None:
    data = diff_json(capsys, "standard", "short-deck", *FEW)
    assert [(f["winner_in_a"], f["winner_in_b"]) for f in data["flips"]] == [("full_house", "flush")]
    assert_verified_flip("standard", "short-deck", data["flips"][0])
    settings = {row["name"]: row for row in data["settings"]}
    assert settings["deck size"] == {"name": "deck size", "a": "52 cards", "b": "36 cards", "differs": True}
    assert not settings["ace"]["differs"]
    assert [c["name"] for c in data["categories"]["b"]][3:5] == ["flush", "full_house"]


def test_short_deck_frequencies_are_exact(capsys: pytest.CaptureFixture[str]) -> None:
    data = diff_json(capsys, "standard", "short-deck", *FEW)
    short = {c["name"]: c["count"] for c in data["categories"]["b"]}
    assert short["flush"] == 480 and short["full_house"] == 1728 and short["straight"] == 6120
    standard = {c["name"]: c for c in data["categories"]["a"]}
    assert standard["full_house"]["count"] == 3744
    assert standard["high_card"]["probability"] == pytest.approx(1302540 / 2598960)


def test_short_deck_reports_the_low_straight_as_a_reclassified_hand(capsys: pytest.CaptureFixture[str]) -> None:
    data = diff_json(capsys, "standard", "short-deck", *FEW)
    moved = {(r["category_a"], r["category_b"]): r["example"] for r in data["reclassified"]}
    example = moved[("high_card", "straight")]
    assert sorted(card[0] for card in example["cards"]) == sorted("A6789")
    assert load("short-deck").evaluate(" ".join(example["cards"])).category == "straight"
    assert load("standard").evaluate(" ".join(example["cards"])).category == "high_card"


def test_the_examples_are_verified_without_the_per_call_closures(tmp_path: Path) -> None:
    """The flip census ranks every hand on the tables; its few examples are verified by the generic
    evaluator, not by per-call closures built for them (a second or two for suit-class tables)."""
    from evaluator.tools.diff import compare_rulesets

    a, b = (fresh_copy(name, tmp_path) for name in ("standard", "short-deck"))  # no closures from other tests
    diff = compare_rulesets(a, b, samples=400)
    assert diff.flip_causes is not None and diff.flip_causes.method == "exact"
    assert any(group.example is not None for group in diff.flip_causes.groups)
    assert [flip.example is not None for flip in diff.flips] == [True]
    assert diff.reclassified and all(row.example is not None for row in diff.reclassified)
    assert getattr(a, "_cache_tables", None) is not None  # the census ranked on the tables
    assert getattr(a, "_cache_fast_hands", None) is None and getattr(b, "_cache_fast_hands", None) is None


# --- no difference ---------------------------------------------------------------------------------


def test_standard_against_itself_reports_no_difference(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "diff", "standard", "standard")
    assert code == 0
    assert "No difference: standard and standard have the same deck, rules and category order" in out
    assert "Category order flips (0)" in out


def test_standard_against_itself_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = diff_json(capsys, "standard", "standard")
    assert data["identical"] and data["same_rules"]
    assert data["flips"] == [] and data["reclassified"] == [] and data["only_in_a"] == []
    assert not any(row["differs"] for row in data["settings"])
    showdowns = data["showdowns"]
    assert showdowns["method"] == "identical" and showdowns["changed"] == 0 and showdowns["share"] == 0
    assert showdowns["deals"] == heads_up_deals(52, 5)


# --- flips -------------------------------------------------------------------------------------------


def test_direction_change_flips_every_shared_pair_and_each_example_is_verified(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = diff_json(capsys, "standard", "deuce-to-seven", *FEW)
    shared = [c["name"] for c in data["categories"]["a"] if c["name"] in {d["name"] for d in data["categories"]["b"]}]
    assert len(data["flips"]) == len(shared) * (len(shared) - 1) // 2
    for flip in data["flips"]:
        assert_verified_flip("standard", "deuce-to-seven", flip)
    assert data["only_in_a"] == ["royal_flush"]


def test_flipped_pairs_follow_order_and_direction() -> None:
    assert flipped_pairs(load("standard"), load("short-deck")) == [("full_house", "flush")]
    assert flipped_pairs(load("short-deck"), load("standard")) == [("flush", "full_house")]
    assert flipped_pairs(load("short-deck"), load("short-deck-trips")) == [("straight", "three_of_a_kind")]
    assert flipped_pairs(load("standard"), load("suits-bridge")) == []


def test_categories_only_in_one_and_reclassified_cards(capsys: pytest.CaptureFixture[str]) -> None:
    data = diff_json(capsys, "standard", "twenty-card", *FEW)
    assert data["only_in_a"] == ["royal_flush", "straight_flush", "flush", "straight"]
    assert data["only_in_b"] == [] and data["flips"] == []
    moved = {(r["category_a"], r["category_b"]) for r in data["reclassified"]}
    assert ("royal_flush", "high_card") in moved and ("straight", "high_card") in moved


# --- the share of showdowns whose winner changes -----------------------------------------------------


def test_sampled_share_states_seed_and_wilson_interval(capsys: pytest.CaptureFixture[str]) -> None:
    # a sampled flip census (wild cards): the showdowns are sampled too
    data = diff_json(capsys, "standard", "deuces-wild", "--samples", "300", "--seed", "7")
    showdowns = data["showdowns"]
    assert showdowns["method"] == "sampled" and showdowns["seed"] == 7 and showdowns["deals"] == 300
    interval = showdowns["interval"]
    assert interval["method"] == "wilson" and interval["level"] == 0.95
    assert interval["low"] <= showdowns["share"] <= interval["high"]
    assert (interval["low"], interval["high"]) == pytest.approx(wilson_interval(showdowns["changed"], 300))
    for deal in showdowns["examples"]:
        assert deal["outcome_a"] != deal["outcome_b"]
        a, b = load("standard"), load("deuces-wild")
        assert a.compare(" ".join(deal["first"]), " ".join(deal["second"])) == deal["outcome_a"]
        assert b.compare(" ".join(deal["first"]), " ".join(deal["second"])) == deal["outcome_b"]
    code, out, _ = run(capsys, "diff", "standard", "deuces-wild", "--samples", "300", "--seed", "7")
    assert code == 0 and "seed 7" in out and "95% Wilson interval" in out


def test_same_seed_same_share_other_seed_other_sample(capsys: pytest.CaptureFixture[str]) -> None:
    # six cards each: the exact census judged five, so the showdowns are sampled
    options = ("--cards", "6", "--samples", "300", "--seed")
    first = diff_json(capsys, "short-deck", "short-deck-trips", *options, "1")["showdowns"]
    again = diff_json(capsys, "short-deck", "short-deck-trips", *options, "1")["showdowns"]
    other = diff_json(capsys, "short-deck", "short-deck-trips", *options, "2")["showdowns"]
    assert first == again
    assert first["examples"] != other["examples"]


def test_exact_share_where_enumeration_is_cheap(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # One card each: a pair of equal ranks ties without suits and is decided by suit with them.
    suited = tmp_path / "suited-singles.yaml"
    suited.write_text(
        "extends: incomplete-hands\nsuits: {order: [s, h, d, c], tiebreak: highest_card}\n", encoding="utf-8"
    )
    data = diff_json(capsys, "incomplete-hands", str(suited), "--cards", "1")
    showdowns = data["showdowns"]
    assert showdowns["method"] == "exact" and showdowns["interval"] is None and showdowns["seed"] is None
    assert showdowns["deals"] == 52 * 51 // 2
    assert showdowns["changed"] == 13 * 6  # two cards of one rank: C(4, 2) per rank
    assert showdowns["share"] == pytest.approx(78 / 1326)


@pytest.mark.parametrize(
    ("first", "second", "cards"),
    [
        ("standard", "deuces-wild", 5),
        ("standard", "suits-bridge", 5),  # a suit tie-break
        ("short-deck", "stripped-32", 5),
        ("ace-to-five", "deuce-to-seven", 5),  # low games
        ("standard", "short-deck", 7),  # best five of seven
        ("incomplete-hands", "standard", 3),  # hands under hand.min: no hand loses
        ("standard", "two-decks", 5),  # two packs: judged one deal at a time
        ("italian", "standard", 5),  # beats: judged one deal at a time
    ],
)
def test_the_batch_share_counts_the_deals_the_generic_judge_counts(first: str, second: str, cards: int) -> None:
    from evaluator.tools import showdown_share as share

    a, b = load(first), load(second)
    deck = common_deck(a, b)
    batched = share.sampled_share(a, b, deck, cards, 300, seed=5)
    # the generic evaluator and compare, deal by deal, on the same seeded deals
    rng, judge, examples, changed = share.random.Random(5), share._Judge(a, b), [], 0
    for _ in range(300):
        dealt = rng.sample(deck, 2 * cards)
        changed += share._changed(judge, tuple(dealt[:cards]), tuple(dealt[cards:]), examples)
    assert batched.changed == changed and batched.examples == tuple(examples)
    uses_batch = share.batch_ready(a, cards) and share.batch_ready(b, cards)
    assert uses_batch == ((first, second) not in {("standard", "two-decks"), ("italian", "standard")})


def test_wilson_interval_known_values() -> None:
    assert wilson_interval(0, 100) == pytest.approx((0.0, 0.036994), abs=1e-6)
    assert wilson_interval(50, 100) == pytest.approx((0.403832, 0.596168), abs=1e-6)
    low, high = wilson_interval(4, 2000)
    assert 0 < low < 4 / 2000 < high < 0.006


# --- usage -----------------------------------------------------------------------------------------------


def test_bad_card_count_is_a_usage_error_and_writes_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    code, out, err = run(capsys, "diff", "standard", "short-deck", "--cards", "3", "--html", str(report))
    assert code == 2 and out == "" and "--cards 3" in err
    assert not report.exists()


@pytest.mark.parametrize("samples", ["0", "-5", "10000001"])
def test_samples_out_of_range_are_a_usage_error(capsys: pytest.CaptureFixture[str], samples: str) -> None:
    code, out, err = run(capsys, "diff", "standard", "deuces-wild", "--samples", samples)
    assert code == 2 and out == ""
    assert f"--samples {samples}: must be from 1 to 10,000,000" in err


def test_unknown_ruleset_fails_and_writes_no_html(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    code, out, err = run(capsys, "diff", "standard", "no-such-ruleset", "--html", str(report))
    assert code == 1 and out == "" and err
    assert not report.exists()


# --- the HTML report --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def short_deck_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The HTML report of ``diff standard short-deck``."""
    path = tmp_path_factory.mktemp("report") / "diff.html"
    assert main(["diff", "standard", "short-deck", "--samples", "400", "--html", str(path)]) == 0
    return path


def test_html_is_self_contained(short_deck_report: Path) -> None:
    page = short_deck_report.read_text(encoding="utf-8")
    for external in ("<script", "<link", "src=", "url(", "@import", "@font-face"):
        assert external not in page, external
    assert page.count("http") == page.count('xmlns="http://www.w3.org/2000/svg"') == 2


def test_html_has_charts_cards_and_settings(short_deck_report: Path) -> None:
    page = short_deck_report.read_text(encoding="utf-8")
    assert page.count("<svg") == 2
    assert page.count('<rect class="bar"') == page.count("<rect") == 20
    assert "log scale" in page
    assert 'class="card red' in page and 'class="card black' in page and "♥" in page and "♠" in page
    assert "<td>deck size</td><td>52 cards</td><td>36 cards</td>" in page


def _png_pixels(path: Path) -> tuple[int, int, bytes]:
    """Width, height and the raw (still filtered) scanline bytes of a PNG."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, idat, width, height = 8, b"", 0, 0
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position : position + 8])
        body = data[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        position += 12 + length
    return width, height, zlib.decompress(idat)


@needs_chromium
def test_chromium_renders_the_charts(short_deck_report: Path, tmp_path: Path) -> None:
    result = chromium("--dump-dom", short_deck_report.as_uri(), tmp_path=tmp_path)
    dom = result.stdout
    assert "<svg" in dom, result.stderr[-2000:]
    assert dom.count('<rect class="bar"') == 10 * 2
    assert "flush" in dom and "full house" in dom


@needs_chromium
def test_chromium_screenshot_is_not_blank(short_deck_report: Path, tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    result = chromium(
        "--hide-scrollbars",
        "--window-size=1200,1600",
        f"--screenshot={shot}",
        short_deck_report.as_uri(),
        tmp_path=tmp_path,
    )
    assert shot.exists(), result.stderr[-2000:]
    width, height, raw = _png_pixels(shot)
    assert (width, height) == (1200, 1600)
    assert len(set(raw)) > 64, "the screenshot looks blank"
