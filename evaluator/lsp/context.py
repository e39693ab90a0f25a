"""Where the cursor is in a ruleset text: the keys above it, and whether a key or a value is being typed.

An editor asks about text that is being typed, so it often does not parse:
this reader follows YAML's block structure line by line (indentation, ``-``
items, ``key:``) and its flow collections (``{...}``, ``[...]``) up to the
cursor, and never fails. Block scalars (``|``, ``>``) and comments are
skipped.

>>> cursor_at("categories:\\n  pair: {pattern: \\"XX Y", 32).path
('categories', 'pair', 'pattern')
>>> cursor_at("order: [pair, hi", 16).path
('order', 1)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["Cursor", "cursor_at"]

# `key:` at the start of what is left of a line (after indentation and `- ` markers)
_KEY = re.compile(r"""(?P<key>"[^"\n]*"|'[^'\n]*'|[^\s#'"{}\[\],:-][^\n#:]*?|-[^\s\n#:]*?)[ \t]*:(?=[ \t]|$)""")
_DASH = re.compile(r"-(?=[ \t]|$)[ \t]*")
_BLOCK_SCALAR = re.compile(r"[|>][0-9+-]*[ \t]*(#.*)?$")


@dataclass(frozen=True)
class Cursor:
    """What surrounds the cursor.

    ``path`` names the mapping keys and list indexes from the top down to the
    value the cursor is in (or, with ``in_key``, to the mapping a key is
    being typed in). ``scalar`` is the span of the scalar the cursor is in
    (inside its quotes), ``comment`` whether the cursor is in a comment.
    """

    path: tuple[str | int, ...]
    in_key: bool = False
    scalar: tuple[int, int] | None = None
    comment: bool = False


@dataclass
class _Frame:
    indent: int
    segment: str | int
    opens_block: bool = False  # a key with nothing after the colon: its value is the lines below


@dataclass
class _Flow:
    """A flow collection being read: its kind, the current key or index, and whether a key is expected."""

    kind: str  # "{" or "["
    segment: str | int | None
    expect_key: bool = False


@dataclass
class _Reader:
    frames: list[_Frame] = field(default_factory=list)
    counters: dict[tuple[tuple[str | int, ...], int], int] = field(default_factory=dict)
    flow_start: int | None = None  # offset where an unclosed flow collection's value starts
    flow_depth: int = 0
    scalar_indent: int | None = None  # inside a block scalar deeper than this indent

    def path(self) -> tuple[str | int, ...]:
        return tuple(frame.segment for frame in self.frames)

    def pop_to(self, indent: int, dash: bool) -> None:
        while self.frames:
            top = self.frames[-1]
            # `key:` then `- item` at the key's own indent: the items belong to the key
            if dash and top.opens_block and top.indent == indent and isinstance(top.segment, str):
                return
            if top.indent >= indent:
                self.frames.pop()
            else:
                return

    def item(self, column: int) -> None:
        parent = self.path()
        index = self.counters.get((parent, column), -1) + 1
        self.counters[(parent, column)] = index
        self.frames.append(_Frame(column, index, opens_block=True))


def _strip_comment(line: str) -> str:
    quote = ""
    for index, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1] in " \t"):
            return line[:index]
    return line


def _balance(text: str, depth: int = 0) -> int:
    """How many flow collections are open after ``text``, ``depth`` being open before it (quotes respected)."""
    quote = ""
    for char in _strip_comment(text):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
    return depth


def _key_text(raw: str) -> str:
    raw = raw.strip()
    return raw[1:-1] if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"" else raw


def _read_line(reader: _Reader, line: str, start: int, stop: int | None) -> tuple[int, str, bool] | None:
    """Read one line's block structure; returns the offset and text of what follows its ``- ``
    markers and its ``key:`` (None for a blank or comment line), and whether it had a key.

    ``stop`` (the cursor's column) ends the line early.
    """
    body = line if stop is None else line[:stop]
    stripped = body.lstrip(" ")
    indent = len(body) - len(stripped)
    if reader.scalar_indent is not None:
        if not line.strip() or indent > reader.scalar_indent:
            return None
        reader.scalar_indent = None
    if not _strip_comment(stripped).strip():
        if stop is not None:
            reader.pop_to(indent, False)
        return None
    column = indent
    dash = _DASH.match(stripped)
    reader.pop_to(indent, bool(dash))
    rest = stripped
    while dash:
        reader.item(column)
        column += dash.end()
        rest = rest[dash.end() :]
        dash = _DASH.match(rest)
    key = _KEY.match(rest)
    if key is None:
        return (start + column, rest, False)
    reader.pop_to(column, False)
    value = rest[key.end() :]
    frame = _Frame(column, _key_text(key.group("key")), opens_block=not _strip_comment(value).strip())
    reader.frames.append(frame)
    value_start = start + column + key.end() + (len(value) - len(value.lstrip(" \t")))
    if _BLOCK_SCALAR.match(value.strip()):
        reader.scalar_indent = column
    return (value_start, value.lstrip(" \t"), True)


