"""Showdowns as players meet them: games, hi-lo, qualifiers, regional cycles, pots.

Expected values come from outside the evaluator:

- the seed texts (pagat.com, Wikipedia) and hand-built deals, written down in
  ``tests/compliance/showdown_*.yaml`` and run by one runner here;
- an independent brute-force oracle in this file (plain Python: it knows the
  games' card-usage rules and the high / ace-to-five rankings, and reads no
  ruleset file), against which random deals are checked with hypothesis;
- DESIGN.md's definition of the winners of a non-transitive showdown,
  checked literally by enumerating every group of hands;
- the ojpoker seven-card reference data (``tests/data``), whose published
  class order the best five of seven must reproduce exactly.
"""

from __future__ import annotations

import io
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations, product
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from refdata import category_for_kev_rank, parse_jsonc, reference_data_dir

import evaluator
from evaluator.cli.main import main
from evaluator.core.errors import PokerRulesError
from evaluator.engine.showdown import best_hand, compare, showdown, top_cycle
from evaluator.tools.examples import _run_one  # the runner of the `showdown:` example form

COMPLIANCE = Path(__file__).resolve().parent / "compliance"


# --- the compliance data ------------------------------------------------------------


def _cases() -> list[Any]:
    cases = []
    for path in sorted(COMPLIANCE.glob("showdown_*.yaml")):
        for index, case in enumerate(yaml.safe_load(path.read_text(encoding="utf-8"))):
            slug = re.sub(r"[^a-z0-9]+", "-", case["note"].lower()).strip("-")[:50]
            cases.append(pytest.param(case, id=f"{path.stem}-{index:02d}-{case['ruleset']}-{slug}"))
    return cases


CASES = _cases()


def test_there_is_compliance_data() -> None:
    assert len(CASES) >= 60


@pytest.mark.parametrize("case", CASES)
def test_compliance(case: dict[str, Any]) -> None:
    rules = evaluator.load(case["ruleset"])
    if "error" in case:
        with pytest.raises(PokerRulesError) as raised:
            showdown(rules, case["showdown"], case.get("board", ""), case.get("pot"))
        assert raised.value.code == case["error"]
        return
    result = showdown(rules, case["showdown"], case.get("board", ""), case.get("pot"))
    assert result.winners == case["winners"]
    if "shares" in case:
        assert result.shares == case["shares"]
    if "fractions" in case:
        assert result.fractions == [Fraction(f) for f in case["fractions"]]
    halves = {half.name: half for half in result.halves}
    for name, winners in case.get("halves", {}).items():
        assert halves[name].winners == winners, name
    for name, fives in case.get("best", {}).items():
        for seat, five in enumerate(fives):
            if five is not None:
                hand = halves[name].hands[seat]
                assert hand is not None and sorted(hand.cards) == sorted(five.split()), (name, seat)
    for name, categories in case.get("categories", {}).items():
        assert [hand.category if hand else None for hand in halves[name].hands] == categories, name
    # the same case through the `showdown:` example form of DESIGN.md
    example = {key: case[key] for key in ("showdown", "board", "winners", "pot", "shares") if key in case}
    assert _run_one(rules, example) is None


# --- the seed examples, spelt out -----------------------------------------------------------


def test_four_jacks_on_the_board() -> None:
    """pagat: K-7 beats Q-10; 8-2 ties 6-5 (the board's 9 plays); A-2 ties A-K."""
    holdem = evaluator.load("holdem")
    board = "Jh Jd Jc Js 9s"
    assert showdown(holdem, ["Kc 7d", "Qs Td"], board).winners == [0]
    tie = showdown(holdem, ["8h 2c", "6d 5s"], board)
    assert tie.winners == [0, 1]
    assert [sorted(h.cards) for h in tie.halves[0].hands] == [sorted(board.split())] * 2  # the 9 kicker plays for both
    aces = showdown(holdem, ["As 2c", "Ad Kd"], board)
    assert aces.winners == [0, 1]
    assert [h.describe() for h in aces.halves[0].hands] == ["four jacks, ace kicker"] * 2


