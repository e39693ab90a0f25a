"""``pokerrules compare RULESET A B``: who wins between two hands, and why.

The explanation is the one :func:`evaluator.engine.explain.explain` gives: one line
per step the comparison took, then the verdict; ``--json`` prints
``{"winner": 0 | 1 | null, "decided_by": STEP, "hands": [...], "steps": [...]}``.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from .args import RULESET_HELP, add_command, add_json
from .output import json_document


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
    return parser


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``compare``: print the explanation; exit 0 (bad cards raise a positioned error)."""
    from ..ruleset import load

    ruleset = load(args.ruleset)
    explanation = ruleset.explain(args.first, args.second)
    if args.json:
        out.write(json_document(explanation.as_dict()))
    else:
        out.write(explanation.text() + "\n")
    return 0
