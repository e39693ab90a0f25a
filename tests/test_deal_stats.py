"""``stats`` of dealer's-choice games against a plain Monte Carlo written here.

The Monte Carlo below shares no code with pokerrules: it shuffles a deck with
``random``, deals seven-card stud street by street (two down, four up, one
down, one card at a time around the table), finds the wild ranks by walking
the face-up cards in dealing order (Follow the Queen) or gives the extra card
of a four dealt face up (Baseball), and takes each player's best category by
brute force: every five of the player's cards, every rank each wild card can
stand for, a flush when the naturals share a suit and all five ranks differ.
Each category's share of the players' hands must agree with ``stats`` within
four standard errors (both sides' errors from the spread between deals).
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import sqrt

import pytest

from evaluator import load
from evaluator.tools.deal_stats import deal_stats

pytestmark = pytest.mark.usefixtures("table_cache")

RANKS = "23456789TJQKA"
SUITS = "shdc"
ORDER = [
    "five_of_a_kind",
    "royal_flush",
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
    "two_pair",
    "pair",
    "high_card",
]
STREETS = [(2, False), (1, True), (1, True), (1, True), (1, True), (1, False)]  # (cards, face up)
PLAYERS = 4


def category(values: tuple[int, ...], flush: bool) -> int:
    """The index in ORDER of five rank values (0 = two ... 12 = ace), written plainly."""
    counts = sorted(Counter(values).values(), reverse=True)
    distinct = sorted(set(values))
    straight = len(distinct) == 5 and (distinct[4] - distinct[0] == 4 or distinct == [0, 1, 2, 3, 12])
    if counts[0] == 5:
        return ORDER.index("five_of_a_kind")
    if straight and flush:
        return ORDER.index("royal_flush" if distinct == [8, 9, 10, 11, 12] else "straight_flush")
    if counts[0] == 4:
        return ORDER.index("four_of_a_kind")
    if counts[:2] == [3, 2]:
        return ORDER.index("full_house")
    if flush:
        return ORDER.index("flush")
    if straight:
        return ORDER.index("straight")
    if counts[0] == 3:
        return ORDER.index("three_of_a_kind")
    if counts[:2] == [2, 2]:
        return ORDER.index("two_pair")
    return ORDER.index("pair" if counts[0] == 2 else "high_card")


@cache
def best_fill(naturals: tuple[int, ...], one_suit: bool, wilds: int) -> int:
    """The best category of five cards: ``naturals`` rank values, ``wilds`` wild cards filled every way."""
    best = len(ORDER)
    for fill in combinations_with_replacement(range(13), wilds):
        values = naturals + fill
        flush = one_suit and len(set(values)) == 5
        best = min(best, category(values, flush))
    return best


def best_category(cards: list[str], wild_ranks: set[str]) -> int:
    """The best category of any five of ``cards`` (``"As"`` ...) with ``wild_ranks`` wild."""
    best = len(ORDER)
    for five in combinations(cards, 5):
        naturals = [c for c in five if c[0] not in wild_ranks]
        suits = {c[1] for c in naturals}
        values = tuple(sorted(RANKS.index(c[0]) for c in naturals))
        best = min(best, best_fill(values, len(suits) <= 1, 5 - len(naturals)))
    return best


def deal_stud(rng: random.Random, extra_four: bool) -> tuple[list[list[tuple[str, bool]]], list[str]]:
    """Seven-card stud to PLAYERS seats in dealing order: each seat's (card, face up); the up cards in order."""
    deck = [r + s for r in RANKS for s in SUITS]
    rng.shuffle(deck)
    seats: list[list[tuple[str, bool]]] = [[] for _ in range(PLAYERS)]
    up_order = []
    for count, up in STREETS:
        for _ in range(count):
            for seat in range(PLAYERS):
                card = deck.pop()
                seats[seat].append((card, up))
                if up:
                    up_order.append(card)
                if extra_four and up and card[0] == "4":
                    seats[seat].append((deck.pop(), False))  # the extra card, at once, face down
    return seats, up_order


def follower_rank(up_order: list[str]) -> str | None:
    """The rank of the face-up card right after the last face-up queen (None: none follows)."""
    last = max((i for i, card in enumerate(up_order) if card[0] == "Q"), default=None)
    if last is None or last + 1 >= len(up_order):
        return None
    return up_order[last + 1][0]


