"""How fast can a suit-heavy ruleset rank per call at all? A floor, measured beside standard.

    python benchmarks/per_call_floor.py                # print the table
    python benchmarks/per_call_floor.py --save benchmarks/RESULTS.md

In badugi and freak-hands the suits decide the value of nearly every hand
(98 % and 91 % of hands differ from some hand of the same ranks), so a
per-call key must carry the hand's suits. The cheapest such key in Python is
the hand itself: one bit per card, summed with the built-in ``sum``, looked up
in a dict holding every hand of the deck -- no suit work at all. This script
builds that dict (values from ``Ruleset.rank_many``) and times one call per
hand through it. A dict lookup is only as fast as its table is small, and
every hand of the deck is hundreds of thousands to millions of entries, which
miss the CPU caches. The other way round -- rename the suits to one canonical
order so the table is small -- is timed too, without its lookup: the renaming
alone. Both sit beside pokerrules' standard per-call ``rank`` and pokerrules'
own per-call path for the ruleset, in one run pinned to one core, rounds
interleaved and the fastest kept.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from math import comb
from typing import Any

import numpy as np

import evaluator

sys.path.insert(0, os.path.dirname(__file__))
from bench import deal  # noqa: E402 - the benchmark folder is not a package

#: (ruleset, cards per hand) timed against standard; standard is timed at five cards.
RULESETS = (("badugi", 4), ("freak-hands", 5))


def every_hand_table(rs: Any, cards: int) -> tuple[dict[int, int], list[int]]:
    """Every hand of ``cards`` cards of ``rs``'s deck by the sum of one bit per card."""
    deck = len(rs.deck)
    ids = np.array(list(combinations(range(deck), cards)), dtype=np.int64)
    values = rs.rank_many(ids).tolist()
    bits = [1 << i for i in range(deck)]
    keys = (np.int64(1) << ids).sum(axis=1).tolist()
    return dict(zip(keys, values, strict=True)), bits


def suit_major_bits(rs: Any) -> list[int]:
    """One bit per card, 13 bits per suit in suit order (a joker above them)."""
    ranks = sorted({card.rank for card in rs.deck if not card.is_joker})
    suits = sorted({card.suit for card in rs.deck if not card.is_joker})
    return [
        1 << (len(ranks) * len(suits)) if card.is_joker else 1 << (13 * suits.index(card.suit) + ranks.index(card.rank))
        for card in rs.deck
    ]


def canonical_suits(hand: Sequence[int]) -> tuple[list[int], int]:
    """The hand's suits renamed to one canonical order (its four suit fields sorted), no lookup."""
    held = sum(hand)
    fields = [held & 8191, (held >> 13) & 8191, (held >> 26) & 8191, (held >> 39) & 8191]
    fields.sort()
    return fields, held >> 52


def timed(call: Callable[[Any], Any], hands: Sequence[Any]) -> float:
    """Seconds per call over ``hands``."""
    start = time.perf_counter()
    for hand in hands:
        call(hand)
    return (time.perf_counter() - start) / len(hands)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the comparison and print (or save) a Markdown table of ratios."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--save", metavar="FILE", help="also append the table to FILE")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    standard = evaluator.load("standard")
    code_of = [standard.encode(str(card))[0] for card in standard.deck]
    rows: dict[str, tuple[Callable[[Any], Any], list[Any]]] = {
        "standard, rank (5 cards)": (
            standard.rank,
            [tuple(code_of[i] for i in h) for h in deal(52, 5, args.hands, args.seed).tolist()],
        )
    }
    sizes: dict[str, int] = {}
    for name, cards in RULESETS:
        rs = evaluator.load(name)
        ids = deal(len(rs.deck), cards, args.hands, args.seed + cards).tolist()
        codes = [rs.encode(str(card))[0] for card in rs.deck]
        rows[f"{name}, rank ({cards} cards)"] = (rs.rank, [tuple(codes[i] for i in h) for h in ids])
        table, bits = every_hand_table(rs, cards)
        lookup = table.__getitem__

        def floor(hand: Sequence[int], lookup: Callable[[int], int] = lookup) -> int:
            return lookup(sum(hand))

        label = f"{name}, one sum + one dict lookup over every hand ({cards} cards)"
        rows[label] = (floor, [tuple(bits[i] for i in h) for h in ids])
        sizes[label] = comb(len(rs.deck), cards)
        suit_major = suit_major_bits(rs)
        rows[f"{name}, suits renamed to a canonical order alone, no lookup ({cards} cards)"] = (
            canonical_suits,
            [tuple(suit_major[i] for i in h) for h in ids],
        )
    best = {label: float("inf") for label in rows}
    for _ in range(args.rounds):
        for label, (call, hands) in rows.items():
            best[label] = min(best[label], timed(call, hands))
    base = best["standard, rank (5 cards)"]
    lines = [
        "## Per call: the floor of a suit-heavy ruleset (`benchmarks/per_call_floor.py`)",
        "",
        f"{args.hands:,} seeded hands per row, one call per hand, {args.rounds} interleaved rounds, best kept, one core.",
        "",
        "| per call | table entries | x standard |",
        "|---|---|---|",
    ]
    for label, seconds in best.items():
        entries = f"{sizes[label]:,}" if label in sizes else "-"
        lines.append(f"| {label} | {entries} | {base / seconds:.2f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.save:
        with open(args.save, "a", encoding="utf-8") as out:
            out.write("\n" + text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
