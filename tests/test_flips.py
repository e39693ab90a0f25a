"""Flips of every kind grouped by cause, and the lowball breakdown.

The counts are checked against plain computations written here: rank keys of
hand classes compared with NumPy, and a brute force over all 2,598,960 hands.
"""

from __future__ import annotations

import functools
import io
import json
import random
from collections import Counter
from functools import cache
from itertools import chain, combinations
from math import comb
from pathlib import Path
from typing import Any

import jsonschema
import numpy as np
import pytest
from meeting import SharedCards, every_hand, meeting

from evaluator import load
from evaluator.cli.main import main
from evaluator.core.progress import Bar
from evaluator.tools import flips_sampled, showdown_share
from evaluator.tools.diff import common_deck
from evaluator.tools.flip_types import flip_label
from evaluator.tools.flips import FlipCensus, census, sampled_census
from evaluator.tools.flips_batch import table_flips
from evaluator.tools.flips_sampled import flip_cause
from evaluator.tools.lowball import low_breakdown
from evaluator.tools.showdown_share import BATCH_DEALS, Deals, batch_outcomes

ROOT = Path(__file__).resolve().parents[1]
DIFF_SCHEMA = json.loads((ROOT / "docs" / "json" / "diff.schema.json").read_text(encoding="utf-8"))
STATS_SCHEMA = json.loads((ROOT / "docs" / "json" / "stats.schema.json").read_text(encoding="utf-8"))


@cache
def found(a_name: str, b_name: str) -> FlipCensus:
    a, b = load(a_name), load(b_name)
    return census(a, b, common_deck(a, b))


def group(result: FlipCensus, cause: str, first: str, second: str) -> Any:
    matches = [g for g in result.groups if (g.cause, g.first, g.second) == (cause, first, second) and g.reversed]
    assert len(matches) == 1, [(g.cause, g.first, g.second) for g in result.groups]
    return matches[0]


def assert_verified(a_name: str, b_name: str, found_group: Any) -> tuple[str, str]:
    """Re-check an example from its card strings with both rulesets' compare."""
    assert found_group.example is not None
    first, second = (" ".join(hand.cards) for hand in found_group.example)
    assert load(a_name).compare(first, second) == 1
    assert load(b_name).compare(first, second) == -1
    assert not set(first.split()) & set(second.split())
    return first, second


def no_pair_keys(ace_high: bool, drop_straights: bool) -> list[tuple[int, ...]]:
    """Rank sets of five distinct ranks (2..14), as descending keys (ace 14 or 1)."""
    keys = []
    for ranks in combinations(range(2, 15), 5):
        values = sorted((r if ace_high or r != 14 else 1 for r in ranks), reverse=True)
        if drop_straights and values[0] - values[4] == 4:
            continue
        keys.append(tuple(values))
    return keys


def flip_pairs(keys_a: list[tuple[int, ...]], keys_b: list[tuple[int, ...]]) -> int:
    """Class pairs (i, j) with i lower (better) under A and j lower under B."""

    def dense(keys: list[tuple[int, ...]]) -> np.ndarray:
        order = {key: n for n, key in enumerate(sorted(set(keys)))}
        return np.array([order[key] for key in keys])

    rank_a, rank_b = dense(keys_a), dense(keys_b)
    return int(((rank_a[:, None] < rank_a[None, :]) & (rank_b[:, None] > rank_b[None, :])).sum())


# --- the acceptance cases -------------------------------------------------------------------------


def test_italian_minimum_beats_maximum_straight_flush_is_a_beats_flip() -> None:
    result = found("italian", "standard")
    assert result.method == "exact"
    beats = group(result, "beats", "minimum_straight_flush / flush", "maximum_straight_flush / royal_flush")
    first, second = assert_verified("italian", "standard", beats)
    assert load("italian").evaluate(first).category == "minimum_straight_flush"
    assert load("italian").evaluate(second).category == "maximum_straight_flush"
    # brute force: every pair of straight flushes of the 40-card deck that can meet, judged by both compares
    italian, standard = load("italian"), load("standard")
    deck = [str(card) for card in italian.deck]
    flushes = [hand for hand in combinations(deck, 5) if len({c[1] for c in hand}) == 1]
    straight_flushes = [h for h in flushes if italian.evaluate(" ".join(h)).category.endswith("straight_flush")]
    assert len(straight_flushes) == 28  # 7 runs (A-5-6-7-8 up to T-J-Q-K-A) in 4 suits
    flipped = sum(
        1
        for x, y in combinations(straight_flushes, 2)
        if not set(x) & set(y)
        and italian.compare(" ".join(x), " ".join(y)) * standard.compare(" ".join(x), " ".join(y)) == -1
    )
    assert beats.pairs == flipped == 12  # 4 minimum x 4 maximum, less the 4 of one suit (they share the ace)
    assert result.total("beats") == 12


