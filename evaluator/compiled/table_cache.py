"""The disk cache of compiled tables: signed files, checked before use.

Tables are cached under ``$POKERRULES_CACHE``, else ``$XDG_CACHE_HOME/pokerrules``,
else ``~/.cache/pokerrules``, in a file named by a hash of the resolved ruleset
data and the package version. A file is a magic string, a JSON header (format,
package version, ruleset hash, payload length, HMAC) and a payload of raw
arrays (``array_payload.py``: an index, then each array's bytes, never a pickle); :mod:`evaluator.core.diskcache` checks the folder
(ours, writable by nobody else), opens files without following symlinks,
bounds every read and verifies the HMAC keyed by the user's secret. Anything
that does not check out -- truncated, corrupted, forged, another version -- is
rebuilt and rewritten atomically (temporary file, then ``os.replace``); the
cache is never trusted blindly. ``POKERRULES_TABLE_CACHE=off`` builds in memory
only. A cold build takes one to two seconds per ruleset (suit-class rulesets
value every suit class through the generic evaluator: about 5 s for five cards
of 52, 25 s with a wild joker, once per ruleset: that valuation is cached on
its own, ``suitvalue_cache.py``, and shared with check and the counter); past
one second a progress bar shows on stderr.
"""

from __future__ import annotations

import hashlib
import json
import os
from math import comb
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core import diskcache
from ..core.resources import user_cache_dir
from .array_payload import pack, unpack
from .classgrid import NO_HAND
from .classwords import read_words
from .suittable import SUIT_MODE, read_suit_table
from .table_layout import EXTRA_CARDS, Strength, Tables, card_model

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

#: Bumped whenever the layout of a cache file or of the tables changes, or the values
#: the generic evaluator gives them (7: two packs laid out for ten cards; 8: a hand
#: that does not qualify plays its best score; 9: arrays as raw bytes behind an index).
FORMAT_VERSION = 9
#: Environment variable that turns the disk cache off when set to "0" or "off".
CACHE_SWITCH_ENV = "POKERRULES_TABLE_CACHE"
MAGIC = b"PRTABLES"


# --- the disk cache --------------------------------------------------------------------------


def cache_dir() -> Path:
    """Where table files live (see :func:`resources.user_cache_dir`)."""
    return user_cache_dir()


def ruleset_hash(ruleset: Rules) -> str:
    """A hash of what decides the tables: the resolved ruleset data, the package
    version and the table format (names, titles and examples left out)."""
    from ..core.version import __version__

    data = {key: value for key, value in ruleset.data.items() if key not in ("name", "title", "source", "examples")}
    text = json.dumps({"data": data, "version": __version__, "format": FORMAT_VERSION}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def cache_path(ruleset: Rules) -> Path:
    """The cache file of ``ruleset`` (it may not exist yet)."""
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in ruleset.name)[:40] or "ruleset"
    return cache_dir() / f"{safe}-{ruleset_hash(ruleset)[:20]}.tables"


def _payload(tables: Tables) -> dict[str, np.ndarray]:
    arrays: dict[str, np.ndarray] = {}
    for k, (keys, values) in tables.nf.items():
        arrays[f"nf_keys_{k}"], arrays[f"nf_values_{k}"] = keys, values
    for k, (keys, values) in tables.fl.items():
        arrays[f"fl_keys_{k}"], arrays[f"fl_values_{k}"] = keys, values
    flat, shape = _flatten_strengths(tables.strengths)
    arrays["strengths"] = flat
    arrays["strength_shape"] = shape
    arrays["categories"] = tables.categories
    arrays["flags"] = np.array([tables.dominant, tables.flush_matters], dtype=np.int8)
    if tables.suit_table is not None:
        arrays.update(tables.suit_table.arrays())
    if tables.words is not None:
        arrays.update(tables.words.arrays())
    return arrays


def _flatten_strengths(strengths: list[Strength]) -> tuple[np.ndarray, np.ndarray]:
    """Strengths as one int array: each part's length then its items."""
    flat: list[int] = []
    for strength in strengths:
        for part in strength:
            flat.append(len(part))
            flat.extend(part)
    return np.array(flat, dtype=np.int64), np.array(
        [len(strengths), len(strengths[0]) if strengths else 0], dtype=np.int64
    )


