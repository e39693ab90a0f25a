"""The API rows of ``cliffs.py``: Python calls timed in this process, tables loaded first.

Every side of a row does the same work on the same seeded hands or deals:
``Ruleset.evaluate`` against treys reading and evaluating the strings; suit
tie-break rulesets, eight cards and two packs against standard rules, seven
cards and one pack; ``showdown_many`` of Omaha against a phevaluator loop; the
sampled equity of Omaha against hold'em's.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from cliffs_rows import Bench
from cliffs_table import Row

from evaluator import load
from evaluator.ruleset import Ruleset


def timed(work: Callable[[], object]) -> Callable[[], tuple[float, float]]:
    """``work`` as a timed round: (seconds, no memory figure)."""

    def run() -> tuple[float, float]:
        start = time.perf_counter()
        work()
        return time.perf_counter() - start, 0.0

    return run


def lines(count: int, k: int, seed: int) -> list[str]:
    """``count`` seeded ``k``-card hands of the standard deck as text."""
    deck = [r + s for r in "23456789TJQKA" for s in "shdc"]
    rng = random.Random(seed)
    return [" ".join(rng.sample(deck, k)) for _ in range(count)]


def dealt(rs: Ruleset, count: int, k: int, seed: int) -> np.ndarray:
    """``count`` seeded holdings of ``k`` card ids of ``rs``'s deck (every pack)."""
    pack = np.repeat(np.arange(len(rs.deck)), rs.copies)
    order = np.argsort(np.random.default_rng(seed).random((count, len(pack))), axis=1)[:, :k]
    return np.ascontiguousarray(pack[order])


def speed_row(
    bench: Bench,
    key: str,
    what: str,
    base_label: str,
    ours: Callable[[], object],
    base: Callable[[], object],
    work: tuple[int, int],
    target: float,
    unit: str = "hands",
    note: str = "",
) -> Row:
    """A row of two calls compared by rate (bigger is better) against ``>= target``."""
    mine, theirs = bench.interleave(timed(ours), timed(base))
    return Row(
        key,
        what,
        base_label,
        "speed",
        [s for s, _ in mine],
        [s for s, _ in theirs],
        f">= {target:g}x",
        lambda row: row.ratio >= target,
        ours_work=work[0],
        base_work=work[1],
        unit=unit,
        note=note,
    )


def evaluate_rows(bench: Bench) -> list[Row]:
    """``Ruleset.evaluate(str)`` against treys reading and evaluating the same strings."""
    from treys import Card, Evaluator

    rs = load("standard")
    evaluator, new = Evaluator(), Card.new
    count = bench.size(20_000, 4_000)
    rows = []
    for k, target in ((5, 1.5), (7, 3.0)):
        hands = lines(count, k, 2026 + k)
        evaluate = rs.evaluate
        for line in hands[:100]:  # past the first calls answered generically: the tables are loaded
            evaluate(line)

        def ours(hands: list[str] = hands, evaluate: Any = evaluate) -> None:
            for line in hands:
                evaluate(line)

        def treys(hands: list[str] = hands) -> None:
            for line in hands:
                cards = [new(token) for token in line.split()]
                evaluator.evaluate(cards[:2], cards[2:])

        rows.append(
            speed_row(
                bench,
                f"evaluate-{k}",
                f"`Ruleset.evaluate(str)` per call, {k} cards",
                "treys `Card.new` per token + `evaluate`",
                ours,
                treys,
                (count, count),
                target,
            )
        )
    return rows


def batch_of(rs: Ruleset, ids: np.ndarray) -> Callable[[], object]:
    """``rank_many`` of ``ids`` as a call."""
    return lambda: rs.rank_many(ids)


def calls_of(rs: Ruleset, codes: list[Any]) -> Callable[[], object]:
    """``rank`` of each holding of ``codes``, one call each."""
    rank = rs.rank
    return lambda: [rank(c) for c in codes]


def suit_rows(bench: Bench) -> list[Row]:
    """Suit tie-break rulesets, seven cards, batch and per call, against standard; the worst is the row."""
    names = sorted(p.stem for p in (bench.root / "rulesets").glob("suits-*.yaml")) + ["italian"]
    if bench.quick:
        names = ["suits-bridge", "suits-house-paired", "italian"]
    standard = load("standard")
    batch_n, call_n = bench.size(100_000, 20_000), bench.size(20_000, 4_000)
    base_ids = dealt(standard, batch_n, 7, 11)
    base_codes = [standard.encode(tuple(row)) for row in base_ids[:call_n].tolist()]
    standard.rank_many(base_ids[:100])
    rows = []
    for mode in ("batch", "call"):
        found = []
        for name in names:
            rs = load(name)
            ids = dealt(rs, batch_n, 7, 12)
            rs.rank_many(ids[:100])  # tables loaded
            if mode == "batch":
                ours = batch_of(rs, ids)
                base = batch_of(standard, base_ids)
                work = (batch_n, batch_n)
            else:
                codes = [rs.encode(tuple(row)) for row in ids[:call_n].tolist()]
                rs.rank(codes[0])  # the per-call class table made (on first use), as standard's is loaded
                ours = calls_of(rs, codes)
                base = calls_of(standard, base_codes)
                work = (call_n, call_n)
            found.append(
                speed_row(
                    bench,
                    f"suits-{mode}",
                    f"suit tie-break rulesets, 7 cards, {'rank_many' if mode == 'batch' else 'rank per call'}",
                    f"standard, 7 cards, {'rank_many' if mode == 'batch' else 'rank per call'}",
                    ours,
                    base,
                    work,
                    0.5,
                )
            )
        worst = min(range(len(found)), key=lambda i: found[i].ratio)
        row = found[worst]
        row.what += f" (the slowest of {len(names)}: {names[worst]})"
        row.note = "each ruleset, x standard: " + ", ".join(
            f"{name} {item.ratio:.3g}" for name, item in zip(names, found, strict=True)
        )
        rows.append(row)
    return rows


