"""Running a board-major plan: tasks of board chunks, here or on Dask, and the answer.

A plan's boards are cut into chunks (:mod:`evaluator.odds.boards`) and the
chunks grouped, in order, into tasks of about ``TASK_LOOKUPS`` rank lookups.
Each task rebuilds the plan from the question once per process (a worker
receives the ruleset's document and the question in card ids) and returns its
sums; the sums are added in task order, so the answer is the same on one
process or any cluster.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING, Any

import numpy as np

from .board_counts import HeadsUpSums
from .board_major import (
    RAW_BOARD_COST,
    TASK_LOOKUPS,
    ExactQuestion,
    MatchupSums,
    Plan,
    build_plan,
    question_of,
    run_boards,
)
from .boards import BoardChunk
from .class_counts import ClassPairSums
from .cluster import Progress, RulesetSpec, run_chunks

if TYPE_CHECKING:
    from ..rules.ruleset import Rules
    from .deals import Table

#: Questions of fewer lookups are always dealt deal by deal (they take milliseconds).
MIN_WORK = 1_000_000

_PLANS: dict[tuple[str, ExactQuestion, bool], Plan] = {}


@dataclass(frozen=True)
class BoardTask:
    """One task: a question and the chunks of its boards to settle."""

    question: ExactQuestion
    prefer_sorted: bool
    chunks: tuple[BoardChunk, ...]
    kind: str = "sums"  # or "matchups": the class-against-class table of a chart


def plan_for(spec: RulesetSpec, question: ExactQuestion, prefer_sorted: bool) -> Plan:
    """The plan of a question, built once per process."""
    key = (spec.digest, question, prefer_sorted)
    found = _PLANS.get(key)
    if found is None:
        built = build_plan(spec.ruleset(), question, prefer_sorted)
        if isinstance(built, str):
            raise ValueError(f"the question cannot be answered board by board: {built}")
        if len(_PLANS) >= 16:
            _PLANS.clear()
        _PLANS[key] = found = built
    return found


def remember(spec: RulesetSpec, plan: Plan, prefer_sorted: bool) -> None:
    """Keep a plan built here, so that the tasks run in this process do not build it again."""
    _PLANS[(spec.digest, plan.question, prefer_sorted)] = plan


def _run_task(spec: RulesetSpec, task: BoardTask) -> MatchupSums | HeadsUpSums | ClassPairSums:
    return run_boards(plan_for(spec, task.question, task.prefer_sorted), list(task.chunks), task.kind)


def tasks_of(plan: Plan, prefer_sorted: bool, kind: str = "sums") -> tuple[list[BoardTask], list[float]]:
    """The plan's chunks grouped in order into tasks of about ``TASK_LOOKUPS`` lookups, with their work."""
    per_board = max(1, plan.lookups // plan.boards)
    group = plan.space.group
    tasks: list[BoardTask] = []
    work: list[float] = []
    current: list[BoardChunk] = []
    size = 0.0
    for chunk in plan.chunks:
        current.append(chunk)
        size += plan.space.size(chunk) / group * per_board
        if size >= TASK_LOOKUPS:
            tasks.append(BoardTask(plan.question, prefer_sorted, tuple(current), kind))
            work.append(size)
            current, size = [], 0.0
    if current or not tasks:
        tasks.append(BoardTask(plan.question, prefer_sorted, tuple(current), kind))
        work.append(max(size, 1.0))
    return tasks, work


def run_plan(
    ruleset: Rules,
    plan: Plan,
    prefer_sorted: bool,
    client: Any = None,
    progress: Progress | None = None,
    kind: str = "sums",
) -> MatchupSums | HeadsUpSums | ClassPairSums:
    """Every board of the plan, here or on a Dask ``client``: the sums, added in task order."""
    spec = RulesetSpec.of(ruleset)
    remember(spec, plan, prefer_sorted)
    tasks, work = tasks_of(plan, prefer_sorted, kind)
    total = None
    for part in run_chunks(_run_task, spec, tasks, client, progress, work):
        if total is None:
            total = part
        else:
            total.add(part)  # type: ignore[arg-type]
    assert total is not None
    return total


def board_major_plan(table: Table, work: float, bound: float) -> Plan | str:
    """The board-major plan of an odds question when it needs fewer lookups than dealing
    every deal (``work``) and at most ``bound``; else why the deals are enumerated (empty
    for a small question)."""
    if work < MIN_WORK:
        return ""  # a small question: dealing every deal is quicker than planning
    edge = table.players * table.hole
    pool = len(table.physical) + int((table.template[:edge] >= 0).sum())
    to_come = int((table.template[edge:] < 0).sum())
    if table.boards == 1 and comb(pool, to_come) * RAW_BOARD_COST >= work:
        return ""  # enumerating the boards alone costs more than dealing every deal
    question = question_of(table)
    if isinstance(question, str):
        return question
    plan = build_plan(table.ruleset, question)
    if isinstance(plan, str):
        return plan
    if plan.cost >= work:
        return ""
    if max(plan.lookups, plan.cost) > bound:
        return (
            f"about {max(plan.lookups, plan.cost):.3g} rank lookups' work ({len(plan.holdings):,} holdings on "
            f"{plan.boards:,} boards)"
        )
    return plan


# --- the answer of an odds question --------------------------------------------------------


@dataclass
class PlayerSums:
    """One player's figures from a board-major run, as fractions (the odds result's fields)."""

    equity: float
    win: float
    tie: float
    halves: list[float]


def player_figures(plan: Plan, sums: MatchupSums | HeadsUpSums) -> tuple[list[PlayerSums], list[float], int]:
    """Each player's figures, the share of deals nobody qualifies in each half, and the deals."""
    question = plan.question
    if isinstance(sums, HeadsUpSums):
        assert plan.hero is not None
        w = plan.hero
        won, tied, dead, total = (float(w @ getattr(sums, name)) for name in ("win", "tie", "dead", "total"))
        lost = total - won - tied - dead
        hero = PlayerSums((won + tied / 2) / total, won / total, tied / total, [(won + tied / 2) / total])
        villain = PlayerSums((lost + tied / 2) / total, lost / total, tied / total, [(lost + tied / 2) / total])
        players = [villain, hero] if plan.swapped else [hero, villain]
        return players, [dead / total], _pair_deals(question)
    assert plan.matchup_weights is not None
    w = plan.matchup_weights
    deals = float(w @ sums.deals)
    players = []
    for p in range(sums.equity.shape[1]):
        players.append(
            PlayerSums(
                float(w @ sums.equity[:, p]) / deals,
                float(w @ sums.win[:, p]) / deals,
                float(w @ sums.tie[:, p]) / deals,
                [float(w @ half[:, p]) / deals for half in sums.halves],
            )
        )
    boards = comb(len(question.available) - _dealt_cards(question), question.board - len(question.known))
    return players, [float(w @ dead) / deals for dead in sums.dead], int(plan.extra["matchups"]) * boards


def _dealt_cards(question: ExactQuestion) -> int:
    """Hole cards of a deal, all taken from the pool."""
    return question.hole * len(question.players)


def _pair_deals(question: ExactQuestion) -> int:
    """Deals of a heads-up question: compatible pairs of combinations times boards each."""
    first, second = ([c for c, _ in p] for p in question.players)
    masks = [[sum(1 << c for c in combo) for combo in side] for side in (first, second)]
    if max(max(side) for side in masks).bit_length() < 63:
        a, b = (np.array(side, dtype=np.int64) for side in masks)
        pairs = int(((a[:, None] & b[None, :]) == 0).sum())
    else:
        pairs = sum(1 for x in masks[0] for y in masks[1] if not x & y)
    boards = comb(len(question.available) - _dealt_cards(question), question.board - len(question.known))
    return pairs * boards
