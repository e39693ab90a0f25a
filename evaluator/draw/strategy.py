"""Strategy lists for video poker, generated for any ruleset and pay table.

A strategy list is what a player takes to the machine: hold types ranked
top-down ("4 to a royal flush", "pair of jacks or better", "4 to a flush"),
the first line that one of the hand's holds belongs to decides what to keep.
:func:`build_strategy` makes one from the exact EV of every hold of every
starting-hand class:

1. every hold is typed (:mod:`evaluator.draw.hold_types`); a type with its
   penalty cards is an *atom*, without them a *descriptor*;
2. per section (the hands dealt with 0, 1, 2... wild cards: a wild-card game's
   list is read by the wild cards dealt), the descriptors that are ever the
   best hold are ranked by their mean EV, then each line is moved to the slot
   where the list, played literally over every deal, returns most
   (:mod:`evaluator.draw.strategy_search`);
3. a penalty variant of a line that plays better elsewhere becomes its own
   line (an exception: "3 to a straight flush ... with a flush penalty"), and
   lines of one family next to each other merge when nothing is lost;
4. with ``lines=N``, the lines that cost least are merged with their
   neighbour or dropped until N are left.

The list's return is then computed exactly: every class plays the hold the
list picks, and the pay totals are summed as integers.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from .hold_types import (
    DRAW_FIVE,
    Geometry,
    build_geometry,
    descriptor,
    family,
    hold_type,
    hold_types,
    penalty_of,
    ranks_of,
    unpack,
)
from .paytable import PayTable
from .strategy_cache import read_orders, write_orders
from .strategy_search import Section, best_slot, improve
from .strategy_text import line_phrases, line_text, rank_text
from .videopoker import HAND, HOLDS, FinalHands, ReturnCalculator, best_holds, exact_return, hold_size

Progress = Callable[[float], None]
MAX_TYPES = 4  # hold types one line of a shortened list may name
SPLIT_WORTH = 1e-8  # return (per coin) a line of its own for some penalty cards or ranks must gain
HELD_SHIFT = 19  # tie values: fewer cards left out first, then fewer penalty cards, then higher ranks


@dataclass
class SectionList:
    """The list for the hands dealt with ``wilds`` wild cards."""

    wilds: int
    lines: list[list[int]]  # atom ids, top line first
    texts: list[str]  # each line in words
    deals: int  # dealt hands in the section
    optimal: float  # summed EV over the section's dealt hands under optimal play
    played: float  # the same under the list
    line_deals: list[int] = field(default_factory=list)  # dealt hands each line decides
    line_ev: list[float] = field(default_factory=list)  # their mean EV


@dataclass(frozen=True)
class Match:
    """Where a dealt hand meets the list: its line (1-based over the whole list) and the hold it keeps."""

    line: int
    text: str
    mask: int  # positions of the hand kept
    ev: float  # of that hold
    best_ev: float  # of the best hold


@dataclass
class Strategy:
    """A strategy list and its exact cost."""

    paytable: str
    title: str
    ruleset: str
    geometry: Geometry
    atom_keys: list[int]  # packed type of each atom
    sections: list[SectionList]
    return_: float  # played literally, exact
    optimal: float  # under optimal play, exact
    max_lines: int | None  # None: the full list
    calculator: ReturnCalculator  # the game's tables, for :meth:`match`

    @property
    def final(self) -> FinalHands:
        """The subset counts of the game."""
        return self.calculator.final

    @property
    def error(self) -> float:
        """Return lost against optimal play (per coin)."""
        return self.optimal - self.return_

    @property
    def line_count(self) -> int:
        """Lines over all sections."""
        return sum(len(section.lines) for section in self.sections)

    @cached_property
    def _atom_of(self) -> dict[int, int]:
        return {key: atom for atom, key in enumerate(self.atom_keys)}

    @cached_property
    def _lookup(self) -> dict[int, tuple[SectionList, int, dict[int, int]]]:
        """Per wild cards dealt: the section, its first line number, its line per atom."""
        found = {}
        first = 1
        for section in self.sections:
            line_of = {atom: number for number, line in enumerate(section.lines) for atom in line}
            found[section.wilds] = (section, first, line_of)
            first += len(section.lines)
        return found

    def match(self, hand_ids: list[int]) -> Match:
        """The line a dealt hand (card ids, five) meets, played literally, and
        the hold it keeps: each hold typed card by card (:func:`hold_type`)."""
        order = sorted(range(HAND), key=lambda position: hand_ids[position])
        by_sorted = self.calculator.hold_evs(np.array([[hand_ids[p] for p in order]]))[:, 0]
        results = {
            sum(1 << order[p] for p in range(HAND) if sorted_mask >> p & 1): float(by_sorted[sorted_mask])
            for sorted_mask in range(HOLDS)
        }
        wilds = int(sum(bool(self.geometry.wild_card[card]) for card in hand_ids))
        if wilds not in self._lookup:
            raise ValueError(f"no section for {wilds} wild cards")
        section, first, line_of = self._lookup[wilds]
        atom_of = self._atom_of
        best: tuple[int, int, float, int] | None = None
        for mask in range(HOLDS):
            key, tie = hold_type(self.geometry, self.final, hand_ids, mask)
            number = line_of.get(atom_of.get(key, -1))
            if number is None:
                continue
            rank = (number, tie + ((HAND - hold_size(mask)) << HELD_SHIFT), -results[mask], mask)
            if best is None or rank < best:
                best = rank
        if best is None:
            raise ValueError("no line of the list fits the hand")
        number, _, ev, mask = best
        return Match(first + number, section.texts[number], mask, -ev, max(results.values()))

    def to_json(self) -> dict[str, Any]:
        """The list as JSON (schema: docs/json/draw-strategy.schema.json)."""
        number = 0
        sections = []
        for section in self.sections:
            lines = []
            for text, deals, ev in zip(section.texts, section.line_deals, section.line_ev, strict=True):
                number += 1
                lines.append({"line": number, "hold": text, "deals": deals, "ev": ev})
            sections.append(
                {
                    "wild_cards": section.wilds,
                    "deals": section.deals,
                    "return": section.played / section.deals,
                    "optimal": section.optimal / section.deals,
                    "lines": lines,
                }
            )
        return {
            "paytable": self.paytable,
            "ruleset": self.ruleset,
            "max_lines": self.max_lines,
            "lines": self.line_count,
            "return": self.return_,
            "optimal": self.optimal,
            "error": self.error,
            "wild_card": self.geometry.wild_word[0] if any(s.wilds for s in self.sections) else None,
            "high_cards": rank_text(self.geometry, self.geometry.high_mask),
            "sections": sections,
        }


@dataclass
class _Game:
    """What the search needs of a game: per class its holds' EVs, atoms and ties."""

    calculator: ReturnCalculator
    geometry: Geometry
    evs: np.ndarray  # (classes, 32)
    atoms: np.ndarray  # (classes, 32)
    ties: np.ndarray  # (classes, 32)
    keys: np.ndarray  # per atom
    sizes: np.ndarray
    wilds: np.ndarray  # per class: wild cards dealt
    best: np.ndarray  # per class: the optimal hold


