"""``stats`` for dealer's-choice games: category frequencies under the game's own deal.

Follow the Queen's wild cards depend on every card dealt face up, Baseball's
hands grow with each four dealt face up, Chicago's pot has a half won by a
card: their frequencies are those of real deals. ``deals`` deals of
``players`` seats are dealt street by street with a seed
(:mod:`evaluator.deal.sample`, nobody folding), every seat's hand ranked
under the wild cards its deal gave it (:mod:`evaluator.deal.judge`), and
counted:

- per half judged by hands, how often a player's final hand is in each
  category ("how often a Follow the Queen hand is five of a kind");
- per card half, which card takes it, or that nobody holds one;
- which ranks are wild for a player, and how many extra cards a player gets.

A player's hand is one of ``players`` in its deal, and the hands of one deal
share their wild cards, so every share is the mean over deals of the share of
the deal's hands, with a 95% interval from the spread between deals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from math import sqrt
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.stats_math import Z_95
from ..deal.judge import Judge
from ..deal.resolve import plural
from ..deal.sample import Known, random_deals
from ..deal.settle import best_card, card_value, half_rules_of
from ..rules.cards import parse_cards
from .stats_format import format_odds

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

DEFAULT_DEALS = 20_000
DOES_NOT_QUALIFY = "(does not qualify)"
DEFAULT_PLAYERS = 5
CHUNK = 2_000


@dataclass(frozen=True, slots=True)
class Share:
    """One row: what is counted, how many times, the mean share per deal and its 95% interval."""

    name: str
    count: int
    probability: float
    low: float
    high: float

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "name": self.name,
            "count": self.count,
            "probability": self.probability,
            "low": self.low,
            "high": self.high,
        }


@dataclass(frozen=True)
class DealStats:
    """The counted deals of a dealer's-choice game (see the module docstring)."""

    ruleset: str
    title: str
    players: int
    deals: int
    seed: int
    hands: dict[str, tuple[Share, ...]]  # per half judged by hands: categories of a player's hand
    cards: dict[str, tuple[Share, ...]]  # per card half: the card that takes it
    wild: tuple[Share, ...]  # the ranks wild for a player
    extra: tuple[Share, ...]  # extra cards per player

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data (``deal`` in ``docs/json/stats.schema.json``)."""
        return {
            "method": "sampled",
            "players": self.players,
            "deals": self.deals,
            "seed": self.seed,
            "halves": [{"name": name, "categories": [r.as_dict() for r in rows]} for name, rows in self.hands.items()],
            "card_halves": [{"name": name, "cards": [r.as_dict() for r in rows]} for name, rows in self.cards.items()],
            "wild": [r.as_dict() for r in self.wild],
            "extra_cards": [r.as_dict() for r in self.extra],
        }


class _Tally:
    """Running sums of one part's counts: per name the hands counted, and the sum and the sum of
    squares of each deal's share (the deals' spread gives the interval; memory does not grow with
    the deals)."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.sums: dict[str, float] = {}
        self.squares: dict[str, float] = {}

    def add(self, found: Counter[str], hands: int) -> None:
        """One deal: ``found`` of its ``hands`` hands."""
        for name, number in found.items():
            share = number / hands
            self.counts[name] += number
            self.sums[name] = self.sums.get(name, 0.0) + share
            self.squares[name] = self.squares.get(name, 0.0) + share * share

    def rows(self, order: list[str], deals: int) -> tuple[Share, ...]:
        """Rows with the mean over deals of each deal's share and a 95% interval from their spread."""
        rows = []
        for name in order:
            mean = self.sums.get(name, 0.0) / deals if deals else 0.0
            variance = (
                max(self.squares.get(name, 0.0) / deals - mean * mean, 0.0) * deals / (deals - 1) if deals > 1 else 0.0
            )
            half = Z_95 * sqrt(variance / deals) if deals else 0.0
            rows.append(Share(name, self.counts[name], mean, max(0.0, mean - half), min(1.0, mean + half)))
        return tuple(rows)


