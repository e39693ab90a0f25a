"""What suits decide in the generic evaluator (:class:`~evaluator.engine.evaluate.Engine`).

- Wild cards filled with concrete cards, for patterns that read suits within the
  hand (a four flush, a suit named): each choice of natural cards is tried, high
  first, and the best kept (rank choices suffice otherwise: ``wildfill.py``).
- The suit tie-break key (``suits: tiebreak``), compared after every other part
  of a hand's strength.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Protocol

from .fill import Classification, score_of
from .wildfill import FillEngine, whole_hand_allows

if TYPE_CHECKING:
    from ..rules.cards import Card
    from .fill import Score


class SuitEngine(FillEngine, Protocol):
    """What these read of the generic evaluator (``evaluate.Engine``) besides what the rank fill does."""

    @property
    def suit_rank(self) -> dict[str, int]: ...
    @property
    def flush_needs_suit(self) -> bool: ...
    @property
    def reads_wilds(self) -> bool: ...
    @property
    def wild_choices(self) -> dict[tuple[Card, ...], Card] | None: ...
    @property
    def choice_deck(self) -> tuple[Card, ...]: ...
    def classify_cards(self, cards: Sequence[Card], wilds: int) -> Classification | None: ...
    def score_cards(self, cards: Sequence[Card], wilds: int) -> Score | None: ...


def choose_suited(
    engine: SuitEngine, naturals: tuple[Card, ...], wild_count: int
) -> tuple[tuple[Card, ...], Classification] | None:
    """The best concrete cards for ``wild_count`` wild cards joining ``naturals``, and the
    classification they make (None: no choice plays); the engine memoises it per holding."""
    rules = engine.ruleset
    hinted = engine.wild_choices.get(naturals) if engine.wild_choices is not None and wild_count == 1 else None
    # a choice worked out in bulk is the one this loop finds: only it is played
    deck = list(engine.choice_deck) if hinted is None else [hinted]
    allowed = None
    if rules.wild.plays_as_ranks is not None:
        allowed = frozenset(rules.wild.plays_as_ranks)
    held = Counter(naturals) if not rules.wild.duplicates else None
    if not engine.flush_needs_suit:
        # suits no natural card holds are interchangeable: n wild cards need at most n of them
        # (one is not enough: two wilds in two free suits make a hand of more suits)
        free = [suit for suit in engine.suit_preference if suit not in {card.suit for card in naturals}]
        deck = [card for card in deck if card.suit not in free[wild_count:]]
    best: tuple[Card, ...] | None = None
    best_key: Score | None = None
    best_found: Classification | None = None  # the best's classification, when it was made
    # no pattern reads how many wild cards play: each choice is scored (and kept) as the
    # natural hand it makes, once, and only the best is told its wild cards; a lone choice
    # is classified at once (it is the best, if it plays)
    counted = wild_count if engine.reads_wilds else 0
    for choice in combinations_with_replacement(deck, wild_count):
        restricted = allowed is not None and any(card.rank not in allowed for card in choice)
        if restricted and rules.wild.plays_as_hands is None:
            continue
        cards = list(naturals) + list(choice)
        if held is not None and any(held[card] + choice.count(card) > rules.copies for card in choice):
            five_of_a_kind = len(cards) >= 5 and len({card.rank for card in cards}) == 1
            if not five_of_a_kind:
                continue
        found = None
        if restricted or hinted is not None:
            found = engine.classify_cards(cards, counted)
            # a restricted wild card: the whole hand must be one the wild card may make
            allows = found is not None and (not restricted or whole_hand_allows(rules, found))
            key = score_of(found) if allows else None
        else:
            key = engine.score_cards(cards, counted)
        if key is not None and (best_key is None or key > best_key):
            best, best_key, best_found = choice, key, found
    if best is None:
        return None
    found = best_found or engine.classify_cards(list(naturals) + list(best), counted)
    assert found is not None  # it was scored
    if counted != wild_count:
        found = replace(found, hand_class=replace(found.hand_class, wilds=wild_count))
    return best, found


def suit_key(engine: SuitEngine, played: Sequence[Card], classification: Classification) -> tuple[int, ...]:
    """The suit tie-break of a hand: the suit ranks of its cards, high cards first (the paired or
    unpaired rank first when the tie-break says so); compared after everything else."""
    ordered = sorted(
        played,
        key=lambda c: (engine.value_of[c.rank or "A"], engine.suit_rank[c.suit or engine.suit_preference[0]]),
        reverse=True,
    )
    first: list[Card] = []
    method = engine.ruleset.tiebreak
    groups = classification.hand_class.groups
    if method == "highest_paired":
        paired = [rank for count, rank in groups if count >= 2]
        if paired:
            first = [c for c in ordered if engine.value_of[c.rank or "A"] == paired[0]]
    elif method == "highest_unpaired":
        single = [rank for count, rank in groups if count == 1]
        if single:
            first = [c for c in ordered if engine.value_of[c.rank or "A"] == max(single)]
    rest = [c for c in ordered if c not in first]
    return tuple(engine.suit_rank[c.suit or engine.suit_preference[0]] for c in first + rest)
