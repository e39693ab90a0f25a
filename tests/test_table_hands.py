"""``Ruleset.evaluate`` on the tables: every field of a table hand equals the generic engine's.

A :class:`~evaluator.compiled.tablehand.TableHand` works its fields out from the
lookup tables on first access (the category and value from the table value,
the cards that play read off the class keys, the playing order and the words
from per-class data kept with the tables). The generic evaluator
(``Engine.evaluate``) is the reference: for every catalogue ruleset -- wild
cards, suit tie-breaks, low games, incomplete hands, best-subset games --
random holdings of every size the ruleset takes must give the same category,
cards, played_as, wilds, description, value, qualifier, strength and fill, and
compare the same way.
"""

from __future__ import annotations

import inspect
import random
from itertools import combinations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaluator import load
from evaluator.compiled import tablehand
from evaluator.compiled.classwords import read_words
from evaluator.compiled.table_cache import read_cache, write_cache
from evaluator.compiled.tablehand import TableHand
from evaluator.compiled.tables import build_tables, tables_for
from evaluator.core.errors import PokerRulesError
from evaluator.core.resources import catalogue_names
from evaluator.engine.hand import Hand
from evaluator.rules.cards import Card
from evaluator.rules.load import load_document
from evaluator.ruleset import Ruleset, build_ruleset

pytestmark = pytest.mark.usefixtures("table_cache")

CATALOGUE = catalogue_names()


def on_tables(name: str) -> Ruleset:
    """A ruleset whose tables are loaded, so that ``evaluate`` answers from them at once."""
    rs = load(name)
    tables_for(rs)
    return rs


def sizes(rs: Ruleset) -> list[int]:
    """Every holding size the ruleset takes, up to two cards past a hand."""
    low = max(rs.hand_min, 1)
    if rs.game is not None and (rs.game.use_hole is not None or rs.game.use_board is not None):
        return sorted({low, rs.hand_size})  # a card-usage rule: rank() takes one hand
    return sorted({low, max(low, rs.hand_size - 1), rs.hand_size, rs.hand_size + 1, rs.hand_size + 2})


def fields(hand: Hand) -> tuple[object, ...]:
    """Everything a hand gives."""
    return (
        hand.category,
        hand.cards,
        hand.played_as,
        hand.wilds,
        hand.describe(),
        hand.value,
        hand.qualifies,
        hand.strength,
        hand.fill.strength,
        hand.fill.classification.category.name,
        hand.fill.classification.value,
        str(hand),
        repr(hand),
        hand.as_dict(),
    )


def agree(rs: Ruleset, cards: list[Card], given: object) -> Hand:
    """Evaluate ``given`` (the same cards in some form) both ways and compare every field."""
    expected = rs.engine.evaluate(cards)
    got = rs.evaluate(given)  # type: ignore[arg-type]
    assert fields(got) == fields(expected), f"{rs.name}: {' '.join(map(str, cards))}"
    assert got == expected and hash(got) == hash(expected)
    return got


# freak-hands: every holding size of its suit classes, about 40 s of CPU (--slow)
@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.exhaustive) if n == "freak-hands" else n for n in CATALOGUE]
)
def test_table_hands_equal_the_generic_engine(name: str) -> None:
    rs = on_tables(name)
    rng = random.Random(f"table-hands-{name}")
    deck = list(rs.deck)
    fast = 0
    hands: list[tuple[Hand, Hand]] = []
    for k in sizes(rs):
        for n in range(30):
            cards = rng.sample(deck, k)
            forms: list[object] = [" ".join(map(str, cards)), cards, [str(card) for card in cards]]
            got = agree(rs, cards, forms[n % 3])
            fast += isinstance(got, TableHand)
            if k == rs.hand_size or rs.game is None:
                hands.append((got, rs.engine.evaluate(cards)))
    # table hands and generic hands compare alike, with each other too
    for (a, generic_a), (b, generic_b) in zip(hands, hands[1:], strict=False):
        assert (a < b, a > b, a == b) == (generic_a < generic_b, generic_a > generic_b, generic_a == generic_b)
        assert (a < generic_b, generic_a == b) == (generic_a < generic_b, generic_a == generic_b)
    assert fast > 0, f"{name}: no hand came from the tables"


