"""Exact video-poker mathematics: the EV of every hold and the game's return.

Every final five-card hand is ranked once (``Ruleset.rank_many`` over all
C(n, 5) hands, built in colex order so a hand's row is its index) and given
its category. For each subset S of at most five cards, ``counts[|S|][S]`` is
the number of final hands of each category that contain S. A hold H of the
dealt hand D completes to a final hand F that contains H and avoids the
discarded cards D \\ H; by inclusion-exclusion

    draws(H) = sum over H <= S <= D of (-1)^(|S|-|H|) * counts[|S|][S]

so the 32 holds of a hand cost 32 table look-ups and a Moebius transform.
Only the four-card level is counted from the final hands (one ``bincount``
per card left out); each smaller level is the next one summed over supersets
(a final hand containing a k-subset contains 5 - k of the (k+1)-subsets above
it). The EVs need only the pay total of each subset; the final-category
distribution of optimal play is summed back up the same levels. The game's
return visits one hand per suit-symmetry class (134,459 classes for 52
cards), weighted by the class size, and is summed in integers when the pays
are whole coins.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import chain, combinations
from math import comb

import numpy as np

from ..ruleset import Ruleset
from .deals import binomials, colex_drop_column, colex_drops, colex_index, colex_subsets, starting_classes

HAND = 5
HOLDS = 1 << HAND  # a hold is a bit mask over the five positions of the dealt hand
Progress = Callable[[float], None]
__all__ = ["colex_index", "starting_classes"]  # re-exported: older callers import them from here


def all_hands(deck_size: int, k: int = HAND) -> np.ndarray:
    """Every k-card hand of card ids 0..deck_size-1 (rows ascending, lexicographic order), shape (C(n, k), k)."""
    count = comb(deck_size, k)
    flat = np.fromiter(chain.from_iterable(combinations(range(deck_size), k)), dtype=np.int16, count=count * k)
    return flat.reshape(count, k)


def hold_size(mask: int) -> int:
    """How many cards hold ``mask`` keeps."""
    return bin(mask).count("1")


def mask_positions(mask: int) -> tuple[int, ...]:
    """The positions (0..4) a hold mask keeps."""
    return tuple(position for position in range(HAND) if mask >> position & 1)


def category_of_strengths(ruleset: Ruleset, strengths: np.ndarray) -> np.ndarray:
    """The category index of each ``rank_many`` strength; ``len(categories)`` for a
    hand that matches no category or does not pass the ruleset's qualifier
    (the compiled tables merge every such hand into one value)."""
    from ..compiled.fast import ruleset_ranker

    index = ruleset_ranker(ruleset).category_indices(np.asarray(strengths))
    return np.where(index >= 0, index, len(ruleset.categories))


@dataclass(frozen=True)
class FinalHands:
    """Category counts of the final hands containing each subset of at most five cards."""

    deck_size: int
    categories: tuple[str, ...]  # the ruleset's categories, then "" for a hand that matches none
    category_of_hand: np.ndarray  # per colex index of a five-card hand
    top_counts: np.ndarray  # (C(n, 4), categories): final hands containing each four-card subset
    binomials: np.ndarray

    @property
    def width(self) -> int:
        """Number of category buckets (the ruleset's categories plus "no category")."""
        return len(self.categories)

    @cached_property
    def drops(self) -> tuple[np.ndarray, ...]:
        """``drops[k]``: for each k-subset (colex order), the colex indices of its
        (k-1)-subsets, shape (C(n, k), k), for k = 1..4 (``drops[0]`` is empty)."""
        empty = np.zeros((1, 0), dtype=np.int64)
        return (empty, *(colex_drops(self.deck_size, k) for k in range(1, HAND)))

    def sweep_down(self, top: np.ndarray) -> tuple[np.ndarray, ...]:
        """From sums over the final hands containing each four-card subset to the
        sums for every smaller subset: a final hand containing a k-subset S
        contains 5 - k of the (k+1)-subsets above S, so each level is the next
        one's sum over supersets divided by 5 - k. Returns levels 0..4."""
        levels = [top]
        for k in range(HAND - 2, -1, -1):
            above, drops = levels[0], self.drops[k + 1]
            total = np.zeros((comb(self.deck_size, k), *above.shape[1:]), dtype=np.float64)
            for column in range(k + 1):
                if above.ndim == 1:
                    total += np.bincount(drops[:, column], weights=above, minlength=len(total))
                else:
                    for category in range(above.shape[1]):
                        total[:, category] += np.bincount(
                            drops[:, column], weights=above[:, category], minlength=len(total)
                        )
            levels.insert(0, total / (HAND - k))
        return tuple(levels)

    @cached_property
    def counts(self) -> tuple[np.ndarray, ...]:
        """``counts[k]``: (C(n, k), categories) final hands of each category containing each k-subset, k = 0..4."""
        return tuple(np.rint(level).astype(np.int64) for level in self.sweep_down(self.top_counts.astype(np.float64)))

    def pay_sums(self, pays: np.ndarray) -> tuple[np.ndarray, ...]:
        """``sums[k]``: the total pay of the final hands containing each k-subset,
        k = 0..5 (level 5: each final hand's own pay). Integer pays give exact sums."""
        top: np.ndarray = self.top_counts @ pays
        return (*self.sweep_down(top), pays[self.category_of_hand])

    def subset_counts(self, hands: np.ndarray, mask: int) -> np.ndarray:
        """Category counts of final hands containing the cards ``mask`` picks from each row."""
        positions = list(mask_positions(mask))
        k = len(positions)
        if k == HAND:
            index = colex_index(hands, self.binomials)
            one_hot = np.zeros((len(hands), self.width), dtype=np.int64)
            one_hot[np.arange(len(hands)), self.category_of_hand[index]] = 1
            return one_hot
        index = colex_index(hands[:, positions], self.binomials) if k else np.zeros(len(hands), dtype=np.int64)
        found: np.ndarray = self.counts[k][index]
        return found


def build_final_hands(ruleset: Ruleset, progress: Progress | None = None) -> FinalHands:
    """Rank every five-card hand of ``ruleset`` and count categories per four-card subset.

    The hands are built in colex order, so a hand's row is its colex index; the
    four-card subsets of every hand are found by table look-ups, one column per
    card left out, and counted with one ``bincount`` each.
    """
    deck_size = len(ruleset.deck)
    table = binomials(deck_size)
    hands = colex_subsets(deck_size, HAND)
    if progress:
        progress(0.05)
    category = category_of_strengths(ruleset, ruleset.rank_many(hands)).astype(np.int8)
    if progress:
        progress(0.4)
    width = len(ruleset.categories) + 1
    below = comb(deck_size, HAND - 1)
    offset = category.astype(np.int64)
    top = np.zeros(below * width, dtype=np.int64)
    below_drops = colex_drops(deck_size, HAND - 1)
    for column in range(HAND):
        index = colex_drop_column(deck_size, HAND, column, below_drops)
        top += np.bincount(index * width + offset, minlength=len(top))
    names = tuple(ruleset.category_names) + ("",)
    return FinalHands(deck_size, names, category, top.reshape(below, width), table)


def moebius_holds(by_subset: np.ndarray) -> np.ndarray:
    """From sums over all final hands containing S (axis 0: the 32 masks S) to
    sums over final hands that contain H and avoid the rest of the dealt hand."""
    result: np.ndarray = by_subset.copy()
    for bit in range(HAND):
        step = 1 << bit
        for mask in range(HOLDS):
            if not mask & step:
                result[mask] -= result[mask | step]
    return result


def draws_per_hold(deck_size: int) -> np.ndarray:
    """How many equally likely draws each hold mask has: C(n - 5, 5 - held)."""
    return np.array([comb(deck_size - HAND, HAND - hold_size(mask)) for mask in range(HOLDS)], dtype=np.int64)


@dataclass(frozen=True)
class HoldResult:
    """One hold of one hand: what it keeps, its exact EV and the final categories."""

    mask: int
    ev: float
    draws: int
    counts: tuple[int, ...]  # per category bucket (last: no category)


def hold_results(final: FinalHands, hand_ids: Sequence[int], pays: np.ndarray) -> list[HoldResult]:
    """All 32 holds of one dealt hand (card ids in the order given), best EV first;
    equal EVs keep more cards first."""
    order = sorted(range(HAND), key=lambda i: hand_ids[i])
    row = np.array([[hand_ids[i] for i in order]], dtype=np.int64)
    by_subset = np.stack([final.subset_counts(row, mask)[0] for mask in range(HOLDS)])
    per_hold = moebius_holds(by_subset)
    draws = draws_per_hold(final.deck_size)
    results = []
    for sorted_mask in range(HOLDS):
        mask = sum(1 << order[p] for p in mask_positions(sorted_mask))  # back to the caller's positions
        counts = per_hold[sorted_mask]
        ev = float(counts @ pays) / int(draws[sorted_mask])
        results.append(HoldResult(mask, ev, int(draws[sorted_mask]), tuple(int(c) for c in counts)))
    results.sort(key=lambda r: (-round(r.ev, 12), -hold_size(r.mask), r.mask))
    return results


@dataclass(frozen=True)
class GameReturn:
    """The exact result of optimal play: return, final-category probabilities, variance."""

    return_: float  # expected coins back per coin bet
    probabilities: dict[str, float]
    variance: float
    classes: int
    best_holds: np.ndarray  # per class: the best hold mask (over the sorted representative)
    representatives: np.ndarray
    sizes: np.ndarray


class ReturnCalculator:
    """Optimal-play return of a pay table over the starting-hand classes."""

    def __init__(self, ruleset: Ruleset, final: FinalHands, pays: np.ndarray) -> None:
        self.ruleset = ruleset
        self.final = final
        self.pays = pays

    @cached_property
    def classes(self) -> tuple[np.ndarray, np.ndarray]:
        """Class representatives and sizes."""
        return starting_classes(self.final.deck_size, len(self.ruleset.suits))

    @cached_property
    def sums(self) -> tuple[np.ndarray, ...]:
        """The pay sums of every subset, levels 0..5 (see :meth:`FinalHands.pay_sums`)."""
        return self.final.pay_sums(self.pays)

    def subset_indices(self, hands: np.ndarray) -> np.ndarray:
        """The colex index of the subset each of the 32 masks picks from each row
        of ``hands`` (ascending ids), shape (32, rows): a mask's index is its
        mask without the highest position's, plus that card's term."""
        ids = hands.astype(np.int64)
        table = self.final.binomials
        index = np.zeros((HOLDS, len(hands)), dtype=np.int64)
        for mask in range(1, HOLDS):
            top = mask.bit_length() - 1
            index[mask] = index[mask & ~(1 << top)] + table[ids[:, top], hold_size(mask)]
        return index

    def hold_evs(self, hands: np.ndarray, index: np.ndarray | None = None) -> np.ndarray:
        """The EV of each of the 32 holds of each row of ``hands`` (ascending ids), shape (32, rows)."""
        index = self.subset_indices(hands) if index is None else index
        sums = self.sums
        pay_sums = np.stack([sums[hold_size(mask)][index[mask]] for mask in range(HOLDS)])
        evs: np.ndarray = moebius_holds(pay_sums) / draws_per_hold(self.final.deck_size)[:, None]
        return evs

    def evs(self, hands: np.ndarray) -> np.ndarray:
        """The EV of each of the 32 holds of each row of ``hands`` (ascending ids), shape (rows, 32)."""
        by_row: np.ndarray = self.hold_evs(hands).T
        return by_row

    def compute(self, progress: Progress | None = None) -> GameReturn:
        """Play every class optimally; see :class:`GameReturn`."""
        representatives, sizes = self.classes
        index = self.subset_indices(representatives)
        evs = self.hold_evs(representatives, index)
        if progress:
            progress(0.7)
        best = best_holds(evs)
        probabilities = self.final_categories(best, index, sizes.astype(np.float64)) / float(sizes.sum())
        expected = exact_return(evs, best, sizes, self.final.deck_size)
        if expected is None:
            expected = float(probabilities @ self.pays)
        variance = float(probabilities @ (self.pays**2)) - expected**2
        names = self.final.categories
        by_name = {names[i] or "nothing": float(probabilities[i]) for i in range(len(names))}
        if progress:
            progress(1.0)
        return GameReturn(expected, by_name, variance, len(representatives), best, representatives, sizes)

    def final_categories(self, holds: np.ndarray, index: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """How many of the final hands fall in each category when each row holds
        ``holds`` (a mask per row), each row counted ``weights`` times (a
        fraction per draw): the Moebius signs spread each row over the subsets
        S between its hold and its dealt hand, and the subset totals are summed
        up to four-card subsets level by level (``U`` below: a k-subset's value
        reaches the (k+1)-subsets above it)."""
        final = self.final
        held = np.array([hold_size(mask) for mask in range(HOLDS)])
        per_draw = weights / draws_per_hold(final.deck_size)[holds]
        spread = [np.zeros(comb(final.deck_size, k)) for k in range(HAND)]
        whole = np.zeros(final.width)
        for subset in range(HOLDS):
            contains = (holds & subset) == holds
            if not contains.any():
                continue
            signed = np.where(contains, np.where((held[subset] - held[holds]) % 2 == 0, per_draw, -per_draw), 0.0)
            k = held[subset]
            if k == HAND:
                whole += np.bincount(final.category_of_hand[index[subset]], weights=signed, minlength=final.width)
            else:
                spread[k] += np.bincount(index[subset], weights=signed, minlength=len(spread[k]))
        # Horner: V_0 = spread_0, V_(k+1) = spread_(k+1) + U(V_k) / (5 - k); total = V_4 . counts_4 + whole
        level = spread[0]
        for k in range(HAND - 1):
            drops = final.drops[k + 1]
            level = spread[k + 1] + level[drops].sum(axis=1) / (HAND - k)
        total: np.ndarray = level @ final.top_counts + whole
        return total


def exact_return(evs: np.ndarray, holds: np.ndarray, sizes: np.ndarray, deck_size: int) -> float | None:
    """The return of playing ``holds`` (one mask per column of ``evs``, each
    column counted ``sizes`` times), correctly rounded: when every EV is an
    integer pay total over its number of draws, the totals are summed as
    integers per hold size and divided once. None when the pays are not whole
    coins (then the caller sums floats)."""
    draws = draws_per_hold(deck_size)
    totals = evs[holds, np.arange(len(holds))] * draws[holds]
    whole = np.rint(totals)
    if (
        not np.all(np.abs(totals - whole) <= 1e-6)
        or float(np.abs(whole).max(initial=0.0)) * float(sizes.sum()) > 2.0**62
    ):
        return None
    held = np.array([hold_size(mask) for mask in range(HOLDS)])[holds]
    result = Fraction(0)
    for k in range(HAND + 1):
        chosen = held == k
        if chosen.any():
            result += Fraction(
                int((whole[chosen].astype(np.int64) * sizes[chosen]).sum()), comb(deck_size - HAND, HAND - k)
            )
    return float(result / int(sizes.sum()))


def best_holds(evs: np.ndarray) -> np.ndarray:
    """The best hold of each column of ``evs`` (32, rows): among holds within
    1e-9 of the best EV, the one keeping most cards, then the lowest mask."""
    masks = np.arange(HOLDS)
    held = np.array([hold_size(int(m)) for m in masks])
    top = evs.max(axis=0, keepdims=True)
    preference = np.where(evs >= top - 1e-9, (held * HOLDS + (HOLDS - 1 - masks))[:, None], -1)
    chosen: np.ndarray = preference.argmax(axis=0)
    return chosen
