"""The pattern language's forms for house hands: run(k, wrap, step=N, flush), flush(k),
suits, rank sets and ``any``; and the catalogue files built on them, against
brute force written here, independently of the pattern text."""

from __future__ import annotations

import random
from collections import Counter
from functools import cmp_to_key
from itertools import combinations
from math import comb
from pathlib import Path

import numpy as np
import pytest

import evaluator
from evaluator.compiled.counting import count
from evaluator.core.errors import PokerRulesError
from evaluator.rules.patterns import Flush, Member, Run, parse_pattern

RANKS = "23456789TJQKA"


def _build(categories: dict[str, str], folder: Path, extra: str = "") -> evaluator.Ruleset:
    lines = "\n".join(f'  {name}: {{pattern: "{pattern}"}}' for name, pattern in categories.items())
    order = ", ".join(
        [
            *categories,
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
    )
    path = folder / "forms.yaml"
    path.write_text(f"extends: standard\n{extra}categories:\n{lines}\norder: [{order}]\n")
    return evaluator.load(str(path))


# --- the syntax -------------------------------------------------------------------------


def test_old_patterns_keep_their_meaning() -> None:
    assert parse_pattern("run") == Run() and Run().plain
    assert parse_pattern("flush") == Flush()
    assert parse_pattern("run(4, flush)") == Run(4, False, 1, True)
    assert parse_pattern("run(wrap)") == Run(None, True, 1, False)
    assert parse_pattern("run(5, step=2)") == Run(5, False, 2, False)
    assert parse_pattern("flush(4)") == Flush(4)
    assert isinstance(parse_pattern("all in {J, Q, K}"), Member)
    assert parse_pattern("all in {2, 10}") == parse_pattern("all in {2, T}")


@pytest.mark.parametrize(
    ("pattern", "code", "col"),
    [
        ("run(wrapped)", "P104", 27),
        ("run(step>2)", "P104", 31),
        ("run(4, wrap, 5)", "P105", 36),
        ("all in {J, Y}", "P106", 34),
        ("all in {1}", "P106", 31),
        ("top in { }", "P107", 30),
        ("flush(flush)", "P108", 29),
        ("run(step)", "P109", 27),
        ("run(step=Q)", "P109", 32),
        ("flush(6)", "P215", 29),
        ("run(1, flush)", "P215", 27),
        ("run(5, step=4)", "P216", 27),
        ("run(step=0)", "P216", 27),
        ("suits = X", "P217", 31),
        ("suits >= 5", "P217", 32),
        ("any in {A, K, A}", "P218", 37),
        ("suit in {A}", "P219", 23),
        ("X Y Z W & U in {A}", "P201", 33),
        ("all in {A, 1}", "P106", 34),
    ],
)
def test_errors_are_positioned(pattern: str, code: str, col: int, tmp_path: Path) -> None:
    with pytest.raises(PokerRulesError) as problem:
        _build({"special": pattern}, tmp_path)
    found = problem.value.first
    assert (found.code, found.line, found.col) == (code, 3, col), problem.value


# --- the meaning, hand by hand ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "hand", "matches"),
    [
        ("flush(4)", "Ah 9h 7h 4h Kc", True),
        ("flush(4)", "Ah 9h 7h 4s Kc", False),
        ("run(4)", "9s Td Jh Qc 2s", True),
        ("run(4)", "As 2d 3h 4c 9s", True),  # the ace plays low in a short run too
        ("run(4)", "9s Td Jh Kc 2s", False),
        ("run(4, flush)", "9h Th Jh Qh 2c", True),
        ("run(4, flush)", "9h Th Jh Qs 2h", False),  # four in a run and four hearts, not the same four
        ("run(4) & flush(4)", "9h Th Jh Qs 2h", True),  # two separate facts
        ("run(3, flush)", "9h Th Jh 4s 2c", True),
        ("run(wrap)", "Qs Kd Ah 2c 3s", True),
        ("run(wrap)", "Ts Jd Qh Kc As", True),
        ("run", "Qs Kd Ah 2c 3s", False),
        ("run(step=2)", "2s 4d 6h 8c Ts", True),
        ("run(step=2)", "As 3d 5h 7c 9s", True),
        ("run(step=2)", "2s 4d 6h 8c Js", False),
        ("suits = 4", "2s 4d 6h 8c Js", True),
        ("suits = 4", "2s 4s 6h 8c Jd", True),
        ("suits = 4", "2s 4s 6h 8h Jc", False),
        ("suits <= 2", "2s 4s 6h 8h Jh", True),
        ("all in {J, Q, K}", "Js Jd Qh Qc Ks", True),
        ("all in {J, Q, K}", "Js Jd Qh Qc As", False),
        ("any in {A}", "Js Jd Qh Qc As", True),
        ("any = 2 & any = 5", "2s 5d 8h 9c Ts", True),
        ("any = 2 & any = 5", "2s 6d 8h 9c Ts", False),
        ("XX Y Z W & X in {J, Q}", "Js Jd 2h 3c 4s", True),
        ("XX Y Z W & X in {J, Q}", "Ks Kd 2h 3c 4s", False),
    ],
)
def test_forms_match_what_they_say(pattern: str, hand: str, matches: bool, tmp_path: Path) -> None:
    ruleset = _build({"special": pattern}, tmp_path)
    assert (ruleset.evaluate(hand).category == "special") is matches


