"""``stats`` for games: Omaha's 2 + 3 and hi-lo, against a plain Monte Carlo written here."""

from __future__ import annotations

import json
from functools import cache
from itertools import combinations, product
from pathlib import Path

import jsonschema
import numpy as np
import pytest

from evaluator import load
from evaluator.cli import main

ROOT = Path(__file__).resolve().parents[1]
STATS_SCHEMA = json.loads((ROOT / "docs" / "json" / "stats.schema.json").read_text(encoding="utf-8"))
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


@pytest.mark.parametrize("name", ["holdem", "seven-card-stud", "razz"])
def test_any_five_games_are_counted_exactly_over_the_game_deal(name: str) -> None:
    data = stats_json(name)
    assert data["cards"] == 7 and data["deals"] == 133_784_560 and "game" not in data
    if name == "razz":
        assert data["lowball"]["cards"] == 7 and data["lowball"]["rows"][0]["label"] == "5-low (the wheel)"
    assert load(name).game is not None