def wild_text(rules: Rules, added: frozenset[str]) -> str:
    """The ranks wild for a player: the static ones, then those the deal added ('queens and sixes'), or 'none'."""
    static = rules.wild.ranks
    names = [plural(rank) for rank in rules.deck_ranks if rank in static]
    names += [plural(rank) for rank in rules.deck_ranks if rank in added and rank not in static]
    if not names:
        return "none"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def deal_stats(
    rules: Rules,
    deals: int = DEFAULT_DEALS,
    players: int = DEFAULT_PLAYERS,
    seed: int = 2026,
    progress: Callable[[float], None] | None = None,
) -> DealStats:
    """Deal ``deals`` deals of ``players`` seats and count what a player's hand is.

    >>> from evaluator import load
    >>> table = deal_stats(load("chicago"), deals=200, players=4, seed=1)
    >>> sum(row.count for row in table.hands["high"]), [row.name for row in table.cards["spade"]][:2]
    (800, ['As', 'Ks'])
    """
    rng = np.random.default_rng(seed)
    judge = Judge(rules, players, deals=deals)
    specs = half_rules_of(rules)
    hand_halves = [(name, judge_rules) for name, judge_rules, _ in specs if judge_rules is not None]
    card_halves = [(name, card) for name, _, card in specs if card is not None]
    tallies: dict[str, _Tally] = {}
    done = 0
    stream = random_deals(rules, Known(players), deals, rng)
    while done < deals:
        batch = [next(stream) for _ in range(min(CHUNK, deals - done))]
        settled = judge.settle(batch)
        for name, judge_rules in hand_halves:
            names = [c.name for c in judge_rules.categories]
            for row in settled.categories[name].tolist():
                found = Counter(names[i] if i >= 0 else DOES_NOT_QUALIFY for i in row)
                tallies.setdefault(name, _Tally()).add(found, players)
        for name, card in card_halves:
            for deal in batch:
                best = [best_card(rules, cards, card) for cards in deal[0].seats]
                held = [c for c in best if c is not None]
                top = max(held, key=lambda c: card_value(rules, c, card)) if held else None
                tallies.setdefault(name, _Tally()).add(Counter({str(top) if top is not None else "nobody": 1}), 1)
        for deal, sets in zip(batch, settled.wild_sets, strict=True):
            wilds = Counter(wild_text(rules, added) for added in sets)
            extras = Counter(str(sum(1 for d in cards if d.extra)) for cards in deal[0].seats)
            tallies.setdefault("\0wild", _Tally()).add(wilds, players)
            tallies.setdefault("\0extra", _Tally()).add(extras, players)
        done += len(batch)
        if progress is not None:
            progress(done / deals)
    empty = _Tally()
    hands = {}
    for name, judge_rules in hand_halves:
        tally = tallies.get(name, empty)
        order = [c.name for c in judge_rules.categories] + (
            [DOES_NOT_QUALIFY] if tally.counts[DOES_NOT_QUALIFY] else []
        )
        hands[name] = tally.rows(order, deals)
    cards = {}
    for name, card in card_halves:
        tally = tallies.get(name, empty)
        order = sorted(
            (key for key in tally.counts if key != "nobody"),
            key=lambda text: -card_value(rules, parse_cards(text)[0], card),
        )
        cards[name] = tally.rows(order + ["nobody"], deals)
    wild_tally = tallies.get("\0wild", empty)
    wild = wild_tally.rows(sorted(wild_tally.counts, key=lambda k: -wild_tally.counts[k]), deals)
    extra_tally = tallies.get("\0extra", empty)
    extra = extra_tally.rows(sorted(extra_tally.counts, key=int), deals) if rules.game and rules.game.extra else ()
    return DealStats(rules.name, rules.title, players, deals, seed, hands, cards, wild, extra)


def _table(title: str, rows: tuple[Share, ...], counted: str) -> list[str]:
    header = (title, counted, "share", "95% interval", "odds")
    body = [
        (
            r.name,
            f"{r.count:,}",
            f"{r.probability * 100:#.4g}%",
            f"{r.low * 100:.3g}–{r.high * 100:.3g}%",
            format_odds(1 / r.probability if r.probability else None),
        )
        for r in rows
    ]
    widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]
    return [
        "  ".join([row[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True))]).rstrip()
        for row in [header, *body]
    ]


def render_deal_text(table: DealStats, rules: Rules) -> str:
    """The counted deals for people: per half, the wild cards, the card halves, the extra cards."""
    lines = [
        f"{table.ruleset}: {table.title}",
        f"the final hand of a player: {table.players} players dealt street by street, nobody folding",
        f"sampled: {table.deals:,} deals, seed {table.seed}; shares per player's hand, 95% intervals from the "
        "spread between deals",
    ]
    for name, rows in table.hands.items():
        lines += ["", f"[{name}]", *_table("category", rows, "hands")]
    if rules.wild.by_deal or rules.wild.any:
        lines += ["", "[wild cards for a player]", *_table("wild ranks", table.wild, "hands")]
    specs = {name: card for name, _, card in half_rules_of(rules) if card is not None}
    from ..deal.resolve import card_rule_text

    for name, rows in table.cards.items():
        lines += ["", f"[{name}: {card_rule_text(specs[name])}]", *_table("card", rows, "deals")]
    if table.extra:
        lines += ["", "[extra cards per player (game.extra)]", *_table("extra cards", table.extra, "hands")]
    return "\n".join(lines) + "\n"


def render_deal_csv(table: DealStats) -> str:
    """CSV: one row per counted thing (part, name, count, probability, low, high)."""
    rows = ["part,name,count,probability,low,high"]
    parts = [(f"hand:{name}", r) for name, rows_ in table.hands.items() for r in rows_]
    parts += [(f"card:{name}", r) for name, rows_ in table.cards.items() for r in rows_]
    parts += [("wild", r) for r in table.wild] + [("extra", r) for r in table.extra]
    rows += [f"{part},{r.name},{r.count},{r.probability!r},{r.low!r},{r.high!r}" for part, r in parts]
    return "\n".join(rows) + "\n"


def deal_table_dict(table: DealStats, rules: Rules) -> dict[str, Any]:
    """``stats --json`` of a dealer's-choice game: the first hand half as the table, everything under ``deal``."""
    name, rows = next(iter(table.hands.items()))
    message = (
        f"sampled final hands of {table.players} players dealt street by street: {table.deals:,} deals, "
        f"seed {table.seed}; counts are hands among the deals' hands"
    )
    return {
        "ruleset": table.ruleset,
        "title": table.title,
        "cards": rules.game.hole + rules.game.board if rules.game else rules.hand_size,
        "hand_size": rules.hand_size,
        "deck_size": rules.deck_size,
        "deals": table.deals * table.players,
        "direction": rules.direction,
        "wild_cards": rules.wild.any or rules.wild.by_deal,
        "categories": [
            {
                "name": r.name,
                "count": r.count,
                "probability": r.probability,
                "odds": 1 / r.probability if r.probability else None,
                "odds_text": format_odds(1 / r.probability if r.probability else None),
                "distinct_values": None,
            }
            for r in rows
            if r.name != DOES_NOT_QUALIFY
        ],
        "unplayable": 0,
        "distinct_values": None,
        "notes": [{"kind": "game", "message": message}],
        "lowball": None,
        "deal": table.as_dict(),
    }
