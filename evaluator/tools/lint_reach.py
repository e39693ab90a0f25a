"""Reachability: categories in ``order`` that no hand lands in (``W102``) or
that an earlier category shadows (``W103``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..core.errors import Diagnostic
from .coverage_cache import Analysis
from .lint_coverage import MAX_REASON_WORK, _Coverage
from .lint_place import diagnostic, place_of

if TYPE_CHECKING:
    from ..rules.patterns import Pattern
    from ..rules.ruleset import Category


class _Reachability(_Coverage):
    """W102 and W103 of one built ruleset, from its enumerated hand classes."""

    def _unreachable(self, analysis: Analysis) -> list[Diagnostic]:
        """W102 and W103 for each category in order that no hand lands in."""
        found = []
        order = list(self.ruleset.category_names)
        budget = MAX_REASON_WORK
        for index, category in enumerate(self.ruleset.categories):
            if category.name in analysis.reached:
                continue
            where, note = place_of(self.document, self.source, ("order", index), ("categories", category.name))
            earlier = self.ruleset.categories[:index]
            # Finding the reason costs a match per class and earlier category: bounded too.
            cost = len(analysis.landed) * (1 + len(earlier)) * self.factor
            if cost > budget:
                found.append(
                    diagnostic(
                        "W102",
                        f"category {category.name!r} is unreachable: no hand lands in it{note}",
                        where,
                        "warning",
                        f"remove {category.name!r} from order",
                    )
                )
                continue
            budget -= cost
            matched = [hc for hc in analysis.landed if category.matcher(hc, {}) is not None]
            wild_words = "wild cards always make a better hand" if self.uses_wilds else ""
            if not matched:
                reason, hint = self._no_match_reason(category)
                found.append(
                    diagnostic(
                        "W102", f"category {category.name!r} is unreachable: {reason}{note}", where, "warning", hint
                    )
                )
                continue
            covering = [e for e in earlier if all(e.matcher(hc, {}) is not None for hc in matched)]
            if covering:
                shadow = covering[-1]  # the closest: the most specific category that covers it
                example = self._example_of(matched[0])
                because = f" ({wild_words})" if wild_words else ""
                found.append(
                    diagnostic(
                        "W103",
                        f"category {category.name!r} is shadowed by {shadow.name!r}, which comes earlier in order "
                        f"and matches every hand {category.name!r} matches{because}, e.g. {example}{note}",
                        where,
                        "warning",
                        f"remove {category.name!r} from order, or move it above {shadow.name!r} "
                        "if it should win those hands",
                    )
                )
                continue
            names = sorted({analysis.landed[hc] for hc in matched}, key=order.index)
            lead = f"{wild_words}; " if wild_words else ""
            found.append(
                diagnostic(
                    "W102",
                    f"category {category.name!r} is unreachable: {lead}every hand it matches is ranked "
                    f"earlier in order, as {_words(names)}{note}",
                    where,
                    "warning",
                    f"remove {category.name!r} from order, or move it higher",
                )
            )
        return found

    def _no_match_reason(self, category: Category) -> tuple[str, str]:
        """Why a pattern matches no hand this ruleset can make."""
        group = _largest_group(category.pattern)
        most = max(self.caps, default=0)
        if group > most and not self.uses_wilds:
            packs = "one pack" if self.copies == 1 else f"{self.copies} packs"
            suits = len(self.ruleset.suits)
            return (
                f"it needs {group} cards of one rank, but the deck has at most {most} of a rank "
                f"({suits} suit{'s' * (suits > 1)}, {packs}) and no wild cards",
                f"remove {category.name!r} from order, or add wild cards or packs (deck.copies)",
            )
        if self.uses_wilds:
            return (
                "no hand is ever played as it: no natural hand matches its pattern, "
                "and wild cards always make a better hand",
                f"remove {category.name!r} from order",
            )
        return ("no hand this deck can deal matches its pattern", f"remove {category.name!r} from order")


def _largest_group(pattern: Pattern) -> int:
    """The largest rank group a conjunction of the pattern requires (0 when none is required)."""
    from ..rules.patterns import AllOf, Shape

    items = pattern.items if isinstance(pattern, AllOf) else (pattern,)
    sizes = [size for item in items if isinstance(item, Shape) for _, size in item.groups]
    return max(sizes, default=0)


def _words(names: Sequence[str]) -> str:
    quoted = [repr(name) for name in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]
