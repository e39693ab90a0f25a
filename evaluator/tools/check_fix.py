"""Quick fixes: the edits that resolve a diagnostic, from the hints ``check`` already gives.

One source for both ends: the language server offers these fixes as code
actions, and ``pokerrules check --fix`` applies the *preferred* ones (a fix
is preferred when it is the only one its diagnostic offers), so CI and the
editor agree. The fixes:

- **did you mean** -- a diagnostic whose hint names a close spelling (an
  unknown key, category, rank, field, filter, catalogue name or file) offers
  to replace the misspelt word with each spelling named; the word is found at
  the diagnostic's position and checked against the message, so a fix never
  rewrites anything but the word the message is about;
- **add to order** -- a category defined but left out of ``order`` (``W101``)
  is inserted into ``order`` just above the category its hands land in now
  (or, when that is unknown, where it is defined among the categories), into
  the file's own ``order:`` list, flow or block style, or into a new
  ``order:`` when the list was inherited.

Positions are those of :class:`~evaluator.core.errors.Diagnostic`: 1-based
lines and columns in characters, lines broken as YAML breaks them.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.errors import Diagnostic, PokerRulesError

if TYPE_CHECKING:
    from ..rules.load import Document
    from .check_select import Selection

__all__ = [
    "Edit",
    "Fix",
    "FixOutcome",
    "apply_fixes",
    "fix_file",
    "fixes_for",
    "line_starts",
    "offset_of",
    "position_of",
]

# What YAML counts as a line break (the positions of diagnostics count lines so).
_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")
_SUGGESTION = re.compile(r"did you mean ((?:'[^'\n]+'(?: or )?)+)\??")
_FIELD_SUGGESTION = re.compile(r"did you mean \{(\w+)\}")
_QUOTED = re.compile(r"'([^'\n]+)'|\{(\w+)\}")
_ADD_TO_ORDER = re.compile(r"add '([^'\n]+)' to order(?: just above '([^'\n]+)')?")
# A plain word of a YAML line: stops at spaces and at what separates flow items, keys and comments.
_WORD = re.compile(r"[^\s,\[\]{}:#'\"]+")


@dataclass(frozen=True)
class Edit:
    """Replace the text from (line, col) up to, not including, (end_line, end_col) with ``text``."""

    line: int
    col: int
    end_line: int
    end_col: int
    text: str


@dataclass(frozen=True)
class Fix:
    """A set of edits to one file that resolves ``diagnostic``."""

    title: str
    source: str
    edits: tuple[Edit, ...]
    diagnostic: Diagnostic
    preferred: bool  # the only fix of its diagnostic: ``check --fix`` applies it


# --------------------------------------------------------------------------- positions


def line_starts(text: str) -> list[int]:
    """The offset in ``text`` at which each line starts (YAML's line breaks).

    >>> line_starts("a\\r\\nbc\\nd")
    [0, 3, 6]
    """
    return [0, *(found.end() for found in _BREAK.finditer(text))]


def offset_of(text: str, line: int, col: int, starts: Sequence[int] | None = None) -> int:
    """The offset of 1-based (line, col) in ``text``, clamped to the text and to the line.

    >>> offset_of("ab\\ncd", 2, 2)
    4
    """
    starts = starts if starts is not None else line_starts(text)
    index = min(max(line, 1), len(starts)) - 1
    start = starts[index]
    end = starts[index + 1] if index + 1 < len(starts) else len(text)
    # the line's own text ends before its break
    found = _BREAK.search(text, start, end)
    stop = found.start() if found else end
    return min(start + max(col, 1) - 1, stop)


def position_of(text: str, offset: int, starts: Sequence[int] | None = None) -> tuple[int, int]:
    """The 1-based (line, col) of ``offset`` in ``text``.

    >>> position_of("ab\\ncd", 4)
    (2, 2)
    """
    import bisect

    starts = starts if starts is not None else line_starts(text)
    index = bisect.bisect_right(starts, offset) - 1
    return index + 1, offset - starts[index] + 1


def _edit(text: str, start: int, end: int, replacement: str) -> Edit:
    starts = line_starts(text)
    line, col = position_of(text, start, starts)
    end_line, end_col = position_of(text, end, starts)
    return Edit(line, col, end_line, end_col, replacement)


# --------------------------------------------------------------------------- did you mean


def suggestions(hint: str | None) -> list[str]:
    """The spellings a hint suggests.

    >>> suggestions("did you mean 'full_house' or 'four_of_a_kind'?")
    ['full_house', 'four_of_a_kind']
    >>> suggestions("did you mean {rank}?"), suggestions("allowed keys: a, b")
    (['rank'], [])
    """
    if not hint:
        return []
    found = _SUGGESTION.search(hint)
    if found:
        return re.findall(r"'([^'\n]+)'", found.group(1))
    field = _FIELD_SUGGESTION.search(hint)
    return [field.group(1)] if field else []


def _word_at(text: str, offset: int) -> tuple[int, int] | None:
    """The span of the scalar word at ``offset``: inside quotes when a quote starts there."""
    if offset < len(text) and text[offset] in "'\"":
        quote = text[offset]
        close = text.find(quote, offset + 1)
        newline = _BREAK.search(text, offset + 1)
        if close < 0 or (newline is not None and newline.start() < close):
            return None
        return offset + 1, close
    found = _WORD.match(text, offset)
    return (found.start(), found.end()) if found else None


def _named_words(message: str) -> list[str]:
    """The words a message quotes: 'name' and {field}."""
    return [quoted or field for quoted, field in _QUOTED.findall(message)]


def _misspelt_span(text: str, diagnostic: Diagnostic, wanted: str) -> tuple[int, int] | None:
    """Where the word the diagnostic is about lies in ``text``, or None when it cannot be told."""
    starts = line_starts(text)
    if diagnostic.line > len(starts):
        return None
    offset = offset_of(text, diagnostic.line, diagnostic.col, starts)
    named = [word for word in _named_words(diagnostic.message) if word != wanted]
    # a phrase suggested (an example rewritten) replaces the phrase the message quotes, never one word of it
    span = None if any(char.isspace() for char in wanted) else _word_at(text, offset)
    if span is not None:
        word = text[span[0] : span[1]]
        said = re.search(rf"(?<![\w.]){re.escape(word)}(?![\w.])", diagnostic.message) if word else None
        if word != wanted and (word in named or _base_name(word) in named or said):
            return span
    # the word may be further along the line (a name inside a pattern or an example)
    line_end = starts[diagnostic.line] if diagnostic.line < len(starts) else len(text)
    for word in named:
        for found in re.finditer(re.escape(word), text[offset:line_end]):
            start, end = offset + found.start(), offset + found.end()
            if _whole_word(text, start, end):
                return start, end
    if span is not None and difflib.SequenceMatcher(None, text[span[0] : span[1]], wanted).ratio() >= 0.6:
        return span
    return None


def _whole_word(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_")


def _base_name(word: str) -> str:
    return re.split(r"[/\\]", word)[-1]


def _did_you_mean(diagnostic: Diagnostic, text: str) -> list[Fix]:
    spelt = suggestions(diagnostic.hint)
    fixes = []
    for wanted in spelt:
        span = _misspelt_span(text, diagnostic, wanted)
        if span is None:
            continue
        start, end = span
        word = text[start:end]
        if "/" not in wanted and "\\" not in wanted and _base_name(word) != word:
            start = end - len(_base_name(word))  # a file name suggested for a path: keep its folders
        if text[start:end] == wanted:
            continue
        fixes.append(
            Fix(
                f"Replace {text[start:end]!r} with {wanted!r}",
                diagnostic.source,
                (_edit(text, start, end, wanted),),
                diagnostic,
                preferred=len(spelt) == 1,
            )
        )
    return fixes


# --------------------------------------------------------------------------- add to order


def _add_to_order(diagnostic: Diagnostic, text: str, document: Document | None) -> list[Fix]:
    """W101: the category put into ``order`` above the category its hands land in now."""
    found = _ADD_TO_ORDER.search(diagnostic.hint or "")
    if found is None or document is None:
        return []
    name, above = found.group(1), found.group(2)
    order = document.data.get("order")
    categories = document.data.get("categories")
    if not isinstance(order, list) or name in order or not isinstance(categories, dict):
        return []
    index = order.index(above) if above in order else _index_by_definition(name, order, categories)
    edit = _insert_into_order(text, diagnostic.source, name, index, order)
    if edit is None:
        return []
    where = f"above {order[index]!r}" if index < len(order) else "last"
    return [Fix(f"Add {name!r} to order, {where}", diagnostic.source, (edit,), diagnostic, preferred=True)]


def _index_by_definition(name: str, order: list[Any], categories: dict[Any, Any]) -> int:
    """Where ``name`` goes when nothing better is known: before the next category defined after it."""
    names = list(categories)
    for later in names[names.index(name) + 1 :]:
        if later in order:
            return order.index(later)
    return len(order)


def _insert_into_order(text: str, source: str, name: str, index: int, order: list[Any]) -> Edit | None:
    from ..rules.yaml_read import parse_yaml

    try:
        own = parse_yaml(text, source)
    except PokerRulesError:
        return None
    written = own.data.get("order")
    if written is None and "order" not in own.data:
        # the list is inherited: this file gets its own, with the category in place
        merged = [*order[:index], name, *order[index:]]
        lead = "" if not text or text.endswith(("\n", "\r")) else "\n"
        return _edit(text, len(text), len(text), f"{lead}order: [{', '.join(str(n) for n in merged)}]\n")
    if not isinstance(written, list) or [str(n) for n in written] != [str(n) for n in order]:
        return None
    starts = line_starts(text)
    where = own.positions[("order",)]
    at = offset_of(text, where.line, where.col, starts)
    if text[at : at + 1] == "[":  # a flow list
        if not written:
            return _edit(text, at + 1, at + 1, name)
        if index < len(written):
            item = own.positions[("order", index)]
            spot = offset_of(text, item.line, item.col, starts)
            return _edit(text, spot, spot, f"{name}, ")
        last = own.positions[("order", len(written) - 1)]
        spot = offset_of(text, last.line, last.col, starts)
        span = _word_at(text, spot)
        end = span[1] + (1 if text[spot : spot + 1] in "'\"" else 0) if span else spot
        return _edit(text, end, end, f", {name}")
    # a block list: a new item line, indented as its neighbour
    neighbour = own.positions[("order", min(index, len(written) - 1))]
    line_start = starts[neighbour.line - 1]
    prefix = text[line_start : offset_of(text, neighbour.line, neighbour.col, starts)]
    if prefix.strip() != "-":
        return None
    if index < len(written):
        return _edit(text, line_start, line_start, f"{prefix}{name}\n")
    next_line = starts[neighbour.line] if neighbour.line < len(starts) else len(text)
    lead = "" if next_line == 0 or text[next_line - 1] in "\n\r" else "\n"
    return _edit(text, next_line, next_line, f"{lead}{prefix}{name}\n")


# --------------------------------------------------------------------------- all fixes


def fixes_for(diagnostic: Diagnostic, text: str, document: Document | None = None) -> list[Fix]:
    """The fixes of one diagnostic, as edits to ``text`` (the text of ``diagnostic.source``).

    ``document`` is the merged document of the file checked (W101 needs its
    ``order``). A fix is never offered when the word to change cannot be found
    where the diagnostic points.
    """
    try:
        return _did_you_mean(diagnostic, text) + _add_to_order(diagnostic, text, document)
    except (IndexError, KeyError, ValueError):  # positions that do not fit this text: no fix
        return []


def apply_fixes(text: str, fixes: Iterable[Fix]) -> tuple[str, list[Fix]]:
    """``text`` with the fixes applied, and the fixes applied.

    A fix whose edits overlap an earlier fix's is left out (the next round of
    ``check --fix`` sees it again, on the new text).
    """
    starts = line_starts(text)
    taken: list[tuple[int, int]] = []
    changes: list[tuple[int, int, str]] = []
    applied = []
    for fix in fixes:
        spans = [
            (offset_of(text, e.line, e.col, starts), offset_of(text, e.end_line, e.end_col, starts), e.text)
            for e in fix.edits
        ]
        if any(_overlaps(start, end, other) for start, end, _ in spans for other in taken):
            continue
        taken += [(start, end) for start, end, _ in spans]
        changes += spans
        applied.append(fix)
    for start, end, replacement in sorted(changes, key=lambda change: (change[0], change[1]), reverse=True):
        text = text[:start] + replacement + text[end:]
    return text, applied


def _overlaps(start: int, end: int, other: tuple[int, int]) -> bool:
    # two insertions at one point overlap too: their order would be a guess
    return start < other[1] and other[0] < end or start == end == other[0] == other[1] or start == other[0]


# --------------------------------------------------------------------------- check --fix

# A fix can reveal another (a key corrected, then its value read): a few rounds settle any file.
MAX_FIX_ROUNDS = 5


@dataclass
class FixOutcome:
    """What ``check --fix`` did to one file: the fixes applied, and the new text when it changed."""

    path: str
    applied: list[Fix]
    text: str | None


def fix_file(path: str, roots: Sequence[str] = (), selection: Selection | None = None) -> FixOutcome:
    """The preferred fixes of a file's own diagnostics, applied round after round (not written).

    Each round checks the text as the previous round left it (fully: W101
    needs coverage), so the fixes are exactly those the editor offers for that
    text. A file that cannot be read is left alone.
    """
    from pathlib import Path

    from ..rules.yaml_read import decode_utf8, editor_buffers, read_bytes
    from .check import examine_file

    try:
        original = decode_utf8(read_bytes(Path(path)), path)
    except PokerRulesError:
        return FixOutcome(path, [], None)
    text, applied = original, list[Fix]()
    for _ in range(MAX_FIX_ROUNDS):
        with editor_buffers({path: text}):
            examined = examine_file(Path(path), roots, selection=selection)
        fixes = [
            fix
            for diagnostic in examined.diagnostics
            if diagnostic.source == path
            for fix in fixes_for(diagnostic, text, examined.document)
            if fix.preferred
        ]
        text, done = apply_fixes(text, fixes)
        if not done:
            break
        applied += done
    return FixOutcome(path, applied, text if text != original else None)
