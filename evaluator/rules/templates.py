"""``describe:`` templates: reading them, and checking them against their category.

A template is text with fields in braces: ``{X}`` the rank a variable of the
category's pattern is bound to ("king"), ``{X:plural}`` ("kings"), ``{top}``
and ``{bottom}`` (the highest and lowest card, the ends of a run),
``{cards}`` ("K-J-9-3-2"), ``{wilds}`` (what the wild cards play as) and
``{category}`` (the category's name in words). ``plural`` is the only filter,
and it applies to ranks. Braces are only for fields.

Checking a template (``T1xx``), each problem at its own line and column:

- T101 a field that is not one of those above (``{bogus}``);
- T102 a filter that does not exist (``{X:plurl}``);
- T103 a variable that no shape of the category's pattern binds (the
  description would read "no");
- T104 a brace that does not open or close a field (``{X``, ``{}``, ``}``);
- T105 a filter on a field that is not a rank (``{cards:plural}``).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from ..core.errors import Diagnostic
from .patterns import AllOf, AnyOf, Pattern, Shape, Where

RANK_FIELDS = ("top", "bottom")
TEXT_FIELDS = ("cards", "wilds", "category")
VARIABLES = "UVWXYZ"
FILTERS = ("plural",)

_FIELD = re.compile(r"\{(\w+)(?::(\w+))?\}")
_TOKEN = re.compile(r"\{[^{}]*\}?|\}")


@dataclass(frozen=True, slots=True)
class Field:
    """One ``{name}`` or ``{name:filter}`` of a template; ``col`` is its 1-based column in the template."""

    name: str
    filter: str | None
    col: int
    text: str


def fields(template: str) -> tuple[list[Field], list[tuple[int, str]]]:
    """The fields of ``template``, and the malformed braces as (column, text).

    >>> found, bad = fields("{X:plural} full of {Y:plural}")
    >>> [(f.name, f.filter, f.col) for f in found], bad
    ([('X', 'plural', 1), ('Y', 'plural', 20)], [])
    >>> fields("{X high")[1]
    [(1, '{X high')]
    """
    found: list[Field] = []
    bad: list[tuple[int, str]] = []
    for token in _TOKEN.finditer(template):
        text = token.group(0)
        match = _FIELD.fullmatch(text)
        if match is None:
            bad.append((token.start() + 1, text))
        else:
            found.append(Field(match.group(1), match.group(2), token.start() + 1, text))
    return found, bad


def bound_variables(pattern: Pattern) -> set[str]:
    """The variables some shape of ``pattern`` binds (a shape under ``not`` binds nothing)."""
    if isinstance(pattern, Shape):
        return {letter for letter, _ in pattern.groups}
    if isinstance(pattern, (AllOf, AnyOf)):
        return set().union(*(bound_variables(item) for item in pattern.items))
    return set()


def check_template(template: str, pattern: Pattern, category: str, where: Where) -> list[Diagnostic]:
    """Every problem of one category's ``describe:`` template, positioned inside it.

    >>> from evaluator.rules.patterns import parse_pattern
    >>> [d.code for d in check_template("{X:plurl} and {bogus}", parse_pattern("XX Y"), "pair", Where())]
    ['T102', 'T101']
    """
    problems: list[Diagnostic] = []

    def report(code: str, message: str, col: int, hint: str | None = None) -> None:
        from ..core.errors import caret

        line, file_col = where.at(template, col)
        context = caret(template, col) if "\n" not in template else None
        problems.append(Diagnostic(code, message, where.source, line, file_col, "error", hint, context))

    found, bad = fields(template)
    for col, text in bad:
        report(
            "T104",
            f"{text!r} in the describe of {category!r} is not a field",
            col,
            "a field is {NAME} or {NAME:plural}; braces are only for fields",
        )
    bound = bound_variables(pattern)
    known = RANK_FIELDS + TEXT_FIELDS + tuple(VARIABLES)
    for field in found:
        if field.name not in known:
            close = difflib.get_close_matches(field.name, known, n=1)
            report(
                "T101",
                f"unknown field {field.text} in the describe of {category!r}",
                field.col,
                f"did you mean {{{close[0]}}}?"
                if close
                else "fields: " + ", ".join(RANK_FIELDS + TEXT_FIELDS) + " and the pattern's variables",
            )
            continue
        if field.filter is not None and field.filter not in FILTERS:
            close = difflib.get_close_matches(field.filter, FILTERS, n=1)
            report(
                "T102",
                f"unknown filter {field.filter!r} in {field.text}",
                field.col + len(field.name) + 2,
                f"did you mean {close[0]!r}?" if close else "the only filter is 'plural'",
            )
        elif field.filter is not None and field.name in TEXT_FIELDS:
            report("T105", f"{field.text}: {{{field.name}}} is not a rank, so it takes no filter", field.col)
        if field.name in VARIABLES and field.name not in bound:
            shown = ", ".join(sorted(bound)) if bound else "none"
            report(
                "T103",
                f"variable {field.name} in the describe of {category!r} is bound by no shape of its pattern "
                f"(variables bound: {shown})",
                field.col + 1,
            )
    return problems
