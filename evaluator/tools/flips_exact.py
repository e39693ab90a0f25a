"""Exact flip counting over every pair of hands that can meet (see :mod:`evaluator.tools.flips`).

The hands of the common deck are ranked and sorted into parts
(:mod:`evaluator.tools.flips_hands`); each part is valued once per ruleset
(:mod:`evaluator.tools.flips_judge`). Pairs of parts of different rank
multisets are judged in blocks of rows with NumPy, each pair weighted by the
number of pairs of its hands that share no card
(:mod:`evaluator.tools.flips_meet`); pairs of hands of the same rank multiset,
where suits decide, are judged hand by hand (:mod:`evaluator.tools.flips_within`).
Every group keeps its strongest pair (by A's value of the first hand, then B's
of the second) as the example, dealt as two hands that share no card.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from ..compiled.deck_split import suit_sensitive
from .flip_types import CAUSES, COLUMNS_PER_JUDGING, ROWS_PER_BLOCK, FlipCensus, FlipGroup, FlipHand
from .flips_judge import PartJudge
from .flips_meet import MeetCounter
from .flips_sampled import verified_example
from .flips_within import within_flips

if TYPE_CHECKING:
    from ..ruleset import Ruleset
    from .flips_hands import HandSpace

IntArray = np.ndarray[Any, np.dtype[np.int64]]
Candidate = tuple[int, int, int, int]  # A's value of the first, B's of the second, then the two


def exact_census(a: Ruleset, b: Ruleset, judge: PartJudge) -> FlipCensus | None:
    """Count every flipping pair of hands that can meet, grouped by cause and categories.

    ``judge`` holds the hand space and its parts valued under both rulesets.
    None when the pairs cannot all be judged exactly (a rank multiset with too
    many hands to judge pairwise, too many exceptional parts); the caller then samples.
    """
    space = judge.space
    within = within_flips(space, judge)
    if within is None:
        return None
    meet = MeetCounter(space, not (suit_sensitive(a) or suit_sensitive(b)))
    if not meet.feasible:
        return None
    totals, across = _across(space, judge, meet)
    del meet  # (its tables are tens of megabytes: gone before the examples load the per-call tables)
    examples: dict[int, tuple[Candidate, bool]] = {key: (found, False) for key, found in across.items()}
    for key, count in within.counts.items():
        totals[key] += count
        candidate = within.examples[key]
        if key not in examples or candidate[:2] > examples[key][0][:2]:
            examples[key] = (candidate, True)
    keys = np.nonzero(totals)[0].tolist()
    by_part = _hands_by_part(space, [part for key in keys if not examples[key][1] for part in examples[key][0][2:]])
    groups = []
    for key in keys:
        cause, first, second, want_a, want_b = judge.describe_key(key)
        (_, _, i, j), of_hands = examples[key]
        pair = (i, j) if of_hands else _meeting_hands(space, by_part[i], by_part[j])
        example = verified_example(a, b, space.hand_cards(pair[0]), space.hand_cards(pair[1]), want_a, want_b)
        groups.append(_group(cause, first, second, int(round(totals[key])), example, want_a, want_b))
    groups.sort(key=lambda g: (CAUSES.index(g.cause), not g.reversed, -g.pairs, g.first, g.second))
    deck, size = len(space.deck), space.size
    population = math.comb(deck, size) * math.comb(deck - size, size) // 2
    return FlipCensus("exact", size, deck, population, 0, None, tuple(groups))


def _group(
    cause: str, first: str, second: str, pairs: int, example: tuple[FlipHand, FlipHand] | None, want_a: int, want_b: int
) -> FlipGroup:
    shown_a, shown_b = (want_a, want_b) if example is not None else (None, None)
    return FlipGroup(cause, first, second, pairs, None, None, example, shown_a, shown_b, want_a, want_b)


def _across(space: HandSpace, judge: PartJudge, meet: MeetCounter) -> tuple[np.ndarray, dict[int, Candidate]]:
    """Flips between parts of different rank multisets: totals per group key and the best pair of parts.

    A block's rows are judged against the parts of their classes and every later class only, both
    ways round at once: a pair of parts is judged once, not twice (see :meth:`Block.columns`).
    """
    totals = np.zeros(judge.key_count)
    best: dict[int, Candidate] = {}
    value_a, value_b = judge.value_a, judge.value_b
    span_b = int(value_b.max()) + 1  # a pair's score: A's value of the first, then B's of the second
    for block in meet.blocks(ROWS_PER_BLOCK):
        rows = block.rows(space.classes)
        row_a, row_b = value_a[rows], value_b[rows]
        weights = meet.weights(block)
        columns = block.columns(space.classes, space.parts)
        # a few thousand columns at a time: a block's flips with every later part can be millions
        for start in range(0, len(columns), COLUMNS_PER_JUDGING):
            chunk = columns[start : start + COLUMNS_PER_JUDGING]
            values = (row_a, value_a[chunk], row_b, value_b[chunk])
            ii, jj, keys, back = judge.flips_both_ways(rows, chunk, values, rows)  # rows: columns too
            one, two = rows[ii], chunk[jj]
            weight = weights.at(ii, two)
            keep = weight > 0  # pairs that can meet (never two hands of the same ranks: those are judged apart)
            first = np.where(back, two, one)[keep]  # the part A ranks higher
            second = np.where(back, one, two)[keep]
            _add_flips(totals, best, (first, second, keys[keep], weight[keep]), value_a, value_b, span_b)
    return totals, best


def _add_flips(
    totals: np.ndarray,
    best: dict[int, Candidate],
    flips: tuple[IntArray, IntArray, IntArray, np.ndarray],
    value_a: IntArray,
    value_b: IntArray,
    span_b: int,
) -> None:
    """Add flipping pairs of parts (first, second, group key, weight) to ``totals`` and keep the
    strongest of each group in ``best``: A's value of the first, then B's of the second (``span_b``:
    above every value of B)."""
    first, second, flipped, weights = flips
    if len(first) == 0:
        return
    totals += np.bincount(flipped, weights, minlength=len(totals))
    score = value_a[first] * span_b + value_b[second]
    top = np.full(len(totals), -1, dtype=np.int64)
    np.maximum.at(top, flipped, score)
    winners = np.flatnonzero(score == top[flipped])
    found, index = np.unique(flipped[winners], return_index=True)
    for group_key, pick in zip(found.tolist(), winners[index].tolist(), strict=True):
        one, two = int(first[pick]), int(second[pick])
        candidate = (int(value_a[one]), int(value_b[two]), one, two)
        if group_key not in best or candidate[:2] > best[group_key][:2]:
            best[group_key] = candidate


def _hands_by_part(space: HandSpace, parts: list[int]) -> dict[int, IntArray]:
    """The hands of each of ``parts``, found in one pass (not a sort of every hand by part)."""
    if not parts:
        return {}
    hands = np.flatnonzero(np.isin(space.part, parts))
    of_hand = space.part[hands]
    return {part: hands[of_hand == part] for part in set(parts)}


def _meeting_hands(space: HandSpace, firsts: IntArray, seconds: IntArray) -> tuple[int, int]:
    """A hand of ``firsts`` and one of ``seconds`` (the hands of two parts) that share no card (the
    weights say one exists)."""
    second_masks = space.masks(seconds)
    for hand, mask in zip(firsts.tolist(), space.masks(firsts).tolist(), strict=True):
        apart = (second_masks & mask) == 0
        if apart.any():
            return hand, int(seconds[int(np.argmax(apart))])
    raise RuntimeError("internal error: two parts counted as meeting share a card in every pair")
