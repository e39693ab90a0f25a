"""Exact counting of every k-card deal of a ruleset's deck, by category, without visiting each deal.

A deal is an unordered set of ``k`` physical cards from the deck (all packs, jokers
included), so a ruleset with two packs has ``C(104, k)`` deals and holding the ace
of spades twice can happen in ``C(2, 2) = 1`` way. The counts here are exact
integers; nothing is sampled.

What decides a deal's value
---------------------------
The generic evaluator only ever asks of a set of cards (``Engine.fill``): the rank
multiset of its natural cards, how many wild cards it holds, and whether its
natural cards all share one suit (and which, when a pattern mentions a suit).
A holding of more than ``hand.size`` cards plays its best ``hand.size`` subset
(``Engine.best``), and a subset can only be one-suited in a suit of the holding
that has at least ``hand.size - wilds`` natural cards -- a *relevant* suit. So the
value of a holding is a function of its **class**::

    (natural rank multiset, number of wild cards, {relevant suit: its rank multiset})

For five cards of one pack this is the familiar (rank multiset, flush or not); for
seven cards it is (rank multiset, the ranks of the suit holding five or more).
Suits with the same natural cards are interchangeable unless a pattern mentions a
suit (``suit = h``), so the relevant suits are kept by content only.

Counting a class
----------------
Classes are enumerated with their multiplicity, never their members:

1. choose ``j`` of the always-wild cards (jokers that are wild, whole wild ranks,
   wild cards such as the one-eyed jacks): ``C(wild cards, j)`` ways -- every wild
   card plays the same way, and a wild card's own identity never matters;
2. choose the natural rank multiset ``R`` (a rank cannot hold more natural cards
   than its natural suits times the number of packs); under lowest-card wild the
   lowest rank held turns wild here, which is why ``R`` comes before wildness;
3. split ``R`` into suits: for each relevant suit its exact rank multiset ``F``
   (``prod C(packs, F[r])`` ways, times the ways to choose which interchangeable
   suits carry them) and the rest spread over the other suits so that none of them
   becomes relevant (a product of binomials, or a small dynamic programme over the
   ranks when the rest could still make a suit relevant). The class with no
   relevant suit is counted by subtraction from ``prod C(natural cards of r, R[r])``.

Valuing a class
---------------
Each candidate subset is reduced to ``(G, w, suit)``: the ranks ``G`` of its
natural cards, its wild count and the suit its naturals share (or none), and the
engine evaluates ONE representative hand of that shape with ``Engine.fill``
(cached, so a class costs dictionary look-ups). A class's value is the best of

- the subsets that need not be one-suited: every sub-multiset ``G`` of ``R`` of
  the right size, unless all the cards of ``G``'s ranks lie in one relevant suit
  (then every way of taking ``G`` is one-suited). Per ``R`` these are sorted once,
  best first, so a class takes the first one it can realise;
- for each relevant suit with ranks ``F``: every sub-multiset of ``F``, one-suited.

Hands compare as ``Engine.best`` compares them -- by qualifying, score and the
natural-beats-wild part of ``Fill.strength``; a suit tie-break only orders hands of
equal value and is left out. The score counts among subsets that do not qualify
(``qualifier:``) too, before natural-beats-wild: ``Fill.strength`` drops the score
of a non-qualifying hand, but such a holding still plays its best-scoring hand.
Distinct hand values are distinct classification
values (plus the wild count where naturals beat wilds): a hand that does not
qualify keeps its value.

A ruleset's ``game:`` is not used: counting is over ``k`` cards dealt to one player
who may play any ``hand.size`` of them.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING

from ..core.errors import CardError, error
from ..engine.evaluate import engine_for
from ..rules.cards import Card
from .counting_cache import read_counting, write_counting
from .counts import Counting, deal_count
from .deck_split import DeckModel, Ranks, Signature, deck_model, rank_multisets, sub_multisets, suit_signatures, tally

if TYPE_CHECKING:
    from ..engine.evaluate import Engine
    from ..engine.fill import Fill
    from ..rules.ruleset import Rules

#: The most cards a deal may hold: enumeration grows fast beyond it (9 cards of
#: a 52-card deck take a few minutes).
MAX_COUNTED_CARDS = 9

#: How many rank multisets keep their sorted subset outcomes at a time.
UNSUITED_CACHE = 4096

#: Called with the fraction done (0.0 to 1.0) while counting.
Progress = Callable[[float], None]

Strength = tuple[tuple[int, ...], ...]  # qualifying, score, natural-beats-wild (Engine.best's order)


@dataclass(frozen=True, slots=True)
class Outcome:
    """The best way one subset shape plays: its strength, category and ranks."""

    strength: Strength  # qualifying, score, natural-beats-wild (as Engine.best), then the score
    category: str
    value: tuple[tuple[int, ...], ...]  # the hand value (and wild count where naturals win ties)
    ranks: Ranks  # the natural ranks G of the subset
    played: tuple[str, ...] = ()  # the ranks that play, wild cards as the ranks they stand for


# --- public API ----------------------------------------------------------------------


def category_counts(ruleset: Rules, cards: int | None = None) -> dict[str, int]:
    """How many ``cards``-card deals fall in each category (the best hand of the deal).

    Args:
        ruleset: the ruleset to count.
        cards: cards per deal; the hand size when None. With more cards than
            the hand size the best ``hand.size`` of them play.

    Returns:
        Category name -> number of deals, highest category first, zeros included.

    >>> from evaluator import load
    >>> category_counts(load("twenty-card"))["four_of_a_kind"]
    80
    """
    return count(ruleset, cards).counts


def distinct_values(ruleset: Rules, cards: int | None = None) -> dict[str, int]:
    """How many distinct hand values each category takes among those deals.

    Suit tie-breaks are not values: two hands that differ only by suit count once.

    Args:
        ruleset: the ruleset to count.
        cards: cards per deal; the hand size when None.

    Returns:
        Category name -> number of distinct values, in the order of the categories.

    >>> from evaluator import load
    >>> sum(distinct_values(load("twenty-card")).values())
    121
    """
    return count(ruleset, cards).distinct


#: A tally key of :func:`played_counts`: category, whether it qualifies, the ranks that play (sorted).
Played = tuple[str, bool, tuple[str, ...]]


def played_counts(ruleset: Rules, cards: int | None = None) -> dict[Played, int]:
    """How many ``cards``-card deals play each (category, qualifies, ranks that play).

    The ranks are those of the best hand, wild cards counted as the ranks the
    evaluator fills them with (the joker of ``5-4-3-2-X`` in ace-to-five is an
    ace), sorted. The deals are walked class by class as :func:`count` walks
    them (by suit class where patterns read suits within the hand), never sampled.

    >>> from evaluator import load
    >>> tally = played_counts(load("ace-to-five-joker"))
    >>> tally[("high_card", True, ("2", "3", "4", "5", "A"))]  # the wheel, with or without the joker
    2304

    Raises:
        CardError: C104 / C105 as :func:`count`.
    """
    size = ruleset.hand_size if cards is None else int(cards)
    _check_size(ruleset, size)
    tally: dict[Played, int] = {}

    def add(category: str, qualifies: bool, played: tuple[str, ...], weight: int) -> None:
        key = (category, qualifies, tuple(sorted(played)))
        tally[key] = tally.get(key, 0) + weight

    if engine_for(ruleset).by_suit_class:
        from .suitcount import raise_refused
        from .suitvalue_cache import suit_values

        valued = suit_values(ruleset, size)
        raise_refused(ruleset, valued)
        names = ruleset.category_names
        ranks = [card.rank for card in valued.deck]
        for found, weight, played in zip(
            valued.outcome.tolist(), valued.weights.tolist(), valued.played.tolist(), strict=True
        ):
            if found >= 0:
                outcome = valued.outcomes[found]
                played_as = tuple(rank for i in played if i >= 0 and (rank := ranks[i]) is not None)
                add(names[outcome.category], outcome.qualifies, played_as, weight)
    else:
        _Counter(ruleset, size, None).run(
            lambda outcome, weight: add(outcome.category, outcome.strength[0] == (1,), outcome.played, weight)
        )
    return tally


def played_ranks(fill: Fill) -> tuple[str, ...]:
    """The ranks of the cards that play: the natural cards and what each wild card stands for."""
    return tuple(card.rank for card in (*fill.naturals, *fill.played) if card.rank is not None)


_RESULTS: weakref.WeakKeyDictionary[Rules, dict[int, Counting]] = weakref.WeakKeyDictionary()


def count(ruleset: Rules, cards: int | None = None, progress: Progress | None = None) -> Counting:
    """Count every ``cards``-card deal by category (kept per ruleset and size, in memory and on disk).

    Args:
        ruleset: the ruleset to count.
        cards: cards per deal; the hand size when None.
        progress: called now and then with the fraction done (and 1.0 at the end).

    Returns:
        The :class:`Counting`: counts, distinct values, deals and unplayable deals.

    Raises:
        CardError: C104 when ``cards`` is below the ruleset's ``hand.min``, C105
            when it is above :data:`MAX_COUNTED_CARDS` or the deck size.
    """
    size = ruleset.hand_size if cards is None else int(cards)
    _check_size(ruleset, size)
    per_ruleset = _RESULTS.setdefault(ruleset, {})
    kept = per_ruleset.get(size) or read_counting(ruleset, size)
    if kept is None:
        kept = _table_counting(ruleset, size, progress)
        if kept is None and engine_for(ruleset).by_suit_class:
            from .suitcount import count_suited  # flush(k), run(k, flush), suits, best_subset: finer classes

            kept = count_suited(ruleset, size, progress)
        kept = kept or _Counter(ruleset, size, progress).run()
        write_counting(ruleset, kept)
    elif progress is not None:
        progress(1.0)
    per_ruleset[size] = kept
    return kept


def _table_counting(ruleset: Rules, cards: int, progress: Progress | None) -> Counting | None:
    """The same table from the compiled tables' own exact counter, when it handles
    the ruleset (one pack, no wild cards, no qualifier, no suit named in a pattern,
    fewer than twice hand.size cards); None otherwise."""
    from .class_count import count_values_fast
    from .tables import tables_for

    if cards <= ruleset.hand_size:
        return None  # one hand per deal: the class walk is quick, no tables needed
    try:
        totals = count_values_fast(ruleset, cards, progress)
    except NotImplementedError:
        return None
    tables = tables_for(ruleset)
    counts = dict.fromkeys(ruleset.category_names, 0)
    distinct = dict.fromkeys(ruleset.category_names, 0)
    unplayable = 0
    for value, ways in totals.items():
        name = tables.category_of(value) if value >= 0 else None
        if name is None:
            unplayable += ways
            continue
        counts[name] += ways
        distinct[name] += 1
    deals = deal_count(ruleset, cards)
    if sum(totals.values()) != deals:
        raise RuntimeError(f"internal error: counted {sum(totals.values())} deals of {deals}")
    if progress is not None:
        progress(1.0)
    return Counting(
        ruleset=ruleset.name,
        cards=cards,
        deals=deals,
        counts=counts,
        distinct=distinct,
        unplayable=unplayable,
        classes=len(totals),
    )


def _check_size(ruleset: Rules, cards: int) -> None:
    if cards < max(ruleset.hand_min, 1):
        raise error(
            CardError,
            "C104",
            f"{cards} cards dealt; {ruleset.name} needs at least {max(ruleset.hand_min, 1)}",
            "<stats>",
        )
    limit = min(MAX_COUNTED_CARDS, ruleset.deck_size)
    if cards > limit:
        why = "the deck size" if limit == ruleset.deck_size else "the most that are counted"
        raise error(CardError, "C105", f"{cards} cards dealt; at most {limit} ({why})", "<stats>")


# --- valuing classes -------------------------------------------------------------------------


class _Valuer:
    """Values classes with the generic engine, one representative per subset shape."""

    def __init__(self, ruleset: Rules, model: DeckModel, cards: int) -> None:
        self.engine: Engine = engine_for(ruleset)
        self.model = model
        self.size = ruleset.hand_size
        self.whole = cards <= self.size  # the whole holding plays
        self.values = tuple(self.engine.value_of[rank] for rank in model.ranks)
        self.fills: dict[tuple[Ranks, int, str | None], Outcome | None] = {}
        self.unsuited: dict[tuple[Ranks, int], list[Outcome]] = {}
        self.suited: dict[tuple[Ranks, int, str], Outcome | None] = {}

    def shapes(self, naturals: int, wilds: int) -> list[tuple[int, int]]:
        """(natural cards, wild cards) of the subsets that may play."""
        if self.whole:
            return [(naturals, wilds)]
        return [(self.size - w, w) for w in range(min(wilds, self.size) + 1) if self.size - w <= naturals]

    def value(self, ranks: Ranks, wilds: int, signature: Signature) -> Outcome | None:
        """The best outcome of a class (None when nothing plays)."""
        best: Outcome | None = None
        for outcome in self._unsuited(ranks, wilds):
            if not signature or _realisable(outcome.ranks, ranks, signature):
                best = outcome
                break
        for suit, content in signature:
            suited = self._suited(content, wilds, suit)
            if suited is not None and (best is None or suited.strength > best.strength):
                best = suited
        return best

    def _unsuited(self, ranks: Ranks, wilds: int) -> list[Outcome]:
        key = (ranks, wilds)
        found = self.unsuited.get(key)
        if found is None:
            if len(self.unsuited) >= UNSUITED_CACHE:
                self.unsuited.clear()  # classes of one holding come together: a small cache does
            found = []
            for naturals, used_wilds in self.shapes(len(ranks), wilds):
                if naturals == 1:
                    continue  # one natural card is always one-suited
                for subset in sub_multisets(ranks, naturals):
                    outcome = self.fill(subset, used_wilds, None)
                    if outcome is not None:
                        found.append(outcome)
            found.sort(key=lambda outcome: outcome.strength, reverse=True)
            self.unsuited[key] = found
        return found

    def _suited(self, content: Ranks, wilds: int, suit: str) -> Outcome | None:
        key = (content, wilds, suit)
        if key not in self.suited:
            best: Outcome | None = None
            for naturals, used_wilds in self.shapes(len(content), wilds):
                if naturals == 0:
                    continue  # no natural card: not tied to a suit (valued with the unsuited)
                for subset in sub_multisets(content, naturals):
                    outcome = self.fill(subset, used_wilds, suit)
                    if outcome is not None and (best is None or outcome.strength > best.strength):
                        best = outcome
            self.suited[key] = best
        return self.suited[key]

    def fill(self, ranks: Ranks, wilds: int, suit: str | None) -> Outcome | None:
        """Evaluate one representative subset: natural ``ranks`` (one-suited in ``suit``) and ``wilds``."""
        key = (ranks, wilds, suit)
        if key in self.fills:
            return self.fills[key]
        outcome: Outcome | None = None
        cards = self.representative(ranks, suit)
        if cards is not None:
            result = self.engine.fill(cards + [Card.joker(1)] * wilds, [False] * len(cards) + [True] * wilds)
            if result is not None:
                classification = result.classification
                # Engine.best's order without the suit tie-break: qualifying, score, natural-beats-wild
                strength = (result.strength[0], classification.score, result.strength[2])
                value = (classification.value, strength[2])
                outcome = Outcome(strength, classification.category.name, value, ranks, played_ranks(result))
        self.fills[key] = outcome
        return outcome

    def representative(self, ranks: Ranks, suit: str | None) -> list[Card] | None:
        """Natural cards of ``ranks``: all of ``suit``, or (``suit`` None) of two suits or more."""
        symbols = [self.model.ranks[rank] for rank in ranks]
        if suit is not None:
            return [Card(symbol, suit) for symbol in symbols]
        suits = self.model.suits
        if len(symbols) >= 2 and len(suits) < 2:
            return None
        return [Card(symbol, suits[i % len(suits)]) for i, symbol in enumerate(symbols)]


def _realisable(subset: Ranks, ranks: Ranks, signature: Signature) -> bool:
    """Can natural cards ``subset`` be taken from the class NOT one-suited?

    No when all the natural cards of its ranks lie in one relevant suit.
    """
    if not subset:
        return True
    if len(subset) == 1:
        return False
    return all(not all(ranks.count(rank) == content.count(rank) for rank in set(subset)) for _, content in signature)


# --- the counter ------------------------------------------------------------------------------


class _Counter:
    """One counting run: enumerate classes with their ways, value each once."""

    def __init__(self, ruleset: Rules, cards: int, progress: Progress | None) -> None:
        self.ruleset = ruleset
        self.cards = cards
        self.progress = progress
        self.model = deck_model(ruleset)
        self.valuer = _Valuer(ruleset, self.model, cards)
        self.size = ruleset.hand_size

    def holdings(self) -> list[tuple[int, int, Ranks, int]]:
        """(dead cards, wild cards, natural rank multiset, ways) before suits are split."""
        model = self.model
        caps = [model.natural_cards(rank) for rank in range(len(model.ranks))]
        found: list[tuple[int, int, Ranks, int]] = []
        for dead in range(min(model.dead_cards, self.cards) + 1):
            for wild in range(min(model.wild_cards, self.cards - dead) + 1):
                ways = comb(model.dead_cards, dead) * comb(model.wild_cards, wild)
                found.extend((dead, wild, ranks, ways) for ranks in rank_multisets(caps, self.cards - dead - wild))
        return found

    def run(self, observe: Callable[[Outcome, int], None] | None = None) -> Counting:
        """Count, value and tabulate every class (``observe`` sees each valued class and its deals)."""
        categories = self.ruleset.category_names
        totals = dict.fromkeys(categories, 0)
        distinct: dict[str, set[tuple[tuple[int, ...], ...]]] = {name: set() for name in categories}
        unplayable = 0
        seen = 0
        valued = 0
        holdings = self.holdings()
        step = max(1, len(holdings) // 200)
        for index, (dead, wild, ranks, ways) in enumerate(holdings):
            if self.progress is not None and index % step == 0:
                self.progress(index / len(holdings))
            for key, weight in self.classes(dead, wild, ranks):
                weight *= ways
                seen += weight
                if key is None:
                    unplayable += weight
                    continue
                outcome = self.valuer.value(*key)
                valued += 1
                if outcome is None:
                    unplayable += weight
                    continue
                totals[outcome.category] += weight
                distinct[outcome.category].add(outcome.value)
                if observe is not None:
                    observe(outcome, weight)
        deals = deal_count(self.ruleset, self.cards)
        if seen != deals:
            raise RuntimeError(f"internal error: counted {seen} deals of {deals}")
        if self.progress is not None:
            self.progress(1.0)
        return Counting(
            ruleset=self.ruleset.name,
            cards=self.cards,
            deals=deals,
            counts=totals,
            distinct={name: len(found) for name, found in distinct.items()},
            unplayable=unplayable,
            classes=valued,
        )

    def classes(self, dead: int, wild: int, ranks: Ranks) -> Iterator[tuple[tuple[Ranks, int, Signature] | None, int]]:
        """The classes of one holding shape, with their ways (None: nothing can play)."""
        model = self.model
        wild_ways = 1
        if model.lowest_wild and ranks:
            lowest = ranks[-1]  # aces high: deck order, whatever the ace rule
            held = ranks.count(lowest)
            wild_ways = comb(model.natural_cards(lowest), held)
            wild += held
            ranks = ranks[: len(ranks) - held]
        playable = len(ranks) + wild
        if dead and (self.cards <= self.size or playable < self.size):
            total = wild_ways
            for rank, held in tally(ranks):
                total *= comb(model.natural_cards(rank), held)
            yield None, total
            return
        threshold = max(1, len(ranks) if playable <= self.size else self.size - wild)
        for signature, ways in suit_signatures(ranks, model, threshold):
            yield (ranks, wild, signature), ways * wild_ways
