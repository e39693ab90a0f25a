"""Why one hand beats another: the steps :func:`evaluator.engine.showdown.compare` takes, in words.

``explain(ruleset, a, b)`` walks the comparison in exactly the order
``compare`` applies it and records each step it looked at:

1. ``wilds`` (information only) -- how each hand's wild cards were played;
2. ``qualifier`` -- a hand that qualifies beats one that does not, and two
   hands that do not qualify tie;
3. ``beats`` -- a non-transitive exception between the two hands;
4. ``category`` -- each side's category, the higher one (the lower one in a
   low game) wins;
5. ``kicker`` -- the tie-break ranks of the category in order, named from the
   category's pattern ("pair rank", "first kicker", "top card"), up to the
   first that differs;
6. ``wilds`` -- natural beats wild: fewer wild cards wins a tie;
7. ``suit`` -- the suit tie-break: the cards in the order the rule compares
   them, and the first whose suits differ.

The first step that tells the hands apart decides; when none does the hands
tie (``decided_by: "tie"``). Every decision is read off the same strength
tuples that ``compare`` compares, so the explanation cannot disagree with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..rules.cards import Card
from ..rules.patterns import AllOf, Pattern, Shape
from .cardread import read_cards
from .evaluate import engine_for
from .hand import Hand

if TYPE_CHECKING:
    from ..rules.ruleset import Category, Rules

STEP_KINDS = ("qualifier", "category", "beats", "kicker", "wilds", "suit", "tie")
SIDES = ("first hand", "second hand")
SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
_GROUP_NAMES = {2: "pair", 3: "three of a kind", 4: "four of a kind", 5: "five of a kind"}


@dataclass
class Step:
    """One step of a comparison: its kind, a sentence, whether it decided, and the values compared."""

    step: str
    text: str
    decisive: bool = False
    values: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data: ``step``, ``text``, ``decisive`` and the values compared."""
        return {"step": self.step, "text": self.text, "decisive": self.decisive, **self.values}


@dataclass
class Explanation:
    """The outcome of a comparison (0 / 1: the index of the winner, None: a tie) and its steps."""

    winner: int | None
    decided_by: str
    steps: list[Step]
    hands: tuple[Hand, Hand]

    @property
    def outcome(self) -> int:
        """The result as :func:`~evaluator.engine.showdown.compare` gives it: 1, -1 or 0."""
        return {0: 1, 1: -1, None: 0}[self.winner]

    def verdict(self) -> str:
        """The last line: who wins, and by which step."""
        if self.winner is None:
            return "the hands tie: neither can win" if self.decided_by == "qualifier" else "the hands tie"
        return f"{SIDES[self.winner]} wins (decided by: {self.decided_by})"

    def text(self) -> str:
        """One line per step, then the verdict.

        >>> from evaluator import load
        >>> print(load("standard").explain("Kh Kd 9c 7s 2h", "Ks Kc 8d 7h 2c").text())
        category: first hand pair (pair of kings), second hand pair (pair of kings): the same category
        kicker: pair rank K against K; first kicker 9 against 8: first hand higher
        first hand wins (decided by: kicker)
        """
        return "\n".join([step.text for step in self.steps] + [self.verdict()])

    def as_dict(self) -> dict[str, Any]:
        """``{"winner": 0 | 1 | null, "decided_by": STEP, "hands": [...], "steps": [...]}``."""
        return {
            "winner": self.winner,
            "decided_by": self.decided_by,
            "hands": [_hand_data(hand) for hand in self.hands],
            "steps": [step.as_dict() for step in self.steps],
        }


def _hand_data(hand: Hand) -> dict[str, Any]:
    return {"cards": list(hand.cards), "category": hand.category, "description": hand.describe(), "wilds": hand.wilds}


CardsOrHand = str | Sequence[Card | str] | Hand


def explain(ruleset: Rules, a: CardsOrHand, b: CardsOrHand) -> Explanation:
    """Compare two hands and say why one wins, step by step (see the module docstring).

    >>> from evaluator import load
    >>> load("standard").explain("As Ad 2c 3c 4c", "Kh Kd Qc Jc 9s").winner
    0
    """
    hands = (_evaluated(ruleset, a), _evaluated(ruleset, b))
    return _Explainer(ruleset, hands).run()


