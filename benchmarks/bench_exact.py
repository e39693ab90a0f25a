"""Exact equity board by board, timed beside the plain NumPy references in the same run.

    taskset -c 0 python benchmarks/bench_exact.py [--rounds 3] [--matchups] [--out benchmarks/RESULTS-exact.md]

Pinned to one core, every figure is CPU seconds of this process (``time.process_time``:
a shared machine's other jobs do not count), the best of ``--rounds`` with the spread;
each pokerrules run alternates with its reference so both see the same machine.

- the exact hold'em chart against one random hand (169 classes): ``chart(holdem, exact=True)``
  against ``plain_chart.py`` (a plain board-major script on ``rank_many``); both must give
  the published AA 85.2037%, KK 82.3957%, AKs 67.0446%, AKo 65.3201%, 72o 34.5836%;
- the same chart for short deck, deuces wild and a suit-ordered ruleset (with a known flop:
  a suit order leaves no renaming of suits, so every board is ranked);
- a range, ``"AA,KK"`` against ``"AKs"``: board by board, dealt deal by deal, and one matchup;
- three and four given hands before the flop;
- exact heads-up before the flop, AhKh against QsQd, against ``direct_table.py`` (a NumPy
  evaluator over a 268 MB table of every seven-card set, built once into a file);
- with ``--matchups``: the 169 x 169 class-against-class table (once).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import direct_table  # noqa: E402
import plain_chart  # noqa: E402

from evaluator import load  # noqa: E402
from evaluator.odds import odds as odds_module  # noqa: E402
from evaluator.odds.chart import chart  # noqa: E402
from evaluator.odds.matchups import matchups  # noqa: E402

PUBLISHED = {"AA": 0.852037, "KK": 0.823957, "AKs": 0.670446, "AKo": 0.653201, "72o": 0.345836}


def timed(work: Callable[[], Any]) -> tuple[float, Any]:
    """CPU seconds of one call, and its result."""
    started = time.process_time()
    result = work()
    return time.process_time() - started, result


def rounds(works: dict[str, Callable[[], Any]], count: int) -> dict[str, tuple[list[float], Any]]:
    """Each work ``count`` times, alternating: the times and the last result of each."""
    found: dict[str, tuple[list[float], Any]] = {name: ([], None) for name in works}
    for _ in range(count):
        for name, work in works.items():
            seconds, result = timed(work)
            found[name][0].append(seconds)
            found[name] = (found[name][0], result)
    return found


def spread(times: list[float]) -> str:
    """Best, and the range over the rounds."""
    if len(times) == 1:
        return f"{times[0]:.2f}"
    return f"{min(times):.2f} ({min(times):.2f}-{max(times):.2f}, median {statistics.median(times):.2f})"


def dealt_odds(ruleset: Any, hands: list[str]) -> Any:
    """Exact odds dealt deal by deal (the engine before the board-major one)."""
    saved = odds_module.board_major_plan
    odds_module.board_major_plan = lambda *args: ""
    try:
        return odds_module.odds(ruleset, hands, exact=True)
    finally:
        odds_module.board_major_plan = saved


def main() -> int:
    """Run every case and print (and write) the tables."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--matchups", action="store_true", help="also the 169 x 169 matchup table (minutes)")
    parser.add_argument("--out", type=Path, help="write the tables to this Markdown file")
    args = parser.parse_args()
    holdem = load("holdem")
    lines = [
        "# Benchmark: exact equity board by board",
        "",
        f"`taskset -c 0 python benchmarks/bench_exact.py --rounds {args.rounds}"
        + (" --matchups" if args.matchups else "")
        + "` (CPU seconds of the process, best of the rounds with the range and median)",
        "",
    ]
    chart(load("royal-holdem"), exact=True)  # tables built and read before any timing

    # --- the chart ---------------------------------------------------------------------
    found = rounds({"pokerrules": lambda: chart(holdem, exact=True), "plain": plain_chart.chart}, args.rounds)
    ours, plain = found["pokerrules"], found["plain"]
    for name, published in PUBLISHED.items():
        assert abs(ours[1].cell(name).equity - published) < 5e-7, (name, ours[1].cell(name).equity)
        assert abs(plain[1][name] - published) < 5e-7, (name, plain[1][name])
    lines += [
        "## The exact hold'em chart against one random hand (169 classes, published figures checked)",
        "",
        "| who | CPU seconds | x pokerrules |",
        "|---|---|---|",
        f"| pokerrules `chart holdem --exact` | {spread(ours[0])} | 1.00 |",
        f"| plain NumPy board-major script on `rank_many` (`plain_chart.py`) | {spread(plain[0])} "
        f"| {min(plain[0]) / min(ours[0]):.2f} |",
        "",
    ]
    others = [
        ("short-deck-holdem", ""),
        ("deuces-wild", ""),
        ("suits-bridge", "Kd 7c 2h"),
    ]
    lines += ["| chart --exact | boards ranked | CPU seconds | AA |", "|---|---|---|---|"]
    for name, board in others:
        ruleset = load(name)
        times, result = rounds({name: lambda r=ruleset, b=board: chart(r, exact=True, board=b)}, 1)[name]
        known = f' --board "{board}"' if board else ""
        lines.append(
            f"| {name}{known} | {result.extra['boards']:,} | {spread(times)} | {100 * result.cell('AA').equity:.4f}% |"
        )
    lines.append("")

    # --- ranges and given hands ----------------------------------------------------------------
    cases = {
        "range board by board: AA,KK vs AKs": lambda: odds_module.odds(holdem, ["AA,KK", "AKs"], exact=True),
        "range deal by deal: AA,KK vs AKs": lambda: dealt_odds(holdem, ["AA,KK", "AKs"]),
        "one matchup: AhKh vs QsQd": lambda: odds_module.odds(holdem, ["AhKh", "QsQd"], exact=True),
        "three hands: AhKh QsQd JcTc": lambda: odds_module.odds(holdem, ["AhKh", "QsQd", "JcTc"], exact=True),
        "four hands: AhKh QsQd JcTc 9d9c": lambda: odds_module.odds(
            holdem, ["AhKh", "QsQd", "JcTc", "9d9c"], exact=True
        ),
    }
    found = rounds(cases, args.rounds)
    lines += ["## Exact odds before the flop (hold'em)", "", "| question | deals | CPU seconds |", "|---|---|---|"]
    for name, (times, result) in found.items():
        lines.append(f"| {name} | {result.deals:,} | {spread(times)} |")
    lines.append("")

    # --- heads-up against the direct table ----------------------------------------------------------
    table = direct_table.build()
    hero, villain = ([holdem.deck.index(card) for card in holdem.cards(text)] for text in ("Ah Kh", "Qs Qd"))
    found = rounds(
        {
            "pokerrules": lambda: odds_module.odds(holdem, ["AhKh", "QsQd"], exact=True),
            "direct": lambda: direct_table.matchup(table, hero, villain),
        },
        max(args.rounds, 5),
    )
    ours_hu, direct = found["pokerrules"], found["direct"]
    wins, ties, boards = direct[1]
    assert round(ours_hu[1].players[0].win * boards) == wins and round(ours_hu[1].players[0].tie * boards) == ties
    lines += [
        "## Exact heads-up before the flop: AhKh vs QsQd (1,712,304 boards)",
        "",
        "| who | CPU seconds | x pokerrules |",
        "|---|---|---|",
        f"| pokerrules `odds holdem AhKh QsQd` | {spread(ours_hu[0])} | 1.00 |",
        f"| NumPy over a 268 MB direct table (`direct_table.py`, table built beforehand) | {spread(direct[0])} "
        f"| {min(direct[0]) / min(ours_hu[0]):.2f} |",
        "",
    ]

    if args.matchups:
        times, result = rounds({"matchups": lambda: matchups(holdem)}, 1)["matchups"]
        lines += [
            "## The exact 169 x 169 matchup table (hold'em, one core)",
            "",
            f"{spread(times)} CPU seconds; AA vs KK {100 * result.equity('AA', 'KK'):.4f}%, "
            f"AKs vs QQ {100 * result.equity('AKs', 'QQ'):.4f}%, {int(result.deals.sum()):,} deals.",
            "",
        ]
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
