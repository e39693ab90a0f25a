"""Every suit class of a ruleset valued once: what the coverage lint, the counter and the tables share.

Rulesets whose patterns read suits within the hand (``flush(k)``, ``run(k, flush)``,
``suits``, ``hand.best_subset``) are walked by suit class (``suitclasses.py``):
150,891 holdings for five cards of 52 and a wild joker, each played through the
generic evaluator. The lint of ``check``, the exact counter of ``stats`` and
``diff`` and the suit tables all need the same answers, so the walk is done once
per ruleset and holding size and its result kept as arrays (:class:`SuitValues`),
in memory and in the signed disk cache (``suitvalue_cache.py``).

A class's answer is an *outcome*: the category, whether it qualifies, its value
and strength and how many wild cards play. Distinct outcomes are few (thousands),
so each class stores the index of its outcome, the cards it holds and the cards
its best hand plays as (natural cards, then what each wild card stands for).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..core.collector import collector_paused
from ..core.errors import PokerRulesError
from ..engine.evaluate import engine_for
from ..engine.fill import Score, score_of
from ..rules.cards import Card
from . import suitchoice
from .counts import deal_count
from .suitclasses import RankSet, holdings_by_sets, require_supported, sets_class_key

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

#: Outcome index of a holding that plays no hand.
NO_HAND = -1
#: Outcome index of a holding the evaluator refuses (too many wild cards to fill).
REFUSED = -2

Strength = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Outcome:
    """What the best hand of a class is: category (index in ``order``), whether it
    qualifies, its value, its strength (as ``Fill.strength``) and how many wild cards play."""

    category: int
    qualifies: bool
    value: tuple[int, ...]
    strength: Strength
    wilds: int


@dataclass(eq=False)
class SuitValues:
    """Every ``cards``-card holding up to a renaming of suits, in the order of
    :func:`~evaluator.compiled.suitclasses.holdings`, with its best hand.

    ``held[i]`` and ``played[i]`` index ``deck`` (``played`` padded with -1);
    ``outcome[i]`` indexes ``outcomes`` (or is :data:`NO_HAND` / :data:`REFUSED`);
    ``weights[i]`` is the number of deals the class stands for. ``refused`` is
    the evaluator's message for the first refused class ("" when none is).
    """

    cards: int
    deck: list[Card]
    held: np.ndarray
    weights: np.ndarray
    outcome: np.ndarray
    played: np.ndarray
    outcomes: list[Outcome]
    refused: str = ""
    from_cache: bool = False

    def holding(self, index: int) -> list[Card]:
        """The cards of class ``index``, as :func:`holdings` yields them."""
        return [self.deck[i] for i in self.held[index].tolist()]

    def played_cards(self, index: int) -> list[Card]:
        """What class ``index``'s best hand plays as: its natural cards, then each wild card's choice."""
        return [self.deck[i] for i in self.played[index].tolist() if i >= 0]

    def first_refused(self) -> int:
        """The index of the first refused class, or the number of classes when none is."""
        found = np.flatnonzero(self.outcome == REFUSED)
        return int(found[0]) if len(found) else len(self.outcome)

    def arrays(self) -> dict[str, np.ndarray]:
        """The arrays to cache (:func:`from_arrays` reads them back)."""
        return {
            "cards": np.array([self.cards], dtype=np.int64),
            "deck": _text_array(json.dumps([[c.rank, c.suit, c.joker_number] for c in self.deck])),
            "held": self.held,
            "weights": self.weights,
            "outcome": self.outcome,
            "played": self.played,
            "outcomes": _flatten(self.outcomes),
            "refused": _text_array(self.refused),
        }


def value_classes(ruleset: Rules, cards: int, progress: Callable[[float], None] | None = None) -> SuitValues:
    """Play every ``cards``-card suit class of ``ruleset`` through the generic evaluator, once.

    Raises:
        CardError: C105 when the deals cannot be enumerated by suit class.
    """
    require_supported(ruleset, cards)
    walk = _Walk(ruleset, cards)
    engine = walk.engine
    deals = deal_count(ruleset, cards)
    seen = 0
    # each holding played whole: every class is classified once, so the engine's memo would
    # only hold them all (a few hundred MB); with wild cards the choices look up the natural
    # hands they make, kept as scores only -- unless every choice is made in bulk (one joker)
    engine.memo_classes = ruleset.best_subset or cards > ruleset.hand_size
    looked_up = ruleset.wild.any and not (walk.bulk and ruleset.jokers == 1)
    engine.scores = {} if looked_up and not engine.memo_classes else None
    # the memos are dropped before the collector runs again: it would only traverse them
    with collector_paused():
        try:
            for held, weight, sets in holdings_by_sets(ruleset, cards):
                seen += weight
                walk.value(held, weight, sets)
                if progress is not None and len(walk.weights) % 2048 == 0:
                    progress(min(seen / deals, 0.99))
        finally:
            # the walk's memos: the largest part of a cold check's memory
            engine.forget_classes()
            engine.memo_classes, engine.scores = True, None
            engine.wild_choices = None
    if seen != deals:
        raise RuntimeError(f"internal error: valued {seen} deals of {deals}")
    if progress is not None:
        progress(1.0)
    return walk.values()


class _Walk:
    """The rows of :class:`SuitValues` as the holdings are valued one by one."""

    def __init__(self, ruleset: Rules, cards: int) -> None:
        self.ruleset = ruleset
        self.cards = cards
        self.engine = engine_for(ruleset)
        self.names = list(ruleset.category_names)
        self.deck: dict[Card, int] = {card: i for i, card in enumerate(dict.fromkeys(ruleset.deck))}
        # the same few Card objects come back class after class: looked up by identity first (a
        # card's hash is a Python call), each kept alive so that its id stays its own
        self.by_id: dict[int, int] = {}
        self.seen: list[Card] = []
        # rows of card indices laid end to end (the played ones padded with -1): a few long lists
        # of small ints, not a list per class for the cycle collector to walk afterwards
        self.held_flat: list[int] = []
        self.played_flat: list[int] = []
        self.weights: list[int] = []
        self.found: list[int] = []
        self.outcomes: dict[Outcome, int] = {}
        self.refused = ""
        # the natural classes come first; the one-wild choices are then made in bulk from their scores
        self.bulk = suitchoice.applies(ruleset, self.engine, cards)
        self.natural_scores: list[Score | None] = []
        # a holding of no wild card played whole: its one fill, without best()'s masks and subsets
        self.whole_natural = self.engine.needs_suits and not ruleset.best_subset and cards <= ruleset.hand_size
        self.outcome_index: dict[tuple[object, ...], int] = {}

    def value(self, held: list[Card], weight: int, sets: tuple[RankSet, ...] | None) -> None:
        """Value one holding standing for ``weight`` deals (``sets``: its rank sets by suit when it
        holds natural cards only)."""
        engine = self.engine
        collecting = self.bulk and engine.wild_choices is None
        if collecting and sets is None and any(card.is_joker for card in held):
            self._choose_in_bulk()
            collecting = False
        self.weights.append(weight)
        row = self._indices(held)
        self.held_flat.extend(row)
        try:
            if self.whole_natural and sets is not None:
                fill, whole = engine.natural_fill(held, sets_class_key(engine, held, sets)), True
            else:
                fill, whole = engine.best(held, engine.candidates(held)), False
        except PokerRulesError as problem:
            self.refused = self.refused or problem.first.message
            self.bulk = self.bulk and not collecting  # a natural class without a score: no bulk choice
            self._record(REFUSED, [])
            return
        if collecting:
            self.natural_scores.append(None if fill is None else score_of(fill.classification))
        if fill is None:
            self._record(NO_HAND, [])
            return
        classification = fill.classification
        # outcomes repeat class after class: looked up by a plain tuple, made once
        key = (
            classification.category.name,
            classification.qualifies,
            classification.value,
            fill.strength,
            len(fill.wilds),
        )
        index = self.outcome_index.get(key)
        if index is None:
            outcome = Outcome(
                self.names.index(classification.category.name),
                classification.qualifies,
                tuple(classification.value),
                tuple(tuple(part) for part in fill.strength),
                len(fill.wilds),
            )
            index = self.outcome_index[key] = self.outcomes.setdefault(outcome, len(self.outcomes))
        # a whole natural holding plays its own cards, in its own order
        self._record(index, row if whole else self._indices([*fill.naturals, *fill.played]))

    def _record(self, outcome: int, indices: list[int]) -> None:
        """File a holding's outcome and the deck indices of the cards it plays."""
        self.found.append(outcome)
        self.played_flat.extend(indices)
        self.played_flat.extend([-1] * (self.cards - len(indices)))

    def _indices(self, cards: list[Card]) -> list[int]:
        """Each card's index in the walk's deck (a card first seen is added to it)."""
        by_id = self.by_id
        found = [by_id.get(id(card), -1) for card in cards]
        if -1 in found:
            for position, card in enumerate(cards):
                if found[position] < 0:
                    found[position] = by_id[id(card)] = self.deck.setdefault(card, len(self.deck))
                    self.seen.append(card)
        return found

    def _choose_in_bulk(self) -> None:
        scores = self.natural_scores
        naturals = np.array(self.held_flat[: len(scores) * self.cards], dtype=np.int64).reshape(-1, self.cards)
        self.engine.wild_choices = suitchoice.one_wild_choices(
            self.ruleset, self.engine, list(self.deck), naturals, scores
        )
        self.natural_scores = []  # read once

    def values(self) -> SuitValues:
        """What was valued, as arrays."""
        cards = self.cards
        return SuitValues(
            cards,
            list(self.deck),
            np.array(self.held_flat, dtype=np.int16).reshape(-1, cards),
            np.array(self.weights, dtype=np.int64),
            np.array(self.found, dtype=np.int32),
            np.array(self.played_flat, dtype=np.int16).reshape(-1, cards),
            list(self.outcomes),
            self.refused,
        )


