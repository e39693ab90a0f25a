"""Many showdowns at once: pot shares of NumPy batches of deals, on the tables.

:func:`showdown_many` settles ``n`` deals in one call and returns each
player's exact share of the pot, the same fractions ``showdown`` computes
(``ShowdownResult.fractions``) as float64. Per board and per half (hi-lo) every
player's best hand is ranked with ``rank_many``:

- games without a card-usage rule (hold'em, stud, razz, rulesets without a
  game): the hole cards and the board in one row; the tables give the best
  hand of any number of cards directly, no subsets enumerated;
- ``use_hole`` / ``use_board`` (Omaha: two hole cards and three from the
  board): on the direct path without wild cards, one table gives the best over
  the board's triples for each hole part (``mustuse.py``: a gather per hole
  pair, suited parts valued apart); otherwise every allowed combination (6 x 10
  = 60 for Omaha) becomes a row of ``hand.size`` cards, all ranked in one
  batch, the best kept.

A hand qualifies when its value's category is not -1 (the tables number
non-qualifying hands apart). The winners of a half are the qualifying hands of
the highest value. Deals are processed in chunks so memory stays bounded.

``beats:`` exceptions: a deal in which an exception could decide between two
players (one hand in a category the rule's winner may match, another in one
its loser may match) is settled by the generic ``showdown`` instead, which
finds the top cycle. The categories a pattern may match are read from the
pattern itself (category names exactly, anything else conservatively: every
category), so a deal is sent to the generic engine whenever an exception
*might* apply and never otherwise -- exceptions are rare hands, so nearly every
deal stays vectorised.

Card ids are the index of each card in ``Ruleset.deck`` (ranks low to high as
the deck lists them, each rank in the deck's suit order, jokers last); the same
ids ``rank_many`` takes and ``FastRanker.card_ids`` returns. In a hi-lo game the
ids are the main ruleset's and are mapped to each half's deck.

Shares are exact fractions of the pot (a quarter is 0.25): whole-chip rules
(odd chips to the high half, ``odd_chip``) only matter once a pot of chips is
divided, which ``showdown(..., pot=N)`` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.errors import CardError, GameError, error
from ..engine.showdown import MAX_PLAYERS, half_rulesets, refuse_dealt
from ..rules.patterns import AllOf, AnyOf, CategoryIs, Not, Pattern
from .fasthand import showdown
from .mustuse import MustUse, must_use_table

if TYPE_CHECKING:
    from ..rules.ruleset import Rules
    from .fast import FastRanker

#: Rows of ``hand.size`` cards ranked per ``rank_many`` call (bounds memory).
ROWS_PER_CHUNK = 1 << 16


class PotHalf:
    """One half of the pot (the whole pot outside hi-lo), ready for batches."""

    def __init__(self, main: Rules, rules: Rules) -> None:
        from .fast import ruleset_ranker

        self.rules = rules
        self.ranker: FastRanker = ruleset_ranker(rules)
        id_of = self.ranker.id_of
        missing = [card for card in main.deck if card not in id_of]
        if missing:
            raise error(
                GameError,
                "G104",
                f"{missing[0]} of {main.name} is not in the deck of its half {rules.name}",
                "<showdown>",
            )
        # main-deck id -> this half's id (the identity unless the half lists its deck otherwise)
        self.id_map = np.array([id_of[card] for card in main.deck], dtype=np.intp)
        self.same_ids = bool(np.array_equal(self.id_map, np.arange(len(self.id_map))))
        self.categories = self.ranker.tables.categories  # per dense value (see FastRanker.category_index)
        # no qualifier and every class in a category: any hand held qualifies
        self.all_qualify = rules.qualifier is None and bool((self.categories >= 0).all())
        self.beats = [
            (_category_set(rules, beat.winner.pattern), _category_set(rules, beat.loser.pattern))
            for beat in rules.beats
        ]
        self.board_size = main.game.board if main.game is not None else 0

    def must_use(self, subsets: np.ndarray, width: int, rows: int | None = 0) -> MustUse | None:
        """The must-use table (``mustuse.py``) for rows of ``width`` cards, hole then board, whose
        allowed combinations are ``subsets`` (``playing_columns``); None when it does not apply
        or is not built yet (``rows``: the player rows about to be valued, see ``must_use_table``)."""
        hole = width - self.board_size
        if self.board_size < 1 or hole < 1 or not len(subsets) or subsets.shape[1] != self.ranker.size:
            return None
        use_hole = int((subsets[0] < hole).sum())
        return must_use_table(self.ranker, hole, self.board_size, use_hole, self.ranker.size - use_hole, rows)

    def category(self, values: np.ndarray) -> np.ndarray:
        """Category index of each value (-1: no hand or not qualifying)."""
        return self.ranker.category_indices(values)


def _category_set(rules: Rules, pattern: Pattern) -> np.ndarray:
    """Which categories (by index, plus a last slot for "none") ``pattern`` may match."""
    names = [category.name for category in rules.categories]

    def walk(node: Pattern) -> tuple[set[int], bool]:
        # (categories it may match, whether that set is exact)
        everything = set(range(len(names)))
        if isinstance(node, CategoryIs):
            return ({names.index(node.name)} if node.name in names else set()), True
        if isinstance(node, AllOf | AnyOf):
            parts = [walk(item) for item in node.items]
            sets = [part[0] for part in parts]
            merged = set.intersection(*sets) if isinstance(node, AllOf) else set.union(*sets)
            # an intersection of supersets is still a superset; a union only when exact
            exact = all(part[1] for part in parts)
            return (merged if exact or isinstance(node, AllOf) else everything), exact
        if isinstance(node, Not):
            inner, exact = walk(node.item)
            return (everything - inner, True) if exact else (everything, False)
        return everything, False

    found, _ = walk(pattern)
    mask = np.zeros(len(names) + 1, dtype=bool)
    mask[sorted(found)] = True
    return mask


def _as_array(value: Any, name: str, dims: Sequence[int]) -> np.ndarray:
    array = np.asarray(value)
    if array.ndim not in dims:
        shapes = " or ".join(str(d) for d in dims)
        raise ValueError(f"showdown_many: {name} must be a {shapes}-D array of card ids, not shape {array.shape}")
    if array.dtype.kind not in "iu":
        raise TypeError(f"showdown_many: {name} must be an integer array of card ids, not {array.dtype}")
    return array.astype(np.intp, copy=False)


def _read(ruleset: Rules, holes: Any, boards: Any) -> tuple[np.ndarray, np.ndarray]:
    """Checked (n, players, hole) and (n, boards, board) id arrays."""
    hole_ids = _as_array(holes, "holes", (3,))
    n, players, _ = hole_ids.shape
    if boards is None:
        board_ids = np.zeros((n, 1, 0), dtype=np.intp)
    else:
        board_ids = _as_array(boards, "boards", (2, 3))
        if board_ids.ndim == 2:
            board_ids = board_ids[:, None, :]
        if board_ids.shape[0] != n:
            raise ValueError(f"showdown_many: {n} deals of hole cards but {board_ids.shape[0]} of boards")
    if players == 0 or players > MAX_PLAYERS:
        raise error(GameError, "G103", f"{players} players; a showdown seats 1 to {MAX_PLAYERS}", "<showdown>")
    game = ruleset.game
    if game is not None:
        if game.hole and hole_ids.shape[2] != game.hole:
            raise error(
                GameError,
                "G105",
                f"{hole_ids.shape[2]} hole cards per player; {ruleset.name} deals {game.hole}",
                "<showdown>",
            )
        wanted = game.boards if game.board else 1
        if board_ids.shape[1] != wanted:
            raise error(
                GameError, "G108", f"{board_ids.shape[1]} boards given; {ruleset.name} deals {wanted}", "<showdown>"
            )
        if board_ids.shape[2] != game.board:
            raise error(
                GameError,
                "G106",
                f"{board_ids.shape[2]} cards per board; {ruleset.name} deals {game.board}",
                "<showdown>",
            )
    deck = ruleset.deck
    every = np.concatenate(
        [
            hole_ids.reshape(n, players * hole_ids.shape[2]),
            board_ids.reshape(n, board_ids.shape[1] * board_ids.shape[2]),
        ],
        axis=1,
    )
    if every.size and (int(every.min()) < 0 or int(every.max()) >= len(deck)):
        bad = int(every.min()) if int(every.min()) < 0 else int(every.max())
        raise error(
            CardError,
            "C102",
            f"showdown_many: card id {bad} is not in {ruleset.name} (ids run from 0 to {len(deck) - 1})",
            "<cards>",
        )
    _check_repeats(ruleset, every)
    return hole_ids, board_ids


def _check_repeats(ruleset: Rules, every: np.ndarray) -> None:
    """No card more often in a deal than the packs hold (a joker once)."""
    if every.shape[1] < 2:
        return
    deck = ruleset.deck
    ordered = np.sort(every, axis=1)
    copies = ruleset.copies
    repeated = np.zeros(ordered.shape, dtype=bool)
    if ordered.shape[1] > copies:
        repeated[:, copies:] = ordered[:, copies:] == ordered[:, :-copies]
    first_joker = len(deck) - ruleset.jokers
    repeated[:, 1:] |= (ordered[:, 1:] == ordered[:, :-1]) & (ordered[:, 1:] >= first_joker)
    if repeated.any():
        deal, column = (int(i) for i in np.argwhere(repeated)[0])
        card = deck[int(ordered[deal, column])]
        count = int((ordered[deal] == ordered[deal, column]).sum())
        limit = 1 if card.is_joker else copies
        raise error(
            GameError, "G104", f"deal {deal}: {card} is dealt {count} times, but the deck holds {limit}", "<showdown>"
        )


def playing_columns(ruleset: Rules, holes: int, board: int) -> np.ndarray | None:
    """Column sets (hole columns first, then board) that may play; None: any cards."""
    game = ruleset.game
    if game is None or (game.use_hole is None and game.use_board is None):
        return None
    size = ruleset.hand_size
    use_hole = game.use_hole if game.use_hole is not None else size - (game.use_board or 0)
    use_board = game.use_board if game.use_board is not None else size - use_hole
    sets = [
        h + b
        for h in combinations(range(holes), use_hole)
        for b in combinations(range(holes, holes + board), use_board)
    ]
    return np.array(sets, dtype=np.intp).reshape(len(sets), size)


def best_values(half: PotHalf, cards: np.ndarray, subsets: np.ndarray | None, counted: bool = False) -> np.ndarray:
    """The best value of each row of ``cards`` (n, players, k) -> (n, players).

    ``counted``: the caller has already counted these rows towards building the must-use table.
    """
    n, players, k = cards.shape
    if not half.same_ids:
        cards = half.id_map[cards]
    if subsets is None:
        return np.asarray(half.ranker.rank_many(cards.reshape(n * players, k))).reshape(n, players)
    table = half.must_use(subsets, k, 0 if counted else n * players)
    if table is not None:
        # the board is every player's: its columns of the first player
        return table.values(cards[:, :, : table.hole], np.ascontiguousarray(cards[:, 0, table.hole :]))
    rows = cards[:, :, subsets]  # (n, players, combinations, hand.size)
    ranked = np.asarray(half.ranker.rank_many(rows.reshape(-1, subsets.shape[1])))
    best: np.ndarray = ranked.reshape(n, players, len(subsets)).max(axis=2)
    return best


def across(ufunc: np.ufunc, array: np.ndarray) -> np.ndarray:
    """``ufunc.reduce(array, axis=1)`` for a few players, a column at a time: NumPy's reduction
    along a short last axis costs about ten times as much.

    >>> across(np.maximum, np.array([[1, 5, 2], [7, 0, 3]])).tolist()
    [5, 7]
    """
    if array.shape[1] > 16 or array.shape[1] == 0:
        found: np.ndarray = ufunc.reduce(array, axis=1)
        return found
    out: np.ndarray = array[:, 0].copy()
    for column in range(1, array.shape[1]):
        ufunc(out, array[:, column], out=out)
    return out


def count_across(mask: np.ndarray) -> np.ndarray:
    """The number of True per row of a (n, players) mask, as int64 (see :func:`across`)."""
    return across(np.add, mask.astype(np.int64))


def half_winners(half: PotHalf, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(winners mask, deals an exception might decide) of one half."""
    if half.all_qualify and not half.beats and (not values.size or values.min() >= 0):
        # every hand held qualifies: the best value alone says who wins
        winners: np.ndarray = values == across(np.maximum, values)[:, None]
        return winners, np.zeros(len(values), dtype=bool)
    category = half.category(values)
    alive = category >= 0
    best = across(np.maximum, np.where(alive, values, -2))[:, None]
    winners = alive & (values == best)
    unsure = np.zeros(len(values), dtype=bool)
    for winner_set, loser_set in half.beats:
        may_win = winner_set[category] & alive
        may_lose = loser_set[category] & alive
        # two different players: one may win by the rule, the other may lose by it
        some_win = may_win.sum(axis=1)
        some_lose = may_lose.sum(axis=1)
        both = (may_win & may_lose).sum(axis=1)
        unsure |= (some_win > 0) & (some_lose > 0) & ~((some_win == 1) & (some_lose == 1) & (both == 1))
    return winners, unsure


