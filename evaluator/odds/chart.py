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
from collections.abc import Sequence
from dataclasses import dataclass, field
from math import sqrt
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.errors import error
from ..engine.cardread import read_cards
from .cluster import Progress, RulesetSpec, chunk_rng, drawn_seed, run_chunks
from .deals import BATCH, OddsError
from .odds import EXACT_HARD_LIMIT, MAX_PLAYERS, MAX_SAMPLES, _geometry, exact_lookups, prepare
from .ranges import parse_range

if TYPE_CHECKING:
    from ..rules.ruleset import Rules
    from .chart_sample import HandSample, SampledHand
    from .deals import Table
    from .shares import ShareEngine

#: Deals per class when neither ``samples`` nor ``exact`` is given (standard error about 0.3%).
DEFAULT_CHART_SAMPLES = 20_000
#: Deals per chunk: the unit that carries its own random stream.
CHUNK_SAMPLES = 10_000
#: Deals per task shipped to a worker (consecutive chunks grouped): a task is then about a tenth of a second.
TASK_SAMPLES = 100_000


@dataclass(frozen=True)
class HandClass:
    """One cell of the grid: ``row``/``col`` from the top left (the highest rank)."""

    name: str
    row: int
    col: int

    @property
    def kind(self) -> str:
        """``pair``, ``suited`` or ``offsuit``."""
        return "pair" if self.row == self.col else ("suited" if self.row < self.col else "offsuit")


@dataclass
class Cell:
    """The figures of one class, or of one sampled hand (fractions of 1)."""

    hand: HandClass | SampledHand
    combos: int
    equity: float
    win: float
    tie: float
    std_error: float
    deals: int

    def as_dict(self) -> dict[str, Any]:
        """The JSON form of one cell (a sampled hand has its place and draws instead of a grid place)."""
        place = (
            {"row": self.hand.row, "col": self.hand.col}
            if isinstance(self.hand, HandClass)
            else {"index": self.hand.index, "drawn": self.hand.drawn}
        )
        return {
            "class": self.hand.name,
            "kind": self.hand.kind,
            **place,
            "combos": self.combos,
            "equity": self.equity,
            "win": self.win,
            "tie": self.tie,
            "std_error": self.std_error,
            "deals": self.deals,
        }


@dataclass
class ChartResult:
    """A starting-hand chart of one ruleset."""

    ruleset: str
    ranks: list[str]  # grid order, highest first
    opponents: int
    method: str  # "exact" | "sampled"
    seed: int | None
    samples: int | None  # deals per class when sampled
    board: str
    dead: str
    cells: list[Cell]
    lookups: int = 0
    seconds: float = 0.0
    workers: int = 1
    extra: dict[str, Any] = field(default_factory=dict)
    sample: HandSample | None = None  # the rule of a sampled-hand chart; None for the grid

    @property
    def deals(self) -> int:
        """Deals settled in all (matchups x boards)."""
        return sum(cell.deals for cell in self.cells)

    @property
    def max_error(self) -> float:
        """The largest standard error of a cell's equity (0 when exact)."""
        return max((cell.std_error for cell in self.cells), default=0.0)

    def grid_cells(self) -> list[tuple[int, int, Cell]]:
        """(row, col, cell) of every grid class (none in a sampled-hand chart)."""
        return [(cell.hand.row, cell.hand.col, cell) for cell in self.cells if isinstance(cell.hand, HandClass)]

    def cell(self, name: str) -> Cell:
        """The cell of class ``name`` (``AKs``)."""
        for cell in self.cells:
            if cell.hand.name == name:
                return cell
        raise KeyError(name)

    def as_dict(self) -> dict[str, Any]:
        """The JSON form of ``pokerrules chart --json``."""
        return {
            "ruleset": self.ruleset,
            "ranks": list(self.ranks),
            "opponents": self.opponents,
            "method": self.method,
            "seed": self.seed,
            "samples_per_class": self.samples,
            "board": self.board,
            "dead": self.dead,
            "deals": self.deals,
            "max_std_error": self.max_error,
            "sample": None if self.sample is None else self.sample.as_dict(self.cells),
            "cells": [cell.as_dict() for cell in self.cells],
        }


def hand_classes(ruleset: Rules) -> list[HandClass]:
    """Every starting-hand class of a two-hole-card game, in grid order.

    >>> from evaluator import load
    >>> classes = hand_classes(load("holdem"))
    >>> len(classes), classes[0].name, classes[1].name, classes[13].name
    (169, 'AA', 'AKs', 'AKo')
    """
    hole, _, _ = _geometry(ruleset, ["random"])
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


