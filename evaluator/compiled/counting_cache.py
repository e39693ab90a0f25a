"""The category table of a ruleset's deals (``stats``, ``diff``), kept on disk between runs, signed like the tables.

Counting every deal walks the ruleset's hand classes through the generic
evaluator: 0.4 s for the standard deck, a second with wild cards, on every
``stats`` and every ``diff`` of the ruleset. The table found
(:class:`~evaluator.compiled.counts.Counting`: deals per category, distinct
values, unplayable deals) is a few hundred bytes of JSON, kept in a file
(``.counts``, magic ``PRCOUNTS``) named by the ruleset's table hash and the
number of cards, in the signed cache of :mod:`evaluator.core.diskcache`. A file
is believed only when it is ours and fits: exactly the ruleset's categories,
whole numbers that add up to every deal of its deck. Anything else is counted
again and rewritten. ``POKERRULES_TABLE_CACHE=off`` keeps the counts in memory only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core import diskcache
from .counts import Counting, deal_count
from .table_cache import FORMAT_VERSION, cache_dir, cache_enabled, ruleset_hash

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

MAGIC = b"PRCOUNTS"
SUFFIX = ".counts"


def cache_path(ruleset: Rules, cards: int) -> Path:
    """The cache file of ``ruleset``'s ``cards``-card counts (it may not exist yet)."""
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in ruleset.name)[:40] or "ruleset"
    return cache_dir() / f"{safe}-{ruleset_hash(ruleset)[:20]}-{cards}{SUFFIX}"


def _header(ruleset: Rules, cards: int) -> dict[str, Any]:
    from ..core.version import __version__

    return {"format": FORMAT_VERSION, "version": __version__, "ruleset": ruleset_hash(ruleset), "cards": cards}


def write_counting(ruleset: Rules, counting: Counting) -> bool:
    """Keep ``counting`` (of ``ruleset``) signed and atomically; False when not written."""
    if not cache_enabled():
        return False
    data = {
        "counts": counting.counts,
        "distinct": counting.distinct,
        "unplayable": counting.unplayable,
        "classes": counting.classes,
    }
    payload = json.dumps(data, separators=(",", ":")).encode("utf-8")
    fields = dict(_header(ruleset, counting.cards), name=ruleset.name)
    return diskcache.write_file(cache_path(ruleset, counting.cards), MAGIC, fields, payload)


def read_counting(ruleset: Rules, cards: int) -> Counting | None:
    """The kept counts of ``ruleset``'s ``cards``-card deals, or None (no file, not ours,
    another ruleset, version or size, or counts that do not fit the ruleset's deals)."""
    if not cache_enabled():
        return None
    payload = diskcache.read_file(cache_path(ruleset, cards), MAGIC, _header(ruleset, cards))
    if payload is None:
        return None
    try:
        data = json.loads(bytes(payload))
        counting = Counting(
            ruleset.name,
            cards,
            deal_count(ruleset, cards),
            _table(data["counts"], ruleset),
            _table(data["distinct"], ruleset),
            _whole(data["unplayable"]),
            _whole(data["classes"]),
        )
    except (ValueError, KeyError, TypeError):  # not what write_counting writes: counted again
        return None
    if sum(counting.counts.values()) + counting.unplayable != counting.deals:
        return None
    return counting


def _table(found: Any, ruleset: Rules) -> dict[str, int]:
    """A table of every category of ``ruleset`` in its order, each a whole number (ValueError otherwise)."""
    if not isinstance(found, dict) or list(found) != list(ruleset.category_names):
        raise ValueError("not the ruleset's categories")
    return {name: _whole(value) for name, value in found.items()}


def _whole(value: Any) -> int:
    if type(value) is not int or value < 0:
        raise ValueError("not a count")
    return value
