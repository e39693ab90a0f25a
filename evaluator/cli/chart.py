"""``pokerrules chart``: argument parsing and running."""

from __future__ import annotations

import argparse
import csv
import io
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, nullcontext
from typing import TYPE_CHECKING, Any, TextIO

from ..core.progress import Interrupts
from ..core.safe_text import visible
from ..core.words import counted
from .args import RULESET_HELP, add_cluster_options, add_command, add_json, add_root
from .output import UsageError, json_document

if TYPE_CHECKING:
    from ..odds.chart import Cell, ChartComparison, ChartResult
    from ..odds.matchups import MatchupTable

EXAMPLES = """\
$ pokerrules chart holdem
$ pokerrules chart holdem --against short-deck-holdem --html chart.html
$ pokerrules chart holdem --opponents 3 --samples 100000 --seed 7 --csv
$ pokerrules chart holdem --exact
$ pokerrules chart holdem --exact --against short-deck-holdem --csv
$ pokerrules chart holdem --exact --board "Kd 7c 2h 5s"
$ pokerrules chart holdem --matchups --exact --html matchups.html
$ pokerrules chart short-deck-holdem --matchups --exact --csv
$ pokerrules chart holdem --samples 1000000 --workers 2
$ pokerrules chart holdem --samples 1000000 --scheduler tcp://10.0.0.5:8786 --json
$ pokerrules chart omaha --hands 200 --seed 7
$ pokerrules chart omaha --against omaha-hi-lo --hands 100 --samples 5000 --seed 7 --html omaha.html
$ pokerrules chart seven-card-stud --hands 500 --csv
"""


def add_parser(commands: Any) -> None:
    """Register ``chart`` on the CLI's subparsers."""
    parser = add_command(
        commands,
        "chart",
        "starting-hand chart: the equity of every class (or of sampled hands) against random hands",
        "The equity of every starting-hand class (169 in a 52-card deck, 81 in a 36-card deck) against\n"
        "random opponents, as the 13x13 grid: pairs on the diagonal, suited above, offsuit below.\n"
        "Sampled by default (20,000 deals per class, seeded, with standard errors); --exact\n"
        "counts every deal: against one random hand every board is enumerated once and every holding\n"
        "ranked once on it (hold'em before the flop: 134,459 boards up to a renaming of suits).\n"
        "--matchups --exact gives the table of every class against every class (169 x 169 for hold'em),\n"
        "as text (each class's best and worst matchup), --json, --csv or an --html heat map.\n"
        "Games whose starting hand is not two hole cards get a chart of sampled hands instead, sorted\n"
        "by equity: --hands N starting hands (default 200), hand i drawn uniformly from the deck with\n"
        "numpy SeedSequence(seed, spawn_key=(i,)), written in one canonical form under a renaming of\n"
        "suits when the suits are interchangeable (equal hands merged, weighted by their draws).\n"
        "Omaha's starting hand is its 4 hole cards; stud's (7 cards, no board) the first 3 cards, the\n"
        "other 4 dealt to every player street by street with nobody folding; a five-card game's the\n"
        "whole hand as dealt. --against charts the same hands under the second ruleset.\n"
        'With --workers or --scheduler the work runs on Dask (pip install "pokerrules[dask]"),\n'
        "with the same result as on one process.",
        EXAMPLES,
    )
    parser.add_argument("ruleset", help=RULESET_HELP)
    parser.add_argument("--against", metavar="RULESET2", help="a second chart, and the change of every class or hand")
    parser.add_argument("--opponents", type=int, default=1, metavar="N", help="random opponents (default 1)")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--samples", type=int, metavar="N", help="deals sampled per class or hand (default 20,000)")
    how.add_argument("--exact", action="store_true", help="count every deal exactly (board by board)")
    parser.add_argument(
        "--matchups",
        action="store_true",
        help="with --exact: the table of every class against every class, heads-up",
    )
    parser.add_argument("--seed", type=int, help="seed of the sampled deals and hands (printed when drawn)")
    parser.add_argument(
        "--hands",
        type=int,
        metavar="N",
        help="starting hands sampled, for games whose hands are not two hole cards (default 200)",
    )
    parser.add_argument("--board", default="", help="board cards already out")
    parser.add_argument("--dead", default="", help="cards out of play")
    parser.add_argument(
        "--declare",
        nargs="+",
        metavar="WORD",
        help="hi-lo declare games: each seat's declared strategy, the charted hand's first, then each opponent's",
    )
    parser.add_argument(
        "--html",
        metavar="FILE",
        help="also write a self-contained HTML page of the chart (written whole, never through a symbolic link; - for stdout)",
    )
    parser.add_argument("--csv", action="store_true", help="CSV output: one row per class or hand")
    add_cluster_options(parser)
    add_json(parser)
    add_root(parser)


