"""Video poker: hold EVs against brute force over every draw, exact returns
against the published figures, pay tables checked like rulesets."""

from __future__ import annotations

import json
import math
import random
from functools import cache
from itertools import chain, combinations
from math import comb
from pathlib import Path

import jsonschema
import numpy as np
import pytest

import evaluator
from evaluator.cli.main import main
from evaluator.compiled.fast import ruleset_ranker
from evaluator.core import diskcache
from evaluator.core.errors import PokerRulesError
from evaluator.core.resources import paytable_names, paytables_dir
from evaluator.draw.payback import (
    MAGIC,
    RESULT_FORMAT,
    Payback,
    _read_cached,
    _write_cached,
    compare_paytables,
    game_return,
    holds,
)
from evaluator.draw.paytable import load_paytable

REPO = Path(__file__).resolve().parents[1]


DRAW_SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "docs" / "json" / "draw.schema.json").read_text())


def valid_draw_json(out: str) -> dict[str, object]:
    """``pokerrules draw --json`` output, checked against docs/json/draw.schema.json."""
    data: dict[str, object] = json.loads(out)
    jsonschema.Draft202012Validator(DRAW_SCHEMA).validate(data)
    return data


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def generic_ev(table_name: str, hand: list[str], kept: list[str]) -> float:
    """Average pay over every draw, each final hand judged by the generic evaluator."""
    table = load_paytable(table_name)
    ruleset = table.ruleset
    unseen = [str(c) for c in ruleset.deck if str(c) not in hand]
    total = count = 0.0
    for drawn in combinations(unseen, 5 - len(kept)):
        total += table.pays.get(ruleset.evaluate(kept + list(drawn)).category, 0.0)
        count += 1
    return total / count


@cache
def every_draw(unseen: int, k: int) -> np.ndarray:
    """Every ``k`` of ``unseen`` cards, as positions (rows in itertools' order), made once per size."""
    flat = chain.from_iterable(combinations(range(unseen), k))
    # int8 positions: the largest, every five of 47 cards, is kept for the run in 7.7 MB, not 61 MB
    return np.fromiter(flat, dtype=np.int8, count=comb(unseen, k) * k).reshape(comb(unseen, k), k)


def fast_evs(table_name: str, hand: list[str], min_kept: int = 0) -> dict[frozenset[str], float]:
    """The EV of every hold keeping at least ``min_kept`` cards: every draw ranked
    with the compiled tables (themselves tested against the generic evaluator)."""
    table = load_paytable(table_name)
    ruleset = table.ruleset
    deck = [str(c) for c in ruleset.deck]
    unseen = [i for i, c in enumerate(deck) if c not in hand]
    tables = ruleset_ranker(ruleset).tables
    result = {}
    for size in range(min_kept, 6):
        for kept in combinations(hand, size):
            draws = np.array(unseen, dtype=np.int64)[every_draw(len(unseen), 5 - size)]
            held = np.broadcast_to(np.array([deck.index(c) for c in kept], dtype=np.int64), (len(draws), size))
            strengths = ruleset.rank_many(np.concatenate([held, draws], axis=1))
            values, times = np.unique(strengths, return_counts=True)
            pays = [table.pays.get(tables.category_of(int(v)) or "", 0.0) for v in values]
            total = sum(pay * int(n) for pay, n in zip(pays, times, strict=True))
            result[frozenset(kept)] = total / comb(len(unseen), 5 - size)
    return result


def as_map(ranked: list) -> dict[frozenset[str], float]:  # type: ignore[type-arg]
    return {frozenset(str(c) for c in item.hold): item.ev for item in ranked}


# --- holds of famous hands ---------------------------------------------------------------------


def test_four_to_a_royal_beats_a_made_flush_in_9_6_jacks() -> None:
    hand = ["Ah", "Kh", "Qh", "Jh", "9h"]
    ranked = holds(load_paytable("jacks-or-better-9-6"), " ".join(hand))
    assert [str(c) for c in ranked[0].hold] == ["Ah", "Kh", "Qh", "Jh"]
    assert ranked[1].hold == tuple(evaluator.load("jacks-or-better-video").cards(hand))  # the flush, second
    ours = as_map(ranked)
    # brute force with the generic evaluator for every hold of three or more cards
    for size in (5, 4, 3):
        for kept in combinations(hand, size):
            assert ours[frozenset(kept)] == pytest.approx(
                generic_ev("jacks-or-better-9-6", hand, list(kept)), abs=1e-12
            )
    # by hand: the ten of hearts, 7 more hearts, 3 other tens, 12 cards pairing A K Q J
    assert ours[frozenset(hand[:4])] == pytest.approx((800 + 7 * 6 + 3 * 4 + 12 * 1) / 47, abs=1e-12)
    # and every one of the 32 holds against the fast-path brute force
    brute = fast_evs("jacks-or-better-9-6", hand)
    assert set(brute) == set(ours)
    for kept, ev in brute.items():
        assert ours[kept] == pytest.approx(ev, abs=1e-12)


