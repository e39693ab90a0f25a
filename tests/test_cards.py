"""Reading card strings: forms accepted, errors positioned, deck checks."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

import evaluator
from evaluator.core.errors import CardError, PokerRulesError
from evaluator.rules.cards import Card, format_cards, parse_cards, tokenize


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("As Kd 10h Tc", "As Kd Th Tc"),
        ("as kd 10H tc", "As Kd Th Tc"),
        ("As,Kd,Th", "As Kd Th"),
        ("AsKdTh", "As Kd Th"),
        ("A♠ K♥ 10♦ 2♣", "As Kh Td 2c"),
        ("♠A ♥K", "As Kh"),
        ("A♤ K♡ Q♢ J♧", "As Kh Qd Jc"),
        ("X", "X"),
        ("X X", "X X2"),
        ("X1 X2", "X X2"),
        ("X2 X", "X2 X"),
        ("  As\tKd\n", "As Kd"),
    ],
    ids=lambda value: repr(value),
)
def test_forms_accepted(text: str, expected: str) -> None:
    assert format_cards(parse_cards(text)) == expected


@pytest.mark.parametrize(
    ("text", "bad", "col"),
    [("As Zz Kd", "Zz", 4), ("As 1h", "1h", 4), ("Ax", "Ax", 1), ("As Kd Q", "Q", 7), ("As K-d", "K-d", 4)],
)
def test_bad_card_is_named_with_its_column(text: str, bad: str, col: int) -> None:
    with pytest.raises(CardError) as raised:
        parse_cards(text)
    problem = raised.value.first
    assert problem.code == "C101"
    assert repr(bad) in problem.message
    assert problem.col == col


def test_positions_of_tokens() -> None:
    assert [t.col for t in tokenize("As, Kd 10h")] == [1, 5, 8]


def test_card_not_in_deck() -> None:
    short = evaluator.load("short-deck")
    with pytest.raises(CardError) as raised:
        short.evaluate("As Ks Qs Js 2s")
    assert raised.value.code == "C102"
    assert raised.value.first.col == 13


def test_joker_not_in_deck() -> None:
    with pytest.raises(CardError) as raised:
        evaluator.load("standard").evaluate("As Ks Qs Js X")
    assert raised.value.code == "C102"


def test_duplicate_card_is_an_error_in_one_pack() -> None:
    with pytest.raises(CardError) as raised:
        evaluator.load("standard").evaluate("As Ks Qs As 2d")
    assert raised.value.code == "C103"
    assert raised.value.first.col == 10


def test_duplicate_card_is_legal_with_two_packs() -> None:
    hand = evaluator.load("two-decks").evaluate("As As Ks Qs Js")
    assert hand.category == "flush"
    with pytest.raises(CardError):
        evaluator.load("two-decks").evaluate("As As As Ks Qs")


def test_too_few_cards() -> None:
    with pytest.raises(CardError) as raised:
        evaluator.load("standard").evaluate("As Kd")
    assert raised.value.code == "C104"


@given(st.text(max_size=40))
def test_reading_never_fails_other_than_cleanly(text: str) -> None:
    try:
        cards = parse_cards(text)
    except PokerRulesError:
        return
    assert all(isinstance(card, Card) for card in cards)


@given(st.lists(st.sampled_from(evaluator.load("standard").deck), min_size=1, max_size=10, unique=True))
def test_format_then_parse_round_trips(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == cards


def test_a_card_pickled_in_one_process_is_the_same_dict_key_in_another() -> None:
    # a card keeps its hash; a string's hash differs between processes (Dask workers unpickle cards)
    import pickle
    import subprocess
    import sys

    blob = pickle.dumps([Card("A", "s"), Card.joker(2)])
    script = (
        "import pickle, sys\n"
        "from evaluator.rules.cards import Card\n"
        "ace, joker = pickle.loads(sys.stdin.buffer.read())\n"
        "found = {Card('A', 's'): 1, Card.joker(2): 2}\n"
        "print(found[ace], found[joker], ace == Card('A', 's'), hash(joker) == hash(Card.joker(2)))\n"
    )
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", script], input=blob, capture_output=True, env=env, check=True)
        assert done.stdout.decode().split() == ["1", "2", "True", "True"]


def test_cards_equal_by_rank_suit_and_joker_number_only() -> None:
    assert Card("A", "s") == Card("A", "s") and hash(Card("A", "s")) == hash(Card("A", "s"))
    assert Card("A", "s") != Card("A", "h") and Card.joker(1) != Card.joker(2)
    assert Card("A", "s") != ("A", "s", 0)
    assert replace(Card("A", "s"), suit="h") == Card("A", "h")
    assert hash(replace(Card("A", "s"), suit="h")) == hash(Card("A", "h"))
