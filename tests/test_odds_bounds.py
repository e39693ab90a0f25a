"""Odds and charts stay within bounds whatever the arguments: memory, seeds, weights, work.

A question with many players used to enumerate every way of cutting the
unknown cards among them before deciding to sample (340 million rows for five
hold'em hands, 4 x 10^17 for nine): the odds runs here
are made in a subprocess whose address space is capped, so a regression ends
in a MemoryError there, not on the machine. Work past the bound is refused with
its estimate before it starts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from math import factorial
from pathlib import Path

import numpy as np
import pytest

from evaluator import load
from evaluator.cli.main import main
from evaluator.core.errors import PokerRulesError
from evaluator.odds.chart import chart
from evaluator.odds.chart_run import CHUNK_SAMPLES, MAX_TASKS, TASK_SAMPLES, Chunk, group_chunks
from evaluator.odds.cluster import MAX_SEED, MAX_WORK, fold_chunks
from evaluator.odds.deals import (
    combination_blocks,
    combination_indices,
    cut_blocks,
    cut_count,
    rebatch,
    segment_cuts,
)
from evaluator.odds.odds import odds, prepare

REPO = Path(__file__).resolve().parents[1]
#: The address space the capped runs may use: far below what the unbounded enumerations asked for.
MEMORY_LIMIT = 2 << 30
#: Peak resident memory a capped run must stay under.
RSS_LIMIT = 1 << 30

_CAPPED = textwrap.dedent(
    """
    import json, resource, sys
    resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
    from evaluator.cli.main import main
    code = main(sys.argv[1:])
    with open("/proc/self/status") as status:
        rss = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmHWM:"))
    print(json.dumps({{"code": code, "rss": rss}}), file=sys.stderr)
    """
)


def capped(*argv: str) -> tuple[dict[str, int], str, str]:
    """Run the CLI in a subprocess with its address space capped: (exit code and peak RSS, stdout, stderr)."""
    done = subprocess.run(
        [sys.executable, "-c", _CAPPED.format(limit=MEMORY_LIMIT), *argv],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr, done.stderr[-3000:]
    figures: dict[str, int] = json.loads(done.stderr.strip().splitlines()[-1])
    return figures, done.stdout, done.stderr


linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc/self/status")


@linux_only
@pytest.mark.parametrize(
    ("game", "players"),
    [("holdem", 5), ("holdem", 9), ("holdem", 23), ("omaha", 9), ("seven-card-stud", 7)],
)
def test_many_random_players_are_answered_in_bounded_memory(game: str, players: int) -> None:
    figures, out, err = capped("odds", game, *["random"] * players, "--samples", "3000", "--seed", "5", "--json")
    assert figures["code"] == 0, err
    assert figures["rss"] < RSS_LIMIT
    answer = json.loads(out)
    assert answer["method"] == "sampled" and answer["deals"] == 3000
    assert abs(sum(player["equity"] for player in answer["players"]) - 1.0) < 1e-9


@linux_only
def test_a_chart_of_a_billion_deals_per_class_is_refused_with_its_estimate() -> None:
    figures, out, err = capped("chart", "holdem", "--samples", "1000000000")
    assert figures["code"] == 1 and out == ""
    assert "O122" in err and "3.38e+11 rank lookups" in err and f"{MAX_WORK:.0e}" in err
    assert figures["rss"] < RSS_LIMIT


def test_odds_past_the_work_bound_are_refused_before_any_deal() -> None:
    omaha = load("omaha")
    with pytest.raises(PokerRulesError) as caught:
        odds(omaha, ["random"] * 9, samples=1_000_000_000, seed=1)
    assert caught.value.code == "O122"
    assert "5.4e+11 rank lookups" in str(caught.value) and f"{MAX_WORK:.0e}" in str(caught.value)
    with pytest.raises(PokerRulesError) as caught:  # a sampled-hand chart too
        chart(omaha, hands=10_000, samples=1_000_000, seed=1)
    assert caught.value.code == "O122" and "hands" in str(caught.value)


def test_an_exact_chart_past_the_bound_is_refused_with_a_way_out() -> None:
    with pytest.raises(PokerRulesError) as caught:
        # two opponents are dealt deal by deal: 1,128 combinations x 1.23e8 lookups each
        chart(load("holdem"), exact=True, opponents=2, board="Kd 7c 2h 5s")
    assert caught.value.code == "O122" and "an exact chart of 169 classes" in str(caught.value)
    assert "1.39e+11 rank lookups" in str(caught.value) and "give board cards" in str(caught.value)


def test_the_cut_count_is_the_number_of_cuts_without_making_them() -> None:
    for sizes in ([2, 2, 5], [1, 1, 1], [3], [2, 3, 1, 2], [], [4, 4, 5]):
        assert cut_count(sizes) == len(segment_cuts(sizes))
    # nine hold'em hands and a board: 23! / (2!^9 5!) ways, counted at once
    nine = factorial(23) // (2**9 * factorial(5))
    assert cut_count([2] * 9 + [5]) == nine == 420_768_501_609_456_000
    table, _ = prepare(load("holdem"), ["random"] * 9)
    assert cut_count(table.segments) == nine


@pytest.mark.parametrize("rows", [1, 2, 5, 17, 1000])
def test_blocks_hold_the_same_rows_in_the_same_order(rows: int) -> None:
    for sizes in ([2, 2, 5], [1, 1, 1], [2, 3, 1, 2], []):
        blocks = list(cut_blocks(sizes, rows))
        assert all(len(block) <= rows for block in blocks) or len(blocks) == 1
        assert np.array_equal(np.concatenate(blocks), segment_cuts(sizes))
    for m, k in ((10, 3), (7, 0), (12, 5), (5, 5), (3, 4)):
        blocks = list(combination_blocks(m, k, rows))
        assert all(len(block) <= rows for block in blocks) or len(blocks) == 1
        whole = combination_indices(m, k)
        assert np.array_equal(np.concatenate(blocks) if blocks else np.zeros((0, k)), whole)
    regrouped = list(rebatch(cut_blocks([2, 3, 1, 2], 7), rows))
    assert all(len(block) == rows for block in regrouped[:-1])
    assert np.array_equal(np.concatenate(regrouped), segment_cuts([2, 3, 1, 2]))


@pytest.mark.parametrize(
    ("hands", "board"),
    [
        (["AhKh", "QsQd", "random"], "2h 7h 9c Td"),  # a random player and the river: three cuts
        (["Ah", "Qs", "Kd"], "2h 7h 9c Td 5s"),  # one card each to deal: six cuts
        (["QQ+,AKs", "random"], "2h 7h 9c Td 5s"),  # ranges: one pass per choice of combinations
    ],
)
def test_exact_deals_are_the_same_in_small_batches(hands: list[str], board: str) -> None:
    table, _ = prepare(load("holdem"), hands, board)
    whole = list(table.exact_batches())
    for rows in (2, 64):  # 2: fewer rows than cuts, so one pick at a time and its cuts in blocks
        small = list(table.exact_batches(rows))
        assert all(len(batch) <= rows for batch, _ in small)
        assert np.array_equal(np.concatenate([b for b, _ in small]), np.concatenate([b for b, _ in whole]))
        weights = [w for b, w in small for _ in range(len(b))]
        assert weights == [w for b, w in whole for _ in range(len(b))]


def test_chunks_are_made_as_they_are_folded() -> None:
    """A run of a million chunks never lists them: each is made when the one before is folded."""
    made, folded = [], []

    def chunks():  # type: ignore[no-untyped-def]
        for index in range(50):
            assert len(made) == len(folded)  # nothing made ahead of the work
            made.append(index)
            yield index

    fold_chunks(lambda spec, task: task * 2, None, chunks(), lambda task, result: folded.append(result), None)  # type: ignore[arg-type]
    assert folded == [2 * i for i in range(50)]


def test_a_huge_chart_is_cut_into_a_bounded_number_of_tasks() -> None:
    """Dask keeps a little state per task run: past MAX_TASKS tasks the tasks grow instead."""
    count = 169 * 200_000_000 // CHUNK_SAMPLES  # chart holdem --samples 200000000: 3.38 million chunks
    task_samples = max(TASK_SAMPLES, CHUNK_SAMPLES * count // MAX_TASKS + 1)
    chunks = (Chunk(0, 0, i, "AA", 1, "", "", CHUNK_SAMPLES, 1) for i in range(count))
    groups = 0
    for group in group_chunks(chunks, task_samples):
        groups += 1
        assert sum(chunk.samples for chunk in group) <= task_samples
    assert groups <= MAX_TASKS
    small = [Chunk(0, 0, i, "AA", 1, "", "", 3_000, 1) for i in range(100)]
    assert [c for group in group_chunks(small, 10_000) for c in group] == small  # the order is kept


@pytest.mark.parametrize("seed", ["-1", str(MAX_SEED + 1), str(2**200)])
def test_a_seed_out_of_range_is_bad_usage(seed: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "holdem", "AA", "random", "--samples", "100", "--seed", seed]) == 2
    err = capsys.readouterr().err
    assert "O118" in err and "0 to 2^64 - 1" in err and "Traceback" not in err
    assert main(["chart", "holdem", "--samples", "100", "--seed", seed]) == 2
    assert "O118" in capsys.readouterr().err


def test_seeds_are_checked_in_python_too() -> None:
    holdem = load("holdem")
    for seed in (-1, MAX_SEED + 1, 2**200):
        with pytest.raises(PokerRulesError) as caught:
            odds(holdem, ["AA", "random"], samples=100, seed=seed)
        assert caught.value.code == "O118"
        with pytest.raises(PokerRulesError) as caught:
            chart(holdem, classes=["AA"], samples=100, seed=seed)
        assert caught.value.code == "O118"
    edge = odds(holdem, ["AA", "random"], samples=100, seed=MAX_SEED)  # the largest seed works
    assert edge.seed == MAX_SEED


@pytest.mark.parametrize("weight", ["nan", "inf", "-inf", "-1", "1e309", "2"])
def test_a_weight_that_is_not_from_0_to_1_is_refused_at_its_column(
    weight: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["odds", "holdem", f"QQ:{weight}", "random", "--samples", "100"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("<hand 1>:1:4: error O103:") and "Traceback" not in err
