"""Starting-hand charts: the equity of every starting-hand class against random hands.

A class is a pair (``QQ``), a suited (``AKs``) or an offsuit (``AKo``) pair of
ranks of the ruleset's deck: 169 in a 52-card deck, 81 in a 36-card one. The
chart is the grid players know: ranks from the ace down, pairs on the
diagonal, suited classes above it, offsuit below.

Each cell is an odds question (:mod:`evaluator.odds.odds`) -- the class as a range
against ``opponents`` random hands -- answered by the same deal tables and
share engine:

- **sampled** (the default): ``samples`` deals per class, cut into chunks of
  ``CHUNK_SAMPLES``, chunk ``i`` of the cell at ``row``, ``col`` drawn from
  ``SeedSequence(seed, spawn_key=(row * ranks + col, i))`` -- a cell's figures
  are the same whether it is computed alone or in the whole chart; every
  figure has its standard error;
- **exact**: every deal, one chunk per combination of the class (the class's
  equity is the mean over its combinations, each equally likely); refused
  (``O111``) when one combination needs more than ``EXACT_HARD_LIMIT`` rank
  lookups -- hold'em before the flop needs about 4x10^9 per combination, so an
  exact chart needs known board cards or a smaller deck.

The chunks run in this process or on a Dask cluster (``client=``, see
:mod:`evaluator.odds.cluster`) with identical results. Games that do not deal two
hole cards (Omaha, stud) have no 13x13 chart: their chart is a stated, seeded
sample of starting hands (:mod:`evaluator.odds.chart_sample`), computed by the
same chunks.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.errors import error
from ..engine.cardread import read_cards
from .chart_exact import ExactGrid, check_bound, exact_cell, grid_question, run_grid
from .chart_run import (
    CHUNK_SAMPLES,
    DEFAULT_CHART_SAMPLES,
    Cell,
    ChartResult,
    Chunk,
    HandClass,
    check_chart_work,
    check_question,
    deal_cost,
    exact_cost,
    run_chunk,
    settle_chart,
    worker_count,
)
from .chart_sample import sampled_chart, starting_cards
from .cluster import Progress, check_seed, drawn_seed
from .deals import OddsError
from .odds import deal_geometry
from .ranges import grid_ranks, parse_range

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

__all__ = [
    "CHUNK_SAMPLES",
    "DEFAULT_CHART_SAMPLES",
    "Cell",
    "ChartComparison",
    "ChartResult",
    "Chunk",
    "HandClass",
    "chart",
    "compare_charts",
    "grid_ranks",
    "hand_classes",
    "run_chunk",
]


def hand_classes(ruleset: Rules) -> list[HandClass]:
    """Every starting-hand class of a two-hole-card game, in grid order.

    >>> from evaluator import load
    >>> classes = hand_classes(load("holdem"))
    >>> len(classes), classes[0].name, classes[1].name, classes[13].name
    (169, 'AA', 'AKs', 'AKo')
    """
    hole, _, _ = deal_geometry(ruleset, ["random"])
    if hole != 2:
        raise error(
            OddsError,
            "O105",
            f"a starting-hand chart needs a game of two hole cards; {ruleset.name} deals {hole}",
            "<chart>",
            hint="use pokerrules odds with the hands you want to compare",
        )
    ranks = grid_ranks(ruleset)
    found = []
    for row, first in enumerate(ranks):
        for col, second in enumerate(ranks):
            if row == col:
                name = first + first
            elif row < col:
                name = f"{first}{second}s"
            else:
                name = f"{second}{first}o"
            found.append(HandClass(name, row, col))
    return found


def _combos(ruleset: Rules, name: str, board: str, dead: str) -> list[str]:
    """The combinations of a class that the known cards leave possible, as card texts."""
    known = set(read_cards(ruleset, board, "<board>")) if board.strip() else set()
    known |= set(read_cards(ruleset, dead, "<dead>")) if dead.strip() else set()
    combos = parse_range(ruleset, name, 2, "<chart>").combos
    return [" ".join(map(str, combo)) for combo in combos if ruleset.copies > 1 or not known & set(combo)]


def chart(
    ruleset: Rules,
    opponents: int = 1,
    samples: int | None = None,
    exact: bool = False,
    seed: int | None = None,
    board: str = "",
    dead: str = "",
    classes: list[str] | None = None,
    client: Any = None,
    progress: Progress | None = None,
    hands: int | None = None,
    same_hands_as: ChartResult | None = None,
) -> ChartResult:
    """The equity of every starting-hand class (or of ``classes`` only) against
    ``opponents`` random hands (see the module docstring).

    A game whose starting hand is not two hole cards gets a chart of ``hands``
    sampled starting hands instead (``classes``: hands given as cards;
    ``same_hands_as``: the hands of another sampled chart that this deck
    holds), see :func:`evaluator.odds.chart_sample.sampled_chart`.

    >>> from evaluator import load
    >>> result = chart(load("holdem"), classes=["AA"], samples=2000, seed=1)
    >>> result.method, result.cells[0].hand.name, 0.8 < result.cells[0].equity < 0.9
    ('sampled', 'AA', True)

    Raises:
        PokerRulesError: O108 too many opponents, O111 exact past the bound,
            O112 bad samples, O118 a seed out of 0 to 2^64 - 1, O122 work past
            ``MAX_WORK`` rank lookups, O117 ``hands`` or ``same_hands_as`` that do not
            fit the chart, O101/O102 an unknown class, C1xx unreadable board
            or dead cards.
    """
    started = time.monotonic()
    check_question(opponents, samples, exact)
    if seed is not None:
        check_seed(seed)
    if ruleset.by_deal:  # dealer's choice: every deal decides its own wild cards and halves
        if client is not None or exact or classes is not None or same_hands_as is not None:
            raise error(
                OddsError,
                "O117",
                f"{ruleset.name} is dealt street by street: its chart is a sample of starting hands, sampled on "
                "one machine (no --exact, classes, --against or cluster)",
                "<chart>",
            )
        from .dealt_chart import dealt_chart

        return dealt_chart(ruleset, opponents, samples, seed, hands, board, dead, progress)
    if starting_cards(ruleset) != 2 or (same_hands_as is not None and same_hands_as.sample is not None):
        return sampled_chart(
            ruleset, opponents, samples, exact, seed, board, dead, classes, client, progress, hands, same_hands_as
        )
    if hands is not None:
        raise error(
            OddsError,
            "O117",
            f"{ruleset.name} deals two hole cards: its chart is the whole grid, not a sample of hands",
            "<chart>",
            hint="drop --hands",
        )
    every = hand_classes(ruleset)
    by_name = {cls.name: cls for cls in every}
    wanted = every
    if classes is not None:
        wanted = []
        for name in classes:
            parse_range(ruleset, name, 2, "<chart>")  # an unknown rank is reported with its column
            if name not in by_name:
                raise error(OddsError, "O101", f"{name!r} is not a class of the grid (AA, AKs, AKo)", "<chart>")
            wanted.append(by_name[name])
    per_class = samples if samples is not None else DEFAULT_CHART_SAMPLES
    why = "more than one opponent" if exact and opponents > 1 else ""
    if exact and opponents == 1:
        grid = grid_question(ruleset, board, dead)
        if isinstance(grid, ExactGrid):
            return _board_major_chart(ruleset, grid, wanted, board, dead, client, progress, started)
        why = grid
    used_seed = None if exact else drawn_seed(seed)
    width = len(grid_ranks(ruleset))
    options = [_combos(ruleset, cls.name, board, dead) for cls in wanted]
    combos = [len(found) for found in options]
    dealt = [c for c, found in enumerate(options) if found]  # a class the known cards block whole: an empty cell
    if exact:
        if dealt:  # every class costs about the same per combination: the bound is checked once
            per_combo = exact_cost(ruleset, options[dealt[0]][0], opponents, board, dead, sum(combos), why)
            check_chart_work(per_combo * sum(combos), len(wanted), "classes", exact=True)
        work = float(sum(combos))
    else:
        work = float(per_class * len(dealt))
        check_chart_work(
            work * deal_cost(ruleset, opponents, board, dead),
            len(wanted),
            f"classes x {per_class:,} deals",
            exact=False,
        )

    def chunks() -> Iterator[Chunk]:
        for c in dealt:
            cls = wanted[c]
            cell = cls.row * width + cls.col  # the stream of a cell does not depend on which other cells are asked for
            if exact:
                yield from (Chunk(c, cell, i, text, opponents, board, dead, 0, 0) for i, text in enumerate(options[c]))
                continue
            for i, start in enumerate(range(0, per_class, CHUNK_SAMPLES)):
                n = min(CHUNK_SAMPLES, per_class - start)
                yield Chunk(c, cell, i, cls.name, opponents, board, dead, n, used_seed or 0)

    return settle_chart(
        ruleset,
        wanted,
        combos,
        chunks(),
        opponents=opponents,
        board=board,
        dead=dead,
        exact=exact,
        seed=used_seed,
        per_cell=per_class,
        client=client,
        progress=progress,
        started=started,
        work=work,
    )


def _board_major_chart(
    ruleset: Rules,
    grid: ExactGrid,
    wanted: list[HandClass],
    board: str,
    dead: str,
    client: Any,
    progress: Progress | None,
    started: float,
) -> ChartResult:
    """The exact chart against one random hand, every board once (:mod:`evaluator.odds.chart_exact`)."""
    check_bound(ruleset, grid, client)
    sums = run_grid(ruleset, grid, client, progress)
    cells = [exact_cell(ruleset, grid, cls, len(_combos(ruleset, cls.name, board, dead))) for cls in wanted]
    return ChartResult(
        ruleset=ruleset.name,
        ranks=grid_ranks(ruleset),
        opponents=1,
        method="exact",
        seed=None,
        samples=None,
        board=board,
        dead=dead,
        cells=cells,
        lookups=grid.plan.lookups,
        seconds=time.monotonic() - started,
        workers=worker_count(client),
        extra={"engine": "board-major", "boards": sums.boards},
    )


@dataclass
class ChartComparison:
    """Two charts and, for every class (or sampled hand) both decks hold, the change in equity (second minus first)."""

    first: ChartResult
    second: ChartResult
    differences: dict[str, float]

    def as_dict(self) -> dict[str, Any]:
        """The JSON form of ``pokerrules chart --against``."""
        return {
            "charts": [self.first.as_dict(), self.second.as_dict()],
            "difference": [{"class": name, "equity_change": change} for name, change in self.differences.items()],
        }


def compare_charts(first: ChartResult, second: ChartResult) -> ChartComparison:
    """The equity change of each class common to both charts, in the second chart's grid order."""
    mine = {cell.hand.name: cell for cell in first.cells}
    changes = {
        cell.hand.name: cell.equity - mine[cell.hand.name].equity for cell in second.cells if cell.hand.name in mine
    }
    return ChartComparison(first, second, changes)
