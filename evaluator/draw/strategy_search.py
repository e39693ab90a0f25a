"""Finding a strategy list: the order of hold types that loses least against optimal play.

A list is played top-down: a dealt hand keeps the holds of the first line
that one of its holds belongs to (among several holds of that line, the one
with the lowest tie value). The search works on the deals of one *section*
(the hands dealt with a given number of wild cards) at once:

* every hold of every deal has an *atom* (its packed type) and each line is
  a set of atoms;
* placing a set of atoms S as one line, after taking it out of the list, can
  only change the deals that hold one of S's atoms. For each such deal the
  best hold of S and the best hold of the rest of the list are found once;
  the deal plays S exactly when the rest's line comes after S's slot, so the
  value of every slot is one ``bincount`` and a cumulative sum
  (:meth:`Section.curve`). Moves, merges, splits and deletions are all
  "take S out, put it back at the best slot";
* the value of a deal is its class weight times the EV of the hold it plays,
  so the search maximises the exact return of the list as played.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .videopoker import HOLDS

UNLISTED = 1 << 30  # the line index of an atom no line holds
TIE_SPAN = 1 << 22  # tie values are smaller than this


@dataclass
class Curve:
    """The value of placing a set of atoms at each slot of the list without it."""

    atoms: list[int]
    order: list[list[int]]  # the list without the atoms (emptied lines dropped)
    gains: np.ndarray  # gains[p]: change in weighted EV sum when the set sits before line p; the last: unlisted
    deals: np.ndarray
    own: np.ndarray  # per deal: the set's best hold
    other: np.ndarray  # per deal: the rest's best hold
    other_slot: np.ndarray  # per deal: the index of the rest's line (in ``order``)
    baseline: float  # the list's weighted EV sum without the set


class Section:
    """The deals of one section and the list being built for them."""

    def __init__(
        self,
        evs: np.ndarray,
        atoms: np.ndarray,
        ties: np.ndarray,
        weights: np.ndarray,
        atom_count: int,
        optimal: np.ndarray,
    ) -> None:
        self.evs = evs  # (deals, 32)
        self.optimal = optimal  # per deal: the best hold
        self.atoms = atoms  # (deals, 32)
        self.ties = ties  # (deals, 32)
        self.weights = weights
        self.atom_count = atom_count
        flat = atoms.ravel()
        self.entries = np.argsort(flat.astype(np.int16) if atom_count < 1 << 15 else flat, kind="stable")
        self.present = np.unique(flat).tolist()  # the atoms of the section's deals
        self.starts = np.searchsorted(flat[self.entries], np.arange(atom_count + 1))
        self.order: list[list[int]] = []
        self.chosen = np.zeros(len(evs), dtype=np.int64)
        self.total = 0.0

    # --- the list as played -------------------------------------------------------

    def line_index(self, order: Sequence[Sequence[int]]) -> np.ndarray:
        """The index of each atom's line in ``order`` (UNLISTED when none holds it)."""
        index = np.full(self.atom_count, UNLISTED, dtype=np.int64)
        for number, line in enumerate(order):
            index[line] = number
        return index

    def play(self, order: Sequence[Sequence[int]], rows: np.ndarray | None = None) -> np.ndarray:
        """The hold (0..31) each deal plays under ``order`` (or each of ``rows``)."""
        index = self.line_index(order)
        rows = np.arange(len(self.evs)) if rows is None else rows
        return self._first(index[self.atoms[rows]] * TIE_SPAN + self.ties[rows], self.evs[rows])

    @staticmethod
    def _first(score: np.ndarray, evs: np.ndarray) -> np.ndarray:
        """Per row, the hold with the lowest score; among equal scores (holds a
        list cannot tell apart) the better one."""
        low = score.min(axis=1, keepdims=True)
        chosen: np.ndarray = np.where(score == low, evs, -np.inf).argmax(axis=1)
        return chosen

    def set_order(self, order: list[list[int]]) -> None:
        """Use ``order`` as the current list."""
        self.order = [list(line) for line in order]
        self.chosen = self.play(self.order)
        self.total = float(self.weights @ self.evs[np.arange(len(self.evs)), self.chosen])

    def lossy_atoms(self) -> np.ndarray:
        """The atoms of the deals the current list plays worse than optimally."""
        rows = np.arange(len(self.evs))
        lossy = self.evs[rows, self.chosen] < self.evs[rows, self.optimal] - 1e-12
        found: np.ndarray = np.unique(self.atoms[lossy])
        return found

    def drop_idle(self) -> None:
        """Leave out the lines no deal plays (nothing changes)."""
        used = set(self.line_index(self.order)[self.atoms[np.arange(len(self.evs)), self.chosen]].tolist())
        self.order = [line for number, line in enumerate(self.order) if number in used]

    def holds_of(self, atoms: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """The (deal, hold) pairs whose atom is one of ``atoms``."""
        picked = np.concatenate([self.entries[self.starts[a] : self.starts[a + 1]] for a in atoms] or [[0]][:0])
        return picked // HOLDS, picked % HOLDS

    # --- moves -------------------------------------------------------------------

    def curve(self, atoms: Sequence[int]) -> Curve:
        """What placing ``atoms`` as one line is worth at each slot (see the module)."""
        taken = set(atoms)
        order = [kept for kept in ([a for a in line if a not in taken] for line in self.order) if kept]
        rows, columns = self.holds_of(list(atoms))
        if not len(rows):
            empty = np.zeros(0, dtype=np.int64)
            return Curve(list(atoms), order, np.zeros(len(order) + 1), empty, empty, empty, empty, self.total)
        sort = np.lexsort((-self.evs[rows, columns], self.ties[rows, columns], rows))
        rows, columns = rows[sort], columns[sort]
        first = np.ones(len(rows), dtype=bool)
        first[1:] = rows[1:] != rows[:-1]
        deals, own = rows[first], columns[first]
        index = self.line_index(order)
        other = self._first(index[self.atoms[deals]] * TIE_SPAN + self.ties[deals], self.evs[deals])
        other_slot = index[self.atoms[deals, other]]
        weight = self.weights[deals]
        current = self.evs[deals, self.chosen[deals]]
        own_ev, other_ev = self.evs[deals, own], self.evs[deals, other]
        baseline = self.total + float(weight @ (other_ev - current))
        slots = len(order) + 1
        listed = other_slot < UNLISTED
        per_slot = np.bincount(
            np.where(listed, other_slot, slots - 1), weights=weight * (own_ev - other_ev), minlength=slots
        )
        gains = np.cumsum(per_slot[::-1])[::-1]  # before slot p: every deal whose other line is at p or later
        gains[-1] = 0.0  # unlisted: never played
        return Curve(list(atoms), order, gains, deals, own, other, other_slot, baseline)

    def place(self, curve: Curve, slot: int) -> None:
        """Make the list ``curve.order`` with the curve's atoms as one line at
        ``slot`` (the last slot: left out of the list)."""
        order = [list(line) for line in curve.order]
        if slot < len(order):
            order.insert(slot, list(curve.atoms))
            plays_set = curve.other_slot >= slot
        else:
            plays_set = np.zeros(len(curve.deals), dtype=bool)
        self.order = order
        self.chosen[curve.deals] = np.where(plays_set, curve.own, curve.other)
        self.total = curve.baseline + float(curve.gains[slot]) if len(curve.deals) else self.total

    def value_at(self, curve: Curve, slot: int) -> float:
        """The list's weighted EV sum with the curve's atoms at ``slot``."""
        return curve.baseline + float(curve.gains[slot])


def improve(
    section: Section,
    fixed_last: bool,
    passes: int = 12,
    tolerance: float = 1e-9,
    report: Callable[[], None] | None = None,
) -> int:
    """Move each line to its best slot (or out of the list) until no move gains
    more than ``tolerance``; the last line stays where it is when
    ``fixed_last`` (draw five, which every deal can play). Returns the number
    of moves made."""
    moves = 0
    for _ in range(passes):
        moved = False
        for line in [list(line) for line in section.order]:
            if line not in section.order or (fixed_last and line == section.order[-1]):
                continue
            here = section.order.index(line)
            curve = section.curve(line)
            best = best_slot(curve.gains, tolerance)
            if float(curve.gains[best]) > float(curve.gains[here]) + tolerance:
                section.place(curve, best)
                moves += 1
                moved = True
            if report:
                report()
        if not moved:
            break
    return moves


def best_slot(gains: np.ndarray, tolerance: float) -> int:
    """The slot of greatest gain; leaving the line out when that is as good."""
    best = int(np.argmax(gains))
    return len(gains) - 1 if gains[best] <= gains[-1] + tolerance else best
