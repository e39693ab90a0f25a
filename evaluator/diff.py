"""Comparing two rulesets: what changes, how often, and with which hands.

``pokerrules diff A B`` answers three questions, each from the rules as data
(the engine never asks for a ruleset's name):

1. **What is different on paper.** The decks and rule settings side by side
   (deck size, ranks, ace, direction, hand size, wild cards, suit order and
   tie-break, ``beats:`` exceptions, qualifier, game), and the category orders
   side by side with each side's exact frequencies for N dealt cards (from
   :func:`evaluator.counting.category_counts`), plus the categories only one
   side has.

2. **Which hands change places.** For every pair of categories both rulesets
   have whose *winning* order differs (the order in ``order:`` read through
   ``direction:``), a concrete pair of hands that wins under A and loses under
   B. The hands are searched for among cards legal in *both* decks: one
   concrete hand per rank class of the common deck (a non-flush and, where
   possible, a flush suit assignment), classified under both rulesets; a hand
   counts as a representative of a category only when both rulesets put it
   there. The example shown is the strongest representative of A's winner
   against the weakest of B's winner (judged under B), so it makes the point
   as strongly as the cards allow ("aces full of kings loses to a jack-high
   flush"). Every pair is re-evaluated from its card strings and verified with
   ``A.compare`` and ``B.compare`` before it is reported; a pair that cannot be
   verified is never shown (the flip is then reported without an example).

3. **How often it matters.** The share of heads-up showdowns whose outcome
   changes (another winner, or a tie that becomes a win or the reverse), with
   both players dealt the same N cards under both rulesets from the cards both
   decks hold. It is *exact* when the rules are the same (nothing can change)
   or when there are no more deals than the sample budget (every deal is
   enumerated); otherwise it is *sampled* with a stated seed and a 95% Wilson
   score interval.

The result is a plain :class:`Diff` value; the text and JSON renderings live
here, the HTML report in :mod:`evaluator.report`. ``command`` builds
everything first and writes only at the end, so nothing is written (neither
stdout nor the HTML file) when the comparison fails. The exit code is 0 for
every successful comparison: diff is a report, not a check.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain, combinations, combinations_with_replacement
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from .cards import Card
from .errors import PokerRulesError
from .suitclasses import class_count, holdings, supported

if TYPE_CHECKING:
    from .hand import Hand
    from .ruleset import Ruleset

EXIT_OK, EXIT_USAGE = 0, 2
DEFAULT_SAMPLES = 20_000
DEFAULT_SEED = 2026
CONFIDENCE = 0.95
Z_95 = 1.959963984540054  # two-sided 95% normal quantile
MAX_CANDIDATE_CLASSES = 12_000  # rank classes tried per flip search (sampled above this)
EXAMPLE_TRIES = 60  # candidates per side tried when pairing a flip example
CHANGED_EXAMPLES = 3  # changed showdowns kept as examples
SUMMARY_RECLASSIFIED = 3  # category changes named in the summary


# --- the result --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Side:
    """One ruleset as the report names it."""

    name: str
    title: str
    deck_size: int
    hand_size: int


@dataclass(frozen=True, slots=True)
class Setting:
    """One row of the settings table: a rule and its value on each side."""

    name: str
    a: str
    b: str

    @property
    def differs(self) -> bool:
        """True when the two sides disagree."""
        return self.a != self.b


@dataclass(frozen=True, slots=True)
class CategoryStat:
    """A category at its place in one ruleset's order, with its frequency."""

    name: str
    position: int  # 1 is the highest category
    pattern: str
    count: int  # N-card deals that fall into this category
    probability: float


@dataclass(frozen=True, slots=True)
class ExampleHand:
    """A concrete hand of a flip example, as both rulesets read it."""

    cards: tuple[str, ...]
    category: str
    description_a: str
    description_b: str


@dataclass(frozen=True, slots=True)
class Flip:
    """Two categories whose winning order differs; with a verified example pair.

    ``winner_a`` beats ``winner_b`` under A and loses to it under B. The
    example's first hand is of ``winner_a``; ``compare_a`` and ``compare_b``
    are what ``A.compare`` and ``B.compare`` returned for (first, second).
    """

    winner_a: str
    winner_b: str
    example: tuple[ExampleHand, ExampleHand] | None
    compare_a: int | None = None
    compare_b: int | None = None


@dataclass(frozen=True, slots=True)
class ChangedDeal:
    """A heads-up deal whose outcome differs between the rulesets."""

    first: tuple[str, ...]
    second: tuple[str, ...]
    outcome_a: int  # 1 first wins, -1 second wins, 0 tie
    outcome_b: int


