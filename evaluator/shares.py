"""Pot shares of many deals at once, on the compiled tables.

For a batch of deal rows (see :mod:`evaluator.deals`) this settles every
showdown the way :func:`evaluator.showdown.showdown` does, vectorised: each
player's best hand per board and per half (hi-lo games judge each half with
its own ruleset) from :meth:`Ruleset.rank_many`; a hand that does not qualify
never wins; the pot is divided between the boards that have a winner, on each
board between the halves that have one, and in each half equally among its
winners.

The board is shared by every player: a game that plays any five of the
cards ranks the whole holding in one table lookup per player; a game with a
card-usage rule (Omaha: two hole cards and three of the board) ranks every
allowed subset, stacked for all players in one call.

``beats:`` exceptions (Italian poker's straight-flush cycle) are not a
strength: rulesets that have them are settled deal by deal with the generic
``showdown`` (exact, slower).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from .fast import FastRanker, ruleset_ranker

if TYPE_CHECKING:
    from .ruleset import Ruleset


@dataclass
class Settled:
    """Shares of a batch: the whole pot per player, and per half."""

    shares: np.ndarray  # (n, players) fractions of the pot
    halves: list[tuple[str, np.ndarray]]  # (half name, (n, players) share of the pot won in that half)
    dead_halves: list[tuple[str, np.ndarray]]  # (half name, (n,) True when nobody qualifies in it on any board)


class ShareEngine:
    """Settles batches of deals of one ruleset (built once per odds question)."""

    def __init__(self, ruleset: Ruleset, players: int, hole: int, board: int, boards: int) -> None:
        from .showdown import _half_rulesets

        self.ruleset = ruleset
        self.players, self.hole, self.board, self.boards = players, hole, board, boards
        self.halves = _half_rulesets(ruleset)
        self.generic = bool(ruleset.beats) or any(half.beats for _, half in self.halves)
        deck = ruleset.deck
        self.rankers: list[FastRanker] = []
        self.maps: list[np.ndarray] = []
        for _, half in self.halves:
            ranker = ruleset_ranker(half)
            self.rankers.append(ranker)
            # card ids of the main deck -> ids of the half's deck (same cards, maybe another order)
            self.maps.append(np.array([ranker.id_of.get(card, 0) for card in deck], dtype=np.int64))
        game = ruleset.game
        self.subsets: list[tuple[list[int], list[int]]] | None = None
        if game is not None and (game.use_hole is not None or game.use_board is not None):
            size = ruleset.hand_size
            use_hole = game.use_hole if game.use_hole is not None else size - (game.use_board or 0)
            use_board = game.use_board if game.use_board is not None else size - use_hole
            self.subsets = [(list(h), list(b)) for h in combinations(range(hole), use_hole) for b in combinations(range(board), use_board)]

    @property
    def cost(self) -> int:
        """Rank lookups per deal (the unit of the exact-enumeration limit)."""
        per_player = len(self.subsets) if self.subsets else 1
        lookups = self.players * len(self.halves) * self.boards * per_player
        return lookups * 2000 if self.generic else lookups  # a generic showdown costs ~ 2000 lookups

    def strengths(self, half: int, holes: np.ndarray, board: np.ndarray) -> np.ndarray:
        """(n, players) values in the half's direction, -1 where the hand does not qualify."""
        ranker = self.rankers[half]
        holes = self.maps[half][holes]
        board = self.maps[half][board]
        n, players = holes.shape[0], holes.shape[1]
        if self.subsets is None:
            cards = np.concatenate([holes, np.broadcast_to(board[:, None, :], (n, players, board.shape[1]))], axis=2)
            values = ranker.rank_many(cards.reshape(n * players, -1)).reshape(n, players)
        else:
            values = np.full((n, players), -1, dtype=np.int64)
            for use_hole, use_board in self.subsets:
                part = np.concatenate([holes[:, :, use_hole], np.broadcast_to(board[:, None, use_board], (n, players, len(use_board)))], axis=2)
                np.maximum(values, ranker.rank_many(part.reshape(n * players, -1)).reshape(n, players), out=values)
        dense = values // ranker.suit_scale if ranker.mode == "suited" else values
        qualifies = (values >= 0) & (ranker.tables.categories[np.maximum(dense, 0)] >= 0)
        return np.where(qualifies, values, -1)

    def settle(self, deals: np.ndarray) -> Settled:
        """The shares of every deal row."""
        if self.generic:
            return self._settle_generic(deals)
        n, players, hole, size = len(deals), self.players, self.hole, self.board
        holes = deals[:, : players * hole].reshape(n, players, hole)
        shares = np.zeros((n, players))
        per_half = [np.zeros((n, players)) for _ in self.halves]
        dead = [np.ones(n, dtype=bool) for _ in self.halves]
        boards_live = np.zeros(n)
        per_board = []
        for b in range(self.boards):
            start = players * hole + b * size
            board = deals[:, start : start + size]
            winners, live = [], np.zeros(n)
            for h in range(len(self.halves)):
                values = self.strengths(h, holes, board)
                best = values.max(axis=1, keepdims=True)
                won = (values == best) & (best >= 0)
                winners.append(won)
                live += won.any(axis=1)
            per_board.append((winners, live))
            boards_live += live > 0
        for winners, live in per_board:
            for h, won in enumerate(winners):
                count = won.sum(axis=1, keepdims=True)
                part = np.where(won, 1.0 / np.maximum(count, 1), 0.0) / np.maximum(live, 1)[:, None] / np.maximum(boards_live, 1)[:, None]
                per_half[h] += part
                shares += part
                dead[h] &= ~won.any(axis=1)
        names = [name for name, _ in self.halves]
        return Settled(shares, list(zip(names, per_half)), list(zip(names, dead)))

    def _settle_generic(self, deals: np.ndarray) -> Settled:
        """Deal by deal with the generic showdown (rulesets with ``beats:``)."""
        from .showdown import showdown

        deck = self.ruleset.deck
        n, players, hole, size = len(deals), self.players, self.hole, self.board
        names = [name for name, _ in self.halves]
        shares = np.zeros((n, players))
        per_half = [np.zeros((n, players)) for _ in self.halves]
        dead = [np.ones(n, dtype=bool) for _ in self.halves]
        for i, row in enumerate(deals.tolist()):
            hands = [[deck[c] for c in row[p * hole : (p + 1) * hole]] for p in range(players)]
            start = players * hole
            boards = [[deck[c] for c in row[start + b * size : start + (b + 1) * size]] for b in range(self.boards)]
            result = showdown(self.ruleset, hands, boards if self.boards > 1 else boards[0])
            shares[i] = [float(f) for f in result.fractions]
            for half in result.halves:
                h = names.index(half.name.split(" ")[-1]) if half.name.split(" ")[-1] in names else 0
                for w in half.winners:
                    per_half[h][i, w] += float(half.share) / len(half.winners)
                if half.winners:
                    dead[h][i] = False
        return Settled(shares, list(zip(names, per_half)), list(zip(names, dead)))
