"""Exact counting (``evaluator.compiled.counting``) against independent data.

Every expected number comes from outside the code under test:

- the published tables under ``tests/data/tables`` (OEIS, Scarne, Alspach,
  treys, ...), read from their CSV files;
- numbers quoted in the issues (issue 7: short deck; issue 3: the bug; the
  brief of this work: stripped-32), quoted next to each test;
- brute force: every deal of a small deck dealt with ``itertools.combinations``
  and evaluated one by one with ``ruleset.engine.evaluate``. The small decks
  exercise what the class enumeration has to get right: jokers, wild ranks,
  wild cards (one-eyed jacks), lowest card wild, the bug, two packs, a suit
  named in a pattern, dead jokers, qualifiers, low games, best of 6 and 7.
"""

from __future__ import annotations

import csv
import itertools
import random
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest
from refdata import missing_data_reason, reference_data_dir
from samples import BUG_COUNTS

import evaluator
from evaluator.compiled.counting import MAX_COUNTED_CARDS, category_counts, count, deal_count, distinct_values
from evaluator.compiled.deck_split import _one_relevant_suit, _relevant_suits, deck_model, rank_multisets
from evaluator.core.errors import PokerRulesError
from evaluator.core.resources import catalogue_path
from evaluator.rules.build import load_rules
from evaluator.ruleset import Ruleset

# --- reference tables ---------------------------------------------------------------------

#: Category names of the reference CSVs -> the catalogue's category names. The
#: CSVs name merged or "excluding" categories; our rulesets keep royal flush and
#: straight flush apart, so "straight_flush_excl_royal" is our straight_flush and
#: "flush_excl_straight_flush" our flush.
CSV_CATEGORY = {
    "five_of_a_kind": "five_of_a_kind",
    "royal_flush": "royal_flush",
    "straight_flush_excl_royal": "straight_flush",
    "four_of_a_kind": "four_of_a_kind",
    "full_house": "full_house",
    "flush_excl_straight_flush": "flush",
    "flush": "flush",
    "straight_excl_straight_flush": "straight",
    "straight": "straight",
    "three_of_a_kind": "three_of_a_kind",
    "two_pair": "two_pair",
    "one_pair": "pair",
    "high_card": "high_card",
    "no_pair": "high_card",
}


def load(name: str) -> Any:
    """A catalogue ruleset."""
    return evaluator.load(name)


def need_catalogue(name: str) -> Any:
    """A catalogue ruleset, skipping the test when the catalogue does not hold it yet."""
    if catalogue_path(name) is None:
        pytest.skip(f"catalogue ruleset {name!r} does not exist (yet): rulesets/{name}.yaml is missing")
    return load(name)


def reference_table(folder: Path, filename: str) -> tuple[dict[str, int], dict[str, int] | None, int, int | None]:
    """(counts, distinct values or None, total, total distinct or None) of a reference CSV, in our names."""
    counts: dict[str, int] = {}
    distinct: dict[str, int] | None = None
    total = total_distinct = None
    with (folder / "tables" / filename).open(encoding="utf-8") as stream:
        for row in csv.DictReader(stream):
            values = row.get("distinct_hand_values")
            if row["category"] == "total":
                total = int(row["count"])
                total_distinct = int(values) if values else None
                continue
            name = CSV_CATEGORY[row["category"]]
            counts[name] = counts.get(name, 0) + int(row["count"])
            if values:
                distinct = distinct if distinct is not None else {}
                distinct[name] = distinct.get(name, 0) + int(values)
    assert total is not None, f"{filename} has no total row"
    return counts, distinct, total, total_distinct


def expected_for(ruleset: Any, table: dict[str, int]) -> dict[str, int]:
    """The reference counts over every category of ``ruleset`` (absent ones are 0)."""
    missing = set(table) - set(ruleset.category_names)
    assert not missing, f"{ruleset.name} has no category for {sorted(missing)}"
    return {name: table.get(name, 0) for name in ruleset.category_names}


