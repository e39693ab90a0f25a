"""``pokerrules stats``: the exact frequency table of a ruleset's categories.

The numbers come from :mod:`evaluator.compiled.counting`, which counts every N-card deal
exactly by enumerating hand classes with their multiplicities. This module only
turns a :class:`~evaluator.compiled.counting.Counting` into a :class:`StatsTable` -- one
row per category, highest first, with count, probability, odds ("1 in X") and the
number of distinct hand values -- and renders it as text, CSV or JSON (the JSON
is described by ``docs/json/stats.schema.json``).

The table also carries notes. The main one is the **rarity check**: poker ranks
its categories by rarity, so a category ranked above a rarer one is worth a
remark -- but not an error: with wild cards (three of a kind beats two pair yet
is more frequent in deuces wild) and with best-of-7 hands (a pair is more
frequent than no pair) frequency no longer follows the order, and the note says
so. :func:`stats_table` is the reusable entry point (``diff`` builds on it);
:func:`command` is what the CLI runs.

A progress bar is drawn on stderr (plain text and ``\\r``) when counting takes
more than a second and stderr is a terminal.
"""

from __future__ import annotations

import argparse
import csv
import io
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TextIO

from ..compiled.counting import Progress, count
from ..core.errors import UsageError
from ..core.progress import Bar
from ..core.safe_text import json_dumps
from .game_stats import needs_game_sampling
from .stats_format import format_odds, format_probability

if TYPE_CHECKING:
    from ..ruleset import Ruleset
    from .lowball import LowBreakdown

EXIT_OK, EXIT_USAGE = 0, 2

#: The name of the extra row for deals that make no hand at all.
NO_HAND = "(no hand)"


@dataclass(frozen=True, slots=True)
class StatsRow:
    """One category: how many deals fall in it, and how many distinct values it takes."""

    category: str
    count: int
    deals: int  # all deals of the table
    distinct: int

    @property
    def probability(self) -> float:
        """The share of deals in this category.

        >>> StatsRow("pair", 1098240, 2598960, 2860).probability
        0.4225690276110444
        """
        return self.count / self.deals

    @property
    def odds(self) -> float | None:
        """X in "1 in X" (None when the category never occurs).

        >>> StatsRow("royal_flush", 4, 2598960, 1).odds
        649740.0
        """
        return self.deals / self.count if self.count else None

    @property
    def odds_text(self) -> str:
        """The odds as people say them: "1 in 649,740", "1 in 2.00", or "never".

        >>> StatsRow("high_card", 1302540, 2598960, 1277).odds_text
        '1 in 2.00'
        """
        return format_odds(self.odds)


