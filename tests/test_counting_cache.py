"""The category counts kept on disk (``compiled/counting_cache.py``): read back equal, refused when they do not fit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluator import load
from evaluator.compiled import counting
from evaluator.compiled.counting_cache import MAGIC, cache_path, read_counting, write_counting
from evaluator.core import diskcache

pytestmark = pytest.mark.skipif(not diskcache.SUPPORTED, reason="needs O_NOFOLLOW and dir_fd support")


def forget_counts() -> None:
    counting._RESULTS.clear()


def test_counts_are_read_back_instead_of_counted_again(own_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rs = load("deuces-wild")
    forget_counts()
    counted = counting.count(rs)
    assert cache_path(rs, 5).exists()
    forget_counts()

    def never(*args: object) -> None:
        raise AssertionError("counted again")

    monkeypatch.setattr(counting._Counter, "run", never)
    monkeypatch.setattr(counting, "_table_counting", never)
    seen: list[float] = []
    assert counting.count(rs, 5, seen.append) == counted and seen == [1.0]
    assert counted.counts["five_of_a_kind"] == 672  # the published deuces-wild table


def test_a_ruleset_of_the_same_rules_under_another_name_reads_the_counts_as_its_own(own_cache: Path) -> None:
    folder = own_cache / "rules"
    folder.mkdir()
    (folder / "mine.yaml").write_text("name: mine\nextends: standard\ntitle: my standard\n", encoding="utf-8")
    forget_counts()
    expected = counting.count(load("standard"))
    mine = load(folder / "mine.yaml")
    assert cache_path(mine, 5).name.startswith("mine-")  # its own file, the same hash
    found = read_counting(mine, 5) or counting.count(mine)
    assert found.ruleset == "mine" and found.counts == expected.counts


def _rewrite(path: Path, data: dict[str, object]) -> None:
    """Sign ``data`` as the payload of ``path`` with the user's key (a file the key vouches for)."""
    blob = path.read_bytes()
    length = int.from_bytes(blob[8:12], "little")
    header = json.loads(blob[12 : 12 + length])
    header.pop("hmac")
    header.pop("length", None)
    assert diskcache.write_file(path, MAGIC, header, json.dumps(data).encode())


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["counts"].update(pair=d["counts"]["pair"] + 1),  # one deal too many
        lambda d: d["counts"].pop("pair"),  # a category missing
        lambda d: d.update(counts=dict(reversed(list(d["counts"].items())))),  # another order
        lambda d: d["distinct"].update(pair=-1),
        lambda d: d.update(unplayable="0"),
        lambda d: d.pop("classes"),
    ],
    ids=["too-many", "missing", "order", "negative", "text", "no-classes"],
)
def test_counts_that_do_not_fit_the_ruleset_are_counted_again(own_cache: Path, change: object) -> None:
    rs = load("standard")
    forget_counts()
    good = counting.count(rs)
    path = cache_path(rs, 5)
    data = json.loads(bytes(diskcache.read_file(path, MAGIC, {"cards": 5}) or b"{}"))
    assert data
    change(data)  # type: ignore[operator]
    _rewrite(path, data)
    assert read_counting(rs, 5) is None
    forget_counts()
    assert counting.count(rs) == good and read_counting(rs, 5) == good  # counted and written again


def test_a_flipped_byte_is_refused(own_cache: Path) -> None:
    rs = load("standard")
    forget_counts()
    counting.count(rs)
    path = cache_path(rs, 5)
    blob = bytearray(path.read_bytes())
    blob[-5] ^= 0x01
    path.write_bytes(bytes(blob))
    assert read_counting(rs, 5) is None


def test_nothing_is_written_with_the_cache_off(own_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POKERRULES_TABLE_CACHE", "off")
    rs = load("short-deck")
    forget_counts()
    assert counting.count(rs).deals == 376_992
    assert not cache_path(rs, 5).exists() and not write_counting(rs, counting.count(rs))
