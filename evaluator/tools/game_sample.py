"""Game-aware showdowns for ``diff``: real deals of the game, and the share of the pot that moves.

When either ruleset has a ``game:`` (hold'em, Omaha, stud, razz, hi-lo, double
board), a heads-up deal is dealt the way the games deal: hole cards to each
player and a shared board (or boards). Two games with different deal shapes
are compared on what both can deal: the larger shape is dealt from the cards
both decks hold, and each game uses the first of the dealt cards its own rule
gives a player (its ``hole`` hole cards, its ``board`` board cards, its number
of boards); a ruleset without a game plays its hand size from the hole cards.
Each game then settles the pot under its own rules (must-use, hi-lo halves and
qualifiers, ``beats:``) with :func:`evaluator.engine.showdown.showdown`.

Per deal: the pot shares under A and under B; the *pot that moves* is half the
sum of the absolute differences of the shares (0 when nothing changes, 1 when
the whole pot changes hands); a *winner change* is any change of the set of
players who get a share; a *scoop* is a deal where one player takes the whole
pot. The deals are sampled with a seed; the mean pot moved has a 95% normal
interval, the winner changes a 95% Wilson interval.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import chain
from typing import TYPE_CHECKING, Any, TextIO

from ..core.errors import GameError, error
from ..core.stats_math import Z_95, wilson_interval
from ..rules.cards import Card

if TYPE_CHECKING:
    from ..deal.sample import Completed
    from ..ruleset import Ruleset

PLAYERS = 2
DEFAULT_GAME_DEALS = 5_000
GAME_EXAMPLES = 3
SETTLED_TOGETHER = 250  # deals of the game share settled in one batch (a progress step each)

Deal = tuple[list[list[Card]], list[list[Card]]]  # hole cards per player, boards


@dataclass(frozen=True, slots=True)
class Shape:
    """How many cards a game gives: hole cards per player, board cards per board, boards."""

    hole: int
    board: int
    boards: int


@dataclass(frozen=True, slots=True)
class GameDeal:
    """A deal whose pot moves, with each side's shares (player order)."""

    holes: tuple[tuple[str, ...], ...]
    boards: tuple[tuple[str, ...], ...]
    shares_a: tuple[str, ...]
    shares_b: tuple[str, ...]


@dataclass(frozen=True)
class GameShare:
    """How often, and how much of the pot, changes between two games."""

    method: str  # sampled, exact or impossible
    players: int
    shape: Shape
    plan: str  # what was dealt and how each side used it
    deals: int
    seed: int | None
    winners_changed: int
    pot_moved: float  # mean share of the pot that moves
    pot_low: float | None
    pot_high: float | None
    scoops_a: int
    scoops_b: int
    examples: tuple[GameDeal, ...] = ()
    reason: str = ""

    @property
    def winner_interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the winner-change share."""
        return wilson_interval(self.winners_changed, self.deals, Z_95)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data (``game_showdowns`` in ``docs/json/diff.schema.json``)."""
        low, high = self.winner_interval if self.deals else (None, None)
        return {
            "method": self.method,
            "players": self.players,
            "shape": {"hole": self.shape.hole, "board": self.shape.board, "boards": self.shape.boards},
            "plan": self.plan,
            "deals": self.deals,
            "seed": self.seed,
            "winners_changed": self.winners_changed,
            "winner_change_share": self.winners_changed / self.deals if self.deals else None,
            "winner_change_interval": None
            if low is None
            else {"level": 0.95, "method": "wilson", "low": low, "high": high},
            "pot_moved": self.pot_moved,
            "pot_moved_interval": None
            if self.pot_low is None
            else {"level": 0.95, "method": "normal", "low": self.pot_low, "high": self.pot_high},
            "scoops_a": self.scoops_a,
            "scoops_b": self.scoops_b,
            "reason": self.reason or None,
            "examples": [
                {
                    "holes": [list(h) for h in e.holes],
                    "boards": [list(b) for b in e.boards],
                    "shares_a": list(e.shares_a),
                    "shares_b": list(e.shares_b),
                }
                for e in self.examples
            ],
        }


