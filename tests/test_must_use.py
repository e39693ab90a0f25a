"""Must-use holdings on their table (``compiled/mustuse.py``) against independent truth.

The table path answers Omaha's "exactly two hole cards and three of the board"
with one gather per hole pair. It is checked against a plain brute force (every
2 + 3 combination valued by the generic engine, written out here), against the
generic ``showdown`` on deals drawn from a short pack so that ties, split pots,
flushes and lows are common, against the combinations ranked as rows, and, for
odds, known hands against the same hands read row by row. Rulesets off the
table (wild cards, a flush that can hurt) must keep the generic answers.
"""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from evaluator import load
from evaluator.compiled.batch_showdown import PotHalf, playing_columns
from evaluator.compiled.mustuse import BUILD_AFTER, must_use_table
from evaluator.engine.evaluate import engine_for
from evaluator.engine.showdown import half_rulesets, showdown
from evaluator.odds.shares import ShareEngine
from evaluator.ruleset import Ruleset

#: Ranks of the short pack: many pairs, straights, flushes and eight-or-better lows.
SHORT = "A2345789"


def short_deals(rs: Ruleset, n: int, players: int, seed: int, ranks: str = SHORT) -> tuple[np.ndarray, np.ndarray]:
    """``n`` deals of four hole cards each and a five-card board from ``ranks`` of every suit."""
    pack = [i for i, card in enumerate(rs.deck) if card.rank in ranks]
    rng = random.Random(seed)
    holes = np.zeros((n, players, 4), dtype=np.int64)
    boards = np.zeros((n, 5), dtype=np.int64)
    for d in range(n):
        cards = rng.sample(pack, 4 * players + 5)
        holes[d] = np.array(cards[: 4 * players]).reshape(players, 4)
        boards[d] = cards[4 * players :]
    return holes, boards


def on_the_table(rs: Ruleset) -> Ruleset:
    """``rs`` with its must-use tables built now (a batch builds them only once it is worth it)."""
    for _, rules in half_rulesets(rs):
        assert must_use_table(PotHalf(rs, rules).ranker, 4, 5, 2, 3) is not None
    return rs


def brute_force(rs: Ruleset, hole_ids: list[list[int]], board_ids: list[int]) -> list[float]:
    """Shares of one deal: every player's best 2 + 3 by the generic engine, half by half."""
    deck = rs.deck
    halves = []
    for _, rules in half_rulesets(rs):
        engine = engine_for(rules)
        best = []
        for hole in hole_ids:
            hands = [
                engine.evaluate([deck[i] for i in two + three])
                for two in combinations(hole, 2)
                for three in combinations(board_ids, 3)
            ]
            hands = [hand for hand in hands if hand.qualifies]
            best.append(max(hand.strength for hand in hands) if hands else None)
        top = max((value for value in best if value is not None), default=None)
        halves.append([top is not None and value == top for value in best])
    live = [winners for winners in halves if any(winners)]
    shares = [0.0] * len(hole_ids)
    for winners in live:
        for p, won in enumerate(winners):
            if won:
                shares[p] += 1.0 / len(live) / sum(winners)
    return shares


@pytest.mark.parametrize("name", ["omaha", "omaha-hi-lo"])
def test_showdown_many_equals_a_brute_force_over_combinations(name: str) -> None:
    rs = on_the_table(load(name))
    holes, boards = short_deals(rs, 12, 4, seed=27)
    got = rs.showdown_many(holes, boards)
    for d in range(len(holes)):
        assert got[d].tolist() == pytest.approx(brute_force(rs, holes[d].tolist(), boards[d].tolist()), abs=1e-12)


@pytest.mark.parametrize("name", ["omaha", "omaha-hi-lo"])
def test_showdown_many_equals_the_generic_showdown_with_ties_and_splits(name: str) -> None:
    rs = on_the_table(load(name))
    holes, boards = short_deals(rs, 150, 4, seed=len(name))
    got = rs.showdown_many(holes, boards)
    deck = rs.deck
    split = 0
    for d in range(len(holes)):
        players = [[deck[i] for i in hole] for hole in holes[d].tolist()]
        expected = [float(f) for f in showdown(rs, players, [deck[i] for i in boards[d]]).fractions]
        assert got[d].tolist() == pytest.approx(expected, abs=1e-12)
        split += sum(share not in (0.0, 1.0) for share in expected) > 0
    assert split >= 3  # the short pack did make ties and split pots (quartered halves in hi-lo)


