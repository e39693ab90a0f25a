"""Exact video-poker mathematics: the EV of every hold and the game's return.

Every final five-card hand is ranked once (``Ruleset.rank_many`` over all
C(n, 5) hands) and given its category. For each subset S of at most five
cards, ``counts[|S|][S]`` is the number of final hands of each category that
contain S. A hold H of the dealt hand D completes to a final hand F that
contains H and avoids the discarded cards D \\ H; by inclusion-exclusion

    draws(H) = sum over H <= S <= D of (-1)^(|S|-|H|) * counts[|S|][S]

so the 32 holds of a hand cost 32 table look-ups and a Moebius transform.
The game's return visits one hand per suit-symmetry class (134,459 classes for
52 cards), weighted by the class size.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain, combinations
from math import comb

import numpy as np

from ..ruleset import Ruleset

HAND = 5
HOLDS = 1 << HAND  # a hold is a bit mask over the five positions of the dealt hand
Progress = Callable[[float], None]


def all_hands(deck_size: int, k: int = HAND) -> np.ndarray:
    """Every k-card hand of card ids 0..deck_size-1 (rows ascending), shape (C(n, k), k)."""
    count = comb(deck_size, k)
    flat = np.fromiter(chain.from_iterable(combinations(range(deck_size), k)), dtype=np.int16, count=count * k)
    return flat.reshape(count, k)


def _binomials(deck_size: int) -> np.ndarray:
    table = np.zeros((deck_size + 1, HAND + 1), dtype=np.int64)
    for c in range(deck_size + 1):
        for i in range(HAND + 1):
            table[c, i] = comb(c, i)
    return table


def colex_index(sorted_ids: np.ndarray, binomials: np.ndarray) -> np.ndarray:
    """The combinatorial-number-system index of each row of ascending card ids.

    >>> colex_index(np.array([[0, 1], [0, 2], [1, 2]]), _binomials(3)).tolist()
    [0, 1, 2]
    """
    index = np.zeros(len(sorted_ids), dtype=np.int64)
    for position in range(sorted_ids.shape[1]):
        index += binomials[sorted_ids[:, position].astype(np.int64), position + 1]
    return index


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
    counts: tuple[np.ndarray, ...]  # counts[k]: (C(n, k), categories) for k = 0..4
    binomials: np.ndarray

    @property
    def width(self) -> int:
        """Number of category buckets (the ruleset's categories plus "no category")."""
        return len(self.categories)

    def subset_counts(self, hands: np.ndarray, mask: int) -> np.ndarray:
        """Category counts of final hands containing the cards ``mask`` picks from each row."""
        positions = list(mask_positions(mask))
        k = len(positions)
        if k == HAND:
            index = colex_index(hands, self.binomials)
            one_hot = np.zeros((len(hands), self.width), dtype=np.int64)
            one_hot[np.arange(len(hands)), self.category_of_hand[index]] = 1
            return one_hot
        if k == 0:
            whole_deck: np.ndarray = np.broadcast_to(self.counts[0][0].astype(np.int64), (len(hands), self.width))
            return whole_deck
        index = colex_index(hands[:, positions], self.binomials)
        found: np.ndarray = self.counts[k][index].astype(np.int64)
        return found


def build_final_hands(ruleset: Ruleset, progress: Progress | None = None) -> FinalHands:
    """Rank every five-card hand of ``ruleset`` and count categories per card subset."""
    deck_size = len(ruleset.deck)
    hands = all_hands(deck_size)
    if progress:
        progress(0.05)
    category = category_of_strengths(ruleset, ruleset.rank_many(hands))
    width = len(ruleset.categories) + 1
    binomials = _binomials(deck_size)
    category_of_hand = np.empty(comb(deck_size, HAND), dtype=np.int8)
    category_of_hand[colex_index(hands, binomials)] = category
    counts: list[np.ndarray] = []
    for k in range(HAND):
        total = np.zeros(comb(deck_size, k) * width, dtype=np.int64)
        for positions in combinations(range(HAND), k):
            index = colex_index(hands[:, list(positions)], binomials) if k else np.zeros(len(hands), dtype=np.int64)
            total += np.bincount(index * width + category, minlength=len(total))
        counts.append(total.reshape(-1, width).astype(np.int32))
        if progress:
            progress(0.1 + 0.15 * (k + 1))
    names = tuple(ruleset.category_names) + ("",)
    return FinalHands(deck_size, names, category_of_hand, tuple(counts), binomials)


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


def starting_classes(deck_size: int, suits: int) -> tuple[np.ndarray, np.ndarray]:
    """One representative per suit-symmetry class of dealt hands, and the class sizes.

    Two hands are alike when a permutation of suits maps one onto the other:
    they have the same multiset of per-suit rank masks (jokers stay jokers).
    """
    hands = all_hands(deck_size)
    natural = (deck_size // suits) * suits
    masks = np.zeros((len(hands), suits), dtype=np.int64)
    jokers = np.zeros(len(hands), dtype=np.int64)
    for position in range(HAND):
        card = hands[:, position].astype(np.int64)
        is_natural = card < natural
        rank, suit = card // suits, card % suits
        np.add.at(masks, (np.nonzero(is_natural)[0], suit[is_natural]), 1 << rank[is_natural])
        jokers += np.where(is_natural, 0, 1 << np.maximum(card - natural, 0))
    masks.sort(axis=1)
    rank_bits = natural // suits
    key = jokers
    for column in range(suits):
        key = (key << rank_bits) | masks[:, column]
    _, first, sizes = np.unique(key, return_index=True, return_counts=True)
    return hands[first], sizes


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

    def evs(self, hands: np.ndarray) -> np.ndarray:
        """The EV of each of the 32 holds of each row of ``hands`` (ascending ids), shape (rows, 32)."""
        pay_sums = np.stack([self.final.subset_counts(hands, mask) @ self.pays for mask in range(HOLDS)])
        evs: np.ndarray = (moebius_holds(pay_sums) / draws_per_hold(self.final.deck_size)[:, None]).T
        return evs

    def compute(self, progress: Progress | None = None, chunk: int = 20000) -> GameReturn:
        """Play every class optimally; see :class:`GameReturn`."""
        representatives, sizes = self.classes
        masks = np.arange(HOLDS)
        held = np.array([hold_size(int(m)) for m in masks])
        draws = draws_per_hold(self.final.deck_size)
        best = np.empty(len(representatives), dtype=np.int64)
        category_total = np.zeros(self.final.width, dtype=np.float64)
        for start in range(0, len(representatives), chunk):
            rows = representatives[start : start + chunk]
            evs = self.evs(rows)
            top = evs.max(axis=1, keepdims=True)
            # among holds within rounding of the best: the one keeping most cards
            preference = np.where(evs >= top - 1e-9, held * HOLDS + (HOLDS - 1 - masks), -1)
            chosen = preference.argmax(axis=1)
            best[start : start + chunk] = chosen
            weight = sizes[start : start + chunk].astype(np.float64) / draws[chosen]
            for subset in range(HOLDS):
                contains = (chosen & subset) == chosen  # S is a superset of the chosen hold
                if not contains.any():
                    continue
                sign = np.where((held[subset] - held[chosen]) % 2 == 0, 1.0, -1.0)
                factor = np.where(contains, sign * weight, 0.0)
                category_total += factor @ self.final.subset_counts(rows, subset)
            if progress:
                progress(min(1.0, (start + chunk) / len(representatives)))
        total = float(sizes.sum())
        probabilities = category_total / total
        expected = float(probabilities @ self.pays)
        variance = float(probabilities @ (self.pays**2)) - expected**2
        names = self.final.categories
        by_name = {names[i] or "nothing": float(probabilities[i]) for i in range(len(names))}
        return GameReturn(expected, by_name, variance, len(representatives), best, representatives, sizes)
