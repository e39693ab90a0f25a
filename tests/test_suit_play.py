"""Suit tie-breaks at table speed (``compiled/suitplay.py``): the suit key of the best
hand read from its rank class, against plain brute force and the generic engine.

1. **Every holding** of six and seven cards of small decks (twelve cards: two suits
   of nine to ace, where flushes, straight flushes and a choice between pairs
   occur; four suits of queen to ace, where quads, full houses and two sets of
   trips do), for each suit tie-break, in four kinds of ruleset: standard
   categories high, the same low (a flush hurts: the highest suits of the
   class may not be one suit), a pair ranked by its rank alone (several classes
   share a value: the subsets decide) and a qualifier. The brute force is
   written here: the best over the five-card subsets of (five-card table
   value, the suit key as DESIGN.md's "Suits" defines it), through
   ``rank_many`` and ``rank`` alike; a sample also against the engine.
2. **Seeded random holdings** of 5, 6 and 7 cards of every catalogue ruleset
   with a suit tie-break, half of them holding five or more cards of one suit,
   against the generic engine.
3. **Per call** (``compiled/suitcall.py``: ``encode`` hands out codes that
   carry their card): every holding of five to seven cards of both small
   decks, for each tie-break, against the generic engine, with a count of the
   holdings the class table leaves to the table codes; holdings of eight and
   nine cards (classes above the tables' size); the codes through
   ``rank_many`` and the errors of values that are not codes.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from evaluator import load
from evaluator.compiled import suitcall, suited
from evaluator.compiled.classgrid import NO_HAND
from evaluator.compiled.fast import ruleset_ranker
from evaluator.compiled.fasthand import fast_hands
from evaluator.compiled.suitplay import usable
from evaluator.core.errors import CardError
from evaluator.rules.cards import Card
from evaluator.ruleset import Ruleset

pytestmark = pytest.mark.usefixtures("table_cache")

TIEBREAKS = ["highest_card", "highest_paired", "highest_unpaired"]
# deck, suit order, categories taken out, a category ranked by its first rank alone, a qualifier
DECKS = {
    "two-suits": (
        "{ranks: ['9', T, J, Q, K, A], suits: [s, h]}",
        "[h, s]",
        "",
        "pair: {pattern: 'XX Y Z W', rank_by: [X]}",
        "XX Y Z W | XX YY Z",
    ),
    "four-suits": (
        "{ranks: [Q, K, A], suits: [s, h, d, c]}",
        "[h, s, d, c]",
        "  royal_flush: null\n  straight_flush: null\n  flush: null\n  straight: null\n"
        "  pair: null\n  high_card: null\n"
        "order: [four_of_a_kind, full_house, three_of_a_kind, two_pair]\n",
        "two_pair: {pattern: 'XX YY Z', rank_by: [X]}",
        "XXX Y Z | XX YY Z",
    ),
}
KINDS = ["high", "low", "by-first-rank", "qualifier"]


def small_ruleset(tmp_path: Path, deck: str, kind: str, tiebreak: str) -> Ruleset:
    """A small deck of standard poker: plain, low (a flush hurts), with a category whose
    hands share values, or with a qualifier."""
    cards, order, taken_out, by_rank, qualifier = DECKS[deck]
    text = f"name: small\nextends: standard\ndeck: {cards}\nsuits: {{order: {order}, tiebreak: {tiebreak}}}\n"
    categories = taken_out.split("order:")[0]
    if kind == "by-first-rank":
        categories += f"  {by_rank}\n"
    if categories:
        text += "categories:\n" + categories
    if "order:" in taken_out:
        text += "order:" + taken_out.split("order:")[1]
    if kind == "low":
        text += "ace: high\ndirection: low\n"
    elif kind == "qualifier":
        text += f"qualifier: '{qualifier}'\n"
    path = tmp_path / f"{deck}-{kind}-{tiebreak}.yaml"
    path.write_text(text)
    return load(str(path))


def plain_suit_key(rs: Ruleset, cards: Sequence[Card]) -> tuple[int, ...]:
    """DESIGN.md "Suits": the suits of the cards in (rank, suit) descending order, the
    most significant group of two or more (highest_paired) or the highest card alone
    in its rank (highest_unpaired) first; a suit's rank is its place from the bottom."""
    rank_of = {symbol: value for value, symbol in enumerate(rs.rank_symbols)}
    suit_of = {suit: len(rs.suit_order) - i for i, suit in enumerate(rs.suit_order)}
    ordered = sorted(((rank_of[c.rank or ""], suit_of[c.suit or ""]) for c in cards), reverse=True)
    counts = Counter(rank for rank, _ in ordered)
    first = None
    if rs.tiebreak == "highest_paired":
        groups = sorted(((count, rank) for rank, count in counts.items() if count >= 2), reverse=True)
        first = groups[0][1] if groups else None
    elif rs.tiebreak == "highest_unpaired":
        singles = [rank for rank, count in counts.items() if count == 1]
        first = max(singles) if singles else None
    ordered = [c for c in ordered if c[0] == first] + [c for c in ordered if c[0] != first]
    return tuple(suit for _, suit in ordered)