@pytest.fixture(scope="module")
def tables() -> Path:
    """The reference-data folder (skips when absent)."""
    found = reference_data_dir()
    if found is None:
        pytest.skip(missing_data_reason())
    return found


# --- standard poker: 5, 6 and 7 cards ----------------------------------------------------------


def test_standard_five_cards_equal_the_published_table(tables: Path) -> None:
    counts, distinct, total, total_distinct = reference_table(tables, "standard_5card_52deck.csv")
    rs = load("standard")
    assert category_counts(rs) == expected_for(rs, counts)
    assert deal_count(rs, 5) == total == 2_598_960
    assert distinct is not None and distinct_values(rs) == expected_for(rs, distinct)
    assert sum(distinct_values(rs).values()) == total_distinct == 7462


def test_standard_six_cards_equal_the_published_table(tables: Path) -> None:
    counts, _, total, _ = reference_table(tables, "standard_6card_52deck.csv")
    rs = load("standard")
    assert category_counts(rs, 6) == expected_for(rs, counts)
    assert deal_count(rs, 6) == total


def test_standard_seven_cards_equal_the_published_table(tables: Path) -> None:
    counts, distinct, total, total_distinct = reference_table(tables, "standard_7card_52deck.csv")
    rs = load("standard")
    assert category_counts(rs, 7) == expected_for(rs, counts)
    assert deal_count(rs, 7) == total == 133_784_560
    assert distinct is not None and distinct_values(rs, 7) == expected_for(rs, distinct)
    assert sum(distinct_values(rs, 7).values()) == total_distinct == 4824


def test_a_qualifier_never_changes_the_category_of_the_best_hand(tables: Path) -> None:
    # jacks-or-better is standard plus a qualifier: dealt 6 cards, the best five
    # are the best five of standard, qualifying or not.
    counts, _, _, _ = reference_table(tables, "standard_6card_52deck.csv")
    rs = load("jacks-or-better")
    assert category_counts(rs, 6) == expected_for(rs, counts)


def test_distinct_classes_of_the_low_games(tables: Path) -> None:
    published: dict[str, int] = {}
    with (tables / "tables" / "distinct_hand_classes.csv").open(encoding="utf-8") as stream:
        for row in csv.DictReader(stream):
            published[row["game"]] = int(row["distinct_classes"])
    games = {
        "ace-to-five low (no straights/flushes)": "ace-to-five",
        "deuce-to-seven low": "deuce-to-seven",
        "ace-to-six low": "ace-to-six",
        "high (standard)": "standard",
    }
    for game, name in games.items():
        assert sum(distinct_values(load(name)).values()) == published[game], name


# --- stripped decks: numbers quoted in the issues ------------------------------------------------


def test_short_deck_as_quoted_in_issue_7() -> None:
    # issue 7: "24 straight flushes, 288 four of a kind, 1,728 full houses, 480
    # flushes, 6,120 straights, 16,128 three of a kind, 36,288 two pair, 193,536
    # pair, 122,400 high card"; 1,404 distinct values among 376,992 hands.
    counts = category_counts(load("short-deck"))
    assert counts["royal_flush"] + counts["straight_flush"] == 24
    assert {name: n for name, n in counts.items() if name not in ("royal_flush", "straight_flush")} == {
        "four_of_a_kind": 288,
        "flush": 480,
        "full_house": 1728,
        "straight": 6120,
        "three_of_a_kind": 16128,
        "two_pair": 36288,
        "pair": 193536,
        "high_card": 122400,
    }
    assert sum(counts.values()) == deal_count(load("short-deck"), 5) == 376_992
    assert sum(distinct_values(load("short-deck")).values()) == 1404


def test_stripped_32_as_quoted() -> None:
    # 20 straight flushes, 204 flushes, 5,100 straights, 840 distinct values.
    rs = load("stripped-32")
    counts = category_counts(rs)
    assert counts["royal_flush"] + counts["straight_flush"] == 20
    assert counts["flush"] == 204
    assert counts["straight"] == 5100
    assert sum(distinct_values(rs).values()) == 840


