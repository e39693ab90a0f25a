"""Comparing two rulesets: what changes, how often, and with which hands.

``pokerrules diff A B`` answers three questions, each from the rules as data
(the engine never asks for a ruleset's name):

1. **What is different on paper.** The decks and rule settings side by side
   (deck size, ranks, ace, direction, hand size, wild cards, suit order and
   tie-break, ``beats:`` exceptions, qualifier, game), and the category orders
   side by side with each side's exact frequencies for N dealt cards (from
   :func:`evaluator.compiled.counting.category_counts`), plus the categories only one
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
   decks hold. It is *exact* when the rules are the same (nothing can change),
   when the flip census of the same hands is exact (a deal is a pair of hands
   that can meet: its total over its population) or when there are no more
   deals than the sample budget (every deal is enumerated); otherwise it is
   *sampled* with a stated seed and a 95% Wilson score interval.

The result is a plain :class:`Diff` value; its text rendering is in
:mod:`evaluator.tools.diff_text`, its JSON is ``Diff.as_dict``, the HTML report is
:mod:`evaluator.tools.report`. ``command`` builds
everything first and writes only at the end, so nothing is written (neither
stdout nor the HTML file) when the comparison fails. The exit code is 0 for
every successful comparison: diff is a report, not a check.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any, TextIO

from ..compiled.fasthand import generic_answers
from ..core.atomic_write import write_atomically
from ..core.errors import UsageError
from ..core.safe_text import json_dumps
from ..core.stats_math import CONFIDENCE, wilson_interval  # noqa: F401 (re-exported)
from ..rules.cards import Card
from .diff_basis import common_deck, rules_fingerprint
from .diff_scan import EXAMPLE_TRIES, MAX_CANDIDATE_CLASSES, candidate_hands, scan_common_hands  # noqa: F401 (re-exported)
from .diff_text import render_text
from .diff_types import (
    CategoryStat,
    Diff,
    ExampleHand,
    Flip,
    Reclassified,
    Representative,
    Scan,
    Setting,
    Side,
)
from .showdown_share import ChangedDeal, ShowdownShare, heads_up_deals, showdown_share  # noqa: F401 (re-exported)

if TYPE_CHECKING:
    from ..ruleset import Ruleset

EXIT_OK, EXIT_USAGE = 0, 2
DEFAULT_SAMPLES = 20_000
#: ``--samples`` at most: a sampled census keeps every drawn pair's card positions (10 bytes for two
#: five-card hands, 100 MB here) and judges its changing pairs hand by hand (about 20,000 a second)
MAX_SAMPLES = 10_000_000
DEFAULT_SEED = 2026


# --- settings ------------------------------------------------------------------------------


def _ranks_text(ruleset: Ruleset) -> str:
    return " ".join(ruleset.deck_ranks)


def _wild_text(ruleset: Ruleset) -> str:
    wild = ruleset.wild
    if not wild.any and not wild.by_deal:
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
    if wild.follow is not None:
        parts.append(f"the rank dealt face up after the last face-up {wild.follow.rank} (decided by the deal)")
    if wild.lowest_down:
        parts.append("each player's lowest face-down rank (decided by the deal)")
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
    use = (
        "any"
        if game.use_hole is None and game.use_board is None
        else f"{game.use_hole or 0} hole + {game.use_board or 0} board"
    )
    text = f"{game.hole} hole, {game.board} board, use {use}"
    if game.boards > 1:
        text += f", {game.boards} boards"
    if game.split:
        text += ", split " + " / ".join(f"{s.name}: {_half_text(ruleset, s)}" for s in game.split)
    if game.extra:
        text += ", extra cards for " + "/".join(f"{e.rank} dealt face {e.face}" for e in game.extra)
    if game.declare is not None:
        text += ", declare"
    if game.runs > 1:
        text += f", run up to {game.runs} times"
    return text


def _half_text(ruleset: Ruleset, split: Any) -> str:
    """What judges a half: its ruleset, this ruleset itself, or a card (Chicago)."""
    if split.card is not None:
        from ..deal.resolve import card_rule_text

        return card_rule_text(split.card)
    return split.ruleset if split.ruleset is not None else ruleset.name


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
        row(
            "hand size", lambda r: str(r.hand_size) + (f" (at least {r.hand_min})" if r.hand_min != r.hand_size else "")
        ),
        row("wild cards", _wild_text),
        row("natural beats wild", lambda r: "yes" if r.natural_beats_wild else "no"),
        row("suit order", lambda r: " > ".join(r.suit_order)),
        row("suit tie-break", lambda r: r.tiebreak),
        row(
            "beats exceptions", lambda r: "; ".join(f"{x.winner.text} beats {x.loser.text}" for x in r.beats) or "none"
        ),
        row("qualifier", lambda r: r.qualifier.text if r.qualifier is not None else "none"),
        row("game", _game_text),
    )


# --- categories and frequencies -----------------------------------------------------------------


def frequencies(ruleset: Ruleset, cards: int, counted: Mapping[str, int] | None = None) -> tuple[CategoryStat, ...]:
    """``ruleset``'s categories in order, with their exact N-card frequencies (``counted`` when
    they are known already: deals per category)."""
    from ..compiled.counting import category_counts
    from ..compiled.counts import deal_count

    counts: Mapping[str, int] = counted if counted is not None else category_counts(ruleset, cards)
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


def reclassified(a: Ruleset, b: Ruleset, scan: Scan) -> tuple[Reclassified, ...]:
    """Category changes of the same cards, most frequent first, each with an example."""
    rows = [
        Reclassified(category_a, category_b, count, _example_hand(cards, a, b))
        for (category_a, category_b), (count, cards) in scan.moved.items()
    ]
    return tuple(sorted(rows, key=lambda row: (-row.classes, row.category_a, row.category_b)))


class _Dealable:
    """Whether two hands can be dealt together from one deck (made once per deck: the example
    search asks thousands of times)."""

    def __init__(self, deck: Sequence[Card]) -> None:
        self.available = Counter(deck)
        self.each_once = max(self.available.values(), default=1) == 1

    def __call__(self, first: Sequence[Card], second: Sequence[Card]) -> bool:
        """True when the deck holds every card of both hands as often as they do.

        >>> from evaluator.rules.cards import Card
        >>> ace, king = Card("A", "s"), Card("K", "s")
        >>> dealable = _Dealable([ace, king, Card("Q", "s")])
        >>> dealable([ace], [king]), dealable([ace], [ace, king])
        (True, False)
        """
        if self.each_once:  # every hand's cards are the deck's: they must only be apart
            return set(first).isdisjoint(second)
        together = Counter(first)
        together.update(second)
        return all(self.available[card] >= count for card, count in together.items())


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
    tries = sorted(
        ((i, j) for i in range(len(firsts)) for j in range(len(seconds))), key=lambda ij: (ij[0] + ij[1], ij[0])
    )
    dealable = _Dealable(deck)
    for i, j in tries:
        first, second = firsts[i][0], seconds[j][0]
        if not dealable(first, second):
            continue
        text_first, text_second = _cards_text(first), _cards_text(second)
        verdict_a, verdict_b = a.compare(text_first, text_second), b.compare(text_first, text_second)
        if verdict_a == 1 and verdict_b == -1:
            return Flip(
                winner_a, winner_b, (_example_hand(first, a, b), _example_hand(second, a, b)), verdict_a, verdict_b
            )
    return Flip(winner_a, winner_b, None)


def flips(a: Ruleset, b: Ruleset, scan: Scan | None, deck: Sequence[Card]) -> tuple[Flip, ...]:
    """Every category pair whose order differs, each with a verified example where one exists."""
    pairs = flipped_pairs(a, b)
    if scan is None:
        return tuple(Flip(w_a, w_b, None) for w_a, w_b in pairs)
    return tuple(find_flip_example(a, b, pair, scan.same, deck) for pair in pairs)


# --- putting it together ------------------------------------------------------------------------------

#: Calls per ruleset the search for verified examples answers generically before the tables take over.
EXAMPLE_CALLS = 200


def _side(ruleset: Ruleset) -> Side:
    return Side(ruleset.name, ruleset.title, ruleset.deck_size, ruleset.hand_size)


def compare_rulesets(
    a: Ruleset,
    b: Ruleset,
    cards: int | None = None,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    progress: TextIO | None = None,
    game_deals: int | None = None,
) -> Diff:
    """Compare ``a`` with ``b`` (see the module docstring); ``cards`` defaults to the hand size."""
    from .diff_parts import part_category_counts, scan_parts
    from .flips import flip_census
    from .lowball import lowball_sides

    dealt = cards if cards is not None else max(a.hand_size, b.hand_size)
    same_rules = rules_fingerprint(a) == rules_fingerprint(b)
    deck = common_deck(a, b)
    size = max(a.hand_size, b.hand_size)
    games = None
    flip_causes, parts = (None, None) if same_rules else flip_census(a, b, deck, samples, seed, progress)
    if a.game is not None or b.game is not None:
        from .game_sample import DEFAULT_GAME_DEALS, game_share

        games = game_share(a, b, deck, game_deals or DEFAULT_GAME_DEALS, seed, progress)
        reason = "either ruleset has a game: heads-up deals are dealt as the games deal (see the game deals)"
        showdowns = ShowdownShare("game", dealt, len(deck), 0, 0, None, reason=reason)
    else:
        showdowns = showdown_share(a, b, dealt, samples, seed, progress, flip_causes)
    scan = None
    if not same_rules and len(deck) >= 2 * size:
        # every hand of the deck, judged for the census: its parts are the candidate hands, exactly
        scan = scan_parts(parts) if parts is not None else scan_common_hands(a, b, deck, size, seed)
    # the examples are a few hands: no per-call closures for them, unless the search drags on
    with generic_answers(a, EXAMPLE_CALLS), generic_answers(b, EXAMPLE_CALLS):
        flip_examples = flips(a, b, scan, deck)
        reclassified_examples = reclassified(a, b, scan) if scan is not None else ()
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
        order_a=frequencies(a, dealt, part_category_counts(parts, a, dealt) if parts is not None else None),
        order_b=frequencies(b, dealt, part_category_counts(parts, b, dealt) if parts is not None else None),
        only_a=tuple(name for name in a.category_names if name not in names_b),
        only_b=tuple(name for name in b.category_names if name not in names_a),
        pattern_changes=pattern_changes,
        flips=flip_examples,
        reclassified=reclassified_examples,
        showdowns=showdowns,
        same_rules=same_rules,
        game_showdowns=games,
        flip_causes=flip_causes,
        lowball=lowball_sides(a, b),
    )


def usage_problem(a: Ruleset, b: Ruleset, cards: int | None, samples: int) -> str | None:
    """Why the arguments cannot be used, or None."""
    if not 1 <= samples <= MAX_SAMPLES:
        return f"--samples {samples}: must be from 1 to {MAX_SAMPLES:,}"
    if cards is None:
        return None
    need = max(a.hand_min, b.hand_min)
    if cards < need:
        return f"--cards {cards}: the hands need at least {need} cards"
    smallest = min(a.deck_size, b.deck_size)
    if cards > smallest:
        return f"--cards {cards}: a deck of {smallest} cards cannot deal that many"
    return None


# --- the command ---------------------------------------------------------------------------------------------


def command(args: argparse.Namespace, out: TextIO) -> int:
    """``pokerrules diff A B``: build the comparison, then write text or JSON (and the HTML file)."""
    from ..ruleset import load

    root = getattr(args, "root", None)
    a, b = load(args.ruleset_a, root=root), load(args.ruleset_b, root=root)
    samples = args.samples if args.samples is not None else DEFAULT_SAMPLES
    problem = usage_problem(a, b, args.cards, samples)
    if problem:
        raise UsageError(f"pokerrules diff: {problem}")
    seed = args.seed if args.seed is not None else DEFAULT_SEED
    diff = compare_rulesets(a, b, args.cards, samples, seed, progress=sys.stderr, game_deals=args.samples)
    text = json_dumps(diff.as_dict(), indent=2) + "\n" if args.json else render_text(diff)
    if args.html:
        from .report import render_html

        if args.html in ("-", "/dev/stdout"):  # the report on stdout, instead of the text
            out.write(render_html(diff))
            return EXIT_OK
        write_atomically(args.html, render_html(diff))
    out.write(text)
    return EXIT_OK
