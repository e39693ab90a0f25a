"""Reading a ruleset text with PyYAML: the event and node passes of :mod:`evaluator.rules.yaml_read`.

Imported only when a text is parsed: a warm start answers from the documents parsed
before (:mod:`evaluator.rules.document_memo`) and never imports PyYAML. The limits
are read from :mod:`evaluator.rules.yaml_base` when a text is parsed (tests lower them there).
"""

from __future__ import annotations

from typing import Any, NoReturn

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

from ..core.errors import caret
from . import yaml_base
from .yaml_base import (
    _BREAK,
    _BREAK_CHARS,
    _MAP,
    _NULL,
    _PLAIN_TAGS,
    _SCALAR_TAGS,
    _SEQ,
    Document,
    Position,
    YamlPath,
    _line_col,
    _mark_position,
    _short_tag,
    _source_line,
    fail_at,
    fail_load,
)
from .yaml_words import in_words


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
        if nodes > yaml_base.MAX_NODES:
            fail_at(
                "Y107",
                f"the file has more than {yaml_base.MAX_NODES:,} values",
                _mark_position(event.start_mark, source),
            )
        if isinstance(event, CollectionStartEvent):
            depth += 1
            if depth > yaml_base.MAX_DEPTH:
                fail_at(
                    "Y106",
                    f"the file is nested more than {yaml_base.MAX_DEPTH} levels deep",
                    _mark_position(event.start_mark, source),
                )
        elif isinstance(event, ScalarEvent) and len(event.value) > yaml_base.MAX_SCALAR_CHARS:
            fail_at(
                "Y115",
                f"a value is longer than {yaml_base.MAX_SCALAR_CHARS:,} characters ({len(event.value):,})",
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
        fail_load("Y106", f"the file is nested more than {yaml_base.MAX_DEPTH} levels deep", source)


def parse_text(text: str, source: str) -> Document:
    """The :class:`Document` of a text that passed :mod:`evaluator.rules.yaml_read`'s text checks (see ``parse_yaml``)."""
    root = _compose(text, source)
    if root is None or (isinstance(root, ScalarNode) and root.tag == _NULL and root.value == ""):
        fail_load("Y114", "the file is empty", source, hint="a ruleset is a mapping such as `name: my-rules`")
    builder = _Builder(source)
    if not isinstance(root, MappingNode):
        kind = "a list" if isinstance(root, SequenceNode) else "a single value"
        fail_at("Y108", f"the top level must be a mapping of keys to values, not {kind}", builder.where(root))
    data = builder.build(root, ())
    return Document(data, builder.positions, builder.key_positions, (source,))
