"""Benchmark ``pokerrules odds`` against the equity calculators, side by side, in one run.

    taskset -c 1 python benchmarks/bench_odds.py
    taskset -c 1 python benchmarks/bench_odds.py --save benchmarks/RESULTS-odds.md

Cases (hold'em AhKh against QsQd unless said otherwise):

- exact heads-up pre-flop: pokerrules enumerates all 1,712,304 boards; the
  peers' exact answers: eval7's ``py_hand_vs_range_exact``, and loops over every
  board calling pkrbot's and treys' evaluators (treys on a prefix, extrapolated);
  pokerkit has no exact mode. The same for short-deck hold'em and deuces-wild
  hold'em (pokerrules only: no peer plays them), as ratios to hold'em's time;
- sampled: trials per second against eval7's Monte Carlo (Cython) and
  pokerkit's ``calculate_equities``;
- a 6-player pre-flop table with 1,000,000 trials;
- Omaha heads-up on the flop (exact) and Omaha hi-lo pre-flop (sampled).

The process should be pinned to one core (``taskset -c 1``; the header names the cores used). Each timing is the
best of ``--rounds`` runs; lookup tables are loaded before the clock starts.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from itertools import combinations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from evaluator import load  # noqa: E402
from evaluator.odds.odds import odds  # noqa: E402

HERO, VILLAIN = ["Ah", "Kh"], ["Qs", "Qd"]
SIX = ["AhKh", "QsQd", "JcTc", "9s9d", "7h6h", "AcKd"]


def best_of(rounds: int, run: Callable[[], Any]) -> tuple[float, Any]:
    """The fastest of ``rounds`` runs and the last result."""
    best, result = float("inf"), None
    for _ in range(rounds):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result


def rest_of_deck() -> list[str]:
    return [r + s for r in "23456789TJQKA" for s in "shdc" if r + s not in HERO + VILLAIN]


def loop_peer(name: str, limit: int | None) -> tuple[float, float, int] | str:
    """(seconds for every board, equity, boards timed) of a per-board loop with a peer's evaluator."""
    try:
        if name == "pkrbot":
            import pkrbot as module

            card = module.Card
            evaluate = module.evaluate

            def wins(hero: list[Any], villain: list[Any], board: list[Any]) -> int:
                a, b = evaluate(hero + board), evaluate(villain + board)
                return 2 if a > b else (1 if a == b else 0)

        else:
            from treys import Card, Evaluator

            card = Card.new
            evaluator = Evaluator()

            def wins(hero: list[Any], villain: list[Any], board: list[Any]) -> int:
                a, b = evaluator.evaluate(hero, board), evaluator.evaluate(villain, board)  # smaller is better
                return 2 if a < b else (1 if a == b else 0)

    except ImportError:
        return f"{name} not installed"
    hero, villain = [card(c) for c in HERO], [card(c) for c in VILLAIN]
    deck = [card(c) for c in rest_of_deck()]
    boards = combinations(deck, 5)
    total = points = 0
    start = time.perf_counter()
    for board in boards:
        points += wins(hero, villain, list(board))
        total += 1
        if limit is not None and total >= limit:
            break
    elapsed = time.perf_counter() - start
    return elapsed * 1_712_304 / total, points / (2 * total), total


def eval7_exact() -> tuple[float, float] | str:
    try:
        import eval7
    except ImportError:
        return "eval7 not installed"
    hero = [eval7.Card(c) for c in HERO]
    villain = eval7.HandRange("".join(VILLAIN))
    start = time.perf_counter()
    equity = eval7.py_hand_vs_range_exact(hero, villain, [])
    return time.perf_counter() - start, equity


def eval7_sampled(trials: int) -> tuple[float, float] | str:
    try:
        import eval7
    except ImportError:
        return "eval7 not installed"
    hero = [eval7.Card(c) for c in HERO]
    villain = eval7.HandRange("".join(VILLAIN))
    start = time.perf_counter()
    equity = eval7.py_hand_vs_range_monte_carlo(hero, villain, [], trials)
    return time.perf_counter() - start, equity


def pokerkit_sampled(trials: int) -> tuple[float, float] | str:
    try:
        from pokerkit import Deck, StandardHighHand, calculate_equities, parse_range
    except ImportError:
        return "pokerkit not installed"
    start = time.perf_counter()
    equities = calculate_equities(
        (parse_range("".join(HERO)), parse_range("".join(VILLAIN))),
        (),
        2,
        5,
        Deck.STANDARD,
        (StandardHighHand,),
        sample_count=trials,
    )
    return time.perf_counter() - start, equities[0]


def rate(count: float, seconds: float) -> str:
    per = count / seconds
    return f"{per / 1e6:.2f} M/s" if per >= 1e6 else f"{per / 1e3:.1f} k/s"


