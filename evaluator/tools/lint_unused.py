"""``W101``: categories a file defines but leaves out of ``order``, that real hands match."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.errors import Diagnostic, PokerRulesError
from .coverage_cache import Analysis
from .lint_coverage import MAX_REASON_WORK, _Coverage
from .lint_place import diagnostic

if TYPE_CHECKING:
    from ..rules.load import Document, Position


def _unused_definitions(document: Document, source: str) -> list[tuple[str, Any, Position]]:
    """Categories this file itself defines that ``order`` never names: (name, spec, where).

    Only definitions written in the checked file count: a child that inherits
    a category it does not rank (``five_of_a_kind`` from ``standard``) is not
    at fault, and could only silence a warning by removing it with null.
    """
    categories, order = document.data.get("categories"), document.data.get("order")
    if not isinstance(categories, dict) or not isinstance(order, list):
        return []
    found = []
    for name, spec in categories.items():
        if isinstance(spec, dict) and name not in order:
            where = document.key_position(("categories", name))
            if where.source == source:
                found.append((name, spec, where))
    return found


class _UnusedCategories(_Coverage):
    """W101 of one built ruleset, from its enumerated hand classes."""

    def _unused(self, analysis: Analysis) -> list[Diagnostic]:
        """W101: a category this file defines, not in order, that hands of this ruleset match.

        A definition that matches no hand here is left alone: it is there for
        the rulesets that extend this one (``standard`` defines five of a kind,
        which one pack cannot deal, for its wild-card and two-pack children).
        (A pattern that does not read is reported by the build, ``P1xx``.)
        """
        from ..rules.patterns import PatternContext, Where, check_pattern, compile_pattern, parse_pattern

        rs = self.ruleset
        context = PatternContext(
            rs.rank_symbols, rs.suits, rs.hand_size, self.engine.ace_low_in_runs, rs.category_names
        )
        found: list[Diagnostic] = []
        budget = MAX_REASON_WORK
        for name, spec, where in _unused_definitions(self.document, self.source):
            hint = f"add {name!r} to order where it ranks, or delete it"
            text = str(spec.get("pattern", ""))
            at = self.document.position(("categories", name, "pattern"))
            try:
                pattern = parse_pattern(text, Where(at.source, at.line, at.col))
            except PokerRulesError:
                continue  # the build reports it (P1xx), and load refuses it too
            if check_pattern(pattern, context, text, Where(at.source, at.line, at.col)):
                continue  # meaningless in this deck (a rank it lacks...): cannot match a hand here
            budget -= len(analysis.landed) * self.factor
            if not analysis.complete or budget < 0:
                found.append(
                    diagnostic(
                        "W101",
                        f"category {name!r} is defined but not in order, so no hand is ever ranked as it",
                        where,
                        "warning",
                        hint,
                    )
                )
                continue
            matcher = compile_pattern(pattern, context)
            hit = next((hc for hc in analysis.landed if matcher(hc, {}) is not None), None)
            if hit is not None:
                landed = analysis.landed[hit]
                found.append(
                    diagnostic(
                        "W101",
                        f"category {name!r} is defined but not in order: hands such as {self._example_of(hit)} "
                        f"match it but are ranked as {landed!r}",
                        where,
                        "warning",
                        f"add {name!r} to order just above {landed!r}, where those hands rank now, or delete it",
                    )
                )
        return found
