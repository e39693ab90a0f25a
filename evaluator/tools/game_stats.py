"""``stats`` for games whose rules a plain count cannot model: must-use (Omaha's 2 + 3) and hi-lo.

A game that lets a player use any five of hole + board cards (hold'em, stud,
razz) is counted exactly by :mod:`evaluator.compiled.counting` over ``hole + board``
cards. A game that says how many hole and board cards must play, or that splits
the pot into halves, is *sampled*: ``deals`` deals of one player's hole cards
and the board, drawn with ``seed``; each half's final hand is the best of the
subsets the game allows (the same subsets as :func:`evaluator.engine.showdown.best_hand`),
ranked on the compiled tables (the ranker of :mod:`evaluator.compiled.fast`) and named by
evaluating one hand per distinct value with the generic engine. Each share is
given with a 95% Wilson interval; a half with a qualifier also gets its
qualifying rate, and a low half its breakdown by top card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..compiled.fast import ruleset_ranker
from ..compiled.mustuse import lowest_wild_best
from ..core.stats_math import wilson_interval
from ..engine.evaluate import engine_for
from .lowball import LowBreakdown, LowRow, breakdown_lines, low_label, played_ranks, top_rank
from .stats_format import format_odds

if TYPE_CHECKING:
    from ..rules.ruleset import Rules
    from ..ruleset import Ruleset

DEFAULT_GAME_DEALS = 50_000
DEFAULT_GAME_SEED = 2026
CHUNK = 4_000
DOES_NOT_QUALIFY = "(does not qualify)"


@dataclass(frozen=True, slots=True)
class GameRow:
    """A category of one half: hits among the deals, share and its 95% interval."""

    category: str
    count: int
    probability: float
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class HalfStats:
    """The final hands of one half of the game."""

    name: str
    ruleset: str
    rows: tuple[GameRow, ...]
    qualified: int  # deals whose best hand for this half qualifies
    has_qualifier: bool
    lowball: LowBreakdown | None
    distinct: dict[str, int]  # distinct hand values seen per category


@dataclass(frozen=True)
class GameStats:
    """Sampled statistics of the final hand one player makes in a game."""

    ruleset: str
    title: str
    hole: int
    board: int
    use: str
    deals: int
    seed: int
    halves: tuple[HalfStats, ...]

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data (``game`` in ``docs/json/stats.schema.json``)."""
        return {
            "method": "sampled",
            "deals": self.deals,
            "seed": self.seed,
            "hole": self.hole,
            "board": self.board,
            "use": self.use,
            "halves": [
                {
                    "name": half.name,
                    "ruleset": half.ruleset,
                    "qualified": half.qualified if half.has_qualifier else None,
                    "qualify_rate": half.qualified / self.deals if half.has_qualifier else None,
                    "categories": [
                        {
                            "name": r.category,
                            "count": r.count,
                            "probability": r.probability,
                            "low": r.low,
                            "high": r.high,
                        }
                        for r in half.rows
                    ],
                    "lowball": None if half.lowball is None else half.lowball.as_dict(),
                }
                for half in self.halves
            ],
        }


def needs_game_sampling(ruleset: Ruleset) -> bool:
    """True for a game a plain N-card count does not model: must-use rules or a split pot."""
    game = ruleset.game
    return game is not None and (game.use_hole is not None or game.use_board is not None or bool(game.split))


def use_text(ruleset: Ruleset) -> str:
    """How the game uses its cards, in words."""
    game = ruleset.game
    if game is None:
        return "all the cards held"
    if game.use_hole is None and game.use_board is None:
        return f"any {ruleset.hand_size} of hole and board"
    return f"exactly {game.use_hole or 0} hole + {game.use_board or 0} board"


def _id_map(source: Rules, target: Rules) -> np.ndarray[Any, np.dtype[np.int64]]:
    index = {card: n for n, card in enumerate(target.deck)}
    return np.array([index[card] for card in source.deck], dtype=np.int64)


