"""A deal of a dealer's-choice game: every card in dealing order, checked against the game.

:func:`read_deal` reads the players' cards (the compact form of
:mod:`evaluator.deal.read`), the boards and the declarations, walks the deal
street by street (:mod:`evaluator.deal.walk`) and reports anything that does
not fit the game at the card's column: a face the street does not deal, a card
too many or too few, a card dealt twice, a declaration that names no half.

Run it twice: each board given is one run; the cards the runs begin with in
common were dealt once, before the all-in, and every run is walked on its own
(so a rule that reads the board, such as a queen turned on one run, applies to
that run only).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from ..core.errors import GameError, PokerRulesError, error
from ..engine.showdown import MAX_PLAYERS
from .read import CardsText, read_cards_text
from .walk import BOARD, UNKNOWN, Walked, WalkProblem, cards_of, ranks_of, walk

if TYPE_CHECKING:
    from ..rules.cards import Card
    from ..rules.ruleset import Rules

BOTH = "both"


@dataclass(frozen=True)
class Deal:
    """A deal as read: the texts, each run walked in dealing order, who folded, the declarations."""

    rules: Rules
    seats: tuple[CardsText, ...]
    boards: tuple[CardsText, ...]  # one per run (empty tuple: no board)
    runs: tuple[Walked, ...]
    declarations: tuple[str | None, ...] | None
    shared: int  # board cards every run begins with (dealt once)

    @property
    def folded(self) -> tuple[bool, ...]:
        """Per seat, whether the player folded (plays no part in the showdown)."""
        return tuple(seat.folded for seat in self.seats)

    @cached_property
    def holdings(self) -> list[list[Card]]:
        """Each seat's cards in dealing order (extra cards included)."""
        deck = cards_of(self.rules)
        return [[deck[d.card] for d in cards] for cards in self.runs[0].seats]

    def board_cards(self, run: int) -> list[Card]:
        """The board of run ``run``."""
        deck = cards_of(self.rules)
        return [deck[d.card] for d in self.runs[run].board]


def half_names(rules: Rules) -> list[str]:
    """The names of the pot's halves (one name when the pot is not split)."""
    game = rules.game
    if game is None or not game.split:
        return ["high" if rules.direction == "high" else "low"]
    return [split.name for split in game.split]


def read_deal(
    rules: Rules,
    players: Sequence[str | CardsText],
    boards: Sequence[str | CardsText] = (),
    declare: Sequence[str] | None = None,
    allow_unknown: bool = False,
) -> Deal:
    """Read and check one deal of ``rules``'s game (see the module docstring).

    >>> from evaluator import load
    >>> deal = read_deal(load("follow-the-queen"), ["As Kd 7c Qh 6d 2s 3c", "fold: 9s 9d 5c"])
    >>> deal.folded, [str(c) for c in deal.holdings[1]]
    ((False, True), ['9s', '9d', '5c'])

    Raises:
        PokerRulesError: a card's problem at its column (C101, C102, G119), a card
            dealt twice (G104), the wrong number of players (G103), boards or runs
            (G108, G123), declarations (G120).
    """
    game = rules.game
    if game is None:
        raise error(GameError, "G122", f"{rules.name} has no game to deal", "<showdown>")
    if not players:
        raise error(GameError, "G103", "a showdown needs at least one player", "<showdown>")
    if len(players) > MAX_PLAYERS:
        raise error(GameError, "G103", f"{len(players)} players; at most {MAX_PLAYERS} are seated", "<showdown>")
    seats = tuple(
        text if isinstance(text, CardsText) else read_cards_text(rules, text, f"<hand {i + 1}>", True, True)
        for i, text in enumerate(players)
    )
    if all(seat.folded for seat in seats) and not allow_unknown:
        raise error(GameError, "G103", "every player folded: nobody is left to show a hand", "<showdown>")
    board_texts = tuple(
        text if isinstance(text, CardsText) else read_cards_text(rules, text, f"<board {i + 1}>", allow_unknown, False)
        for i, text in enumerate(boards)
    )
    if not allow_unknown:  # a folded player's cards may stay unseen (not the ones dealt face up)
        for text in [seat for seat in seats if not seat.folded] + list(board_texts):
            for index, (card, _) in enumerate(text.given):
                if card == UNKNOWN:
                    raise text.fail(
                        "G121",
                        f"card {index + 1} is not known: a showdown needs every card",
                        index,
                        "show the cards (pN sm CARDS), or ask pokerrules odds",
                    )
    runs_allowed = game.runs if game.board else 1
    if len(board_texts) > max(runs_allowed, 1) or (game.board == 0 and any(b.given for b in board_texts)):
        wanted = f"at most {runs_allowed} runs" if runs_allowed > 1 else ("one board" if game.board else "no board")
        raise error(GameError, "G108", f"{len(board_texts)} boards given; {rules.name} deals {wanted}", "<showdown>")
    shared = _shared_prefix(board_texts)
    _check_counts(rules, seats, board_texts, shared)
    rank_of = ranks_of(rules)
    # cards not seen stand in as a card that buys nothing: in a partly known deal (odds) and in a
    # folded player's hole
    quiet = next(i for i, rank in enumerate(rank_of) if rank not in {e.rank for e in game.extra})

    def draw() -> int:
        return quiet

    walked = []
    for run in board_texts or (CardsText("", "<board 1>", (), ()),):
        try:
            found = walk(
                game, rank_of, [s.given for s in seats], [s.folded for s in seats], run.given, draw, allow_unknown
            )
        except WalkProblem as problem:
            raise _walk_error(rules, problem, seats, run) from None
        if not allow_unknown:
            _unseen_face_up(seats, found)
        walked.append(found)
    declarations = _declarations(rules, seats, declare, required=not allow_unknown)
    return Deal(rules, seats, board_texts, tuple(walked), declarations, shared)


