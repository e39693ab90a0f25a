"""The showdown of a deal: the wild cards the deal decides, card halves, declare, runs.

For each run of the board (one, unless the game runs it twice), the deal's
wild cards are resolved per seat (:mod:`evaluator.deal.resolve`) and each
half of the pot is judged:

- a half judged by hands (the game's own ruleset, or a ``game.split``
  ruleset) ranks every player's best hand under that player's variant
  (:mod:`evaluator.deal.variant`: the half's ruleset with the deal's wild ranks,
  and in a named half the game's own static wild ranks too); hands of one
  family compare by strength, so players with different wild cards meet
  fairly, and ``beats:`` cycles are settled by the top cycle as always;
- a card half (Chicago) goes to the player holding the highest (lowest) card
  it names, among the cards dealt with the face it names; nobody holding one:
  the other halves take its chips, as for a half nobody qualifies for.

Folded players take no part. In a declare game a half is contested only by
the players who declared it or both; a player who declared both must win
every half (``both: win``: alone; ``win_or_tie``: at least tie) or gets
nothing, and the halves are then judged without them (every failing player
at once). When nobody is left to win anything the pot stays for the next deal
(``carried``), as when nobody qualifies.

The pot is split as :func:`evaluator.engine.showdown.showdown` splits it:
between the runs first (odd chip to the first), then the halves, then each
half's winners, odd chips by ``game.odd_chip``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..compiled.fasthand import fast_hands, fast_mode
from ..core.errors import GameError, error
from ..engine.hand import Hand
from ..engine.pot import Half, pot_fractions, split_pot
from ..engine.showdown import ShowdownResult, best_hand, top_cycle
from .deal import BOTH, Deal, half_names
from .resolve import Resolution, WildNote, card_rule_text, resolve, wild_reasons
from .variant import variant
from .walk import Dealt, cards_of

if TYPE_CHECKING:
    from ..rules.cards import Card
    from ..rules.ruleset import CardHalf, Rules


@dataclass
class CardHalfResult(Half):
    """A half won by a card: per seat the card that counts for it (None: no such card)."""

    best: list[Card | None] = field(default_factory=list)
    rule: str = ""


@dataclass
class DealShowdown(ShowdownResult):
    """A showdown of a deal: the result of :func:`evaluator.engine.showdown.showdown`, plus who
    folded, the declarations, and per run the wild cards the deal decided and why."""

    folded: list[bool] = field(default_factory=list)
    declarations: list[str | None] | None = None
    resolutions: list[Resolution] = field(default_factory=list)
    eliminated: list[int] = field(default_factory=list)  # players who declared both and failed
    rules: Rules | None = None
    dealt: list[str] = field(default_factory=list)  # per seat, the cards in dealing order, (face down)

    def wild_reasons(self, half: Half, seat: int) -> list[str]:
        """Why each wild card ``seat`` plays in ``half`` is wild (one line per rule)."""
        hand = half.hands[seat] if seat < len(half.hands) else None
        if hand is None or self.rules is None:
            return []
        cards = [card for card, wild in zip(hand.fill.cards, hand.fill.is_wild, strict=False) if wild]
        return wild_reasons(self.rules, self.resolutions[half.board], seat, cards) if cards else []

    def as_dict(self) -> dict[str, Any]:
        """The showdown's JSON (see ``docs/json/showdown.schema.json``) with the deal's part under ``deal``."""
        data = super().as_dict()
        for seat, player in enumerate(data["players"]):
            player["folded"] = self.folded[seat]
            player["dealt"] = self.dealt[seat]
            player["declared"] = None if self.declarations is None else self.declarations[seat]
            for half, entry in zip(self.halves, player["hands"], strict=True):
                if isinstance(half, CardHalfResult):
                    card = half.best[seat]
                    entry.update({"category": None, "cards": [str(card)] if card else [], "description": half.rule})
                entry["wild_reasons"] = self.wild_reasons(half, seat)
        data["deal"] = {
            "runs": [
                {"board": [str(card) for card in board], "wild": [note.as_dict() for note in resolution.notes]}
                for board, resolution in zip(self.boards, self.resolutions, strict=True)
            ],
            "eliminated": self.eliminated,
            "extra_cards": list(self.resolutions[0].extras) if self.resolutions else [],
        }
        return data


def hand_of(rules: Rules, holding: list[Card], board: list[Card]) -> Hand | None:
    """The best hand of ``holding`` and ``board`` under ``rules`` (a variant), on the tables when they serve."""
    game = rules.game
    constrained = game is not None and (game.use_hole is not None or game.use_board is not None)
    cards = holding + board
    if not constrained and not rules.best_subset and len(cards) >= rules.hand_min and fast_mode(rules, "evaluate"):
        fill = fast_hands(rules).fill(cards)
        return Hand.from_fill(rules, fill) if fill is not None else None
    return best_hand(rules, holding, board, game)


def half_rules_of(rules: Rules) -> list[tuple[str, Rules | None, CardHalf | None]]:
    """(name, ruleset judging the half or None, card rule or None) of each half of the pot."""
    from ..rules.build import load_split_half

    game = rules.game
    if game is None or not game.split:
        return [(half_names(rules)[0], rules, None)]
    found: list[tuple[str, Rules | None, CardHalf | None]] = []
    for index, split in enumerate(game.split):
        if split.card is not None:
            found.append((split.name, None, split.card))
        else:
            judged = rules if split.ruleset is None else load_split_half(rules.document, index, split.ruleset)
            found.append((split.name, judged, None))
    return found


def settle(rules: Rules, deal: Deal, pot: int | None = None) -> DealShowdown:
    """Settle ``deal`` (see the module docstring).

    >>> from evaluator import load
    >>> from evaluator.deal.deal import read_deal
    >>> ftq = load("follow-the-queen")
    >>> result = settle(ftq, read_deal(ftq, ["(2c 9c) Qh 8s 7s 3d (9d)", "(Kc Kh) 6d Ks 2h 5d (5h)"]))
    >>> result.winners, result.resolutions[0].notes[0].text
    ([1], 'sixes are wild: 6d was dealt face up to player 2 right after Qh to player 1')
    """
    if pot is not None and pot < 0:
        raise error(GameError, "G107", "the pot must be a whole number of chips, 0 or more", "<showdown>")
    specs = half_rules_of(rules)
    players = len(deal.seats)
    folded = list(deal.folded)
    resolutions = [resolve(rules, walked) for walked in deal.runs]
    judged: list[Half] = []
    eliminated: set[int] = set()
    for run, resolution in enumerate(resolutions):
        board = deal.board_cards(run)
        halves = [_half(rules, deal, run, resolution, name, judge, card, board) for name, judge, card in specs]
        if deal.declarations is not None:
            eliminated |= _declare(rules, deal, halves, specs)
        judged += halves
    fractions = pot_fractions(judged, players, len(deal.runs))
    winners = sorted({w for half in judged for w in half.winners})
    holes = deal.holdings
    result = DealShowdown(
        [list(cards) for cards in holes],
        [deal.board_cards(run) for run in range(len(deal.runs))],
        winners,
        judged,
        fractions,
        pot,
        folded=folded,
        declarations=None if deal.declarations is None else list(deal.declarations),
        resolutions=resolutions,
        eliminated=sorted(eliminated),
        rules=rules,
        dealt=[dealt_text(rules, cards) for cards in deal.runs[0].seats],
    )
    if pot is not None:
        result.shares, result.carried = split_pot(rules, pot, judged, holes, len(deal.runs))
    return result


def _label(deal: Deal, run: int, name: str, split: bool) -> str:
    if len(deal.runs) == 1:
        return name
    return f"run {run + 1}" + (f" {name}" if split else "")


def _half(
    rules: Rules,
    deal: Deal,
    run: int,
    resolution: Resolution,
    name: str,
    judge: Rules | None,
    card: CardHalf | None,
    board: list[Card],
) -> Half:
    split = rules.game is not None and bool(rules.game.split)
    label = _label(deal, run, name, split)
    eligible = _eligible(deal, name)
    if card is not None:
        seats = deal.runs[run].seats
        best = [best_card(rules, seats[seat], card) if seat in eligible else None for seat in range(len(deal.seats))]
        winners = card_winners(rules, best, card)
        return CardHalfResult(
            label, card_rule_text(card), run, [None] * len(best), winners, best=best, rule=card_rule_text(card)
        )
    assert judge is not None
    extra_static = rules.wild.ranks if judge is not rules else frozenset()
    hands: list[Hand | None] = []
    for seat, holding in enumerate(deal.holdings):
        if seat not in eligible:
            hands.append(None)
            continue
        hands.append(hand_of(variant(judge, resolution.added[seat] | extra_static), holding, board))
    return Half(label, judge.name, run, hands, top_cycle(judge, hands))


def _eligible(deal: Deal, half: str) -> set[int]:
    """Seats that contest ``half``: not folded, and (declare) having declared it or both."""
    seats = {seat for seat, text in enumerate(deal.seats) if not text.folded}
    if deal.declarations is not None:
        seats = {seat for seat in seats if deal.declarations[seat] in (half, BOTH)}
    return seats


def _declare(rules: Rules, deal: Deal, halves: list[Half], specs: list[Any]) -> set[int]:
    """Players who declared both and did not win every half: taken out of every half, which is judged again."""
    assert deal.declarations is not None and rules.game is not None
    outright = rules.game.declare == "win"
    failed = set()
    for seat, said in enumerate(deal.declarations):
        if said != BOTH:
            continue
        for half in halves:
            if seat not in half.winners or (outright and len(half.winners) > 1):
                failed.add(seat)
    for half, (_, judge, card) in zip(halves, specs, strict=True):
        if not failed & set(half.winners):
            continue
        for seat in failed:  # judged again without the failed players
            half.hands[seat] = None
        if isinstance(half, CardHalfResult):
            for seat in failed:
                half.best[seat] = None
            half.winners = card_winners(rules, half.best, card)
        else:
            half.winners = top_cycle(judge, half.hands)
    return failed


def card_value(rules: Rules, card: Card, half: CardHalf) -> int:
    """How good ``card`` is for a card half: bigger is better."""
    order = list(rules.deck_ranks)
    if half.ace == "low" and "A" in order:
        order = ["A"] + [rank for rank in order if rank != "A"]
    value = order.index(card.rank or "")
    return value if half.pick == "highest" else -value


def best_card(rules: Rules, cards: Sequence[Dealt], half: CardHalf) -> Card | None:
    """The card of a seat's ``cards`` that counts for a card half (None: it holds none)."""
    deck = cards_of(rules)
    candidates = [
        deck[d.card]
        for d in cards
        if (half.face == "any" or d.up == (half.face == "up"))
        and not deck[d.card].is_joker
        and (half.suit is None or deck[d.card].suit == half.suit)
    ]
    if not candidates:
        return None
    return max(candidates, key=lambda card: card_value(rules, card, half))


