"""The ``pokerrules`` command line.

Argument parsing is kept apart from execution: :func:`parse_args` builds an
``argparse.Namespace``, and each ``cmd_*`` function runs one command and
returns its exit code. Exit codes: 0 success, 1 a problem with the input (bad
cards, a broken ruleset, failing checks), 2 bad usage. Every error a user can
cause is printed as a positioned one-line message on stderr -- never a
traceback -- and nothing is written to stdout when a command fails.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from .cards import tokenize
from .errors import PokerRulesError

EXIT_OK, EXIT_PROBLEM, EXIT_USAGE = 0, 1, 2


def _add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    parser = argparse.ArgumentParser(
        prog="pokerrules",
        description="A rules-as-data poker hand evaluator: YAML rulesets, one generic evaluator.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    listing = commands.add_parser("list", help="the shipped catalogue, with one-line titles")
    _add_json(listing)

    evaluate = commands.add_parser("eval", help="evaluate hands: category, best five, description")
    evaluate.add_argument("ruleset", help="a catalogue name or a path to a YAML file")
    evaluate.add_argument(
        "cards",
        nargs="+",
        help="one hand per argument ('As Kd Qh Jc Ts'), or one card per argument, or - to read one hand per line from stdin",
    )
    _add_json(evaluate)

    showdown = commands.add_parser("showdown", help="who wins: each player's best hand and share of the pot")
    showdown.add_argument("ruleset")
    showdown.add_argument("hands", nargs="*", help="one player's cards per argument")
    showdown.add_argument("--board", action="append", default=[], help="community cards (twice for double-board games)")
    showdown.add_argument("--pot", type=int, help="split this many chips among the winners")
    showdown.add_argument(
        "--from",
        dest="source",
        metavar="FILE",
        help="read one showdown per line from FILE (- for stdin): hands separated by '|', optional '; BOARD'",
    )
    showdown.add_argument("--hand-size", type=int, help="with --from: cut each line into hands of this many cards (Project Euler 54: 5)")
    showdown.add_argument("--summary", action="store_true", help="with --from: only count the wins of each seat")
    _add_json(showdown)

    check = commands.add_parser("check", help="validate ruleset files: schema, patterns, coverage, examples")
    check.add_argument("paths", nargs="+", help="files or directories (searched for *.yaml and *.yml)")
    check.add_argument("--format", choices=("text", "json", "github"), default="text")
    check.add_argument("--strict", action="store_true", help="warnings fail the check too")
    check.add_argument("--json", action="store_true", help="the same as --format json")

    stats = commands.add_parser("stats", help="exact frequency table of a ruleset's categories")
    stats.add_argument("ruleset")
    stats.add_argument("--cards", type=int, help="cards dealt (default: the hand size)")
    stats.add_argument("--csv", action="store_true", help="CSV output")
    _add_json(stats)

    diff = commands.add_parser("diff", help="what changes between two rulesets")
    diff.add_argument("ruleset_a")
    diff.add_argument("ruleset_b")
    diff.add_argument("--cards", type=int, help="cards dealt (default: the hand size)")
    diff.add_argument("--html", metavar="FILE", help="also write a self-contained HTML report")
    diff.add_argument("--samples", type=int, default=20000, help="random showdowns to sample when exact counting is too costly")
    diff.add_argument("--seed", type=int, default=2026, help="seed of the sampled showdowns")
    _add_json(diff)

    schema = commands.add_parser("schema", help="print the JSON Schema of a ruleset file")
    _add_json(schema)
    return parser


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse the command line (exits with 2 on bad usage, as argparse does)."""
    return build_parser().parse_args(argv)


# --- commands -------------------------------------------------------------------------


def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    """``pokerrules list``: the catalogue with titles."""
    from .resources import catalogue_titles

    rows = [{"name": name, "title": title} for name, title in catalogue_titles()]
    if args.json:
        out.write(json.dumps(rows, indent=2) + "\n")
    else:
        width = max(len(row["name"]) for row in rows)
        out.writelines(f"{row['name']:<{width}}  {row['title']}\n" for row in rows)
    return EXIT_OK


def tokenize_quiet(text: str) -> list[object]:
    """The tokens of ``text``, or an empty list when it does not read as cards."""
    try:
        return list(tokenize(text))
    except PokerRulesError:
        return []


