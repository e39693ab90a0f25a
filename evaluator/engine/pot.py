"""Dividing a pot: its halves on each board, the exact shares, and whole chips with the odd chip.

The pot is divided between the boards that have a winner, on each board
between the halves that have one (a half nobody qualifies for goes to the
other half: high scoops), and in each half equally among its winners. Whole
chips go first to the first board, then the first half (high), then by the
game's ``odd_chip`` rule. Nothing is lost or created.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from .evaluate import engine_for

if TYPE_CHECKING:
    from ..rules.cards import Card
    from ..rules.ruleset import Rules
    from .hand import Hand


@dataclass
class Half:
    """One part of a pot: a hi-lo half on one board. Its winners and their hands."""

    name: str
    ruleset: str
    board: int  # index into ShowdownResult.boards
    hands: list[Hand | None]
    winners: list[int]
    chips: int = 0
    share: Fraction = Fraction(0)  # of the whole pot


def _live_boards(halves: Sequence[Half], boards: int) -> list[list[Half]]:
    """Per board that has a winner at all, its halves that have one."""
    per_board = [[half for half in halves if half.board == b and half.winners] for b in range(boards)]
    return [live for live in per_board if live]


def pot_fractions(halves: Sequence[Half], players: int, boards: int) -> list[Fraction]:
    """The exact share of each player: boards equally, halves equally, winners equally."""
    shares = [Fraction(0)] * players
    live_boards = _live_boards(halves, boards)
    for live in live_boards:
        for half in live:
            half.share = Fraction(1, len(live_boards) * len(live))
            for player in half.winners:
                shares[player] += half.share / len(half.winners)
    return shares


def _divide(chips: int, parts: int) -> list[int]:
    """``chips`` in ``parts`` whole parts, the odd chips to the first parts."""
    each, odd = divmod(chips, parts)
    return [each + (1 if index < odd else 0) for index in range(parts)]


def split_pot(
    ruleset: Rules, pot: int, halves: Sequence[Half], holes: Sequence[Sequence[Card]], boards: int
) -> tuple[list[int], int]:
    """Whole chips per player, and the chips carried to the next deal."""
    shares = [0] * len(holes)
    live_boards = _live_boards(halves, boards)
    if not live_boards:
        return shares, pot  # nobody qualifies: the pot stays for the next deal
    rule = ruleset.game.odd_chip if ruleset.game is not None else "first_after_button"
    for board_chips, live in zip(_divide(pot, len(live_boards)), live_boards, strict=False):
        # "the high hand receives the odd chip in a split between the high and the low hands"
        for half_chips, half in zip(_divide(board_chips, len(live)), live, strict=False):
            half.chips = half_chips
            order = _odd_chip_order(ruleset, half, rule, holes)
            for chips, player in zip(_divide(half_chips, len(order)), order, strict=False):
                shares[player] += chips
    return shares, 0


def _odd_chip_order(ruleset: Rules, half: Half, rule: str, holes: Sequence[Sequence[Card]]) -> list[int]:
    """A half's winners in the order odd chips are handed out (one each at most).

    ``first_after_button``: seat order, seat 0 being the first after the button.
    ``suit_order`` (stud): the highest card by suit in a high half, the lowest
    card by suit in a low half, looking at all the player's own cards, not
    only the five that play (Robert's Rules of Poker); seat order if equal.
    """
    winners = sorted(half.winners)
    sample = next((hand for hand in half.hands if hand is not None), None)
    if rule != "suit_order" or sample is None:
        return winners  # a half won by a card (Chicago) has no hands: seat order
    half_rules = sample.ruleset
    value_of = engine_for(half_rules).value_of  # the half's own rank order (aces low in a low half)
    suit_rank = {suit: len(ruleset.suit_order) - i for i, suit in enumerate(ruleset.suit_order)}
    high = half_rules.direction == "high"

    def card_key(card: Card) -> tuple[int, int]:
        key = (value_of.get(card.rank or "", len(value_of)), suit_rank.get(card.suit or "", 0))
        return key if high else (-key[0], -key[1])

    def player_key(player: int) -> list[tuple[int, int]]:
        return sorted((card_key(card) for card in holes[player]), reverse=True)

    return sorted(winners, key=player_key, reverse=True)  # stable: seat order breaks equal keys
