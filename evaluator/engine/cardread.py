"""Reading cards at table speed: a precomputed token table per deck.

Most card text is plain (``"As Kd Qh Jc Ts 9s 8d"``): whitespace between
tokens, every token a card of the deck, no card repeated. Such text is read
with one ``split`` and one dictionary lookup per token; the table maps every
written form of every card of the deck (``As``, ``aS``, ``10h``, ``A♠``,
``♠A``, ``X1``...) to its card id, the index in ``Ruleset.deck``.

Anything else -- a token that is not in the table, commas or cards written
without spaces, a bare joker ``X`` (numbered by what else is written), a
repeated card, too long a text -- goes to the full reader
(:func:`read_cards_slowly`), which accepts or refuses it with the
same messages and positions as always. The error machinery therefore runs only
when a token is unusual, never for plain text.

Card ids in a sequence (``[0, 4, 8, 12, 16]``) and :class:`~evaluator.rules.cards.Card`
objects are taken as they are: checked against the deck, never re-read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..core.errors import CardError, PokerRulesError, caret, error
from ..rules.cards import _SYMBOL_TO_SUIT, MAX_CARD_TEXT, Card, tokenize

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

CardsLike = str | Sequence[Card | str | int]

# The most cards one text or sequence may hold
MAX_CARDS = 52


class DeckReader:
    """The token table of one ruleset's deck and the ids of its cards.

    >>> from evaluator import load
    >>> reader = deck_reader(load("standard"))
    >>> reader.fast_ids("As kd 10h")
    [48, 46, 33]
    """

    __slots__ = ("deck", "id_of", "tokens", "copies", "name", "jokers")

    def __init__(self, ruleset: Rules) -> None:
        self.deck: tuple[Card, ...] = ruleset.deck
        self.id_of: dict[Card, int] = {card: i for i, card in enumerate(self.deck)}
        self.copies = ruleset.copies
        self.jokers = ruleset.jokers
        self.name = ruleset.name
        symbols: dict[str, list[str]] = {}
        for symbol, suit in _SYMBOL_TO_SUIT.items():
            symbols.setdefault(suit, []).append(symbol)
        tokens: dict[str, int] = {}
        for i, card in enumerate(self.deck):
            if card.is_joker:
                # a bare X is numbered by the other jokers written: the full reader decides
                for form in (f"X{card.joker_number}", f"x{card.joker_number}"):
                    tokens[form] = i
                continue
            rank, suit = card.rank or "", card.suit or ""
            ranks = {rank, rank.lower()} | ({"10"} if rank == "T" else set())
            for r in ranks:
                for s in (suit.lower(), suit.upper()):
                    tokens[r + s] = i
                for s in symbols.get(suit, []):
                    tokens[r + s] = i
                    tokens[s + r] = i
        self.tokens = tokens

    def fast_ids(self, text: str) -> list[int] | None:
        """The card ids of plain card text, or None when the full reader must decide."""
        if len(text) > MAX_CARD_TEXT:
            return None
        tokens = self.tokens
        try:
            ids = [tokens[part] for part in text.split()]
        except KeyError:
            return None
        if len(set(ids)) != len(ids):
            return None  # a repeat: legal with several packs, else C103 with its position
        return ids

    def ids_of(self, items: Sequence[Card | str | int], source: str) -> list[int] | None:
        """Ids of a sequence of Card objects or card ids (None: it holds text to read)."""
        id_of = self.id_of
        ids: list[int] = []
        numbered = False
        for position, item in enumerate(items, start=1):
            if isinstance(item, Card):
                found = id_of.get(item)
                if found is None:
                    return None  # the full reader names the card and the deck
                ids.append(found)
            elif isinstance(item, int) and not isinstance(item, bool):
                if not 0 <= item < len(self.deck):
                    raise error(
                        CardError,
                        "C102",
                        f"card {position}, id {item}, is not in this deck "
                        f"({self.name} card ids run from 0 to {len(self.deck) - 1})",
                        source,
                        1,
                        position,
                    )
                ids.append(item)
                numbered = True
            else:
                return None
        if not numbered:
            # Card objects: a repeat is legal with several packs, else the full reader
            # reports it exactly as it always has
            return ids if len(set(ids)) == len(ids) else None
        if len(ids) > 52:
            raise error(CardError, "C105", f"{len(ids)} cards given; at most 52 are read", source, 1, 1)
        self.check_repeats(ids, source)
        return ids

    def check_repeats(self, ids: Sequence[int], source: str) -> None:
        """C103 for the first card held more often than the deck's packs hold it."""
        if len(set(ids)) == len(ids):
            return
        seen: dict[int, int] = {}
        for position, card_id in enumerate(ids, start=1):
            seen[card_id] = seen.get(card_id, 0) + 1
            card = self.deck[card_id]
            limit = 1 if card.is_joker else self.copies
            if seen[card_id] > limit:
                raise repeated_card(card, position, self.copies, self.name, source, position)