def test_tie_breaks_derive_from_the_pattern_and_rank_by_overrides(tmp_path: Path) -> None:
    ruleset = _build({"bobtail": "run(4, flush)", "four_flush": "flush(4)"}, tmp_path)
    # a run(...) form breaks ties on the top of the run it found, not the highest card
    assert ruleset.evaluate("9h Th Jh Qh 2c").category == "bobtail"
    assert ruleset.compare("9h Th Jh Qh 2c", "8s 9s Ts Js As") == 1
    assert ruleset.compare("2h 3h 4h 5h 8c", "As 2s 3s 4s Kc") == 1  # five-high beats four-high (ace low)
    # flush(k) names no group: every card, high to low
    assert ruleset.compare("Ah 9h 7h 4h Kc", "Ad Kd 9d 7d 5s") == -1
    path = tmp_path / "rank_by.yaml"
    path.write_text('extends: forms.yaml\ncategories:\n  bobtail: {pattern: "run(4, flush)", rank_by: [cards]}\n')
    by_cards = evaluator.load(str(path))
    assert by_cards.compare("9h Th Jh Qh 2c", "8s 9s Ts Js As") == -1  # now the ace decides


def test_the_wild_card_takes_a_suit_as_well_as_a_rank(tmp_path: Path) -> None:
    ruleset = _build({"four_suits": "suits = 4 & X Y Z W V"}, tmp_path, "deck: {jokers: 1}\nwild: {jokers: true}\n")
    # a flash: one card of each suit and the joker
    assert ruleset.evaluate("As Kh 8d 3c X").category == "four_suits"
    hand = ruleset.evaluate("As Ks 8d 3c X")
    assert hand.category == "four_suits"  # the joker plays as the missing heart
    assert [played[-1] for played in hand.wilds.values()] == ["h"]
    assert ruleset.evaluate("As Ks Qs 3c X").category == "pair"  # two suits and a joker make three


def test_showdowns_and_compiled_ranks_on_a_suit_form(tmp_path: Path) -> None:
    ruleset = evaluator.load("four-flush")
    assert ruleset.showdown(["Ah 9h 7h 4h Kc", "As Ac Kd Qs Jc", "2s 2c 3d 3s 4c"]) == [2]
    deck = list(ruleset.deck)
    rng = random.Random(15)
    hands = [rng.sample(range(len(deck)), 5) for _ in range(400)]
    hands += [[deck.index(card) for card in ruleset.cards(text)] for text in ("Ah 9h 7h 4h Kc", "Ah Kh Qh Jh 2c")]
    values = ruleset.rank_many(np.array(hands))
    rank = ruleset.rank
    encode = ruleset.encode
    for a, b in zip(hands, hands[1:], strict=False):
        expected = ruleset.compare([deck[i] for i in a], [deck[i] for i in b])
        got = int(values[hands.index(a)]) - int(values[hands.index(b)])
        assert (got > 0) - (got < 0) == expected
        assert rank(encode([deck[i] for i in a])) == int(values[hands.index(a)])


# --- three-card poker, against the published table and a brute force --------------------------