def _game(table: PayTable, progress: Progress | None) -> _Game:
    from .payback import final_hands

    final = final_hands(table.ruleset)
    pays = table.vector(final.categories)
    calculator = ReturnCalculator(table.ruleset, final, pays)
    representatives, sizes = calculator.classes
    index = calculator.subset_indices(representatives)
    evs = calculator.hold_evs(representatives, index)
    if progress:
        progress(0.1)
    geometry = build_geometry(table.ruleset, final, pays)
    typed = hold_types(geometry, final, representatives, index)
    held = np.array([hold_size(mask) for mask in range(HOLDS)])
    ties = typed.ties + ((HAND - held) << HELD_SHIFT)[:, None]
    keys = np.unique(np.concatenate([np.unique(column) for column in typed.keys]))
    atoms = np.stack([np.searchsorted(keys, column) for column in typed.keys], axis=1)
    if progress:
        progress(0.2)
    wilds = geometry.wild_card[representatives.astype(np.int64)].sum(axis=1)
    return _Game(
        calculator,
        geometry,
        np.ascontiguousarray(evs.T),
        atoms.astype(np.int32),
        np.ascontiguousarray(ties.T),
        keys,
        sizes,
        wilds,
        best_holds(evs),
    )


def _initial_order(section: Section, game: _Game, rows: np.ndarray) -> list[list[int]]:
    """Descriptors that are the best hold of some deal, by mean EV, and draw five last."""
    atoms, evs, weights = game.atoms[rows], game.evs[rows], game.sizes[rows].astype(np.float64)
    descriptors = np.array([descriptor(int(k)) for k in game.keys], dtype=np.int64)
    best_atoms = atoms[np.arange(len(rows)), game.best[rows]]
    wanted = set(descriptors[np.unique(best_atoms)].tolist())
    weight = np.repeat(weights, HOLDS)
    atom_sums = np.bincount(atoms.ravel(), weights=weight * evs.ravel(), minlength=len(game.keys))
    atom_totals = np.bincount(atoms.ravel(), weights=weight, minlength=len(game.keys))
    sums: dict[int, float] = {}
    totals: dict[int, float] = {}
    for atom in np.nonzero(atom_totals)[0].tolist():
        whole = int(descriptors[atom])
        sums[whole] = sums.get(whole, 0.0) + float(atom_sums[atom])
        totals[whole] = totals.get(whole, 0.0) + float(atom_totals[atom])
    mean_ev = {d: sums[d] / totals[d] for d in totals}
    by_descriptor: dict[int, list[int]] = {}
    present = np.unique(atoms)
    for atom in present.tolist():
        by_descriptor.setdefault(int(descriptors[atom]), []).append(atom)
    draw_five = [a for a in present.tolist() if unpack(int(game.keys[a])).kind == DRAW_FIVE]
    lines = [by_descriptor[d] for d in sorted(wanted, key=lambda d: -mean_ev[d]) if d in by_descriptor]
    lines = [line for line in lines if line != draw_five]
    return [*lines, draw_five]


