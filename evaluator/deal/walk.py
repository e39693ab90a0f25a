"""Walking a deal in dealing order: who gets which card, face up or face down, and when.

A game's streets (``game.streets``, or by default every hole card face down
and then the board) say what each street gives: every player its face-down and
then its face-up cards, one card at a time around the table in seat order,
then the street's board cards, face up. A card that triggers ``game.extra``
(Baseball's four dealt face up) gives its player one more card at once, before
anyone else is dealt; an extra card dealt face up may trigger again.

The walk works on card ids (the index of a card in ``Rules.deck``) so that the
same code reads a deal given by hand, completes a partly known deal for the
odds and deals thousands of random ones for the statistics. ``-1`` is a card
not known yet: it is drawn with ``draw``, as is every card a player still in
the hand has not been given. A folded seat gets no card past the ones given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..rules.cards import Card
    from ..rules.ruleset import Game, Rules

#: A card not known yet, to be drawn.
UNKNOWN = -1
#: The seat of a board card.
BOARD = -1


@dataclass(frozen=True, slots=True)
class Dealt:
    """One card of a deal: its id, the seat dealt (``BOARD`` for the board), its face,
    and whether ``game.extra`` gave it."""

    card: int
    seat: int
    up: bool
    extra: bool = False


@dataclass
class Walked:
    """A deal in dealing order: each seat's cards, the board, and every card in order."""

    seats: list[list[Dealt]]
    board: list[Dealt]
    order: list[Dealt] = field(default_factory=list)


def cards_of(rules: Rules) -> tuple[Card, ...]:
    """``rules.deck`` built once (the property builds it on every call; deals read it per card)."""
    from ..engine.cardread import deck_reader

    return deck_reader(rules).deck


def ranks_of(rules: Rules) -> list[str | None]:
    """The rank of each card id (None for a joker), for the extra-card rules."""
    found: list[str | None] | None = rules.__dict__.get("_cache_ranks_of")
    if found is None:
        found = [card.rank for card in cards_of(rules)]
        object.__setattr__(rules, "_cache_ranks_of", found)
    return found


class WalkProblem(Exception):
    """A given card that does not fit the deal: ``kind`` is ``face`` (dealt with the other
    face), ``missing`` (a player still in the hand lacks cards) or ``surplus`` (more
    cards than the deal gives); ``seat`` (``BOARD`` for the board) and ``index`` say
    where, ``up`` the face the deal gives there."""

    def __init__(self, kind: str, seat: int, index: int, up: bool = False) -> None:
        super().__init__(kind)
        self.kind, self.seat, self.index, self.up = kind, seat, index, up


Given = Sequence[tuple[int, bool | None]]  # (card id or UNKNOWN, face mark: True up, False down, None not said)


def walk(
    game: Game,
    rank_of: Sequence[str | None],
    given: Sequence[Given],
    folded: Sequence[bool],
    board: Given,
    draw: Callable[[], int] | None = None,
    draw_missing: bool = True,
) -> Walked:
    """Deal ``game`` to ``len(given)`` seats in dealing order.

    ``rank_of`` maps a card id to its rank (None for a joker), for the extra-card
    rules. ``board_from``: the board cards before this index come from ``board``
    as given, the later ones are drawn (run it twice deals the rest of the board
    again); by default every board card comes from ``board`` while it lasts.

    >>> from evaluator import load
    >>> rules = load("seven-card-stud")
    >>> walked = walk(rules.game, [c.rank for c in rules.deck], [[(i, None) for i in range(7)]], [False], [])
    >>> [d.up for d in walked.seats[0]]
    [False, False, True, True, True, True, False]

    Raises:
        WalkProblem: a card given with the wrong face, missing or in surplus
            (without ``draw``, a missing card cannot be dealt).
    """
    seats: list[list[Dealt]] = [[] for _ in given]
    dealt_board: list[Dealt] = []
    order: list[Dealt] = []
    extras = game.extra

    def take(seat: int, up: bool, extra: bool) -> bool:
        cards = seats[seat]
        index = len(cards)
        if index < len(given[seat]):
            card, mark = given[seat][index]
            if mark is not None and mark != up:
                raise WalkProblem("face", seat, index, up)
        elif folded[seat]:
            return False  # a folded player is dealt nothing more
        elif not draw_missing:
            raise WalkProblem("missing", seat, index, up)
        else:
            card = UNKNOWN
        if card == UNKNOWN:
            if draw is None:
                raise WalkProblem("missing", seat, index, up)
            card = draw()
        dealt = Dealt(card, seat, up, extra)
        cards.append(dealt)
        order.append(dealt)
        rank = rank_of[card]
        for rule in extras:
            if rank == rule.rank and rule.face in ("any", "up" if up else "down"):
                take(seat, rule.gives == "up", True)  # at once, before the next player's card
        return True

    for street in game.dealing:
        for card_number in range(street.down + street.up):
            up = card_number >= street.down
            for seat in range(len(given)):
                take(seat, up, False)
        for _ in range(street.board):
            index = len(dealt_board)
            card = UNKNOWN
            if index < len(board):
                card, mark = board[index]
                if mark is False:
                    raise WalkProblem("face", BOARD, index, True)
            if card == UNKNOWN:
                if draw is None:
                    raise WalkProblem("missing", BOARD, index, True)
                card = draw()
            dealt = Dealt(card, BOARD, True)
            dealt_board.append(dealt)
            order.append(dealt)
    for seat, cards in enumerate(seats):
        if len(given[seat]) > len(cards):
            raise WalkProblem("surplus", seat, len(cards))
    if len(board) > len(dealt_board):
        raise WalkProblem("surplus", BOARD, len(dealt_board))
    return Walked(seats, dealt_board, order)
