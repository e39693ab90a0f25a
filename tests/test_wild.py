"""Wild cards: jokers, deuces, one-eyes, the bug, lowest card wild and the house rules.

The rule decisions (DESIGN.md, "Wild cards") each have a test here, every
example of the source texts is checked (in the catalogue files and again
below), exhaustive five-card counts are compared with the published tables,
and hypothesis checks properties no single example can: a wild card never
makes a high hand worse, the order of the cards never matters, and the
evaluator's fill equals a naive search over every concrete card a wild could
stand for.
"""

from __future__ import annotations

import csv
import io
import json
import random
from collections import Counter
from collections.abc import Sequence
from contextlib import redirect_stdout
from itertools import combinations_with_replacement
from math import comb, prod
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from samples import BUG_COUNTS

from evaluator import load
from evaluator.core.errors import CardError, PokerRulesError, RulesetError
from evaluator.core.resources import rulesets_dir
from evaluator.engine.hand import Hand
from evaluator.rules.cards import Card, parse_cards
from evaluator.ruleset import Ruleset
from evaluator.tools.examples import run_examples

WILD_CATALOGUE = [
    "joker-wild",
    "two-jokers-wild",
    "bug",
    "deuces-wild",
    "one-eyed-jacks",
    "one-eyes",
    "lowest-card-wild",
    "double-ace-flush",
    "natural-beats-wild",
    "ace-to-five-joker",
]
SCHEMA_LINE = "# yaml-language-server: $schema=../grammar/ruleset.schema.json"
PLAIN_DECK = tuple(Card(rank, suit) for rank in "23456789TJQKA" for suit in "shdc")
STRAIGHT_OR_FLUSH = {"royal_flush", "straight_flush", "flush", "straight"}


def ev(name: str, cards: str) -> Hand:
    """Evaluate ``cards`` under the catalogue ruleset ``name``."""
    return load(name).evaluate(cards)


def write(directory: Path, name: str, text: str) -> Path:
    """A ruleset file under ``directory``."""
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return path


def example_hands(ruleset: Ruleset) -> list[str]:
    """Every hand an example of ``ruleset`` mentions, normalised to card strings."""
    found = []
    for example in ruleset.examples:
        value = example.value
        texts = (
            [value["hand"]]
            if isinstance(value, dict)
            else value.split(" is ")[0].replace(">", "|").replace("<", "|").replace("=", "|").split("|")
        )
        for text in texts:
            found.append(" ".join(str(card) for card in parse_cards(text.strip())))
    return found


# --- the catalogue files --------------------------------------------------------------


@pytest.mark.parametrize("name", WILD_CATALOGUE)
def test_catalogue_file_is_complete_and_its_examples_pass(name: str) -> None:
    path = rulesets_dir() / f"{name}.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[0] == SCHEMA_LINE
    ruleset = load(name)
    assert ruleset.name == name
    assert ruleset.title and ruleset.title != name
    assert ruleset.source_note
    assert ruleset.wild.any
    assert len(ruleset.examples) >= 5
    assert run_examples(ruleset) == []


@pytest.mark.parametrize(
    ("name", "hands"),
    [
        ("joker-wild", ["Ah 9h 8h 5h X", "Ac Kc Tc 4c 3c"]),
        ("bug", ["8s 8h 5d 5c X", "6s 6h 6d 6c X", "Ah Ad Ac As X"]),
        # Wikipedia, Bug (poker)
        ("bug", ["Ks Kh X 5d 2c", "As Ah X 9d 4c", "Ah Jh 8h 3h X", "7s 6h 5d 4c X", "X Jc Tc 8c 7c"]),
        ("ace-to-five-joker", ["6s 5h 4d 2c X", "8s 6h 4d 3c X", "As 2h 3d 5c X"]),
        ("double-ace-flush", ["Ah 9h 8h 5h X", "Ac Kc Tc 4c 3c"]),
    ],
)
def test_source_examples_are_in_the_catalogue(name: str, hands: list[str]) -> None:
    present = example_hands(load(name))
    for hand in hands:
        assert " ".join(str(card) for card in parse_cards(hand)) in present, f"{hand} is not an example of {name}"


