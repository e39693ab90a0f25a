"""The suit-class tables (``evaluator/compiled/suitkey.py``, ``suitbatch.py``) against the generic evaluator.

Rulesets whose patterns look at suits within the hand (``flush(k)``,
``run(k, flush)``, ``suits``) or that play the best subset (badugi) rank on
tables keyed by a reduced suit key. The generic evaluator (``Engine.best``) is
the oracle: a fast value is right when it equals ``FastRanker.from_strength``
of the generic ``Fill.strength`` -- the same number, so the same order.

1. The threshold the tables pick is the smallest suit count a pattern asks for.
2. Every hand of a stripped deck, for a suit-form ruleset with and without a
   wild joker: per call == batch == generic.
3. Random holdings of every size the catalogue rulesets take (fewer cards than
   a hand, a hand, seven and ten cards): per call == batch == generic.
4. Badugi: every holding class of one to four cards.
5. The tables survive the disk cache; bad codes and short hands fail clearly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

import evaluator
from evaluator.compiled import suitdirect
from evaluator.compiled.fast import ruleset_ranker
from evaluator.compiled.suitclasses import holdings
from evaluator.compiled.suitdirect import NETWORKS, colex_combinations, reaching_share, sort_columns
from evaluator.compiled.suitfront import front_keys, front_threshold
from evaluator.compiled.suittable import SUIT_MODE, card_counts, reach_ceilings, single_suit_sizes
from evaluator.compiled.tables import NO_HAND, build_tables, read_cache, write_cache
from evaluator.core.errors import CardError
from evaluator.rules.cards import Card
from evaluator.ruleset import Ruleset

SUIT_RULESETS = ("four-flush", "freak-hands", "badugi")

STRIPPED = """extends: standard
deck: {{ranks: [{ranks}], jokers: {jokers}}}
wild: {{jokers: {wild}}}
categories:
  five_of_a_kind: {{pattern: "XXXXX"}}
  big_bobtail:    {{pattern: "run(4, flush)"}}
  little_bobtail: {{pattern: "run(3, flush)"}}
  four_flush:     {{pattern: "flush(4)"}}
  rainbow:        {{pattern: "suits = 4"}}
order: [five_of_a_kind, royal_flush, straight_flush, four_of_a_kind, big_bobtail, full_house, flush,
        straight, little_bobtail, three_of_a_kind, two_pair, four_flush, rainbow, pair, high_card]
"""


pytestmark = pytest.mark.usefixtures("table_cache")  # tables built here go to a temporary cache


def generic(rs: Ruleset, cards: Sequence[Card]) -> int:
    """The oracle: the generic evaluator's best fill, numbered as the fast path numbers."""
    engine = rs.engine
    fill = engine.best(list(cards), engine.candidates(list(cards)))
    return ruleset_ranker(rs).from_strength(fill.strength) if fill is not None else NO_HAND


def check_ids(rs: Ruleset, hands: list[list[int]]) -> None:
    """Per call == generic for every hand (card ids), and batch == per call."""
    deck = list(rs.deck)
    codes = ruleset_ranker(rs).code_list
    per_call = [rs.rank(tuple(codes[i] for i in hand)) for hand in hands]
    wrong = [
        (" ".join(str(deck[i]) for i in hand), got, want)
        for hand, got in zip(hands, per_call, strict=True)
        if got != (want := generic(rs, [deck[i] for i in hand]))
    ]
    assert not wrong, f"{len(wrong)} of {len(hands)} differ from the generic evaluator, e.g. {wrong[:3]}"
    for k in {len(hand) for hand in hands}:
        rows = [i for i, hand in enumerate(hands) if len(hand) == k]
        batch = rs.rank_many(np.array([hands[i] for i in rows], dtype=np.int64)).tolist()
        assert batch == [per_call[i] for i in rows], f"batch differs from per call on {k}-card hands"


def stripped(tmp_path: Path, ranks: str, joker: bool) -> Ruleset:
    """A suit-form ruleset on a short deck (every five-card hand can be checked)."""
    path = tmp_path / f"stripped-{'joker' if joker else 'plain'}.yaml"
    text = STRIPPED.format(ranks=", ".join(ranks), jokers=int(joker), wild="true" if joker else "false")
    path.write_text(text)
    return evaluator.load(str(path))


