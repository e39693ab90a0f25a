"""Charts of sampled starting hands: games whose hands do not reduce to two hole cards.

Omaha deals four hole cards (270,725 hands, 16,432 up to a renaming of suits),
stud three before the first up-card street: there is no 13x13 grid, so the
chart is a *stated sample* of starting hands, each with its equity against
random opponents, computed by the same seeded chunks as the grid
(:mod:`evaluator.odds.chart`), here or on a Dask cluster.

**The starting hand.** A game with a board (hold'em, Omaha) starts with its
hole cards. A game without a board that deals more cards than a hand holds is
stud: its starting hand is the first three cards (two down, one up); the other
cards are dealt to every player, street by street, and nobody folds. A game
without a board that deals a hand's worth (five-card games) starts with the
whole hand as dealt (no drawing).

**The sample.** Hand ``i`` (``i`` from 0) is a uniformly random set of starting
cards from the cards left (the deck without ``board`` and ``dead``), drawn from
``numpy.random.SeedSequence(seed, spawn_key=(i,))``: the first N hands are the
same whatever N. When the suits are interchangeable (one pack, no single wild
card, no suit tie-break, no pattern naming a suit, no known cards) each hand is
written in one canonical form under a renaming of suits, so equal hands merge;
every distinct hand is charted once and weighs as many draws as gave it.

**The deals.** Distinct hand ``p`` (in order of first draw) is the odds question
"these cards against N ``random`` hands": sampled in chunks of
``CHUNK_SAMPLES`` deals, chunk ``j`` from ``SeedSequence(seed, spawn_key=(p, j))``,
or exact (every deal) where the work allows.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from math import factorial, perm
from typing import TYPE_CHECKING, Any

from ..compiled.deck_split import suit_sensitive
from ..compiled.suitclasses import symmetric
from ..core.errors import PokerRulesError, error
from ..core.words import counted
from ..engine.cardread import read_cards
from ..engine.showdown import half_rulesets
from ..rules.cards import Card
from .chart_run import (
    CHUNK_SAMPLES,
    DEFAULT_CHART_SAMPLES,
    ChartResult,
    Chunk,
    HandSample,
    SampledHand,
    check_chart_work,
    check_question,
    deal_cost,
    exact_cost,
    settle_chart,
)
from .cluster import Progress, chunk_rng, drawn_seed
from .deals import OddsError
from .odds import deal_geometry
from .ranges import grid_ranks

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

#: Starting hands drawn when no number is given.
DEFAULT_CHART_HANDS = 200
#: At most this many starting hands in one chart.
MAX_CHART_HANDS = 10_000
#: Cards of a stud starting hand: two down, one up.
STUD_START = 3


def starting_cards(ruleset: Rules) -> int:
    """Cards of a starting hand: the hole cards of a board game, the first three of stud.

    >>> from evaluator import load
    >>> [starting_cards(load(name)) for name in ("holdem", "omaha", "seven-card-stud", "italian")]
    [2, 4, 3, 5]
    """
    hole, board, _ = deal_geometry(ruleset, ["random"])
    if board == 0 and hole > ruleset.hand_size:
        return min(STUD_START, hole)
    return hole


def suits_interchangeable(ruleset: Rules) -> bool:
    """True when renaming the suits changes no showdown, in every half of the pot.

    >>> from evaluator import load
    >>> suits_interchangeable(load("omaha-hi-lo")), suits_interchangeable(load("italian"))
    (True, False)
    """
    game = ruleset.game
    if game is not None and any(split.card is not None and split.card.suit is not None for split in game.split):
        return False  # a half won by a card of one suit (Chicago's spades)
    halves = [] if game is not None and game.card_halves else [half for _, half in half_rulesets(ruleset)]
    return all(
        symmetric(rules) and rules.tiebreak == "none" and not suit_sensitive(rules) for rules in [ruleset] + halves
    )


def canonical_hand(ruleset: Rules, cards: list[Card], relabel: bool) -> tuple[list[Card], int]:
    """The hand sorted (highest rank first), its suits renamed to one canonical form
    when ``relabel``, and how many hands of the deck that form stands for.

    The suits are renamed by what they hold -- the most cards first, then the
    highest ranks -- to the deck's suits in their written order.

    >>> from evaluator import load
    >>> omaha = load("omaha")
    >>> hand, combos = canonical_hand(omaha, omaha.cards("Kc As Qc Ad"), True)
    >>> " ".join(map(str, hand)), combos
    ('Ah Ad Ks Qs', 12)
    """
    order = {rank: i for i, rank in enumerate(grid_ranks(ruleset))}  # 0: the highest
    suits = list(ruleset.suits)
    jokers = sorted(card for card in cards if card.is_joker)
    naturals = [card for card in cards if not card.is_joker]
    combos = 1
    if relabel:
        by_suit: dict[str, list[str]] = {}
        for card in naturals:
            by_suit.setdefault(card.suit or "", []).append(card.rank or "")
        held_by_suit = [sorted(held, key=order.__getitem__) for held in by_suit.values()]
        groups = sorted(held_by_suit, key=lambda held: (-len(held), [order[rank] for rank in held]))
        naturals = [Card(rank, suits[s]) for s, held in enumerate(groups) for rank in held]
        combos = perm(len(suits), len(groups))
        for times in Counter(tuple(held) for held in groups).values():
            combos //= factorial(times)  # suits holding the same ranks: renaming them changes nothing
    naturals.sort(key=lambda card: (order[card.rank or ""], suits.index(card.suit or "")))
    return naturals + jokers, combos


def _known_cards(ruleset: Rules, board: str, dead: str) -> Counter[Card]:
    known: Counter[Card] = Counter()
    if board.strip():
        known.update(read_cards(ruleset, board.replace("|", " "), "<board>"))
    if dead.strip():
        known.update(read_cards(ruleset, dead, "<dead>"))
    return known


def draw_hands(
    ruleset: Rules, count: int, seed: int, board: str = "", dead: str = ""
) -> tuple[list[SampledHand], list[int], HandSample]:
    """Draw ``count`` starting hands (see the module docstring): the distinct hands in
    order of first draw, how many deck hands each stands for, and the rule as stated.

    >>> from evaluator import load
    >>> hands, combos, sample = draw_hands(load("seven-card-stud"), 5, seed=1)
    >>> len(hands) <= 5 == sum(hand.drawn for hand in hands), sample.cards, sample.relabelled
    (True, 3, True)
    """
    size = starting_cards(ruleset)
    known = _known_cards(ruleset, board, dead)
    pack = [card for card in ruleset.deck if not card.is_joker for _ in range(ruleset.copies)]
    pack += [card for card in ruleset.deck if card.is_joker]
    left = []
    for card in pack:
        if known[card]:
            known[card] -= 1
        else:
            left.append(card)
    if len(left) < size:
        raise error(OddsError, "O113", f"{len(left)} cards left; a starting hand is {size}", "<chart>")
    relabel = not board.strip() and not dead.strip() and suits_interchangeable(ruleset)
    drawn: dict[str, int] = {}
    combos: dict[str, int] = {}
    for i in range(count):
        picks = chunk_rng(seed, i).choice(len(left), size, replace=False)
        hand, stands_for = canonical_hand(ruleset, [left[p] for p in sorted(picks)], relabel)
        name = " ".join(map(str, hand))
        drawn[name] = drawn.get(name, 0) + 1
        combos[name] = stands_for
    hands = [SampledHand(name, p, times) for p, (name, times) in enumerate(drawn.items())]
    rule = _rule_text(ruleset, count, size, len(left), seed, relabel)
    return hands, [combos[hand.name] for hand in hands], HandSample(count, seed, size, relabel, rule)


def _rule_text(ruleset: Rules, count: int, size: int, left: int, seed: int, relabel: bool) -> str:
    hole, board, _ = deal_geometry(ruleset, ["random"])
    start = f"{size} hole cards" if board else f"{size} cards"
    if not board and size < hole:
        start = f"the first {size} of {hole} cards (the rest dealt to every player, nobody folds)"
    merged = (
        "suits renamed to one canonical form, equal hands merged and weighted by their draws"
        if relabel
        else "equal hands merged and weighted by their draws (suits kept as drawn)"
    )
    return (
        f"{counted(count, 'starting hand')} of {start}, hand i uniformly random from the {left} cards left, "
        f"drawn from numpy SeedSequence({seed}, spawn_key=(i,)); {merged}"
    )


def _fail(message: str, hint: str | None = None) -> PokerRulesError:
    return error(OddsError, "O117", message, "<chart>", hint=hint)


def _given_hands(ruleset: Rules, classes: list[str]) -> tuple[list[SampledHand], list[int]]:
    """Hands given as cards (``classes``), each read against the deck and sorted (suits as given)."""
    size = starting_cards(ruleset)
    hands = []
    for i, text in enumerate(classes):
        cards = read_cards(ruleset, text, f"<hand {i + 1}>")
        if len(cards) != size:
            raise _fail(f"{text!r} holds {len(cards)} cards; a starting hand of {ruleset.name} holds {size}")
        hands.append(SampledHand(" ".join(map(str, canonical_hand(ruleset, cards, False)[0])), i, 1))
    return hands, [1] * len(hands)  # kept as given: each stands for itself


def check_comparable(first: Rules, second: Rules) -> None:
    """Refuse (O117) two rulesets whose charts have no hand in common: a grid and a sample,
    or starting hands of different sizes (checked before either chart is computed).

    >>> from evaluator import load
    >>> check_comparable(load("omaha"), load("omaha-hi-lo"))
    """
    sizes = starting_cards(first), starting_cards(second)
    if sizes[0] == sizes[1]:
        return
    if 2 in sizes:
        grid, other = (first, second) if sizes[0] == 2 else (second, first)
        raise _fail(f"{grid.name} has a grid chart and {other.name} a sampled one: they cannot be compared")
    raise _fail(
        f"a starting hand of {first.name} holds {sizes[0]} cards, of {second.name} {sizes[1]}: "
        "the charts have no hand in common"
    )


def _hands_of(ruleset: Rules, first: ChartResult, board: str, dead: str) -> tuple[list[SampledHand], list[int], str]:
    """The hands of another sampled chart that this deck holds (the cards known here left out)."""
    sample = first.sample
    if sample is None:
        raise _fail(f"{first.ruleset} has a grid chart and {ruleset.name} a sampled one: they cannot be compared")
    size = starting_cards(ruleset)
    if size != sample.cards:
        raise _fail(
            f"a starting hand of {first.ruleset} holds {sample.cards} cards, of {ruleset.name} {size}: "
            "the charts have no hand in common"
        )
    known = _known_cards(ruleset, board, dead)
    relabel = not board.strip() and not dead.strip() and suits_interchangeable(ruleset)
    hands, combos = [], []
    for cell in first.cells:
        try:
            cards = read_cards(ruleset, cell.hand.name, "<hand>")
        except PokerRulesError:  # a card this deck lacks: the hand is not dealt here
            continue
        if any(Counter(cards)[card] + known[card] > max(ruleset.copies, 1) for card in cards):
            continue
        if isinstance(cell.hand, SampledHand):
            hands.append(cell.hand)
            combos.append(canonical_hand(ruleset, cards, relabel and sample.relabelled)[1])
    rule = (
        f"the hands of the {first.ruleset} chart's sample that {ruleset.name} deals: {len(hands)} of {len(first.cells)}"
    )
    return hands, combos, rule


def sampled_chart(
    ruleset: Rules,
    opponents: int = 1,
    samples: int | None = None,
    exact: bool = False,
    seed: int | None = None,
    board: str = "",
    dead: str = "",
    classes: list[str] | None = None,
    client: Any = None,
    progress: Progress | None = None,
    hands: int | None = None,
    same_hands_as: ChartResult | None = None,
) -> ChartResult:
    """The equity of ``hands`` sampled starting hands (default 200), of the hands
    given as cards (``classes``), or of another sampled chart's hands
    (``same_hands_as``), against ``opponents`` random hands; the checks on
    ``opponents``, ``samples`` and ``exact`` are :func:`evaluator.odds.chart.chart`'s.

    >>> from evaluator import load
    >>> result = sampled_chart(load("omaha"), hands=3, samples=2000, seed=1)
    >>> result.sample.hands, len(result.cells), result.cells[0].hand.kind
    (3, 3, 'sampled')

    Raises:
        PokerRulesError: O117 a number of hands out of 1..10,000, hands and
            classes together, a hand of the wrong size, or a chart of another
            kind to compare with; O111 exact past the bound; C1xx bad cards.
    """
    started = time.monotonic()
    check_question(opponents, samples, exact)
    if hands is not None and not 1 <= hands <= MAX_CHART_HANDS:
        raise _fail(f"{hands} hands; a sampled chart takes 1 to {MAX_CHART_HANDS:,}")
    if hands is not None and (classes is not None or same_hands_as is not None):
        raise _fail("give a number of hands or the hands themselves, not both")
    if seed is None and same_hands_as is not None and same_hands_as.sample is not None:
        seed = same_hands_as.sample.seed  # the same streams: the difference is measured with less noise
    hand_seed = drawn_seed(seed)
    size = starting_cards(ruleset)
    if same_hands_as is not None:
        wanted, combos, rule = _hands_of(ruleset, same_hands_as, board, dead)
        first = same_hands_as.sample
        assert first is not None
        sample = HandSample(first.hands, first.seed, size, first.relabelled, rule)
    elif classes is not None:
        wanted, combos = _given_hands(ruleset, classes)
        sample = HandSample(len(classes), hand_seed, size, False, f"the {len(classes)} hands given")
    else:
        wanted, combos, sample = draw_hands(ruleset, hands or DEFAULT_CHART_HANDS, hand_seed, board, dead)
    per_hand = samples if samples is not None else DEFAULT_CHART_SAMPLES
    used_seed = None if exact else hand_seed
    if exact and wanted:  # every hand costs the same
        per_hand_exact = exact_cost(ruleset, wanted[0].name, opponents, board, dead, len(wanted))
        check_chart_work(per_hand_exact * len(wanted), len(wanted), "hands", exact=True)
    if not exact:
        lookups = float(per_hand) * len(wanted) * deal_cost(ruleset, opponents, board, dead)
        check_chart_work(lookups, len(wanted), f"hands x {per_hand:,} deals", exact=False)

    def chunks() -> Iterator[Chunk]:
        for p, hand in enumerate(wanted):
            if exact:
                yield Chunk(p, hand.index, 0, hand.name, opponents, board, dead, 0, 0)
                continue
            for j, start in enumerate(range(0, per_hand, CHUNK_SAMPLES)):
                n = min(CHUNK_SAMPLES, per_hand - start)
                yield Chunk(p, hand.index, j, hand.name, opponents, board, dead, n, hand_seed)

    return settle_chart(
        ruleset,
        wanted,
        combos,
        chunks(),
        opponents=opponents,
        board=board,
        dead=dead,
        exact=exact,
        seed=used_seed,
        per_cell=per_hand,
        client=client,
        progress=progress,
        started=started,
        work=float(len(wanted)) if exact else float(per_hand * len(wanted)),
        sample=sample,
    )
