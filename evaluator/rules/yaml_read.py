"""Reading ruleset YAML safely, with positions: one file or one text into a :class:`Document`.

Rule files are data from strangers, so reading one is done in three passes,
each cheap and bounded:

1. **Bytes.** ``read_file`` checks the size with ``os.stat`` *before* reading
   (a 50 MB file is refused without touching its content), then decodes strict
   UTF-8 and refuses NUL and other control characters.
2. **Events.** ``yaml.parse`` (SafeLoader) streams the YAML events; anchors and
   aliases, non-plain tags, deep nesting, too many nodes and huge scalars are
   refused here, so a billion-laughs file never reaches a stage that could
   expand it, and the recursive composer never sees deep nesting.
3. **Nodes.** ``yaml.compose`` (SafeLoader) gives the node tree with the
   ``start_mark`` of every node; the plain data (dict/list/str/int/float/bool/
   None) is built from it here, not by PyYAML's constructor, so every value and
   every mapping key gets a :class:`Position`. Scalars are typed by the safe
   resolver; types JSON has no word for (timestamps, ``=``, ``<<``) stay text.

Following ``extends:`` and merging is :mod:`evaluator.rules.load`. Every
failure is a :class:`~evaluator.core.errors.LoadError` with a stable ``Y1xx``
code and a position; nothing else escapes for any input text.

>>> parse_yaml("name: demo\\nhand: {size: 5}\\n").position(("hand", "size"))
Position(source='<string>', line=2, col=14)
"""

from __future__ import annotations

import difflib
import os
import re
import stat
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn, Protocol

import yaml
from yaml.constructor import SafeConstructor
from yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    CollectionStartEvent,
    NodeEvent,
    ScalarEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..core.errors import LoadError, caret, error
from .yaml_words import in_words

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


# --------------------------------------------------------------------------- text checks


def _check_text(text: str, source: str) -> None:
    """Refuse oversized text and characters YAML cannot carry, before any parsing."""
    if len(text) > MAX_FILE_BYTES:
        fail_load("Y102", f"the text is too large ({len(text)} characters; the limit is 1 MiB)", source)
    nul = text.find("\0")
    if nul >= 0:
        line, col = _line_col(text, nul)
        fail_load("Y116", "the file contains a NUL character (is it a binary file?)", source, line, col)


def _reader_error(exc: yaml.reader.ReaderError, text: str, source: str) -> NoReturn:
    """A character the YAML reader refuses (control characters, lone surrogates)."""
    line, col = _line_col(text, min(max(exc.position, 0), len(text)))
    code = f"U+{exc.character:04X}" if isinstance(exc.character, int) else repr(exc.character)
    fail_load("Y116", f"the file contains a character YAML does not allow ({code})", source, line, col)


def _syntax_error(exc: yaml.YAMLError, text: str, source: str) -> NoReturn:
    """A YAML syntax error, at the problem mark, with a caret line and YAML's context."""
    if isinstance(exc, yaml.reader.ReaderError):
        _reader_error(exc, text, source)
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    where = _mark_position(mark, source)
    problem = getattr(exc, "problem", None) or "invalid YAML"
    words = in_words(problem, _BREAK.split(text), where.line, where.col)
    if words is not None:  # a tab or an indentation that lines up with nothing: said in words
        shown = _source_line(text, where.line)
        fail_load(
            "Y103",
            words.message,
            source,
            where.line,
            words.col,
            hint=words.hint,
            context=caret(shown, words.col) if shown is not None else None,
        )
    hint = None
    context = getattr(exc, "context", None)
    context_mark = getattr(exc, "context_mark", None)
    if context and problem.startswith("but "):
        problem, context = f"{context}, {problem}", None  # PyYAML splits one sentence in two
    if context and context_mark is not None:
        hint = f"{context} (line {context_mark.line + 1}, column {context_mark.column + 1})"
    elif context:
        hint = context
    shown = _source_line(text, where.line)
    fail_load(
        "Y103",
        f"YAML syntax error: {problem}",
        source,
        where.line,
        where.col,
        hint=hint,
        context=caret(shown, where.col) if shown is not None else None,
    )


# --------------------------------------------------------------------------- event pass


def _check_event(event: NodeEvent, source: str) -> None:
    """Refuse anchors, aliases and non-plain tags on one node event."""
    where = _mark_position(event.start_mark, source)
    if isinstance(event, AliasEvent):
        fail_at(
            "Y104",
            f"YAML aliases are not allowed (*{event.anchor})",
            where,
            hint="write the value out in full; rule files may not use anchors or aliases",
        )
    if event.anchor is not None:
        fail_at(
            "Y104",
            f"YAML anchors are not allowed (&{event.anchor})",
            where,
            hint="write the value out in full; rule files may not use anchors or aliases",
        )
    tag = getattr(event, "tag", None)
    if tag is not None and tag not in _PLAIN_TAGS:
        fail_at(
            "Y105",
            f"the YAML tag {_short_tag(tag)} is not allowed",
            where,
            hint="only plain values may be used: strings, numbers, true/false, null, lists, mappings",
        )


