"""The candidate hands of ``diff`` from the parts of an exact flip census.

When the flip census counts exactly (:mod:`evaluator.tools.flips`), every hand
of the common deck has been sorted into parts -- the hands of one rank class
that play alike under both rulesets -- and each part valued under both. Those
parts are the candidate hands of the report, all of them: a part whose
category differs between the rulesets is a reclassified hand class; the parts
both rulesets put in one category are the representatives of that category,
of which the examples only need the strongest and weakest under B (those are
valued through the generic engine, to be shown and verified, when the examples
first ask for their category).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .diff_scan import EXAMPLE_TRIES, Representatives
from .diff_types import Scan

if TYPE_CHECKING:
    from ..ruleset import Ruleset
    from .flips_judge import PartJudge


def scan_parts(judge: PartJudge) -> Scan:
    """The :class:`Scan` of every part of the census's hand space.

    >>> from evaluator import load
    >>> from evaluator.tools.diff import common_deck
    >>> from evaluator.tools.flips import flip_census
    >>> a, b = load("standard"), load("four-flush")
    >>> _, parts = flip_census(a, b, common_deck(a, b))
    >>> count, cards = scan_parts(parts).moved[("high_card", "four_flush")]
    >>> count  # every rank set of five that is no straight has its four flushes
    1277
    """
    representatives = Representatives(judge.space.a.ruleset, judge.space.b.ruleset, judge.cards)
    scan = Scan(same=representatives)
    categories_a, categories_b = judge.side_a.categories, judge.side_b.categories
    by_pair: dict[tuple[str, str], list[int]] = {}
    for part, pair in enumerate(zip(categories_a, categories_b, strict=True)):
        by_pair.setdefault(pair, []).append(part)
    for (category_a, category_b), parts in by_pair.items():
        members = np.array(parts)
        strength = judge.value_b[members]
        if category_a != category_b:
            strongest = int(members[np.argmax(strength)])
            scan.moved[(category_a, category_b)] = (len(parts), judge.cards[strongest])
            continue
        order = members[np.argsort(strength, kind="stable")]
        ends = (
            order
            if len(order) <= 2 * EXAMPLE_TRIES
            else np.concatenate([order[:EXAMPLE_TRIES], order[-EXAMPLE_TRIES:]])
        )
        representatives.ends[category_a] = ends.tolist()
    return scan


def part_category_counts(judge: PartJudge, ruleset: Ruleset, cards: int) -> dict[str, int] | None:
    """How many ``cards``-card deals of ``ruleset``'s deck fall in each category, added up from the
    parts (each part's size under its category), or None when the census's hands are not those deals:
    another number of cards, or a common deck that is not ``ruleset``'s whole deck.

    >>> from evaluator import load
    >>> from evaluator.tools.diff import common_deck
    >>> from evaluator.tools.flips import flip_census
    >>> a, b = load("standard"), load("four-flush")
    >>> _, parts = flip_census(a, b, common_deck(a, b))
    >>> part_category_counts(parts, b, 5)["four_flush"]
    76620
    """
    space = judge.space
    if cards != space.size or len(ruleset.deck) != len(space.deck) or set(ruleset.deck) != set(space.deck):
        return None
    side = judge.side_a if ruleset is space.a.ruleset else judge.side_b if ruleset is space.b.ruleset else None
    if side is None:
        return None
    counts = dict.fromkeys(ruleset.category_names, 0)
    for category, size in zip(side.categories, space.part_size.tolist(), strict=True):
        counts[category] += size
    return counts