def test_wild_catalogue_files_are_listed() -> None:
    from evaluator.core.resources import catalogue_names

    assert set(WILD_CATALOGUE) <= set(catalogue_names())


# --- a wild card stands for any card not held, or makes five of a kind -----------------


def test_joker_is_not_a_second_ace_in_a_flush() -> None:
    # "the joker counts as a ♥K, not a second ace, and this hand is therefore
    # beaten by ♣A-♣K-♣10-♣4-♣3, the 10 beating the 9"
    rs = load("joker-wild")
    hand = rs.evaluate("Ah 9h 8h 5h X")
    assert hand.category == "flush"
    assert hand.wilds == {"X": "Kh"}
    assert sorted(hand.played_as) == sorted(["Ah", "Kh", "9h", "8h", "5h"])
    assert rs.compare("Ah 9h 8h 5h X", "Ac Kc Tc 4c 3c") == -1
    assert rs.compare("Ah 9h 8h 5h X", "Ad Kd 9d 8d 5d") == 0


def test_five_of_a_kind_beats_a_royal_flush_and_five_aces_are_highest() -> None:
    rs = load("joker-wild")
    five_aces = rs.evaluate("As Ah Ad Ac X")
    assert five_aces.category == "five_of_a_kind"
    assert five_aces.describe() == "five aces (X as As)"
    assert rs.compare("2s 2h 2d 2c X", "Ah Kh Qh Jh Th") == 1
    assert rs.compare("As Ah Ad Ac X", "Ks Kh Kd Kc X") == 1


def test_the_wild_completes_the_highest_straight() -> None:
    assert ev("joker-wild", "5s 4h 3d 2c X").wilds == {"X": "6s"}
    assert ev("joker-wild", "7s 6h 5d 4c X").describe() == "eight-high straight (X as 8s)"


def test_a_wild_may_stand_for_its_own_card() -> None:
    hand = ev("one-eyed-jacks", "Jh Ah Kh Qh Th")
    assert hand.category == "royal_flush"
    assert hand.wilds == {"Jh": "Jh"}
    assert hand.describe() == "royal flush (Jh as itself)"
    kings = ev("one-eyes", "Kd Js Ks Kh Kc")
    assert kings.category == "five_of_a_kind"
    assert kings.wilds["Kd"] == "Kd"


def test_a_deuce_may_stand_for_a_two() -> None:
    hand = ev("deuces-wild", "Ah 3d 4c 5s 2h")
    assert hand.category == "straight"
    assert hand.describe().startswith("five-high straight")
    assert hand.wilds["2h"][0] == "2"


def test_wilds_never_duplicate_a_card_held() -> None:
    rs = load("two-jokers-wild")
    hand = rs.evaluate("X1 X2 Ah 9h 8h")
    assert hand.category == "flush"
    assert sorted(hand.wilds.values()) == ["Kh", "Qh"]
    assert len(set(hand.played_as)) == 5


def test_two_jokers_take_the_same_cards_whatever_their_order() -> None:
    rs = load("two-jokers-wild")
    first, second = rs.evaluate("X1 X2 Kh Qh 9h"), rs.evaluate("9h X2 Qh X1 Kh")
    assert first.wilds == second.wilds == {"X": "Jh", "X2": "Th"}
    assert first.describe() == "king-high straight flush (X as Jh, X2 as Th)"


# --- double-ace flush -----------------------------------------------------------------


