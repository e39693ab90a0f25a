"""Class against class on one board: the counts of a matchup table.

Every holding of the grid (a pair, a suited or an offsuit pair of ranks) has a
class; the table's cell ``(A, C)`` counts, over every board and every pair of
holdings ``h`` of class ``A`` and ``o`` of class ``C`` that share no card, how
often ``h`` wins, ties, neither qualifies, and how many such deals there are.

On one board the holdings take places (:func:`~evaluator.odds.board_counts.main_counts`:
equal values, equal places). A class holds few distinct places on a board
(its combinations differ only where a suit makes a flush), so the board is
reduced to *groups* -- (place, class, how many holdings) -- sorted by place.
A running sum of the groups' class counts gives, for each group, how many
holdings of every class sit below it and beside it; a group's row of
wins and ties is that running sum times its size, added to its class's row
of the table. Pairs that share a card are then taken out: for each card, the
holdings that hold it are compared pairwise (51 for a 52-card deck) and those
comparisons, summed over the boards, are subtracted from their cells at the
end; so are the pairs of a holding with itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .board_counts import Rows, main_counts
from .board_values import DEAD
from .ranges import grid_ranks

if TYPE_CHECKING:
    from ..rules.ruleset import Rules


def holding_classes(ruleset: Rules, holdings: np.ndarray) -> np.ndarray:
    """The grid cell (``row * ranks + col``) of each two-card holding, -1 for a holding
    off the grid (a joker).

    >>> from evaluator import load
    >>> holdem = load("holdem")
    >>> ids = [[holdem.deck.index(card) for card in holdem.cards(text)] for text in ("As Ad", "Ks As", "Kd As")]
    >>> holding_classes(holdem, np.array(ids)).tolist()
    [0, 1, 13]
    """
    ranks = grid_ranks(ruleset)
    where = {rank: i for i, rank in enumerate(ranks)}
    deck = ruleset.deck
    found = np.full(len(holdings), -1, dtype=np.int64)
    for h, (a, b) in enumerate(holdings.tolist()):
        first, second = deck[a], deck[b]
        if first.is_joker or second.is_joker:
            continue
        i, j = where[first.rank or ""], where[second.rank or ""]
        high, low = min(i, j), max(i, j)
        if i == j or first.suit != second.suit:
            found[h] = low * len(ranks) + high  # a pair on the diagonal, offsuit below it
        else:
            found[h] = high * len(ranks) + low  # suited above the diagonal
    return found


@dataclass
class ClassPairSums:
    """Sums over boards of a matchup table: the cells counted over every pair of holdings
    (``wins``, ``ties``, ``dead``, ``total``: (classes, classes)), and what comes off at the
    end: the pairs that share a card (per card row and pair of places in it) and each
    holding with itself (per class)."""

    wins: np.ndarray
    ties: np.ndarray
    dead: np.ndarray
    total: np.ndarray
    shared: np.ndarray  # (5, cards, pairs): first wins, second wins, tie, neither qualifies, dealt
    itself: np.ndarray  # (3, classes): qualifies, does not, dealt
    boards: int = 0  # boards counted (after the renamings of suits)

    @classmethod
    def zeros(cls, classes: int, rows: Rows) -> ClassPairSums:
        """Sums of nothing."""
        square = (classes, classes)
        pairs = rows.length * (rows.length - 1) // 2
        return cls(
            np.zeros(square),
            np.zeros(square),
            np.zeros(square),
            np.zeros(square),
            np.zeros((5, len(rows.cards), pairs)),
            np.zeros((3, classes)),
        )

    def add(self, other: ClassPairSums) -> None:
        """Add another batch's sums (in a fixed order)."""
        for name in ("wins", "ties", "dead", "total", "shared", "itself"):
            getattr(self, name).__iadd__(getattr(other, name))
        self.boards += other.boards

    def table(self, rows: Rows, classes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(wins, ties, dead, total) of every cell, the pairs that share a card taken out."""
        wins, ties, dead, total = (array.copy() for array in (self.wins, self.ties, self.dead, self.total))
        first, second = _pair_places(rows.length)
        padded = np.append(classes, -1)  # the padding of the rows is off the grid
        a = padded[rows.by_card[:, first].reshape(-1)]
        b = padded[rows.by_card[:, second].reshape(-1)]
        keep = (a >= 0) & (b >= 0)
        a, b = a[keep], b[keep]
        first_wins, second_wins, tied, neither, dealt = (part.reshape(-1)[keep] for part in self.shared)
        np.add.at(wins, (a, b), -first_wins)
        np.add.at(wins, (b, a), -second_wins)
        for x, y in ((a, b), (b, a)):
            np.add.at(ties, (x, y), -tied)
            np.add.at(dead, (x, y), -neither)
            np.add.at(total, (x, y), -dealt)
        diagonal = np.arange(len(wins))
        ties[diagonal, diagonal] -= self.itself[0]
        dead[diagonal, diagonal] -= self.itself[1]
        total[diagonal, diagonal] -= self.itself[2]
        return wins, ties, dead, total


def _pair_places(length: int) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of places ``i < j`` in a row of ``length``."""
    first, second = np.triu_indices(length, k=1)
    return first.astype(np.int64), second.astype(np.int64)


def class_pairs(
    values: np.ndarray, board_weights: np.ndarray, rows: Rows, classes: np.ndarray, count: int
) -> ClassPairSums:
    """The matchup sums of a batch of boards (``values`` (boards, holdings) of one pot,
    ``classes`` each holding's class, -1 off the grid; ``count`` classes)."""
    nb, n = values.shape
    weight = board_weights.astype(np.float64)
    place, _, _ = main_counts(values, None)
    alive = values != DEAD
    used = alive & (classes >= 0)[None, :]
    fails = values == -1
    qualifies = values >= 0
    sums = ClassPairSums.zeros(count, rows)
    _groups(sums, place, used, fails, weight, classes, count)
    # deals, and the deals where neither qualifies: class counts per board, multiplied
    on_board = np.arange(nb, dtype=np.int64)[:, None] * count
    per_board = np.bincount((on_board + classes[None, :])[used], minlength=nb * count).reshape(nb, count)
    sums.total += (per_board * weight[:, None]).T @ per_board
    failing = used & fails
    if failing.any():
        per_fail = np.bincount((on_board + classes[None, :])[failing], minlength=nb * count).reshape(nb, count)
        sums.dead += (per_fail * weight[:, None]).T @ per_fail
        sums.itself[1] += weight @ per_fail
    sums.itself[0] += weight @ (per_board - (per_fail if failing.any() else 0))
    sums.itself[2] += weight @ per_board
    _shared(sums, place, used, qualifies, fails, weight, rows)
    return sums


def _groups(
    sums: ClassPairSums,
    place: np.ndarray,
    used: np.ndarray,
    fails: np.ndarray,
    weight: np.ndarray,
    classes: np.ndarray,
    count: int,
) -> None:
    """The cells over every pair of holdings on each board, by groups (see the module docstring)."""
    nb, n = place.shape
    board = np.broadcast_to(np.arange(nb, dtype=np.int64)[:, None], place.shape)
    key = ((board * (n + 1) + place) * count + classes[None, :])[used]
    found, size = np.unique(key, return_counts=True)  # sorted by board, then place, then class
    cls = found % count
    spot = found // count  # board * (n + 1) + place
    on = spot // (n + 1)
    at = spot % (n + 1)
    groups = len(found)
    if not groups:
        return
    # small integers all along (a count of holdings times a board's weight): int32 halves the traffic
    counts = np.zeros((groups, count), dtype=np.int32)
    counts[np.arange(groups), cls] = size
    running = np.zeros((groups + 1, count), dtype=np.int32)
    np.cumsum(counts, axis=0, out=running[1:])
    new_place = np.ones(groups, dtype=bool)
    new_place[1:] = spot[1:] != spot[:-1]
    new_board = np.ones(groups, dtype=bool)
    new_board[1:] = on[1:] != on[:-1]
    index = np.arange(groups)
    first = np.maximum.accumulate(np.where(new_place, index, 0))
    board_start = np.maximum.accumulate(np.where(new_board, index, 0))
    ends = np.append(np.flatnonzero(new_place)[1:], groups)
    after = ends[np.cumsum(new_place) - 1]
    start_rows = running[first]
    below = start_rows - running[board_start]
    beside = running[after] - start_rows
    # a group that does not qualify sits at place 0 of a board where some holding does not qualify
    board_fails: np.ndarray = np.asarray(fails.any(axis=1))
    group_fails = (at == 0) & board_fails[on]
    scale = np.where(group_fails, 0, weight[on].astype(np.int64) * size).astype(np.int32)[:, None]
    order = np.argsort(cls, kind="stable")
    sorted_cls = cls[order]
    starts = np.flatnonzero(np.r_[True, sorted_cls[1:] != sorted_cls[:-1]])
    rows_of = sorted_cls[starts]
    below *= scale
    beside *= scale
    sums.wins[rows_of] += np.add.reduceat(below[order], starts, axis=0, dtype=np.int64)
    sums.ties[rows_of] += np.add.reduceat(beside[order], starts, axis=0, dtype=np.int64)


def _shared(
    sums: ClassPairSums,
    place: np.ndarray,
    used: np.ndarray,
    qualifies: np.ndarray,
    fails: np.ndarray,
    weight: np.ndarray,
    rows: Rows,
) -> None:
    """The pairs that share a card, compared in each card's row and summed over the boards."""
    nb = place.shape[0]
    first, second = _pair_places(rows.length)
    pad = np.zeros((nb, 1), dtype=bool)
    by_card = rows.by_card
    small = place.astype(np.int16) if place.shape[1] < 1 << 15 else place
    placed = np.concatenate([small, np.zeros((nb, 1), dtype=small.dtype)], axis=1)[:, by_card]
    use = np.concatenate([used, pad], axis=1)[:, by_card]
    good = np.concatenate([qualifies & used, pad], axis=1)[:, by_card]
    a, b = placed[:, :, first], placed[:, :, second]
    dealt = use[:, :, first] & use[:, :, second]
    good_a, good_b = good[:, :, first], good[:, :, second]
    figures = [dealt & good_a & (a > b), dealt & good_b & (b > a), dealt & good_a & good_b & (a == b), None, dealt]
    if (fails & used).any():
        bad = np.concatenate([fails & used, pad], axis=1)[:, by_card]
        figures[3] = dealt & bad[:, :, first] & bad[:, :, second]
    # boards take few weights (the sizes of their orbits): count each weight's boards, then scale
    for value in np.unique(weight).tolist():
        pick = weight == value
        for k, figure in enumerate(figures):
            if figure is not None:
                chosen = figure[pick] if not pick.all() else figure
                counted = np.count_nonzero(chosen, axis=0) if len(chosen) > 1 else chosen[0]
                sums.shared[k] += value * counted.reshape(sums.shared[k].shape)
