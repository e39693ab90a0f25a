"""The exact flip census against brute force: every pair of hands that can meet, judged by ``compare``.

Small decks (six ranks, three or four suits) are brute-forced pair by pair:
every two hands that share no card, judged by both rulesets' ``compare``, each
flip given its cause by the per-pair rule the sampled census uses
(``flips_sampled.flip_cause``). The census must find exactly the same groups
and counts, and every example must be two hands that share no card.

The catalogue figures of ``diff standard four-flush``, ``diff suits-bridge
standard`` and ``diff italian standard`` are computed here from their hand
classes in plain ways of their own: suit assignments enumerated per rank
pattern, bit masks of the hands a group needs, and an inclusion-exclusion over
the cards two hands share.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import combinations, product
from math import comb
from typing import Any

import numpy as np
import pytest
from meeting import SharedCards, every_hand, meeting, same_ranks_pairs, standard_classes

from evaluator import load
from evaluator.ruleset import Ruleset
from evaluator.tools.diff import common_deck
from evaluator.tools.flip_types import FlipCensus, flip_label
from evaluator.tools.flips import census
from evaluator.tools.flips_sampled import flip_cause

pytestmark = pytest.mark.usefixtures("table_cache")

GroupKey = tuple[str, str, str, int, int]  # cause, first label, second label, outcome under A, under B

SMALL = "deck: {ranks: [9, T, J, Q, K, A], suits: [s, h, d]}"
SMALL_FOUR_SUITS = "deck: {ranks: [9, T, J, Q, K, A], suits: [s, h, d, c]}"
RULESETS = {
    "small": f"extends: standard\n{SMALL}\n",
    "small-bridge": "extends: small.yaml\nsuits: {order: [s, h, d], tiebreak: highest_card}\n",
    "small-paired": "extends: small.yaml\nsuits: {order: [d, h, s], tiebreak: highest_paired}\n",
    "small-four-flush": f"extends: four-flush\n{SMALL}\n",
    # bobtails and a four flush (suits within the hand), and a category that names a suit
    "small-freak": """extends: small.yaml
categories:
  big_bobtail: {pattern: "run(4, flush)", describe: "{top}-high big bobtail"}
  little_bobtail: {pattern: "run(3, flush)", describe: "{top}-high little bobtail"}
  four_flush: {pattern: "flush(4)", describe: "four flush"}
  hearts: {pattern: "flush & suit = h", describe: "hearts"}
order: [royal_flush, hearts, straight_flush, four_of_a_kind, big_bobtail, full_house, flush, straight,
        three_of_a_kind, little_bobtail, two_pair, four_flush, pair, high_card]
""",
    "small-beats": "extends: small-bridge.yaml\nbeats:\n  - {winner: straight, loser: full_house}\n",
    "small-27": f"extends: deuce-to-seven\n{SMALL}\n",
    "small-a5": f"extends: ace-to-five\n{SMALL}\n",
    "small-a5-queen": 'extends: small-a5.yaml\nqualifier: "XX Y Z W & all <= Q"\n',
    "small-a5-suits": "extends: small-a5-queen.yaml\nsuits: {order: [s, h, d], tiebreak: highest_unpaired}\n",
    "small3": f"extends: three-card-poker\n{SMALL_FOUR_SUITS}\n",
    "small3-two-flush": """extends: small3.yaml
categories:
  two_flush: {pattern: "flush(2) & X Y Z", describe: "two flush"}
