"""Every board of a deal, once, up to the renamings of suits that change nothing.

The board-major engine (:mod:`evaluator.odds.board_major`) enumerates the
boards that complete a deal -- ``k`` cards from the ``m`` cards left -- once,
and ranks every live holding on each. When renaming the suits changes no
showdown (no suit tie-break, no pattern naming a suit, one pack; a renaming
must keep single wild cards wild) and leaves the question alone (the known
cards, every range with its weights), two boards that one renaming turns into
each other give the same sums: only one of each such *orbit* is ranked, with
the orbit's size as its weight. Before the flop of hold'em that is 134,459
boards for 2,598,960, with weights that add up to the whole.

A board is kept when its *suit key* -- one bit per natural card, suit ``s``
of rank ``r`` at bit ``r + ranks * s`` -- is the largest among its images
under the group; its weight is the group's size over the number of renamings
that fix it. Jokers carry no suit and stay where they are.

The boards are cut into chunks that depend only on the question: chunk
``(s, t)`` holds the boards whose two highest cards are the ``s``-th and
``t``-th card left (in deck order), so a chunk is a block of the colex order
and any number of processes can take any chunks with the same result.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from math import comb, factorial
from typing import TYPE_CHECKING

import numpy as np

from ..compiled.deck_split import suit_sensitive
from ..engine.showdown import half_rulesets
from ..rules.cards import Card
from .deals import combination_indices

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

#: Suits past this many are never renamed (the group would be too big to walk).
MAX_RENAMED_SUITS = 6
#: The suit key must fit a signed 64-bit integer.
KEY_BITS = 62


def suit_renamings(ruleset: Rules) -> list[tuple[int, ...]]:
    """The renamings of suits (as permutations of suit indices) that change no showdown of
    ``ruleset``, in every half of the pot: all of them, those that keep single wild cards
    wild, or only the identity (a suit tie-break, a pattern naming a suit, several packs).

    >>> from evaluator import load
    >>> len(suit_renamings(load("holdem"))), len(suit_renamings(load("one-eyed-jacks")))
    (24, 4)
    >>> suit_renamings(load("suits-bridge"))
    [(0, 1, 2, 3)]
    """
    suits = list(ruleset.suits)
    identity = tuple(range(len(suits)))
    every = [ruleset] + [half for _, half in half_rulesets(ruleset)]
    if len(suits) > MAX_RENAMED_SUITS or any(
        rules.copies != 1 or rules.tiebreak != "none" or suit_sensitive(rules) or list(rules.suits) != suits
        for rules in every
    ):
        return [identity]
    kept = []
    for order in permutations(range(len(suits))):
        if all(_keeps_wild_cards(rules, suits, order) for rules in every):
            kept.append(order)
    return kept


def _keeps_wild_cards(rules: Rules, suits: list[str], order: tuple[int, ...]) -> bool:
    """Whether renaming suit ``i`` to ``order[i]`` maps the single wild cards onto themselves."""
    wild = {(card.rank, card.suit) for card in rules.wild.cards if not card.is_joker}
    moved = {(rank, suits[order[suits.index(suit)]]) for rank, suit in wild if suit in suits}
    return moved == wild


def id_permutations(ruleset: Rules, renamings: Sequence[tuple[int, ...]]) -> np.ndarray:
    """Each renaming as a map of card ids (index in ``ruleset.deck``): shape (renamings, deck)."""
    deck = ruleset.deck
    suits = list(ruleset.suits)
    id_of = {card: i for i, card in enumerate(deck)}
    maps = np.empty((len(renamings), len(deck)), dtype=np.int64)
    for g, order in enumerate(renamings):
        for i, card in enumerate(deck):
            if card.is_joker or card.suit not in suits:
                maps[g, i] = i
            else:
                maps[g, i] = id_of[Card(card.rank, suits[order[suits.index(card.suit)]])]
    return maps


def keeping(maps: np.ndarray, questions: Iterable[dict[tuple[int, ...], float]]) -> np.ndarray:
    """The rows of ``maps`` under which every question part (combinations of card ids with
    their weights; a set of known cards is one combination) stays the same.

    >>> from evaluator import load
    >>> holdem = load("holdem")
    >>> maps = id_permutations(holdem, suit_renamings(holdem))
    >>> ah_kh = {tuple(sorted(holdem.deck.index(card) for card in holdem.cards("Ah Kh"))): 1.0}
    >>> len(keeping(maps, [ah_kh]))
    6
    """
    parts = list(questions)
    kept = []
    for row in maps:
        if all(_same_part(row, part) for part in parts):
            kept.append(row)
    return np.array(kept, dtype=np.int64).reshape(len(kept), maps.shape[1])


def _same_part(row: np.ndarray, part: dict[tuple[int, ...], float]) -> bool:
    for combo, weight in part.items():
        image = tuple(sorted(int(row[i]) for i in combo))
        if part.get(image) != weight:
            return False
    return True


@dataclass(frozen=True)
class BoardChunk:
    """The boards whose two highest cards are the cards left at positions ``second`` and ``top``
    (one board per chunk when one or two cards are to come; every board once when none is)."""

    top: int
    second: int


class BoardSpace:
    """The boards of one question: ``k`` cards from the ``available`` card ids, up to ``maps``.

    ``maps`` (renamings, deck) must fix the set of available cards.
    """

    def __init__(self, ruleset: Rules, available: np.ndarray, k: int, maps: np.ndarray) -> None:
        self.available = np.asarray(available, dtype=np.int64)
        self.k = k
        ranks = list(ruleset.deck_ranks)
        suits = list(ruleset.suits)
        usable = len(ranks) * len(suits) <= KEY_BITS
        self.maps = maps if usable and len(maps) else np.arange(len(ruleset.deck), dtype=np.int64)[None, :]
        # the suit-key bit of each card id under each renaming (jokers: none)
        bit = np.zeros(len(ruleset.deck), dtype=np.int64)
        has_bit = np.zeros(len(ruleset.deck), dtype=bool)
        for i, card in enumerate(ruleset.deck):
            if usable and not card.is_joker and card.suit in suits:
                bit[i] = ranks.index(card.rank or "") + len(ranks) * suits.index(card.suit)
                has_bit[i] = True
        self.codes = np.where(has_bit[self.maps], np.int64(1) << bit[self.maps], 0)  # (renamings, deck)
        self.identity = _identity_row(self.maps)
        self.suits = len(suits)
        self.ranks = len(ranks)
        # every renaming allowed: a board is kept when its suits' rank sets fall from suit to suit
        self.symmetric = usable and len(self.maps) == factorial(len(suits)) > 1

    @property
    def group(self) -> int:
        """How many renamings the boards are taken up to."""
        return len(self.maps)

    @property
    def total(self) -> int:
        """Every board, counted once each (the weights of the kept boards add up to it)."""
        return comb(len(self.available), self.k)

    def chunks(self) -> list[BoardChunk]:
        """Every chunk, in a fixed order (the colex order of the boards)."""
        m, k = len(self.available), self.k
        if k == 0:
            return [BoardChunk(-1, -1)]
        if k == 1:
            return [BoardChunk(t, -1) for t in range(m)]
        return [BoardChunk(t, s) for t in range(1, m) for s in range(k - 2, t)]

    def size(self, chunk: BoardChunk) -> int:
        """Boards in a chunk before the renamings are taken out."""
        if self.k <= 1:
            return 1
        return comb(chunk.second, self.k - 2)

    def boards(self, chunk: BoardChunk) -> tuple[np.ndarray, np.ndarray]:
        """The kept boards of a chunk as card ids (n, k) and their weights (n,) int64."""
        k = self.k
        if k == 0:
            return np.zeros((1, 0), dtype=np.int64), np.ones(1, dtype=np.int64)
        if k == 1:
            positions = np.array([[chunk.top]], dtype=np.int64)
        else:
            low = _combinations(chunk.second, k - 2)
            positions = np.empty((len(low), k), dtype=np.int64)
            positions[:, : k - 2] = low
            positions[:, k - 2] = chunk.second
            positions[:, k - 1] = chunk.top
        boards = self.available[positions]
        if self.group == 1:
            return boards, np.ones(len(boards), dtype=np.int64)
        if self.symmetric:
            return self._symmetric(boards)
        keys = self.codes[:, boards].sum(axis=2)  # (renamings, n): distinct bits, so a sum is an OR
        own = keys[self.identity]
        top = keys.max(axis=0)
        kept = own == top
        fixing = (keys[:, kept] == own[kept]).sum(axis=0)
        return boards[kept], self.group // fixing

    def _symmetric(self, boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The kept boards when every renaming is allowed: each suit's rank set (as bits) no
        bigger than the one before; the weight is n! over the renamings of suits with equal sets."""
        keys = self.codes[self.identity, boards].sum(axis=1)
        span = np.int64((1 << self.ranks) - 1)
        masks = [(keys >> np.int64(self.ranks * s)) & span for s in range(self.suits)]
        # the key puts suit 0 lowest: the largest key under a renaming has the biggest set last
        kept = np.ones(len(boards), dtype=bool)
        for s in range(1, self.suits):
            kept &= masks[s - 1] <= masks[s]
        fixing = np.ones(int(kept.sum()), dtype=np.int64)
        run = np.ones_like(fixing)
        for s in range(1, self.suits):
            same = masks[s][kept] == masks[s - 1][kept]
            run = np.where(same, run + 1, 1)
            fixing *= run  # a run of r equal sets adds a factor r at its r-th member: r! in all
        return boards[kept], self.group // fixing

    def all_boards(self) -> tuple[np.ndarray, np.ndarray]:
        """Every kept board and its weight, chunk by chunk (small questions and tests)."""
        parts = [self.boards(chunk) for chunk in self.chunks()]
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def _identity_row(maps: np.ndarray) -> int:
    """The row of the identity renaming."""
    identity = np.arange(maps.shape[1])
    for g, row in enumerate(maps):
        if np.array_equal(row, identity):
            return g
    raise ValueError("the renamings must hold the identity")


@lru_cache(maxsize=64)
def _combinations(m: int, k: int) -> np.ndarray:
    """``combination_indices`` kept for reuse (the chunks ask for the same few again and again)."""
    found = combination_indices(m, k).astype(np.int64)
    found.setflags(write=False)
    return found
