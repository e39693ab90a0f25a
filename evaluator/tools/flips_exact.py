"""Exact flip counting over hand classes (see :mod:`evaluator.tools.flips`).

Every class of the common deck is valued once under each ruleset; the pairs of
classes are judged in blocks of rows with NumPy: the outcome under each ruleset
(value order, then ``beats:`` exceptions between qualifying hands), the flips
(A says the first wins, B the second), their cause, and their weight (the
product of the two classes' hand counts).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine.showdown import hand_matches
from ..rules.cards import Card
from .diff_basis import hand_or_none
from .flip_types import CAUSES, ROWS_PER_BLOCK, FlipCensus, FlipGroup
from .flips_sampled import (
    disjoint_variants,
    flip_array_values,
    flip_label,
    sampled_census,
    verified_example,
)

if TYPE_CHECKING:
    from ..engine.hand import Hand
    from ..ruleset import Ruleset

IntArray = np.ndarray[Any, np.dtype[np.int64]]
BoolArray = np.ndarray[Any, np.dtype[np.bool_]]
KINDS = 3
OUTCOMES = ((1, -1), (1, 0), (0, -1))  # (A, B) of a kind


class _Side:
    """One ruleset's view of every class: values, qualifying, categories, beats: matches."""

    def __init__(self, ruleset: Ruleset, hands: Sequence[Hand]) -> None:
        self.ruleset = ruleset
        self.values: IntArray = flip_array_values([hand.strength[:3] for hand in hands])
        self.qualifies: BoolArray = np.array([hand.qualifies for hand in hands], dtype=bool)
        beats = ruleset.beats
        self.winner = np.array(
            [[hand_matches(x.winner.matcher, h) for x in beats] for h in hands], dtype=np.int64
        ).reshape(len(hands), len(beats))
        self.loser = np.array(
            [[hand_matches(x.loser.matcher, h) for x in beats] for h in hands], dtype=np.int64
        ).reshape(len(hands), len(beats))

    def outcomes(self, rows: slice) -> tuple[IntArray, IntArray]:
        """(outcome, exception) of every pair (row class first): 1 first wins, -1 second wins, 0 tie."""
        outcome = np.sign(self.values[rows, None] - self.values[None, :])
        exception = np.zeros_like(outcome)
        if self.winner.shape[1]:
            first = (self.winner[rows] @ self.loser.T) > 0
            second = (self.loser[rows] @ self.winner.T) > 0
            both = self.qualifies[rows, None] & self.qualifies[None, :]
            exception = np.where(both, first.astype(np.int64) - second.astype(np.int64), 0)
            outcome = np.where(exception != 0, exception, outcome)
        return outcome, exception