order: [straight_flush, three_of_a_kind, straight, flush, pair, two_flush, high_card]
""",
    "small3-clubs": "extends: small3.yaml\nsuits: {order: [c, d, h, s], tiebreak: highest_card}\n",
}


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Ruleset]:
    folder = tmp_path_factory.mktemp("small-rulesets")
    for name, text in RULESETS.items():
        (folder / f"{name}.yaml").write_text(f"name: {name}\n{text}", encoding="utf-8")
    return {name: load(folder / f"{name}.yaml") for name in RULESETS}


def census_groups(result: FlipCensus) -> Counter[GroupKey]:
    return Counter({(g.cause, g.first, g.second, g.outcome_a, g.outcome_b): g.pairs for g in result.groups})


def assert_examples_meet_and_verify(a: Ruleset, b: Ruleset, result: FlipCensus) -> None:
    for group in result.groups:
        assert group.example is not None, group
        first, second = group.example
        assert not set(first.cards) & set(second.cards), (first.cards, second.cards)
        text_first, text_second = " ".join(first.cards), " ".join(second.cards)
        assert a.compare(text_first, text_second) == group.outcome_a
        assert b.compare(text_first, text_second) == group.outcome_b


def brute_force(a: Ruleset, b: Ruleset) -> tuple[int, Counter[GroupKey]]:
    """Every unordered pair of hands of the common deck that share no card: (pairs, flips by group)."""
    deck = common_deck(a, b)
    hands = list(combinations(deck, a.hand_size))
    ha = [a.evaluate(list(h)) for h in hands]
    hb = [b.evaluate(list(h)) for h in hands]
    masks = np.array([sum(1 << deck.index(card) for card in h) for h in hands], dtype=np.int64)
    level_a, level_b = _levels(ha), _levels(hb)
    found: Counter[GroupKey] = Counter()
    causes: dict[Any, str] = {}
    pairs = 0
    for i in range(len(hands)):
        j = np.arange(i + 1, len(hands))
        j = j[(masks[j] & masks[i]) == 0]
        pairs += len(j)
        if a.beats or b.beats:
            va = np.array([a.compare(ha[i], ha[k]) for k in j.tolist()], dtype=np.int64)
            vb = np.array([b.compare(hb[i], hb[k]) for k in j.tolist()], dtype=np.int64)
        else:  # compare's rule: two hands that do not qualify tie, else the strengths decide
            va = np.where((level_a[i] < 0) & (level_a[j] < 0), 0, np.sign(level_a[i] - level_a[j]))
            vb = np.where((level_b[i] < 0) & (level_b[j] < 0), 0, np.sign(level_b[i] - level_b[j]))
        changed = va != vb
        for k, x, y in zip(j[changed].tolist(), va[changed].tolist(), vb[changed].tolist(), strict=True):
            first, second, oa, ob = (i, k, x, y) if x > y else (k, i, -x, -y)
            fa, fb, sa, sb = ha[first], hb[first], ha[second], hb[second]
            key = (
                fa.category,
                fb.category,
                sa.category,
                sb.category,
                fa.qualifies,
                fb.qualifies,
                sa.qualifies,
                sb.qualifies,
                fa.strength[:3] == sa.strength[:3],
                fb.strength[:3] == sb.strength[:3],
                _has_ace(hands[first]) or _has_ace(hands[second]),
                bool(a.beats or b.beats) and (first, second),
            )
            if key not in causes:  # flip_cause reads only these
                causes[key] = flip_cause(a, b, (fa, fb), (sa, sb), (hands[first], hands[second]))
            found[
                (causes[key], flip_label(fa.category, fb.category), flip_label(sa.category, sb.category), oa, ob)
            ] += 1
    return pairs, found


def _levels(hands: list[Any]) -> np.ndarray:
    order = {strength: n for n, strength in enumerate(sorted({h.strength for h in hands}))}
    return np.array([order[h.strength] if h.qualifies else -1 for h in hands], dtype=np.int64)


def _has_ace(cards: Iterable[Any]) -> bool:
    return any(card.rank == "A" for card in cards)


BRUTE = [
    ("small", "small-four-flush"),
    ("small", "small-freak"),
    ("small-bridge", "small"),
    ("small-paired", "small-bridge"),
    ("small-freak", "small-bridge"),
    ("small-beats", "small-freak"),
    ("small-27", "small-a5"),
    ("small-a5-queen", "small-27"),
    ("small3-clubs", "small3-two-flush"),
]
FAST = {("small", "small-four-flush"), ("small-bridge", "small"), ("small3-clubs", "small3-two-flush")}


@pytest.mark.parametrize(
    ("a_name", "b_name"),
    [p if p in FAST else pytest.param(*p, marks=[pytest.mark.slow, pytest.mark.exhaustive]) for p in BRUTE],
)
def test_the_exact_census_is_every_pair_of_hands_that_can_meet(
    small: dict[str, Ruleset], a_name: str, b_name: str
) -> None:
    a, b = small[a_name], small[b_name]
    result = census(a, b, common_deck(a, b))
    assert result.method == "exact", result.reason
    pairs, expected = brute_force(a, b)
    assert result.population == pairs
    assert census_groups(result) == expected
    assert_examples_meet_and_verify(a, b, result)


def test_what_cannot_be_counted_exactly_is_sampled_with_intervals(small: dict[str, Ruleset]) -> None:
    # a suit tie-break that also orders hands that do not qualify: suits would decide between ranks
    a, b = small["small-a5-suits"], small["small-27"]
    result = census(a, b, common_deck(a, b), samples=2000, seed=3)
    assert result.method == "sampled" and result.reason.startswith("not counted exactly:")
    assert result.groups and all(g.low is not None and g.low <= g.pairs <= g.high for g in result.groups)
    # wild cards in the deck both rulesets hold
    a, b = load("standard"), load("deuces-wild")
    result = census(a, b, common_deck(a, b), samples=1500, seed=11)
    assert result.method == "sampled" and "wild" in result.reason
    assert_examples_meet_and_verify(a, b, result)


@pytest.mark.parametrize(
    ("a_name", "b_name", "suit_ties"),
    [
        ("small", "small-bridge", True),
        ("small-paired", "small", True),
        ("small3", "small3-clubs", True),
        ("small-a5-suits", "small-27", False),  # a qualifier: the pairs with a hand that does not go by hand
    ],
)
def test_a_sampled_census_names_suit_tie_breaks_on_the_tables_as_by_hand(
    small: dict[str, Ruleset], a_name: str, b_name: str, suit_ties: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a small deck many sampled pairs tie before suits: the tables and the generic engine group
    them alike (suit tie-breaks, and hands that do not qualify)."""
    from evaluator.tools import flips_sampled

    a, b = small[a_name], small[b_name]
    on_tables = flips_sampled.sampled_census(a, b, common_deck(a, b), a.hand_size, 1500, 4)
    monkeypatch.setattr(flips_sampled, "batch_outcomes", lambda *args: None)
    by_hand = flips_sampled.sampled_census(a, b, common_deck(a, b), a.hand_size, 1500, 4)
    assert on_tables == by_hand and on_tables.groups
    assert any(group.cause == "suit_tiebreak" for group in on_tables.groups) == suit_ties