def grid_ranks(ruleset: Rules) -> list[str]:
    """The ranks along the grid, highest first (the ace high, as classes are written).

    >>> from evaluator import load
    >>> grid_ranks(load("short-deck-holdem"))
    ['A', 'K', 'Q', 'J', 'T', '9', '8', '7', '6']
    """
    order = list(ruleset.deck_ranks)
    if "A" in order:
        order = [rank for rank in order if rank != "A"] + ["A"]
    return order[::-1]


@dataclass(frozen=True)
class _Chunk:
    position: int  # in the cells asked for
    cell: int  # in the whole grid: row * ranks + col
    index: int
    hand: str  # a class (sampled) or one combination (exact)
    opponents: int
    board: str
    dead: str
    samples: int  # 0: every deal
    seed: int


_PREPARED: dict[tuple[str, str, int, str, str], tuple[Table, ShareEngine]] = {}


def _prepared(spec: RulesetSpec, chunk: _Chunk) -> tuple[Table, ShareEngine]:
    """The deal table and engine of a chunk's question, built once per process."""
    key = (spec.digest, chunk.hand, chunk.opponents, chunk.board, chunk.dead)
    found = _PREPARED.get(key)
    if found is None:
        if len(_PREPARED) > 512:
            _PREPARED.clear()
        hands = [chunk.hand] + ["random"] * chunk.opponents
        found = prepare(spec.ruleset(), hands, chunk.board, chunk.dead)
        _PREPARED[key] = found
    return found


def run_chunk(spec: RulesetSpec, chunk: _Chunk) -> tuple[float, float, float, float, int]:
    """Sums of the first player's share over a chunk's deals: (share, share^2, wins, ties, deals)."""
    table, engine = _prepared(spec, chunk)
    total = squares = wins = ties = 0.0
    deals = 0

    def add(shares: np.ndarray) -> None:
        nonlocal total, squares, wins, ties, deals
        hero = np.ascontiguousarray(shares[:, 0])
        total += float(hero.sum())
        squares += float(hero @ hero)
        whole = hero > 1 - 1e-9
        wins += float(np.count_nonzero(whole))
        ties += float(np.count_nonzero((hero > 1e-12) & ~whole))
        deals += len(hero)

    if chunk.samples == 0:
        for batch, _ in table.exact_batches():  # one fixed combination: every deal weighs the same
            add(engine.settle(batch).shares)
    else:
        rng = chunk_rng(chunk.seed, chunk.cell, chunk.index)
        drawn = 0
        while drawn < chunk.samples:
            n = min(BATCH, chunk.samples - drawn)
            add(engine.settle(table.sample(rng, n)).shares)
            drawn += n
    return total, squares, wins, ties, deals


def run_group(spec: RulesetSpec, group: tuple[_Chunk, ...]) -> list[tuple[float, float, float, float, int]]:
    """The sums of several chunks, in order (one task: a task of a few milliseconds costs more to ship than to run)."""
    return [run_chunk(spec, chunk) for chunk in group]