def test_italian_flush_over_full_house_is_a_category_order_flip() -> None:
    result = found("italian", "standard")
    flip = group(result, "category_order", "flush", "full_house")
    assert_verified("italian", "standard", flip)
    # flushes of the 40-card deck that are no straight flush, against the full houses they can meet
    deck = [str(card) for card in load("italian").deck]
    bit = {card: 1 << i for i, card in enumerate(deck)}
    hands = list(combinations(deck, 5))
    italian = load("italian")
    flushes = [h for h in hands if len({c[1] for c in h}) == 1 and italian.evaluate(" ".join(h)).category == "flush"]
    houses = [h for h in hands if sorted(Counter(c[0] for c in h).values()) == [2, 3]]
    assert len(flushes) == 4 * (comb(10, 5) - 7) and len(houses) == 10 * 4 * 9 * 6
    masks = lambda group: [sum(bit[c] for c in h) for h in group]  # noqa: E731
    assert flip.pairs == meeting(masks(flushes), masks(houses))


def test_deuce_to_seven_and_ace_to_five_flip_inside_pair_and_high_card() -> None:
    result = found("deuce-to-seven", "ace-to-five")
    pairs = group(result, "ace_rule", "pair", "pair")
    first, second = assert_verified("deuce-to-seven", "ace-to-five", pairs)
    assert "A" in second  # a pair of aces: low in ace-to-five, high in deuce-to-seven
    high = group(result, "ace_rule", "high_card", "high_card")
    first, second = assert_verified("deuce-to-seven", "ace-to-five", high)
    assert sorted(card[0] for card in second.split()) == sorted("A2345")  # the wheel
    assert high.example[1].description_b == "five-low"
    # the pairs of aces against the lower pairs: every ordered pair of those hands that can meet
    hands = every_hand()
    ranks = np.sort(hands // 4, axis=1)
    one_pair = (np.diff(ranks, axis=1) == 0).sum(axis=1) == 1
    one_pair &= ~((ranks[:, :3] == ranks[:, 1:4]) & (ranks[:, 1:4] == ranks[:, 2:])).any(axis=1)
    aces = one_pair & ((hands // 4 == 12).sum(axis=1) == 2)
    counted = SharedCards()
    counted.add(hands[one_pair & ~aces])
    # a pair of aces beats every other pair in deuce-to-seven and loses to it in ace-to-five; the
    # other flips of the group (kickers read with the ace low) come on top
    assert pairs.pairs > counted.apart(hands[aces]) > 0


def test_ace_to_five_and_ace_to_six_straights_and_flushes_count_against_the_hand() -> None:
    result = found("ace-to-five", "ace-to-six")
    straight = group(result, "category_membership", "high_card / straight", "pair")
    flush = group(result, "category_membership", "high_card / flush", "pair")
    for flip in (straight, flush):
        assert_verified("ace-to-five", "ace-to-six", flip)
    assert load("ace-to-six").evaluate(" ".join(straight.example[0].cards)).category == "straight"
    assert load("ace-to-six").evaluate(" ".join(flush.example[0].cards)).category == "flush"
    # every straight (every flush) against every one-pair hand it can meet, by inclusion-exclusion
    hands = every_hand()
    ranks, suits = np.sort(hands // 4, axis=1), hands % 4
    low = np.sort((ranks + 1) % 13, axis=1)  # ace low: A-2-3-4-5 up to 9-T-J-Q-K
    distinct = (np.diff(low, axis=1) != 0).all(axis=1)
    one_suit = (suits == suits[:, :1]).all(axis=1)
    runs = distinct & (low[:, 4] - low[:, 0] == 4) & ~one_suit
    plain_flushes = distinct & one_suit & ~(low[:, 4] - low[:, 0] == 4)
    one_pair = (np.stack([(ranks == r).sum(axis=1) for r in range(13)], axis=1) > 0).sum(axis=1) == 4
    counted = SharedCards()
    counted.add(hands[one_pair])
    assert runs.sum() == 9 * (4**5 - 4) and plain_flushes.sum() == 4 * (comb(13, 5) - 9)
    assert straight.pairs == counted.apart(hands[runs])
    assert flush.pairs == counted.apart(hands[plain_flushes])


# --- exact and sampled agree -------------------------------------------------------------------------


@pytest.mark.parametrize(("a_name", "b_name"), [("deuce-to-seven", "ace-to-five"), ("italian", "standard")])
def test_every_sampled_flip_falls_in_an_exact_group(a_name: str, b_name: str) -> None:
    a, b = load(a_name), load(b_name)
    exact = found(a_name, b_name)
    keys = {(g.cause, g.first, g.second) for g in exact.groups}
    deck, rng, seen = list(common_deck(a, b)), random.Random(7), 0
    for _ in range(3000):
        dealt = rng.sample(deck, 10)  # two hands of one deal: they share no card
        first, second = dealt[:5], dealt[5:]
        fa, fb, sa, sb = a.evaluate(first), b.evaluate(first), a.evaluate(second), b.evaluate(second)
        verdict_a, verdict_b = a.compare(fa, sa), b.compare(fb, sb)
        if verdict_a == verdict_b:
            continue
        if verdict_a < verdict_b:
            first, second, fa, fb, sa, sb = second, first, sa, sb, fa, fb
        cause = flip_cause(a, b, (fa, fb), (sa, sb), (first, second))
        assert (cause, flip_label(fa.category, fb.category), flip_label(sa.category, sb.category)) in keys
        seen += 1
    assert seen >= 5


def test_wild_cards_are_sampled_with_an_interval_and_verified() -> None:
    a, b = load("standard"), load("deuces-wild")
    result = sampled_census(a, b, common_deck(a, b), 5, 1500, 11)
    assert result.method == "sampled" and result.seed == 11 and result.sampled == 1500
    assert "wild_cards" in result.causes()
    for found_group in result.groups:
        assert found_group.low is not None and found_group.high is not None
        assert found_group.low <= found_group.pairs <= found_group.high
        if found_group.example is not None:
            assert_verified("standard", "deuces-wild", found_group)


@pytest.mark.parametrize(
    ("a_name", "b_name"),
    [
        ("standard", "deuces-wild"),  # wild cards
        ("standard", "badugi"),  # four cards of five play
        ("standard", "kings-and-little-ones"),
        ("standard", "three-card-poker"),
        ("standard", "chinese-poker-front"),
        ("standard", "ace-to-five"),  # the ace rule
        ("ace-to-five-eight-or-better", "deuce-to-seven"),  # a qualifier: some pairs by hand, some on the tables
        ("deuce-to-seven", "ace-to-five-eight-or-better"),  # ... on either side
        ("standard", "friday-night"),  # a suit tie-break: every changing pair by hand
        ("standard", "italian"),  # beats: the tables judge no pair (and flips are rare: more pairs)
    ],
)
def test_a_sampled_census_on_the_tables_equals_judging_every_pair_by_hand(
    a_name: str, b_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tables pick the pairs whose outcome changes and name the causes and categories of most;
    judging every pair hand by hand finds the same groups, counts, intervals and examples."""
    a, b = load(a_name), load(b_name)
    deck, size, samples = common_deck(a, b), max(a.hand_size, b.hand_size), 3000 if b.beats else 600
    on_tables = sampled_census(a, b, deck, size, samples, 5)
    monkeypatch.setattr(flips_sampled, "batch_outcomes", lambda *args: None)
    by_hand = sampled_census(a, b, deck, size, samples, 5)
    assert on_tables == by_hand
    assert on_tables.groups


@pytest.mark.parametrize("name", ["deuces-wild", "ace-to-five", "badugi"])
def test_the_tables_name_each_group_and_its_first_pair_as_judging_by_hand_does(name: str) -> None:
    """Group by group: the count, the first pair in deal order (oriented) and its deal number; and
    the groups in the order judging by hand meets them is the order of their first pairs."""
    a, b = load("standard"), load(name)
    deals = Deals.drawn(common_deck(a, b), 5, 2000, 8)
    judged = batch_outcomes(a, b, deals)
    assert judged is not None
    changed = np.flatnonzero(judged[0] != judged[1])
    on_tables: dict[Any, list[Any]] = {}
    assert table_flips(a, b, deals, changed, on_tables) == []  # every pair named by the tables
    by_hand: dict[Any, list[Any]] = {}
    for number in changed.tolist():
        flips_sampled._judge_pair(a, b, number, deals.pair(number), by_hand)
    assert on_tables == by_hand and len(by_hand) > 2
    assert list(by_hand) == sorted(on_tables, key=lambda key: on_tables[key][3])


def test_a_sampled_census_shows_its_progress_and_counts_the_same() -> None:
    a, b = load("standard"), load("italian")  # beats: every pair is judged by hand
    stream = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:  # a bar that shows at once, not after a second
        patch.setattr(flips_sampled, "Bar", functools.partial(Bar, delay=0.0))
        shown = sampled_census(a, b, common_deck(a, b), 5, 600, 5, stream)
    assert shown == sampled_census(a, b, common_deck(a, b), 5, 600, 5)
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("pokerrules: diff: judging sampled pairs of hands [")
    assert lines[-1].startswith("pokerrules: diff: judging sampled pairs of hands done in")


def test_drawn_deals_are_the_seeded_samples_kept_in_bytes() -> None:
    deck = common_deck(load("standard"), load("deuces-wild"))
    samples = BATCH_DEALS + 1000  # the last batch partly filled
    deals = Deals.drawn(deck, 5, samples, 3)
    rng = random.Random(3)
    assert deals.positions.tolist() == [rng.sample(range(52), 10) for _ in range(samples)]
    assert deals.positions.dtype == np.uint8 and not deals.positions.flags.writeable
    assert Deals.drawn(deck, 5, samples, 3) is deals  # the showdown share's draw is the census's


def test_the_same_deals_are_judged_once_for_the_same_rulesets(monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = load("standard"), load("deuces-wild")
    deals = Deals.drawn(common_deck(a, b), 5, 500, 9)
    first = batch_outcomes(a, b, deals)
    assert first is not None and not first[0].flags.writeable
    monkeypatch.setattr(showdown_share, "_outcomes", None)  # judging again would fail
    assert batch_outcomes(a, b, deals) is first
    with pytest.raises(TypeError):
        batch_outcomes(b, a, deals)  # other rulesets (here the other way round) are judged anew


def test_a_sampled_census_never_calls_itself_exact(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "standard", "deuces-wild", "--samples", "400"]) == 0
    out = capsys.readouterr().out
    section = out[out.index("\nFlips by cause (") + 1 : out.index("\nHeads-up showdowns")]
    assert section.startswith("Flips by cause (sampled:") and "not counted exactly: deuces-wild has wild" in section
    summary = [line for line in out.splitlines() if line.startswith("* flips because")]
    assert summary and all("about" in line and "exactly" not in line for line in summary)
    assert "exactly" not in section.replace("not counted exactly", "")


# --- the lowball breakdown against all 2,598,960 hands ---------------------------------------------------


@cache
def all_hands() -> np.ndarray:
    """Every 5-card hand of 52 card ids (rank * 4 + suit, rank 0 = deuce ... 12 = ace)."""
    cards = chain.from_iterable(combinations(range(52), 5))  # streamed: no list of 2.6 M tuples
    return np.fromiter(cards, dtype=np.int8, count=5 * comb(52, 5)).reshape(-1, 5)


def brute_low_tops(ace_low: bool, straights_and_flushes_count: bool) -> dict[str, int]:
    hands = all_hands().astype(np.int64)
    ranks, suits = hands // 4, hands % 4
    if ace_low:
        ranks = (ranks + 1) % 13  # the ace becomes 0
    ranks.sort(axis=1)
    no_pair = (np.diff(ranks, axis=1) != 0).all(axis=1)
    keep = no_pair
    if straights_and_flushes_count:
        flush = (suits == suits[:, :1]).all(axis=1)
        straight = no_pair & (ranks[:, 4] - ranks[:, 0] == 4)
        keep = no_pair & ~flush & ~straight
    symbols = "A23456789TJQK" if ace_low else "23456789TJQKA"
    tops = np.bincount(ranks[keep, 4], minlength=13)
    return {symbols[r]: int(n) for r, n in enumerate(tops) if n}


@pytest.mark.parametrize(("name", "ace_low", "counts"), [("deuce-to-seven", False, True), ("ace-to-five", True, False)])
def test_lowball_breakdown_equals_brute_force(name: str, ace_low: bool, counts: bool) -> None:
    table = low_breakdown(load(name))
    assert table is not None and table.method == "exact" and table.deals == 2_598_960
    assert {row.top: row.count for row in table.rows} == brute_low_tops(ace_low, counts)
    symbols = load(name).rank_symbols
    assert [symbols.index(row.top) for row in table.rows] == sorted(symbols.index(row.top) for row in table.rows)


def test_stats_and_diff_print_the_lowball_breakdown(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "ace-to-five", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    jsonschema.Draft202012Validator(STATS_SCHEMA).validate(data)
    assert data["lowball"]["rows"][0] == {
        "top": "5",
        "label": "5-low (the wheel)",
        "count": 1024,
        "probability": 1024 / 2598960,
        "odds_text": "1 in 2,538",
        "interval": None,
    }
    assert main(["stats", "deuce-to-seven"]) == 0
    out = capsys.readouterr().out
    assert "Lowball breakdown of deuce-to-seven" in out and "7-low" in out and "best first" in out
    assert main(["stats", "standard", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["lowball"] is None


def test_diff_json_has_flip_causes_and_validates(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "italian", "standard", "--json", "--samples", "300"]) == 0
    data = json.loads(capsys.readouterr().out)
    jsonschema.Draft202012Validator(DIFF_SCHEMA).validate(data)
    causes = {entry["cause"] for entry in data["flip_causes"]["causes"]}
    assert {"beats", "category_order", "category_membership"} <= causes
    beats = [g for g in data["flip_causes"]["groups"] if g["cause"] == "beats"]
    assert beats[0]["pairs"] == 12 and beats[0]["example"]["compare_a"] == 1
    assert data["flip_causes"]["population"] == comb(40, 5) * comb(35, 5) // 2
    assert any("la minima" in line or "beats: exception" in line for line in data["summary"])


def test_a_qualifier_turns_wins_into_ties() -> None:
    result = found("ace-to-five", "ace-to-five-eight-or-better")
    assert result.causes() == ["qualifier"]
    ties = [g for g in result.groups if g.cause == "qualifier"]
    assert ties and all(g.outcome_a == 1 and g.outcome_b == 0 for g in ties)
    nine_low = group_of(ties, "high_card", "pair")
    first, second = (" ".join(hand.cards) for hand in nine_low.example)
    assert load("ace-to-five").compare(first, second) == 1
    assert load("ace-to-five-eight-or-better").compare(first, second) == 0
    # no-pair hands whose top card is 9 or more (ace low) against every one-pair hand they can meet
    hands = every_hand()
    low = np.sort((hands // 4 + 1) % 13, axis=1)  # ace low
    no_pair = (np.diff(low, axis=1) != 0).all(axis=1)
    one_pair = (np.diff(low, axis=1) == 0).sum(axis=1) == 1
    one_pair &= ~((low[:, :3] == low[:, 1:4]) & (low[:, 1:4] == low[:, 2:])).any(axis=1)  # not trips
    counted = SharedCards()
    counted.add(hands[one_pair])
    assert one_pair.sum() == 13 * comb(4, 2) * comb(12, 3) * 4**3
    assert nine_low.pairs == counted.apart(hands[no_pair & (low[:, 4] >= 8)])


def group_of(groups: list[Any], first: str, second: str) -> Any:
    matches = [g for g in groups if (g.first, g.second) == (first, second)]
    assert len(matches) == 1
    return matches[0]


def test_two_suit_tie_breaks_flip_equal_hands() -> None:
    a, b = load("suits-bridge"), load("suits-german")
    result = census(a, b, common_deck(a, b))
    assert result.method == "exact" and result.causes() == ["suit_tiebreak"]
    for flip in result.groups:
        assert flip.low is None and flip.pairs > 0 and flip.reversed
        first, second = (" ".join(hand.cards) for hand in flip.example)
        assert a.compare(first, second) == 1 and b.compare(first, second) == -1
        assert not set(first.split()) & set(second.split())
        assert sorted(c[0] for c in first.split()) == sorted(c[0] for c in second.split())  # the same ranks
