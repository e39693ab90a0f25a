"""The tallies of card sets per part, made by one sort or by two, are the same."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluator.tools.flips_overlap import _tallied


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 40), st.integers(0, 6), st.integers(1, 9)), min_size=0, max_size=60),
)
def test_one_sort_and_two_sorts_tally_alike(entries: list[tuple[int, int, int]]) -> None:
    code = np.array([c for c, _, _ in entries], dtype=np.int64)
    part = np.array([p for _, p, _ in entries], dtype=np.int64)
    weight = np.array([w for _, _, w in entries], dtype=np.int64)
    for given_weight in (None, weight):
        one = _tallied(code, part, 7, True, given_weight)
        two = _tallied(code, part, 7, False, given_weight)
        for x, y in zip(one[:3], two[:3], strict=True):
            assert x.tolist() == y.tolist()
        # a first entry of each (code, part): the position of one entry that has them
        for found in (one, two):
            assert code[found[3]].tolist() == found[0].tolist()
            assert part[found[3]].tolist() == found[1].tolist()
        # and the counts are what a plain tally says
        expected: dict[tuple[int, int], int] = {}
        for c, p, w in entries:
            expected[(c, p)] = expected.get((c, p), 0) + (1 if given_weight is None else w)
        assert dict(zip(zip(one[0].tolist(), one[1].tolist(), strict=True), one[2].tolist(), strict=True)) == expected
