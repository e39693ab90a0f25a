"""Coverage: every hand class a ruleset can deal, and the category it lands in.

See :mod:`evaluator.tools.check` for how hand classes are enumerated and
why the work is estimated (and limited) first. What an enumeration finds is
kept in memory for the rest of the run and on disk for the next ones
(:mod:`evaluator.tools.coverage_cache`).
"""

from __future__ import annotations

import json
from collections import Counter
from math import comb, factorial
from typing import TYPE_CHECKING

import numpy as np

from ..compiled.build_cost import count_multisets
from ..compiled.suitclasses import class_count, supported
from ..compiled.suitvalue_cache import suit_values
from ..compiled.suitvalues import NO_HAND, SuitValues
from ..core.errors import PokerRulesError
from ..engine import evaluate
from ..rules.cards import Card
from .coverage_cache import Analysis, Hole, read_analysis, write_analysis
from .lint_hands import _HandSpace

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..rules.patterns import HandClass
    from ..ruleset import Ruleset


# The enumeration budget, in units of about 2.5 microseconds: classifying a
# class costs CLASS_COST units, trying one way to fill a hand's wild cards one
# unit. A 5-card ruleset of 52 cards needs about 150,000 units, deuces wild
# about 580,000, a 7-card hand about 1.2 million; the limit bounds the check
# of one file to a few seconds whatever the file says. Checking reachability
# afterwards has a budget of its own (MAX_REASON_WORK, in pattern matches).
CLASS_COST = 12
MAX_COVERAGE_WORK = 1_500_000
MAX_REASON_WORK = 400_000
# Suit classes (flush(k), run(k, flush), suits): five cards of 52 are 134,459
# classes, checked in seconds; a wild joker more with long patterns (freak-hands,
# 33 million units) takes the better part of a minute, the most a check takes on
MAX_SUITED_COVERAGE_WORK = 40_000_000
# Analyses of identical rules are shared between the files of one run (the
# suit tie-break variants of a catalogue classify alike, and sit side by side in
# a folder's order). A few are kept, the least recently used going first: an
# analysis holds every hand class of its rules (tens of megabytes for suit classes).
_ANALYSIS_CACHE_SIZE = 6
# Hand classes tried for a category's example hand before giving up on it.
_EXAMPLE_TRIES = 64


_ANALYSES: dict[str, Analysis] = {}