# --- standard against suits-bridge: suits decide equal hands on one side only ---------------------------


def test_suits_bridge_against_standard_counts_every_pair_a_suit_decides() -> None:
    a, b = load("suits-bridge"), load("standard")
    result = census(a, b, common_deck(a, b))
    assert result.method == "exact"
    # classes of standard: a rank pattern, its number of rank sets and whether it is one-suited
    straights, runs = 10, {(4, 3, 2, 1, 0)} | {tuple(range(top, top - 5, -1)) for top in range(5, 13)}
    assert len(runs) == straights - 1
    rank_sets = comb(13, 5)
    expected = {
        "high_card": (rank_sets - straights) * same_ranks_pairs((1,) * 5, 4, False),
        "flush": (rank_sets - straights) * same_ranks_pairs((1,) * 5, 4, True),
        "straight": straights * same_ranks_pairs((1,) * 5, 4, False),
        "straight_flush": (straights - 1) * same_ranks_pairs((1,) * 5, 4, True),
        "royal_flush": same_ranks_pairs((1,) * 5, 4, True),
        "pair": 13 * comb(12, 3) * same_ranks_pairs((2, 1, 1, 1), 4, False),
        "two_pair": comb(13, 2) * 11 * same_ranks_pairs((2, 2, 1), 4, False),
        "three_of_a_kind": 13 * comb(12, 2) * same_ranks_pairs((3, 1, 1), 4, False),  # never apart: 0
        "full_house": 13 * 12 * same_ranks_pairs((3, 2), 4, False),
        "four_of_a_kind": 13 * 12 * same_ranks_pairs((4, 1), 4, False),
    }
    expected_groups = Counter({("suit_tiebreak", c, c, 1, 0): n for c, n in expected.items() if n})
    assert census_groups(result) == expected_groups
    assert result.population == comb(52, 5) * comb(47, 5) // 2
    assert_examples_meet_and_verify(a, b, result)


# --- standard against four-flush: every flip holds a four flush ------------------------------------------


