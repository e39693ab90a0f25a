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
    from .resources import catalogue_names
    from .ruleset import load

    rows = []
    for name in catalogue_names():
        try:
            title = load(name).title
        except PokerRulesError as problem:
            title = f"(broken: {problem.first.code})"
        rows.append({"name": name, "title": title})
    if args.json:
        out.write(json.dumps(rows, indent=2) + "\n")
    else:
        width = max(len(row["name"]) for row in rows)
        out.writelines(f"{row['name']:<{width}}  {row['title']}\n" for row in rows)
    return EXIT_OK


def _hands_from_args(values: Sequence[str], stdin: TextIO) -> list[tuple[str, str]]:
    """(label, text) of every hand the user gave."""
    if list(values) == ["-"]:
        return [(f"<stdin line {n}>", line.strip()) for n, line in enumerate(stdin, start=1) if line.strip()]
    single_cards = all(len(tokenize_quiet(value)) == 1 for value in values)
    if single_cards and len(values) > 1:
        return [("<cards>", " ".join(values))]
    return [(f"<hand {n}>" if len(values) > 1 else "<cards>", value) for n, value in enumerate(values, start=1)]


def tokenize_quiet(text: str) -> list[object]:
    """The tokens of ``text``, or an empty list when it does not read as cards."""
    try:
        return list(tokenize(text))
    except PokerRulesError:
        return []


def cmd_eval(args: argparse.Namespace, out: TextIO, stdin: TextIO | None = None) -> int:
    """``pokerrules eval``: evaluate each hand; all-or-nothing output."""
    from .ruleset import load

    stdin = stdin or sys.stdin
    ruleset = load(args.ruleset)
    results = []
    for label, text in _hands_from_args(args.cards, stdin):
        cards = ruleset.cards(text, label)
        hand = ruleset.engine.evaluate(cards, label)
        results.append((text, hand))
    for text, hand in results:
        if args.json:
            out.write(json.dumps({"input": text, **hand.as_dict()}, ensure_ascii=False) + "\n")
        else:
            extra = "" if hand.qualifies else "  (does not qualify)"
            out.write(f"{' '.join(hand.cards)}  {hand.category}  {hand.describe()}{extra}\n")
    return EXIT_OK


def _split_line(line: str, hand_size: int | None) -> tuple[list[str], str]:
    body, _, board = line.partition(";")
    if hand_size:
        cards = [str(token.card) for token in tokenize(body)]
        hands = [" ".join(cards[i : i + hand_size]) for i in range(0, len(cards), hand_size)]
    else:
        hands = [part.strip() for part in body.split("|") if part.strip()]
    return hands, board.strip()


def cmd_showdown(args: argparse.Namespace, out: TextIO, stdin: TextIO | None = None) -> int:
    """``pokerrules showdown``: one showdown from the arguments, or one per input line."""
    from .ruleset import load
    from .showdown import showdown

    stdin = stdin or sys.stdin
    ruleset = load(args.ruleset)
    if args.source is None:
        if len(args.hands) < 1:
            raise SystemExit("pokerrules showdown: give at least one hand, or --from FILE")
        boards = args.board if len(args.board) > 1 else (args.board[0] if args.board else "")
        result = showdown(ruleset, args.hands, boards, args.pot)
        if args.json:
            out.write(json.dumps(result.as_dict(), ensure_ascii=False, indent=2) + "\n")
        else:
            out.write(_showdown_text(result, args.hands, args.pot is not None))
        return EXIT_OK
    stream = stdin if args.source == "-" else open(args.source, encoding="utf-8")  # noqa: SIM115
    with stream:
        lines = [line.strip() for line in stream if line.strip()]
    results = []
    for number, line in enumerate(lines, start=1):
        hands, board = _split_line(line, args.hand_size)
        try:
            results.append((hands, showdown(ruleset, hands, board, args.pot)))
        except PokerRulesError as problem:
            first = problem.first
            raise PokerRulesError(first.__class__(first.code, f"line {number}: {first.message}", args.source, number, 1)) from None
    if args.summary:
        seats = max(len(hands) for hands, _ in results) if results else 0
        wins = [sum(1 for _, r in results if r.winners == [seat]) for seat in range(seats)]
        ties = sum(1 for _, r in results if len(r.winners) > 1)
        if args.json:
            out.write(json.dumps({"showdowns": len(results), "wins": wins, "ties": ties}) + "\n")
        else:
            for seat, count in enumerate(wins, start=1):
                out.write(f"player {seat} wins {count}\n")
            out.write(f"ties {ties}\n")
        return EXIT_OK
    for hands, result in results:
        if args.json:
            out.write(json.dumps(result.as_dict(), ensure_ascii=False) + "\n")
        else:
            out.write(_showdown_text(result, hands, args.pot is not None) + "\n")
    return EXIT_OK


def _showdown_text(result: object, hands: Sequence[str], with_pot: bool) -> str:
    from .showdown import ShowdownResult

    assert isinstance(result, ShowdownResult)
    lines = []
    for half in result.halves:
        if len(result.halves) > 1:
            lines.append(f"[{half.name}: {half.ruleset}]" + ("  no qualifying hand" if not half.winners else ""))
        for seat, hand in enumerate(half.hands):
            mark = "*" if seat in half.winners else " "
            if hand is None:
                lines.append(f"{mark} player {seat + 1}: no hand")
                continue
            qualifier = "" if hand.qualifies else "  (does not qualify)"
            lines.append(f"{mark} player {seat + 1}: {' '.join(hand.cards)}  {hand.category}  {hand.describe()}{qualifier}")
    names = ", ".join(f"player {w + 1}" for w in result.winners) or "nobody"
    verb = "wins" if len(result.winners) == 1 else "split"
    lines.append(f"{names} {verb}")
    if with_pot:
        lines.append("shares: " + ", ".join(f"player {i + 1} {chips}" for i, chips in enumerate(result.shares)))
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
    args = parse_args(argv)
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