def _scan_events(text: str, source: str) -> None:
    """Walk the event stream once, enforcing every limit before any node is built."""
    depth = nodes = 0
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, CollectionEndEvent):
            depth -= 1
            continue
        if not isinstance(event, NodeEvent):
            continue
        _check_event(event, source)
        nodes += 1
        if nodes > MAX_NODES:
            fail_at("Y107", f"the file has more than {MAX_NODES:,} values", _mark_position(event.start_mark, source))
        if isinstance(event, CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                fail_at(
                    "Y106",
                    f"the file is nested more than {MAX_DEPTH} levels deep",
                    _mark_position(event.start_mark, source),
                )
        elif isinstance(event, ScalarEvent) and len(event.value) > MAX_SCALAR_CHARS:
            fail_at(
                "Y115",
                f"a value is longer than {MAX_SCALAR_CHARS:,} characters ({len(event.value):,})",
                _mark_position(event.start_mark, source),
            )


# --------------------------------------------------------------------------- node pass


def _content_start(buffer: str, index: int, line: int, col: int, node: ScalarNode) -> tuple[int, int]:
    """0-based line/column of a scalar's first content character.

    A scalar's mark sits on its explicit tag when it has one, and on the
    opening quote when it is quoted; step over both.
    """
    if buffer[index] == "!" and node.value != "":
        while buffer[index] not in " \t\0" + _BREAK_CHARS:
            index, col = index + 1, col + 1
        while True:
            char = buffer[index]
            if char in " \t":
                index, col = index + 1, col + 1
            elif char == "#":
                while buffer[index] not in "\0" + _BREAK_CHARS:
                    index += 1
            elif char in _BREAK_CHARS:
                index += 2 if buffer[index : index + 2] == "\r\n" else 1
                line, col = line + 1, 0
            else:
                break
    if node.style in ("'", '"') and buffer[index] == node.style:
        col += 1
    return line, col


class _Builder:
    """Builds plain data from a composed node tree, recording every position."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.constructor = SafeConstructor()
        self.positions: dict[YamlPath, Position] = {}
        self.key_positions: dict[YamlPath, Position] = {}

    def where(self, node: Node) -> Position:
        """The position of ``node`` (first content character for scalars)."""
        mark = node.start_mark
        line, col = mark.line, mark.column
        if isinstance(node, ScalarNode) and isinstance(mark.buffer, str):
            line, col = _content_start(mark.buffer, mark.pointer, line, col, node)
        return Position(self.source, line + 1, col + 1)

    def build(self, node: Node, path: YamlPath) -> Any:
        """The plain value of ``node``; records its position under ``path``."""
        self.positions[path] = self.where(node)
        if isinstance(node, MappingNode):
            self._check_tag(node, _MAP, "a mapping")
            return self._mapping(node, path)
        if isinstance(node, SequenceNode):
            self._check_tag(node, _SEQ, "a list")
            return [self.build(item, (*path, i)) for i, item in enumerate(node.value)]
        assert isinstance(node, ScalarNode)  # the composer makes no other kind of node
        return self.scalar(node)

    def _check_tag(self, node: Node, expected: str, kind: str) -> None:
        # An explicit tag of another kind (`!!str [1]`) would silently change meaning.
        if node.tag != expected:
            fail_at("Y105", f"the YAML tag {_short_tag(node.tag)} cannot be used on {kind}", self.where(node))

    def scalar(self, node: ScalarNode) -> Any:
        """A scalar typed by the safe resolver; non-JSON types stay as their text."""
        if node.tag in (_SEQ, _MAP):
            fail_at("Y105", f"the YAML tag {_short_tag(node.tag)} cannot be used on a single value", self.where(node))
        if node.tag not in _SCALAR_TAGS:
            return node.value  # an implicit timestamp, `=` or `<<`: JSON Schema needs text
        try:
            return self.constructor.construct_object(node)
        except (ValueError, TypeError, LookupError, ArithmeticError, yaml.YAMLError):
            # The constructor trips over values like `!!int abc` or a 5,000-digit number.
            shown = node.value if len(node.value) <= 40 else node.value[:37] + "..."
            fail_at("Y103", f"cannot read {shown!r} as {_short_tag(node.tag)}", self.where(node))

    def _key(self, node: Node) -> str | int:
        where = self.where(node)
        if not isinstance(node, ScalarNode):
            kind = "a mapping" if isinstance(node, MappingNode) else "a list"
            fail_at("Y110", f"a mapping key must be a name or a number, not {kind}", where)
        key = self.scalar(node)
        if isinstance(key, bool) or not isinstance(key, (str, int)):
            shown = "null" if key is None else repr(node.value)
            fail_at(
                "Y110",
                f"a mapping key must be a name or a number, not {shown}",
                where,
                hint=f'quote it: "{node.value}"',
            )
        return key

    def _mapping(self, node: MappingNode, path: YamlPath) -> dict[Any, Any]:
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = self._key(key_node)
            where = self.where(key_node)
            key_path = (*path, key)
            if key in result:
                first = self.key_positions[key_path]
                fail_at("Y109", f"duplicate key {key!r} (first written at line {first.line})", where)
            self.key_positions[key_path] = where
            result[key] = self.build(value_node, key_path)
        return result


def _compose(text: str, source: str) -> Node | None:
    try:
        _scan_events(text, source)
        return yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        _syntax_error(exc, text, source)
    except RecursionError:
        # The event pass bounds nesting; this is a last line of defence.
        fail_load("Y106", f"the file is nested more than {MAX_DEPTH} levels deep", source)


def parse_yaml(text: str, source: str = "<string>") -> Document:
    """Parse one ruleset text into a :class:`Document` (no ``extends:`` resolution).

    Raises :class:`~evaluator.core.errors.LoadError` (codes Y102-Y110, Y114-Y116)
    for anything that is not a safe, plain YAML mapping.
    """
    text = text.removeprefix("\ufeff")
    _check_text(text, source)
    root = _compose(text, source)
    if root is None or (isinstance(root, ScalarNode) and root.tag == _NULL and root.value == ""):
        fail_load("Y114", "the file is empty", source, hint="a ruleset is a mapping such as `name: my-rules`")
    builder = _Builder(source)
    if not isinstance(root, MappingNode):
        kind = "a list" if isinstance(root, SequenceNode) else "a single value"
        fail_at("Y108", f"the top level must be a mapping of keys to values, not {kind}", builder.where(root))
    data = builder.build(root, ())
    return Document(data, builder.positions, builder.key_positions, (source,))


# --------------------------------------------------------------------------- files


def decode_utf8(raw: bytes, source: str) -> str:
    """``raw`` as UTF-8 text; Y116 at the line and column of the first bad byte."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start].decode("utf-8", errors="replace")
        line, col = _line_col(before, len(before))
        fail_load(
            "Y116",
            f"the file is not valid UTF-8 (byte 0x{raw[exc.start]:02x})",
            source,
            line,
            col,
            hint="save the file as UTF-8",
        )


# Texts that stand for files (an editor's unsaved buffers), by real path: read
# in place of the file on disk, so the editor checks what is typed, not what was saved.
_BUFFERS: ContextVar[Mapping[str, str] | None] = ContextVar("pokerrules_buffers", default=None)


@contextmanager
def editor_buffers(texts: Mapping[str, str]) -> Iterator[None]:
    """Within the block, read each file named in ``texts`` from its text, not from disk.

    Keys are paths (taken to their real path); every limit of a file on disk
    applies to the text too. The language server checks unsaved buffers, and
    the parents of ``extends:`` the editor has open, this way.

    >>> with editor_buffers({"/no/such/dir/a.yaml": "name: a"}):
    ...     read_bytes(Path("/no/such/dir/a.yaml"))
    b'name: a'
    """
    token = _BUFFERS.set({**(_BUFFERS.get() or {}), **{os.path.realpath(path): text for path, text in texts.items()}})
    try:
        yield
    finally:
        _BUFFERS.reset(token)


def buffer_of(path: str | Path) -> str | None:
    """The editor text standing for ``path`` (see :func:`editor_buffers`), or None."""
    buffers = _BUFFERS.get()
    return buffers.get(os.path.realpath(path)) if buffers else None


def read_bytes(path: Path) -> bytes:
    """The bytes of one regular file; the size is checked before any byte is read."""
    source = str(path)
    text = buffer_of(path)
    if text is not None:
        # a lone surrogate from the editor becomes bytes that are not UTF-8: Y116 at its place
        raw = text.encode("utf-8", "surrogatepass")
        if len(raw) > MAX_FILE_BYTES:
            fail_load("Y102", f"the file is too large ({len(raw):,} bytes; the limit is 1 MiB)", source)
        return raw
    try:
        info = os.stat(path)
    except (OSError, ValueError) as exc:
        fail_load("Y101", f"cannot read {source}: {getattr(exc, 'strerror', None) or exc}", source)
    if not stat.S_ISREG(info.st_mode):
        fail_load("Y101", f"cannot read {source}: not a regular file", source)
    if info.st_size > MAX_FILE_BYTES:
        fail_load("Y102", f"the file is too large ({info.st_size:,} bytes; the limit is 1 MiB)", source)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)  # +1: notice a file that grew since stat
    except OSError as exc:
        fail_load("Y101", f"cannot read {source}: {exc.strerror or exc}", source)
    if len(raw) > MAX_FILE_BYTES:
        fail_load("Y102", "the file is too large (the limit is 1 MiB)", source)
    return raw


def read_file(path: Path) -> Document:
    """Read and parse one ruleset file; the size is checked before any byte is read."""
    return parse_yaml(decode_utf8(read_bytes(path), str(path)), str(path))