# --- 1. the threshold --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "threshold"),
    [
        ("four-flush", 4),  # flush(4): a suit matters from four cards
        ("freak-hands", 2),  # run(2, flush) in the straight flush house: from two
        ("badugi", 2),  # two cards of a suit are already not a badugi
    ],
)
def test_the_threshold_is_the_smallest_suit_count_a_pattern_asks_for(name: str, threshold: int) -> None:
    ranker = ruleset_ranker(evaluator.load(name))
    assert ranker.mode == SUIT_MODE
    assert ranker.tables.suit_table is not None
    assert ranker.tables.suit_table.threshold == threshold


def test_catalogue_rulesets_with_suit_forms_leave_the_generic_path() -> None:
    for name in SUIT_RULESETS:
        assert ruleset_ranker(evaluator.load(name)).mode == SUIT_MODE, name


# --- 2. every hand of a stripped deck ----------------------------------------------------------


@pytest.mark.parametrize("joker", [False, True], ids=["no-joker", "one-joker"])
def test_every_five_card_hand_of_a_stripped_deck(joker: bool, tmp_path: Path) -> None:
    rs = stripped(tmp_path, "TJQKA" if joker else "9TJQKA", joker)
    assert ruleset_ranker(rs).mode == SUIT_MODE
    hands = [list(hand) for hand in combinations(range(len(rs.deck)), 5)]
    check_ids(rs, hands)


@pytest.mark.parametrize("joker", [False, True], ids=["no-joker", "one-joker"])
def test_seven_card_hands_of_a_stripped_deck(joker: bool, tmp_path: Path) -> None:
    rs = stripped(tmp_path, "9TJQKA", joker)
    rng = random.Random(7)
    hands = [rng.sample(range(len(rs.deck)), k) for k in (6, 7) for _ in range(300)]
    check_ids(rs, hands)


# --- 3. random holdings of the catalogue rulesets ------------------------------------------------


@pytest.mark.parametrize("name", SUIT_RULESETS)
def test_random_holdings_of_every_size(name: str) -> None:
    rs = evaluator.load(name)
    rng = random.Random(15)
    sizes = sorted({max(rs.hand_min, 1), rs.hand_size - 1, rs.hand_size, rs.hand_size + 1, 7, 10})
    for k in sizes:
        if k < max(rs.hand_min, 1):
            continue
        count = 400 if k <= rs.hand_size else (60 if k < 10 else 15)
        check_ids(rs, [rng.sample(range(len(rs.deck)), k) for _ in range(count)])


@pytest.mark.parametrize("name", ["four-flush", "freak-hands"])
def test_hands_where_suits_decide(name: str) -> None:
    """Hands built to reach the threshold: four of a suit, three in a run, two suits of three."""
    rs = evaluator.load(name)
    deck = list(rs.deck)
    rng = random.Random(3)
    by_suit = {suit: [i for i, card in enumerate(deck) if card.suit == suit] for suit in rs.suits}
    others = [i for i, card in enumerate(deck) if card.is_joker]
    hands = []
    for _ in range(300):
        first, second = rng.sample(list(rs.suits), 2)
        k = rng.choice([5, 6, 7])
        take = rng.choice([3, 4, 5])
        hand = rng.sample(by_suit[first], take) + rng.sample(by_suit[second], min(k - take, 3))
        rest = [i for i in range(len(deck)) if i not in hand]
        hand += rng.sample(rest, k - len(hand))
        if others and rng.random() < 0.3 and others[0] not in hand:
            hand[-1] = others[0]
        hands.append(hand)
    check_ids(rs, hands)


# --- 3b. holdings above hand.size with a reduced key of their own ------------------------------

STRIPPED_FOUR_FLUSH = """extends: four-flush
deck: {ranks: [9, T, J, Q, K, A]}
"""


