"""Strategy lists kept in the disk cache: the search runs once per game and line limit;
a kept order gives the same list with its figures worked out again, and a file that is
forged or does not fit the game is refused and the list searched again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from signed_files import resign
from test_strategy import SMALL_RULESET, small_table

from evaluator.core import diskcache
from evaluator.draw import strategy
from evaluator.draw.paytable import load_paytable
from evaluator.draw.strategy_cache import MAGIC, cache_file

pytestmark = pytest.mark.skipif(not diskcache.SUPPORTED, reason="needs O_NOFOLLOW and dir_fd support")
PAYS = "{royal_flush: 40, straight_flush: 20, four_of_a_kind: 25, full_house: 9, flush: 6, straight: 4, three_of_a_kind: 3, two_pair: 2, jacks_or_better: 1}"


@pytest.fixture()
def folder(own_cache: Path) -> Path:
    return own_cache


def no_search(*_: object, **__: object) -> Any:
    raise AssertionError("searched again although a good list was kept")


def searches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the searches (calls of the improving step) from now on."""
    calls: list[int] = []
    improve = strategy.improve

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return improve(*args, **kwargs)

    monkeypatch.setattr(strategy, "improve", counted)
    return calls


def with_orders(change: Any) -> Any:
    """A payload change: the kept orders passed through ``change``."""

    def changed(payload: bytes) -> bytes:
        data = json.loads(payload)
        data["orders"] = change(data["orders"])
        return json.dumps(data).encode()

    return changed


@pytest.mark.parametrize("lines", [None, 3])
def test_a_kept_list_is_read_not_searched_and_is_the_same(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lines: int | None
) -> None:
    table = load_paytable(small_table(tmp_path, SMALL_RULESET, PAYS))
    first = strategy.build_strategy(table, lines)
    assert cache_file(table, lines).is_file()
    monkeypatch.setattr(strategy, "improve", no_search)
    again = strategy.build_strategy(load_paytable(small_table(tmp_path, SMALL_RULESET, PAYS)), lines)
    assert again.to_json() == first.to_json()


@pytest.mark.parametrize("spoil", ["forged", "atom-out-of-range", "no-lines", "control"])
def test_a_bad_kept_list_is_refused_and_searched_again(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spoil: str
) -> None:
    table = load_paytable(small_table(tmp_path, SMALL_RULESET, PAYS))
    first = strategy.build_strategy(table, None).to_json()
    real = (folder / diskcache.KEY_NAME).read_bytes()
    path = cache_file(table, None)
    if spoil == "forged":
        resign(path, MAGIC, b"a forger's guess at the key.....")
    elif spoil == "atom-out-of-range":
        resign(path, MAGIC, real, with_orders(lambda orders: [[w, [[10**6], *order]] for w, order in orders]))
    elif spoil == "no-lines":
        resign(path, MAGIC, real, with_orders(lambda orders: [[w, []] for w, _ in orders]))
    else:
        resign(path, MAGIC, real)  # rewritten as it was: still read (the spoilt ones fail for their spoil)
    calls = searches(monkeypatch)
    assert strategy.build_strategy(table, None).to_json() == first
    assert bool(calls) == (spoil != "control")