def test_a_pair_of_deuces_in_full_pay_deuces_wild() -> None:
    hand = ["2s", "2h", "5c", "9d", "Kh"]
    ranked = holds(load_paytable("deuces-wild-full-pay"), " ".join(hand))
    assert [str(c) for c in ranked[0].hold] == ["2s", "2h"]
    assert ranked[0].ev == pytest.approx(generic_ev("deuces-wild-full-pay", hand, ["2s", "2h"]), abs=1e-12)
    ours = as_map(ranked)
    for kept, ev in fast_evs("deuces-wild-full-pay", hand).items():
        assert ours[kept] == pytest.approx(ev, abs=1e-12)
    assert max(ours.values()) == ranked[0].ev


def test_joker_hand_holds_equal_brute_force() -> None:
    hand = ["X", "Kd", "Qd", "7c", "3s"]
    ranked = holds(load_paytable("joker-poker-kings"), " ".join(hand))
    ours = as_map(ranked)
    for kept, ev in fast_evs("joker-poker-kings", hand, min_kept=2).items():
        assert ours[kept] == pytest.approx(ev, abs=1e-12)
    assert ranked[0].ev == max(ours.values())
    assert sum(ranked[0].counts.values()) == ranked[0].draws


@pytest.mark.slow
def test_random_hands_every_hold_equals_brute_force() -> None:
    rng = random.Random(2026)
    names = ["jacks-or-better-9-6", "deuces-wild-full-pay", "double-double-bonus-9-6", "joker-poker-kings"]
    for case in range(200):
        name = names[case * len(names) // 200]  # one game after the other
        deck = [str(c) for c in load_paytable(name).ruleset.deck]
        hand = rng.sample(deck, 5)
        ours = as_map(holds(load_paytable(name), " ".join(hand)))
        # every hold for the first hands, the holds keeping 2+ cards for all 200 (runtime)
        for kept, ev in fast_evs(name, hand, min_kept=0 if case % 50 < 2 else 2).items():
            assert ours[kept] == pytest.approx(ev, abs=1e-12), (name, hand, sorted(kept))


def test_holds_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "draw", "jacks-or-better-video", "Ah Kh Qh Jh 9h", "--paytable", "jacks-or-better-9-6", "--json"
    )
    assert code == 0
    data = valid_draw_json(out)
    assert len(data["holds"]) == 32
    assert data["holds"][0]["hold"] == ["Ah", "Kh", "Qh", "Jh"]
    assert data["holds"][0]["categories"]["royal_flush"]["count"] == 1
    assert data["holds"][0]["ev"] > data["holds"][1]["ev"] == 6.0
    code, _, err = run(capsys, "draw", "standard", "Ah Kh Qh Jh 9h", "--paytable", "jacks-or-better-9-6")
    assert code == 1 and "D114" in err and "Traceback" not in err
    assert "hint: pokerrules draw jacks-or-better-video --paytable jacks-or-better-9-6" in err


# --- the game's return ------------------------------------------------------------------------

PUBLISHED = {  # percent, as published (decimals), also cited with its source in each pay-table file
    "jacks-or-better-9-6": (99.5439, 4),
    "jacks-or-better-9-5": (98.4498, 4),
    "jacks-or-better-8-6": (98.39, 2),
    "jacks-or-better-8-5": (97.2984, 4),
    "jacks-or-better-7-5": (96.15, 2),
    "jacks-or-better-6-5": (95.00, 2),
    "bonus-poker-8-5": (99.1660, 4),
    "bonus-poker-6-5": (96.8687, 4),
    "bonus-poker-deluxe-9-6": (99.6417, 4),
    "bonus-poker-deluxe-8-6": (98.49, 2),
    "double-bonus-10-7": (100.1725, 4),
    "double-double-bonus-9-6": (98.9808, 4),
    "aces-and-faces-8-5": (99.26, 2),
    "tens-or-better-6-5": (99.14, 2),
    "deuces-wild-full-pay": (100.7620, 4),
    "deuces-wild-not-so-ugly-ducks": (99.7283, 4),
    "deuces-wild-illinois": (98.9131, 4),
    "joker-poker-kings": (100.6463, 4),
    "double-joker-9-5": (99.97, 2),
    "triple-double-bonus-9-7": (99.5778, 4),
}


