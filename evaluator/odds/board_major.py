"""Exact equity board by board: every board once, every holding ranked once on it.

The deal-by-deal enumeration of :mod:`evaluator.odds.deals` ranks each
player's hand on each board again for every choice of the other players'
cards. Here the question is turned around: the boards that complete the deal
are enumerated once (:mod:`evaluator.odds.boards`, up to the renamings of
suits that change nothing), every holding any player may hold is ranked on
each of them in one batch (:mod:`evaluator.odds.board_values`), and the
showdowns are settled from those values:

- **by matchup** (``tuples``): every compatible choice of one combination per
  player is a matchup; its players' values are gathered from the board's row
  and compared -- any number of players, hi-lo halves, qualifiers;
- **by sorting** (``sorted``): heads-up with one pot and holdings of at most
  two cards, when the matchups are too many (a range against ``random``, the
  starting-hand chart): every hero holding's wins and ties against all the
  opponent's holdings are counted from one sort per board
  (:mod:`evaluator.odds.board_counts`), card removal by inclusion-exclusion.

Symmetry. The boards are taken up to the renamings of suits that keep the
ruleset and the known cards (board, dead, fixed hands) the same. A matchup
that a renaming changes is replaced by all its images, each with its share of
the weight, so the sums over the kept boards are the sums over every board
(a sum over an orbit of boards of one matchup is the sum over one board of the
matchup's images). By sorting, the opponent's range must be kept by the
renamings; the hero's holdings are then averaged over their images the same way.

Exact sums: with unit weights every sum is an integer held exactly in a
double, so the answer does not depend on how the boards are cut into chunks;
weighted ranges add in the fixed chunk order. The chunks depend only on the
question, so one process or any number of Dask workers give the same numbers.

Not here (the caller falls back to the deal enumeration): ``beats:``
exceptions, several packs, double boards, games without a board, and
questions whose matchups are too many to list that are not heads-up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from math import comb, prod
from typing import TYPE_CHECKING, Any

import numpy as np

from .board_counts import HeadsUpSums, card_rows, heads_up
from .board_values import DEAD, HoldingValues
from .boards import BoardChunk, BoardSpace, id_permutations, keeping, suit_renamings
from .class_counts import ClassPairSums, class_pairs, holding_classes
from .ranges import grid_ranks

if TYPE_CHECKING:
    from ..rules.ruleset import Rules
    from .deals import Table

#: Matchups listed at most (after adding their images under the renamings of suits).
MAX_MATCHUPS = 1 << 16
#: Holding values per batch of boards: the working arrays stay in the cache.
BATCH_VALUES = 1 << 16
#: Rank lookups per task shipped to a Dask worker (and per step of the progress bar).
TASK_LOOKUPS = 1 << 22
#: Costs in deal-enumeration lookups (measured on the direct path): a board enumerated and
#: tested for its renamings, a holding ranked by rank class, a matchup's player compared, a
#: holding counted by sorting.
RAW_BOARD_COST = 3.0
VALUE_COST = 0.5
MATCHUP_COST = 0.3
SORTED_COST = 2.0


@dataclass(frozen=True)
class ExactQuestion:
    """A deal in card ids, picklable: what a Dask worker needs besides the ruleset.

    ``players``: per player, its combinations of hole cards (ids, sorted) and their weights.
    """

    hole: int
    board: int  # board cards of a deal
    known: tuple[int, ...]  # board cards already out
    dead: tuple[int, ...]
    available: tuple[int, ...]  # the pool: every card neither on the board nor dead (one pack: each once)
    players: tuple[tuple[tuple[tuple[int, ...], float], ...], ...]


def question_of(table: Table) -> ExactQuestion | str:
    """The board-major form of a deal table, or why the deal enumeration must answer instead.

    Every player's combinations come from the *pool*: the cards that are neither on the board
    nor dead. Cards held by a fixed hand stay in the pool (the renamings of suits need not keep
    them); a matchup or a board that uses one twice is simply never dealt.
    """
    rules = table.ruleset
    if rules.copies != 1:
        return "several packs"
    if table.boards != 1 or table.board < 1:
        return "no single shared board" if table.board >= 1 else "no board"
    if any(half.beats for half in _halves(rules)):
        return "beats: exceptions (non-transitive) need the showdown of every deal"
    hole = table.hole
    edge = table.players * hole
    known = tuple(int(i) for i in table.template[edge:] if i >= 0)
    held = {int(i) for i in table.template[:edge] if i >= 0}
    left = {int(i) for i in table.physical.tolist()}
    dead = tuple(i for i in range(len(rules.deck)) if i not in left and i not in held and i not in known)
    pool = tuple(sorted(left | held))
    ranged = dict(zip(table.ranged, range(len(table.ranged)), strict=True))
    players = []
    for p in range(table.players):
        if p in ranged:
            k = ranged[p]
            combos = [tuple(sorted(int(i) for i in row)) for row in table.combos[k].tolist()]
            if len(combos[0]) < hole:
                return "ranges of part of a hand"
            players.append(tuple(zip(combos, (float(w) for w in table.weights[k]), strict=True)))
            continue
        mine = [int(i) for i in table.template[p * hole : (p + 1) * hole] if i >= 0]
        rest = [card for card in pool if card not in mine]
        if comb(len(rest), hole - len(mine)) > 1 << 20:
            return "too many hands to list for a player whose cards are dealt"
        # cards still to come for this player: every completion, alike
        players.append(
            tuple((tuple(sorted(mine + list(extra))), 1.0) for extra in combinations(rest, hole - len(mine)))
        )
    return ExactQuestion(hole, table.board, known, dead, pool, tuple(players))


def _halves(rules: Rules) -> list[Rules]:
    from ..engine.showdown import half_rulesets

    return [half for _, half in half_rulesets(rules)]


@dataclass
class Plan:
    """How one question is answered board-major (built once per process, kept in ``_PLANS``)."""

    question: ExactQuestion
    mode: str  # "tuples" | "sorted"
    holdings: np.ndarray  # (n, hole) ids: every holding any player may hold, once
    values: HoldingValues
    space: BoardSpace
    chunks: list[BoardChunk]
    # tuples: (matchups, players) holding indices and each matchup's weight
    matchups: np.ndarray | None = None
    matchup_weights: np.ndarray | None = None
    # sorted: the hero's weight per holding (averaged over the renamings), the opponent's
    hero: np.ndarray | None = None
    opponent: np.ndarray | None = None
    swapped: bool = False  # the first player is the opponent of the sort
    rows: Any = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def boards(self) -> int:
        """Boards ranked (after the renamings), estimated from the group's size."""
        return max(1, self.space.total // self.space.group)

    @property
    def lookups(self) -> int:
        """Rank lookups of the whole question: boards times holdings, per half."""
        return self.boards * len(self.holdings) * len(self.values.halves) * self._lookup_cost()

    @property
    def cost(self) -> float:
        """The work of the whole question in the unit of one rank lookup of the deal enumeration
        (about 40 ns on the direct path): the boards enumerated and kept, the holdings ranked on
        them, the matchups compared or the holdings counted (ratios measured on the direct path)."""
        raw = self.space.total * (RAW_BOARD_COST if self.space.group > 1 else 1.0)
        per_board = len(self.holdings) * len(self.values.halves) * self._lookup_cost() * VALUE_COST
        if self.mode == "sorted":
            per_board += len(self.holdings) * SORTED_COST
        else:
            assert self.matchups is not None
            per_board += self.matchups.size * len(self.values.halves) * MATCHUP_COST
        return raw + self.boards * per_board

    def _lookup_cost(self) -> int:
        """What one holding ranked costs in lookups (a suit tie-break ranks every subset)."""
        cost = 1
        for half, fast in zip(self.values.halves, self.values.fast, strict=True):
            if fast:
                continue
            k = self.question.hole + self.question.board
            size = half.ranker.size
            subsets = len(self.values.subsets) if self.values.subsets is not None else comb(k, size) if k > size else 1
            cost = max(cost, subsets * (20 if half.ranker.mode in ("suited", "suitclass") else 1))
            if half.ranker.mode == "generic":
                cost = max(cost, 1000)
        return cost


def build_plan(ruleset: Rules, question: ExactQuestion, prefer_sorted: bool = False) -> Plan | str:
    """The plan of a question, or why it cannot be answered board-major."""
    maps = id_permutations(ruleset, suit_renamings(ruleset))
    fixed_parts = [{tuple(sorted(question.known)): 1.0}, {tuple(sorted(question.dead)): 1.0}]
    maps = keeping(maps, fixed_parts)
    halves = len(_halves(ruleset))
    k = question.board - len(question.known)
    available = np.array(question.available, dtype=np.int64)
    count = prod(len(p) for p in question.players)
    heads_up_ok = len(question.players) == 2 and halves == 1 and question.hole <= 2
    if not prefer_sorted or not heads_up_ok:
        matchups = _compatible(question, MAX_MATCHUPS + 1) if count <= 64 * MAX_MATCHUPS else None
        if matchups is not None:
            combos, weights = matchups
            identity = maps[(maps == np.arange(maps.shape[1])).all(axis=1)]
            # when the images of many matchups are too many to list: every board, no renaming
            for group in (maps, identity):
                if len(combos) * len(group) <= MAX_MATCHUPS:
                    return _matchup_plan(
                        ruleset, question, combos, weights, group, BoardSpace(ruleset, available, k, group)
                    )
    if not heads_up_ok:
        return "too many matchups to list for more than two players or a split pot"
    return _sorted_plan(ruleset, question, maps, available, k)


def _matchup_plan(
    ruleset: Rules,
    question: ExactQuestion,
    combos: np.ndarray,
    weights: np.ndarray,
    group: np.ndarray,
    space: BoardSpace,
) -> Plan:
    """Matchup by matchup: every image of every matchup under the renamings ``group``."""
    ids, shares = _images(combos, weights, group, question.hole)
    holdings, index = np.unique(ids.reshape(-1, question.hole), axis=0, return_inverse=True)
    return Plan(
        question,
        "tuples",
        holdings,
        HoldingValues(ruleset, holdings, question.board),
        space,
        space.chunks(),
        matchups=index.reshape(ids.shape[0], ids.shape[1]),
        matchup_weights=shares,
        extra={"matchups": len(combos)},
    )


def _compatible(question: ExactQuestion, most: int) -> tuple[np.ndarray, np.ndarray] | None:
    """Every choice of one combination per player that shares no card, as ids (matchups,
    players, hole) with the product of the players' weights (normalised per player); None past ``most``."""
    players = []
    for player in question.players:
        combos = np.array([c for c, _ in player], dtype=np.int64).reshape(len(player), question.hole)
        weights = np.array([w for _, w in player], dtype=np.float64)
        players.append((combos, weights / weights.sum()))
    ids = players[0][0][:, None, :]
    weight = players[0][1]
    for combos, weights in players[1:]:
        clash = (ids[:, :, :, None, None] == combos[None, None, None, :, :]).any(axis=(1, 2, 4))  # (so far, new)
        keep_a, keep_b = np.nonzero(~clash)
        if len(keep_a) > most:
            return None
        ids = np.concatenate([ids[keep_a], combos[keep_b][:, None, :]], axis=1)
        weight = weight[keep_a] * weights[keep_b]
    return ids, weight


def _images(ids: np.ndarray, weights: np.ndarray, maps: np.ndarray, hole: int) -> tuple[np.ndarray, np.ndarray]:
    """Every image of every matchup under the renamings, each with 1/|group| of its weight,
    equal matchups merged (their weights added)."""
    group = len(maps)
    moved = np.sort(maps[:, ids], axis=3)  # (group, matchups, players, hole)
    flat = moved.reshape(group * len(ids), -1)
    found, inverse = np.unique(flat, axis=0, return_inverse=True)
    merged = np.bincount(inverse.reshape(-1), np.tile(weights, group) / group, minlength=len(found))
    return found.reshape(len(found), ids.shape[1], hole), merged


def _sorted_plan(
    ruleset: Rules, question: ExactQuestion, maps: np.ndarray, available: np.ndarray, k: int
) -> Plan | str:
    """Heads-up by sorting: the player whose range the renamings keep is the opponent of the sort."""
    players = [dict(p) for p in question.players]
    kept = [keeping(maps, [players[1 - p]]) for p in range(2)]
    hero_player = 0 if len(kept[0]) >= len(kept[1]) else 1
    group = kept[hero_player]
    hero, opponent = players[hero_player], players[1 - hero_player]
    every = set(hero) | set(opponent)
    # the hero's holdings with their images: each image takes an equal share of the weight
    hero_total = sum(hero.values())
    shares: dict[tuple[int, ...], float] = {}
    for combo, weight in hero.items():
        for row in group:
            image = tuple(sorted(int(row[i]) for i in combo))
            shares[image] = shares.get(image, 0.0) + weight / hero_total / len(group)
    every |= set(shares)
    holdings = np.array(sorted(every), dtype=np.int64).reshape(len(every), question.hole)
    position = {tuple(row): i for i, row in enumerate(holdings.tolist())}
    hero_w = np.zeros(len(holdings))
    opponent_w = np.zeros(len(holdings))
    for combo, weight in shares.items():
        hero_w[position[combo]] = weight
    for combo, weight in opponent.items():
        opponent_w[position[combo]] = weight
    space = BoardSpace(ruleset, available, k, group)
    unit = bool((opponent_w == 1.0).all())
    return Plan(
        question,
        "sorted",
        holdings,
        HoldingValues(ruleset, holdings, question.board),
        space,
        space.chunks(),
        hero=hero_w,
        opponent=opponent_w,
        swapped=hero_player == 1,
        rows=card_rows(holdings),
        extra={"unit": unit},
    )


# --- running -----------------------------------------------------------------------------


@dataclass
class MatchupSums:
    """Weighted sums over boards per matchup (tuples mode): the shares of each player."""

    equity: np.ndarray  # (matchups, players)
    win: np.ndarray
    tie: np.ndarray
    halves: np.ndarray  # (halves, matchups, players)
    dead: np.ndarray  # (halves, matchups): nobody qualifies in the half
    deals: np.ndarray  # (matchups,)
    boards: int = 0  # boards counted (after the renamings of suits)

    def add(self, other: MatchupSums) -> None:
        """Add another batch's sums."""
        for name in ("equity", "win", "tie", "halves", "dead", "deals"):
            getattr(self, name).__iadd__(getattr(other, name))
        self.boards += other.boards


def empty_sums(plan: Plan) -> MatchupSums | HeadsUpSums:
    """Sums of nothing, of the plan's kind."""
    if plan.mode == "sorted":
        return HeadsUpSums.zeros(len(plan.holdings))
    assert plan.matchups is not None
    m, p = plan.matchups.shape
    h = len(plan.values.halves)
    return MatchupSums(
        np.zeros((m, p)), np.zeros((m, p)), np.zeros((m, p)), np.zeros((h, m, p)), np.zeros((h, m)), np.zeros(m)
    )


def run_boards(plan: Plan, chunks: list[BoardChunk], kind: str = "sums") -> MatchupSums | HeadsUpSums | ClassPairSums:
    """The sums of the boards of ``chunks``, in batches: the plan's own (``sums``), or the
    class-against-class table of a chart's plan (``matchups``)."""
    total: MatchupSums | HeadsUpSums | ClassPairSums
    if kind == "matchups":
        classes = class_index(plan)
        total = ClassPairSums.zeros(int(plan.extra["class_count"]), plan.rows)
    else:
        total = empty_sums(plan)
    parts = [plan.space.boards(chunk) for chunk in chunks]
    boards = np.concatenate([p[0] for p in parts]) if parts else np.zeros((0, plan.space.k), dtype=np.int64)
    weights = np.concatenate([p[1] for p in parts]) if parts else np.zeros(0, dtype=np.int64)
    known = np.array(plan.question.known, dtype=np.int64)
    width = max(1, len(plan.holdings) if plan.mode == "sorted" else plan.matchups.size)  # type: ignore[union-attr]
    step = max(1, BATCH_VALUES // width)
    for start in range(0, len(boards), step):
        dealt = boards[start : start + step]
        full = np.concatenate([np.broadcast_to(known, (len(dealt), len(known))), dealt], axis=1)
        values = plan.values.values(full)
        board_weights = weights[start : start + step]
        if kind == "matchups":
            total.add(class_pairs(values[0], board_weights, plan.rows, classes, int(plan.extra["class_count"])))  # type: ignore[arg-type]
        elif plan.mode == "sorted":
            unit = plan.extra.get("unit", False)  # every holding an opponent of weight 1: counts are places
            opponents = None if unit else plan.opponent
            total.add(heads_up(values[0], board_weights, plan.rows, opponents))  # type: ignore[arg-type]
        else:
            total.add(_settle_matchups(plan, values, board_weights))  # type: ignore[arg-type]
    total.boards += len(boards)
    return total


def class_index(plan: Plan) -> np.ndarray:
    """Each holding's class of the grid (-1 off it), kept with the plan."""
    found = plan.extra.get("classes")
    if found is None:
        ruleset = plan.values.ruleset
        found = plan.extra["classes"] = holding_classes(ruleset, plan.holdings)
        plan.extra["class_count"] = len(grid_ranks(ruleset)) ** 2
    assert isinstance(found, np.ndarray)
    return found


def _settle_matchups(plan: Plan, values: list[np.ndarray], board_weights: np.ndarray) -> MatchupSums:
    """Every matchup on every board of a batch: the players' shares, summed with the boards' weights."""
    assert plan.matchups is not None
    index = plan.matchups
    m, players = index.shape
    nb = len(board_weights)
    per_half = []
    live = None
    for half in values:
        got = half[:, index]  # (boards, matchups, players)
        if live is None:
            live = (got != DEAD).all(axis=2)
        best = got.max(axis=2, keepdims=True)
        winners = (got == best) & (best >= 0)
        per_half.append(winners)
    assert live is not None
    counts = [w.sum(axis=2, keepdims=True) for w in per_half]
    playing = sum((c > 0).astype(np.int64) for c in counts)  # halves someone wins
    shares_by_half = [np.where(w, 1.0 / np.maximum(c * playing, 1), 0.0) for w, c in zip(per_half, counts, strict=True)]
    shares = np.sum(shares_by_half, axis=0)
    weight = np.where(live, board_weights.astype(np.float64)[:, None], 0.0)  # (boards, matchups)
    whole = shares > 1 - 1e-9
    part = (shares > 1e-12) & ~whole

    def summed(figure: np.ndarray) -> np.ndarray:
        found: np.ndarray = np.einsum("bm,bmp->mp", weight, figure)
        return found

    return MatchupSums(
        equity=summed(shares),
        win=summed(whole.astype(np.float64)),
        tie=summed(part.astype(np.float64)),
        halves=np.stack([summed(s) for s in shares_by_half]),
        dead=np.stack([np.einsum("bm,bm->m", weight, (c[:, :, 0] == 0).astype(np.float64)) for c in counts]),
        deals=weight.sum(axis=0) if nb else np.zeros(m),
    )
