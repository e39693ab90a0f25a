"""The result of an evaluation: what plays, in which category, and how to say it.

A :class:`Hand` is what users hold on to: the category, the cards that play
(and what each wild card stands for), the value that orders it, and a
description rendered from the ruleset's template ("kings full of fours").
Hands of rulesets without ``beats:`` exceptions compare with ``<`` and ``==``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..rules.patterns import run_bottom, run_top
from .fill import Fill

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

RANK_NAMES: dict[str, tuple[str, str]] = {
    "2": ("two", "twos"),
    "3": ("three", "threes"),
    "4": ("four", "fours"),
    "5": ("five", "fives"),
    "6": ("six", "sixes"),
    "7": ("seven", "sevens"),
    "8": ("eight", "eights"),
    "9": ("nine", "nines"),
    "T": ("ten", "tens"),
    "J": ("jack", "jacks"),
    "Q": ("queen", "queens"),
    "K": ("king", "kings"),
    "A": ("ace", "aces"),
}

_FIELD = re.compile(r"\{(\w+)(?::(\w+))?\}")


class Hand:
    """An evaluated hand. ``strength`` orders hands (bigger wins) where no
    ``beats:`` exception applies; ``value`` is the high-poker value.

    A hand is immutable. Its fields are worked out on first access: a hand of
    the generic evaluator from its :class:`Fill`, a hand answered from the
    lookup tables (``compiled/tablehand.py``) from the tables, so that what is
    never asked for is never computed.
    """

    __slots__ = ("ruleset", "_fill", "_cards", "_played_as", "_wilds")

    ruleset: Rules

    def __init__(self, ruleset: Rules, fill: Fill | None = None) -> None:
        self.ruleset = ruleset
        if fill is not None:
            self._fill = fill

    @staticmethod
    def from_fill(ruleset: Rules, fill: Fill) -> Hand:
        """Wrap an evaluator result."""
        return Hand(ruleset, fill)

    # --- what the generic evaluator found (a table hand fills it in on demand) -----------------

    @property
    def fill(self) -> Fill:
        """The generic evaluator's best way the cards play."""
        try:
            return self._fill
        except AttributeError:
            fill = self._fill = self._make_fill()
            return fill

    def _make_fill(self) -> Fill:
        raise AttributeError("fill")  # pragma: no cover - a generic hand is made with its fill

    @property
    def category(self) -> str:
        """The name of the hand's category."""
        return self.fill.classification.category.name

    @property
    def cards(self) -> tuple[str, ...]:
        """The cards that play, in playing order (groups first, high to low)."""
        try:
            return self._cards
        except AttributeError:
            self._order()
            return self._cards

    @property
    def played_as(self) -> tuple[str, ...]:
        """What each card of :attr:`cards` plays as (wild cards filled in)."""
        try:
            return self._played_as
        except AttributeError:
            self._order()
            return self._played_as

    @property
    def wilds(self) -> dict[str, str]:
        """Each wild card that plays, with the card it stands for."""
        try:
            return self._wilds
        except AttributeError:
            self._order()
            return self._wilds

    @property
    def value(self) -> tuple[int, ...]:
        """The high-poker value: the category's strength, then the tie-break ranks."""
        return self.fill.classification.value

    @property
    def strength(self) -> tuple[tuple[int, ...], ...]:
        """What orders hands in this ruleset's direction (bigger wins): qualifier,
        score, natural-beats-wild, suit tie-break."""
        return self.fill.strength

    @property
    def qualifies(self) -> bool:
        """Whether the hand meets the ruleset's qualifier (and so can win)."""
        return self.fill.classification.qualifies

    def _order(self) -> None:
        """Work out :attr:`cards`, :attr:`played_as` and :attr:`wilds` from the fill."""
        fill = self.fill
        self._cards = tuple([str(card) for card in fill.cards])
        self._played_as = tuple([str(card) for card in fill.played_as])
        self._wilds = {
            str(held): str(played)
            for held, played, wild in zip(fill.cards, fill.played_as, fill.is_wild, strict=False)
            if wild
        }

    def describe(self) -> str:
        """The hand in words, from the category's ``describe`` template.

        >>> from evaluator import load
        >>> load("standard").evaluate("Qs Qh 8d 8c As").describe()
        'two pair, queens and eights, ace kicker'
        """
        classification = self.fill.classification
        template = classification.category.describe
        symbols = self.ruleset.rank_symbols
        hand = classification.hand_class
        size = self.ruleset.hand_size

        wild_text = self._wild_text()

        def rank_name(value: int | None, plural: bool) -> str:
            if value is None:
                return "no"
            if value < 0:
                return "ace" if value == -1 and self.ruleset.ace == "both" and hand.run_top is not None else "no"
            return RANK_NAMES[symbols[value]][1 if plural else 0]

        def render(match: re.Match[str]) -> str:
            name, modifier = match.group(1), match.group(2)
            plural = modifier == "plural"
            if name == "top":
                return rank_name(run_top(hand, classification.binding), plural)
            if name == "bottom":
                value = run_bottom(hand, classification.binding, size)
                return "ace" if value == -1 and self.ruleset.ace == "both" else rank_name(value, plural)
            if name == "cards":
                return "-".join("10" if c[0] == "T" else c[0] for c in self.played_as)
            if name == "wilds":
                return wild_text
            if name == "category":
                return self.category.replace("_", " ")
            if name in classification.binding:
                return rank_name(classification.binding[name], plural)
            if len(name) == 1 and name in "UVWXYZ":
                return "no"
            return match.group(0)

        text = _FIELD.sub(render, template)
        if self._wilds_appended():
            text += f" ({wild_text})"
        return text

    def _wild_text(self) -> str:
        # what each wild card stands for, in playing order: "X as Kh"; a wild card
        # may stand for itself (a one-eyed jack in a royal flush), and says so
        return ", ".join(f"{held} as {'itself' if held == played else played}" for held, played in self.wilds.items())

    def _wilds_appended(self) -> bool:
        """Whether :meth:`describe` ends with the wild cards in parentheses (its template does not place them)."""
        return bool(self.wilds) and "{wilds}" not in self.fill.classification.category.describe

    def summary(self) -> str:
        """The category with what the description adds to it, never saying a thing twice.

        >>> from evaluator import load
        >>> rs = load("standard")
        >>> rs.evaluate("Qs Qh 8d 8c As").summary(), rs.evaluate("As Ks Qs Js Ts").summary()
        ('two_pair (queens and eights, ace kicker)', 'royal_flush')
        >>> load("deuces-wild").evaluate("2s Ah 9h 8h 5h").summary()
        'flush (ace-high flush; 2s as Kh)'
        """
        words = self.describe()
        wilds = self._wild_text() if self._wilds_appended() else ""
        if wilds:
            words = words[: -len(f" ({wilds})")]
        plain = self.category.replace("_", " ")
        if words == plain:
            words = ""
        elif words.startswith(plain + ","):
            words = words[len(plain) + 1 :].strip()
        said = "; ".join(part for part in (words, wilds) if part)
        return f"{self.category} ({said})" if said else self.category

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data for ``eval --json``."""
        return {
            "category": self.category,
            "cards": list(self.cards),
            "played_as": list(self.played_as),
            "wilds": self.wilds,
            "description": self.describe(),
            "qualifies": self.qualifies,
            "value": list(self.value),
        }

    def __str__(self) -> str:
        return f"{' '.join(self.cards)}: {self.describe()}"

    def __repr__(self) -> str:
        return (
            f"Hand(category={self.category!r}, cards={self.cards!r}, played_as={self.played_as!r}, "
            f"wilds={self.wilds!r}, value={self.value!r}, strength={self.strength!r}, qualifies={self.qualifies!r})"
        )

    def _check(self, other: object) -> Hand:
        if not isinstance(other, Hand) or other.ruleset is not self.ruleset:
            raise TypeError("only hands of the same ruleset compare")
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return self.ruleset is other.ruleset and self.strength == other.strength

    def __hash__(self) -> int:
        return hash(self.strength)

    def __lt__(self, other: Hand) -> bool:
        return self.strength < self._check(other).strength

    def __gt__(self, other: Hand) -> bool:
        return self.strength > self._check(other).strength

    def __le__(self, other: Hand) -> bool:
        return self.strength <= self._check(other).strength

    def __ge__(self, other: Hand) -> bool:
        return self.strength >= self._check(other).strength
