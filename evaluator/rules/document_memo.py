"""Rule files parsed before: their documents kept in the disk cache, so a warm start needs no PyYAML.

Importing PyYAML and parsing a ruleset file with its pure-Python reader is a
fifth of a warm ``pokerrules eval``, yet a file is nearly always the one parsed
last time. A file's :class:`~evaluator.rules.yaml_read.Document` -- its data,
and the line and column of every value and key -- is written out as plain JSON
(never a pickle) in the signed disk cache (``diskcache``: ours, HMAC-checked),
one file per content: its name and header carry the SHA-256 of the file's
bytes and of the reading code (``yaml_base``, ``yaml_read``, ``yaml_parse``,
``yaml_words``), so a changed file or a changed reader parses anew. Only files
that parsed are kept, and only documents JSON says exactly (mapping keys that
are text; values of dicts, lists, text, whole numbers, finite floats, booleans
and None); any other document is parsed each time, as before. An editor's
unsaved buffer is never kept (:func:`evaluator.rules.load` asks only for files
read from disk).

The positions name the file they were read from; a document read back is
named after the path asked for (a file copied elsewhere reads as itself).
"""

from __future__ import annotations

import hashlib
import json
import math
from functools import cache
from pathlib import Path
from typing import Any

from ..core import diskcache, resources
from .schema_seen import plain
from .yaml_read import Document, Position, YamlPath

MAGIC = b"PRPARSED"
SUFFIX = ".parsed"
FORMAT_VERSION = 1
_READERS = ("yaml_base.py", "yaml_read.py", "yaml_parse.py", "yaml_words.py")


@cache
def _reader_digest() -> bytes:
    """The code that turns bytes into a document: a change means other documents."""
    found = hashlib.sha256(str(FORMAT_VERSION).encode())
    here = Path(__file__).parent
    for name in _READERS:
        found.update(b"\0")
        found.update((here / name).read_bytes())
    return found.digest()


def content_key(raw: bytes) -> str:
    """The digest naming the document of a file's bytes ``raw`` (with this reading code)."""
    return hashlib.sha256(_reader_digest() + raw).hexdigest()


def _name(key: str) -> str:
    return f"document-{key[:32]}{SUFFIX}"


def _fields(key: str) -> dict[str, Any]:
    return {"format": FORMAT_VERSION, "digest": key}


def exact_in_json(value: Any) -> bool:
    """Whether JSON gives ``value`` back exactly: dicts with text keys, lists, text, whole
    numbers, finite floats, booleans and None (of exactly those types).

    >>> exact_in_json({"a": [1, 2.5, None, True]}), exact_in_json({1: "a"}), exact_in_json(float("nan"))
    (True, False, False)
    """
    return plain(value, scalar=_exact_scalar, key=lambda key: type(key) is str)


def _exact_scalar(value: Any) -> bool:
    kind = type(value)
    return kind in (str, int, bool) or value is None or (kind is float and math.isfinite(value))


def _positions(found: dict[YamlPath, Position]) -> list[list[Any]]:
    return [[list(path), where.line, where.col] for path, where in found.items()]


def _read_positions(rows: Any, source: str) -> dict[YamlPath, Position]:
    """Positions written by :func:`_positions`; raises ValueError on anything else."""
    if type(rows) is not list:
        raise ValueError("positions")
    found: dict[YamlPath, Position] = {}
    for row in rows:
        if type(row) is not list or len(row) != 3 or type(row[0]) is not list:
            raise ValueError("a position")
        path, line, col = row
        if not all(type(step) in (str, int) for step in path) or type(line) is not int or type(col) is not int:
            raise ValueError("a position")
        found[tuple(path)] = Position(source, line, col)
    return found


def remembered(key: str, source: str) -> Document | None:
    """The document of the content digest ``key`` parsed before, its positions naming
    ``source``; None when there is none (or no cache, or it does not check out)."""
    with diskcache.open_folder(resources.user_cache_dir(), create=False) as folder:
        blob = folder.read(_name(key), MAGIC, _fields(key)) if folder is not None else None
    if blob is None:
        return None
    try:
        kept = json.loads(blob)
        if type(kept) is not dict or set(kept) != {"data", "positions", "keys"} or type(kept["data"]) is not dict:
            return None
        positions = _read_positions(kept["positions"], source)
        keys = _read_positions(kept["keys"], source)
    except (ValueError, RecursionError):  # signed by us yet unreadable: parsed anew
        return None
    return Document(kept["data"], positions, keys, (source,))


def remember(key: str, document: Document) -> None:
    """Keep ``document``, parsed from the bytes of content digest ``key`` (nothing when there is
    no cache, or JSON cannot say the document exactly)."""
    if not exact_in_json(document.data):
        return
    kept = {
        "data": document.data,
        "positions": _positions(document.positions),
        "keys": _positions(document.key_positions),
    }
    payload = json.dumps(kept, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")
    with diskcache.open_folder(resources.user_cache_dir()) as folder:
        if folder is not None:
            folder.write(_name(key), MAGIC, _fields(key), payload)
