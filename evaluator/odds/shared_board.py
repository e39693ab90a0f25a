"""Winners of deals that share one board: the common case of odds, made fast.

One pot, one board, the best hand of any five of hole and board, a ruleset on
the compiled tables' direct path (no ``beats:`` exception, no lowest-card
wild). The lookup key of a holding is the sum of its card codes, so:

- the board's part of every key is summed once per deal and each player adds
  only their hole cards' codes; cards held in every deal (fixed hands, board
  cards given) are summed once, not per deal;
- the class of the board cards dealt is ranked once per deal, and a player
  whose cards are all known reads their value from a table indexed by that
  class (built once per hand, a few thousand entries, kept with the ranker);
- the holdings that can make a flush, every player's together, are ranked in
  one call, each in its one flush suit;
- each deal's winners come out as a bit mask that the caller counts.

Tested equal to ``showdown_many`` on random deals (tests/test_odds_paths.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..compiled.batch_rank import direct_many, flush_values, suit_tables_of
from ..compiled.classgrid import count_vectors
from ..compiled.table_layout import BATCH_CARDS


class SharedBoard:
    """Who wins each deal of one ruleset's board-shared game (see the module docstring)."""

    def __init__(self, half: Any, players: int, hole: int, board: int, all_qualify: bool, same_ids: bool) -> None:
        self.half = half
        self.players, self.hole, self.board = players, hole, board
        self.all_qualify = all_qualify  # every value is a qualifying hand: no category lookup
        self.same_ids = same_ids  # the ranker's card ids are the deck's

    def masks(self, deals: np.ndarray, known: np.ndarray | None = None) -> np.ndarray:
        """Per deal, who takes the pot as bits (bit ``p``: player ``p`` wins or ties; 0: nobody
        qualifies): uint8 up to 8 players, else int64 (at most 62 players)."""
        winners = self.winners(deals, known)
        if self.players <= 8:  # one byte per deal: the booleans read as bytes, no widening
            small: np.ndarray = winners[0].astype(np.uint8)
            for p in range(1, self.players):
                small |= winners[p].view(np.uint8) << p
            return small
        masks: np.ndarray = winners[0].astype(np.int64)
        for p in range(1, self.players):
            masks += winners[p].astype(np.int64) << p
        return masks

    def winners(self, deals: np.ndarray, known: np.ndarray | None) -> np.ndarray:
        """(players, n) True where a player wins or ties the pot.

        ``known``: a deal row with the cards every row holds (-1 where they vary), or None.
        """
        half = self.half
        # one transposed copy at most: every card column is then contiguous for the gathers
        columns = np.ascontiguousarray(deals.T if self.same_ids else half.id_map[deals].T)
        fixed = np.full(len(columns), -1, dtype=np.int64) if known is None else known
        if not self.same_ids:
            fixed = np.where(fixed >= 0, half.id_map[np.maximum(fixed, 0)], -1)
        values = self._values(columns, fixed)
        if self.all_qualify:
            best = values.max(axis=0)
            # nobody short of a hand (the usual case): the best value alone says who wins
            winners: np.ndarray = values == best if best.min() >= 0 else (values == best) & (best >= 0)
            return winners
        alive = half.category(values) >= 0
        best = np.where(alive, values, -2).max(axis=0)
        qualified: np.ndarray = alive & (values == best)
        return qualified

    def _values(self, columns: np.ndarray, fixed: np.ndarray) -> np.ndarray:
        """(players, n) each player's value: ``columns`` (slots, n) the ranker's card ids,
        ``fixed`` the id of each slot held in every deal (-1 where it varies)."""
        ranker = self.half.ranker
        edge, hole, board = self.players * self.hole, self.hole, self.board
        layout = ranker.layout
        k = hole + board
        dense_nf, _ = ranker._dense_tables(k)
        table = ranker._code_table

        def key_sum(slots: range, start: int) -> np.ndarray | int:
            """The codes of these slots summed: once for cards held in every deal, per deal for the rest."""
            constant = start + sum(int(table[fixed[j]]) for j in slots if fixed[j] >= 0)
            varying = [j for j in slots if fixed[j] < 0]
            if not varying:
                return constant
            # take(): faster than table[...] for a gather from a small table
            total: np.ndarray = np.take(table, columns[varying[0]]) + np.int64(constant)
            for j in varying[1:]:
                total += np.take(table, columns[j])
            return total

        n = columns.shape[1]
        board_slots = range(edge, edge + board)
        known_board = sum(int(table[fixed[j]]) for j in board_slots if fixed[j] >= 0)
        unknown = [j for j in board_slots if fixed[j] < 0]
        drawn = key_sum(range(edge, edge + board), -known_board)  # the codes of the board cards dealt
        # the class of the board cards dealt, ranked once per deal: a player whose cards are all
        # known reads their value from a table by that class (see _class_table)
        by_class = bool(unknown) and len(unknown) <= ranker.index.top
        drawn_class = ranker.index.index(np.asarray(drawn) >> layout.shift, len(unknown)) if by_class else None
        board_total = drawn + (known_board + layout.bias)
        flush_bits = np.int64(layout.flush_bits)
        values = np.empty((self.players, n), dtype=np.int64)
        flushes: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (flat positions, cards, totals)
        for p in range(self.players):
            own_hole = range(p * hole, (p + 1) * hole)
            held = key_sum(own_hole, 0)
            if drawn_class is not None and isinstance(held, int):
                known_key = (held + known_board) >> layout.shift
                np.take(self._class_table(ranker, k, known_key, len(unknown)), drawn_class, out=values[p])
                total = np.broadcast_to(board_total + held, (n,)) if ranker.tables.flush_matters else None
            else:
                total = np.broadcast_to(board_total + held, (n,))
                values[p] = dense_nf[ranker.index.index(total >> layout.shift, k)]
            if total is not None and ranker.tables.flush_matters:
                rows = np.flatnonzero((total & flush_bits) != 0)
                if len(rows):
                    own = [*own_hole, *board_slots]
                    cards = np.take(columns, rows, axis=1)[own]  # take(): faster than columns[:, rows]
                    flushes.append((rows + p * n, cards, total[rows]))
        if flushes:
            # every player's flush-capable holdings ranked in one call: few rows each, so fewer calls
            flat = values.reshape(-1)
            where = np.concatenate([f[0] for f in flushes])
            cards = np.concatenate([f[1] for f in flushes], axis=1)
            flat[where] = flush_rows(ranker, cards, np.concatenate([f[2] for f in flushes]), flat[where])
        return values

    def _class_table(self, ranker: Any, k: int, known_key: int, dealt: int) -> np.ndarray:
        """Plain values of the ``k``-card holdings made of known cards (rank key ``known_key``)
        and ``dealt`` more, by the dense index of the dealt cards' class: one lookup per deal
        instead of ranking the whole key. Classes that cannot join the known cards (a rank more
        often than the deck holds it) are never dealt; they hold -1."""
        dense_nf, _ = ranker._dense_tables(k)  # may rebuild the dense index: before reading it
        index = ranker.index
        # kept with the ranker (the tables outlive one question), checked against its dense index
        tables = ranker._batch_cache.setdefault("odds-class-tables", {})
        found = tables.get((k, known_key, dealt))
        if found is not None and found[0] is index:
            values: np.ndarray = found[1]
            return values
        layout = ranker.layout
        caps = np.array(layout.radix) - 1
        classes = ranker._batch_cache.get(f"odds-classes-{dealt}")
        if classes is None:
            classes = ranker._batch_cache[f"odds-classes-{dealt}"] = count_vectors(caps.tolist(), dealt)
        keys = layout.keys(classes)
        fits = (classes + np.array(layout.decode(known_key)) <= caps).all(axis=1)
        values = np.full(index.count(dealt), -1, dtype=np.int64)
        values[index.index(keys[fits], dealt)] = dense_nf[index.index(keys[fits] + known_key, k)]
        if len(tables) >= 256:
            tables.clear()
        tables[(k, known_key, dealt)] = (index, values)
        return values


def flush_rows(ranker: Any, cards: np.ndarray, total: np.ndarray, plain: np.ndarray) -> np.ndarray:
    """Values of flush-capable holdings, given as card columns (k, rows) with their code sums and
    plain values: the one-suited tables looked up directly where they decide (dominant tables),
    else each holding ranked whole."""
    k = len(cards)
    if not (ranker.tables.dominant and ranker.size < k <= BATCH_CARDS):
        found: np.ndarray = direct_many(ranker, np.ascontiguousarray(cards.T))
        return found
    values, slow = flush_values(ranker, suit_tables_of(ranker, k), cards, total, plain)
    if len(slow):  # a suit with more cards than the one-suited tables hold
        values[slow] = direct_many(ranker, np.ascontiguousarray(cards[:, slow].T))
    return values
