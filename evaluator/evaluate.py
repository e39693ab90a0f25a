"""The generic evaluator: the source of truth every faster path is checked against.

A hand is reduced to its class -- rank values, and the suit when it is a
flush -- because that is all a pattern can ask about. Classification walks the
categories in ``order`` and returns the first whose matcher accepts the class,
with the tie-break key the pattern implies. Classification is memoised per
class, so a ruleset pays for each class once.

Wild cards are filled without guessing cards: the wilds take every multiset of
ranks (13 choices for one wild, 91 for two), each with the flush / no-flush
options the natural cards allow, and the best-scoring legal class wins. Only the
winner is given concrete suits (the flush suit, else the highest suit not held).

Scores are tuples where bigger is better for the ruleset's direction: a low
game negates the high-poker value, so "best" is always ``max``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from typing import TYPE_CHECKING

from .cards import Card, tokenize
from .errors import CardError, caret, error
from .patterns import Binding, HandClass

if TYPE_CHECKING:
    from .hand import Hand
    from .ruleset import Category, Ruleset

MAX_CARDS = 52
MAX_WILDS_ENUMERATED = 6


@dataclass(frozen=True, slots=True)
class Classification:
    """A hand class placed in its category, with the value that orders it."""

    category: Category
    hand_class: HandClass
    binding: Binding
    value: tuple[int, ...]  # (category strength, key...) as in high poker
    score: tuple[int, ...]  # value oriented so that bigger wins in this ruleset
    qualifies: bool


class Fill:
    """The best way a set of cards plays: each card with what it plays as.

    Only ``strength`` is computed up front: best-of-N compares many fills and
    keeps one, so the playing order of the cards is worked out on demand.
    """

    __slots__ = ("classification", "naturals", "wilds", "played", "strength", "_order", "_engine")

    def __init__(
        self,
        engine: Engine,
        classification: Classification,
        naturals: Sequence[Card],
        wilds: Sequence[Card],
        played: Sequence[Card],
        strength: tuple[tuple[int, ...], ...],
    ) -> None:
        self._engine = engine
        self.classification = classification
        self.naturals = naturals
        self.wilds = wilds
        self.played = played  # what each wild stands for, in the order of ``wilds``
        self.strength = strength
        self._order: list[tuple[Card, Card, bool]] | None = None

    def _ordered(self) -> list[tuple[Card, Card, bool]]:
        if self._order is None:
            pairs = [(card, card, False) for card in self.naturals]
            pairs += [(card, as_card, True) for card, as_card in zip(self.wilds, self.played)]
            key = self._engine.play_order_key(self.classification)
            pairs.sort(key=lambda pair: key(pair[1]))
            self._order = pairs
        return self._order

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards held, in playing order (groups first, high to low)."""
        return tuple(card for card, _, _ in self._ordered())

    @property
    def played_as(self) -> tuple[Card, ...]:
        """What each card of :attr:`cards` stands for (wilds filled in)."""
        return tuple(card for _, card, _ in self._ordered())

    @property
    def is_wild(self) -> tuple[bool, ...]:
        """Which of :attr:`cards` are wild."""
        return tuple(flag for _, _, flag in self._ordered())

    @property
    def wild_count(self) -> int:
        """How many wild cards play."""
        return len(self.wilds)


def read_cards(ruleset: Ruleset, text: str | Sequence[Card | str], source: str = "<cards>") -> list[Card]:
    """Read ``text`` and check every card against ``ruleset``'s deck.

    Raises:
        CardError: C101 unreadable, C102 not in the deck, C103 repeated more
            often than the packs allow, C105 too many cards.
    """
    if isinstance(text, str):
        tokens = tokenize(text, source)
        cards = [token.card for token in tokens]
        columns = [token.col for token in tokens]
        shown = text
    else:
        cards = []
        for item in text:
            cards.extend([item] if isinstance(item, Card) else [t.card for t in tokenize(str(item), source)])
        columns = list(range(1, len(cards) + 1))
        shown = " ".join(str(card) for card in cards)
        if any(not isinstance(item, Card) for item in text):
            columns = [shown.find(str(card)) + 1 for card in cards]
    if len(cards) > MAX_CARDS:
        raise error(CardError, "C105", f"{len(cards)} cards given; at most {MAX_CARDS} are read", source, 1, 1)
    seen: Counter[Card] = Counter()
    deck_ranks = set(ruleset.deck_ranks)
    for position, (card, col) in enumerate(zip(cards, columns), start=1):
        context = caret(shown, col) if "\n" not in shown else None
        if card.is_joker:
            if card.joker_number > ruleset.jokers:
                have = "no jokers" if ruleset.jokers == 0 else f"{ruleset.jokers} joker{'s' if ruleset.jokers > 1 else ''}"
                raise error(CardError, "C102", f"card {position}, {card}, is not in this deck ({ruleset.name} has {have})", source, 1, col, context=context)
        elif card.rank not in deck_ranks or card.suit not in ruleset.suits:
            raise error(
                CardError,
                "C102",
                f"card {position}, {card}, is not in this deck ({ruleset.name}: ranks {' '.join(ruleset.deck_ranks)}, suits {' '.join(ruleset.suits)})",
                source,
                1,
                col,
                context=context,
            )
        seen[card] += 1
        limit = 1 if card.is_joker else ruleset.copies
        if seen[card] > limit:
            packs = "one pack" if ruleset.copies == 1 else f"{ruleset.copies} packs"
            raise error(CardError, "C103", f"card {position}, {card}, is repeated ({ruleset.name} uses {packs})", source, 1, col, context=context)
    return cards