def _unseen_face_up(seats: Sequence[CardsText], walked: Walked) -> None:
    """G121: a folded player's card dealt face up was seen by everyone: it must be written."""
    for seat, text in enumerate(seats):
        for index, dealt in enumerate(walked.seats[seat]):
            if dealt.up and index < len(text.given) and text.given[index][0] == UNKNOWN:
                raise text.fail(
                    "G121",
                    f"player {seat + 1}'s card {index + 1} was dealt face up: everyone saw it, write it",
                    index,
                )


def _shared_prefix(boards: Sequence[CardsText]) -> int:
    """Board cards every run begins with: dealt once, before the runs."""
    if len(boards) < 2:
        return len(boards[0].given) if boards else 0
    shared = 0
    while all(shared < len(b.given) for b in boards) and len({b.given[shared][0] for b in boards}) == 1:
        shared += 1
    return shared


def _check_counts(rules: Rules, seats: Sequence[CardsText], boards: Sequence[CardsText], shared: int) -> None:
    """G104: a card dealt more often than the packs hold (a run's shared cards count once)."""
    seen: dict[int, int] = {}
    deck = cards_of(rules)
    places = [(seat, list(range(len(seat.given)))) for seat in seats]
    places += [(board, list(range(shared if n else 0, len(board.given)))) for n, board in enumerate(boards)]
    for text, indices in places:
        for index in indices:
            card = text.given[index][0]
            if card == UNKNOWN:
                continue
            seen[card] = seen.get(card, 0) + 1
            limit = 1 if deck[card].is_joker else rules.copies
            if seen[card] > limit:
                raise text.fail("G104", f"{deck[card]} is dealt {seen[card]} times, but the deck holds {limit}", index)


def _walk_error(rules: Rules, problem: WalkProblem, seats: Sequence[CardsText], board: CardsText) -> PokerRulesError:
    text = board if problem.seat == BOARD else seats[problem.seat]
    who = "the board" if problem.seat == BOARD else f"player {problem.seat + 1}"
    face = "face up" if problem.up else "face down"
    index = problem.index
    if problem.kind == "face":
        card = cards_of(rules)[text.given[index][0]]
        return text.fail(
            "G119",
            f"{who}'s card {index + 1}, {card}, is marked face {'down' if problem.up else 'up'}, but "
            f"{rules.name} deals it {face}",
            index,
            "write face-down cards in parentheses and face-up cards without, in dealing order",
        )
    if problem.kind == "missing":
        return text.fail(
            "G119",
            f"{who} has {index} card{'s' if index != 1 else ''}, but {rules.name} deals a card {index + 1} ({face})",
            index,
            "write 'fold:' before the cards of a player who folded" if problem.seat != BOARD else None,
        )
    card = cards_of(rules)[text.given[index][0]]
    return text.fail(
        "G119",
        f"{who} has more cards than {rules.name} deals: {card} (card {index + 1}) is one too many",
        index,
        "a card that gives an extra card (game.extra) is followed by its extra card at once"
        if rules.game is not None and rules.game.extra
        else None,
    )


def _declarations(
    rules: Rules, seats: Sequence[CardsText], declare: Sequence[str] | None, required: bool = True
) -> tuple[str | None, ...] | None:
    """Each seat's declaration (None for a folded seat), checked against the halves (G120)."""
    game = rules.game
    if declare is None or not list(declare):
        if required and game is not None and game.declare is not None and any(not seat.folded for seat in seats):
            raise error(
                GameError,
                "G120",
                f"{rules.name} is played hi-lo declare: give each player's declaration "
                f"({' / '.join(half_names(rules))} / {BOTH})",
                "<declare>",
                hint="pokerrules showdown ... --declare high low both (one per player, in seat order)",
            )
        return None
    if game is None or game.declare is None:
        raise error(GameError, "G120", f"{rules.name} is not played with a declare", "<declare>")
    names = half_names(rules)
    if len(declare) != len(seats):
        raise error(
            GameError, "G120", f"{len(declare)} declarations for {len(seats)} players: give one per seat", "<declare>"
        )
    found: list[str | None] = []
    col = 1
    for seat, value in zip(seats, declare, strict=True):
        word = value.strip().lower()
        if seat.folded:
            found.append(None)
        elif word in names or word == BOTH:
            found.append(word)
        else:
            raise error(
                GameError,
                "G120",
                f"{value!r} is not a declaration: declare {' / '.join(names)} or {BOTH}",
                "<declare>",
                1,
                col,
            )
        col += len(value) + 1
    return tuple(found)