def test_bob_and_carol_play_the_boards_ace() -> None:
    """Wikipedia, Texas hold 'em: after the turn Bob's king kicker leads; the
    river ace plays as both players' fifth card and they split."""
    holdem, standard = evaluator.load("holdem"), evaluator.load("standard")
    turn = showdown(standard, ["Kh Qs", "Qh Td"], "8s Qc 8h 4c")
    assert turn.winners == [0]
    assert turn.halves[0].hands[0].describe() == "two pair, queens and eights, king kicker"
    river = showdown(holdem, ["Kh Qs", "Qh Td"], "8s Qc 8h 4c As", pot=26)
    assert river.winners == [0, 1] and river.shares == [13, 13]
    bob, carol = river.halves[0].hands
    assert bob is not None and carol is not None
    assert "Kh" not in bob.cards and "Td" not in carol.cards
    assert bob.describe() == carol.describe() == "two pair, queens and eights, ace kicker"


def test_the_italian_cycle_splits_three_ways() -> None:
    italian = evaluator.load("italian")
    minimum, medium, maximum = (italian.evaluate(h) for h in ("Ah 5h 6h 7h 8h", "9d Td Jd Qd Kd", "As Ks Qs Js Ts"))
    assert (
        compare(italian, minimum, maximum),
        compare(italian, maximum, medium),
        compare(italian, medium, minimum),
    ) == (1, 1, 1)
    assert top_cycle(italian, [minimum, medium, maximum]) == [0, 1, 2]
    result = showdown(italian, ["Ah 5h 6h 7h 8h", "9d Td Jd Qd Kd", "As Ks Qs Js Ts"], pot=99)
    assert result.winners == [0, 1, 2] and result.shares == [33, 33, 33]


def test_the_imperial_flush_loses_only_to_four_sixes() -> None:
    """Against one hand of every other category it wins, except four sixes."""
    greek = evaluator.load("greek")
    imperial = greek.evaluate("Ah Kh Qh Jh Th")
    others = {
        "royal_flush": "As Ks Qs Js Ts",
        "straight_flush": "Kd Qd Jd Td 9d",
        "four_of_a_kind": "7s 7h 7d 7c 6s",
        "flush": "Ks Js 9s 8s 6s",
        "full_house": "Ks Kd Kc 6s 6d",
        "straight": "As 6d 7c 8s 9h",
        "three_of_a_kind": "6s 6d 6c Ks Qd",
        "two_pair": "Ks Kd 6s 6c 7h",
        "pair": "6s 6d Ks Qd 9c",
        "high_card": "Ks Qd 9c 8h 6s",
    }
    for category, cards in others.items():
        other = greek.evaluate(cards)
        assert other.category == category
        assert compare(greek, imperial, other) == 1 and compare(greek, other, imperial) == -1, category
    for kicker in ("As", "7d", "Kc"):
        sixes = greek.evaluate(f"6s 6h 6d 6c {kicker}")
        assert compare(greek, sixes, imperial) == 1 and compare(greek, imperial, sixes) == -1
    # "a hand ... that beats the four of a kind but is lower than the Imperial Flush ... the pot would be split"
    for between in ("7s 7h 7d 7c 8d", "As Ks Qs Js Ts", "Ks Qs Js Ts 9s"):
        result = showdown(greek, ["Ah Kh Qh Jh Th", "6s 6h 6d 6c 8s", between], pot=300)
        assert result.winners == [0, 1, 2] and result.shares == [100, 100, 100], between


def test_omaha_uses_exactly_two_hole_cards() -> None:
    """Four hole hearts: a flush only when three hearts are on the board (two
    hole hearts + three board hearts), never with one or with two board hearts."""
    omaha, holdem = evaluator.load("omaha"), evaluator.load("holdem")
    hole = "Ah Kh Qh Jh"
    three = best_hand(omaha, hole, "2h 3h 4h 9c Tc")
    assert three is not None and three.category == "flush"
    assert sum(card in hole.split() for card in three.cards) == 2
    two = best_hand(omaha, hole, "Th 9h 2c 3d 4s")
    assert two is not None and two.category == "high_card"
    assert best_hand(holdem, "Ah Kh", "Th 9h 2c 3d Qh").category == "flush"  # type: ignore[union-attr]
    one = best_hand(omaha, "Ah Kc Qd Js", "2h 5h 8h Th 3c")
    assert one is not None and one.category == "high_card"