def test_every_shipped_pay_table_cites_its_published_return() -> None:
    assert set(paytable_names()) == set(PUBLISHED)
    for name, (figure, decimals) in PUBLISHED.items():
        table = load_paytable(name)
        assert table.published_return == figure and table.published_decimals == decimals and table.published_source


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_return_equals_the_published_figure(name: str) -> None:
    figure, decimals = PUBLISHED[name]
    result = game_return(load_paytable(name), use_cache=False)
    # published figures are rounded half-up at their decimals: a four-decimal figure pins the
    # computed return to within 0.00005 percentage points, a two-decimal one to 0.005
    assert abs(result.return_ * 100 - figure) <= 0.5 * 10.0**-decimals + 1e-12
    assert round(result.return_ * 100, decimals) == figure
    assert sum(result.probabilities.values()) == pytest.approx(1.0, abs=1e-12)
    assert result.variance > 0


@pytest.mark.slow
def test_return_cli_json_and_cache(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POKERRULES_CACHE", str(tmp_path))
    code, out, _ = run(capsys, "draw", "deuces-wild-video", "--paytable", "deuces-wild-full-pay", "--json")
    data = valid_draw_json(out)
    assert code == 0 and round(data["return"] * 100, 4) == 100.7620
    assert data["categories"]["four_deuces"] > 0 and data["variance"] > 25
    files = list(tmp_path.glob("return-*.return"))
    assert len(files) == 1 and files[0].read_bytes().startswith(MAGIC)  # signed, beside the tables
    again = game_return(load_paytable("deuces-wild-full-pay"))
    assert again.from_cache and again.return_ == data["return"]


def test_cache_file_is_validated(tmp_path: Path) -> None:
    table = load_paytable("jacks-or-better-9-6")
    path = tmp_path / "return-abc.return"
    made = Payback(table.name, "jacks-or-better-video", 0.99, {"flush": 0.5, "nothing": 0.5}, 2.0, 3, (1, 2, 31))
    assert _write_cached(path, made)
    read = _read_cached(path, table)
    assert read is not None and read.return_ == 0.99 and read.best_holds == (1, 2, 31)
    with diskcache.open_folder(tmp_path) as folder:
        assert folder is not None
        payload = folder.read(path.name, MAGIC, {"format": RESULT_FORMAT, "key": path.stem})
        assert payload is not None
        data = json.loads(payload)
        # signed with the user's own key, and still refused: every field is checked
        for broken in (
            {**data, "return": "0.99"},
            {**data, "best_holds": [1, 2, 32]},
            {**data, "key": "other"},
            {**data, "categories": {"flush": 2.0}},
            {k: v for k, v in data.items() if k != "variance"},
        ):
            folder.write(path.name, MAGIC, {"format": RESULT_FORMAT, "key": path.stem}, json.dumps(broken).encode())
            assert _read_cached(path, table) is None
        folder.write(path.name, MAGIC, {"format": RESULT_FORMAT, "key": path.stem}, b"not json {")
        assert _read_cached(path, table) is None
    # a result that could not be read back is never written
    assert not _write_cached(path, Payback(table.name, "x", math.nan, {}, 1.0, 0, ()))


@pytest.mark.slow
def test_pay_table_comparison_9_6_against_8_5(capsys: pytest.CaptureFixture[str]) -> None:
    nine_six, eight_five = load_paytable("jacks-or-better-9-6"), load_paytable("jacks-or-better-8-5")
    a, b, changes = compare_paytables(nine_six, eight_five)
    assert a.return_ > b.return_
    assert changes, "a lower full house and flush pay changes some best holds"
    for change in changes[:5]:
        hand = " ".join(map(str, change.hand))
        assert holds(nine_six, hand)[0].hold == change.hold_a
        assert holds(eight_five, hand)[0].hold == change.hold_b
        assert change.hold_a != change.hold_b
    code, out, _ = run(
        capsys,
        "draw",
        "jacks-or-better-video",
        "--paytable",
        "jacks-or-better-9-6",
        "--against",
        "jacks-or-better-8-5",
        "--json",
    )
    data = valid_draw_json(out)
    assert code == 0 and data["changed_classes"] == len(changes)


# --- pay tables are checked like rulesets ---------------------------------------------------------


def test_shipped_pay_tables_pass_check() -> None:
    assert main(["check", str(paytables_dir())]) == 0
    pyproject = (REPO / "pyproject.toml").read_text()
    assert '"paytables" = "evaluator/paytables"' in pyproject  # shipped in the wheel


def test_typo_and_negative_pay_fail_check_with_positions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "paytable: bad\nruleset: jacks-or-better-video\npays:\n  royal_flush: 250\n  staright: 4\n  flush: -6\n"
    )
    code, out, err = run(capsys, "check", str(bad))
    text = out + err
    assert code == 1
    assert f"{bad}:5:3: error D101: 'staright' is not a category" in text and "did you mean 'straight'" in text
    assert f"{bad}:6:10: error D105: the pay for flush is negative" in text