def test_double_ace_flush_house_rule() -> None:
    rs = load("double-ace-flush")
    hand = rs.evaluate("Ah 9h 8h 5h X")
    assert hand.category == "flush"
    assert hand.wilds == {"X": "Ah"}
    assert rs.compare("Ah 9h 8h 5h X", "Ac Kc Tc 4c 3c") == 1
    assert rs.compare("Ah 9h 8h 5h X", "Ad Kd Qd Jd 9d") == 1
    # the better hands are unchanged
    assert rs.evaluate("Kh Qh Jh Th X").category == "royal_flush"
    assert rs.evaluate("As Ad Ac Ah X").category == "five_of_a_kind"


# --- the bug ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "category", "wilds", "equal_to"),
    [
        # pagat, The Bug
        ("Ah Ad Ac As X", "five_of_a_kind", {"X": "As"}, None),
        ("6s 6h 6d 6c X", "four_of_a_kind", {"X": "As"}, "6s 6h 6d 6c Ad"),
        ("8s 8h 5d 5c X", "two_pair", {"X": "As"}, "8d 8c 5s 5h Ad"),
        # Wikipedia, Bug (poker)
        ("Ks Kh X 5d 2c", "pair", {"X": "As"}, "Kd Kc Ah 5s 2h"),
        ("As Ah X 9d 4c", "three_of_a_kind", {"X": "Ad"}, "Ac Ad Ah 9s 4s"),
        ("Ah Jh 8h 3h X", "flush", {"X": "Kh"}, "Ad Kd Jd 8d 3d"),
        ("7s 6h 5d 4c X", "straight", {"X": "8s"}, "8d 7c 6s 5h 4h"),
        ("X Jc Tc 8c 7c", "straight_flush", {"X": "9c"}, "Jd Td 9d 8d 7d"),
    ],
)
def test_bug_examples(cards: str, category: str, wilds: dict[str, str], equal_to: str | None) -> None:
    rs = load("bug")
    hand = rs.evaluate(cards)
    assert hand.category == category
    assert hand.wilds == wilds
    if equal_to is not None:
        assert rs.compare(cards, equal_to) == 0


def test_bug_four_sixes_lose_to_a_straight_flush() -> None:
    rs = load("bug")
    assert rs.compare("6s 6h 6d 6c X", "5c 4c 3c 2c Ac") == -1
    assert rs.evaluate("6s 6h 6d 6c X").describe() == "four sixes, ace kicker (X as As)"
    assert rs.evaluate("8s 8h 5d 5c X").describe() == "two pair, eights and fives, ace kicker (X as As)"


def test_bug_plays_as_an_ace_or_completes_a_straight_or_flush() -> None:
    # every bug hand of a few thousand random ones
    rs = load("bug")
    rng = random.Random(3)
    for _ in range(3000):
        hand = rs.evaluate([Card.joker(1), *rng.sample(PLAIN_DECK, 4)])
        played = hand.wilds["X"]
        assert played[0] == "A" or hand.category in STRAIGHT_OR_FLUSH, (hand.cards, hand.category, played)


# --- lowest card wild -----------------------------------------------------------------


def test_lowest_card_wild_aces_are_high() -> None:
    hand = ev("lowest-card-wild", "Ah 5s 5d 9c Kh")
    assert set(hand.wilds) == {"5s", "5d"}
    assert hand.category == "three_of_a_kind"
    assert ev("lowest-card-wild", "As Kh Qd Jc 9s").wilds == {"9s": "Ts"}


def test_lowest_card_wild_is_decided_on_the_whole_holding() -> None:
    rs = load("lowest-card-wild")
    holding = rs.cards("2c 8d 8h Ah Ad Kh Ks")
    assert rs.engine.wild_mask(holding) == [True] + [False] * 6
    hand = rs.evaluate(holding)
    # per five cards, 8-8-A-A-K would make the eights wild: four aces
    assert hand.category == "full_house"
    assert hand.wilds == {"2c": "As"}
    assert hand.describe() == "aces full of kings (2c as As)"