def _three_card_key(hand: tuple[tuple[int, str], ...]) -> tuple[int, ...]:
    """Three Card Poker by hand: straight flush, trips, straight, flush, pair, high card."""
    values = sorted((v for v, _ in hand), reverse=True)
    flush = len({s for _, s in hand}) == 1
    straight_top = None
    if len(set(values)) == 3:
        if values[0] - values[2] == 2:
            straight_top = values[0]
        elif values == [12, 1, 0]:
            straight_top = 1  # 3-2-A
    counts = Counter(values)
    if straight_top is not None and flush:
        return (5, straight_top)
    if len(counts) == 1:
        return (4, values[0])
    if straight_top is not None:
        return (3, straight_top)
    if flush:
        return (2, *values)
    if len(counts) == 2:
        pair = max(counts, key=lambda v: counts[v])
        return (1, pair, min(counts, key=lambda v: counts[v]))
    return (0, *values)


def test_three_card_poker_counts_and_order() -> None:
    ruleset = evaluator.load("three-card-poker")
    counted = count(ruleset, 3).counts
    assert counted == {
        "straight_flush": 48,
        "three_of_a_kind": 52,
        "straight": 720,
        "flush": 1096,
        "pair": 3744,
        "high_card": 16440,
    }
    deck = [(v, s) for v in range(13) for s in "shdc"]
    hands = list(combinations(deck, 3))
    assert len(hands) == 22100
    texts = [" ".join(RANKS[v] + s for v, s in hand) for hand in hands]
    ids = np.array([[deck.index(card) for card in hand] for hand in hands])
    fast = ruleset.rank_many(ids)
    brute = [_three_card_key(hand) for hand in hands]
    # the same order: equal brute keys <=> equal values, bigger key <=> bigger value
    by_key = sorted(range(len(hands)), key=lambda i: brute[i])
    for i, j in zip(by_key, by_key[1:], strict=False):
        assert (brute[i] < brute[j]) == (fast[i] < fast[j]) and (brute[i] == brute[j]) == (fast[i] == fast[j])
    sample = random.Random(3).sample(range(len(hands)), 300)
    for i, j in zip(sample, sample[1:], strict=False):
        expected = (brute[i] > brute[j]) - (brute[i] < brute[j])
        assert ruleset.compare(texts[i], texts[j]) == expected


def test_chinese_poker_front_counts() -> None:
    counted = count(evaluator.load("chinese-poker-front"), 3).counts
    assert counted == {"three_of_a_kind": 52, "pair": 3744, "high_card": 18304}


# --- freak hands: every category against a brute force over every deal ---------------------------

FREAK_ORDER = [
    "royal_flush",
    "skeet_flush",
    "five_of_a_kind",
    "straight_flush",
    "straight_flush_house",
    "four_of_a_kind",
    "big_bobtail",
    "full_house",
    "flush",
    "big_cat",
    "little_cat",
    "big_dog",
    "little_dog",
    "straight",
    "round_the_corner",
    "skip_straight",
    "five_and_dime",
    "skeet",
    "three_of_a_kind",
    "little_bobtail",
    "blaze",
    "two_pair",
    "four_flush",
    "pair",
    "high_card",
]


def _masks(length: int, step: int, starts: range, wrap: bool = False) -> list[int]:
    """Rank bit masks of runs (-1 is the low ace, bit 12)."""
    found = []
    for start in starts:
        values = [start + i * step for i in range(length)]
        if not wrap and values[-1] > 12:
            continue
        found.append(sum(1 << (12 if v == -1 else v % 13) for v in values))
    return found


def _has_any(mask: np.ndarray, patterns: list[int]) -> np.ndarray:
    return np.any([(mask & m) == m for m in patterns], axis=0)


