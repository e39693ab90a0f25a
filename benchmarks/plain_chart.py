"""A plain NumPy board-major script: the exact hold'em chart against one random hand.

The reference that ``pokerrules chart holdem --exact`` is timed against in
``bench_exact.py``: the same method written the obvious way on top of
``Ruleset.rank_many`` and nothing else of pokerrules. Each suit-canonical board
(134,459, with weights adding up to 2,598,960) ranks its 1,081 live holdings
in one ``rank_many`` call; wins and ties against every opponent holding are
counted with a sort and ``searchsorted`` per board, minus the holdings that
share a card with the hero (one row per live card), plus the hero itself.

    python benchmarks/plain_chart.py        # prints AA, KK, AKs, AKo, 72o and the time
"""

from __future__ import annotations

import time
from itertools import combinations
from math import factorial

import numpy as np

from evaluator import load

BATCH = 256  # boards per rank_many call


def canonical_boards() -> tuple[np.ndarray, np.ndarray]:
    """Every five-card board whose suits' rank sets grow from suit to suit, with its orbit size."""
    boards = np.array(list(combinations(range(52), 5)), dtype=np.int64)  # id = rank * 4 + suit
    masks = np.zeros((len(boards), 4), dtype=np.int64)
    for j in range(5):
        np.add.at(masks, (np.arange(len(boards)), boards[:, j] % 4), 1 << (boards[:, j] // 4))
    keep = (np.diff(masks, axis=1) >= 0).all(axis=1)
    masks = masks[keep]
    stabiliser = np.ones(len(masks), dtype=np.int64)
    for row, mask in enumerate(masks.tolist()):
        for size in np.unique(mask, return_counts=True)[1]:
            stabiliser[row] *= factorial(int(size))
    return boards[keep], 24 // stabiliser


def class_table(deck: list) -> tuple[np.ndarray, list[str]]:
    """The class name index of every pair of card ids."""
    order = "AKQJT98765432"
    names: list[str] = []
    index = np.zeros((52, 52), dtype=np.int64)
    for a in range(52):
        for b in range(52):
            x, y = sorted((deck[a], deck[b]), key=lambda card: order.index(card.rank))
            name = x.rank * 2 if x.rank == y.rank else x.rank + y.rank + ("s" if x.suit == y.suit else "o")
            if name not in names:
                names.append(name)
            index[a, b] = names.index(name)
    return index, names


def chart() -> dict[str, float]:
    """Every class's exact equity against one random hand."""
    holdem = load("holdem")
    boards, weights = canonical_boards()
    classes, names = class_table(list(holdem.deck))
    first, second = (np.array(side) for side in zip(*combinations(range(47), 2), strict=True))
    holding_of = np.full((47, 47), -1)
    holding_of[first, second] = holding_of[second, first] = np.arange(len(first))
    by_card = np.array([[holding_of[c, x] for x in range(47) if x != c] for c in range(47)])  # (47, 46)
    wins = np.zeros(len(names))
    ties = np.zeros(len(names))
    deals = np.zeros(len(names))
    for start in range(0, len(boards), BATCH):
        board, weight = boards[start : start + BATCH], weights[start : start + BATCH].astype(np.float64)
        nb = len(board)
        taken = np.zeros((nb, 52), dtype=bool)
        taken[np.arange(nb)[:, None], board] = True
        live = np.nonzero(~taken)[1].reshape(nb, 47)
        hands = np.concatenate(
            [live[:, first, None], live[:, second, None], np.repeat(board[:, None, :], len(first), axis=1)], axis=2
        )
        value = holdem.rank_many(hands.reshape(-1, 7)).reshape(nb, -1)
        offset = np.arange(nb)[:, None] * (1 << 20)
        everyone = np.sort((value + offset).reshape(-1))
        below = np.searchsorted(everyone, value + offset, "left") - np.arange(nb)[:, None] * len(first)
        upto = np.searchsorted(everyone, value + offset, "right") - np.arange(nb)[:, None] * len(first)
        rows = (np.arange(nb)[:, None, None] * 47 + np.arange(47)[None, :, None]) * (1 << 20)
        per_card = np.sort((value[:, by_card] + rows).reshape(-1))
        row_start = (np.arange(nb)[:, None] * 47 + np.arange(47)[None, :]) * 46
        counts = []
        for card in (first, second):
            query = value + (np.arange(nb)[:, None] * 47 + card[None, :]) * (1 << 20)
            start_of = row_start[:, card]
            counts.append(
                (
                    np.searchsorted(per_card, query, "left") - start_of,
                    np.searchsorted(per_card, query, "right") - start_of,
                )
            )
        won = below - counts[0][0] - counts[1][0]
        tied = (upto - below) - (counts[0][1] - counts[0][0]) - (counts[1][1] - counts[1][0]) + 1
        cls = classes[live[:, first], live[:, second]]
        wins += np.bincount(cls.reshape(-1), (weight[:, None] * won).reshape(-1), len(names))
        ties += np.bincount(cls.reshape(-1), (weight[:, None] * tied).reshape(-1), len(names))
        deals += np.bincount(cls.reshape(-1), np.repeat(weight * 990, len(first)), len(names))
    return {name: (wins[i] + ties[i] / 2) / deals[i] for i, name in enumerate(names)}


if __name__ == "__main__":
    started = time.process_time()
    found = chart()
    print(" ".join(f"{name} {100 * found[name]:.4f}%" for name in ("AA", "KK", "AKs", "AKo", "72o")))
    print(f"{time.process_time() - started:.1f} s of CPU")