def test_four_flush_every_six_and_seven_card_holding_class_of_a_stripped_deck(tmp_path: Path) -> None:
    """Six- and seven-card holdings one suit of which holds four or more have their own reduced keys
    (``suittable.grow_single_suit``): every class of them against the generic evaluator."""
    path = tmp_path / "four-flush-stripped.yaml"
    path.write_text(STRIPPED_FOUR_FLUSH)
    rs = evaluator.load(str(path))
    table = ruleset_ranker(rs).tables.suit_table
    assert table is not None and table.threshold == 4
    assert list(single_suit_sizes(table, ruleset_ranker(rs).model, ruleset_ranker(rs).model.caps, 7)) == [6, 7]
    deck = list(rs.deck)
    hands = []
    for k in (6, 7):
        for held, _ in holdings(rs, k):
            if max(sum(1 for card in held if card.suit == suit) for suit in rs.suits) >= 4:
                hands.append([deck.index(card) for card in held])
    assert len(hands) > 1000
    check_ids(rs, hands)


def test_four_flush_random_six_and_seven_card_holdings() -> None:
    rs = evaluator.load("four-flush")
    deck = list(rs.deck)
    rng = random.Random(16)
    by_suit = {suit: [i for i, card in enumerate(deck) if card.suit == suit] for suit in rs.suits}
    hands = []
    for _ in range(400):
        k = rng.choice([6, 7])
        hand = rng.sample(by_suit[rng.choice(list(rs.suits))], rng.randint(4, k))
        hand += rng.sample([i for i in range(len(deck)) if i not in hand], k - len(hand))
        hands.append(hand)
    hands += [rng.sample(range(len(deck)), k) for k in (6, 7) for _ in range(200)]
    check_ids(rs, hands)


# --- 4. badugi: every holding class --------------------------------------------------------------


def test_badugi_every_holding_class() -> None:
    rs = evaluator.load("badugi")
    deck = list(rs.deck)
    rng = random.Random(4)
    hands = []
    for k in range(1, rs.hand_size + 1):
        for held, _ in holdings(rs, k):
            # the class as dealt, its suits renamed at random: values do not depend on the names
            renamed = dict(zip(rs.suits, rng.sample(list(rs.suits), len(rs.suits)), strict=True))
            hands.append([deck.index(Card(card.rank, renamed[card.suit or ""])) for card in held])
    check_ids(rs, hands)


# --- 5. the cache and bad input ------------------------------------------------------------------


def test_suit_tables_survive_the_disk_cache(tmp_path: Path) -> None:
    rs = evaluator.load("badugi")
    built = build_tables(rs)
    path = tmp_path / "badugi.tables"
    assert write_cache(built, path)
    read = read_cache(rs, path)
    assert read is not None and read.suit_table is not None and built.suit_table is not None
    assert read.suit_table.threshold == built.suit_table.threshold
    assert np.array_equal(read.suit_table.rank_keys, built.suit_table.rank_keys)
    assert np.array_equal(read.suit_table.suit_keys, built.suit_table.suit_keys)
    assert np.array_equal(read.suit_table.values, built.suit_table.values)
    for k in built.suit_table.plain:
        assert np.array_equal(read.suit_table.plain[k][1], built.suit_table.plain[k][1])


def test_bad_codes_and_short_hands_fail_clearly() -> None:
    rs = evaluator.load("four-flush")
    with pytest.raises(CardError) as short:
        rs.rank(rs.encode("Ah 9h 7h"))
    assert short.value.code == "C104"
    with pytest.raises(CardError) as bad:
        rs.rank((1, 2, 3, 4, 5))
    assert bad.value.code == "C102"
    with pytest.raises(CardError) as repeated:
        rs.rank_many(np.array([[0, 0, 1, 2, 3]]))
    assert repeated.value.code == "C103"


# --- 6. per-hand tables of small decks --------------------------------------------------------


def test_reaching_share_counts_what_brute_force_counts() -> None:
    suits = [0, 0, 0, 1, 1, 1, 2, 2, 3]  # a suit per natural card; -1: a wild card
    for wilds in (0, 1):
        deck = suits + [-1] * wilds
        for size, threshold in ((3, 2), (4, 2), (4, 3)):
            hands = list(combinations(range(len(deck)), size))
            held = [max(sum(1 for i in hand if deck[i] in (s, -1)) for s in range(4)) >= threshold for hand in hands]
            want = sum(held) / len(hands)
            assert reaching_share([3, 3, 2, 1], wilds, size, threshold) == pytest.approx(want)


