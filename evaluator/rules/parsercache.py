"""The pattern parser, built once per machine and kept as plain JSON (never pickle).

Building Lark's LALR tables for ``grammar/pattern.lark`` takes about a fifth
of a second, more than everything else a short command does. Lark's own cache
would save that, but it is a pickle, and unpickling a file is running it. Here
the built parser is turned into Lark's plain-data form (dicts, lists, tuples,
strings and numbers), written as tagged JSON into the checked cache folder
(:mod:`evaluator.core.diskcache`: ours, HMAC-signed) under a name and header bound
to a hash of the grammar text, the Lark version and the options; it is read
back with :func:`json.loads` and handed to Lark as a dict. Anything that does
not check out is ignored and the parser is built from the grammar.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

from ..core import diskcache
from ..core.resources import grammar_dir, user_cache_dir

MAGIC = b"PRPARSER"
PATTERN_GRAMMAR = "pattern.lark"
PATTERN_OPTIONS: dict[str, Any] = {"parser": "lalr", "propagate_positions": True}
#: Bumped whenever the encoding below changes.
FORMAT_VERSION = 1


def encode(value: Any) -> Any:
    """Lark's plain data as JSON that keeps what JSON alone would lose: tuples,
    and dict keys that are numbers. Containers become one-key objects.

    >>> encode({1: (2, "x")})
    {'d': [[1, {'t': [2, 'x']}]]}
    """
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        raise TypeError("floats are not expected in parser data")
    if isinstance(value, tuple):
        return {"t": [encode(item) for item in value]}
    if isinstance(value, list):
        return {"l": [encode(item) for item in value]}
    if isinstance(value, dict):
        return {"d": [[encode(key), encode(item)] for key, item in value.items()]}
    raise TypeError(f"cannot encode {type(value).__name__}")


def decode(value: Any) -> Any:
    """The inverse of :func:`encode` (``ValueError`` on anything it cannot have made).

    >>> decode({'d': [[1, {'t': [2, 'x']}]]})
    {1: (2, 'x')}
    """
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, dict) and len(value) == 1:
        ((tag, items),) = value.items()
        if isinstance(items, list):
            if tag == "t":
                return tuple(decode(item) for item in items)
            if tag == "l":
                return [decode(item) for item in items]
            if tag == "d" and all(isinstance(pair, list) and len(pair) == 2 for pair in items):
                return {decode(key): decode(item) for key, item in items}
    raise ValueError("not parser data")


def grammar_hash(text: str, options: dict[str, Any]) -> str:
    """What decides the built parser: the grammar text, the options, the Lark version."""
    what = {"grammar": text, "options": options, "lark": lark.__version__, "format": FORMAT_VERSION}
    return hashlib.sha256(json.dumps(what, sort_keys=True, default=repr).encode()).hexdigest()


def to_json(parser: Lark) -> bytes | None:
    """The parser as JSON bytes, or None when its data would not come back identical."""
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    state = {"data": data, "memo": memo}
    try:
        text = json.dumps(encode(state), separators=(",", ":"))
    except TypeError:
        return None
    return text.encode() if decode(json.loads(text)) == state else None


def from_json(blob: bytes | bytearray) -> Lark:
    """A parser from :func:`to_json`'s bytes (JSON only: no code runs from them)."""
    state = decode(json.loads(blob))
    if not isinstance(state, dict) or set(state) != {"data", "memo"}:
        raise ValueError("not parser data")
    return Lark.load(state)  # a dict is taken as data as it is: no pickle


def cache_name(grammar: Path, text: str, options: dict[str, Any]) -> str:
    """The cache file name of a grammar's parser (it changes with what decides it)."""
    return f"{grammar.stem}-{grammar_hash(text, options)[:20]}.parser"


def load_parser(grammar: Path, **options: Any) -> Lark:
    """The LALR parser of the grammar file ``grammar``, from the cache when a good
    copy is there, else built and cached.

    >>> from evaluator.core.resources import grammar_dir
    >>> str(load_parser(grammar_dir() / "pattern.lark", parser="lalr").parse("XX").data)
    'shape'
    """
    text = grammar.read_text(encoding="utf-8")
    name = cache_name(grammar, text, options)
    expect = {"format": FORMAT_VERSION, "grammar": grammar_hash(text, options)}
    folder_path = user_cache_dir()
    with diskcache.open_folder(folder_path, create=False) as folder:
        blob = folder.read(name, MAGIC, expect) if folder is not None else None
    if blob is not None:
        try:
            return from_json(blob)
        except Exception:  # noqa: BLE001 - signed by us yet unreadable: rebuilt below
            pass
    parser = Lark(text, **options)
    payload = to_json(parser)
    if payload is not None:
        with diskcache.open_folder(folder_path) as folder:
            if folder is not None:
                folder.write(name, MAGIC, expect, payload)
    return parser


def pattern_parser() -> Lark:
    """The parser of the pattern language (``grammar/pattern.lark``)."""
    return load_parser(grammar_dir() / PATTERN_GRAMMAR, **PATTERN_OPTIONS)


def pattern_cache_name() -> str:
    """The cache file name :func:`pattern_parser` reads and writes."""
    grammar = grammar_dir() / PATTERN_GRAMMAR
    return cache_name(grammar, grammar.read_text(encoding="utf-8"), PATTERN_OPTIONS)