def cmd_eval(args: argparse.Namespace, out: TextIO, stdin: TextIO | None = None) -> int:
    """``pokerrules eval``: evaluate each hand on the tables, one line each, streamed."""
    from .cli_eval import hands_from, write_lines
    from .ruleset import load

    ruleset = load(args.ruleset)
    hands = hands_from(args.cards, stdin or sys.stdin, lambda value: len(tokenize_quiet(value)) == 1)
    return write_lines(ruleset, hands, out, args.json)


def _split_line(line: str, hand_size: int | None) -> tuple[list[str], list[str]]:
    """The hands and boards of one ``--from`` line.

    ``HAND | HAND | ... ; BOARD ; BOARD``: hands separated by ``|``, then one
    board (two for double-board games) after ``;``. With ``hand_size`` the
    part before the first ``;`` is one run of cards cut into hands of that many
    cards (Project Euler 54: ten cards, two hands of five).
    """
    body, *boards = line.split(";")
    if hand_size:
        cards = [str(token.card) for token in tokenize(body)]
        hands = [" ".join(cards[i : i + hand_size]) for i in range(0, len(cards), hand_size)]
    else:
        hands = [part.strip() for part in body.split("|") if part.strip()]
    return hands, [board.strip() for board in boards if board.strip()]


def _one_board_or_all(boards: Sequence[str]) -> str | list[str]:
    return list(boards) if len(boards) > 1 else (boards[0] if boards else "")


def cmd_showdown(args: argparse.Namespace, out: TextIO, stdin: TextIO | None = None) -> int:
    """``pokerrules showdown``: one showdown from the arguments, or one per input line.

    Hands are given in seat order from the first seat after the button (which
    decides only who gets an odd chip). With ``--from`` every non-empty line
    that does not start with ``#`` is one showdown; the output is all or
    nothing (a bad line is reported with its number and nothing is printed).
    """
    from dataclasses import replace

    from .ruleset import load
    from .showdown import showdown

    stdin = stdin or sys.stdin
    ruleset = load(args.ruleset)
    if args.source is None:
        if not args.hands:
            sys.stderr.write("pokerrules showdown: give at least one hand, or --from FILE\n")
            return EXIT_USAGE
        result = showdown(ruleset, args.hands, _one_board_or_all(args.board), args.pot)
        if args.json:
            out.write(json.dumps(result.as_dict(), ensure_ascii=False, indent=2) + "\n")
        else:
            out.write(_showdown_text(result))
        return EXIT_OK
    stream = stdin if args.source == "-" else open(args.source, encoding="utf-8")  # noqa: SIM115
    with stream:
        lines = [(number, line.strip()) for number, line in enumerate(stream, start=1) if line.strip() and not line.lstrip().startswith("#")]
    results = []
    for number, line in lines:
        try:
            hands, boards = _split_line(line, args.hand_size)
            if not boards and args.board:
                boards = list(args.board)  # the same board(s) for every line
            results.append(showdown(ruleset, hands, _one_board_or_all(boards), args.pot))
        except PokerRulesError as problem:
            first = problem.first
            source = "<stdin>" if args.source == "-" else args.source
            raise PokerRulesError(replace(first, message=f"{first.message} (in {first.source})", source=source, line=number, col=1, context=None)) from None
    if args.summary:
        out.write(_summary(results, args.json, args.pot is not None))
        return EXIT_OK
    for result in results:
        if args.json:
            out.write(json.dumps(result.as_dict(), ensure_ascii=False) + "\n")
        else:
            out.write(_showdown_text(result) + "\n")
    return EXIT_OK


def _summary(results: Sequence[object], as_json: bool, with_pot: bool) -> str:
    """``--summary``: outright wins per seat, split pots, and chips won per seat."""
    from .showdown import ShowdownResult

    assert all(isinstance(r, ShowdownResult) for r in results)
    seats = max((len(r.players) for r in results), default=0)  # type: ignore[attr-defined]
    wins = [sum(1 for r in results if r.winners == [seat]) for seat in range(seats)]  # type: ignore[attr-defined]
    ties = sum(1 for r in results if len(r.winners) > 1)  # type: ignore[attr-defined]
    chips = [sum(r.shares[seat] for r in results if seat < len(r.shares)) for seat in range(seats)]  # type: ignore[attr-defined]
    if as_json:
        data: dict[str, object] = {"showdowns": len(results), "wins": wins, "ties": ties}
        if with_pot:
            data["chips"] = chips
        return json.dumps(data) + "\n"
    lines = [f"player {seat} wins {count}" + (f" ({chips[seat - 1]} chips)" if with_pot else "") for seat, count in enumerate(wins, start=1)]
    lines.append(f"ties {ties}")
    return "\n".join(lines) + "\n"