def _flow_path(text: str, start: int, offset: int) -> tuple[tuple[str | int, ...], bool, tuple[int, int] | None]:
    """Read a flow value from ``start`` to the cursor: the keys and indexes inside it, whether a key is
    being typed, and the quoted or plain scalar the cursor is in."""
    stack: list[_Flow] = []
    position = start
    scalar: tuple[int, int] | None = None
    while position < offset:
        char = text[position]
        if char in "'\"":
            close = text.find(char, position + 1)
            if close < 0 or close >= offset:
                scalar = (position + 1, close if close >= 0 else len(text))
                break
            position = close + 1
            continue
        if char == "#" and (position == 0 or text[position - 1] in " \t\n"):
            newline = text.find("\n", position)
            if newline < 0 or newline >= offset:
                return tuple(f.segment for f in stack if f.segment is not None), False, None
            position = newline
        elif char == "{":
            stack.append(_Flow("{", None, expect_key=True))
        elif char == "[":
            stack.append(_Flow("[", 0))
        elif char in "}]" and stack:
            stack.pop()
        elif char == "," and stack:
            top = stack[-1]
            if top.kind == "[" and isinstance(top.segment, int):
                top.segment += 1
            else:
                top.segment, top.expect_key = None, True
        elif char == ":" and stack and stack[-1].kind == "{" and stack[-1].expect_key:
            top = stack[-1]
            key_start = max(text.rfind("{", start, position), text.rfind(",", start, position)) + 1
            top.segment, top.expect_key = _key_text(text[key_start:position]), False
        position += 1
    in_key = bool(stack) and stack[-1].kind == "{" and stack[-1].expect_key and scalar is None
    path = tuple(f.segment for f in stack if f.segment is not None)
    if scalar is None and not in_key:
        word = re.search(r"[^\s,\[\]{}:]*$", text[start:offset])
        if word is not None:
            scalar = (offset - len(word.group()), _word_end(text, offset))
    return path, in_key, scalar


def cursor_at(text: str, offset: int) -> Cursor:
    """The :class:`Cursor` at ``offset`` of ``text`` (see the module docstring)."""
    offset = max(0, min(offset, len(text)))
    reader = _Reader()
    line_start = 0
    start = 0
    while True:
        newline = text.find("\n", start)
        line_end = len(text) if newline < 0 else newline
        line = text[start:line_end].rstrip("\r")
        if start <= offset <= line_end:
            line_start = start
            break
        if reader.flow_start is not None:
            reader.flow_depth = _balance(line, reader.flow_depth)
            if reader.flow_depth <= 0:
                reader.flow_start, reader.flow_depth = None, 0
        else:
            value = _read_line(reader, line, start, None)
            if value is not None and _balance(value[1]) > 0:
                reader.flow_start, reader.flow_depth = value[0], _balance(value[1])
        start = line_end + 1
    if reader.flow_start is not None:
        inner, in_key, scalar = _flow_path(text, reader.flow_start, offset)
        return Cursor(reader.path() + inner, in_key, scalar)
    line_end_found = text.find("\n", offset)
    line = text[line_start : len(text) if line_end_found < 0 else line_end_found].rstrip("\r")
    column = offset - line_start
    if _strip_comment(line[:column]) != line[:column]:
        return Cursor(reader.path(), comment=True)
    value = _read_line(reader, line, line_start, column)
    if value is None:
        return Cursor(reader.path(), in_key=True)  # an empty line: a key of the mapping at this indent
    value_start, typed, had_key = value
    if not had_key and not typed.startswith(("{", "[", "'", '"')):
        # a word alone (after `- ` markers or the indentation): a key, or a list item, being typed
        return Cursor(reader.path(), in_key=True, scalar=(value_start, _word_end(text, offset)))
    if not typed.startswith(("{", "[", "'", '"')):
        # a plain scalar after `key:` runs to the end of the line (less a comment)
        rest = _strip_comment(line[value_start - line_start :]).rstrip()
        return Cursor(reader.path(), scalar=(value_start, value_start + len(rest)))
    inner, in_key, scalar = _flow_path(text, value_start, offset)
    return Cursor(reader.path() + inner, in_key, scalar)


def _word_end(text: str, offset: int) -> int:
    end = offset
    while end < len(text) and text[end] not in " \t\r\n,[]{}#:":
        end += 1
    return end