@dataclass(frozen=True, slots=True)
class Note:
    """A remark about the table; ``kind`` is rarity, context, impossible or game."""

    kind: str
    message: str
    higher: str | None = None  # rarity: the category ranked higher ...
    lower: str | None = None  # ... and the rarer one it is ranked above

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data (``higher``/``lower`` only for rarity notes)."""
        data: dict[str, Any] = {"kind": self.kind, "message": self.message}
        if self.higher is not None:
            data["higher"], data["lower"] = self.higher, self.lower
        return data


@dataclass(frozen=True)
class StatsTable:
    """The exact statistics of ``cards``-card deals of a ruleset."""

    ruleset: str
    title: str
    cards: int
    hand_size: int
    deck_size: int
    deals: int
    direction: str
    wild: bool
    rows: tuple[StatsRow, ...]
    unplayable: int
    notes: tuple[Note, ...] = field(default=())
    lowball: LowBreakdown | None = None  # low rulesets: the winning category by top card

    @property
    def distinct_total(self) -> int:
        """Distinct hand values over every category."""
        return sum(row.distinct for row in self.rows)

    @property
    def counts(self) -> dict[str, int]:
        """Category -> count, highest category first."""
        return {row.category: row.count for row in self.rows}

    def row(self, category: str) -> StatsRow:
        """The row of ``category``."""
        for row in self.rows:
            if row.category == category:
                return row
        raise KeyError(category)

    def as_dict(self) -> dict[str, Any]:
        """The table as JSON-ready data (see ``docs/json/stats.schema.json``)."""
        return {
            "ruleset": self.ruleset,
            "title": self.title,
            "cards": self.cards,
            "hand_size": self.hand_size,
            "deck_size": self.deck_size,
            "deals": self.deals,
            "direction": self.direction,
            "wild_cards": self.wild,
            "categories": [
                {
                    "name": row.category,
                    "count": row.count,
                    "probability": row.probability,
                    "odds": row.odds,
                    "odds_text": row.odds_text,
                    "distinct_values": row.distinct,
                }
                for row in self.rows
            ],
            "unplayable": self.unplayable,
            "distinct_values": self.distinct_total,
            "notes": [note.as_dict() for note in self.notes],
            "lowball": None if self.lowball is None else self.lowball.as_dict(),
        }


# --- building the table ---------------------------------------------------------------


def default_cards(ruleset: Ruleset) -> int:
    """Cards dealt by default: the hand size, or what the ruleset's game gives one player.

    A game that lets a player use any of hole + board cards (hold'em, stud) deals
    that many; a game that says how many hole and board cards must play (Omaha)
    is not what counting models, so the hand size is used.

    >>> from evaluator import load
    >>> default_cards(load("standard"))
    5
    """
    game = ruleset.game
    if game is None or game.use_hole is not None or game.use_board is not None:
        return ruleset.hand_size
    dealt = game.hole + game.board
    return dealt if dealt >= max(ruleset.hand_min, 1) else ruleset.hand_size


def stats_table(ruleset: Ruleset, cards: int | None = None, progress: Progress | None = None) -> StatsTable:
    """Count every ``cards``-card deal of ``ruleset`` and build its table with notes.

    Args:
        ruleset: the ruleset to count.
        cards: cards dealt; :func:`default_cards` when None.
        progress: called with the fraction done while counting.

    Returns:
        The :class:`StatsTable` (rows highest category first, then the notes).

    Raises:
        PokerRulesError: C104 / C105 when ``cards`` is out of range.

    >>> from evaluator import load
    >>> table = stats_table(load("twenty-card"))
    >>> table.row("four_of_a_kind").count, table.deals
    (80, 15504)
    """
    dealt = default_cards(ruleset) if cards is None else cards
    counting = count(ruleset, dealt, progress)
    rows = [StatsRow(name, number, counting.deals, counting.distinct[name]) for name, number in counting.counts.items()]
    table = StatsTable(
        ruleset=ruleset.name,
        title=ruleset.title,
        cards=dealt,
        hand_size=ruleset.hand_size,
        deck_size=ruleset.deck_size,
        deals=counting.deals,
        direction=ruleset.direction,
        wild=ruleset.wild.any,
        rows=tuple(rows),
        unplayable=counting.unplayable,
    )
    notes = rarity_notes(table) + _other_notes(ruleset, table, cards is None)
    from .lowball import low_breakdown

    return replace(table, notes=tuple(notes), lowball=low_breakdown(ruleset, dealt))


def rarity_notes(table: StatsTable) -> list[Note]:
    """The rarity check: every category ranked above a rarer one (categories never dealt aside).

    One note per inverted pair, highest category first, then one note of context
    when the table has any: with wild cards or more cards than the hand size the
    frequency no longer follows the order, which is expected.
    """
    notes: list[Note] = []
    present = [row for row in table.rows if row.count > 0]
    for index, higher in enumerate(present):
        for lower in present[index + 1 :]:
            if higher.count > lower.count:
                notes.append(
                    Note(
                        "rarity",
                        f"{higher.category} is ranked above {lower.category} but is more frequent "
                        f"({higher.count:,} against {lower.count:,})",
                        higher.category,
                        lower.category,
                    )
                )
    if notes:
        reasons = []
        if table.wild:
            reasons.append("wild cards")
        if table.cards > table.hand_size:
            reasons.append(f"the best {table.hand_size} of {table.cards} cards")
        if reasons:
            why = " and ".join(reasons)
            message = (
                f"with {why}, frequency no longer follows the order of the categories: this is expected, not an error"
            )
        else:
            message = "with this deck, frequency does not follow the order of the categories everywhere: a remark, not an error"
        notes.append(Note("context", message))
    return notes


def _other_notes(ruleset: Ruleset, table: StatsTable, defaulted: bool) -> list[Note]:
    notes: list[Note] = []
    impossible = [row.category for row in table.rows if row.count == 0]
    if impossible:
        notes.append(Note("impossible", f"never dealt with {table.cards} cards of this deck: {', '.join(impossible)}"))
    if table.unplayable:
        notes.append(
            Note(
                "unplayable",
                f"{table.unplayable:,} deals make no hand (a card that cannot play, or no category matches)",
            )
        )
    game = ruleset.game
    if (
        defaulted
        and game is not None
        and table.cards == ruleset.hand_size
        and (game.use_hole is not None or game.use_board is not None)
    ):
        notes.append(
            Note(
                "game",
                f"the game's rule on hole and board cards is not counted: these are {table.cards}-card hands "
                "(the stats command samples the game's own final hands)",
            )
        )
    if table.direction == "low":
        notes.append(Note("context", "a low game: categories are listed in high-poker order and the lowest hand wins"))
    return notes


# --- rendering ----------------------------------------------------------------------------


def render_text(table: StatsTable) -> str:
    """The table for people: aligned columns, then the notes."""
    header = ("category", "count", "probability", "odds", "distinct")
    body = [
        (row.category, f"{row.count:,}", format_probability(row.probability), row.odds_text, f"{row.distinct:,}")
        for row in table.rows
    ]
    if table.unplayable:
        body.append((NO_HAND, f"{table.unplayable:,}", format_probability(table.unplayable / table.deals), "", ""))
    body.append(("total", f"{table.deals:,}", "100.0%", "", f"{table.distinct_total:,}"))
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]

    def line(cells: tuple[str, ...]) -> str:
        first = cells[0].ljust(widths[0])
        rest = [cell.rjust(width) for cell, width in zip(cells[1:], widths[1:], strict=False)]
        return "  ".join([first, *rest]).rstrip()

    best = f" (the best {table.hand_size} play)" if table.cards > table.hand_size else ""
    lines = [
        f"{table.ruleset}: {table.title}",
        f"{table.cards}-card deals from {table.deck_size} cards{best}: {table.deals:,}",
        "",
    ]
    lines.append(line(header))
    lines.extend(line(cells) for cells in body)
    if table.lowball is not None:
        from .lowball import breakdown_lines

        lines += ["", *breakdown_lines(table.lowball)]
    if table.notes:
        lines.append("")
        lines.extend(f"NOTE: {note.message}" for note in table.notes)
    return "\n".join(lines) + "\n"


def render_csv(table: StatsTable) -> str:
    """CSV with a header row: one row per category, then ``total`` (as the reference tables)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["category", "count", "probability", "odds", "distinct_values"])
    for row in table.rows:
        writer.writerow(
            [row.category, row.count, repr(row.probability), "" if row.odds is None else repr(row.odds), row.distinct]
        )
    if table.unplayable:
        writer.writerow([NO_HAND, table.unplayable, repr(table.unplayable / table.deals), "", ""])
    writer.writerow(["total", table.deals, "1.0", "1.0", table.distinct_total])
    return buffer.getvalue()


