"""Why one hand beats another in a game whose wild cards the deal decides.

``compare`` of Follow the Queen or Low Hole Wild hands needs the deal: the two
hands are read as the two seats of a heads-up deal, in dealing order
(:func:`evaluator.deal.deal.read_deal`), the deal's wild cards are resolved
per seat, each hand is evaluated under its own seat's wild cards, and the
comparison is explained as always (:func:`evaluator.engine.explain.explain`),
after steps that say which rule made which card wild.

Hands of fewer cards than the game deals carry no deal: they are compared
with the static wild cards alone (queens in Follow the Queen), and a first
step says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import PokerRulesError
from ..engine.explain import Explanation, Step, explain
from .deal import read_deal
from .resolve import resolve, wild_reasons
from .settle import hand_of
from .variant import variant

if TYPE_CHECKING:
    from ..rules.ruleset import Rules


def explain_deal(rules: Rules, a: str, b: str) -> Explanation:
    """Compare two hands dealt heads-up and explain it, the deal's wild cards first.

    >>> from evaluator import load
    >>> found = explain_deal(load("follow-the-queen"), "(2c 9c) Qh 8s 7s 3d (9d)", "(Kc Kh) 6d Ks 2h 5d (5h)")
    >>> found.winner, found.steps[0].text
    (1, 'deal: sixes are wild: 6d was dealt face up to player 2 right after Qh to player 1 (wild.follow)')
    """
    try:
        deal = read_deal(rules, [a, b])
    except PokerRulesError as problem:
        if problem.code != "G119":
            raise
        found = explain(rules, a, b)
        note = (
            f"deal: not a whole deal ({problem.first.message}); only the wild cards every deal has count "
            f"({', '.join(sorted(rules.wild.ranks)) or 'none'})"
        )
        found.steps.insert(0, Step("wilds", note))
        return found
    resolution = resolve(rules, deal.runs[0])
    board = deal.board_cards(0)
    hands = []
    for seat, holding in enumerate(deal.holdings):
        hand = hand_of(variant(rules, resolution.added[seat]), holding, board)
        if hand is None:
            return explain(rules, a, b)  # no hand at all: the plain explanation names the problem
        hands.append(hand)
    found = explain(rules, hands[0], hands[1])
    steps = [Step("wilds", f"deal: {note.text} ({note.rule})") for note in resolution.notes]
    for seat, hand in enumerate(hands):
        wild = [card for card, is_wild in zip(hand.fill.cards, hand.fill.is_wild, strict=False) if is_wild]
        steps += [
            Step("wilds", f"{('first', 'second')[seat]} hand: {reason}")
            for reason in wild_reasons(rules, resolution, seat, wild)
        ]
    found.steps[0:0] = steps
    return found
