"""Comparing hands and settling showdowns as players meet them.

``compare`` applies, in order: the qualifier, the ``beats:`` exceptions, then
the hands' strength (value, natural-beats-wild, suit tie-break). With
exceptions the relation is not transitive, so a showdown's winners are the
*top cycle*: the hands that beat or tie every other hand, or else the smallest
set whose members each beat or tie every hand outside it.

Games say which cards may play (any five of seven; exactly two hole cards and
three from the board), hi-lo games split the pot between halves judged by their
own rulesets, double-board games split it between boards, and the chips are
divided in whole numbers with the odd chip given by a stated rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations, product
from typing import TYPE_CHECKING, Any

from .cards import Card
from .errors import GameError, error
from .hand import Hand

if TYPE_CHECKING:
    from .ruleset import Game, Ruleset

CardsLike = str | Sequence[Card | str]
MAX_PLAYERS = 23


def _hand(ruleset: Ruleset, hand: CardsLike | Hand) -> Hand:
    return hand if isinstance(hand, Hand) else ruleset.evaluate(hand)


def _matches(pattern_matcher: Any, hand: Hand) -> bool:
    classification = hand.fill.classification
    view = replace(classification.hand_class, category=classification.category.strength)
    return pattern_matcher(view, {}) is not None


def compare(ruleset: Ruleset, a: CardsLike | Hand, b: CardsLike | Hand) -> int:
    """1 when ``a`` wins, -1 when ``b`` wins, 0 for a tie (see module docstring)."""
    first, second = _hand(ruleset, a), _hand(ruleset, b)
    if first.qualifies != second.qualifies:
        return 1 if first.qualifies else -1
    if not first.qualifies:
        return 0
    for beat in ruleset.beats:
        if _matches(beat.winner.matcher, first) and _matches(beat.loser.matcher, second):
            return 1
        if _matches(beat.winner.matcher, second) and _matches(beat.loser.matcher, first):
            return -1
    if first.strength == second.strength:
        return 0
    return 1 if first.strength > second.strength else -1


def top_cycle(ruleset: Ruleset, hands: Sequence[Hand]) -> list[int]:
    """Indices of the winners among ``hands`` (ties and cycles share).

    Hands that do not qualify never win; when none qualifies there is no winner.
    """
    alive = [i for i, hand in enumerate(hands) if hand.qualifies]
    if not alive:
        return []
    outcome = {(i, j): compare(ruleset, hands[i], hands[j]) for i in alive for j in alive if i != j}
    unbeaten = [i for i in alive if all(outcome[i, j] >= 0 for j in alive if j != i)]
    if unbeaten:
        return unbeaten
    for size in range(2, len(alive) + 1):
        for group in combinations(alive, size):
            inside = set(group)
            if all(outcome[i, j] >= 0 for i in group for j in alive if j not in inside):
                return list(group)
    return alive  # unreachable: the whole field always dominates itself


@dataclass
class Half:
    """One part of a pot (a hi-lo half, or a board): its winners and their hands."""

    name: str
    ruleset: str
    hands: list[Hand | None]
    winners: list[int]
    chips: int = 0


@dataclass
class ShowdownResult:
    """Winners overall, each half's result, and (with a pot) each player's chips."""

    winners: list[int]
    halves: list[Half]
    shares: list[int] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data for ``showdown --json``."""
        return {
            "winners": self.winners,
            "shares": self.shares,
            "halves": [
                {
                    "name": half.name,
                    "ruleset": half.ruleset,
                    "winners": half.winners,
                    "chips": half.chips,
                    "hands": [hand.as_dict() if hand is not None else None for hand in half.hands],
                }
                for half in self.halves
            ],
        }


def _subsets(ruleset: Ruleset, hole: Sequence[Card], board: Sequence[Card], game: Game | None) -> Any:
    engine = ruleset.engine
    if game is not None and (game.use_hole is not None or game.use_board is not None):
        use_hole = game.use_hole if game.use_hole is not None else ruleset.hand_size - (game.use_board or 0)
        use_board = game.use_board if game.use_board is not None else ruleset.hand_size - use_hole
        if len(hole) < use_hole or len(board) < use_board:
            return []
        return (h + b for h, b in product(combinations(hole, use_hole), combinations(board, use_board)))
    return engine.candidates(list(hole) + list(board))


def best_hand(ruleset: Ruleset, hole: Sequence[Card], board: Sequence[Card], game: Game | None = None) -> Hand | None:
    """A player's best hand from ``hole`` and ``board`` under ``game``'s card-usage
    rules (default: the ruleset's own game); None when no hand can be made."""
    holding = list(hole) + list(board)
    fill = ruleset.engine.best(holding, _subsets(ruleset, hole, board, game or ruleset.game))
    return Hand.from_fill(ruleset, fill) if fill is not None else None