def _unflatten_strengths(flat: np.ndarray, shape: np.ndarray) -> list[Strength]:
    items = flat.tolist()
    count, parts = int(shape[0]), int(shape[1])
    out: list[Strength] = []
    at = 0
    for _ in range(count):
        strength = []
        for _ in range(parts):
            n = items[at]
            strength.append(tuple(items[at + 1 : at + 1 + n]))
            at += 1 + n
        out.append(tuple(strength))
    if at != len(items):
        raise ValueError("strength table has trailing data")
    return out


def write_cache(tables: Tables, path: Path) -> bool:
    """Write ``tables`` to ``path`` atomically and signed (see :mod:`evaluator.core.diskcache`);
    False when the folder is not usable or the file would be over the size cap."""
    fields = dict(_expected_header(tables.ruleset), name=tables.ruleset.name)
    return diskcache.write_file(path, MAGIC, fields, pack(_payload(tables)))


def _expected_header(ruleset: Rules) -> dict[str, Any]:
    from ..core.version import __version__

    return {"format": FORMAT_VERSION, "version": __version__, "ruleset": ruleset_hash(ruleset)}


def read_cache(ruleset: Rules, path: Path) -> Tables | None:
    """Tables read from ``path``, or None when the file is missing or does not check out
    (not ours, not a regular file, too big, forged, another version or ruleset)."""
    payload = diskcache.read_file(path, MAGIC, _expected_header(ruleset))
    if payload is None:
        return None
    try:
        arrays = unpack(payload)
        model = card_model(ruleset)
        nf = {
            int(name[8:]): (arrays[name], arrays["nf_values_" + name[8:]])
            for name in arrays
            if name.startswith("nf_keys_")
        }
        fl = {
            int(name[8:]): (arrays[name], arrays["fl_values_" + name[8:]])
            for name in arrays
            if name.startswith("fl_keys_")
        }
        strengths = _unflatten_strengths(arrays["strengths"], arrays["strength_shape"])
        flags = arrays["flags"]
        tables = Tables(
            ruleset, model, strengths, arrays["categories"], nf, fl, bool(flags[0]), bool(flags[1]), from_cache=True
        )
        if model.mode == SUIT_MODE:
            tables.suit_table = read_suit_table(arrays, model, model.caps, EXTRA_CARDS)
            values = tables.suit_table.values
            if len(values) and (values.max() >= len(strengths) or values.min() < NO_HAND):
                raise ValueError("suit table value out of range")
        _check_shape(tables)
        size = tables.size
        tables.words = read_words(arrays, {k: len(nf[k][0]) for k in nf if k <= size}, len(fl[size][0]))
        return tables
    except Exception:  # noqa: BLE001 - whatever is wrong with the file, it is rebuilt
        return None


GROWN_MAGIC = b"PRGROWN1"


def grown_path(ruleset: Rules, cards: int) -> Path:
    """The cache file of ``ruleset``'s tables grown to ``cards``-card holdings."""
    return cache_path(ruleset).with_name(f"{cache_path(ruleset).stem}-{cards}.grown")


def write_grown(tables: Tables, cards: int) -> bool:
    """Cache the tables grown to ``cards`` cards (the holdings past ``hand.size + 2`` that a
    first ``rank_many`` of eight or more cards grows), signed like the tables themselves."""
    (nf_keys, nf_values), (fl_keys, fl_values) = tables.nf[cards], tables.fl[cards]
    payload = pack({"nf_keys": nf_keys, "nf_values": nf_values, "fl_keys": fl_keys, "fl_values": fl_values})
    path = grown_path(tables.ruleset, cards)
    fields = dict(_expected_header(tables.ruleset), name=tables.ruleset.name, cards=cards)
    return diskcache.write_file(path, GROWN_MAGIC, fields, payload)


Pair = tuple[np.ndarray, np.ndarray]


