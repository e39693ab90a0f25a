"""A plain NumPy video-poker solver for 9/6 Jacks or Better: the reference the
pokerrules solver is timed against (see benchmarks/draw_return.py).

Nothing of pokerrules is used: the categories come from rank counts, flushes
and straights written for this one game, the way a NumPy programmer would
write a solver for it:

1. every five-card hand (itertools), its category and pay;
2. the pay total of the final hands containing each subset of at most four
   cards: one ``bincount`` per choice of positions (31 of them), indexed in
   the combinatorial number system;
3. the starting-hand classes: hands grouped by their sorted per-suit rank
   masks (``np.unique``), one hand played per class, weighted by its size;
4. per class the 32 holds by inclusion-exclusion (a Moebius transform over the
   held positions), the best EV, and the weighted mean.

Run: ``taskset -c 0 python benchmarks/draw_reference.py`` prints the return
(99.543904%) and the seconds taken.
"""

from __future__ import annotations

import time
from itertools import chain, combinations
from math import comb

import numpy as np

PAYS = {  # 9/6 Jacks or Better, per coin at five coins (royal flush 4000 / 5)
    "royal_flush": 800,
    "straight_flush": 50,
    "four_of_a_kind": 25,
    "full_house": 9,
    "flush": 6,
    "straight": 4,
    "three_of_a_kind": 3,
    "two_pair": 2,
    "jacks_or_better": 1,
}


def all_hands(n: int = 52, k: int = 5) -> np.ndarray:
    """Every k-card hand of cards 0..n-1 (card = rank * 4 + suit, rank 0 = deuce), rows ascending."""
    count = comb(n, k)
    flat = np.fromiter(chain.from_iterable(combinations(range(n), k)), dtype=np.int64, count=count * k)
    return flat.reshape(count, k)


def hand_pays(hands: np.ndarray) -> np.ndarray:
    """The 9/6 pay of each five-card hand."""
    ranks = np.sort(hands // 4, axis=1)
    suits = hands % 4
    flush = (suits == suits[:, :1]).all(axis=1)
    equal = ranks[:, 1:] == ranks[:, :-1]  # adjacent equal ranks (sorted)
    pairs = equal.sum(axis=1)
    distinct = pairs == 0
    wheel = (ranks == np.array([0, 1, 2, 3, 12])).all(axis=1)
    straight = distinct & ((ranks[:, 4] - ranks[:, 0] == 4) | wheel)
    royal = straight & flush & (ranks[:, 0] == 8)
    # groups: four of a kind has three equal neighbours in a row, a full house two runs
    four = (equal[:, 0] & equal[:, 1] & equal[:, 2]) | (equal[:, 1] & equal[:, 2] & equal[:, 3])
    three_run = (equal[:, :-1] & equal[:, 1:]).any(axis=1)
    full = (pairs == 3) & three_run & ~four
    trips = (pairs == 2) & three_run
    two_pair = (pairs == 2) & ~three_run
    # one pair: its rank is the rank at the equal neighbours
    pair_rank = np.where(equal, ranks[:, :-1], -1).max(axis=1)
    high_pair = (pairs == 1) & (pair_rank >= 9)  # jacks (rank 9) or better
    pay = np.zeros(len(hands))
    for mask, value in (
        (high_pair, PAYS["jacks_or_better"]),
        (two_pair, PAYS["two_pair"]),
        (trips, PAYS["three_of_a_kind"]),
        (straight & ~flush, PAYS["straight"]),
        (flush & ~straight, PAYS["flush"]),
        (full, PAYS["full_house"]),
        (four, PAYS["four_of_a_kind"]),
        (straight & flush & ~royal, PAYS["straight_flush"]),
        (royal, PAYS["royal_flush"]),
    ):
        pay[mask] = value
    return pay


def colex(rows: np.ndarray, binomial: np.ndarray) -> np.ndarray:
    """Combinatorial-number-system index of rows of ascending card ids."""
    index = np.zeros(len(rows), dtype=np.int64)
    for position in range(rows.shape[1]):
        index += binomial[rows[:, position], position + 1]
    return index


def solve() -> float:
    """The return of 9/6 Jacks or Better under optimal play."""
    binomial = np.array([[comb(c, j) for j in range(6)] for c in range(53)], dtype=np.int64)
    hands = all_hands()
    pay = hand_pays(hands)
    # pay totals of the final hands containing each subset of at most four cards
    sums = [np.zeros(comb(52, k)) for k in range(5)]
    sums[0][0] = pay.sum()
    for k in range(1, 5):
        for positions in combinations(range(5), k):
            sums[k] += np.bincount(colex(hands[:, list(positions)], binomial), weights=pay, minlength=len(sums[k]))
    five = np.zeros(comb(52, 5))
    five[colex(hands, binomial)] = pay
    # starting-hand classes: the sorted per-suit rank masks
    masks = np.zeros((len(hands), 4), dtype=np.int64)
    for position in range(5):
        card = hands[:, position]
        for suit in range(4):
            masks[:, suit] |= np.where(card % 4 == suit, 1 << (card // 4), 0)
    masks.sort(axis=1)
    key = masks[:, 0] << 39 | masks[:, 1] << 26 | masks[:, 2] << 13 | masks[:, 3]
    _, first, sizes = np.unique(key, return_index=True, return_counts=True)
    dealt = hands[first]
    # the 32 holds of each class: sums over subsets, then inclusion-exclusion
    by_subset = np.empty((32, len(dealt)))
    for mask in range(32):
        positions = [p for p in range(5) if mask >> p & 1]
        if len(positions) == 5:
            by_subset[mask] = five[colex(dealt, binomial)]
        elif positions:
            by_subset[mask] = sums[len(positions)][colex(dealt[:, positions], binomial)]
        else:
            by_subset[mask] = sums[0][0]
    for bit in range(5):
        for mask in range(32):
            if not mask >> bit & 1:
                by_subset[mask] -= by_subset[mask | 1 << bit]
    draws = np.array([comb(47, 5 - bin(mask).count("1")) for mask in range(32)])
    best = (by_subset / draws[:, None]).max(axis=0)
    return float(best @ sizes / sizes.sum())


def main() -> None:
    start = time.process_time()
    value = solve()
    print(f"9/6 Jacks or Better: return {100 * value:.6f}% in {time.process_time() - start:.2f} s (CPU)")


if __name__ == "__main__":
    main()
