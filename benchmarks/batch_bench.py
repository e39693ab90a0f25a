"""Benchmark batch showdowns and the batch ranking cliffs, in one pinned run.

    python benchmarks/batch_bench.py                  # print the tables
    python benchmarks/batch_bench.py --cliffs-only    # only the rank_many cliff rows

Showdowns: ``Ruleset.showdown_many`` settles seeded deals (hold'em with six
players, Omaha and seven-card stud with four) and is timed against a loop
that settles the same deals with pkrbot (its C++ evaluator per hand, winners
and shares in Python; pkrbot has no Omaha rule, so its loop takes the best of
the 60 two-plus-three combinations) and against the generic ``showdown`` on a
prefix of the deals.

Cliffs: ``rank_many`` rates of one ruleset at two holding shapes whose ratio
the issue bounds (11 against 10 cards; four wild cards against none; two
packs past their seven-card code limit), and ``stats --cards 7``'s counter.

Pinned to one core; rounds are interleaved and the best round is kept.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from evaluator import load  # noqa: E402
from evaluator.ruleset import Ruleset  # noqa: E402

Timed = Callable[[], Any]


def shuffled(rs: Ruleset, n: int, seed: int) -> np.ndarray:
    """``n`` shuffled decks of card ids (one pack)."""
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, len(rs.deck))), axis=1)


def best_of(rounds: int, runs: dict[str, Timed]) -> dict[str, float]:
    """Best seconds of each run over interleaved rounds."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def pkrbot_loop(deals: list[list[list[Any]]], omaha: bool) -> Callable[[], list[list[float]]]:
    """Shares of every deal with pkrbot (bigger is better), winners split equally."""
    import pkrbot

    evaluate = pkrbot.evaluate
    hole_pairs = list(combinations(range(4), 2))
    board_triples = list(combinations(range(5), 3))

    def run() -> list[list[float]]:
        out = []
        for hands in deals:
            if omaha:
                board = hands[-1]
                values = [
                    max(
                        evaluate([hole[a], hole[b], *(board[i] for i in t)])
                        for a, b in hole_pairs
                        for t in board_triples
                    )
                    for hole in hands[:-1]
                ]
            else:
                values = [evaluate(hand) for hand in hands]
            top = max(values)
            count = values.count(top)
            out.append([1.0 / count if v == top else 0.0 for v in values])
        return out

    return run


def showdown_rows(deals: int, rounds: int) -> list[str]:
    """Rows: showdown_many, the pkrbot loop and the generic showdown, per game."""
    import pkrbot

    from evaluator.compiled.fasthand import showdown

    rows = [
        "| game | players | showdown_many deals/s | pkrbot loop deals/s | x pkrbot "
        "| generic showdown deals/s | x generic |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, players, hole, board, omaha in (
        ("holdem", 6, 2, 5, False),
        ("omaha", 4, 4, 5, True),
        ("seven-card-stud", 4, 7, 0, False),
    ):
        rs = load(name)
        n = deals if not omaha else deals // 4
        decks = shuffled(rs, n, 7)
        holes = np.ascontiguousarray(decks[:, : players * hole].reshape(n, players, hole))
        boards = np.ascontiguousarray(decks[:, players * hole : players * hole + board]) if board else None
        names = [str(card) for card in rs.deck]
        cards = [pkrbot.Card(text) for text in names]
        prepared: list[list[list[Any]]] = []
        for d in range(n):
            board_cards = [cards[i] for i in boards[d]] if boards is not None else []
            if omaha:
                prepared.append([[cards[i] for i in holes[d, p]] for p in range(players)] + [board_cards])
            else:
                prepared.append([[cards[i] for i in holes[d, p]] + board_cards for p in range(players)])
        rs.showdown_many(holes[:10], None if boards is None else boards[:10])  # tables built before timing
        ours = rs.showdown_many(holes, boards)
        loop = pkrbot_loop(prepared, omaha)
        theirs = np.array(loop())
        agree = int(np.sum(np.all(np.isclose(ours, theirs), axis=1)))
        prefix = min(n, 300)
        text_holes = [[[rs.deck[i] for i in holes[d, p]] for p in range(players)] for d in range(prefix)]
        text_boards = [[rs.deck[i] for i in boards[d]] if boards is not None else "" for d in range(prefix)]

        def generic(holes_text: list[Any] = text_holes, boards_text: list[Any] = text_boards, rs: Ruleset = rs) -> None:
            for hands, cards_on_board in zip(holes_text, boards_text, strict=True):
                showdown(rs, hands, cards_on_board)

        times = best_of(
            rounds,
            {"ours": lambda rs=rs, h=holes, b=boards: rs.showdown_many(h, b), "pkrbot": loop, "generic": generic},
        )
        ours_rate, pkr_rate, gen_rate = n / times["ours"], n / times["pkrbot"], prefix / times["generic"]
        rows.append(
            f"| {name} | {players} | {human(ours_rate)} | {human(pkr_rate)} | {ours_rate / pkr_rate:.2f} "
            f"| {human(gen_rate)} | {ours_rate / gen_rate:,.0f} |"
        )
        rows.append(f"|  | ({agree:,} of {n:,} deals: the same shares as the pkrbot loop) | | | | | |")
    return rows