def test_lowest_card_wild_in_holdem_counts_the_board() -> None:
    from evaluator.engine.showdown import best_hand

    rs = load("lowest-card-wild")
    hand = best_hand(rs, "8d Kc", "8h Ah Ad Kh 4s")
    assert hand is not None
    # the 4 on the board is the lowest card: the eights stay natural
    assert hand.wilds == {"4s": "As"}
    assert hand.category == "full_house"


# --- natural beats wild ---------------------------------------------------------------


def test_natural_beats_wild_breaks_ties_by_the_number_of_wild_cards() -> None:
    plain, house = load("deuces-wild"), load("natural-beats-wild")
    pairs = [
        ("Ah Kh Qh Jh Th", "As Ks Qs Js 2s"),
        ("Ts Th 8d 5c 4s", "Td 2h 8c 5d 4h"),
        ("Ah Kh Qh Jh 2c", "As Ks Qs 2h 2d"),
    ]
    for fewer, more in pairs:
        assert plain.compare(fewer, more) == 0
        assert house.compare(fewer, more) == 1
        assert house.compare(more, fewer) == -1
    # only ties are broken: a better wild hand still wins
    assert house.compare("Ah Kh Qh Jh 2h", "Ks Qs Js Ts 9s") == 1


def test_natural_beats_wild_picks_the_natural_five_of_seven() -> None:
    hand = ev("natural-beats-wild", "Ah Kh Qh Jh Th 2c 3d")
    assert hand.category == "royal_flush"
    assert hand.wilds == {}


# --- low games: the fitter ------------------------------------------------------------


def test_ace_to_five_joker_is_the_fitter() -> None:
    rs = load("ace-to-five-joker")
    hand = rs.evaluate("6s 5h 4d 2c X")
    assert sorted(card[0] for card in hand.played_as) == sorted("6542A")
    assert hand.describe() == "six-low (X as As)"
    assert rs.compare("6s 5h 4d 2c X", "6d 5c 4s 2h Ac") == 0
    assert rs.evaluate("As 2h 3d 5c X").wilds["X"][0] == "4"
    assert rs.evaluate("8s 6h 4d 3c X").wilds["X"][0] == "A"


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(PLAIN_DECK), min_size=4, max_size=4, unique=True))
def test_ace_to_five_joker_takes_the_lowest_rank_not_held(naturals: list[Card]) -> None:
    hand = load("ace-to-five-joker").evaluate([*naturals, Card.joker(1)])
    held = {card.rank for card in naturals}
    lowest_free = next(rank for rank in "A23456789TJQK" if rank not in held)
    assert hand.wilds["X"][0] == lowest_free


def test_deuce_to_seven_joker_avoids_straights_and_flushes(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "deuce-to-seven-joker.yaml",
        "extends: deuce-to-seven\ndeck: {jokers: 1}\nwild: {jokers: true}\n",
    )
    rs = load(path)
    # "in deuce-to-seven low poker it could be used as a seven to complete a low hand"
    hand = rs.evaluate("6s 5h 4d 2c X")
    assert hand.category == "high_card"
    assert hand.wilds["X"][0] == "7"
    suited = rs.evaluate("7h 5h 4h 3h X")
    assert suited.category == "high_card"  # the joker is a deuce of another suit
    assert suited.wilds["X"][0] == "2" and suited.wilds["X"][1] != "h"


# --- output -----------------------------------------------------------------------------


def test_eval_json_shows_what_each_wild_plays_as() -> None:
    from evaluator.cli.main import main

    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["eval", "joker-wild", "Ah 9h 8h 5h X", "--json"]) == 0
    data = json.loads(out.getvalue())
    assert data["wilds"] == {"X": "Kh"}
    assert data["category"] == "flush"
    assert "Kh" in data["played_as"] and "X" in data["cards"]


def test_eval_text_shows_what_each_wild_plays_as() -> None:
    from evaluator.cli.main import main

    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["eval", "bug", "8s 8h 5d 5c X"]) == 0
    assert "two pair, eights and fives, ace kicker (X as As)" in out.getvalue()


