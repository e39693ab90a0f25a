"""The per-call closure of the suit-class tables (``CardModel.mode == "suitclass"``).

The tables themselves -- the threshold, the reduced keys, the plain tables --
are built in ``suittable.py``; the batch form is ``suitbatch.py``. Per call, a
hand's codes are summed once with a bias that sets a suit counter's top bit
when the suit (a wild card counting in every suit) reaches the threshold: no
bit set is one lookup on the rank key; otherwise the rank keys of the suits
that reach it, sorted, complete the key. A holding above ``hand.size`` cards
starts from its plain value when reaching the threshold never hurts, and ranks
only the subsets that keep a suit at the threshold. When the deck is small
enough (``suitdirect.py``), a hand of at most ``hand.size`` cards is one sum and
one dict lookup on a per-hand table, in front of all this.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from ..core.errors import CardError, error
from .card_ids import not_codes
from .suitdirect import COUNT_SHIFT, PER_CALL_HANDS, per_call_table, worth_direct
from .suitfront import front_rank, suit_projections
from .suittable import ABSENT, SuitTable, card_counts, counter_bias, counter_ceilings, reaching_never_hurts

Rank = Callable[[Sequence[int]], int]


def python_key(rank_key: int, subs: Sequence[int], field: int) -> int:
    """The reduced key as one Python integer: the rank key, then each suit key in its own field.

    A suit key is never 0 (every card counting in a suit adds to it), so the
    fields need no marker for a present suit.

    >>> python_key(5, [3, 1], 4)
    309
    """
    key = rank_key
    step = field
    for sub in subs:
        key += sub << step
        step += field
    return key


def suit_rank(ranker: Any) -> Rank:
    """The per-call closure: one sum and one AND for hands no suit of which reaches the threshold."""
    table: SuitTable = ranker.tables.suit_table
    layout = ranker.layout
    shift = layout.shift
    size = ranker.size
    low = ranker.low
    name = ranker.ruleset.name
    threshold = table.threshold
    bias = counter_bias(layout, threshold)
    reach = layout.flush_bits
    field = max(layout.key_bits + 1, layout.shift)  # at least the shift: a suit's sum lifts into place
    tests = [(layout.suit_flush_bit(s), layout.suit_one(s)) for s in range(layout.suits)]
    plain_items: dict[int, int] = {}
    # the reduced keys by holding size, so a hand of hand.size cards looks in a small dict
    counts = card_counts(layout, table.rank_keys).tolist()
    keyed: list[dict[int, int]] = [{} for _ in range(max(counts, default=0) + 1)]
    for rank_key, subs, value, count in zip(
        table.rank_keys.tolist(), table.suit_keys.tolist(), table.values.tolist(), counts, strict=False
    ):
        held = [sub for sub in subs if sub != ABSENT]
        if held:
            keyed[count][python_key(rank_key, held, field)] = value
        else:
            plain_items[rank_key] = value
    for keys, values in table.plain.values():
        plain_items.update(zip(keys.tolist(), values.tolist(), strict=False))
    plain: dict[int, int] = ranker.grown(plain_items, max(table.plain))
    dominant = reaching_never_hurts(table, layout, size)

    def missing(codes: Sequence[int]) -> int:
        if len(codes) < low:
            raise error(CardError, "C104", f"{len(codes)} cards given; {name} needs at least {low}", "<cards>")
        raise error(CardError, "C102", not_codes(name), "<cards>")

    wilds = min(ranker.model.wild_cap, size) if layout.has_wild_digit else 0
    # at most one suit of a hand of hand.size cards reaches the threshold (a wild card counts in every suit)?
    single = 2 * threshold > size + wilds

    def bigger(codes: Sequence[int], total: int) -> int:
        # more than hand.size cards, some suit reaching the threshold
        if not dominant or not single:
            # every subset, each through the fastest per-call path (the front, a per-hand table)
            return max(map(outer, combinations(codes, size)))
        # the plain value is a floor (reaching never hurts): only the subsets that
        # keep a suit at the threshold can beat it
        best = plain[total >> shift]
        for bit, one in tests:
            if total & bit:
                inside = [code for code in codes if code & one]
                outside = [code for code in codes if not code & one]
                for kept in range(threshold, min(len(inside), size) + 1):
                    # only this suit reaches the threshold in a subset: its key is the kept cards' ranks
                    rests = [sum(rest) for rest in combinations(outside, size - kept)]
                    for some in combinations(inside, kept):
                        suited = sum(some)
                        suit_key = (suited >> shift) << field
                        for rest in rests:
                            found = keyed[size].get(((suited + rest) >> shift) + suit_key)
                            if found is None:  # codes not of the deck
                                return max(map(outer, combinations(codes, size)))
                            if found > best:
                                best = found
        return best

    def several(codes: Sequence[int], total: int) -> int:
        # hand.size cards or fewer, any number of suits reaching the threshold
        subs = [sum([code for code in codes if code & one]) >> shift for bit, one in tests if total & bit]
        subs.sort(reverse=True)
        key = total >> shift
        step = field
        for sub in subs:  # python_key, inlined
            key += sub << step
            step += field
        value = keyed[len(codes)].get(key)
        return missing(codes) if value is None else value

    if single:
        # per suit counter bit: the projection that keeps that suit's cards (a wild card counts in every suit)
        picks = suit_projections(layout, ranker.code_list)
        high = -1 << shift  # a sum without its suit counters
        lift = field - shift
        # by a reaching suit's counter: what a subset reaching it can be worth above its plain value
        ceilings = counter_ceilings(table, layout, size)
        counter_at = {bit: layout.suit_bits * s for s, (bit, _) in enumerate(tests)}
        counter = (1 << layout.suit_bits) - 1

        # at most one suit of a hand reaches the threshold (a wild card counts in every
        # suit): its rank key is the only suit key
        def rank_suits(codes: Sequence[int]) -> int:
            total = sum(codes, bias)
            if not total & reach:
                return plain[total >> shift]
            pick = picks.get(total & reach)
            if pick is not None:
                if dominant and len(codes) > size:
                    # the plain value answers when no subset reaching the suit can beat it
                    value = plain[total >> shift]
                    if value >= ceilings[(total >> counter_at[total & reach]) & counter]:
                        return value
                try:
                    return keyed[len(codes)][(total >> shift) + ((sum(map(pick, codes)) & high) << lift)]
                except (KeyError, IndexError):
                    pass  # codes not of the deck, or a holding without grown keys
            return bigger(codes, total) if len(codes) > size else missing(codes)

    else:

        def rank_suits(codes: Sequence[int]) -> int:
            total = sum(codes, bias)
            if not total & reach:
                return plain[total >> shift]
            if len(codes) > size:
                return bigger(codes, total)
            return several(codes, total)

    ranked = rank_suits if single else front_rank(ranker, table, field, rank_suits)
    direct = ranker.direct_table() if worth_direct(ranker, PER_CALL_HANDS) else None
    if direct is None or len(ranker.code_list) > COUNT_SHIFT:
        outer = ranked
        return outer
    by_hand, bits = per_call_table(direct, ranker.code_list)
    bit_of = bits.__getitem__
    find = by_hand.get

    def rank_hand(codes: Sequence[int]) -> int:
        # a code not in the deck, a repeated card or a bigger holding: the reduced key says
        try:
            value = find(sum(map(bit_of, codes)))
        except KeyError:
            return ranked(codes)
        return ranked(codes) if value is None else value

    outer = rank_hand
    return outer
