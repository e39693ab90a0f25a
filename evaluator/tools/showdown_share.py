"""Heads-up showdowns whose outcome changes between two rulesets.

Both players are dealt the same N cards under both rulesets from the cards
both decks hold. The share is *exact* when the rules are the same (nothing can
change), when the exact flip census of the same hands is at hand (a deal
changes its outcome exactly when its two hands flip: :func:`census_share`) or
when there are no more deals than the sample budget (every deal is
enumerated); otherwise it is *sampled* with a stated seed and a 95% Wilson
score interval. Games (a board, must-use rules, hi-lo) are dealt by
:mod:`evaluator.tools.game_sample`.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, TextIO

from ..core.errors import PokerRulesError
from ..core.stats_math import wilson_interval
from ..rules.cards import Card
from .diff_basis import common_deck, hand_or_none, rules_fingerprint

if TYPE_CHECKING:
    from ..engine.hand import Hand
    from ..ruleset import Ruleset
    from .flip_types import FlipCensus

CHANGED_EXAMPLES = 3  # changed showdowns kept as examples
HeadsUp = tuple[tuple[Card, ...], tuple[Card, ...]]  # the two hands of one deal
BATCH_DEALS = 65_536  # deals ranked per NumPy batch: bounded memory, a progress step each


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


# --- showdowns whose outcome changes ---------------------------------------------------------------


def _outcome(ruleset: Ruleset, first: Hand | None, second: Hand | None) -> int:
    """1 first wins, -1 second wins, 0 tie; a hand no category matches loses."""
    if first is None or second is None:
        return (first is not None) - (second is not None)
    verdict: int = ruleset.compare(first, second)
    return verdict


class _Judge:
    """Outcomes of heads-up deals under both rulesets, hands evaluated once each."""

    def __init__(self, a: Ruleset, b: Ruleset) -> None:
        self.a, self.b = a, b
        self.hands: dict[tuple[Card, ...], tuple[Hand | None, Hand | None]] = {}

    def hands_of(self, cards: tuple[Card, ...]) -> tuple[Hand | None, Hand | None]:
        key = tuple(sorted(cards))
        if key not in self.hands:
            self.hands[key] = (hand_or_none(self.a, key), hand_or_none(self.b, key))
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


def batch_ready(ruleset: Ruleset, cards: int) -> bool:
    """Whether ``rank_many`` judges ``cards``-card hands exactly as ``evaluate`` + ``compare`` do.

    Not with ``beats:`` exceptions (no single value orders them), several packs
    (a card held twice) or a game's card-usage rules on a holding bigger than a hand.
    """
    game_rules = ruleset.game is not None and cards > ruleset.hand_size
    return ruleset.copies == 1 and not ruleset.beats and not game_rules


class Deals:
    """Heads-up deals as positions in the common deck: one row per deal, the first hand's
    ``cards`` positions then the second's (NumPy batches read card numbers from them, no
    card is looked up deal by deal)."""

    def __init__(self, deck: Sequence[Card], positions: Any, cards: int) -> None:
        self.deck = deck
        self.positions = positions
        self.cards = cards
        self.judged: list[tuple[Ruleset, Ruleset, tuple[Any, Any] | None]] = []  # of batch_outcomes

    @classmethod
    def drawn(cls, deck: Sequence[Card], cards: int, samples: int, seed: int) -> Deals:
        """``samples`` random deals with ``seed``, each drawn as ``random.Random(seed).sample(deck,
        2 * cards)`` draws its cards (positions, not cards: the same deals for a seed)."""
        return _drawn(tuple(deck), cards, samples, seed)

    def __len__(self) -> int:
        return len(self.positions)

    def pair(self, number: int) -> HeadsUp:
        """The two hands of deal ``number``."""
        row = self.positions[number].tolist()
        return tuple(self.deck[p] for p in row[: self.cards]), tuple(self.deck[p] for p in row[self.cards :])

    def numbers(self, ruleset: Ruleset, start: int, stop: int) -> tuple[Any, Any]:
        """The card numbers in ``ruleset``'s deck of deals ``start``..``stop``: first hands, second hands."""
        import numpy as np

        index = {card: number for number, card in enumerate(ruleset.deck)}
        ids = np.array([index[card] for card in self.deck], dtype=np.int64)[self.positions[start:stop]]
        return ids[:, : self.cards], ids[:, self.cards :]


