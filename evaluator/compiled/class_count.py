"""Exact deal counts per category from the compiled tables, without dealing.

A one-pack deck without wild cards deals each rank-count class of ``cards``
cards in a number of ways that depends only on how its ranks are split among
suits; the tables give the value of every class and of its one-suited
subsets, so the count per value is a sum over classes (see
:func:`count_values_fast`). :mod:`evaluator.compiled.counting` uses it where it
applies and checks it against the number of deals.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING, Any

from .classgrid import NO_HAND
from .fast import ruleset_ranker
from .table_layout import Layout
from .tables import ensure_tables, tables_for

if TYPE_CHECKING:
    from ..rules.ruleset import Rules


def count_categories_fast(ruleset: Rules, cards: int = 7) -> dict[str, int]:
    """How many ``cards``-card deals of the deck fall in each category (exact).

    The deals per category of :func:`count_values_fast`.

    >>> from evaluator import load
    >>> count_categories_fast(load("standard"), 5)["straight_flush"]
    36
    """
    tables = tables_for(ruleset)
    out = {category.name: 0 for category in ruleset.categories}
    for value, ways in count_values_fast(ruleset, cards).items():
        name = tables.category_of(value) if value >= 0 else None
        if name is not None:
            out[name] += ways
    return out


def count_values_fast(
    ruleset: Rules, cards: int = 7, progress: Callable[[float], None] | None = None
) -> dict[int, int]:
    """How many ``cards``-card deals of the deck have each dense value (exact).

    Every rank multiset of ``cards`` cards is weighted by the ways to give its
    cards suits, split by the ranks the flush suit holds (a suit with at least
    ``hand.size`` cards); the tables value each such class, so no deal is
    visited. Handles one-pack decks without wild cards or a qualifier, and
    fewer than ``2 * hand.size`` cards (so at most one suit can reach a flush);
    anything else raises ``NotImplementedError`` -- ``counting.count`` handles
    every ruleset.

    >>> from evaluator import load
    >>> len(count_values_fast(load("standard"), 5))
    7462
    """
    tables = tables_for(ruleset)
    model = tables.model
    size = ruleset.hand_size
    if (
        model.layout.has_wild_digit
        or ruleset.copies != 1
        or model.mode in ("generic", "suitclass")
        or ruleset.qualifier is not None
        or model.suit_sensitive
    ):
        raise NotImplementedError(
            "count_categories_fast handles one-pack decks without wild cards, a qualifier or a suit named in a pattern"
        )
    if not max(ruleset.hand_min, 1) <= cards < 2 * size:
        raise NotImplementedError(f"count_categories_fast counts from hand.min to {2 * size - 1} cards")
    ranker = ruleset_ranker(ruleset)
    ensure_tables(tables, cards)
    suits = len(ruleset.suits)
    layout = model.layout
    places = [layout.place(d) for d in range(layout.digits)]
    flush_table = ranker.fl
    dominant = tables.dominant
    inside_ways = [comb(suits - 1, c - 1) if c else 0 for c in range(suits + 1)]
    outside_ways = [comb(suits - 1, c) for c in range(suits + 1)]
    every_way = [comb(suits, c) for c in range(suits + 1)]
    keys, values = tables.nf[cards]
    totals: dict[int, int] = {}
    subsets = _SubsetsOf(layout, size)
    step = max(1, len(keys) // 200)
    for number, (key, plain_value) in enumerate(zip(keys.tolist(), values.tolist(), strict=False)):
        if progress is not None and number % step == 0:
            progress(number / len(keys))
        row = layout.decode(key)
        present = [d for d, c in enumerate(row) if c]
        ways_all = 1
        for d in present:
            ways_all *= every_way[row[d]]
        flushed = 0
        if len(present) >= size:
            for held in range(size, len(present) + 1):
                for chosen in combinations(present, held):
                    # one suit holds exactly the chosen ranks; the other cards avoid it
                    ways = suits
                    for d in present:
                        ways *= inside_ways[row[d]] if d in chosen else outside_ways[row[d]]
                    if not ways:
                        continue
                    if dominant:
                        value = max(plain_value, flush_table[sum(places[d] for d in chosen)])
                    else:
                        value = _best_subset(subsets(row), row, chosen, ranker.nf, flush_table)
                    totals[value] = totals.get(value, 0) + ways
                    flushed += ways
        if ways_all > flushed:
            totals[plain_value] = totals.get(plain_value, 0) + ways_all - flushed
    return totals


class _SubsetsOf:
    """The ``size``-card sub-multisets of a count vector, as (key, {digit: count})."""

    def __init__(self, layout: Layout, size: int) -> None:
        self.places = [layout.place(d) for d in range(layout.digits)]
        self.size = size
        self.last: tuple[list[int], list[tuple[int, dict[int, int]]]] | None = None

    def __call__(self, row: list[int]) -> list[tuple[int, dict[int, int]]]:
        if self.last is not None and self.last[0] is row:
            return self.last[1]
        out: list[tuple[int, dict[int, int]]] = []
        digits = [d for d, c in enumerate(row) if c]

        def walk(i: int, left: int, key: int, taken: dict[int, int]) -> None:
            if left == 0:
                out.append((key, dict(taken)))
                return
            if i == len(digits):
                return
            d = digits[i]
            for c in range(min(row[d], left), -1, -1):
                if c:
                    taken[d] = c
                walk(i + 1, left - c, key + c * self.places[d], taken)
                taken.pop(d, None)

        walk(0, self.size, 0, {})
        self.last = (row, out)
        return out


def _best_subset(
    subsets: list[tuple[int, dict[int, int]]], row: list[int], chosen: tuple[int, ...], plain: Any, flush: Any
) -> int:
    """The best subset of a one-pack class whose flush suit holds the ranks ``chosen``
    (rulesets where a flush can hurt: each subset is valued as it can be realised)."""
    best = NO_HAND
    for key, taken in subsets:
        one_suited = all(d in chosen and c == 1 for d, c in taken.items())
        # every way of taking these ranks is one-suited when all their cards are in the flush suit
        forced = one_suited and all(row[d] == 1 for d in taken)
        if not forced:
            best = max(best, plain[key])
        if one_suited:
            best = max(best, flush[key])
    return best