def test_greek_holdem_uses_both_hole_cards() -> None:
    greek = evaluator.load("greek-holdem")
    hand = best_hand(greek, "Ts 3c", "As Ks Qs Js 2d")
    assert hand is not None and hand.category == "high_card"
    assert {"Ts", "3c"} <= set(hand.cards)
    for hole, board in [("8h 2c", "Jh Jd Jc Js 9s"), ("6h Kd", "2h 3h 4h 5h 9c"), ("2c 3d", "As Ks Qs Js Ts")]:
        played = best_hand(greek, hole, board)
        assert played is not None and set(hole.split()) <= set(played.cards)


def test_hi_lo_low_is_chosen_independently_of_the_high() -> None:
    """pagat: 10-8-6-6-3-2-A omits the 10 and a six for an 8-low; the high half
    plays the pair of sixes with the ten: two different sets of five."""
    result = showdown(evaluator.load("stud-hi-lo"), ["Ts 8d 6c 6h 3s 2d Ah", "Kc Kd Qh Js 9c 7h 4c"], pot=100)
    high, low = result.halves
    mine_high, mine_low = high.hands[0], low.hands[0]
    assert mine_high is not None and mine_low is not None
    assert mine_high.category == "pair" and "Ts" in mine_high.cards
    assert mine_low.describe() == "eight-low" and mine_low.qualifies and "Ts" not in mine_low.cards
    assert set(mine_high.cards) != set(mine_low.cards)
    assert (high.winners, low.winners, result.shares) == ([1], [0], [50, 50])


def test_no_qualifying_low_means_the_high_scoops() -> None:
    result = showdown(evaluator.load("omaha-hi-lo"), ["Ah 3h 4d 5d", "Kd Kh Tc Jc"], "Ks Qd 9c 9h 2s", pot=101)
    assert result.halves[1].winners == [] and all(h is not None and not h.qualifies for h in result.halves[1].hands)
    assert result.winners == [1] and result.shares == [0, 101]
    assert result.fractions == [0, 1]


def test_nobody_qualifies_the_pot_is_carried() -> None:
    result = showdown(evaluator.load("jacks-or-better"), ["Ts Th Ad Kc Qs", "9s 9h Ac Kd Qh"], pot=10)
    assert result.winners == [] and result.shares == [0, 0] and result.carried == 10


# --- an independent oracle ---------------------------------------------------------------

RANK_ORDER = "23456789TJQKA"
DECK52 = [rank + suit for rank in RANK_ORDER for suit in "shdc"]


