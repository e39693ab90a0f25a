"""Who beats whom on one board, counted by sorting: heads-up wins, ties and matchups.

On one board every live holding has a value (:mod:`evaluator.odds.board_values`).
Holding ``h`` against every opponent holding ``o`` of weight ``w(o)`` wins
``sum w(o) [v(o) < v(h)]`` and ties ``sum w(o) [v(o) = v(h)]`` -- counts read
off one sort of the values, without comparing pairs. Only opponents that share
no card with ``h`` are dealt against it; they are taken out by
inclusion-exclusion: the sums over every holding, minus those over the holdings
that hold ``h``'s first card, minus those that hold its second, plus the one
holding with both (``h`` itself, when the opponent may hold it). So each board
sorts one row of every holding and, per card, one row of the holdings that hold
it (51 for a 52-card deck).

The row of every holding is counted by a histogram of the values (they are the
tables' small dense integers) or by a sort; a holding's count of smaller values
is then its *place* among the board's values. A row by card sorts those places
with each element's position packed below, so the sort brings the position
along; an element's count of smaller values is the start of its run of equal
places (unit weights) or the sum of the weights before that run (weighted
ranges), put back in row order where each holding finds its two rows.

Matchups (class against class) count per opponent class: a cumulative sum of
the classes along the sorted row gives, for each holding, how many holdings of
each class sit below it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .board_values import DEAD

#: A value past every real one: dead holdings sort last.
TOP = np.int64(1) << np.int64(40)
#: Values below this many are counted by a histogram per board instead of a sort.
HISTOGRAM_VALUES = 1 << 15


@dataclass(frozen=True)
class Rows:
    """The rows a board is counted by, besides the row of every holding: ``by_card`` (cards,
    length) the holdings that hold each card of ``cards``, padded with one past the last
    holding (a dead holding of weight 0). ``place[h, j]`` is where holding ``h`` sits in the
    rows by card, flat (row * length + position), for its ``j``-th card.
    """

    holdings: int
    by_card: np.ndarray
    cards: np.ndarray
    place: np.ndarray

    @property
    def length(self) -> int:
        """Elements per row by card (the longest; the others padded)."""
        return int(self.by_card.shape[1])


def card_rows(holdings: np.ndarray) -> Rows:
    """The rows of a list of holdings (n, hole), hole at most 2 (see :class:`Rows`).

    >>> rows = card_rows(np.array([[0, 1], [0, 2], [1, 2]]))
    >>> rows.by_card.tolist(), rows.cards.tolist(), rows.place.tolist()
    ([[0, 1], [0, 2], [1, 2]], [0, 1, 2], [[0, 2], [1, 4], [3, 5]])
    """
    n, hole = holdings.shape
    if hole > 2:
        raise ValueError("rows by card take holdings of at most two cards")
    cards = np.unique(holdings) if hole == 2 else np.zeros(0, dtype=np.int64)
    members = [np.flatnonzero((holdings == card).any(axis=1)) for card in cards]
    width = max([1] + [len(m) for m in members])
    by_card = np.full((len(cards), width), n, dtype=np.int64)
    place = np.zeros((n, hole), dtype=np.int64)
    row_of = {int(card): r for r, card in enumerate(cards)}
    for r, found in enumerate(members):
        by_card[r, : len(found)] = found
    if hole == 2:
        for h in range(n):
            for j in range(2):
                r = row_of[int(holdings[h, j])]
                place[h, j] = r * width + int(np.flatnonzero(by_card[r] == h)[0])
    return Rows(n, by_card, cards, place)


def _sorted_rows(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's values sorted (last axis; dead ones last), and where each sorted element came from."""
    length = values.shape[-1]
    bits = max(1, int(length - 1).bit_length())
    packed = (np.where(values == DEAD, TOP, values) << np.int64(bits)) | np.arange(length, dtype=np.int64)
    packed.sort(axis=-1)
    return packed >> np.int64(bits), packed & np.int64((1 << bits) - 1)


