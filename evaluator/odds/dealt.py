"""Odds of dealer's-choice games: partly known deals completed street by street.

Each player is given as the cards dealt so far, in dealing order (the compact
form of :mod:`evaluator.deal.read`): ``"(As Ad) Qh"`` is two aces in the hole
and the queen of hearts up; ``"(?? ??) 6d"`` two cards not seen and a six up;
``""`` or ``random`` nothing seen; ``fold: ...`` a player who folded, whose
cards still count (a queen they were dealt face up is a queen dealt face up).
The rest of every hand is dealt in dealing order from the cards left
(:mod:`evaluator.deal.sample`), so the wild cards, extra cards and card halves
each deal decides are those of real deals; a game that runs it twice deals
both runs from the one deck after ``--board``.

Exact when the deals to enumerate are at most :data:`EXACT_DEALS` (and no
extra card can be drawn: its deals do not number the same), every ordered
draw weighted alike; otherwise a seeded Monte Carlo of ``samples`` deals with
a standard error per figure. Hi-lo declare: ``declare`` gives each player's
declared strategy (the same declaration whatever the cards).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from itertools import islice
from typing import TYPE_CHECKING

import numpy as np

from ..core.errors import PokerRulesError, error
from ..deal.deal import read_deal
from ..deal.judge import Judge
from ..deal.sample import Known, every_deal, exact_count, random_deals
from ..engine.cardread import read_ids
from .cluster import drawn_seed
from .deals import OddsError
from .odds import OddsResult, PlayerOdds

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

#: Exact enumeration when the deals to list are at most this many.
EXACT_DEALS = 50_000
#: Deals drawn when the answer is sampled and no number is given.
DEFAULT_DEAL_SAMPLES = 20_000
BLOCK = 2_000


def known_deal(rules: Rules, hands: Sequence[str], board: str = "", dead: str = "") -> tuple[Known, list[str]]:
    """What the question knows of the deal, checked like a showdown's deal (faces, repeats, counts)."""
    texts = ["" if text.strip().lower() in ("random", "*") else text for text in hands]
    boards = [board] if board.strip() else []
    deal = read_deal(rules, texts, boards, None, allow_unknown=True)
    dead_ids = read_ids(rules, dead, "<dead>") if dead.strip() else []
    known = Known(
        len(texts),
        [seat.given for seat in deal.seats],
        [seat.folded for seat in deal.seats],
        deal.boards[0].given if deal.boards else (),
        list(dead_ids),
    )
    left = known.left(rules)
    counts: dict[int, int] = {}
    for card in left:
        counts[card] = counts.get(card, 0) + 1
    for card in dead_ids:
        if card not in counts and rules.deck[card] not in [rules.deck[i] for i in left]:
            raise error(OddsError, "G104", f"dead card {rules.deck[card]} is dealt already", "<dead>")
    shown = [text.strip() or "random" for text in hands]
    return known, shown


