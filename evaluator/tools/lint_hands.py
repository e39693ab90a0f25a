"""The hands a ruleset's deck can deal, as the coverage check needs them.

:class:`_HandSpace` knows the deck of one built ruleset: which natural cards
each rank has, the wild cards it holds, the multisets of ranks it can deal,
and real cards to stand for a hand class in messages.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING

from ..rules.cards import Card
from ..rules.work import pattern_factor

if TYPE_CHECKING:
    from ..rules.patterns import HandClass
    from ..ruleset import Ruleset


class _HandSpace:
    """The deck of one built ruleset, seen as rank multisets and real cards."""

    def __init__(self, ruleset: Ruleset, source: str) -> None:
        self.ruleset = ruleset
        self.source = source
        self.document = ruleset.document
        self.engine = ruleset.engine
        self.wild = ruleset.wild
        self.symbols = ruleset.rank_symbols  # weakest first: value i is symbols[i]
        self.size = ruleset.hand_size
        self.sizes = range(self.size, max(ruleset.hand_min, 1) - 1, -1)  # full hands first
        self.copies = ruleset.copies
        # Which suits each rank has as natural (never wild) cards.
        self.natural_suits: list[tuple[str, ...]] = [
            ()
            if symbol in self.wild.ranks
            else tuple(s for s in ruleset.suits if Card(symbol, s) not in self.wild.cards)
            for symbol in self.symbols
        ]
        self.caps = [len(suits) * self.copies for suits in self.natural_suits]
        # Cards are made by the thousand: build each one once.
        self.card_of = [{s: Card(symbol, s) for s in ruleset.suits} for symbol in self.symbols]
        self.wild_cards = self._wild_supply()
        self.dead_jokers = ruleset.jokers if not self.wild.jokers else 0
        self.uses_wilds = bool(self.wild_cards) or self.wild.lowest_rank
        # Suit identity only matters to patterns that compare it (`suit = h`).
        self.flush_suits = ruleset.suits if self.engine.flush_needs_suit else ruleset.suits[:1]
        # large patterns make every classification and every match cost more (see evaluator.rules.work)
        self.factor = pattern_factor(category.pattern for category in ruleset.categories)

    def _wild_supply(self) -> list[Card]:
        """One real card for each wild card the deck holds (jokers first)."""
        cards: list[Card] = []
        if self.wild.jokers:
            cards += [Card.joker(n) for n in range(1, self.ruleset.jokers + 1)]
        for card in sorted(self.wild.cards, key=str):
            if not card.is_joker:
                cards += [card] * self.copies
        for symbol in self.ruleset.deck_ranks:
            if symbol in self.wild.ranks:
                cards += [Card(symbol, s) for s in self.ruleset.suits for _ in range(self.copies)]
        return cards

    def _multisets(self, n: int) -> Iterator[tuple[int, ...]]:
        """Every multiset of ``n`` natural rank values, high to low, within the deck's counts."""
        values = [v for v in range(len(self.symbols) - 1, -1, -1) if self.caps[v] > 0]
        capped = any(self.caps[v] < n for v in values)
        for combo in combinations_with_replacement(values, n):
            if capped and any(count > self.caps[v] for v, count in Counter(combo).items()):
                continue
            yield combo

    def _variants(self, combo: tuple[int, ...], k: int) -> Iterator[tuple[str | None, list[Card]]]:
        """The natural cards worth telling apart, with their suit (None: not all of one suit).

        An incomplete hand needs one representative (flushes need a full hand).
        A full one: mixed suits, and all of one suit -- each suit when a pattern
        compares suits, else the first suit that can hold these ranks naturally
        (with wild cards such as Js, a natural jack is not in every suit).
        """
        if k < self.size:
            cards = self._representative(combo, None, mixed=False)
            if cards is not None:
                yield None, cards
            return
        if len(combo) >= 2:
            cards = self._representative(combo, None)
            if cards is not None:
                yield None, cards
        elif not combo:
            yield None, []
            return
        for suit in self.ruleset.suits:
            cards = self._representative(combo, suit)
            if cards is not None:
                yield suit, cards
                if not self.engine.flush_needs_suit:
                    return

    def _representative(self, combo: tuple[int, ...], suit: str | None, mixed: bool = True) -> list[Card] | None:
        """Real natural cards with these ranks: all of ``suit``, or (``mixed``) not all of one suit.

        None when the deck cannot deal such cards.
        """
        card_of = self.card_of
        if suit is not None and combo:
            if any(suit not in self.natural_suits[v] for v in combo) or (
                self.copies < len(combo) and max(Counter(combo).values()) > self.copies
            ):
                return None
            return [card_of[v][suit] for v in combo]
        cards: list[Card] = []
        for index, (value, count) in enumerate(sorted(Counter(combo).items(), reverse=True)):
            # a rank whose every card is wild (deuces wild) is shown as its own cards: a wild
            # card may stand for itself, so a played class can hold it
            options = self.natural_suits[value] or tuple(self.ruleset.suits)
            start = index % len(options)  # rotate, so that different ranks take different suits
            cards += [card_of[value][options[(start + j) % len(options)]] for j in range(count)]
        if mixed and len(cards) >= 2 and len({card.suit for card in cards}) == 1:
            cards = self._unsuit(cards)
        return cards if cards or not combo else None

    def _unsuit(self, cards: list[Card]) -> list[Card]:
        """Move one card to another suit so that the cards are not all of one suit (or give up)."""
        used = Counter(cards)
        for index in range(len(cards) - 1, -1, -1):
            card = cards[index]
            value = self.symbols.index(card.rank or "")
            for other in self.natural_suits[value]:
                replacement = Card(card.rank, other)
                if other != card.suit and used[replacement] < self.copies:
                    return [*cards[:index], replacement, *cards[index + 1 :]]
        return []  # every card can only be of that suit: no mixed hand has these ranks

    def _example_of(self, hand_class: HandClass) -> str:
        """A real hand of a class, for messages."""
        combo = hand_class.ranks
        cards = self._representative(combo, hand_class.flush_suit) if hand_class.flush_suit else None
        if cards is None:
            cards = self._representative(combo, None) or [Card(self.symbols[v], self.ruleset.suits[0]) for v in combo]
        return " ".join(str(card) for card in cards)