def repeated_card(
    card: Card, position: int, copies: int, name: str, source: str, col: int, context: str | None = None
) -> PokerRulesError:
    """C103: ``card`` (the ``position``-th given) is held more often than ``copies`` packs allow."""
    packs = "one pack" if copies == 1 else f"{copies} packs"
    return error(
        CardError,
        "C103",
        f"card {position}, {card}, is repeated ({name} uses {packs})",
        source,
        1,
        col,
        context=context,
    )


def deck_reader(ruleset: Rules) -> DeckReader:
    """The (cached) :class:`DeckReader` of ``ruleset``."""
    reader: DeckReader | None = getattr(ruleset, "_cache_reader", None)
    if reader is None:
        reader = DeckReader(ruleset)
        ruleset._cache_reader = reader
    return reader


def read_ids(ruleset: Rules, cards: CardsLike, source: str = "<cards>") -> list[int]:
    """Card ids (index in ``Ruleset.deck``) of ``cards``: text, Card objects or ids.

    >>> from evaluator import load
    >>> read_ids(load("standard"), "2s 2h")
    [0, 1]

    Raises:
        CardError: as :meth:`Ruleset.cards` (C101 unreadable, C102 not in the
            deck, C103 repeated, C105/C107 too many cards).
    """
    reader = deck_reader(ruleset)
    if isinstance(cards, str):
        ids = reader.fast_ids(cards)
    else:
        if isinstance(cards, (bytes, bytearray)) or not isinstance(cards, Iterable):
            raise cards_type_error(cards)
        ids = reader.ids_of(cards, source)
    if ids is not None and len(ids) <= 52:
        return ids
    id_of = reader.id_of
    return [id_of[card] for card in read_cards_slowly(ruleset, cards, source)]  # type: ignore[arg-type]


def cards_type_error(cards: object) -> TypeError:
    """The error for cards given as something that is neither text nor a sequence of cards.

    >>> str(cards_type_error(12345))
    "cards must be text such as 'As Kd Qh' or a sequence of cards (Card objects, card texts or card ids), not int 12345"
    """
    shown = f" {cards!r}" if len(repr(cards)) <= 40 else ""
    return TypeError(
        "cards must be text such as 'As Kd Qh' or a sequence of cards (Card objects, card texts or card ids), "
        f"not {type(cards).__name__}{shown}"
    )


def read_cards(ruleset: Rules, text: str | Sequence[Card | str | int], source: str = "<cards>") -> list[Card]:
    """Read ``text`` and check every card against ``ruleset``'s deck.

    Plain text, Card objects and card ids take the token table of
    this module; anything else is read by :func:`read_cards_slowly`.

    Raises:
        CardError: C101 unreadable, C102 not in the deck, C103 repeated more
            often than the packs allow, C105 too many cards.
    """
    deck = deck_reader(ruleset).deck
    return [deck[i] for i in read_ids(ruleset, text, source)]


def read_cards_slowly(ruleset: Rules, text: str | Sequence[Card | str], source: str = "<cards>") -> list[Card]:
    """Read ``text`` token by token and check every card against ``ruleset``'s deck.

    Raises:
        CardError: C101 unreadable, C102 not in the deck, C103 repeated more
            often than the packs allow, C105 too many cards.
    """
    if isinstance(text, str):
        tokens = tokenize(text, source)
        cards = [token.card for token in tokens]
        columns = [token.col for token in tokens]
        shown = text
    else:
        cards = []
        for item in text:
            cards.extend([item] if isinstance(item, Card) else [t.card for t in tokenize(str(item), source)])
        columns = list(range(1, len(cards) + 1))
        shown = " ".join(str(card) for card in cards)
        if any(not isinstance(item, Card) for item in text):
            columns = [shown.find(str(card)) + 1 for card in cards]
    if len(cards) > MAX_CARDS:
        raise error(CardError, "C105", f"{len(cards)} cards given; at most {MAX_CARDS} are read", source, 1, 1)
    seen: Counter[Card] = Counter()
    deck_ranks = set(ruleset.deck_ranks)
    for position, (card, col) in enumerate(zip(cards, columns, strict=False), start=1):
        context = caret(shown, col) if "\n" not in shown else None
        if card.is_joker:
            if card.joker_number > ruleset.jokers:
                have = (
                    "no jokers" if ruleset.jokers == 0 else f"{ruleset.jokers} joker{'s' if ruleset.jokers > 1 else ''}"
                )
                raise error(
                    CardError,
                    "C102",
                    f"card {position}, {card}, is not in this deck ({ruleset.name} has {have})",
                    source,
                    1,
                    col,
                    context=context,
                )
        elif card.rank not in deck_ranks or card.suit not in ruleset.suits:
            raise error(
                CardError,
                "C102",
                f"card {position}, {card}, is not in this deck ({ruleset.name}: ranks {' '.join(ruleset.deck_ranks)}, suits {' '.join(ruleset.suits)})",
                source,
                1,
                col,
                context=context,
            )
        seen[card] += 1
        limit = 1 if card.is_joker else ruleset.copies
        if seen[card] > limit:
            raise repeated_card(card, position, ruleset.copies, ruleset.name, source, col, context)
    return cards
