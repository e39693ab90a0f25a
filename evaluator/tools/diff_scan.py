"""The candidate hands of ``diff`` when the flip census samples: one or two concrete hands per rank
class of the common deck (and per suit class where suits play within a hand), classified under both
rulesets.

A candidate both rulesets put in one category represents that category in the search for examples
(:func:`evaluator.tools.diff.find_flip_example`), which needs only a category's strongest and
weakest under B; a candidate whose category differs is a reclassified hand. Where the tables
judge as ``compare`` does (``showdown_share.batch_ready``) the candidates are classified on them
all at once (a value names its category), and only the representatives of the categories the
examples ask for, and the hands that do not qualify, go through the generic engine; otherwise
every candidate does.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Any

import numpy as np

from ..compiled.fasthand import fast_hands
from ..compiled.suitclasses import class_count, holdings, supported
from ..core.errors import PokerRulesError
from ..rules.cards import Card
from .diff_basis import hand_or_none
from .diff_types import Representative, Scan
from .showdown_share import batch_ready

if TYPE_CHECKING:
    from ..ruleset import Ruleset

MAX_CANDIDATE_CLASSES = 12_000  # rank classes tried per flip search (sampled above this)
EXAMPLE_TRIES = 60  # representatives per end of a category, as the example search tries them
Names = list[str | None]  # a category per candidate hand (None: the hand makes no category)


def _faces(deck: Sequence[Card]) -> dict[str, list[Card]]:
    """The deck's cards grouped by face (a rank, or one joker), in deck order."""
    faces: dict[str, list[Card]] = {}
    for card in deck:
        faces.setdefault(card.rank if card.rank is not None else str(card), []).append(card)
    return faces


def _suit_assignments(choice: Sequence[str], faces: Mapping[str, list[Card]]) -> list[tuple[Card, ...]]:
    """Concrete hands for one multiset of faces: a spread-suit hand and, when possible, a flush."""
    counts = Counter(choice)
    spread: list[Card] = []
    for offset, (face, count) in enumerate(counts.items()):
        available = faces[face]
        spread.extend(available[(offset + i) % len(available)] for i in range(count))
    hands = [tuple(spread)]
    first_suit = next((card.suit for card in faces[choice[0]] if card.suit is not None), None)
    suited: list[Card] = []
    for face, count in counts.items():
        in_suit = [card for card in faces[face] if card.suit in (first_suit, None)]
        if len(in_suit) < count:
            return hands
        suited.extend(in_suit[:count])
    if tuple(suited) != hands[0]:
        hands.append(tuple(suited))
    return hands


def candidate_hands(deck: Sequence[Card], size: int, seed: int) -> Iterator[tuple[Card, ...]]:
    """Concrete ``size``-card hands from ``deck``, one or two per rank class.

    Above :data:`MAX_CANDIDATE_CLASSES` classes a seeded random subset is tried.
    """
    faces = _faces(deck)
    names = list(faces)
    total = math.comb(len(names) + size - 1, size)
    keep = min(1.0, MAX_CANDIDATE_CLASSES / total) if total else 0.0
    rng = random.Random(seed)
    for choice in combinations_with_replacement(names, size):
        if any(n > len(faces[face]) for face, n in Counter(choice).items()):
            continue
        if keep < 1.0 and rng.random() >= keep:
            continue
        yield from _suit_assignments(choice, faces)


