"""Hands up to a renaming of suits: the classes of rulesets whose patterns look at suits within the hand.

Most patterns see a hand's ranks and whether the whole hand is one suit, which is
what the counting and table compilers enumerate (see ``counting.py``). ``flush(k)``,
``run(k, flush)`` and ``suits`` see more: which cards share a suit. For such
rulesets a class is the set of natural cards *up to a permutation of the suits*:
each suit holds a set of ranks, and two hands whose suits hold the same sets in
some order play alike (unless a pattern names a suit, ``suit = h``; then suits
are not interchangeable and every assignment is its own class).

Five cards of 52 fall into 134,459 such classes (against 2,598,960 hands), so a
whole five-card deal is valued class by class through the generic evaluator.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations, permutations
from math import comb, factorial
from typing import TYPE_CHECKING, NamedTuple

from ..core.errors import CardError, error
from ..engine.evaluate import ClassKey, Engine, engine_for
from ..rules.cards import Card

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

#: The most natural cards a class enumeration takes (beyond it the classes run into millions).
MAX_SUITED_CARDS = 6


def symmetric(ruleset: Rules) -> bool:
    """True when suit classes describe the deck: one pack, every suit holding the same natural ranks.

    Wild cards that are single cards (the one-eyed jacks) break the symmetry.
    """
    return ruleset.copies == 1 and not any(not card.is_joker for card in ruleset.wild.cards)


def natural_ranks(ruleset: Rules) -> tuple[str, ...]:
    """The deck's ranks whose cards are not wild, high first."""
    wild = ruleset.wild.ranks
    return tuple(rank for rank in reversed(ruleset.rank_symbols) if rank in ruleset.deck_ranks and rank not in wild)


class RankSet(NamedTuple):
    """The ranks one suit holds in a class, with what a walk reads of them, made once per set."""

    symbols: tuple[str, ...]  # high first
    values: tuple[int, ...]  # the evaluator's rank values, high first
    cards: tuple[tuple[Card, ...], ...]  # the set's cards in each suit of the deck, by suit index


def suit_classes(ruleset: Rules, cards: int, names_matter: bool) -> Iterator[tuple[list[Card], int]]:
    """Every set of ``cards`` natural cards up to a renaming of suits, with how many sets it stands for.

    With ``names_matter`` each assignment of the rank sets to suits is yielded on
    its own (weight 1 per distinct assignment). The weights add up to
    ``C(natural cards, cards)``:

    >>> from evaluator.ruleset import load
    >>> sum(weight for _, weight in suit_classes(load("standard"), 3, False))
    22100
    """
    for sets, weight in class_sets(ruleset, cards, names_matter):
        yield held_cards(sets), weight


