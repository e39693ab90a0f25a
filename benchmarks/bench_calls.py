"""Benchmark the entry points a user calls, against peers doing the same work, in one run.

    python benchmarks/bench_calls.py                  # print the table
    python benchmarks/bench_calls.py --save benchmarks/RESULTS.md   # also append it there

Rows (each ratio is pokerrules' rate over the peer's, measured in the same run):

- ``rank(encode(text))`` on card strings vs treys parsing the same strings
  (``Card.new`` per token) and evaluating them -- five and seven cards;
- ``Ruleset.showdown`` per call (six-player hold'em, strings in) vs pokerkit's
  ``StandardHighHand.from_game`` for every player and the best of them;
- ``pokerrules eval standard -`` on seven-card lines vs a ten-line treys script
  that parses, evaluates and prints the same lines: whole processes, stdout to a file;
- ``Ruleset.compare`` in a Python loop over the Project Euler 54 file vs treys
  parsing and comparing the same hands.

The process (and the subprocesses) are pinned to one core; rounds are interleaved
and the fastest round of each contender is kept.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evaluator import load  # noqa: E402

EULER_PLACES = (
    ROOT / "tests/data/project_euler_54/p054_poker.txt",
    ROOT.parent.parent / "shared/data/project_euler_54/p054_poker.txt",
)
TREYS_SCRIPT = """\
import sys
from treys import Card, Evaluator
evaluator = Evaluator()
for line in sys.stdin:
    cards = [Card.new(token) for token in line.split()]
    if cards:
        score = evaluator.evaluate(cards[:2], cards[2:])
        print(line.strip(), evaluator.class_to_string(evaluator.get_rank_class(score)), score)
"""


def pin() -> str:
    """Pin this process to one core (children inherit it)."""
    try:
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
        return "pinned to one core"
    except (AttributeError, OSError):
        return "not pinned"


def best_of(rounds: int, contenders: dict[str, Callable[[], float]]) -> dict[str, float]:
    """Run each contender once per round, interleaved; keep each one's fastest time."""
    best = {name: float("inf") for name in contenders}
    for _ in range(rounds):
        for name, run in contenders.items():
            best[name] = min(best[name], run())
    return best


def timed(work: Callable[[], object]) -> Callable[[], float]:
    def run() -> float:
        start = time.perf_counter()
        work()
        return time.perf_counter() - start

    return run


def deals(count: int, k: int, seed: int) -> list[str]:
    deck = [r + s for r in "23456789TJQKA" for s in "shdc"]
    rng = random.Random(seed)
    return [" ".join(rng.sample(deck, k)) for _ in range(count)]


def rank_rows(count: int, rounds: int) -> list[tuple[str, float, float, str]]:
    from treys import Card, Evaluator

    rs = load("standard")
    rank, encode = rs.rank, rs.encode
    evaluator = Evaluator()
    new = Card.new
    rows = []
    for k in (5, 7):
        lines = deals(count, k, 2026 + k)
        rank(encode(lines[0]))

        def ours(lines: list[str] = lines) -> None:
            for line in lines:
                rank(encode(line))

        def treys(lines: list[str] = lines) -> None:
            for line in lines:
                cards = [new(token) for token in line.split()]
                evaluator.evaluate(cards[:2], cards[2:])

        best = best_of(rounds, {"ours": timed(ours), "peer": timed(treys)})
        rows.append(
            (
                f"`rank(encode(text))`, {k} cards vs treys parse + evaluate",
                count / best["ours"],
                count / best["peer"],
                "treys",
            )
        )
    return rows


