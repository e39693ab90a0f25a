"""A plainly written poker classifier and wild-card brute force, for generated rulesets.

It knows the categories ``features.py`` tags with ``plain`` (rank shapes, run,
flush, straight flush, royal flush, badugi's sets, any of them ``natural``, and
``wilds = k`` / ``wilds >= k``; ``rank_by:`` on shapes and runs), the ace rules, high and low, wild ranks,
cards and jokers, the bug's ``plays_as``, the lowest card wild, ``duplicates``,
``natural_beats_wild``, the three suit tie-breaks and the qualifiers tagged
``at_least`` / ``all_at_most``. A hand's wild cards are filled by trying every
card of the deck for each of them (itertools), not by reasoning about ranks as
the engine does, and each filled hand is classified by reading its ranks and
suits directly.

It judges one holding: a hand of ``hand.size`` cards, the best ``hand.size``
of more cards, or (``best_subset``) the best subset of ``hand.min`` to
``hand.size`` cards, badugi's sets of different ranks and suits included.
Among a holding's hands the one that plays is chosen by qualifying, then the
score, then natural-beats-wild, then the suit tie-break: the qualifier says
whether a hand can win, not which of its cards play. ``strength`` is
(qualifies, score -- left out when the hand does not qualify --,
natural-beats-wild), what decides between hands before the suit tie-break, and
``suit_key`` the tie-break of a holding without wild cards (the suit a wild
card takes is the engine's documented choice, not a search).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement
from typing import Any

from .features import LETTERS, Spec

Card = tuple[str, str]  # (rank, suit); a joker is ("X", "1") / ("X", "2")


class Brute:
    """The brute force of one generated ruleset (``spec.brute_force`` must hold)."""

    def __init__(self, spec: Spec) -> None:
        assert spec.brute_force, "the brute force does not understand this ruleset"
        self.spec = spec
        symbols = list(spec.ranks)
        if spec.ace == "low" and "A" in symbols:
            symbols = ["A"] + [r for r in symbols if r != "A"]
        self.value = {symbol: i for i, symbol in enumerate(symbols)}
        self.top_value = len(symbols) - 1
        self.wheel = spec.ace == "both" and "A" in spec.ranks
        self.suit_rank = {suit: len(spec.suit_order) - i for i, suit in enumerate(spec.suit_order)}
        self.naturals = [(rank, suit) for rank in spec.ranks for suit in spec.suits]
        self.names = spec.category_names()
        wild = spec.wild
        self.wild_ranks = set(map(str, wild.get("ranks", [])))
        self.wild_cards = {(str(c)[0], str(c)[1]) for c in wild.get("cards", [])}
        self.jokers_wild = spec.jokers > 0 and wild.get("jokers", True)
        plays_as = wild.get("plays_as")
        self.allowed = set(plays_as["ranks"]) if plays_as else None

    # --- one filled hand --------------------------------------------------------------------

    def _run_top(self, values: list[int]) -> int | None:
        n = self.spec.size
        distinct = sorted(set(values), reverse=True)
        if len(values) != n or len(distinct) != n:
            return None
        if distinct[0] - distinct[-1] == n - 1:
            return distinct[0]
        if self.wheel and distinct[0] == self.top_value and distinct[1:] == list(range(n - 2, -1, -1)):
            return n - 2  # the ace plays below the deck's lowest rank
        return None

    def classify(self, cards: Sequence[Card], wilds: int = 0) -> tuple[int, tuple[int, ...]] | None:
        """(category index in order, tie-break key) of a filled hand holding ``wilds`` wild cards."""
        values = [self.value[rank] for rank, _ in cards]
        counts = Counter(values)
        groups = sorted(((count, value) for value, count in counts.items()), key=lambda g: (-g[0], -g[1]))
        sizes = tuple(count for count, _ in groups)
        flush = len(cards) == self.spec.size and len({suit for _, suit in cards}) == 1
        top = self._run_top(values)
        every_card = tuple(value for count, value in groups for _ in range(count))

        def key(plain: tuple[Any, ...]) -> tuple[int, ...] | None:
            """The tie-break key when the hand is in the category ``plain`` tags, else None."""
            kind = plain[0]
            if kind == "shape" and sizes == tuple(plain[1]):
                return tuple(value for _, value in groups)
            if kind == "run" and top is not None:
                return (top,)
            if kind == "flush" and flush:
                return every_card
            if kind == "run_flush" and top is not None and flush:
                return (top,)
            if kind == "royal" and top is not None and flush and top == self.value["A"]:
                return (top,)
            if kind == "set" and len(cards) == plain[1] == len(counts) == len({suit for _, suit in cards}):
                return tuple(value for _, value in groups)
            if kind == "natural" and wilds == 0:
                return key(plain[1])
            if kind == "wilds" and (wilds == plain[2] if plain[1] == "=" else wilds >= plain[2]):
                return every_card + (-1,) * (self.spec.size - len(cards))  # every card, high to low
            return None

        for index, category in enumerate(self.spec.categories):
            assert category.plain is not None
            found = key(category.plain)
            if found is not None:
                if category.rank_by == ["cards"]:  # a run by every card: the wheel's ace plays high
                    return index, every_card
                if category.rank_by is not None:  # a shape's groups in another order
                    return index, tuple(found[LETTERS.index(term)] for term in category.rank_by)
                return index, found
        return None

    def _qualifies(self, index: int, cards: Sequence[Card]) -> bool:
        plain = self.spec.qualifier_plain
        if plain is None:
            return True
        if plain[0] == "at_least":
            return index <= self.names.index(plain[1])
        values = [self.value[rank] for rank, _ in cards]
        return len(set(values)) == len(values) == self.spec.size and max(values) <= self.value[plain[1]]

    def _score(self, cards: Sequence[Card], wilds: int = 0) -> tuple[Any, ...] | None:
        """(qualifies, score) of a filled hand holding ``wilds`` wild cards; the score is kept
        when it does not qualify, as the hands of one holding are chosen by it."""
        found = self.classify(cards, wilds)
        if found is None:
            return None
        index, key = found
        value = (len(self.names) - index,) + key
        score = value if self.spec.direction == "high" else tuple(-v for v in value)
        return (1 if self._qualifies(index, cards) else 0, score)

    # --- wild cards ---------------------------------------------------------------------------

    def wild_mask(self, cards: Sequence[Card]) -> list[bool]:
        """Which cards are wild (the lowest natural rank held, aces high, when lowest-card wild)."""
        mask = [
            (rank == "X" and self.jokers_wild) or (rank, suit) in self.wild_cards or rank in self.wild_ranks
            for rank, suit in cards
        ]
        if self.spec.wild.get("lowest_rank") is True:  # ("down" is decided by a deal: a hand alone has none)
            natural = [rank for (rank, _), w in zip(cards, mask, strict=True) if not w and rank != "X"]
            if natural:
                lowest = min(natural, key=self.spec.ranks.index)
                mask = [w or rank == lowest for (rank, _), w in zip(cards, mask, strict=True)]
        return mask

    def strength(self, cards: Sequence[Card]) -> tuple[Any, ...] | None:
        """(qualifies, score, natural-beats-wild) of the best way the holding plays; None: no category."""
        found = self.best(cards)
        return None if found is None else found[0]

    def best(self, cards: Sequence[Card]) -> tuple[tuple[Any, ...], list[Card]] | None:
        """(strength, the cards that play) of a holding: every hand it holds (see the module
        docstring) tried, each with every fill of its wild cards; None: no category."""
        chosen = self._choose(cards)
        return None if chosen is None else (chosen[1], chosen[2])

    def category(self, cards: Sequence[Card]) -> str | None:
        """The category of the hand that plays (None: no category)."""
        chosen = self._choose(cards)
        if chosen is None:
            return None
        score = chosen[0][1]
        return self.names[len(self.names) - (score[0] if self.spec.direction == "high" else -score[0])]

    def _choose(self, cards: Sequence[Card]) -> tuple[tuple[Any, ...], tuple[Any, ...], list[Card]] | None:
        """(the key that chose it, strength, the cards that play) of the hand that plays."""
        spec = self.spec
        mask = dict(zip(cards, self.wild_mask(cards), strict=True))  # decided on the whole holding
        if spec.best_subset:
            sizes = range(min(spec.size, len(cards)), spec.min - 1, -1)
        else:
            sizes = range(min(spec.size, len(cards)), min(spec.size, len(cards)) - 1, -1)
        chosen: tuple[tuple[Any, ...], tuple[Any, ...], list[Card]] | None = None
        for size in sizes:
            for hand in combinations(cards, size):
                naturals = [card for card in hand if not mask[card]]
                if any(rank == "X" for rank, _ in naturals):
                    continue  # a joker that is not wild never plays
                wilds = size - len(naturals)
                filled = self._best_fill(naturals, wilds)
                if filled is None:
                    continue
                qualifies, score = filled
                natural = (-wilds,) if spec.natural_beats_wild else ()
                # a hand with wild cards: its suits are the engine's choice, ties between such hands
                # change no strength, so they are left to the order of the subsets
                suits = self.suit_key(hand) if spec.tiebreak != "none" and not wilds else ()
                key = (qualifies, score, natural, suits)
                if chosen is None or key > chosen[0]:
                    chosen = (key, (qualifies, score if qualifies else (), natural), list(hand))
        return chosen

    def _best_fill(self, naturals: list[Card], wilds: int) -> tuple[Any, ...] | None:
        if wilds == 0:
            return self._score(naturals)
        spec = self.spec
        held = Counter(naturals)
        best: tuple[Any, ...] | None = None
        for choice in combinations_with_replacement(self.naturals, wilds):
            filled = naturals + list(choice)
            five_of_a_kind = len(filled) >= 5 and len({rank for rank, _ in filled}) == 1
            if not spec.wild.get("duplicates") and not five_of_a_kind:
                used = held + Counter(choice)
                if any(used[card] > spec.copies for card in choice):
                    continue
            if self.allowed is not None and any(rank not in self.allowed for rank, _ in choice):
                values = [self.value[rank] for rank, _ in filled]
                flush = len({suit for _, suit in filled}) == 1 and len(filled) == spec.size
                if self._run_top(values) is None and not flush:
                    continue  # the bug plays as an ace unless the whole hand is a run or a flush
            score = self._score(filled, wilds)
            if score is not None and (best is None or score > best):
                best = score
        return best

    def suit_key(self, cards: Sequence[Card]) -> tuple[int, ...]:
        """The suit tie-break key of a hand without wild cards (``suits.tiebreak``)."""
        ordered = sorted(cards, key=lambda c: (self.value[c[0]], self.suit_rank[c[1]]), reverse=True)
        counts = Counter(rank for rank, _ in cards)
        first: str | None = None
        if self.spec.tiebreak == "highest_paired":
            paired = sorted(((n, self.value[rank], rank) for rank, n in counts.items() if n >= 2), reverse=True)
            first = paired[0][2] if paired else None
        elif self.spec.tiebreak == "highest_unpaired":
            single = [rank for rank, n in counts.items() if n == 1]
            first = max(single, key=lambda r: self.value[r]) if single else None
        front = [c for c in ordered if c[0] == first]
        rest = [c for c in ordered if c[0] != first]
        return tuple(self.suit_rank[suit] for _, suit in front + rest)


def card_tuple(text: str) -> Card:
    """``"Ah"`` -> ("A", "h"); a joker ``"X1"`` -> ("X", "1")."""
    return (text[0], text[1:] or "1")


def same_order(pairs: Sequence[tuple[Any, Any, str]]) -> list[str]:
    """Problems when two keyings of the same hands do not order them alike (each item:
    the engine's key, the brute force's key, a label)."""
    by_engine: dict[Any, dict[Any, str]] = {}
    for engine, brute, label in pairs:
        by_engine.setdefault(engine, {}).setdefault(brute, label)
    problems = [
        f"equal for the engine, unequal for the brute force: {sorted(seen.values())[:4]}"
        for seen in by_engine.values()
        if len(seen) > 1
    ]
    ranked = sorted((engine, next(iter(seen.items()))) for engine, seen in by_engine.items())
    for (_, (low, low_label)), (_, (high, high_label)) in zip(ranked, ranked[1:], strict=False):
        if not low < high:
            problems.append(f"the engine ranks {high_label} above {low_label}; the brute force does not")
    return problems
