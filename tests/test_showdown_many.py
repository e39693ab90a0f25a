"""``Ruleset.showdown_many`` against the generic ``showdown`` (the reference).

Random deals for every catalogue ruleset that has a game and for several that
have none, hand-made hi-lo quartering and split cases, and Italian top cycles.
The reference is ``evaluator.engine.showdown.showdown(...).fractions``: the exact
shares the generic engine computes deal by deal.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from evaluator import load
from evaluator.core.errors import CardError, GameError, PokerRulesError
from evaluator.engine.showdown import showdown
from evaluator.ruleset import Ruleset

CATALOGUE = sorted(path.stem for path in (Path(__file__).resolve().parents[1] / "rulesets").glob("*.yaml"))
# games decided by the deal (Follow the Queen, Chicago, ...) are settled from deals in dealing order,
# not batches of cards: showdown_many refuses them (below), evaluator.deal settles them
WITH_GAME = [name for name in CATALOGUE if load(name).game is not None and not load(name).by_deal]
DEALT = [name for name in CATALOGUE if load(name).by_deal]
# rulesets without a game: wild cards, jokers, a qualifier, lowball, suits, two packs, incomplete hands
WITHOUT_GAME = [
    "standard",
    "deuces-wild",
    "joker-wild",
    "lowest-card-wild",
    "jacks-or-better",
    "ace-to-five-eight-or-better",
    "deuce-to-seven",
    "suits-house-paired",
    "two-decks",
    "incomplete-hands",
    "natural-beats-wild",
    "bug",
]


def ids(rs: Ruleset, text: str) -> list[int]:
    """Card ids (index in ``rs.deck``) of a card string."""
    deck = rs.deck
    return [deck.index(card) for card in rs.cards(text)]


def random_deals(
    rs: Ruleset, n: int, players: int, hole: int, board: int, boards: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """``n`` deals from a shuffled pack (all packs of the deck): holes and boards as ids."""
    rng = random.Random(seed)
    pack = [i for i, card in enumerate(rs.deck) for _ in range(1 if card.is_joker else rs.copies)]
    need = players * hole + boards * board
    holes = np.zeros((n, players, hole), dtype=np.int64)
    board_ids = np.zeros((n, boards, board), dtype=np.int64)
    for d in range(n):
        cards = rng.sample(pack, need)
        holes[d] = np.array(cards[: players * hole]).reshape(players, hole)
        board_ids[d] = np.array(cards[players * hole :]).reshape(boards, board)
    return holes, board_ids


def reference(rs: Ruleset, holes: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """The generic engine's shares, deal by deal."""
    deck = rs.deck
    out = np.zeros(holes.shape[:2])
    for d in range(len(holes)):
        players = [[deck[i] for i in hole] for hole in holes[d].tolist()]
        board_cards = [[deck[i] for i in board] for board in boards[d].tolist()]
        board: object = board_cards[0] if len(board_cards) == 1 else board_cards
        if len(board_cards) == 1 and not board_cards[0]:
            board = ""
        out[d] = [float(f) for f in showdown(rs, players, board).fractions]  # type: ignore[arg-type]
    return out


def deal_shape(rs: Ruleset) -> tuple[int, int, int]:
    """(hole cards, board cards, boards) of the ruleset's game."""
    game = rs.game
    assert game is not None
    return game.hole, game.board, game.boards if game.board else 1


@pytest.mark.parametrize("name", DEALT)
def test_games_decided_by_the_deal_are_refused(name: str) -> None:
    rs = load(name)
    hole, board, boards = deal_shape(rs)
    holes = np.zeros((1, 2, hole), dtype=np.int64)
    holes[0, 0], holes[0, 1] = range(hole), range(hole, 2 * hole)
    cards = np.arange(2 * hole, 2 * hole + board, dtype=np.int64).reshape(1, board) if board else None
    with pytest.raises(PokerRulesError) as raised:
        rs.showdown_many(holes, cards)
    assert raised.value.code == "G122"


@pytest.mark.parametrize("name", WITH_GAME)
def test_games_equal_the_generic_showdown(name: str) -> None:
    rs = load(name)
    hole, board, boards = deal_shape(rs)
    players = 4 if hole >= 4 else 6
    holes, board_ids = random_deals(rs, 60, players, hole, board, boards, seed=len(name))
    expected = reference(rs, holes, board_ids)
    given = board_ids[:, 0] if boards == 1 else board_ids
    got = rs.showdown_many(holes, given if board else None)
    assert got.shape == (60, players)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)
    assert np.all(np.isclose(got.sum(axis=1), 1.0) | (got.sum(axis=1) == 0))


