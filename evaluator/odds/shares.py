"""Pot shares of batches of deals, with the hi-lo halves apart.

The whole pot is settled by :meth:`Ruleset.showdown_many` (vectorised on the
compiled tables; ``beats:`` exceptions and top cycles included). Odds of a
hi-lo game also report how much of each player's equity comes from each half
and how often nobody qualifies in a half: for those games each half's winners
are found with the same batch machinery, and the few deals it cannot settle
alone (an exception that might decide, lowest-card wild in a card-usage game)
are settled by the generic ``showdown``, half by half.

The common case -- one pot, one board, any five of hole and board, a ruleset
on the tables' direct path -- is settled here without ``showdown_many``: the
board is shared by every player, so its part of each lookup key (the sum of
its card codes) is computed once per deal and each player adds only the codes
of their hole cards; a player whose cards are all known reads their value
from a table indexed by the class of the board cards dealt. There each deal's
winners come out as a bit mask (:meth:`ShareEngine.winner_masks`) that the
caller counts. It is tested equal to ``showdown_many`` and to the generic
showdown.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING, Any

import numpy as np

from ..compiled.batch_showdown import showdown_many
from .shared_board import SharedBoard

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

#: Rank lookups per chunk: the working arrays of a chunk stay small.
ROWS = 1 << 18


@dataclass
class Settled:
    """Shares of a batch: the whole pot per player, and per half."""

    shares: np.ndarray  # (n, players) fractions of the pot
    halves: list[tuple[str, np.ndarray]]  # (half name, (n, players) share of the pot won in that half)
    dead_halves: list[tuple[str, np.ndarray]]  # (half name, (n,) True when nobody qualifies in it on any board)


class ShareEngine:
    """Settles batches of deal rows (see :mod:`evaluator.odds.deals`) of one ruleset."""

    def __init__(self, ruleset: Rules, players: int, hole: int, board: int, boards: int) -> None:
        from ..compiled.batch_showdown import PotHalf, playing_columns
        from ..engine.showdown import half_rulesets

        self.ruleset = ruleset
        self.players, self.hole, self.board, self.boards = players, hole, board, boards
        self.names = [name for name, _ in half_rulesets(ruleset)]
        self.halves = [PotHalf(ruleset, rules) for _, rules in half_rulesets(ruleset)]
        self.subsets = playing_columns(ruleset, hole, board)
        # no exception and no lowest-card wild: the halves' batch winners settle every deal
        self.halves_alone = not any(half.beats or half.rules.wild.lowest_rank for half in self.halves)
        ranker = self.halves[0].ranker
        # every value is a qualifying hand (no qualifier, every class in a category): no category lookup
        self.all_qualify = ruleset.qualifier is None and bool((self.halves[0].categories >= 0).all())
        self.same_ids = bool(np.array_equal(self.halves[0].id_map, np.arange(len(ruleset.deck))))
        on_shared_board = (
            len(self.halves) == 1
            and boards == 1
            and board >= 1
            and self.subsets is None
            and not self.halves[0].beats
            and ranker.mode == "direct"
            and not ranker.lowest
            and ruleset.hand_size < hole + board <= min(ranker.layout.limit, 10)
        )
        # one pot, one board, any five of hole and board: the fast path of shared_board.py
        self.shared_board = (
            SharedBoard(self.halves[0], players, hole, board, self.all_qualify, self.same_ids)
            if on_shared_board
            else None
        )

    @property
    def cost(self) -> int:
        """Rank lookups per deal (the unit of the exact-enumeration limit).

        A lookup is one holding ranked on the tables' direct path; the slower
        paths count as the lookups they are worth: a suit tie-break ranks every
        ``hand.size`` subset with its suit key (about 20 lookups each), the
        generic path about 1000.
        """
        per_player = len(self.subsets) if self.subsets is not None else 1
        weight = 0
        for half in self.halves:
            ranker = half.ranker
            if ranker.mode == "generic":
                weight += 1000
            elif ranker.mode == "suited":
                held = ranker.size if self.subsets is not None else self.hole + self.board
                weight += 20 * comb(held, ranker.size) if held >= ranker.size else 20
            elif ranker.mode == "suitclass":
                # a hand reaching the table's suit threshold may rank its subsets
                held = ranker.size if self.subsets is not None else self.hole + self.board
                weight += 5 * comb(held, ranker.size) if held > ranker.size else 2
            else:
                weight += 1
        return self.players * self.boards * per_player * weight

    @property
    def chunk_cost(self) -> int:
        """Gathers per deal that size a chunk: :attr:`cost`, except that a must-use half on its
        table (``compiled/mustuse.py``) costs one gather per hole part, not one per combination."""
        if self.subsets is None or not self.halves_alone:
            return self.cost
        tables = [half.must_use(self.subsets, self.hole + self.board, 0) for half in self.halves]
        if any(table is None for table in tables):
            return self.cost
        return self.players * self.boards * sum(len(table.parts) for table in tables if table is not None)

    def split(self, deals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(n, players, hole) and (n, boards, board) views of deal rows."""
        n, edge = len(deals), self.players * self.hole
        return deals[:, :edge].reshape(n, self.players, self.hole), deals[:, edge:].reshape(n, self.boards, self.board)

    def settle(self, deals: np.ndarray, known: np.ndarray | None = None) -> Settled:
        """The shares of every deal row (in chunks of about ``ROWS`` rank lookups).

        ``known``: a deal row with the cards every row holds (-1 where they vary), or None.
        """
        step = max(64, ROWS // self.chunk_cost)
        fixed = self._fixed(known)
        if len(deals) <= step:
            return self._settle(deals, fixed)
        parts = [self._settle(deals[start : start + step], fixed) for start in range(0, len(deals), step)]
        return Settled(
            np.concatenate([part.shares for part in parts]),
            [(name, np.concatenate([part.halves[h][1] for part in parts])) for h, name in enumerate(self.names)],
            [(name, np.concatenate([part.dead_halves[h][1] for part in parts])) for h, name in enumerate(self.names)],
        )

    def _fixed(self, known: np.ndarray | None) -> list[bool]:
        """Per player, whether ``known`` fixes every hole card (the same hand in every row)."""
        if known is None:
            return []
        edge = self.players * self.hole
        return [bool((row >= 0).all()) for row in np.asarray(known)[:edge].reshape(self.players, self.hole)]

    def _settle(self, deals: np.ndarray, fixed: list[bool]) -> Settled:
        holes, boards = self.split(deals)
        if self.shared_board is not None:
            shares = self._shared_board_shares(deals)
            return Settled(shares, [(self.names[0], shares)], [(self.names[0], shares.sum(axis=1) == 0)])
        if (len(self.halves) > 1 or self.subsets is not None) and self.halves_alone:
            per_half, dead = self._halves(holes, boards, fixed)
            total = np.sum(per_half, axis=0)
            return Settled(
                total, list(zip(self.names, per_half, strict=True)), list(zip(self.names, dead, strict=True))
            )
        shares = showdown_many(self.ruleset, holes, boards)
        if len(self.halves) == 1:
            dead = shares.sum(axis=1) == 0
            return Settled(shares, [(self.names[0], shares)], [(self.names[0], dead)])
        per_half, dead = self._halves(holes, boards, fixed)
        # deals the batch halves cannot settle alone: the generic showdown, half by half
        doubtful = np.flatnonzero(np.abs(np.sum(per_half, axis=0) - shares).max(axis=1) > 1e-9)
        for deal in doubtful.tolist():
            self._generic_halves(holes[deal], boards[deal], deal, per_half, dead)
        return Settled(shares, list(zip(self.names, per_half, strict=True)), list(zip(self.names, dead, strict=True)))

    def _shared_board_shares(self, deals: np.ndarray) -> np.ndarray:
        """Shares with the board's part of every key computed once (see the module docstring)."""
        assert self.shared_board is not None
        winners = self.shared_board.winners(deals, None)
        shares: np.ndarray = np.where(winners, 1.0 / np.maximum(winners.sum(axis=0), 1), 0.0).T
        return shares

    def winner_masks(self, deals: np.ndarray, known: np.ndarray | None = None) -> np.ndarray | None:
        """Per deal, who takes the pot as bits (:meth:`SharedBoard.masks`) on the board-shared
        path; None when the ruleset is off it (then :meth:`settle`).

        ``known`` is a deal row with the cards every row holds (-1 where they vary).
        """
        if self.shared_board is None or self.players > 62:
            return None
        return self.shared_board.masks(deals, known)

    def _subset_values(self, half: Any, holes: np.ndarray, board: np.ndarray, fixed: list[bool]) -> np.ndarray | None:
        """Best value over a card-usage rule's subsets (Omaha: 6 hole pairs x 10 board triples):
        on the must-use table where it applies (``compiled/mustuse.py``), else from code sums,
        each hole part and each board part summed once, then added pairwise.
        None when the ruleset is not on the plain direct path (the batch showdown's rows then)."""
        ranker = half.ranker
        size = ranker.size
        if (
            self.subsets is None
            or ranker.mode != "direct"
            or ranker.lowest
            or (ranker.tables.flush_matters and ranker.model.suit_keyed)
            or self.subsets.shape[1] != size
        ):
            return None
        if not half.same_ids:
            holes, board = half.id_map[holes], half.id_map[board]
        must_use = half.must_use(self.subsets, self.hole + self.board, holes.shape[0] * holes.shape[1])
        if must_use is not None:
            values: np.ndarray = must_use.values(holes, board, fixed)
            return values
        layout = ranker.layout
        table = ranker._code_table
        use_hole = int((self.subsets[0] < self.hole).sum())
        hole_parts = {
            part: np.sum([table[holes[:, :, c]] for c in part], axis=0)
            for part in combinations(range(self.hole), use_hole)
        }
        board_parts = {
            part: np.sum([table[board[:, c]] for c in part], axis=0) + np.int64(layout.bias)
            for part in combinations(range(self.board), size - use_hole)
        }
        dense_nf, dense_fl = ranker._dense_tables(size)
        flush = ranker.tables.flush_matters
        both = np.concatenate([dense_nf, dense_fl[0]]) if flush else dense_nf
        flush_bits = np.int64(layout.flush_bits)
        best = np.full(holes.shape[:2], -1, dtype=np.int64)
        for board_sum in board_parts.values():
            for hole_sum in hole_parts.values():
                total = hole_sum + board_sum[:, None]
                where = ranker.index.index(total >> layout.shift, size)
                if flush:  # a five-card hand: its one-suited value sits right after the plain table
                    where += ((total & flush_bits) != 0) * len(dense_nf)
                np.maximum(best, both[where], out=best)
        return best

    def _halves(
        self, holes: np.ndarray, boards: np.ndarray, fixed: list[bool]
    ) -> tuple[list[np.ndarray], list[np.ndarray]]:
        from ..compiled.batch_showdown import across, best_values, count_across, half_winners

        n = len(holes)
        per_board = []
        live_boards = np.zeros(n, dtype=np.int64)
        for b in range(self.boards):
            won = []  # per half: (winners, whether anyone wins, how many)
            for half in self.halves:
                values = self._subset_values(half, holes, boards[:, b], fixed)
                if values is None:
                    board = np.broadcast_to(boards[:, b][:, None, :], (n, self.players, self.board))
                    values = best_values(half, np.concatenate([holes, board], axis=2), self.subsets, counted=True)
                winners = half_winners(half, values)[0]
                won.append((winners, across(np.logical_or, winners), count_across(winners)))
            live: np.ndarray = np.zeros(n, dtype=np.int64)
            for _, some, _ in won:
                live += some
            live_boards += live > 0
            per_board.append((live, won))
        per_half: list[np.ndarray] = []
        dead: list[np.ndarray] = []
        for live, won in per_board:
            for h, (winners, some, count) in enumerate(won):
                # a board's share goes equally to its halves that have a winner, then to their winners
                share = winners * (1.0 / np.maximum(live_boards * live * count, 1))[:, None]
                if h < len(per_half):
                    per_half[h] += share
                    dead[h] &= ~some
                else:
                    per_half.append(share)
                    dead.append(~some)
        return per_half, dead

    def _generic_halves(
        self, holes: np.ndarray, boards: np.ndarray, deal: int, per_half: list[np.ndarray], dead: list[np.ndarray]
    ) -> None:
        from ..compiled.fasthand import showdown

        deck = self.ruleset.deck
        players = [[deck[i] for i in hole] for hole in holes.tolist()]
        board_cards = [[deck[i] for i in board] for board in boards.tolist()]
        result = showdown(self.ruleset, players, board_cards[0] if len(board_cards) == 1 else board_cards)
        for h in range(len(self.halves)):
            per_half[h][deal] = 0.0
            dead[h][deal] = True
        for half in result.halves:
            h = next((i for i, name in enumerate(self.names) if half.name.endswith(name)), 0)
            for winner in half.winners:
                per_half[h][deal, winner] += float(half.share) / len(half.winners)
            dead[h][deal] &= not half.winners
