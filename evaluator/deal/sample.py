"""Random and partly known deals of a dealer's-choice game, completed in dealing order.

A :class:`Known` is what is known of a deal before it is completed: each
seat's cards so far in dealing order (``UNKNOWN`` for a card not seen), who
folded, the board cards out (shared by every run) and dead cards. A deal is
completed by walking it (:func:`evaluator.deal.walk.walk`), drawing each
missing card from the cards left in the order the dealer would deal them, so
an extra card (Baseball's four) is drawn when its four is; a game that runs
the board twice deals the second run from the same deck after the first.

:func:`random_deals` draws them with a NumPy generator (one permutation of
the cards left per deal); :func:`every_deal` lists every way of dealing the
missing cards (each ordered draw equally likely) when there are few.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from math import perm
from typing import TYPE_CHECKING

import numpy as np

from .walk import UNKNOWN, Given, Walked, WalkProblem, ranks_of, walk

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

Completed = list[Walked]  # one walked deal per run


@dataclass
class Known:
    """What is known of a deal (see the module docstring); ``players`` seats, nothing known by default."""

    players: int
    seats: list[Given] = field(default_factory=list)
    folded: list[bool] = field(default_factory=list)
    board: Given = ()
    dead: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.seats = list(self.seats) + [() for _ in range(self.players - len(self.seats))]
        self.folded = list(self.folded) + [False] * (self.players - len(self.folded))

    def left(self, rules: Rules) -> list[int]:
        """The physical cards not known to be out (ids, a card once per pack holding it)."""
        counts = {i: (1 if card.is_joker else rules.copies) for i, card in enumerate(rules.deck)}
        for given in [*self.seats, self.board]:
            for card, _ in given:
                if card != UNKNOWN:
                    counts[card] -= 1
        for card in self.dead:
            counts[card] -= 1
        return [i for i, count in counts.items() for _ in range(max(count, 0))]


def complete(rules: Rules, known: Known, cards: Sequence[int]) -> Completed:
    """The deal ``known`` completed with ``cards`` drawn in order (every run of the board).

    Raises:
        IndexError: when ``cards`` run out (the deck is too small for the deal).
    """
    game = rules.game
    assert game is not None
    rank_of = ranks_of(rules)
    position = 0

    def draw() -> int:
        nonlocal position
        card = cards[position]
        position += 1
        return card

    first = walk(game, rank_of, known.seats, known.folded, known.board, draw)
    runs = [first]
    if game.runs > 1:
        seats = [[(d.card, d.up) for d in dealt] for dealt in first.seats]
        folded = [True] * len(seats)  # every seat holds its cards already: none is dealt again
        for _ in range(game.runs - 1):
            runs.append(walk(game, rank_of, seats, folded, known.board, draw))
    return runs


def regular_draws(rules: Rules, known: Known) -> tuple[int, bool]:
    """(cards completing ``known`` draws besides extra cards, whether an extra card may be drawn too)."""
    game = rules.game
    assert game is not None
    per_seat = sum(s.down + s.up for s in game.dealing)
    drawn = 0
    may_trigger = False
    for seat, given in enumerate(known.seats):
        unknown = sum(1 for card, _ in given if card == UNKNOWN)
        missing = 0 if known.folded[seat] else max(per_seat - len(given), 0)
        drawn += unknown + missing
        faces: list[bool] = []
        for street in game.dealing:
            faces += [False] * street.down + [True] * street.up
        slots = [i for i, (card, _) in enumerate(given) if card == UNKNOWN] + list(range(len(given), per_seat))
        for slot in slots if not known.folded[seat] else [i for i, (c, _) in enumerate(given) if c == UNKNOWN]:
            up = faces[slot] if slot < len(faces) else True
            may_trigger |= any(rule.face in ("any", "up" if up else "down") for rule in game.extra)
    board = sum(1 for card, _ in known.board if card == UNKNOWN) + max(game.board - len(known.board), 0)
    return drawn + board * game.runs, may_trigger


#: Draws tried for one deal before the known cards are judged impossible to complete.
MAX_TRIES = 1000


def random_deals(rules: Rules, known: Known, count: int, rng: np.random.Generator) -> Iterator[Completed]:
    """``count`` random completions of ``known`` (each one permutation of the cards left).

    A completion the known cards do not fit (a card given face down where an
    extra card drawn shifts the deal) is drawn again: the deals are those
    consistent with everything known.
    """
    left = np.array(known.left(rules), dtype=np.int64)
    block = 4096
    for start in range(0, count, block):
        rows = min(block, count - start)
        drawn = left[np.argsort(rng.random((rows, len(left))), axis=1)]
        for row in drawn.tolist():
            for _ in range(MAX_TRIES):
                try:
                    yield complete(rules, known, row)
                    break
                except WalkProblem:
                    row = left[rng.permutation(len(left))].tolist()
            else:
                raise IndexError("no completion of the known cards was found")


def exact_count(rules: Rules, known: Known) -> int | None:
    """How many deals :func:`every_deal` lists, or None when an extra card may be drawn (not counted ahead)."""
    draws, may_trigger = regular_draws(rules, known)
    if may_trigger:
        return None
    return perm(len(known.left(rules)), draws)


class _Short(Exception):
    """The cards drawn so far do not complete the deal: one more is needed."""


def every_deal(rules: Rules, known: Known) -> Iterator[tuple[Completed, float]]:
    """Every way of completing ``known``, with its probability: each card drawn is any card left,
    equally likely (a deal that draws an extra card goes one draw deeper). Draws the known cards
    do not fit are left out, so the weights sum to the chance of the known cards (the caller
    divides by it)."""
    left = known.left(rules)

    stack: list[tuple[list[int], list[int], float]] = [([], left, 1.0)]
    while stack:
        prefix, rest, weight = stack.pop()
        try:
            deal = complete(rules, known, _Strict(prefix))
        except WalkProblem:
            continue  # the known cards do not fit this draw: not a possible deal
        except _Short:
            share = weight / len(rest)
            for index in range(len(rest) - 1, -1, -1):
                stack.append((prefix + [rest[index]], rest[:index] + rest[index + 1 :], share))
            continue
        yield deal, weight


class _Strict(Sequence[int]):
    """The cards drawn so far; asking for one more raises :class:`_Short`."""

    def __init__(self, cards: list[int]) -> None:
        self.cards = cards

    def __len__(self) -> int:
        return len(self.cards)

    def __getitem__(self, index: int) -> int:  # type: ignore[override]
        if index >= len(self.cards):
            raise _Short
        return self.cards[index]