# the whole 52-card deck: --slow (CI counts the same census on a small deck, test_the_exact_census_...)
@pytest.mark.exhaustive
def test_standard_against_four_flush_counts_every_four_flush_pair() -> None:
    a, b = load("standard"), load("four-flush")
    result = census(a, b, common_deck(a, b))
    assert result.method == "exact"
    hands = every_hand()
    found = standard_classes(hands)
    four_flushes, high, value = hands[found["four_flush"]], hands[found["high_card"]], found["value"]
    assert len(four_flushes) == 1277 * 60
    # a pair beats a four flush in standard and loses to it in four-flush
    pairs = SharedCards()
    pairs.add(hands[found["pair"]])
    against_pairs = pairs.apart(four_flushes)
    # a plain no-pair hand above a four flush: sweep the four flushes up, taking lower hands away
    high_value, flush_value = value[found["high_card"]], value[found["four_flush"]]
    high_masks = (np.int64(1) << high).sum(axis=1)
    above = SharedCards()
    above.add(high)
    by_value = np.argsort(high_value, kind="stable")
    taken = reversed_pairs = equal = 0
    for ranks in np.unique(flush_value):
        group = four_flushes[flush_value == ranks]
        stop = int(np.searchsorted(high_value[by_value], ranks, side="right"))
        above.add(high[by_value[taken:stop]], -1)  # what is left is above this four flush
        taken = stop
        reversed_pairs += above.apart(group)
        group_masks, same = (np.int64(1) << group).sum(axis=1), high_masks[high_value == ranks]
        equal += int(((group_masks[:, None] & same[None, :]) == 0).sum())
    assert census_groups(result) == Counter(
        {
            ("category_membership", "pair", "high_card / four_flush", 1, -1): against_pairs,
            ("category_membership", "high_card", "high_card / four_flush", 1, -1): reversed_pairs,
            ("category_membership", "high_card", "high_card / four_flush", 0, -1): equal,
        }
    )
    assert_examples_meet_and_verify(a, b, result)


# --- italian against standard (40 cards) --------------------------------------------------------------


FORTY = "56789TJQKA"


def hands_of(ranks: Iterable[str], bit: dict[str, int], suited: bool | None = None) -> list[int]:
    """Bit masks of every hand of the rank multiset ``ranks`` (one-suited only, not, or either)."""
    held = Counter(ranks)
    found = []
    for choice in product(*(combinations("shdc", n) for n in held.values())):
        suits = {s for group in choice for s in group}
        if suited is None or (len(suits) == 1) == suited:
            found.append(sum(bit[r + s] for r, group in zip(held, choice, strict=True) for s in group))
    return found


def rank_sets(pattern: tuple[int, ...]) -> list[tuple[str, ...]]:
    """Rank multisets of the 40-card deck with ``pattern`` cards per rank (most first)."""
    found = []
    for ranks in product(FORTY, repeat=len(pattern)):
        if len(set(ranks)) == len(ranks) and all(
            ranks[i] > ranks[i + 1] for i in range(len(ranks) - 1) if pattern[i] == pattern[i + 1]
        ):
            found.append(tuple(r for r, n in zip(ranks, pattern, strict=True) for _ in range(n)))
    return found


