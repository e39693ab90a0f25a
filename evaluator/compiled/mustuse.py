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
  and the board holds at least ``use_board`` cards of that suit (a carry bit
  of the board's code sum says which). Such a part reads a second table, the
  best one-suited hand per (count and rank-set class of the board's cards of
  the suit, part class), and the better of the two values is kept. This is
  exact when being one-suited never lowers a hand (``Tables.dominant``; the
  unsuited value of a flush then never overstates it), or when no suit decides;
- **known hands.** In odds, a player whose cards are the same in every deal
  reads one value per board class (the best of the hand's parts, folded once)
  and, on a suited board, one per class of the board's suited cards.

The tables take about 0.2 s to build, so a batch builds them only once the rows
asked for (over calls) reach ``BUILD_AFTER``; smaller work ranks the
combinations as rows, as before.

Eligible: the direct path (no suit key), one pack, no wild card or joker, a
hand of ``use_hole + use_board`` cards, and a table of at most ``MAX_ENTRIES``.
Everything else keeps ranking the combinations as rows (``batch_showdown``).
The generic showdown is the reference: the tests compare the two on random
deals and against a plain brute force.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement
from typing import TYPE_CHECKING

import numpy as np

from ..engine.showdown import best_hand
from .classgrid import NO_HAND

if TYPE_CHECKING:
    from .fast import DenseIndex, FastRanker

#: Player rows valued combination by combination before the table is built (its build costs about as much).
BUILD_AFTER = 1 << 16
#: Known hands whose tables are kept (an odds question has a few; a chart asks hand after hand).
KNOWN_HANDS = 64
#: The largest ``best`` table built (board classes x hole-part classes): 32 MiB of int32.
MAX_ENTRIES = 1 << 23


def lowest_wild_best(ranker: FastRanker, cards: np.ndarray, holes: int) -> tuple[np.ndarray, np.ndarray]:
    """Lowest-card wild: each row's value and the columns of the cards that play, from the generic
    best hand under the game's card-usage rule (``cards``: hole cards first, then the board).

    The lowest natural rank of the whole holding is wild, which the lookup of one allowed
    combination cannot see (its own lowest rank would turn wild): each row is one generic call.
    """
    deck = ranker.model.cards
    values = np.full(len(cards), NO_HAND, dtype=np.int64)
    played = np.tile(np.arange(ranker.size, dtype=np.int64), (len(cards), 1))
    for row, ids in enumerate(cards.tolist()):
        held = [deck[i] for i in ids]
        hand = best_hand(ranker.ruleset, held[:holes], held[holes:])
        if hand is None:
            continue
        values[row] = ranker.from_strength(hand.strength)
        unused = list(range(len(held)))
        for column, card in enumerate(hand.fill.cards):
            at = next(i for i in unused if held[i] == card)
            unused.remove(at)
            played[row, column] = at
    return values, played


def eligible(ranker: FastRanker, board: int, use_hole: int, use_board: int) -> bool:
    """Whether a must-use rule of this geometry has a table on this ranker.

    >>> from evaluator import load
    >>> from evaluator.compiled.fast import ruleset_ranker
    >>> omaha = ruleset_ranker(load("omaha"))
    >>> eligible(omaha, 5, 2, 3), eligible(omaha, 5, 2, 2)  # two and two is not a hand of five
    (True, False)
    >>> eligible(ruleset_ranker(load("deuce-to-seven")), 5, 2, 3)  # a flush hurts there
    False
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
    # a suit counter lifted by hand.size - use_board must not carry into the next (MustUse.reach)
    fits = board - use_board < 1 << (ranker.layout.suit_bits - 1)
    return fits and board <= index.top and index.count(board) * index.count(use_hole) <= MAX_ENTRIES


def unsuited_best(
    index: DenseIndex, codes: np.ndarray, held: np.ndarray, shape: tuple[int, int, int], dense_nf: np.ndarray
) -> np.ndarray:
    """Every realisable (board multiset, hole-part multiset): the best unsuited value over the
    board's ``use_board`` subsets, flat by (board class, part class); entries no deal can reach
    stay NO_HAND. ``codes``/``held``: each rank's rank code and cards in the deck; ``shape``:
    (board, use_hole, use_board)."""
    board, use_hole, use_board = shape

    def multisets(k: int) -> tuple[np.ndarray, np.ndarray]:
        rows = np.array(list(combinations_with_replacement(range(len(codes)), k)), dtype=np.int64)
        counts = np.zeros((len(rows), len(codes)), dtype=np.int64)
        for column in range(k):
            np.add.at(counts, (np.arange(len(rows)), rows[:, column]), 1)
        keep = (counts <= held).all(axis=1)
        return rows[keep], counts[keep]

    boards, board_counts = multisets(board)
    parts, part_counts = multisets(use_hole)
    board_class = index.index(codes[boards].sum(axis=1), board)
    part_class = index.index(codes[parts].sum(axis=1), use_hole)
    # (subsets, boards): the rank key of each subset of each board; reduced down axis 0 (fast)
    subset_keys = np.stack([codes[boards[:, list(s)]].sum(axis=1) for s in combinations(range(board), use_board)])
    by_rank = np.ascontiguousarray(board_counts.T)
    best = np.full((index.count(board), index.count(use_hole)), NO_HAND, dtype=np.int32)
    for p in range(len(parts)):
        # a board this part can meet: no rank held more often than the deck has it
        meets = np.ones(len(boards), dtype=bool)
        for rank in np.flatnonzero(part_counts[p]).tolist():
            meets &= by_rank[rank] <= held[rank] - part_counts[p, rank]
        rows = np.flatnonzero(meets)
        keys = subset_keys[:, rows] + codes[parts[p]].sum()
        values = dense_nf[index.index(keys, use_hole + use_board)].max(axis=0)
        best[board_class[rows], part_class[p]] = values
    return best.ravel()


def suited_best(
    index: DenseIndex, codes: np.ndarray, shape: tuple[int, int, int], dense_fl: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The best one-suited hand of a hole part and ``use_board`` of the board's cards of its
    suit, flat by (count of those cards, their rank set's class, the part's class); and the
    offset of each count."""
    board, use_hole, use_board = shape
    part_count = index.count(use_hole)
    sizes = range(use_board, board + 1)
    offsets = np.zeros(board + 1, dtype=np.int64)
    at = 0
    for cards in sizes:
        offsets[cards] = at
        at += index.count(cards) * part_count
    table = np.full(at, NO_HAND, dtype=np.int32)
    parts = np.array(list(combinations(range(len(codes)), use_hole)), dtype=np.int64)
    part_class = index.index(codes[parts].sum(axis=1), use_hole)
    for cards in sizes:
        sets = np.array(list(combinations(range(len(codes)), cards)), dtype=np.int64)
        set_class = index.index(codes[sets].sum(axis=1), cards)
        subset_keys = np.stack([codes[sets[:, list(s)]].sum(axis=1) for s in combinations(range(cards), use_board)])
        has = np.zeros((len(codes), len(sets)), dtype=bool)  # has[rank, set]
        for column in range(cards):
            has[sets[:, column], np.arange(len(sets))] = True
        for p, part in enumerate(parts):
            # one suit: the part's ranks are not among the board's
            apart = ~has[part[0]]
            for rank in part[1:].tolist():
                apart &= ~has[rank]
            rows = np.flatnonzero(apart)
            keys = subset_keys[:, rows] + codes[part].sum()
            values = dense_fl[index.index(keys, use_hole + use_board)].max(axis=0)
            table[offsets[cards] + set_class[rows] * part_count + part_class[p]] = values
    return table, offsets


class MustUse:
    """The ``best[board class, hole-part class]`` table of one ranker and one geometry."""

    def __init__(self, ranker: FastRanker, hole: int, board: int, use_hole: int, use_board: int) -> None:
        self.ranker = ranker
        self.hole, self.board, self.use_hole, self.use_board = hole, board, use_hole, use_board
        deck = ranker.model.cards
        self.layout = ranker.layout
        self._hands: dict[tuple[int, ...], KnownHand] = {}
        self.codes = ranker.codes  # one additive code per id
        self.rank_codes = self.codes >> ranker.layout.shift  # no carries: the suit counters never overflow
        suit_index = {suit: s for s, suit in enumerate(ranker.ruleset.suits)}
        self.suit_of = np.array([suit_index[card.suit or ""] for card in deck], dtype=np.int8)
        # suit s, id i at s * ids + i: the rank code of an id of that suit, else 0
        self.suit_rank_codes = np.concatenate(
            [np.where(self.suit_of == s, self.rank_codes, 0) for s in range(len(suit_index))]
        )
        # added to a board's code sum, a suit counter's top bit says "use_board cards of the suit"
        self.reach = np.int64(
            sum((ranker.size - use_board) << (self.layout.suit_bits * s) for s in range(len(suit_index)))
        )
        self.parts = list(combinations(range(hole), use_hole))
        self.flush = ranker.tables.flush_matters
        dense_nf, dense_fl = ranker._dense_tables(ranker.size)
        self.index = ranker.index  # after the dense tables: building them may replace it
        self.part_count = self.index.count(use_hole)
        ranks = sorted({card.rank for card in deck if card.rank is not None}, key=str)
        first = {rank: next(i for i, card in enumerate(deck) if card.rank == rank) for rank in ranks}
        codes = np.array([int(self.rank_codes[first[rank]]) for rank in ranks], dtype=np.int64)
        held = np.array([sum(card.rank == rank for card in deck) for rank in ranks], dtype=np.int64)
        shape = (board, use_hole, use_board)
        self.best = unsuited_best(self.index, codes, held, shape, dense_nf)
        self.suited_best: np.ndarray | None = None
        self.suited_offsets = np.zeros(board + 1, dtype=np.int64)
        if self.flush:
            self.suited_best, self.suited_offsets = suited_best(self.index, codes, shape, dense_fl[0])
        # a pair of ids straight to its class and its suit (Omaha): gathers, no dense-index walk
        self.pair_class: np.ndarray | None = None
        self.pair_suit: np.ndarray | None = None
        if use_hole == 2:
            keys = self.rank_codes[:, None] + self.rank_codes[None, :]
            self.pair_class = self.index.index(keys.ravel(), 2).astype(np.int32)
            same = self.suit_of[:, None] == self.suit_of[None, :]
            self.pair_suit = np.where(same, self.suit_of[:, None], -1).astype(np.int8).ravel()

    def values(self, holes: np.ndarray, board: np.ndarray, fixed: Sequence[bool] = ()) -> np.ndarray:
        """Best value of each player: ``holes`` (n, players, hole) and ``board`` (n, board)
        card ids of this ranker's deck -> (n, players) int64.

        ``fixed``: per player, True when that player holds the same cards in every row (a
        known hand): its values are read from tables of that hand by board class instead.
        """
        n, players, _ = holes.shape
        # a hand said to be fixed is checked (a few comparisons per row) before its tables are trusted
        known = [p < len(fixed) and bool(fixed[p]) and bool((holes[:, p] == holes[0, p]).all()) for p in range(players)]
        total = self.codes[board[:, 0]] + np.int64(self.layout.bias)
        for j in range(1, self.board):
            total += self.codes[board[:, j]]
        board_class = self.index.index(total >> self.layout.shift, self.board)
        out = np.empty((n, players), dtype=np.int64)
        rows = [p for p in range(players) if not known[p]]
        parts = [self._part(holes[:, rows], part) for part in self.parts] if rows else []
        if rows:
            at = board_class[:, None] * self.part_count
            best = self.best.take(at + parts[0][0])
            for classes, _ in parts[1:]:
                np.maximum(best, self.best.take(at + classes), out=best)
            out[:, rows] = best
        hands = {p: self._hand(tuple(holes[0, p].tolist())) for p in range(players) if known[p]}
        for p, hand in hands.items():
            out[:, p] = hand.plain.take(board_class)
        if self.suited_best is not None:
            self._suited(board, total, parts, rows, hands, out)
        return out

    def _part(self, holes: np.ndarray, part: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        """(n, players) class of each player's hole part ``part`` (column numbers), and its
        suit when the part is one-suited (else -1)."""
        if self.pair_class is not None and self.pair_suit is not None:
            pair = holes[:, :, part[0]] * len(self.codes) + holes[:, :, part[1]]
            return self.pair_class.take(pair), self.pair_suit.take(pair)
        key = self.rank_codes[holes[:, :, part[0]]]
        suit = self.suit_of[holes[:, :, part[0]]]
        one_suit = np.ones(key.shape, dtype=bool)
        for column in part[1:]:
            key = key + self.rank_codes[holes[:, :, column]]
            one_suit &= self.suit_of[holes[:, :, column]] == suit
        return self.index.index(key, self.use_hole), np.where(one_suit, suit, -1)

    def _suited(
        self,
        board: np.ndarray,
        total: np.ndarray,
        parts: list[tuple[np.ndarray, np.ndarray]],
        rows: list[int],
        hands: dict[int, KnownHand],
        out: np.ndarray,
    ) -> None:
        """Raise ``out`` where a one-suited hole part meets at least ``use_board`` board cards
        of its suit: the best one-suited hand of the part and those cards, from ``suited_best``
        (the players in ``rows`` part by part, the known ``hands`` from their own tables)."""
        layout = self.layout
        # each suit counter lifted so that its top bit says "use_board cards of this suit"
        flags = (total + self.reach) & np.int64(layout.flush_bits)
        deals = np.flatnonzero(flags)
        flags = flags[deals]
        while len(deals):
            # the highest such suit of each deal (one in Omaha: 3 + 3 > 5), then the next
            top = (np.frexp(flags.astype(np.float64))[1] - 1).astype(np.int64)
            self._suit_pass(board, total, deals, top // layout.suit_bits, parts, rows, hands, out)
            flags = flags - (np.int64(1) << top)
            more = flags != 0
            deals, flags = deals[more], flags[more]

    def _suit_pass(
        self,
        board: np.ndarray,
        total: np.ndarray,
        deals: np.ndarray,
        suit: np.ndarray,
        parts: list[tuple[np.ndarray, np.ndarray]],
        rows: list[int],
        hands: dict[int, KnownHand],
        out: np.ndarray,
    ) -> None:
        """:meth:`_suited` for ``deals``, each in its own ``suit``."""
        assert self.suited_best is not None
        layout = self.layout
        counter = (1 << layout.suit_bits) - 1
        start = (1 << (layout.suit_bits - 1)) - self.ranker.size  # the bias of each counter
        count = ((total[deals] >> (layout.suit_bits * suit)) & counter) - start
        picked = board[deals] + (suit * len(self.codes))[:, None]
        key = self.suit_rank_codes.take(picked[:, 0])
        for j in range(1, self.board):
            key += self.suit_rank_codes.take(picked[:, j])
        suited_class = self.index.index(key, count)
        row = self.suited_offsets[count] // self.part_count + suited_class
        for p, hand in hands.items():
            if hand.suited is not None:
                found = hand.suited.take(suit * hand.rows + row)
                out[deals, p] = np.maximum(out[deals, p], found)
        base = row * self.part_count
        for classes, suits in parts:
            at, column = np.nonzero(suits[deals] == suit[:, None])
            if not len(at):
                continue
            deal, player = deals[at], np.asarray(rows)[column]
            raised = self.suited_best.take(base[at] + classes[deal, column])
            out[deal, player] = np.maximum(out[deal, player], raised)

    def _hand(self, hole: tuple[int, ...]) -> KnownHand:
        """The tables of one known hand (kept for the last few hands asked)."""
        found = self._hands.get(hole)
        if found is None:
            if len(self._hands) >= KNOWN_HANDS:
                del self._hands[next(iter(self._hands))]
            found = self._hands[hole] = KnownHand(self, hole)
        return found


class KnownHand:
    """One hole hand's best value per board class, and per suit per class of the board's
    cards of that suit: every part of the hand folded in once."""

    def __init__(self, table: MustUse, hole: tuple[int, ...]) -> None:
        ids = np.array(hole, dtype=np.int64)[None, None, :]
        parts = [table._part(ids, part) for part in table.parts]
        grid = table.best.reshape(-1, table.part_count)
        self.plain = grid[:, [int(classes[0, 0]) for classes, _ in parts]].max(axis=1)
        # (suits x rows) flat, a row per (count, class) of the board's cards of the suit; None: no suited part
        self.suited: np.ndarray | None = None
        self.rows = 0
        if table.suited_best is None or all(int(suits[0, 0]) < 0 for _, suits in parts):
            return
        flat = table.suited_best.reshape(-1, table.part_count)
        self.rows = len(flat)
        by_suit = []
        for suit in range(table.layout.suits):
            classes = [int(c[0, 0]) for c, suits in parts if int(suits[0, 0]) == suit]
            by_suit.append(flat[:, classes].max(axis=1) if classes else np.full(len(flat), NO_HAND, dtype=np.int32))
        self.suited = np.concatenate(by_suit)


def must_use_table(
    ranker: FastRanker, hole: int, board: int, use_hole: int, use_board: int, rows: int | None = None
) -> MustUse | None:
    """The ranker's :class:`MustUse` for this geometry, or None when not eligible or not built yet.

    ``rows``: the player rows (deals x players) about to be valued. The table takes about as
    long to build as ranking ``BUILD_AFTER`` rows combination by combination, so it is built
    once the rows asked for reach that, counted over calls; 0 only reads a table already
    built; None builds it now.
    """
    if not eligible(ranker, board, use_hole, use_board):
        return None
    key = f"must-use-{hole}-{board}-{use_hole}-{use_board}"
    cache = ranker._batch_cache
    found = cache.get(key)
    if isinstance(found, MustUse) and found.index is ranker.index:
        return found
    if rows is not None:
        seen = int(cache.get(key + "-rows", 0)) + rows
        cache[key + "-rows"] = seen
        if seen < BUILD_AFTER:
            return None
    made = cache[key] = MustUse(ranker, hole, board, use_hole, use_board)
    return made
