"""Charts of dealer's-choice games: sampled starting hands, each completed street by street.

The starting hands are drawn as :mod:`evaluator.odds.chart_sample` draws them
(the first three cards of stud, two down and one up; the hole cards of a board
game), but in the order dealt and never renamed or sorted: which card is face
up, and which suit, is what these games read. Each one's equity against ``opponents`` random players is the
odds of that partly known deal (:func:`evaluator.odds.dealt.dealt_odds`): the
rest of every hand is dealt in dealing order, so each deal decides its own
wild cards, extra cards and card halves. The chart is seat 1's (the first to
be dealt), which in Follow the Queen is not every seat's. It runs on one
machine; the rules the deal decides are listed with the chart.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np

from ..core.errors import error
from ..deal.resolve import rules_text
from .chart_run import Cell, ChartResult, HandSample, SampledHand
from .chart_sample import MAX_CHART_HANDS, starting_cards
from .cluster import Progress, chunk_rng, drawn_seed
from .deals import OddsError
from .dealt import dealt_odds
from .ranges import grid_ranks

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

#: Starting hands of a dealer's-choice chart when no number is given.
DEFAULT_DEALT_HANDS = 50
#: Deals per starting hand when no number is given (standard error about 1.5%).
DEFAULT_DEALT_SAMPLES = 1_000


def dealt_chart(
    rules: Rules,
    opponents: int = 1,
    samples: int | None = None,
    seed: int | None = None,
    hands: int | None = None,
    board: str = "",
    dead: str = "",
    progress: Progress | None = None,
) -> ChartResult:
    """The equity of ``hands`` sampled starting hands of a dealer's-choice game (see the module docstring).

    >>> from evaluator import load
    >>> result = dealt_chart(load("chicago"), hands=2, samples=200, seed=1)
    >>> len(result.cells), result.extra["deal_rules"]
    (2, ['the spade half goes to the highest spade in the hole (game.split)'])
    """
    started = time.monotonic()
    count = hands or DEFAULT_DEALT_HANDS
    if not 1 <= count <= MAX_CHART_HANDS:
        raise error(OddsError, "O117", f"{count} hands; a sampled chart takes 1 to {MAX_CHART_HANDS:,}", "<chart>")
    hand_seed = drawn_seed(seed)
    wanted, combos, sample = draw_dealt_hands(rules, count, hand_seed, board, dead)
    per_hand = samples if samples is not None else DEFAULT_DEALT_SAMPLES
    cells = []
    for position, (hand, stands_for) in enumerate(zip(wanted, combos, strict=True)):
        own_seed = int(np.random.SeedSequence(hand_seed, spawn_key=(position,)).generate_state(1)[0])
        result = dealt_odds(rules, [hand.name] + ["random"] * opponents, board, dead, samples=per_hand, seed=own_seed)
        hero = result.players[0]
        cells.append(Cell(hand, stands_for, hero.equity, hero.win, hero.tie, hero.std_error, result.deals))
        if progress is not None:
            progress((position + 1) / len(wanted))
    return ChartResult(
        ruleset=rules.name,
        ranks=grid_ranks(rules),
        opponents=opponents,
        method="sampled",
        seed=hand_seed,
        samples=per_hand,
        board=board,
        dead=dead,
        cells=cells,
        seconds=time.monotonic() - started,
        extra={"deal_rules": rules_text(rules)},
        sample=sample,
    )


def draw_dealt_hands(
    rules: Rules, count: int, seed: int, board: str = "", dead: str = ""
) -> tuple[list[SampledHand], list[int], HandSample]:
    """``count`` starting hands in dealing order, hand ``i`` from ``SeedSequence(seed, spawn_key=(i,))``
    (equal hands merged), written with their faces: ``(As Kd) 7c``.

    >>> from evaluator import load
    >>> hands, _, sample = draw_dealt_hands(load("follow-the-queen"), 3, seed=1)
    >>> hands[0].name.startswith("("), sample.relabelled
    (True, False)
    """
    from ..deal.read import read_cards_text
    from ..deal.sample import Known
    from ..deal.settle import dealt_text
    from ..deal.walk import walk

    size = starting_cards(rules)
    known = Known(1)
    for text, kind in ((board, "<board>"), (dead, "<dead>")):
        if text.strip():
            known.dead += [card for card, _ in read_cards_text(rules, text.replace("|", " "), kind, False, False).given]
    left = known.left(rules)
    if len(left) < size:
        raise error(OddsError, "O113", f"{len(left)} cards left; a starting hand is {size}", "<chart>")
    game = rules.game
    assert game is not None
    rank_of = [card.rank for card in rules.deck]
    # the board is not part of a starting hand: any card that buys nothing stands in for it
    quiet = next(i for i, rank in enumerate(rank_of) if rank not in {e.rank for e in game.extra})
    drawn: dict[str, int] = {}
    for i in range(count):
        picks = chunk_rng(seed, i).choice(len(left), size, replace=False)
        given = [(left[p], None) for p in picks]
        dealt = walk(game, rank_of, [given], [True], [], lambda: quiet).seats[0]
        name = dealt_text(rules, dealt)
        drawn[name] = drawn.get(name, 0) + 1
    hands = [SampledHand(name, p, times) for p, (name, times) in enumerate(drawn.items())]
    rule = (
        f"{count} starting hands of the first {size} cards dealt, in dealing order, hand i uniformly random from "
        f"the {len(left)} cards left, drawn from numpy SeedSequence({seed}, spawn_key=(i,)); the rest dealt street "
        "by street to every player, nobody folds"
    )
    return hands, [1] * len(hands), HandSample(count, seed, size, False, rule)