def from_arrays(ruleset: Rules, arrays: dict[str, np.ndarray]) -> SuitValues:
    """:class:`SuitValues` back from :meth:`SuitValues.arrays`, checked for consistency.

    Raises:
        ValueError: when the arrays do not describe every deal of the ruleset.
    """
    cards = int(arrays["cards"][0])
    deck = [Card(rank, suit, number) for rank, suit, number in json.loads(_text(arrays["deck"]))]
    outcomes = _unflatten(arrays["outcomes"])
    values = SuitValues(
        cards,
        deck,
        arrays["held"],
        arrays["weights"],
        arrays["outcome"],
        arrays["played"],
        outcomes,
        _text(arrays["refused"]),
        from_cache=True,
    )
    count = len(values.weights)
    if values.held.shape != (count, cards) or values.played.shape != (count, cards) or values.outcome.shape != (count,):
        raise ValueError("suit values: shapes")
    if values.weights.dtype != np.int64 or int(values.weights.sum()) != deal_count(ruleset, cards):
        raise ValueError("suit values: weights")
    if count and (values.held.min() < 0 or values.held.max() >= len(deck) or values.played.max() >= len(deck)):
        raise ValueError("suit values: cards")
    if count and (values.outcome.min() < REFUSED or values.outcome.max() >= len(outcomes)):
        raise ValueError("suit values: outcomes")
    if any(not 0 <= o.category < len(ruleset.category_names) for o in outcomes):
        raise ValueError("suit values: categories")
    return values