def shape_of(ruleset: Ruleset) -> Shape:
    """The cards ``ruleset`` gives a player: its game's, or its hand size in the hand when it has none."""
    game = ruleset.game
    if game is None:
        return Shape(ruleset.hand_size, 0, 1)
    return Shape(game.hole, game.board, game.boards if game.board else 1)


def _use(ruleset: Ruleset, shape: Shape) -> str:
    own = shape_of(ruleset)
    text = f"{ruleset.name} uses {own.hole} hole card{'s' if own.hole != 1 else ''}"
    if own.hole < shape.hole:
        text += f" (the first {own.hole} of {shape.hole})"
    if own.board:
        text += f" and {own.board} board cards" + (f" on {own.boards} boards" if own.boards > 1 else "")
    elif shape.board:
        text += " and no board"
    game = ruleset.game
    if game is not None and game.split:
        text += ", split " + " / ".join(s.name for s in game.split)
    if ruleset.by_deal:
        from ..deal.resolve import rules_text

        keys = sorted({line.rsplit("(", 1)[-1].rstrip(")") for line in rules_text(ruleset) if "(" in line})
        text += ", dealt street by street in dealing order (" + ", ".join(keys) + ")"
    return text


def pot_shares(ruleset: Ruleset, deal: Deal, shape: Shape) -> list[Fraction]:
    """Each player's share of the pot when ``ruleset``'s game settles ``deal`` (its own part of it)."""
    from ..compiled.fasthand import showdown

    own = shape_of(ruleset)
    if ruleset.by_deal:
        return dealt_pot_shares(ruleset, deal, own)
    holes = [hole[: own.hole] for hole in deal[0]]
    if own.board == 0:
        return showdown(ruleset, holes, "").fractions
    boards = [board[: own.board] for board in deal[1][: own.boards]]
    return showdown(ruleset, holes, boards if own.boards > 1 else boards[0]).fractions


def dealt_pot_shares(ruleset: Ruleset, deal: Deal, own: Shape) -> list[Fraction]:
    """The shares of a dealer's-choice game: each player's first cards are theirs in dealing order.

    The hole cards given to a player are dealt to them in order (the game's streets
    say which face up), the first run is the board given; extra cards and further
    runs come from the cards nobody was given, in an order fixed by the deal (both
    sides of a comparison see the same cards). In a declare game every player declares
    the halves their cards win (cards speak), every half when they win none.
    """
    from ..deal.deal import BOTH, half_names
    from ..deal.judge import deal_of
    from ..deal.settle import settle

    runs = completed_deal(ruleset, deal, own)
    players = len(deal[0])
    declare = None
    game = ruleset.game
    if game is not None and game.declare is not None:
        open_deal = deal_of(ruleset, runs, [False] * players, None)
        halves = settle(ruleset, open_deal).halves
        names = half_names(ruleset)
        declare = []
        for seat in range(players):
            won = [name for name, half in zip(names, halves, strict=False) if seat in half.winners]
            declare.append(BOTH if len(won) == len(names) or not won else won[0])
    return settle(ruleset, deal_of(ruleset, runs, [False] * players, declare)).fractions


def completed_deal(ruleset: Ruleset, deal: Deal, own: Shape) -> Completed:
    """The runs of a dealer's-choice deal as :func:`dealt_pot_shares` plays it (see there)."""
    import random as plain_random

    from ..deal.sample import Known, complete

    id_of = {card: i for i, card in enumerate(ruleset.deck)}
    holes = [[id_of[card] for card in hole[: own.hole]] for hole in deal[0]]
    board = [id_of[card] for card in deal[1][0][: own.board]] if own.board and deal[1] else []
    known = Known(len(holes), [[(card, None) for card in hole] for hole in holes], [], [(card, None) for card in board])
    rest = known.left(ruleset)
    plain_random.Random(hash(tuple(sorted(rest))) & 0xFFFFFFFF).shuffle(rest)
    try:
        return complete(ruleset, known, rest)
    except IndexError:  # extra cards (or runs) ask for more cards than the deck has left
        raise error(
            GameError, "G125", f"{ruleset.name}'s deck runs out before this deal is complete", "<deal>"
        ) from None


