"""Benchmark pokerrules against the hard-coded evaluators, side by side, in one run.

    python benchmarks/bench.py                       # print the tables
    python benchmarks/bench.py --save benchmarks/RESULTS.md

Every library ranks the same seeded hands (200,000 five-card and 200,000
seven-card hands from one 52-card deck), each in its own card representation
built before the clock starts, one call per hand -- the way an application
calls an evaluator. pokerrules is also timed on deuces-wild, short-deck,
ace-to-five and the rulesets of the hand language (four-flush, round-the-corner,
freak-hands, badugi at four cards, three-card-poker and chinese-poker-front at
three; hands dealt from each ruleset's own deck with the same seed), and
through its NumPy batch API (``Ruleset.rank_many``), which no peer has.

The process is pinned to one core. Rounds are interleaved (every evaluator once
per round) and the fastest round is kept, so a burst of load from elsewhere on
the machine hurts every evaluator alike instead of whichever ran at the time.
A batch pass takes milliseconds, so each round repeats it for 0.3 s and keeps
the fastest pass. Evaluators slower than ~2 s per pass are timed on a prefix of the hands (noted).
Peers are benchmark-only extras (``pip install -e .[bench]``); a peer that is
not installed is skipped with a note. Before timing, pokerrules' order is
checked against treys' on the sample (pairs of consecutive hands must compare
the same way).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from evaluator import load  # noqa: E402

RANKS = "23456789TJQKA"
SUITS = "shdc"
#: Seconds of batch passes per round (each pass is milliseconds; the fastest pass is kept).
BATCH_BUDGET = 0.3
#: A pass over the hands that would take longer than this is timed on a prefix.
PASS_BUDGET = 2.0
EXTRA_RULESETS = ("deuces-wild", "short-deck", "ace-to-five")
#: Rulesets of the pattern language's suit forms (flush(k), run(k, flush), suits), hand.best_subset
#: and three-card hands. Hands of fewer than five cards are timed at their own size and set
#: against standard's five-card figure; seven cards only where the hand is five of them.
HAND_LANGUAGE_RULESETS = (
    "four-flush",
    "round-the-corner",
    "freak-hands",
    "badugi",
    "three-card-poker",
    "chinese-poker-front",
)


@dataclass
class Entry:
    """One evaluator: how to call it per hand, and its prepared inputs."""

    name: str
    kind: str
    call: Callable[[Any], Any] | None = None  # per-hand call (None: batch entry)
    batch: Callable[[Any], Any] | None = None  # whole-array call
    inputs: dict[int, Any] = field(default_factory=dict)  # cards per hand -> prepared hands
    best: dict[int, float] = field(default_factory=dict)  # cards -> best seconds per hand
    timed_on: dict[int, int] = field(default_factory=dict)
    note: str = ""


def deal(deck_size: int, cards: int, hands: int, seed: int) -> np.ndarray:
    """``hands`` random ``cards``-card hands (card indices, no repeats within a hand)."""
    rng = np.random.default_rng(seed)
    return np.ascontiguousarray(np.argsort(rng.random((hands, deck_size)), axis=1)[:, :cards])


def names_of(deck: Sequence[str], ids: np.ndarray) -> list[list[str]]:
    """Card strings of every hand."""
    return [[deck[i] for i in row] for row in ids.tolist()]


def time_pass(entry: Entry, cards: int) -> None:
    """Time one pass of ``entry`` over its ``cards``-card hands (keeps the best)."""
    hands = entry.inputs[cards]
    if entry.batch is not None:
        # one batch pass takes milliseconds: the best of as many passes as fit in BATCH_BUDGET
        per_hand = float("inf")
        began = time.perf_counter()
        while True:
            start = time.perf_counter()
            entry.batch(hands)
            per_hand = min(per_hand, (time.perf_counter() - start) / len(hands))
            if time.perf_counter() - began > BATCH_BUDGET:
                break
        entry.timed_on[cards] = len(hands)
    else:
        call = entry.call
        assert call is not None
        count = entry.timed_on.get(cards, len(hands))
        subset = hands[:count]
        start = time.perf_counter()
        for hand in subset:
            call(hand)
        elapsed = time.perf_counter() - start
        per_hand = elapsed / count
        if cards not in entry.timed_on:
            # a slow evaluator is timed on a prefix from the next round on
            entry.timed_on[cards] = min(len(hands), max(1000, int(PASS_BUDGET / max(per_hand, 1e-12))))
    entry.best[cards] = min(entry.best.get(cards, float("inf")), per_hand)


def peer_entries(five: list[list[str]], seven: list[list[str]]) -> tuple[list[Entry], list[str]]:
    """The peers that are installed, each with its inputs prepared; and skip notes."""
    entries: list[Entry] = []
    notes: list[str] = []

    def add(name: str, kind: str, build: Callable[[], tuple[Callable[[Any], Any], Callable[[list[str]], Any]]]) -> None:
        try:
            call, prepare = build()
        except Exception as problem:  # noqa: BLE001 - a missing or broken peer is skipped, not fatal
            notes.append(f"{name}: skipped ({type(problem).__name__}: {problem})")
            return
        entry = Entry(f"{name} {_version(name)}", kind, call=call)
        entry.inputs = {5: [prepare(h) for h in five], 7: [prepare(h) for h in seven]}
        entries.append(entry)

    def treys() -> tuple[Callable[[Any], Any], Callable[[list[str]], Any]]:
        from treys import Card, Evaluator

        evaluate = Evaluator().evaluate

        def prepare(hand: list[str]) -> Any:
            cards = [Card.new(c) for c in hand]
            return cards[:2], cards[2:]

        return (lambda h: evaluate(h[0], h[1])), prepare

    def phevaluator() -> tuple[Callable[[Any], Any], Callable[[list[str]], Any]]:
        from phevaluator import evaluate_cards
        from phevaluator.card import Card

        return (lambda h: evaluate_cards(*h)), (lambda hand: [Card(c).id_ for c in hand])

    def eval7() -> tuple[Callable[[Any], Any], Callable[[list[str]], Any]]:
        import eval7 as module

        return module.evaluate, (lambda hand: [module.Card(c) for c in hand])

    def pkrbot() -> tuple[Callable[[Any], Any], Callable[[list[str]], Any]]:
        import pkrbot as module

        return module.evaluate, (lambda hand: [module.Card(c) for c in hand])

    def pokerkit() -> tuple[Callable[[Any], Any], Callable[[list[str]], Any]]:
        from pokerkit import Card, StandardHighHand

        def call(hand: Any) -> Any:
            return StandardHighHand(hand) if len(hand) == 5 else StandardHighHand.from_game(hand[:2], hand[2:])

        return call, (lambda hand: tuple(Card.parse("".join(hand))))

    add("treys", "pure Python, prime product + dict", treys)
    add("phevaluator", "pure Python, perfect hash", phevaluator)
    add("eval7", "Cython", eval7)
    add("pkrbot", "Cython/C++", pkrbot)
    add("pokerkit", "pure Python, lookups", pokerkit)
    return entries, notes


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "?"


def pokerrules_entries(
    hands: int, seed: int, only: Sequence[str] | None = None
) -> tuple[list[Entry], list[Entry], list[str]]:
    """pokerrules per call (standard and the other rulesets, or standard and ``only``) and batch entries."""
    per_call: list[Entry] = []
    batch: list[Entry] = []
    notes: list[str] = []
    for name in ("standard", *(only if only is not None else (*EXTRA_RULESETS, *HAND_LANGUAGE_RULESETS))):
        try:
            rs = load(name)
        except Exception as problem:  # noqa: BLE001 - a ruleset still being written is skipped
            notes.append(f"pokerrules {name}: skipped ({type(problem).__name__}: {problem})")
            continue
        deck = [str(card) for card in rs.deck]
        code_of = [rs.encode(card)[0] for card in deck]
        sizes = (5, 7) if rs.hand_size == 5 else (min(rs.hand_size, 5),)
        ids = {k: deal(len(deck), k, hands, seed + k) for k in sizes}
        if name == "standard":
            # the same hands as the peers
            ids = {k: deal(52, k, hands, seed + k) for k in (5, 7)}
        entry = Entry(f"pokerrules {name}", "pure Python, ruleset compiled to tables", call=rs.rank)
        entry.inputs = {k: [tuple(code_of[i] for i in row) for row in ids[k].tolist()] for k in sizes}
        rs.rank(entry.inputs[sizes[0]][0])  # build or read the tables before timing
        per_call.append(entry)
        many = Entry(f"pokerrules {name} (batch)", "NumPy, rank_many", batch=rs.rank_many)
        many.inputs = ids
        rs.rank_many(ids[sizes[-1]][:10])
        batch.append(many)
    return per_call, batch, notes


def check_order(five: np.ndarray, seven: np.ndarray, deck: list[str]) -> str:
    """pokerrules and treys must order consecutive hands the same way."""
    try:
        from treys import Card, Evaluator
    except ImportError:
        return "order check against treys skipped (treys not installed)"
    rs = load("standard")
    evaluate = Evaluator().evaluate
    lines = []
    for ids in (five, seven):
        sample = ids[:20000]
        ours = rs.rank_many(sample)
        theirs = np.array(
            [
                evaluate([Card.new(deck[i]) for i in row[:2]], [Card.new(deck[i]) for i in row[2:]])
                for row in sample.tolist()
            ]
        )
        # treys: smaller is better
        agree = int(np.sum(np.sign(np.diff(ours)) == -np.sign(np.diff(theirs))))
        lines.append(
            f"{ids.shape[1]} cards: {agree:,} of {len(sample) - 1:,} consecutive pairs ordered as treys orders them"
        )
    return "; ".join(lines)


def machine_info() -> list[str]:
    """What the numbers were measured on."""
    model = platform.processor() or "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load_avg = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return [
        f"- date: {datetime.datetime.now().isoformat(timespec='minutes')}",
        f"- CPU: {model}, {os.cpu_count()} logical cores; pinned to one core",
        f"- {platform.system()} {platform.release()}, Python {platform.python_version()}, NumPy {np.__version__}",
        f"- load average when the run ended: {load_avg}",
    ]


def rate(entry: Entry, cards: int) -> float:
    """Hands per second (best round)."""
    return 1.0 / entry.best[cards] if cards in entry.best else float("nan")


def human(value: float) -> str:
    """2.4 M, 153 k."""
    if value != value:
        return "-"
    if value >= 1e6:
        return f"{value / 1e6:.1f} M"
    return f"{value / 1e3:.0f} k"


def ratio(value: float, base: float) -> str:
    """``value / base`` as a multiplier."""
    if value != value or base != base or base == 0:
        return "-"
    return f"{value / base:.2f}" if value / base < 10 else f"{value / base:.1f}"


def verdict(value: float, bar: float) -> str:
    """met / missed / not measured."""
    if value != value or bar != bar:
        return "not measured"
    return "met" if value >= bar else "MISSED"


def report(
    per_call: list[Entry],
    peers: list[Entry],
    batch: list[Entry],
    notes: list[str],
    order: str,
    args: argparse.Namespace,
) -> str:
    """The markdown report."""
    treys = next((e for e in peers if e.name.startswith("treys")), None)
    pkrbot = next((e for e in peers if e.name.startswith("pkrbot")), None)
    standard = next((e for e in per_call if e.name == "pokerrules standard"), None)
    base5 = rate(treys, 5) if treys else float("nan")
    base7 = rate(treys, 7) if treys else float("nan")
    lines = [
        "# Benchmark: pokerrules and the hard-coded evaluators",
        "",
        f"`python benchmarks/bench.py --hands {args.hands} --seed {args.seed}`: the same {args.hands:,} seeded five-card and",
        f"{args.hands:,} seven-card hands for every evaluator, one call per hand, {args.rounds} interleaved rounds, best round kept.",
        "",
        "## Per call, standard poker",
        "",
        "| evaluator | kind | 5-card hands/s | x treys | 7-card hands/s | x treys |",
        "|---|---|---|---|---|---|",
    ]
    for entry in ([standard] if standard else []) + peers:
        r5, r7 = rate(entry, 5), rate(entry, 7)
        prefix = ""
        if any(entry.timed_on.get(k, args.hands) < args.hands for k in (5, 7)):
            prefix = (
                " (prefix: "
                + ", ".join(
                    f"{entry.timed_on[k]:,} of {k}-card"
                    for k in (5, 7)
                    if entry.timed_on.get(k, args.hands) < args.hands
                )
                + ")"
            )
        lines.append(
            f"| {entry.name} | {entry.kind}{prefix} | {human(r5)} | {ratio(r5, base5)} | {human(r7)} | {ratio(r7, base7)} |"
        )
    lines += [
        "",
        "## Per call, other rulesets (no peer evaluates them; the bar is pokerrules' own standard figure)",
        "",
        "| ruleset | hand | hands/s | x standard 5-card | 7-card hands/s | x standard 7-card |",
        "|---|---|---|---|---|---|",
    ]
    s5 = rate(standard, 5) if standard else float("nan")
    s7 = rate(standard, 7) if standard else float("nan")
    for entry in per_call:
        small = min(entry.inputs)
        r5, r7 = rate(entry, small), rate(entry, 7)
        lines.append(
            f"| {entry.name.removeprefix('pokerrules ')} | {small} cards | {human(r5)} | {ratio(r5, s5)} | {human(r7)} | {ratio(r7, s7)} |"
        )
    p5 = rate(pkrbot, 5) if pkrbot else float("nan")
    p7 = rate(pkrbot, 7) if pkrbot else float("nan")
    lines += [
        "",
        "## Batch (`Ruleset.rank_many` on an (n, k) int64 array of card ids) against pkrbot per call",
        "",
        "| ruleset | hand | hands/s | x pkrbot 5-card | x standard 5-card | 7-card hands/s | x pkrbot | x standard |",
        "|---|---|---|---|---|---|---|---|",
    ]
    b5 = rate(batch[0], 5) if batch else float("nan")
    b7 = rate(batch[0], 7) if batch else float("nan")
    for entry in batch:
        small = min(entry.inputs)
        r5, r7 = rate(entry, small), rate(entry, 7)
        lines.append(
            f"| {entry.name.removeprefix('pokerrules ').removesuffix(' (batch)')} | {small} cards | {human(r5)} | {ratio(r5, p5)} "
            f"| {ratio(r5, b5)} | {human(r7)} | {ratio(r7, p7)} | {ratio(r7, b7)} |"
        )
    lines += ["", "## Targets of issues 6 and 15 (ratios measured in this run)", ""]
    targets = [
        ("per call, standard, 5 cards", rate(standard, 5) if standard else float("nan"), base5, "treys", 1.0),
        ("per call, standard, 7 cards", rate(standard, 7) if standard else float("nan"), base7, "treys", 6.0),
    ]
    for entry in per_call:
        if entry is not standard:
            for k in sorted(entry.inputs):
                targets.append(
                    (
                        f"per call, {entry.name.removeprefix('pokerrules ')}, {k} cards",
                        rate(entry, k),
                        s7 if k == 7 else s5,
                        "standard 7-card" if k == 7 else "standard 5-card",
                        0.8,
                    )
                )
    if batch:
        targets.append(("batch, standard, 7 cards", rate(batch[0], 7), p7, "pkrbot per call", 1.5))
        targets.append(("batch, standard, 5 cards", rate(batch[0], 5), p5, "pkrbot per call", 2.0))
        for entry in batch[1:]:
            name = entry.name.removeprefix("pokerrules ").removesuffix(" (batch)")
            for k in sorted(entry.inputs):
                base, against = (b7, "standard batch 7-card") if k == 7 else (b5, "standard batch 5-card")
                targets.append((f"batch, {name}, {k} cards", rate(entry, k), base, against, 0.8))
    for text, value, base, against, bar in targets:
        measured = value / base if value == value and base == base and base else float("nan")
        lines.append(f"- {text}: {ratio(value, base)} x {against} (target >= {bar}) -> {verdict(measured, bar)}")
    lines += ["", "## Checks and notes", "", f"- {order}"]
    lines.append("- absolute rates depend on the machine and on its load; the targets are ratios within one run")
    lines += [f"- {note}" for note in notes]
    lines += ["", "## Machine", ""] + machine_info()
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; print the report (and save it with ``--save``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200_000, help="hands per size (default 200,000)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the best is kept")
    parser.add_argument("--cpu", type=int, default=None, help="the core to pin to (default: the first allowed)")
    parser.add_argument("--save", type=Path, default=None, help="write the markdown report to this file")
    parser.add_argument(
        "--rulesets",
        default=None,
        help="comma-separated rulesets to time besides standard (always timed); peers are then skipped",
    )
    args = parser.parse_args(argv)
    only = [name for name in args.rulesets.split(",") if name and name != "standard"] if args.rulesets else None
    notes: list[str] = []
    if hasattr(os, "sched_setaffinity"):
        cpu = args.cpu if args.cpu is not None else min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
    else:  # pragma: no cover - not Linux
        notes.append("could not pin to one core on this system")
    deck = [rank + suit for rank in RANKS for suit in SUITS]
    ids = {k: deal(52, k, args.hands, args.seed + k) for k in (5, 7)}
    five, seven = names_of(deck, ids[5]), names_of(deck, ids[7])
    print("preparing inputs ...", file=sys.stderr)
    per_call, batch, rule_notes = pokerrules_entries(args.hands, args.seed, only)
    peers, peer_notes = peer_entries(five, seven) if only is None else ([], ["peers skipped (--rulesets)"])
    notes += rule_notes + peer_notes
    standard_deck = [str(card) for card in load("standard").deck]
    order = check_order(ids[5], ids[7], standard_deck)
    everyone = per_call + peers + batch
    for round_number in range(args.rounds):
        print(f"round {round_number + 1} of {args.rounds} ...", file=sys.stderr)
        for entry in everyone:
            for k in sorted(entry.inputs):
                time_pass(entry, k)
    text = report(per_call, peers, batch, notes, order, args)
    print(text)
    if args.save is not None:
        args.save.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
