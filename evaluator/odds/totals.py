"""Weighted sums of the per-deal figures of an equity question (see :mod:`evaluator.odds.odds`).

Deals are added settled (each player's share of the pot, the halves) or as
winner masks counted first and settled once per distinct mask; sums of
squares are kept for the standard errors of a sampled answer. Chunks of a
sample are summed apart and merged.
"""

from __future__ import annotations

from typing import Any

import numpy as np


class Totals:
    """Weighted sums of the per-deal figures."""

    def __init__(self, players: int, halves: list[str]) -> None:
        self.weight = 0.0
        self.count = 0
        self.names = halves
        zeros = np.zeros(players)
        self.sums = {name: zeros.copy() for name in ("equity", "win", "tie", "scoop")}
        self.squares = {name: zeros.copy() for name in ("equity", "win", "tie")}
        self.halves = {name: zeros.copy() for name in halves}
        self.dead = dict.fromkeys(halves, 0.0)
        self.pending: np.ndarray | None = None  # weight of each winner mask counted, not yet settled

    def add(self, settled: Any, weight: float, squares: bool) -> None:
        """Add settled deals (``ShareEngine.settle``: each player's share, the halves, the dead
        halves), each of ``weight``; ``squares`` keeps the sums of squares for standard errors."""
        shares = settled.shares
        ones = np.full(len(shares), weight)
        whole = shares > 1 - 1e-9
        part = (shares > 1e-12) & ~whole
        figures = {"equity": shares, "win": whole.astype(np.float64), "tie": part.astype(np.float64)}
        for name, values in figures.items():
            # a matrix product: much faster than a sum down the columns of a narrow array
            self.sums[name] += ones @ values
            if squares:
                self.squares[name] += ones @ (values * values)
        # a scoop is the whole pot: both halves, or the high half when no low qualifies
        self.sums["scoop"] += ones @ figures["win"]
        for name, values in settled.halves:
            self.halves[name] += ones @ values
        for name, dead in settled.dead_halves:
            self.dead[name] += weight * float(np.count_nonzero(dead))
        self.weight += weight * len(shares)
        self.count += len(shares)

    def add_masks(self, masks: np.ndarray, weight: float) -> None:
        """Add deals given as winner masks (``ShareEngine.winner_masks``, one pot, one half):
        each distinct mask is counted here and settled once, in :meth:`fold`."""
        players = len(self.sums["equity"])
        self.weight += weight * len(masks)
        self.count += len(masks)
        if players > 16:  # too many masks to count in an array: settled at once
            found, counts = np.unique(masks, return_counts=True)
            self._settle_masks(found, weight * counts.astype(np.float64))
            return
        counts = np.bincount(masks, minlength=1 << players)
        if self.pending is None:
            self.pending = weight * counts.astype(np.float64)
        else:
            self.pending += weight * counts

    def fold(self) -> None:
        """Settle the masks counted by :meth:`add_masks` into the sums."""
        if self.pending is not None:
            found = np.flatnonzero(self.pending)
            self._settle_masks(found, self.pending[found])
            self.pending = None

    def _settle_masks(self, found: np.ndarray, weights: np.ndarray) -> None:
        players = len(self.sums["equity"])
        winners = ((found[:, None] >> np.arange(players)) & 1).astype(np.float64)  # (masks, players)
        ways = winners.sum(axis=1, keepdims=True)
        share = winners / np.maximum(ways, 1)
        whole = winners * (ways == 1)
        figures = {"equity": share, "win": whole, "tie": winners * (ways > 1)}
        for name, values in figures.items():
            self.sums[name] += weights @ values
            self.squares[name] += weights @ (values * values)
        self.sums["scoop"] += weights @ whole
        self.halves[self.names[0]] += weights @ share
        self.dead[self.names[0]] += float(weights[found == 0].sum())

    def merge(self, other: Totals) -> None:
        """Add the sums of another chunk's totals."""
        self.fold()
        other.fold()
        self.weight += other.weight
        self.count += other.count
        for mine, theirs in ((self.sums, other.sums), (self.squares, other.squares), (self.halves, other.halves)):
            for name in mine:
                mine[name] += theirs[name]
        for name in self.dead:
            self.dead[name] += other.dead[name]

    def mean(self, name: str) -> np.ndarray:
        """Each player's weighted mean of a figure (equity, win, tie, scoop)."""
        self.fold()
        mean: np.ndarray = self.sums[name] / self.weight
        return mean

    def error(self, name: str, sampled: bool) -> np.ndarray:
        """Each player's standard error of a figure's mean (zeros when every deal was counted)."""
        self.fold()
        if not sampled or self.count < 2:
            return np.zeros_like(self.sums[name])
        mean = self.mean(name)
        variance = np.maximum(self.squares[name] / self.weight - mean * mean, 0.0)
        error: np.ndarray = np.sqrt(variance / (self.count - 1))
        return error
