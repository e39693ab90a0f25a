"""The generic evaluator: the source of truth every faster path is checked against.

A hand is reduced to its class -- rank values, and the suit when it is a
flush -- because that is all a pattern can ask about. Classification walks the
categories in ``order`` and returns the first whose matcher accepts the class,
with the tie-break key the pattern implies. Classification is memoised per
class, so a ruleset pays for each class once.

Wild cards are filled without guessing cards: the wilds take every multiset of
ranks (13 choices for one wild, 91 for two), each with the flush / no-flush
options the natural cards allow, and the best-scoring legal class wins. Only the
winner is given concrete suits (the flush suit, else the highest suit not held);
``wildfill.py`` holds that fill.

Scores are tuples where bigger is better for the ruleset's direction: a low
game negates the high-poker value, so "best" is always ``max``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from functools import cached_property, lru_cache, partial
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING

from ..core.errors import CardError, RulesetError, error
from ..rules.cards import Card
from ..rules.patterns import Binding, HandClass, Pattern, needs_suits, run_bottom, run_top
from .fill import Classification, Fill, Score, score_of
from .hand import Hand
from .suited import choose_suited, suit_key
from .wildfill import WildChoice, choose_wild, concrete

if TYPE_CHECKING:
    from ..rules.ruleset import Category, Rules

Suited = tuple[tuple[str, tuple[int, ...]], ...]  # the suits held, each with its rank values
ClassKey = tuple[tuple[int, ...], str | None, int, Suited]  # ranks, flush suit, wild count, suits held
# Rank multisets the wilds of one hand may take before evaluation refuses: six wilds
# over 13 ranks are 18,564; more wild cards than that in one hand is a hostile file.
MAX_WILD_CHOICES = 20_000
# Choosing the best hand from more cards than a hand holds tries every subset:
# bounded, so that 52 cards and a hand of 10 (15.8 billion subsets) is a clear
# error instead of a hang. 50,000 subsets take well under a second.
MAX_SUBSETS = 50_000


def engine_for(ruleset: Rules) -> Engine:
    """The generic evaluator of ``ruleset``, built on first use and kept with it."""
    found = ruleset.__dict__.get("_cache_engine")
    if not isinstance(found, Engine):
        found = Engine(ruleset)
        object.__setattr__(ruleset, "_cache_engine", found)
    return found


class Engine:
    """The generic evaluator of one ruleset."""

    def __init__(self, ruleset: Rules) -> None:
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
        # no pattern asks how many wild cards play (``wilds``, ``natural``): a class with
        # wild cards is classified as the same class without them
        self.reads_wilds = any("wilds" in _kinds(p) for p in _patterns(ruleset))
        # a walk whose every class is new turns the memo off; one with wild cards keeps only the
        # scores of what it classifies, for the wild choices to look up (``suitvalues.value_classes``)
        self.memo_classes = True
        self.scores: dict[ClassKey, Score | None] | None = None
        # the card one wild card plays as, by natural cards (sorted by name), when a walk has
        # worked them out for every class at once (``compiled/suitchoice.py``)
        self.wild_choices: dict[tuple[Card, ...], Card] | None = None
        # flush(k), run(k, flush), suits: classes then carry the suits held
        self.needs_suits = any(needs_suits(p) for p in _patterns(ruleset))
        # what rank classes cannot value: suits within the hand, or the best subset of
        # any size (hand.best_subset); counting, tables and check then go by suit class
        self.by_suit_class = self.needs_suits or ruleset.best_subset
        # the categories that read suits within the hand, by index: the others give the same
        # answer for every suit class of a rank class, found once (``_first_plain``)
        self.suit_reading = [i for i, c in enumerate(ruleset.categories) if needs_suits(c.pattern)]
        self.suit_blind = [(i, c) for i, c in enumerate(ruleset.categories) if i not in self.suit_reading]
        self._first_plain = lru_cache(maxsize=1 << 16)(self._find_first_plain)
        # the groups and run of rank values: a suit walk meets each rank multiset many times
        self._shape = lru_cache(maxsize=1 << 16)(self._find_shape)
        if ruleset.variant_of is not None:
            # a deal's variant differs from its ruleset only in which cards are wild, which a hand
            # class (ranks, flush suit, wild count, suits held) does not read: every variant of a
            # game classifies through one memo (thirteen memos of their own passed 300 MB)
            family = engine_for(ruleset.variant_of)
            self.classify, self._first_plain, self._shape = family.classify, family._first_plain, family._shape

    def forget_classes(self) -> None:
        """Drop what the engine remembers of hand classes: a walk of every suit class fills its
        memos with a few hundred MB that nothing after the walk reads again."""
        self.classify.cache_clear()
        self._first_plain.cache_clear()
        self._shape.cache_clear()
        self.__dict__.pop("_best_suited", None)  # a fresh memo on next use
        if self.scores is not None:
            self.scores.clear()

    # --- classification of a class ---------------------------------------------------

    def hand_class(
        self, ranks: tuple[int, ...], flush_suit: str | None, wilds: int = 0, suited: Suited | None = None
    ) -> HandClass:
        """Build the :class:`HandClass` of rank values (high to low), a flush suit,
        the number of wild cards among them and (when patterns ask) the suits held."""
        groups, run_top = self._shape(ranks)
        return HandClass(ranks, groups, flush_suit, run_top, wilds=wilds, suited=suited)

    def _find_shape(self, ranks: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], int | None]:
        """(groups, run top) of rank values high to low: (count, rank) pairs, larger groups first,
        higher ranks first within a size (no two groups share a rank)."""
        counts: dict[int, int] = {}
        for rank in ranks:
            counts[rank] = counts.get(rank, 0) + 1
        groups = tuple(sorted([(count, rank) for rank, count in counts.items()], reverse=True))
        return groups, self._run_top(ranks, len(counts))

    def suited_of(self, cards: Sequence[Card]) -> Suited:
        """The suits ``cards`` hold, each with its rank values high to low, in a
        canonical order; suit names are kept only when a pattern names a suit."""
        by_suit: dict[str, list[int]] = {}
        value_of = self.value_of
        for card in cards:
            by_suit.setdefault(card.suit or "", []).append(value_of[card.rank or ""])
        return self.suited_from([(suit, tuple(sorted(values, reverse=True))) for suit, values in by_suit.items()])

    def suited_from(self, held: Iterable[tuple[str, tuple[int, ...]]]) -> Suited:
        """:meth:`suited_of` from each suit's rank values, high to low (empty suits are skipped)."""
        if not self.flush_needs_suit:
            # the same order without names: bigger suits first, then higher ranks (one sort, no key
            # function: this runs for every suit class a check or a count walks)
            ordered = sorted([(len(values), values) for _, values in held if values], reverse=True)
            return tuple([("", values) for _, values in ordered])
        items = [(suit, values) for suit, values in held if values]
        return tuple(sorted(items, key=lambda item: (-len(item[1]), tuple(-v for v in item[1]), item[0])))

    def _run_top(self, ranks: tuple[int, ...], distinct: int) -> int | None:
        size = self.size
        if len(ranks) != size or distinct != size:
            return None
        if ranks[0] - ranks[-1] == size - 1:
            return ranks[0]
        if self.ace_low_in_runs and ranks[0] == self.rank_count - 1 and ranks[1] == size - 2 and ranks[-1] == 0:
            return size - 2  # the ace plays low, below the deck's lowest rank
        return None

    def _classify(
        self, ranks: tuple[int, ...], flush_suit: str | None, wilds: int = 0, suited: Suited | None = None
    ) -> Classification | None:
        if wilds and not self.reads_wilds:
            plain = self.classify(ranks, flush_suit, 0, suited)
            if plain is None:
                return None
            return replace(plain, hand_class=replace(plain.hand_class, wilds=wilds))
        hand_class = self.hand_class(ranks, flush_suit, wilds, suited)
        categories = self.ruleset.categories
        if suited is None:
            for category in categories:
                binding = category.matcher(hand_class, {})
                if binding is not None:
                    return self._classified(category, hand_class, binding)
            return None
        # suits held: the first category that does not read them is the same for every suit
        # class of these ranks; only the categories above it that read them are tried here
        first_plain = self._first_plain(ranks, flush_suit, wilds)
        stop = len(categories) if first_plain is None else first_plain[0]
        for index in self.suit_reading:
            if index >= stop:
                break
            binding = categories[index].matcher(hand_class, {})
            if binding is not None:
                return self._classified(categories[index], hand_class, binding)
        if first_plain is None:
            return None
        return self._classified(categories[stop], hand_class, dict(first_plain[1]))

    def _find_first_plain(
        self, ranks: tuple[int, ...], flush_suit: str | None, wilds: int
    ) -> tuple[int, Binding] | None:
        """(index, binding) of the first category that does not read suits within the hand and
        matches these ranks (None: none does)."""
        hand_class = self.hand_class(ranks, flush_suit, wilds)
        for index, category in self.suit_blind:
            binding = category.matcher(hand_class, {})
            if binding is not None:
                return index, binding
        return None

    def _classified(self, category: Category, hand_class: HandClass, binding: Binding) -> Classification:
        """``hand_class`` placed in ``category``: its value, score and whether it qualifies."""
        value = (category.strength,) + self._key(category, hand_class, binding)
        score = value if self.high else tuple(-part for part in value)
        qualifies = True
        qualifier = self.ruleset.qualifier
        if qualifier is not None:
            qualifies = qualifier.matcher(replace(hand_class, category=category.strength), {}) is not None
        return Classification(category, hand_class, binding, value, score, qualifies)

    def _key(self, category: Category, hand: HandClass, binding: Binding) -> tuple[int, ...]:
        key: list[int] = []
        for term in category.key:
            if term == "top":
                key.append(run_top(hand, binding))
            elif term == "bottom":
                key.append(run_bottom(hand, binding, self.size))
            elif term == "cards":
                ordered = [rank for count, rank in hand.groups for _ in range(count)]
                key.extend(ordered + [-1] * (self.size - len(ordered)))
            else:
                key.append(binding.get(term, -1))  # a missing kicker ranks below any card
        return tuple(key)

    # --- wild cards ----------------------------------------------------------------------

    @cached_property
    def wild_limit(self) -> int:
        """The most wild cards one hand may hold: every way to fill them -- rank multisets, or
        with patterns that read suits inside the hand multisets of the deck's natural cards --
        stays within :data:`MAX_WILD_CHOICES` (the tables stop at the same count)."""
        choices = self._fill_choices
        wilds = 0
        while comb(choices + wilds, wilds + 1) <= MAX_WILD_CHOICES:
            wilds += 1
        return wilds

    @property
    def _fill_choices(self) -> int:
        if self.needs_suits:
            return len({card for card in self.ruleset.deck if not card.is_joker})
        return self.rank_count

    def too_many_wilds(self, count: int) -> CardError:
        """C105: a hand of more wild cards than :attr:`wild_limit`."""
        what = "card" if self.needs_suits else "rank"
        problem = error(
            CardError,
            "C105",
            f"{count} wild cards in one hand; the evaluator fills at most {MAX_WILD_CHOICES:,} {what} choices "
            f"({self.wild_limit} wild cards in {self.ruleset.name})",
            "<cards>",
            1,
            1,
        )
        assert isinstance(problem, CardError)
        return problem

    def wild_mask(self, cards: Sequence[Card]) -> list[bool]:
        """Which of ``cards`` are wild; lowest-card wild looks at the whole holding."""
        wild = self.ruleset.wild
        mask = [
            (card.is_joker and wild.jokers) or card in wild.cards or (card.rank in wild.ranks and not card.is_joker)
            for card in cards
        ]
        if wild.lowest_rank:
            natural_ranks = [
                card.rank for card, is_wild in zip(cards, mask, strict=False) if not is_wild and not card.is_joker
            ]
            if natural_ranks:
                # aces count high here whatever the ace rule: they cannot be made low to be wild
                lowest = min(natural_ranks, key=self.ruleset.deck_ranks.index)
                mask = [is_wild or card.rank == lowest for card, is_wild in zip(cards, mask, strict=False)]
        return mask

    def fill(self, cards: Sequence[Card], mask: Sequence[bool]) -> Fill | None:
        """The best way ``cards`` can play (``mask`` marks the wild ones), or None.

        Raises:
            CardError: C105 when one hand holds so many wild cards that the rank
                choices would pass :data:`MAX_WILD_CHOICES`.
        """
        naturals = [card for card, is_wild in zip(cards, mask, strict=False) if not is_wild]
        wilds = [card for card, is_wild in zip(cards, mask, strict=False) if is_wild]
        if len(wilds) > self.wild_limit:
            raise self.too_many_wilds(len(wilds))
        natural_values = [self.value_of[card.rank] for card in naturals if card.rank is not None]
        if len(natural_values) != len(naturals):
            return None  # a joker that is not wild cannot play
        if self.needs_suits:
            return self._fill_suited(naturals, wilds)
        if not wilds:
            flush_suit = self._natural_flush(naturals)
            ranks = tuple(sorted(natural_values, reverse=True))
            classification = self.classify(ranks, flush_suit)
            if classification is None:
                return None
            return self._finish(classification, naturals, [], [])
        # Which wild stands for which card must not depend on the order the cards
        # came in: the rank choice is high to low, handed out jokers first (X1 before
        # X2), then the other wild cards high to low.
        wilds.sort(key=self._wild_order)
        values = tuple(sorted(natural_values, reverse=True))
        best = self._best_wild(values, self._flush_candidate(naturals, len(wilds)), len(wilds))
        if best is None:
            return None
        choice, flush_suit, classification = best
        played = concrete(self, naturals, choice, flush_suit)
        return self._finish(classification, naturals, wilds, played)

    def natural_fill(self, cards: Sequence[Card], key: ClassKey | None = None) -> Fill | None:
        """:meth:`fill` of ``cards`` none of which is wild, when patterns read suits (a walk's
        natural classes: no mask to build, nothing to sort); ``key``, when the caller has it, is
        their :meth:`class_key`."""
        assert self.needs_suits
        classification = self._classify_key(self.class_key(cards, 0) if key is None else key)
        return None if classification is None else self._finish(classification, cards, [], [])

    def _fill_suited(self, naturals: list[Card], wilds: list[Card]) -> Fill | None:
        """:meth:`fill` when patterns ask about suits within the hand: every wild
        card becomes a concrete card (the best over every choice)."""
        wilds.sort(key=self._wild_order)
        if not wilds:
            return self.natural_fill(naturals)
        best = self._best_suited(tuple(sorted(naturals, key=str)), len(wilds))
        if best is None:
            return None
        choice, classification = best
        return self._finish(classification, naturals, wilds, list(choice))

    def class_key(self, cards: Sequence[Card], wilds: int) -> ClassKey:
        """What :meth:`classify` takes for ``cards``: rank values high to low, the flush suit,
        the wild count and the suits held."""
        value_of = self.value_of
        ranks = tuple(sorted([value_of[card.rank or ""] for card in cards], reverse=True))
        suited = self.suited_of(cards)
        flush_suit = cards[0].suit if len(cards) == self.size and len(suited) == 1 else None
        return ranks, flush_suit, wilds, suited

    def classify_cards(self, cards: Sequence[Card], wilds: int) -> Classification | None:
        """The classification of ``cards``, ``wilds`` of them counted as wild (memoised per class;
        None: no category matches)."""
        return self._classify_key(self.class_key(cards, wilds))

    def _classify_key(self, key: ClassKey) -> Classification | None:
        """:meth:`classify` of ``key``, through the memo unless a walk turned it off; a walk that
        keeps ``scores`` records the score of what it classifies."""
        if self.memo_classes:
            return self.classify(*key)
        found = self._classify(*key)
        if self.scores is not None:
            self.scores[key] = score_of(found)
        return found

    def score_cards(self, cards: Sequence[Card], wilds: int) -> Score | None:
        """(qualifies, score) of ``cards``: from the walk's small memo of scores when it keeps one
        (``scores``), else from their classification."""
        key = self.class_key(cards, wilds)
        if self.scores is not None and key in self.scores:
            return self.scores[key]
        return score_of(self._classify_key(key))

    @cached_property
    def _best_suited(self) -> Callable[[tuple[Card, ...], int], tuple[tuple[Card, ...], Classification] | None]:
        """The best concrete cards for ``n`` wilds joining some natural cards (memoised)."""
        return lru_cache(maxsize=1 << 14)(partial(choose_suited, self))

    @cached_property
    def choice_deck(self) -> tuple[Card, ...]:
        """The natural cards a wild card may stand for, one of each, in the order the choices are
        tried (high first, then by suit order): the first of equal choices is kept."""
        deck = list(dict.fromkeys(card for card in self.ruleset.deck if not card.is_joker))
        deck.sort(key=lambda card: (-self.value_of[card.rank or ""], -self.suit_rank[card.suit or ""]))
        return tuple(deck)

    def _natural_flush(self, naturals: Sequence[Card]) -> str | None:
        if len(naturals) != self.size:
            return None
        suits = {card.suit for card in naturals}
        return naturals[0].suit if len(suits) == 1 else None

    def _wild_order(self, card: Card) -> tuple[int, int, int]:
        """Sort key handing out wild ranks: jokers by number, then cards high to low."""
        if card.is_joker:
            return (0, card.joker_number, 0)
        return (1, -self.value_of.get(card.rank or "", -1), -self.suit_rank.get(card.suit or "", 0))

    def _flush_candidate(self, naturals: Sequence[Card], wild_count: int) -> str | None:
        """The suit the wilds could complete a flush in: the naturals' one suit
        (the highest suit when every card is wild), or None."""
        if len(naturals) + wild_count != self.size:
            return None
        suits = {card.suit for card in naturals}
        if not suits:
            return self.suit_preference[0]
        return naturals[0].suit if len(suits) == 1 else None

    @cached_property
    def _best_wild(self) -> Callable[[tuple[int, ...], str | None, int], WildChoice | None]:
        """:func:`~.wildfill.choose_wild`, memoised per natural class: the best fill depends
        only on the natural ranks, the suit a flush could be in and the wild count."""
        return lru_cache(maxsize=1 << 16)(partial(choose_wild, self))

    # --- the result -------------------------------------------------------------------------

    def _finish(
        self, classification: Classification, naturals: Sequence[Card], wilds: Sequence[Card], played: Sequence[Card]
    ) -> Fill:
        rules = self.ruleset
        strength = (
            (1,) if classification.qualifies else (0,),
            classification.score if classification.qualifies else (),
            (-len(wilds),) if rules.natural_beats_wild else (),
            suit_key(self, list(naturals) + list(played), classification) if rules.tiebreak != "none" else (),
        )
        return Fill(self.play_order_key, classification, naturals, wilds, played, strength)

    def play_order_key(self, classification: Classification) -> Callable[[Card], tuple[int, int, int]]:
        """Sort key of played cards: bigger groups first, then high to low,
        the low ace of a run last."""
        return self.order_key(classification.hand_class)

    def order_key(self, hand: HandClass) -> Callable[[Card], tuple[int, int, int]]:
        """:meth:`play_order_key` of a hand class (what the order depends on)."""
        count_of = {rank: count for count, rank in hand.groups}
        value_of, suit_rank, run_top = self.value_of, self.suit_rank, hand.run_top

        def key(card: Card) -> tuple[int, int, int]:
            value = value_of[card.rank] if card.rank is not None else -1
            count = count_of.get(value, 1)
            if run_top is not None and value > run_top:
                value = -1
            return (-count, -value, -suit_rank.get(card.suit or "", 0))

        return key

    # --- best hand from a holding --------------------------------------------------------

    def candidates(self, cards: Sequence[Card]) -> Iterable[tuple[Card, ...]]:
        """Every set of cards that may play: all of them, or each ``hand.size`` subset
        (with ``hand.best_subset``: every subset of ``hand.min`` to ``hand.size`` cards)."""
        if self.ruleset.best_subset:
            sizes = range(min(self.size, len(cards)), self.ruleset.hand_min - 1, -1)
            _check_subsets(sum(comb(len(cards), k) for k in sizes), f"the best subset of {len(cards)} cards")
            return [subset for k in sizes for subset in combinations(cards, k)]
        if len(cards) <= self.size:
            return [tuple(cards)]
        _check_subsets(comb(len(cards), self.size), f"the best {self.size} of {len(cards)} cards")
        return combinations(cards, self.size)

    def best(self, holding: Sequence[Card], subsets: Iterable[Sequence[Card]]) -> Fill | None:
        """The best fill among ``subsets`` of ``holding`` (wilds decided on the holding)."""
        if self.ruleset.wild.any:
            mask_by_card: dict[Card, bool] = {}
            for card, is_wild in zip(holding, self.wild_mask(holding), strict=False):
                mask_by_card[card] = mask_by_card.get(card, False) or is_wild

            def mask(subset: Sequence[Card]) -> list[bool]:
                return [mask_by_card[card] for card in subset]
        else:
            no_wilds = [False] * len(holding)

            def mask(subset: Sequence[Card]) -> list[bool]:
                return no_wilds

        best: Fill | None = None
        best_key: tuple[object, ...] = ()
        for subset in subsets:
            fill = self.fill(subset, mask(subset))
            if fill is None:
                continue
            # strength ties every hand that misses the qualifier; such a player still
            # plays the best of their cards: the score decides before natural-beats-wild
            # and the suit tie-break (else a lone top suit outplays a bigger hand)
            strength = fill.strength
            key = (strength[0], fill.classification.score, strength[2], strength[3])
            if best is None or key > best_key:
                best, best_key = fill, key
        return best

    def evaluate(self, cards: Sequence[Card], source: str = "<cards>") -> Hand:
        """The best hand from ``cards`` (any ``hand.size`` of them)."""
        if len(cards) < self.ruleset.hand_min:
            need = self.ruleset.hand_min
            raise error(
                CardError,
                "C104",
                f"{len(cards)} card{'s' if len(cards) != 1 else ''} given; {self.ruleset.name} needs at least {need}",
                source,
                1,
                1,
                hint="hands of fewer cards need a ruleset with hand.min set lower (see incomplete-hands)"
                if need == self.size
                else None,
            )
        fill = self.best(cards, self.candidates(cards))
        if fill is None:
            raise error(CardError, "C106", f"no category of {self.ruleset.name} matches these cards", source, 1, 1)
        return Hand.from_fill(self.ruleset, fill)


def _check_subsets(subsets: int, what: str) -> None:
    """R122 when choosing ``what`` means trying more than :data:`MAX_SUBSETS` hands."""
    if subsets > MAX_SUBSETS:
        raise error(
            RulesetError,
            "R122",
            f"choosing {what} means trying {subsets:,} hands; the limit is {MAX_SUBSETS:,}",
            "<cards>",
            1,
            1,
            hint="give fewer cards",
        )


def _patterns(ruleset: Rules) -> list[Pattern]:
    """Every pattern a hand is matched against: categories, qualifier, plays_as."""
    found: list[Pattern] = [category.pattern for category in ruleset.categories]
    if ruleset.qualifier is not None:
        found.append(ruleset.qualifier.pattern)
    if ruleset.wild.plays_as_hands is not None:
        found.append(ruleset.wild.plays_as_hands.pattern)
    return found


def _kinds(pattern: object) -> set[str]:
    from ..rules.patterns import term_kinds

    return term_kinds(pattern)  # type: ignore[arg-type]
