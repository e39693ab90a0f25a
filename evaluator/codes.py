"""The registry of every diagnostic code, with a one-line meaning.

Codes are stable: tools (CI annotations, editors, ``--format json`` readers)
key on them, so a code is never reused for a different problem. Every code
literal used in ``evaluator/`` must be listed here (a test greps the sources),
and ``docs/codes.md`` is generated from this table::

    python -m evaluator.codes > docs/codes.md

Ranges: ``C1xx`` cards, ``Y1xx`` YAML and loading, ``S1xx`` schema, ``P1xx``
pattern syntax, ``P2xx`` pattern semantics, ``R1xx`` ruleset semantics,
``E1xx`` examples, ``W1xx`` lint warnings, ``G1xx`` games and showdowns.
"""

from __future__ import annotations

import sys

RANGES: dict[str, str] = {
    "C": "Cards",
    "Y": "YAML and loading",
    "S": "Schema",
    "P": "Patterns (P1xx syntax, P2xx meaning)",
    "R": "Ruleset meaning",
    "E": "Examples",
    "W": "Lint warnings",
    "G": "Games and showdowns",
}

CODES: dict[str, str] = {
    # cards
    "C101": "text that is not a card (with its column)",
    "C102": "a card this ruleset's deck does not hold",
    "C103": "a card repeated more often than the deck's packs allow",
    "C104": "too few cards for a hand of this ruleset",
    "C105": "too many cards given",
    "C106": "no category of the ruleset matches these cards",
    "C107": "the card text is too long to read",
    # YAML and loading
    "Y101": "the file cannot be read (missing, not a regular file, unknown catalogue name)",
    "Y102": "the file is larger than 1 MiB",
    "Y103": "YAML syntax error, or a value that cannot be read as its tag says",
    "Y104": "YAML anchors and aliases are not allowed (no expansion bombs)",
    "Y105": "a YAML tag other than the plain ones (e.g. !!python/object)",
    "Y106": "the file is nested too deeply",
    "Y107": "the file has too many values",
    "Y108": "the top level is not a mapping",
    "Y109": "a key is written twice in one mapping",
    "Y110": "a mapping key that is not a name or a number",
    "Y111": "the extends: target is missing or is not a name or path",
    "Y112": "extends: forms a cycle",
    "Y113": "the extends: chain is too deep",
    "Y114": "the file is empty",
    "Y115": "a single value is too long",
    "Y116": "a character YAML does not allow (NUL, control characters, invalid UTF-8)",
    # schema
    "S101": "unknown key (with a did-you-mean hint)",
    "S102": "a value of the wrong type",
    "S103": "a value that is not allowed (enum, name or card syntax)",
    "S104": "a required key is missing",
    "S105": "a value out of range: too large, too small, too many, too long, repeated",
    # pattern syntax
    "P101": "pattern syntax error (with what was expected)",
    "P102": "a rank group that mixes letters (XY instead of XX)",
    "P103": "the pattern is empty or too long",
    # pattern semantics
    "P201": "a variable is compared but no shape binds it",
    "P202": "one variable names two groups of a shape",
    "P203": "a shape needs more cards than a hand has (or a group no deck allows)",
    "P204": "run needs more consecutive ranks than the deck has",
    "P205": "a category name used inside a category pattern",
    "P206": "an unknown category name in qualifier, beats or plays_as",
    "P207": "a comparison term that is not a single variable letter",
    "P208": "a rank that is not in this deck",
    "P209": "a suit that is not in this deck",
    "P210": "a name compared with something other than category or suit",
    # ruleset semantics
    "R101": "order names a category that is not defined",
    "R102": "a value that is not a rank",
    "R103": "hand.min is larger than hand.size",
    "R104": "the deck has more cards than the limit (or more packs than lookup tables of its hand size can hold)",
    "R105": "the deck has fewer cards than a hand",
    "R106": "with ace: both, the ace must be the highest rank of the deck",
    "R107": "order is empty",
    "R108": "suits.order does not list each deck suit once",
    "R109": "deck.ranks are not consecutive ranks listed low to high",
    "R110": "a wild card that is not a card",
    "R111": "a wild card or wild rank that is not in the deck",
    "R112": "wild.jokers is true but the deck has no jokers",
    "R113": "coverage: a possible hand matches no category (an example hand is given)",
    "R114": "the deck has jokers that are not wild, so no hand holding one can be ranked",
    "R199": "internal error while checking the file (a bug in pokerrules: please report it)",
    # examples
    "E101": "an example fails: the evaluator says something else (shown)",
    "E102": "an example cannot be read, or names a category not in order",
    "E103": "an example's cards cannot be evaluated (not cards, not in the deck)",
    # lint warnings
    "W101": "a category defined in this file, left out of order, that hands of this ruleset match",
    "W102": "a category in order that no hand can ever land in (with the reason)",
    "W103": "a category shadowed by an earlier one that matches every hand it matches",
    "W104": "coverage not checked: too many hand classes to enumerate (the work limit), or hands the evaluator refuses",
    # games and showdowns
    "G101": "use_hole or use_board is more than the cards dealt",
    "G102": "use_hole + use_board does not make a hand",
    "G103": "no players, or more players than can be seated",
    "G104": "a card dealt more often than the deck holds it",
    "G105": "a player's hand has the wrong number of cards for the game",
    "G106": "a board has the wrong number of cards for the game",
    "G107": "the pot is not a whole number of chips, 0 or more",
    "G108": "the wrong number of boards for the game",
}


def markdown() -> str:
    """The table of every code as Markdown (the content of ``docs/codes.md``)."""
    lines = [
        "# Diagnostic codes",
        "",
        "<!-- generated by `python -m evaluator.codes > docs/codes.md`; edit evaluator/codes.py -->",
        "",
        "Every problem pokerrules reports has a stable code. `pokerrules check` prints",
        "`path:line:col: error|warning CODE: message`; `--format json` and",
        "`--format github` carry the same code. Warnings (`W1xx`) fail a check only",
        "with `--strict`.",
        "",
    ]
    for prefix, title in RANGES.items():
        lines += [f"## {prefix} — {title}", "", "| Code | Meaning |", "| --- | --- |"]
        lines += [f"| `{code}` | {meaning} |" for code, meaning in CODES.items() if code.startswith(prefix)]
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - a maintenance command
    sys.stdout.write(markdown())