def cliff_rows(hands: int, rounds: int) -> list[str]:
    """rank_many at the shapes the issue bounds, as pairs of rates."""
    rows = ["| ruleset | holding | hands/s | against | hands/s | ratio |", "|---|---|---|---|---|---|"]
    standard = load("standard")
    decks = shuffled(standard, hands, 3)
    pairs: list[tuple[str, Ruleset, str, np.ndarray, str, np.ndarray]] = [
        ("standard", standard, "11 cards", decks[:, :11], "10 cards", decks[:, :10]),
        ("standard", standard, "12 cards", decks[:, :12], "10 cards", decks[:, :10]),
    ]
    wild = load("deuces-wild")
    deuces = [i for i, card in enumerate(wild.deck) if card.rank == "2"]
    others = np.array([i for i in range(len(wild.deck)) if i not in deuces])
    rng = np.random.default_rng(5)
    natural = others[np.argsort(rng.random((hands, len(others))), axis=1)[:, :7]]
    with_wilds = natural.copy()
    for w in (3, 4):
        with_wilds = natural.copy()
        with_wilds[:, :w] = np.array(deuces[:w])
        pairs.append(("deuces-wild", wild, f"7 cards, {w} wild", with_wilds, "7 cards, no wild", natural))
    two = load("two-decks")
    pack = np.array([i for i in range(len(two.deck)) for _ in range(two.copies)])
    order = np.argsort(np.random.default_rng(9).random((hands // 4, len(pack))), axis=1)
    dealt = pack[order]
    for k in (8, 9):
        pairs.append(("two-decks", two, f"{k} cards", dealt[:, :k], "7 cards", dealt[:, :7]))
    for name, rs, label, array, base_label, base in pairs:
        a, b = np.ascontiguousarray(array), np.ascontiguousarray(base)
        rs.rank_many(a[:1000])  # tables grown and arrays built before timing
        rs.rank_many(b[:1000])
        # a cliff (a per-hand loop) is timed on a prefix so the run stays short
        start = time.perf_counter()
        rs.rank_many(a[:2000])
        prefix = len(a) if time.perf_counter() - start < 0.1 else 2000
        times = best_of(
            rounds, {"a": lambda rs=rs, a=a[:prefix]: rs.rank_many(a), "b": lambda rs=rs, b=b: rs.rank_many(b)}
        )
        ra, rb = prefix / times["a"], len(b) / times["b"]
        rows.append(f"| {name} | {label} | {human(ra)} | {base_label} | {human(rb)} | {ra / rb:.2f} |")
    return rows


def human(value: float) -> str:
    """2.4 M, 153 k."""
    if value >= 1e6:
        return f"{value / 1e6:.2f} M"
    if value >= 1e3:
        return f"{value / 1e3:.0f} k"
    return f"{value:.0f}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run and print the markdown rows."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=40_000)
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cliffs-only", action="store_true")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    lines: list[str] = []
    if not args.cliffs_only:
        lines += ["## Batch showdowns (`Ruleset.showdown_many`) against a pkrbot loop over the same deals", ""]
        lines += showdown_rows(args.deals, args.rounds) + [""]
    lines += ["## rank_many cliffs (ratios within one run)", ""]
    lines += cliff_rows(args.hands, args.rounds)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
