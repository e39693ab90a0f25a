"""The board-major exact engine: boards up to renamings of suits, holding values, counts by
sorting, and its answers (odds, the exact chart, the matchup table) against brute force
written plainly here (itertools over every board of a small deck) and the deal enumeration."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from evaluator import load
from evaluator.compiled.batch_showdown import best_values, playing_columns
from evaluator.odds import board_counts
from evaluator.odds import odds as odds_module
from evaluator.odds.board_major import build_plan, question_of
from evaluator.odds.board_run import player_figures, run_plan
from evaluator.odds.board_values import DEAD, HoldingValues
from evaluator.odds.boards import BoardSpace, id_permutations, suit_renamings
from evaluator.odds.chart import chart, hand_classes
from evaluator.odds.matchups import matchups
from evaluator.odds.odds import deal_geometry, odds, prepare
from evaluator.odds.ranges import parse_range
from evaluator.ruleset import Ruleset

SIXTEEN = "name: sixteen\ntitle: hold'em with a 16-card deck\nextends: holdem\ndeck: {ranks: [J, Q, K, A]}\n"


@pytest.fixture(scope="module")
def sixteen(tmp_path_factory: pytest.TempPathFactory) -> Ruleset:
    """Hold'em with the jacks to the aces only: small enough to deal every board here."""
    path = tmp_path_factory.mktemp("sixteen") / "sixteen.yaml"
    path.write_text(SIXTEEN, encoding="utf-8")
    return load(path)


def _board_major(
    ruleset: Ruleset, hands: list[str], board: str = "", dead: str = ""
) -> tuple[list[Any], list[float], int]:
    """Odds by the board-major engine, whatever its cost against the deal enumeration."""
    table, _ = prepare(ruleset, hands, board, dead)
    question = question_of(table)
    assert not isinstance(question, str), question
    plan = build_plan(ruleset, question)
    assert not isinstance(plan, str), plan
    return player_figures(plan, run_plan(ruleset, plan, False))


# --- boards up to renamings of suits --------------------------------------------------------


def test_renamings_keep_every_showdown() -> None:
    assert len(suit_renamings(load("holdem"))) == 24
    assert len(suit_renamings(load("deuces-wild"))) == 24
    assert len(suit_renamings(load("one-eyed-jacks"))) == 4  # Js and Jh stay wild: spades and hearts swap, or stay
    assert suit_renamings(load("suits-bridge")) == [(0, 1, 2, 3)]  # a suit order
    assert suit_renamings(load("two-decks")) == [(0, 1, 2, 3)]


@pytest.mark.parametrize(("known", "to_come"), [("", 5), ("Ah", 4), ("Ah Kd", 3)])
def test_kept_boards_are_one_per_orbit_weighted_by_its_size(sixteen: Ruleset, known: str, to_come: int) -> None:
    deck = list(range(len(sixteen.deck)))
    fixed = sorted([sixteen.deck.index(card) for card in sixteen.cards(known)]) if known else []
    maps = id_permutations(sixteen, suit_renamings(sixteen))
    keep = np.array([row for row in maps if sorted(row[fixed].tolist()) == fixed])
    pool = [card for card in deck if card not in fixed]
    boards, weights = BoardSpace(sixteen, np.array(pool), to_come, keep).all_boards()
    # brute force: the orbit of every board under the renamings that keep the known cards
    orbits: dict[tuple[int, ...], int] = {}
    for board in combinations(pool, to_come):
        images = {tuple(sorted(int(row[c]) for c in board)) for row in keep}
        orbits[min(images)] = len(images)
    assert weights.sum() == comb(len(pool), to_come) == sum(orbits.values())
    found = {}
    for board, weight in zip(boards.tolist(), weights.tolist(), strict=True):
        images = {tuple(sorted(int(row[c]) for c in board)) for row in keep}
        found[min(images)] = weight
    assert found == orbits


def test_a_subgroup_of_renamings_covers_every_board() -> None:
    ruleset = load("one-eyed-jacks")
    maps = id_permutations(ruleset, suit_renamings(ruleset))
    space = BoardSpace(ruleset, np.arange(52), 3, maps)
    boards, weights = space.all_boards()
    assert weights.sum() == comb(52, 3) and len(boards) < comb(52, 3) // 3