def omaha_showdown(bench: Bench) -> list[Row]:
    """``showdown_many`` of Omaha, four players, against a phevaluator (C) Omaha loop."""
    from phevaluator import Card, evaluate_omaha_cards

    rs = load("omaha")
    n = bench.size(20_000, 4_000)
    decks = dealt(rs, n, 21, 31)
    holes = np.ascontiguousarray(decks[:, :16].reshape(n, 4, 4))
    boards = np.ascontiguousarray(decks[:, 16:])
    ph = [Card(str(card)).id_ for card in rs.deck]
    prepared = [([[ph[i] for i in hole] for hole in holes[d].tolist()], [ph[i] for i in boards[d]]) for d in range(n)]
    rs.showdown_many(holes[:10], boards[:10])

    def peer() -> list[list[float]]:
        out = []
        for players, board in prepared:
            values = [evaluate_omaha_cards(*board, *hole) for hole in players]
            top = min(values)  # phevaluator: smaller is better
            count = values.count(top)
            out.append([1.0 / count if v == top else 0.0 for v in values])
        return out

    agree = int(np.sum(np.all(np.isclose(rs.showdown_many(holes, boards), np.array(peer())), axis=1)))
    return [
        speed_row(
            bench,
            "omaha-showdown",
            "`showdown_many`, Omaha, 4 players",
            "a phevaluator `evaluate_omaha_cards` loop",
            lambda: rs.showdown_many(holes, boards),
            peer,
            (n, n),
            1.5,
            unit="deals",
            note=f"the same shares as the phevaluator loop on {agree:,} of {n:,} deals",
        )
    ]


def equity_rows(bench: Bench) -> list[Row]:
    """Sampled heads-up equity of Omaha and Omaha hi-lo against hold'em's rate."""
    holdem = load("holdem")
    base_n = bench.size(1_000_000, 200_000)
    holdem.odds(["AhKh", "QsQd"], samples=1000, seed=1)
    rows = []
    for name, n in (("omaha", bench.size(200_000, 40_000)), ("omaha-hi-lo", bench.size(100_000, 20_000))):
        rs = load(name)
        hands = ["AhKhQsJs", "9c9d8c7d"]
        first = rs.odds(hands, samples=1000, seed=1)
        assert first.method == "sampled"
        rows.append(
            speed_row(
                bench,
                f"equity-{name}",
                f"sampled equity, {name}, AhKhQsJs vs 9c9d8c7d pre-flop, {n:,} deals",
                f"hold'em AhKh vs QsQd, {base_n:,} deals",
                lambda rs=rs, n=n, hands=hands: rs.odds(hands, samples=n, seed=1),
                lambda: holdem.odds(["AhKh", "QsQd"], samples=base_n, seed=1),
                (n, base_n),
                0.25,
                unit="deals",
            )
        )
    return rows


def rank_eight(bench: Bench) -> list[Row]:
    """Per call ``rank`` of eight cards against seven (standard)."""
    rs = load("standard")
    n8, n7 = bench.size(5_000, 1_000), bench.size(50_000, 10_000)
    eight = [rs.encode(tuple(row)) for row in dealt(rs, n8, 8, 8).tolist()]
    seven = [rs.encode(tuple(row)) for row in dealt(rs, n7, 7, 7).tolist()]
    rank = rs.rank
    rank(eight[0])
    return [
        speed_row(
            bench,
            "rank-8",
            "`rank` per call, standard, 8 cards",
            "the same, 7 cards",
            lambda: [rank(c) for c in eight],
            lambda: [rank(c) for c in seven],
            (n8, n7),
            0.25,
        )
    ]


def two_packs(bench: Bench) -> list[Row]:
    """``rank_many`` of nine cards from two packs (two-decks) against one pack (standard)."""
    two, one = load("two-decks"), load("standard")
    n2, n1 = bench.size(20_000, 4_000), bench.size(200_000, 40_000)
    a, b = dealt(two, n2, 9, 9), dealt(one, n1, 9, 10)
    two.rank_many(a[:100])
    one.rank_many(b[:100])
    return [
        speed_row(
            bench,
            "two-packs",
            "`rank_many`, 9 cards of two packs (two-decks)",
            "standard, 9 cards of one pack",
            lambda: two.rank_many(a),
            lambda: one.rank_many(b),
            (n2, n1),
            0.25,
        )
    ]


API_ROWS: dict[str, tuple[str, Callable[[Bench], list[Row]]]] = {
    "evaluate": ("`Ruleset.evaluate(str)` 5 / 7 cards vs treys parse + evaluate", evaluate_rows),
    "suits": ("suit tie-break rulesets, 7 cards, batch / per call, vs standard", suit_rows),
    "omaha-showdown": ("`showdown_many` Omaha, 4 players, vs a phevaluator loop", omaha_showdown),
    "equity": ("sampled Omaha / Omaha hi-lo equity vs hold'em's rate", equity_rows),
    "rank-8": ("per call `rank`, 8 vs 7 cards", rank_eight),
    "two-packs": ("two packs, batch 9 cards vs one pack 9 cards", two_packs),
}
