"""The deck as exact counting sees it: natural cards per rank, interchangeable suits,
rank multisets and how a rank multiset splits over the suits.

These are steps 2 and 3 of :mod:`evaluator.compiled.counting` (choosing the
natural rank multiset, then splitting it into suits with the number of ways
each split can be dealt); the valuing and the counter live there.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from math import comb, factorial, perm
from typing import TYPE_CHECKING

from ..engine.evaluate import engine_for
from ..rules.cards import Card
from ..rules.patterns import term_kinds

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

Ranks = tuple[int, ...]  # a rank multiset: deck rank indices, high to low
Signature = tuple[tuple[str, Ranks], ...]  # relevant suits: (representative suit, ranks held)


@dataclass(frozen=True, slots=True)
class DeckModel:
    """The deck as counting sees it: natural cards per rank, and the wild cards.

    ``groups`` lists interchangeable suits: suits with natural cards of the same
    ranks (each with its availability per rank), or every suit alone when a
    pattern mentions a suit.
    """

    ranks: tuple[str, ...]  # deck order, low -> high as written
    suits: tuple[str, ...]
    copies: int
    natural: tuple[tuple[str, ...], ...]  # per rank: the suits whose cards are not always wild
    wild_cards: int  # physical cards that are always wild
    dead_cards: int  # jokers that are not wild: they never play
    lowest_wild: bool
    groups: tuple[tuple[tuple[str, ...], tuple[bool, ...]], ...]

    def natural_cards(self, rank: int) -> int:
        """Physical natural cards of rank index ``rank`` (all packs)."""
        return self.copies * len(self.natural[rank])


# --- the deck ---------------------------------------------------------------------------


def suit_sensitive(ruleset: Rules) -> bool:
    """True when a pattern can tell one flush suit from another (``suit = h``)."""
    engine = engine_for(ruleset)
    qualifier = ruleset.qualifier
    return bool(engine.flush_needs_suit or (qualifier is not None and "suit" in term_kinds(qualifier.pattern)))


def deck_model(ruleset: Rules) -> DeckModel:
    """Split the deck into natural cards per rank and always-wild / dead cards.

    >>> from evaluator import load
    >>> model = deck_model(load("standard"))
    >>> model.natural[0], model.wild_cards, len(model.groups)
    (('s', 'h', 'd', 'c'), 0, 1)
    """
    wild = ruleset.wild
    natural: list[tuple[str, ...]] = []
    wild_cards = 0
    for rank in ruleset.deck_ranks:
        suits = tuple(s for s in ruleset.suits if rank not in wild.ranks and Card(rank, s) not in wild.cards)
        natural.append(suits)
        wild_cards += (len(ruleset.suits) - len(suits)) * ruleset.copies
    jokers_wild = sum(1 for n in range(1, ruleset.jokers + 1) if wild.jokers or Card.joker(n) in wild.cards)
    return DeckModel(
        ranks=tuple(ruleset.deck_ranks),
        suits=tuple(ruleset.suits),
        copies=ruleset.copies,
        natural=tuple(natural),
        wild_cards=wild_cards + jokers_wild,
        dead_cards=ruleset.jokers - jokers_wild,
        lowest_wild=wild.lowest_rank,
        groups=_suit_groups(ruleset.suits, natural, suit_sensitive(ruleset)),
    )


def _suit_groups(
    suits: Sequence[str], natural: Sequence[tuple[str, ...]], sensitive: bool
) -> tuple[tuple[tuple[str, ...], tuple[bool, ...]], ...]:
    """Group suits whose natural cards have the same ranks (each suit alone if ``sensitive``)."""
    groups: dict[object, list[str]] = {}
    profiles: dict[object, tuple[bool, ...]] = {}
    for suit in suits:
        profile = tuple(suit in available for available in natural)
        key: object = (suit, profile) if sensitive else profile
        groups.setdefault(key, []).append(suit)
        profiles[key] = profile
    return tuple((tuple(members), profiles[key]) for key, members in groups.items())


# --- multisets -------------------------------------------------------------------------
#
# A rank multiset is a tuple of deck rank indices (0 = the deck's lowest rank as
# written), sorted high to low: (12, 12, 3) is two aces and a five in a 52-card
# deck. itertools.combinations of such a tuple yields sorted sub-multisets, which
# keeps enumeration in C and keys short.


def tally(ranks: Ranks) -> list[tuple[int, int]]:
    """(rank, times held) of a rank multiset, in its order.

    >>> tally((12, 12, 3))
    [(12, 2), (3, 1)]
    """
    found: list[tuple[int, int]] = []
    for rank in ranks:
        if found and found[-1][0] == rank:
            found[-1] = (rank, found[-1][1] + 1)
        else:
            found.append((rank, 1))
    return found


def sub_multisets(ranks: Ranks, size: int) -> list[Ranks]:
    """Every sub-multiset of ``ranks`` with ``size`` cards, each once.

    >>> sub_multisets((5, 5, 2), 2)
    [(5, 5), (5, 2)]
    """
    return list(dict.fromkeys(combinations(ranks, size)))


def rank_multisets(caps: Sequence[int], size: int) -> Iterator[Ranks]:
    """Every rank multiset of ``size`` cards holding rank ``r`` at most ``caps[r]`` times.

    >>> list(rank_multisets([2, 1], 2))
    [(1, 0), (0, 0)]
    """
    usable = [rank for rank in range(len(caps) - 1, -1, -1) if caps[rank] > 0]
    limited = any(caps[rank] < size for rank in usable)
    for ranks in combinations_with_replacement(usable, size):
        if not limited or all(held <= caps[rank] for rank, held in tally(ranks)):
            yield ranks


def _minus(ranks: Ranks, taken: Ranks) -> Ranks:
    """``ranks`` without the cards of ``taken`` (a sub-multiset)."""
    rest = list(ranks)
    for rank in taken:
        rest.remove(rank)
    return tuple(rest)


def _contents(remaining: Ranks, profile: tuple[bool, ...], copies: int, minimum: int) -> list[Ranks]:
    """Rank multisets one suit can hold: at least ``minimum`` cards, ``copies`` per rank."""
    pool = tuple(rank for rank, held in tally(remaining) if profile[rank] for _ in range(min(copies, held)))
    found: list[Ranks] = []
    for size in range(minimum, len(pool) + 1):
        found.extend(combinations(pool, size) if copies == 1 else dict.fromkeys(combinations(pool, size)))
    return found


def _card_ways(content: Ranks, copies: int) -> int:
    """Ways to take the cards of ``content`` from one suit: ``prod C(copies, F[r])``."""
    if copies == 1:
        return 1
    ways = 1
    for _, held in tally(content):
        ways *= comb(copies, held)
    return ways


# --- splitting natural cards into suits --------------------------------------------------


def suit_signatures(ranks: Ranks, model: DeckModel, threshold: int) -> list[tuple[Signature, int]]:
    """Every relevant-suit signature of the natural cards ``ranks``, with its ways.

    A suit is relevant when it holds ``threshold`` natural cards or more. The
    signature lists each relevant suit's rank multiset (labelled by a
    representative suit of its group); the empty signature gets what is left.

    >>> from evaluator import load
    >>> model = deck_model(load("standard"))
    >>> [(len(sig), ways) for sig, ways in suit_signatures((12, 9, 7, 5, 3), model, 5)]
    [(1, 4), (0, 1020)]
    """
    total = 1
    for rank, held in tally(ranks):
        total *= comb(model.natural_cards(rank), held)
    if total == 0:
        return []
    if len(ranks) < threshold:
        return [((), total)]
    if 2 * threshold > len(ranks):
        found = _one_relevant_suit(ranks, model, threshold)
    else:
        found = _relevant_suits(ranks, model, threshold)
    rest = total - sum(ways for _, ways in found)
    if rest < 0:
        raise RuntimeError("internal error: suit signatures exceed the deals of a rank multiset")
    if rest:
        found.append(((), rest))
    return found


def _one_relevant_suit(ranks: Ranks, model: DeckModel, threshold: int) -> list[tuple[Signature, int]]:
    """The signatures when at most one suit can be relevant (the usual case, e.g. 7 cards).

    The cards outside the relevant suit are too few to make another suit
    relevant, so they spread freely: ``C(packs x other natural suits, left)`` per rank.
    """
    copies = model.copies
    held = tally(ranks)
    found: list[tuple[Signature, int]] = []
    for suits, profile in model.groups:
        # factor[i][f]: ways for rank held[i] when the relevant suit holds f of its cards
        factor = []
        for rank, count in held:
            others = copies * (len(model.natural[rank]) - (1 if profile[rank] else 0))
            factor.append([comb(copies, f) * comb(others, count - f) for f in range(min(copies, count) + 1)])
        for content in _contents(ranks, profile, copies, threshold):
            ways = len(suits)
            for (rank, _), choices in zip(held, factor, strict=False):
                ways *= choices[content.count(rank)]
                if not ways:
                    break
            if ways:
                found.append((((suits[0], content),), ways))
    return found


def _relevant_suits(ranks: Ranks, model: DeckModel, threshold: int) -> list[tuple[Signature, int]]:
    """The signatures in general: any number of relevant suits, the rest kept below ``threshold``."""
    found: list[tuple[Signature, int]] = []
    groups = model.groups
    used: list[int] = []

    def by_group(index: int, remaining: Ranks, chosen: list[tuple[str, Ranks]], factor: int) -> None:
        if index == len(groups):
            if chosen:
                rest = _spread(remaining, model, used, threshold)
                if rest:
                    found.append((tuple(sorted(chosen)), factor * rest))
            return
        suits, profile = groups[index]
        in_group: list[Ranks] = []

        def within(remaining: Ranks, factor: int) -> None:
            taken = len(in_group)
            multiplicity = perm(len(suits), taken)
            for content in set(in_group) if taken > 1 else ():
                multiplicity //= factorial(in_group.count(content))
            used.append(taken)
            by_group(
                index + 1, remaining, chosen + [(suits[0], content) for content in in_group], factor * multiplicity
            )
            used.pop()
            if taken == len(suits) or len(remaining) < threshold:
                return
            for content in _contents(remaining, profile, model.copies, threshold):
                if in_group and content > in_group[-1]:
                    continue  # a group's contents in non-increasing order: each set of contents once
                in_group.append(content)
                within(_minus(remaining, content), factor * _card_ways(content, model.copies))
                in_group.pop()

        within(remaining, factor)

    by_group(0, ranks, [], 1)
    return found


def _spread(remaining: Ranks, model: DeckModel, used: Sequence[int], threshold: int) -> int:
    """Ways to put ``remaining`` natural cards in the suits not relevant, none reaching ``threshold``."""
    slots = [
        profile for (suits, profile), taken in zip(model.groups, used, strict=False) for _ in range(len(suits) - taken)
    ]
    copies = model.copies
    if len(remaining) < threshold:
        ways = 1
        for rank, held in tally(remaining):
            ways *= comb(copies * sum(1 for profile in slots if profile[rank]), held)
        return ways
    states: dict[tuple[int, ...], int] = {tuple(0 for _ in slots): 1}
    for rank, held in tally(remaining):
        open_slots = [j for j, profile in enumerate(slots) if profile[rank]]
        following: dict[tuple[int, ...], int] = defaultdict(int)
        for state, ways in states.items():
            for allocation, how in _allocations(held, open_slots, copies):
                counts = list(state)
                for slot, put in allocation:
                    counts[slot] += put
                if all(counts[slot] < threshold for slot, _ in allocation):
                    following[tuple(counts)] += ways * how
        states = following
    return sum(states.values())


def _allocations(cards: int, slots: Sequence[int], copies: int) -> Iterator[tuple[list[tuple[int, int]], int]]:
    """Ways to put ``cards`` cards of one rank in ``slots`` (suits), at most ``copies`` each."""
    if not slots:
        if cards == 0:
            yield [], 1
        return
    first, rest = slots[0], slots[1:]
    for put in range(min(copies, cards), -1, -1):
        for allocation, how in _allocations(cards - put, rest, copies):
            yield ([(first, put)] + allocation if put else allocation), how * comb(copies, put)
