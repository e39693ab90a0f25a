"""Judging pairs of parts both ways round at once is judging each way round alone.

The exact census judges a pair of parts once (:meth:`PartJudge.flips_both_ways`);
the reference is :meth:`PartJudge.flips` called each way round, whose flips are
checked against brute force in ``test_flips_exact``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_flips_exact import RULESETS

from evaluator import load
from evaluator.tools.diff import common_deck
from evaluator.tools.flips_hands import HandSpace, hand_space
from evaluator.tools.flips_judge import PartJudge

pytestmark = pytest.mark.usefixtures("table_cache")

Flip = tuple[int, int, int]  # the part A ranks higher (than B does), the other, the group key


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    found = tmp_path_factory.mktemp("judge-rulesets")
    for name, text in RULESETS.items():
        (found / f"{name}.yaml").write_text(f"name: {name}\n{text}", encoding="utf-8")
    return found


def one_way(judge: PartJudge, first: np.ndarray, second: np.ndarray) -> set[Flip]:
    a, b = judge.value_a, judge.value_b
    ii, jj, keys = judge.flips(first, second, (a[first], a[second], b[first], b[second]))
    return set(zip(first[ii].tolist(), second[jj].tolist(), keys.tolist(), strict=True))


@pytest.mark.parametrize(
    ("a_name", "b_name"),
    [
        ("small", "small-freak"),
        ("small-beats", "small-freak"),
        ("small-a5-queen", "small-27"),
        ("small-27", "small-a5"),
    ],
)
def test_both_ways_at_once_is_each_way_alone(folder: Path, a_name: str, b_name: str) -> None:
    a, b = load(folder / f"{a_name}.yaml"), load(folder / f"{b_name}.yaml")
    space = hand_space(a, b, common_deck(a, b))
    assert isinstance(space, HandSpace), space
    judge = PartJudge(space)
    parts = np.arange(space.parts)
    rng = np.random.default_rng(7)
    for _ in range(4):
        # rows and columns that overlap in part: a pair of parts both hold is judged once
        first = np.sort(rng.choice(parts, size=min(len(parts), 40), replace=False))
        second = np.sort(rng.choice(parts, size=min(len(parts), 60), replace=False))
        a_values, b_values = judge.value_a, judge.value_b
        values = (a_values[first], a_values[second], b_values[first], b_values[second])
        ii, jj, keys, back = judge.flips_both_ways(first, second, values, np.intersect1d(first, second))
        one, two = first[ii], second[jj]
        found = list(
            zip(np.where(back, two, one).tolist(), np.where(back, one, two).tolist(), keys.tolist(), strict=True)
        )
        assert len(found) == len(set(found))
        assert len({frozenset(flip[:2]) for flip in found}) == len(found)  # one flip per pair of parts
        assert set(found) == one_way(judge, first, second) | one_way(judge, second, first)
        assert found  # these rulesets flip some of the pairs drawn