# --- wild cards: published tables and issue 3 --------------------------------------------------

WILD_TABLES = [
    ("joker-wild", "joker_wild_5card_53deck_A053080.csv"),
    ("two-jokers-wild", "two_jokers_wild_5card_54deck_A053083.csv"),
    ("deuces-wild", "deuces_wild_5card_52deck_A053085.csv"),
]


@pytest.mark.parametrize(("name", "filename"), WILD_TABLES, ids=[name for name, _ in WILD_TABLES])
def test_wild_card_tables(tables: Path, name: str, filename: str) -> None:
    rs = need_catalogue(name)
    counts, _, total, _ = reference_table(tables, filename)
    assert category_counts(rs) == expected_for(rs, counts)
    assert deal_count(rs, 5) == total


def test_joker_wild_distinct_values_as_quoted_in_issue_3() -> None:
    # issue 3: "Joker wild distinct hand values: 7,475" (7,462 + 13 five of a kind)
    assert sum(distinct_values(need_catalogue("joker-wild")).values()) == 7475


def test_the_bug_as_quoted_in_issue_3() -> None:
    # issue 3: "Bug, 53 cards: five aces 1, straight flushes 204, four of a kind
    # 828, full house 4,368, flush 7,804, straight 20,532, three of a kind 63,360,
    # two pair 138,600, pair 1,215,024, no pair 1,418,964."
    counts = category_counts(need_catalogue("bug"))
    merged = {name: n for name, n in counts.items() if name != "royal_flush"}
    merged["straight_flush"] += counts["royal_flush"]
    assert merged == BUG_COUNTS


# --- brute force over small decks ------------------------------------------------------------------

