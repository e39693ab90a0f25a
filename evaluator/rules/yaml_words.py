"""YAML syntax errors in words: the ones people meet most, said as a person would.

PyYAML reports a tab as "found character '\\t' that cannot start any token"
(with "while scanning for the next token" as its context) and a line indented
to no level as "expected <block end>, but found '<block mapping start>'".
:func:`in_words` turns those into what happened and what to do, at the
offending character: "tabs are not allowed in YAML; indent with spaces", or
"'ranks' is indented 1 space, which lines up with no key above it" with the
indentations that would. Anything else keeps PyYAML's own wording.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_KEY = re.compile(r"^(\s*)(?:-\s+)?([^\s:#'\"][^:#]*?|'[^']*'|\"[^\"]*\")\s*:(?:\s+(.*?))?\s*$")


@dataclass(frozen=True)
class Words:
    """A syntax error in words: the message, a hint, and the 1-based column to point at."""

    message: str
    hint: str | None
    col: int


@dataclass(frozen=True)
class _Line:
    number: int  # 1-based
    indent: int
    key: str | None  # the mapping key the line starts with, if any
    value: str | None  # what follows the key's colon on the same line ('' when nothing)


def in_words(problem: str, lines: Sequence[str], line: int, col: int) -> Words | None:
    """The error PyYAML reported as ``problem`` at ``line``/``col`` of ``lines``, in words (None: keep it).

    >>> in_words("found character '\\\\t' that cannot start any token", ["a:", "\\tb: 1"], 2, 1).message
    'tabs are not allowed in YAML; indent with spaces'
    >>> words = in_words("expected <block end>, but found '<block mapping start>'", ["w:", "  a: 1", " b: 2"], 3, 2)
    >>> words.message, words.hint
    ("'b' is indented 1 space, which lines up with no key above it", "indent it 2 spaces to put it beside 'a' under 'w:', or 0 spaces to make it a key beside 'w'")
    """
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    if "'\\t'" in problem or "tab character" in problem:
        tab = text.find("\t")
        where = tab + 1 if tab >= 0 else col
        inside = text[: where - 1].strip() != ""
        return Words(
            "tabs are not allowed in YAML; indent with spaces",
            "replace the tab with a space" if inside else None,
            where,
        )
    if problem.startswith("expected <block end>"):
        return _unaligned(lines, line)
    if problem == "mapping values are not allowed here":
        return _under_a_value(lines, line, col)
    return None


def _read(lines: Sequence[str], number: int) -> _Line | None:
    """A non-blank, non-comment line, with its indentation and key."""
    text = lines[number - 1]
    stripped = text.strip()
    if not stripped or stripped.startswith("#"):
        return None
    indent = len(text) - len(text.lstrip(" "))
    found = _KEY.match(text)
    key = found.group(2).strip("'\"") if found else None
    value = (found.group(3) or "") if found else None
    return _Line(number, indent, key, value)


def _above(lines: Sequence[str], line: int) -> list[_Line]:
    """The lines above ``line`` that open the levels it could belong to, nearest first:
    each one less indented than the one before it."""
    chain: list[_Line] = []
    for number in range(line - 1, 0, -1):
        found = _read(lines, number)
        if found is None:
            continue
        if not chain or found.indent < chain[-1].indent:
            chain.append(found)
        if found.indent == 0:
            break
    return chain


def _spaces(count: int) -> str:
    return f"{count} space{'' if count == 1 else 's'}"


def _unaligned(lines: Sequence[str], line: int) -> Words | None:
    """A line whose indentation matches no level of the mappings above it."""
    bad = _read(lines, line) if 0 < line <= len(lines) else None
    chain = _above(lines, line)
    if bad is None or not chain:
        return None
    name = f"'{bad.key}'" if bad.key else "this line"
    nearest = chain[0]
    if bad.indent > nearest.indent and nearest.value:
        return Words(
            f"{name} is indented more than '{nearest.key}' above it, which already has a value",
            f"indent it {_spaces(nearest.indent)} to put it beside '{nearest.key}'",
            bad.indent + 1,
        )
    deeper = [level for level in chain if level.indent > bad.indent]
    shallower = [level for level in chain if level.indent < bad.indent]
    choices = []
    if deeper:
        beside = deeper[-1]
        parent = next((level for level in chain if level.indent < beside.indent), None)
        under = f" under '{parent.key}:'" if parent is not None and parent.key else ""
        choices.append(f"indent it {_spaces(beside.indent)} to put it beside '{beside.key}'{under}")
    if shallower:
        beside = shallower[0]
        choices.append(f"{_spaces(beside.indent)} to make it a key beside '{beside.key}'")
    return Words(
        f"{name} is indented {_spaces(bad.indent)}, which lines up with no key above it",
        ", or ".join(choices) if choices else None,
        bad.indent + 1,
    )


def _under_a_value(lines: Sequence[str], line: int, col: int) -> Words | None:
    """``mapping values are not allowed here``: a key indented under a key that has a value,
    or a second ``: `` in one line's value."""
    bad = _read(lines, line) if 0 < line <= len(lines) else None
    chain = _above(lines, line)
    if bad is not None and chain and bad.indent > chain[0].indent and chain[0].value:
        above = chain[0]
        return Words(
            f"'{bad.key}' is indented under '{above.key}: {above.value}', which already has a value",
            f"indent it {_spaces(above.indent)} to make it a key beside '{above.key}', "
            f"or give '{above.key}:' no value on its line to hold it",
            bad.indent + 1,
        )
    return Words(
        "a ': ' inside a value starts another mapping",
        "put the value in quotes if it contains ': ' (describe: \"pair: {X}\")",
        col,
    )