def monte_carlo(game: str, deals: int, seed: int) -> dict[str, list[float]]:
    """Per category, each deal's share of the players' hands in that category."""
    rng = random.Random(seed)
    shares: dict[str, list[float]] = {name: [] for name in ORDER}
    for _ in range(deals):
        seats, up_order = deal_stud(rng, extra_four=game == "baseball")
        if game == "follow-the-queen":
            follower = follower_rank(up_order)
            wild = {"Q"} | ({follower} if follower else set())
        elif game == "baseball":
            wild = {"3", "9"}
        else:
            wild = set()
        found = Counter(ORDER[best_category([c for c, _ in cards], wild)] for cards in seats)
        for name in ORDER:
            shares[name].append(found[name] / PLAYERS)
    return shares


def mean_and_error(values: list[float]) -> tuple[float, float]:
    mean = sum(values) / len(values)
    spread = sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    return mean, spread / sqrt(len(values))


@pytest.mark.parametrize("game", ["follow-the-queen", "baseball", "chicago"])
def test_category_shares_agree_with_a_plain_monte_carlo(game: str) -> None:
    rules = load(game)
    table = deal_stats(rules, deals=1500, players=PLAYERS, seed=11)
    rows = {row.name: row for row in table.hands["high"]}
    expected = monte_carlo(game, 1500, seed=12)
    for name in ORDER:
        if name not in rows:
            assert game == "chicago" and name == "five_of_a_kind"  # no wild card: not in the order
            assert sum(expected[name]) == 0
            continue
        row = rows[name]
        stats_error = (row.high - row.low) / (2 * 1.959964)
        mean, error = mean_and_error(expected[name])
        both = sqrt(stats_error**2 + error**2)
        assert abs(row.probability - mean) <= 4 * both + 1e-12, (game, name, row.probability, mean, both)
    assert sum(row.count for row in rows.values()) == 1500 * PLAYERS


def test_follow_the_queen_wild_sets_agree_with_the_walk() -> None:
    """How often only queens are wild (no queen up, or a queen last): the same walk, written plainly."""
    table = deal_stats(load("follow-the-queen"), deals=2500, players=PLAYERS, seed=21)
    queens_only = next(row for row in table.wild if row.name == "queens")
    rng = random.Random(22)
    alone = [float(follower_rank(deal_stud(rng, False)[1]) is None) for _ in range(20_000)]
    mean, error = mean_and_error(alone)
    stats_error = (queens_only.high - queens_only.low) / (2 * 1.959964)
    assert abs(queens_only.probability - mean) <= 4 * sqrt(stats_error**2 + error**2)


def test_chicago_spade_half_agrees_with_a_plain_count() -> None:
    """Nobody holding a spade in the hole, and the ace of spades taking the half."""
    table = deal_stats(load("chicago"), deals=3000, players=PLAYERS, seed=31)
    rows = {row.name: row for row in table.cards["spade"]}
    rng = random.Random(32)
    nobody, ace = [], []
    for _ in range(20_000):
        seats, _ = deal_stud(rng, False)
        hole = [card for cards in seats for card, up in cards if not up]
        nobody.append(float(not any(card[1] == "s" for card in hole)))
        ace.append(float("As" in hole))
    for name, values in (("nobody", nobody), ("As", ace)):
        mean, error = mean_and_error(values)
        row = rows[name]
        stats_error = (row.high - row.low) / (2 * 1.959964)
        assert abs(row.probability - mean) <= 4 * sqrt(stats_error**2 + error**2), name


def test_baseball_extra_cards_agree_with_a_plain_count() -> None:
    table = deal_stats(load("baseball"), deals=2500, players=PLAYERS, seed=41)
    rows = {row.name: row for row in table.extra}
    rng = random.Random(42)
    one = []
    for _ in range(10_000):
        seats, _ = deal_stud(rng, True)
        one.append(sum(len(cards) == 8 for cards in seats) / PLAYERS)
    mean, error = mean_and_error(one)
    stats_error = (rows["1"].high - rows["1"].low) / (2 * 1.959964)
    assert abs(rows["1"].probability - mean) <= 4 * sqrt(stats_error**2 + error**2)
