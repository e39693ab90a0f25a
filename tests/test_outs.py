"""Outs: the cards of the next street, the players' table of chances, wild cards."""

from __future__ import annotations

import json
from math import comb

import pytest

from evaluator import load
from evaluator.cli.main import main
from evaluator.core.errors import PokerRulesError
from evaluator.engine.showdown import showdown
from evaluator.odds.outs import chances, outs


def test_flush_draw_is_the_nine_hearts_19_1_and_35_0() -> None:
    result = outs(load("holdem"), ["9h 8h", "Ks Qd"], board="Kh 4h 2c")
    drawing, leader = result.players
    assert drawing.behind and not leader.behind
    assert sorted(str(out.card) for out in drawing.outs) == sorted(r + "h" for r in "23567TJQA")
    assert all("flush" in out.hand for out in drawing.outs)
    assert round(100 * drawing.next_card, 1) == 19.1
    assert drawing.within_two is not None and round(100 * drawing.within_two, 1) == 35.0
    assert 0.35 < drawing.equity < 0.40  # the runner-runner hands count too


def test_open_ended_straight_draw_against_a_pair() -> None:
    result = outs(load("holdem"), ["9c 8d", "Ks Kd"], board="Tc 7h 2s")
    drawing = result.players[0]
    assert sorted(str(out.card) for out in drawing.outs) == sorted(r + s for r in "6J" for s in "shdc")
    assert round(100 * drawing.next_card, 1) == 17.0
    assert drawing.within_two is not None and round(100 * drawing.within_two, 1) == 31.5


def test_outs_equal_a_plain_loop_over_the_river() -> None:
    ruleset = load("holdem")
    hands, board = ["9h 8h", "Ks Qd"], "Kh 4h 2c 3s"
    known = ruleset.cards(" ".join(hands) + " " + board)
    truth = {
        str(card)
        for card in ruleset.deck
        if card not in known and showdown(ruleset, hands, ruleset.cards(board) + [card]).fractions[0] > 0
    }
    result = outs(ruleset, hands, board=board)
    assert {str(out.card) for out in result.players[0].outs} == truth
    assert result.players[0].within_two is None  # one card to come


def test_deuces_count_among_the_outs() -> None:
    result = outs(load("deuces-wild"), ["9h 8h", "Ks Qd"], board="Kh 4h 3c")
    found = {str(out.card) for out in result.players[0].outs}
    assert {"2s", "2d", "2c", "2h"} <= found
    assert len(found) == 9 + 3  # the nine natural hearts (2h among them) and three other deuces


#: seed 002's outs table: outs -> (one card %, two cards %), as printed (whole percents)
SEED_TABLE = {
    1: (2, 4),
    2: (4, 8),
    3: (7, 13),
    4: (9, 17),
    5: (11, 20),
    6: (13, 24),
    7: (15, 28),
    8: (17, 32),
    9: (19, 35),
    10: (22, 38),
    11: (24, 42),
    12: (26, 45),
    13: (28, 48),
    14: (30, 51),
    15: (33, 54),
    16: (34, 57),
    17: (37, 60),
}


def test_table_columns_match_the_seed_table() -> None:
    for count, (one, two) in SEED_TABLE.items():
        next_card, within_two = chances(count, 47, 2)
        # the printed table rounds loosely (4 outs: 16.5% printed as 17; 15 outs: 31.9% as 33)
        assert abs(100 * next_card - one) <= 1.2 and within_two is not None and abs(100 * within_two - two) <= 1, count
    assert chances(9, 47, 2)[1] == 1 - comb(38, 2) / comb(47, 2)


def test_errors() -> None:
    with pytest.raises(PokerRulesError) as caught:
        outs(load("holdem"), ["9h 8h", "Ks Qd"], board="")
    assert caught.value.code == "O114"
    with pytest.raises(PokerRulesError) as caught:
        outs(load("holdem"), ["9h 8h", "Ks Qd"], board="Kh 4h 2c 3s 5s")
    assert caught.value.code == "O114"
    with pytest.raises(PokerRulesError) as caught:
        outs(load("holdem"), ["9h", "Ks Qd"], board="Kh 4h 2c")
    assert caught.value.code == "O107"


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["outs", "holdem", "9h 8h", "Ks Qd", "--board", "Kh 4h 2c"]) == 0
    text = capsys.readouterr().out
    assert "9 outs of 47 unseen: 19.15% next card, 34.97% within two cards" in text
    assert main(["outs", "holdem", "9h 8h", "Ks Qd", "--board", "Kh 4h 2c", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["players"][0]["outs"]) == 9 and data["players"][1]["behind"] is False
    assert data["players"][0]["hand"] == ["9h", "8h"] and "cards" not in data["players"][0]
    assert data["players"][0]["outs"][0] == {"card": "2h", "description": "king-high flush", "share": 1.0}
    assert main(["outs", "holdem", "9h 8h", "Ks Qd", "--board", "Kh 4h 2x"]) == 1
    assert "C101" in capsys.readouterr().err