def showdown_row(count: int, rounds: int) -> tuple[str, float, float, str]:
    from pokerkit import StandardHighHand

    rs = load("holdem")
    rng = random.Random(54)
    deck = [r + s for r in "23456789TJQKA" for s in "shdc"]
    games = []
    for _ in range(count):
        cards = rng.sample(deck, 17)
        games.append(([" ".join(cards[2 * i : 2 * i + 2]) for i in range(6)], " ".join(cards[12:])))
    kit = [([h.replace(" ", "") for h in holes], board.replace(" ", "")) for holes, board in games]
    rs.showdown(*games[0])

    def ours() -> None:
        for holes, board in games:
            rs.showdown(holes, board)

    def pokerkit() -> None:
        for holes, board in kit:
            hands = [StandardHighHand.from_game(hole, board) for hole in holes]
            top = max(hands)
            [i for i, hand in enumerate(hands) if hand == top]

    # pokerkit is slow: time it on a prefix
    short = max(count // 20, 50)
    kit_prefix = kit[:short]

    def pokerkit_prefix() -> None:
        for holes, board in kit_prefix:
            hands = [StandardHighHand.from_game(hole, board) for hole in holes]
            top = max(hands)
            [i for i, hand in enumerate(hands) if hand == top]

    best = best_of(rounds, {"ours": timed(ours), "peer": timed(pokerkit_prefix)})
    return (
        f"`showdown` per call, hold'em 6 players vs pokerkit (prefix {short:,})",
        count / best["ours"],
        short / best["peer"],
        "pokerkit",
    )


def eval_row(count: int, rounds: int, folder: Path) -> tuple[str, float, float, str]:
    lines = folder / "lines.txt"
    lines.write_text("\n".join(deals(count, 7, 77)) + "\n", encoding="utf-8")
    script = folder / "treys_eval.py"
    script.write_text(TREYS_SCRIPT, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT))

    def process(argv: list[str]) -> Callable[[], float]:
        def run() -> float:
            with open(lines, "rb") as given, open(folder / "out.txt", "wb") as out:
                start = time.perf_counter()
                subprocess.run(argv, stdin=given, stdout=out, check=True, env=env, cwd=ROOT)
                return time.perf_counter() - start

        return run

    ours = process([sys.executable, "-m", "evaluator", "eval", "standard", "-"])
    ours()  # tables into the cache first
    best = best_of(rounds, {"ours": ours, "peer": process([sys.executable, str(script)])})
    return (
        f"`pokerrules eval standard -`, {count:,} seven-card lines vs a treys script (whole processes)",
        count / best["ours"],
        count / best["peer"],
        "treys",
    )


def euler_row(rounds: int) -> tuple[str, float, float, str] | None:
    from treys import Card, Evaluator

    path = next((p for p in EULER_PLACES if p.exists()), None)
    if path is None:
        return None
    text = path.read_text(encoding="utf-8").splitlines()
    rs = load("standard")
    compare = rs.compare
    evaluator = Evaluator()
    new = Card.new
    once = [(line[:14], line[15:]) for line in text if line.strip()]
    pairs = once * 20  # the file 20 times over, so that a round lasts long enough to time
    rs.compare(*pairs[0])

    def ours() -> None:
        sum(1 for a, b in pairs if compare(a, b) > 0)

    def treys() -> None:
        wins = 0
        for a, b in pairs:
            # the file writes suits in capitals, which treys does not read
            first = evaluator.evaluate([new(t[0] + t[1].lower()) for t in a.split()], [])
            second = evaluator.evaluate([new(t[0] + t[1].lower()) for t in b.split()], [])
            wins += first < second
        return None

    best = best_of(rounds, {"ours": timed(ours), "peer": timed(treys)})
    return (
        "`compare` in a loop, Project Euler 54 (its 1,000 deals 20 times, parsing included) vs treys",
        len(pairs) / best["ours"],
        len(pairs) / best["peer"],
        "treys",
    )


def rate(value: float) -> str:
    return f"{value / 1e6:.2f} M/s" if value >= 1e6 else f"{value / 1e3:.1f} k/s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000, help="hands per rank row")
    parser.add_argument("--lines", type=int, default=200_000, help="lines for the eval row")
    parser.add_argument("--showdowns", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--save", type=Path, help="append the table to this Markdown file")
    args = parser.parse_args()
    note = pin()
    rows = rank_rows(args.count, args.rounds)
    rows.append(showdown_row(args.showdowns, args.rounds))
    with tempfile.TemporaryDirectory() as folder:
        rows.append(eval_row(args.lines, max(args.rounds - 1, 1), Path(folder)))
    euler = euler_row(args.rounds)
    if euler is not None:
        rows.append(euler)
    table = [
        f"\n## Entry points per call against peers doing the same work "
        f"({note}, best of {args.rounds} interleaved rounds)\n",
        "`python benchmarks/bench_calls.py`\n",
        "| what | pokerrules | peer | peer rate | x peer |",
        "|---|---|---|---|---|",
    ]
    for what, ours, peer, name in rows:
        table.append(f"| {what} | {rate(ours)} | {name} | {rate(peer)} | {ours / peer:.2f} |")
    text = "\n".join(table) + "\n"
    print(text)
    if args.save:
        with open(args.save, "a", encoding="utf-8") as out:
            out.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
