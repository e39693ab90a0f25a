"""Tables grown past ``hand.size + 2`` cards (a first ``rank_many`` of eight or more
cards) are cached on disk, signed like the tables, and anything wrong with such a
file means growing them again."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from signed_files import resign

from evaluator import load
from evaluator.compiled import tables as tables_module
from evaluator.compiled.array_payload import pack, unpack
from evaluator.compiled.table_cache import GROWN_MAGIC, grown_path, read_grown
from evaluator.compiled.tables import ensure_tables, load_tables
from evaluator.core import diskcache

pytestmark = pytest.mark.skipif(not diskcache.SUPPORTED, reason="needs O_NOFOLLOW and dir_fd support")
CARDS = 8  # standard builds to seven cards: eight is the first grown size


@pytest.fixture()
def folder(own_cache: Path) -> Path:
    return own_cache


def grown_in_memory(monkeypatch: pytest.MonkeyPatch) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """The eight-card tables grown with the disk cache off (the reference)."""
    with monkeypatch.context() as patch:
        patch.setenv("POKERRULES_TABLE_CACHE", "off")
        tables = load_tables(load("standard"), use_cache=False)
        ensure_tables(tables, CARDS)
        return tables.nf[CARDS], tables.fl[CARDS]


def must_not_grow(*_: object) -> None:
    raise AssertionError("grown again although a good file was cached")


def same(found: tuple[tuple[np.ndarray, np.ndarray], ...], expected: tuple[tuple[np.ndarray, np.ndarray], ...]) -> bool:
    return all(
        np.array_equal(a, b)
        for pair, other in zip(found, expected, strict=True)
        for a, b in zip(pair, other, strict=True)
    )


def test_grown_tables_are_written_then_read_instead_of_grown(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = grown_in_memory(monkeypatch)
    rs = load("standard")
    ensure_tables(load_tables(rs), CARDS)
    assert grown_path(rs, CARDS).is_file()
    monkeypatch.setattr(tables_module, "grow", must_not_grow)
    fresh = load_tables(rs)
    ensure_tables(fresh, CARDS)
    assert same((fresh.nf[CARDS], fresh.fl[CARDS]), expected)


def _rewrite(path: Path, key: bytes, spoil: str) -> None:
    """Re-sign the grown file with ``key`` after spoiling its arrays (or not)."""

    def spoilt(payload: bytes) -> bytes:
        arrays = dict(unpack(payload))
        if spoil == "unsorted":
            arrays["nf_keys"] = arrays["nf_keys"][::-1].copy()
        elif spoil == "values":
            arrays["nf_values"] = arrays["nf_values"] + 10**6
        return pack(arrays)

    resign(path, GROWN_MAGIC, key, spoilt)


@pytest.mark.parametrize(
    ("key", "spoil"),
    [("guess", "none"), ("real", "unsorted"), ("real", "values")],
    ids=["forged-signature", "keys-out-of-order", "values-out-of-range"],
)
def test_a_bad_grown_file_is_refused_and_grown_again(
    folder: Path, monkeypatch: pytest.MonkeyPatch, key: str, spoil: str
) -> None:
    expected = grown_in_memory(monkeypatch)
    rs = load("standard")
    ensure_tables(load_tables(rs), CARDS)
    path = grown_path(rs, CARDS)
    secret = (folder / diskcache.KEY_NAME).read_bytes() if key == "real" else b"a forger's guess at the key....."
    _rewrite(path, secret, spoil)
    fresh = load_tables(rs)
    assert read_grown(fresh, CARDS) is None
    ensure_tables(fresh, CARDS)
    assert same((fresh.nf[CARDS], fresh.fl[CARDS]), expected)
    assert read_grown(load_tables(rs), CARDS) is not None  # written again, and good


def test_the_control_a_file_resigned_unspoilt_is_read(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # without it the test above could pass because rewriting alone broke the file
    rs = load("standard")
    ensure_tables(load_tables(rs), CARDS)
    _rewrite(grown_path(rs, CARDS), (folder / diskcache.KEY_NAME).read_bytes(), "none")
    assert read_grown(load_tables(rs), CARDS) is not None


def test_the_cache_switch_turns_grown_files_off(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POKERRULES_TABLE_CACHE", "off")
    rs = load("standard")
    ensure_tables(load_tables(rs), CARDS)
    assert not grown_path(rs, CARDS).exists()