def render_json(table: StatsTable) -> str:
    """The table as JSON (``docs/json/stats.schema.json``)."""
    return json_dumps(table.as_dict(), indent=2) + "\n"


# --- the command ---------------------------------------------------------------------------


def command(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``pokerrules stats RULESET [--cards N] [--json|--csv]``.

    Args:
        args: the parsed command line (``ruleset``, ``cards``, ``csv``, ``json``).
        out: where the table is written (nothing is written on failure).

    Returns:
        The exit code: 0.

    Raises:
        UsageError: both --json and --csv are given (the CLI prints it, exit 2).
        PokerRulesError: a broken ruleset or a bad --cards (the CLI prints it, exit 1).
    """
    from ..ruleset import load

    if getattr(args, "json", False) and getattr(args, "csv", False):
        raise UsageError("pokerrules stats: choose one of --json and --csv")
    ruleset = load(args.ruleset, root=getattr(args, "root", None))
    cards = getattr(args, "cards", None)
    problem = game_cards_problem(ruleset, cards)
    if problem:
        raise UsageError(f"pokerrules stats: {problem}")
    if ruleset.by_deal:
        return _deal_command(ruleset, args, out)
    if needs_game_sampling(ruleset):
        return _game_command(ruleset, args, out)
    from ..core.progress import Progress

    # plain lines on stderr, in a terminal or not, once counting has taken a second
    label = f"pokerrules stats: counting {ruleset.name}, {cards or default_cards(ruleset)} cards"
    with Progress(label) as lines:
        table = stats_table(ruleset, cards, lambda fraction: lines.step(f"{fraction:.0%}"))
    return _write_report(out, args, lambda: render_json(table), lambda: render_csv(table), lambda: render_text(table))


def game_cards_problem(ruleset: Ruleset, cards: int | None) -> str | None:
    """Why ``--cards`` cannot be used with ``ruleset``'s game, or None.

    ``--cards`` on a game must mean the game's own deal (hole + board cards,
    any five playing); anything else would silently count another game.
    """
    game = ruleset.game
    if game is None or cards is None:
        return None
    dealt = game.hole + game.board
    if ruleset.by_deal:
        return (
            f"--cards {cards}: {ruleset.name} is dealt street by street and its hands depend on the deal; "
            "counting {cards} cards would be another game. Leave out --cards (--players sets the table)"
        ).replace("{cards}", str(cards))
    if needs_game_sampling(ruleset):
        from .game_stats import use_text

        return (
            f"--cards {cards}: {ruleset.name} deals {game.hole} hole cards and {game.board} on the board and uses "
            f"{use_text(ruleset)}{' in each half' if game.split else ''}; counting {cards} cards would be another game. "
            "Leave out --cards to count the game's final hands"
        )
    if cards != dealt and dealt >= ruleset.hand_min:
        return (
            f"--cards {cards}: {ruleset.name} deals {dealt} cards to a player ({game.hole} hole + {game.board} board); "
            f"counting {cards} would be another game. Leave out --cards, or use a ruleset without a game"
        )
    return None


#: Deals of a dealer's-choice game dealt for stats at most (each is walked in Python: about 10,000 a second).
MAX_DEALT_SAMPLES = 2_000_000


def _checked_seed(args: argparse.Namespace) -> int | None:
    """``--seed``, a whole number from 0 to 2^64 - 1 (O118 otherwise: NumPy refuses the rest)."""
    from ..odds.cluster import check_seed

    seed = getattr(args, "seed", None)
    return None if seed is None else check_seed(seed)


def _deal_command(ruleset: Ruleset, args: argparse.Namespace, out: TextIO) -> int:
    """``stats`` of a dealer's-choice game: real deals of ``--players`` seats, sampled."""
    from .deal_stats import (
        DEFAULT_DEALS,
        DEFAULT_PLAYERS,
        deal_stats,
        deal_table_dict,
        render_deal_csv,
        render_deal_text,
    )

    deals = getattr(args, "samples", None)
    deals = DEFAULT_DEALS if deals is None else deals
    players = getattr(args, "players", None)
    players = DEFAULT_PLAYERS if players is None else players
    if not 1 <= deals <= MAX_DEALT_SAMPLES:
        raise UsageError(
            f"pokerrules stats: --samples must be from 1 to {MAX_DEALT_SAMPLES:,} for a dealer's-choice game"
        )
    game = ruleset.game
    per_seat = game.hole if game is not None else ruleset.hand_size
    board = (game.board * game.runs) if game is not None else 0
    if not players >= 1 or players * per_seat + board > ruleset.deck_size:
        raise UsageError(
            f"pokerrules stats: --players {players}: {ruleset.name}'s {ruleset.deck_size} cards deal at most "
            f"{max((ruleset.deck_size - board) // max(per_seat, 1), 1)} players"
        )
    seed = _checked_seed(args)
    bar = Bar(f"dealing {ruleset.name}, {deals:,} deals of {players} players")
    try:
        table = deal_stats(ruleset, deals, players, 2026 if seed is None else seed, bar)
    finally:
        bar.finish()
    return _write_report(
        out,
        args,
        lambda: json_dumps(deal_table_dict(table, ruleset), indent=2) + "\n",
        lambda: render_deal_csv(table),
        lambda: render_deal_text(table, ruleset),
    )


