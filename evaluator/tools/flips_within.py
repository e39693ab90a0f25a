"""Flips between two hands of the same ranks, counted hand by hand (see :mod:`evaluator.tools.flips`).

Two hands of one rank multiset differ only in their suits: a four flush
against the plain hand of the same ranks, or two hands that a suit tie-break
orders. Such pairs are judged hand against hand, with each ruleset's whole
value (its suit tie-break included), among the pairs that share no card.

The hands of a rank multiset are listed by position (its ranks high to low)
and, per position, the suits held. Multisets of the same shape (the same
counts per position) whose hands judge alike position by position -- the same
order of values under each ruleset, the same categories -- give the same
flips, so each such *signature* is judged once and counted once per multiset
that has it. Standard against suits-bridge has a few dozen signatures for
6,175 rank multisets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .flips_hands import HandSpace, Values
    from .flips_judge import PartJudge

IntArray = np.ndarray[Any, np.dtype[np.int64]]

MAX_SAME_RANKS = 4096  # hands of one rank multiset judged pairwise
HANDS_PER_SLICE = 1 << 18  # hands of the multisets looked at, filed under their signatures at once


@dataclass
class WithinFlips:
    """Flipping pairs of hands of the same ranks: counts per group key and one example pair each.

    ``examples`` maps a group key to (A's value of the first hand, B's of the
    second, first hand, second hand), hand numbers of the hand space.
    """

    counts: dict[int, int] = field(default_factory=dict)
    examples: dict[int, tuple[int, int, int, int]] = field(default_factory=dict)


def _grouped(group: Values, values: IntArray) -> IntArray:
    """One number per hand ordering hands by group, then by value within it (the group, which the
    hand space may keep in 32 bits, is widened before it is multiplied)."""
    shifted = values - values.min()
    key: IntArray = group.astype(np.int64) * (int(shifted.max()) + 1) + shifted
    return key


def _local_dense(group: Values, values: IntArray) -> IntArray:
    """Dense ranks of ``values`` within each group of hands listed group by group (0 is the lowest)."""
    key = _grouped(group, values)
    order = np.argsort(key, kind="stable")
    new_group = np.ones(len(order), dtype=bool)
    new_group[1:] = group[order][1:] != group[order][:-1]
    new_value = new_group.copy()
    new_value[1:] |= key[order][1:] != key[order][:-1]
    running = np.cumsum(new_value) - 1
    start = np.maximum.accumulate(np.where(new_group, running, 0))
    result = np.empty(len(order), dtype=np.int64)
    result[order] = running - start
    return result


def _disagreeing(group: Values, level_a: IntArray, level_b: IntArray, groups: int) -> np.ndarray:
    """Per group: True when the two levels order its members differently (ties included)."""
    order = np.argsort(_grouped(group, level_a), kind="stable")
    same = group[order][1:] == group[order][:-1]
    step_a = np.sign(np.diff(level_a[order]))
    step_b = np.sign(np.diff(level_b[order]))
    wrong = same & (step_a != step_b)  # within a run of equal A levels, B must not move either
    found = np.zeros(groups, dtype=bool)
    found[group[order][1:][wrong]] = True
    return found


def position_codes(space: HandSpace, hands: IntArray) -> IntArray:
    """Per hand of ``hands``: the suits held at each position (its ranks high to low), one bit per suit.

    Two hands of one rank multiset share no card exactly when their codes share no bit.
    """
    cards = space.cards[hands]
    codes = np.zeros(len(hands), dtype=np.int64)
    position = np.zeros(len(hands), dtype=np.int64)
    for column in range(space.size - 1, -1, -1):  # ranks high to low
        rank, suit = cards[:, column] // space.suits, (cards[:, column] % space.suits).astype(np.int64)
        if column < space.size - 1:
            position += rank != cards[:, column + 1] // space.suits
        codes |= np.int64(1) << (position * space.suits + suit)
    return codes


def within_flips(space: HandSpace, judge: PartJudge) -> WithinFlips | None:
    """Every flipping pair of hands of the same rank multiset, counted; None when a multiset has too many hands."""
    sizes = np.bincount(space.multiset)
    if sizes.max() > MAX_SAME_RANKS:
        return None
    if judge.side_a.has_beats or judge.side_b.has_beats:
        looked_at = np.ones(len(sizes), dtype=bool)
    elif space.a.tiebreak or space.b.tiebreak:  # hands both rulesets order alike cannot flip
        level_a = np.where(judge.side_a.qualifies[space.part], space.a.full, -1)  # (hands that do not
        level_b = np.where(judge.side_b.qualifies[space.part], space.b.full, -1)  # qualify all tie)
        looked_at = _disagreeing(space.multiset, level_a, level_b, len(sizes))
    else:  # the same on parts: without a suit tie-break every hand of a part has its values
        level_a = np.where(judge.side_a.qualifies, judge.value_a, -1)
        level_b = np.where(judge.side_b.qualifies, judge.value_b, -1)
        looked_at = _disagreeing(judge.multiset, level_a, level_b, len(sizes))
    found = WithinFlips()
    if not looked_at.any():
        return found
    # the hands of the multisets looked at, multiset by multiset, each listed by position; a
    # slice of whole multisets at a time (a million hands at once took a hundred megabytes)
    chosen = np.flatnonzero(looked_at[space.multiset])
    chosen = chosen[np.argsort(space.multiset[chosen], kind="stable")]
    features = judge.features()
    by_signature: dict[bytes, Signature] = {}
    for piece in _whole_multisets(space.multiset[chosen], HANDS_PER_SLICE):
        _signatures(space, judge, features, chosen[piece], by_signature)
    for signature in by_signature.values():
        _judge_signature(space, judge, signature, found)
    return found


@dataclass
class Signature:
    """The multisets whose hands judge alike position by position: the first one's hands, position
    codes and value columns, and every member's hands (position by position)."""

    hands: IntArray
    codes: IntArray
    columns: tuple[np.ndarray, ...]
    members: list[IntArray] = field(default_factory=list)