def _evaluated(ruleset: Rules, hand: CardsOrHand) -> Hand:
    # the generic engine: the reference every faster path is checked against
    return hand if isinstance(hand, Hand) else engine_for(ruleset).evaluate(read_cards(ruleset, hand))


def _ordinal(index: int) -> str:
    return _ORDINALS[index] if index < len(_ORDINALS) else f"{index + 1}th"


def _first_shape(pattern: Pattern) -> Shape | None:
    """The shape the tie-break key comes from (as :func:`evaluator.rules.patterns.key_terms` picks it)."""
    items = pattern.items if isinstance(pattern, AllOf) else (pattern,)
    return next((item for item in items if isinstance(item, Shape)), None)


def position_names(category: Category, hand_size: int) -> list[str]:
    """A name for each tie-break rank of ``category``, from its pattern's groups.

    Variables of groups of two or more are named by the group ("pair rank",
    "second pair rank"); single cards next to groups are kickers, a shape of
    single cards names them "highest card", "second card"...; ``top``,
    ``bottom`` and ``cards`` name the run's ends and every card in order.
    """
    shape = _first_shape(category.pattern)
    sizes = dict(shape.groups) if shape is not None else {}
    same_size = {size: [letter for letter, n in sizes.items() if n == size] for size in set(sizes.values())}
    grouped = any(size >= 2 for size in sizes.values())
    names: list[str] = []
    for term in category.key:
        if term == "top":
            names.append("top card")
        elif term == "bottom":
            names.append("bottom card")
        elif term == "cards":
            names += ["highest card"] + [f"{_ordinal(i)} card" for i in range(1, hand_size)]
        elif term in sizes:
            size, peers = sizes[term], same_size[sizes[term]]
            if size >= 2:
                base = _GROUP_NAMES.get(size, f"{size} of a kind")
                names.append(f"{base} rank" if len(peers) == 1 else f"{_ordinal(peers.index(term))} {base} rank")
            elif grouped:
                names.append("kicker" if len(peers) == 1 else f"{_ordinal(peers.index(term))} kicker")
            else:
                names.append("highest card" if peers.index(term) == 0 else f"{_ordinal(peers.index(term))} card")
        else:
            names.append(f"{term} rank")
    return names


