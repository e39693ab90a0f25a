"""The argument definitions of the ``pokerrules`` command line.

Every subcommand has a one-line ``help`` (shown by ``pokerrules --help``), a
``description`` and an epilog of examples (shown by ``pokerrules CMD --help``);
every argument has a help text. Execution lives in :mod:`evaluator.cli.main`.
A subcommand that lives in a module of its own registers itself with an
``add_parser(subparsers)`` function called from :func:`evaluator.cli.main.build_parser`.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, NoReturn

from .output import UsageError

RULESET_HELP = "a catalogue name (see `pokerrules list`) or the path of a YAML ruleset file"
JSON_HELP = "machine-readable output: one indented JSON document (schema in docs/json/)"


class Parser(argparse.ArgumentParser):
    """An argument parser that raises :class:`UsageError` instead of exiting,
    so that ``main`` can print the problem as text or, with ``--json``, as JSON."""

    def error(self, message: str) -> NoReturn:
        """Raise the problem as a UsageError for main to print (text or JSON, exit 2), instead of argparse's own exit."""
        raise UsageError(f"{self.prog}: error: {message}", self.format_usage())


class VersionAction(argparse.Action):
    """``--version``: the version is looked up only when asked for (reading the
    distribution's metadata is slow to import)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="show the version and exit")

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        import sys

        sys.stdout.write(f"pokerrules {installed_version()}\n")
        parser.exit(0)


def installed_version() -> str:
    """The version of the running package: its distribution's metadata when
    that distribution is the one imported, else ``evaluator.__version__``
    (a checkout on ``sys.path``, or an editable install).

    >>> installed_version().count(".") >= 2
    True
    """
    from importlib import metadata

    from ..core.version import __version__

    try:
        distribution = metadata.distribution("pokerrules")
        located = Path(str(distribution.locate_file("evaluator/__init__.py"))).resolve()
    except (metadata.PackageNotFoundError, OSError):
        return __version__
    here = (Path(__file__).resolve().parents[1] / "__init__.py").resolve()
    return distribution.version if located == here else __version__


def add_command(commands: Any, name: str, summary: str, description: str, examples: str) -> argparse.ArgumentParser:
    """A subcommand with a one-line summary, a description and examples in its ``--help``.

    ``commands`` is what ``add_subparsers()`` returned; ``examples`` is shown
    as written (one command per line, with ``$`` prompts).
    """
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        help=summary,
        description=description,
        epilog="examples:\n" + "\n".join("  " + line for line in examples.strip("\n").splitlines()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return parser


def add_json(parser: argparse.ArgumentParser, text: str = JSON_HELP) -> None:
    """The ``--json`` flag every command takes."""
    parser.add_argument("--json", action="store_true", help=text)


def add_root(parser: argparse.ArgumentParser) -> None:
    """``--root DIR``: a further folder that ``extends:``, ``game.split`` and pay-table ``ruleset:`` paths may reach."""
    parser.add_argument(
        "--root",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder that extends:, game.split and pay-table ruleset: paths may also reach "
        "(besides the file's own folder); repeatable",
    )


def add_list(commands: Any) -> None:
    """The ``list`` command: the shipped rulesets."""
    listing = add_command(
        commands,
        "list",
        "the shipped catalogue, with one-line titles",
        "List the rulesets shipped with pokerrules, each with its title. Any of these names can be\n"
        "given where a command asks for a RULESET.",
        "$ pokerrules list\n$ pokerrules list --json",
    )
    add_json(listing)


def add_eval(commands: Any) -> None:
    """The ``eval`` command: one hand (or one per line of stdin) under a ruleset."""
    evaluate = add_command(
        commands,
        "eval",
        "evaluate hands: category, best five, description",
        "Evaluate hands under a ruleset: the best five cards, the category and a description.\n"
        "Give one hand per argument, one card per argument, or - to read one hand per line from\n"
        "stdin. With --json, one hand prints one indented document; several hands (or -) print\n"
        "JSON Lines, one object per hand.",
        '$ pokerrules eval standard "Kc Kd Ks 4h 4c"\n'
        '$ pokerrules eval deuces-wild "2s Ah 9h 8h 5h" --json\n'
        "$ pokerrules eval standard - < hands.txt",
    )
    evaluate.add_argument("ruleset", help=RULESET_HELP)
    evaluate.add_argument(
        "cards",
        nargs="+",
        help="one hand per argument ('As Kd Qh Jc Ts'), or one card per argument, "
        "or - to read one hand per line from stdin",
    )
    add_json(evaluate, JSON_HELP + "; JSON Lines for several hands")
    add_root(evaluate)


def add_showdown(commands: Any) -> None:
    """The ``showdown`` command: who wins, with a board, pots and odd chips."""
    showdown = add_command(
        commands,
        "showdown",
        "who wins: each player's best hand and share of the pot",
        "Settle a showdown: each player's best hand, the winners and each one's share of the pot.\n"
        "Hands are given in seat order from the first seat after the button; seats are numbered\n"
        "from 1 in text and from 0 in JSON. With --from, one showdown per line of a file.\n"
        "Dealer's-choice games (follow-the-queen, baseball, chicago, ...) take each player's cards in\n"
        "dealing order, face-down cards in parentheses, 'fold:' before a player who folded; --from then\n"
        "also reads deals written as dealer and player actions (d dh p1 As Kd, p3 f; see docs/games.md).",
        '$ pokerrules showdown standard "Kc 7d" "Qs Td" --board "Jh Jd Jc Js 9s" --pot 10\n'
        '$ pokerrules showdown omaha-hi-lo "As 2s 3d Kh" "Qc Qd 7s 6s" --board "4c 5h 8d Jc Kd" --json\n'
        "$ pokerrules showdown standard --from p054_poker.txt --hand-size 5 --summary\n"
        '$ pokerrules showdown follow-the-queen "(2c 9c) Qh 8s 7s 3d (9d)" "(Kc Kh) 6d Ks 2h 5d (5h)"\n'
        '$ pokerrules showdown stud-hi-lo-declare "As 2d 3c 4h 5s 9d Kc" "Kd Ks Kh 7c 7d 2s Qc" --declare both high',
    )
    showdown.add_argument("ruleset", help=RULESET_HELP)
    showdown.add_argument("hands", nargs="*", help="one player's cards per argument, in seat order")
    showdown.add_argument(
        "--board",
        action="append",
        default=[],
        help="community cards (twice for double-board games; once per run when the game runs it twice)",
    )
    showdown.add_argument("--pot", type=int, help="split this many chips among the winners")
    showdown.add_argument(
        "--from",
        dest="source",
        metavar="FILE",
        help="read one showdown per line from FILE (- for stdin): hands separated by '|', optional '; BOARD'",
    )
    showdown.add_argument(
        "--hand-size", type=int, help="with --from: cut each line into hands of this many cards (Project Euler 54: 5)"
    )
    showdown.add_argument("--summary", action="store_true", help="with --from: only count the wins of each seat")
    showdown.add_argument(
        "--declare",
        nargs="+",
        metavar="WORD",
        help="hi-lo declare games: each player's declaration in seat order (a half's name, e.g. high or low, or both)",
    )
    add_json(showdown, JSON_HELP + "; with --from (without --summary) JSON Lines, one object per line")
    add_root(showdown)


def add_check(commands: Any) -> None:
    """The ``check`` command: lint ruleset files, with positioned diagnostics."""
    check = add_command(
        commands,
        "check",
        "validate ruleset files: schema, patterns, coverage, examples",
        "Check ruleset files and report every problem of every file: schema, patterns, order, wild\n"
        "cards, coverage, unreachable categories and examples. Directories are searched for *.yaml\n"
        "and *.yml. A path that cannot be read is reported as Y101 and the others are still checked.\n"
        "Exit 0 clean, 1 errors (or warnings with --strict), 2 bad usage. --select and --ignore\n"
        "take codes or their prefixes (W, W10, W104); a comment '# pokerrules: ignore[W104]' in a file\n"
        "ignores codes for that file. --fix applies the quick fixes an editor offers (did-you-mean\n"
        "spellings, a category missing from order) to the files checked, then reports what is left.",
        "$ pokerrules check rulesets/\n"
        "$ pokerrules check --strict --format github rules/house.yaml rules/friday.yaml\n"
        "$ pokerrules check --ignore W104 --select W,E rules/\n"
        "$ pokerrules check --fix rules/house.yaml\n"
        "$ pokerrules check --json rules/",
    )
    check.add_argument(
        "paths", nargs="+", metavar="PATH", help="ruleset files or directories (searched for *.yaml and *.yml)"
    )
    check.add_argument(
        "--format",
        choices=("text", "json", "github"),
        default=None,
        help="text: path:line:col lines and a summary (default); json: a list of diagnostics; "
        "github: workflow annotations",
    )
    check.add_argument("--strict", action="store_true", help="warnings fail the check too (exit 1)")
    check.add_argument("--json", action="store_true", help="the same as --format json (refused with another --format)")
    check.add_argument(
        "--select",
        action="append",
        default=[],
        metavar="CODES",
        help="report only these codes or prefixes, separated by commas (W, E101); repeatable",
    )
    check.add_argument(
        "--ignore",
        action="append",
        default=[],
        metavar="CODES",
        help="do not report these codes or prefixes (the longer prefix wins over --select); repeatable",
    )
    check.add_argument(
        "--fix",
        action="store_true",
        help="apply the preferred quick fixes to the files checked (rewritten in place), then report",
    )
    add_root(check)


def add_stats(commands: Any) -> None:
    """The ``stats`` command: the exact frequency table of a ruleset."""
    stats = add_command(
        commands,
        "stats",
        "exact frequency table of a ruleset's categories",
        "Count every deal of a ruleset exactly (by hand classes): per category the number of deals,\n"
        "the probability, the odds, the distinct values and a rarity note; low rulesets also by top card.\n"
        "A game counts the final hand under its own rules: hold'em, stud and razz exactly (any five of\n"
        "hole + board), Omaha's 2 + 3 and hi-lo halves sampled (--samples, --seed, 95% intervals).\n"
        "Dealer's-choice games (Follow the Queen, Baseball, Chicago) deal --players seats street by street:\n"
        "the categories of a player's hand, the wild cards and card halves the deals gave.",
        "$ pokerrules stats standard\n"
        "$ pokerrules stats standard --cards 7 --json\n"
        "$ pokerrules stats deuces-wild --csv\n"
        "$ pokerrules stats omaha-hi-lo --samples 100000\n"
        "$ pokerrules stats follow-the-queen --players 6 --samples 5000",
    )
    stats.add_argument("ruleset", help=RULESET_HELP)
    stats.add_argument(
        "--cards",
        type=int,
        help="cards dealt (default: the hand size, or the game's hole + board; refused for another game)",
    )
    stats.add_argument("--csv", action="store_true", help="CSV output")
    stats.add_argument(
        "--samples",
        type=int,
        help="deals sampled for a must-use or hi-lo game (default 50,000, at most 1,000,000,000) or a"
        " dealer's-choice game (20,000, at most 2,000,000)",
    )
    stats.add_argument(
        "--players",
        type=int,
        help="dealer's-choice games: players at the table (default 5); the deal's wild cards depend on it",
    )
    stats.add_argument("--seed", type=int, default=2026, help="seed of the sampled deals")
    add_json(stats)
    add_root(stats)


def add_diff(commands: Any) -> None:
    """The ``diff`` command: what changes between two rulesets."""
    diff = add_command(
        commands,
        "diff",
        "what changes between two rulesets",
        "Compare two rulesets: settings, category order with frequencies, flips of every kind grouped by\n"
        "cause (each with a count and a verified pair of hands whose winner changes), the lowball\n"
        "breakdown of low rulesets, and the share of heads-up showdowns whose winner changes; for games,\n"
        "real deals of the game (board, must-use, hi-lo) and the share of the pot that moves.",
        "$ pokerrules diff standard short-deck\n"
        "$ pokerrules diff standard deuces-wild --json\n"
        "$ pokerrules diff standard my-rules.yaml --html report.html",
    )
    diff.add_argument("ruleset_a", metavar="RULESET_A", help=RULESET_HELP)
    diff.add_argument("ruleset_b", metavar="RULESET_B", help="the ruleset to compare with (a name or a path)")
    diff.add_argument("--cards", type=int, help="cards dealt (default: the hand size)")
    diff.add_argument("--html", metavar="FILE", help="also write a self-contained HTML report")
    diff.add_argument(
        "--samples",
        type=int,
        default=None,
        help="random showdowns to sample when exact counting is too costly (default 20000; 5000 game deals;"
        " at most 10,000,000)",
    )
    diff.add_argument("--seed", type=int, default=2026, help="seed of the sampled showdowns")
    add_json(diff)
    add_root(diff)


def add_schema(commands: Any) -> None:
    """The ``schema`` command: the JSON Schema of a ruleset file."""
    schema = add_command(
        commands,
        "schema",
        "print the JSON Schema of a ruleset file",
        "Print the JSON Schema (draft 2020-12) of a ruleset file, for editors and other tools.\n"
        "The output is JSON with or without --json.",
        "$ pokerrules schema > schemas/ruleset.schema.json",
    )
    add_json(schema, "accepted for uniformity: the schema is always JSON")


def add_cluster_options(parser: argparse.ArgumentParser) -> None:
    """``--scheduler ADDRESS``, ``--workers N`` and ``--connect-timeout S``, for commands that can run on Dask
    (here, not in ``odds/cluster.py``: building the parser must not import the Dask plumbing)."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the chunks on this dask.distributed scheduler, one you trust (tcp://host:8786; tls:// for remote)",
    )
    group.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="run the chunks on a local Dask cluster of N processes (at most twice the cores, at least 4)",
    )
    parser.add_argument(
        "--connect-timeout",
        type=float,
        metavar="S",
        help="seconds to wait for the scheduler's handshake (default 5, or $POKERRULES_CONNECT_TIMEOUT)",
    )