def _text_array(text: str) -> np.ndarray:
    array: np.ndarray = np.frombuffer(text.encode("utf-8"), dtype=np.uint8).copy()
    return array


def _text(array: np.ndarray) -> str:
    if array.dtype != np.uint8 or array.ndim != 1:
        raise ValueError("suit values: text")
    return bytes(array.tolist()).decode("utf-8")


def _flatten(outcomes: list[Outcome]) -> np.ndarray:
    """Outcomes as one int array: category, qualifies, wilds, the value, then the strength's parts."""
    flat: list[int] = [len(outcomes)]
    for o in outcomes:
        flat += [o.category, int(o.qualifies), o.wilds, len(o.value), *o.value, len(o.strength)]
        for part in o.strength:
            flat += [len(part), *part]
    return np.array(flat, dtype=np.int64)


def _unflatten(array: np.ndarray) -> list[Outcome]:
    items = array.tolist()
    at = 1

    def take(n: int) -> tuple[int, ...]:
        nonlocal at
        if n < 0 or at + n > len(items):
            raise ValueError("suit values: truncated outcomes")
        part = tuple(items[at : at + n])
        at += n
        return part

    out: list[Outcome] = []
    for _ in range(items[0] if items else 0):
        category, qualifies, wilds, length = take(4)
        value = take(length)
        strength = tuple(take(take(1)[0]) for _ in range(take(1)[0]))
        out.append(Outcome(category, bool(qualifies), value, strength, wilds))
    if at != len(items):
        raise ValueError("suit values: trailing data")
    return out
