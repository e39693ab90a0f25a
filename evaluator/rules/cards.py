"""Cards and the reading of card strings.

A card is a rank symbol and a suit letter (``As``, ``Td``) or a joker (``X``,
``X1``, ``X2``). Reading is forgiving about form and strict about content:
case does not matter, ``10`` and ``T`` are the same rank, the suit symbols
♠♥♦♣ (and their white forms) may stand after or before the rank, and cards may
be separated by spaces, commas or nothing at all (``AsKd``). Anything that is
not a card is reported with the offending text and its column, never guessed.

Whether a card belongs to a ruleset's deck, and whether a repeated card is
legal, depends on the deck, so those checks live with the ruleset.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import CardError, caret, error

RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
SUITS: tuple[str, ...] = ("s", "h", "d", "c")
SUIT_SYMBOLS: dict[str, str] = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SUIT_NAMES: dict[str, str] = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}

_SYMBOL_TO_SUIT = {"♠": "s", "♤": "s", "♥": "h", "♡": "h", "♦": "d", "♢": "d", "♣": "c", "♧": "c"}
_SUIT_CLASS = "SHDCshdc♠♤♥♡♦♢♣♧"
_RANK_PATTERN = r"10|[2-9TJQKAtjqka]"
_TOKEN = re.compile(
    rf"(?P<joker>[Xx][12]?(?![0-9A-Za-z]))"
    rf"|(?P<rank>{_RANK_PATTERN})(?P<suit>[{_SUIT_CLASS}])"
    rf"|(?P<suit_first>[{_SUIT_CLASS[8:]}])(?P<rank_after>{_RANK_PATTERN})"
)
_SEPARATORS = " \t\r\n,;"
# Card text is read from strangers (command lines, stdin, files): refuse a text
# far longer than any hand before scanning it (a 10 MB string is not 3 million
# cards to collect), and never echo more than a short piece of a bad token.
MAX_CARD_TEXT = 4_000
_MAX_SHOWN_TOKEN = 20


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a rank symbol and a suit letter, or a joker numbered 1 or 2.

    Cards sort by rank symbol and suit letter, jokers after every natural card
    (a deck with jokers sorts like any other):

    >>> Card("A", "s")
    Card('As')
    >>> str(Card.joker(1)), str(Card.joker(2))
    ('X', 'X2')
    >>> sorted([Card.joker(1), Card("K", "s"), Card("A", "h")])
    [Card('Ah'), Card('Ks'), Card('X')]
    """

    rank: str | None
    suit: str | None
    joker_number: int = 0
    # cards are dict keys in every walk: the hash is computed once (the dataclass's own is a
    # Python call building a tuple each time)
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.rank, self.suit, self.joker_number)))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Card):
            return NotImplemented
        return self.rank == other.rank and self.suit == other.suit and self.joker_number == other.joker_number

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt through __init__: a string's hash differs between processes
        return (Card, (self.rank, self.suit, self.joker_number))

    def _order(self) -> tuple[int, str, str]:
        return (self.joker_number, self.rank or "", self.suit or "")

    def __lt__(self, other: Card) -> bool:
        return self._order() < other._order()

    def __le__(self, other: Card) -> bool:
        return self._order() <= other._order()

    def __gt__(self, other: Card) -> bool:
        return self._order() > other._order()

    def __ge__(self, other: Card) -> bool:
        return self._order() >= other._order()

    @staticmethod
    def joker(number: int = 1) -> Card:
        """The joker with the given number (1 or 2)."""
        return Card(None, None, number)

    @property
    def is_joker(self) -> bool:
        """True for a joker."""
        return self.joker_number > 0

    def __str__(self) -> str:
        if self.is_joker:
            # the first joker is plain X, as players write it; a second one is X2
            return "X" if self.joker_number == 1 else f"X{self.joker_number}"
        return f"{self.rank}{self.suit}"

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def pretty(self) -> str:
        """The card with a suit symbol, e.g. ``A♠`` (jokers stay ``X``, ``X2``)."""
        if self.is_joker:
            return str(self)
        return f"{'10' if self.rank == 'T' else self.rank}{SUIT_SYMBOLS[self.suit or 's']}"


@dataclass(frozen=True, slots=True)
class CardToken:
    """A card read from a string, with the 1-based column it started at."""

    card: Card
    col: int
    text: str


def _normal_rank(text: str) -> str:
    return "T" if text == "10" else text.upper()


def _bad_token_at(text: str, start: int) -> str:
    end = start
    while end < len(text) and end - start < _MAX_SHOWN_TOKEN and text[end] not in _SEPARATORS:
        end += 1
    return text[start:end] or text[start : start + 1]