def _split(section: Section, keys: np.ndarray, worth: float) -> int:
    """Give a part of a line -- the holds with given penalty cards, or with given
    ranks -- a line of its own where that plays better. Only parts that some
    deal played at a loss against optimal play are tried."""
    lossy = set(section.lossy_atoms().tolist())
    splits = 0
    for line in [list(line) for line in section.order[:-1]]:
        for part_of in (penalty_of, ranks_of):
            parts: dict[tuple[int, int], list[int]] = {}
            for atom in line:
                key = int(keys[atom])
                parts.setdefault((descriptor(key), part_of(key)), []).append(atom)
            for (whole, _), part in parts.items():
                if len([k for k in parts if k[0] == whole]) < 2 or not lossy & set(part):
                    continue
                curve = section.curve(part)
                best = best_slot(curve.gains, worth)
                if section.value_at(curve, best) > section.total + worth:
                    section.place(curve, best)
                    splits += 1
    return splits


def _gather(section: Section, keys: np.ndarray, tolerance: float) -> int:
    """Move a line next to a line of its family where that loses nothing, so
    that the two can merge (lines whose deals never meet may sit anywhere)."""

    def families(line: list[int]) -> set[int]:
        return {family(int(keys[atom])) for atom in line}

    moves = 0
    for line in [list(line) for line in section.order[:-1]]:
        if line not in section.order:
            continue
        here = section.order.index(line)
        own = families(line)
        neighbours = section.order[max(0, here - 1) : here] + section.order[here + 1 : here + 2]
        if any(families(other) & own for other in neighbours):
            continue
        curve = section.curve(line)
        slots = sorted(
            {p + step for p, other in enumerate(curve.order[:-1]) if families(other) & own for step in (0, 1)},
            key=lambda p: abs(p - here),
        )
        for slot in slots:
            if curve.gains[slot] >= curve.gains[here] - tolerance:
                section.place(curve, slot)
                moves += 1
                break
    return moves