@pytest.mark.parametrize(("name", "direct"), [("freak-hands", True), ("badugi", True), ("four-flush", False)])
def test_per_hand_tables_where_most_hands_reach_the_threshold(name: str, direct: bool) -> None:
    ranker = ruleset_ranker(evaluator.load(name))
    assert (ranker.direct_table() is not None) == direct


def test_per_hand_table_rows_in_any_order_and_bigger_holdings() -> None:
    rs = evaluator.load("badugi")
    rng = random.Random(9)
    hands = [rng.sample(range(len(rs.deck)), k) for k in (1, 2, 3, 4, 5, 6) for _ in range(200)]
    check_ids(rs, hands)
    check_ids(rs, [list(reversed(hand)) for hand in hands])


def test_colex_rows_are_every_hand_once() -> None:
    for k, rows in enumerate(colex_combinations(7, 4)):
        assert [tuple(row) for row in rows.tolist()] == sorted(
            combinations(range(7), k), key=lambda hand: tuple(reversed(hand))
        )


# --- 5. the per-call front threshold and the ceilings of bigger holdings --------------------------


def test_the_front_decides_most_freak_hands_and_leaves_the_straights_to_the_table() -> None:
    """freak-hands' table threshold is 2; the front of 3 keys a hand by its one reaching suit,
    and only keys that do not decide (a straight's second suit matters) fall back."""
    ranker = ruleset_ranker(evaluator.load("freak-hands"))
    table = ranker.tables.suit_table
    assert table is not None
    assert front_threshold(table, ranker.size) == 3
    field = max(ranker.layout.key_bits + 1, ranker.layout.shift)
    plain, keyed = front_keys(table, ranker.layout, ranker.size, 3, field)
    undecided = [key for key, value in keyed.items() if value is None]
    assert all(value is not None for value in plain.values())
    assert 0 < len(undecided) < len(keyed) // 100


def test_straights_and_two_suits_lifted_by_the_joker_per_call() -> None:
    """The front's fallbacks: every suit split of every freak-hands straight, and joker hands
    whose two suits of two both reach the front."""
    rs = evaluator.load("freak-hands")
    deck = list(rs.deck)
    id_of = {str(card): i for i, card in enumerate(deck)}
    rng = random.Random(21)
    order = "A23456789TJQKA"
    hands = []
    for low in range(10):
        ranks = order[low : low + 5]
        for _ in range(60):
            hands.append([id_of[rank + rng.choice("shdc")] for rank in ranks])
    joker = id_of["X"]
    for _ in range(300):
        first, second = rng.sample("shdc", 2)
        picks = rng.sample("23456789TJQKA", 4)
        hands.append(
            [
                id_of[picks[0] + first],
                id_of[picks[1] + first],
                id_of[picks[2] + second],
                id_of[picks[3] + second],
                joker,
            ]
        )
    check_ids(rs, hands)


@pytest.mark.parametrize(("name", "raises"), [("four-flush", True), ("freak-hands", True), ("badugi", False)])
def test_reach_ceilings_bound_what_a_suit_adds(name: str, raises: bool) -> None:
    """No hand of hand.size cards reaching the threshold with c cards in its suit is worth more
    than its plain value and more than ceilings[c] (the table's own rows, checked plainly).
    In badugi a suit of two only ever costs a card: nothing is raised."""
    ranker = ruleset_ranker(evaluator.load(name))
    table, layout, size = ranker.tables.suit_table, ranker.layout, ranker.size
    assert table is not None
    ceilings = reach_ceilings(table, layout, size)
    keys, values = table.plain[size]
    plain = dict(zip(keys.tolist(), values.tolist(), strict=True))
    counts = card_counts(layout, table.rank_keys).tolist()
    raised = 0
    for rank_key, subs, value, count in zip(
        table.rank_keys.tolist(), table.suit_keys.tolist(), table.values.tolist(), counts, strict=True
    ):
        held = [sub for sub in subs if sub >= 0]
        if count != size or len(held) != 1 or value <= plain[rank_key]:
            continue
        raised += 1
        suited = int(card_counts(layout, np.array(held))[0])
        assert value <= ceilings[suited]
    assert (raised > 0) == raises
    assert ceilings == sorted(ceilings)
    assert (max(ceilings) > NO_HAND) == raises


