"""The ``pokerrules`` command line.

Argument parsing is kept apart from execution: :func:`parse_args` builds an
``argparse.Namespace`` (the definitions are in :mod:`evaluator.cli.args`), and
each ``cmd_*`` function runs one command and returns its exit code. Exit
codes: 0 success, 1 a problem with the input (bad cards, a broken ruleset,
failing checks), 2 bad usage, 70 an internal error (a bug: one line saying so,
never a traceback), 141 when the reader of stdout went away. Every
error a user can cause is printed on stderr as a positioned message (a JSON
object with ``--json``) -- never a traceback -- and nothing is written to
stdout when a command fails. The output conventions (one indented JSON
document, or JSON Lines for streams; 0-based indices) are in
:mod:`evaluator.cli.output`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO, cast

from ..core.errors import Diagnostic, LoadError, PokerRulesError, raise_internal
from ..core.safe_text import GuardedOutput, SharedLine, visible
from ..core.words import counted
from ..rules.cards import tokenize
from . import args as cli_args
from . import chart as cli_chart
from . import check as cli_check
from . import compare as cli_compare
from . import draw as cli_draw
from . import lsp as cli_lsp
from . import odds as cli_odds
from .lines import at_input_line, bounded_lines
from .output import (
    EXIT_BROKEN_PIPE,
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_PROBLEM,
    EXIT_USAGE,
    UsageError,
    json_document,
    json_line,
    render_error,
    render_internal,
    render_os_error,
    render_usage,
)

if TYPE_CHECKING:
    from ..engine.showdown import ShowdownResult


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command (definitions in :mod:`evaluator.cli.args`)."""
    parser = cli_args.Parser(
        prog="pokerrules",
        description="A rules-as-data poker hand evaluator: YAML rulesets, one generic evaluator.",
        epilog='examples:\n  $ pokerrules eval standard "Kc Kd Ks 4h 4c"\n  $ pokerrules check rulesets/\n'
        "  $ pokerrules CMD --help     (each command's options and examples)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=cli_args.VersionAction)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    cli_args.add_list(commands)
    cli_args.add_eval(commands)
    cli_args.add_showdown(commands)
    cli_args.add_check(commands)
    cli_args.add_stats(commands)
    cli_args.add_diff(commands)
    cli_args.add_schema(commands)
    cli_compare.add_parser(commands)
    cli_draw.add_parser(commands)
    cli_odds.add_parsers(commands)
    cli_chart.add_parser(commands)
    cli_lsp.add_parser(commands)
    return parser


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse the command line (raises :class:`UsageError` on bad usage; ``--help`` exits 0).

    An option a subcommand does not know is reported with that subcommand's
    usage, not the top-level one.
    """
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        command = subcommand_parser(parser, args.command) or parser
        command.error(f"unrecognized arguments: {' '.join(unknown)}")
    return args


def subcommand_parser(parser: argparse.ArgumentParser, name: str | None) -> argparse.ArgumentParser | None:
    """The parser of the subcommand ``name`` (None when there is no such subcommand)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found = action.choices.get(name) if name else None
            return found if isinstance(found, argparse.ArgumentParser) else None
    return None


def command_usage(name: str | None) -> str:
    """The usage lines of a subcommand (the top-level usage for no or an unknown name)."""
    parser = build_parser()
    return (subcommand_parser(parser, name) or parser).format_usage()


# --- commands -------------------------------------------------------------------------


def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    """``pokerrules list``: the catalogue with titles."""
    from ..core.resources import catalogue_titles

    rows = [{"name": name, "title": title} for name, title in catalogue_titles()]
    if args.json:
        out.write(json_document(rows))
    else:
        width = max(len(row["name"]) for row in rows)
        out.writelines(f"{row['name']:<{width}}  {visible(row['title'])}\n" for row in rows)
    return EXIT_OK


def tokenize_quiet(text: str) -> list[object]:
    """The tokens of ``text``, or an empty list when it does not read as cards."""
    try:
        return list(tokenize(text))
    except PokerRulesError:
        return []


def cmd_eval(args: argparse.Namespace, out: TextIO, stdin: TextIO | None = None) -> int:
    """``pokerrules eval``: evaluate each hand on the tables, one line each, streamed."""
    from ..ruleset import load
    from .evaluate import Batch, hands_from, write_lines

    ruleset = load(args.ruleset, root=args.root)
    batch = Batch(out)  # lines go out together, and whenever the input is about to wait
    hands = hands_from(args.cards, stdin or sys.stdin, lambda value: len(tokenize_quiet(value)) == 1, batch.flush)
    one = list(args.cards) != ["-"] and (len(args.cards) == 1 or all(len(tokenize_quiet(v)) == 1 for v in args.cards))
    return write_lines(ruleset, hands, batch, args.json, one)


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

    from ..compiled.fasthand import showdown
    from ..ruleset import load

    stdin = stdin or sys.stdin
    ruleset = load(args.ruleset, root=args.root)
    if args.source is None and not args.hands:
        raise UsageError("pokerrules showdown: give at least one hand, or --from FILE")
    if ruleset.by_deal:
        from . import dealt as cli_dealt

        return cli_dealt.run(args, ruleset, out, lambda: _showdown_lines(args.source, stdin, every=True), _summary)
    if args.declare:
        raise UsageError(f"pokerrules showdown: --declare is for hi-lo declare games; {ruleset.name} is not one")
    if args.source is None:
        if not args.hands:
            raise UsageError("pokerrules showdown: give at least one hand, or --from FILE")
        result = showdown(ruleset, args.hands, _one_board_or_all(args.board), args.pot)
        if args.json:
            out.write(json_document(result.as_dict()))
        else:
            out.write(_showdown_text(result))
        return EXIT_OK
    lines = _showdown_lines(args.source, stdin)
    results = []
    for number, line in lines:
        try:
            hands, boards = _split_line(line, args.hand_size)
            if not boards and args.board:
                boards = list(args.board)  # the same board(s) for every line
            results.append(showdown(ruleset, hands, _one_board_or_all(boards), args.pot))
        except PokerRulesError as problem:
            raise at_input_line(problem, "<stdin>" if args.source == "-" else args.source, number) from None
    if args.summary:
        out.write(_summary(results, args.json, args.pot is not None))
        return EXIT_OK
    for result in results:
        if args.json:
            out.write(json_line(result.as_dict()))  # one showdown per input line: JSON Lines
        else:
            out.write(_showdown_text(result) + "\n")
    return EXIT_OK


def _showdown_lines(source: str, stdin: TextIO, every: bool = False) -> list[tuple[int, str]]:
    """(line number, text) of every showdown line of ``--from`` (Y101 when the file cannot be read);
    ``every``: blank and comment lines too (deals written as actions are blocks between blank lines)."""
    where = "<stdin>" if source == "-" else source
    try:
        stream = stdin if source == "-" else open(source, encoding="utf-8")  # noqa: SIM115
        with stream:  # lines of bounded length: /dev/zero is refused at its first line
            numbered = [(number, line.strip()) for number, line in bounded_lines(stream, where)]
    except (OSError, UnicodeDecodeError) as problem:
        reason = "not UTF-8 text" if isinstance(problem, UnicodeDecodeError) else (problem.strerror or str(problem))
        raise LoadError(Diagnostic("Y101", f"cannot read {where}: {reason}", where)) from None
    if every:
        return numbered
    return [(number, line) for number, line in numbered if line and not line.startswith("#")]


def _summary(results: Sequence[ShowdownResult], as_json: bool, with_pot: bool) -> str:
    """``--summary``: outright wins per seat, split pots, and chips won per seat."""
    seats = max((len(r.players) for r in results), default=0)
    wins = [sum(1 for r in results if r.winners == [seat]) for seat in range(seats)]
    ties = sum(1 for r in results if len(r.winners) > 1)
    chips = [sum(r.shares[seat] for r in results if seat < len(r.shares)) for seat in range(seats)]
    if as_json:
        data: dict[str, object] = {"showdowns": len(results), "wins": wins, "ties": ties}
        if with_pot:
            data["chips"] = chips
        return json_document(data)
    lines = [
        f"player {seat} wins {count}" + (f" ({counted(chips[seat - 1], 'chip')})" if with_pot else "")
        for seat, count in enumerate(wins, start=1)
    ]
    lines.append(f"ties {ties}")
    return "\n".join(lines) + "\n"


def _share_text(result: object, seat: int) -> str:
    from ..engine.showdown import ShowdownResult

    assert isinstance(result, ShowdownResult)
    text = f"share {result.fractions[seat]}"
    return text + (f" = {counted(result.shares[seat], 'chip')}" if result.shares else "")


def _showdown_text(result: object) -> str:
    """A showdown for people: each player's best five, category, description
    and share, per half of the pot when there are several."""
    from ..engine.showdown import ShowdownResult

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
            lines.append(f"[{visible(half.name)}: {visible(half.ruleset)}]{empty}")
        for seat, hand in enumerate(half.hands):
            mark = "*" if seat in half.winners else " "
            hole = " ".join(str(card) for card in result.players[seat])
            held = f" ({hole})" if any(result.boards) or len(result.players[seat]) > 5 else ""
            share = "" if several else "  " + _share_text(result, seat)
            if hand is None:
                lines.append(f"{mark} player {seat + 1}{held}: no hand{share}")
                continue
            qualifier = "" if hand.qualifies else "  (does not qualify)"
            lines.append(
                f"{mark} player {seat + 1}{held}: {' '.join(hand.cards)}  {hand.category}  {visible(hand.describe())}{qualifier}{share}"
            )
    if several:
        lines.extend(f"  player {seat + 1}: {_share_text(result, seat)}" for seat in range(len(result.players)))
    if not result.winners:
        lines.append(
            "nobody qualifies"
            + (f": the pot ({counted(result.carried, 'chip')}) stays for the next deal" if result.shares else "")
        )
    else:
        names = ", ".join(f"player {w + 1}" for w in result.winners)
        lines.append(f"{names} {'wins' if len(result.winners) == 1 else 'split'}")
    return "\n".join(lines) + "\n"


def cmd_stats(args: argparse.Namespace, out: TextIO) -> int:
    """``pokerrules stats``: the exact frequency table."""
    from ..tools.stats import command as stats_command

    return stats_command(args, out)


def cmd_diff(args: argparse.Namespace, out: TextIO) -> int:
    """``pokerrules diff``: compare two rulesets."""
    from ..tools.diff import command as diff_command

    return diff_command(args, out)


def cmd_schema(args: argparse.Namespace, out: TextIO) -> int:
    """``pokerrules schema``: print the JSON Schema of a ruleset file."""
    from ..core.resources import grammar_dir

    out.write((grammar_dir() / "ruleset.schema.json").read_text(encoding="utf-8"))
    return EXIT_OK


COMMANDS: dict[str, Callable[[argparse.Namespace, TextIO], int]] = {
    "list": cmd_list,
    "eval": cmd_eval,
    "showdown": cmd_showdown,
    "check": cli_check.run,
    "stats": cmd_stats,
    "diff": cmd_diff,
    "schema": cmd_schema,
    "compare": cli_compare.run,
    "draw": cli_draw.run,
    **cli_odds.COMMANDS,
    "chart": cli_chart.run,
    "lsp": cli_lsp.run,
}


def _wants_json(argv: Sequence[str], args: argparse.Namespace | None) -> bool:
    """Whether errors should be JSON: ``--json`` (or ``check --format json``) was asked for."""
    if args is not None:
        return bool(getattr(args, "json", False)) or getattr(args, "format", None) == "json"
    return "--json" in argv


def _quiet_broken_pipe() -> int:
    """The reader of stdout has gone (``| head -1``): stop quietly with the status SIGPIPE gives.

    stdout is pointed at the null device so that the interpreter's final
    flush cannot raise again.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # a stdout without a file descriptor (tests)
        pass
    return EXIT_BROKEN_PIPE


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code.

    0 success, 1 a problem with the input, 2 bad usage, 70 an internal error,
    130 interrupted, 141 stdout closed early (as a process killed by SIGPIPE).
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    args: argparse.Namespace | None = None
    # Whatever a command prints passes a guard: no control, escape or bidi
    # character, and no line that GitHub would run as a workflow command, on
    # either stream or on the two read as one (2>&1, pre-commit).
    real_out, real_err = sys.stdout, sys.stderr
    try:
        both = SharedLine()
        guarded_out = GuardedOutput(real_out, shared=both)
        sys.stdout = cast(TextIO, guarded_out)
        sys.stderr = cast(TextIO, GuardedOutput(real_err, carriage_returns=True, shared=both))
        args = parse_args(argv)  # guarded too: a usage error quotes the arguments
        guarded_out.workflow_commands = (
            args.command == "check" and getattr(args, "format", None) == "github" and not args.json
        )
        code = COMMANDS[args.command](args, sys.stdout)
        sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
        return code
    except SystemExit as stop:  # --help and --version
        return stop.code if isinstance(stop.code, int) else EXIT_USAGE
    except BrokenPipeError:
        return _quiet_broken_pipe()
    except UsageError as problem:
        if not problem.usage and args is not None:  # a command's own usage check: show its usage too
            problem.usage = command_usage(args.command)
        sys.stderr.write(render_usage(problem, _wants_json(argv, args)))
        return EXIT_USAGE
    except PokerRulesError as problem:
        sys.stderr.write(render_error(problem, _wants_json(argv, args)))
        return EXIT_PROBLEM
    except (OSError, UnicodeDecodeError) as problem:
        sys.stderr.write(render_os_error(problem, _wants_json(argv, args)))
        return EXIT_PROBLEM
    except KeyboardInterrupt:
        sys.stderr.write("pokerrules: interrupted\n")
        return 130
    except Exception as bug:  # the last line of defence: a bug never shows a traceback
        if raise_internal():
            raise  # the test suite: an internal error fails the test that met it
        command = args.command if args is not None else (argv[0] if argv else "")
        sys.stderr.write(render_internal(command, cli_args.installed_version(), bug, _wants_json(argv, args)))
        return EXIT_INTERNAL
    finally:
        sys.stdout, sys.stderr = real_out, real_err


if __name__ == "__main__":
    sys.exit(main())
