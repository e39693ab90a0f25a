"""``pokerrules showdown`` for dealer's-choice games: deals in dealing order, and what they decide.

A game whose outcome depends on the deal (Follow the Queen, Baseball,
Chicago, Low Hole Wild, hi-lo declare, run it twice) takes each player's
cards in dealing order (:mod:`evaluator.deal.read`), every ``--board`` as one
run, and ``--declare`` in seat order. ``--from`` reads one deal per line
(``HAND | HAND ; BOARD ; declare: WORD ...``) or, when the first action line
starts with a dealer or player action, deals written as actions
(:mod:`evaluator.deal.phh`). The text output says which rule made which card
wild; ``--json`` adds each player's ``folded``, ``declared`` and
``wild_reasons`` and the deal's runs under ``deal``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

from ..core.errors import PokerRulesError
from ..core.safe_text import visible
from .lines import at_input_line
from .output import EXIT_OK, json_document, json_line

if TYPE_CHECKING:
    from ..deal.settle import DealShowdown
    from ..engine.showdown import ShowdownResult
    from ..ruleset import Ruleset


def run(
    args: argparse.Namespace,
    ruleset: Ruleset,
    out: TextIO,
    lines: Callable[[], list[tuple[int, str]]],
    summary: Callable[[Sequence[ShowdownResult], bool, bool], str],
) -> int:
    """Settle the deal of the arguments, or every deal of ``--from``; print them."""
    from ..deal.deal import read_deal
    from ..deal.settle import settle

    if args.source is None:
        deal = read_deal(ruleset, args.hands, list(args.board), args.declare)
        result = settle(ruleset, deal, args.pot)
        out.write(json_document(result.as_dict()) if args.json else deal_text(result))
        return EXIT_OK
    results = read_many(args, ruleset, lines())
    if args.summary:
        out.write(summary(results, args.json, args.pot is not None))
        return EXIT_OK
    for result in results:
        out.write(json_line(result.as_dict()) if args.json else deal_text(result) + "\n")
    return EXIT_OK


def read_many(args: argparse.Namespace, ruleset: Ruleset, numbered: list[tuple[int, str]]) -> list[DealShowdown]:
    """Every deal of ``--from``: action blocks, or one deal per line (errors at their line)."""
    from ..deal.deal import read_deal
    from ..deal.phh import is_action_line, read_blocks
    from ..deal.settle import settle

    source = "<stdin>" if args.source == "-" else args.source
    if any(is_action_line(line) for _, line in numbered):
        return [settle(ruleset, deal, args.pot) for deal in read_blocks(ruleset, numbered, source)]
    results = []
    for number, line in numbered:
        if not line or line.startswith("#"):
            continue
        try:
            hands, boards, declare = split_deal_line(line)
            if not boards and args.board:
                boards = list(args.board)
            deal = read_deal(ruleset, hands, boards, declare or args.declare)
            results.append(settle(ruleset, deal, args.pot))
        except PokerRulesError as problem:
            raise at_input_line(problem, source, number) from None
    return results


def split_deal_line(line: str) -> tuple[list[str], list[str], list[str] | None]:
    """``HAND | HAND ; BOARD ; BOARD ; declare: WORD WORD``: the hands, the boards (one per run)
    and the declarations.

    >>> split_deal_line("As Kd | fold: 2c 3c ; Ah 7d 9c ; declare: high low")
    (['As Kd', 'fold: 2c 3c'], ['Ah 7d 9c'], ['high', 'low'])
    """
    body, *parts = line.split(";")
    hands = [part.strip() for part in body.split("|") if part.strip()]
    boards = []
    declare = None
    for part in parts:
        text = part.strip()
        if text.lower().startswith("declare:"):
            declare = text[len("declare:") :].split()
        elif text:
            boards.append(text)
    return hands, boards, declare


def deal_text(result: DealShowdown) -> str:
    """A deal's showdown for people: the wild cards the deal decided, each player's hand per half
    (with the rule that made each wild card wild), who folded and declared, the shares."""
    from ..deal.settle import CardHalfResult, notes_text

    lines = []
    for run, board in enumerate(result.boards):
        if board:
            label = "board" if len(result.boards) == 1 else f"run {run + 1}"
            lines.append(f"{label}: {' '.join(str(card) for card in board)}")
    lines += [visible(line) for line in notes_text(result)]
    several = len(result.halves) > 1
    for half in result.halves:
        if several:
            empty = "  nobody wins it: the other half takes its chips" if not half.winners else ""
            title = half.ruleset if not isinstance(half, CardHalfResult) else half.rule
            lines.append(f"[{visible(half.name)}: {visible(title)}]{empty}")
        for seat in range(len(result.players)):
            lines += _seat_lines(result, half, seat, several)
    if several or result.declarations is not None:
        lines += [f"  player {seat + 1}: {_share(result, seat)}" for seat in range(len(result.players))]
    for seat in result.eliminated:
        lines.append(f"player {seat + 1} declared both and did not win both: no share")
    if not result.winners:
        lines.append(
            "nobody wins" + (f": the pot ({result.carried} chips) stays for the next deal" if result.shares else "")
        )
    else:
        names = ", ".join(f"player {w + 1}" for w in result.winners)
        lines.append(f"{names} {'wins' if len(result.winners) == 1 else 'split'}")
    return "\n".join(lines) + "\n"


def _share(result: DealShowdown, seat: int) -> str:
    text = f"share {result.fractions[seat]}"
    return text + (f" = {result.shares[seat]} chips" if result.shares else "")


def _seat_lines(result: DealShowdown, half: object, seat: int, several: bool) -> list[str]:
    from ..deal.settle import CardHalfResult
    from ..engine.pot import Half

    assert isinstance(half, Half)
    mark = "*" if seat in half.winners else " "
    held = result.dealt[seat] if result.dealt else " ".join(str(card) for card in result.players[seat])
    declared = ""
    if result.declarations is not None and result.declarations[seat] is not None:
        declared = f", declared {result.declarations[seat]}"
    who = f"{mark} player {seat + 1} {held}" + (f" ({declared[2:]})" if declared else "")
    share = "" if several or result.declarations is not None else "  " + _share(result, seat)
    if result.folded[seat]:
        return [f"  player {seat + 1} {held}: folded"]
    if isinstance(half, CardHalfResult):
        card = half.best[seat]
        if card is None:
            return [f"{who}: no card for this half{share}"]
        return [f"{who}: {card}{share}"]
    hand = half.hands[seat]
    if hand is None:
        return [f"{who}: no hand in this half{share}"]
    qualifier = "" if hand.qualifies else "  (does not qualify)"
    found = [f"{who}: {' '.join(hand.cards)}  {hand.category}  {visible(hand.describe())}{qualifier}{share}"]
    found += [f"      wild {visible(reason)}" for reason in result.wild_reasons(half, seat)]
    return found
