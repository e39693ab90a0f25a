"""Patterns parsed before: their ASTs kept in the disk cache, so a warm start needs no Lark.

Importing Lark and reading its parser is most of what a warm
``pokerrules eval`` spends before the first hand, yet a ruleset's patterns
are nearly always the ones parsed last time. :func:`parse_pattern` answers a
pattern text it has seen from a table of ASTs written out as plain JSON
(node class names and fields, never a pickle) in the signed disk cache
(``diskcache``: ours, HMAC-checked); any other text goes to the Lark parser
(:mod:`evaluator.rules.pattern_parse`, imported then), which raises the same
errors as ever. Only patterns that parsed are remembered. The table's name
and header carry a digest of the grammar and of the parser and AST sources,
so a changed parser never reads old ASTs. New patterns are written once per
ruleset build (:func:`flush`).
"""

from __future__ import annotations

import hashlib
import json
from contextlib import suppress
from dataclasses import fields
from functools import cache
from pathlib import Path
from typing import Any

from ..core import diskcache, resources
from . import pattern_ast
from .pattern_ast import Node, Pattern, Where

MAGIC = b"PRPATTRN"
SUFFIX = ".memo"
FORMAT_VERSION = 1
#: At most this many patterns are kept (a fuzzing session must not grow the file without end).
MAX_PATTERNS = 4096
#: Every node class a pattern AST is made of, by name.
NODES: dict[str, type[Node]] = {
    cls.__name__: cls
    for cls in vars(pattern_ast).values()
    if isinstance(cls, type) and issubclass(cls, Node) and cls is not Node
}


class _Memo:
    """The table of one process: read from the cache on first use, new entries pending."""

    def __init__(self) -> None:
        self.loaded = False
        self.known: dict[str, Pattern] = {}
        self.pending: dict[str, Any] = {}


_memo = _Memo()


@cache
def _digest() -> str:
    """The grammar and the sources that decide an AST: a change means other ASTs."""
    found = hashlib.sha256(str(FORMAT_VERSION).encode())
    here = Path(__file__).parent
    for path in (resources.grammar_dir() / "pattern.lark", here / "pattern_parse.py", here / "pattern_ast.py"):
        found.update(b"\0")
        found.update(path.read_bytes())
    return found.hexdigest()


def _name() -> str:
    return f"patterns-{_digest()[:20]}{SUFFIX}"


def encode(value: Any) -> Any:
    """An AST (or a field of one) as plain JSON data. Raises TypeError for anything else."""
    if isinstance(value, Node):
        return {"n": type(value).__name__, "f": {f.name: encode(getattr(value, f.name)) for f in fields(value)}}
    if isinstance(value, tuple):
        return {"t": [encode(item) for item in value]}
    if value is None or type(value) in (bool, int):
        return value
    if isinstance(value, str):
        return str(value)  # a Lark token is a str subclass: kept as its text
    raise TypeError(f"cannot keep {type(value).__name__} in a pattern AST")


def decode(value: Any) -> Any:
    """The AST :func:`encode` wrote. Raises (KeyError, TypeError, ValueError) on anything else."""
    if type(value) is dict:
        if set(value) == {"t"} and type(value["t"]) is list:
            return tuple(decode(item) for item in value["t"])
        node = NODES[value["n"]]
        given = value["f"]
        if type(given) is not dict or set(given) != {f.name for f in fields(node)}:
            raise ValueError("fields")
        return node(**{name: decode(item) for name, item in given.items()})
    if value is None or type(value) in (bool, int, str):
        return value
    raise TypeError(type(value).__name__)


def _read() -> dict[str, Any]:
    expect = {"format": FORMAT_VERSION, "digest": _digest()}
    with diskcache.open_folder(resources.user_cache_dir(), create=False) as folder:
        blob = folder.read(_name(), MAGIC, expect) if folder is not None else None
    if blob is None:
        return {}
    try:
        table = json.loads(blob)
        return table if type(table) is dict and len(table) <= MAX_PATTERNS else {}
    except ValueError:
        return {}


def _load() -> None:
    if _memo.loaded:
        return
    _memo.loaded = True
    try:
        _memo.known.update({text: decode(plain) for text, plain in _read().items()})
    except (KeyError, TypeError, ValueError, RecursionError):  # signed by us yet unreadable: parsed anew
        _memo.known.clear()


def parse_pattern(text: str, where: Where | None = None) -> Pattern:
    """Parse ``text`` into an AST (:func:`evaluator.rules.pattern_parse.parse_pattern`,
    answered from the patterns parsed before when ``text`` is one of them).

    >>> parse_pattern("XX YY Z")
    Shape(groups=(('X', 2), ('Y', 2), ('Z', 1)))
    """
    _load()
    found = _memo.known.get(text)
    if found is not None:
        return found
    from .pattern_parse import parse_pattern as parse_with_lark

    parsed = parse_with_lark(text, where)
    if len(_memo.known) < MAX_PATTERNS:
        _memo.known[text] = parsed
        with suppress(TypeError):  # never expected: such a pattern is simply parsed every time
            _memo.pending[text] = encode(parsed)
    return parsed


def flush() -> None:
    """Write the patterns parsed since the last flush into the cache (merged with what
    other processes wrote meanwhile); nothing when there are none or no cache."""
    if not _memo.pending:
        return
    pending = dict(_memo.pending)
    _memo.pending.clear()
    table = _read()
    table.update(pending)
    if len(table) > MAX_PATTERNS:
        table = pending  # start again rather than grow without end
    payload = json.dumps(table, separators=(",", ":"), sort_keys=True).encode("utf-8")
    with diskcache.open_folder(resources.user_cache_dir()) as folder:
        if folder is not None:
            folder.write(_name(), MAGIC, {"format": FORMAT_VERSION, "digest": _digest()}, payload)