def _freak_categories(ranks: np.ndarray, suits: np.ndarray) -> np.ndarray:
    """The freak-hands category index of each five-card hand (rows), by plain definitions."""
    rows = np.arange(len(ranks))
    counts = np.zeros((len(ranks), 13), dtype=np.int8)
    for column in range(5):
        counts[rows, ranks[:, column]] += 1  # one card a row per column: no index repeats
    top_two = -np.sort(-counts, axis=1)[:, :2]
    distinct = (counts > 0).sum(axis=1)
    bits = (counts > 0).astype(np.int64) @ (1 << np.arange(13))
    suit_bits = np.zeros((len(ranks), 4), dtype=np.int64)
    for column in range(5):
        suit_bits[rows, suits[:, column]] |= 1 << ranks[:, column].astype(np.int64)
    suit_sizes = np.zeros((len(ranks), 4), dtype=np.int8)
    for column in range(5):
        suit_sizes[rows, suits[:, column]] += 1
    high = ranks.max(axis=1)
    low = ranks.min(axis=1)
    five = distinct == 5
    flush = suit_sizes.max(axis=1) == 5
    straight = np.isin(bits, _masks(5, 1, range(-1, 9))) & five
    wrap = np.isin(bits, _masks(5, 1, range(13), wrap=True)) & five
    skip = np.isin(bits, _masks(5, 2, range(-1, 5))) & five
    sf4 = np.zeros(len(ranks), dtype=bool)
    sf3 = np.zeros(len(ranks), dtype=bool)
    for suit in range(4):
        sf4 |= _has_any(suit_bits[:, suit], _masks(4, 1, range(-1, 10)))
        sf3 |= _has_any(suit_bits[:, suit], _masks(3, 1, range(-1, 11)))
    has = [(bits >> value) & 1 == 1 for value in range(13)]
    court = (bits & ~((1 << 9) | (1 << 10) | (1 << 11))) == 0
    skeet = five & has[0] & has[3] & has[7] & (has[1] | has[2]) & (has[4] | has[5] | has[6])
    # the suits of a straight read from its low end (the wheel's ace first): three of one
    # suit then two of another, or two then three
    in_run = np.where(straight[:, None] & has[0][:, None] & (ranks == 12), -1, ranks)
    run_suits = np.take_along_axis(suits, np.argsort(in_run, axis=1), axis=1)
    same = run_suits[:, 1:] == run_suits[:, :-1]
    three_two = same[:, 0] & same[:, 1] & ~same[:, 2] & same[:, 3]
    two_three = same[:, 0] & ~same[:, 1] & same[:, 2] & same[:, 3]
    tests = {
        "five_of_a_kind": top_two[:, 0] == 5,
        "royal_flush": straight & flush & (high == 12) & (low == 8),
        "skeet_flush": skeet & flush,
        "straight_flush": straight & flush,
        "straight_flush_house": straight & (three_two | two_three),
        "four_of_a_kind": top_two[:, 0] == 4,
        "big_bobtail": sf4,
        "full_house": (top_two[:, 0] == 3) & (top_two[:, 1] == 2),
        "flush": flush,
        "big_cat": five & (high == 11) & (low == 6),
        "little_cat": five & (high == 6) & (low == 1),
        "big_dog": five & (high == 12) & (low == 7),
        "little_dog": five & (high == 5) & (low == 0),
        "straight": straight,
        "round_the_corner": wrap,
        "skip_straight": skip,
        "five_and_dime": five & (high == 8) & (low == 3),
        "skeet": skeet,
        "little_bobtail": sf3,
        "three_of_a_kind": top_two[:, 0] == 3,
        "blaze": court,
        "two_pair": (top_two[:, 0] == 2) & (top_two[:, 1] == 2),
        "four_flush": suit_sizes.max(axis=1) >= 4,
        "pair": top_two[:, 0] == 2,
        "high_card": np.ones(len(ranks), dtype=bool),
    }
    return np.select([tests[name] for name in FREAK_ORDER], list(range(len(FREAK_ORDER))), default=99)


