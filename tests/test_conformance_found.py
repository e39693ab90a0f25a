"""Bugs the generated-ruleset conformance suite found, each pinned by a small test.

Each file here is the smallest ruleset found that showed the bug (the
suite itself is ``tests/test_conformance.py``).
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from evaluator.core.errors import PokerRulesError
from evaluator.odds.outs import outs
from evaluator.rules.cards import Card
from evaluator.ruleset import load
from evaluator.tools.check import check_file

pytestmark = pytest.mark.usefixtures("table_cache")


def write(folder: Path, text: str) -> Path:
    path = folder / "found.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_cards_sort_with_jokers() -> None:
    """Card ordering compared a joker's missing rank with a rank (TypeError): jokers sort last."""
    assert sorted([Card.joker(2), Card("K", "s"), Card.joker(1), Card("A", "h")]) == [
        Card("A", "h"),
        Card("K", "s"),
        Card.joker(1),
        Card.joker(2),
    ]
    assert sorted([Card("T", "s"), Card("2", "h"), Card("2", "c")]) == [Card("2", "c"), Card("2", "h"), Card("T", "s")]


def test_outs_in_a_deck_with_jokers() -> None:
    """outs sorted the cards left in the deck, the joker among them."""
    result = outs(load("joker-poker"), ["As Ks", "Qd Qh"], board="2c 7d 9h")
    behind = result.players[0]
    # an ace or a king pairs a hole card; the joker would help both players
    assert behind.behind and {str(out.card) for out in behind.outs} == {"Ac", "Ad", "Ah", "Kc", "Kd", "Kh"}


def test_check_names_a_hand_holding_a_wild_rank(tmp_path: Path) -> None:
    """Reachability examples may hold a wild deuce standing for itself; check crashed (R199)
    looking for a natural suit of a rank that has none."""
    path = write(
        tmp_path,
        "name: found\nextends: standard\ndeck: {ranks: [2, 3, 4, 5, 6]}\nwild: {ranks: [2]}\n"
        'categories:\n  corner_straight: {pattern: "run(wrap)"}\n'
        "order: [four_of_a_kind, straight_flush, full_house, flush, corner_straight, straight,\n"
        "        three_of_a_kind, two_pair, pair, high_card]\n",
    )
    found = check_file(path)
    assert [d.code for d in found if d.severity == "error"] == []
    assert any(d.code == "W103" and "2s" in d.message for d in found)


def test_a_showdown_sees_suit_forms_in_every_subset() -> None:
    """The generic showdown classified board subsets by their ranks alone, so patterns that
    read suits inside the hand (``flush(k)``, ``run(k, flush)``) never matched there, and the
    fast path (which is right) disagreed with it."""
    from evaluator.engine.showdown import best_hand, showdown

    four_flush = load("four-flush")  # a four flush ranks above a pair
    # by ranks alone A-K-Q-2-2 (a pair) beats A-K-Q-J-3 (high card): the four flush was never tried
    assert best_hand(four_flush, "Ah Kh", "Qh Jh 2s 2c 3d").category == "four_flush"
    assert showdown(four_flush, ["Ah Kh", "Ac Kc"], "Qh Jh 2s 2c 3d").winners == [0]  # not a tie of two pairs of twos


def test_suits_compares_with_one(tmp_path: Path) -> None:
    """``suits = 1`` (every card of one suit) was a syntax error: 1 read only as a count of wild cards."""
    path = write(
        tmp_path,
        "name: found\nextends: badugi\ncategories:\n"
        '  one_card_hand: {pattern: "X & suits = 1"}\n  suited_pair: {pattern: "X Y & suits <= 1"}\n'
        "order: [one_card_hand, suited_pair, two_card_hand, three_card_hand, four_card_hand]\n",
    )
    assert [d.code for d in check_file(path) if d.severity == "error"] == []
    rules = load(path)
    assert rules.evaluate("Kh Qh").category == "suited_pair"
    assert rules.evaluate("Kh Qd").category == "two_card_hand"


RAINBOW = """\
name: found
extends: standard
deck: {jokers: 2}
hand: {size: 4, min: 4}
categories:
  rainbow: {pattern: "X Y Z W & suits = 4"}
  four: {pattern: "XXXX"}
  three: {pattern: "XXX Y"}
  pairs: {pattern: "XX YY"}
  nothing: {pattern: "X Y Z W"}
  one_pair: {pattern: "XX Y Z"}
order: [rainbow, four, three, pairs, nothing, one_pair]
"""


