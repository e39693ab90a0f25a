"""What reading a ruleset text shares between its passes: limits, positions, documents and errors.

:mod:`evaluator.rules.yaml_read` reads bytes and checks text; :mod:`evaluator.rules.yaml_parse`
(PyYAML, imported only when a text is parsed) runs the event and node passes. Both
raise the positioned ``Y1xx`` errors made here.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any, NoReturn, Protocol

from ..core.errors import LoadError, error

MAX_FILE_BYTES = 1 << 20  # 1 MiB
MAX_DEPTH = 32  # nested mappings/lists, the top mapping counting as 1
MAX_NODES = 100_000
MAX_SCALAR_CHARS = 10_000

YamlPath = tuple[str | int, ...]


class _Mark(Protocol):
    """Where an event starts: a mark of PyYAML's pure-Python or libyaml parser."""

    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...


_YAML_TAG = "tag:yaml.org,2002:"
_STR, _INT, _FLOAT, _BOOL, _NULL, _SEQ, _MAP = (
    _YAML_TAG + t for t in ("str", "int", "float", "bool", "null", "seq", "map")
)
_SCALAR_TAGS = frozenset({_STR, _INT, _FLOAT, _BOOL, _NULL})
_PLAIN_TAGS = _SCALAR_TAGS | {_SEQ, _MAP}
# What YAML itself counts as a line break (PyYAML's marks count the same).
_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")
_BREAK_CHARS = "\r\n\x85\u2028\u2029"


@dataclass(frozen=True, slots=True)
class Position:
    """Where a value sits: a source (a path or ``<string>``) and a 1-based line and column."""

    source: str
    line: int
    col: int


@dataclass(frozen=True)
class Document:
    """Plain ruleset data plus where each value and each key was written.

    ``positions`` maps a path (a tuple of mapping keys and list indexes) to the
    position of the value at that path, ``()`` being the document itself;
    ``key_positions`` maps a path to the mapping key that names it.
    ``sources`` lists the files read: the child first, then each parent.
    """

    data: dict[Any, Any]
    positions: dict[YamlPath, Position] = field(default_factory=dict)
    key_positions: dict[YamlPath, Position] = field(default_factory=dict)
    sources: tuple[str, ...] = ()
    # the folder trees (real paths) that `extends:` and `game.split` paths may reach
    roots: tuple[str, ...] = ()

    def position(self, path: YamlPath) -> Position:
        """The position of the value at ``path``, or of its nearest ancestor that has one."""
        for end in range(len(path), -1, -1):
            found = self.positions.get(tuple(path[:end]))
            if found is not None:
                return found
        return Position(self.sources[0] if self.sources else "<string>", 1, 1)

    def key_position(self, path: YamlPath) -> Position:
        """The position of the key naming ``path``, else that of its value (see ``position``)."""
        found = self.key_positions.get(tuple(path))
        return found if found is not None else self.position(path)


# --------------------------------------------------------------------------- errors


def fail_load(
    code: str,
    message: str,
    source: str,
    line: int = 1,
    col: int = 1,
    hint: str | None = None,
    context: str | None = None,
) -> NoReturn:
    """Raise the positioned load error ``code`` (file, line, column, hint)."""
    raise error(LoadError, code, message, source, line, col, hint=hint, context=context)


def fail_at(code: str, message: str, where: Position, hint: str | None = None) -> NoReturn:
    """``fail_load`` at a node's position."""
    fail_load(code, message, where.source, where.line, where.col, hint=hint)


def _mark_position(mark: _Mark | None, source: str) -> Position:
    if mark is None:
        return Position(source, 1, 1)
    return Position(source, mark.line + 1, mark.column + 1)


def _line_col(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of ``text[index]``, counting breaks as YAML does."""
    line, line_start = 1, 0
    for found in _BREAK.finditer(text, 0, index):
        line, line_start = line + 1, found.end()
    return line, index - line_start + 1


def _source_line(text: str, line: int) -> str | None:
    """The 1-based ``line`` of ``text`` (for a caret under a syntax error)."""
    lines = _BREAK.split(text)
    return lines[line - 1] if 0 < line <= len(lines) else None


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_YAML_TAG) :] if tag.startswith(_YAML_TAG) else tag


def did_you_mean(word: str, choices: list[str]) -> str | None:
    """A hint naming the close spellings of ``word`` among ``choices``, or None.

    >>> did_you_mean("sraight", ["straight", "flush"])
    "did you mean 'straight'?"
    """
    close = difflib.get_close_matches(word, choices, n=3)
    if not close:
        return None
    return "did you mean " + " or ".join(repr(c) for c in close) + "?"
