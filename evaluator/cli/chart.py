"""``pokerrules chart``: argument parsing and running."""

from __future__ import annotations

import argparse
import csv
import io
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ..core.safe_text import visible
from ..odds.cluster import add_cluster_options
from .args import RULESET_HELP, add_command, add_json
from .output import UsageError, json_document

if TYPE_CHECKING:
    from ..odds.chart import ChartComparison, ChartResult

EXAMPLES = """\
$ pokerrules chart holdem
$ pokerrules chart holdem --against short-deck-holdem --html chart.html
$ pokerrules chart holdem --opponents 3 --samples 100000 --seed 7 --csv
$ pokerrules chart holdem --exact --board "Kd 7c 2h 5s"
$ pokerrules chart holdem --samples 1000000 --workers 2
$ pokerrules chart holdem --samples 1000000 --scheduler tcp://10.0.0.5:8786 --json
"""


def add_parser(commands: Any) -> None:
    """Register ``chart`` on the CLI's subparsers."""
    parser = add_command(
        commands,
        "chart",
        "starting-hand chart: the equity of every class against random hands",
        "The equity of every starting-hand class (169 in a 52-card deck, 81 in a 36-card deck) against\n"
        "random opponents, as the 13x13 grid: pairs on the diagonal, suited above, offsuit below.\n"
        "Sampled by default (20,000 deals per class, seeded, with standard errors); --exact\n"
        "enumerates every deal. Games that do not deal two hole cards (Omaha, stud) are refused.\n"
        'With --workers or --scheduler the work runs on Dask (pip install "pokerrules[dask]"),\n'
        "with the same result as on one process.",
        EXAMPLES,
    )
    parser.add_argument("ruleset", help=RULESET_HELP)
    parser.add_argument("--against", metavar="RULESET2", help="a second chart, and the change of every class")
    parser.add_argument("--opponents", type=int, default=1, metavar="N", help="random opponents (default 1)")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--samples", type=int, metavar="N", help="deals sampled per class (default 20,000)")
    how.add_argument("--exact", action="store_true", help="enumerate every deal (needs board cards or a small deck)")
    parser.add_argument("--seed", type=int, help="seed of the sampled deals (printed when drawn)")
    parser.add_argument("--board", default="", help="board cards already out")
    parser.add_argument("--dead", default="", help="cards out of play")
    parser.add_argument("--html", metavar="FILE", help="also write a self-contained HTML page of the chart")
    parser.add_argument("--csv", action="store_true", help="CSV output: one row per class")
    add_cluster_options(parser)
    add_json(parser)


@contextmanager
def cluster_client(args: argparse.Namespace) -> Iterator[Any]:
    """The Dask client asked for by ``--scheduler`` / ``--workers`` (None when neither)."""
    from ..odds.cluster import DaskMissing, dask_client

    if args.workers is not None and args.workers < 1:
        raise UsageError(f"pokerrules {args.command}: --workers must be at least 1")
    try:
        manager = dask_client(args.scheduler, args.workers)
        client = manager.__enter__()
    except DaskMissing as missing:
        raise UsageError(f"pokerrules {args.command}: {missing}") from None
    except OSError as problem:
        where = f"cannot reach the Dask scheduler {args.scheduler}"
        raise UsageError(f"pokerrules {args.command}: {where}: {problem}") from None
    try:
        yield client
    finally:
        manager.__exit__(None, None, None)


def grid_text(result: ChartResult) -> str:
    """The chart as a grid of equity percentages, with its method line."""
    from ..tools.chart_html import method_text

    lines = [f"{result.ruleset}: {method_text(result)} ({result.seconds:.1f} s)"]
    lines.append("      " + "".join(f"{rank:>6}" for rank in result.ranks))
    by_place = {(cell.hand.row, cell.hand.col): cell for cell in result.cells}
    for row, rank in enumerate(result.ranks):
        figures = []
        for col in range(len(result.ranks)):
            cell = by_place.get((row, col))
            figures.append(f"{100 * cell.equity:6.1f}" if cell is not None and cell.deals else "     .")
        lines.append(f"  {rank:>3} " + "".join(figures))
    lines.append("  (rows: first card; above the diagonal suited, below offsuit; equity in %)")
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
            f"change from {first} to {second} (equity points, {len(ranked)} classes in both):\n"
            f"  gain most: {gains}\n  lose most: {losses}",
        ]
    )


def csv_text(result: ChartResult, comparison: ChartComparison | None) -> str:
    """One row per class; with a second chart both equities and the change."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    if comparison is None:
        writer.writerow(["ruleset", "class", "kind", "combos", "equity", "win", "tie", "std_error", "deals"])
        for cell in result.cells:
            writer.writerow(
                [visible(result.ruleset), cell.hand.name, cell.hand.kind, cell.combos]
                + [f"{value:.6f}" for value in (cell.equity, cell.win, cell.tie, cell.std_error)]
                + [cell.deals]
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
    from ..core.progress import Bar
    from ..odds.chart import chart, compare_charts
    from ..ruleset import load
    from ..tools.chart_html import render_chart_html

    if args.json and args.csv:
        raise UsageError("pokerrules chart: choose one of --json and --csv")
    rulesets = [load(args.ruleset)] + ([load(args.against)] if args.against else [])
    results = []
    with cluster_client(args) as client:
        for ruleset in rulesets:
            bar = Bar(f"chart of {ruleset.name}")
            try:
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
                    )
                )
            finally:
                bar.finish()
    comparison = compare_charts(results[0], results[1]) if len(results) > 1 else None
    if args.html:  # first: a page that cannot be written stops the command before anything is printed
        Path(args.html).write_text(render_chart_html(results[0], comparison), encoding="utf-8")
    if args.json:
        out.write(json_document(comparison.as_dict() if comparison else results[0].as_dict()))
    elif args.csv:
        out.write(csv_text(results[0], comparison))
    else:
        out.write((comparison_text(comparison) if comparison else grid_text(results[0])) + "\n")
    return 0
