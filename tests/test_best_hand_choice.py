"""Which hand of a holding plays when a qualifier rules hands out, on every holding of small decks.

A holding of more cards than a hand (the best five of seven), or any holding of a
``best_subset`` ruleset (badugi's family), holds several hands. The one that plays
is the best by qualifying, then by value, then natural-beats-wild, then the suit
tie-break: a qualifier says whether a hand can win, not which of its cards play.
The generic evaluator once ranked the hands of a holding that does not qualify by
natural-beats-wild and the suit tie-break before their value (the 9h alone over
K-9 of two suits; a K-Q-J straight without the joker over A-K-Q with it),
and the tables' ``evaluate`` took a short holding of a ``best_subset`` ruleset
whole. Each case here sweeps every holding of a small deck: the generic evaluator
against the brute force of ``conformance/brute.py`` (every subset, every card for
each wild card), and the tables (per call, warm ``evaluate``, ``rank_many``)
and the exact count by category against the generic evaluator.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from conformance.brute import Brute, card_tuple, same_order
from conformance.features import Category, Spec, poker_categories

from evaluator.compiled import fasthand
from evaluator.compiled.counting import category_counts
from evaluator.compiled.tables import tables_for
from evaluator.core.errors import PokerRulesError
from evaluator.engine.evaluate import engine_for
from evaluator.ruleset import load

pytestmark = pytest.mark.usefixtures("table_cache")

BUG = {"jokers": True, "plays_as": {"ranks": ["A"], "hands": "run | flush"}}


def sets_spec(wild: dict[str, object], tiebreak: str) -> Spec:
    """Badugi's family on J-A of three suits: the best set of one to three cards of different
    ranks and suits, qualifying from a set of three."""
    spec = Spec(ranks=["J", "Q", "K", "A"], suits=["h", "d", "c"], size=3, min=1, best_subset=True)
    spec.categories = [Category(f"set_of_{k}", " ".join("XYZ"[:k]) + f" & suits = {k}", ("set", k)) for k in (3, 2, 1)]
    spec.qualifier, spec.qualifier_plain = "category >= set_of_3", ("at_least", "set_of_3")
    return finish(spec, wild, tiebreak)


def three_card_spec(wild: dict[str, object], tiebreak: str, qualifying: str) -> Spec:
    """Three-card poker on J-A of three suits, ``qualifying`` or better to qualify."""
    spec = Spec(ranks=["J", "Q", "K", "A"], suits=["h", "d", "c"], size=3, min=3)
    spec.categories = poker_categories(3)
    spec.qualifier, spec.qualifier_plain = f"category >= {qualifying}", ("at_least", qualifying)
    return finish(spec, wild, tiebreak)


def finish(spec: Spec, wild: dict[str, object], tiebreak: str) -> Spec:
    spec.wild = dict(wild)
    spec.jokers = 1 if wild else 0
    spec.natural_beats_wild = True
    spec.suit_order = ["h", "d", "c"]
    spec.tiebreak = tiebreak
    return spec


CASES = {
    "sets, the bug, highest_unpaired": (sets_spec(BUG, "highest_unpaired"), (1, 2, 3)),
    "sets, highest_card": (sets_spec({}, "highest_card"), (1, 2, 3)),
    # A-A-J over J-J-A when neither is a straight: the suits (Jh Jd Ah over Ah Ad Jh) decided
    "three of four, highest_card": (three_card_spec({}, "highest_card", "straight"), (3, 4)),
    # X Kd Qc Jh: A-K-Q with the joker over K-Q-J without it, when only three of a kind qualifies
    "three of four, a joker, highest_unpaired": (
        three_card_spec({"jokers": True}, "highest_unpaired", "n_of_a_kind"),
        (4,),
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_hand_that_plays(tmp_path: Path, case: str) -> None:
    """Every holding: the generic strength orders as the brute force's (the suit key of a natural
    holding equal), and the tables' evaluate and values as the generic evaluator's."""
    spec, sizes = CASES[case]
    path = tmp_path / "choice.yaml"
    path.write_text(spec.yaml(), encoding="utf-8")
    rules = load(path)
    engine, brute = engine_for(rules), Brute(spec)
    tables_for(rules)
    deck = [str(card) for card in rules.deck]
    generic, plain, values, rows = [], [], [], []
    categories: dict[int, Counter[str]] = {size: Counter() for size in sizes}
    for size in sizes:
        for holding in combinations(range(len(deck)), size):
            text = " ".join(deck[i] for i in holding)
            cards = [card_tuple(deck[i]) for i in holding]
            found = brute.best(cards)
            try:
                hand = engine.evaluate(rules.cards(text))
            except PokerRulesError as problem:
                assert problem.first.code == "C106" and found is None, text
                continue
            assert found is not None, text
            categories[size][hand.category] += 1
            strength, played = found
            plain.append((hand.strength[:3], strength, text))
            if spec.tiebreak != "none" and not any(brute.wild_mask(cards)):
                assert hand.strength[3] == brute.suit_key(played), text
            for other in (fasthand.evaluate(rules, text), rules.evaluate(text)):
                assert (other.category, other.cards, other.strength) == (hand.category, hand.cards, hand.strength), text
            value = rules.rank(rules.encode(text))
            assert fasthand.fast_hands(rules).qualifies(value) == hand.qualifies, text
            if hand.qualifies or size <= spec.size:  # else the value is the holding's best strength
                generic.append((hand.strength, value, text))
            values.append(value)
            rows.append(list(holding))
    assert not same_order(plain), same_order(plain)[:3]
    assert not same_order(generic), same_order(generic)[:3]
    for size in sizes:
        of_size = [i for i, row in enumerate(rows) if len(row) == size]
        batch = rules.rank_many(np.array([rows[i] for i in of_size], dtype=np.int64))
        assert batch.tolist() == [values[i] for i in of_size], f"rank_many of {size}-card holdings"
        counted = {name: n for name, n in category_counts(rules, size).items() if n}
        assert counted == dict(categories[size]), f"the count of {size}-card holdings by category"


LONE_ACE = """\
name: lone-ace
extends: standard
deck: {ranks: [T, J, Q, K, A]}
hand: {size: 3, min: 1, best_subset: true}
categories:
  three: {pattern: "X Y Z & suits = 3"}
  lone_ace: {pattern: "X & X = A"}
  two: {pattern: "X Y"}
  one: {pattern: "X"}
order: [three, lone_ace, two, one]
qualifier: "category >= three"
"""


def test_a_short_holding_of_a_best_subset_ruleset_plays_its_best_subset(tmp_path: Path) -> None:
    """The tables' evaluate played a holding of at most hand.size cards whole when it did not qualify;
    in a best-subset ruleset a smaller subset can be the better hand (the ace alone over A-K here)."""
    path = tmp_path / "lone-ace.yaml"
    path.write_text(LONE_ACE, encoding="utf-8")
    rules = load(path)
    assert engine_for(rules).evaluate(rules.cards("Ah Kd")).category == "lone_ace"
    tables_for(rules)
    assert fasthand.evaluate(rules, "Ah Kd").cards == ("Ah",)
    for _ in range(40):  # past the calls answered generically: the table closure
        hand = rules.evaluate("Ah Kd")
    assert (hand.category, hand.cards, hand.qualifies) == ("lone_ace", ("Ah",), False)
