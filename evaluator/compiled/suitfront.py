"""A higher threshold in front of the per-call suit-class closure, for rulesets whose own is low.

The suit-class tables (``suittable.py``) use the largest threshold ``t`` that
values *every* hand by its reduced key. One rare hand can force ``t`` down:
freak-hands' straight flush house needs the two cards of a second suit, so
``t`` is 2, and every five-card hand (four suits) has a suit of two. Per call
that means sorting the keys of several suits for nearly every hand.

Most hands do not need it. A *front threshold* ``f > t``, high enough that one
suit at most can reach it in a hand of ``hand.size`` cards, keys a hand by its
rank key and the ranks of that one suit -- one sum, and for a reaching hand one
more pass over the cards. Grouping the table's rows by that coarser key shows
which keys still value their hands exactly; the others (freak-hands' straights)
are marked and fall back to the reduced key of ``t``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .suittable import ABSENT, SuitTable, card_counts, counter_bias

Rank = Callable[[Sequence[int]], int]


def suit_projections(layout: Any, codes: Sequence[int]) -> dict[int, Callable[[int], int]]:
    """Per suit counter's top bit: a code's value in that suit's sum (the code itself when it
    counts in the suit -- a wild card counts in every suit -- else 0); a code not of the
    deck raises KeyError. ``sum(map(projection, codes))`` sums one suit's cards."""
    return {
        layout.suit_flush_bit(s): {code: code if code & layout.suit_one(s) else 0 for code in codes}.__getitem__
        for s in range(layout.suits)
    }


def front_threshold(table: SuitTable, size: int) -> int | None:
    """The threshold above the table's that one suit at most can reach in a hand of ``size``
    natural cards (a hand whose wild cards lift two suits to it takes the table's own key).

    >>> [front_threshold(type("T", (), {"threshold": t})(), 5) for t in (1, 2, 4, 5)]
    [3, 3, 5, None]
    """
    front = max(table.threshold + 1, size // 2 + 1)
    return front if front <= size else None


def front_keys(
    table: SuitTable, layout: Any, size: int, front: int, field: int
) -> tuple[dict[int, int | None], dict[int, int | None]]:
    """The values of hands of ``size`` cards by rank key (no suit reaching ``front``) and by
    rank key plus the one reaching suit's rank key in its field; None where the key
    does not decide the value."""
    plain: dict[int, int | None] = {}
    keyed: dict[int, int | None] = {}
    mine = card_counts(layout, table.rank_keys) == size
    subs = table.suit_keys[mine]
    counts = card_counts(layout, subs.reshape(-1)).reshape(subs.shape)
    reaching = (subs != ABSENT) & (counts >= front)
    for rank_key, row, marks, value in zip(
        table.rank_keys[mine].tolist(), subs.tolist(), reaching.tolist(), table.values[mine].tolist(), strict=False
    ):
        held = [sub for sub, mark in zip(row, marks, strict=False) if mark]
        if len(held) > 1:
            continue  # wild cards lifting two suits: such a hand is never looked up here
        group, key = (keyed, rank_key + (held[0] << field)) if held else (plain, rank_key)
        if group.setdefault(key, value) != value:
            group[key] = None
    return plain, keyed


def front_rank(ranker: Any, table: SuitTable, field: int, behind: Rank) -> Rank:
    """``behind`` with the front threshold's lookups in front of it (``behind`` itself when
    the ruleset has no front threshold)."""
    layout = ranker.layout
    size = ranker.size
    front = front_threshold(table, size)
    if front is None:
        return behind
    shift = layout.shift
    plain, keyed = front_keys(table, layout, size, front, field)
    bias = counter_bias(layout, front)
    reach = layout.flush_bits
    picks = suit_projections(layout, ranker.code_list)
    high = -1 << shift  # a sum without its suit counters
    lift = field - shift

    def rank_front(codes: Sequence[int]) -> int:
        total = sum(codes, bias)
        # a bigger holding, two suits reaching or a code not of the deck: no key here
        try:
            if not total & reach:
                value = plain[total >> shift]
            else:
                value = keyed[(total >> shift) + ((sum(map(picks[total & reach], codes)) & high) << lift)]
        except KeyError:
            return behind(codes)
        return behind(codes) if value is None else value

    return rank_front
