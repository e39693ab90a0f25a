"""Equity under any ruleset: exact enumeration or a seeded Monte Carlo.

``odds(ruleset, hands, board, dead)`` answers "what are my chances" for every
player: the expected share of the pot (equity; ties and split pots count as
shares), how often the player wins the whole pot, how often a part of it; for
hi-lo games the high and low shares, the scoops, and how often no low
qualifies.

**Exact or sampled, always stated.** The work of an exact answer is counted
in rank lookups (deals x players x halves x boards x card subsets). Up to
``EXACT_LIMIT`` (10^8, about ten seconds) every deal is enumerated; past it a
Monte Carlo of ``DEFAULT_SAMPLES`` deals is drawn with a seed (given, or drawn
and reported) and every figure carries its standard error. ``samples=`` forces
sampling; ``exact=True`` forces enumeration up to ``EXACT_HARD_LIMIT`` (2x10^9
lookups, a few minutes) and is refused past it. An exact answer is counted
board by board (:mod:`evaluator.odds.board_major`: every board once, every
holding ranked once on it) when that is cheaper than dealing every deal -- a
range against a range, a range against ``random`` -- with the same figures.

Geometry: a ruleset's ``game:`` says how many hole and board cards are dealt
(and how many boards). Without one, hands of at most two cards (and ranges)
are hold'em-like: two hole cards and a board of ``hand.size`` cards; longer
hands are completed to ``hand.size`` cards each, with no board (a ``--board``
given then plays for everyone). The best hand of hole and board plays, as
``showdown`` says.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from math import prod, sqrt
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.errors import PokerRulesError, error
from ..engine.cardread import read_cards
from ..rules.cards import tokenize
from .board_counts import HeadsUpSums
from .board_major import MatchupSums, Plan
from .board_run import board_major_plan, player_figures, run_plan
from .cluster import RulesetSpec, check_seed, check_work, chunk_rng, drawn_seed, fold_chunks
from .deals import BATCH, OddsError, Table, build_table, cut_count
from .ranges import HandRange, combo_count_text, parse_range
from .shares import ShareEngine
from .totals import Totals

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

#: Exact enumeration when the work is at most this many rank lookups.
EXACT_LIMIT = 100_000_000
#: ``exact=True`` is refused past this many rank lookups.
EXACT_HARD_LIMIT = 2_000_000_000
#: Deals drawn when the answer is sampled and no number is given.
DEFAULT_SAMPLES = 200_000
#: At most this many players at one table.
MAX_PLAYERS = 23
#: Deals drawn and settled together within a chunk: the working arrays stay in the cache.
SAMPLE_BLOCK = 1 << 14
#: At most this many samples in one question.
MAX_SAMPLES = 1_000_000_000

Progress = Callable[[float], None]


@dataclass
class PlayerOdds:
    """One player's figures (fractions of 1).

    ``hand`` is the player's hand or range as the text output shows it
    (``Ah Kh``, ``QQ+ (18 combos)``); ``cards`` the cards of a known hand,
    ``range`` the range text of any other player (``random`` included) and
    ``combos`` its number of combinations.
    """

    hand: str
    equity: float
    win: float
    tie: float
    std_error: float
    std_errors: dict[str, float] = field(default_factory=dict)
    halves: dict[str, float] = field(default_factory=dict)  # share of the pot won in each half (hi-lo)
    scoop: float | None = None
    cards: tuple[str, ...] | None = None
    range: str | None = None
    combos: int | None = None

    def as_dict(self, split: bool) -> dict[str, Any]:
        """The JSON form (hi-lo fields only for split games): a hand is a list of cards, as in every command."""
        data: dict[str, Any] = {
            "hand": list(self.cards) if self.cards is not None else None,
            "range": self.range,
            "combos": self.combos,
            "equity": self.equity,
            "win": self.win,
            "tie": self.tie,
            "std_error": self.std_error,
        }
        if split:
            names = list(self.halves)
            data["hi"] = self.halves[names[0]]
            data["lo"] = self.halves[names[1]] if len(names) > 1 else 0.0
            data["scoop"] = self.scoop
            data["halves"] = dict(self.halves)
        if self.std_errors:
            data["std_errors"] = dict(self.std_errors)
        return data


@dataclass
class OddsResult:
    """The answer to one odds question."""

    ruleset: str
    method: str  # "exact" | "sampled"
    deals: int
    seed: int | None
    players: list[PlayerOdds]
    split: bool = False
    no_qualifier: dict[str, float] = field(default_factory=dict)  # per half: share of deals nobody qualifies in it
    lookups: int = 0
    seconds: float = 0.0

    @property
    def no_low(self) -> float | None:
        """The chance that no low qualifies (hi-lo games), else None."""
        if not self.split or len(self.no_qualifier) < 2:
            return None
        return list(self.no_qualifier.values())[1]

    def as_dict(self) -> dict[str, Any]:
        """The pinned JSON form of ``pokerrules odds --json``."""
        data: dict[str, Any] = {
            "ruleset": self.ruleset,
            "method": self.method,
            "deals": self.deals,
            "seed": self.seed,
            "players": [player.as_dict(self.split) for player in self.players],
        }
        if self.split:
            data["no_low"] = self.no_low
        return data


def deal_geometry(ruleset: Rules, hands: Sequence[str]) -> tuple[int, int, int]:
    """(hole cards, board cards, boards) dealt in this ruleset."""
    game = ruleset.game
    if game is not None:
        return game.hole, game.board, (game.boards if game.board else 1)
    # without a game: each player holds the cards given (a range: two)
    hole = 2
    for text in hands:
        with suppress(PokerRulesError):  # a range: its errors are reported with their column when it is read
            hole = max(hole, len(tokenize(text)))
    if hole <= 2 < ruleset.hand_size:
        return hole, ruleset.hand_size, 1  # hold'em-like: two hole cards and a board
    return max(hole, ruleset.hand_size), 0, 1  # each hand completed to a full hand


def _read_board(ruleset: Rules, text: str, board: int, boards: int) -> list[list[int]]:
    id_of = {card: i for i, card in enumerate(ruleset.deck)}
    parts = [part for part in text.split("|")] if text.strip() else []
    if len(parts) > boards:
        raise error(OddsError, "O109", f"{len(parts)} boards given; {ruleset.name} deals {boards}", "<board>")
    found = []
    for b, part in enumerate(parts):
        cards = read_cards(ruleset, part, f"<board {b + 1}>") if part.strip() else []
        if len(cards) > board:
            raise error(
                OddsError,
                "O109",
                f"board {b + 1} has {len(cards)} cards; {ruleset.name} deals {board}",
                f"<board {b + 1}>",
            )
        found.append([id_of[card] for card in cards])
    return found + [[] for _ in range(boards - len(found))]


def prepare(
    ruleset: Rules, hands: Sequence[str | HandRange], board: str = "", dead: str = ""
) -> tuple[Table, ShareEngine]:
    """Read the question into a deal table and the engine that settles its deals.

    Raises:
        TypeError: ``hands`` is not a list of hands, one per player (one string
            holding every hand, say), or ``board`` / ``dead`` is not text.
    """
    if (
        not isinstance(hands, Sequence)
        or isinstance(hands, str)
        or not all(isinstance(h, (str, HandRange)) for h in hands)
    ):
        shown = repr(hands) if len(repr(hands)) <= 60 else type(hands).__name__
        raise TypeError(f"hands must be a list with one hand or range per player, e.g. ['AhKh', 'QsQd'], not {shown}")
    for name, value in (("board", board), ("dead", dead)):
        if not isinstance(value, str):
            raise TypeError(f"{name} must be cards as text, e.g. '2h 7h 9c', not {type(value).__name__}")
    if not 2 <= len(hands) <= MAX_PLAYERS:
        raise error(OddsError, "O108", f"{len(hands)} hands given; odds need 2 to {MAX_PLAYERS} players", "<odds>")
    hole, board_size, boards = deal_geometry(
        ruleset, [h if isinstance(h, str) else " ".join(map(str, h.combos[0])) for h in hands]
    )
    if ruleset.game is None and board.strip() and board_size == 0:
        board_size = len(read_cards(ruleset, board, "<board>"))
    ranges = [
        h if isinstance(h, HandRange) else parse_range(ruleset, h, hole, f"<hand {i + 1}>") for i, h in enumerate(hands)
    ]
    id_of = {card: i for i, card in enumerate(ruleset.deck)}
    board_ids = _read_board(ruleset, board, board_size, boards)
    dead_ids = [id_of[card] for card in read_cards(ruleset, dead, "<dead>")] if dead.strip() else []
    table = build_table(ruleset, ranges, hole, board_size, boards, board_ids, dead_ids)
    return table, ShareEngine(ruleset, len(ranges), hole, board_size, boards)


def exact_lookups(table: Table, engine: ShareEngine, cap: float = float("inf")) -> float:
    """Rank lookups exact enumeration needs (an upper bound when it is past ``cap``)."""
    from math import comb

    per = comb(table.left_after_ranges(), len(table.free_slots)) * cut_count(table.segments) * engine.cost
    bound = per * prod(len(c) for c in table.combos)
    if bound > cap:
        return float(bound)
    choices = sum(1 for _ in table.combo_tuples())
    if not choices:
        raise error(
            OddsError,
            "O116",
            "the ranges cannot be dealt together: every choice of combinations shares a card",
            "<odds>",
        )
    return float(per * choices)


@dataclass(frozen=True)
class _SampleChunk:
    """One chunk of a sampled answer: ``samples`` deals from the stream of chunk ``index``."""

    hands: tuple[str | HandRange, ...]
    board: str
    dead: str
    seed: int
    index: int
    samples: int


_PREPARED: dict[tuple[str, tuple[str | HandRange, ...], str, str], tuple[Table, ShareEngine]] = {}


def _sample_chunk(spec: RulesetSpec, chunk: _SampleChunk) -> Totals:
    """The totals of one sampled chunk (run here or on a Dask worker)."""
    key = (spec.digest, chunk.hands, chunk.board, chunk.dead)
    if key not in _PREPARED:
        if len(_PREPARED) > 64:
            _PREPARED.clear()
        _PREPARED[key] = prepare(spec.ruleset(), chunk.hands, chunk.board, chunk.dead)
    table, engine = _PREPARED[key]
    totals = Totals(table.players, engine.names)
    rng = chunk_rng(chunk.seed, chunk.index)
    for start in range(0, chunk.samples, SAMPLE_BLOCK):
        deals = table.sample(rng, min(SAMPLE_BLOCK, chunk.samples - start))
        _settle_into(totals, table, engine, deals, 1.0, squares=True)
    return totals


def _settle_into(
    totals: Totals, table: Table, engine: ShareEngine, deals: np.ndarray, weight: float, squares: bool
) -> None:
    """Add a batch of deals to the totals: as winner masks where the engine gives them (faster), else as shares."""
    masks = engine.winner_masks(deals, table.template)
    if masks is not None:
        totals.add_masks(masks, weight)
    else:
        totals.add(engine.settle(deals, table.template), weight, squares)


def odds(
    ruleset: Rules,
    hands: Sequence[str | HandRange],
    board: str = "",
    dead: str = "",
    samples: int | None = None,
    seed: int | None = None,
    exact: bool | None = None,
    progress: Progress | None = None,
    client: Any = None,
) -> OddsResult:
    """Each player's equity, wins and ties (see the module docstring).

    A sampled answer is drawn in chunks of ``BATCH`` deals, chunk ``i`` from
    ``SeedSequence(seed, spawn_key=(i,))``; with a Dask ``client`` the chunks
    run on the cluster, with the same result (see ``evaluator/odds/cluster.py``).

    >>> from evaluator import load
    >>> result = odds(load("holdem"), ["AhKh", "QsQd"], board="2h 7h 9c")
    >>> result.method, round(result.players[0].equity, 4)
    ('exact', 0.5414)

    Raises:
        PokerRulesError: unreadable hands or cards (with their column), a card
            out twice, too many players, ``exact=True`` past the hard bound,
            a seed out of 0 to 2^64 - 1 (O118), sampling past ``MAX_WORK``
            rank lookups (O122).
    """
    started = time.monotonic()
    if seed is not None:
        check_seed(seed)
    table, engine = prepare(ruleset, hands, board, dead)
    if samples is not None and not 1 <= samples <= MAX_SAMPLES:
        raise error(OddsError, "O112", f"samples must be from 1 to {MAX_SAMPLES:,}", "<odds>")
    work = exact_lookups(table, engine, EXACT_HARD_LIMIT)
    if exact and samples is not None:
        raise error(OddsError, "O112", "exact and samples exclude each other", "<odds>")
    names = engine.names
    report = progress or (lambda fraction: None)
    why = ""
    if samples is None:
        plan = board_major_plan(table, work, EXACT_HARD_LIMIT if exact else EXACT_LIMIT)
        if isinstance(plan, Plan):
            return _board_major_result(ruleset, table, plan, names, client, report, started)
        why = plan
    if exact and work > EXACT_HARD_LIMIT:
        raise error(
            OddsError,
            "O111",
            f"exact enumeration needs about {work:.3g} rank lookups; the bound is {EXACT_HARD_LIMIT:.0e}"
            + (f" (board by board: {why})" if why else ""),
            "<odds>",
            hint="drop --exact to sample, or give more known cards",
        )
    totals = Totals(table.players, names)
    if exact or (samples is None and work <= EXACT_LIMIT):
        method, used_seed = "exact", None
        done = 0.0
        for batch, weight in table.exact_batches():
            _settle_into(totals, table, engine, batch, weight, squares=False)
            done += len(batch) * engine.cost
            report(min(done / max(work, 1.0), 1.0))
    else:
        method = "sampled"
        wanted = samples if samples is not None else DEFAULT_SAMPLES
        check_work(
            float(wanted) * engine.cost,
            f"sampling {wanted:,} deals at {engine.cost:,} rank lookups each",
            "<odds>",
            "ask for fewer --samples",
        )
        used_seed = drawn_seed(seed)
        spec = RulesetSpec.of(ruleset)
        question = (tuple(hands), board, dead)
        prepared_key = (spec.digest, *question)
        _PREPARED[prepared_key] = (table, engine)
        chunks = (
            _SampleChunk(*question, used_seed, index, min(BATCH, wanted - start))
            for index, start in enumerate(range(0, wanted, BATCH))
        )
        fold_chunks(
            _sample_chunk,
            spec,
            chunks,
            lambda chunk, part: totals.merge(part),
            client,
            report,
            total=wanted,
            work=lambda chunk: chunk.samples,
        )
    sampled = method == "sampled"
    players = []
    means = {name: totals.mean(name) for name in ("equity", "win", "tie", "scoop")}
    errors = {name: totals.error(name, sampled) for name in ("equity", "win", "tie")}
    for p, hand in enumerate(table.hands):
        players.append(
            PlayerOdds(
                **player_hand(hand),
                equity=float(means["equity"][p]),
                win=float(means["win"][p]),
                tie=float(means["tie"][p]),
                std_error=float(errors["equity"][p]),
                std_errors={name: float(errors[name][p]) for name in errors} if sampled else {},
                halves={name: float(totals.halves[name][p] / totals.weight) for name in names},
                scoop=float(means["scoop"][p]) if len(names) > 1 else None,
            )
        )
    return OddsResult(
        ruleset=ruleset.name,
        method=method,
        deals=totals.count,
        seed=used_seed,
        players=players,
        split=len(names) > 1,
        no_qualifier={name: totals.dead[name] / totals.weight for name in names},
        lookups=int(totals.count * engine.cost),
        seconds=time.monotonic() - started,
    )


def player_hand(hand: HandRange) -> dict[str, Any]:
    """The hand fields of :class:`PlayerOdds` for a player's hand or range."""
    known = hand.is_fixed and hand.known > 0
    return {
        "hand": combo_count_text(hand),
        "cards": tuple(str(card) for card in hand.combos[0]) if known else None,
        "range": None if known else hand.text,
        "combos": len(hand.combos) if hand.known else None,
    }