def read_grown(tables: Tables, cards: int) -> tuple[Pair, Pair] | None:
    """The grown ``cards``-card tables (no-flush, flush) from the cache, or None when the
    file is missing or does not check out (then they are grown again)."""
    path = grown_path(tables.ruleset, cards)
    expected = dict(_expected_header(tables.ruleset), cards=cards)
    payload = diskcache.read_file(path, GROWN_MAGIC, expected)
    if payload is None:
        return None
    try:
        arrays = unpack(payload)
        nf = (arrays["nf_keys"], arrays["nf_values"])
        fl = (arrays["fl_keys"], arrays["fl_values"])
        for keys, values in (nf, fl):
            _check_pair(keys, values, len(tables.strengths))
        return nf, fl
    except Exception:  # noqa: BLE001 - whatever is wrong with the file, the tables are grown again
        return None


DIRECT_MAGIC = b"PRDIRECT"


def direct_path(ruleset: Rules) -> Path:
    """The cache file of ``ruleset``'s per-hand table (``suitdirect.DirectTable``)."""
    return cache_path(ruleset).with_name(f"{cache_path(ruleset).stem}.direct")


def write_direct(tables: Tables, cards: int, values: dict[int, np.ndarray]) -> bool:
    """Cache the per-hand values of a suit-class ruleset (by colex rank, one array per hand
    size, a deck of ``cards`` cards), signed like the tables themselves."""
    fields = dict(_expected_header(tables.ruleset), name=tables.ruleset.name, cards=cards)
    payload = pack({f"values_{k}": found for k, found in values.items()})
    return diskcache.write_file(direct_path(tables.ruleset), DIRECT_MAGIC, fields, payload)


def read_direct(tables: Tables, cards: int, sizes: range) -> dict[int, np.ndarray] | None:
    """The per-hand values of hands of ``sizes`` cards from the cache, or None when the file
    is missing or does not check out (then the table is built again): one array per size,
    one value per hand of the deck, each a value of the tables (or no hand)."""
    expected = dict(_expected_header(tables.ruleset), cards=cards)
    payload = diskcache.read_file(direct_path(tables.ruleset), DIRECT_MAGIC, expected)
    if payload is None:
        return None
    try:
        arrays = unpack(payload)
        if set(arrays) != {f"values_{k}" for k in sizes}:
            raise ValueError("missing sizes")
        values = {k: arrays[f"values_{k}"] for k in sizes}
        for k, found in values.items():
            if found.dtype not in (np.int16, np.int32) or found.shape != (comb(cards, k),):
                raise ValueError("bad table")
            if len(found) and (found.max() >= len(tables.strengths) or found.min() < NO_HAND):
                raise ValueError("value out of range")
        return values
    except Exception:  # noqa: BLE001 - whatever is wrong with the file, the table is built again
        return None


def _check_pair(keys: np.ndarray, values: np.ndarray, count: int) -> None:
    """Cheap consistency checks on one (keys, values) table read from disk."""
    if keys.dtype != np.int64 or values.dtype != np.int32 or keys.shape != values.shape or keys.ndim != 1:
        raise ValueError("bad table")
    if len(values) and (values.max() >= count or values.min() < NO_HAND):
        raise ValueError("value out of range")
    if len(keys) > 1 and not np.all(keys[1:] > keys[:-1]):
        raise ValueError("keys not sorted")


def _check_shape(tables: Tables) -> None:
    """Cheap consistency checks on tables read from disk (beyond the checksum)."""
    size = tables.size
    expected = set(range(max(tables.ruleset.hand_min, 1), size + EXTRA_CARDS + 1))
    if set(tables.nf) != expected or set(tables.fl) != set(range(size, size + EXTRA_CARDS + 1)):
        raise ValueError("missing tables")
    count = len(tables.strengths)
    for keys, values in list(tables.nf.values()) + list(tables.fl.values()):
        _check_pair(keys, values, count)
    if len(tables.categories) != count:
        raise ValueError("category table")


def cache_enabled() -> bool:
    """False when ``$POKERRULES_TABLE_CACHE`` is ``0`` or ``off``."""
    return os.environ.get(CACHE_SWITCH_ENV, "").lower() not in ("0", "off", "no", "false")