@functools.lru_cache(maxsize=1)  # a sampled census and the showdown share of one diff deal (and judge) the same
def _drawn(deck: tuple[Card, ...], cards: int, samples: int, seed: int) -> Deals:
    """:meth:`Deals.drawn` (its positions read-only: the deals may be shared)."""
    import numpy as np

    rng = random.Random(seed)
    every = range(len(deck))
    # the smallest integers that hold a position, filled a batch at a time: a few bytes a deal
    positions = np.empty((samples, 2 * cards), dtype=np.min_scalar_type(len(deck)))
    for start in range(0, samples, BATCH_DEALS):
        stop = min(samples, start + BATCH_DEALS)
        positions[start:stop] = [rng.sample(every, 2 * cards) for _ in range(start, stop)]
    positions.setflags(write=False)
    return Deals(deck, positions, cards)


def _outcomes(ruleset: Ruleset, firsts: Any, seconds: Any) -> Any:
    """1 / -1 / 0 per deal (first wins, second wins, tie), ranked in one NumPy batch per side
    (``firsts`` and ``seconds``: card numbers in ``ruleset``'s deck, a hand per row)."""
    import numpy as np

    if firsts.shape[1] < ruleset.hand_min:
        return np.zeros(len(firsts), dtype=np.int64)  # no hand on either side: every deal ties
    first, second = ruleset.rank_many(firsts), ruleset.rank_many(seconds)
    if ruleset.qualifier is not None:
        # two hands that do not qualify tie (compare), whatever their values: one value for all
        # of them, below every qualifying value and above no hand (-1)
        from ..compiled.fasthand import fast_hands

        hands = fast_hands(ruleset)
        qualifying = np.asarray(hands.categories) >= 0
        for values in (first, second):
            made = values >= 0
            values[made & ~qualifying[np.maximum(values, 0) // hands.value_scale]] = 0
    return np.sign(first - second)  # no hand (-1) loses to any hand, as _outcome says


def _count_changed(a: Ruleset, b: Ruleset, deals: Deals, meter: _Progress) -> tuple[int, tuple[ChangedDeal, ...]]:
    """How many ``deals`` change their outcome, and the first few that do (in deal order)."""
    examples: list[ChangedDeal] = []
    judged = batch_outcomes(a, b, deals, meter.update)
    if judged is not None:
        outcome_a, outcome_b = judged
        differ = (outcome_a != outcome_b).nonzero()[0]
        for at in differ[:CHANGED_EXAMPLES].tolist():
            first, second = deals.pair(at)
            examples.append(
                ChangedDeal(tuple(map(str, first)), tuple(map(str, second)), int(outcome_a[at]), int(outcome_b[at]))
            )
        return len(differ), tuple(examples)
    judge, changed = _Judge(a, b), 0
    for number in range(len(deals)):
        changed += _changed(judge, *deals.pair(number), examples)
        meter.update(number + 1)
    return changed, tuple(examples)


def batch_outcomes(
    a: Ruleset, b: Ruleset, deals: Deals, progress: Callable[[int], None] | None = None
) -> tuple[Any, Any] | None:
    """Every deal's outcome under ``a`` and under ``b`` (1 first wins, -1 second wins, 0 tie) on the
    compiled tables, ``BATCH_DEALS`` deals per NumPy batch (``progress``: deals done); None when
    either ruleset's tables cannot judge them as ``compare`` does (:func:`batch_ready`, a deck too
    wide for the tables). The same deals are judged once for the same two rulesets (the outcomes
    are read-only)."""
    for seen_a, seen_b, found in deals.judged:
        if seen_a is a and seen_b is b:
            return found
    judged = _batch_outcomes(a, b, deals, progress)
    deals.judged.append((a, b, judged))
    return judged


def _batch_outcomes(
    a: Ruleset, b: Ruleset, deals: Deals, progress: Callable[[int], None] | None
) -> tuple[Any, Any] | None:
    import numpy as np

    if not len(deals) or not (batch_ready(a, deals.cards) and batch_ready(b, deals.cards)):
        return None
    outcomes: list[tuple[Any, Any]] = []
    try:
        for start in range(0, len(deals), BATCH_DEALS):
            stop = min(len(deals), start + BATCH_DEALS)
            # one byte per outcome (-1, 0 or 1)
            judged = [_outcomes(side, *deals.numbers(side, start, stop)).astype(np.int8) for side in (a, b)]
            outcomes.append((judged[0], judged[1]))
            if progress is not None:
                progress(stop)
    except PokerRulesError:
        return None  # R104: a deck too wide for the tables; C105: a hand of more wild cards than they fill
    both = np.concatenate([o[0] for o in outcomes]), np.concatenate([o[1] for o in outcomes])
    for side in both:
        side.setflags(write=False)
    return both


def exact_share(a: Ruleset, b: Ruleset, deck: Sequence[Card], cards: int) -> ShowdownShare:
    """Enumerate every heads-up deal (each physical card distinct) and count the changed ones."""
    import numpy as np

    rows: list[tuple[int, ...]] = []
    positions = range(len(deck))
    for first in combinations(positions, cards):
        rest = [p for p in positions if p not in first and p > first[0]]
        rows.extend(first + second for second in combinations(rest, cards))
    deals = Deals(deck, np.array(rows, dtype=np.int64).reshape(len(rows), 2 * cards), cards)
    changed, examples = _count_changed(a, b, deals, _Progress(None, len(deals)))
    share = changed / len(deals) if len(deals) else 0.0
    return ShowdownShare("exact", cards, len(deck), len(deals), changed, share, examples=examples)


def census_share(census: FlipCensus) -> ShowdownShare:
    """The exact share from an exact flip census (``census.method == "exact"``) of the hands dealt.

    The census counts every unordered pair of hands that share no card -- every heads-up deal --
    whose outcome differs (a win that becomes a loss or a tie, a tie that becomes a win), which is
    what a changed showdown is; its groups' examples are the examples.
    """
    if census.method != "exact":
        raise ValueError(f"a {census.method} flip census is not an exact count of the showdowns")
    examples = tuple(
        ChangedDeal(group.example[0].cards, group.example[1].cards, group.outcome_a, group.outcome_b)
        for group in census.groups
        if group.example is not None
    )[:CHANGED_EXAMPLES]
    changed, deals = census.total(), census.population
    share = changed / deals if deals else 0.0
    return ShowdownShare("exact", census.hand_size, census.common_deck, deals, changed, share, examples=examples)


def sampled_share(
    a: Ruleset, b: Ruleset, deck: Sequence[Card], cards: int, samples: int, seed: int, progress: TextIO | None = None
) -> ShowdownShare:
    """Deal ``samples`` random heads-up deals with ``seed``; the share changed and its Wilson interval."""
    deals = Deals.drawn(deck, cards, samples, seed)
    meter = _Progress(progress, samples)
    changed, examples = _count_changed(a, b, deals, meter)
    meter.done()
    low, high = wilson_interval(changed, samples)
    return ShowdownShare("sampled", cards, len(deck), samples, changed, changed / samples, low, high, seed, examples)


def showdown_share(
    a: Ruleset,
    b: Ruleset,
    cards: int,
    samples: int,
    seed: int,
    progress: TextIO | None = None,
    census: FlipCensus | None = None,
) -> ShowdownShare:
    """The share of heads-up showdowns whose outcome changes: exact where cheap, else sampled.

    ``census``: the flip census of ``a`` and ``b`` when one was taken; exact and of hands of
    ``cards`` cards, it is the share (:func:`census_share`) and nothing is dealt.
    """
    deck = common_deck(a, b)
    if len(deck) < 2 * cards:
        reason = f"the decks share {len(deck)} cards, too few to deal two hands of {cards}"
        return ShowdownShare("impossible", cards, len(deck), 0, 0, None, reason=reason)
    deals = heads_up_deals(len(deck), cards)
    if rules_fingerprint(a) == rules_fingerprint(b):
        return ShowdownShare(
            "identical", cards, len(deck), deals, 0, 0.0, reason="the rules that decide a showdown are the same"
        )
    if census is not None and census.method == "exact" and census.hand_size == cards:
        return census_share(census)  # every deal already judged
    if deals <= samples:
        return exact_share(a, b, deck, cards)
    return sampled_share(a, b, deck, cards, samples, seed, progress)


class _Progress:
    """The progress bar of dealing showdowns (none when no stream is given)."""

    def __init__(self, stream: TextIO | None, total: int) -> None:
        from ..core.progress import Bar

        self.bar = Bar("diff: dealing showdowns", stream) if stream is not None else None
        self.total = max(total, 1)

    def update(self, done: int) -> None:
        if self.bar is not None:
            self.bar(done / self.total)

    def done(self) -> None:
        if self.bar is not None:
            self.bar.finish()