@pytest.mark.parametrize("name", ["italian", "holdem", "seven-card-stud"])
def test_a_game_without_a_card_usage_rule_evaluates_big_holdings_on_the_tables(name: str) -> None:
    """A game's best hand of any holding (no use_hole / use_board) is the tables' answer, as
    ``pokerrules eval`` gives it: seven cards of italian or hold'em are not sent to the
    generic evaluator."""
    rs = on_tables(name)
    assert rs.game is not None and rs.game.use_hole is None and rs.game.use_board is None
    rng = random.Random(f"game-{name}")
    deck = list(rs.deck)
    for k in (rs.hand_size + 1, rs.hand_size + 2):
        for _ in range(15):
            cards = rng.sample(deck, k)
            assert isinstance(agree(rs, cards, " ".join(map(str, cards))), TableHand)


@pytest.mark.parametrize("name", ["standard", "deuces-wild", "ace-to-five", "two-decks", "short-deck", "joker-wild"])
def test_the_cards_that_play_when_ranks_repeat(name: str) -> None:
    """Holdings of few ranks: which of the cards of a rank play is the generic choice
    (the first subset in combinations order), read off the class keys."""
    rs = on_tables(name)
    rng = random.Random(f"repeats-{name}")
    deck = list(rs.deck)
    for _ in range(150):
        ranks = rng.sample(sorted({card.rank for card in deck if card.rank is not None}), rng.choice([2, 3, 4]))
        pool = [card for card in deck if card.rank in ranks or card.is_joker]
        k = min(len(pool), rng.choice([rs.hand_size + 1, rs.hand_size + 2]))
        if k < rs.hand_min:
            continue
        cards = rng.sample(pool, k)
        agree(rs, cards, " ".join(map(str, cards)))


def test_seven_cards_read_every_field_from_the_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """A plain hand's fields come from the tables alone: the generic evaluator is never asked."""
    rs = on_tables("standard")
    expected = {
        text: fields(rs.engine.evaluate(rs.cards(text))) for text in ("Kc Kd Ks 4h 4c 9s 2d", "9h 8h 7h 6h 5h 5c 5d")
    }

    def refuse(*args: object) -> None:
        raise AssertionError("the generic evaluator was asked")

    monkeypatch.setattr(rs.engine, "fill", refuse)
    monkeypatch.setattr(rs.engine, "classify", refuse)
    for text, want in expected.items():
        hand = rs.evaluate(text)
        assert isinstance(hand, TableHand)
        assert (hand.category, hand.cards, hand.played_as, hand.wilds, hand.describe(), hand.value, hand.strength) == (
            want[0],
            want[1],
            want[2],
            want[3],
            want[4],
            want[5],
            want[7],
        )


@pytest.mark.parametrize(
    "text",
    [
        "As As Kd Qh Jc",
        "As Kd",
        "As Kd Qh Jc Zz",
        "As,Kd,Qh,Jc,Ts",
        "",
        "As Kd Qh Jc 1h",
        "X As Kd Qh Jc",
        "10h Jh Qh Kh Ah",
    ],
)
def test_unusual_cards_say_what_the_generic_path_says(text: str) -> None:
    """Text the token table does not read goes to the full reader: the same hand or error."""
    rs = on_tables("standard")

    def outcome(call: object) -> object:
        try:
            return fields(call())  # type: ignore[operator]
        except PokerRulesError as problem:
            return str(problem)

    assert outcome(lambda: rs.evaluate(text)) == outcome(lambda: rs.engine.evaluate(rs.cards(text)))


def test_a_hand_that_does_not_qualify_is_the_generic_hand() -> None:
    rs = on_tables("ace-to-five-eight-or-better")
    hand = agree(rs, rs.cards("Ks Qd Jh 9c 9s 2d"), "Ks Qd Jh 9c 9s 2d")
    assert not hand.qualifies and not isinstance(hand, TableHand)


def test_class_words_survive_the_disk_cache(tmp_path: object) -> None:
    rs = load("standard")
    built = build_tables(rs)
    assert built.words is not None and "kings full of fours" in built.words.texts
    path = tmp_path / "standard.tables"  # type: ignore[operator]
    assert write_cache(built, path)
    read = read_cache(rs, path)
    assert read is not None and read.words is not None
    assert read.words.texts == built.words.texts
    for k, indices in built.words.nf.items():
        assert np.array_equal(read.words.nf[k], indices)
    assert np.array_equal(read.words.fl, built.words.fl)


