"""The value of every holding on every board of a batch: board-major ranking.

Given the holdings of a question (every combination any player may hold, each
once) and a batch of boards, :class:`HoldingValues` returns each holding's
value on each board, per half of the pot: ``-1`` where the hand does not
qualify (it can win nothing), ``DEAD`` where the holding shares a card with
the board (it is not dealt with that board).

Two ways, the same values:

- **by rank class** (a ruleset on the tables' direct path, the best hand of
  any ``hand.size`` of hole and board, at most ten cards): a holding's lookup
  key is the sum of its card codes, and the rank part of a sum is the sum of
  the rank parts (the suit counters never carry). So on one board the plain
  value of a holding depends only on the rank class of its hole cards: the 91
  classes of two hold'em cards are ranked per board instead of 1,081
  holdings, and only the holdings whose suits can make a flush are ranked
  whole (the one-suited tables, as ``rank_many`` does);
- **whole** (everything else: suit tie-breaks, suit-keyed tables, lowest-card
  wild, must-use games such as Omaha): every live holding with the board, in
  one ``rank_many`` call per batch (for must-use games every allowed
  combination of hole and board cards, the best kept), as ``showdown_many``
  ranks them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..compiled.batch_showdown import PotHalf, best_values, playing_columns
from ..compiled.table_layout import BATCH_CARDS
from .shared_board import flush_rows

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

#: The value of a holding that shares a card with the board.
DEAD = -2
#: Holding-board pairs ranked whole per ``rank_many`` call (bounds memory).
WHOLE_ROWS = 1 << 17


def by_rank_class(half: PotHalf, hole: int, board: int, subsets: np.ndarray | None) -> bool:
    """Whether a half's values can be read by rank class (see the module docstring)."""
    ranker = half.ranker
    k = hole + board
    return (
        subsets is None
        and ranker.mode == "direct"
        and not ranker.lowest
        and ranker.size < k <= min(ranker.layout.limit, BATCH_CARDS)
    )