#: Small rulesets (YAML) that exercise one counting concern each. Decks stay
#: small enough that dealing every hand takes a few seconds at most.
WILD_ORDER = (
    "order: [five_of_a_kind, royal_flush, straight_flush, four_of_a_kind, full_house, flush,\n"
    "        straight, three_of_a_kind, two_pair, pair, high_card]\n"
)
SMALL = {
    "plain-21": "extends: standard\ndeck: {ranks: [8, 9, T, J, Q, K, A], suits: [s, h, d]}\n",
    "joker-22": "extends: standard\ndeck: {ranks: [8, 9, T, J, Q, K, A], suits: [s, h, d], jokers: 1}\nwild: {jokers: true}\n"
    + WILD_ORDER,
    "two-jokers-20": "extends: standard\ndeck: {ranks: [9, T, J, Q, K, A], suits: [s, h, d], jokers: 2}\nwild: {jokers: true}\n"
    + WILD_ORDER,
    "nines-wild-18": "extends: standard\ndeck: {ranks: [9, T, J, Q, K, A], suits: [s, h, d]}\nwild: {ranks: [9]}\n"
    + WILD_ORDER,
    "one-eyed-21": "extends: standard\ndeck: {ranks: [8, 9, T, J, Q, K, A], suits: [s, h, d]}\nwild: {cards: [Js, Jh]}\n"
    + WILD_ORDER,
    "lowest-21": "extends: standard\ndeck: {ranks: [8, 9, T, J, Q, K, A], suits: [s, h, d]}\nwild: {lowest_rank: true}\n"
    + WILD_ORDER,
    "bug-19": (
        "extends: standard\ndeck: {ranks: [9, T, J, Q, K, A], suits: [s, h, d], jokers: 1}\n"
        'wild: {jokers: true, plays_as: {ranks: [A], hands: "run | flush"}}\n' + WILD_ORDER
    ),
    "double-ace-19": (
        "extends: standard\ndeck: {ranks: [9, T, J, Q, K, A], suits: [s, h, d], jokers: 1}\n"
        "wild: {jokers: true, duplicates: true}\n" + WILD_ORDER
    ),
    "natural-wins-18": (
        "extends: standard\ndeck: {ranks: [9, T, J, Q, K, A], suits: [s, h, d]}\nwild: {ranks: [9]}\n"
        "natural_beats_wild: true\n" + WILD_ORDER
    ),
    "two-packs-20": "extends: standard\ndeck: {ranks: [T, J, Q, K, A], suits: [s, h], copies: 2}\n" + WILD_ORDER,
    "hearts-21": (
        "extends: standard\ndeck: {ranks: [8, 9, T, J, Q, K, A], suits: [s, h, d]}\n"
        "categories:\n"
        '  imperial_flush: {pattern: "run & flush & top = A & suit = h"}\n'
        '  heart_flush: {pattern: "flush & suit = h"}\n'
        "order: [imperial_flush, royal_flush, straight_flush, four_of_a_kind, full_house, heart_flush,\n"
        "        flush, straight, three_of_a_kind, two_pair, pair, high_card]\n"
    ),
    "dead-joker-19": "extends: standard\ndeck: {ranks: [9, T, J, Q, K, A], suits: [s, h, d], jokers: 1}\nwild: {jokers: false}\n",
    "qualifier-21": 'extends: standard\ndeck: {ranks: [8, 9, T, J, Q, K, A], suits: [s, h, d]}\nqualifier: "category > pair | (XX Y Z W & X >= Q)"\n',
    "incomplete-21": "extends: incomplete-hands\ndeck: {ranks: [8, 9, T, J, Q, K, A], suits: [s, h, d]}\n",
    "plain-14": "extends: standard\ndeck: {ranks: [8, 9, T, J, Q, K, A], suits: [s, h]}\n",
    "lowball-14": "extends: deuce-to-seven\ndeck: {ranks: [8, 9, T, J, Q, K, A], suits: [s, h]}\n",
    "ace-to-five-joker-15": "extends: ace-to-five\ndeck: {ranks: [9, T, J, Q, K, A], suits: [s, h], jokers: 1}\nwild: {jokers: true}\n",
    "joker-13": "extends: standard\ndeck: {ranks: [9, T, J, Q, K, A], suits: [s, h], jokers: 1}\nwild: {jokers: true}\n"
    + WILD_ORDER,
    "two-jokers-14": "extends: standard\ndeck: {ranks: [9, T, J, Q, K, A], suits: [s, h], jokers: 2}\nwild: {jokers: true}\n"
    + WILD_ORDER,
    "lowest-15": "extends: standard\ndeck: {ranks: [T, J, Q, K, A], suits: [s, h, d]}\nwild: {lowest_rank: true}\n"
    + WILD_ORDER,
    "lowest-joker-13": (
        "extends: standard\ndeck: {ranks: [9, T, J, Q, K, A], suits: [s, h], jokers: 1}\n"
        "wild: {jokers: true, lowest_rank: true}\n" + WILD_ORDER
    ),
    "two-packs-10": "extends: standard\ndeck: {ranks: [T, J, Q, K, A], suits: [s], copies: 2}\n" + WILD_ORDER,
    "nines-wild-12": "extends: standard\ndeck: {ranks: [9, T, J, Q, K, A], suits: [s, h]}\nwild: {ranks: [9]}\n"
    + WILD_ORDER,
    "dead-joker-13": "extends: standard\ndeck: {ranks: [9, T, J, Q, K, A], suits: [s, h], jokers: 1}\nwild: {jokers: false}\n",
    "hearts-12": (
        "extends: standard\ndeck: {ranks: [9, T, J, Q, K, A], suits: [s, h]}\n"
        "categories:\n"
        '  heart_flush: {pattern: "flush & suit = h"}\n'
        "order: [royal_flush, straight_flush, heart_flush, four_of_a_kind, full_house,\n"
        "        flush, straight, three_of_a_kind, two_pair, pair, high_card]\n"
    ),
}