class Engine:
    """The generic evaluator of one ruleset."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.value_of = {symbol: value for value, symbol in enumerate(ruleset.rank_symbols)}
        self.rank_count = len(ruleset.rank_symbols)
        self.size = ruleset.hand_size
        self.high = ruleset.direction == "high"
        self.ace_low_in_runs = ruleset.ace == "both" and "A" in ruleset.deck_ranks
        self.suit_preference = tuple(ruleset.suit_order)  # high -> low
        self.suit_rank = {suit: len(self.suit_preference) - i for i, suit in enumerate(self.suit_preference)}
        self.flush_needs_suit = any("suit" in _kinds(c.pattern) for c in ruleset.categories) or (
            ruleset.wild.plays_as_hands is not None and "suit" in _kinds(ruleset.wild.plays_as_hands.pattern)
        )
        self.classify = lru_cache(maxsize=1 << 18)(self._classify)

    # --- classification of a class ---------------------------------------------------

    def hand_class(self, ranks: tuple[int, ...], flush_suit: str | None) -> HandClass:
        """Build the :class:`HandClass` of rank values (high to low) and a flush suit."""
        counts = Counter(ranks)
        groups = tuple(sorted(((count, rank) for rank, count in counts.items()), key=lambda g: (-g[0], -g[1])))
        return HandClass(ranks, groups, flush_suit, self._run_top(ranks, len(counts)))

    def _run_top(self, ranks: tuple[int, ...], distinct: int) -> int | None:
        size = self.size
        if len(ranks) != size or distinct != size:
            return None
        if ranks[0] - ranks[-1] == size - 1:
            return ranks[0]
        if self.ace_low_in_runs and ranks[0] == self.rank_count - 1 and ranks[1] == size - 2 and ranks[-1] == 0:
            return size - 2  # the ace plays low, below the deck's lowest rank
        return None

    def _classify(self, ranks: tuple[int, ...], flush_suit: str | None) -> Classification | None:
        hand_class = self.hand_class(ranks, flush_suit)
        for category in self.ruleset.categories:
            binding = category.matcher(hand_class, {})
            if binding is not None:
                value = (category.strength,) + self._key(category, hand_class, binding)
                score = value if self.high else tuple(-part for part in value)
                qualifies = True
                qualifier = self.ruleset.qualifier
                if qualifier is not None:
                    qualifies = qualifier.matcher(replace(hand_class, category=category.strength), {}) is not None
                return Classification(category, hand_class, binding, value, score, qualifies)
        return None

    def _key(self, category: Category, hand: HandClass, binding: Binding) -> tuple[int, ...]:
        key: list[int] = []
        for term in category.key:
            if term == "top":
                key.append(hand.run_top if hand.run_top is not None else hand.ranks[0])
            elif term == "bottom":
                key.append(hand.run_top - self.size + 1 if hand.run_top is not None else hand.ranks[-1])
            elif term == "cards":
                ordered = [rank for count, rank in hand.groups for _ in range(count)]
                key.extend(ordered + [-1] * (self.size - len(ordered)))
            else:
                key.append(binding.get(term, -1))  # a missing kicker ranks below any card
        return tuple(key)

    # --- wild cards ----------------------------------------------------------------------

    def wild_mask(self, cards: Sequence[Card]) -> list[bool]:
        """Which of ``cards`` are wild; lowest-card wild looks at the whole holding."""
        wild = self.ruleset.wild
        mask = [
            (card.is_joker and wild.jokers) or card in wild.cards or (card.rank in wild.ranks and not card.is_joker)
            for card in cards
        ]
        if wild.lowest_rank:
            natural_ranks = [card.rank for card, is_wild in zip(cards, mask) if not is_wild and not card.is_joker]
            if natural_ranks:
                # aces count high here whatever the ace rule: they cannot be made low to be wild
                lowest = min(natural_ranks, key=self.ruleset.deck_ranks.index)
                mask = [is_wild or card.rank == lowest for card, is_wild in zip(cards, mask)]
        return mask

    def fill(self, cards: Sequence[Card], mask: Sequence[bool]) -> Fill | None:
        """The best way ``cards`` can play (``mask`` marks the wild ones), or None."""
        naturals = [card for card, is_wild in zip(cards, mask) if not is_wild]
        wilds = [card for card, is_wild in zip(cards, mask) if is_wild]
        natural_values = [self.value_of[card.rank] for card in naturals if card.rank is not None]
        if len(natural_values) != len(naturals):
            return None  # a joker that is not wild cannot play
        if not wilds:
            flush_suit = self._natural_flush(naturals)
            ranks = tuple(sorted(natural_values, reverse=True))
            classification = self.classify(ranks, flush_suit)
            if classification is None:
                return None
            return self._finish(classification, naturals, [], [])
        best: tuple[tuple[int, ...], Classification, tuple[int, ...], str | None] | None = None
        for choice, flush_suit, classification in self._wild_options(naturals, natural_values, len(wilds)):
            if best is None or classification.score > best[0]:
                best = (classification.score, classification, choice, flush_suit)
        if best is None:
            return None
        _, classification, choice, flush_suit = best
        played = self._concrete(naturals, choice, flush_suit)
        return self._finish(classification, naturals, wilds, played)

    def _natural_flush(self, naturals: Sequence[Card]) -> str | None:
        if len(naturals) != self.size:
            return None
        suits = {card.suit for card in naturals}
        return naturals[0].suit if len(suits) == 1 else None

    def _wild_options(
        self, naturals: Sequence[Card], natural_values: Sequence[int], wild_count: int
    ) -> Iterable[tuple[tuple[int, ...], str | None, Classification]]:
        """Every legal (wild ranks, flush suit, classification) for the wilds."""
        rules = self.ruleset.wild
        copies = self.ruleset.copies
        per_rank_limit = len(self.ruleset.suits) * copies
        natural_counts = Counter(natural_values)
        natural_suits = {card.suit for card in naturals}
        full_hand = len(naturals) + wild_count == self.size
        if natural_suits:
            flush_candidate = next(iter(natural_suits)) if len(natural_suits) == 1 else None
        else:
            flush_candidate = self.suit_preference[0]
        allowed = {self.value_of[r] for r in rules.plays_as_ranks} if rules.plays_as_ranks is not None else None
        can_avoid_flush = len(self.ruleset.suits) > 1
        for choice in combinations_with_replacement(range(self.rank_count - 1, -1, -1), min(wild_count, MAX_WILDS_ENUMERATED)):
            ranks = tuple(sorted(list(natural_values) + list(choice), reverse=True))
            counts = Counter(ranks)
            single_rank = len(counts) == 1 and len(ranks) >= 5
            restricted = allowed is not None and any(value not in allowed for value in choice)
            options: list[str | None] = []
            if can_avoid_flush or not full_hand:
                if rules.duplicates or single_rank or all(count <= per_rank_limit for count in counts.values()):
                    options.append(None)
            if full_hand and flush_candidate is not None:
                wild_counts = Counter(choice)
                if rules.duplicates or all(natural_counts[value] + wild_counts[value] <= copies for value in wild_counts):
                    options.append(flush_candidate)
            for flush_suit in options:
                classification = self.classify(ranks, flush_suit)
                if classification is None:
                    continue
                if restricted:
                    hands = rules.plays_as_hands
                    if hands is None:
                        continue
                    view = replace(classification.hand_class, category=classification.category.strength)
                    if hands.matcher(view, {}) is None:
                        continue
                yield choice, flush_suit, classification

    def _concrete(self, naturals: Sequence[Card], choice: tuple[int, ...], flush_suit: str | None) -> list[Card]:
        """Give each wild rank a concrete card: the flush suit, else the highest suit free."""
        used = Counter(naturals)
        copies = self.ruleset.copies
        played: list[Card] = []
        for value in choice:
            symbol = self.ruleset.rank_symbols[value]
            if flush_suit is not None:
                card = Card(symbol, flush_suit)
            else:
                free = [s for s in self.suit_preference if used[Card(symbol, s)] < copies]
                card = Card(symbol, free[0] if free else self.suit_preference[0])
            used[card] += 1
            played.append(card)
        if flush_suit is None and played and len(naturals) + len(played) == self.size:
            suits = {card.suit for card in list(naturals) + played}
            if len(suits) == 1 and len(self.suit_preference) > 1:
                # the wilds chose not to make a flush: move one of them to another suit
                last = played[-1]
                for suit in self.suit_preference:
                    if suit != last.suit and used[Card(last.rank, suit)] < copies:
                        played[-1] = Card(last.rank, suit)
                        break
        return played

    # --- the result -------------------------------------------------------------------------

    def _finish(self, classification: Classification, naturals: Sequence[Card], wilds: Sequence[Card], played: Sequence[Card]) -> Fill:
        rules = self.ruleset
        strength = (
            (1,) if classification.qualifies else (0,),
            classification.score if classification.qualifies else (),
            (-len(wilds),) if rules.natural_beats_wild else (),
            self._suit_key(list(naturals) + list(played), classification) if rules.tiebreak != "none" else (),
        )
        return Fill(self, classification, naturals, wilds, played, strength)

    def play_order_key(self, classification: Classification) -> Callable[[Card], tuple[int, int, int]]:
        """Sort key of played cards: bigger groups first, then high to low,
        the low ace of a run last."""
        hand = classification.hand_class
        count_of = {rank: count for count, rank in hand.groups}
        value_of, suit_rank, run_top = self.value_of, self.suit_rank, hand.run_top

        def key(card: Card) -> tuple[int, int, int]:
            value = value_of[card.rank] if card.rank is not None else -1
            count = count_of.get(value, 1)
            if run_top is not None and value > run_top:
                value = -1
            return (-count, -value, -suit_rank.get(card.suit or "", 0))

        return key

    def _suit_key(self, played: Sequence[Card], classification: Classification) -> tuple[int, ...]:
        ordered = sorted(played, key=lambda c: (self.value_of[c.rank or "A"], self.suit_rank[c.suit or self.suit_preference[0]]), reverse=True)
        first: list[Card] = []
        method = self.ruleset.tiebreak
        groups = classification.hand_class.groups
        if method == "highest_paired":
            paired = [rank for count, rank in groups if count >= 2]
            if paired:
                first = [c for c in ordered if self.value_of[c.rank or "A"] == paired[0]]
        elif method == "highest_unpaired":
            single = [rank for count, rank in groups if count == 1]
            if single:
                first = [c for c in ordered if self.value_of[c.rank or "A"] == max(single)]
        rest = [c for c in ordered if c not in first]
        return tuple(self.suit_rank[c.suit or self.suit_preference[0]] for c in first + rest)

    # --- best hand from a holding --------------------------------------------------------

    def candidates(self, cards: Sequence[Card]) -> Iterable[tuple[Card, ...]]:
        """Every set of cards that may play: all of them, or each ``hand.size`` subset."""
        if len(cards) <= self.size:
            return [tuple(cards)]
        return combinations(cards, self.size)

    def best(self, holding: Sequence[Card], subsets: Iterable[Sequence[Card]]) -> Fill | None:
        """The best fill among ``subsets`` of ``holding`` (wilds decided on the holding)."""
        best: Fill | None = None
        if not self.ruleset.wild.any:
            no_wilds = [False] * len(holding)
            for subset in subsets:
                fill = self.fill(subset, no_wilds)
                if fill is not None and (best is None or fill.strength > best.strength):
                    best = fill
            return best
        mask_by_card: dict[Card, bool] = {}
        for card, is_wild in zip(holding, self.wild_mask(holding)):
            mask_by_card[card] = mask_by_card.get(card, False) or is_wild
        for subset in subsets:
            fill = self.fill(subset, [mask_by_card[card] for card in subset])
            if fill is not None and (best is None or fill.strength > best.strength):
                best = fill
        return best

    def evaluate(self, cards: Sequence[Card], source: str = "<cards>") -> Hand:
        """The best hand from ``cards`` (any ``hand.size`` of them)."""
        from .hand import Hand

        if len(cards) < self.ruleset.hand_min:
            need = self.ruleset.hand_min
            raise error(
                CardError,
                "C104",
                f"{len(cards)} card{'s' if len(cards) != 1 else ''} given; {self.ruleset.name} needs at least {need}",
                source,
                1,
                1,
                hint="hands of fewer cards need a ruleset with hand.min set lower (see incomplete-hands)" if need == self.size else None,
            )
        fill = self.best(cards, self.candidates(cards))
        if fill is None:
            raise error(CardError, "C106", f"no category of {self.ruleset.name} matches these cards", source, 1, 1)
        return Hand.from_fill(self.ruleset, fill)


def _kinds(pattern: object) -> set[str]:
    from .patterns import term_kinds

    return term_kinds(pattern)  # type: ignore[arg-type]