@pytest.mark.parametrize("name", WITHOUT_GAME)
def test_rulesets_without_a_game_take_the_best_hand_of_hole_and_board(name: str) -> None:
    rs = load(name)
    hole, board = (2, 5) if name != "incomplete-hands" else (1, 2)
    holes, board_ids = random_deals(rs, 40, 5, hole, board, 1, seed=len(name) + 1)
    expected = reference(rs, holes, board_ids)
    np.testing.assert_allclose(rs.showdown_many(holes, board_ids[:, 0]), expected, rtol=0, atol=1e-12)
    # hole cards only (no board)
    only = random_deals(rs, 30, 3, 5 if name != "incomplete-hands" else 3, 0, 1, seed=7)[0]
    np.testing.assert_allclose(
        rs.showdown_many(only), reference(rs, only, np.zeros((30, 1, 0), dtype=np.int64)), rtol=0, atol=1e-12
    )


def test_double_board_splits_between_boards_and_accepts_one_board_per_axis() -> None:
    rs = load("double-board-holdem")
    holes = np.array([[ids(rs, "As Ah"), ids(rs, "Kd Kc")]])
    boards = np.array([[ids(rs, "2c 7d 9h Js 3s"), ids(rs, "Ks 7c 9d 4h 3h")]])
    assert rs.showdown_many(holes, boards).tolist() == [[0.5, 0.5]]
    with pytest.raises(GameError) as info:
        rs.showdown_many(holes, boards[:, 0])
    assert info.value.code == "G108"


def test_hi_lo_quartering_and_scoops() -> None:
    rs = load("omaha-hi-lo")
    board = ids(rs, "2c 3d 7h Ks Kd")
    # seat 0 and seat 1 hold the same low (A-2-3-4-7 by rank... both A-4), seat 2 the high (kings full)
    holes = np.array(
        [
            [ids(rs, "Ah 4h Qc Jc"), ids(rs, "As 4s Qd Jd"), ids(rs, "Kh Kc 9s 9d")],
            # no low possible on this board: the high hand scoops
            [ids(rs, "Ah 4h Qc Jc"), ids(rs, "As 4s Qd Jd"), ids(rs, "Kh Kc 9s 9d")],
        ]
    )
    boards = np.array([board, ids(rs, "9c Td Jh Ks Kd")])
    got = rs.showdown_many(holes, boards)
    assert got[0].tolist() == [0.25, 0.25, 0.5]
    assert got[1].tolist() == [0.0, 0.0, 1.0]
    np.testing.assert_allclose(got, reference(rs, holes, boards[:, None, :]))
    expected = showdown(rs, ["Ah 4h Qc Jc", "As 4s Qd Jd", "Kh Kc 9s 9d"], "2c 3d 7h Ks Kd").fractions
    assert expected == [Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)]


def test_stud_hi_lo_and_razz_without_boards() -> None:
    for name in ("stud-hi-lo", "razz"):
        rs = load(name)
        holes, _ = random_deals(rs, 50, 4, 7, 0, 1, seed=3)
        np.testing.assert_allclose(
            rs.showdown_many(holes), reference(rs, holes, np.zeros((50, 1, 0), dtype=np.int64)), atol=1e-12
        )


def test_nobody_qualifies_the_pot_is_carried() -> None:
    rs = load("jacks-or-better")
    holes = np.array([[ids(rs, "2c 5d 8h Ts Qd"), ids(rs, "3c 6d 9h Js Kd")]])
    got = rs.showdown_many(holes)
    assert got.tolist() == [[0.0, 0.0]]
    assert [float(f) for f in showdown(rs, ["2c 5d 8h Ts Qd", "3c 6d 9h Js Kd"]).fractions] == [0.0, 0.0]


ITALIAN_STRAIGHT_FLUSHES = {
    "minimum": ["Ah 5h 6h 7h 8h", "As 5s 6s 7s 8s", "Ad 5d 6d 7d 8d", "Ac 5c 6c 7c 8c"],
    "medium": ["5c 6c 7c 8c 9c", "9d Td Jd Qd Kd", "6s 7s 8s 9s Ts", "7h 8h 9h Th Jh"],
    "maximum": ["As Ks Qs Js Ts", "Ah Kh Qh Jh Th", "Ad Kd Qd Jd Td", "Ac Kc Qc Jc Tc"],
}


