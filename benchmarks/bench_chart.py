"""Benchmark ``pokerrules chart``: throughput on one process and on a local Dask cluster, same run.

    taskset -c 0,1 python benchmarks/bench_chart.py
    taskset -c 0,1 python benchmarks/bench_chart.py --samples 20000 --save benchmarks/RESULTS-chart.md

Throughput is in deals settled per second: matchups (a class's combination
against the random hands) x boards. Each run computes the whole sampled
hold'em chart (169 classes x ``--samples`` deals) with the same seed, so the
runs must give identical charts (checked). The cluster runs use single-threaded
worker processes, as ``pokerrules chart --workers N`` starts them; each
worker builds the ruleset and reads the lookup tables before the clock starts. The cost of an exact
chart is computed, not run: deals and rank lookups per class, as
``evaluator.odds.exact_lookups`` counts them. The charts of sampled starting
hands (Omaha, stud) are timed on one process: ``--hands`` hands x
``--samples`` deals each.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from evaluator import load  # noqa: E402
from evaluator.odds.chart import ChartResult, Chunk, _combos, chart, hand_classes, run_chunk  # noqa: E402
from evaluator.odds.cluster import RulesetSpec, dask_client  # noqa: E402
from evaluator.odds.odds import exact_lookups, prepare  # noqa: E402


def timed(run: Any, rounds: int) -> tuple[float, ChartResult]:
    """The fastest of ``rounds`` runs (the machine is shared) and the last result."""
    best, result = float("inf"), None
    for _ in range(rounds):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    assert result is not None
    return best, result


def warm(spec: RulesetSpec) -> None:
    """Build the ruleset and read its tables on a worker before the clock starts."""
    run_chunk(spec, Chunk(0, 0, 0, "AA", 1, "", "", 100, 1))


def exact_cost(name: str) -> tuple[int, float, float]:
    """(classes, deals, rank lookups) of the exact chart of ``name`` against one random hand."""
    ruleset = load(name)
    deals = lookups = 0.0
    classes = hand_classes(ruleset)
    for cls in classes:
        combos = _combos(ruleset, cls.name, "", "")
        table, engine = prepare(ruleset, [combos[0], "random"])
        work = exact_lookups(table, engine)
        deals += len(combos) * work / engine.cost
        lookups += len(combos) * work
    return len(classes), deals, lookups


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=5_000, help="deals per class (default 5,000)")
    parser.add_argument("--workers", type=int, nargs="*", default=[1, 2], help="cluster sizes to time (default 1 2)")
    parser.add_argument("--rounds", type=int, default=2, help="best of this many runs (default 2)")
    parser.add_argument("--hands", type=int, default=50, help="hands of each sampled-hand chart (default 50)")
    parser.add_argument("--save", metavar="FILE", help="also write the table as Markdown")
    args = parser.parse_args()
    ruleset = load("holdem")
    chart(ruleset, classes=["AA"], samples=100, seed=1)  # tables loaded before the clock starts
    rows = []
    seconds, base = timed(lambda: chart(ruleset, samples=args.samples, seed=2026), args.rounds)
    rows.append(("one process, no Dask", 1, seconds, base))
    try:
        import dask.distributed as distributed
    except ImportError:
        print("Dask is not installed: cluster runs skipped", file=sys.stderr)
        distributed = None
    if distributed is not None:
        for workers in args.workers:
            with dask_client(workers=workers) as client:  # the cluster `pokerrules chart --workers N` starts
                client.run(warm, RulesetSpec.of(ruleset))
                seconds, result = timed(
                    lambda c=client: chart(ruleset, samples=args.samples, seed=2026, client=c), args.rounds
                )
            same = [c.as_dict() for c in result.cells] == [c.as_dict() for c in base.cells]
            assert same, "a cluster run differs from the single-process run"
            label = f"local cluster, {workers} worker process{'es' if workers > 1 else ''}"
            rows.append((label, workers, seconds, result))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    lines = [
        "# Benchmark: starting-hand charts on one process and on a local Dask cluster",
        "",
        f"`python benchmarks/bench_chart.py --samples {args.samples}` on {cores} core(s), best of {args.rounds}; "
        f"the sampled hold'em chart, 169 classes x {args.samples:,} deals against one random hand, seed 2026. "
        "Every cluster run gave the same chart as the single process (checked).",
        "",
        "| run | workers | deals | seconds | deals/s | deals/s per worker |",
        "|---|---|---|---|---|---|",
    ]
    for label, workers, seconds, result in rows:
        rate = result.deals / seconds
        figures = f"{result.deals:,} | {seconds:.2f} | {rate / 1e6:.2f} M | {rate / workers / 1e6:.2f} M"
        lines.append(f"| {label} | {workers} | {figures} |")
    lines += ["", "## What an exact chart costs (against one random hand, before the flop)", ""]
    lines += ["| ruleset | classes | deals | rank lookups | at the single-process rate |", "|---|---|---|---|---|"]
    rate = rows[0][3].deals / rows[0][2]
    for name in ("holdem", "short-deck-holdem"):
        classes, deals, lookups = exact_cost(name)
        hours = deals / rate / 3600
        lines.append(f"| {name} | {classes} | {deals:.3g} | {lookups:.3g} | {hours:,.0f} core-hours |")
    lines += ["", f"## Charts of sampled starting hands (one process, {args.hands} hands x {args.samples:,} deals)", ""]
    lines += ["| ruleset | cards | deals | seconds | deals/s |", "|---|---|---|---|---|"]
    for name in ("omaha", "omaha-hi-lo", "seven-card-stud", "razz", "stud-hi-lo"):
        sampled = load(name)
        chart(sampled, hands=1, samples=100, seed=1)  # tables loaded before the clock starts
        seconds, result = timed(lambda r=sampled: chart(r, hands=args.hands, samples=args.samples, seed=7), args.rounds)
        cards = result.sample.cards if result.sample is not None else 2
        lines.append(f"| {name} | {cards} | {result.deals:,} | {seconds:.2f} | {result.deals / seconds / 1e6:.2f} M |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.save:
        Path(args.save).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