@pytest.mark.parametrize("joker", [False, True], ids=["no-joker", "one-joker"])
def test_every_six_and_seven_card_holding_of_a_stripped_deck_is_its_best_five(
    joker: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Holdings above a hand on the per-hand table (floors, suit ceilings, the subset walk): every
    six- and seven-card holding of a short deck against the best generic value of its five-card subsets.
    A short deck's suits raise many hands, so the floor is made to answer first whatever the share."""
    monkeypatch.setattr(suitdirect, "RAISED_SHARE", 1.0)
    rs = stripped(tmp_path, "TJQKA", joker)
    batch = ruleset_ranker(rs)._suit_class_batch()
    assert batch.direct() is not None and batch.bound() is not None
    deck = list(rs.deck)
    five = {hand: generic(rs, [deck[i] for i in hand]) for hand in combinations(range(len(deck)), 5)}
    for k in (6, 7):
        hands = list(combinations(range(len(deck)), k))
        want = [max(five[subset] for subset in combinations(hand, 5)) for hand in hands]
        got = rs.rank_many(np.array(hands, dtype=np.int64)).tolist()
        wrong = [(hand, g, w) for hand, g, w in zip(hands, got, want, strict=True) if g != w]
        assert not wrong, f"{len(wrong)} of {len(hands)} {k}-card holdings differ, e.g. {wrong[:3]}"
        # both ways are taken: rows the floor answers and rows whose suits could raise a subset
        columns = np.ascontiguousarray(np.array(hands, dtype=np.intp).T)
        floor, raised = batch.floor_rows(batch.bound(), columns)
        assert 0 < len(raised) < len(hands)
        assert (np.array(got)[raised] >= floor[raised]).all()


@pytest.mark.parametrize("k", sorted(NETWORKS))
def test_sorting_networks_sort_every_row_of_zeros_and_ones(k: int) -> None:
    """The 0-1 principle: a network of compare-exchanges that sorts every 0-1 row sorts every row."""
    rows = np.array([[(row >> j) & 1 for j in range(k)] for row in range(1 << k)], dtype=np.int64)
    columns = sort_columns(np.ascontiguousarray(rows.T))
    assert np.array_equal(np.stack(columns, axis=1), np.sort(rows, axis=1))


@pytest.mark.parametrize(("name", "bounded"), [("freak-hands", True), ("badugi", False)])
def test_bigger_holdings_try_the_floor_first_only_where_suits_raise_few_hands(name: str, bounded: bool) -> None:
    batch = ruleset_ranker(evaluator.load(name))._suit_class_batch()
    assert (batch.bound() is not None) == bounded


@pytest.mark.parametrize("top_bits", ["zero", "few", "many", "ones"])
def test_the_hash_table_finds_every_key_however_crowded_its_slots(top_bits: str) -> None:
    """Keys placed by linear probing are each found, with their own value. A key's first slot is
    its top bits: all zero puts every key in slot 0 (one long run), a few values make runs that
    merge, all ones puts every key in the last slot (a run that goes on past it)."""
    from evaluator.compiled.suitbatch import HashTable

    rng = np.random.default_rng(len(top_bits))
    count = 3_000
    low = rng.integers(0, 1 << 20, count, dtype=np.int64)
    top = {
        "zero": np.zeros(count, dtype=np.int64),
        "few": rng.integers(0, 1 << 6, count, dtype=np.int64) << np.int64(56),
        "many": rng.integers(0, 1 << 40, count, dtype=np.int64) << np.int64(22),
        "ones": np.full(count, np.int64(-1) << np.int64(20)),
    }[top_bits]
    keys = np.unique(top | low)
    keys = keys[rng.permutation(len(keys))]
    values = rng.integers(0, 1 << 40, len(keys), dtype=np.int64)
    table = HashTable(keys, values)
    assert np.array_equal(table.find(keys), values)
    assert np.array_equal(table.find(keys[::-1]), values[::-1])
    assert int((table.values != NO_HAND).sum()) == len(keys)
    if top_bits == "ones":
        assert table.keys[-1] != 0 and table.probes == len(keys)  # one run, past the last slot
    with pytest.raises(ValueError, match="equal"):
        HashTable(np.concatenate([keys, keys[:1]]), np.concatenate([values, values[:1]]))