def test_italian_cycles_split_as_the_generic_showdown() -> None:
    rs = load("italian")
    # the three-way cycle: each beats one and loses to another
    cycle = np.array([[ids(rs, "Ah 5h 6h 7h 8h"), ids(rs, "5c 6c 7c 8c 9c"), ids(rs, "As Ks Qs Js Ts")]])
    assert np.allclose(rs.showdown_many(cycle), [[1 / 3, 1 / 3, 1 / 3]])
    # the minimum beats the maximum, alone
    pair = np.array([[ids(rs, "As Ks Qs Js Ts"), ids(rs, "Ad 5d 6d 7d 8d")]])
    assert rs.showdown_many(pair).tolist() == [[0.0, 1.0]]
    # every mix of straight flushes without repeated cards, and other hands, against the reference
    rng = random.Random(5)
    pool = [hand for hands in ITALIAN_STRAIGHT_FLUSHES.values() for hand in hands] + [
        "Kh Kd Ks Kc 9h",
        "2c 2d 9s 9h Qd".replace("2", "T"),
    ]
    deals = []
    while len(deals) < 60:
        picked = rng.sample(pool, 3)
        cards = [ids(rs, hand) for hand in picked]
        if len({c for hand in cards for c in hand}) == 15:
            deals.append(cards)
    holes = np.array(deals)
    np.testing.assert_allclose(
        rs.showdown_many(holes), reference(rs, holes, np.zeros((len(deals), 1, 0), dtype=np.int64)), atol=1e-12
    )


def test_greek_exception_against_the_generic_showdown() -> None:
    rs = load("greek")
    lowest = rs.deck_ranks[0]
    low_quads = ids(rs, f"{lowest}s {lowest}h {lowest}d {lowest}c Kd")
    imperial = ids(rs, "Ah Kh Qh Jh Th")
    royal = ids(rs, "As Ks Qs Js Ts")
    holes = np.array([[low_quads, imperial], [low_quads, royal], [imperial, royal]])
    got = rs.showdown_many(holes)
    # four of the lowest rank beat the imperial flush only
    assert got.tolist() == [[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]]
    np.testing.assert_allclose(got, reference(rs, holes, np.zeros((3, 1, 0), dtype=np.int64)))


def test_rows_sum_to_one_in_a_large_batch() -> None:
    rs = load("holdem")
    holes, boards = random_deals(rs, 3000, 9, 2, 5, 1, seed=11)
    shares = rs.showdown_many(holes, boards[:, 0])
    assert np.allclose(shares.sum(axis=1), 1.0)
    # winners' shares are equal within a deal
    for row in shares[:200]:
        won = row[row > 0]
        assert np.allclose(won, won[0])


def test_bad_input_is_refused() -> None:
    rs = load("holdem")
    holes = np.array([[ids(rs, "As Ah"), ids(rs, "As Kc")]])
    board = np.array([ids(rs, "2c 7d 9h Js 3s")])
    with pytest.raises(GameError) as info:
        rs.showdown_many(holes, board)
    assert info.value.code == "G104"
    with pytest.raises(GameError) as info:
        rs.showdown_many(np.array([[ids(rs, "As Ah Kd")]]), board)
    assert info.value.code == "G105"
    with pytest.raises(GameError) as info:
        rs.showdown_many(np.array([[ids(rs, "As Ah")]]), board[:, :4])
    assert info.value.code == "G106"
    with pytest.raises(CardError) as info:
        rs.showdown_many(np.array([[[0, 52]]]), board)
    assert info.value.code == "C102"
    with pytest.raises(GameError) as info:
        rs.showdown_many(np.zeros((1, 0, 2), dtype=np.int64), board)
    assert info.value.code == "G103"
    with pytest.raises(ValueError):
        rs.showdown_many(np.zeros((2, 2), dtype=np.int64), board)
    with pytest.raises(TypeError):
        rs.showdown_many(np.zeros((1, 2, 2)), board)
    assert rs.showdown_many(np.zeros((0, 3, 2), dtype=np.int64), np.zeros((0, 5), dtype=np.int64)).shape == (0, 3)


def test_rank_many_takes_game_rulesets_at_the_hand_size() -> None:
    omaha = load("omaha")
    standard = load("standard")
    rng = np.random.default_rng(2)
    hands = np.array([rng.permutation(52)[:5] for _ in range(200)])
    assert np.array_equal(omaha.rank_many(hands), standard.rank_many(hands))
