"""The per-call rank closures of ``FastRanker.rank``, one builder per mode.

A ruleset's closure is put together once, when its ranker is built: the
direct lookup (plain, flush-capable, several packs past the code limit),
lowest-card wild in front of it, the suit tie-break around it (``suited.py``),
or the generic evaluator; then the card-usage and wild-card limits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Protocol

import numpy as np

from ..core.errors import CardError, error
from ..engine.evaluate import engine_for
from .card_ids import too_many_wilds
from .classgrid import NO_HAND, count_vectors
from .suited import SuitSource, suited_rank
from .suitkey import suit_rank
from .suittable import SUIT_MODE
from .table_layout import MAX_HOLDING, TableSource

if TYPE_CHECKING:
    pass

Rank = Callable[[Sequence[int]], int]


class RankSource(SuitSource, TableSource, Protocol):
    """What the per-call builders need of a ranker (``fast.FastRanker`` is one)."""

    @property
    def nf(self) -> dict[int, int]: ...
    @property
    def fl(self) -> dict[int, int]: ...
    @property
    def low(self) -> int: ...
    @property
    def mode(self) -> str: ...
    @property
    def constrained(self) -> bool: ...
    @property
    def aces_high(self) -> np.ndarray: ...

    def from_strength(self, strength: tuple[tuple[int, ...], ...]) -> int: ...


def make_rank(ranker: RankSource) -> tuple[Rank, Rank]:
    """The per-call closure of ``ranker``'s ruleset (the branches are decided here),
    and the same without the wild-card limit (for codes already checked)."""
    if ranker.mode == "generic":
        rank = generic_rank(ranker)
    elif ranker.mode == "suited":
        rank = suited_rank(ranker, direct_rank(ranker))
    elif ranker.mode == SUIT_MODE:
        rank = suit_rank(ranker)
    else:
        rank = direct_rank(ranker)
        if ranker.lowest:
            rank = lowest_rank(ranker, rank)
    if ranker.constrained:
        rank = no_best_of(ranker, rank)
    raw_rank = rank  # for codes already checked (subsets of a checked holding)
    limit = ranker.model.wild_limit
    if limit is not None and ranker.mode != "generic":
        rank = wild_limited(ranker, rank, limit)
    rank.__doc__ = (
        f"The strength of an encoded holding of {ranker.ruleset.name} (bigger wins; -1: no hand).\n\n"
        "``codes`` come from ``Ruleset.encode``; any number of cards from hand.min up."
    )
    return rank, raw_rank


def wild_limited(ranker: RankSource, rank: Rank, limit: int) -> Rank:
    """More wild cards than the evaluator fills: C105, as the generic evaluator says it."""
    wild = ranker.model.wild_code
    ruleset = ranker.ruleset

    def rank_limited(codes: Sequence[int]) -> int:
        if codes.count(wild) > limit:
            raise too_many_wilds(ruleset, len([c for c in codes if c == wild]))
        return rank(codes)

    return rank_limited


def direct_rank(ranker: RankSource) -> Rank:
    """The table lookup: one sum, one AND for the flush bits, one shift and one lookup."""
    layout = ranker.layout
    nf = ranker.nf
    fl = ranker.fl
    shift = layout.shift
    size = ranker.size
    limit = layout.limit
    tables = ranker.tables
    if not tables.flush_matters:
        # no class changes value when one-suited (ace-to-five, twenty-card): suits are ignored
        def rank_plain(codes: Sequence[int]) -> int:
            return nf[sum(codes) >> shift]

        rank: Rank = rank_plain
    else:
        bias = layout.bias
        flush_bits = layout.flush_bits
        keyed = ranker.model.suit_keyed
        suit_tests = [
            (layout.suit_flush_bit(s), layout.suit_one(s), (s << layout.key_bits) if keyed else 0)
            for s in range(layout.suits)
        ]
        dominant = tables.dominant

        def flushable(codes: Sequence[int], total: int) -> int:
            best = NO_HAND
            for bit, one, suit_key in suit_tests:
                if total & bit:
                    # the naturals of this suit and the wild cards (a wild adds to every suit)
                    value = fl[(sum([code for code in codes if code & one]) >> shift) + suit_key]
                    if value > best:
                        best = value
            if len(codes) > size:
                if dominant:
                    value = nf[total >> shift]
                    if value > best:
                        best = value
                else:
                    best = max(rank_flush(subset) for subset in combinations(codes, size))
            return best

        def rank_flush(codes: Sequence[int]) -> int:
            total = sum(codes, bias)
            if total & flush_bits:
                if len(codes) == size and not keyed:
                    # one hand: the suit that reached hand.size holds every natural
                    return fl[total >> shift]
                return flushable(codes, total)
            return nf[total >> shift]

        rank = rank_flush
    if limit < MAX_HOLDING:
        inner = rank

        def rank_wide(codes: Sequence[int]) -> int:
            # several packs: past `limit` cards a count field could overflow, so go by subsets
            if len(codes) > limit:
                return max(inner(subset) for subset in combinations(codes, size))
            return inner(codes)

        rank = rank_wide
    return rank


def subset_finder(ranker: RankSource) -> Callable[[Sequence[int], int], tuple[int, ...] | None] | None:
    """``find(codes, value)``: the first ``hand.size`` subset (positions, in
    ``itertools.combinations`` order) whose table value is ``value``, found by
    subtracting the left-out cards from the holding's sum; None for rulesets
    where a subset's value is more than one lookup (see ``FastHands.best_subset``)."""
    if ranker.mode != "direct" or ranker.lowest or ranker.model.suit_keyed:
        return None
    layout = ranker.layout
    nf, fl = ranker.nf, ranker.fl
    shift, bias, flush_bits = layout.shift, layout.bias, layout.flush_bits
    size = ranker.size
    flush_matters = ranker.tables.flush_matters
    limit = layout.limit
    plans: dict[int, list[tuple[tuple[int, ...], tuple[int, ...]]]] = {}
    pairs: dict[int, list[tuple[tuple[int, ...], int, int]]] = {}

    def find(codes: Sequence[int], value: int) -> tuple[int, ...] | None:
        k = len(codes)
        if k > limit:
            return None
        plan = plans.get(k)
        if plan is None:
            every = set(range(k))
            plan = plans[k] = [(kept, tuple(sorted(every - set(kept)))) for kept in combinations(range(k), size)]
            if k == size + 2:  # seven of five: two cards left out, the common case unrolled
                pairs[k] = [(kept, left_out[0], left_out[1]) for kept, left_out in plan]
        total = sum(codes, bias)
        two = pairs.get(k)
        if two is not None:
            for kept, a, b in two:
                part = total - codes[a] - codes[b]
                if (fl[part >> shift] if flush_matters and part & flush_bits else nf[part >> shift]) == value:
                    return kept
            return None
        for kept, left_out in plan:
            part = total
            for i in left_out:
                part -= codes[i]
            found = fl[part >> shift] if flush_matters and part & flush_bits else nf[part >> shift]
            if found == value:
                return kept
        return None

    return find