def class_sets(ruleset: Rules, cards: int, names_matter: bool) -> Iterator[tuple[tuple[RankSet, ...], int]]:
    """:func:`suit_classes` as the rank set of each suit (the ``i``-th set is held in the deck's
    ``i``-th suit; with ``names_matter`` every suit has one, empty or not)."""
    ranks = natural_ranks(ruleset)
    suits = tuple(ruleset.suits)
    # one Card object per card, reused: the walks that follow look cards up by the thousand
    card_of = {(rank, suit): Card(rank, suit) for rank in ranks for suit in suits}
    value_of = {symbol: value for value, symbol in enumerate(ruleset.rank_symbols)}
    made: dict[tuple[str, ...], RankSet] = {}

    def rank_set(symbols: tuple[str, ...]) -> RankSet:
        found = made.get(symbols)
        if found is None:
            values = tuple(sorted((value_of[rank] for rank in symbols), reverse=True))
            held = tuple(tuple(card_of[rank, suit] for rank in symbols) for suit in suits)
            found = made[symbols] = RankSet(symbols, values, held)
        return found

    # the ways to give a class's sets suits: the arrangements of that many suits, divided by the
    # factorial of each run of equal sets (equal sizes come in non-increasing order: neighbours)
    arrangements = [factorial(len(suits)) // factorial(len(suits) - used) for used in range(len(suits) + 1)]
    for sizes in _partitions(cards, len(suits), min(cards, len(ranks))):
        for sets, repeats, _ in _rank_sets(ranks, sizes, rank_set):
            if names_matter:
                empty = rank_set(())
                for order in dict.fromkeys(permutations(sets + (empty,) * (len(suits) - len(sets)))):
                    yield order, 1
            else:
                yield sets, arrangements[len(sets)] // repeats


def held_cards(sets: tuple[RankSet, ...]) -> list[Card]:
    """The cards of a class given as :func:`class_sets` does, suit by suit."""
    held: list[Card] = []
    for suit, rank_set in enumerate(sets):
        held += rank_set.cards[suit]
    return held


def sets_class_key(engine: Engine, held: list[Card], sets: tuple[RankSet, ...]) -> ClassKey:
    """The engine's :meth:`~.Engine.class_key` of a natural class, read from its rank sets (what a
    walk would otherwise work out card by card)."""
    ranks = tuple(sorted([value for rank_set in sets for value in rank_set.values], reverse=True))
    suited = engine.suited_from(zip(engine.ruleset.suits, [rank_set.values for rank_set in sets], strict=False))
    flush_suit = held[0].suit if len(held) == engine.size and len(suited) == 1 else None
    return ranks, flush_suit, 0, suited


def class_count(ruleset: Rules, cards: int) -> int:
    """How many natural card sets :func:`suit_classes` covers (``C(natural cards, cards)``)."""
    return comb(len(natural_ranks(ruleset)) * len(ruleset.suits), cards)


def _partitions(total: int, parts: int, largest: int) -> Iterator[tuple[int, ...]]:
    """Every way of writing ``total`` as at most ``parts`` positive sizes, largest first."""
    if total == 0:
        yield ()
        return
    if parts == 0:
        return
    for first in range(min(total, largest), 0, -1):
        for rest in _partitions(total - first, parts - 1, first):
            yield (first, *rest)


def _rank_sets(
    ranks: tuple[str, ...], sizes: tuple[int, ...], rank_set: Callable[[tuple[str, ...]], RankSet]
) -> Iterator[tuple[tuple[RankSet, ...], int, int]]:
    """One rank set per size; sets of equal size in non-increasing order (a renaming of suits).

    Each comes with the product of the factorials of its runs of equal sets, and the length of
    its first run (what that product grows by when a set equal to the first is put before it)."""
    if not sizes:
        yield (), 1, 0
        return
    first, rest = sizes[0], sizes[1:]
    tails = list(_rank_sets(ranks, rest, rank_set))  # the same for every first set: made once
    same_size = bool(rest) and rest[0] == first
    for chosen in combinations(ranks, first):
        made = rank_set(chosen)
        for tail, repeats, tail_run in tails:
            if same_size and tail[0].symbols > chosen:
                continue
            run = tail_run + 1 if tail and tail[0] is made else 1
            yield (made, *tail), repeats * run, run


def supported(ruleset: Rules, cards: int) -> str | None:
    """Why the deals of ``cards`` cards cannot be enumerated by suit class, or None when they can."""
    if not symmetric(ruleset):
        return "the suits are not interchangeable (several packs, or single wild cards such as the one-eyed jacks)"
    if ruleset.wild.lowest_rank:
        return "the lowest card held is wild"
    if cards > MAX_SUITED_CARDS:
        return f"patterns that look at suits within the hand are counted for at most {MAX_SUITED_CARDS} cards"
    return None


def require_supported(ruleset: Rules, cards: int) -> None:
    """Refuse a count by suit class that :func:`supported` says cannot be made.

    Raises:
        CardError: C105, with the reason.
    """
    why = supported(ruleset, cards)
    if why is not None:
        raise error(CardError, "C105", f"{ruleset.name}: {cards}-card deals cannot be counted: {why}", "<stats>")


def holdings(ruleset: Rules, cards: int) -> Iterator[tuple[list[Card], int]]:
    """Every ``cards``-card holding up to a renaming of suits, with its number of deals.

    Wild cards (wild jokers, every card of a wild rank) play alike, so a holding
    takes the first ``j`` of them; jokers that are not wild make a holding that
    cannot play (kept, so that the weights add up to every deal).
    """
    for held, weight, _ in holdings_by_sets(ruleset, cards):
        yield held, weight


def holdings_by_sets(ruleset: Rules, cards: int) -> Iterator[tuple[list[Card], int, tuple[RankSet, ...] | None]]:
    """:func:`holdings`, each with its rank sets by suit (see :func:`class_sets`) when it holds
    natural cards only (no joker, no card of a wild rank), else None."""
    jokers = [Card.joker(n) for n in range(1, ruleset.jokers + 1)]
    wild = [
        *(jokers if ruleset.wild.jokers else []),
        *(Card(rank, suit) for rank in ruleset.deck_ranks if rank in ruleset.wild.ranks for suit in ruleset.suits),
    ]
    dead = [] if ruleset.wild.jokers else jokers
    names_matter = engine_for(ruleset).flush_needs_suit
    for held_dead in range(min(len(dead), cards) + 1):
        for held_wild in range(min(len(wild), cards - held_dead) + 1):
            ways = comb(len(dead), held_dead) * comb(len(wild), held_wild)
            extra = dead[:held_dead] + wild[:held_wild]
            for sets, weight in class_sets(ruleset, cards - held_dead - held_wild, names_matter):
                yield held_cards(sets) + extra, ways * weight, None if extra else sets
