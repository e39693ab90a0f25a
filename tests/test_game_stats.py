"""``stats`` for games: Omaha's 2 + 3 and hi-lo, against a plain Monte Carlo written here."""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from itertools import combinations, product
from math import comb
from pathlib import Path

import jsonschema
import numpy as np
import pytest

from evaluator import load
from evaluator.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
STATS_SCHEMA = json.loads((ROOT / "docs" / "json" / "stats.schema.json").read_text(encoding="utf-8"))
DIFF_SCHEMA = json.loads((ROOT / "docs" / "json" / "diff.schema.json").read_text(encoding="utf-8"))
CATEGORIES = [
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
]  # worst first: the index is the plain strength


def classify(hands: np.ndarray) -> np.ndarray:
    """Plain 5-card categories (index into CATEGORIES) of card ids rank * 4 + suit (rank 0 = deuce)."""
    ranks, suits = np.sort(hands // 4, axis=1), hands % 4
    counts = np.stack([(ranks == r).sum(axis=1) for r in range(13)], axis=1)
    shape = np.sort(counts, axis=1)[:, ::-1]
    flush = (suits == suits[:, :1]).all(axis=1)
    distinct = shape[:, 0] == 1
    wheel = (ranks == np.array([0, 1, 2, 3, 12])).all(axis=1)
    straight = distinct & ((ranks[:, 4] - ranks[:, 0] == 4) | wheel)
    royal = straight & flush & (ranks[:, 0] == 8)
    category = np.zeros(len(hands), dtype=np.int64)
    category[shape[:, 0] == 2] = 1
    category[(shape[:, 0] == 2) & (shape[:, 1] == 2)] = 2
    category[shape[:, 0] == 3] = 3
    category[straight] = 4
    category[flush & ~straight] = 5
    category[(shape[:, 0] == 3) & (shape[:, 1] == 2)] = 6
    category[shape[:, 0] == 4] = 7
    category[straight & flush] = 8
    category[royal] = 9
    return category


@cache
def plain_monte_carlo(deals: int, seed: int, omaha: bool) -> np.ndarray:
    """Category shares of the best hand: Omaha's 2 + 3 of 4 hole + 5 board, or any 5 of the 9 cards."""
    rng = np.random.default_rng(seed)
    if omaha:
        subsets = [h + b for h, b in product(combinations(range(4), 2), combinations(range(4, 9), 3))]
    else:
        subsets = list(combinations(range(9), 5))
    totals = np.zeros(len(CATEGORIES), dtype=np.int64)
    for _ in range(deals // 10_000):
        cards = np.argsort(rng.random((10_000, 52)), axis=1)[:, :9]
        best = np.zeros(10_000, dtype=np.int64)
        for subset in subsets:
            best = np.maximum(best, classify(cards[:, list(subset)]))
        totals += np.bincount(best, minlength=len(CATEGORIES))
    return totals / deals


@cache
def stats_json(*argv: str) -> dict:
    import io
    from contextlib import redirect_stdout

    buffer = io.StringIO()
    with redirect_stdout(buffer):
        assert main(["stats", *argv, "--json"]) == 0
    data = json.loads(buffer.getvalue())
    jsonschema.Draft202012Validator(STATS_SCHEMA).validate(data)
    return data


def test_stats_omaha_agrees_with_a_plain_monte_carlo_and_not_with_best_five_of_nine() -> None:
    data = stats_json("omaha", "--samples", "60000", "--seed", "5")
    assert data["game"]["use"] == "exactly 2 hole + 3 board" and data["game"]["deals"] == 60_000
    ours = {row["name"]: row["probability"] for row in data["categories"]}
    plain = plain_monte_carlo(200_000, 11, True)
    nine = plain_monte_carlo(200_000, 12, False)
    differs = 0
    for index, name in enumerate(CATEGORIES):
        p, q = ours[name], plain[index]
        error = np.sqrt(max(q * (1 - q), 1e-9) * (1 / 60_000 + 1 / 200_000))
        assert abs(p - q) <= 4 * error, (name, p, q)
        r = nine[index]
        differs += abs(p - r) > 8 * np.sqrt(max(r * (1 - r), 1e-9) * (1 / 60_000 + 1 / 200_000))
    assert differs >= 3  # flush, straight, pair ... are far from the best five of nine


def test_stats_omaha_hi_lo_prints_both_halves_with_the_qualifier_rate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "omaha-hi-lo", "--samples", "8000", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "high (standard)" in out and "low (ace-to-five-eight-or-better)" in out
    assert "qualifies for low:" in out and "5-low (the wheel)" in out and "seed 3" in out
    data = stats_json("omaha-hi-lo", "--samples", "8000", "--seed", "3")
    low = data["game"]["halves"][1]
    # a plain count of the qualifying lows among the same kind of deals: five distinct ranks
    # of A-8 from two hole and three board cards
    rng = np.random.default_rng(9)
    qualifies = 0
    for _ in range(4):
        cards = np.argsort(rng.random((5_000, 52)), axis=1)[:, :9]
        low_rank = (cards // 4 + 1) % 13  # ace 0, deuce 1 ... eight 7
        ok = np.zeros(5_000, dtype=bool)
        for hole in combinations(range(4), 2):
            for board in combinations(range(4, 9), 3):
                chosen = low_rank[:, list(hole + board)]
                distinct = np.array([len(set(row)) == 5 for row in chosen.tolist()])
                ok |= distinct & (chosen <= 7).all(axis=1)
        qualifies += int(ok.sum())
    plain_rate = qualifies / 20_000
    error = np.sqrt(plain_rate * (1 - plain_rate) * (1 / 8_000 + 1 / 20_000))
    assert abs(low["qualify_rate"] - plain_rate) <= 4 * error
    assert sum(row["count"] for row in low["categories"]) == 8_000


def test_cards_on_a_game_is_refused_or_means_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "omaha", "--cards", "9"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "2 hole + 3 board" in captured.err and "another game" in captured.err
    assert main(["stats", "holdem", "--cards", "5"]) == 2
    assert "7 cards" in capsys.readouterr().err
    assert main(["stats", "seven-card-stud", "--cards", "7", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cards"] == 7 and data["deals"] == 133_784_560


@pytest.mark.parametrize("samples", ["0", "1000000001"])
def test_samples_out_of_range_are_refused_not_replaced(capsys: pytest.CaptureFixture[str], samples: str) -> None:
    # 0 once fell back to the default of 50,000 deals without a word
    assert main(["stats", "omaha-hi-lo", "--samples", samples]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and f"--samples {samples}: must be from 1 to 1,000,000,000" in captured.err


@pytest.mark.parametrize("name", ["holdem", "seven-card-stud", "razz"])
def test_any_five_games_are_counted_exactly_over_the_game_deal(name: str) -> None:
    data = stats_json(name)
    assert data["cards"] == 7 and data["deals"] == 133_784_560 and "game" not in data
    if name == "razz":
        assert data["lowball"]["cards"] == 7 and data["lowball"]["rows"][0]["label"] == "5-low (the wheel)"
    assert load(name).game is not None


# --- diff of two games: the pot that moves, against a brute force over a fixed flop ------------------------

VALUES = {symbol: value for value, symbol in enumerate("23456789TJQKA", start=2)}


def high_key(cards: tuple[str, ...]) -> tuple:
    """A plain high-poker key of five cards (bigger wins)."""
    values = sorted((VALUES[c[0]] for c in cards), reverse=True)
    counts = {v: values.count(v) for v in values}
    order = sorted(counts, key=lambda v: (counts[v], v), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    flush = len({c[1] for c in cards}) == 1
    run = len(counts) == 5 and (values[0] - values[4] == 4 or values == [14, 5, 4, 3, 2])
    top = 5 if values == [14, 5, 4, 3, 2] else values[0]
    if run and flush:
        return (8, top)
    if shape[0] == 4:
        return (7, *order)
    if shape == [3, 2]:
        return (6, *order)
    if flush:
        return (5, *values)
    if run:
        return (4, top)
    if shape[0] == 3:
        return (3, *order)
    if shape == [2, 2, 1]:
        return (2, *order)
    if shape[0] == 2:
        return (1, *order)
    return (0, *values)


def low_key(cards: tuple[str, ...]) -> tuple | None:
    """Ace-to-five eight or better: None when it does not qualify; smaller wins."""
    values = sorted((1 if c[0] == "A" else VALUES[c[0]] for c in cards), reverse=True)
    if len(set(values)) < 5 or values[0] > 8:
        return None
    return tuple(values)


def split(keys: list, best: object) -> list[Fraction]:
    winners = [i for i, key in enumerate(keys) if key == best]
    return [Fraction(1, len(winners)) if i in winners else Fraction(0) for i in range(len(keys))]


def omaha_hi_lo_shares(holes: list[list[str]], board: list[str]) -> list[Fraction]:
    def hands(hole: list[str]) -> list[tuple[str, ...]]:
        return [tuple(h) + tuple(b) for h in combinations(hole, 2) for b in combinations(board, 3)]

    highs = [max(high_key(h) for h in hands(hole)) for hole in holes]
    lows = [min((k for k in (low_key(h) for h in hands(hole)) if k is not None), default=None) for hole in holes]
    high = split(highs, max(highs))
    qualified = [k for k in lows if k is not None]
    if not qualified:
        return high
    low = split(lows, min(qualified))
    return [h / 2 + w / 2 for h, w in zip(high, low, strict=True)]


def holdem_shares(holes: list[list[str]], board: list[str]) -> list[Fraction]:
    keys = [max(high_key(h) for h in combinations(hole[:2] + board, 5)) for hole in holes]
    return split(keys, max(keys))


def test_diff_omaha_hi_lo_holdem_pot_moved_equals_a_brute_force_over_a_fixed_flop() -> None:
    from evaluator.rules.cards import parse_cards
    from evaluator.tools.game_sample import judge_deals

    a, b = load("omaha-hi-lo"), load("holdem")
    holes = [["Ah", "2h", "Kd", "Qc"], ["9s", "9d", "8c", "7c"]]
    flop = ["3h", "4d", "Js"]
    used = {c for hole in holes for c in hole} | set(flop)
    rest = [str(card) for card in a.deck if str(card) not in used]
    deals, expected = [], []
    for turn, river in combinations(rest, 2):
        board = [*flop, turn, river]
        deals.append(([parse_cards(" ".join(hole)) for hole in holes], [parse_cards(" ".join(board))]))
        shares_a, shares_b = omaha_hi_lo_shares(holes, board), holdem_shares(holes, board)
        expected.append(sum(abs(x - y) for x, y in zip(shares_a, shares_b, strict=True)) / 2)
    count, _, moved, _, _, _ = judge_deals(a, b, deals)
    assert count == comb(41, 2) == len(expected)
    assert moved == expected
    assert sum(expected) > 0


def test_diff_omaha_hi_lo_holdem_reports_the_pot_that_moves(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "omaha-hi-lo", "holdem", "--samples", "300", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    jsonschema.Draft202012Validator(DIFF_SCHEMA).validate(data)
    games = data["game_showdowns"]
    assert games["method"] == "sampled" and games["deals"] == 300 and games["seed"] == 2026
    assert games["pot_moved"] > 0 and games["winners_changed"] > 0
    assert "holdem uses 2 hole cards (the first 2 of 4)" in games["plan"]
    assert data["showdowns"]["method"] == "game"
    for example in games["examples"]:
        shares_a = load("omaha-hi-lo").showdown([" ".join(h) for h in example["holes"]], " ".join(example["boards"][0]))
        assert shares_a  # the deal is a legal deal of the game