def _runs(ordered: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows of sorted values, flattened: for each element the flat position of the first element
    of its run of equal values, and one past the last (a run never crosses a row's end)."""
    length = ordered.shape[-1]
    flat = ordered.reshape(-1)
    starts = np.empty(len(flat), dtype=bool)
    starts[0] = True
    np.not_equal(flat[1:], flat[:-1], out=starts[1:])
    starts[::length] = True
    run = np.cumsum(starts) - 1
    first = np.flatnonzero(starts)
    after = np.append(first[1:], len(flat))
    return first[run], after[run]


def card_counts(ranks: np.ndarray, rows: Rows, weights: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Per board and holding (boards, holdings): the weight of the live opponents in the rows of
    its two cards with a smaller value, and with an equal one (the two rows added).

    ``ranks`` (boards, holdings + 1): each holding's place among the values of its board (equal
    values, equal places; dead holdings and the padding past every live one). Each row is sorted
    with the element's position packed below its place; the counts are read off the runs of
    equal places and put back in row order, where each holding finds its two rows.
    """
    nb = ranks.shape[0]
    n = ranks.shape[1] - 1
    cards, length = rows.by_card.shape
    bits = max(1, int(length - 1).bit_length())
    wide = np.int64 if (n + 1) << bits >= 1 << 31 else np.int32
    packed = (ranks.astype(wide)[:, rows.by_card] << bits) | np.arange(length, dtype=wide)
    packed.sort(axis=-1)
    came_from = packed & ((1 << bits) - 1)
    ordered = packed >> bits  # (boards, cards, length)
    starts = np.ones(ordered.shape, dtype=bool)
    np.not_equal(ordered[..., 1:], ordered[..., :-1], out=starts[..., 1:])
    where = np.arange(length, dtype=wide)
    first = np.maximum.accumulate(np.where(starts, where, 0), axis=-1)
    ends = np.ones(ordered.shape, dtype=bool)
    ends[..., :-1] = starts[..., 1:]
    last = np.minimum.accumulate(np.where(ends, where + 1, length)[..., ::-1], axis=-1)[..., ::-1]
    alive = ordered < n
    less_sorted: np.ndarray
    equal_sorted: np.ndarray
    if weights is None:
        less_sorted, equal_sorted = first, np.where(alive, last - first, 0)
    else:
        holding = np.take(rows.by_card, came_from + (np.arange(cards, dtype=wide) * length)[:, None])
        weight = np.where(alive, np.append(np.asarray(weights, dtype=np.float64), 0.0)[holding], 0.0)
        running = np.zeros(ordered.shape[:-1] + (length + 1,))
        np.cumsum(weight, axis=-1, out=running[..., 1:])
        less_sorted = np.take_along_axis(running, first, axis=-1)
        equal_sorted = np.take_along_axis(running, last, axis=-1) - less_sorted
    # back in row order (a flat scatter), then each holding's two rows (fixed places)
    target = (
        came_from.reshape(nb * cards, length) + (np.arange(nb * cards, dtype=np.int64) * length)[:, None]
    ).reshape(-1)
    less_rows = np.empty(nb * cards * length, dtype=less_sorted.dtype)
    equal_rows = np.empty(nb * cards * length, dtype=equal_sorted.dtype)
    less_rows[target] = less_sorted.reshape(-1)
    equal_rows[target] = equal_sorted.reshape(-1)
    less_rows, equal_rows = less_rows.reshape(nb, -1), equal_rows.reshape(nb, -1)
    first_card, second_card = rows.place[:, 0], rows.place[:, 1]
    return (
        less_rows[:, first_card] + less_rows[:, second_card],
        equal_rows[:, first_card] + equal_rows[:, second_card],
    )


def main_counts(values: np.ndarray, weights: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per board and holding (boards, holdings): the place of the holding among the board's live
    values (the number of live holdings with a smaller value: equal values, equal places; dead
    holdings past every live one), then the weight of the live holdings with a smaller value and
    with an equal one (itself included when it has weight). By a histogram of the values when
    they are small integers (the dense values of the tables), else by sorting."""
    nb, n = values.shape
    top = int(values.max()) + 2 if values.size else 2
    if top <= HISTOGRAM_VALUES:
        # bin v + 1 per board (0: does not qualify); dead holdings in a last bin of their own
        bins = np.where(values == DEAD, top, values + 1) + (np.arange(nb, dtype=np.int64) * (top + 1))[:, None]
        counts = np.bincount(bins.reshape(-1), minlength=nb * (top + 1))
        running = np.cumsum(counts) - counts  # exclusive, across boards: take off each board's start
        place = running[bins] - running[:: top + 1][:, None]
        if weights is None:
            return place, place, counts[bins]
        flat_weights = np.broadcast_to(weights, values.shape).reshape(-1)
        weighed = np.bincount(bins.reshape(-1), flat_weights, minlength=nb * (top + 1))
        running_w = np.cumsum(weighed) - weighed
        return place, running_w[bins] - running_w[:: top + 1][:, None], weighed[bins]
    ordered, came_from = _sorted_rows(values)
    first, after = _runs(ordered)
    flat = ordered.reshape(-1)
    place_sorted: np.ndarray = first % n
    less_sorted: np.ndarray
    equal_sorted: np.ndarray
    if weights is None:
        less_sorted = place_sorted
        equal_sorted = np.where(flat < TOP, after - first, 0)
    else:
        weight = np.take_along_axis(np.broadcast_to(weights, values.shape), came_from, axis=1).reshape(-1)
        cumulative = np.zeros(len(flat) + 1)
        np.cumsum(np.where(flat < TOP, weight, 0.0), out=cumulative[1:])
        start = cumulative[np.arange(0, len(flat), n).repeat(n)]
        less_sorted = cumulative[first] - start
        equal_sorted = cumulative[after] - cumulative[first]
    where = (came_from + (np.arange(nb, dtype=np.int64) * n)[:, None]).reshape(-1)
    place = np.empty(nb * n, dtype=np.int64)
    less = np.empty(nb * n, dtype=less_sorted.dtype)
    equal = np.empty(nb * n, dtype=equal_sorted.dtype)
    place[where] = place_sorted
    less[where] = less_sorted
    equal[where] = equal_sorted
    return place.reshape(nb, n), less.reshape(nb, n), equal.reshape(nb, n)


@dataclass
class HeadsUpSums:
    """Weighted sums over boards, per hero holding, against every opponent holding it can meet:
    ``win`` (the hero's value higher), ``tie`` (equal, both qualifying), ``dead`` (neither
    qualifies), ``total`` (every opponent dealt)."""

    win: np.ndarray
    tie: np.ndarray
    dead: np.ndarray
    total: np.ndarray
    boards: int = 0  # boards counted (after the renamings of suits)

    @classmethod
    def zeros(cls, n: int) -> HeadsUpSums:
        """Sums of nothing, for ``n`` hero holdings."""
        return cls(np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n))

    def add(self, other: HeadsUpSums) -> None:
        """Add another batch's sums (in a fixed order: the sums stay the same bit for bit)."""
        for name in ("win", "tie", "dead", "total"):
            getattr(self, name).__iadd__(getattr(other, name))
        self.boards += other.boards


def heads_up(values: np.ndarray, board_weights: np.ndarray, rows: Rows, weights: np.ndarray | None) -> HeadsUpSums:
    """Every holding as the hero against the opponent holdings (``weights`` per holding, 0 for
    those no opponent holds; None: every holding, weight 1), summed over a batch of boards
    weighted by ``board_weights``.

    ``values`` (boards, holdings) of one pot (``-1``: does not qualify, ``DEAD``: not dealt).
    """
    nb, n = values.shape
    alive = values != DEAD
    own = np.ones(n) if weights is None else np.asarray(weights, dtype=np.float64)
    board = board_weights.astype(np.float64)
    place, less, equal = main_counts(values, None if weights is None else own)
    # every live opponent's weight on the board
    live = np.where(alive, own, 0.0)
    total = live.sum(axis=1, keepdims=True)
    hole = rows.place.shape[1]
    if hole == 2:
        # the opponents that share a card with the hero out (inclusion-exclusion): those holding
        # either card, and the hero itself back in (it holds both)
        ranks = np.concatenate([np.where(alive, place, n), np.full((nb, 1), n)], axis=1)
        card_less, card_equal = card_counts(ranks, rows, None if weights is None else own)
        in_row = np.concatenate([live, np.zeros((nb, 1))], axis=1)[:, rows.by_card].sum(axis=2)  # (boards, cards)
        width = rows.length
        sharing = in_row[:, rows.place[:, 0] // width] + in_row[:, rows.place[:, 1] // width]
        less = less - card_less
        equal = equal - card_equal + live
        total = total - sharing + live
    elif hole == 1:
        equal = equal - live
        total = total - live
    qualifies = values >= 0
    fails = values == -1
    return HeadsUpSums(
        win=board @ np.where(qualifies, less, 0.0),
        tie=board @ np.where(qualifies, equal, 0.0),
        dead=board @ np.where(fails, equal, 0.0),
        total=board @ np.where(alive, total, 0.0),
    )