def exact_census(
    a: Ruleset, b: Ruleset, deck: Sequence[Card], size: int, classes: Sequence[tuple[tuple[Card, ...], int]]
) -> FlipCensus:
    """Count every flipping pair of hands exactly, by class pairs, grouped by cause and categories."""
    cards = [hand for hand, _ in classes]
    hands_a = [hand_or_none(a, hand) for hand in cards]
    hands_b = [hand_or_none(b, hand) for hand in cards]
    if any(h is None for h in hands_a) or any(h is None for h in hands_b):
        return sampled_census(a, b, deck, size, 20_000, 2026)
    ha: list[Hand] = [h for h in hands_a if h is not None]
    hb: list[Hand] = [h for h in hands_b if h is not None]
    weights = np.array([weight for _, weight in classes], dtype=np.float64)
    side_a, side_b = _Side(a, ha), _Side(b, hb)
    labels = [flip_label(x.category, y.category) for x, y in zip(ha, hb, strict=True)]
    label_names = sorted(set(labels))
    label_id = np.array([label_names.index(name) for name in labels], dtype=np.int64)
    names_a = sorted({h.category for h in ha})
    category_a = np.array([names_a.index(h.category) for h in ha], dtype=np.int64)
    moved = np.array([x.category != y.category for x, y in zip(ha, hb, strict=True)], dtype=bool)
    qualifier_differs = side_a.qualifies != side_b.qualifies
    ace = np.array([any(card.rank == "A" for card in hand) for hand in cards], dtype=bool)
    ace_differs = a.ace != b.ace
    groups = len(label_names)
    size_keys = len(CAUSES) * KINDS * groups * groups
    totals = np.zeros(size_keys, dtype=np.float64)
    best: dict[int, tuple[int, int, int, int]] = {}  # key -> (value in A of first, value in B of second, i, j)
    n = len(cards)
    for start in range(0, n, ROWS_PER_BLOCK):
        rows = slice(start, min(n, start + ROWS_PER_BLOCK))
        outcome_a, exception_a = side_a.outcomes(rows)
        outcome_b, exception_b = side_b.outcomes(rows)
        flip = outcome_a > outcome_b  # A ranks the row hand higher than B does: a win lost, or a tie
        # with a suit tie-break, equal classes are never a tie: suits decide, which a class cannot say
        if a.tiebreak != "none":
            flip &= outcome_a != 0
        if b.tiebreak != "none":
            flip &= outcome_b != 0
        if not flip.any():
            continue
        cause = np.select(
            [
                (exception_a != 0) | (exception_b != 0),
                qualifier_differs[rows, None] | qualifier_differs[None, :],
                moved[rows, None] | moved[None, :],
                category_a[rows, None] != category_a[None, :],
                np.broadcast_to(np.bool_(ace_differs), flip.shape) & (ace[rows, None] | ace[None, :]),
            ],
            [CAUSES.index(c) for c in ("beats", "qualifier", "category_membership", "category_order", "ace_rule")],
            default=CAUSES.index("rank_order"),
        )
        kind = (outcome_a == 0) * 2 + (outcome_b == 0)  # 0: reversed, 1: a win becomes a tie, 2: a tie becomes a loss
        keys = ((cause * KINDS + kind) * groups + label_id[rows, None]) * groups + label_id[None, :]
        ii, jj = np.nonzero(flip)
        ii += start
        flipped_keys = keys[flip]
        totals += np.bincount(flipped_keys, weights[ii] * weights[jj], minlength=size_keys)
        score_a, score_b = side_a.values[ii], side_b.values[jj]
        order = np.lexsort((-score_b, -score_a, flipped_keys))
        firsts = np.ones(len(order), dtype=bool)
        firsts[1:] = flipped_keys[order][1:] != flipped_keys[order][:-1]
        for index in order[firsts]:
            key = int(flipped_keys[index])
            candidate = (int(score_a[index]), int(score_b[index]), int(ii[index]), int(jj[index]))
            if key not in best or candidate[:2] > best[key][:2]:
                best[key] = candidate
    result = []
    for found in np.nonzero(totals)[0].tolist():
        code, rest = divmod(found, groups * groups)
        cause_index, kind = divmod(code, KINDS)
        want_a, want_b = OUTCOMES[kind]
        first_label, second_label = divmod(rest, groups)
        _, _, i, j = best[found]
        example = None
        for first, second in disjoint_variants(cards[i], cards[j], deck):
            example = verified_example(a, b, first, second, want_a, want_b)
            if example is not None:
                break
        result.append(
            FlipGroup(
                CAUSES[cause_index],
                label_names[first_label],
                label_names[second_label],
                int(round(totals[found])),
                None,
                None,
                example,
                want_a if example else None,
                want_b if example else None,
                want_a,
                want_b,
            )
        )
    result.sort(key=lambda g: (CAUSES.index(g.cause), not g.reversed, -g.pairs, g.first, g.second))
    total = float(weights.sum())
    population = int(total) * (int(total) - 1) // 2
    return FlipCensus("exact", size, len(deck), population, 0, None, tuple(result))