def _read_all(ruleset: Ruleset, players: Sequence[CardsLike], boards: Sequence[CardsLike]) -> tuple[list[list[Card]], list[list[Card]]]:
    holes = [ruleset.cards(p, f"<hand {i + 1}>") for i, p in enumerate(players)]
    board_cards = [ruleset.cards(b, f"<board {i + 1}>") if b else [] for i, b in enumerate(boards)]
    if len(players) > MAX_PLAYERS:
        raise error(GameError, "G103", f"{len(players)} players; at most {MAX_PLAYERS} are seated", "<showdown>")
    everything: dict[Card, int] = {}
    shared = {card for board in board_cards for card in board}
    for cards in holes + board_cards:
        for card in set(cards):
            everything[card] = everything.get(card, 0) + cards.count(card)
    for card, count in everything.items():
        limit = 1 if card.is_joker else ruleset.copies
        if count > limit and not (card in shared and len(board_cards) > 1 and count <= limit * len(board_cards)):
            raise error(GameError, "G104", f"{card} is dealt {count} times, but the deck holds {limit}", "<showdown>")
    game = ruleset.game
    if game is not None:
        for i, cards in enumerate(holes):
            if game.hole and len(cards) != game.hole:
                raise error(GameError, "G105", f"hand {i + 1} has {len(cards)} cards; {ruleset.name} deals {game.hole} to each player", f"<hand {i + 1}>")
        for i, cards in enumerate(board_cards):
            if game.board and len(cards) != game.board:
                raise error(GameError, "G106", f"board {i + 1} has {len(cards)} cards; {ruleset.name} deals {game.board}", f"<board {i + 1}>")
    return holes, board_cards


def showdown(
    ruleset: Ruleset,
    players: Sequence[CardsLike],
    board: CardsLike | Sequence[CardsLike] = "",
    pot: int | None = None,
) -> ShowdownResult:
    """Settle a showdown: winners, each half or board, and the chips.

    ``board`` is one board (a card string) or, for double-board games, a list
    of boards. With ``pot`` the chips are split: halves first (the odd chip to
    the first half), then equally among each half's winners, odd chips by the
    game's ``odd_chip`` rule (seat order from the button, or suit order).

    Raises:
        PokerRulesError: bad cards, repeated cards, wrong card counts.
    """
    from .ruleset import load

    boards = [board] if isinstance(board, str) or (board and isinstance(board[0], Card)) else list(board)
    if not boards:
        boards = [""]
    holes, board_cards = _read_all(ruleset, players, boards)
    game = ruleset.game
    halves_rules: list[tuple[str, Ruleset]] = [("high" if ruleset.direction == "high" else "low", ruleset)]
    if game is not None and game.split:
        halves_rules = [(split.name, load(split.ruleset)) for split in game.split]
    halves: list[Half] = []
    for board_index, cards_on_board in enumerate(board_cards):
        for name, half_rules in halves_rules:
            hands = [best_hand(half_rules, hole, cards_on_board, game) for hole in holes]
            playable = [h if h is not None else None for h in hands]
            indices = [i for i, h in enumerate(playable) if h is not None]
            winners_local = top_cycle(half_rules, [playable[i] for i in indices])  # type: ignore[misc]
            label = name if len(board_cards) == 1 else f"board {board_index + 1} {name}"
            halves.append(Half(label, half_rules.name, playable, [indices[i] for i in winners_local]))
    _merge_empty_halves(halves)
    winners = sorted({w for half in halves for w in half.winners})
    result = ShowdownResult(winners, halves)
    if pot is not None:
        result.shares = _split_pot(ruleset, pot, halves, len(players), holes)
    return result


def _merge_empty_halves(halves: list[Half]) -> None:
    """A half nobody qualifies for goes to the other halves of the same board (high scoops)."""
    for half in halves:
        if not half.winners:
            half.chips = -1  # marker: its chips move to the sibling halves


def _split_pot(ruleset: Ruleset, pot: int, halves: list[Half], players: int, holes: list[list[Card]]) -> list[int]:
    if pot < 0:
        raise error(GameError, "G107", "the pot must be a whole number of chips, 0 or more", "<showdown>")
    shares = [0] * players
    live = [half for half in halves if half.chips != -1]
    if not live:
        for half in halves:
            half.chips = 0
        return shares
    base, extra = divmod(pot, len(live))
    for index, half in enumerate(live):
        half.chips = base + (1 if index < extra else 0)
    for half in halves:
        if half.chips == -1:
            half.chips = 0
    odd_rule = ruleset.game.odd_chip if ruleset.game is not None else "first_after_button"
    for half in live:
        winners = _odd_chip_order(ruleset, half, odd_rule, holes)
        each, odd = divmod(half.chips, len(winners))
        for position, player in enumerate(winners):
            shares[player] += each + (1 if position < odd else 0)
    return shares


def _odd_chip_order(ruleset: Ruleset, half: Half, rule: str, holes: list[list[Card]]) -> list[int]:
    """Winners in the order odd chips are handed out."""
    winners = sorted(half.winners)  # seat 0 is the first seat after the button
    if rule == "suit_order":
        suit_rank = ruleset.engine.suit_rank
        value_of = ruleset.engine.value_of

        def best_card(player: int) -> tuple[int, int]:
            hand = half.hands[player]
            cards = hand.fill.played_as if hand is not None else ()
            return max(((value_of.get(c.rank or "", -1), suit_rank.get(c.suit or "", 0)) for c in cards), default=(-1, 0))

        winners.sort(key=best_card, reverse=True)
    return winners