#: (ruleset, cards): catalogue names or keys of SMALL.
BRUTE_FORCE = [
    ("twenty-card", 5),
    ("royal-holdem", 5),
    ("stripped-32", 5),
    ("twenty-card", 6),
    ("plain-21", 5),
    ("joker-22", 5),
    ("two-jokers-20", 5),
    ("nines-wild-18", 5),
    ("one-eyed-21", 5),
    ("lowest-21", 5),
    ("bug-19", 5),
    ("double-ace-19", 5),
    ("natural-wins-18", 5),
    ("two-packs-20", 5),
    ("hearts-21", 5),
    ("dead-joker-19", 5),
    ("dead-joker-13", 6),
    ("qualifier-21", 5),
    ("incomplete-21", 1),
    ("incomplete-21", 3),
    ("incomplete-21", 4),
    ("plain-14", 6),
    ("plain-14", 7),
    ("lowball-14", 7),
    ("ace-to-five-joker-15", 7),
    ("joker-13", 6),
    ("joker-13", 7),
    ("two-jokers-14", 7),
    ("lowest-15", 6),
    ("lowest-joker-13", 7),  # three wilds among seven: two relevant suits possible
    ("two-packs-10", 7),
    ("two-packs-20", 6),
    ("hearts-12", 7),
    ("nines-wild-12", 7),
]


def small_ruleset(name: str, folder: Path) -> Any:
    """A catalogue ruleset, or one of :data:`SMALL` written to ``folder``."""
    if name not in SMALL:
        return load(name)
    path = folder / f"{name}.yaml"
    path.write_text(f"name: {name}\n{SMALL[name]}", encoding="utf-8")
    if name.startswith("dead-joker"):
        # check and load refuse a joker that never plays (R114); counting must still say so
        with pytest.raises(PokerRulesError, match="R114"):
            evaluator.load(path)
        return load_rules(path, kind=Ruleset)
    return evaluator.load(path)


def brute_force(ruleset: Any, cards: int) -> tuple[dict[str, int], dict[str, int], int]:
    """(counts, distinct values, deals making no hand) by evaluating every deal."""
    engine = ruleset.engine
    physical = [card for card in ruleset.deck for _ in range(1 if card.is_joker else ruleset.copies)]
    counts: Counter[str] = Counter()
    values: defaultdict[str, set[object]] = defaultdict(set)
    unplayable = 0
    for deal in itertools.combinations(physical, cards):
        try:
            hand = engine.evaluate(list(deal))
        except PokerRulesError:
            unplayable += 1
            continue
        counts[hand.category] += 1
        values[hand.category].add((hand.value, hand.strength[2]))  # the value, and wilds where naturals win ties
    names = ruleset.category_names
    return {n: counts[n] for n in names}, {n: len(values[n]) for n in names}, unplayable


@pytest.mark.parametrize(("name", "cards"), BRUTE_FORCE, ids=[f"{name}-{cards}" for name, cards in BRUTE_FORCE])
def test_counting_equals_brute_force(name: str, cards: int, tmp_path: Path) -> None:
    rs = small_ruleset(name, tmp_path)
    counted = count(rs, cards)
    expected_counts, expected_distinct, expected_unplayable = brute_force(rs, cards)
    assert counted.counts == expected_counts
    assert counted.distinct == expected_distinct
    assert counted.unplayable == expected_unplayable
    assert counted.deals == sum(expected_counts.values()) + expected_unplayable


def test_a_joker_that_is_not_wild_never_plays(tmp_path: Path) -> None:
    # Five cards holding the dead joker make no hand: C(18, 4) of them.
    rs = small_ruleset("dead-joker-19", tmp_path)
    assert count(rs, 5).unplayable == 3060
    assert count(rs, 6).unplayable == 0  # with six cards the other five play


def test_twenty_card_distinct_values_by_hand() -> None:
    # Five ranks and no runs or flushes: four of a kind 5 x 4, full house 5 x 4,
    # three of a kind 5 x C(4,2), two pair C(5,2) x 3, pair 5 x C(4,3), and one
    # no-pair hand (A-K-Q-J-T): 20 + 20 + 30 + 30 + 20 + 1 = 121.
    assert distinct_values(load("twenty-card")) == {
        "four_of_a_kind": 20,
        "full_house": 20,
        "three_of_a_kind": 30,
        "two_pair": 30,
        "pair": 20,
        "high_card": 1,
    }


