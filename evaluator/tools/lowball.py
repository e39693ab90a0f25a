"""The lowball breakdown: low hands by their top card (5-low/the wheel, 6-low, 7-low ...).

A lowball player reads a low hand by its highest card: "a seven-low". For a
``direction: low`` ruleset, the winning category (the last of ``order:``, the
hands without pair, straight or flush that counts) is split by the highest card
of the hand as the ruleset ranks cards (an ace is the lowest card when aces are
low, the highest otherwise), best first.

The top card is read from the cards that play, wild cards counted as what the
evaluator fills them with (in ace-to-five with the joker, ``A-2-3-5-X`` plays
the joker as a four: a five-low).

The counts are *exact* wherever the category table above them is: every
class of deals is walked once, as the table counts them (rank classes, or
suit classes where patterns read suits within the hand; seven-card razz deals
too), and weighted by its number of deals
(:func:`evaluator.compiled.counting.played_counts`). Deals the counter cannot
walk are *sampled* with a seed and each share is given with a 95% Wilson
interval.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..compiled.counting import played_counts
from ..compiled.counts import deal_count
from ..core.errors import PokerRulesError
from ..core.stats_math import wilson_interval
from .stats_format import format_odds

if TYPE_CHECKING:
    from ..engine.hand import Hand
    from ..rules.ruleset import Rules
    from ..ruleset import Ruleset

DEFAULT_LOW_SAMPLES = 20_000
DEFAULT_LOW_SEED = 2026


@dataclass(frozen=True, slots=True)
class LowRow:
    """Hands of the winning category whose top card is ``top``."""

    top: str
    label: str
    count: int
    probability: float
    low: float | None = None
    high: float | None = None

    @property
    def odds_text(self) -> str:
        """ "1 in X" ("never" for none).

        >>> LowRow("5", "5-low", 1, 0.25).odds_text
        '1 in 4.00'
        """
        return format_odds(1 / self.probability if self.probability else None)


@dataclass(frozen=True, slots=True)
class LowBreakdown:
    """The winning category of a low ruleset split by top card, best first."""

    ruleset: str
    category: str
    cards: int
    deals: int  # all deals counted (exact) or drawn (sampled)
    method: str  # exact or sampled
    rows: tuple[LowRow, ...]
    seed: int | None = None

    @property
    def in_category(self) -> int:
        """Deals that make the winning category at all."""
        return sum(row.count for row in self.rows)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data (``lowball`` in the stats and diff schemas)."""
        return {
            "ruleset": self.ruleset,
            "category": self.category,
            "cards": self.cards,
            "deals": self.deals,
            "method": self.method,
            "seed": self.seed,
            "order": "best first",
            "rows": [
                {
                    "top": row.top,
                    "label": row.label,
                    "count": row.count,
                    "probability": row.probability,
                    "odds_text": row.odds_text,
                    "interval": None
                    if row.low is None
                    else {"level": 0.95, "method": "wilson", "low": row.low, "high": row.high},
                }
                for row in self.rows
            ],
        }


def low_label(ruleset: Rules, top: str) -> str:
    """How a low hand is named by its top card (``7-low``; ``5-low (the wheel)`` where the ace plays low)."""
    wheel = top == "5" and ruleset.rank_symbols[0] == "A" and ruleset.hand_size == 5
    return f"{top}-low" + (" (the wheel)" if wheel else "")


def top_rank(ruleset: Rules, ranks: Iterable[str]) -> str:
    """The highest of ``ranks`` (rank symbols) in the ruleset's rank order.

    >>> from evaluator import load
    >>> top_rank(load("ace-to-five"), ["A", "2", "5"]), top_rank(load("standard"), ["A", "2", "5"])
    ('5', 'A')
    """
    return max(ranks, key=ruleset.rank_symbols.index)


def played_ranks(hand: Hand) -> tuple[str, ...]:
    """The ranks of the cards ``hand`` plays, each wild card as the card it stands for."""
    return tuple(card[:-1] for card in hand.played_as if len(card) > 1)


def low_breakdown(
    ruleset: Ruleset, cards: int | None = None, samples: int = DEFAULT_LOW_SAMPLES, seed: int = DEFAULT_LOW_SEED
) -> LowBreakdown | None:
    """The breakdown of ``cards``-card deals (the hand size by default); None for a high ruleset.

    >>> from evaluator import load
    >>> table = low_breakdown(load("ace-to-five"))
    >>> table.rows[0].label, table.rows[0].count
    ('5-low (the wheel)', 1024)
    """
    if ruleset.direction != "low":
        return None
    dealt = ruleset.hand_size if cards is None else cards
    category = ruleset.categories[-1].name if ruleset.categories else ""
    tops: Counter[str] = Counter()
    try:
        tally = played_counts(ruleset, dealt)
    except PokerRulesError:
        tally = None
    if tally is not None:
        for (name, qualifies, played), count in tally.items():
            if name == category and qualifies and played:
                tops[top_rank(ruleset, played)] += count
        deals, method, used_seed = deal_count(ruleset, dealt), "exact", None
    else:
        rng = random.Random(seed)
        deck = list(ruleset.deck)
        for _ in range(samples):
            hand = ruleset.engine.evaluate(rng.sample(deck, dealt))
            if hand.category == category and hand.qualifies:
                tops[top_rank(ruleset, played_ranks(hand))] += 1
        deals, method, used_seed = samples, "sampled", seed
    rows = []
    for top in sorted(tops, key=ruleset.rank_symbols.index):
        low, high = wilson_interval(tops[top], deals) if method == "sampled" else (None, None)
        rows.append(LowRow(top, low_label(ruleset, top), tops[top], tops[top] / deals, low, high))
    return LowBreakdown(ruleset.name, category, dealt, deals, method, tuple(rows), used_seed)


def lowball_sides(a: Ruleset, b: Ruleset) -> tuple[LowBreakdown, ...]:
    """The breakdowns of the low rulesets among ``a`` and ``b`` (hand-size deals)."""
    found = (low_breakdown(ruleset) for ruleset in (a, b))
    return tuple(table for table in found if table is not None)


def breakdown_lines(table: LowBreakdown) -> list[str]:
    """The breakdown as text lines, best first."""
    how = (
        f"exact, all {table.deals:,} deals"
        if table.method == "exact"
        else f"sampled: {table.deals:,} deals, seed {table.seed}, 95% Wilson intervals"
    )
    lines = [
        f"Lowball breakdown of {table.ruleset}: {table.category} by top card, best first "
        f"({table.cards}-card deals, {how})"
    ]
    rows = [("top card", "deals" if table.method == "exact" else "hits", "probability", "odds")]
    for row in table.rows:
        probability = f"{row.probability * 100:#.4g}%"
        if row.low is not None and row.high is not None:
            probability += f" ({row.low * 100:#.3g}–{row.high * 100:#.3g}%)"
        rows.append((row.label, f"{row.count:,}", probability, row.odds_text))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines += [
        "  " + "  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(r))
        for r in rows
    ]
    return lines
