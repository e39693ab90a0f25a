"""Wild cards filled by rank choice: the wilds of a hand take every multiset of ranks, each with
the flush / no-flush options the natural cards allow, and the best-scoring legal class wins;
only the winner is given concrete cards (the flush suit, else the highest suit free).

The generic evaluator (:class:`~evaluator.engine.evaluate.Engine`) memoises :func:`choose_wild`
per natural class. Patterns that read suits inside the hand fill wild cards with concrete
cards instead (:func:`~evaluator.engine.suited.choose_suited`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Protocol

from ..rules.cards import Card
from .fill import Classification

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

WildChoice = tuple[tuple[int, ...], str | None, Classification]  # wild ranks, flush suit, classification


class FillEngine(Protocol):
    """What the fill reads of the generic evaluator (``evaluate.Engine``)."""

    @property
    def ruleset(self) -> Rules: ...
    @property
    def rank_count(self) -> int: ...
    @property
    def size(self) -> int: ...
    @property
    def value_of(self) -> dict[str, int]: ...
    @property
    def suit_preference(self) -> tuple[str, ...]: ...
    @property
    def classify(self) -> Callable[..., Classification | None]: ...


def choose_wild(
    engine: FillEngine, values: tuple[int, ...], flush_candidate: str | None, wild_count: int
) -> WildChoice | None:
    """The best legal (wild ranks, flush suit, classification) of a natural class."""
    best: WildChoice | None = None
    best_key: tuple[bool, tuple[int, ...]] | None = None
    for option in wild_options(engine, values, flush_candidate, wild_count):
        classification = option[2]
        # ranked as Fill.strength ranks them: a qualifying hand first, then the score
        key = (classification.qualifies, classification.score)
        if best_key is None or key > best_key:
            best, best_key = option, key
    return best


def wild_options(
    engine: FillEngine, values: tuple[int, ...], flush_candidate: str | None, wild_count: int
) -> Iterator[WildChoice]:
    """Every legal (wild ranks, flush suit, classification) for ``wild_count``
    wilds joining natural ranks ``values`` (high to low).

    A wild stands for a card not already held, or makes five of a kind (all
    the cards of one rank); with ``duplicates`` it may stand for any card.
    Each rank multiset is tried without a flush and, when the naturals share
    one suit (``flush_candidate``), as a flush. A restricted wild (the bug)
    plays outside ``plays_as.ranks`` only when the whole hand matches
    ``plays_as.hands``.
    """
    rules = engine.ruleset.wild
    copies = engine.ruleset.copies
    held = Counter(values)
    # how many more cards of a rank the wilds can be without duplicating one held:
    # in some suit, and in the flush suit
    any_room = [len(engine.ruleset.suits) * copies - held[value] for value in range(engine.rank_count)]
    flush_room = [copies - held[value] for value in range(engine.rank_count)]
    full_hand = len(values) + wild_count == engine.size
    # with two suits or more the wilds can always avoid making a flush
    unsuited = len(engine.ruleset.suits) > 1 or not full_hand
    suited = full_hand and flush_candidate is not None
    allowed = None
    if rules.plays_as_ranks is not None:
        allowed = frozenset(engine.value_of[rank] for rank in rules.plays_as_ranks if rank in engine.value_of)
    hands = rules.plays_as_hands
    classify = engine.classify
    natural = list(values)
    for choice in combinations_with_replacement(range(engine.rank_count - 1, -1, -1), wild_count):
        restricted = allowed is not None and not allowed.issuperset(choice)
        if restricted and hands is None:
            continue
        ranks = tuple(sorted(natural + list(choice), reverse=True))
        fits_any = fits_flush = True
        if not rules.duplicates:
            previous, times = -1, 0
            for value in choice:  # high to low: equal ranks are adjacent
                times = times + 1 if value == previous else 1
                previous = value
                fits_any = fits_any and times <= any_room[value]
                fits_flush = fits_flush and times <= flush_room[value]
        five_of_a_kind = len(ranks) >= 5 and ranks[0] == ranks[-1]
        if unsuited and (fits_any or five_of_a_kind):
            found = classify(ranks, None, wild_count)
            if found is not None and (not restricted or whole_hand_allows(engine.ruleset, found)):
                yield choice, None, found
        if suited and fits_flush:
            found = classify(ranks, flush_candidate, wild_count)
            if found is not None and (not restricted or whole_hand_allows(engine.ruleset, found)):
                yield choice, flush_candidate, found


def whole_hand_allows(ruleset: Rules, classification: Classification) -> bool:
    """Whether the hand matches ``wild.plays_as.hands`` (a restricted wild may then be anything)."""
    hands = ruleset.wild.plays_as_hands
    if hands is None:
        return False
    view = replace(classification.hand_class, category=classification.category.strength)
    return hands.matcher(view, {}) is not None


def concrete(
    engine: FillEngine, naturals: Sequence[Card], choice: tuple[int, ...], flush_suit: str | None
) -> list[Card]:
    """Give each wild rank a concrete card: the flush suit, else the highest suit free.

    Five of a kind has no free suit left for its fifth card: it duplicates the
    highest suit.
    """
    used = Counter(naturals)
    copies = engine.ruleset.copies
    played: list[Card] = []
    for value in choice:
        symbol = engine.ruleset.rank_symbols[value]
        if flush_suit is not None:
            card = Card(symbol, flush_suit)
        else:
            free = [s for s in engine.suit_preference if used[Card(symbol, s)] < copies]
            card = Card(symbol, free[0] if free else engine.suit_preference[0])
        used[card] += 1
        played.append(card)
    if flush_suit is None and played and len(naturals) + len(played) == engine.size:
        suits = {card.suit for card in list(naturals) + played}
        if len(suits) == 1 and len(engine.suit_preference) > 1:
            # the wilds chose not to make a flush: move one of them to another suit
            last = played[-1]
            for suit in engine.suit_preference:
                if suit != last.suit and used[Card(last.rank, suit)] < copies:
                    played[-1] = Card(last.rank, suit)
                    break
    return played