def _share_text(result: object, seat: int) -> str:
    from .showdown import ShowdownResult

    assert isinstance(result, ShowdownResult)
    text = f"share {result.fractions[seat]}"
    return text + (f" = {result.shares[seat]} chips" if result.shares else "")


def _showdown_text(result: object) -> str:
    """A showdown for people: each player's best five, category, description
    and share, per half of the pot when there are several."""
    from .showdown import ShowdownResult

    assert isinstance(result, ShowdownResult)
    lines = []
    for index, board in enumerate(result.boards):
        if board:
            label = "board" if len(result.boards) == 1 else f"board {index + 1}"
            lines.append(f"{label}: {' '.join(str(card) for card in board)}")
    several = len(result.halves) > 1
    for half in result.halves:
        if several:
            empty = "  no qualifying hand: the other half takes its chips" if not half.winners else ""
            lines.append(f"[{half.name}: {half.ruleset}]{empty}")
        for seat, hand in enumerate(half.hands):
            mark = "*" if seat in half.winners else " "
            hole = " ".join(str(card) for card in result.players[seat])
            held = f" ({hole})" if any(result.boards) or len(result.players[seat]) > 5 else ""
            share = "" if several else "  " + _share_text(result, seat)
            if hand is None:
                lines.append(f"{mark} player {seat + 1}{held}: no hand{share}")
                continue
            qualifier = "" if hand.qualifies else "  (does not qualify)"
            lines.append(f"{mark} player {seat + 1}{held}: {' '.join(hand.cards)}  {hand.category}  {hand.describe()}{qualifier}{share}")
    if several:
        lines.extend(f"  player {seat + 1}: {_share_text(result, seat)}" for seat in range(len(result.players)))
    if not result.winners:
        lines.append("nobody qualifies" + (f": the pot ({result.carried} chips) stays for the next deal" if result.shares else ""))
    else:
        names = ", ".join(f"player {w + 1}" for w in result.winners)
        lines.append(f"{names} {'wins' if len(result.winners) == 1 else 'split'}")
    return "\n".join(lines) + "\n"


def cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    """``pokerrules check``: lint ruleset files and report every diagnostic."""
    from .check import check_paths, render

    report_format = "json" if args.json else args.format
    diagnostics, usage_problem = check_paths(args.paths)
    if usage_problem:
        sys.stderr.write(f"pokerrules check: {usage_problem}\n")
        return EXIT_USAGE
    out.write(render(diagnostics, report_format))
    errors = [d for d in diagnostics if d.severity == "error"]
    warnings = [d for d in diagnostics if d.severity == "warning"]
    return EXIT_PROBLEM if errors or (args.strict and warnings) else EXIT_OK


def cmd_stats(args: argparse.Namespace, out: TextIO) -> int:
    """``pokerrules stats``: the exact frequency table."""
    from .stats import command as stats_command

    return stats_command(args, out)


def cmd_diff(args: argparse.Namespace, out: TextIO) -> int:
    """``pokerrules diff``: compare two rulesets."""
    from .diff import command as diff_command

    return diff_command(args, out)


def cmd_schema(args: argparse.Namespace, out: TextIO) -> int:
    """``pokerrules schema``: print the JSON Schema of a ruleset file."""
    from .resources import grammar_dir

    out.write((grammar_dir() / "ruleset.schema.json").read_text(encoding="utf-8"))
    return EXIT_OK


COMMANDS: dict[str, Callable[[argparse.Namespace, TextIO], int]] = {
    "list": cmd_list,
    "eval": cmd_eval,
    "showdown": cmd_showdown,
    "check": cmd_check,
    "stats": cmd_stats,
    "diff": cmd_diff,
    "schema": cmd_schema,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    try:
        args = parse_args(argv)
    except SystemExit as stop:  # argparse has printed usage (or --help)
        return stop.code if isinstance(stop.code, int) else EXIT_USAGE
    try:
        return COMMANDS[args.command](args, sys.stdout)
    except PokerRulesError as problem:
        sys.stderr.write(f"{problem}\n")
        return EXIT_PROBLEM
    except (OSError, UnicodeDecodeError) as problem:
        sys.stderr.write(f"pokerrules: {problem}\n")
        return EXIT_PROBLEM
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