# --- the pieces --------------------------------------------------------------------------------------


def test_the_two_ways_of_splitting_suits_agree(tmp_path: Path) -> None:
    # The fast path (one relevant suit at most) against the general enumeration
    # with its dynamic programme, wherever both apply.
    rng = random.Random(7)
    for name in ("standard", "two-decks"):
        model = deck_model(load(name))
        pool = [rank for rank in range(len(model.ranks)) for _ in range(model.natural_cards(rank))]
        for cards, threshold in ((5, 5), (6, 4), (7, 5), (7, 4), (9, 5)):
            for _ in range(100):
                ranks = tuple(sorted(rng.sample(pool, cards), reverse=True))
                fast = sorted(_one_relevant_suit(ranks, model, threshold))
                general = sorted(_relevant_suits(ranks, model, threshold))
                assert fast == general, (name, ranks, threshold)
    one_eyed = small_ruleset("one-eyed-21", tmp_path)
    model = deck_model(one_eyed)
    assert model.wild_cards == 2 and model.natural[model.ranks.index("J")] == ("d",)
    assert len(model.groups) == 2  # spades and hearts lack a jack: not interchangeable with diamonds


def test_rank_multisets_of_five_cards(tables: Path) -> None:
    # Ace-to-five low ignores suits and runs, so its 6,175 published classes are
    # exactly the rank multisets of five cards with at most four of a rank.
    with (tables / "tables" / "distinct_hand_classes.csv").open(encoding="utf-8") as stream:
        published = {row["game"]: int(row["distinct_classes"]) for row in csv.DictReader(stream)}
    assert sum(1 for _ in rank_multisets([4] * 13, 5)) == published["ace-to-five low (no straights/flushes)"]


def test_deal_count_counts_physical_cards() -> None:
    # Two packs: 104 physical cards; As As is one deal (C(2, 2)), As Ah four.
    rs = load("two-decks")
    assert deal_count(rs, 2) == 104 * 103 // 2
    assert sum(category_counts(rs).values()) == deal_count(rs, 5)


def test_cards_out_of_range_are_refused() -> None:
    rs = load("standard")
    with pytest.raises(PokerRulesError) as too_many:
        count(rs, MAX_COUNTED_CARDS + 1)
    assert too_many.value.code == "C105"
    with pytest.raises(PokerRulesError) as too_few:
        count(rs, 4)
    assert too_few.value.code == "C104"


def test_counting_is_cached_per_ruleset_and_size() -> None:
    rs = load("short-deck")
    assert count(rs) is count(rs, 5)
    seen: list[float] = []
    count(rs, 5, seen.append)
    assert seen == [1.0]


def test_best_of_seven_with_a_qualifier_does_not_depend_on_card_order() -> None:
    rs = load("jacks-or-better")
    forward = rs.evaluate("Ts Th 9d 7c 5s 4h 2d")
    backward = rs.evaluate("2d 4h 5s 7c 9d Th Ts")
    assert forward.category == backward.category == "pair"


@pytest.mark.parametrize(
    "name", ["badugi", pytest.param("four-flush", marks=[pytest.mark.slow, pytest.mark.exhaustive])]
)
def test_every_deal_on_the_tables_counts_as_the_suit_class_walk(name: str) -> None:
    from evaluator.compiled.suitcount import count_every_hand, suited_fills

    ruleset = evaluator.load(name)
    on_tables = count_every_hand(ruleset, ruleset.hand_size)
    assert on_tables is not None
    counts: Counter[str] = Counter()
    distinct: dict[str, set[Any]] = defaultdict(set)
    for fill, weight in suited_fills(ruleset, ruleset.hand_size):
        assert fill is not None
        counts[fill.classification.category.name] += weight
        distinct[fill.classification.category.name].add(fill.classification.value)
    assert on_tables.counts == {name: counts[name] for name in ruleset.category_names}
    assert on_tables.distinct == {name: len(distinct[name]) for name in ruleset.category_names}
    assert on_tables.deals == sum(counts.values()) and on_tables.unplayable == 0