def test_wild_cards_may_take_several_free_suits(tmp_path: Path) -> None:
    """The engine let every wild card take only one of the suits no natural card holds, so two
    jokers could never make a hand of four suits."""
    rules = load(write(tmp_path, RAINBOW))
    assert rules.evaluate("Ah 2d X X2").category == "rainbow"
    assert rules.evaluate("Ah 3h X X2").category == "three"  # two hearts: four suits are out of reach


def test_tables_stop_where_the_evaluator_fills_wild_cards(tmp_path: Path) -> None:
    """With patterns that read suits inside the hand the evaluator fills wild cards with real
    cards and refuses more of them than rank-filling rulesets allow; the tables were built up
    to the rank-filling count and their build stopped with C105. Both now stop at one count."""
    from evaluator.compiled.tables import tables_for
    from evaluator.core.errors import CardError
    from evaluator.engine.evaluate import engine_for
    from evaluator.engine.showdown import compare

    path = write(
        tmp_path, "name: found\nextends: four-flush\ndeck: {ranks: [9, T, J, Q, K, A], jokers: 1}\nwild: {ranks: [9]}\n"
    )
    rules = load(path)
    assert engine_for(rules).wild_limit == 4
    tables_for(rules)
    with pytest.raises(CardError, match="C105"):
        engine_for(rules).evaluate(rules.cards("9s 9h 9d 9c X"))
    with pytest.raises(CardError, match="C105"):
        rules.rank(rules.encode("9s 9h 9d 9c X"))
    hands = ["9s 9h 9d Ac X", "As Ks Qs Js 9d", "Ah Kh Qh Th Jc", "Td Tc 9h Kd X"]
    for a in hands:
        for b in hands:
            assert (
                rules.compare(a, b)
                == compare(rules, a, b)
                == (rules.rank(rules.encode(a)) > rules.rank(rules.encode(b)))
                - (rules.rank(rules.encode(a)) < rules.rank(rules.encode(b)))
            )


def test_lowball_breakdown_of_a_deck_with_two_jokers(tmp_path: Path) -> None:
    """stats read the second joker (X2) as a rank "X" when it named a low by its top card."""
    from evaluator.cli.main import main

    path = write(tmp_path, "name: found\nextends: ace-to-five\ndeck: {ranks: [9, T, J, Q, K, A], jokers: 2}\n")
    assert main(["stats", str(path), "--json"]) == 0


