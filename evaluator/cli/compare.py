"""``pokerrules compare RULESET A B``: who wins between two hands, and why.

The explanation is the one :func:`evaluator.engine.explain.explain` gives: one line
per step the comparison took, then the verdict; ``--json`` prints
``{"winner": 0 | 1 | null, "decided_by": STEP, "hands": [...], "steps": [...]}``.
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import TYPE_CHECKING, Any, TextIO

from ..core.errors import CardError, caret, error
from ..rules.cards import tokenize
from .args import RULESET_HELP, add_command, add_json, add_root
from .output import json_document

if TYPE_CHECKING:
    from ..ruleset import Ruleset


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``compare`` on the command line's subparsers."""
    parser = add_command(
        subparsers,
        "compare",
        "who wins between two hands, and why (step by step)",
        "Compare two hands under a ruleset and explain the decision in the order it is made:\n"
        "qualifier, beats: exceptions, category, tie-break ranks, natural against wild, suit tie-break.",
        '$ pokerrules compare standard "Kh Kd 9c 7s 2h" "Ks Kc 8d 7h 2c"\n'
        '$ pokerrules compare italian "Ah 8h 7h 6h 5h" "As Ks Qs Js Ts" --json',
    )
    parser.add_argument("ruleset", help=RULESET_HELP)
    parser.add_argument(
        "first", metavar="A", help="the first hand, e.g. 'As Ad Kc 9h 2d' (more cards than a hand: the best hand plays)"
    )
    parser.add_argument("second", metavar="B", help="the second hand")
    add_json(parser)
    add_root(parser)
    return parser


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``compare``: print the explanation; exit 0 (bad cards raise a positioned error).

    The two hands are dealt from one deck: a card in both (more often than
    the deck's packs hold it) is refused (C103), as ``showdown`` refuses it.
    """
    from ..ruleset import load

    ruleset = load(args.ruleset, root=args.root)
    if ruleset.by_deal:  # cards in dealing order, face down in parentheses: the same columns without them
        refuse_shared_cards(ruleset, _unmarked(args.first), _unmarked(args.second))
    else:
        refuse_shared_cards(ruleset, args.first, args.second)
    explanation = ruleset.explain(args.first, args.second)
    if args.json:
        out.write(json_document(explanation.as_dict()))
    else:
        out.write(explanation.text() + "\n")
    return 0


def refuse_shared_cards(ruleset: Ruleset, first: str, second: str) -> None:
    """C103 at the first card of ``second`` that ``first`` already holds as often as the packs allow."""
    held = Counter(ruleset.cards(first, "<hand 1>"))
    ruleset.cards(second, "<hand 2>")  # its own problems first, at its own columns
    for position, token in enumerate(tokenize(second, "<hand 2>"), start=1):
        card = token.card
        limit = 1 if card.is_joker else ruleset.copies
        held[card] += 1
        if held[card] > limit:
            raise error(
                CardError,
                "C103",
                f"card {position}, {card}, is in both hands ({ruleset.name} deals it {_times(limit)})",
                "<hand 2>",
                1,
                token.col,
                hint="hands that share board cards: pokerrules showdown RULESET HAND HAND --board CARDS",
                context=caret(second, token.col),
            )


def _unmarked(deal: str) -> str:
    """A deal's cards with its face-down marks blanked (each column kept)."""
    return deal.replace("(", " ").replace(")", " ")


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")