@dataclass(frozen=True, slots=True)
class ShowdownShare:
    """How many heads-up showdowns change their outcome.

    ``method`` is ``identical`` (same rules: exactly none, nothing dealt),
    ``exact`` (every deal enumerated), ``sampled`` (``deals`` random deals with
    ``seed``; ``low``/``high`` the 95% Wilson interval) or ``impossible`` (the
    common deck cannot deal two hands; ``share`` is None).
    """

    method: str
    cards: int
    common_deck: int
    deals: int
    changed: int
    share: float | None
    low: float | None = None
    high: float | None = None
    seed: int | None = None
    examples: tuple[ChangedDeal, ...] = ()
    reason: str = ""


@dataclass(frozen=True)
class Diff:
    """Everything ``pokerrules diff`` reports about rulesets A and B."""

    a: Side
    b: Side
    cards: int
    settings: tuple[Setting, ...]
    order_a: tuple[CategoryStat, ...]
    order_b: tuple[CategoryStat, ...]
    only_a: tuple[str, ...]
    only_b: tuple[str, ...]
    pattern_changes: tuple[tuple[str, str, str], ...]  # (category, pattern in A, pattern in B)
    flips: tuple[Flip, ...]
    reclassified: tuple[Reclassified, ...]
    showdowns: ShowdownShare
    same_rules: bool = False

    @property
    def identical(self) -> bool:
        """True when nothing differs: settings, categories, order, outcomes."""
        return (
            not any(s.differs for s in self.settings)
            and not self.only_a
            and not self.only_b
            and not self.pattern_changes
            and not self.flips
            and not self.reclassified
            and [c.name for c in self.order_a] == [c.name for c in self.order_b]
            and self.showdowns.changed == 0
        )

    def summary(self) -> list[str]:
        """The changes in a few lines, most important first."""
        return _summary(self)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data for ``diff --json`` (see ``docs/json/diff.schema.json``)."""
        return _as_dict(self)


# --- settings ------------------------------------------------------------------------------


def _ranks_text(ruleset: Ruleset) -> str:
    return " ".join(ruleset.deck_ranks)


def _wild_text(ruleset: Ruleset) -> str:
    wild = ruleset.wild
    if not wild.any:
        return "none"
    parts = []
    if wild.cards:
        parts.append("cards " + " ".join(sorted(str(card) for card in wild.cards)))
    if wild.ranks:
        parts.append("every " + "/".join(sorted(wild.ranks, key=ruleset.deck_ranks.index)))
    if wild.jokers:
        parts.append("jokers")
    if wild.lowest_rank:
        parts.append("lowest card held")
    if wild.duplicates:
        parts.append("may duplicate a card held")
    if wild.plays_as_ranks is not None:
        ranks = "/".join(sorted(wild.plays_as_ranks)) or "nothing"
        anything = f", or anything in {wild.plays_as_hands.text}" if wild.plays_as_hands is not None else ""
        parts.append(f"plays as {ranks}{anything}")
    return "; ".join(parts)


def _game_text(ruleset: Ruleset) -> str:
    game = ruleset.game
    if game is None:
        return "none (a hand is all the cards held)"
    use = "any" if game.use_hole is None and game.use_board is None else f"{game.use_hole or 0} hole + {game.use_board or 0} board"
    text = f"{game.hole} hole, {game.board} board, use {use}"
    if game.boards > 1:
        text += f", {game.boards} boards"
    if game.split:
        text += ", split " + " / ".join(f"{s.name}: {s.ruleset}" for s in game.split)
    return text


def settings(a: Ruleset, b: Ruleset) -> tuple[Setting, ...]:
    """The decks and rule settings of ``a`` and ``b``, row by row."""

    def row(name: str, value: Any) -> Setting:
        return Setting(name, value(a), value(b))

    return (
        row("deck size", lambda r: f"{r.deck_size} cards"),
        row("ranks", _ranks_text),
        row("suits", lambda r: " ".join(r.suits)),
        row("jokers", lambda r: str(r.jokers)),
        row("packs", lambda r: str(r.copies)),
        row("ace", lambda r: r.ace),
        row("direction", lambda r: f"{r.direction} (the {'highest' if r.direction == 'high' else 'lowest'} hand wins)"),
        row("hand size", lambda r: str(r.hand_size) + (f" (at least {r.hand_min})" if r.hand_min != r.hand_size else "")),
        row("wild cards", _wild_text),
        row("natural beats wild", lambda r: "yes" if r.natural_beats_wild else "no"),
        row("suit order", lambda r: " > ".join(r.suit_order)),
        row("suit tie-break", lambda r: r.tiebreak),
        row("beats exceptions", lambda r: "; ".join(f"{x.winner.text} beats {x.loser.text}" for x in r.beats) or "none"),
        row("qualifier", lambda r: r.qualifier.text if r.qualifier is not None else "none"),
        row("game", _game_text),
    )


def rules_fingerprint(ruleset: Ruleset) -> tuple[Any, ...]:
    """Everything that decides a showdown (names, titles, descriptions excluded).

    Two rulesets with equal fingerprints judge every deal alike.
    """
    wild = ruleset.wild
    return (
        ruleset.deck_ranks,
        ruleset.suits,
        ruleset.jokers,
        ruleset.copies,
        ruleset.ace,
        ruleset.direction,
        ruleset.hand_size,
        ruleset.hand_min,
        tuple((c.name, c.pattern_text, c.key, c.strength) for c in ruleset.categories),
        (
            wild.cards,
            wild.ranks,
            wild.jokers,
            wild.lowest_rank,
            wild.duplicates,
            wild.plays_as_ranks,
            wild.plays_as_hands.text if wild.plays_as_hands is not None else None,
        ),
        ruleset.natural_beats_wild,
        ruleset.suit_order,
        ruleset.tiebreak,
        tuple((x.winner.text, x.loser.text) for x in ruleset.beats),
        ruleset.qualifier.text if ruleset.qualifier is not None else None,
        ruleset.game,
    )


# --- categories and frequencies -----------------------------------------------------------------


def frequencies(ruleset: Ruleset, cards: int) -> tuple[CategoryStat, ...]:
    """``ruleset``'s categories in order, with their exact N-card frequencies."""
    from .counting import category_counts, deal_count

    counts: Mapping[str, int] = category_counts(ruleset, cards)
    total = deal_count(ruleset, cards)
    return tuple(
        CategoryStat(
            category.name,
            position,
            category.pattern_text,
            int(counts.get(category.name, 0)),
            int(counts.get(category.name, 0)) / total if total else 0.0,
        )
        for position, category in enumerate(ruleset.categories, start=1)
    )