def test_describe_template_field_wilds(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "wild-template.yaml",
        "extends: joker-wild\ncategories:\n  flush: {pattern: flush, describe: '{top}-high flush, {wilds}'}\n",
    )
    assert load(path).evaluate("Ah 9h 8h 5h X").describe() == "ace-high flush, X as Kh"


def test_a_pattern_that_reads_wilds_sees_the_wild_cards_of_a_suit_class(tmp_path: Path) -> None:
    # the engine classifies a class with wild cards as the class without them only when no
    # pattern asks how many wild cards play: here one does (a four flush counts when natural)
    spec = (
        "extends: standard\ndeck: {jokers: 1}\n"
        "categories:\n"
        "  natural_four_flush: {pattern: 'flush(4) & natural', describe: 'natural four flush'}\n"
        "  four_flush: {pattern: 'flush(4)', describe: 'four flush'}\n"
        "order: [royal_flush, five_of_a_kind, straight_flush, four_of_a_kind, full_house, flush, straight,\n"
        "        three_of_a_kind, two_pair, natural_four_flush, four_flush, pair, high_card]\n"
    )
    rs = load(write(tmp_path, "natural-four-flush.yaml", spec))
    assert rs.evaluate("Ah 9h 7h 4h 2c").category == "natural_four_flush"
    assert rs.evaluate("Ah 9h 7h 2c X").category == "four_flush"  # a four flush, not a natural one
    assert rs.compare("Kh 9h 7h 4h 2c", "Ah 9h 7h 2c X") == 1
    plain = load(write(tmp_path, "four-flush-only.yaml", spec.replace(" & natural", "")))
    assert plain.evaluate("Ah 9h 7h 2c X").category == "natural_four_flush"


# --- building the wild section ----------------------------------------------------------


def test_jokers_in_the_deck_are_wild_by_default(tmp_path: Path) -> None:
    path = write(tmp_path, "joker-default.yaml", "extends: standard\ndeck: {jokers: 1}\n")
    rs = load(path)
    assert rs.wild.jokers
    assert rs.evaluate("X Ks Qs Js Ts").category == "royal_flush"


def test_plays_as_rank_must_be_in_the_deck(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "short-bug.yaml",
        "extends: short-deck\ndeck: {jokers: 1}\nwild: {jokers: true, plays_as: {ranks: [2], hands: run}}\n",
    )
    with pytest.raises(RulesetError) as info:
        load(path)
    assert any(d.code == "R111" and "plays_as" in d.message for d in info.value.diagnostics)


def test_too_many_wild_cards_in_one_hand_are_refused() -> None:
    engine = load("joker-wild").engine
    cards = list(PLAIN_DECK[:7])
    with pytest.raises(CardError) as info:
        engine.fill(cards, [True] * 7)
    assert info.value.code == "C105"
    # five wild cards are filled (and make five aces)
    fill = engine.fill(cards[:5], [True] * 5)
    assert fill is not None and fill.classification.category.name == "five_of_a_kind"


# --- best of seven with wilds --------------------------------------------------------------


def test_best_five_of_seven_with_a_joker() -> None:
    hand = ev("joker-wild", "X Ah Kh Qh Jh 3d 7s")
    assert hand.category == "royal_flush"
    assert hand.wilds == {"X": "Th"}
    assert ev("deuces-wild", "2s 2h 9c 9d 9h 4s 5c").category == "five_of_a_kind"


# --- exhaustive five-card counts -----------------------------------------------------------

TABLE_NAMES = {"straight_flush_excl_royal": "straight_flush", "one_pair": "pair", "no_pair": "high_card"}
TABLES = [
    ("joker-wild", "joker_wild_5card_53deck_A053080.csv"),
    ("two-jokers-wild", "two_jokers_wild_5card_54deck_A053083.csv"),
    ("deuces-wild", "deuces_wild_5card_52deck_A053085.csv"),
]


