"""The suit-class valuation of a ruleset, kept: in memory per process and on disk, signed like the tables.

:func:`suit_values` is what the coverage lint, the exact counter (``stats``,
``diff``) and the suit tables call; the first of them in any process pays the
walk of ``suitvalues.value_classes``, the others read its result. A file
(``.suits``, magic ``PRSUITVL``) is named by the ruleset's table hash and the
holding size, and goes through :mod:`evaluator.core.diskcache` like a table
file: HMAC-signed with the user's key, read without following links, bounded,
arrays laid out by ``array_payload`` (no pickles), and checked for consistency (every deal counted once,
indices in range) before use; anything that does not check out is valued again
and rewritten. ``POKERRULES_TABLE_CACHE=off`` keeps it in memory only.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core import diskcache
from ..core.progress import Bar
from .array_payload import pack, unpack
from .suitvalues import SuitValues, from_arrays, value_classes
from .table_cache import FORMAT_VERSION, cache_dir, cache_enabled, ruleset_hash

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

MAGIC = b"PRSUITVL"
SUFFIX = ".suits"
#: Valuations kept in memory (a few megabytes each), the least recently used going first.
_KEPT = 4
_MEMO: OrderedDict[tuple[str, int], SuitValues] = OrderedDict()


def suit_values(
    ruleset: Rules, cards: int, progress: Callable[[float], None] | None = None, use_cache: bool | None = None
) -> SuitValues:
    """Every ``cards``-card suit class of ``ruleset`` with its best hand: from memory, from a
    good cache file, else valued (a progress bar on stderr past one second when no
    ``progress`` is given) and cached.

    Raises:
        CardError: C105 when the deals cannot be enumerated by suit class.
    """
    key = (ruleset_hash(ruleset), cards)
    found = _MEMO.pop(key, None)
    if found is None:
        use_cache = cache_enabled() if use_cache is None else use_cache
        path = cache_path(ruleset, cards) if use_cache else None
        found = read_values(ruleset, cards, path) if path is not None else None
        if found is None:
            found = _valued(ruleset, cards, progress)
            if path is not None:
                write_values(ruleset, found, path)
        elif progress is not None:
            progress(1.0)
    elif progress is not None:
        progress(1.0)
    _MEMO[key] = found
    while len(_MEMO) > _KEPT:
        _MEMO.popitem(last=False)
    return found


def kept_values(ruleset: Rules, cards: int) -> SuitValues | None:
    """The valuation when it is at hand (in memory, or a good cache file), else None: a
    caller with a cheaper way than the walk (the tables) takes that one instead."""
    key = (ruleset_hash(ruleset), cards)
    found = _MEMO.get(key)
    if found is None and cache_enabled():
        found = read_values(ruleset, cards, cache_path(ruleset, cards))
        if found is not None:
            _MEMO[key] = found
            while len(_MEMO) > _KEPT:
                _MEMO.popitem(last=False)
    return found


def _valued(ruleset: Rules, cards: int, progress: Callable[[float], None] | None) -> SuitValues:
    if progress is not None:
        return value_classes(ruleset, cards, progress)
    bar = Bar(f"valuing the suit classes of {ruleset.name}")
    try:
        return value_classes(ruleset, cards, bar)
    finally:
        bar.finish()


def forget() -> None:
    """Drop the valuations kept in memory (the disk cache stays)."""
    _MEMO.clear()


def cache_path(ruleset: Rules, cards: int) -> Path:
    """The cache file of the ``cards``-card valuation of ``ruleset`` (it may not exist yet)."""
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in ruleset.name)[:40] or "ruleset"
    return cache_dir() / f"{safe}-{ruleset_hash(ruleset)[:20]}-{cards}{SUFFIX}"


def _expected_header(ruleset: Rules, cards: int) -> dict[str, Any]:
    from ..core.version import __version__

    return {"format": FORMAT_VERSION, "version": __version__, "ruleset": ruleset_hash(ruleset), "cards": cards}


def write_values(ruleset: Rules, values: SuitValues, path: Path) -> bool:
    """Write ``values`` to ``path`` atomically and signed; False when the folder is not
    usable or the file would be over the size cap."""
    fields = dict(_expected_header(ruleset, values.cards), name=ruleset.name)
    return diskcache.write_file(path, MAGIC, fields, pack(values.arrays()))


def read_values(ruleset: Rules, cards: int, path: Path) -> SuitValues | None:
    """The valuation read from ``path``, or None when the file is missing or does not check
    out (not ours, forged, another version, ruleset or size, inconsistent arrays)."""
    payload = diskcache.read_file(path, MAGIC, _expected_header(ruleset, cards))
    if payload is None:
        return None
    try:
        values = from_arrays(ruleset, unpack(payload))
        return values if values.cards == cards else None
    except Exception:  # noqa: BLE001 - whatever is wrong with the file, it is valued again
        return None