def card_winners(rules: Rules, best: list[Card | None], half: CardHalf) -> list[int]:
    """The seats holding the best card for a card half (ties split)."""
    values = {seat: card_value(rules, card, half) for seat, card in enumerate(best) if card is not None}
    if not values:
        return []
    top = max(values.values())
    return sorted(seat for seat, value in values.items() if value == top)


def dealt_text(rules: Rules, cards: list[Dealt]) -> str:
    """A seat's cards in dealing order, face-down runs in parentheses: ``(As Kd) 7c Qh``."""
    parts: list[str] = []
    down: list[str] = []
    for dealt in cards:
        if dealt.up:
            if down:
                parts.append(f"({' '.join(down)})")
                down = []
            parts.append(str(cards_of(rules)[dealt.card]))
        else:
            down.append(str(cards_of(rules)[dealt.card]))
    if down:
        parts.append(f"({' '.join(down)})")
    return " ".join(parts)


def notes_text(result: DealShowdown) -> list[str]:
    """The wild-card notes of every run, one line each."""
    lines = []
    for run, resolution in enumerate(result.resolutions):
        prefix = f"run {run + 1}: " if len(result.resolutions) > 1 else ""
        if run == 0:
            lines += [f"{text} (game.extra)" for text in resolution.extras]
        lines += [f"{prefix}{note.text} ({note.rule})" for note in resolution.notes]
    return lines


__all__ = ["CardHalfResult", "DealShowdown", "WildNote", "hand_of", "settle", "notes_text"]