def _brute_freak_counts(with_joker: bool) -> dict[str, int]:
    cards = np.array(list(combinations(range(52), 5)), dtype=np.int16)
    found = np.bincount(_freak_categories(cards // 4, cards % 4), minlength=len(FREAK_ORDER))
    if with_joker:
        four = np.array(list(combinations(range(52), 4)), dtype=np.int16)
        best = np.full(len(four), 99)
        for card in range(52):
            free = ~np.any(four == card, axis=1)
            hands = np.concatenate([four, np.full((len(four), 1), card, dtype=np.int16)], axis=1)
            category = _freak_categories(hands // 4, hands % 4)
            best = np.where(free, np.minimum(best, category), best)
        quads = np.all(four // 4 == (four[:, :1] // 4), axis=1)
        best[quads] = FREAK_ORDER.index("five_of_a_kind")  # four of a rank and the joker
        found = found + np.bincount(best, minlength=len(FREAK_ORDER))
    return {name: int(n) for name, n in zip(FREAK_ORDER, found, strict=False)}


# without the joker (a ruleset of its own, valued from scratch: 20 s of CPU) runs with --slow;
# the joker's count covers every five-card hand of the 52 natural cards too
@pytest.mark.parametrize(
    "with_joker", [pytest.param(False, marks=pytest.mark.exhaustive), True], ids=["no-joker", "one-joker"]
)
def test_freak_hands_counts_equal_a_brute_force(with_joker: bool, tmp_path: Path) -> None:
    if with_joker:
        ruleset = evaluator.load("freak-hands")
    else:
        path = tmp_path / "freak-no-joker.yaml"
        path.write_text("extends: freak-hands\ndeck: {jokers: 0}\nwild: {jokers: false}\n")
        ruleset = evaluator.load(str(path))
    assert ruleset.category_names == tuple(FREAK_ORDER) or list(ruleset.category_names) == FREAK_ORDER
    counted = count(ruleset, 5)
    brute = _brute_freak_counts(with_joker)
    assert counted.counts == brute
    assert counted.unplayable == 0


def test_freak_hands_compiled_ranks_equal_the_generic_engine() -> None:
    ruleset = evaluator.load("freak-hands")
    deck = list(ruleset.deck)
    rng = random.Random(5)
    hands = [rng.sample(range(len(deck)), 5) for _ in range(300)]
    values = ruleset.rank_many(np.array(hands))
    fills = [[deck[i] for i in hand] for hand in hands]
    order = sorted(range(len(hands)), key=cmp_to_key(lambda a, b: ruleset.compare(fills[a], fills[b])))
    for a, b in zip(order, order[1:], strict=False):
        same = ruleset.compare(fills[a], fills[b]) == 0
        assert (values[a] == values[b]) if same else (values[a] < values[b])


# --- best sub-hand games: badugi ------------------------------------------------------------


def _badugi_size(hand: tuple[tuple[int, str], ...]) -> int:
    """The most cards of ``hand`` with no two of one rank and no two of one suit."""
    for size in range(len(hand), 0, -1):
        for subset in combinations(hand, size):
            if len({v for v, _ in subset}) == size and len({s for _, s in subset}) == size:
                return size
    return 0


def test_badugi_counts_equal_a_brute_force() -> None:
    ruleset = evaluator.load("badugi")
    deck = [(v, s) for v in range(13) for s in "shdc"]
    sizes = Counter(_badugi_size(hand) for hand in combinations(deck, 4))
    counted = count(ruleset, 4).counts
    assert counted == {
        "one_card_hand": sizes[1],
        "two_card_hand": sizes[2],
        "three_card_hand": sizes[3],
        "four_card_hand": sizes[4],
    }
    assert sizes[4] == 13 * 12 * 11 * 10  # four ranks, each in its own suit


def test_badugi_plays_the_best_subset_and_compiled_ranks_agree() -> None:
    ruleset = evaluator.load("badugi")
    hand = ruleset.evaluate("Ks 2s 3h 4d 5c")
    assert hand.category == "four_card_hand" and "K" not in " ".join(str(card) for card in hand.cards)
    deck = list(ruleset.deck)
    rng = random.Random(8)
    hands = [rng.sample(range(len(deck)), rng.choice([4, 5])) for _ in range(200)]
    by_size: dict[int, list[list[int]]] = {}
    for ids in hands:
        by_size.setdefault(len(ids), []).append(ids)
    for group in by_size.values():
        values = ruleset.rank_many(np.array(group))
        cards = [[deck[i] for i in ids] for ids in group]
        for i in range(len(group) - 1):
            expected = ruleset.compare(cards[i], cards[i + 1])
            got = int(values[i]) - int(values[i + 1])
            assert (got > 0) - (got < 0) == expected


def test_diff_sees_hands_that_suit_forms_reclassify() -> None:
    from evaluator.tools.diff import common_deck, scan_common_hands

    standard, four_flush = evaluator.load("standard"), evaluator.load("four-flush")
    scan = scan_common_hands(standard, four_flush, common_deck(standard, four_flush), 5, 2026)
    count_moved, example = scan.moved[("high_card", "four_flush")]
    assert count_moved > 0
    assert four_flush.evaluate(list(example)).category == "four_flush"
    assert standard.evaluate(list(example)).category == "high_card"


def test_diff_counts_every_rank_set_a_four_flush_takes_from_high_card() -> None:
    from evaluator.tools.diff import compare_rulesets

    standard, four_flush = evaluator.load("standard"), evaluator.load("four-flush")
    moved = {(r.category_a, r.category_b): r for r in compare_rulesets(standard, four_flush, samples=200).reclassified}
    row = moved[("high_card", "four_flush")]
    # every five distinct ranks that are no straight have four flushes: one part of each rank class
    assert row.classes == comb(13, 5) - 10
    cards = " ".join(row.example.cards)
    assert four_flush.evaluate(cards).category == "four_flush" and standard.evaluate(cards).category == "high_card"