def _tally(
    half: Rules, ids: np.ndarray[Any, Any], subsets: np.ndarray[Any, Any], hole: int
) -> list[tuple[int, int, np.ndarray[Any, Any]]]:
    """Each best value the deals reach: (value, deals, the card ids that make it in its first deal)."""
    ranker = ruleset_ranker(half)
    if half.wild.lowest_rank:
        # the lowest rank of the whole holding is wild, which the lookup of one combination of
        # its cards does not see: the whole holding is ranked (generically under a card-usage rule)
        if ranker.constrained:
            values, columns = lowest_wild_best(ranker, ids, hole)
        else:
            values, columns = np.asarray(ranker.rank_many(ids)), None
        unique, first, counts = np.unique(values, return_index=True, return_counts=True)
        # only the first deal of each value needs its cards
        columns = lowest_wild_best(ranker, ids[first], hole)[1] if columns is None else columns[first]
        played = np.take_along_axis(ids[first], columns, axis=1)
    else:
        hands = ids[:, subsets]  # (deals, subsets, size)
        every = np.asarray(ranker.rank_many(hands.reshape(-1, subsets.shape[1]))).reshape(len(ids), subsets.shape[0])
        best = every.argmax(axis=1)
        unique, first, counts = np.unique(every[np.arange(len(ids)), best], return_index=True, return_counts=True)
        played = hands[first, best[first]]
    return list(zip(unique.tolist(), counts.tolist(), played, strict=True))


def game_stats(
    ruleset: Ruleset,
    deals: int = DEFAULT_GAME_DEALS,
    seed: int = DEFAULT_GAME_SEED,
    progress: Callable[[float], None] | None = None,
) -> GameStats:
    """Sample ``deals`` deals of ``ruleset``'s game and count each half's final hands.

    >>> from evaluator import load
    >>> table = game_stats(load("omaha"), deals=2000, seed=1)
    >>> table.use, sum(row.count for row in table.halves[0].rows)
    ('exactly 2 hole + 3 board', 2000)
    """
    from ..engine.showdown import half_rulesets, playing_subsets

    game = ruleset.game
    assert game is not None
    dealt = game.hole + game.board
    subsets = np.array(list(playing_subsets(ruleset, game.hole, game.board, game)), dtype=np.int64)
    rng = np.random.default_rng(seed)
    halves = half_rulesets(ruleset)
    seen: list[dict[int, np.ndarray[Any, Any]]] = [{} for _ in halves]
    tallies: list[Counter[int]] = [Counter() for _ in halves]
    deck_size = len(ruleset.deck)
    done = 0
    while done < deals:
        n = min(CHUNK, deals - done)
        ids = np.argsort(rng.random((n, deck_size)), axis=1)[:, :dealt]
        for index, (_, half) in enumerate(halves):
            for value, number, cards in _tally(half, _id_map(ruleset, half)[ids], subsets, game.hole):
                tallies[index][value] += number
                seen[index].setdefault(value, cards)
        done += n
        if progress is not None:
            progress(done / deals)
    result = tuple(_half_stats(name, half, tallies[i], seen[i], deals, seed) for i, (name, half) in enumerate(halves))
    return GameStats(ruleset.name, ruleset.title, game.hole, game.board, use_text(ruleset), deals, seed, result)


def _half_stats(
    name: str, half: Rules, tally: Counter[int], seen: dict[int, np.ndarray[Any, Any]], deals: int, seed: int
) -> HalfStats:
    """Name each value seen by evaluating one hand of it; only qualifying hands count in a category."""
    by_category: Counter[str] = Counter()
    distinct: Counter[str] = Counter()
    tops: Counter[str] = Counter()
    qualified = 0
    winning = half.categories[-1].name
    for value, number in tally.items():
        hand = engine_for(half).evaluate([half.deck[int(i)] for i in seen[value]])
        if not hand.qualifies:
            continue  # every hand that misses the qualifier ranks alike: no category to name
        by_category[hand.category] += number
        distinct[hand.category] += 1
        qualified += number
        if half.direction == "low" and hand.category == winning:
            tops[top_rank(half, played_ranks(hand))] += number
    rows = []
    for category in half.category_names:
        count = by_category.get(category, 0)
        low, high = wilson_interval(count, deals)
        rows.append(GameRow(category, count, count / deals, low, high))
    lowball = None
    if half.direction == "low":
        low_rows = []
        for top in sorted(tops, key=half.rank_symbols.index):
            low, high = wilson_interval(tops[top], deals)
            low_rows.append(LowRow(top, low_label(half, top), tops[top], tops[top] / deals, low, high))
        lowball = LowBreakdown(half.name, winning, half.hand_size, deals, "sampled", tuple(low_rows), seed)
    has_qualifier = half.qualifier is not None
    if has_qualifier:
        low, high = wilson_interval(deals - qualified, deals)
        rows.append(GameRow(DOES_NOT_QUALIFY, deals - qualified, (deals - qualified) / deals, low, high))
    return HalfStats(name, half.name, tuple(rows), qualified, has_qualifier, lowball, dict(distinct))