class HoldingValues:
    """Values of a fixed list of holdings (``holdings``: (n, hole) card ids of the ruleset's deck)
    on batches of boards, per half (see the module docstring)."""

    def __init__(self, ruleset: Rules, holdings: np.ndarray, board: int) -> None:
        from ..engine.showdown import half_rulesets

        self.ruleset = ruleset
        self.holdings = np.asarray(holdings, dtype=np.int64)
        self.hole = self.holdings.shape[1]
        self.board = board
        self.halves = [PotHalf(ruleset, rules) for _, rules in half_rulesets(ruleset)]
        self.subsets = playing_columns(ruleset, self.hole, board)
        self.fast = [by_rank_class(half, self.hole, board, self.subsets) for half in self.halves]
        deck = len(ruleset.deck)
        self.small_deck = deck <= 63
        if self.small_deck:  # a holding's cards as bits: a board meets it when the bits overlap
            bits = np.int64(1) << np.arange(deck, dtype=np.int64)
            self.holding_bits = bits[self.holdings].sum(axis=1) if self.hole else np.zeros(len(self.holdings), np.int64)
            self.card_bits = bits
        self.contains = np.zeros((deck, len(self.holdings)), dtype=bool)
        for j in range(self.hole):
            self.contains[self.holdings[:, j], np.arange(len(self.holdings))] = True
        self._classes = [
            self._rank_classes(half) if fast else None for half, fast in zip(self.halves, self.fast, strict=True)
        ]

    @property
    def mode(self) -> str:
        """``by rank class`` when every half reads its values that way, else ``whole``."""
        return "by rank class" if all(self.fast) else "whole"

    def dead(self, boards: np.ndarray) -> np.ndarray:
        """(boards, holdings) True where a holding shares a card with the board."""
        if self.small_deck:
            board_bits = self.card_bits[boards].sum(axis=1) if boards.shape[1] else np.zeros(len(boards), np.int64)
            found: np.ndarray = (board_bits[:, None] & self.holding_bits[None, :]) != 0
            return found
        dead = np.zeros((len(boards), len(self.holdings)), dtype=bool)
        for j in range(boards.shape[1]):
            dead |= self.contains[boards[:, j]]
        return dead

    def values(self, boards: np.ndarray) -> list[np.ndarray]:
        """Per half, (boards, holdings) int64: the value (``-1``: does not qualify, ``DEAD``:
        shares a card with the board). ``boards``: (n, board) card ids of the ruleset's deck."""
        boards = np.asarray(boards, dtype=np.int64)
        dead = self.dead(boards)
        found = []
        for half, classes in zip(self.halves, self._classes, strict=True):
            if classes is not None:
                values = self._by_class(half, classes, boards, dead)
            else:
                values = self._whole(half, boards, dead)
            if not (half.categories >= 0).all() or (values == -1).any():
                values = np.where(half.category(values) >= 0, values, -1)
            values[dead] = DEAD
            found.append(values)
        return found

    # --- by rank class --------------------------------------------------------------------

    def _rank_classes(self, half: PotHalf) -> dict[str, Any]:
        """The holdings' code sums and rank classes, once per question."""
        ranker = half.ranker
        layout = ranker.layout
        table = ranker._code_table
        ids = half.id_map[self.holdings]
        sums = table[ids].sum(axis=1) if self.hole else np.zeros(len(ids), dtype=np.int64)
        keys = sums >> np.int64(layout.shift)
        classes, which = np.unique(keys, return_inverse=True)
        # each class's count per digit: a board leaves a class possible when no digit overflows
        digits = layout.digits
        counts = np.zeros((len(classes), digits + 1), dtype=np.int64)
        counts[:, :digits] = [layout.decode(int(key)) for key in classes]
        # the last column counts nothing: the place of a card in no rank (a joker that is not wild)
        caps = np.append(np.array(layout.radix, dtype=np.int64) - 1, len(self.ruleset.deck))
        digit_of = np.full(len(table), digits, dtype=np.int64)
        for i, code in enumerate(table.tolist()):
            found = np.flatnonzero(layout.decode(code >> layout.shift))
            if len(found):
                digit_of[i] = found[0]
        # any holding of k cards gives a key the dense index accepts: the stand-in where a class is impossible
        k = self.hole + self.board
        stand_in = int(table[half.id_map[np.arange(k)]].sum()) >> layout.shift
        return {
            "sums": sums,
            "low": sums & np.int64((1 << layout.shift) - 1),
            "classes": classes,
            "which": which.reshape(-1),
            "counts": counts,
            "caps": caps,
            "digit_of": digit_of,
            "stand_in": stand_in,
        }

    def _by_class(self, half: PotHalf, classes: dict[str, Any], boards: np.ndarray, dead: np.ndarray) -> np.ndarray:
        ranker = half.ranker
        layout = ranker.layout
        table = ranker._code_table
        k = self.hole + self.board
        dense_nf, _ = ranker._dense_tables(k)
        ids = half.id_map[boards]
        board_sum = table[ids].sum(axis=1) + np.int64(layout.bias)
        board_key = board_sum >> np.int64(layout.shift)
        # which hole classes each board leaves possible (no rank held more often than the deck has it)
        held = np.zeros((len(boards), len(classes["caps"])), dtype=np.int64)
        rows = np.arange(len(boards))
        for j in range(ids.shape[1]):
            held[rows, classes["digit_of"][ids[:, j]]] += 1  # one card per row: no index repeats
        room = classes["caps"][None, :] - held  # (boards, digits)
        possible = (room[:, None, :] >= classes["counts"][None, :, :]).all(axis=2)
        keys = np.where(possible, board_key[:, None] + classes["classes"][None, :], classes["stand_in"])
        plain_by_class = dense_nf[ranker.index.index(keys, k)]  # (boards, classes)
        values = np.take_along_axis(plain_by_class, np.broadcast_to(classes["which"], dead.shape), axis=1)
        if ranker.tables.flush_matters:
            low = (board_sum & np.int64((1 << layout.shift) - 1))[:, None] + classes["low"][None, :]
            flags = (low & np.int64(layout.flush_bits)) != 0
            flags &= ~dead
            rows, cols = np.nonzero(flags)
            if len(rows):
                cards = np.concatenate([half.id_map[self.holdings[cols]], ids[rows]], axis=1).T
                totals = board_sum[rows] + classes["sums"][cols]
                values[rows, cols] = flush_rows(ranker, np.ascontiguousarray(cards), totals, values[rows, cols])
        return values

    # --- whole ----------------------------------------------------------------------------

    def _whole(self, half: PotHalf, boards: np.ndarray, dead: np.ndarray) -> np.ndarray:
        values = np.full(dead.shape, DEAD, dtype=np.int64)
        rows, cols = np.nonzero(~dead)
        for start in range(0, len(rows), WHOLE_ROWS):
            r, c = rows[start : start + WHOLE_ROWS], cols[start : start + WHOLE_ROWS]
            cards = np.concatenate([self.holdings[c], boards[r]], axis=1)[:, None, :]
            values[r, c] = best_values(half, cards, self.subsets)[:, 0]
        return values