def oracle_high(five: Sequence[str]) -> tuple[int, ...]:
    """High-poker value of five cards, bigger is better (52 cards, ace high or in A-5)."""
    values = sorted((RANK_ORDER.index(card[0]) for card in five), reverse=True)
    counts = Counter(values)
    by_group = sorted(counts, key=lambda v: (counts[v], v), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    flush = len({card[1] for card in five}) == 1
    top = None
    if len(counts) == 5 and values[0] - values[4] == 4:
        top = values[0]
    elif values == [12, 3, 2, 1, 0]:
        top = 3  # the wheel: five high
    if top is not None:
        return (8 if flush else 4, top)
    category = {(4, 1): 7, (3, 2): 6, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}.get(tuple(shape), 0)
    if flush:
        category = 5
    return (category, *by_group)


def _low_value(card: str) -> int:
    return 1 if card[0] == "A" else RANK_ORDER.index(card[0]) + 2


def oracle_ace_to_five(five: Sequence[str]) -> tuple[int, ...]:
    """Ace-to-five low value, SMALLER is better: pairs count, runs and flushes do not."""
    counts = Counter(_low_value(card) for card in five)
    shape = tuple(sorted(counts.values(), reverse=True))
    pairing = {(1, 1, 1, 1, 1): 0, (2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 4, (4, 1): 5}[shape]
    return (pairing, *sorted(counts, key=lambda v: (counts[v], v), reverse=True))


def oracle_eight_or_better(five: Sequence[str]) -> tuple[int, ...] | None:
    """Five unequal cards, all 8 or lower (ace low), or None; smaller is better."""
    values = sorted({_low_value(card) for card in five}, reverse=True)
    return tuple(values) if len(values) == 5 and values[0] <= 8 else None


# game -> (hole, board, use_hole, use_board, boards, halves)
ORACLE_GAMES: dict[str, tuple[int, int, int | None, int | None, int, tuple[str, ...]]] = {
    "holdem": (2, 5, None, None, 1, ("high",)),
    "omaha": (4, 5, 2, 3, 1, ("high",)),
    "greek-holdem": (2, 5, 2, 3, 1, ("high",)),
    "seven-card-stud": (7, 0, None, None, 1, ("high",)),
    "razz": (7, 0, None, None, 1, ("ace-to-five",)),
    "omaha-hi-lo": (4, 5, 2, 3, 1, ("high", "eight-or-better")),
    "stud-hi-lo": (7, 0, None, None, 1, ("high", "eight-or-better")),
    "double-board-holdem": (2, 5, None, None, 2, ("high",)),
}


def oracle_fives(
    hole: Sequence[str], board: Sequence[str], use_hole: int | None, use_board: int | None
) -> Iterable[tuple[str, ...]]:
    if use_hole is None:
        return combinations(list(hole) + list(board), 5)
    return (h + b for h, b in product(combinations(hole, use_hole), combinations(board, use_board or 0)))


def oracle_winners(
    half: str, hole_cards: Sequence[Sequence[str]], board: Sequence[str], use_hole: int | None, use_board: int | None
) -> list[int]:
    if half == "high":
        best = [max(oracle_high(f) for f in oracle_fives(h, board, use_hole, use_board)) for h in hole_cards]
        return [i for i, value in enumerate(best) if value == max(best)]
    if half == "ace-to-five":
        lows = [min(oracle_ace_to_five(f) for f in oracle_fives(h, board, use_hole, use_board)) for h in hole_cards]
        return [i for i, value in enumerate(lows) if value == min(lows)]
    qualifying = [
        [v for f in oracle_fives(h, board, use_hole, use_board) if (v := oracle_eight_or_better(f)) is not None]
        for h in hole_cards
    ]
    best_low = [min(values) if values else None for values in qualifying]
    present = [value for value in best_low if value is not None]
    return [i for i, value in enumerate(best_low) if present and value == min(present)]


def oracle_fractions(
    game: str, holes: Sequence[Sequence[str]], boards: Sequence[Sequence[str]]
) -> tuple[list[Fraction], list[list[int]]]:
    """Exact shares: boards equally, then the halves that have a winner, then the winners."""
    _, _, use_hole, use_board, _, halves = ORACLE_GAMES[game]
    shares = [Fraction(0)] * len(holes)
    all_winners = []
    for board in boards:
        winners = [oracle_winners(half, holes, board, use_hole, use_board) for half in halves]
        all_winners.extend(winners)
        live = [w for w in winners if w]
        for group in live:
            for seat in group:
                shares[seat] += Fraction(1, len(boards) * len(live) * len(group))
    return shares, all_winners


@st.composite
def deals(draw: st.DrawFn, games: Sequence[str] = tuple(ORACLE_GAMES)) -> tuple[str, list[list[str]], list[list[str]]]:
    """A game and a legal deal from one 52-card deck: hole cards, then boards."""
    game = draw(st.sampled_from(list(games)))
    hole, board, _, _, boards, _ = ORACLE_GAMES[game]
    most = min(6, (52 - board * boards) // hole)
    players = draw(st.integers(2, most))
    deck = draw(st.permutations(DECK52))
    holes = [list(deck[i * hole : (i + 1) * hole]) for i in range(players)]
    rest = deck[players * hole :]
    return game, holes, [list(rest[b * board : (b + 1) * board]) for b in range(boards)]


def _run(game: str, holes: Sequence[Sequence[str]], boards: Sequence[Sequence[str]], pot: int | None = None) -> Any:
    board_arg: Any = [" ".join(b) for b in boards] if len(boards) > 1 else " ".join(boards[0])
    return showdown(evaluator.load(game), [" ".join(h) for h in holes], board_arg, pot)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals())
def test_random_showdowns_agree_with_the_oracle(deal: tuple[str, list[list[str]], list[list[str]]]) -> None:
    game, holes, boards = deal
    result = _run(game, holes, boards)
    expected, half_winners = oracle_fractions(game, holes, boards)
    assert [half.winners for half in result.halves] == half_winners
    assert result.fractions == expected
    assert result.winners == sorted({seat for group in half_winners for seat in group})


@pytest.mark.parametrize("game", sorted(ORACLE_GAMES))
def test_each_game_against_the_oracle(game: str) -> None:
    """Every game gets its own share of random deals (the mixed test above may skip one)."""

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(deals((game,)))
    def check(deal: tuple[str, list[list[str]], list[list[str]]]) -> None:
        name, holes, boards = deal
        assert _run(name, holes, boards).fractions == oracle_fractions(name, holes, boards)[0]

    check()


# --- pots -----------------------------------------------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals(), st.integers(0, 10**7))
def test_pot_shares_are_whole_non_negative_and_sum_to_the_pot(
    deal: tuple[str, list[list[str]], list[list[str]]], pot: int
) -> None:
    result = _run(*deal, pot=pot)
    assert all(isinstance(chips, int) and chips >= 0 for chips in result.shares)
    assert sum(result.shares) + result.carried == pot
    assert result.carried == 0  # every game here has a high half or a razz low: someone always wins
    for chips, fraction in zip(result.shares, result.fractions, strict=False):
        # odd chips: at most one per half (or board) a player wins in, never more
        assert abs(chips - fraction * pot) < len(result.halves) + 1
        assert fraction > 0 or chips == 0  # a player who wins nothing gets no chip


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals(), st.integers(0, 10**6), st.randoms(use_true_random=False))
def test_winners_do_not_depend_on_seat_order(
    deal: tuple[str, list[list[str]], list[list[str]]], pot: int, rnd: Any
) -> None:
    game, holes, boards = deal
    order = list(range(len(holes)))
    rnd.shuffle(order)
    first = _run(game, holes, boards, pot)
    moved = _run(game, [holes[i] for i in order], boards, pot)
    # seat s of the second deal is player order[s] of the first
    assert sorted(order[s] for s in moved.winners) == first.winners
    assert [moved.fractions[order.index(p)] for p in range(len(holes))] == first.fractions
    for half_first, half_moved in zip(first.halves, moved.halves, strict=False):
        assert sorted(order[s] for s in half_moved.winners) == half_first.winners
        for player in range(len(holes)):
            # only odd chips may move with the seats: at most one per half
            assert abs(moved.shares[order.index(player)] - first.shares[player]) <= len(first.halves)
    if evaluator.load(game).game.odd_chip == "suit_order":  # type: ignore[union-attr]
        # stud: the odd chip follows the cards (distinct cards never tie), not the seat
        assert [moved.shares[order.index(p)] for p in range(len(holes))] == first.shares


def test_odd_chips_by_the_stated_rules() -> None:
    holdem = evaluator.load("holdem")
    # first after the button: three-way split of 11 chips -> 4, 4, 3 in seat order
    board = "Ah Kd Qc Js Th"
    result = showdown(holdem, ["2c 3d", "2d 3h", "2h 3s"], board, pot=11)
    assert result.winners == [0, 1, 2] and result.shares == [4, 4, 3]
    # hi-lo: the odd chip between the halves goes to high
    hilo = showdown(evaluator.load("omaha-hi-lo"), ["Ah 2d 7c 7d", "Kd Qc Jd Td"], "3s 5c 8d Kh Ks", pot=1)
    assert hilo.shares == [0, 1]


# --- the top cycle, against DESIGN.md's definition --------------------------------------


def _design_winners(rules: Any, hands: Sequence[Any]) -> set[int]:
    """DESIGN.md literally: the hands that beat or tie every other hand; when
    none does, the smallest set whose members each beat or tie every hand
    outside it (found by trying every set, smallest first)."""
    n = len(hands)
    ok = {(i, j): compare(rules, hands[i], hands[j]) >= 0 for i in range(n) for j in range(n) if i != j}
    unbeaten = {i for i in range(n) if all(ok[i, j] for j in range(n) if j != i)}
    if unbeaten:
        return unbeaten
    for size in range(1, n + 1):
        found = [
            set(group)
            for group in combinations(range(n), size)
            if all(ok[i, j] for i in group for j in range(n) if j not in group)
        ]
        if found:
            assert len(found) == 1, "with no ties the smallest such set is unique"
            return found[0]
    raise AssertionError("the whole field always qualifies")


def _italian_pool() -> list[str]:
    ranks = "56789TJQKA"
    pool = []
    for suit in "hdcs":
        pool.append(" ".join(f"{r}{suit}" for r in "A5678"))  # the minimum
        pool.extend(" ".join(f"{r}{suit}" for r in ranks[i : i + 5]) for i in range(len(ranks) - 4))
    pool += ["Ks Kh Kd Kc 5s", "5s 5h 5d 5c 6d", "Ah Qh 9h 7h 6h", "As Ad Ah Kc Kd"]
    return pool


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(_italian_pool()), min_size=2, max_size=7, unique=True), st.randoms(use_true_random=False)
)
def test_italian_top_cycle_is_designs_definition(texts: list[str], rnd: Any) -> None:
    italian = evaluator.load("italian")
    hands = [italian.evaluate(text) for text in texts]
    for a, b in combinations(hands, 2):
        assert compare(italian, a, b) == -compare(italian, b, a) != 0  # suits break every tie here
    winners = top_cycle(italian, hands)
    assert set(winners) == _design_winners(italian, hands)
    order = list(range(len(hands)))
    rnd.shuffle(order)
    assert sorted(order[i] for i in top_cycle(italian, [hands[i] for i in order])) == sorted(winners)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "Ah Kh Qh Jh Th",
                "6s 6h 6d 6c 7s",
                "6s 6h 6d 6c Ac",
                "7s 7h 7d 7c 6s",
                "As Ks Qs Js Ts",
                "Kd Qd Jd Td 9d",
                "Ks Kh Kd Kc 6d",
                "Ad Kd Qd Jd Td",
                "Ks Qs Js 9s 7s",
                "Kc Qc Jc 9c 7c",
                "Ac Ad Ah Kc Kd",
                "As 6d 7c 8s 9h",
            ]
        ),
        min_size=2,
        max_size=6,
        unique=True,
    ),
    st.randoms(use_true_random=False),
)
def test_greek_winners_ignore_the_order(texts: list[str], rnd: Any) -> None:
    greek = evaluator.load("greek")
    hands = [greek.evaluate(text) for text in texts]
    for a, b in combinations(hands, 2):
        assert compare(greek, a, b) == -compare(greek, b, a)
    winners = top_cycle(greek, hands)
    order = list(range(len(hands)))
    rnd.shuffle(order)
    assert sorted(order[i] for i in top_cycle(greek, [hands[i] for i in order])) == winners
    # every winner beats or ties every loser; no loser beats or ties... every winner
    losers = [i for i in range(len(hands)) if i not in winners]
    assert all(compare(greek, hands[w], hands[loser]) >= 0 for w in winners for loser in losers)