def render_game_text(table: GameStats) -> str:
    """The game's table for people: per half, category shares with intervals."""
    lines = [
        f"{table.ruleset}: {table.title}",
        f"the final hand of one player: {table.hole} hole cards, {table.board} on the board, using {table.use}",
        f"sampled: {table.deals:,} deals, seed {table.seed}; 95% Wilson intervals",
    ]
    for half in table.halves:
        lines += ["", f"{half.name} ({half.ruleset})"]
        header = ("category", "deals", "probability", "95% interval", "odds")
        body = [
            (
                r.category,
                f"{r.count:,}",
                f"{r.probability * 100:#.4g}%",
                f"{r.low * 100:.3g}–{r.high * 100:.3g}%",
                format_odds(1 / r.probability if r.probability else None),
            )
            for r in half.rows
        ]
        widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]
        for row in [header, *body]:
            lines.append(
                "  ".join(
                    [row[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True))]
                ).rstrip()
            )
        if half.has_qualifier:
            low, high = wilson_interval(half.qualified, table.deals)
            lines.append(
                f"qualifies for {half.name}: {half.qualified:,} of {table.deals:,} deals "
                f"({half.qualified / table.deals * 100:.2f}%, 95% interval {low * 100:.2f}–{high * 100:.2f}%)"
            )
        if half.lowball is not None:
            lines += ["", *breakdown_lines(half.lowball)]
    return "\n".join(lines) + "\n"


def render_game_csv(table: GameStats) -> str:
    """CSV: one row per half and category, with the 95% interval."""
    rows = ["half,category,count,probability,low,high"]
    for half in table.halves:
        rows += [f"{half.name},{r.category},{r.count},{r.probability!r},{r.low!r},{r.high!r}" for r in half.rows]
    return "\n".join(rows) + "\n"


def game_table_dict(table: GameStats, ruleset: Ruleset) -> dict[str, Any]:
    """``stats --json`` for a sampled game: the first half as the table, every half under ``game``."""
    first = table.halves[0]
    rows = [r for r in first.rows if r.category != DOES_NOT_QUALIFY]
    lowball = next((half.lowball for half in table.halves if half.lowball is not None), None)
    message = (
        f"sampled final hands of the game ({table.hole} hole + {table.board} board, using {table.use}): "
        f"{table.deals:,} deals, seed {table.seed}; counts are hits among the deals"
    )
    return {
        "ruleset": table.ruleset,
        "title": table.title,
        "cards": table.hole + table.board,
        "hand_size": ruleset.hand_size,
        "deck_size": ruleset.deck_size,
        "deals": table.deals,
        "direction": ruleset.direction,
        "wild_cards": ruleset.wild.any,
        "categories": [
            {
                "name": r.category,
                "count": r.count,
                "probability": r.probability,
                "odds": 1 / r.probability if r.count else None,
                "odds_text": format_odds(1 / r.probability if r.count else None),
                "distinct_values": first.distinct.get(r.category, 0),
            }
            for r in rows
        ],
        "unplayable": 0,
        "distinct_values": sum(first.distinct.values()),
        "notes": [{"kind": "game", "message": message}],
        "lowball": None if lowball is None else lowball.as_dict(),
        "game": table.as_dict(),
    }