def tokenize(text: str, source: str = "<cards>") -> list[CardToken]:
    """Read every card of ``text`` in order, keeping where each one stood.

    Jokers written ``X`` take the lowest joker numbers not written out
    (``X X`` -> X1 X2; ``X2 X`` -> X2 X1).

    >>> [str(t.card) for t in tokenize("As, kd 10h♣T")]
    ['As', 'Kd', 'Th', 'Tc']

    Raises:
        CardError: C101 for text that is not a card, with its column; C107
            for a text longer than ``MAX_CARD_TEXT`` characters.
    """
    if len(text) > MAX_CARD_TEXT:
        raise error(
            CardError,
            "C107",
            f"the card text is {len(text):,} characters long; the limit is {MAX_CARD_TEXT:,}",
            source,
            1,
            1,
            hint="give one hand at a time (pokerrules eval reads one hand per line from -)",
        )
    tokens: list[CardToken] = []
    position = 0
    plain_jokers: list[int] = []  # indexes of tokens written as a bare X
    while position < len(text):
        if text[position] in _SEPARATORS:
            position += 1
            continue
        match = _TOKEN.match(text, position)
        if match is None:
            bad = _bad_token_at(text, position)
            raise error(
                CardError,
                "C101",
                f"{bad!r} is not a card (card {len(tokens) + 1}, column {position + 1})",
                source,
                1,
                position + 1,
                hint="write a rank 2-9, T or 10, J, Q, K, A and a suit s, h, d, c (or ♠♥♦♣); jokers X, X1, X2",
                context=caret(text, position + 1) if "\n" not in text else None,
            )
        if match.group("joker"):
            digits = match.group("joker")[1:]
            if not digits:
                plain_jokers.append(len(tokens))
            card = Card.joker(int(digits) if digits else 0)
        elif match.group("rank"):
            suit_text = match.group("suit")
            suit = _SYMBOL_TO_SUIT.get(suit_text, suit_text.lower())
            card = Card(_normal_rank(match.group("rank")), suit)
        else:
            card = Card(_normal_rank(match.group("rank_after")), _SYMBOL_TO_SUIT[match.group("suit_first")])
        tokens.append(CardToken(card, position + 1, match.group(0)))
        position = match.end()
    if plain_jokers:
        written = {t.card.joker_number for t in tokens if t.card.is_joker and t.card.joker_number}
        free = (n for n in range(1, len(tokens) + 2) if n not in written)
        for index, number in zip(plain_jokers, free, strict=False):
            old = tokens[index]
            tokens[index] = CardToken(Card.joker(number), old.col, old.text)
    return tokens


def parse_cards(text: str, source: str = "<cards>") -> list[Card]:
    """Read the cards of ``text`` (see :func:`tokenize`).

    >>> parse_cards("AsKd")
    [Card('As'), Card('Kd')]
    """
    return [token.card for token in tokenize(text, source)]


def format_cards(cards: list[Card] | tuple[Card, ...]) -> str:
    """Cards as one space-separated string.

    >>> format_cards(parse_cards("as kd"))
    'As Kd'
    """
    return " ".join(str(card) for card in cards)


def rank_token(value: object) -> str:
    """Normalise a rank as written in YAML (``2``, ``"10"``, ``t``) to its symbol.

    >>> rank_token(10), rank_token("q"), rank_token(7)
    ('T', 'Q', '7')

    Raises:
        ValueError: when ``value`` is not a rank.
    """
    text = str(value).strip()
    symbol = _normal_rank(text) if re.fullmatch(_RANK_PATTERN, text) else ""
    if symbol not in RANKS:
        raise ValueError(f"{value!r} is not a rank")
    return symbol


# Ranks as people also write them: 1 and 14 for the ace, 11-13 for the court, words.
_RANK_WORDS = {
    "1": "A",
    "0": "T",
    "11": "J",
    "12": "Q",
    "13": "K",
    "14": "A",
    "ace": "A",
    "king": "K",
    "queen": "Q",
    "jack": "J",
    "ten": "T",
    **{word: str(n) for n, word in enumerate(("two", "three", "four", "five", "six", "seven", "eight", "nine"), 2)},
}


def rank_hint(value: object, ranks: tuple[str, ...] = RANKS) -> str | None:
    """A did-you-mean hint for something written where a rank belongs, or None.

    >>> rank_hint(1), rank_hint("t"), rank_hint("Queen"), rank_hint("Z")
    ("did you mean 'A'?", "did you mean 'T'?", "did you mean 'Q'?", None)
    >>> rank_hint(5, ranks=("7", "8", "9", "T", "J", "Q", "K", "A")) is None
    True
    """
    text = str(value).strip()
    symbol = _RANK_WORDS.get(text.lower()) or (_normal_rank(text) if re.fullmatch(_RANK_PATTERN, text) else None)
    if symbol is None or symbol not in ranks or symbol == text:
        return None
    return f"did you mean {symbol!r}?"
