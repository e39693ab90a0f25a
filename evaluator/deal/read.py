"""Reading a deal written by hand: each player's cards in dealing order, the boards, the declarations.

The compact form of one player's cards is the cards in the order they were
dealt, as the game's streets deal them::

    As Kd 7c Qh 6d 2s 3c           seven-card stud: 2 down, 4 up, 1 down
    (As Kd) 7c Qh 6d 2s (3c)       the same, faces written out: (down) up
    (As Kd) 4h (8c) 7c Qh 2s (3c)  Baseball: the face-up 4h gave 8c at once
    fold: (Js 9d) Qc               a player who folded after third street

Without parentheses the faces come from the streets; with them every card's
face is written and must be the one the deal gives. ``fold:`` marks a seat
that folded: its cards still count for the deal (a queen it was dealt face up
is still a queen dealt face up) but it plays no part in the showdown. ``??``
is a card not known (only where the odds complete the deal). Every error names
the card's column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..core.errors import GameError, PokerRulesError, caret, error
from ..engine.cardread import read_ids
from ..rules.cards import tokenize
from .walk import UNKNOWN

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

_FOLD = re.compile(r"^(\s*)(fold:)", re.I)


@dataclass(frozen=True)
class CardsText:
    """One player's (or board's) cards as read: card ids with their face marks and columns."""

    text: str
    source: str
    given: tuple[tuple[int, bool | None], ...]  # (card id or UNKNOWN, True up / False down / None not said)
    cols: tuple[int, ...]
    folded: bool = False
    lines: tuple[int, ...] = ()  # per card, its line (action lines: each card keeps its own)
    texts: tuple[str, ...] = ()  # per card, the text of its line

    def col(self, index: int) -> int:
        """The column of card ``index``, or just past the text when there is no such card."""
        if index < len(self.cols):
            return self.cols[index]
        if self.texts:
            return len(self.texts[-1]) + 1
        return len(self.text) + 1

    def fail(self, code: str, message: str, index: int, hint: str | None = None) -> PokerRulesError:
        """An error at card ``index`` of this text (its line and column, with a caret under it)."""
        col = self.col(index)
        line = self.lines[min(index, len(self.lines) - 1)] if self.lines else 1
        shown = self.texts[min(index, len(self.texts) - 1)] if self.texts else self.text
        context = caret(shown, col) if "\n" not in shown else None
        return error(GameError, code, message, self.source, line, col, hint, context)


def read_cards_text(rules: Rules, text: str, source: str, allow_unknown: bool, allow_fold: bool) -> CardsText:
    """Read one player's cards (or a board) in the compact form (see the module docstring).

    >>> from evaluator import load
    >>> read = read_cards_text(load("seven-card-stud"), "fold: (As Kd) 7c", "<hand 1>", False, True)
    >>> read.folded, [mark for _, mark in read.given], read.cols
    (True, [False, False, True], (8, 11, 15))

    Raises:
        PokerRulesError: C101/C102 for a card (its column), G119 for parentheses
            that do not pair, ``??`` or ``fold:`` where they are not allowed.
    """
    folded = False
    clean = list(text)
    found = _FOLD.match(text)
    if found is not None:
        if not allow_fold:
            raise _at(text, source, found.start(2) + 1, "'fold:' is for players, not the board")
        folded = True
        for i in range(found.start(2), found.end(2)):
            clean[i] = " "
    marks: list[tuple[int, str]] = []  # (column, kind): "??"
    depth = 0
    opened = 0
    i = found.end(2) if found is not None else 0
    while i < len(text):
        char = text[i]
        if char == "(":
            if depth:
                raise _at(text, source, i + 1, "parentheses do not nest: close the face-down cards first")
            depth, opened = 1, i + 1
            clean[i] = " "
        elif char == ")":
            if not depth:
                raise _at(text, source, i + 1, "')' without '(' before it")
            depth = 0
            clean[i] = " "
        elif char == "?":
            if text[i : i + 2] != "??":
                raise _at(text, source, i + 1, "write a card not known as '??'")
            if not allow_unknown:
                raise _at(
                    text, source, i + 1, "'??' (a card not known) is only for odds; a showdown needs every card", "G121"
                )
            marks.append((i + 1, "??"))
            clean[i] = clean[i + 1] = " "
            i += 1
        i += 1
    if depth:
        raise _at(text, source, opened, "'(' is never closed")
    explicit = "(" in text
    cleaned = "".join(clean)
    try:
        tokens = tokenize(cleaned, source)
        ids = read_ids(rules, cleaned, source) if tokens else []
    except PokerRulesError as problem:
        first = problem.first
        context = caret(text, first.col) if first.context is not None else None
        raise type(problem)(replace(first, context=context)) from None
    entries = [(token.col, ids[n]) for n, token in enumerate(tokens)] + [(col, UNKNOWN) for col, _ in marks]
    entries.sort()
    given = []
    for col, card in entries:
        face: bool | None = None
        if explicit:
            face = not _inside(text, col)
        given.append((card, face))
    return CardsText(text, source, tuple(given), tuple(col for col, _ in entries), folded)


def _inside(text: str, col: int) -> bool:
    """Whether column ``col`` of ``text`` is inside parentheses."""
    before = text[: col - 1]
    return before.rfind("(") > before.rfind(")")


def _at(text: str, source: str, col: int, message: str, code: str = "G119") -> PokerRulesError:
    return error(GameError, code, message, source, 1, col, context=caret(text, col))
