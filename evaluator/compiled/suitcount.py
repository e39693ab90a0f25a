"""Counting the deals of rulesets whose patterns look at suits within the hand.

``counting.py`` counts by rank classes; ``flush(k)``, ``run(k, flush)`` and
``suits`` need the finer classes of :mod:`evaluator.compiled.suitclasses`. Each holding
class is played once through the generic evaluator and weighted by its number
of deals, so the counts are exact.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core.errors import CardError, error
from ..engine.evaluate import engine_for
from .counts import Counting, deal_count
from .suitclasses import holdings, supported

if TYPE_CHECKING:
    from ..rules.ruleset import Rules


def count_suited(ruleset: Rules, cards: int, progress: Callable[[float], None] | None = None) -> Counting:
    """The exact :class:`~evaluator.compiled.counting.Counting` of every ``cards``-card deal.

    Raises:
        CardError: C105 when the deals cannot be enumerated by suit class (see
            :func:`evaluator.compiled.suitclasses.supported`).
    """

    why = supported(ruleset, cards)
    if why is not None:
        raise error(CardError, "C105", f"{ruleset.name}: {cards}-card deals cannot be counted: {why}", "<stats>")
    engine = engine_for(ruleset)
    names = ruleset.category_names
    totals = dict.fromkeys(names, 0)
    distinct: dict[str, set[object]] = {name: set() for name in names}
    unplayable = seen = valued = 0
    deals = deal_count(ruleset, cards)
    for held, weight in holdings(ruleset, cards):
        seen += weight
        valued += 1
        if progress is not None and valued % 2048 == 0:
            progress(min(seen / deals, 0.99))
        fill = engine.best(held, engine.candidates(held))
        if fill is None:
            unplayable += weight
            continue
        classification = fill.classification
        name = classification.category.name
        totals[name] += weight
        distinct[name].add((classification.value, fill.wild_count if ruleset.natural_beats_wild else 0))
    if seen != deals:
        raise RuntimeError(f"internal error: counted {seen} deals of {deals}")
    if progress is not None:
        progress(1.0)
    sizes = {name: len(found) for name, found in distinct.items()}
    return Counting(ruleset.name, cards, deals, totals, sizes, unplayable, valued)
