"""``pokerrules compare RULESET A B``: who wins between two hands, and why.

The explanation is the one :func:`evaluator.explain.explain` gives: one line
per step the comparison took, then the verdict; ``--json`` prints
``{"winner": 0 | 1 | null, "decided_by": STEP, "hands": [...], "steps": [...]}``.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

EXAMPLE = """\
example:
  pokerrules compare standard "Kh Kd 9c 7s 2h" "Ks Kc 8d 7h 2c"
  category: first hand pair (pair of kings), second hand pair (pair of kings): the same category
  kicker: pair rank K against K; first kicker 9 against 8: first hand higher
  first hand wins (decided by: kicker)
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``compare`` on the command line's subparsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "compare",
        help="who wins between two hands, and why (step by step)",
        description=(
            "Compare two hands under a ruleset and explain the decision in the order it is made: "
            "qualifier, beats: exceptions, category, tie-break ranks, natural against wild, suit tie-break."
        ),
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("ruleset", help="a catalogue name or a path to a YAML file")
    parser.add_argument(
        "first", metavar="A", help="the first hand, e.g. 'As Ad Kc 9h 2d' (more cards than a hand: the best hand plays)"
    )
    parser.add_argument("second", metavar="B", help="the second hand")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    return parser


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``compare``: print the explanation; exit 0 (bad cards raise a positioned error)."""
    from .ruleset import load

    ruleset = load(args.ruleset)
    explanation = ruleset.explain(args.first, args.second)
    if args.json:
        out.write(json.dumps(explanation.as_dict(), indent=2) + "\n")
    else:
        out.write(explanation.text() + "\n")
    return 0
