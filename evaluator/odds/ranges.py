"""Hand ranges in the syntax players know (PokerStove / Equilab).

A range is a comma-separated list of items, each optionally weighted
(``QQ:0.5``):

- a pair class ``QQ``, or ``QQ+`` (queens and every higher pair), or ``QQ-88``;
- a two-rank class ``AKs`` (suited), ``AKo`` (offsuit), ``AK`` (both);
  ``KTs+`` raises the second rank up to just below the first (KTs KJs KQs);
  ``A5s-A2s`` runs the second rank; ``T9s-65s`` runs both ranks, keeping the gap;
- explicit cards ``AhKh`` (one combination);
- ``random`` or ``*``: any cards (dealt from what is left of the deck).

A hand given as cards alone (``AhKh``, ``As Kd 5c``) is a range of one
combination; it may hold fewer cards than the game deals (the rest is dealt).

Ranks follow the ruleset's deck (a ``2`` in a short deck is an error at its
column) and run in the deck's written order, ace highest. Rank classes need a
game of two hole cards. Combinations are built over the deck's suits and
listed once (a repeated combination keeps the last weight given).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING

from ..core.errors import CardError, PokerRulesError, caret, error
from ..rules.cards import RANKS, Card, tokenize

if TYPE_CHECKING:
    from ..rules.ruleset import Rules


class RangeError(PokerRulesError):
    """A hand range that cannot be read, or that means nothing in this ruleset."""


_CLASS = re.compile(r"(?P<a>10|[2-9TJQKA])(?P<b>10|[2-9TJQKA])(?P<suited>[so])?(?P<plus>\+)?$", re.IGNORECASE)
_SPAN = re.compile(
    r"(?P<a>10|[2-9TJQKA])(?P<b>10|[2-9TJQKA])(?P<suited>[so])?-(?P<c>10|[2-9TJQKA])(?P<d>10|[2-9TJQKA])(?P<suited2>[so])?$",
    re.IGNORECASE,
)
RANDOM_WORDS = ("random", "*", "any")
#: A range text longer than this is refused before it is read.
MAX_RANGE_TEXT = 4_000


@dataclass(frozen=True)
class HandRange:
    """A player's hand: weighted combinations of known cards.

    ``combos`` are tuples of cards (all of one length); an empty tuple means
    nothing is known (``random``): every card of the hand is dealt.
    """

    text: str
    combos: tuple[tuple[Card, ...], ...]
    weights: tuple[float, ...]

    @property
    def known(self) -> int:
        """Cards known in each combination (0 for ``random``)."""
        return len(self.combos[0]) if self.combos else 0

    @property
    def is_fixed(self) -> bool:
        """True when the hand is one combination of known cards (or random)."""
        return len(self.combos) == 1


def _fail(code: str, message: str, source: str, text: str, col: int, hint: str | None = None) -> RangeError:
    problem = error(
        RangeError, code, message, source, 1, col, hint=hint, context=caret(text, col) if "\n" not in text else None
    )
    assert isinstance(problem, RangeError)
    return problem


def _rank(symbol: str) -> str:
    return "T" if symbol == "10" else symbol.upper()


class _Reader:
    """Reads one range text against one ruleset, keeping columns for errors."""

    def __init__(self, ruleset: Rules, text: str, hole: int, source: str) -> None:
        self.ruleset = ruleset
        self.text = text
        self.hole = hole
        self.source = source
        self.order = list(ruleset.deck_ranks)
        if "A" in self.order and ruleset.ace == "low":
            # ranges are written with the ace high, whatever the game's ace rule
            self.order = [rank for rank in self.order if rank != "A"] + ["A"]
        self.deck = set(ruleset.deck)

    def fail(self, code: str, message: str, col: int, hint: str | None = None) -> RangeError:
        return _fail(code, message, self.source, self.text, col, hint)

    def check_rank(self, symbol: str, col: int) -> int:
        rank = _rank(symbol)
        if rank not in self.order:
            raise self.fail(
                "O102", f"rank {rank} is not in the {self.ruleset.name} deck ({' '.join(self.ruleset.deck_ranks)})", col
            )
        return self.order.index(rank)

    def pairs(self, rank: int) -> list[tuple[Card, ...]]:
        symbol = self.order[rank]
        return [(Card(symbol, a), Card(symbol, b)) for a, b in combinations(self.ruleset.suits, 2)]

    def two_ranks(self, high: int, low: int, suited: str | None) -> list[tuple[Card, ...]]:
        first, second = self.order[high], self.order[low]
        suits = self.ruleset.suits
        found: list[tuple[Card, ...]] = []
        for a in suits:
            for b in suits:
                if (suited == "s" and a != b) or (suited == "o" and a == b):
                    continue
                found.append((Card(first, a), Card(second, b)))
        return found

    def klass(self, high: int, low: int, suited: str | None, col: int) -> list[tuple[Card, ...]]:
        if high == low:
            if suited == "s":
                raise self.fail("O101", "a pair cannot be suited", col)
            return self.pairs(high)
        if high < low:
            high, low = low, high
        return self.two_ranks(high, low, suited)

    def item(self, body: str, col: int) -> list[tuple[Card, ...]]:
        """The combinations of one item (without its weight)."""
        if body.lower() in RANDOM_WORDS:
            return [()]
        span = _SPAN.match(body)
        if span:
            return self.span(span, col)
        single = _CLASS.match(body)
        if single:
            self.need_two(col)
            a = self.check_rank(single["a"], col)
            b = self.check_rank(single["b"], col + len(single["a"]))
            suited = single["suited"].lower() if single["suited"] else None
            if not single["plus"]:
                return self.klass(a, b, suited, col)
            if a == b:
                return [combo for rank in range(a, len(self.order)) for combo in self.pairs(rank)]
            high, low = max(a, b), min(a, b)
            return [combo for kicker in range(low, high) for combo in self.klass(high, kicker, suited, col)]
        return [self.cards(body, col)]

    def need_two(self, col: int) -> None:
        if self.hole != 2:
            raise self.fail(
                "O105",
                f"rank classes (AKs, QQ+) need two hole cards; {self.ruleset.name} deals {self.hole}",
                col,
                "give the cards (AhKhQdJd) or random",
            )

    def span(self, match: re.Match[str], col: int) -> list[tuple[Card, ...]]:
        self.need_two(col)
        cols = [col + match.start(name) for name in ("a", "b", "c", "d")]
        a, b, c, d = (self.check_rank(match[name], at) for name, at in zip(("a", "b", "c", "d"), cols, strict=True))
        suited = (match["suited"] or "").lower() or None
        if suited != ((match["suited2"] or "").lower() or None):
            raise self.fail("O104", "both ends of a span must be alike (suited, offsuit or either)", col)
        if a == b or c == d:
            if not (a == b and c == d):
                raise self.fail("O104", "a span of pairs runs from one pair to another (QQ-88)", col)
            low, high = sorted((a, c))
            return [combo for rank in range(low, high + 1) for combo in self.pairs(rank)]
        (a, b), (c, d) = sorted((a, b), reverse=True), sorted((c, d), reverse=True)
        if a == c:  # A5s-A2s: the second rank runs
            low, high = sorted((b, d))
            return [combo for kicker in range(low, high + 1) for combo in self.klass(a, kicker, suited, col)]
        if a - b == c - d:  # T9s-65s: both ranks run, the gap kept
            low, high = sorted((a, c))
            return [combo for top in range(low, high + 1) for combo in self.klass(top, top - (a - b), suited, col)]
        raise self.fail("O104", "a span keeps its first rank (A5s-A2s) or its gap (T9s-65s)", col)

    def cards(self, body: str, col: int) -> tuple[Card, ...]:
        try:
            tokens = tokenize(body, self.source)
        except CardError as problem:
            at = col + problem.first.col - 1
            raise self.fail(
                "O101",
                f"{body!r} is neither cards nor a hand range (column {at})",
                at,
                "write cards (AhKh), classes (QQ+, AKs, AKo, A5s-A2s, T9s-65s), random or *, weights as QQ:0.5",
            ) from None
        seen: set[Card] = set()
        for token in tokens:
            at = col + token.col - 1
            if token.card not in self.deck:
                raise self.fail("O102", f"{token.card} is not a card of the {self.ruleset.name} deck", at)
            if token.card in seen and self.ruleset.copies == 1:
                raise self.fail("O110", f"{token.card} is given twice in one hand", at)
            seen.add(token.card)
        return tuple(token.card for token in tokens)

    def read(self) -> HandRange:
        text = self.text
        if len(text) > MAX_RANGE_TEXT:
            raise self.fail("O101", f"the range is {len(text):,} characters long; the limit is {MAX_RANGE_TEXT:,}", 1)
        if not text.strip():
            raise self.fail("O101", "an empty hand: give cards, a range or random", 1)
        merged: dict[tuple[Card, ...], tuple[tuple[Card, ...], float]] = {}  # sorted combo -> (as written, weight)
        start = 0
        pieces = text.split(",")
        for piece in pieces:
            stripped = piece.strip()
            col = start + (len(piece) - len(piece.lstrip())) + 1
            start += len(piece) + 1
            if not stripped:
                raise self.fail("O101", "an empty item in the range", col)
            body, weight = stripped, 1.0
            if ":" in stripped:
                body, _, weight_text = stripped.rpartition(":")
                body = body.strip()
                try:
                    weight = float(weight_text)
                except ValueError:
                    weight = -1.0
                if not 0.0 <= weight <= 1.0 or weight != weight:
                    raise self.fail(
                        "O103",
                        f"the weight {weight_text.strip()!r} is not a number from 0 to 1",
                        col + len(stripped) - len(weight_text),
                    )
            for combo in self.item(body, col):
                merged[tuple(sorted(combo, key=str))] = (combo, weight)
        combos = [combo for combo, weight in merged.values() if weight > 0]
        if not combos:
            raise self.fail("O106", "every combination of this range has weight 0", 1)
        sizes = {len(combo) for combo in combos}
        if len(sizes) > 1 or (len(combos) > 1 and sizes != {self.hole}):
            raise self.fail(
                "O107", f"every item of a range must give all {self.hole} hole cards (or be the only item)", 1
            )
        if sizes.pop() > self.hole:
            raise self.fail(
                "O107", f"{len(combos[0])} cards given; {self.ruleset.name} deals {self.hole} to each player", 1
            )
        return HandRange(text, tuple(combos), tuple(weight for _, weight in merged.values() if weight > 0))


def parse_range(ruleset: Rules, text: str, hole: int = 2, source: str = "<hand>") -> HandRange:
    """Read a hand or a range for a game dealing ``hole`` cards to each player.

    >>> from evaluator import load
    >>> len(parse_range(load("holdem"), "QQ+, AKs").combos)
    22
    >>> parse_range(load("holdem"), "AhKh").combos
    ((Card('Ah'), Card('Kh')),)

    Raises:
        RangeError: O101 unreadable, O102 a rank or card not in the deck, O103
            a bad weight, O104 a bad span, O105 classes without two hole cards,
            O106 nothing left, O107 the wrong number of cards; each with its column.
    """
    return _Reader(ruleset, text, hole, source).read()


def grid_ranks(ruleset: Rules) -> list[str]:
    """The ranks along a starting-hand grid, highest first (the ace high, as classes are written).

    >>> from evaluator import load
    >>> grid_ranks(load("short-deck-holdem"))
    ['A', 'K', 'Q', 'J', 'T', '9', '8', '7', '6']
    """
    order = list(ruleset.deck_ranks)
    if "A" in order:
        order = [rank for rank in order if rank != "A"] + ["A"]
    return order[::-1]


def combo_count_text(hand_range: HandRange) -> str:
    """A short description: ``AhKh``, ``random`` or ``QQ+,AKs (22 combos)``."""
    if hand_range.is_fixed:
        return " ".join(str(card) for card in hand_range.combos[0]) or "random"
    return f"{hand_range.text} ({len(hand_range.combos)} combos)"


__all__ = ["HandRange", "RangeError", "parse_range", "combo_count_text", "grid_ranks", "RANDOM_WORDS", "RANKS"]