def _groups(chunks: list[_Chunk]) -> list[tuple[_Chunk, ...]]:
    """Consecutive chunks in tasks of about ``TASK_SAMPLES`` deals (an exact chunk is a task of its own).

    Each chunk keeps its own stream, so the grouping does not change the answer.
    """
    groups: list[tuple[_Chunk, ...]] = []
    current: list[_Chunk] = []
    size = 0
    for chunk in chunks:
        if current and (chunk.samples == 0 or size + chunk.samples > TASK_SAMPLES):
            groups.append(tuple(current))
            current, size = [], 0
        current.append(chunk)
        size += chunk.samples
        if chunk.samples == 0:
            groups.append(tuple(current))
            current, size = [], 0
    if current:
        groups.append(tuple(current))
    return groups


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
            O112 bad samples, O117 ``hands`` or ``same_hands_as`` that do not
            fit the chart, O101/O102 an unknown class, C1xx unreadable board
            or dead cards.
    """
    from .chart_sample import sampled_chart, starting_cards

    started = time.monotonic()
    check_question(opponents, samples, exact)
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
    spec = RulesetSpec.of(ruleset)
    per_class = samples if samples is not None else DEFAULT_CHART_SAMPLES
    used_seed = None if exact else drawn_seed(seed)
    chunks: list[_Chunk] = []
    combos: list[int] = []
    cost = 0.0
    width = len(grid_ranks(ruleset))
    for c, cls in enumerate(wanted):
        cell = cls.row * width + cls.col  # the stream of a cell does not depend on which other cells are asked for
        options = _combos(ruleset, cls.name, board, dead)
        combos.append(len(options))
        if not options:  # every combination blocked by the known cards: an empty cell
            continue
        if exact:
            if not cost:  # every class costs about the same: the bound is checked once
                every_combo = sum(len(_combos(ruleset, k.name, board, dead)) for k in wanted)
                cost = exact_cost(ruleset, options[0], opponents, board, dead, every_combo)
            chunks += [_Chunk(c, cell, i, text, opponents, board, dead, 0, 0) for i, text in enumerate(options)]
        else:
            for i, start in enumerate(range(0, per_class, CHUNK_SAMPLES)):
                n = min(CHUNK_SAMPLES, per_class - start)
                chunks.append(_Chunk(c, cell, i, cls.name, opponents, board, dead, n, used_seed or 0))
    groups = _groups(chunks)
    work = [sum(max(c.samples, 1) for c in group) for group in groups]
    sums = [part for group in run_chunks(run_group, spec, groups, client, progress, work) for part in group]
    cells = _cells(wanted, combos, chunks, sums, exact)
    engine_cost = prepare(ruleset, ["random"] * (opponents + 1), board, dead)[1].cost
    return ChartResult(
        ruleset=ruleset.name,
        ranks=grid_ranks(ruleset),
        opponents=opponents,
        method="exact" if exact else "sampled",
        seed=used_seed,
        samples=None if exact else per_class,
        board=board,
        dead=dead,
        cells=cells,
        lookups=sum(cell.deals for cell in cells) * engine_cost,
        seconds=time.monotonic() - started,
        workers=_worker_count(client),
    )


def check_question(opponents: int, samples: int | None, exact: bool) -> None:
    """Refuse opponents out of 1..22 (O108), and samples out of range or with ``exact`` (O112)."""
    if not 1 <= opponents <= MAX_PLAYERS - 1:
        raise error(OddsError, "O108", f"{opponents} opponents; a chart takes 1 to {MAX_PLAYERS - 1}", "<chart>")
    if exact and samples is not None:
        raise error(OddsError, "O112", "exact and samples exclude each other", "<chart>")
    if samples is not None and not 1 <= samples <= MAX_SAMPLES:
        raise error(OddsError, "O112", f"samples must be from 1 to {MAX_SAMPLES:,}", "<chart>")


def exact_cost(ruleset: Rules, combo: str, opponents: int, board: str, dead: str, combinations: int) -> float:
    """Rank lookups of one combination's exact chunk (``combinations`` of them in the chart);
    refused (O111) past ``EXACT_HARD_LIMIT``."""
    table, engine = prepare(ruleset, [combo] + ["random"] * opponents, board, dead)
    cost = exact_lookups(table, engine, EXACT_HARD_LIMIT)
    if cost > EXACT_HARD_LIMIT:
        whole = cost * combinations
        raise error(
            OddsError,
            "O111",
            f"an exact chart needs about {cost:.3g} rank lookups per combination ({whole:.3g} in all); "
            f"the bound per combination is {EXACT_HARD_LIMIT:.0e}",
            "<chart>",
            hint="drop --exact to sample, or give board cards",
        )
    return cost


def _cells(
    wanted: Sequence[HandClass | SampledHand],
    combos: list[int],
    chunks: list[_Chunk],
    sums: list[tuple[float, float, float, float, int]],
    exact: bool,
) -> list[Cell]:
    """Combine the chunk sums of each cell, in chunk order."""
    parts: list[list[tuple[float, float, float, float, int]]] = [[] for _ in wanted]
    for chunk, part in zip(chunks, sums, strict=True):
        parts[chunk.position].append(part)
    cells = []
    for cls, count, own in zip(wanted, combos, parts, strict=True):
        deals = sum(p[4] for p in own)
        if not own or deals == 0:
            cells.append(Cell(cls, count, 0.0, 0.0, 0.0, 0.0, 0))
            continue
        if exact:  # the mean over the combinations, each equally likely
            equity = sum(p[0] / p[4] for p in own) / len(own)
            win = sum(p[2] / p[4] for p in own) / len(own)
            tie = sum(p[3] / p[4] for p in own) / len(own)
            cells.append(Cell(cls, count, equity, win, tie, 0.0, deals))
            continue
        total, squares = sum(p[0] for p in own), sum(p[1] for p in own)
        equity = total / deals
        variance = max(squares / deals - equity * equity, 0.0)
        cells.append(
            Cell(
                cls,
                count,
                equity,
                sum(p[2] for p in own) / deals,
                sum(p[3] for p in own) / deals,
                sqrt(variance / max(deals - 1, 1)),
                deals,
            )
        )
    return cells


def _worker_count(client: Any) -> int:
    if client is None:
        return 1
    try:
        return len(client.scheduler_info().get("workers", {})) or 1
    except (AttributeError, OSError):
        return 1


@dataclass
class ChartComparison:
    """Two charts and, for every class both decks hold, the change in equity (second minus first)."""

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
