"""Reading card strings: forms accepted, errors positioned, deck checks."""

from __future__ import annotations

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