def _merge_neighbours(section: Section, keys: np.ndarray, tolerance: float, same_family: bool) -> int:
    """Merge consecutive lines (of one family when ``same_family``) where it costs at most ``tolerance``."""
    merges = 0
    number = 0
    while number < len(section.order) - 2:
        upper, lower = section.order[number], section.order[number + 1]
        if same_family and {family(int(keys[a])) for a in upper} != {family(int(keys[a])) for a in lower}:
            number += 1
            continue
        curve = section.curve(upper + lower)
        if section.value_at(curve, number) >= section.total - tolerance:
            section.place(curve, number)
            merges += 1
        else:
            number += 1
    return merges


def build_strategy(table: PayTable, lines: int | None = None, progress: Progress | None = None) -> Strategy:
    """The strategy list of ``table`` (at most ``lines`` lines), with its exact return.

    >>> strategy = build_strategy(load_paytable("jacks-or-better-9-6"))  # doctest: +SKIP
    """
    game = _game(table, progress)
    total_weight = float(game.sizes.sum())
    tolerance = 1e-12 * total_weight
    sections: list[tuple[int, Section, np.ndarray]] = []
    for wilds in sorted(set(game.wilds.tolist())):
        rows = np.nonzero(game.wilds == wilds)[0]
        section = Section(
            game.evs[rows],
            game.atoms[rows],
            game.ties[rows],
            game.sizes[rows].astype(np.float64),
            len(game.keys),
            game.best[rows],
        )
        sections.append((wilds, section, rows))
    kept = read_orders(table, lines, [wilds for wilds, _, _ in sections], len(game.keys))
    if kept is not None:  # the search's result from an earlier run: the figures are worked out again
        for (_, section, _), (_, order) in zip(sections, kept, strict=True):
            section.set_order(order)
        return _finish(table, game, sections, lines)
    for _, section, rows in sections:
        section.set_order(_initial_order(section, game, rows))
    for step, (_, section, _) in enumerate(sections):
        improve(section, fixed_last=True, tolerance=tolerance)
        for _ in range(2):
            if not _split(section, game.keys, SPLIT_WORTH * total_weight):
                break
            improve(section, fixed_last=True, tolerance=tolerance)
        _gather(section, game.keys, tolerance)
        _merge_neighbours(section, game.keys, tolerance, same_family=True)
        section.drop_idle()
        if progress:
            progress(0.2 + 0.6 * (step + 1) / len(sections))
    if lines is not None:
        _reduce(sections, game.geometry, [int(k) for k in game.keys], lines, tolerance)
        for _, section, _ in sections:
            section.drop_idle()
    write_orders(table, lines, [(wilds, [list(line) for line in section.order]) for wilds, section, _ in sections])
    return _finish(table, game, sections, lines)


def _phrases(section: Section, number: int, atoms: list[int], geometry: Geometry, keys: list[int]) -> int:
    """How many hold types a line of ``atoms`` at line ``number`` names (see :func:`line_phrases`)."""
    above = {atom for line in section.order[:number] for atom in line}
    remaining = [a for a in section.present if a not in above]
    return len(line_phrases(geometry, atoms, remaining, keys))


def _offers(section: Section, number: int, geometry: Geometry, keys: list[int]) -> list[tuple[float, list[int], bool]]:
    """The options of line ``number``: dropped, or merged with the line below when
    the merged line names at most MAX_TYPES hold types; each with its exact cost."""
    if number >= len(section.order) - 1:
        return []
    line = section.order[number]
    options: list[tuple[list[int], bool]] = [(list(line), True)]
    if number + 1 < len(section.order) - 1:
        merged = line + section.order[number + 1]
        if _phrases(section, number, merged, geometry, keys) <= MAX_TYPES:
            options.append((merged, False))
    priced = []
    for atoms, drop in options:
        curve = section.curve(atoms)
        priced.append((section.total - section.value_at(curve, len(curve.gains) - 1 if drop else number), atoms, drop))
    return priced


