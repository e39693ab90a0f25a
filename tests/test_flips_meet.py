"""The census's weights of pairs of whole classes read from a grid are the ones read pair by pair.

Where most pairs of a stretch of classes flip (a lowball ruleset against a high
one), :class:`BlockWeights` reads them from a grid of the stretch
(:meth:`MeetCounter.class_grid`) instead of pair by pair
(:meth:`MeetCounter.class_pairs`, whose figures ``test_flips_exact`` checks
against brute force).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_flips_exact import census_groups
from test_flips_judge import folder  # noqa: F401 (the small rulesets' folder, a fixture)

from evaluator import load
from evaluator.tools import flips_meet
from evaluator.tools.diff_basis import common_deck
from evaluator.tools.flips import census
from evaluator.tools.flips_hands import HandSpace, hand_space
from evaluator.tools.flips_meet import MeetCounter

pytestmark = pytest.mark.usefixtures("table_cache")

PAIRS = [("small", "small-27"), ("small-a5-queen", "small-27"), ("small", "small-freak"), ("small-bridge", "small-a5")]


def space_of(a_path: Path | str, b_path: Path | str) -> HandSpace:
    a, b = load(a_path), load(b_path)
    space = hand_space(a, b, common_deck(a, b))
    assert isinstance(space, HandSpace), space
    return space


@pytest.mark.parametrize(("a_name", "b_name"), PAIRS)
def test_a_grid_of_classes_is_their_pairs_one_by_one(folder: Path, a_name: str, b_name: str) -> None:
    space = space_of(folder / f"{a_name}.yaml", folder / f"{b_name}.yaml")
    meet = MeetCounter(space, True)
    for block in meet.blocks(7):  # small blocks: several of them, each against the later classes
        multisets = meet.class_multiset[block.start : block.stop]
        free = meet.free_rows(int(multisets[0]), int(multisets[-1]) + 1)
        rows, columns = np.arange(block.start, block.stop), np.arange(block.start, space.classes)
        grid = meet.class_grid(rows, columns, free)
        one, two = np.repeat(rows, len(columns)), np.tile(columns, len(rows))
        assert grid.shape == (len(rows), len(columns))
        assert np.array_equal(grid.reshape(-1), meet.class_pairs(one, two, free))


def test_a_grid_of_a_full_deck_block_is_its_pairs_one_by_one() -> None:
    space = space_of("standard", "deuce-to-seven")
    meet = MeetCounter(space, True)
    block = meet.blocks(64)[40]
    multisets = meet.class_multiset[block.start : block.stop]
    free = meet.free_rows(int(multisets[0]), int(multisets[-1]) + 1)
    rows, columns = np.arange(block.start, block.stop), np.arange(block.start, min(space.classes, block.start + 900))
    one, two = np.repeat(rows, len(columns)), np.tile(columns, len(rows))
    assert np.array_equal(meet.class_grid(rows, columns, free).reshape(-1), meet.class_pairs(one, two, free))


@pytest.mark.parametrize(("a_name", "b_name"), PAIRS)
def test_the_census_is_the_same_from_grids_or_pair_by_pair(
    folder: Path, a_name: str, b_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = load(folder / f"{a_name}.yaml"), load(folder / f"{b_name}.yaml")
    found = []
    for share in (0, 10**9):  # never a grid; a grid wherever a block asks for pairs of classes
        monkeypatch.setattr(flips_meet, "GRID_SHARE", share)
        result = census(a, b, common_deck(a, b))
        assert result.method == "exact"
        found.append((census_groups(result), [(g.example, g.pairs) for g in result.groups]))
    assert found[0] == found[1]
    assert found[0][0]  # some flips were counted