# --- holding values -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "holdem",
        "deuces-wild",
        "one-eyed-jacks",
        "joker-wild",
        "ace-to-five-eight-or-better",
        "short-deck-holdem",
        "suits-bridge",
        "lowest-card-wild",
        "omaha",
        "omaha-hi-lo",
    ],
)
def test_holding_values_equal_the_batch_ranking(name: str) -> None:
    ruleset = load(name)
    hole, board, _ = deal_geometry(ruleset, ["random"])
    rng = np.random.default_rng(7)
    holdings = np.array(list(combinations(range(len(ruleset.deck)), hole)))
    holdings = holdings[np.sort(rng.choice(len(holdings), min(len(holdings), 300), replace=False))]
    boards = np.sort(np.argsort(rng.random((12, len(ruleset.deck))), axis=1)[:, :board], axis=1)
    values = HoldingValues(ruleset, holdings, board)
    found = values.values(boards)
    for half, got in zip(values.halves, found, strict=True):
        for b, row in enumerate(boards.tolist()):
            dead = np.array([bool(set(h) & set(row)) for h in holdings.tolist()])
            assert ((got[b] == DEAD) == dead).all()
            cards = np.concatenate([holdings[~dead], np.broadcast_to(row, (int((~dead).sum()), board))], axis=1)
            expected = best_values(half, cards[:, None, :], playing_columns(ruleset, hole, board))[:, 0]
            expected = np.where(half.category(expected) >= 0, expected, -1)
            assert (got[b][~dead] == expected).all()


# --- counts by sorting ----------------------------------------------------------------------