def winning_rank(ruleset: Ruleset, name: str) -> int:
    """A number that is larger for the category that wins in ``ruleset``."""
    strength = ruleset.category(name).strength
    return strength if ruleset.direction == "high" else -strength


def flipped_pairs(a: Ruleset, b: Ruleset) -> list[tuple[str, str]]:
    """(winner under A, winner under B) for each category pair both have whose order differs.

    Listed in A's order of the category that wins under A.
    """
    shared = [name for name in a.category_names if name in set(b.category_names)]
    pairs = []
    for first, second in combinations(shared, 2):
        under_a = winning_rank(a, first) - winning_rank(a, second)
        under_b = winning_rank(b, first) - winning_rank(b, second)
        if under_a * under_b < 0:
            pairs.append((first, second) if under_a > 0 else (second, first))
    position = {name: i for i, name in enumerate(a.category_names)}
    return sorted(pairs, key=lambda pair: (position[pair[0]], position[pair[1]]))


# --- the common deck and candidate hands ---------------------------------------------------------


def common_deck(a: Ruleset, b: Ruleset) -> list[Card]:
    """Every physical card both decks hold, copies included (the deck both rulesets permit)."""
    ranks = [rank for rank in a.deck_ranks if rank in b.deck_ranks]
    suits = [suit for suit in a.suits if suit in b.suits]
    copies = min(a.copies, b.copies)
    cards = [Card(rank, suit) for _ in range(copies) for rank in ranks for suit in suits]
    cards += [Card.joker(n) for n in range(1, min(a.jokers, b.jokers) + 1)]
    return cards


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


def _evaluate(ruleset: Ruleset, cards: Sequence[Card]) -> Hand | None:
    """The hand ``cards`` make under ``ruleset``, or None when no category matches."""
    try:
        return ruleset.engine.evaluate(list(cards))
    except PokerRulesError:
        return None


Representative = tuple[tuple[Card, ...], "Hand", "Hand"]  # cards, hand under A, hand under B


@dataclass(frozen=True, slots=True)
class Reclassified:
    """Hands of the common deck that the two rulesets put into different categories."""

    category_a: str
    category_b: str
    classes: int  # rank classes (with a suit assignment) found so moved
    example: ExampleHand


