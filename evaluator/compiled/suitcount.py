"""Counting the deals of rulesets whose patterns look at suits within the hand.

``counting.py`` counts by rank classes; ``flush(k)``, ``run(k, flush)`` and
``suits`` need the finer classes of :mod:`evaluator.compiled.suitclasses`. Each holding
class is played once through the generic evaluator and weighted by its number
of deals, so the counts are exact; that valuation is shared with ``check`` and the
suit tables, and cached (``suitvalue_cache.py``). :func:`suited_fills` is the
plain walk, kept as the reference the valuation is tested against. A deck small enough to rank every deal at
once (2,598,960 five-card deals of 52 cards) is counted on the compiled tables
instead, which value the same classes the same way and are built once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import numpy as np

from ..engine.evaluate import engine_for
from .counts import Counting, deal_count
from .every_hand import MAX_EVERY_HAND, all_combinations, rank_every
from .suitclasses import holdings, require_supported
from .suitvalue_cache import kept_values, suit_values
from .suitvalues import NO_HAND, SuitValues

if TYPE_CHECKING:
    from ..engine.fill import Fill
    from ..rules.ruleset import Rules


def count_suited(ruleset: Rules, cards: int, progress: Callable[[float], None] | None = None) -> Counting:
    """The exact :class:`~evaluator.compiled.counting.Counting` of every ``cards``-card deal.

    Raises:
        CardError: C105 when the deals cannot be enumerated by suit class (see
            :func:`evaluator.compiled.suitclasses.supported`).
    """
    require_supported(ruleset, cards)
    # a valuation at hand is the quickest; then every deal on the tables; else the walk
    valued = kept_values(ruleset, cards)
    if valued is None:
        on_tables = count_every_hand(ruleset, cards)
        if on_tables is not None:
            if progress is not None:
                progress(1.0)
            return on_tables
        valued = suit_values(ruleset, cards, progress)
    elif progress is not None:
        progress(1.0)
    raise_refused(ruleset, valued)
    names = ruleset.category_names
    played = valued.outcome >= 0
    unplayable = int(valued.weights[valued.outcome == NO_HAND].sum())
    # deals per outcome, then per category (int64 throughout: counts stay exact)
    per_outcome = np.zeros(len(valued.outcomes), dtype=np.int64)
    np.add.at(per_outcome, valued.outcome[played], valued.weights[played])
    totals = dict.fromkeys(names, 0)
    distinct: dict[str, set[object]] = {name: set() for name in names}
    for outcome, deals in zip(valued.outcomes, per_outcome.tolist(), strict=True):
        if deals:
            name = names[outcome.category]
            totals[name] += deals
            distinct[name].add((outcome.value, outcome.wilds if ruleset.natural_beats_wild else 0))
    sizes = {name: len(found) for name, found in distinct.items()}
    return Counting(ruleset.name, cards, deal_count(ruleset, cards), totals, sizes, unplayable, len(valued.outcome))


def raise_refused(ruleset: Rules, valued: SuitValues) -> None:
    """Raise what the evaluator raises for the first class it refuses (too many wild cards), if any."""
    first = valued.first_refused()
    if first < len(valued.outcome):
        engine = engine_for(ruleset)
        held = valued.holding(first)
        engine.best(held, engine.candidates(held))
        raise RuntimeError(f"internal error: {valued.refused}")


def suited_fills(
    ruleset: Rules, cards: int, progress: Callable[[float], None] | None = None
) -> Iterator[tuple[Fill | None, int]]:
    """Every ``cards``-card holding up to a renaming of suits, played through the generic
    evaluator: its best fill (None when nothing plays) and its number of deals.

    Raises:
        CardError: C105 when the deals cannot be enumerated by suit class.
    """
    require_supported(ruleset, cards)
    engine = engine_for(ruleset)
    seen = 0
    deals = deal_count(ruleset, cards)
    for valued, (held, weight) in enumerate(holdings(ruleset, cards), start=1):
        seen += weight
        if progress is not None and valued % 2048 == 0:
            progress(min(seen / deals, 0.99))
        yield engine.best(held, engine.candidates(held)), weight
    if seen != deals:
        raise RuntimeError(f"internal error: counted {seen} deals of {deals}")
    if progress is not None:
        progress(1.0)


def count_every_hand(ruleset: Rules, cards: int) -> Counting | None:
    """The same count from the compiled tables, every deal ranked at once (``rank_many``).

    The tables value every suit class through the generic evaluator when they
    are built, so a deal's table value names its category. Only for decks with
    at most :data:`~evaluator.compiled.every_hand.MAX_EVERY_HAND` deals, rulesets
    without a qualifier (a hand that does not qualify has no category in the
    tables) and rulesets ranked on vectorised tables; None otherwise.
    """
    deals = deal_count(ruleset, cards)
    if deals > MAX_EVERY_HAND or ruleset.qualifier is not None:
        return None
    from .fast import ruleset_ranker

    ranker = ruleset_ranker(ruleset)
    if ranker.mode == "generic":
        return None
    values = rank_every(ranker.rank_many, all_combinations(len(ruleset.deck), cards))
    playable = values >= 0
    dense = values[playable] // (ranker.suit_scale if ranker.mode == "suited" else 1)
    categories = ranker.tables.categories
    index = categories[dense]
    if (index < 0).any():
        return None
    names = ruleset.category_names
    counts = np.bincount(index, minlength=len(names))
    found = np.unique(dense)
    distinct = np.bincount(categories[found], minlength=len(names))
    return Counting(
        ruleset.name,
        cards,
        deals,
        {name: int(counts[i]) for i, name in enumerate(names)},
        {name: int(distinct[i]) for i, name in enumerate(names)},
        int((~playable).sum()),
        len(found),
    )