@pytest.mark.parametrize("name", ["omaha", "omaha-hi-lo", "greek-holdem"])
def test_the_table_equals_every_combination_ranked_as_a_row(name: str) -> None:
    rs = load(name)
    hole = rs.game.hole if rs.game is not None else 0
    rng = np.random.default_rng(11)
    n, players = 3000, 3
    # two suits only: one-suited parts and three-flush boards on most deals
    pack = np.array([i for i, card in enumerate(rs.deck) if card.suit in "sh"])
    order = pack[np.argsort(rng.random((n, len(pack))), axis=1)[:, : players * hole + 5]]
    holes, board = order[:, : players * hole].reshape(n, players, hole), order[:, players * hole :]
    subsets = playing_columns(rs, hole, 5)
    assert subsets is not None
    for _, rules in half_rulesets(rs):
        half = PotHalf(rs, rules)
        table = must_use_table(half.ranker, hole, 5, 2, 3)
        assert table is not None
        cards = half.id_map[np.concatenate([holes, np.broadcast_to(board[:, None, :], (n, players, 5))], axis=2)]
        rows = half.ranker.rank_many(cards[:, :, subsets].reshape(-1, 5)).reshape(n, players, -1).max(axis=2)
        mapped_holes, mapped_board = half.id_map[holes], half.id_map[board]
        assert np.array_equal(table.values(mapped_holes, mapped_board), rows)
        # a known hand (the same cards in every row) read from its own tables
        same = mapped_holes.copy()
        same[:, 0] = mapped_holes[0, 0]
        keep = ~np.isin(mapped_board, mapped_holes[0, 0]).any(axis=1) & ~np.isin(same[:, 1:], mapped_holes[0, 0]).any(
            axis=(1, 2)
        )
        expected = table.values(same[keep], mapped_board[keep])
        assert np.array_equal(table.values(same[keep], mapped_board[keep], [True]), expected)


def test_odds_with_known_hands_equal_the_rows_and_showdown_many() -> None:
    rs = on_the_table(load("omaha-hi-lo"))
    engine = ShareEngine(rs, 3, 4, 5, 1)
    known_ids = [rs.deck.index(card) for card in rs.cards("Ah Kh 2s 3s 9c 9d 8c 7d")]
    rng = np.random.default_rng(3)
    rest = np.array([i for i in range(len(rs.deck)) if i not in known_ids])
    n = 2000
    drawn = rest[np.argsort(rng.random((n, len(rest))), axis=1)[:, :9]]
    deals = np.concatenate([np.tile(known_ids, (n, 1)), drawn], axis=1)
    template = np.array(known_ids + [-1] * 9)
    by_rows = engine.settle(deals)
    with_known = engine.settle(deals, template)
    np.testing.assert_array_equal(with_known.shares, by_rows.shares)
    for (_, a), (_, b) in zip(with_known.halves, by_rows.halves, strict=True):
        np.testing.assert_array_equal(a, b)
    holes, boards = engine.split(deals)
    np.testing.assert_allclose(with_known.shares, rs.showdown_many(holes, boards[:, 0]), rtol=0, atol=1e-12)


def test_the_table_is_built_once_a_batch_is_worth_it() -> None:
    rs = load("omaha")
    ranker = PotHalf(rs, rs).ranker
    for key in [key for key in ranker._batch_cache if key.startswith("must-use-")]:
        del ranker._batch_cache[key]  # as in a new process
    holes, boards = short_deals(rs, 10, 4, seed=1)
    rs.showdown_many(holes, boards)
    assert must_use_table(ranker, 4, 5, 2, 3, 0) is None  # ten deals: ranked as rows
    n = BUILD_AFTER // 4
    rng = np.random.default_rng(2)
    order = np.argsort(rng.random((n, 52)), axis=1)[:, :21]
    big = rs.showdown_many(order[:, :16].reshape(n, 4, 4), order[:, 16:])
    assert must_use_table(ranker, 4, 5, 2, 3, 0) is not None
    assert np.allclose(big.sum(axis=1), 1.0)


OFF_TABLE = {
    # deuces wild: the table has no wild cards
    "omaha-deuces.yaml": "extends: omaha\nwild: {ranks: [2]}\nexamples: []\n",
    # deuce-to-seven: a flush hurts, so the unsuited best of a triple could overstate it
    "omaha-deuce-to-seven.yaml": (
        "extends: deuce-to-seven\ngame: {hole: 4, board: 5, use_hole: 2, use_board: 3}\nexamples: []\n"
    ),
}


@pytest.mark.parametrize("file", sorted(OFF_TABLE))
def test_rulesets_off_the_table_keep_the_generic_answers(tmp_path: Path, file: str) -> None:
    path = tmp_path / file
    path.write_text(OFF_TABLE[file], encoding="utf-8")
    rs = load(path)
    assert all(must_use_table(PotHalf(rs, rules).ranker, 4, 5, 2, 3) is None for _, rules in half_rulesets(rs))
    holes, boards = short_deals(rs, 10, 3, seed=5, ranks="2345789TJ")
    got = rs.showdown_many(holes, boards)
    deck = rs.deck
    for d in range(len(holes)):
        players = [[deck[i] for i in hole] for hole in holes[d].tolist()]
        expected = [float(f) for f in showdown(rs, players, [deck[i] for i in boards[d]]).fractions]
        assert got[d].tolist() == pytest.approx(expected, abs=1e-12)