def test_italian_against_standard_groups_from_their_hands() -> None:
    a, b = load("italian"), load("standard")
    result = census(a, b, common_deck(a, b))
    assert result.method == "exact"
    groups = census_groups(result)
    deck = [str(card) for card in common_deck(a, b)]
    bit = {card: 1 << i for i, card in enumerate(deck)}

    def mask(cards: Iterable[str]) -> int:
        return sum(bit[c] for c in cards)

    # the straight flush cycle: every pair of straight flushes that can meet, judged by both compares
    flushes = [h for h in combinations(deck, 5) if len({c[1] for c in h}) == 1]
    straight_flushes = [h for h in flushes if a.evaluate(" ".join(h)).category.endswith("straight_flush")]
    beats = Counter()
    for x, y in combinations(straight_flushes, 2):
        if mask(x) & mask(y):
            continue
        va, vb = a.compare(" ".join(x), " ".join(y)), b.compare(" ".join(x), " ".join(y))
        if va * vb == -1:
            first, second = (x, y) if va == 1 else (y, x)
            beats[(a.evaluate(" ".join(first)).category, a.evaluate(" ".join(second)).category)] += 1
    assert beats == Counter({("minimum_straight_flush", "maximum_straight_flush"): 12})
    assert groups[("beats", "minimum_straight_flush / flush", "maximum_straight_flush / royal_flush", 1, -1)] == 12
    # a flush over a full house: every flush that is no straight flush against every full house that can meet it
    runs = [tuple(FORTY[i : i + 5]) for i in range(6)] + [("A", "5", "6", "7", "8")]
    plain_sets = [s for s in rank_sets((1,) * 5) if set(s) not in [set(r) for r in runs]]
    plain_flushes = [m for s in plain_sets for m in hands_of(s, bit, suited=True)]
    houses = [m for s in rank_sets((3, 2)) for m in hands_of(s, bit)]
    assert len(plain_flushes) == 4 * (comb(10, 5) - 7) and len(houses) == 10 * 4 * 9 * 6
    assert groups[("category_order", "flush", "full_house", 1, -1)] == meeting(plain_flushes, houses)
    # the suit tie-break of italian, where standard ties: hands of one rank pattern, as for suits-bridge
    unsuited, suited = same_ranks_pairs((1,) * 5, 4, False), same_ranks_pairs((1,) * 5, 4, True)
    assert groups[("suit_tiebreak", "high_card", "high_card", 1, 0)] == len(plain_sets) * unsuited
    assert groups[("suit_tiebreak", "flush", "flush", 1, 0)] == len(plain_sets) * suited
    assert groups[("suit_tiebreak", "straight", "straight", 1, 0)] == (len(runs) - 1) * unsuited
    assert groups[("suit_tiebreak", "pair", "pair", 1, 0)] == 10 * comb(9, 3) * same_ranks_pairs((2, 1, 1, 1), 4, False)
    assert groups[("suit_tiebreak", "two_pair", "two_pair", 1, 0)] == 45 * 8 * same_ranks_pairs((2, 2, 1), 4, False)
    assert groups[("category_membership", "straight / high_card", "straight / high_card", 1, 0)] == unsuited
    # A-5-6-7-8 unsuited: a straight in italian, ace high in standard, against what standard ranks above it
    low_run = hands_of(("A", "8", "7", "6", "5"), bit, suited=False)
    order = {r: i for i, r in enumerate(FORTY)}
    high_first = sorted((order[r] for r in "A8765"), reverse=True)
    above = [s for s in plain_sets if sorted((order[r] for r in s), reverse=True) > high_first]
    for category, pattern, beaten in [
        ("pair", (2, 1, 1, 1), None),
        ("two_pair", (2, 2, 1), None),
        ("three_of_a_kind", (3, 1, 1), None),
        ("high_card", (1,) * 5, above),
    ]:
        targets = [m for s in (beaten if beaten is not None else rank_sets(pattern)) for m in hands_of(s, bit, False)]
        expected = meeting(low_run, targets)
        assert groups[("category_membership", "straight / high_card", category, 1, -1)] == expected, category
    assert result.population == comb(40, 5) * comb(35, 5) // 2
    assert_examples_meet_and_verify(a, b, result)


# --- examples never share a card, over the catalogue ----------------------------------------------------


@pytest.mark.parametrize(
    ("a_name", "b_name"),
    [
        ("standard", "short-deck"),
        ("deuce-to-seven", "ace-to-five"),
        ("ace-to-five", "ace-to-five-eight-or-better"),
        ("suits-bridge", "suits-german"),
        ("stripped-32", "standard"),
    ],
)
def test_every_example_is_two_hands_that_can_meet(a_name: str, b_name: str) -> None:
    a, b = load(a_name), load(b_name)
    result = census(a, b, common_deck(a, b))
    assert result.method == "exact"
    assert result.groups
    assert_examples_meet_and_verify(a, b, result)


def test_the_exact_share_of_flips_lies_in_the_sampled_showdown_interval() -> None:
    from evaluator.tools.showdown_share import showdown_share

    for a_name, b_name in [("standard", "short-deck"), ("deuce-to-seven", "ace-to-five")]:
        a, b = load(a_name), load(b_name)
        result = census(a, b, common_deck(a, b))
        share = showdown_share(a, b, 5, 20_000, 2026)
        assert share.low is not None and share.high is not None
        assert share.low <= result.total() / result.population <= share.high


@pytest.mark.parametrize(
    ("a_name", "b_name"), [("small", "small-four-flush"), ("small-a5-queen", "small-27"), ("small-bridge", "small")]
)
def test_the_census_parts_add_up_to_every_hand_by_category(small: dict[str, Ruleset], a_name: str, b_name: str) -> None:
    from evaluator.tools.diff_parts import part_category_counts
    from evaluator.tools.flips import flip_census

    a, b = small[a_name], small[b_name]
    _, parts = flip_census(a, b, common_deck(a, b))
    assert parts is not None
    for ruleset in (a, b):
        every = Counter(ruleset.evaluate(list(hand)).category for hand in combinations(ruleset.deck, 5))
        expected = {name: every[name] for name in ruleset.category_names}
        assert part_category_counts(parts, ruleset, 5) == expected
        assert part_category_counts(parts, ruleset, 6) is None  # other deals than the census's hands