# --- the seven-card reference ---------------------------------------------------------------

SEVEN_CARD_FILE = "ojpoker_lcrocker/seven_card_hands_100k.jsonc"


@cache
def _seven_card_rows() -> tuple[tuple[str, int, str], ...]:
    root = reference_data_dir()
    assert root is not None
    rows = parse_jsonc((root / SEVEN_CARD_FILE).read_text(encoding="utf-8"))
    assert isinstance(rows, list)
    return tuple((str(cards), int(klass), str(best)) for cards, klass, best in rows)


def _pairs(text: str) -> list[str]:
    return [text[i : i + 2] for i in range(0, len(text), 2)]


SEVEN_CARD_CHUNK = 20_000


@cache
def _seven_card_chunk(index: int) -> tuple[tuple[int, Any], ...]:
    """(published class, our strength) of one chunk of 20,000 rows, after
    checking each row's category and best five cards (cached: the full run
    reuses the default run's chunk)."""
    rows = _seven_card_rows()[index * SEVEN_CARD_CHUNK : (index + 1) * SEVEN_CARD_CHUNK]
    stud = evaluator.load("seven-card-stud")
    found = []
    for cards, klass, published in rows:
        hand = best_hand(stud, _pairs(cards))
        assert hand is not None
        expected_category = category_for_kev_rank(klass)
        assert hand.category == expected_category, (cards, klass)
        if expected_category in ("flush", "straight_flush", "royal_flush"):
            assert sorted(hand.cards) == sorted(_pairs(published)), cards  # the five of a flush are unique
        else:
            assert sorted(c[0] for c in hand.cards) == sorted(c[0] for c in _pairs(published)), cards
        found.append((klass, hand.strength))
    return tuple(found)


