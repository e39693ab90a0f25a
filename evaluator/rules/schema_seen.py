"""Documents the schema accepted before: their digests, kept in the disk cache.

Importing jsonschema and building its validator costs about a tenth of a
second, most of a warm ``pokerrules eval`` start. A ruleset is mostly loaded
again unchanged, so the merged data of a document the schema accepted is
remembered by a digest: the SHA-256 of the schema file's bytes and of the
data written out unambiguously (``repr`` of plain dicts, lists, text,
numbers, booleans and None; anything else is never remembered and always
validated). The cache file (``diskcache``: ours, HMAC-signed, one per digest)
says only "this digest was valid"; the digest binds it to this schema and
these data exactly, so a changed file or a new schema is validated again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import cache
from typing import Any

from ..core import diskcache, resources

MAGIC = b"PRSCHEMA"
SUFFIX = ".valid"
FORMAT_VERSION = 1
_PLAIN = (str, int, float, bool, type(None))


def _plain_scalar(value: Any) -> bool:
    return type(value) in _PLAIN


def plain(
    value: Any, scalar: Callable[[Any], bool] = _plain_scalar, key: Callable[[Any], bool] = _plain_scalar
) -> bool:
    """Whether ``value`` is made only of dicts (their keys passing ``key``), lists and
    scalars passing ``scalar``: by default of exactly the plain types (no subclass: its
    ``repr`` could hide a difference).

    >>> plain({"a": [1, None]}), plain({"a": {1, 2}}), plain({1: "a"}, key=lambda k: type(k) is str)
    (True, False, False)
    """
    return _plain(value, scalar, key, 0)


def _plain(value: Any, scalar: Callable[[Any], bool], key: Callable[[Any], bool], depth: int) -> bool:
    kind = type(value)
    if kind is dict:
        return depth <= 64 and all(key(k) and _plain(item, scalar, key, depth + 1) for k, item in value.items())
    if kind is list:
        return depth <= 64 and all(_plain(item, scalar, key, depth + 1) for item in value)
    return scalar(value)


@cache
def _schema_bytes(name: str) -> bytes:
    return (resources.grammar_dir() / name).read_bytes()


def digest(data: Any, schema_file: str) -> str | None:
    """The digest of ``data`` under the schema file ``schema_file``, None when the data
    are not plain (never remembered)."""
    if not plain(data):
        return None
    found = hashlib.sha256(_schema_bytes(schema_file))
    found.update(b"\0")
    found.update(repr(data).encode("utf-8", "surrogatepass"))
    return found.hexdigest()


def _name(key: str) -> str:
    return f"schema-{key[:32]}{SUFFIX}"


def seen_valid(key: str | None) -> bool:
    """Whether the document of digest ``key`` was found valid before (and cached)."""
    if key is None:
        return False
    with diskcache.open_folder(resources.user_cache_dir(), create=False) as folder:
        found = folder.read(_name(key), MAGIC, _fields(key)) if folder is not None else None
        return found is not None and bytes(found) == b"valid"


def remember_valid(key: str | None) -> None:
    """Note that the document of digest ``key`` is valid (nothing when there is no cache)."""
    if key is None:
        return
    with diskcache.open_folder(resources.user_cache_dir()) as folder:
        if folder is not None:
            folder.write(_name(key), MAGIC, _fields(key), b"valid")


def _fields(key: str) -> dict[str, Any]:
    return {"format": FORMAT_VERSION, "digest": key}
