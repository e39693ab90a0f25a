"""Outs: the cards of the next street that put a player who is behind ahead.

For every player who does not win (or share) the pot with the cards out now,
each card that can come next is tried with the generic showdown (wild cards,
``beats:`` exceptions and hi-lo halves included): the ones after which the
player wins or shares the pot are the outs, each with the hand it makes.

The chances beside them are the ones of the outs table players learn (seed
"counting outs"): the player sees only their own cards and the board, so with
``u`` unseen cards, ``P(next card) = outs / u`` and ``P(within two cards) =
1 - C(u - outs, 2) / C(u, 2)`` -- 9 outs on the flop: 19.1% and 35.0%. The
exact equity (every runner-runner hand counted, every hand known) is given
beside them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING, Any

from ..core.errors import error
from ..engine.cardread import read_cards
from ..rules.cards import Card
from .deals import OddsError
from .odds import odds

if TYPE_CHECKING:
    from ..rules.ruleset import Rules


@dataclass
class Out:
    """One out: the card and the hand it gives the player (its description)."""

    card: Card
    hand: str
    share: float  # the player's share of the pot with that card (1: wins, less: splits)

    def as_dict(self) -> dict[str, Any]:
        """JSON form: ``{"card", "description", "share"}`` (a hand in JSON is always a list of cards)."""
        return {"card": str(self.card), "description": self.hand, "share": self.share}


@dataclass
class PlayerOuts:
    """A player's outs and chances (``behind`` False: ahead now, no outs listed)."""

    hand: str
    behind: bool
    outs: list[Out]
    unseen: int  # cards the player cannot see (deck minus own cards, board and dead cards)
    next_card: float
    within_two: float | None  # None when only one card is to come
    equity: float

    def as_dict(self) -> dict[str, Any]:
        """JSON form: the hand as a list of cards, and ``outs`` the list of outs (count them for the number)."""
        return {
            "hand": self.hand.split(),
            "behind": self.behind,
            "outs": [out.as_dict() for out in self.outs],
            "unseen": self.unseen,
            "next_card": self.next_card,
            "within_two": self.within_two,
            "equity": self.equity,
        }


@dataclass
class OutsResult:
    """Outs of every player at one table."""

    ruleset: str
    board: list[Card]
    to_come: int
    players: list[PlayerOuts]

    def as_dict(self) -> dict[str, Any]:
        """The JSON form of ``pokerrules outs --json``."""
        return {
            "ruleset": self.ruleset,
            "board": [str(card) for card in self.board],
            "to_come": self.to_come,
            "players": [player.as_dict() for player in self.players],
        }


def chances(outs: int, unseen: int, to_come: int) -> tuple[float, float | None]:
    """(next card, within two cards) of the players' outs table.

    >>> [round(x, 3) for x in chances(9, 47, 2)]
    [0.191, 0.35]
    """
    if unseen <= 0:
        return 0.0, None
    next_card = outs / unseen
    if to_come < 2 or unseen < 2:
        return next_card, None
    return next_card, 1 - comb(unseen - outs, 2) / comb(unseen, 2)


def outs(ruleset: Rules, hands: Sequence[str], board: str, dead: str = "") -> OutsResult:
    """The outs of every player who is behind (see the module docstring).

    >>> from evaluator import load
    >>> result = outs(load("holdem"), ["9h 8h", "Ks Qd"], board="Kh 4h 2c")
    >>> len(result.players[0].outs), round(result.players[0].next_card, 3)
    (9, 0.191)

    Raises:
        PokerRulesError: bad cards, a card out twice, no board or no street to come.
    """
    game = ruleset.game
    board_size = game.board if game is not None else ruleset.hand_size
    if game is not None and game.boards > 1:
        raise error(OddsError, "O114", "outs are counted on one board; this game deals two", "<board>")
    players = [read_cards(ruleset, hand, f"<hand {i + 1}>") for i, hand in enumerate(hands)]
    if len(players) < 2:
        raise error(OddsError, "O108", "outs need at least two hands", "<odds>")
    hole = game.hole if game is not None else max(len(cards) for cards in players)
    for i, cards in enumerate(players):
        if len(cards) != hole:
            raise error(
                OddsError,
                "O107",
                f"hand {i + 1} has {len(cards)} cards; outs need every hand's {hole} cards",
                f"<hand {i + 1}>",
            )
    board_cards = read_cards(ruleset, board, "<board>") if board.strip() else []
    dead_cards = read_cards(ruleset, dead, "<dead>") if dead.strip() else []
    to_come = board_size - len(board_cards)
    if not board_cards or to_come <= 0 or board_size == 0:
        raise error(
            OddsError,
            "O114",
            f"outs need a board with cards still to come ({len(board_cards)} of {board_size} out)",
            "<board>",
        )
    # the equity also checks that no card is out twice
    equity = odds(ruleset, list(hands), board=board, dead=dead)
    known = [card for cards in players for card in cards] + board_cards + dead_cards
    left = _remaining(ruleset, known)
    results: list[PlayerOuts] = []
    current = _current_shares(ruleset, players, board_cards)
    for p, cards in enumerate(players):
        behind = current[p] == 0
        found: list[Out] = []
        if behind:
            for card in sorted(set(left)):
                shares = _street_shares(ruleset, players, board_cards + [card], to_come - 1)
                if shares is not None and shares[p] > 0:
                    from ..engine.showdown import best_hand

                    made = best_hand(ruleset, cards, board_cards + [card])
                    found.append(Out(card, made.describe() if made is not None else "no hand", shares[p]))
        unseen = ruleset.deck_size - len(cards) - len(board_cards) - len(dead_cards)
        next_card, within_two = chances(len(found), unseen, to_come)
        results.append(
            PlayerOuts(
                " ".join(map(str, cards)), behind, found, unseen, next_card, within_two, equity.players[p].equity
            )
        )
    return OutsResult(ruleset.name, board_cards, to_come, results)


def _remaining(ruleset: Rules, known: Sequence[Card]) -> list[Card]:
    left: list[Card] = []
    for card in ruleset.deck:
        copies = 1 if card.is_joker else ruleset.copies
        left += [card] * (copies - sum(1 for k in known if k == card))
    return left


def _shares(fractions: Sequence[Any]) -> list[float]:
    return [float(f) for f in fractions]


def _current_shares(ruleset: Rules, players: list[list[Card]], board: list[Card]) -> list[float]:
    """Who is ahead with the cards out now: each half settled on the hands as they stand."""
    from ..engine.showdown import best_hand, half_rulesets, top_cycle

    shares = [0.0] * len(players)
    halves = []
    for _, half in half_rulesets(ruleset):
        hands = [best_hand(half, cards, board, ruleset.game) for cards in players]
        winners = top_cycle(half, hands)
        if winners:
            halves.append(winners)
    for winners in halves:
        for p in winners:
            shares[p] += 1.0 / len(halves) / len(winners)
    return shares


def _street_shares(
    ruleset: Rules, players: list[list[Card]], board: list[Card], still_to_come: int
) -> list[float] | None:
    """Shares once the next card is out (the hands as they stand then)."""
    if still_to_come == 0:
        from ..compiled.fasthand import showdown

        return _shares(showdown(ruleset, players, board).fractions)
    return _current_shares(ruleset, players, board)