class _Explainer:
    """Walks one comparison, recording its steps."""

    def __init__(self, ruleset: Rules, hands: tuple[Hand, Hand]) -> None:
        self.ruleset = ruleset
        self.hands = hands
        self.engine = engine_for(ruleset)
        self.steps: list[Step] = []
        self.low = ruleset.direction == "low"

    def run(self) -> Explanation:
        self._wilds_played()
        for stage in (self._qualifier, self._beats, self._category, self._kickers, self._natural, self._suits):
            decided = stage()
            if decided is not None:
                winner, kind = decided
                return Explanation(winner, kind, self.steps, self.hands)
        self.steps.append(Step("tie", "tie: every step compared equal, nothing else is compared", True))
        return Explanation(None, "tie", self.steps, self.hands)

    # --- helpers ---------------------------------------------------------------------

    def _add(self, kind: str, text: str, decisive: bool = False, **values: Any) -> None:
        self.steps.append(Step(kind, text, decisive, values))

    @staticmethod
    def _winner(first: Any, second: Any) -> int | None:
        """0 when ``first`` is bigger, 1 when ``second`` is, None when equal (bigger wins)."""
        if first == second:
            return None
        return 0 if first > second else 1

    def _rank(self, value: int, term: str) -> str:
        if value >= 0:
            return self.ruleset.rank_symbols[value]
        # below every rank: the low ace at the bottom of a wheel, else a missing kicker
        return "A" if term == "bottom" and self.engine.ace_low_in_runs else "none"

    # --- the steps -------------------------------------------------------------------

    def _wilds_played(self) -> None:
        if not any(hand.wilds for hand in self.hands):
            return
        parts = []
        for side, hand in zip(SIDES, self.hands, strict=True):
            played = ", ".join(
                f"{held} as {'itself' if held == as_card else as_card}" for held, as_card in hand.wilds.items()
            )
            parts.append(f"{side} plays {played}" if played else f"{side} has no wild card")
        self._add(
            "wilds",
            "wild cards: " + "; ".join(parts),
            played=[dict(hand.wilds) for hand in self.hands],
            counts=[len(hand.wilds) for hand in self.hands],
        )

    def _qualifier(self) -> tuple[int | None, str] | None:
        qualifier = self.ruleset.qualifier
        flags = [hand.qualifies for hand in self.hands]
        if qualifier is None:
            return None
        said = [f"{side} {'qualifies' if ok else 'does not qualify'}" for side, ok in zip(SIDES, flags, strict=True)]
        text = f"qualifier {qualifier.text!r}: {said[0]}, {said[1]}"
        if flags[0] != flags[1]:
            self._add("qualifier", text, True, qualifies=flags, pattern=qualifier.text)
            return (0 if flags[0] else 1), "qualifier"
        if not flags[0]:
            self._add("qualifier", text + ": neither can win", True, qualifies=flags, pattern=qualifier.text)
            return None, "qualifier"
        self._add("qualifier", text, qualifies=flags, pattern=qualifier.text)
        return None

    def _beats(self) -> tuple[int | None, str] | None:
        from .showdown import hand_matches

        first, second = self.hands
        rules: list[dict[str, Any]] = []
        for beat in self.ruleset.beats:
            for winner, (w_hand, l_hand) in enumerate(((first, second), (second, first))):
                if hand_matches(beat.winner.matcher, w_hand) and hand_matches(beat.loser.matcher, l_hand):
                    rules.append({"winner": beat.winner.text, "loser": beat.loser.text, "favours": winner})
        if not rules:
            return None
        favoured = {rule["favours"] for rule in rules}
        shown = "; ".join(
            f"{rule['winner']} beats {rule['loser']} (favours the {SIDES[rule['favours']]})" for rule in rules
        )
        if len(favoured) == 2:
            self._add("beats", f"beats: {shown}: the rules point both ways and cancel", rules=rules)
            return None
        winner = favoured.pop()
        self._add("beats", f"beats: {shown}, an exception to the order", True, rules=rules)
        return winner, "beats"

    def _category(self) -> tuple[int | None, str] | None:
        first, second = (hand.fill.classification for hand in self.hands)
        said = [f"{side} {hand.summary()}" for side, hand in zip(SIDES, self.hands, strict=True)]
        text = f"category: {said[0]}, {said[1]}"
        winner = self._winner(first.score[0], second.score[0])
        names = [c.category.name for c in (first, second)]
        if winner is None:
            self._add("category", text + ": the same category", categories=names)
            return None
        if self.low:
            ranking = f"{self.hands[winner].category} ranks lower, and the lowest hand wins"
        else:
            ranking = f"{self.hands[winner].category} ranks higher"
        self._add("category", f"{text}: {ranking}", True, categories=names)
        return winner, "category"

    def _kickers(self) -> tuple[int | None, str] | None:
        first, second = (hand.fill.classification for hand in self.hands)
        category = first.category
        names = position_names(category, self.ruleset.hand_size)
        terms = [t for term in category.key for t in ([term] * self.ruleset.hand_size if term == "cards" else [term])]
        compared = []
        for index, name in enumerate(names):
            va, vb = first.value[1 + index], second.value[1 + index]
            compared.append({"position": name, "values": [self._rank(va, terms[index]), self._rank(vb, terms[index])]})
            winner = self._winner(first.score[1 + index], second.score[1 + index])
            if winner is not None:
                said = "; ".join(f"{c['position']} {c['values'][0]} against {c['values'][1]}" for c in compared)
                better = "lower" if self.low else "higher"
                side = SIDES[winner]
                self._add("kicker", f"kicker: {said}: {side} {better}", True, compared=compared, first_difference=index)
                return winner, "kicker"
        if compared:
            said = "; ".join(f"{c['position']} {c['values'][0]}" for c in compared)
            self._add("kicker", f"kicker: equal ranks ({said})", compared=compared, first_difference=None)
        return None

    def _natural(self) -> tuple[int | None, str] | None:
        if not self.ruleset.natural_beats_wild:
            return None
        counts = [hand.fill.wild_count for hand in self.hands]
        winner = self._winner(-counts[0], -counts[1])
        said = f"{SIDES[0]} {counts[0]}, {SIDES[1]} {counts[1]}"
        if winner is None:
            self._add("wilds", f"natural beats wild: wild cards {said}: the same", counts=counts)
            return None
        self._add("wilds", f"natural beats wild: wild cards {said}: fewer wild cards wins", True, counts=counts)
        return winner, "wilds"

    def _suit_order(self, hand: Hand) -> list[tuple[Card, Card]]:
        """(card held, card played) in the order ``engine.suited.suit_key`` compares suits."""
        engine, fill = self.engine, hand.fill
        pairs = [(card, card) for card in fill.naturals] + list(zip(fill.wilds, fill.played, strict=True))
        top_suit = engine.suit_preference[0]

        def key(pair: tuple[Card, Card]) -> tuple[int, int]:
            played = pair[1]
            return engine.value_of[played.rank or "A"], engine.suit_rank[played.suit or top_suit]

        ordered = sorted(pairs, key=key, reverse=True)
        groups = fill.classification.hand_class.groups
        first: list[tuple[Card, Card]] = []
        method = self.ruleset.tiebreak
        if method == "highest_paired":
            paired = [rank for count, rank in groups if count >= 2]
            if paired:
                first = [p for p in ordered if engine.value_of[p[1].rank or "A"] == paired[0]]
        elif method == "highest_unpaired":
            single = [rank for count, rank in groups if count == 1]
            if single:
                first = [p for p in ordered if engine.value_of[p[1].rank or "A"] == max(single)]
        return first + [p for p in ordered if p not in first]

    def _suits(self) -> tuple[int | None, str] | None:
        if self.ruleset.tiebreak == "none":
            return None
        engine = self.engine
        orders = [self._suit_order(hand) for hand in self.hands]
        keys = [tuple(engine.suit_rank[played.suit or ""] for _, played in order) for order in orders]
        # the same tuples the hands' strengths end with
        assert all(key == hand.strength[-1] for key, hand in zip(keys, self.hands, strict=True))
        suit_order = list(self.ruleset.suit_order)
        words = f"suit tie-break ({self.ruleset.tiebreak}, suits high to low {' '.join(suit_order)})"
        for index in range(min(len(keys[0]), len(keys[1]))):
            winner = self._winner(keys[0][index], keys[1][index])
            if winner is not None:
                shown = [_card_text(*order[index]) for order in orders]
                suits = [order[index][1].suit or "" for order in orders]
                text = (
                    f"{words}: {_ordinal(index)} card compared, {shown[0]} against {shown[1]}: "
                    f"{SUIT_NAMES.get(suits[winner], suits[winner])} rank above "
                    f"{SUIT_NAMES.get(suits[1 - winner], suits[1 - winner])}"
                )
                self._add(
                    "suit",
                    text,
                    True,
                    method=self.ruleset.tiebreak,
                    suit_order=suit_order,
                    cards=[str(order[index][1]) for order in orders],
                    position=index,
                )
                return winner, "suit"
        winner = self._winner(keys[0], keys[1])
        if winner is not None:  # one hand has more cards to compare (incomplete hands)
            self._add(
                "suit",
                f"{words}: {SIDES[winner]} has more cards to compare",
                True,
                method=self.ruleset.tiebreak,
                suit_order=suit_order,
                cards=[],
                position=min(map(len, keys)),
            )
            return winner, "suit"
        self._add(
            "suit", f"{words}: every card's suit is the same", method=self.ruleset.tiebreak, suit_order=suit_order
        )
        return None


def _card_text(held: Card, played: Card) -> str:
    return str(held) if held == played else f"{held} (as {played})"