def read_table(reference_data: Path, filename: str) -> dict[str, int]:
    """A published table, with its category names mapped to the catalogue's."""
    with open(reference_data / "tables" / filename, encoding="utf-8") as handle:
        rows = {row["category"]: int(row["count"]) for row in csv.DictReader(handle)}
    total = rows.pop("total")
    assert sum(rows.values()) == total
    return {TABLE_NAMES.get(name, name): count for name, count in rows.items()}


def class_counts(ruleset: Ruleset) -> tuple[Counter[str], set[tuple[int, ...]]]:
    """Every five-card deal, counted by class: (natural ranks, one suit or not, wilds).

    Written here, apart from ``evaluator.compiled.counting``: each class is evaluated once
    through ``Ruleset.evaluate`` on a representative hand and weighted by the
    number of deals in it. Valid for rulesets whose wild cards are whole ranks
    or jokers (every natural rank then has all its suits).
    """
    wild = ruleset.wild
    assert not wild.cards and not wild.lowest_rank
    wild_cards = [card for card in ruleset.deck if card.is_joker or card.rank in wild.ranks]
    natural_ranks = [rank for rank in ruleset.deck_ranks if rank not in wild.ranks]
    suits = ruleset.suits
    counts: Counter[str] = Counter()
    values: set[tuple[int, ...]] = set()
    for wilds in range(0, min(len(wild_cards), 5) + 1):
        ways_wild = comb(len(wild_cards), wilds)
        for ranks in combinations_with_replacement(natural_ranks, 5 - wilds):
            held = Counter(ranks)
            total = prod(comb(len(suits), times) for times in held.values())
            distinct = len(held) == len(ranks)
            one_suit = len(suits) if distinct and ranks else 0
            for suited, ways in ((True, one_suit), (False, total - one_suit)):
                if ways == 0:
                    continue
                naturals = _representative(ranks, suits, suited)
                hand = ruleset.evaluate(naturals + wild_cards[:wilds])
                counts[hand.category] += ways * ways_wild
                values.add(hand.value)
    return counts, values


def _representative(ranks: Sequence[str], suits: Sequence[str], suited: bool) -> list[Card]:
    if suited:
        return [Card(rank, suits[0]) for rank in ranks]
    cards: list[Card] = []
    seen: Counter[str] = Counter()
    for rank in ranks:
        cards.append(Card(rank, suits[seen[rank]]))  # copies of a rank take different suits
        seen[rank] += 1
    if len(cards) > 1 and len({card.suit for card in cards}) == 1:
        cards[0] = Card(cards[0].rank, suits[1])  # distinct ranks: two suits, not a flush
    return cards


def merged(counts: dict[str, int], into: dict[str, str]) -> dict[str, int]:
    """``counts`` with some categories added into others."""
    result: Counter[str] = Counter()
    for name, count in counts.items():
        result[into.get(name, name)] += count
    return dict(result)


@pytest.mark.parametrize(("name", "filename"), TABLES)
def test_class_counts_equal_the_published_tables(reference_data: Path, name: str, filename: str) -> None:
    counts, _ = class_counts(load(name))
    assert dict(counts) == read_table(reference_data, filename)


def test_class_counts_of_the_bug() -> None:
    counts, values = class_counts(load("bug"))
    assert sum(counts.values()) == comb(53, 5)
    assert merged(counts, {"royal_flush": "straight_flush"}) == BUG_COUNTS


def test_joker_wild_has_7475_distinct_values() -> None:
    _, values = class_counts(load("joker-wild"))
    assert len(values) == 7475  # 7,462 natural values and 13 fives of a kind


def _counting() -> ModuleType:
    """``evaluator.compiled.counting``, or a skip while it is not written."""
    module: ModuleType = pytest.importorskip(
        "evaluator.compiled.counting",
        reason="evaluator.compiled.counting (exact counting by classes) is not written yet",
    )
    return module