def test_the_census_parts_are_not_counts_of_a_deck_larger_than_the_common_one(small: dict[str, Ruleset]) -> None:
    from evaluator.tools.diff_parts import part_category_counts
    from evaluator.tools.flips import flip_census

    a, b = load("standard"), small["small"]
    _, parts = flip_census(a, b, common_deck(a, b))
    assert parts is not None
    assert part_category_counts(parts, a, 5) is None
    assert part_category_counts(parts, b, 5) is not None


@pytest.mark.parametrize(("a_name", "b_name"), sorted(FAST))
def test_the_census_is_the_same_in_small_blocks_slices_and_rounds(
    small: dict[str, Ruleset], a_name: str, b_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the sizes that keep big decks' memory down never bite on a small deck: made small here, so
    # that blocks read free hands across their bounds, multisets are filed slice by slice and
    # parts are found mostly by sorting, rows are judged against a few columns and exceptional pairs
    # added a few at a time
    from evaluator.tools import flips_exact, flips_hands, flips_meet, flips_overlap, flips_within

    a, b = small[a_name], small[b_name]
    expected = census_groups(census(a, b, common_deck(a, b)))
    monkeypatch.setattr(flips_exact, "ROWS_PER_BLOCK", 7)
    monkeypatch.setattr(flips_within, "HANDS_PER_SLICE", 37)
    monkeypatch.setattr(flips_hands, "REFERENCE_ROUNDS", 1)
    monkeypatch.setattr(flips_hands, "RENUMBER_SLICE", 13)
    monkeypatch.setattr(flips_exact, "COLUMNS_PER_JUDGING", 5)
    monkeypatch.setattr(flips_overlap, "TERMS_PER_STEP", 11)
    monkeypatch.setattr(flips_meet, "SUITED_KEYS_PER_SLICE", 3)
    result = census(a, b, common_deck(a, b))
    assert result.method == "exact"
    assert census_groups(result) == expected
    assert_examples_meet_and_verify(a, b, result)


def test_groups_kept_in_32_bits_are_widened_before_they_are_multiplied() -> None:
    # the hand space keeps rank multisets in 32 bits; a key of group times value span passes 2**31
    # only on big decks with large values, which the small-deck censuses never reach
    from evaluator.tools.flips_within import _disagreeing, _local_dense

    rng = np.random.default_rng(7)
    group = rng.integers(60_000, 60_400, 3_000).astype(np.int32)
    values = rng.integers(0, 2**31 - 1, 3_000)
    values[::3] = values[1::3][: len(values[::3])]  # ties
    dense = _local_dense(np.sort(group), values[np.argsort(group, kind="stable")])
    by_group: dict[int, list[int]] = {}
    for g, v in zip(np.sort(group).tolist(), values[np.argsort(group, kind="stable")].tolist(), strict=True):
        by_group.setdefault(g, []).append(v)
    expected = [sorted(set(members)).index(v) for members in by_group.values() for v in members]
    assert dense.tolist() == expected
    level_b = np.where(rng.random(3_000) < 0.02, values // 2, values)  # a few members reordered
    found = _disagreeing(group, values, level_b, 60_400)
    for g in by_group:
        idx = np.flatnonzero(group == g)
        a_side, b_side = values[idx], level_b[idx]
        wrong = any(
            np.sign(a_side[i] - a_side[j]) != np.sign(b_side[i] - b_side[j])
            for i in range(len(idx))
            for j in range(len(idx))
        )
        assert found[g] == wrong, g
    assert found.any() and not found.all()


def test_slices_of_whole_multisets_cover_every_hand_once() -> None:
    from evaluator.tools.flips_within import _whole_multisets

    multiset = np.array([0, 0, 0, 1, 2, 2, 2, 2, 2, 3, 4, 4])
    pieces = _whole_multisets(multiset, 4)
    assert [(p.start, p.stop) for p in pieces] == [(0, 4), (4, 9), (9, 12)]
    assert [(p.start, p.stop) for p in _whole_multisets(multiset, 100)] == [(0, 12)]
    assert [(p.start, p.stop) for p in _whole_multisets(multiset, 1)] == [(0, 3), (3, 4), (4, 9), (9, 10), (10, 12)]
