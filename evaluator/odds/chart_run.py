"""The chunks and results of a starting-hand chart, grid or sampled hands.

A chart's work is a list of :class:`Chunk` -- one hand (a class, or a sampled
hand's cards) against ``opponents`` random hands, ``samples`` deals from the
stream ``SeedSequence(seed, spawn_key=(cell, index))``, or every deal -- run
here or on Dask workers (:mod:`evaluator.odds.cluster`) and combined in chunk
order into one :class:`Cell` per class or hand. The grid is built in
:mod:`evaluator.odds.chart`, the sampled hands in :mod:`evaluator.odds.chart_sample`.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from math import sqrt
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.errors import error
from .cluster import Progress, RulesetSpec, check_work, chunk_rng, cluster_workers, fold_chunks
from .deals import BATCH, OddsError
from .odds import EXACT_HARD_LIMIT, MAX_PLAYERS, MAX_SAMPLES, exact_lookups, prepare
from .ranges import grid_ranks

if TYPE_CHECKING:
    from ..rules.ruleset import Rules
    from .deals import Table
    from .shares import ShareEngine

#: Deals per class when neither ``samples`` nor ``exact`` is given (standard error about 0.3%).
DEFAULT_CHART_SAMPLES = 20_000
#: Deals per chunk: the unit that carries its own random stream.
CHUNK_SAMPLES = 10_000
#: Deals per task shipped to a worker (consecutive chunks grouped): a task is then about a tenth of a second.
TASK_SAMPLES = 100_000
#: Tasks per chart at most (bigger tasks past it): a Dask client keeps about half a kilobyte per task run.
MAX_TASKS = 10_000


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


@dataclass(frozen=True)
class SampledHand:
    """One distinct hand of the sample: its cards as text, its place and how many draws gave it.

    ``index`` keys the hand's deal streams: its place in the sample (in order of
    first draw), kept when another ruleset charts the same hands.
    """

    name: str
    index: int
    drawn: int

    @property
    def kind(self) -> str:
        """Always ``sampled`` (a grid class is ``pair``, ``suited`` or ``offsuit``)."""
        return "sampled"


@dataclass(frozen=True)
class HandSample:
    """How the hands of a sampled chart were chosen."""

    hands: int  # draws
    seed: int
    cards: int  # cards of a starting hand
    relabelled: bool  # suits renamed to a canonical form, equal hands merged
    rule: str

    def as_dict(self, cells: list[Cell]) -> dict[str, Any]:
        """The ``sample`` object of the JSON form, with the mean equity over the draws."""
        played = [(cell.hand.drawn, cell.equity) for cell in cells if isinstance(cell.hand, SampledHand) and cell.deals]
        weight = sum(drawn for drawn, _ in played)
        return {
            "hands": self.hands,
            "distinct": len(cells),
            "cards": self.cards,
            "seed": self.seed,
            "relabelled": self.relabelled,
            "rule": self.rule,
            "mean_equity": sum(drawn * equity for drawn, equity in played) / weight if weight else None,
        }


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
            # a dealer's-choice game: the rules its deals decide (which cards are wild, and why)
            **({"deal_rules": list(self.extra["deal_rules"])} if "deal_rules" in self.extra else {}),
        }


@dataclass(frozen=True)
class Chunk:
    """One unit of chart work: a cell (class or sampled hand), its part number, the question and its seed."""

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


def _prepared(spec: RulesetSpec, chunk: Chunk) -> tuple[Table, ShareEngine]:
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


def run_chunk(spec: RulesetSpec, chunk: Chunk) -> tuple[float, float, float, float, int]:
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
            add(engine.settle(batch, table.template).shares)
    else:
        rng = chunk_rng(chunk.seed, chunk.cell, chunk.index)
        drawn = 0
        while drawn < chunk.samples:
            n = min(BATCH, chunk.samples - drawn)
            add(engine.settle(table.sample(rng, n), table.template).shares)
            drawn += n
    return total, squares, wins, ties, deals


def run_group(spec: RulesetSpec, group: tuple[Chunk, ...]) -> list[tuple[float, float, float, float, int]]:
    """The sums of several chunks, in order (one task: a task of a few milliseconds costs more to ship than to run)."""
    return [run_chunk(spec, chunk) for chunk in group]


def group_chunks(chunks: Iterable[Chunk], task_samples: int = TASK_SAMPLES) -> Iterator[tuple[Chunk, ...]]:
    """Consecutive chunks in tasks of about ``task_samples`` deals (an exact chunk is a task of its own),
    made as they are needed.

    Each chunk keeps its own stream, so the grouping does not change the answer.
    """
    current: list[Chunk] = []
    size = 0
    for chunk in chunks:
        if current and (chunk.samples == 0 or size + chunk.samples > task_samples):
            yield tuple(current)
            current, size = [], 0
        current.append(chunk)
        size += chunk.samples
        if chunk.samples == 0:
            yield tuple(current)
            current, size = [], 0
    if current:
        yield tuple(current)


def check_question(opponents: int, samples: int | None, exact: bool) -> None:
    """Refuse opponents out of 1..22 (O108), and samples out of range or with ``exact`` (O112)."""
    if not 1 <= opponents <= MAX_PLAYERS - 1:
        raise error(OddsError, "O108", f"{opponents} opponents; a chart takes 1 to {MAX_PLAYERS - 1}", "<chart>")
    if exact and samples is not None:
        raise error(OddsError, "O112", "exact and samples exclude each other", "<chart>")
    if samples is not None and not 1 <= samples <= MAX_SAMPLES:
        raise error(OddsError, "O112", f"samples must be from 1 to {MAX_SAMPLES:,}", "<chart>")


def exact_cost(
    ruleset: Rules, combo: str, opponents: int, board: str, dead: str, combinations: int, why: str = ""
) -> float:
    """Rank lookups of one combination's exact chunk (``combinations`` of them in the chart);
    refused (O111) past ``EXACT_HARD_LIMIT`` (``why``: why the chart is not counted board by board)."""
    table, engine = prepare(ruleset, [combo] + ["random"] * opponents, board, dead)
    cost = exact_lookups(table, engine, EXACT_HARD_LIMIT)
    if cost > EXACT_HARD_LIMIT:
        whole = cost * combinations
        raise error(
            OddsError,
            "O111",
            f"an exact chart needs about {cost:.3g} rank lookups per combination ({whole:.3g} in all); "
            f"the bound per combination is {EXACT_HARD_LIMIT:.0e}"
            + (f" (dealt deal by deal, not counted board by board: {why})" if why else ""),
            "<chart>",
            hint="drop --exact to sample, or give board cards",
        )
    return cost


class CellSums:
    """The chunk sums of one cell, added in chunk order (the same additions as summing a list)."""

    def __init__(self) -> None:
        self.total = self.squares = self.wins = self.ties = 0.0
        self.deals = 0
        self.parts = 0
        self.equities = self.win_rates = self.tie_rates = 0.0  # exact: the sum of each combination's mean

    def add(self, part: tuple[float, float, float, float, int]) -> None:
        """Add one chunk's (share, share^2, wins, ties, deals)."""
        total, squares, wins, ties, deals = part
        self.total += total
        self.squares += squares
        self.wins += wins
        self.ties += ties
        self.deals += deals
        self.parts += 1
        if deals:
            self.equities += total / deals
            self.win_rates += wins / deals
            self.tie_rates += ties / deals

    def cell(self, hand: HandClass | SampledHand, combos: int, exact: bool) -> Cell:
        """The cell's figures: exact, the mean over its combinations (each equally likely); sampled, over its deals."""
        if not self.parts or self.deals == 0:
            return Cell(hand, combos, 0.0, 0.0, 0.0, 0.0, 0)
        if exact:
            parts = self.parts
            return Cell(
                hand, combos, self.equities / parts, self.win_rates / parts, self.tie_rates / parts, 0.0, self.deals
            )
        equity = self.total / self.deals
        variance = max(self.squares / self.deals - equity * equity, 0.0)
        return Cell(
            hand,
            combos,
            equity,
            self.wins / self.deals,
            self.ties / self.deals,
            sqrt(variance / max(self.deals - 1, 1)),
            self.deals,
        )


