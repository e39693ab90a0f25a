"""The per-hand table of a suit-class ruleset (``suitdirect.DirectTable``) is cached on
disk, signed like the tables, and anything wrong with such a file means building it again."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from signed_files import resign

from evaluator import load
from evaluator.compiled import suitdirect
from evaluator.compiled.array_payload import pack, unpack
from evaluator.compiled.fast import ruleset_ranker
from evaluator.compiled.table_cache import DIRECT_MAGIC, direct_path
from evaluator.core import diskcache

pytestmark = pytest.mark.skipif(not diskcache.SUPPORTED, reason="needs O_NOFOLLOW and dir_fd support")
NAME = "badugi"  # four cards of 52, two suited cards reach its threshold: a per-hand table pays


@pytest.fixture()
def folder(own_cache: Path) -> Path:
    return own_cache


def direct_values() -> dict[int, np.ndarray]:
    """The per-hand table's values as a first batch ranking of the process makes them: read from
    the cache when a good file is there, else built (and cached)."""
    ruleset = load(NAME)
    ruleset.rank_many(np.array([[0, 1, 2, 3]]))  # makes the batch ranker
    batch = ruleset_ranker(ruleset)._suit_batch
    assert batch is not None and batch.direct_wanted
    batch._direct = None  # as in a new process
    direct = batch.direct()
    assert direct is not None
    return direct.values


def built_in_memory(monkeypatch: pytest.MonkeyPatch) -> dict[int, np.ndarray]:
    """The reference: the table built with the disk cache off."""
    with monkeypatch.context() as patch:
        patch.setenv("POKERRULES_TABLE_CACHE", "off")
        return dict(direct_values())


def must_not_build(*_: object) -> None:
    raise AssertionError("built again although a good file was cached")


def same(found: dict[int, np.ndarray], expected: dict[int, np.ndarray]) -> bool:
    return set(found) == set(expected) and all(np.array_equal(found[k], expected[k]) for k in expected)


def test_the_per_hand_table_is_written_then_read_instead_of_built(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = built_in_memory(monkeypatch)
    assert set(expected) == {1, 2, 3, 4} and len(expected[4]) == 270_725  # every hand of 1 to 4 cards of 52
    assert same(direct_values(), expected)
    assert direct_path(load(NAME)).is_file()
    monkeypatch.setattr(suitdirect, "colex_combinations", must_not_build)
    assert same(direct_values(), expected)


def _rewrite(path: Path, key: bytes, spoil: str) -> None:
    """Re-sign the file with ``key`` after spoiling its arrays (or not)."""

    def spoilt(payload: bytes) -> bytes:
        arrays = dict(unpack(payload))
        if spoil == "short":
            arrays["values_4"] = arrays["values_4"][:-1].copy()
        elif spoil == "values":
            arrays["values_3"] = arrays["values_3"] + 10_000
        elif spoil == "missing":
            del arrays["values_2"]
        return pack(arrays)

    resign(path, DIRECT_MAGIC, key, spoilt)


@pytest.mark.parametrize(
    ("key", "spoil"),
    [("guess", "none"), ("real", "short"), ("real", "values"), ("real", "missing")],
    ids=["forged-signature", "a-hand-missing", "values-out-of-range", "a-size-missing"],
)
def test_a_bad_per_hand_file_is_refused_and_built_again(
    folder: Path, monkeypatch: pytest.MonkeyPatch, key: str, spoil: str
) -> None:
    expected = built_in_memory(monkeypatch)
    direct_values()
    path = direct_path(load(NAME))
    secret = (folder / diskcache.KEY_NAME).read_bytes() if key == "real" else b"a forger's guess at the key....."
    _rewrite(path, secret, spoil)
    built = []
    original = suitdirect.colex_combinations
    monkeypatch.setattr(suitdirect, "colex_combinations", lambda *args: built.append(args) or original(*args))
    assert same(direct_values(), expected)
    assert built, "the spoilt file was read"
    monkeypatch.setattr(suitdirect, "colex_combinations", must_not_build)
    assert same(direct_values(), expected)  # written again, and good


def test_the_control_a_file_resigned_unspoilt_is_read(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # without it the test above could pass because rewriting alone broke the file
    expected = direct_values()
    _rewrite(direct_path(load(NAME)), (folder / diskcache.KEY_NAME).read_bytes(), "none")
    monkeypatch.setattr(suitdirect, "colex_combinations", must_not_build)
    assert same(direct_values(), expected)


def test_the_cache_switch_turns_per_hand_files_off(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POKERRULES_TABLE_CACHE", "off")
    direct_values()
    assert not direct_path(load(NAME)).exists()