#: Codes of the cluster and seed checks that are bad usage (exit 2) rather than a problem met while running.
USAGE_CODES = ("O118", "O119", "O121", "O123")


def check_run_options(args: argparse.Namespace) -> None:
    """Check ``--seed``, ``--scheduler``, ``--workers`` and ``--connect-timeout`` before any work
    (a UsageError, exit 2, with the code: O118, O119, O121, O123)."""
    from ..core.errors import PokerRulesError
    from ..odds.cluster import check_seed, check_workers
    from ..odds.scheduler import connect_timeout, read_address

    try:
        if args.seed is not None:
            check_seed(args.seed)
        if args.scheduler is not None:
            read_address(args.scheduler)
        if args.workers is not None:
            check_workers(args.workers)
        if args.scheduler is not None or args.connect_timeout is not None:
            connect_timeout(args.connect_timeout)
    except PokerRulesError as problem:
        first = problem.first
        hint = f"\n  hint: {visible(first.hint)}" if first.hint else ""
        raise UsageError(f"pokerrules {args.command}: error {first.code}: {visible(first.message)}{hint}") from None


@contextmanager
def cluster_client(args: argparse.Namespace, interrupts: Interrupts | None = None) -> Iterator[Any]:
    """The Dask client asked for by ``--scheduler`` / ``--workers`` (None when neither).

    The options are checked first (:func:`check_run_options`); a Ctrl-C while the
    cluster starts is taken once it has started, so it is always closed.
    """
    from ..odds.cluster import DaskMissing, dask_client

    check_run_options(args)
    with ExitStack() as stack:
        try:
            with interrupts.deferred() if interrupts is not None else nullcontext():
                client = stack.enter_context(dask_client(args.scheduler, args.workers, args.connect_timeout))
        except DaskMissing as missing:
            raise UsageError(f"pokerrules {args.command}: {missing}") from None
        try:
            yield client
        except KeyboardInterrupt:
            if client is not None:
                # the cluster is closed mid-task: Dask and asyncio log the tasks it cut short, which
                # is no news after Ctrl-C (the one message is the command's); the process ends next
                import logging  # here, not at the top: every command's start imports this module

                logging.disable(logging.CRITICAL)
            raise


def grid_text(result: ChartResult) -> str:
    """The chart as a grid of equity percentages, with its method line."""
    from ..tools.chart_html import method_text

    lines = [f"{result.ruleset}: {method_text(result)} ({result.seconds:.1f} s)"]
    lines.append("      " + "".join(f"{rank:>6}" for rank in result.ranks))
    by_place = {(row, col): cell for row, col, cell in result.grid_cells()}
    for row, rank in enumerate(result.ranks):
        figures = []
        for col in range(len(result.ranks)):
            cell = by_place.get((row, col))
            figures.append(f"{100 * cell.equity:6.1f}" if cell is not None and cell.deals else "     .")
        lines.append(f"  {rank:>3} " + "".join(figures))
    lines.append("  (rows: first card; above the diagonal suited, below offsuit; equity in %)")
    return "\n".join(lines)


def hand_list_text(result: ChartResult) -> str:
    """A sampled-hand chart: its method, its sample rule, and the hands sorted by equity."""
    from ..tools.chart_html import method_text

    assert result.sample is not None
    summary = result.sample.as_dict(result.cells)
    mean = summary["mean_equity"]
    lines = [
        f"{result.ruleset}: {method_text(result)} ({result.seconds:.1f} s)",
        f"sample: {result.sample.rule}",
        *(f"deal: {visible(line)}" for line in result.extra.get("deal_rules", [])),
        f"{counted(len(result.cells), 'distinct hand')}, by equity"
        + (f"; mean over the draws {100 * mean:.2f}%" if mean is not None else ""),
        f"  {'#':>4}  {'hand':<{_width(result)}} {'drawn':>6} {'combos':>7} {'equity':>8} {'± s.e.':>7} "
        f"{'win':>8} {'tie':>7}",
    ]
    ranked = sorted(result.cells, key=lambda cell: (-cell.equity, cell.hand.name))
    for place, cell in enumerate(ranked, start=1):
        lines.append(
            f"  {place:>4}  {visible(cell.hand.name):<{_width(result)}} {_drawn(cell):>6} {cell.combos:>7} "
            f"{100 * cell.equity:7.2f}% {100 * cell.std_error:6.2f}% {100 * cell.win:7.2f}% {100 * cell.tie:6.2f}%"
        )
    return "\n".join(lines)


def _width(result: ChartResult) -> int:
    return max((len(cell.hand.name) for cell in result.cells), default=4)


