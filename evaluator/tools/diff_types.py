"""The result of ``pokerrules diff``: a finished :class:`Diff`, its summary and its JSON form.

The comparison is built by :mod:`evaluator.tools.diff`; the renderings read it
only (the text report there, the HTML report in :mod:`evaluator.tools.report`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.stats_math import CONFIDENCE
from .flip_types import FlipCensus
from .flips_text import cause_summary
from .showdown_share import ShowdownShare

if TYPE_CHECKING:
    from ..engine.hand import Hand
    from ..rules.cards import Card

SUMMARY_RECLASSIFIED = 3  # category changes named in the summary

Representative = tuple[tuple["Card", ...], "Hand", "Hand"]  # cards, hand under A, hand under B


@dataclass
class Scan:
    """What the candidate hands of the common deck showed.

    ``same`` holds, per category, hands both rulesets put there (the strongest and
    weakest under B are enough for the examples); ``moved`` counts the hand
    classes whose category differs, with one hand of them.
    """

    same: Mapping[str, list[Representative]] = field(default_factory=dict)
    moved: dict[tuple[str, str], tuple[int, tuple[Card, ...]]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Side:
    """One ruleset as the report names it."""

    name: str
    title: str
    deck_size: int
    hand_size: int


@dataclass(frozen=True, slots=True)
class Setting:
    """One row of the settings table: a rule and its value on each side."""

    name: str
    a: str
    b: str

    @property
    def differs(self) -> bool:
        """True when the two sides disagree."""
        return self.a != self.b


@dataclass(frozen=True, slots=True)
class CategoryStat:
    """A category at its place in one ruleset's order, with its frequency."""

    name: str
    position: int  # 1 is the highest category
    pattern: str
    count: int  # N-card deals that fall into this category
    probability: float


@dataclass(frozen=True, slots=True)
class ExampleHand:
    """A concrete hand of a flip example, as both rulesets read it."""

    cards: tuple[str, ...]
    category: str
    description_a: str
    description_b: str


@dataclass(frozen=True, slots=True)
class Flip:
    """Two categories whose winning order differs; with a verified example pair.

    ``winner_a`` beats ``winner_b`` under A and loses to it under B. The
    example's first hand is of ``winner_a``; ``compare_a`` and ``compare_b``
    are what ``A.compare`` and ``B.compare`` returned for (first, second).
    """

    winner_a: str
    winner_b: str
    example: tuple[ExampleHand, ExampleHand] | None
    compare_a: int | None = None
    compare_b: int | None = None


@dataclass(frozen=True, slots=True)
class Reclassified:
    """Hands of the common deck that the two rulesets put into different categories."""

    category_a: str
    category_b: str
    classes: int  # rank classes (with a suit assignment) found so moved
    example: ExampleHand