def _game_command(ruleset: Ruleset, args: argparse.Namespace, out: TextIO) -> int:
    """``stats`` of a must-use or hi-lo game: sampled final hands per half."""
    from ..odds.odds import MAX_SAMPLES
    from .game_stats import DEFAULT_GAME_DEALS, game_stats, game_table_dict, render_game_csv, render_game_text

    samples = getattr(args, "samples", None)
    samples = DEFAULT_GAME_DEALS if samples is None else samples
    if not 1 <= samples <= MAX_SAMPLES:
        raise UsageError(f"pokerrules stats: --samples {samples}: must be from 1 to {MAX_SAMPLES:,}")
    seed = _checked_seed(args)
    bar = Bar(f"dealing {ruleset.name}, {samples:,} deals")
    try:
        table = game_stats(ruleset, samples, 2026 if seed is None else seed, bar)
    finally:
        bar.finish()
    return _write_report(
        out,
        args,
        lambda: json_dumps(game_table_dict(table, ruleset), indent=2) + "\n",
        lambda: render_game_csv(table),
        lambda: render_game_text(table),
    )


def _write_report(
    out: TextIO,
    args: argparse.Namespace,
    as_json: Callable[[], str],
    as_csv: Callable[[], str],
    as_text: Callable[[], str],
) -> int:
    """Write a ``stats`` report in the format the options ask for (JSON, CSV or text)."""
    out.write(as_json() if args.json else as_csv() if args.csv else as_text())
    return EXIT_OK