def deal_cost(ruleset: Rules, opponents: int, board: str, dead: str) -> int:
    """Rank lookups per deal of a chart's question (a hand against ``opponents`` random hands)."""
    return prepare(ruleset, ["random"] * (opponents + 1), board, dead)[1].cost


def check_chart_work(lookups: float, cells: int, what: str, exact: bool) -> None:
    """Refuse (O122) a chart whose work is past the bound, with its estimate, before any of it runs
    (``what``: the cells, "classes" or "hands")."""
    if exact:
        check_work(
            lookups, f"an exact chart of {cells:,} {what}", "<chart>", "give board cards, or drop --exact to sample"
        )
        return
    check_work(lookups, f"a chart of {cells:,} {what}", "<chart>", "ask for fewer --samples (or --hands)")


def worker_count(client: Any) -> int:
    """How many workers ran the chart: those of a Dask ``client``, else 1 (this process)."""
    return cluster_workers(client)


def settle_chart(
    ruleset: Rules,
    wanted: Sequence[HandClass | SampledHand],
    combos: list[int],
    chunks: Iterable[Chunk],
    *,
    opponents: int,
    board: str,
    dead: str,
    exact: bool,
    seed: int | None,
    per_cell: int,
    client: Any,
    progress: Progress | None,
    started: float,
    work: float,
    sample: HandSample | None = None,
) -> ChartResult:
    """Run ``chunks`` (here or on a Dask ``client``; made as they are needed) and build the chart
    of ``wanted`` (``per_cell`` deals per cell when sampled; ``started``: when the chart began;
    ``work``: the deals of every sampled chunk plus one per exact chunk, for the progress)."""
    spec = RulesetSpec.of(ruleset)
    sums = [CellSums() for _ in wanted]

    def fold(group: tuple[Chunk, ...], parts: list[tuple[float, float, float, float, int]]) -> None:
        for chunk, part in zip(group, parts, strict=True):
            sums[chunk.position].add(part)

    task_samples = max(TASK_SAMPLES, int(work // MAX_TASKS) + 1)  # a huge chart: fewer, bigger tasks
    fold_chunks(
        run_group,
        spec,
        group_chunks(chunks, task_samples),
        fold,
        client,
        progress,
        total=work,
        work=lambda group: sum(max(c.samples, 1) for c in group),
    )
    cells = [found.cell(cls, count, exact) for cls, count, found in zip(wanted, combos, sums, strict=True)]
    return ChartResult(
        ruleset=ruleset.name,
        ranks=grid_ranks(ruleset),
        opponents=opponents,
        method="exact" if exact else "sampled",
        seed=seed,
        samples=None if exact else per_cell,
        board=board,
        dead=dead,
        cells=cells,
        lookups=sum(cell.deals for cell in cells) * deal_cost(ruleset, opponents, board, dead),
        seconds=time.monotonic() - started,
        workers=worker_count(client),
        sample=sample,
    )