@dataclass
class Scan:
    """What the candidate hands of the common deck showed.

    ``same`` holds, per category, the hands both rulesets put there;
    ``moved`` counts hands whose category differs, with the first one seen.
    """

    same: dict[str, list[Representative]] = field(default_factory=dict)
    moved: dict[tuple[str, str], tuple[int, tuple[Card, ...]]] = field(default_factory=dict)


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
    """Classify every candidate hand of the common deck under both rulesets."""
    scan = Scan()
    candidates: Iterable[tuple[Card, ...]] = candidate_hands(deck, size, seed)
    for side in (a, b):
        if side.engine.by_suit_class:
            candidates = chain(candidates, suit_class_hands(side, deck, size, seed))
            break
    for cards in candidates:
        hand_a, hand_b = _evaluate(a, cards), _evaluate(b, cards)
        if hand_a is None or hand_b is None:
            continue
        if hand_a.category == hand_b.category:
            scan.same.setdefault(hand_a.category, []).append((cards, hand_a, hand_b))
        else:
            key = (hand_a.category, hand_b.category)
            count, first = scan.moved.get(key, (0, cards))
            scan.moved[key] = (count + 1, first)
    return scan


def reclassified(a: Ruleset, b: Ruleset, scan: Scan) -> tuple[Reclassified, ...]:
    """Category changes of the same cards, most frequent first, each with an example."""
    rows = [
        Reclassified(category_a, category_b, count, _example_hand(cards, a, b))
        for (category_a, category_b), (count, cards) in scan.moved.items()
    ]
    return tuple(sorted(rows, key=lambda row: (-row.classes, row.category_a, row.category_b)))


def _disjoint(first: Sequence[Card], second: Sequence[Card], deck: Sequence[Card]) -> bool:
    """True when both hands can be dealt together from ``deck``."""
    available = Counter(deck)
    available.subtract(Counter(first) + Counter(second))
    return min(available.values(), default=0) >= 0


def _cards_text(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in cards)


def _example_hand(cards: Sequence[Card], a: Ruleset, b: Ruleset) -> ExampleHand:
    hand_a, hand_b = a.evaluate(_cards_text(cards)), b.evaluate(_cards_text(cards))
    return ExampleHand(tuple(hand_b.cards), hand_b.category, hand_a.describe(), hand_b.describe())


def find_flip_example(
    a: Ruleset, b: Ruleset, pair: tuple[str, str], found: Mapping[str, list[Representative]], deck: Sequence[Card]
) -> Flip:
    """A verified example for ``pair`` (winner under A, winner under B), if the common deck has one.

    Tries A's winner strongest-first and B's winner weakest-first (both as B
    ranks them), so the example is the most striking one available; every
    candidate pair is checked with ``A.compare`` and ``B.compare`` on the card
    strings before it is accepted.
    """
    winner_a, winner_b = pair
    firsts = sorted(found.get(winner_a, []), key=lambda r: r[2].strength, reverse=True)[:EXAMPLE_TRIES]
    seconds = sorted(found.get(winner_b, []), key=lambda r: r[2].strength)[:EXAMPLE_TRIES]
    tries = sorted(((i, j) for i in range(len(firsts)) for j in range(len(seconds))), key=lambda ij: (ij[0] + ij[1], ij[0]))
    for i, j in tries:
        first, second = firsts[i][0], seconds[j][0]
        if not _disjoint(first, second, deck):
            continue
        text_first, text_second = _cards_text(first), _cards_text(second)
        verdict_a, verdict_b = a.compare(text_first, text_second), b.compare(text_first, text_second)
        if verdict_a == 1 and verdict_b == -1:
            return Flip(winner_a, winner_b, (_example_hand(first, a, b), _example_hand(second, a, b)), verdict_a, verdict_b)
    return Flip(winner_a, winner_b, None)


def flips(a: Ruleset, b: Ruleset, scan: Scan | None, deck: Sequence[Card]) -> tuple[Flip, ...]:
    """Every category pair whose order differs, each with a verified example where one exists."""
    pairs = flipped_pairs(a, b)
    if scan is None:
        return tuple(Flip(w_a, w_b, None) for w_a, w_b in pairs)
    return tuple(find_flip_example(a, b, pair, scan.same, deck) for pair in pairs)


# --- showdowns whose outcome changes ---------------------------------------------------------------