def _whole_multisets(multiset: Values, size: int) -> list[slice]:
    """Slices of about ``size`` hands of ``multiset`` (sorted) that never cut a multiset in two."""
    bounds = np.flatnonzero(np.diff(multiset)) + 1
    pieces, start = [], 0
    for cut in np.searchsorted(bounds, np.arange(size, len(multiset), size)).tolist():
        stop = int(bounds[cut]) if cut < len(bounds) else len(multiset)
        if stop > start:
            pieces.append(slice(start, stop))
            start = stop
    if start < len(multiset):
        pieces.append(slice(start, len(multiset)))
    return pieces


def _signatures(
    space: HandSpace, judge: PartJudge, features: IntArray, chosen: IntArray, by_signature: dict[bytes, Signature]
) -> None:
    """File the multisets of ``chosen`` (whole multisets, sorted) under their signatures."""
    codes = position_codes(space, chosen)
    multiset = space.multiset[chosen]
    order = np.lexsort((codes, multiset))
    chosen, codes, multiset = chosen[order], codes[order], multiset[order]
    full_a, full_b = (_local_dense(multiset, side.full[chosen]).astype(np.int32) for side in (space.a, space.b))
    # without a suit tie-break the plain values are the full ones
    plain_a, plain_b = (
        _local_dense(multiset, side.plain[chosen]).astype(np.int32) if side.tiebreak else full
        for side, full in ((space.a, full_a), (space.b, full_b))
    )
    columns = (full_a, full_b, plain_a, plain_b, features[space.part[chosen]].astype(np.int32))
    bounds = np.flatnonzero(np.diff(multiset)) + 1
    starts = np.concatenate([[0], bounds, [len(chosen)]])
    for lo, hi in zip(starts[:-1].tolist(), starts[1:].tolist(), strict=True):
        shape = tuple(int(c) for c in space.counts[multiset[lo]][::-1] if c)
        signature = repr(shape).encode() + b"".join(column[lo:hi].tobytes() for column in columns)
        if signature not in by_signature:
            by_signature[signature] = Signature(
                chosen[lo:hi].copy(), codes[lo:hi].copy(), tuple(column[lo:hi].copy() for column in columns)
            )
        by_signature[signature].members.append(chosen[lo:hi].copy())


def _judge_signature(space: HandSpace, judge: PartJudge, signature: Signature, found: WithinFlips) -> None:
    """Judge the pairs of one signature (on its first multiset) and count them once per member."""
    hands = signature.hands
    parts = space.part[hands].astype(np.int64)
    full_a, full_b, plain_a, plain_b = (column.astype(np.int64) for column in signature.columns[:4])
    suit_tie = np.zeros((len(hands), len(hands)), dtype=bool)
    if judge.tiebreak_a:
        suit_tie |= plain_a[:, None] == plain_a[None, :]
    if judge.tiebreak_b:
        suit_tie |= plain_b[:, None] == plain_b[None, :]
    code = signature.codes
    apart = (code[:, None] & code[None, :]) == 0  # the two hands share no card
    first, second, keys = judge.flips(parts, parts, (full_a, full_a, full_b, full_b), apart, suit_tie)
    if len(first) == 0:
        return
    present, counts = np.unique(keys, return_counts=True)
    member_hands = np.stack(signature.members)  # position i of every member
    for group_key, count in zip(present.tolist(), counts.tolist(), strict=True):
        found.counts[group_key] = found.counts.get(group_key, 0) + count * len(signature.members)
        pick = int(np.flatnonzero(keys == group_key)[0])
        i, j = first[pick], second[pick]
        # the member whose first hand is strongest under A makes the example
        scores = space.a.plain[member_hands[:, i]]
        best = int(np.argmax(scores))
        candidate = (
            int(scores[best]),
            int(space.b.plain[member_hands[best, j]]),
            int(member_hands[best, i]),
            int(member_hands[best, j]),
        )
        if group_key not in found.examples or candidate[:2] > found.examples[group_key][:2]:
            found.examples[group_key] = candidate