class _Coverage(_HandSpace):
    """Enumerate the hand classes of one built ruleset, within a work limit."""

    def _fingerprint(self) -> str:
        """The merged data that can decide where a hand lands, as one comparable text.

        Left out: what only names, documents or tests the rules, what orders hands
        within a category (descriptions, the suit tie-break) and what applies only
        between hands (beats, games). The suit order is kept when it can matter: it
        picks the suit of an all-wild flush, which only `suit =` patterns see.
        """
        data = {
            key: value
            for key, value in self.ruleset.data.items()
            if key not in ("name", "title", "source", "examples", "extends", "$schema", "beats", "game", "suits")
        }
        categories = data.get("categories")
        if isinstance(categories, dict):
            data["categories"] = {
                name: {k: v for k, v in spec.items() if k != "describe"} if isinstance(spec, dict) else spec
                for name, spec in categories.items()
            }
        if self.uses_wilds and self.engine.flush_needs_suit:
            data["suits"] = self.ruleset.suit_order
        # an analysis cut short by a lower limit must not be reused under a higher one
        data["limits"] = [
            MAX_COVERAGE_WORK,
            MAX_REASON_WORK,
            MAX_SUITED_COVERAGE_WORK,
            CLASS_COST,
            evaluate.MAX_WILD_CHOICES,
        ]
        return json.dumps(data, sort_keys=True, default=str)

    def _analysis(self) -> Analysis:
        key = self._fingerprint()
        cached = _ANALYSES.pop(key, None)
        if cached is not None:
            _ANALYSES[key] = cached  # the most recently used is the last one out
            return cached
        suited = self.engine.by_suit_class
        analysis = read_analysis(key, self.ruleset, self.sizes, self._work_limit(), lazy=suited)
        if analysis is not None:
            if suited:
                analysis.landed_later = lambda: self._landed_suited(self._suit_valuations()[0])
        else:
            work = self._estimate()
            analysis = Analysis(work, work <= self._work_limit())
            if analysis.complete:
                self._enumerate(analysis)
                write_analysis(key, analysis, self.ruleset)
        if len(_ANALYSES) >= _ANALYSIS_CACHE_SIZE:
            _ANALYSES.pop(next(iter(_ANALYSES)))
        _ANALYSES[key] = analysis
        return analysis

    def _estimate(self) -> int:
        """The work enumeration would take, computed without enumerating."""
        if self.engine.by_suit_class:
            return self._estimate_suited()
        variants = 1 + len(self.flush_suits)
        ranks = len(self.symbols)
        work = 0
        for k in self.sizes:
            for w in range(0, min(k, len(self.wild_cards)) + 1):
                classes = count_multisets(k - w, self.caps) * (variants if k == self.size else 1)
                per_class = (CLASS_COST if w == 0 else CLASS_COST + 2 * comb(ranks + w - 1, w)) * self.factor
                work += classes * per_class
                if work > MAX_COVERAGE_WORK:
                    return work  # enough to know; the rest need not be counted
        return work

    def _estimate_suited(self) -> int:
        """The work of enumerating suit classes (patterns that look at suits within the hand)."""
        if any(supported(self.ruleset, k) is not None for k in self.sizes):
            return MAX_SUITED_COVERAGE_WORK + 1
        work = 0
        for k in self.sizes:
            for w in range(0, min(k, len(self.wild_cards)) + 1):
                # a hand of wild cards tries every concrete card for them
                per_class = CLASS_COST * comb(len(self.symbols) * len(self.ruleset.suits) + w - 1, w)
                # about one class per renaming of the suits: hands / suits!
                work += class_count(self.ruleset, k - w) // factorial(len(self.ruleset.suits)) * per_class * self.factor
        return work

    def _enumerate(self, analysis: Analysis) -> None:
        if self.engine.by_suit_class:
            self._enumerate_suited(analysis)
            return
        if not self.uses_wilds:
            self._enumerate_natural(analysis)
        else:
            self._enumerate_wild(analysis)

    def _record(
        self, analysis: Analysis, size: int, hand_class: HandClass | None, name: str | None, example: Sequence[Card]
    ) -> None:
        """Note where one class landed (``name``), or that it is a hole (``name`` None)."""
        if name is None:
            for hole in analysis.holes:
                if hole.size == size:
                    hole.count += 1
                    return
            analysis.holes.append(Hole(size, tuple(example)))
            return
        analysis.reached.add(name)
        if hand_class is not None:
            analysis.known.setdefault(hand_class, name)

    def _enumerate_natural(self, analysis: Analysis) -> None:
        """No wild cards: classify every rank multiset, with and without a flush."""
        classify = self.engine.classify
        several_suits = len(self.ruleset.suits) >= 2
        for k in self.sizes:
            full = k == self.size
            for combo in self._multisets(k):
                # Cheap tests of which suit patterns can be dealt; cards are made only for a hole.
                options: list[str | None] = []
                if not full or (several_suits and k >= 2):
                    options.append(None)
                if full and (self.copies >= k or max(Counter(combo).values()) <= self.copies):
                    options += self.flush_suits
                for suit in options:
                    classification = classify(combo, suit)
                    if classification is None:
                        self._record(analysis, k, None, None, self._representative(combo, suit, mixed=full) or [])
                    else:
                        self._record(analysis, k, classification.hand_class, classification.category.name, ())

    def _enumerate_wild(self, analysis: Analysis) -> None:
        """Wild cards: play a real hand of each class through the evaluator's fill."""
        engine = self.engine
        for k in self.sizes:
            for w in range(0, min(k, len(self.wild_cards)) + 1):
                wilds = self.wild_cards[:w]
                for combo in self._multisets(k - w):
                    for suit, naturals in self._variants(combo, k):
                        if not wilds and not self.wild.lowest_rank:
                            # no wild card held: fill would classify the naturals as they are
                            chosen = engine.classify(combo, suit if k == self.size else None)
                        else:
                            cards = [*naturals, *wilds]
                            try:
                                fill = engine.fill(cards, engine.wild_mask(cards))
                            except PokerRulesError as problem:
                                # an evaluator limit (too many wild cards to fill): such hands
                                # cannot be ranked at all, so coverage cannot be decided
                                analysis.complete, analysis.refused = False, problem.first.message
                                return
                            chosen = fill.classification if fill is not None else None
                        if chosen is None:
                            self._record(analysis, k, None, None, [*naturals, *wilds])
                        else:
                            self._record(analysis, k, chosen.hand_class, chosen.category.name, ())

    def _enumerate_suited(self, analysis: Analysis) -> None:
        """flush(k), run(k, flush), suits: where each suit class lands, from the valuation
        shared with the counter and the tables (``suitvalue_cache.py``)."""
        names = self.ruleset.category_names
        sized, refused = self._suit_valuations()
        for valued, stop in sized:
            outcome = valued.outcome[:stop]
            holes = np.flatnonzero(outcome == NO_HAND)
            if len(holes):
                analysis.holes.append(Hole(valued.cards, tuple(valued.holding(int(holes[0]))), len(holes)))
            categories = {valued.outcomes[o].category for o in np.unique(outcome[outcome >= 0]).tolist()}
            analysis.reached.update(names[c] for c in categories)
        if refused is not None:
            analysis.complete, analysis.refused = False, refused
        analysis.landed_later = lambda: self._landed_suited(sized)

    def _suit_valuations(self) -> tuple[list[tuple[SuitValues, int]], str | None]:
        """The valuation of each hand size with how many of its classes were valued, up to
        the first size the evaluator refused a hand of; and why it refused (None: it did not)."""
        sized = []
        for k in self.sizes:
            valued = suit_values(self.ruleset, k)
            stop = valued.first_refused()
            sized.append((valued, stop))
            if stop < len(valued.outcome):
                return sized, valued.refused
        return sized, None

    def _landed_suited(self, sized: list[tuple[SuitValues, int]]) -> dict[HandClass, str]:
        """The hand class each suit class lands as (asked only when a category is unreachable
        or a definition unused): the generic evaluator again, class by class."""
        engine = self.engine
        landed: dict[HandClass, str] = {}
        for valued, stop in sized:
            for index in np.flatnonzero(valued.outcome[:stop] >= 0).tolist():
                cards = valued.holding(index)
                fill = engine.best(cards, engine.candidates(cards))
                if fill is not None:
                    landed.setdefault(fill.classification.hand_class, fill.classification.category.name)
        return landed

    def _work_limit(self) -> int:
        """The most work the enumeration may take for this ruleset."""
        return MAX_SUITED_COVERAGE_WORK if self.engine.by_suit_class else MAX_COVERAGE_WORK


