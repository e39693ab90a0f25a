"""The exact starting-hand chart against one random hand, board by board.

Every class of the grid against one random hand is one heads-up question of
every holding against every holding: the boards are enumerated once (up to
the renamings of suits that keep the known cards), every holding is ranked on
each, and each holding's wins and ties against all the others are counted by
sorting (:mod:`evaluator.odds.board_major`, mode ``sorted``). A class's
figures are the sums over its combinations: with one random opponent every
combination meets the same number of deals, so this is the mean over the
combinations that the deal enumeration takes.

Before the flop of hold'em that is 134,459 boards and 145 million holdings
ranked (the deal enumeration would rank 5.6x10^12). ``beats:`` rulesets,
split pots, several packs and more than one opponent are charted by the deal
enumeration instead (:func:`evaluator.odds.chart.chart` falls back).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.errors import error
from ..engine.cardread import read_cards
from .board_counts import HeadsUpSums
from .board_major import ExactQuestion, Plan, build_plan
from .board_run import run_plan
from .chart_run import Cell, HandClass
from .cluster import Progress
from .deals import OddsError
from .odds import deal_geometry
from .ranges import parse_range

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

#: Holdings ranked (in rank lookups) past which an exact chart is refused on one process
#: (about a quarter of an hour on the direct path); a Dask cluster takes any.
EXACT_CHART_LIMIT = 10_000_000_000


@dataclass
class ExactGrid:
    """The plan of an exact chart and, once run, every holding's sums."""

    plan: Plan
    index: dict[tuple[int, ...], int]  # holding (sorted ids) -> row of the plan's holdings
    sums: HeadsUpSums | None = None


def grid_question(ruleset: Rules, board: str, dead: str) -> ExactGrid | str:
    """Every holding against every holding, with the known cards out; or why the chart must be
    dealt deal by deal instead."""
    from ..engine.showdown import half_rulesets

    halves = [rules for _, rules in half_rulesets(ruleset)]
    if len(halves) > 1:
        return "a split pot"
    if any(rules.beats for rules in halves):
        return "beats: exceptions"
    if ruleset.copies != 1:
        return "several packs"
    hole, board_size, boards = deal_geometry(ruleset, ["random"])
    if hole != 2 or boards != 1 or board_size < 1:
        return "not a game of two hole cards and one board"
    id_of = {card: i for i, card in enumerate(ruleset.deck)}
    known = [id_of[card] for card in read_cards(ruleset, board, "<board>")] if board.strip() else []
    out = [id_of[card] for card in read_cards(ruleset, dead, "<dead>")] if dead.strip() else []
    pool = tuple(i for i in range(len(ruleset.deck)) if i not in known and i not in out)
    every = tuple((combo, 1.0) for combo in combinations(pool, 2))
    question = ExactQuestion(2, board_size, tuple(sorted(known)), tuple(sorted(out)), pool, (every, every))
    plan = build_plan(ruleset, question, prefer_sorted=True)
    if isinstance(plan, str):
        return plan
    index = {tuple(row): i for i, row in enumerate(plan.holdings.tolist())}
    return ExactGrid(plan, index)


def check_bound(ruleset: Rules, grid: ExactGrid, client: Any) -> None:
    """Refuse (O111) a chart past ``EXACT_CHART_LIMIT`` lookups on one process; a Dask cluster takes any."""
    cost = max(grid.plan.lookups, grid.plan.cost)
    if client is None and cost > EXACT_CHART_LIMIT:
        why = "" if grid.plan.space.group > 1 else " (its suits are not interchangeable: every board is ranked)"
        raise error(
            OddsError,
            "O111",
            f"an exact chart of {ruleset.name} needs about {cost:.3g} rank lookups ({len(grid.plan.holdings):,} "
            f"holdings on each of {grid.plan.boards:,} boards{why}); the bound on one process is {EXACT_CHART_LIMIT:.0e}",
            "<chart>",
            hint="give board cards, or split the boards over a Dask cluster (--workers N, --scheduler ADDRESS)",
        )


def run_grid(ruleset: Rules, grid: ExactGrid, client: Any = None, progress: Progress | None = None) -> HeadsUpSums:
    """Every board of the chart (here or on a Dask ``client``): each holding's sums."""
    sums = run_plan(ruleset, grid.plan, True, client, progress)
    assert isinstance(sums, HeadsUpSums)
    grid.sums = sums
    return sums


def exact_cell(ruleset: Rules, grid: ExactGrid, hand: HandClass, combos: int) -> Cell:
    """A class's figures: the sums over its combinations that the known cards leave."""
    assert grid.sums is not None
    id_of = {card: i for i, card in enumerate(ruleset.deck)}
    rows = []
    for combo in parse_range(ruleset, hand.name, 2, "<chart>").combos:
        key = tuple(sorted(id_of[card] for card in combo))
        if key in grid.index:
            rows.append(grid.index[key])
    picked = np.array(rows, dtype=np.int64)
    won, tied, total = (float(getattr(grid.sums, name)[picked].sum()) for name in ("win", "tie", "total"))
    if total == 0:
        return Cell(hand, combos, 0.0, 0.0, 0.0, 0.0, 0)
    return Cell(hand, combos, (won + tied / 2) / total, won / total, tied / total, 0.0, int(round(total)))