def as_pair(rs: Ruleset, value: int) -> tuple[int, tuple[int, ...]]:
    """A fast value as (table value, suit digits), as ``FastRanker`` numbers it."""
    ranker = ruleset_ranker(rs)
    dense, key = divmod(value, ranker.suit_scale)
    digits = []
    for _ in range(rs.hand_size):
        key, digit = divmod(key, ranker.suit_base)
        digits.append(digit)
    return dense, tuple(reversed(digits))


def generic(rs: Ruleset, cards: Sequence[Card]) -> int:
    """The generic evaluator's best fill, numbered as the fast path numbers."""
    fill = rs.engine.best(list(cards), rs.engine.candidates(list(cards)))
    return ruleset_ranker(rs).from_strength(fill.strength) if fill is not None else NO_HAND


def counting(rows: list[int]) -> Callable[..., np.ndarray]:
    """``suited.subsets_many`` that notes how many rows it was given."""
    subsets_many = suited.subsets_many

    def counted(*args: Any) -> np.ndarray:
        rows.append(len(args[1]))
        return subsets_many(*args)

    return counted


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("deck", list(DECKS))
def test_every_holding_of_a_small_deck(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, deck: str, kind: str) -> None:
    for tiebreak in TIEBREAKS:
        rs = small_ruleset(tmp_path, deck, kind, tiebreak)
        ranker = ruleset_ranker(rs)
        assert ranker.mode == "suited"
        cards = list(rs.deck)
        # every five-card hand: its table value (the five-card path) and its plain suit key
        fives = list(itertools.combinations(range(len(cards)), 5))
        values = rs.rank_many(np.array(fives))
        five = {
            hand: (int(v) // ranker.suit_scale, plain_suit_key(rs, [cards[i] for i in hand]))
            for hand, v in zip(fives, values.tolist(), strict=True)
        }
        slow_rows: list[int] = []
        monkeypatch.setattr(suited, "subsets_many", counting(slow_rows))
        for k in (6, 7):
            holdings = list(itertools.combinations(range(len(cards)), k))
            batch = rs.rank_many(np.array(holdings)).tolist()
            for hand, value in zip(holdings, batch, strict=True):
                best = max(five[subset] for subset in itertools.combinations(hand, 5))
                assert as_pair(rs, value) == best, (tiebreak, [str(cards[i]) for i in hand])
            codes = ranker.code_list
            calls = [rs.rank(tuple(codes[i] for i in hand)) for hand in holdings]
            assert calls == batch, tiebreak
            for hand in random.Random(k).sample(holdings, 8):
                held = [cards[i] for i in hand]
                value = batch[holdings.index(hand)]
                fill = rs.engine.best(held, rs.engine.candidates(held))
                if fill is not None and not fill.strength[0][0]:
                    # a holding that does not qualify plays its best-scoring hand, which the
                    # value does not see (docs/fast-calls.md): both say it does not qualify
                    assert not fast_hands(rs).qualifies(value), tiebreak
                    continue
                assert generic(rs, held) == value, tiebreak
        monkeypatch.undo()
        # the classes settle the plain rulesets; the rest falls back to the subsets
        if kind == "high":
            assert sum(slow_rows) == 0, slow_rows
        elif kind in ("by-first-rank", "qualifier"):
            assert sum(slow_rows) > 0


# Every catalogue ruleset with a suit tie-break is compared with the engine on random hands
# in test_tables.py; here the two house tie-breaks and the stripped deck of italian, with
# flush-loaded hands. friday-night (wild cards) is ranked by the generic evaluator.
SUIT_RULESETS = ["suits-house-paired", "suits-house-unpaired", "italian"]


@pytest.mark.parametrize("name", SUIT_RULESETS)
def test_random_holdings_equal_the_engine(name: str) -> None:
    rs = load(name)
    ranker = ruleset_ranker(rs)
    assert ranker.mode == "suited" and usable(ranker, batch=True) and usable(ranker, batch=False)
    rng = random.Random(name)
    deck = [card for card in rs.deck if not card.is_joker]
    for k in (5, 6, 7):
        if k > rs.hand_size and rs.game is not None and rs.game.use_hole is not None:
            continue
        holdings = []
        for i in range(16):
            if i % 2:  # five or more of one suit: the flush branches
                suit = rng.choice(rs.suits)
                same = [c for c in deck if c.suit == suit]
                picked = rng.sample(same, 5)
                rest = [c for c in deck if c not in picked]
                holdings.append(picked + rng.sample(rest, k - 5))
            else:
                holdings.append(rng.sample(deck, k))
        ids = np.array([[rs.deck.index(c) for c in hand] for hand in holdings])
        batch = rs.rank_many(ids).tolist()
        calls = [rs.rank(rs.encode(hand)) for hand in holdings]
        expected = [generic(rs, hand) for hand in holdings]
        assert batch == expected, (name, k)
        assert calls == expected, (name, k)


@pytest.mark.parametrize("tiebreak", TIEBREAKS)
@pytest.mark.parametrize("deck", list(DECKS))
def test_per_call_equals_the_engine_on_every_holding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, deck: str, tiebreak: str
) -> None:
    rs = small_ruleset(tmp_path, deck, "high", tiebreak)
    others: list[int] = []  # the holdings the two lookups leave, by size
    tabled: list[int] = []  # those left to the table codes
    other, by_table = suitcall.CallTable.other, suitcall.CallTable.by_table

    def counted(table: suitcall.CallTable, held: Sequence[int], total: int) -> int:
        others.append(len(held))
        return other(table, held, total)

    def counted_table(table: suitcall.CallTable, held: Sequence[int], total: int) -> int:
        tabled.append(len(held))
        return by_table(table, held, total)

    monkeypatch.setattr(suitcall.CallTable, "other", counted)  # before the closure is made
    monkeypatch.setattr(suitcall.CallTable, "by_table", counted_table)
    ranker = ruleset_ranker(rs)
    assert usable(ranker, batch=False) and ranker.code_list != ranker.table_codes
    cards = list(rs.deck)
    reaching = 0  # holdings with five cards of a suit
    for k in (5, 6, 7):
        for hand in itertools.combinations(cards, k):
            assert rs.rank(rs.encode(hand)) == generic(rs, hand), (tiebreak, [str(card) for card in hand])
            reaching += max(Counter(card.suit for card in hand).values()) >= 5
    # the two lookups settle every holding but the first (the table is made) and those where a
    # suit reaches a hand; of those, the sum settles all but a flush of five cards (the subsets)
    assert len(others) - reaching in (0, 1)
    fives = sum(1 for hand in itertools.combinations(cards, 5) if len({card.suit for card in hand}) == 1)
    assert tabled == [5] * fives


