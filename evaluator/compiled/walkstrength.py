"""Strengths of whole hands read from a ruleset's suit-class walk, for the rank-class step of a build.

``build_tables`` values every rank class of at most ``hand.size`` cards (a hand
spread over the suits, and its one-suited twin) through the generic evaluator.
A suit-class ruleset has just walked every suit class of those sizes
(:mod:`evaluator.compiled.suitvalues`), and each such hand *is* one of those
classes: its natural cards up to a renaming of suits (or not, when a pattern
names a suit), and its wild cards, which the walk takes as the first ``j``
jokers just as the build does. So its strength is looked up instead of played
again -- with a wild joker the build's fills try every card for it, which was
most of freak-hands' rank-class step.

A hand is looked up only when it is exactly such a class: every card in the
deck, the jokers wild and held as the walk holds them, no other card wild, and
every card played (no ``hand.best_subset`` choice among subsets). Anything else
is answered "not found" and played through the evaluator as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..rules.cards import Card
from .suitvalues import NO_HAND, REFUSED, SuitValues
from .table_layout import Strength, value_part

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

#: Most bits a class key may take (suit masks of one bit per rank, and the wild count).
KEY_BITS = 62
WILD_BITS = 4


class WalkStrengths:
    """The value part of each walked class's strength, by a key of its cards (see the module docstring)."""

    def __init__(self, ruleset: Rules, engine: Any, walks: Sequence[SuitValues]) -> None:
        self.ruleset = ruleset
        self.engine = engine
        self.suits = list(ruleset.suits)
        self.ranks = [rank for rank in ruleset.deck_ranks if rank not in ruleset.wild.ranks]
        self.rank_of = {rank: i for i, rank in enumerate(self.ranks)}
        self.deck = set(ruleset.deck)
        self.jokers = [Card.joker(n + 1) for n in range(ruleset.jokers)]  # as the walk and the build hold them
        self.names_matter: bool = engine.flush_needs_suit
        self.usable = (
            not ruleset.best_subset
            and ruleset.copies == 1
            and len(self.ranks) * len(self.suits) + WILD_BITS <= KEY_BITS
            and (ruleset.jokers == 0 or ruleset.wild.jokers)
        )
        self.found: dict[int, Strength | None] = {}
        if self.usable:
            for walk in walks:
                self._add(walk)

    def _add(self, walk: SuitValues) -> None:
        """Key every class of ``walk`` (vectorised: a walk has up to 150,891 classes)."""
        rank_of = self.rank_of
        suit_of = {suit: i for i, suit in enumerate(self.suits)}
        deck = walk.deck
        natural = np.array([c.rank in rank_of and c.suit in suit_of for c in deck], dtype=bool)
        joker = np.array([c.is_joker for c in deck], dtype=bool)
        bit = np.array([1 << rank_of.get(c.rank or "", 0) for c in deck], dtype=np.int64) * natural
        suit = np.where(natural, np.array([suit_of.get(c.suit or "", -1) for c in deck], dtype=np.int64), -1)
        held = walk.held
        masks = np.zeros((len(held), len(self.suits)), dtype=np.int64)
        jokers = np.zeros(len(held), dtype=np.int64)
        others = np.zeros(len(held), dtype=bool)  # a wild card of a wild rank: not how the build holds wilds
        for column in held.T:
            for s in range(len(self.suits)):
                masks[:, s] += np.where(suit[column] == s, bit[column], 0)
            jokers += joker[column]
            others |= ~natural[column] & ~joker[column]
        keys = self._keys(masks, jokers)[~others]
        outcome = walk.outcome[~others]
        strengths = [value_part(o.strength) for o in walk.outcomes]
        for key, index in zip(keys.tolist(), outcome.tolist(), strict=True):
            if index != REFUSED:
                self.found[key] = None if index == NO_HAND else strengths[index]

    def _keys(self, masks: np.ndarray, jokers: np.ndarray) -> np.ndarray:
        """One number per class: its suits' rank masks (sorted, when suits are interchangeable), then its jokers."""
        if not self.names_matter:
            masks = -np.sort(-masks, axis=1)
        width = len(self.ranks)
        keys = jokers.astype(np.int64)
        for s in range(masks.shape[1]):
            keys = (keys << np.int64(width)) | masks[:, s]
        return keys

    def strength(self, naturals: Sequence[Card], wilds: Sequence[Card]) -> tuple[bool, Strength | None]:
        """(found, the value part of the strength) of ``naturals`` and wild jokers ``wilds``,
        as the walk valued them; (False, None) when the hand is not a walked class."""
        if not self.usable or list(wilds) != self.jokers[: len(wilds)]:  # (more wilds than jokers differ too)
            return False, None
        if any(card not in self.deck for card in naturals):
            return False, None
        cards = [*naturals, *wilds]
        if self.engine.wild_mask(cards) != [False] * len(naturals) + [True] * len(wilds):
            return False, None
        # the key of _keys, in plain ints (one hand: NumPy's calls would cost more than the work)
        masks = [0] * len(self.suits)
        for card in naturals:
            masks[self.suits.index(card.suit or "")] |= 1 << self.rank_of[card.rank or ""]
        if not self.names_matter:
            masks.sort(reverse=True)
        key = len(wilds)
        for mask in masks:
            key = (key << len(self.ranks)) | mask
        if key not in self.found:
            return False, None
        return True, self.found[key]