def _board_major_result(
    ruleset: Rules,
    table: Table,
    plan: Plan,
    names: list[str],
    client: Any,
    report: Progress,
    started: float,
) -> OddsResult:
    """The exact answer by boards (:mod:`evaluator.odds.board_major`), in the form of the deal enumeration's."""
    sums = run_plan(ruleset, plan, False, client, report)
    assert isinstance(sums, MatchupSums | HeadsUpSums)
    figures, no_qualifier, deals = player_figures(plan, sums)
    split = len(names) > 1
    players = [
        PlayerOdds(
            **player_hand(hand),
            equity=figure.equity,
            win=figure.win,
            tie=figure.tie,
            std_error=0.0,
            halves={name: share for name, share in zip(names, figure.halves, strict=True)},
            scoop=figure.win if split else None,
        )
        for hand, figure in zip(table.hands, figures, strict=True)
    ]
    return OddsResult(
        ruleset=ruleset.name,
        method="exact",
        deals=deals,
        seed=None,
        players=players,
        split=split,
        no_qualifier=dict(zip(names, no_qualifier, strict=True)),
        lookups=plan.lookups,
        seconds=time.monotonic() - started,
    )


def standard_error(p: float, n: int) -> float:
    """The standard error of a proportion ``p`` estimated from ``n`` deals."""
    return sqrt(max(p * (1 - p), 0.0) / max(n - 1, 1))