def lowest_rank(ranker: RankSource, direct: Rank) -> Rank:
    """Lowest-card wild: the lowest natural rank held turns wild first."""
    codes = ranker.table_codes
    aces_high = ranker.aces_high.tolist()
    high_of = {code: rank for code, rank in zip(codes, aces_high, strict=False)}
    never = len(ranker.ruleset.deck_ranks) + 1
    wild = ranker.model.wild_code

    def rank_lowest(held: Sequence[int]) -> int:
        lowest = min([high_of[code] for code in held])
        if lowest == never:
            return direct(held)
        return direct([wild if high_of[code] == lowest else code for code in held])

    return rank_lowest


def generic_rank(ranker: RankSource) -> Rank:
    """What the tables cannot see goes through the generic evaluator, then is numbered."""
    deck = ranker.model.cards
    engine = engine_for(ranker.ruleset)
    from_strength = ranker.from_strength
    low = ranker.low
    name = ranker.ruleset.name

    def rank_generic(held: Sequence[int]) -> int:
        cards = [deck[i] for i in held]
        if len(cards) < low:
            raise error(CardError, "C104", f"{len(cards)} cards given; {name} needs at least {low}", "<cards>")
        fill = engine.best(cards, engine.candidates(cards))
        return from_strength(fill.strength) if fill is not None else NO_HAND

    return rank_generic


def no_best_of(ranker: RankSource, rank: Rank) -> Rank:
    """Card-usage rules (``game:``): more than one hand of cards is C105, not "the best of"."""
    size = ranker.size
    name = ranker.ruleset.name

    def rank_one_hand(held: Sequence[int]) -> int:
        if len(held) > size:
            raise error(
                CardError,
                "C105",
                f"{len(held)} cards given; {name} has card-usage rules (game:), so rank() takes one hand of at most {size}",
                "<cards>",
                hint="use Ruleset.showdown for hole and board cards",
            )
        return rank(held)

    return rank_one_hand


def class_value(ranker: RankSource, counts: Sequence[int], flush_counts: Sequence[int]) -> int:
    """The value of a holding class: rank counts, and the counts of its flush suit."""
    layout = ranker.layout
    nf, fl = ranker.nf, ranker.fl
    key = sum(c * layout.place(d) for d, c in enumerate(counts))
    flush_key = sum(c * layout.place(d) for d, c in enumerate(flush_counts))
    if ranker.tables.dominant:
        return max(nf[key], fl[flush_key])
    best = NO_HAND
    size = ranker.size
    for sub in count_vectors(counts, size).tolist():
        support = [d for d, c in enumerate(sub) if c]
        sub_key = sum(c * layout.place(d) for d, c in enumerate(sub))
        one_suited = all(sub[d] <= flush_counts[d] for d in support)
        forced = one_suited and all(counts[d] == flush_counts[d] for d in support)
        if not forced:
            best = max(best, nf[sub_key])
        if one_suited:
            best = max(best, fl[sub_key])
    return best