@pytest.mark.parametrize(
    "count",
    [pytest.param(20_000, id="first-20000"), pytest.param(100_000, id="all-100000", marks=pytest.mark.exhaustive)],
)
def test_seven_card_hands_in_published_order(reference_data: Path, count: int) -> None:
    """Best five of seven, ordered exactly as the ojpoker classes (lower is
    better): equal classes have equal strength, and a better class is always
    stronger; the five cards played match the published best five (by rank;
    by card for flushes). The default run checks 20,000 hands; ``-m slow``
    (and a plain full run) all 100,000, about a minute on a loaded machine."""
    assert len(_seven_card_rows()) >= count
    started = time.perf_counter()
    strength_of_class: dict[int, Any] = {}
    for index in range(count // SEVEN_CARD_CHUNK):
        for klass, strength in _seven_card_chunk(index):
            known = strength_of_class.setdefault(klass, strength)
            assert known == strength, klass
    classes = sorted(strength_of_class)
    for better, worse in zip(classes, classes[1:], strict=False):
        assert strength_of_class[better] > strength_of_class[worse], (better, worse)
    if count == 100_000:
        assert len(classes) == 4737  # the data README: "4,737 distinct values occur in the file"
    print(f"\n{count} seven-card hands, {len(classes)} classes, in {time.perf_counter() - started:.1f}s")


# --- the command line -----------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_cli_prints_each_players_five_category_description_and_share(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "showdown", "holdem", "Kc 7d", "Qs Td", "--board", "Jh Jd Jc Js 9s", "--pot", "10")
    assert code == 0
    first = next(line for line in out.splitlines() if "player 1" in line)
    second = next(line for line in out.splitlines() if "player 2" in line)
    assert first.startswith("*") and not second.startswith("*")
    assert sorted(re.findall(r"\b[2-9TJQKA][shdc]\b", first.split(":", 1)[1])) == sorted(["Jh", "Jd", "Jc", "Js", "Kc"])
    assert "four_of_a_kind" in first and "four jacks, king kicker" in first and "share 1 = 10 chips" in first
    assert "four jacks, queen kicker" in second and "share 0 = 0 chips" in second
    assert "player 1 wins" in out


def test_cli_hi_lo_shows_both_halves_and_shares(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "showdown", "stud-hi-lo", "Ts 8d 6c 6h 3s 2d Ah", "Kc Kd Qh Js 9c 7h 4c", "--pot", "9")
    assert code == 0
    assert "[high: standard]" in out and "[low: ace-to-five-eight-or-better]" in out
    assert "eight-low" in out and "pair of kings" in out
    assert "player 1: share 1/2 = 4 chips" in out and "player 2: share 1/2 = 5 chips" in out


def test_cli_json_has_the_same_data(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "showdown",
        "omaha-hi-lo",
        "Ah 2d 7c 7d",
        "Kd Qc Jd Td",
        "--board",
        "3s 5c 8d Kh Ks",
        "--pot",
        "11",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["winners"] == [0, 1] and data["shares"] == [5, 6] and data["pot"] == 11 and data["carried"] == 0
    low = data["players"][0]["hands"][1]
    assert low["half"] == "low" and low["wins"] and low["description"] == "eight-low"
    assert sorted(low["cards"]) == sorted(["8d", "5c", "3s", "2d", "Ah"])
    assert data["players"][1]["hands"][0]["category"] == "three_of_a_kind"
    assert [(p["share"], p["chips"]) for p in data["players"]] == [("1/2", 5), ("1/2", 6)]
    assert [(h["name"], h["winners"], h["chips"]) for h in data["halves"]] == [("high", [1], 6), ("low", [0], 5)]


def test_cli_double_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "showdown",
        "double-board-holdem",
        "Kc 7d",
        "Qs Td",
        "--board",
        "Jh Jd Jc Js 9s",
        "--board",
        "Qh 8c 5d 3s 2s",
        "--pot",
        "9",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["shares"] == [5, 4] and [h["name"] for h in data["halves"]] == ["board 1", "board 2"]


def test_cli_project_euler_54_one_liner(capsys: pytest.CaptureFixture[str], reference_data: Path) -> None:
    """The one-liner of docs/showdown.md; the published answer is 376."""
    path = str(reference_data / "project_euler_54" / "p054_poker.txt")
    code, out, _ = run(capsys, "showdown", "standard", "--from", path, "--hand-size", "5", "--summary")
    assert code == 0
    assert out.splitlines() == ["player 1 wins 376", "player 2 wins 624", "ties 0"]
    code, out, _ = run(capsys, "showdown", "standard", "--from", path, "--hand-size", "5", "--summary", "--json")
    assert json.loads(out) == {"showdowns": 1000, "wins": [376, 624], "ties": 0}


def test_the_one_liner_is_documented() -> None:
    docs = (Path(__file__).resolve().parents[1] / "docs" / "showdown.md").read_text(encoding="utf-8")
    assert "pokerrules showdown standard --from p054_poker.txt --hand-size 5 --summary" in docs


def test_cli_from_stdin_with_boards_and_pots(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = "\n".join(
        [
            "# hold'em: hands separated by |, the board after ;",
            "Kc 7d | Qs Td ; Jh Jd Jc Js 9s",
            "8h 2c | 6d 5s ; Jh Jd Jc Js 9s",
            "",
        ]
    )
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    code, out, _ = run(capsys, "showdown", "holdem", "--from", "-", "--pot", "7", "--json")
    assert code == 0
    results = [json.loads(line) for line in out.splitlines()]
    assert [(r["winners"], r["shares"]) for r in results] == [([0], [7, 0]), ([0, 1], [4, 3])]
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    code, out, _ = run(capsys, "showdown", "holdem", "--from", "-", "--pot", "7", "--summary")
    assert out.splitlines() == ["player 1 wins 1 (11 chips)", "player 2 wins 0 (3 chips)", "ties 1"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("Kc 7d | Qs Td ; Jh Jd Jc Js 9s ; Qh 8c 5d 3s 2s\n"))
    code, out, _ = run(capsys, "showdown", "double-board-holdem", "--from", "-", "--pot", "9", "--json")
    assert code == 0 and json.loads(out)["shares"] == [5, 4]


def test_cli_from_file_reports_the_bad_line_and_prints_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "deals.txt"
    path.write_text("Kc 7d | Qs Td ; Jh Jd Jc Js 9s\nKc 7d | Kc Td ; Jh Jd Jc Js 9s\n", encoding="utf-8")
    code, out, err = run(capsys, "showdown", "holdem", "--from", str(path))
    assert code == 1 and out == ""
    assert f"{path}:2:1: error G104" in err and "Traceback" not in err


def test_cli_usage_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "showdown", "holdem")
    assert code == 2 and out == "" and "give at least one hand" in err
    code, out, err = run(capsys, "showdown", "omaha", "Ah Kh", "Qs Td", "--board", "Jh Jd Jc Js 9s")
    assert code == 1 and out == "" and "G105" in err
    code, out, err = run(capsys, "showdown", "jacks-or-better", "Ts Th Ad Kc Qs", "9s 9h Ac Kd Qh", "--pot", "10")
    assert code == 0 and "the pot (10 chips) stays for the next deal" in out
