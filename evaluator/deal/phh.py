"""Deals written as actions, one per line, after the poker hand history (PHH) notation.

A deal is a block of lines (blocks are separated by a blank line)::

    # Follow the Queen: the queen of hearts is followed by the six of diamonds
    d dh p1 2c 9c          deal to player 1: faces as the game's streets deal them
    d dh p2 Kc Kh
    d dh p1 Qh             third street (face up in seven-card stud)
    d dh p2 6d
    ...
    p3 f                   player 3 folds: their cards still count for the deal
    p1 declare high        hi-lo declare (an extension of PHH)

``d dh pN CARDS`` deals cards to player N in dealing order (face-down cards
may be written in parentheses, as in the compact form); ``d db CARDS`` deals
board cards, and board cards past a full board start the next run (run it
twice: the new cards replace the last ones of the board). ``pN sm CARDS``
shows the cards dealt as ``??`` (PHH writes an unknown card ``??``). Betting
actions (``cbr``, ``cc``, ``pb``) play no part and are skipped, as are the
other ``key = value`` lines and the quotes of a ``.phh`` file's ``actions``
list. Every error names the line and the column of the action.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..core.errors import GameError, PokerRulesError, caret, error
from .deal import Deal, read_deal
from .read import CardsText, read_cards_text

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

_ACTION = re.compile(r"^\s*(?P<actor>d|p\d+)\s+(?P<verb>[a-z]+)\b\s*(?P<rest>.*)$")
_DEALT_TO = re.compile(r"^(?P<seat>p\d+)\s+(?P<cards>.*)$")
_BETTING = {"cbr", "cc", "pb", "f", "sm", "sd", "declare"}


def is_action_line(line: str) -> bool:
    """Whether ``line`` is written as an action (``d dh p1 As``, ``p2 f``), quotes and commas aside."""
    return _ACTION.match(_unquote(line)) is not None


def _unquote(line: str) -> str:
    text = line.split("#", 1)[0].strip()
    if text.endswith(","):
        text = text[:-1].rstrip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1]
    return text


@dataclass
class _Block:
    first_line: int
    cards: dict[int, list[tuple[str, int, int, str]]] = field(default_factory=dict)  # seat -> (text, line, col, line)
    boards: list[list[tuple[str, int, int, str]]] = field(default_factory=lambda: [[]])
    folded: set[int] = field(default_factory=set)
    shown: dict[int, list[tuple[str, int, int, str]]] = field(default_factory=dict)
    declared: dict[int, str] = field(default_factory=dict)


def read_blocks(rules: Rules, numbered: Sequence[tuple[int, str]], source: str) -> list[Deal]:
    """Every deal of the lines ``numbered`` ((line number, text)): blocks of actions between blank
    lines; comments and the other lines of a ``.phh`` file are skipped.

    Raises:
        PokerRulesError: G124 for an action that cannot be read, and every problem of
            :func:`evaluator.deal.deal.read_deal` at the line and column of its card.
    """
    deals = []
    block: _Block | None = None
    for number, raw in numbered:
        if not raw.strip():
            if block is not None:  # a blank line ends a deal
                deals.append(_finish(rules, block, source))
                block = None
            continue
        text = _unquote(raw)
        match = _ACTION.match(text)
        if match is None:
            continue  # a key = value line of a .phh file, or the brackets of its actions list
        block = block or _Block(number)
        _action(rules, block, match, number, raw, source)
    if block is not None:
        deals.append(_finish(rules, block, source))
    return deals


def _action(rules: Rules, block: _Block, match: re.Match[str], number: int, raw: str, source: str) -> None:
    actor, verb, rest = match.group("actor"), match.group("verb"), match.group("rest")
    col = raw.find(rest) + 1 if rest else len(raw) + 1
    if actor == "d":
        if verb == "db":
            _board(rules, block, rest, number, col, raw)
            return
        target = _DEALT_TO.match(rest)
        if verb != "dh" or target is None:
            raise _fail(
                source,
                number,
                raw.find(verb) + 1,
                raw,
                f"the dealer deals with 'd dh pN CARDS' or 'd db CARDS', not {verb!r}",
            )
        seat = _seat(target.group("seat"), source, number, col, raw)
        cards = target.group("cards")
        block.cards.setdefault(seat, []).append((cards, number, raw.find(cards, col - 1) + 1, raw))
        return
    seat = _seat(actor, source, number, raw.find(actor) + 1, raw)
    if verb == "f":
        block.folded.add(seat)
    elif verb == "sm" and rest:
        block.shown.setdefault(seat, []).append((rest, number, col, raw))
    elif verb == "declare":
        block.declared[seat] = rest.strip()
    elif verb == "sd":
        raise _fail(
            source, number, raw.find(verb) + 1, raw, "draws (sd) are not read: give the cards held at the showdown"
        )
    elif verb not in _BETTING:
        raise _fail(source, number, raw.find(verb) + 1, raw, f"unknown action {verb!r}")


def _board(rules: Rules, block: _Block, rest: str, number: int, col: int, raw: str) -> None:
    game = rules.game
    size = game.board if game is not None else 0
    run = block.boards[-1]
    if size and _count(run) >= size:
        block.boards.append([])  # a full board: the next cards start another run
    block.boards[-1].append((rest, number, col, raw))


def _count(parts: list[tuple[str, int, int, str]]) -> int:
    from ..rules.cards import tokenize

    total = 0
    for text, *_ in parts:
        try:
            total += len(tokenize(text.replace("(", " ").replace(")", " ")))
        except PokerRulesError:
            total += 1
    return total


def _seat(text: str, source: str, number: int, col: int, raw: str) -> int:
    seat = int(text[1:])
    if seat < 1:
        raise _fail(source, number, col, raw, "players are numbered from p1")
    return seat - 1


def _fail(source: str, line: int, col: int, raw: str, message: str) -> PokerRulesError:
    return error(GameError, "G124", message, source, line, col, context=caret(raw, col))


def _joined(rules: Rules, parts: list[tuple[str, int, int, str]], source: str, fold: bool) -> CardsText:
    """The cards of several action lines as one text, each card keeping its line and column."""
    given: list[tuple[int, bool | None]] = []
    cols: list[int] = []
    lines: list[int] = []
    texts: list[str] = []
    for text, number, col, raw in parts:
        try:
            read = read_cards_text(rules, text, source, True, False)
        except PokerRulesError as problem:
            first = problem.first
            raise PokerRulesError(
                replace(
                    first, source=source, line=number, col=col + first.col - 1, context=caret(raw, col + first.col - 1)
                )
            ) from None
        given += read.given
        cols += [col + c - 1 for c in read.cols]
        lines += [number] * len(read.given)
        texts += [raw] * len(read.given)
    return CardsText(" ".join(p[0] for p in parts), source, tuple(given), tuple(cols), fold, tuple(lines), tuple(texts))


def _finish(rules: Rules, block: _Block, source: str) -> Deal:
    seats = max([*block.cards, *block.folded, *block.declared, -1]) + 1
    if seats == 0:
        raise _fail(source, block.first_line, 1, "", "this deal deals no card to any player")
    texts = []
    for seat in range(seats):
        read = _joined(rules, block.cards.get(seat, []), source, seat in block.folded)
        if seat in block.shown:
            read = _show(rules, read, _joined(rules, block.shown[seat], source, False), source)
        texts.append(read)
    boards = [_joined(rules, run, source, False) for run in block.boards if run]
    if len(boards) > 1:
        boards = _runs(boards, rules)
    declare = None
    if block.declared:
        declare = [block.declared.get(seat, "") for seat in range(seats)]
    return read_deal(rules, texts, boards, declare)


def _show(rules: Rules, dealt: CardsText, shown: CardsText, source: str) -> CardsText:
    """``pN sm CARDS``: the cards shown take the place of the player's unknown cards, in order."""
    from .walk import UNKNOWN

    unknown = [i for i, (card, _) in enumerate(dealt.given) if card == UNKNOWN]
    if len(shown.given) != len(unknown):
        raise shown.fail("G124", f"{len(shown.given)} cards shown for {len(unknown)} dealt as '??'", 0)
    given = list(dealt.given)
    for index, (card, _) in zip(unknown, shown.given, strict=True):
        given[index] = (card, given[index][1])
    return replace(dealt, given=tuple(given))


def _runs(boards: list[CardsText], rules: Rules) -> list[CardsText]:
    """Run it twice: a later run's new cards replace the last cards of the first run's board."""
    first = boards[0]
    runs = [first]
    for later in boards[1:]:
        keep = len(first.given) - len(later.given)
        runs.append(
            CardsText(
                later.text,
                later.source,
                first.given[:keep] + later.given,
                first.cols[:keep] + later.cols,
                False,
                first.lines[:keep] + later.lines,
                first.texts[:keep] + later.texts,
            )
        )
    return runs