@pytest.mark.slow
@pytest.mark.parametrize(("name", "filename"), TABLES)
def test_counting_category_counts_equal_the_published_tables(reference_data: Path, name: str, filename: str) -> None:
    counting = _counting()
    assert counting.category_counts(load(name), cards=5) == read_table(reference_data, filename)


@pytest.mark.slow
def test_counting_joker_wild_distinct_values() -> None:
    counting = _counting()
    assert sum(counting.distinct_values(load("joker-wild"), cards=5).values()) == 7475


# --- properties --------------------------------------------------------------------------

five_plain = st.lists(st.sampled_from(PLAIN_DECK), min_size=5, max_size=5, unique=True)


@settings(max_examples=300, deadline=None)
@given(five_plain, st.integers(0, 4), st.sampled_from(["joker-wild", "deuces-wild"]))
def test_a_wild_card_never_makes_a_high_hand_worse(cards: list[Card], index: int, name: str) -> None:
    rs = load(name)
    if name == "deuces-wild":
        assume(all(card.rank != "2" for card in cards))
        # any deuce will do: replacing a natural card by one can only help
        wild = Card("2", "shdc"[index % 4])
    else:
        wild = Card.joker(1)
    before = rs.evaluate(cards)
    after = rs.evaluate([*cards[:index], wild, *cards[index + 1 :]])
    assert after.strength >= before.strength, (before, after)


@settings(max_examples=200, deadline=None)
@given(five_plain, st.integers(0, 3))
def test_two_jokers_never_make_a_high_hand_worse(cards: list[Card], index: int) -> None:
    rs = load("two-jokers-wild")
    one = rs.evaluate([*cards[:index], Card.joker(1), *cards[index + 1 :]])
    two = rs.evaluate([*cards[:index], Card.joker(1), Card.joker(2), *cards[index + 2 :]])
    assert two.strength >= one.strength >= rs.evaluate(cards).strength


@st.composite
def hand_and_order(draw: st.DrawFn, size: int) -> tuple[str, list[Card], list[Card]]:
    """A wild ruleset, a hand of ``size`` cards from its deck, and the hand reordered."""
    name = draw(st.sampled_from(WILD_CATALOGUE))
    deck = list(load(name).deck)
    cards = draw(st.lists(st.sampled_from(deck), min_size=size, max_size=size, unique=True))
    return name, cards, draw(st.permutations(cards))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand_and_order(5))
def test_the_order_of_five_cards_never_matters(case: tuple[str, list[Card], list[Card]]) -> None:
    name, cards, shuffled = case
    rs = load(name)
    first, second = rs.evaluate(cards), rs.evaluate(shuffled)
    assert first.strength == second.strength
    assert first.category == second.category
    assert first.wilds == second.wilds
    assert first.cards == second.cards and first.played_as == second.played_as
    assert first.describe() == second.describe()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand_and_order(7))
def test_the_order_of_seven_cards_never_matters(case: tuple[str, list[Card], list[Card]]) -> None:
    name, cards, shuffled = case
    rs = load(name)
    first, second = rs.evaluate(cards), rs.evaluate(shuffled)
    assert first.strength == second.strength
    assert first.category == second.category


