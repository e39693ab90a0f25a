"""Equity against independent truth: brute force written here, eval7, sampling error.

Every exact figure is compared with a plain loop over every remaining deal
(``itertools`` over the cards left, the generic ``showdown`` per deal). The
pre-flop hold'em case (1,712,304 boards) is checked against a brute force that
ranks every board with ``rank_many`` and compares the two players directly.
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

from evaluator import load
from evaluator.cli.main import main
from evaluator.core.errors import PokerRulesError
from evaluator.engine.showdown import showdown
from evaluator.odds.odds import EXACT_HARD_LIMIT, odds


def brute_force(
    name: str, hands: list[str], board: str = "", dead: str = "", hole: int | None = None, board_size: int | None = None
) -> list[Fraction]:
    """Each player's equity by visiting every deal: boards, then each player's missing cards."""
    ruleset = load(name)
    game = ruleset.game
    hole = hole if hole is not None else (game.hole if game is not None else 2)
    board_size = board_size if board_size is not None else (game.board if game is not None else 5)
    players = [ruleset.cards(hand) for hand in hands]
    board_cards = ruleset.cards(board) if board else []
    known = [card for cards in players for card in cards] + board_cards + (ruleset.cards(dead) if dead else [])
    rest = [card for card in ruleset.deck if card not in known]
    totals = [Fraction(0)] * len(players)
    deals = 0

    def deal_players(left: list, done: list, index: int, full_board: list) -> None:
        nonlocal deals
        if index == len(players):
            result = showdown(ruleset, done, full_board if board_size else "")
            for p, share in enumerate(result.fractions):
                totals[p] += share
            deals += 1
            return
        missing = hole - len(players[index])
        for extra in combinations(left, missing):
            remaining = [card for card in left if card not in extra]
            deal_players(remaining, done + [players[index] + list(extra)], index + 1, full_board)

    for more in combinations(rest, board_size - len(board_cards)):
        left = [card for card in rest if card not in more]
        deal_players(left, [], 0, board_cards + list(more))
    return [total / deals for total in totals]


def check_exact(name: str, hands: list[str], board: str = "", dead: str = "") -> None:
    result = odds(load(name), hands, board=board, dead=dead)
    assert result.method == "exact"
    truth = brute_force(name, hands, board, dead)
    assert [p.equity for p in result.players] == pytest.approx([float(x) for x in truth], abs=1e-12)
    assert sum(p.equity for p in result.players) == pytest.approx(float(sum(truth)), abs=1e-12)


# --- the pre-flop acceptance figure --------------------------------------------------------


def test_ahkh_against_qsqd_preflop_is_0_4621_like_every_board_ranked() -> None:
    ruleset = load("holdem")
    result = odds(ruleset, ["AhKh", "QsQd"])
    assert result.method == "exact" and result.deals == 1_712_304
    ids = {card: i for i, card in enumerate(ruleset.deck)}
    hero = [ids[c] for c in ruleset.cards("Ah Kh")]
    villain = [ids[c] for c in ruleset.cards("Qs Qd")]
    rest = [i for i in range(52) if i not in hero + villain]
    boards = np.array(list(combinations(rest, 5)), dtype=np.int64)
    assert len(boards) == 1_712_304
    a = ruleset.rank_many(np.hstack([np.tile(hero, (len(boards), 1)), boards]))
    b = ruleset.rank_many(np.hstack([np.tile(villain, (len(boards), 1)), boards]))
    wins, ties = int((a > b).sum()), int((a == b).sum())
    assert round(result.players[0].equity, 4) == 0.4621
    assert result.players[0].equity == pytest.approx((wins + ties / 2) / len(boards), abs=1e-12)
    assert result.players[0].tie == pytest.approx(ties / len(boards), abs=1e-12)
    assert result.players[0].win == pytest.approx(wins / len(boards), abs=1e-12)
    assert ties == 6732  # the split boards: 0.39% of them


# --- exact figures against the brute-force loop -----------------------------------------------


def test_holdem_three_way_on_the_flop() -> None:
    check_exact("holdem", ["Ah Kh", "Qs Qd", "Jc Tc"], board="2h 7h 9c")


def test_holdem_three_way_on_the_turn_with_a_dead_card() -> None:
    check_exact("holdem", ["Ah Kd", "As Kc", "8c 8d"], board="Ks 8h 2c 3d", dead="Qc")


def test_short_deck_flush_against_a_full_house_draw() -> None:
    # in short deck the flush beats the full house: the tens need quads
    check_exact("short-deck-holdem", ["Ah Kh", "Ts Td"], board="Th 6h 6c Jh")
    check_exact("short-deck-holdem", ["Ah Kh", "Ts 6s"], board="Th 6h 9h")


def test_omaha_hi_lo_scoop_and_quartered_pot() -> None:
    # the same low for the first two, the trip tens for the third: quarters
    hands = ["Ah 2h Kc Qd", "As 2s Kd Jd", "9c 9d Ts Th"]
    board = "3c 4s Td 7h"
    check_exact("omaha-hi-lo", hands, board=board)
    result = odds(load("omaha-hi-lo"), hands, board=board)
    # both nut lows quarter the pot on many rivers; nobody scoops when two share the low
    shares = brute_quarters("omaha-hi-lo", hands, board)
    assert Fraction(1, 4) in shares[0] and Fraction(1) not in shares[0]
    assert result.players[0].halves["low"] == pytest.approx(result.players[1].halves["low"])
    scooping = odds(load("omaha-hi-lo"), ["Ah 2h 3h Kh", "Kc Kd Qs Js"], board="4h 5c 9h")
    assert scooping.players[0].scoop == scooping.players[0].win > 0.5
    check_exact("omaha-hi-lo", ["Ah 2h 3h Kh", "Kc Kd Qs Js"], board="4h 5c 9h Td")


def brute_quarters(name: str, hands: list[str], board: str) -> list[set[Fraction]]:
    ruleset = load(name)
    known = ruleset.cards(" ".join(hands) + " " + board)
    seen: list[set[Fraction]] = [set() for _ in hands]
    for card in ruleset.deck:
        if card not in known:
            for p, share in enumerate(showdown(ruleset, hands, ruleset.cards(board) + [card]).fractions):
                seen[p].add(share)
    return seen


def test_italian_straight_flush_cycle() -> None:
    # 5-6-7-8 of hearts hopes for the ace (the minimum straight flush beats the maximum)
    check_exact("italian", ["5h 6h 7h 8h", "Ks Qs Js Ts"])
    result = odds(load("italian"), ["5h 6h 7h 8h", "Ks Qs Js Ts", "9d 9c 9s Kd"])
    assert result.method == "exact"


def test_deuces_wild_on_the_flop_and_turn() -> None:
    check_exact("deuces-wild", ["Ah Kh", "Qs Qd"], board="2c 7h 9h")
    check_exact("deuces-wild", ["Ah Kh", "2s Qd", "Jc Tc"], board="3c 7h 9h Qc")


def test_joker_wild_on_the_turn() -> None:
    check_exact("joker-wild", ["Ah Kh", "Qs Qd"], board="Jh Ts 3c 4h")
    check_exact("joker-wild", ["X Kh", "Qs Qd"], board="Jh Ts 3c")


def test_stud_with_dead_cards() -> None:
    check_exact("seven-card-stud", ["Ah Ad 5c 7s 9s 2s", "Ks Kc Qs Jc 8c 7h"], dead="2c 3c 4d Ac")


def test_double_board() -> None:
    result = odds(load("double-board-holdem"), ["Ah Kh", "Qs Qd"], board="2h 7h 9c Tc|2c 3d 4s 5s")
    ruleset = load("double-board-holdem")
    known = ruleset.cards("Ah Kh Qs Qd 2h 7h 9c Tc 2c 3d 4s 5s")
    rest = [c for c in ruleset.deck if c not in known]
    total = Fraction(0)
    count = 0
    for a in rest:
        for b in rest:
            if a != b:
                boards = [ruleset.cards("2h 7h 9c Tc") + [a], ruleset.cards("2c 3d 4s 5s") + [b]]
                total += showdown(ruleset, ["Ah Kh", "Qs Qd"], boards).fractions[0]
                count += 1
    assert result.deals == count
    assert result.players[0].equity == pytest.approx(float(total / count), abs=1e-12)


def test_range_against_range_equals_brute_force_over_combos() -> None:
    ruleset = load("holdem")
    board = "Ks 8h 2c 3d"
    result = odds(ruleset, ["KK, AKs", "88:0.5, 33"], board=board)
    assert result.method == "exact"
    known = ruleset.cards(board)
    firsts = [c for c in [("Kh", "Kd"), ("Kh", "Kc"), ("Kd", "Kc"), ("Ah", "Kh"), ("Ad", "Kd"), ("Ac", "Kc")]]
    seconds = [
        (("8s", "8d"), 0.5),
        (("8s", "8c"), 0.5),
        (("8d", "8c"), 0.5),
        (("3s", "3h"), 1.0),
        (("3s", "3c"), 1.0),
        (("3h", "3c"), 1.0),
    ]
    total = weight_sum = 0.0
    for first in firsts:
        for second, weight in seconds:
            hands = [" ".join(first), " ".join(second)]
            if set(first) & set(second):
                continue
            taken = known + ruleset.cards(" ".join(hands))
            for river in ruleset.deck:
                if river in taken:
                    continue
                total += weight * float(showdown(ruleset, hands, known + [river]).fractions[0])
                weight_sum += weight
    assert result.players[0].equity == pytest.approx(total / weight_sum, abs=1e-12)


# --- sampling ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "hands", "board"),
    [
        ("holdem", ["AhKh", "QsQd", "7c 6c"], "2h 7h 9c"),
        ("omaha-hi-lo", ["Ah 2h Kc Qd", "As 3s Kd Jd"], "3c 4s Td"),
        ("short-deck-holdem", ["AhKh", "TsTd"], "Th 6h"),
        ("holdem", ["QQ+, AKs", "T9s-65s"], "2h 7h 9c"),
    ],
)
def test_sampled_within_four_standard_errors_of_exact(name: str, hands: list[str], board: str) -> None:
    ruleset = load(name)
    exact = odds(ruleset, hands, board=board, exact=True)
    sampled = odds(ruleset, hands, board=board, samples=20_000, seed=11)
    again = odds(ruleset, hands, board=board, samples=20_000, seed=11)
    assert exact.method == "exact" and sampled.method == "sampled" and sampled.seed == 11
    for e, s, a in zip(exact.players, sampled.players, again.players, strict=True):
        assert s.std_error > 0
        assert abs(s.equity - e.equity) <= 4 * s.std_error
        assert (s.equity, s.win, s.tie) == (a.equity, a.win, a.tie)


def test_sampled_with_a_random_hand_matches_the_exact_turn() -> None:
    ruleset = load("holdem")
    exact = odds(ruleset, ["Ah Kh", "random"], board="2h 7h 9c Td")
    assert exact.method == "exact" and exact.deals == comb_count(46, 2) * 44
    sampled = odds(ruleset, ["Ah Kh", "random"], board="2h 7h 9c Td", samples=50_000, seed=3)
    assert abs(sampled.players[0].equity - exact.players[0].equity) <= 4 * sampled.players[0].std_error


def comb_count(n: int, k: int) -> int:
    from math import comb

    return comb(n, k)


def test_different_seeds_give_different_samples() -> None:
    ruleset = load("holdem")
    a = odds(ruleset, ["AhKh", "QsQd"], samples=20_000, seed=1)
    b = odds(ruleset, ["AhKh", "QsQd"], samples=20_000, seed=2)
    assert a.players[0].equity != b.players[0].equity


def test_unseeded_sampling_reports_its_seed_and_reproduces() -> None:
    ruleset = load("holdem")
    first = odds(ruleset, ["AhKh", "QsQd"], samples=10_000)
    assert first.seed is not None
    again = odds(ruleset, ["AhKh", "QsQd"], samples=10_000, seed=first.seed)
    assert first.players[0].equity == again.players[0].equity


# --- eval7 --------------------------------------------------------------------------------------


def test_standard_holdem_agrees_with_eval7_on_random_matchups() -> None:
    # eval7 is in the test extra where it has a wheel (x86-64, macOS); elsewhere this test skips
    eval7 = pytest.importorskip("eval7", reason="eval7 has no wheel for this platform")
    ruleset = load("holdem")
    rng = np.random.default_rng(2026)
    deck = [str(card) for card in ruleset.deck]
    iterations = 100_000
    streets = {0: 0, 3: 0, 4: 0, 5: 0}
    for _ in range(200):
        known = int(rng.choice(list(streets)))
        streets[known] += 1
        cards = [deck[i] for i in rng.choice(52, size=4 + known, replace=False)]
        hero, villain, board = cards[:2], cards[2:4], cards[4:]
        ours = odds(
            ruleset,
            [" ".join(hero), " ".join(villain)],
            board=" ".join(board),
            samples=None if board else 100_000,
            seed=5,
        )
        theirs = eval7.py_hand_vs_range_monte_carlo(
            [eval7.Card(c) for c in hero], eval7.HandRange("".join(villain)), [eval7.Card(c) for c in board], iterations
        )
        # eval7 samples (unseeded) and counts a tie as half, as equity does: its standard error is
        # at most 0.5 / sqrt(iterations); on a complete board both are exact
        error = np.hypot(0.5 / np.sqrt(iterations), ours.players[0].std_error)
        assert ours.method == ("sampled" if not board else "exact")
        assert abs(ours.players[0].equity - theirs) <= 4 * error, (hero, villain, board, ours.players[0].equity, theirs)
    assert min(streets.values()) >= 30  # pre-flop, flop, turn and river all checked


# --- errors and the command line --------------------------------------------------------------


def test_exact_is_refused_past_the_hard_bound() -> None:
    with pytest.raises(PokerRulesError) as caught:
        odds(load("holdem"), ["random", "random", "random"], exact=True)
    assert caught.value.code == "O111" and f"{EXACT_HARD_LIMIT:.0e}" in str(caught.value)


@pytest.mark.parametrize(
    ("hands", "board", "dead", "code"),
    [
        (["AhKh", "AhQd"], "", "", "O110"),
        (["AhKh", "QsQd"], "Ah 2c 3c", "", "O110"),
        (["AhKh"], "", "", "O108"),
        (["AhKh", "QsQd"], "2c 3c 4c 5c 6c 7c", "", "O109"),
        (["AhKh", "Q"], "", "", "O101"),
        (["AhKhQh", "QsQd"], "", "", "O107"),
        (["AA", "AhAd, AsAc"], "", "Ah Ad Ac As", "O106"),
    ],
)
def test_bad_questions_are_refused_with_a_code(hands: list[str], board: str, dead: str, code: str) -> None:
    with pytest.raises(PokerRulesError) as caught:
        odds(load("holdem"), hands, board=board, dead=dead)
    assert caught.value.code == code


def test_cli_json_is_pinned_and_against_gives_one_object_per_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "holdem", "AhKh", "QsQd", "--board", "2h 7h 9c", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["ruleset", "method", "deals", "seed", "players"]
    assert data["method"] == "exact" and data["deals"] == 990 and data["seed"] is None
    assert list(data["players"][0]) == ["hand", "range", "combos", "equity", "win", "tie", "std_error"]
    assert data["players"][0]["hand"] == ["Ah", "Kh"] and data["players"][0]["range"] is None
    assert (
        main(["odds", "holdem", "AhKh", "QsQd", "--board", "Th 7h 9c", "--against", "short-deck-holdem", "--json"]) == 0
    )
    both = json.loads(capsys.readouterr().out)
    assert [item["ruleset"] for item in both] == ["holdem", "short-deck-holdem"]
    assert both[0]["players"][0]["equity"] != both[1]["players"][0]["equity"]


def test_cli_hi_lo_fields_and_sampled_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "omaha-hi-lo", "Ah2h3dKd", "KsKcQsJc", "--board", "4c 5d 9s", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"hi", "lo", "scoop"} <= set(data["players"][0]) and "no_low" in data
    assert data["players"][0]["hi"] + data["players"][0]["lo"] == pytest.approx(data["players"][0]["equity"])
    assert main(["odds", "holdem", "AhKh", "random", "--samples", "5000", "--seed", "9"]) == 0
    text = capsys.readouterr().out
    assert "sampled, 5,000 deals, seed 9" in text and "s.e." in text


def test_cli_errors_are_positioned_without_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "short-deck-holdem", "A2s", "KK"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "<hand 1>:1:2: error O102" in captured.err and "Traceback" not in captured.err


def test_ruleset_odds_method() -> None:
    result = load("holdem").odds(["AhKh", "QsQd"], board="2h 7h 9c")
    assert result.method == "exact" and round(result.players[0].equity, 4) == 0.5414


@pytest.mark.parametrize(
    "name", ["holdem", "short-deck-holdem", "deuces-wild", "joker-wild", "standard", "omaha-hi-lo", "razz"]
)
def test_share_engine_equals_showdown_many_on_random_deals(name: str) -> None:
    from evaluator.odds.odds import prepare

    ruleset = load(name)
    hands = ["random", "random", "random"]
    table, engine = prepare(ruleset, hands)
    deals = table.sample(np.random.default_rng(4), 3000)
    settled = engine.settle(deals)
    holes, boards = engine.split(deals)
    assert np.allclose(settled.shares, ruleset.showdown_many(holes, boards))
    assert np.allclose(np.sum([part for _, part in settled.halves], axis=0), settled.shares)
    if name in ("holdem", "deuces-wild", "joker-wild", "short-deck-holdem", "standard"):
        assert engine.shared_board is not None  # the board-shared path is the one checked here


def test_progress_bar_shows_only_after_its_delay() -> None:
    import io

    from evaluator.cli.odds import Bar

    quiet, shown = io.StringIO(), io.StringIO()
    Bar("odds", quiet, delay=60)(0.5)
    bar = Bar("odds under holdem", shown, delay=0)
    bar(0.5)
    bar.finish()
    assert quiet.getvalue() == ""
    assert "odds under holdem [" in shown.getvalue() and "50%" in shown.getvalue()


def test_sample_counts_deck_size_and_impossible_ranges_are_refused() -> None:
    with pytest.raises(PokerRulesError) as caught:
        odds(load("holdem"), ["AhKh", "QsQd"], samples=0)
    assert caught.value.code == "O112"
    with pytest.raises(PokerRulesError) as caught:
        odds(load("holdem"), ["AhKh", "QsQd"], samples=10, exact=True)
    assert caught.value.code == "O112"
    with pytest.raises(PokerRulesError) as caught:
        odds(load("short-deck-holdem"), ["random"] * 16)
    assert caught.value.code == "O113"
    with pytest.raises(PokerRulesError) as caught:
        odds(load("holdem"), ["AA", "AA", "AA"], board="2c 3d 4h")
    assert caught.value.code == "O116"
