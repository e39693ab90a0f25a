"""The deals behind an odds question: every one (exact) or a random sample.

A *table* is what is known: each player's hand (cards, a range, or nothing),
the board cards already out, the dead cards. A *deal* completes it: one row of
card ids (index in ``Ruleset.deck``) holding every player's hole cards, then
every board, in the slot layout of :class:`Table`. Deals come in NumPy batches:

- **exact**: for every compatible choice of range combinations, every way of
  dealing the unknown slots from the cards left. The unknown slots form
  segments (a player's missing hole cards, a board's missing cards); a deal is
  a combination of ``u`` cards (built with NumPy, no Python loop over deals)
  times one of the ways of cutting it into the segments, so each deal appears
  exactly once and all are equally likely.
- **sampled**: range combinations drawn by weight (rows whose combinations
  share a card are drawn again: card removal stays exact), then the unknown
  slots drawn in order without replacement from the cards each row has left.

The deck is a multiset of *physical* cards (two packs hold each card twice),
so card removal is exact for every deck.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations, product
from math import comb, prod
from typing import TYPE_CHECKING

import numpy as np

from ..core.errors import PokerRulesError, error
from .ranges import HandRange

if TYPE_CHECKING:
    from ..rules.ruleset import Rules


class OddsError(PokerRulesError):
    """An odds question that cannot be answered as asked."""


#: Deals per batch: big enough for NumPy to pay off, small enough for the cache.
BATCH = 1 << 16
#: The combinations of the cards left are kept whole up to this many bytes, else made block by block.
KEPT_PICKS_BYTES = 64 << 20


def combination_indices(m: int, k: int) -> np.ndarray:
    """Every k-subset of ``range(m)``, in colex order, shape (C(m, k), k).

    In colex order the subsets of ``range(c)`` are a prefix of those of
    ``range(m)``, so a column is added by copying prefixes block by block (one
    slice copy per value of the new last element, no loop over the subsets).

    >>> combination_indices(4, 2).tolist()
    [[0, 1], [0, 2], [1, 2], [0, 3], [1, 3], [2, 3]]
    """
    if k == 0:
        return np.zeros((1, 0), dtype=np.int16)
    if k > m:
        return np.zeros((0, k), dtype=np.int16)
    current = np.arange(m, dtype=np.int16)[:, None]
    for width in range(2, k + 1):
        total = comb(m, width)
        grown = np.empty((total, width), dtype=np.int16)
        row = 0
        for last in range(width - 1, m):
            count = comb(last, width - 1)  # the subsets of range(last): a prefix of current
            grown[row : row + count, : width - 1] = current[:count]
            grown[row : row + count, width - 1] = last
            row += count
        current = grown
    return current


def combination_blocks(m: int, k: int, rows: int) -> Iterator[np.ndarray]:
    """:func:`combination_indices` ``(m, k)`` in the same order, as arrays of at most ``rows``
    rows, so that no more than a block is ever held (C(52, 15) subsets would fill terabytes).

    >>> [block.tolist() for block in combination_blocks(4, 2, 3)]
    [[[0, 1]], [[0, 2], [1, 2]], [[0, 3], [1, 3], [2, 3]]]
    """
    if comb(m, k) <= rows:
        yield combination_indices(m, k)
        return
    # colex order: grouped by the last element, each group the subsets of the elements below it
    for last in range(k - 1, m):
        for prefix in combination_blocks(last, k - 1, rows):
            yield np.concatenate([prefix, np.full((len(prefix), 1), last, dtype=np.int16)], axis=1)


def cut_count(sizes: Sequence[int]) -> int:
    """How many rows :func:`segment_cuts` has (a multinomial), without making them.

    >>> cut_count([2, 2, 5]), len(segment_cuts([2, 2, 5]))
    (756, 756)
    """
    count, left = 1, sum(sizes)
    for size in sizes:
        count *= comb(left, size)
        left -= size
    return count


def segment_cuts(sizes: Sequence[int]) -> np.ndarray:
    """Every way of cutting ``sum(sizes)`` ordered positions into segments of
    ``sizes`` (each segment's positions increasing): shape (ways, total).

    >>> segment_cuts([1, 1]).tolist()
    [[0, 1], [1, 0]]
    """
    total = sum(sizes)
    ways: list[list[int]] = [[]]
    left_sets: list[tuple[int, ...]] = [tuple(range(total))]
    for size in sizes:
        grown, grown_left = [], []
        for way, left in zip(ways, left_sets, strict=True):
            for chosen in combinations(left, size):
                grown.append(way + list(chosen))
                grown_left.append(tuple(x for x in left if x not in chosen))
        ways, left_sets = grown, grown_left
    return np.array(ways, dtype=np.int16).reshape(len(ways), total)


def cut_blocks(sizes: Sequence[int], rows: int) -> Iterator[np.ndarray]:
    """:func:`segment_cuts` in the same order, as arrays of at most ``rows`` rows
    (nine hold'em hands and a board can be cut 10^16 ways).

    >>> [block.tolist() for block in cut_blocks([1, 1, 1], 2)] == [segment_cuts([1, 1, 1])[i : i + 2].tolist() for i in (0, 2, 4)]
    True
    """
    if cut_count(sizes) <= rows:
        yield segment_cuts(sizes)
        return
    total, first = sum(sizes), sizes[0]
    for chosen in combinations(range(total), first):
        others = np.array([x for x in range(total) if x not in chosen], dtype=np.int16)
        head = np.array(chosen, dtype=np.int16)
        for tail in cut_blocks(sizes[1:], rows):
            yield np.concatenate([np.broadcast_to(head, (len(tail), first)), others[tail]], axis=1)


def rebatch(blocks: Iterable[np.ndarray], rows: int) -> Iterator[np.ndarray]:
    """The rows of ``blocks``, in order, regrouped into arrays of exactly ``rows`` rows (the last may be shorter).

    >>> [len(block) for block in rebatch([np.zeros((5, 2)), np.zeros((4, 2))], 3)]
    [3, 3, 3]
    """
    pending: list[np.ndarray] = []
    count = 0
    for block in blocks:
        start = 0
        while start < len(block):
            take = min(rows - count, len(block) - start)
            pending.append(block[start : start + take])
            count += take
            start += take
            if count == rows:
                yield pending[0] if len(pending) == 1 else np.concatenate(pending)
                pending, count = [], 0
    if count:
        yield pending[0] if len(pending) == 1 else np.concatenate(pending)


@dataclass
class Table:
    """What is known before the deal, in card ids of the ruleset's deck.

    Slots of a deal row: player ``p``'s hole card ``j`` is ``p * hole + j``;
    board ``b``'s card ``j`` is ``players * hole + b * board + j``.
    """

    ruleset: Rules
    hole: int
    board: int
    boards: int
    hands: list[HandRange]
    template: np.ndarray  # (slots,) ids known in every deal, -1 elsewhere
    physical: np.ndarray  # ids of the cards left after the fixed ones, one entry per physical card
    ranged: list[int]  # players whose hand is a range of several combinations
    combos: list[np.ndarray]  # per ranged player: (combos, known) ids
    weights: list[np.ndarray]  # per ranged player: weights summing to 1

    @property
    def players(self) -> int:
        """Number of players."""
        return len(self.hands)

    @property
    def slots(self) -> int:
        """Cards in one deal row."""
        return self.players * self.hole + self.boards * self.board

    def ranged_slots(self, player: int) -> list[int]:
        """The slots a ranged player's combination fills."""
        return list(range(player * self.hole, player * self.hole + self.hands[player].known))

    @cached_property
    def known_slots(self) -> np.ndarray:
        """Slots whose card is the same in every deal (fixed hands, board and dead cards given)."""
        return np.flatnonzero(self.template >= 0)

    @cached_property
    def free_slots(self) -> list[int]:
        """Slots dealt from the deck (neither fixed nor filled by a range)."""
        taken = set(np.flatnonzero(self.template >= 0).tolist())
        for player in self.ranged:
            taken.update(self.ranged_slots(player))
        return [slot for slot in range(self.slots) if slot not in taken]

    @property
    def segments(self) -> list[int]:
        """Sizes of the runs of free slots that belong to one player or one board."""
        owner = [self.owner(slot) for slot in self.free_slots]
        sizes: list[int] = []
        for index, who in enumerate(owner):
            if index and owner[index - 1] == who:
                sizes[-1] += 1
            else:
                sizes.append(1)
        return sizes

    def owner(self, slot: int) -> int:
        """The player (0..) or board (players + b) a slot belongs to."""
        edge = self.players * self.hole
        return slot // self.hole if slot < edge else self.players + (slot - edge) // self.board

    def left_after_ranges(self) -> int:
        """Physical cards left once every ranged player holds a combination."""
        return len(self.physical) - sum(self.hands[p].known for p in self.ranged)

    def combo_tuples(self) -> Iterator[tuple[tuple[int, ...], float]]:
        """Every compatible choice of one combination per ranged player, with its weight."""
        available = (
            np.bincount(self.physical, minlength=len(self.ruleset.deck))
            if len(self.physical)
            else np.zeros(0, dtype=np.int64)
        )
        for choice in product(*(range(len(c)) for c in self.combos)):
            used: dict[int, int] = {}
            fits = True
            for player_combos, index in zip(self.combos, choice, strict=True):
                for card in player_combos[index].tolist():
                    used[card] = used.get(card, 0) + 1
                    if used[card] > available[card]:
                        fits = False
            if fits:
                yield choice, float(prod(w[i] for w, i in zip(self.weights, choice, strict=True)))

    def exact_batches(self, rows: int = BATCH) -> Iterator[tuple[np.ndarray, float]]:
        """Every deal once, in batches of at most ``rows`` rows with one weight per batch.

        The combinations of the cards left and the cuts into segments are made block
        by block, so memory stays bounded however many deals there are.
        """
        free = self.free_slots
        m = self.left_after_ranges()
        cuts_total = cut_count(self.segments)
        kept = comb(m, len(free)) * max(len(free), 1) * 2 <= KEPT_PICKS_BYTES
        every_pick = combination_indices(m, len(free)) if kept else None
        cuts = segment_cuts(self.segments) if cuts_total <= rows else None
        for choice, weight in self.combo_tuples():
            row = self.template.copy()
            rest = self.physical.copy()
            for player, combos, index in zip(self.ranged, self.combos, choice, strict=True):
                cards = combos[index]
                row[self.ranged_slots(player)] = cards
                for card in cards.tolist():  # remove one physical copy
                    rest = np.delete(rest, int(np.flatnonzero(rest == card)[0]))
            picks = [every_pick] if every_pick is not None else combination_blocks(m, len(free), rows)
            if cuts is not None:  # every cut of a pick in one batch, as many picks as fit
                for chosen_picks in rebatch(picks, max(1, rows // cuts_total)):
                    chosen = rest[chosen_picks]  # (c, u) ids
                    dealt = chosen[:, cuts].reshape(-1, len(free)) if len(free) else chosen
                    yield self._rows(row, free, dealt), weight
                continue
            for block in picks:  # more cuts than a batch holds: one pick at a time, its cuts in blocks
                for pick in block:
                    chosen = rest[pick]
                    for some_cuts in rebatch(cut_blocks(self.segments, rows), rows):
                        yield self._rows(row, free, chosen[some_cuts]), weight

    @staticmethod
    def _rows(row: np.ndarray, free: list[int], dealt: np.ndarray) -> np.ndarray:
        batch: np.ndarray = np.broadcast_to(row, (len(dealt), len(row))).copy()
        batch[:, free] = dealt
        return batch

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` random deals (rows), each equally likely given the table.

        The array is column-major (a transposed view): the engines read it card column by card column.
        """
        columns = np.empty((self.slots, n), dtype=np.int64)
        known = self.known_slots
        columns[known] = self.template[known, None]
        rows: np.ndarray = columns.T
        consumed = np.zeros((0, n), dtype=np.int16)  # (cards, n) physical positions taken by range cards
        if self.ranged:
            consumed = self._draw_ranges(rng, rows).T.astype(np.int16)
        free = self.free_slots
        if not free:
            return rows
        total = len(self.physical)
        # independent draws kept only when distinct and not taken: exactly uniform over ordered
        # samples without replacement, and cheap while most rows pass (few cards to deal)
        accept = prod((total - len(consumed) - i) / total for i in range(len(free)))
        if accept > 0.3:
            positions = self._by_rejection(rng, n, consumed, total)
        else:
            positions = self._by_skipping(rng, n, consumed.T, total).T
        dealt = np.take(self.physical, positions)  # take(): faster than physical[positions]
        if free == list(range(free[0], free[0] + len(free))):
            columns[free[0] : free[0] + len(free)] = dealt
        else:
            columns[free] = dealt
        return rows

    def _by_rejection(self, rng: np.random.Generator, n: int, consumed: np.ndarray, total: int) -> np.ndarray:
        """(cards, n) positions: independent draws, a row with a repeat drawn again.

        Without range cards every row is alike: a few more rows than needed are drawn at once
        and the first ``n`` good ones kept (independent and uniform), so one round is enough while
        the estimate holds. With range cards each row is drawn again in place until it is good.
        """
        u = len(self.free_slots)
        if len(consumed):
            positions = rng.integers(0, total, size=(u, n), dtype=np.int16)
            todo = np.flatnonzero(_repeats(positions, consumed))
            while len(todo):
                drawn = rng.integers(0, total, size=(u, len(todo)), dtype=np.int16)
                bad = _repeats(drawn, consumed[:, todo])
                positions[:, todo[~bad]] = drawn[:, ~bad]
                todo = todo[bad]
            return positions
        accept = prod((total - i) / total for i in range(u))
        parts: list[np.ndarray] = []
        found = 0
        while found < n:
            drawn = rng.integers(0, total, size=(u, int((n - found) / accept * 1.02) + 64), dtype=np.int16)
            good = np.flatnonzero(~_repeats(drawn, consumed))[: n - found]
            parts.append(np.take(drawn, good, axis=1))  # take(): much faster than drawn[:, good]
            found += len(good)
        return parts[0] if len(parts) == 1 else np.concatenate(parts, axis=1)

    def _by_skipping(self, rng: np.random.Generator, n: int, consumed: np.ndarray, total: int) -> np.ndarray:
        """Card by card: the k-th physical card not yet taken, k uniform among those left."""
        u = len(self.free_slots)
        positions = np.empty((n, u), dtype=np.int64)
        left = total - consumed.shape[1]
        excluded = np.sort(consumed, axis=1)
        for j in range(u):
            position = rng.integers(0, left, size=n)
            for column in range(excluded.shape[1]):
                position += excluded[:, column] <= position
            positions[:, j] = position
            excluded = np.sort(np.concatenate([excluded, position[:, None]], axis=1), axis=1)
            left -= 1
        return positions

    def _draw_ranges(self, rng: np.random.Generator, rows: np.ndarray) -> np.ndarray:
        """Fill the ranged players' slots; returns the physical positions they use."""
        n = len(rows)
        first = {int(card): int(np.flatnonzero(self.physical == card)[0]) for card in np.unique(self.physical)}
        available = np.bincount(self.physical, minlength=len(self.ruleset.deck))
        chosen = [np.zeros(n, dtype=np.int64) for _ in self.ranged]
        todo = np.arange(n)
        for _ in range(1000):
            for k, weights in enumerate(self.weights):
                chosen[k][todo] = rng.choice(len(weights), size=len(todo), p=weights)
            cards = np.concatenate([self.combos[k][chosen[k][todo]] for k in range(len(self.ranged))], axis=1)
            counts = np.zeros((len(todo), len(available)), dtype=np.int64)
            np.add.at(counts, (np.arange(len(todo))[:, None], cards), 1)
            todo = todo[(counts > available).any(axis=1)]
            if not len(todo):
                break
        else:
            raise error(
                OddsError, "O116", "the ranges can hardly ever be dealt together (they keep sharing cards)", "<odds>"
            )
        cards = np.concatenate([self.combos[k][chosen[k]] for k in range(len(self.ranged))], axis=1)
        for k, player in enumerate(self.ranged):
            rows[:, self.ranged_slots(player)] = self.combos[k][chosen[k]]
        lookup = np.full(len(available), -1, dtype=np.int64)
        for card, position in first.items():
            lookup[card] = position
        positions: np.ndarray = lookup[cards]
        for j in range(1, cards.shape[1]):  # a second copy of a card (two packs) is the next physical card
            positions[:, j] += (cards[:, :j] == cards[:, j : j + 1]).sum(axis=1)
        return positions


def _repeats(drawn: np.ndarray, taken: np.ndarray) -> np.ndarray:
    """Per column of ``drawn`` (cards, n): True when a card repeats, or is one of ``taken``'s column.

    Column against column: cheaper than sorting short rows.

    >>> _repeats(np.array([[1, 2, 3], [4, 2, 5]]), np.array([[0, 0, 5]])).tolist()
    [False, True, True]
    """
    bad = np.zeros(drawn.shape[1], dtype=bool)
    for i in range(len(drawn)):
        for j in range(i + 1, len(drawn)):
            bad |= drawn[i] == drawn[j]
        for column in taken:
            bad |= drawn[i] == column
    return bad


def build_table(
    ruleset: Rules,
    hands: list[HandRange],
    hole: int,
    board: int,
    boards: int,
    board_cards: list[list[int]],
    dead: list[int],
) -> Table:
    """Check what is known against the deck and lay it out as a :class:`Table`.

    Raises:
        OddsError: O110 a card out more often than the deck holds it, O106 a
            range with no combination left, O113 too few cards left to deal.
    """
    deck = ruleset.deck
    copies = np.array([1 if card.is_joker else ruleset.copies for card in deck], dtype=np.int64)
    players = len(hands)
    template = np.full(players * hole + boards * board, -1, dtype=np.int64)
    available = copies.copy()

    def take(card: int, what: str) -> None:
        available[card] -= 1
        if available[card] < 0:
            raise error(OddsError, "O110", f"{deck[card]} is out more often than the deck holds it ({what})", "<odds>")

    for b, cards in enumerate(board_cards):
        for j, card in enumerate(cards):
            template[players * hole + b * board + j] = card
            take(card, f"board {b + 1}")
    for card in dead:
        take(card, "dead cards")
    id_of = {card: i for i, card in enumerate(deck)}
    ranged, combos, weights = [], [], []
    for p, hand in enumerate(hands):
        if hand.is_fixed:
            for j, held in enumerate(hand.combos[0]):
                template[p * hole + j] = id_of[held]
                take(id_of[held], f"hand {p + 1}")
    for p, hand in enumerate(hands):
        if hand.is_fixed:
            continue
        ids = np.array([[id_of[c] for c in combo] for combo in hand.combos], dtype=np.int64)
        keep = np.array([all(np.bincount(row, minlength=len(deck))[row] <= available[row]) for row in ids])
        if not keep.any():
            raise error(
                OddsError,
                "O106",
                f"no combination of hand {p + 1} ({hand.text}) is left once the known cards are out",
                f"<hand {p + 1}>",
            )
        w = np.array(hand.weights, dtype=np.float64)[keep]
        ranged.append(p)
        combos.append(ids[keep])
        weights.append(w / w.sum())
    physical = np.repeat(np.arange(len(deck)), available)
    table = Table(ruleset, hole, board, boards, hands, template, physical, ranged, combos, weights)
    if table.left_after_ranges() < len(table.free_slots):
        raise error(
            OddsError,
            "O113",
            f"{len(table.free_slots)} cards to deal but only {table.left_after_ranges()} left in the deck",
            "<odds>",
        )
    return table