def category_examples(ruleset: Ruleset, source: str) -> dict[str, str]:
    """A real hand of each category hands can land in: the highest of its hand classes.

    Read from the coverage analysis (shared with ``check``, so free after a
    check of the same rules); empty when coverage cannot be enumerated within
    its work limit.
    """
    from .lint_hands import _HandSpace

    class _Examples(_Coverage, _HandSpace):
        pass

    space = _Examples(ruleset, source)
    analysis = space._analysis()
    if not analysis.complete:
        return {}
    classes: dict[str, list[HandClass]] = {}
    for hand_class, name in analysis.landed.items():
        classes.setdefault(name, []).append(hand_class)
    found = {}
    for name, members in classes.items():
        # the strongest-looking hands first (K-Q-J-T-9 before A-5-4-3-2); a class of
        # wild ranks no natural cards can show is passed over
        members.sort(key=lambda c: (sum(c.ranks), sorted(c.ranks, reverse=True)), reverse=True)
        for hand_class in members[:_EXAMPLE_TRIES]:
            example = _real_example(space, hand_class, name)
            if example is not None:
                found[name] = example
                break
    return found


def _real_example(space: _Coverage, hand_class: HandClass, name: str) -> str | None:
    """Real cards of ``hand_class`` that the evaluator ranks as ``name``, wild cards standing in
    for the last cards when natural ones cannot (five of a kind from one pack), or None."""
    if not all(value < len(space.caps) and space.caps[value] for value in hand_class.ranks):
        return None
    combo, suit = hand_class.ranks, hand_class.flush_suit
    natural = (space._representative(combo, suit) if suit else None) or space._representative(combo, None)
    if natural is None:
        return None
    for wilds in range(len(space.wild_cards) + 1):
        cards = natural[: len(natural) - wilds] + space.wild_cards[:wilds]
        if len(set(map(str, cards))) < len(cards) and space.copies == 1:
            continue
        try:
            hand = space.engine.evaluate(cards)
        except PokerRulesError:
            continue
        if hand.category == name:
            return " ".join(str(card) for card in cards)
    return None