@pytest.mark.parametrize(
    ("text", "code", "line"),
    [
        ("paytable: x\nruleset: no-such-ruleset\npays: {flush: 1}\n", "D103", 2),
        ("paytable: x\nruleset: holdem\npays: {flush: 1}\n", "D104", 2),
        ("paytable: x\nruleset: standard\npays: {flush: 0}\n", "D106", 3),
        ("paytable: x\nruleset: standard\npays: {flush: 1}\nmax_bet: {coins: 5, pays: {royal: 4000}}\n", "D101", 4),
        ("paytable: x\nruleset: standard\npays: {flush: 1}\nbonus: 3\n", "S101", 4),
        ("paytable: x\nruleset: standard\npays: {flush: one}\n", "S102", 3),
    ],
)
def test_pay_table_problems(tmp_path: Path, text: str, code: str, line: int) -> None:
    from evaluator.tools.check import check_file

    path = tmp_path / "table.yaml"
    path.write_text(text)
    found = check_file(path)
    assert found and found[0].code == code and found[0].line == line, found


@pytest.mark.parametrize("value", [".nan", ".inf", "1.0e+308", "1.5e+7", "1000001"])
@pytest.mark.parametrize("where", ["pays", "max_bet"])
def test_non_finite_and_absurd_pays_are_refused_with_positions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str, where: str
) -> None:
    from evaluator.tools.check import check_file

    path = tmp_path / "table.yaml"
    head = "paytable: x\nruleset: jacks-or-better-video\n"
    if where == "pays":
        path.write_text(f"{head}pays:\n  royal_flush: 250\n  flush: {value}\n")
        line, col = 5, 10
    else:
        path.write_text(f"{head}pays: {{flush: 6}}\nmax_bet:\n  coins: 5\n  pays: {{royal_flush: {value}}}\n")
        line, col = 6, 23
    (found,) = check_file(path)
    assert (found.code, found.line, found.col) == ("D115", line, col), found
    assert "a finite number of at most 1,000,000 coins" in found.message
    code, out, err = run(capsys, "draw", "jacks-or-better-video", "--paytable", str(path))
    assert code == 1 and out == "" and f"{path}:{line}:{col}: error D115: " in err and "%" not in err


def test_a_million_coins_is_the_most_a_pay_may_be(tmp_path: Path) -> None:
    from evaluator.tools.check import check_file

    path = tmp_path / "table.yaml"
    path.write_text("paytable: x\nruleset: jacks-or-better-video\npays: {royal_flush: 1000000, flush: 6}\n")
    assert check_file(path) == []
    assert load_paytable(str(path)).pays["royal_flush"] == 1_000_000


@pytest.mark.parametrize("value", [".nan", ".inf", "-1", "1500"])
def test_absurd_published_returns_are_refused(tmp_path: Path, value: str) -> None:
    from evaluator.tools.check import check_file

    path = tmp_path / "table.yaml"
    path.write_text(
        f"paytable: x\nruleset: jacks-or-better-video\npays: {{flush: 6}}\npublished: {{return: {value}, source: s}}\n"
    )
    (found,) = check_file(path)
    assert (found.code, found.line, found.col) == ("D116", 4, 21)