@pytest.mark.parametrize("histogram", [True, False])
@pytest.mark.parametrize("name", ["holdem", "ace-to-five-eight-or-better", "suits-bridge"])
def test_heads_up_counts_equal_every_pair_compared(name: str, histogram: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if not histogram:
        monkeypatch.setattr(board_counts, "HISTOGRAM_VALUES", 0)
    ruleset = load(name)
    rng = np.random.default_rng(3)
    every = np.array(list(combinations(range(len(ruleset.deck)), 2)))
    holdings = every[np.sort(rng.choice(len(every), 200, replace=False))]
    boards = np.sort(np.argsort(rng.random((20, len(ruleset.deck))), axis=1)[:, :5], axis=1)
    board_weights = rng.integers(1, 5, len(boards))
    values = HoldingValues(ruleset, holdings, 5).values(boards)[0]
    rows = board_counts.card_rows(holdings)
    apart = np.array([[not set(a) & set(b) for b in holdings.tolist()] for a in holdings.tolist()])
    for weights in (None, rng.integers(0, 3, len(holdings)).astype(float)):
        got = board_counts.heads_up(values, board_weights, rows, weights)
        each = np.ones(len(holdings)) if weights is None else weights
        expected = {name: np.zeros(len(holdings)) for name in ("win", "tie", "dead", "total")}
        for v, w in zip(values, board_weights, strict=True):
            met = apart & (v != DEAD)[:, None] & (v != DEAD)[None, :]
            expected["win"] += w * ((v[:, None] > v[None, :]) & met & (v[:, None] >= 0)) @ each
            expected["tie"] += w * ((v[:, None] == v[None, :]) & met & (v[:, None] >= 0)) @ each
            expected["dead"] += w * ((v[:, None] == -1) & (v[None, :] == -1) & met) @ each
            expected["total"] += w * met @ each
        for figure, sums in expected.items():
            assert np.array_equal(getattr(got, figure), sums), figure


# --- answers against brute force ------------------------------------------------------------


def _plain_equities(ruleset: Ruleset, known: list[Any]) -> dict[str, tuple[float, int]]:
    """Every class against one random hand: every board, every pair of holdings, plainly."""
    names = {
        frozenset(combo): cls.name for cls in hand_classes(ruleset) for combo in parse_range(ruleset, cls.name).combos
    }
    pool = [card for card in ruleset.deck if card not in known]
    shares: dict[str, float] = {}
    deals: dict[str, int] = {}
    value: dict[tuple[Any, ...], int] = {}
    for board in combinations(pool, 5 - len(known)):
        full = known + list(board)
        live = [h for h in combinations([c for c in pool if c not in board], 2)]
        for h in live:
            value[h] = ruleset.rank(ruleset.encode(list(h) + full))
        for hero in live:
            for villain in live:
                if set(hero) & set(villain):
                    continue
                name = names[frozenset(hero)]
                mine, theirs = value[hero], value[villain]
                shares[name] = shares.get(name, 0.0) + (1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
                deals[name] = deals.get(name, 0) + 1
    return {name: (shares[name] / deals[name], deals[name]) for name in shares}


@pytest.mark.exhaustive  # a minute of CPU; the exact hold'em chart's published cells run in CI (test_chart_exact)
def test_an_exact_preflop_chart_equals_brute_force(sixteen: Ruleset) -> None:
    result = chart(sixteen, exact=True)
    assert result.method == "exact" and result.extra["engine"] == "board-major"
    expected = _plain_equities(sixteen, [])
    assert len(result.cells) == 16
    for cell in result.cells:
        equity, deals = expected[cell.hand.name]
        assert cell.equity == pytest.approx(equity, abs=1e-12) and cell.deals == deals


def test_an_exact_chart_of_a_suit_order_ranks_every_board_and_equals_brute_force(tmp_path: Path) -> None:
    path = tmp_path / "sixteen-bridge.yaml"
    path.write_text("name: sixteen-bridge\nextends: suits-bridge\ndeck: {ranks: [J, Q, K, A]}\n", encoding="utf-8")
    ruleset = load(path)
    result = chart(ruleset, exact=True, board="Ah")
    assert result.extra["boards"] == comb(15, 4)  # no renaming of suits keeps a suit order
    expected = _plain_equities(ruleset, ruleset.cards("Ah"))
    for cell in result.cells:
        if cell.deals:
            assert cell.equity == pytest.approx(expected[cell.hand.name][0], abs=1e-12)


def test_an_exact_chart_past_the_bound_of_one_process_is_refused() -> None:
    with pytest.raises(Exception) as caught:
        chart(load("suits-bridge"), exact=True)
    assert getattr(caught.value, "code", None) == "O111" and "Dask" in str(caught.value)


@pytest.mark.parametrize(
    ("name", "board"),
    [
        ("joker-wild", "Kd 7c 2h 9s"),
        ("one-eyed-jacks", "Js 7c 2h 9s"),
        ("lowest-card-wild", "Kd 7c 2h 9s"),
        ("ace-to-five-eight-or-better", "Kd 7c 2h 9s"),
        ("greek-holdem", "Kd 7c 2h 9s"),
        ("three-card-poker", "Ah"),
        ("two-jokers-wild", "Kd 7c X"),
    ],
)
def test_an_exact_chart_board_by_board_equals_the_chart_dealt_deal_by_deal(
    name: str, board: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from evaluator.odds import chart as chart_module

    ruleset = load(name)
    counted = chart(ruleset, exact=True, board=board)
    assert counted.extra["engine"] == "board-major"
    monkeypatch.setattr(chart_module, "grid_question", lambda *args: "dealt deal by deal here")
    dealt = chart(ruleset, exact=True, board=board, classes=["AA", "KQs", "T9o"])
    for cell in dealt.cells:
        mine = counted.cell(cell.hand.name)
        assert mine.deals == cell.deals and mine.equity == pytest.approx(cell.equity, abs=1e-12)
        assert mine.win == pytest.approx(cell.win, abs=1e-12) and mine.tie == pytest.approx(cell.tie, abs=1e-12)


def test_an_exact_chart_with_known_cards_equals_brute_force(sixteen: Ruleset) -> None:
    result = chart(sixteen, exact=True, board="Ah Kd")
    expected = _plain_equities(sixteen, sixteen.cards("Ah Kd"))
    for cell in result.cells:
        if cell.deals:
            assert cell.equity == pytest.approx(expected[cell.hand.name][0], abs=1e-12)


def _plain_odds(ruleset: Ruleset, players: list[list[tuple[Any, ...]]]) -> list[float]:
    """Each player's equity: every compatible choice of combinations, every board, plainly."""
    equity = [0.0] * len(players)
    deals = 0

    def choices(i: int, used: set[Any]) -> Iterator[list[tuple[Any, ...]]]:
        if i == len(players):
            yield []
            return
        for combo in players[i]:
            if not used & set(combo):
                for rest in choices(i + 1, used | set(combo)):
                    yield [combo, *rest]

    for hands in choices(0, set()):
        held = {card for hand in hands for card in hand}
        for board in combinations([c for c in ruleset.deck if c not in held], 5):
            values = [ruleset.rank(ruleset.encode(list(hand) + list(board))) for hand in hands]
            best = max(values)
            winners = [p for p, v in enumerate(values) if v == best]
            for p in winners:
                equity[p] += 1 / len(winners)
            deals += 1
    return [e / deals for e in equity]


@pytest.mark.parametrize("hands", [["AA,KK", "AKs"], ["AhKh", "random"], ["AsAh", "KK", "QhJh"], ["QQ+", "AK"]])
def test_board_major_odds_equal_brute_force(sixteen: Ruleset, hands: list[str]) -> None:
    figures, _, _ = _board_major(sixteen, hands)
    combos = []
    for text in hands:
        read = parse_range(sixteen, text)
        combos.append(list(combinations(sixteen.deck, 2)) if not read.known else list(read.combos))
    expected = _plain_odds(sixteen, combos)
    for figure, equity in zip(figures, expected, strict=True):
        assert figure.equity == pytest.approx(equity, abs=1e-12)


@pytest.mark.parametrize(
    ("name", "hands", "board"),
    [
        ("holdem", ["AA,KK", "AKs"], ""),
        ("holdem", ["QQ+:0.5,AKs", "random"], "Kd 7c 2h"),
        ("holdem", ["AhKh", "QsQd", "JcTc"], "2c 7d"),
        ("omaha-hi-lo", ["AhAd2c3c", "KsKdQcJc"], "7h 8d"),
        ("ace-to-five-eight-or-better", ["A2", "KK"], "3c 4d 9h"),
        ("deuces-wild", ["AhKh", "random"], "2c 7d 9s"),
    ],
)
def test_board_major_odds_equal_the_deal_enumeration(
    name: str, hands: list[str], board: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ruleset = load(name)
    figures, no_qualifier, deals = _board_major(ruleset, hands, board)
    monkeypatch.setattr(odds_module, "board_major_plan", lambda *args: "")
    dealt = odds(ruleset, hands, board=board, exact=True)
    assert deals == dealt.deals
    for figure, player in zip(figures, dealt.players, strict=True):
        assert figure.equity == pytest.approx(player.equity, abs=1e-12)
        assert figure.win == pytest.approx(player.win, abs=1e-12)
        assert figure.tie == pytest.approx(player.tie, abs=1e-12)
        assert figure.halves == pytest.approx(list(player.halves.values()), abs=1e-12)
    assert no_qualifier == pytest.approx(list(dealt.no_qualifier.values()), abs=1e-12)


def test_a_range_is_answered_board_by_board_when_that_is_cheaper(monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset = load("holdem")
    ranged = odds(ruleset, ["AA,KK", "AKs"], exact=True)
    with monkeypatch.context() as patched:
        patched.setattr(odds_module, "board_major_plan", lambda *args: "")
        dealt = odds(ruleset, ["AA,KK", "AKs"], exact=True)
    assert ranged.lookups < dealt.lookups / 10 and ranged.deals == dealt.deals == 41_095_296
    for mine, theirs in zip(ranged.players, dealt.players, strict=True):
        assert mine.equity == pytest.approx(theirs.equity, abs=1e-12)


def test_exact_odds_past_the_deal_bound_are_counted_board_by_board() -> None:
    # dealt deal by deal this is 1.4x10^11 lookups (refused); board by board 16,107 boards x 630 holdings
    result = odds(load("short-deck-holdem"), ["random", "random"], exact=True)
    first, second = result.players
    assert result.method == "exact" and result.deals == comb(36, 2) * comb(34, 2) * comb(32, 5)
    assert first.equity == pytest.approx(0.5, abs=1e-12) and second.equity == pytest.approx(0.5, abs=1e-12)
    assert first.tie == second.tie and 0 < first.tie < 0.1


def test_aces_against_kings_as_gnu_poker_eval_counts_them() -> None:
    result = odds(load("holdem"), ["AdAc", "KhKs"])
    hero = result.players[0]
    assert result.deals == 1_712_304
    assert round(hero.win * result.deals) == 1_388_072 and round(hero.tie * result.deals) == 6_538


# --- the matchup table ----------------------------------------------------------------------


def test_a_matchup_cell_is_the_weighted_average_of_its_exact_odds(sixteen: Ruleset) -> None:
    table = matchups(sixteen)
    for hero, villain in [("AA", "KK"), ("AKs", "QJo"), ("KQo", "KQs"), ("JJ", "JJ")]:
        wins = ties = deals = 0.0
        for mine in parse_range(sixteen, hero).combos:
            for theirs in parse_range(sixteen, villain).combos:
                if set(mine) & set(theirs):
                    continue
                result = odds(sixteen, [" ".join(map(str, mine)), " ".join(map(str, theirs))], exact=True)
                wins += result.players[0].win * result.deals
                ties += result.players[0].tie * result.deals
                deals += result.deals
        i, j = table.index(hero), table.index(villain)
        assert (table.wins[i, j], table.ties[i, j], table.deals[i, j]) == (round(wins), round(ties), round(deals))


def test_the_matchup_table_equals_range_odds_class_by_class(sixteen: Ruleset) -> None:
    table = matchups(sixteen, board="Jh")
    for hero, villain in [("AA", "KQs"), ("QJo", "AKo")]:
        figures, _, deals = _board_major(sixteen, [hero, villain], board="Jh")
        assert table.equity(hero, villain) == pytest.approx(figures[0].equity, abs=1e-12)
        assert table.deals[table.index(hero), table.index(villain)] == deals


def test_a_game_the_table_cannot_count_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "beats.yaml"
    path.write_text(
        "name: beats\nextends: holdem\nbeats:\n  - {winner: pair, loser: straight_flush}\n", encoding="utf-8"
    )
    with pytest.raises(Exception) as caught:
        matchups(load(path))
    assert getattr(caught.value, "code", None) == "O126"