def _drawn(cell: Cell) -> int:
    """How many draws gave a sampled hand (a grid class: 1)."""
    drawn: int = getattr(cell.hand, "drawn", 1)
    return drawn


def hand_comparison_text(comparison: ChartComparison) -> str:
    """Two sampled-hand charts: each one's method, and every common hand by its change."""
    from ..tools.chart_html import method_text

    first, second = comparison.first, comparison.second
    mine = {cell.hand.name: cell for cell in first.cells}
    theirs = {cell.hand.name: cell for cell in second.cells}
    width = max(_width(first), 4)
    a, b = (max(len(chart.ruleset), 9) for chart in (first, second))
    lines = []
    for chart in (first, second):
        lines.append(f"{chart.ruleset}: {method_text(chart)} ({chart.seconds:.1f} s)")
        lines.append(f"  sample: {chart.sample.rule if chart.sample is not None else 'the grid'}")
    count = len(comparison.differences)
    lines.append(f"change from {first.ruleset} to {second.ruleset} ({counted(count, 'hand')} in both), by change:")
    lines.append(f"  {'hand':<{width}} {visible(first.ruleset):>{a}} {visible(second.ruleset):>{b}} {'change':>8}")
    for name, change in sorted(comparison.differences.items(), key=lambda item: (-item[1], item[0])):
        lines.append(
            f"  {visible(name):<{width}} {100 * mine[name].equity:{a - 1}.2f}% {100 * theirs[name].equity:{b - 1}.2f}% "
            f"{100 * change:+8.2f}"
        )
    return "\n".join(lines)


def comparison_text(comparison: ChartComparison) -> str:
    """Both grids and the classes that gain and lose the most."""
    ranked = sorted(comparison.differences.items(), key=lambda item: item[1], reverse=True)
    gains = ", ".join(f"{name} {100 * change:+.1f}" for name, change in ranked[:8])
    losses = ", ".join(f"{name} {100 * change:+.1f}" for name, change in ranked[::-1][:8])
    first, second = comparison.first.ruleset, comparison.second.ruleset
    return "\n\n".join(
        [
            grid_text(comparison.first),
            grid_text(comparison.second),
            f"change from {first} to {second} (equity points, {counted(len(ranked), 'class', 'classes')} in both):\n"
            f"  gain most: {gains}\n  lose most: {losses}",
        ]
    )