class Settler:
    """Pot shares of one side's deals, :func:`pot_shares` deal by deal -- or, for a dealer's-choice
    game where nobody declares, many deals at once on the variants' tables
    (:class:`evaluator.deal.judge.Judge`, the same shares: its tests hold it to ``settle``).

    ``total``: the deals to be settled in all (the judge builds a variant's tables when they will pay).
    """

    def __init__(self, ruleset: Ruleset, shape: Shape, total: int) -> None:
        from ..deal.judge import Judge

        self.ruleset, self.shape, self.own = ruleset, shape, shape_of(ruleset)
        game = ruleset.game
        batched = ruleset.by_deal and (game is None or game.declare is None)
        self.judge = Judge(ruleset, PLAYERS, deals=total) if batched else None

    def shares(self, deals: Sequence[Deal]) -> list[list[Fraction]]:
        """Each deal's shares, as :func:`pot_shares` gives them."""
        if self.judge is None or not deals:
            return [pot_shares(self.ruleset, deal, self.shape) for deal in deals]
        runs = [completed_deal(self.ruleset, deal, self.own) for deal in deals]
        shares = self.judge.settle(runs).shares
        # a share adds 1 / (runs x halves x winners) parts: whole numbers of 1 / whole, exact once rounded
        whole = math.lcm(*range(1, len(runs[0]) + 1)) * math.lcm(*range(1, len(self.judge.specs) + 1))
        whole *= math.lcm(*range(1, PLAYERS + 1))
        return [[Fraction(round(share * whole), whole) for share in row] for row in shares.tolist()]


def judge_deals(
    a: Ruleset, b: Ruleset, deals: Iterable[Deal], total: int = DEFAULT_GAME_DEALS
) -> tuple[int, int, list[Fraction], int, int, list[GameDeal]]:
    """(deals, winner changes, pot moved per deal, scoops under A, scoops under B, examples) over ``deals``
    (``total`` of them, when known: see :class:`Settler`)."""
    shape = combined_shape(a, b)
    settlers = Settler(a, shape, total), Settler(b, shape, total)
    count = changed = scoops_a = scoops_b = 0
    moved: list[Fraction] = []
    examples: list[GameDeal] = []
    for deal, shares_a, shares_b in _settled(deals, settlers):
        count += 1
        move = sum((abs(x - y) for x, y in zip(shares_a, shares_b, strict=True)), Fraction(0)) / 2
        moved.append(move)
        winners_a = {i for i, x in enumerate(shares_a) if x > 0}
        winners_b = {i for i, x in enumerate(shares_b) if x > 0}
        changed += winners_a != winners_b
        scoops_a += any(x == 1 for x in shares_a)
        scoops_b += any(x == 1 for x in shares_b)
        if move and len(examples) < GAME_EXAMPLES:
            examples.append(
                GameDeal(
                    tuple(tuple(map(str, h)) for h in deal[0]),
                    tuple(tuple(map(str, b)) for b in deal[1]),
                    tuple(map(str, shares_a)),
                    tuple(map(str, shares_b)),
                )
            )
    return count, changed, moved, scoops_a, scoops_b, examples


def _settled(
    deals: Iterable[Deal], settlers: tuple[Settler, Settler]
) -> Iterator[tuple[Deal, list[Fraction], list[Fraction]]]:
    """Each deal with its shares under A and under B, settled :data:`SETTLED_TOGETHER` deals at a time."""
    batch: list[Deal] = []
    for deal in chain(deals, [None]):
        if deal is not None:
            batch.append(deal)
            if len(batch) < SETTLED_TOGETHER:
                continue
        shares_a, shares_b = (settler.shares(batch) for settler in settlers)
        yield from zip(batch, shares_a, shares_b, strict=True)
        batch = []


