"""The exact matchup table: every starting-hand class against every other, heads-up.

Cell ``(A, C)`` is the equity of class ``A`` against class ``C``: the mean,
weighted by how many boards each can be dealt, over every pair of a
combination of ``A`` and a combination of ``C`` that share no card -- so each
cell is the weighted average of the exact ``odds`` of its suit combinations
(AdAc against KhKs is one of the 36 of AA against KK). For hold'em that is
169 x 169 cells, 14,196 matchups of two different classes.

It is computed with the exact chart (:mod:`evaluator.odds.chart_exact`):
every board once, every holding ranked once on it, and the pairs counted
class by class (:mod:`evaluator.odds.class_counts`); the same chunks run here
or on a Dask cluster with the same numbers.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.errors import error
from .board_major import class_index
from .board_run import run_plan
from .chart import hand_classes
from .chart_exact import ExactGrid, check_bound, grid_question
from .chart_run import HandClass
from .class_counts import ClassPairSums
from .cluster import Progress
from .deals import OddsError
from .ranges import grid_ranks

if TYPE_CHECKING:
    from ..rules.ruleset import Rules


@dataclass
class MatchupTable:
    """Every class against every class: per cell the hero's wins, ties and deals (exact counts,
    weighted by nothing: each deal once)."""

    ruleset: str
    ranks: list[str]
    classes: list[HandClass]
    wins: np.ndarray  # (classes, classes), row: the hero's class
    ties: np.ndarray
    dead: np.ndarray  # neither qualifies
    deals: np.ndarray
    board: str
    dead_cards: str
    boards: int = 0
    lookups: int = 0
    seconds: float = 0.0
    workers: int = 1
    extra: dict[str, Any] = field(default_factory=dict)

    def index(self, name: str) -> int:
        """The row (and column) of class ``name``."""
        for i, cls in enumerate(self.classes):
            if cls.name == name:
                return i
        raise KeyError(name)

    def equity(self, hero: str, villain: str) -> float:
        """The hero class's share of the pot against the villain class (0 when they never meet)."""
        i, j = self.index(hero), self.index(villain)
        deals = self.deals[i, j]
        return float((self.wins[i, j] + self.ties[i, j] / 2) / deals) if deals else 0.0

    def equities(self) -> np.ndarray:
        """Every cell's equity (NaN where the classes never meet)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            found: np.ndarray = np.where(self.deals > 0, (self.wins + self.ties / 2) / self.deals, np.nan)
        return found

    def method_text(self) -> str:
        """One line saying what the table is and how it was counted."""
        known = "".join(
            f", {what} {text}" for what, text in (("board", self.board), ("dead", self.dead_cards)) if text.strip()
        )
        return (
            f"exact: every class against every class, heads-up{known}; {self.boards:,} boards, "
            f"{int(self.deals.sum()):,} deals"
        )

    def as_dict(self) -> dict[str, Any]:
        """The JSON form of ``pokerrules chart --matchups --exact``: one entry per pair of classes that meet."""
        cells = []
        for i, hero in enumerate(self.classes):
            for j, villain in enumerate(self.classes):
                deals = int(self.deals[i, j])
                if not deals:
                    continue
                cells.append(
                    {
                        "class": hero.name,
                        "against": villain.name,
                        "equity": (float(self.wins[i, j]) + float(self.ties[i, j]) / 2) / deals,
                        "win": float(self.wins[i, j]) / deals,
                        "tie": float(self.ties[i, j]) / deals,
                        "wins": int(self.wins[i, j]),
                        "ties": int(self.ties[i, j]),
                        "deals": deals,
                    }
                )
        return {
            "ruleset": self.ruleset,
            "ranks": list(self.ranks),
            "method": "exact",
            "board": self.board,
            "dead": self.dead_cards,
            "classes": [cls.name for cls in self.classes],
            "boards": self.boards,
            "cells": cells,
        }


def matchups(
    ruleset: Rules,
    board: str = "",
    dead: str = "",
    client: Any = None,
    progress: Progress | None = None,
) -> MatchupTable:
    """The exact table of every class against every class (see the module docstring).

    >>> from evaluator import load
    >>> table = matchups(load("royal-holdem"), board="Ah Kd Qs")
    >>> round(table.equity("AA", "KK"), 4), round(table.equity("KK", "AA"), 4)
    (0.7564, 0.2436)

    Raises:
        PokerRulesError: O126 a game the table cannot be computed for (not two hole cards and
            one board, a split pot, ``beats:`` exceptions, several packs), O111 past the bound of
            one process, card codes for unreadable ``board`` or ``dead`` cards.
    """
    started = time.monotonic()
    classes = hand_classes(ruleset)
    grid = grid_question(ruleset, board, dead)
    if not isinstance(grid, ExactGrid):
        raise error(
            OddsError,
            "O126",
            f"an exact matchup table of {ruleset.name} cannot be counted board by board: {grid}",
            "<chart>",
            hint="chart --exact gives each class against a random hand; odds --exact gives one matchup",
        )
    check_bound(ruleset, grid, client)
    sums = run_plan(ruleset, grid.plan, True, client, progress, kind="matchups")
    assert isinstance(sums, ClassPairSums)
    wins, ties, neither, deals = sums.table(grid.plan.rows, class_index(grid.plan))
    width = len(grid_ranks(ruleset))
    order = np.array([cls.row * width + cls.col for cls in classes], dtype=np.int64)
    pick = np.ix_(order, order)
    from .chart_run import worker_count

    return MatchupTable(
        ruleset=ruleset.name,
        ranks=grid_ranks(ruleset),
        classes=classes,
        wins=np.rint(wins[pick]),
        ties=np.rint(ties[pick]),
        dead=np.rint(neither[pick]),
        deals=np.rint(deals[pick]),
        board=board,
        dead_cards=dead,
        boards=sums.boards,
        lookups=grid.plan.lookups,
        seconds=time.monotonic() - started,
        workers=worker_count(client),
    )
