"""The fast paths of sampled and exact odds against the reference ones.

- winner masks (the board-shared path, cards held in every deal keyed once)
  name the same winners as ``showdown_many`` on the same deals;
- totals built from winner masks equal totals built from share matrices;
- the rejection sampler deals distinct cards, never a known one, each card
  equally often in every slot.
"""

from __future__ import annotations

import numpy as np
import pytest

from evaluator import load
from evaluator.odds.odds import prepare
from evaluator.odds.totals import Totals


@pytest.mark.parametrize(
    ("name", "hands", "board"),
    [
        ("holdem", ["AhKh", "QsQd", "7c 6c"], ""),
        ("holdem", ["AhKh", "random", "QQ+"], "2h 7h"),
        ("short-deck-holdem", ["AhKh", "TsTd"], "Th"),
        ("deuces-wild", ["2h 2c", "AsKs", "9h 8h"], ""),
        ("joker-wild", ["Ah Kh", "random"], "Qh Jh 3c"),
        ("standard", ["Ah Kh", "Qs Qd", "random"], ""),
    ],
)
def test_winner_masks_name_the_winners_showdown_many_names(name: str, hands: list[str], board: str) -> None:
    ruleset = load(name)
    table, engine = prepare(ruleset, hands, board)
    deals = table.sample(np.random.default_rng(7), 4000)
    masks = engine.winner_masks(deals, table.template)
    assert masks is not None  # these rulesets are on the board-shared path
    holes, boards = engine.split(deals)
    shares = ruleset.showdown_many(holes, boards)
    expected = ((shares > 0) * (1 << np.arange(table.players))).sum(axis=1)
    assert np.array_equal(masks, expected)
    # and without the cards known in advance: the same
    again = engine.winner_masks(np.ascontiguousarray(deals), None)
    assert again is not None and np.array_equal(again, expected)


@pytest.mark.parametrize("name", ["holdem", "deuces-wild", "razz"])
def test_totals_from_masks_equal_totals_from_shares(name: str) -> None:
    ruleset = load(name)
    hands = ["random", "random", "random"] if name != "razz" else ["As 2s 3s", "Kd Kc 5h", "random"]
    table, engine = prepare(ruleset, hands)
    deals = table.sample(np.random.default_rng(3), 5000)
    by_shares = Totals(table.players, engine.names)
    by_shares.add(engine.settle(deals), 0.5, squares=True)
    masks = engine.winner_masks(deals, table.template)
    if masks is None:
        assert engine.shared_board is None  # off the board-shared path the shares are the answer
        return
    by_masks = Totals(table.players, engine.names)
    by_masks.add_masks(masks, 0.25)
    by_masks.add_masks(masks, 0.25)  # counted twice at half the weight: the same sums
    by_masks.fold()
    assert by_masks.count == 2 * by_shares.count and by_masks.weight == pytest.approx(by_shares.weight)
    for figure in ("equity", "win", "tie", "scoop"):
        assert np.allclose(by_masks.sums[figure], by_shares.sums[figure])
    for figure in ("equity", "win", "tie"):
        assert np.allclose(by_masks.squares[figure], by_shares.squares[figure])
    assert by_masks.dead == pytest.approx(by_shares.dead)


@pytest.mark.parametrize(("hands", "board"), [(["AhKh", "QsQd"], ""), (["AhKh", "QQ"], "2c"), (["Ah", "Qs"], "")])
def test_sampled_cards_are_distinct_unknown_and_uniform(hands: list[str], board: str) -> None:
    ruleset = load("holdem")
    table, _ = prepare(ruleset, hands, board)
    n = 96_000
    deals = table.sample(np.random.default_rng(11), n)
    assert deals.shape == (n, table.slots)
    ordered = np.sort(deals, axis=1)
    assert not (ordered[:, 1:] == ordered[:, :-1]).any()  # no card twice in a deal
    known = table.template[table.template >= 0]
    assert (deals[:, table.template >= 0] == known).all()
    free = table.free_slots
    left = len(table.physical) - sum(table.hands[p].known for p in table.ranged)
    for slot in free:
        counts = np.bincount(deals[:, slot], minlength=52)
        if not table.ranged:
            assert set(np.flatnonzero(counts)) == set(table.physical.tolist())
            expected = n / left
            assert np.abs(counts[table.physical] - expected).max() < 5 * np.sqrt(expected)