def _generic_shares(ruleset: Rules, holes: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """One deal settled by ``fasthand.showdown`` (tables where they answer, else the engine), as float shares."""
    deck = ruleset.deck
    players = [[deck[i] for i in hole] for hole in holes.tolist()]
    board_cards = [[deck[i] for i in board] for board in boards.tolist()]
    board: Any = board_cards[0] if len(board_cards) == 1 else board_cards
    if len(board_cards) == 1 and not board_cards[0]:
        board = ""
    result = showdown(ruleset, players, board)
    return np.array([float(share) for share in result.fractions], dtype=np.float64)


def showdown_many(ruleset: Rules, holes: Any, boards: Any = None) -> np.ndarray:
    """Pot shares of many deals: ``(n, players)`` float64, each row summing to 1
    (or to 0 when no hand qualifies anywhere and the pot is carried).

    ``holes``: integer card ids of shape (n, players, hole cards), players in
    seat order; ``boards``: (n, board cards), or (n, boards, board cards) for
    double-board games, or None (stud, razz, rulesets without a board). The
    shares are exact fractions (0.5 each for a split pot, 0.25 for a quartered
    hi-lo half), the same as ``showdown(...).fractions``.

    >>> import numpy as np
    >>> from evaluator import load
    >>> rs = load("holdem")
    >>> ids = lambda text: [rs.deck.index(card) for card in rs.cards(text)]
    >>> holes = np.array([[ids("As Ah"), ids("Kd Kc")], [ids("As Ah"), ids("Ad Ac")]])
    >>> boards = np.array([ids("2c 7d 9h Js 3s"), ids("2c 7d 9h Js 3s")])
    >>> showdown_many(rs, holes, boards).tolist()
    [[1.0, 0.0], [0.5, 0.5]]

    Raises:
        PokerRulesError: ids not in the deck (C102), repeated cards (G104),
            wrong counts of players, hole cards, boards or board cards
            (G103, G105, G106, G108); a game settled by the deal (G122).
    """
    refuse_dealt(ruleset, "showdown")
    hole_ids, board_ids = _read(ruleset, holes, boards)
    n, players, hole_count = hole_ids.shape
    board_count, board_size = board_ids.shape[1], board_ids.shape[2]
    shares = np.zeros((n, players), dtype=np.float64)
    if n == 0:
        return shares
    halves = [PotHalf(ruleset, rules) for _, rules in half_rulesets(ruleset)]
    subsets = playing_columns(ruleset, hole_count, board_size)
    # lowest-card wild is decided on the whole holding, not per combination: generic
    per_deal = subsets is not None and any(half.rules.wild.lowest_rank for half in halves)
    rows_per_deal = players * (len(subsets) if subsets is not None else 1)
    # the must-use tables, built here when this batch is worth it (its rows are counted once)
    width = hole_count + board_size
    tables = [half.must_use(subsets, width, n * players) for half in halves] if subsets is not None else []
    if tables and all(table is not None for table in tables):
        rows_per_deal = players * max(len(table.parts) for table in tables if table is not None)
    step = max(1, ROWS_PER_CHUNK // rows_per_deal)
    for start in range(0, n, step):
        stop = min(n, start + step)
        chunk_holes = hole_ids[start:stop]
        unsure = np.full(stop - start, per_deal, dtype=bool)
        live_boards = np.zeros(stop - start, dtype=np.int64)
        per_board: list[tuple[np.ndarray, list[np.ndarray]]] = []
        for b in range(board_count):
            board = np.broadcast_to(board_ids[start:stop, b][:, None, :], (stop - start, players, board_size))
            cards = np.concatenate([chunk_holes, board], axis=2)
            won: list[np.ndarray] = []
            for half in [] if per_deal else halves:
                winners, doubt = half_winners(half, best_values(half, cards, subsets, counted=True))
                won.append(winners)
                unsure |= doubt
            live_halves = np.zeros(stop - start, dtype=np.int64)
            for winners in won:
                live_halves += across(np.logical_or, winners)
            live_boards += live_halves > 0
            per_board.append((live_halves, won))
        for live_halves, won in per_board:
            for winners in won:
                count = count_across(winners)[:, None]
                # a board's share goes equally to its halves that have a winner, then to their winners
                denominator = np.maximum(live_boards[:, None] * live_halves[:, None] * count, 1)
                shares[start:stop] += np.where(winners, 1.0 / denominator, 0.0)
        for deal in np.flatnonzero(unsure).tolist():
            shares[start + deal] = _generic_shares(ruleset, hole_ids[start + deal], board_ids[start + deal])
    return shares