def test_pay_table_loading_errors() -> None:
    with pytest.raises(PokerRulesError) as problem:
        load_paytable("jacks-or-better-9-7")
    assert problem.value.code == "D102" and "jacks-or-better" in (problem.value.first.hint or "")
    with pytest.raises(PokerRulesError) as problem:
        load_paytable(str(REPO / "rulesets" / "standard.yaml"))
    assert problem.value.code == "D107"


def test_max_bet_royal_bonus_is_per_coin() -> None:
    table = load_paytable("deuces-wild-full-pay")
    assert table.pays["natural_royal_flush"] == 800 and table.pays["four_deuces"] == 200 and table.coins == 5


# --- the solver's parts against plain computations -------------------------------------------------


@pytest.mark.parametrize(("deck_size", "suits"), [(15, 3), (20, 4), (17, 4), (18, 4)])
def test_starting_classes_group_every_deal_by_its_suit_masks(deck_size: int, suits: int) -> None:
    from evaluator.draw.deals import starting_classes

    natural = deck_size // suits * suits
    first: dict[tuple[int, ...], tuple[int, ...]] = {}
    size: dict[tuple[int, ...], int] = {}
    for hand in combinations(range(deck_size), 5):  # lexicographic order: the first hand of a class comes first
        masks = [0] * suits
        jokers = 0
        for card in hand:
            if card < natural:
                masks[card % suits] |= 1 << (card // suits)
            else:
                jokers |= 1 << (card - natural)
        key = (jokers, *sorted(masks))
        first.setdefault(key, hand)
        size[key] = size.get(key, 0) + 1
    representatives, sizes = starting_classes(deck_size, suits)
    keys = sorted(first)
    assert [tuple(row) for row in representatives.tolist()] == [first[key] for key in keys]
    assert sizes.tolist() == [size[key] for key in keys]


def test_a_reduced_deck_return_and_categories_equal_a_plain_count(tmp_path: Path) -> None:
    (tmp_path / "small.yaml").write_text(
        "name: small\nextends: jacks-or-better-video\ndeck: {ranks: [T, J, Q, K, A], suits: [s, h, d]}\nexamples: []\n"
    )
    (tmp_path / "pays.yaml").write_text(
        "paytable: small\nruleset: small.yaml\npays: {royal_flush: 30, straight_flush: 20, four_of_a_kind: 25,"
        " full_house: 9, flush: 6, straight: 4, three_of_a_kind: 3, two_pair: 2, jacks_or_better: 1}\n"
    )
    table = load_paytable(tmp_path / "pays.yaml")
    ruleset = table.ruleset
    deck = list(ruleset.deck)
    hands = list(combinations(range(len(deck)), 5))
    kinds = sorted({ruleset.evaluate([deck[i] for i in hand]).category for hand in hands})
    kind = np.array([kinds.index(ruleset.evaluate([deck[i] for i in hand]).category) for hand in hands])
    pay = np.array([table.pays.get(name, 0.0) for name in kinds])[kind]
    bits = np.array([sum(1 << i for i in hand) for hand in hands], dtype=np.int64)
    size = np.array([bin(mask).count("1") for mask in range(32)])
    total = 0.0
    tally = np.zeros(len(kinds))
    for dealt in hands:
        # the final hands that share with the deal exactly the held cards, for each of the 32 holds
        held = np.array([sum(1 << dealt[p] for p in range(5) if mask >> p & 1) for mask in range(32)])
        fits = (bits & sum(1 << card for card in dealt))[None, :] == held[:, None]
        evs = (fits * pay).sum(axis=1) / fits.sum(axis=1)
        # the solver's choice: the best EV (to 1e-9), then more cards, then the lower mask
        choice = max(range(32), key=lambda m: (evs[m] >= evs.max() - 1e-9, size[m], -m))
        total += evs[choice]
        tally += np.bincount(kind[fits[choice]], minlength=len(kinds)) / fits[choice].sum()
    result = game_return(table, use_cache=False)
    assert result.return_ == pytest.approx(total / len(hands), abs=1e-12)
    for name, probability in result.probabilities.items():
        expected = tally[kinds.index(name)] / len(hands) if name in kinds else 0.0
        assert probability == pytest.approx(expected, abs=1e-12), name