@pytest.mark.parametrize("name", SUIT_RULESETS)
def test_per_call_holdings_above_the_tables_size(name: str) -> None:
    rs = load(name)
    rng = random.Random(f"{name}-big")
    deck = list(rs.deck)
    holdings = []
    for k in (8, 9, 8, 9):
        suit = rng.choice(rs.suits)
        same = rng.sample([c for c in deck if c.suit == suit], 5)
        holdings.append(rng.sample(deck, k))
        holdings.append(same + rng.sample([c for c in deck if c not in same], k - 5))
    for hand in holdings:
        value = rs.rank(rs.encode(hand))
        assert value == rs.rank(rs.encode(hand)) == generic(rs, hand), (name, [str(card) for card in hand])
        ids = np.array([[rs.deck.index(card) for card in hand]])
        assert rs.rank_many(ids).tolist() == [value]


def test_per_call_codes_go_to_rank_many_and_refuse_other_values() -> None:
    rs = load("suits-bridge")
    hands = ["As Kd Qh Jc 9s 2c 3d", "Ah Ad Kc Kd 2s 3h 4c", "As Ks Qs Js 9h 2c 3d"]
    codes = [rs.encode(hand) for hand in hands]
    assert all(code >= 1 << 64 for hand in codes for code in hand)  # wider than int64: an object array
    ids = np.array([[rs.deck.index(card) for card in rs.cards(hand)] for hand in hands])
    expected = [rs.rank(hand) for hand in codes]
    assert rs.rank_many(np.array(codes)).tolist() == rs.rank_many(ids).tolist() == expected
    assert rs.rank(list(codes[0])) == expected[0]
    with pytest.raises(CardError) as info:  # card ids are not these codes (rank trusts codes it can read)
        rs.rank([0, 1, 2, 3, 4, 5, 6])
    assert info.value.code == "C102"
    with pytest.raises(CardError) as info:
        rs.rank_many(np.array([[codes[0][0] + 1, *codes[0][1:]]], dtype=object))
    assert info.value.code == "C102"
    with pytest.raises(CardError) as info:
        rs.rank(codes[0][:4])
    assert info.value.code == "C104"
