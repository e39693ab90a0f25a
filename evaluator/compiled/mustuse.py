"""Must-use holdings (Omaha: exactly two hole cards and three of the board) in one gather per hole part.

A card-usage rule makes a player's value the best of every allowed
combination: 6 hole pairs x 10 board triples = 60 five-card hands in Omaha.
Ranked as rows, that is 60 code sums and dense-index walks per player. Here the
work is split along the rule instead:

- **the rank part.** On the direct path a five-card value is the value of its
  rank multiset, or of its one-suited table when all five share a suit. The
  unsuited best over the board's triples depends only on the board's rank
  multiset and the hole part's, so it is one table, built once per ruleset:
  ``best[board class, part class]`` (6,175 five-card board classes x 91 pairs,
  about 2 MiB), each entry the best of the ten triples' lookups. Per deal the
  board's class is one dense-index walk, shared by every player, and each hole
  part of each player is one gather from a small table of card-id pairs and
  one gather from ``best``;
- **the suits.** A combination is one-suited only when its hole part is suited
  and the board holds at least ``use_board`` cards of that suit (about one
  part in forty). Those parts alone are valued combination by combination on
  the hand tables (code sums, flush bit), and the best kept. This is exact when
  being one-suited never lowers a hand (``Tables.dominant``; the unsuited lookup
  of a flush then never overstates it), or when no suit ever decides.

Eligible: the direct path (no suit key), one pack, no wild card or joker, a
hand of ``use_hole + use_board`` cards, and a table of at most ``MAX_ENTRIES``.
Everything else keeps ranking the combinations as rows (``batch_showdown``).
The generic showdown is the reference: the tests compare the two on random
deals and against a plain brute force.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from typing import TYPE_CHECKING

import numpy as np

from .classgrid import NO_HAND

if TYPE_CHECKING:
    from .fast import FastRanker

#: The largest ``best`` table built (board classes x hole-part classes): 32 MiB of int32.
MAX_ENTRIES = 1 << 23


def eligible(ranker: FastRanker, board: int, use_hole: int, use_board: int) -> bool:
    """Whether a must-use rule of this geometry has a table on this ranker.

    >>> from evaluator import load
    >>> from evaluator.compiled.fast import ruleset_ranker
    >>> eligible(ruleset_ranker(load("omaha")), 5, 2, 3), eligible(ruleset_ranker(load("omaha")), 5, 1, 4)
    (True, False)
    """
    rules = ranker.ruleset
    tables = ranker.tables
    if (
        ranker.mode != "direct"
        or ranker.model.suit_keyed
        or rules.wild.any
        or rules.jokers
        or rules.copies != 1
        or use_hole < 1
        or use_board < 1
        or use_hole + use_board != ranker.size
        or board < use_board
        or (tables.flush_matters and not tables.dominant)
    ):
        return False
    index = ranker.index
    return board <= index.top and index.count(board) * index.count(use_hole) <= MAX_ENTRIES


class MustUse:
    """The ``best[board class, hole-part class]`` table of one ranker and one geometry."""

    def __init__(self, ranker: FastRanker, hole: int, board: int, use_hole: int, use_board: int) -> None:
        self.ranker = ranker
        self.hole, self.board, self.use_hole, self.use_board = hole, board, use_hole, use_board
        layout = ranker.layout
        self.shift = layout.shift
        deck = ranker.model.cards
        self.codes = ranker.codes  # one additive code per id
        self.rank_codes = self.codes >> self.shift  # no carries: the suit counters never overflow
        suit_index = {suit: s for s, suit in enumerate(ranker.ruleset.suits)}
        self.suit_of = np.array([suit_index[card.suit] for card in deck], dtype=np.int8)
        self.parts = list(combinations(range(hole), use_hole))
        self.board_subsets = [list(s) for s in combinations(range(board), use_board)]
        self.flush = ranker.tables.flush_matters
        dense_nf, dense_fl = ranker._dense_tables(ranker.size)
        self.index = ranker.index  # after the dense tables: building them may replace it
        self.plain_count = len(dense_nf)
        # a five-card hand: its one-suited value sits right after the plain table
        self.both = np.concatenate([dense_nf, dense_fl[0]]) if self.flush else dense_nf
        self.part_count = self.index.count(use_hole)
        self.best = self._build(dense_nf)
        # a pair of ids straight to its class (Omaha): one gather instead of a dense-index walk
        self.pair_class: np.ndarray | None = None
        if use_hole == 2:
            keys = self.rank_codes[:, None] + self.rank_codes[None, :]
            self.pair_class = self.index.index(keys.ravel(), 2).astype(np.int32)

    def _build(self, dense_nf: np.ndarray) -> np.ndarray:
        """Every realisable (board multiset, hole-part multiset): the best unsuited value
        over the board's ``use_board`` subsets (entries no deal can reach stay NO_HAND)."""
        ranker = self.ranker
        index = self.index
        deck = ranker.model.cards
        rank_ids = sorted({card.rank for card in deck if card.rank is not None}, key=str)
        first = {rank: next(i for i, card in enumerate(deck) if card.rank == rank) for rank in rank_ids}
        codes = np.array([int(self.rank_codes[first[rank]]) for rank in rank_ids], dtype=np.int64)
        held = np.array([sum(card.rank == rank for card in deck) for rank in rank_ids], dtype=np.int64)

        def multisets(k: int) -> tuple[np.ndarray, np.ndarray]:
            rows = np.array(list(combinations_with_replacement(range(len(rank_ids)), k)), dtype=np.int64)
            counts = np.zeros((len(rows), len(rank_ids)), dtype=np.int64)
            for column in range(k):
                np.add.at(counts, (np.arange(len(rows)), rows[:, column]), 1)
            keep = (counts <= held).all(axis=1)
            return rows[keep], counts[keep]

        boards, board_counts = multisets(self.board)
        parts, part_counts = multisets(self.use_hole)
        board_class = index.index(codes[boards].sum(axis=1), self.board)
        part_class = index.index(codes[parts].sum(axis=1), self.use_hole)
        # (boards, subsets): the rank key of each subset of each board
        subset_keys = np.stack([codes[boards[:, s]].sum(axis=1) for s in self.board_subsets], axis=1)
        best = np.full((index.count(self.board), self.part_count), NO_HAND, dtype=np.int32)
        for p in range(len(parts)):
            rows = np.flatnonzero((board_counts + part_counts[p] <= held).all(axis=1))
            keys = subset_keys[rows] + codes[parts[p]].sum()
            values = dense_nf[index.index(keys, ranker.size)].max(axis=1)
            best[board_class[rows], part_class[p]] = values
        return best.ravel()

    def values(self, holes: np.ndarray, board: np.ndarray) -> np.ndarray:
        """Best value of each player: ``holes`` (n, players, hole) and ``board`` (n, board)
        card ids of this ranker's deck -> (n, players) int64."""
        index = self.index
        board_key = self.rank_codes[board[:, 0]]
        for j in range(1, self.board):
            board_key = board_key + self.rank_codes[board[:, j]]
        row = index.index(board_key, self.board) * self.part_count
        best: np.ndarray | None = None
        for part in self.parts:
            found = self.best.take(row[:, None] + self._part_classes(holes, part))
            best = found if best is None else np.maximum(best, found, out=best)
        assert best is not None
        out = best.astype(np.int64)
        if self.flush:
            self._suited(holes, board, out)
        return out

    def _part_classes(self, holes: np.ndarray, part: tuple[int, ...]) -> np.ndarray:
        """(n, players) class of each player's hole part ``part`` (column numbers)."""
        if self.pair_class is not None:
            count = len(self.codes)
            return self.pair_class.take(holes[:, :, part[0]] * count + holes[:, :, part[1]])
        key = self.rank_codes[holes[:, :, part[0]]]
        for column in part[1:]:
            key = key + self.rank_codes[holes[:, :, column]]
        found: np.ndarray = self.index.index(key, self.use_hole)
        return found

    def _suited(self, holes: np.ndarray, board: np.ndarray, out: np.ndarray) -> None:
        """Raise ``out`` where a suited hole part meets enough board cards of its suit: those
        parts' combinations valued one by one on the hand tables (flush bit included)."""
        layout = self.ranker.layout
        flush_bits = np.int64(layout.flush_bits)
        bias = np.int64(layout.bias)
        board_suits = self.suit_of[board]
        for suit in range(len(self.ranker.ruleset.suits)):
            deals = np.flatnonzero((board_suits == suit).sum(axis=1) >= self.use_board)
            if not len(deals):
                continue
            in_suit = self.suit_of[holes[deals]] == suit  # (deals, players, hole)
            for part in self.parts:
                deal_at, player = np.nonzero(in_suit[:, :, list(part)].all(axis=2))
                if not len(deal_at):
                    continue
                rows = deals[deal_at]
                part_sum = self.codes[holes[rows, player, part[0]]] + bias
                for column in part[1:]:
                    part_sum += self.codes[holes[rows, player, column]]
                top = np.full(len(rows), NO_HAND, dtype=np.int64)
                for subset in self.board_subsets:
                    total = part_sum.copy()
                    for column in subset:
                        total += self.codes[board[rows, column]]
                    where = self.index.index(total >> self.shift, self.ranker.size)
                    where += ((total & flush_bits) != 0) * self.plain_count
                    np.maximum(top, self.both[where], out=top)
                out[rows, player] = np.maximum(out[rows, player], top)


def must_use_table(ranker: FastRanker, hole: int, board: int, use_hole: int, use_board: int) -> MustUse | None:
    """The ranker's :class:`MustUse` for this geometry (built once), or None when not eligible."""
    if not eligible(ranker, board, use_hole, use_board):
        return None
    key = f"must-use-{hole}-{board}-{use_hole}-{use_board}"
    cache = ranker._batch_cache
    found = cache.get(key)
    if found is None or found.index is not ranker.index:
        found = cache[key] = MustUse(ranker, hole, board, use_hole, use_board)
    assert isinstance(found, MustUse)
    return found
