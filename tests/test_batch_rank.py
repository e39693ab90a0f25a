"""``rank_many`` without cliffs: big holdings, many wild cards, several packs.

Each batch is checked against the per-call ``rank`` (itself checked against
the generic evaluator in test_tables.py) on every row, and against the generic
evaluator directly on a sample of rows.
"""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest

from evaluator import load
from evaluator.compiled import fast
from evaluator.compiled.batch_rank import blocks_for
from evaluator.compiled.classgrid import NO_HAND
from evaluator.compiled.fast import ruleset_ranker
from evaluator.rules.cards import Card
from evaluator.ruleset import Ruleset

# the paths of the batch: plain, wild cards, lowest-card wild, a forced flush that
# hurts (not dominant), one-suited tables keyed by suit
RULESETS = ["standard", "deuces-wild", "lowest-card-wild", "deuce-to-seven", "greek"]
MORE_RULESETS = ["two-jokers-wild", "bug", "short-deck", "ace-to-five-joker", "natural-beats-wild", "double-ace-flush"]


def generic(rs: Ruleset, cards: list[Card]) -> int:
    """The generic evaluator's best fill, numbered as the fast path numbers it."""
    engine = rs.engine
    fill = engine.best(cards, engine.candidates(cards))
    return ruleset_ranker(rs).from_strength(fill.strength) if fill is not None else NO_HAND


def physical(rs: Ruleset) -> list[int]:
    """Card ids of every physical card (twice with two packs)."""
    return [i for i, card in enumerate(rs.deck) for _ in range(1 if card.is_joker else rs.copies)]


def check_rows(rs: Ruleset, rows: list[list[int]], generic_sample: int) -> None:
    ranker = ruleset_ranker(rs)
    codes = ranker.code_list
    per_call = [rs.rank(tuple(codes[i] for i in row)) for row in rows]
    assert rs.rank_many(np.array(rows)).tolist() == per_call
    deck = rs.deck
    for row, value in list(zip(rows, per_call, strict=True))[:generic_sample]:
        assert value == generic(rs, [deck[i] for i in row]), [str(deck[i]) for i in row]


@pytest.mark.parametrize("name", RULESETS + [pytest.param(name, marks=pytest.mark.slow) for name in MORE_RULESETS])
def test_holdings_above_ten_cards_are_batched_exactly(name: str) -> None:
    rs = load(name)
    rng = random.Random(len(name))
    pack = physical(rs)
    for k in (11, 12) if name != "standard" else (11, 12, 13):
        rows = [rng.sample(pack, k) for _ in range(30)]
        check_rows(rs, rows, generic_sample=1)


def test_eleven_cards_of_one_suit_and_the_whole_deck() -> None:
    rs = load("standard")
    deck = rs.deck
    spades = [i for i, card in enumerate(deck) if card.suit == "s"]
    others = [i for i, card in enumerate(deck) if card.suit != "s"]
    rng = random.Random(3)
    rows = [rng.sample(spades, 11) + rng.sample(others, 1) for _ in range(30)]
    rows += [rng.sample(spades, 12) for _ in range(10)]
    check_rows(rs, rows, generic_sample=3)
    everything = np.array([list(range(len(deck)))])
    assert ruleset_ranker(rs).tables.category_of(int(rs.rank_many(everything)[0])) == "royal_flush"


@pytest.mark.parametrize("wilds", [3, 4])
def test_many_wild_cards_in_seven(wilds: int) -> None:
    for name in ("deuces-wild", "two-jokers-wild"):
        rs = load(name)
        ranker = ruleset_ranker(rs)
        wild = [i for i in range(len(rs.deck)) if ranker.model.static_wild[i]]
        natural = [i for i in range(len(rs.deck)) if not ranker.model.static_wild[i]]
        if len(wild) < wilds:
            continue
        rng = random.Random(wilds)
        rows = [rng.sample(wild, wilds) + rng.sample(natural, 7 - wilds) for _ in range(300)]
        check_rows(rs, rows, generic_sample=10)


def test_two_packs_past_the_code_limit() -> None:
    rs = load("two-decks")
    limit = ruleset_ranker(rs).layout.limit
    assert limit < 12  # two packs do not fit every holding: 11 and 12 cards are past the limit
    rng = random.Random(8)
    pack = physical(rs)
    for k in (8, 9, 10, limit + 1, 12):
        check_rows(rs, [rng.sample(pack, k) for _ in range(60)], generic_sample=2)


def test_suit_tiebreak_above_ten_cards() -> None:
    rs = load("suits-house-paired")
    rng = random.Random(4)
    check_rows(rs, [rng.sample(range(len(rs.deck)), 11) for _ in range(15)], generic_sample=1)


def test_every_hand_avoids_a_block() -> None:
    """The cover: any hand.size of the k columns miss a whole block."""
    for size in (5, 7):
        for most in (7, 10):
            for k in range(most + 1, most + 8):
                plan = blocks_for(k, most, size + 1)
                assert plan is not None
                blocks, direct = plan
                assert all(k - len(block) <= most for block in blocks) == direct
                used = [j for block in blocks for j in block]
                assert len(used) == len(set(used))
                for hand in combinations(range(k), size):
                    assert any(not set(block) & set(hand) for block in blocks)


def test_the_grown_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    rs = load("standard")
    ranker = ruleset_ranker(rs)
    monkeypatch.setattr(fast, "GROWN_MEMO", 64)
    ranker.nf.memo.clear()
    rng = random.Random(6)
    rows = [rng.sample(range(52), 12) for _ in range(300)]
    codes = ranker.code_list
    values = [rs.rank(tuple(codes[i] for i in row)) for row in rows]
    assert len(ranker.nf.memo) <= 64
    again = [rs.rank(tuple(codes[i] for i in row)) for row in rows]
    assert again == values
    assert rs.rank_many(np.array(rows)).tolist() == values


@pytest.mark.parametrize("name", ["standard", "four-flush", "suits-bridge"])
def test_batch_work_builds_no_per_call_closure(name: str) -> None:
    """rank_many never needs the per-call closures (their key tables cost a suit-class ruleset about
    half a second): they are built on first per-call use, and then answer as the batch did."""
    rs = load(name)
    ranker = ruleset_ranker(rs)
    ranker.__dict__.pop("_closures", None)
    ranker.__dict__.pop("rank", None)
    ranker.__dict__.pop("raw_rank", None)
    ids = np.argsort(np.random.default_rng(3).random((200, len(rs.deck))), axis=1)[:, :7]
    values = ranker.rank_many(ids)
    assert "_closures" not in ranker.__dict__
    codes = ranker.code_list
    assert [ranker.rank(tuple(codes[i] for i in row)) for row in ids.tolist()] == values.tolist()