def dealt_odds(
    rules: Rules,
    hands: Sequence[str],
    board: str = "",
    dead: str = "",
    samples: int | None = None,
    seed: int | None = None,
    exact: bool | None = None,
    declare: Sequence[str] | None = None,
    progress: Callable[[float], None] | None = None,
) -> OddsResult:
    """Each player's equity in a dealer's-choice game (see the module docstring).

    >>> from evaluator import load
    >>> result = dealt_odds(load("chicago"), ["(As Ks) Ah Ad 7c 5h", "(2s 3d) 9c 9d 8c 8h"])
    >>> result.method, result.deals, result.players[0].halves["spade"]  # the ace of spades in the hole
    ('exact', 1560, 0.5)
    """
    started = time.monotonic()
    if not 2 <= len(hands) <= 23:
        raise error(OddsError, "O108", f"{len(hands)} hands given; odds need 2 to 23 players", "<odds>")
    known, shown = known_deal(rules, hands, board, dead)
    declarations = _declarations(rules, known, declare)
    count = exact_count(rules, known)
    if exact and samples is not None:
        raise error(OddsError, "O112", "exact and samples exclude each other", "<odds>")
    if exact and (count is None or count > EXACT_DEALS * 40):
        why = "an extra card may be drawn" if count is None else f"{count:,} deals to list"
        raise error(OddsError, "O111", f"exact enumeration refused: {why}", "<odds>", hint="drop --exact to sample")
    use_exact = exact or (samples is None and count is not None and count <= EXACT_DEALS)
    wanted = samples if samples is not None else DEFAULT_DEAL_SAMPLES
    judge = Judge(rules, known.players, known.folded, declarations, deals=count if use_exact else wanted)
    players = known.players
    names = judge.names
    sums = {key: np.zeros(players) for key in ("equity", "win", "tie", "scoop", "equity2", "win2", "tie2")}
    halves = {name: np.zeros(players) for name in names}
    dead_halves = dict.fromkeys(names, 0.0)
    total = 0.0
    dealt = 0
    report = progress or (lambda fraction: None)
    if use_exact:
        method, used_seed = "exact", None
        stream = every_deal(rules, known)
        first: float | None = None
        while True:
            block = list(islice(stream, BLOCK))
            if not block:
                break
            first = first or block[0][1]
            # relative to the first deal's: deals drawn to the same depth weigh exactly 1
            weights = np.array([w / first for _, w in block])
            settled = judge.settle([deal for deal, _ in block])
            total += _add(sums, halves, dead_halves, settled, weights)
            dealt += len(block)
            report(min(dealt / max(count or 1, 1), 1.0))
    else:
        method = "sampled"
        used_seed = drawn_seed(seed)
        if not 1 <= wanted <= 10_000_000:
            raise error(OddsError, "O112", "samples must be from 1 to 10,000,000 for a dealer's-choice game", "<odds>")
        rng = np.random.default_rng(used_seed)
        stream2 = random_deals(rules, known, wanted, rng)
        while dealt < wanted:
            batch = list(islice(stream2, min(BLOCK, wanted - dealt)))
            settled = judge.settle(batch)
            total += _add(sums, halves, dead_halves, settled, np.ones(len(batch)))
            dealt += len(batch)
            report(dealt / wanted)
    if not total:  # no way to complete the deal: the deck is too small for it (runs, extra cards)
        raise error(OddsError, "G125", f"{rules.name}'s deck runs out before this deal is complete", "<odds>")
    sampled = method == "sampled"
    result_players = []
    for seat in range(players):
        means = {key: float(sums[key][seat] / total) for key in ("equity", "win", "tie", "scoop")}
        errors = {}
        for key in ("equity", "win", "tie"):
            variance = max(float(sums[key + "2"][seat] / total) - means[key] ** 2, 0.0)
            errors[key] = (variance / max(dealt - 1, 1)) ** 0.5 if sampled else 0.0
        result_players.append(
            PlayerOdds(
                hand=shown[seat] + (" (folded)" if known.folded[seat] else ""),
                equity=means["equity"],
                win=means["win"],
                tie=means["tie"],
                std_error=errors["equity"],
                std_errors=errors if sampled else {},
                halves={name: float(halves[name][seat] / total) for name in names},
                scoop=means["scoop"] if len(names) > 1 else None,
            )
        )
    return OddsResult(
        ruleset=rules.name,
        method=method,
        deals=dealt,
        seed=used_seed,
        players=result_players,
        split=len(names) > 1,
        no_qualifier={name: dead_halves[name] / total for name in names},
        seconds=time.monotonic() - started,
    )


def _add(
    sums: dict[str, np.ndarray],
    halves: dict[str, np.ndarray],
    dead: dict[str, float],
    settled: object,
    weights: np.ndarray,
) -> float:
    from ..deal.judge import Settled

    assert isinstance(settled, Settled)
    shares = settled.shares
    whole = (shares > 1 - 1e-9).astype(np.float64)
    part = ((shares > 1e-12) & (shares <= 1 - 1e-9)).astype(np.float64)
    for key, values in (("equity", shares), ("win", whole), ("tie", part)):
        sums[key] += weights @ values
        sums[key + "2"] += weights @ (values * values)
    sums["scoop"] += weights @ whole
    for name, values in settled.halves.items():
        halves[name] += weights @ values
    for name, flags in settled.dead.items():
        dead[name] += float(weights @ flags.astype(np.float64))
    return float(weights.sum())


def _declarations(rules: Rules, known: Known, declare: Sequence[str] | None) -> list[str | None] | None:
    """The declared strategy of each seat, checked as a showdown's declarations are."""
    from ..deal.deal import BOTH, half_names

    game = rules.game
    if not declare:
        if game is not None and game.declare is not None:
            raise error(
                OddsError,
                "G120",
                f"{rules.name} is played hi-lo declare: give each player's declared strategy "
                f"({' / '.join(half_names(rules))} / {BOTH})",
                "<declare>",
                hint="pokerrules odds ... --declare high low",
            )
        return None
    if game is None or game.declare is None:
        raise error(OddsError, "G120", f"{rules.name} is not played with a declare", "<declare>")
    if len(declare) != known.players:
        raise error(OddsError, "G120", f"{len(declare)} declarations for {known.players} players", "<declare>")
    names = half_names(rules)
    found: list[str | None] = []
    for seat, word in enumerate(declare):
        value = word.strip().lower()
        if known.folded[seat]:
            found.append(None)
        elif value in names or value == BOTH:
            found.append(value)
        else:
            raise error(
                OddsError, "G120", f"{word!r} is not a declaration: declare {' / '.join(names)} or {BOTH}", "<declare>"
            )
    return found


__all__ = ["dealt_odds", "known_deal", "PokerRulesError"]