def wilson_interval(changed: int, total: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``changed / total``.

    >>> low, high = wilson_interval(0, 100)
    >>> round(low, 4), round(high, 4)
    (0.0, 0.037)
    """
    if total <= 0:
        return 0.0, 1.0
    p = changed / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator
    low = 0.0 if changed == 0 else max(0.0, centre - half)  # exact ends: no rounding past p
    high = 1.0 if changed == total else min(1.0, centre + half)
    return low, high


def _outcome(ruleset: Ruleset, first: Hand | None, second: Hand | None) -> int:
    """1 first wins, -1 second wins, 0 tie; a hand no category matches loses."""
    if first is None or second is None:
        return (first is not None) - (second is not None)
    return ruleset.compare(first, second)


class _Judge:
    """Outcomes of heads-up deals under both rulesets, hands evaluated once each."""

    def __init__(self, a: Ruleset, b: Ruleset) -> None:
        self.a, self.b = a, b
        self.hands: dict[tuple[Card, ...], tuple[Hand | None, Hand | None]] = {}

    def hands_of(self, cards: tuple[Card, ...]) -> tuple[Hand | None, Hand | None]:
        key = tuple(sorted(cards))
        if key not in self.hands:
            self.hands[key] = (_evaluate(self.a, key), _evaluate(self.b, key))
        return self.hands[key]

    def outcomes(self, first: tuple[Card, ...], second: tuple[Card, ...]) -> tuple[int, int]:
        a_first, b_first = self.hands_of(first)
        a_second, b_second = self.hands_of(second)
        return _outcome(self.a, a_first, a_second), _outcome(self.b, b_first, b_second)


def heads_up_deals(deck_size: int, cards: int) -> int:
    """Unordered heads-up deals of ``cards`` cards each from ``deck_size`` cards."""
    return math.comb(deck_size, cards) * math.comb(deck_size - cards, cards) // 2


def _changed(judge: _Judge, first: tuple[Card, ...], second: tuple[Card, ...], examples: list[ChangedDeal]) -> bool:
    outcome_a, outcome_b = judge.outcomes(first, second)
    if outcome_a == outcome_b:
        return False
    if len(examples) < CHANGED_EXAMPLES:
        examples.append(ChangedDeal(tuple(map(str, first)), tuple(map(str, second)), outcome_a, outcome_b))
    return True


def exact_share(a: Ruleset, b: Ruleset, deck: Sequence[Card], cards: int) -> ShowdownShare:
    """Enumerate every heads-up deal (each physical card distinct) and count the changed ones."""
    judge, examples, changed, deals = _Judge(a, b), [], 0, 0
    positions = range(len(deck))
    for first in combinations(positions, cards):
        rest = [p for p in positions if p not in first and p > first[0]]
        first_cards = tuple(deck[p] for p in first)
        for second in combinations(rest, cards):
            deals += 1
            changed += _changed(judge, first_cards, tuple(deck[p] for p in second), examples)
    return ShowdownShare("exact", cards, len(deck), deals, changed, changed / deals if deals else 0.0, examples=tuple(examples))


def sampled_share(a: Ruleset, b: Ruleset, deck: Sequence[Card], cards: int, samples: int, seed: int, progress: TextIO | None = None) -> ShowdownShare:
    """Deal ``samples`` random heads-up deals with ``seed``; the share changed and its Wilson interval."""
    rng = random.Random(seed)
    judge, examples, changed = _Judge(a, b), [], 0
    meter = _Progress(progress, samples)
    try:
        for number in range(samples):
            dealt = rng.sample(deck, 2 * cards)
            changed += _changed(judge, tuple(dealt[:cards]), tuple(dealt[cards:]), examples)
            meter.update(number + 1)
    finally:
        meter.done()
    low, high = wilson_interval(changed, samples)
    return ShowdownShare("sampled", cards, len(deck), samples, changed, changed / samples, low, high, seed, tuple(examples))


def showdown_share(a: Ruleset, b: Ruleset, cards: int, samples: int, seed: int, progress: TextIO | None = None) -> ShowdownShare:
    """The share of heads-up showdowns whose outcome changes: exact where cheap, else sampled."""
    deck = common_deck(a, b)
    if len(deck) < 2 * cards:
        reason = f"the decks share {len(deck)} cards, too few to deal two hands of {cards}"
        return ShowdownShare("impossible", cards, len(deck), 0, 0, None, reason=reason)
    deals = heads_up_deals(len(deck), cards)
    if rules_fingerprint(a) == rules_fingerprint(b):
        return ShowdownShare("identical", cards, len(deck), deals, 0, 0.0, reason="the rules that decide a showdown are the same")
    if deals <= samples:
        return exact_share(a, b, deck, cards)
    return sampled_share(a, b, deck, cards, samples, seed, progress)


class _Progress:
    """Plain progress lines on stderr (a terminal or not) once dealing has taken a second."""

    def __init__(self, stream: TextIO | None, total: int) -> None:
        from .progress import Progress

        self.lines = Progress("pokerrules diff: dealing showdowns", stream) if stream is not None else None
        if self.lines is not None:
            self.lines.__enter__()
        self.total = total

    def update(self, done: int) -> None:
        if self.lines is not None:
            self.lines.step(f"{100 * done // self.total}%")

    def done(self) -> None:
        if self.lines is not None:
            self.lines.__exit__(None, None, None)


# --- putting it together ------------------------------------------------------------------------------


def _side(ruleset: Ruleset) -> Side:
    return Side(ruleset.name, ruleset.title, ruleset.deck_size, ruleset.hand_size)


def compare_rulesets(
    a: Ruleset,
    b: Ruleset,
    cards: int | None = None,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    progress: TextIO | None = None,
) -> Diff:
    """Compare ``a`` with ``b`` (see the module docstring); ``cards`` defaults to the hand size."""
    dealt = cards if cards is not None else max(a.hand_size, b.hand_size)
    same_rules = rules_fingerprint(a) == rules_fingerprint(b)
    deck = common_deck(a, b)
    size = max(a.hand_size, b.hand_size)
    scan = None if same_rules or len(deck) < 2 * size else scan_common_hands(a, b, deck, size, seed)
    names_a, names_b = set(a.category_names), set(b.category_names)
    pattern_changes = tuple(
        (name, a.category(name).pattern_text, b.category(name).pattern_text)
        for name in a.category_names
        if name in names_b and a.category(name).pattern_text != b.category(name).pattern_text
    )
    return Diff(
        a=_side(a),
        b=_side(b),
        cards=dealt,
        settings=settings(a, b),
        order_a=frequencies(a, dealt),
        order_b=frequencies(b, dealt),
        only_a=tuple(name for name in a.category_names if name not in names_b),
        only_b=tuple(name for name in b.category_names if name not in names_a),
        pattern_changes=pattern_changes,
        flips=flips(a, b, scan, deck),
        reclassified=reclassified(a, b, scan) if scan is not None else (),
        showdowns=showdown_share(a, b, dealt, samples, seed, progress),
        same_rules=same_rules,
    )


def usage_problem(a: Ruleset, b: Ruleset, cards: int | None, samples: int) -> str | None:
    """Why the arguments cannot be used, or None."""
    if samples < 1:
        return "--samples must be at least 1"
    if cards is None:
        return None
    need = max(a.hand_min, b.hand_min)
    if cards < need:
        return f"--cards {cards}: the hands need at least {need} cards"
    smallest = min(a.deck_size, b.deck_size)
    if cards > smallest:
        return f"--cards {cards}: a deck of {smallest} cards cannot deal that many"
    return None


# --- text and JSON -----------------------------------------------------------------------------------------


def _percent(value: float | None) -> str:
    if value is None:
        return "n/a"
    if value == 0:
        return "0%"
    digits = max(2, 1 - math.floor(math.log10(abs(value * 100)))) if value * 100 < 1 else 2
    return f"{value * 100:.{digits}f}%"


def odds_text(probability: float) -> str:
    """``1 in X`` for a probability ("never" for zero)."""
    if probability <= 0:
        return "never"
    x = 1 / probability
    return f"1 in {x:,.0f}" if x >= 10 else f"1 in {x:.2f}"


def _deck_change(diff: Diff) -> str | None:
    rows = {s.name: s for s in diff.settings}
    size, ranks = rows["deck size"], rows["ranks"]
    if not (size.differs or ranks.differs or rows["suits"].differs or rows["jokers"].differs or rows["packs"].differs):
        return None
    text = f"deck: {diff.a.deck_size} → {diff.b.deck_size} cards"
    if ranks.differs:
        text += f" (ranks {ranks.a} → {ranks.b})"
    return text


def _summary(diff: Diff) -> list[str]:
    if diff.identical:
        return [f"No difference: {diff.a.name} and {diff.b.name} have the same deck, rules and category order; no showdown changes its winner."]
    lines = []
    deck = _deck_change(diff)
    if deck:
        lines.append(deck)
    deck_rows = {"deck size", "ranks", "suits", "jokers", "packs"}
    lines.extend(f"{s.name}: {s.a} → {s.b}" for s in diff.settings if s.differs and s.name not in deck_rows)
    if diff.only_a:
        lines.append(f"only in {diff.a.name}: {', '.join(diff.only_a)}")
    if diff.only_b:
        lines.append(f"only in {diff.b.name}: {', '.join(diff.only_b)}")
    lines.extend(f"{name} is defined differently: {pa!r} → {pb!r}" for name, pa, pb in diff.pattern_changes)
    lines.extend(f"{f.winner_a} beats {f.winner_b} in {diff.a.name}; {f.winner_b} beats {f.winner_a} in {diff.b.name}" for f in diff.flips)
    lines.extend(
        f"{' '.join(r.example.cards)} is {r.category_a} in {diff.a.name} but {r.category_b} in {diff.b.name}"
        + (f" (and {_classes_text(r.classes - 1)} more like it)" if r.classes > 1 else "")
        for r in diff.reclassified[:SUMMARY_RECLASSIFIED]
    )
    if len(diff.reclassified) > SUMMARY_RECLASSIFIED:
        lines.append(f"... and {len(diff.reclassified) - SUMMARY_RECLASSIFIED} more category changes of the same cards (see below)")
    lines.append(_share_sentence(diff.showdowns))
    return lines


def _share_sentence(share: ShowdownShare) -> str:
    if share.method == "impossible":
        return f"heads-up showdowns: not compared ({share.reason})"
    if share.method == "identical":
        return "heads-up showdowns whose winner changes: none (exact: the rules that decide a showdown are the same)"
    if share.method == "exact":
        return f"heads-up showdowns whose winner changes: {_percent(share.share)} exactly ({share.changed:,} of {share.deals:,} deals)"
    return (
        f"heads-up showdowns whose winner changes: {_percent(share.share)} "
        f"(95% Wilson interval {_percent(share.low)}–{_percent(share.high)}; {share.changed:,} of {share.deals:,} sampled deals, seed {share.seed})"
    )


def _table(rows: Sequence[Sequence[str]], indent: str = "  ") -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [indent + "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in rows]


def _order_rows(diff: Diff) -> list[list[str]]:
    rows = [["", diff.a.name, "deals", "odds", "", diff.b.name, "deals", "odds"]]
    shared = set(c.name for c in diff.order_a) & set(c.name for c in diff.order_b)
    for i in range(max(len(diff.order_a), len(diff.order_b))):
        row: list[str] = []
        for order in (diff.order_a, diff.order_b):
            if i < len(order):
                stat = order[i]
                mark = "" if stat.name in shared else " (only here)"
                row += [str(stat.position), stat.name + mark, f"{stat.count:,}", odds_text(stat.probability)]
            else:
                row += ["", "", "", ""]
        rows.append(row)
    return rows


def _flip_lines(diff: Diff) -> list[str]:
    lines = []
    for flip in diff.flips:
        lines.append(f"  {flip.winner_a} > {flip.winner_b} in {diff.a.name}, {flip.winner_b} > {flip.winner_a} in {diff.b.name}")
        if flip.example is None:
            lines.append("    (no example: the cards both decks hold cannot make this pair in both rulesets)")
            continue
        first, second = flip.example
        lines.append(f"    {' '.join(first.cards)}  ({first.description_b})  vs  {' '.join(second.cards)}  ({second.description_b})")
        lines.append(f"    {diff.a.name}: the {first.category.replace('_', ' ')} wins; {diff.b.name}: the {second.category.replace('_', ' ')} wins  (verified with compare)")
    return lines


def _showdown_lines(diff: Diff) -> list[str]:
    share = diff.showdowns
    lines = [f"  {_share_sentence(share).split(': ', 1)[1]}"]
    if share.method in ("exact", "sampled"):
        lines.append(f"  ({share.cards} cards to each player from the {share.common_deck} cards both decks hold; a tie that becomes a win counts as a change)")
    verdict = {1: "first wins", -1: "second wins", 0: "tie"}
    for deal in share.examples:
        lines.append(
            f"  e.g. {' '.join(deal.first)}  vs  {' '.join(deal.second)}: "
            f"{diff.a.name} {verdict[deal.outcome_a]}, {diff.b.name} {verdict[deal.outcome_b]}"
        )
    return lines


def render_text(diff: Diff) -> str:
    """The plain-text report."""
    lines = [f"pokerrules diff {diff.a.name} {diff.b.name}  ({diff.cards}-card hands)", ""]
    lines += [f"* {line}" for line in diff.summary()]
    lines += ["", "Decks and rules (* differs)"]
    rows = [["", diff.a.name, diff.b.name]] + [[("* " if s.differs else "  ") + s.name, s.a, s.b] for s in diff.settings]
    lines += _table(rows)
    lines += ["", f"Category order, highest first, with {diff.cards}-card frequencies"]
    lines += _table(_order_rows(diff))
    lines += ["", f"Flips ({len(diff.flips)}): hands that win in {diff.a.name} and lose in {diff.b.name}"]
    lines += _flip_lines(diff) or ["  none: every category both rulesets have keeps its place relative to the others"]
    if diff.reclassified:
        lines += ["", f"Same cards, another category ({len(diff.reclassified)}), in the cards both decks hold"]
        lines += _table([[r.category_a, "→", r.category_b, _classes_text(r.classes), "e.g. " + " ".join(r.example.cards), f"({r.example.description_b})"] for r in diff.reclassified])
    lines += ["", "Heads-up showdowns whose winner changes"]
    lines += _showdown_lines(diff)
    return "\n".join(lines) + "\n"


def _classes_text(classes: int) -> str:
    return f"{classes:,} hand class{'es' if classes != 1 else ''}"


def _example_dict(hand: ExampleHand) -> dict[str, Any]:
    return {"cards": list(hand.cards), "category": hand.category, "description_a": hand.description_a, "description_b": hand.description_b}


def _as_dict(diff: Diff) -> dict[str, Any]:
    share = diff.showdowns
    return {
        "a": {"name": diff.a.name, "title": diff.a.title, "deck_size": diff.a.deck_size, "hand_size": diff.a.hand_size},
        "b": {"name": diff.b.name, "title": diff.b.title, "deck_size": diff.b.deck_size, "hand_size": diff.b.hand_size},
        "cards": diff.cards,
        "identical": diff.identical,
        "same_rules": diff.same_rules,
        "summary": diff.summary(),
        "settings": [{"name": s.name, "a": s.a, "b": s.b, "differs": s.differs} for s in diff.settings],
        "categories": {
            side: [
                {"name": c.name, "position": c.position, "pattern": c.pattern, "count": c.count, "probability": c.probability}
                for c in order
            ]
            for side, order in (("a", diff.order_a), ("b", diff.order_b))
        },
        "only_in_a": list(diff.only_a),
        "only_in_b": list(diff.only_b),
        "pattern_changes": [{"category": name, "a": pa, "b": pb} for name, pa, pb in diff.pattern_changes],
        "flips": [
            {
                "winner_in_a": flip.winner_a,
                "winner_in_b": flip.winner_b,
                "example": None
                if flip.example is None
                else {
                    "wins_in_a": _example_dict(flip.example[0]),
                    "wins_in_b": _example_dict(flip.example[1]),
                    "compare_a": flip.compare_a,
                    "compare_b": flip.compare_b,
                },
            }
            for flip in diff.flips
        ],
        "reclassified": [
            {"category_a": r.category_a, "category_b": r.category_b, "classes": r.classes, "example": _example_dict(r.example)}
            for r in diff.reclassified
        ],
        "showdowns": {
            "method": share.method,
            "cards": share.cards,
            "common_deck": share.common_deck,
            "deals": share.deals,
            "changed": share.changed,
            "share": share.share,
            "interval": None
            if share.low is None or share.high is None
            else {"level": CONFIDENCE, "method": "wilson", "low": share.low, "high": share.high},
            "seed": share.seed,
            "reason": share.reason or None,
            "examples": [
                {"first": list(d.first), "second": list(d.second), "outcome_a": d.outcome_a, "outcome_b": d.outcome_b}
                for d in share.examples
            ],
        },
    }


# --- the command ---------------------------------------------------------------------------------------------


def write_atomically(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file, so no half-written report is left.

    A symbolic link is never replaced nor written through (``OSError``): the
    report goes where the name says or nowhere. A path that is not a regular
    file (``/dev/stdout``, a pipe) is written directly, since it cannot be
    replaced.
    """
    target = Path(path)
    if target.is_symlink() and (target.is_file() or not target.exists()):
        raise OSError(f"{path}: is a symbolic link; not replaced (give the real file name)")
    if target.exists() and not target.is_file():  # /dev/stdout, a pipe: written where it leads
        with open(target, "w", encoding="utf-8") as stream:
            stream.write(text)
        return
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent if str(target.parent) else ".")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def command(args: argparse.Namespace, out: TextIO) -> int:
    """``pokerrules diff A B``: build the comparison, then write text or JSON (and the HTML file)."""
    from .cli_output import UsageError
    from .ruleset import load

    root = getattr(args, "root", None)
    a, b = load(args.ruleset_a, root=root), load(args.ruleset_b, root=root)
    samples = args.samples if args.samples is not None else DEFAULT_SAMPLES
    problem = usage_problem(a, b, args.cards, samples)
    if problem:
        raise UsageError(f"pokerrules diff: {problem}")
    seed = args.seed if args.seed is not None else DEFAULT_SEED
    diff = compare_rulesets(a, b, args.cards, samples, seed, progress=sys.stderr)
    text = json.dumps(diff.as_dict(), ensure_ascii=False, indent=2) + "\n" if args.json else render_text(diff)
    if args.html:
        from .report import render_html

        if args.html in ("-", "/dev/stdout"):  # the report on stdout, instead of the text
            out.write(render_html(diff))
            return EXIT_OK
        write_atomically(args.html, render_html(diff))
    out.write(text)
    return EXIT_OK
