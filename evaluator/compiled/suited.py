"""Suit tie-break on the tables (``CardModel.mode == "suited"``), per call and in batch.

The value of a holding is ``dense * B**hand.size + suit key`` (``B`` = suits +
1): the best table value over the ``hand.size`` subsets, then the best suit key
among the subsets that reach it -- ``engine.suited.suit_key`` as an integer. Above
``hand.size`` cards the key comes from the class of the best hand where that
settles it (``suitplay.py``; per call on codes that carry their card,
``suitcall.py``); the subsets rank the rest.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Protocol

import numpy as np

from .classgrid import NO_HAND
from .suitcall import call_rank
from .suitplay import BatchPlay, PlaySource, class_play, usable

if TYPE_CHECKING:
    from ..rules.ruleset import Rules


class SuitSource(PlaySource, Protocol):
    """What suit tie-breaks need of a ranker (``fast.FastRanker`` is one)."""

    @property
    def ruleset(self) -> Rules: ...
    @property
    def suit_pad(self) -> list[int]: ...


def suited_rank(ranker: SuitSource, direct: Callable[[Sequence[int]], int]) -> Callable[[Sequence[int]], int]:
    """Suit tie-break: the holding's value, and the suit key of its class's cards
    (``suitcall.py``, on its own codes) where that settles it, else :func:`subsets_rank`
    (on the table codes)."""
    by_subsets = subsets_rank(ranker, direct)
    return call_rank(ranker, direct, by_subsets) if usable(ranker, batch=False) else by_subsets


def subsets_rank(ranker: SuitSource, direct: Callable[[Sequence[int]], int]) -> Callable[[Sequence[int]], int]:
    """Suit tie-break: the best value over subsets, then the best suit key among them."""
    size = ranker.size
    order = {
        code: (rank, suit)
        for code, rank, suit in zip(
            ranker.table_codes, ranker.rank_value.tolist(), ranker.suit_rank.tolist(), strict=False
        )
    }
    key_of = suit_key_function(ranker, order)
    scale = ranker.suit_scale

    def rank_suited(held: Sequence[int]) -> int:
        if len(held) <= size:
            value = direct(held)
            return value * scale + key_of(held) if value >= 0 else NO_HAND
        best = NO_HAND
        ties: list[Sequence[int]] = []
        for subset in combinations(held, size):
            value = direct(subset)
            if value > best:
                best, ties = value, [subset]
            elif value == best:
                ties.append(subset)
        if best < 0:
            return NO_HAND
        return best * scale + max(key_of(subset) for subset in ties)

    return rank_suited


def suit_key_function(ranker: SuitSource, order: dict[int, tuple[int, int]]) -> Callable[[Sequence[int]], int]:
    """The suit key of the cards that play, as an integer (``engine.suited.suit_key``)."""
    method = ranker.ruleset.tiebreak
    base = ranker.suit_base
    pad = ranker.suit_pad

    def key_of(held: Sequence[int]) -> int:
        cards = sorted((order[code] for code in held), reverse=True)
        first = first_rank(method, [rank for rank, _ in cards])
        if first is not None:
            cards = [c for c in cards if c[0] == first] + [c for c in cards if c[0] != first]
        key = 0
        for _, suit in cards:
            key = key * base + suit
        return key * pad[len(cards)]

    return key_of


def first_rank(method: str, ranks: list[int]) -> int | None:
    """The rank whose cards come first in the suit key (highest_paired / _unpaired).

    >>> first_rank("highest_paired", [12, 12, 3, 3, 3])
    3
    >>> first_rank("highest_unpaired", [12, 12, 3]), first_rank("highest_card", [5])
    (3, None)
    """
    if method == "highest_card":
        return None
    counts = Counter(ranks)
    if method == "highest_paired":
        paired = sorted(((count, rank) for rank, count in counts.items() if count >= 2), reverse=True)
        return paired[0][1] if paired else None
    single = [rank for rank, count in counts.items() if count == 1]
    return max(single) if single else None


def suited_many(ranker: SuitSource, ids: np.ndarray, direct_many: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """Suit tie-break, vectorised: holdings above ``hand.size`` cards by their value and
    the suit key of their class's cards (``suitplay.py``) where that settles it, else
    :func:`subsets_many`."""
    if ids.shape[1] <= ranker.size or not usable(ranker, batch=True):
        return subsets_many(ranker, ids, direct_many)
    cache = ranker._batch_cache
    play = cache.get("suit-play")
    if play is None:
        play = cache["suit-play"] = BatchPlay(ranker, class_play(ranker))
    assert isinstance(play, BatchPlay)
    return play.rank(ids, direct_many(ids), lambda rows: subsets_many(ranker, rows, direct_many))


def subsets_many(ranker: SuitSource, ids: np.ndarray, direct_many: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """Suit tie-break, vectorised: (value, suit key) of every subset, best first."""
    n, k = ids.shape
    size = ranker.size
    subsets = [list(range(k))] if k <= size else [list(s) for s in combinations(range(k), size)]
    best = np.full(n, NO_HAND, dtype=np.int64)
    for subset in subsets:
        part = ids[:, subset]
        value = direct_many(part)
        key = suit_keys(ranker, part)
        combined = np.where(value >= 0, value * ranker.suit_scale + key, NO_HAND)
        np.maximum(best, combined, out=best)
    return best


def suit_keys(ranker: SuitSource, ids: np.ndarray) -> np.ndarray:
    """``engine.suited.suit_key`` as integers, for rows of at most hand.size cards."""
    base = ranker.suit_base
    rank = ranker.rank_value[ids]
    suit = ranker.suit_rank[ids]
    order = rank * base + suit
    method = ranker.ruleset.tiebreak
    if method in ("highest_paired", "highest_unpaired"):
        same = (rank[:, :, None] == rank[:, None, :]).sum(axis=2)  # cards of each card's rank
        if method == "highest_paired":
            # the most significant group of two or more: most cards, then highest rank
            score = np.where(same >= 2, same * 1000 + rank, -1)
        else:
            score = np.where(same == 1, rank, -1)
        pick = score.max(axis=1, keepdims=True)
        first = (score == pick) & (pick >= 0)
        order = order + first * (base * (len(ranker.ruleset.rank_symbols) + 1))
    order = -np.sort(-order, axis=1)
    key = np.zeros(len(ids), dtype=np.int64)
    for j in range(ids.shape[1]):
        key = key * base + order[:, j] % base
    return key * ranker.suit_pad[ids.shape[1]]
