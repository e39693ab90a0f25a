"""Strategy lists kept in the disk cache: the order of each section's lines.

Building a list is a search (seconds for the full list, tens of seconds for a
short one); what it finds is, per section (wild cards dealt), the lines as
lists of hold types ("atoms", ids into the game's sorted type keys). That
order is all that is kept: the list's words, its exact return and its error
are worked out from it again on reading (``strategy._finish``), so a file can
at worst name a poor order, never a wrong figure. Files go through the signed,
checked cache of :mod:`evaluator.core.diskcache`, named by a hash of the
resolved ruleset, the pays, the line limit, the package version and the source
of the modules whose changes move the lists.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from ..core import diskcache
from ..core.resources import user_cache_dir
from .paytable import PayTable

MAGIC = b"PRSTRATG"
SUFFIX = ".strategy"
FORMAT = 1
#: The modules whose code decides the lists (their source is part of the key).
SEARCH_MODULES = ("strategy.py", "strategy_search.py", "strategy_text.py", "hold_types.py")

#: Per section: its wild cards dealt and its lines, each a list of atom ids.
Orders = list[tuple[int, list[list[int]]]]


@cache
def _search_digest() -> str:
    digest = hashlib.sha256()
    for name in SEARCH_MODULES:
        digest.update((Path(__file__).parent / name).read_bytes())
    return digest.hexdigest()


def cache_file(table: PayTable, lines: int | None) -> Path:
    """Where the list of ``table`` with at most ``lines`` lines is kept."""
    from ..compiled.table_cache import ruleset_hash
    from ..core.version import __version__

    key = {
        "ruleset": ruleset_hash(table.ruleset),
        "pays": table.key(),
        "lines": lines,
        "version": __version__,
        "format": FORMAT,
        "search": _search_digest(),
    }
    name = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:32]
    return user_cache_dir() / f"strategy-{name}{SUFFIX}"


def _header(path: Path) -> dict[str, Any]:
    return {"format": FORMAT, "key": path.stem}


def read_orders(table: PayTable, lines: int | None, sections: list[int], atoms: int) -> Orders | None:
    """The kept orders when a good file is there for exactly these ``sections`` (wild cards
    dealt, in order) and ``atoms`` hold types; None otherwise (missing, not ours, forged,
    or not of this game)."""
    path = cache_file(table, lines)
    payload = diskcache.read_file(path, MAGIC, _header(path))
    if payload is None:
        return None
    try:
        data = json.loads(payload)
        orders = [(int(wilds), [[int(atom) for atom in line] for line in order]) for wilds, order in data["orders"]]
    except (KeyError, TypeError, ValueError, RecursionError):
        return None
    fits = [wilds for wilds, _ in orders] == sections and all(
        order and all(line and all(0 <= atom < atoms for atom in line) for line in order) for _, order in orders
    )
    return orders if fits else None


def write_orders(table: PayTable, lines: int | None, orders: Orders) -> bool:
    """Keep ``orders`` signed and atomically (False when the folder is not usable)."""
    path = cache_file(table, lines)
    payload = json.dumps({"format": FORMAT, "orders": orders}).encode("utf-8")
    return diskcache.write_file(path, MAGIC, _header(path), payload)