def naive_best(ruleset: Ruleset, reference: Ruleset, cards: Sequence[Card]) -> tuple[str, tuple[int, ...]]:
    """The best (category, key) over every concrete card each wild could stand for.

    ``reference`` evaluates concrete hands: a ruleset with the same categories
    that accepts duplicated cards (two packs), so a fill breaking the
    no-duplicates rule would show. The rules are applied here, by brute force:
    no card held twice unless all five share a rank (or duplicates are on);
    a restricted wild (the bug) is an ace unless the hand is a straight or flush.
    """
    engine = ruleset.engine
    mask = engine.wild_mask(cards)
    naturals = [card for card, is_wild in zip(cards, mask, strict=False) if not is_wild]
    rules = ruleset.wild
    high = ruleset.direction == "high"
    best: tuple[tuple[int, ...], tuple[str, tuple[int, ...]]] | None = None
    for stand_ins in combinations_with_replacement(PLAIN_DECK, sum(mask)):
        hand = naturals + list(stand_ins)
        if not rules.duplicates and len(set(hand)) < len(hand) and len({card.rank for card in hand}) > 1:
            continue
        fill = reference.engine.fill(hand, [False] * len(hand))
        assert fill is not None
        category = fill.classification.category.name
        restricted = rules.plays_as_ranks is not None and any(
            card.rank not in rules.plays_as_ranks for card in stand_ins
        )
        if restricted and category not in STRAIGHT_OR_FLUSH:
            continue
        value = fill.classification.value
        if best is None or (value > best[0] if high else value < best[0]):
            best = (value, (category, value[1:]))
    assert best is not None
    return best[1]


@pytest.fixture(scope="module")
def references(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Ruleset]:
    """Natural rulesets with two packs, to evaluate concrete hands with duplicates."""
    folder = tmp_path_factory.mktemp("reference")
    low = write(
        folder,
        "ace-to-five-two-packs.yaml",
        "extends: ace-to-five\ndeck: {copies: 2}\ncategories:\n  five_of_a_kind: {pattern: XXXXX}\n"
        "order: [five_of_a_kind, four_of_a_kind, full_house, three_of_a_kind, two_pair, pair, high_card]\n",
    )
    return {"high": load("two-decks"), "low": load(low)}


NAIVE = [
    "joker-wild",
    "two-jokers-wild",
    "deuces-wild",
    "bug",
    "double-ace-flush",
    "one-eyed-jacks",
    "one-eyes",
    "lowest-card-wild",
    "ace-to-five-joker",
]


@st.composite
def wild_hand(draw: st.DrawFn) -> tuple[str, list[Card]]:
    """A ruleset and a five-card hand with one or two wild cards (mostly)."""
    name = draw(st.sampled_from(NAIVE))
    rs = load(name)
    deck = list(rs.deck)
    wilds = [card for card in deck if card.is_joker or card in rs.wild.cards or card.rank in rs.wild.ranks]
    count = draw(st.integers(1, min(2, len(wilds)))) if wilds else 0
    chosen = draw(st.lists(st.sampled_from(wilds), min_size=count, max_size=count, unique=True)) if wilds else []
    rest = [card for card in deck if card not in wilds]
    naturals = draw(st.lists(st.sampled_from(rest), min_size=5 - count, max_size=5 - count, unique=True))
    return name, draw(st.permutations(chosen + naturals))


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(wild_hand())
def test_the_fill_equals_a_naive_search_over_concrete_cards(
    references: dict[str, Ruleset], case: tuple[str, list[Card]]
) -> None:
    name, cards = case
    rs = load(name)
    if sum(rs.engine.wild_mask(cards)) > 2:
        return  # lowest card wild with three or four of a rank: too many stand-ins to search
    reference = references[rs.direction]
    hand = rs.evaluate(cards)
    expected = naive_best(rs, reference, cards)
    assert (hand.category, hand.value[1:]) == expected
    # what the wilds play as is a real hand of that value
    played = reference.engine.fill(list(parse_cards(" ".join(hand.played_as))), [False] * 5)
    assert played is not None
    assert (played.classification.category.name, played.classification.value[1:]) == expected
    if not rs.wild.duplicates and len({card[0] for card in hand.played_as}) > 1:
        assert len(set(hand.played_as)) == 5


def test_errors_are_poker_rules_errors() -> None:
    # a wild hand with cards not in the deck is a positioned card error, as any other
    with pytest.raises(PokerRulesError) as info:
        load("joker-wild").evaluate("X X2 As Ks Qs")
    assert info.value.code == "C102"