def suit_class_hands(ruleset: Ruleset, deck: Sequence[Card], size: int, seed: int) -> Iterator[tuple[Card, ...]]:
    """Hands of ``deck`` up to a renaming of suits (a seeded sample of at most about
    :data:`MAX_CANDIDATE_CLASSES`): what rank classes miss when a pattern looks at
    suits within the hand (``flush(4)``) or a hand is its best subset."""
    if supported(ruleset, size) is not None:
        return
    common = set(deck)
    total = max(1, class_count(ruleset, size) // math.factorial(len(ruleset.suits)))
    keep = min(1.0, MAX_CANDIDATE_CLASSES / total)
    rng = random.Random(seed)
    for cards, _ in holdings(ruleset, size):
        if all(card in common for card in cards) and (keep >= 1.0 or rng.random() < keep):
            yield tuple(cards)


def scan_common_hands(a: Ruleset, b: Ruleset, deck: Sequence[Card], size: int, seed: int) -> Scan:
    """Classify every candidate hand of the common deck under both rulesets (see the module docstring)."""
    candidates = list(candidate_hands(deck, size, seed))
    for side in (a, b):
        if side.engine.by_suit_class:
            candidates.extend(suit_class_hands(side, deck, size, seed))
            break
    on_tables = _named_on_tables(a, b, candidates, size)
    if on_tables is None:
        return _scan_by_hand(a, b, candidates)
    names_a, names_b, value_b = on_tables
    representatives = Representatives(a, b, candidates)
    scan = Scan(same=representatives)
    members: dict[str, list[int]] = {}
    for number, (name_a, name_b) in enumerate(zip(names_a, names_b, strict=True)):
        if name_a is None or name_b is None:
            continue
        if name_a == name_b:
            members.setdefault(name_a, []).append(number)
        else:
            count, first = scan.moved.get((name_a, name_b), (0, candidates[number]))
            scan.moved[(name_a, name_b)] = (count + 1, first)
    for category, numbers in members.items():
        listed = np.array(numbers, dtype=np.int64)
        strength = value_b[listed]
        # the search sorts a category by B's strength, stably, both ways: both ends, in candidate order
        weakest = np.argsort(strength, kind="stable")[:EXAMPLE_TRIES]
        strongest = np.argsort(-strength, kind="stable")[:EXAMPLE_TRIES]
        representatives.ends[category] = listed[np.union1d(weakest, strongest)].tolist()
    return scan


def _scan_by_hand(a: Ruleset, b: Ruleset, candidates: Sequence[tuple[Card, ...]]) -> Scan:
    """:func:`scan_common_hands` through the generic engine, hand by hand."""
    same: dict[str, list[Representative]] = {}
    scan = Scan(same=same)
    for cards in candidates:
        hand_a, hand_b = hand_or_none(a, cards), hand_or_none(b, cards)
        if hand_a is None or hand_b is None:
            continue
        if hand_a.category == hand_b.category:
            same.setdefault(hand_a.category, []).append((cards, hand_a, hand_b))
        else:
            key = (hand_a.category, hand_b.category)
            count, first = scan.moved.get(key, (0, cards))
            scan.moved[key] = (count + 1, first)
    return scan


def _named_on_tables(
    a: Ruleset, b: Ruleset, candidates: Sequence[tuple[Card, ...]], size: int
) -> tuple[Names, Names, Any] | None:
    """Each candidate's category under ``a`` and under ``b`` and its table value under ``b``, or None
    when the tables cannot name them (see the module docstring)."""
    sides = (a, b)
    if not candidates or not all(batch_ready(side, size) and size >= side.hand_min for side in sides):
        return None
    try:
        (names_a, _), (names_b, value_b) = (_side_names(side, candidates) for side in sides)
    except PokerRulesError:
        return None  # C105: a hand of more wild cards than the tables fill
    return names_a, names_b, value_b


def _side_names(ruleset: Ruleset, candidates: Sequence[tuple[Card, ...]]) -> tuple[Names, Any]:
    """The category of each candidate under ``ruleset`` (the generic engine names a hand that does
    not qualify), and its table value."""
    hands = fast_hands(ruleset)
    index = {card: number for number, card in enumerate(ruleset.deck)}
    values = ruleset.rank_many(np.array([[index[card] for card in cards] for cards in candidates], dtype=np.int64))
    categories = np.asarray(hands.categories, dtype=np.int64)[np.maximum(values, 0) // hands.value_scale]
    names: Names = []
    for cards, value, category in zip(candidates, values.tolist(), categories.tolist(), strict=True):
        if value < 0:
            names.append(None)
        elif category >= 0:
            names.append(ruleset.category_names[category])
        else:
            hand = hand_or_none(ruleset, cards)
            names.append(hand.category if hand is not None else None)
    return names, values


class Representatives(Mapping[str, list[Representative]]):
    """Per category, the hands both rulesets put there that the examples may try (``ends``: their
    numbers in ``cards``), valued through the generic engine when a category is first asked for
    (the examples ask for the categories of the flipped pairs only)."""

    def __init__(self, a: Ruleset, b: Ruleset, cards: Sequence[tuple[Card, ...]]) -> None:
        self.a, self.b = a, b
        self.cards = cards
        self.ends: dict[str, list[int]] = {}
        self.found: dict[str, list[Representative]] = {}

    def __getitem__(self, category: str) -> list[Representative]:
        if category not in self.found:
            found: list[Representative] = []
            for number in self.ends[category]:
                cards = self.cards[number]
                hand_a, hand_b = hand_or_none(self.a, cards), hand_or_none(self.b, cards)
                if hand_a is not None and hand_b is not None:
                    found.append((cards, hand_a, hand_b))
            self.found[category] = found
        return self.found[category]

    def __iter__(self) -> Iterator[str]:
        return iter(self.ends)

    def __len__(self) -> int:
        return len(self.ends)
