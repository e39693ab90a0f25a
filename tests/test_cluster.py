"""Chunked work on Dask: the same answers as on one process, whatever the workers.

The tests that start a cluster are skipped when Dask is not installed (it is
the optional extra ``pokerrules[dask]``); the error without it is tested always.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from evaluator import load
from evaluator.cli.main import main
from evaluator.odds.chart import chart
from evaluator.odds.cluster import DaskMissing, chunk_rng, dask_client
from evaluator.odds.odds import odds

CLASSES = ["AA", "KQs", "72o", "T9s"]


def _dask_or_skip() -> Any:
    return pytest.importorskip("dask.distributed", reason="Dask is the optional extra pokerrules[dask]")


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """Two worker processes: each rebuilds the rulesets from their documents."""
    distributed = _dask_or_skip()
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster,
        distributed.Client(cluster) as connected,
    ):
        yield connected


def test_a_sampled_chart_on_two_workers_equals_the_single_process_run(client: Any) -> None:
    ruleset = load("holdem")
    alone = chart(ruleset, classes=CLASSES, samples=25_000, seed=17)  # 3 chunks per class
    spread = chart(ruleset, classes=CLASSES, samples=25_000, seed=17, client=client)
    assert spread.workers == 2 and alone.workers == 1
    assert [c.as_dict() for c in spread.cells] == [c.as_dict() for c in alone.cells]


def test_an_exact_chart_on_two_workers_equals_the_single_process_run(client: Any) -> None:
    ruleset = load("short-deck-holdem")
    alone = chart(ruleset, classes=["AKs", "66"], exact=True, board="9h 8d 7s Kc")
    spread = chart(ruleset, classes=["AKs", "66"], exact=True, board="9h 8d 7s Kc", client=client)
    assert [c.as_dict() for c in spread.cells] == [c.as_dict() for c in alone.cells]


def test_a_board_by_board_chart_and_table_on_two_workers_equal_the_single_process_run(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from evaluator.odds import board_run
    from evaluator.odds.matchups import matchups

    monkeypatch.setattr(board_run, "TASK_LOOKUPS", 20_000)  # many small tasks, spread over both workers
    ruleset = load("short-deck-holdem")
    alone = chart(ruleset, exact=True, board="9h 8d")
    spread = chart(ruleset, exact=True, board="9h 8d", client=client)
    assert spread.workers == 2 and spread.extra["engine"] == "board-major"
    assert [c.as_dict() for c in spread.cells] == [c.as_dict() for c in alone.cells]
    table, spread_table = matchups(ruleset, board="9h 8d 7s"), matchups(ruleset, board="9h 8d 7s", client=client)
    for name in ("wins", "ties", "deals"):
        assert np.array_equal(getattr(table, name), getattr(spread_table, name))
    ranged = odds(load("holdem"), ["QQ+,AKs", "random"], board="Kd 7c 2h", exact=True)
    spread_odds = odds(load("holdem"), ["QQ+,AKs", "random"], board="Kd 7c 2h", exact=True, client=client)
    assert [p.as_dict(False) for p in spread_odds.players] == [p.as_dict(False) for p in ranged.players]


def test_a_sampled_hand_chart_on_two_workers_equals_the_single_process_run(client: Any) -> None:
    charts = {}
    for name in ("omaha", "stud-hi-lo"):  # the hands are drawn here; each chunk of deals carries its seed
        ruleset = load(name)
        charts[name] = chart(ruleset, hands=5, samples=12_000, seed=17)  # 2 chunks per hand
        spread = chart(ruleset, hands=5, samples=12_000, seed=17, client=client)
        assert spread.workers == 2 and spread.sample is not None
        assert spread.as_dict() == charts[name].as_dict()
    # --against: the same hands under a second ruleset
    hi_lo = load("omaha-hi-lo")
    alone = chart(hi_lo, same_hands_as=charts["omaha"], samples=12_000)
    spread = chart(hi_lo, same_hands_as=charts["omaha"], samples=12_000, client=client)
    assert spread.as_dict() == alone.as_dict()


def test_one_worker_and_two_workers_agree() -> None:
    distributed = _dask_or_skip()
    ruleset = load("short-deck-holdem")
    answers = []
    for workers in (1, 2):
        with (
            distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=False, dashboard_address=":0"
            ) as cluster,
            distributed.Client(cluster) as connected,
        ):
            answers.append(chart(ruleset, classes=["AKo", "99"], samples=22_000, seed=3, client=connected))
    assert [c.equity for c in answers[0].cells] == [c.equity for c in answers[1].cells]
    assert [c.std_error for c in answers[0].cells] == [c.std_error for c in answers[1].cells]


def test_sampled_odds_on_two_workers_equal_the_single_process_run(client: Any) -> None:
    ruleset = load("omaha")
    hands = ["AhAdKcQc", "random"]
    alone = odds(ruleset, hands, samples=150_000, seed=5)
    spread = odds(ruleset, hands, samples=150_000, seed=5, client=client)
    assert spread.as_dict() == alone.as_dict() and spread.method == "sampled"


def test_rank_many_over_a_chunked_dask_array(client: Any) -> None:
    import dask.array as da

    for name, k in (("holdem", 7), ("deuces-wild", 5), ("razz", 7)):
        ruleset = load(name)
        deck = len(ruleset.deck)
        rng = np.random.default_rng(8)
        ids = np.argsort(rng.random((6_000, deck)), axis=1)[:, :k]  # distinct cards in every row
        lazy = ruleset.rank_many(da.from_array(ids, chunks=(1_000, 3)))  # columns split too: rechunked
        assert type(lazy).__module__.startswith("dask")
        got = lazy.compute()
        assert got.dtype == np.int64 and got.shape == (6_000,)
        assert np.array_equal(got, ruleset.rank_many(ids))
        # and the tables agree with the generic evaluator on a few rows
        for row in ids[:5].tolist():
            cards = [ruleset.deck[i] for i in row]
            assert ruleset.rank(ruleset.encode(cards)) == got[ids.tolist().index(row)]


def test_the_cli_runs_on_a_local_cluster(capsys: pytest.CaptureFixture[str]) -> None:
    _dask_or_skip()
    argv = ["chart", "short-deck-holdem", "--samples", "500", "--seed", "6", "--csv"]
    assert main(argv) == 0
    alone = capsys.readouterr().out
    assert main([*argv, "--workers", "2"]) == 0
    assert capsys.readouterr().out == alone
    argv = ["odds", "holdem", "QQ+,AKs", "random", "--samples", "70000", "--seed", "6", "--json"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert main([*argv, "--workers", "2"]) == 0
    assert capsys.readouterr().out == first


def test_without_dask_a_clear_message(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for module in ("dask", "dask.distributed", "distributed"):
        monkeypatch.setitem(sys.modules, module, None)  # an import of it now fails
    with pytest.raises(DaskMissing, match=r'pip install "pokerrules\[dask\]"'), dask_client(workers=2):
        pass
    assert main(["chart", "holdem", "--samples", "10", "--workers", "2"]) == 2
    err = capsys.readouterr().err
    assert "Dask is not installed" in err and "pokerrules[dask]" in err and "Traceback" not in err
    assert main(["odds", "holdem", "AA", "random", "--samples", "10", "--scheduler", "tcp://127.0.0.1:1"]) == 2
    # without a cluster nothing needs Dask
    assert main(["chart", "holdem", "--samples", "10", "--seed", "1", "--json"]) == 0


def test_importing_the_package_does_not_import_dask() -> None:
    code = (
        "import sys, evaluator, evaluator.cli.main, evaluator.odds.chart, evaluator.odds.odds, evaluator.odds.cluster; "
        "from evaluator import load; load('holdem').chart(samples=10, seed=1); "
        "print(any(m == 'dask' or m.startswith(('dask.', 'distributed')) for m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "False"


def test_chunk_streams_are_fixed_by_seed_and_place() -> None:
    assert chunk_rng(5, 1, 2).integers(1 << 30) == chunk_rng(5, 1, 2).integers(1 << 30)
    draws = {int(chunk_rng(5, *key).integers(1 << 30)) for key in ((1, 2), (2, 1), (1, 3), (0,))}
    assert len(draws) == 4