def combined_shape(a: Ruleset, b: Ruleset) -> Shape:
    """The deal that serves both games: the larger of each count."""
    one, two = shape_of(a), shape_of(b)
    return Shape(max(one.hole, two.hole), max(one.board, two.board), max(one.boards, two.boards))


def game_share(
    a: Ruleset,
    b: Ruleset,
    deck: Sequence[Card],
    deals: int = DEFAULT_GAME_DEALS,
    seed: int = 2026,
    progress: TextIO | None = None,
) -> GameShare:
    """Sample ``deals`` heads-up deals of the combined game shape and measure what changes."""
    shape = combined_shape(a, b)
    plan = (
        f"{PLAYERS} players, {shape.hole} hole cards each"
        + (f", {shape.boards} board{'s' if shape.boards > 1 else ''} of {shape.board}" if shape.board else ", no board")
        + f" from the {len(deck)} cards both decks hold; {_use(a, shape)}; {_use(b, shape)}"
    )
    need = PLAYERS * shape.hole + shape.boards * shape.board
    if len(deck) < need:
        reason = f"a deal needs {need} cards; the decks share {len(deck)}"
        return GameShare("impossible", PLAYERS, shape, plan, 0, None, 0, 0.0, None, None, 0, 0, reason=reason)
    rng = random.Random(seed)

    def dealt() -> Iterable[Deal]:
        for number in range(deals):
            cards = rng.sample(list(deck), need)
            holes = [cards[p * shape.hole : (p + 1) * shape.hole] for p in range(PLAYERS)]
            rest = cards[PLAYERS * shape.hole :]
            boards = [rest[i * shape.board : (i + 1) * shape.board] for i in range(shape.boards)]
            if progress is not None and progress.isatty() and number % 50 == 0:
                progress.write(f"\rdealing games {100 * number // deals:3d}%")
                progress.flush()
            yield holes, boards

    count, changed, moved, scoops_a, scoops_b, examples = judge_deals(a, b, dealt(), deals)
    if progress is not None and progress.isatty():
        progress.write("\r" + " " * 24 + "\r")
    values = [float(m) for m in moved]
    mean = sum(values) / count
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (count - 1)) if count > 1 else 0.0
    half = Z_95 * spread / math.sqrt(count)
    return GameShare(
        "sampled",
        PLAYERS,
        shape,
        plan,
        count,
        seed,
        changed,
        mean,
        max(0.0, mean - half),
        min(1.0, mean + half),
        scoops_a,
        scoops_b,
        tuple(examples),
    )


def game_lines(share: GameShare, name_a: str, name_b: str) -> list[str]:
    """The game comparison as text."""
    lines = [f"Game deals ({share.plan})"]
    if share.method == "impossible":
        return [*lines, f"  not compared: {share.reason}"]
    low, high = share.winner_interval
    lines += [
        f"  share of the pot that moves: {share.pot_moved * 100:.2f}% on average "
        f"(95% interval {share.pot_low or 0:.2%}–{share.pot_high or 0:.2%})",
        f"  deals whose winners change: {share.winners_changed:,} of {share.deals:,} "
        f"({share.winners_changed / share.deals:.2%}, 95% Wilson interval {low:.2%}–{high:.2%})",
        f"  scoops (one player takes the whole pot): {name_a} {share.scoops_a:,}, {name_b} {share.scoops_b:,}",
        f"  sampled: {share.deals:,} heads-up deals, seed {share.seed}",
    ]
    for example in share.examples:
        holes = "  vs  ".join(" ".join(h) for h in example.holes)
        boards = " | ".join(" ".join(b) for b in example.boards)
        lines.append(
            f"  e.g. {holes}, board {boards or '-'}: {name_a} shares {' / '.join(example.shares_a)}, "
            f"{name_b} shares {' / '.join(example.shares_b)}"
        )
    return lines