@pytest.mark.parametrize("name", ["chicago", "stud-hi-lo-declare", "baseball"])
def test_compare_reads_faces_where_the_deal_decides_no_wild_card(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """compare took a deal's face-down marks off for its shared-card check, then read them as cards (C101)
    in games the deal decides by something other than wild cards (a card half, declare, extra cards)."""
    from evaluator.cli.main import main

    code = main(["compare", name, "(As 2d) 3c 4h 5s 9d (Kc)", "(Kd Ks) Kh 7c 7d 2s (Qc)", "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert '"winner": 1' in captured.out


def test_a_declare_game_charts_with_declarations(capsys: pytest.CaptureFixture[str]) -> None:
    """chart of a hi-lo declare game always stopped at G120 (give the declarations), and chart had no way to
    give them: --declare (the charted hand's first) now charts it, and without it G120 says how."""
    from evaluator.cli.main import main

    assert main(["chart", "stud-hi-lo-declare", "--hands", "2", "--samples", "20", "--seed", "1"]) == 1
    assert "hint: pokerrules chart stud-hi-lo-declare --declare" in capsys.readouterr().err
    argv = ["chart", "stud-hi-lo-declare", "--hands", "2", "--samples", "20", "--seed", "1", "--json"]
    assert main([*argv, "--declare", "low", "high"]) == 0
    cells = json_cells(capsys.readouterr().out)
    assert [cell["equity"] for cell in cells] == [0.5, 0.5]  # one goes low, one high: a split every deal
    chart = load("stud-hi-lo-declare").chart(hands=2, samples=20, seed=1, declare=["both", "both"])
    assert all(0 <= cell.equity <= 1 for cell in chart.cells)


def json_cells(out: str) -> list[dict[str, object]]:
    import json

    cells: list[dict[str, object]] = json.loads(out)["cells"]
    return cells


@pytest.mark.parametrize(
    "rule",
    [
        "game: {boards: 2, split: [{name: high}, {name: spade, card: {suit: s}}]}",
        "game: {boards: 2, extra: [{rank: 4, face: down}]}",
        "game: {boards: 2, streets: [{down: 2}, {board: 5}]}\nwild: {follow: {rank: Q}}",
    ],
)
def test_a_double_board_game_the_deal_decides_is_refused(tmp_path: Path, rule: str) -> None:
    """check accepted a double board with rules the deal decides, whose deals every command then dealt
    on one board (showdown refused both one and two boards, G108 / G119): now G130 at game.boards."""
    path = write(tmp_path, f"name: found\nextends: holdem\n{rule}\n")
    errors = [d for d in check_file(path) if d.severity == "error"]
    assert [d.code for d in errors] == ["G130"] and errors[0].line == 3, errors
    with pytest.raises(PokerRulesError) as raised:
        load(path)
    assert raised.value.code == "G130"


def test_the_batch_judge_reads_suit_keys_on_the_generic_path(tmp_path: Path) -> None:
    """The deal stage's batch judge took a value's suit key off only on the ``suited`` path: a game the
    deal decides ranked on the generic path with a suit tie-break (stats, odds, chart) ended in an IndexError."""
    import numpy as np

    from evaluator.compiled.fast import ruleset_ranker
    from evaluator.deal.judge import Judge, deal_of
    from evaluator.deal.sample import Known, random_deals
    from evaluator.deal.settle import settle

    path = write(
        tmp_path,
        "name: found\nextends: seven-card-stud\n"
        "deck: {ranks: [9, T, J, Q, K, A], suits: [s, h, d]}\n"
        "categories: {flush_of_4: {pattern: flush(4)}}\n"
        "order: [straight_flush, full_house, flush, flush_of_4, straight, three_of_a_kind, two_pair, pair, high_card]\n"
        "suits: {order: [h, s, d], tiebreak: highest_card}\n"
        "game: {split: [{name: high}, {name: spade, card: {suit: s}}]}\n",
    )
    rules = load(path)
    assert ruleset_ranker(rules).mode == "generic"
    deals = list(random_deals(rules, Known(2), 25, np.random.default_rng(1)))
    shares = Judge(rules, 2).settle(deals).shares
    for deal, row in zip(deals, shares, strict=True):
        expected = settle(rules, deal_of(rules, deal, [False, False], None)).fractions
        assert row.tolist() == pytest.approx([float(f) for f in expected])


def lowest_wild_must_use(game: str = "") -> str:
    """A three-card game of 15 cards: two hole cards and one of the board, the lowest rank held wild
    (``game``: more keys of ``game:``)."""
    return (
        "name: found\nextends: standard\n"
        "deck: {ranks: [3, 4, 5, 6, 7], suits: [s, h, c]}\nace: high\nhand: {size: 3, min: 3}\n"
        "categories: {trips: {pattern: XXX}, straight_flush: {pattern: run & flush}, flush: {pattern: flush},"
        " pair: {pattern: XX Y}, high_card: {pattern: X Y Z}}\n"
        "order: [trips, straight_flush, flush, pair, high_card]\n"
        "wild: {lowest_rank: true}\n"
        f"game: {{hole: 4, board: 3, use_hole: 2, use_board: 1{game}}}\n"
    )


def test_the_batch_judge_decides_lowest_card_wild_on_the_whole_holding(tmp_path: Path) -> None:
    """Lowest-card wild in a must-use game the deal decides: the batch judge ranked each allowed
    combination alone, so the combination's own lowest rank turned wild, not the whole holding's (a
    seat with fours on the board played its sixes as three of a kind with a wild card it lacks)."""
    from evaluator.deal.judge import Judge, deal_of
    from evaluator.deal.sample import Known, random_deals
    from evaluator.deal.settle import settle

    path = write(tmp_path, lowest_wild_must_use(", streets: [{up: 1}, {down: 1, board: 3}, {up: 1}, {down: 1}]"))
    rules = load(path)
    deals = list(random_deals(rules, Known(3), 40, np.random.default_rng(7)))
    shares = Judge(rules, 3).settle(deals).shares
    for deal, row in zip(deals, shares, strict=True):
        expected = settle(rules, deal_of(rules, deal, [False] * 3, None)).fractions
        assert row.tolist() == pytest.approx([float(f) for f in expected])


@pytest.mark.parametrize(
    ("text", "category", "hole"),
    [
        # must use two hole cards and one of the board: three of a kind in 99.8% of deals, not 92%
        (lowest_wild_must_use(), "trips", 4),
        # any five of seven: each five's own lowest rank turned wild (four of a kind in 26%, not 15%)
        ("name: found\nextends: holdem\nwild: {lowest_rank: true}\n", "four_of_a_kind", 2),
    ],
    ids=["must-use", "any-five"],
)
def test_game_stats_decide_lowest_card_wild_on_the_whole_holding(
    tmp_path: Path, text: str, category: str, hole: int
) -> None:
    """The same mistake in ``stats`` of a game: each combination of a holding was ranked alone.
    The category's share equals the generic best hand's in another sample of as many deals."""
    from evaluator.engine.showdown import best_hand
    from evaluator.tools.game_stats import game_stats

    rules = load(write(tmp_path, text))
    deals = 2000
    stats = {row.category: row.count for row in game_stats(rules, deals=deals, seed=3).halves[0].rows}
    rng = np.random.default_rng(11)
    made = 0
    dealt = hole + (rules.game.board if rules.game else 0)
    for _ in range(deals):
        held = [rules.deck[i] for i in rng.permutation(len(rules.deck))[:dealt]]
        hand = best_hand(rules, held[:hole], held[hole:])
        made += hand is not None and hand.category == category
    # two samples of 2,000 deals: their shares differ by about 0.01-0.02 at most (the mistakes: 0.08, 0.11)
    assert abs(stats[category] - made) / deals < 0.04, (stats, made)


SMALL_RUN_TWICE = (
    "name: found\nextends: holdem\n"
    "order: [straight_flush, full_house, three_of_a_kind, flush, straight, two_pair, pair, high_card]\n"
)


@pytest.mark.parametrize(
    ("game", "argv"),
    [
        # extra cards: stats' own bound counts hole and board cards only; random deals ran out (IndexError)
        (
            "deck: {ranks: [8, 9, T, J, Q], suits: [s, h, d]}\ngame: {runs: 2, extra: [{rank: 8, face: down}]}",
            ["stats", "--players", "2", "--samples", "200"],
        ),
        # exact odds listed no deal at all (ZeroDivisionError) where the deck cannot hold two runs
        ("game: {runs: 2}\ndeck: {ranks: [8, 9, T, J, Q, K], suits: [s, h]}", ["odds", "8s 9s", "Th Jh"]),
        (
            "game: {runs: 2}\ndeck: {ranks: [8, 9, T, J, Q, K], suits: [s, h]}",
            ["odds", "8s 9s", "Th Jh", "--samples", "50"],
        ),
    ],
)
def test_a_deal_the_deck_cannot_complete_is_g125(
    tmp_path: Path, game: str, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """A game the deal decides whose deals can outrun a small deck: G125, not an internal error."""
    from evaluator.cli.main import main

    path = write(tmp_path, SMALL_RUN_TWICE + game + "\n")
    assert not [d for d in check_file(path) if d.severity == "error"]
    code = main([argv[0], str(path), *argv[1:]])
    assert code == 1 and "error G125" in capsys.readouterr().err


@pytest.mark.parametrize(("board", "col"), [([], 1), (["2c 7d 9h"], 9)])
def test_a_deal_showdown_needs_the_whole_board(board: list[str], col: int) -> None:
    """A showdown of a game the deal decides filled a missing or short board with copies of one card
    (holdem-run-it-twice, no board: "2s 2s 2s 2s 2s", four twos each): G119 at the board's end."""
    from evaluator.deal.deal import read_deal

    rules = load("holdem-run-it-twice")
    with pytest.raises(PokerRulesError) as raised:
        read_deal(rules, ["9d Ad", "9s Ts"], board)
    assert raised.value.code == "G119" and raised.value.first.col == col
    assert raised.value.first.source == "<board 1>"
    # odds still deal the rest of a partly known board
    assert rules.odds(["9d Ad", "9s Ts"], board="2c 7d 9h", samples=200, seed=1).method == "sampled"


BADUGI_QUALIFIED = """\
name: found
extends: standard
deck: {ranks: [9, T, J, Q, K, A], suits: [h, d, c, s], jokers: 1}
hand: {size: 3, min: 1, best_subset: true}
categories:
  set_of_3: {pattern: "X Y Z & suits = 3", describe: "{X}-high set"}
  set_of_2: {pattern: "X Y & suits = 2", describe: "{X}-high set"}
  set_of_1: {pattern: "X & suits = 1", describe: "{X}-high set"}
order: [set_of_3, set_of_2, set_of_1]
wild: {jokers: true, plays_as: {ranks: [A], hands: "run | flush"}}
natural_beats_wild: true
suits: {order: [h, d, c, s], tiebreak: highest_unpaired}
qualifier: "category >= set_of_3"
"""

SET_RANKS = "9TJQKA"
SET_SUITS = {"h": 4, "d": 3, "c": 2, "s": 1}  # suits.order h d c s, the highest first


def plain_set_hand(played: tuple[str, ...]) -> tuple[int, tuple[int, ...]] | None:
    """(k, ranks high to low) when the natural cards ``played`` are a set of k cards of
    different ranks and different suits (the category set_of_k), else None."""
    ranks = {SET_RANKS.index(card[0]) for card in played}
    if len(ranks) != len(played) or len({card[1] for card in played}) != len(played):
        return None
    return len(played), tuple(sorted(ranks, reverse=True))


def plain_best_set(holding: tuple[str, ...]) -> tuple[tuple[Any, ...], frozenset[str], str]:
    """The best hand of ``holding`` in BADUGI_QUALIFIED, by trying every subset and every card
    for the joker: (the strength hands are ranked by, the cards that play, its category).

    A hand is its best subset (DESIGN.md: best sub-hand games); the qualifier says whether it
    can win, not which cards play. Subsets are ranked by: qualifies, then the category and the
    ranks, then fewer wild cards (natural_beats_wild), then the suit key (highest_unpaired: in a
    set every card is unpaired, so the cards high to low)."""
    naturals = [rank + suit for rank in SET_RANKS for suit in SET_SUITS]
    best: tuple[tuple[Any, ...], frozenset[str], str] | None = None
    for k in range(len(holding), 0, -1):
        for subset in combinations(holding, k):
            natural = tuple(card for card in subset if card != "X")
            fills: list[tuple[str, ...]] = [()] if len(natural) == k else [(card,) for card in naturals]
            for fill in fills:
                played = natural + fill
                if len(set(played)) != k:
                    continue  # the joker stands for a card not already in the hand
                if fill and fill[0][0] != "A":
                    # the bug plays as an ace, or as anything in a run or a flush of three cards
                    # (ace: both, so A-9-T is a run too)
                    values = sorted(SET_RANKS.index(card[0]) for card in played)
                    run = k == 3 and (values == list(range(values[0], values[0] + 3)) or values == [0, 1, 5])
                    flush = k == 3 and len({card[1] for card in played}) == 1
                    if not (run or flush):
                        continue
                found = plain_set_hand(played)
                if found is None:
                    continue
                size, ranks = found
                by_suit = tuple(SET_SUITS[card[1]] for card in sorted(played, key=lambda c: -SET_RANKS.index(c[0])))
                choice = (size == 3, (size, ranks), -len(fill), by_suit)
                if best is None or choice > best[0]:
                    best = (choice, frozenset(subset), f"set_of_{size}")
    assert best is not None  # every card alone is a set of one
    (qualifies, score, natural, by_suit), played, category = best
    # hands that do not qualify are ranked alike before natural-beats-wild and the suits
    return (qualifies, score if qualifies else (), natural, by_suit), played, category


def test_a_hand_that_does_not_qualify_plays_its_best_subset(tmp_path: Path) -> None:
    """With a qualifier, the generic evaluator chose among a holding's hands by natural-beats-wild and
    the suit tie-break before their value when none qualified: 9h Ks played the 9h alone (a set of one
    in the top suit) instead of the K-9 set of two, and 9h Kh X the Kh without the joker instead of A-K.
    The tables valued those holdings the same way; evaluate on the tables filled the whole short holding.
    Every holding of the deck (up to three cards) against a brute force over subsets and joker cards."""
    from conformance.brute import same_order

    from evaluator.compiled import fasthand
    from evaluator.compiled.tables import tables_for
    from evaluator.engine.evaluate import engine_for

    rules = load(write(tmp_path, BADUGI_QUALIFIED))
    engine = engine_for(rules)
    assert engine.evaluate(rules.cards("9h Ks")).category == "set_of_2"
    assert set(engine.evaluate(rules.cards("9h Kh X")).cards) == {"Kh", "X"}
    tables_for(rules)
    assert fasthand.evaluate(rules, "9h Ks").category == "set_of_2"
    for _ in range(40):  # past the calls answered generically: evaluate runs on the tables
        rules.evaluate("9h Ks")
    deck = [str(card) for card in rules.deck]
    keyed = []
    holdings = [holding for k in (1, 2, 3) for holding in combinations(deck, k)]
    values = rules.rank_many(np.array([[deck.index(c) for c in h] for h in holdings if len(h) == 3]))
    batch = iter(values.tolist())
    for holding in holdings:
        text = " ".join(holding)
        strength, played, category = plain_best_set(holding)
        hand = engine.evaluate(rules.cards(text))
        assert (hand.category, frozenset(map(str, hand.cards))) == (category, played), text
        on_tables = rules.evaluate(text)  # warm: the table closure (fasthand.evaluate where it does not qualify)
        assert (on_tables.category, on_tables.cards, on_tables.strength) == (hand.category, hand.cards, hand.strength)
        value = rules.rank(rules.encode(text))
        if len(holding) == 3:
            assert next(batch) == value, text
        keyed.append((value, strength, text))
        keyed.append((value, hand.strength, text))
    assert not same_order([(value, strength, text) for value, strength, text in keyed[::2]])
    assert not same_order([(value, strength, text) for value, strength, text in keyed[1::2]])


def test_diff_of_a_game_whose_extra_cards_outrun_the_deck_is_g125(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """diff dealt a dealer's-choice game's extra cards from the cards nobody was given without a
    bound: seven cards each of sixteen and a queen dealt down buying one more ran out (IndexError)."""
    from evaluator.cli.main import main

    path = write(
        tmp_path,
        "name: found\nextends: standard\ndeck: {ranks: [T, J, Q, K, A], suits: [h, d, s], jokers: 1}\n"
        "wild: {jokers: true}\ngame: {hole: 7, board: 0, extra: [{rank: Q, face: down, gives: up}]}\n",
    )
    assert not [d for d in check_file(path) if d.severity == "error"]
    assert main(["diff", str(path), "standard", "--samples", "60"]) == 1
    assert "error G125: found's deck runs out before this deal is complete" in capsys.readouterr().err


def test_diff_showdowns_tie_hands_that_do_not_qualify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """diff's share of changed showdowns compared table values in batch, and the values of two hands
    that do not qualify differ by natural-beats-wild and the suit tie-break: it counted wins where
    compare says tie (K-K against 9-9 when only five of a kind qualifies)."""
    import json

    from evaluator.cli.main import main
    from evaluator.engine.showdown import compare

    path = write(
        tmp_path,
        "name: found\nextends: standard\ndeck: {ranks: [9, T, J, Q, K, A], jokers: 2}\n"
        'categories: {five: {pattern: "XXXXX"}}\n'
        "order: [five, straight_flush, four_of_a_kind, full_house, flush, straight, three_of_a_kind,\n"
        "        two_pair, pair, high_card]\n"
        "wild: {jokers: true}\nnatural_beats_wild: true\n"
        "suits: {order: [s, h, c, d], tiebreak: highest_unpaired}\nqualifier: category >= five\n",
    )
    assert main(["diff", str(path), "standard", "--json", "--samples", "200"]) == 0
    showdowns = json.loads(capsys.readouterr().out)["showdowns"]
    rules = load(path)
    assert showdowns["examples"]
    for example in showdowns["examples"]:
        first, second = " ".join(example["first"]), " ".join(example["second"])
        assert example["outcome_a"] == compare(rules, first, second), example