def test_words_that_do_not_fit_the_tables_are_refused() -> None:
    built = build_tables(load("standard"))
    assert built.words is not None
    arrays = built.words.arrays()
    lengths = {k: len(v) for k, v in built.words.nf.items()}
    assert read_words(arrays, lengths, len(built.words.fl)) is not None
    for damage in (
        lambda a: a.update(words_fl=a["words_fl"][:-1]),
        lambda a: a.update(words_ends=a["words_ends"] + 1),
        lambda a: a.update(words_fl=np.full_like(a["words_fl"], len(built.words.texts))),  # type: ignore[union-attr]
        lambda a: a.pop("words_nf_5"),
    ):
        broken = dict(arrays)
        damage(broken)
        with pytest.raises(ValueError):
            read_words(broken, lengths, len(built.words.fl))


def test_brute_force_first_subset_on_a_small_deck() -> None:
    """Every seven-card holding of a 12-card deck: the cards that play are the first
    five-card subset, in combinations order, whose generic strength is the best."""
    rs = on_tables("standard")
    deck = [Card(rank, suit) for rank in "AK9" for suit in "shdc"]
    for held in combinations(deck, 7):
        cards = list(held)
        fills = [rs.engine.fill(list(subset), [False] * 5) for subset in combinations(cards, 5)]
        best = max(fill.strength for fill in fills if fill is not None)
        first = next(fill for fill in fills if fill is not None and fill.strength == best)
        hand = rs.evaluate(cards)
        assert hand.cards == tuple(str(card) for card in first.cards)


def test_a_kept_evaluate_function_moves_to_the_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """``evaluate = rs.evaluate`` taken before the tables are worth loading: once they
    are, the kept function answers from them too (not the generic path for ever)."""
    rs = on_tables("standard")
    ready = [False]
    monkeypatch.setattr(tablehand, "fast_mode", lambda ruleset, what: ready[0])
    built = []
    make = tablehand.table_evaluator
    monkeypatch.setattr(tablehand, "table_evaluator", lambda *args: built.append(1) or make(*args))
    evaluate = tablehand.evaluator(rs)
    text = "Kc Kd Ks 4h 4c 9s 2d"
    first = evaluate(text)
    assert not isinstance(first, TableHand)
    ready[0] = True
    hands = [evaluate(text) for _ in range(3)]
    assert all(isinstance(hand, TableHand) for hand in hands)
    assert len(built) == 1  # made once, not once per call
    assert fields(hands[-1]) == fields(first)
    assert isinstance(rs.evaluate(text), TableHand)


#: Wild cards (jokers, deuces, one-eyed jacks), suit tie-breaks, low games, short and
#: small decks, two packs: the table paths that differ.
PROPERTY_RULESETS = [
    "standard",
    "joker-wild",
    "deuces-wild",
    "one-eyed-jacks",
    "two-jokers-wild",
    "natural-beats-wild",
    "suits-bridge",
    "suits-house-paired",
    "ace-to-five",
    "ace-to-five-joker",
    "deuce-to-seven",
    "short-deck",
    "stripped-32",
    "two-decks",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_holding_equals_the_generic_engine(data: st.DataObject) -> None:
    """Hypothesis: any ruleset of the list, any holding of one to two cards past a
    hand, as text: every field equals the generic evaluator's."""
    rs = on_tables(data.draw(st.sampled_from(PROPERTY_RULESETS), label="ruleset"))
    deck = list(rs.deck)
    k = data.draw(st.integers(max(rs.hand_min, 1), rs.hand_size + 2), label="size")
    cards = data.draw(st.permutations(deck).map(lambda order: order[:k]), label="cards")
    agree(rs, cards, " ".join(map(str, cards)))


def test_the_table_function_keeps_the_method_face() -> None:
    """Once the tables take over, ``rs.evaluate`` still shows the method's name,
    docstring and signature (``help(rs.evaluate)``)."""
    rs = build_ruleset(load_document("standard"))
    first = rs.evaluate
    assert [rs.evaluate("Kc Kd Ks 4h 4c 9s 2d") for _ in range(40)][-1].category == "full_house"
    assert rs.evaluate is not first  # the table function replaced the warming one
    assert isinstance(rs.evaluate("Kc Kd Ks 4h 4c"), TableHand)
    for function in (first, rs.evaluate):
        assert function.__name__ == "evaluate" and function.__doc__ == Ruleset.evaluate.__doc__
        assert list(inspect.signature(function).parameters) == ["cards"]