def main(argv: list[str] | None = None) -> int:
    """Run every case and print (or save) the tables."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--trials", type=int, default=1_000_000, help="sampled trials per pokerrules / eval7 run")
    parser.add_argument("--treys-boards", type=int, default=100_000, help="boards timed for treys (extrapolated)")
    parser.add_argument("--save", metavar="FILE")
    args = parser.parse_args(argv)
    lines: list[str] = ["# Benchmark: pokerrules odds and the equity calculators", ""]
    cores = ",".join(map(str, sorted(os.sched_getaffinity(0)))) if hasattr(os, "sched_getaffinity") else "?"
    busy = f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "?"
    lines.append(
        f"`taskset -c {cores} python benchmarks/bench_odds.py` (best of {args.rounds} rounds; AhKh against QsQd; "
        f"load average {busy} on {os.cpu_count()} cores at the start)"
    )
    lines += [
        "",
        "## Exact heads-up pre-flop",
        "",
        "| who | how | seconds | x pokerrules | AhKh equity |",
        "|---|---|---|---|---|",
    ]
    timed: dict[str, tuple[float, Any]] = {}
    for name in ("holdem", "short-deck-holdem", "deuces-wild"):
        odds(load(name), ["AhKh", "QsQd"], board="Tc 9c 8c")  # tables loaded before timing

        def exact(name: str = name) -> Any:
            return odds(load(name), ["AhKh", "QsQd"])

        timed[name] = best_of(args.rounds, exact)
    ours, result = timed["holdem"]
    lines.append(
        f"| pokerrules holdem | exact, {result.deals:,} boards | {ours:.2f} | 1.00 | {result.players[0].equity:.6f} |"
    )
    e7 = eval7_exact()
    if isinstance(e7, str):
        lines.append(f"| eval7 | {e7} | | | |")
    else:
        note = " (wrong: its exact function returns 0 here)" if abs(e7[1] - result.players[0].equity) > 0.01 else ""
        lines.append(f"| eval7 | py_hand_vs_range_exact{note} | {e7[0]:.4f} | {e7[0] / ours:.2f} | {e7[1]:.6f} |")
    for peer, limit in (("pkrbot", None), ("treys", args.treys_boards)):
        found = loop_peer(peer, limit)
        if isinstance(found, str):
            lines.append(f"| {peer} | {found} | | | |")
        else:
            seconds, equity, boards = found
            how = "loop over every board" if limit is None else f"loop, {boards:,} boards timed, extrapolated"
            shown = f"{equity:.6f}" if limit is None else f"{equity:.6f} (prefix)"
            lines.append(f"| {peer} | {how} | {seconds:.2f} | {seconds / ours:.2f} | {shown} |")
    lines.append("| pokerkit | no exact mode (calculate_equities samples) | | | |")
    lines += ["", "| ruleset | boards | seconds | x hold'em | AhKh equity |", "|---|---|---|---|---|"]
    for name, (seconds, found) in timed.items():
        lines.append(
            f"| {name} | {found.deals:,} | {seconds:.2f} | {seconds / ours:.2f} | {found.players[0].equity:.6f} |"
        )

    lines += [
        "",
        "## Sampled",
        "",
        "| who | trials | seconds | trials/s | x eval7 | AhKh equity |",
        "|---|---|---|---|---|---|",
    ]
    # rounds taken in turn (pokerrules, eval7, pokerrules, ...): both see the same machine
    seconds, found = float("inf"), None
    sampled: tuple[float, float] | str = "eval7 not run"
    for _ in range(args.rounds):
        spent, found = best_of(1, lambda: odds(load("holdem"), ["AhKh", "QsQd"], samples=args.trials, seed=1))
        seconds = min(seconds, spent)
        again = eval7_sampled(args.trials)
        if isinstance(again, str) or isinstance(sampled, str) or again[0] < sampled[0]:
            sampled = again
    base = args.trials / sampled[0] if not isinstance(sampled, str) else float("nan")
    lines.append(
        f"| pokerrules holdem | {args.trials:,} | {seconds:.2f} | {rate(args.trials, seconds)} | "
        f"{args.trials / seconds / base:.2f} | {found.players[0].equity:.4f} ± {found.players[0].std_error:.4f} |"
    )
    if not isinstance(sampled, str):
        speed = rate(args.trials, sampled[0])
        lines.append(f"| eval7 Monte Carlo | {args.trials:,} | {sampled[0]:.3f} | {speed} | 1.00 | {sampled[1]:.4f} |")
    kit = pokerkit_sampled(500)
    if not isinstance(kit, str):
        ratio = 500 / kit[0] / base
        speed = rate(500, kit[0])
        lines.append(f"| pokerkit calculate_equities | 500 | {kit[0]:.2f} | {speed} | {ratio:.4f} | {kit[1]:.4f} |")

    lines += ["", "## Other tables", "", "| case | method | deals | seconds | deals/s |", "|---|---|---|---|---|"]
    cases: list[tuple[str, str, list[str], str, int | None]] = [
        ("hold'em 6 players pre-flop", "holdem", SIX, "", 1_000_000),
        ("Omaha heads-up on the flop", "omaha", ["Ah Kh Qd Jd", "Ks Kc 9s 8s"], "Kd 7h 2s", None),
        ("Omaha hi-lo heads-up pre-flop", "omaha-hi-lo", ["Ah 2h Kd Qc", "Ks Kc 9s 8s"], "", 200_000),
    ]
    for label, name, hands, board, trials in cases:
        odds(load(name), hands, board=board, samples=100, seed=1)

        def run(name: str = name, hands: list[str] = hands, board: str = board, trials: int | None = trials) -> Any:
            return odds(load(name), hands, board=board, samples=trials, seed=1)

        seconds, found = best_of(args.rounds, run)
        lines.append(f"| {label} | {found.method} | {found.deals:,} | {seconds:.2f} | {rate(found.deals, seconds)} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.save:
        Path(args.save).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
