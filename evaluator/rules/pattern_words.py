"""A pattern said in words, for people reading a ruleset (the editor's hover).

>>> pattern_words(parse_pattern("XX Y Z W & X >= J"))
'a pair and three other ranks, where X is J or higher'
>>> pattern_words(parse_pattern("run & flush & top = A"))
'consecutive ranks, all of one suit, where the top card is A'
"""

from __future__ import annotations

from .cards import SUIT_NAMES
from .pattern_ast import AllOf, AnyOf, CategoryIs, Compare, Flush, Member, Not, Pattern, Run, Shape, Term
from .pattern_parse import parse_pattern

__all__ = ["parse_pattern", "pattern_words"]

_NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}
_GROUPS = {1: "a single card", 2: "a pair", 3: "three of a kind", 4: "four of a kind", 5: "five of a kind"}
_OPS = {
    "=": "is",
    "!=": "is not",
    "<": "is below",
    "<=": "is {} or lower",
    ">": "is above",
    ">=": "is {} or higher",
}


def _number(n: int) -> str:
    return _NUMBERS.get(n, str(n))


def _shape(shape: Shape) -> str:
    sizes = [size for _, size in shape.groups]
    if all(size == 1 for size in sizes):
        return f"{_number(len(sizes))} cards of different ranks"
    parts: list[str] = []
    for size in sorted(set(sizes), reverse=True):
        count = sizes.count(size)
        if size == 1:
            parts.append(f"{_number(count)} other rank{'s' * (count > 1)}" if count > 1 else "one other card")
        elif count == 1:
            parts.append(_GROUPS.get(size, f"{size} of a kind"))
        else:
            word = {2: "pairs", 3: "sets of three"}.get(size, f"sets of {size}")
            parts.append(f"{_number(count)} {word}")
    return " and ".join(parts)


def _run(run: Run) -> str:
    what = f"{_number(run.length)} cards in sequence" if run.length else "consecutive ranks"
    if run.step != 1:
        what = f"{what}, ranks {run.step} apart"
    if run.wrap:
        what += " (it may turn the corner at the ace)"
    if run.suited:
        what += ", of one suit"
    return what


def _term(term: Term) -> str:
    words = {
        "top": "the top card",
        "bottom": "the bottom card",
        "all": "every card",
        "any": "some card",
        "lowest": "the lowest",
        "highest": "the highest",
        "wilds": "the number of wild cards",
        "suits": "the number of suits",
        "category": "the hand's category",
    }
    return words.get(term.kind, term.text)


def _compare(node: Compare) -> str:
    left, right = _term(node.left), _term(node.right)
    if node.left.kind == "suit" or node.right.kind == "suit":
        suit = node.right.text if node.left.kind == "suit" else node.left.text
        name = SUIT_NAMES.get(suit, f"{suit} card")
        return f"every card is {'not ' if node.op == '!=' else ''}a {name.removesuffix('s')}"
    phrase = _OPS.get(node.op, node.op)
    return f"{left} {phrase.format(right)}" if "{}" in phrase else f"{left} {phrase} {right}"


def pattern_words(pattern: Pattern) -> str:
    """``pattern`` in plain words (the shapes first, then what narrows them)."""
    if isinstance(pattern, AllOf):
        shapes = [item for item in pattern.items if isinstance(item, (Shape, Run, Flush))]
        rest = [item for item in pattern.items if item not in shapes]
        said = ", ".join(pattern_words(item) for item in shapes)
        tests = " and ".join(pattern_words(item) for item in rest)
        return f"{said}, where {tests}" if said and tests else said or tests
    if isinstance(pattern, AnyOf):
        return " or ".join(f"({pattern_words(item)})" for item in pattern.items)
    if isinstance(pattern, Not):
        return f"not ({pattern_words(pattern.item)})"
    if isinstance(pattern, Shape):
        return _shape(pattern)
    if isinstance(pattern, Run):
        return _run(pattern)
    if isinstance(pattern, Flush):
        return f"{_number(pattern.length)} cards of one suit" if pattern.length else "all of one suit"
    if isinstance(pattern, Member):
        return f"{_term(pattern.term)} is one of {', '.join(pattern.ranks)}"
    if isinstance(pattern, CategoryIs):
        return f"a hand ranked {pattern.name}"
    return _compare(pattern)