def _reduce(
    sections: list[tuple[int, Section, np.ndarray]], geometry: Geometry, keys: list[int], limit: int, tolerance: float
) -> None:
    """Merge or drop the lines that cost least until at most ``limit`` are left
    (every section keeps its last line, draw five). Every option is priced
    once; the cheapest is re-priced before it is taken (taking one changes
    the price of its neighbours, which are priced again)."""
    limit = max(limit, len(sections))
    excess = sum(len(section.order) for _, section, _ in sections) - limit
    heap: list[tuple[float, int, int, list[int], bool]] = []
    tags = iter(range(1 << 62))

    def offer(which: int, number: int) -> None:
        for loss, atoms, drop in _offers(sections[which][1], number, geometry, keys):
            heapq.heappush(heap, (loss, next(tags), which, atoms, drop))

    for which, (_, section, _) in enumerate(sections):
        for number in range(len(section.order) - 1):
            offer(which, number)
    while excess > 0 and heap:
        _, tag, which, atoms, drop = heapq.heappop(heap)
        section = sections[which][1]
        lines = [number for number, line in enumerate(section.order) if set(line) <= set(atoms)]
        expected = 1 if drop else 2
        if (
            len(lines) != expected
            or sum(len(section.order[n]) for n in lines) != len(atoms)
            or lines[-1] >= len(section.order) - 1
            or lines[-1] - lines[0] != expected - 1
        ):
            continue  # the lines it was made of have changed
        curve = section.curve(atoms)
        slot = len(curve.gains) - 1 if drop else lines[0]
        fresh = section.total - section.value_at(curve, slot)
        if heap and fresh > heap[0][0] + tolerance:
            heapq.heappush(heap, (fresh, tag, which, atoms, drop))
            continue
        section.place(curve, slot)
        excess -= 1
        for number in range(max(0, lines[0] - 1), min(lines[0] + 1, len(section.order) - 1)):
            offer(which, number)
    for _, section, _ in sections:
        improve(section, fixed_last=True, passes=2, tolerance=tolerance)


def _finish(
    table: PayTable, game: _Game, sections: list[tuple[int, Section, np.ndarray]], max_lines: int | None
) -> Strategy:
    chosen = game.best.copy()
    keys = [int(k) for k in game.keys]
    made: list[SectionList] = []
    for wilds, section, rows in sections:
        played = section.play(section.order)
        chosen[rows] = played
        columns = np.arange(len(rows))
        index = section.line_index(section.order)[section.atoms[columns, played]]
        weights = section.weights
        evs = section.evs[columns, played]
        line_deals = np.bincount(index, weights=weights, minlength=len(section.order))
        line_sums = np.bincount(index, weights=weights * evs, minlength=len(section.order))
        remaining = set(np.unique(section.atoms).tolist())
        texts = []
        for line in section.order:
            texts.append(line_text(game.geometry, line, remaining, keys))
            remaining -= set(line)
        made.append(
            SectionList(
                wilds,
                [list(line) for line in section.order],
                texts,
                int(weights.sum()),
                float(weights @ section.evs[columns, game.best[rows]]),
                float(weights @ evs),
                [int(round(x)) for x in line_deals],
                [float(s / d) if d else 0.0 for s, d in zip(line_sums, line_deals, strict=True)],
            )
        )
    final = game.calculator.final
    evs_by_hold = game.evs.T
    played_return = exact_return(evs_by_hold, chosen, game.sizes, final.deck_size)
    optimal_return = exact_return(evs_by_hold, game.best, game.sizes, final.deck_size)
    if played_return is None or optimal_return is None:
        columns = np.arange(len(chosen))
        total = float(game.sizes.sum())
        played_return = float(game.sizes @ game.evs[columns, chosen]) / total
        optimal_return = float(game.sizes @ game.evs[columns, game.best]) / total
    return Strategy(
        table.name,
        table.title,
        table.ruleset.name,
        game.geometry,
        keys,
        made,
        played_return,
        optimal_return,
        max_lines,
        game.calculator,
    )