@dataclass(frozen=True)
class Diff:
    """Everything ``pokerrules diff`` reports about rulesets A and B."""

    a: Side
    b: Side
    cards: int
    settings: tuple[Setting, ...]
    order_a: tuple[CategoryStat, ...]
    order_b: tuple[CategoryStat, ...]
    only_a: tuple[str, ...]
    only_b: tuple[str, ...]
    pattern_changes: tuple[tuple[str, str, str], ...]  # (category, pattern in A, pattern in B)
    flips: tuple[Flip, ...]
    reclassified: tuple[Reclassified, ...]
    showdowns: ShowdownShare
    same_rules: bool = False
    flip_causes: FlipCensus | None = None
    lowball: tuple[Any, ...] = ()  # LowBreakdown per low side (a, b), see evaluator.tools.lowball
    game_showdowns: Any = None  # GameShare when either side has a game, see evaluator.tools.game_sample

    @property
    def identical(self) -> bool:
        """True when nothing differs: settings, categories, order, outcomes."""
        return (
            not any(s.differs for s in self.settings)
            and not self.only_a
            and not self.only_b
            and not self.pattern_changes
            and not self.flips
            and not self.reclassified
            and [c.name for c in self.order_a] == [c.name for c in self.order_b]
            and self.showdowns.changed == 0
            and (self.flip_causes is None or not self.flip_causes.groups)
            and (self.game_showdowns is None or self.game_showdowns.pot_moved == 0)
        )

    def summary(self) -> list[str]:
        """The changes in a few lines, most important first."""
        return _summary(self)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data for ``diff --json`` (see ``docs/json/diff.schema.json``)."""
        return _as_dict(self)


# --- summary and JSON ------------------------------------------------------------


def _percent(value: float | None) -> str:
    if value is None:
        return "n/a"
    if value == 0:
        return "0%"
    digits = max(2, 1 - math.floor(math.log10(abs(value * 100)))) if value * 100 < 1 else 2
    return f"{value * 100:.{digits}f}%"


def odds_text(probability: float) -> str:
    """``1 in X`` for a probability ("never" for zero)."""
    if probability <= 0:
        return "never"
    x = 1 / probability
    return f"1 in {x:,.0f}" if x >= 10 else f"1 in {x:.2f}"


def _deck_change(diff: Diff) -> str | None:
    rows = {s.name: s for s in diff.settings}
    size, ranks = rows["deck size"], rows["ranks"]
    if not (size.differs or ranks.differs or rows["suits"].differs or rows["jokers"].differs or rows["packs"].differs):
        return None
    text = f"deck: {diff.a.deck_size} → {diff.b.deck_size} cards"
    if ranks.differs:
        text += f" (ranks {ranks.a} → {ranks.b})"
    return text


def _summary(diff: Diff) -> list[str]:
    if diff.identical:
        return [
            f"No difference: {diff.a.name} and {diff.b.name} have the same deck, rules and category order; no showdown changes its winner."
        ]
    lines = []
    deck = _deck_change(diff)
    if deck:
        lines.append(deck)
    deck_rows = {"deck size", "ranks", "suits", "jokers", "packs"}
    lines.extend(f"{s.name}: {s.a} → {s.b}" for s in diff.settings if s.differs and s.name not in deck_rows)
    if diff.only_a:
        lines.append(f"only in {diff.a.name}: {', '.join(diff.only_a)}")
    if diff.only_b:
        lines.append(f"only in {diff.b.name}: {', '.join(diff.only_b)}")
    lines.extend(f"{name} is defined differently: {pa!r} → {pb!r}" for name, pa, pb in diff.pattern_changes)
    lines.extend(
        f"{f.winner_a} beats {f.winner_b} in {diff.a.name}; {f.winner_b} beats {f.winner_a} in {diff.b.name}"
        for f in diff.flips
    )
    lines.extend(
        f"{' '.join(r.example.cards)} is {r.category_a} in {diff.a.name} but {r.category_b} in {diff.b.name}"
        + (f" (and {classes_text(r.classes - 1)} more like it)" if r.classes > 1 else "")
        for r in diff.reclassified[:SUMMARY_RECLASSIFIED]
    )
    if len(diff.reclassified) > SUMMARY_RECLASSIFIED:
        lines.append(
            f"... and {len(diff.reclassified) - SUMMARY_RECLASSIFIED} more category changes of the same cards (see below)"
        )
    if diff.flip_causes is not None:
        lines.extend(cause_summary(diff.flip_causes))
    games = diff.game_showdowns
    if games is not None and games.method == "sampled":
        lines.append(
            f"game deals: {games.pot_moved:.2%} of the pot moves on average, the winners change in "
            f"{games.winners_changed / games.deals:.2%} of {games.deals:,} sampled deals (seed {games.seed})"
        )
    else:
        lines.append(share_sentence(diff.showdowns))
    return lines


def share_sentence(share: ShowdownShare) -> str:
    """One sentence on how many heads-up showdowns change their winner, and how that was measured."""
    if share.method == "game":
        return f"heads-up showdowns of {share.cards} private cards: not dealt ({share.reason})"
    if share.method == "impossible":
        return f"heads-up showdowns: not compared ({share.reason})"
    if share.method == "identical":
        return "heads-up showdowns whose winner changes: none (exact: the rules that decide a showdown are the same)"
    if share.method == "exact":
        return f"heads-up showdowns whose winner changes: {_percent(share.share)} exactly ({share.changed:,} of {share.deals:,} deals)"
    return (
        f"heads-up showdowns whose winner changes: {_percent(share.share)} "
        f"(95% Wilson interval {_percent(share.low)}–{_percent(share.high)}; {share.changed:,} of {share.deals:,} sampled deals, seed {share.seed})"
    )


def classes_text(classes: int) -> str:
    """``1 hand class``, ``12 hand classes``."""
    return f"{classes:,} hand class{'es' if classes != 1 else ''}"


def _example_dict(hand: ExampleHand) -> dict[str, Any]:
    return {
        "cards": list(hand.cards),
        "category": hand.category,
        "description_a": hand.description_a,
        "description_b": hand.description_b,
    }


def _as_dict(diff: Diff) -> dict[str, Any]:
    share = diff.showdowns
    return {
        "a": {"name": diff.a.name, "title": diff.a.title, "deck_size": diff.a.deck_size, "hand_size": diff.a.hand_size},
        "b": {"name": diff.b.name, "title": diff.b.title, "deck_size": diff.b.deck_size, "hand_size": diff.b.hand_size},
        "cards": diff.cards,
        "identical": diff.identical,
        "same_rules": diff.same_rules,
        "summary": diff.summary(),
        "settings": [{"name": s.name, "a": s.a, "b": s.b, "differs": s.differs} for s in diff.settings],
        "categories": {
            side: [
                {
                    "name": c.name,
                    "position": c.position,
                    "pattern": c.pattern,
                    "count": c.count,
                    "probability": c.probability,
                }
                for c in order
            ]
            for side, order in (("a", diff.order_a), ("b", diff.order_b))
        },
        "only_in_a": list(diff.only_a),
        "only_in_b": list(diff.only_b),
        "pattern_changes": [{"category": name, "a": pa, "b": pb} for name, pa, pb in diff.pattern_changes],
        "flips": [
            {
                "winner_in_a": flip.winner_a,
                "winner_in_b": flip.winner_b,
                "example": None
                if flip.example is None
                else {
                    "wins_in_a": _example_dict(flip.example[0]),
                    "wins_in_b": _example_dict(flip.example[1]),
                    "compare_a": flip.compare_a,
                    "compare_b": flip.compare_b,
                },
            }
            for flip in diff.flips
        ],
        "reclassified": [
            {
                "category_a": r.category_a,
                "category_b": r.category_b,
                "classes": r.classes,
                "example": _example_dict(r.example),
            }
            for r in diff.reclassified
        ],
        "flip_causes": None if diff.flip_causes is None else diff.flip_causes.as_dict(),
        "lowball": [breakdown.as_dict() for breakdown in diff.lowball],
        "game_showdowns": None if diff.game_showdowns is None else diff.game_showdowns.as_dict(),
        "showdowns": {
            "method": share.method,
            "cards": share.cards,
            "common_deck": share.common_deck,
            "deals": share.deals,
            "changed": share.changed,
            "share": share.share,
            "interval": None
            if share.low is None or share.high is None
            else {"level": CONFIDENCE, "method": "wilson", "low": share.low, "high": share.high},
            "seed": share.seed,
            "reason": share.reason or None,
            "examples": [
                {"first": list(d.first), "second": list(d.second), "outcome_a": d.outcome_a, "outcome_b": d.outcome_b}
                for d in share.examples
            ],
        },
    }