def csv_text(result: ChartResult, comparison: ChartComparison | None) -> str:
    """One row per class; with a second chart both equities and the change."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    if comparison is None:
        sampled = result.sample is not None  # a sampled hand also has its place in the sample and its draws
        writer.writerow(
            ["ruleset", "class", "kind", "combos", "equity", "win", "tie", "std_error", "deals"]
            + (["index", "drawn"] if sampled else [])
        )
        for cell in result.cells:
            place = [getattr(cell.hand, "index", 0), _drawn(cell)] if sampled else []
            writer.writerow(
                [visible(result.ruleset), cell.hand.name, cell.hand.kind, cell.combos]
                + [f"{value:.6f}" for value in (cell.equity, cell.win, cell.tie, cell.std_error)]
                + [cell.deals]
                + place
            )
        return buffer.getvalue()
    first = {cell.hand.name: cell for cell in comparison.first.cells}
    writer.writerow(["class", "kind", "equity_a", "std_error_a", "equity_b", "std_error_b", "change"])
    for cell in comparison.second.cells:
        if cell.hand.name in first:
            mine = first[cell.hand.name]
            writer.writerow(
                [cell.hand.name, cell.hand.kind]
                + [f"{v:.6f}" for v in (mine.equity, mine.std_error, cell.equity, cell.std_error)]
                + [f"{comparison.differences[cell.hand.name]:+.6f}"]
            )
    return buffer.getvalue()


def run(args: argparse.Namespace, out: TextIO) -> int:
    """``pokerrules chart``: compute, then print (text, JSON or CSV) and write the HTML page."""
    from ..core.atomic_write import write_atomically
    from ..core.progress import Bar
    from ..odds.chart import chart, compare_charts
    from ..odds.chart_sample import check_comparable
    from ..ruleset import load
    from ..tools.chart_html import render_chart_html

    if args.json and args.csv:
        raise UsageError("pokerrules chart: choose one of --json and --csv")
    check_run_options(args)
    if args.matchups:
        return run_matchups(args, out)
    rulesets = [load(args.ruleset, root=args.root)] + ([load(args.against, root=args.root)] if args.against else [])
    if len(rulesets) > 1:
        check_comparable(*rulesets)  # before the first chart's work
    results: list[ChartResult] = []
    with Interrupts() as interrupts, cluster_client(args, interrupts) as client:
        for ruleset in rulesets:
            with Bar(f"chart of {ruleset.name}").running() as bar:
                results.append(
                    chart(
                        ruleset,
                        opponents=args.opponents,
                        samples=args.samples,
                        exact=args.exact,
                        seed=args.seed,
                        board=args.board,
                        dead=args.dead,
                        client=client,
                        progress=bar,
                        hands=None if results else args.hands,  # the second chart takes the first one's hands
                        same_hands_as=results[0] if results else None,
                        declare=args.declare,
                    )
                )
    comparison = compare_charts(results[0], results[1]) if len(results) > 1 else None
    if args.html in ("-", "/dev/stdout"):  # the page on stdout, instead of the text (as diff --html does)
        out.write(render_chart_html(results[0], comparison))
        return 0
    if args.html:  # first: a page that cannot be written stops the command before anything is printed
        write_atomically(args.html, render_chart_html(results[0], comparison))
    if args.json:
        out.write(json_document(comparison.as_dict() if comparison else results[0].as_dict()))
    elif args.csv:
        out.write(csv_text(results[0], comparison))
    elif results[0].sample is not None:
        out.write((hand_comparison_text(comparison) if comparison else hand_list_text(results[0])) + "\n")
    else:
        out.write((comparison_text(comparison) if comparison else grid_text(results[0])) + "\n")
    return 0


def run_matchups(args: argparse.Namespace, out: TextIO) -> int:
    """``pokerrules chart --matchups --exact``: the class-against-class table."""
    from ..core.atomic_write import write_atomically
    from ..core.progress import Bar
    from ..odds.matchups import matchups
    from ..ruleset import load
    from ..tools.matchup_html import render_matchups_html

    for given, problem in (
        (not args.exact, "--matchups needs --exact (the table is counted exactly)"),
        (args.against is not None, "--matchups takes one ruleset (no --against)"),
        (args.opponents != 1, "--matchups is heads-up (no --opponents)"),
        (args.hands is not None, "--matchups is a table of grid classes (no --hands)"),
    ):
        if given:
            raise UsageError(f"pokerrules chart: {problem}")
    ruleset = load(args.ruleset, root=args.root)
    with (
        Interrupts() as interrupts,
        cluster_client(args, interrupts) as client,
        Bar(f"matchups of {ruleset.name}").running() as bar,
    ):
        table = matchups(ruleset, board=args.board, dead=args.dead, client=client, progress=bar)
    if args.html in ("-", "/dev/stdout"):
        out.write(render_matchups_html(table))
        return 0
    if args.html:
        write_atomically(args.html, render_matchups_html(table))
    if args.json:
        out.write(json_document(table.as_dict()))
    elif args.csv:
        out.write(matchups_csv(table))
    else:
        out.write(matchups_text(table) + "\n")
    return 0


def matchups_text(table: MatchupTable) -> str:
    """Each class with its equity against the field of classes, its best and its worst matchup."""
    equities = table.equities()
    names = [cls.name for cls in table.classes]
    width = max(len(name) for name in names)
    lines = [
        f"{visible(table.ruleset)}: {table.method_text()} ({table.seconds:.1f} s)",
        f"  {'class':<{width}}  {'mean':>7}  {'best matchup':>{width + 10}}  {'worst matchup':>{width + 10}}",
    ]
    for i, name in enumerate(names):
        row = equities[i]
        met = [j for j in range(len(names)) if row[j] == row[j]]
        if not met:
            lines.append(f"  {name:<{width}}  {'.':>7}")
            continue
        best = max(met, key=lambda j: (row[j], -j))
        worst = min(met, key=lambda j: (row[j], j))
        mean = sum(row[j] for j in met) / len(met)
        lines.append(
            f"  {name:<{width}}  {100 * mean:6.2f}%  {'vs ' + names[best]:>{width + 3}} {100 * row[best]:6.2f}%"
            f"  {'vs ' + names[worst]:>{width + 3}} {100 * row[worst]:6.2f}%"
        )
    lines.append("  (mean: the plain mean over the classes met; every cell is in --json, --csv and --html)")
    return "\n".join(lines)


def matchups_csv(table: MatchupTable) -> str:
    """One row per pair of classes that meet: the hero's equity, wins, ties and deals."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["ruleset", "class", "against", "equity", "win", "tie", "wins", "ties", "deals"])
    for cell in table.as_dict()["cells"]:
        writer.writerow(
            [visible(table.ruleset), cell["class"], cell["against"]]
            + [f"{cell[name]:.6f}" for name in ("equity", "win", "tie")]
            + [cell["wins"], cell["ties"], cell["deals"]]
        )
    return buffer.getvalue()
