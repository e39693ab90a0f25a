"""Work split into seeded chunks, run in one process or on a Dask cluster.

A big question (a starting-hand chart, a sampled range-vs-range equity, many
holdings to rank) is cut into *chunks* that depend only on the question: each
chunk carries its own index, and a sampled chunk draws from its own random
stream, ``SeedSequence(seed, spawn_key=(cell, index))``. The chunk results are
combined in chunk order, so the answer is the same bit for bit whether the
chunks run one after the other in this process or on any number of Dask
workers.

Dask is optional (``pip install "pokerrules[dask]"``) and imported only when a
client is asked for; without it the same chunks run here with a progress bar.
Workers receive a :class:`RulesetSpec` -- the ruleset's resolved document, a
few kilobytes -- once, and each builds the ruleset (and reads or compiles its
lookup tables) once.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

if TYPE_CHECKING:
    from ..rules.load import Document
    from ..rules.ruleset import Rules

T = TypeVar("T")
R = TypeVar("R")
Progress = Callable[[float], None]

INSTALL_HINT = 'install the Dask extra: pip install "pokerrules[dask]"'


class DaskMissing(ImportError):
    """Dask was asked for (a scheduler, workers, a Dask array) but is not installed."""


def _distributed() -> Any:
    """``dask.distributed``, imported on first use (never when ``evaluator`` is imported)."""
    try:
        import dask.distributed as distributed
    except ImportError as missing:
        raise DaskMissing(f"Dask is not installed ({missing.name or 'dask'} is missing): {INSTALL_HINT}") from None
    return distributed


@contextmanager
def dask_client(scheduler: str | None = None, workers: int | None = None) -> Iterator[Any]:
    """A ``dask.distributed.Client``: on an existing scheduler, or on a local cluster of
    ``workers`` single-threaded worker processes (closed on exit); None when neither is given.

    >>> with dask_client() as client:
    ...     client is None
    True
    """
    if scheduler is None and workers is None:
        yield None
        return
    distributed = _distributed()
    if scheduler is not None:
        with distributed.Client(scheduler) as client:
            yield client
        return
    if workers is None or workers < 1:
        raise ValueError("workers must be at least 1")
    # the dashboard on any free port: 8787 may be taken by another cluster
    with (
        worker_environment(),
        distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


def worker_environment() -> Any:
    """Dask's settings for starting worker processes, without ``MALLOC_TRIM_THRESHOLD_``.

    Dask starts workers with that variable set; it turns off glibc's adaptive
    mmap threshold, so every large NumPy temporary is mapped and unmapped again,
    which halves the speed of the deal engines (measured). Workers of a cluster
    started elsewhere should be started without it too (docs/chart.md).
    """
    import dask

    key = "distributed.nanny.pre-spawn-environ"
    found = dask.config.get(key, {}) or {}
    settings = {name: value for name, value in found.items() if name != "MALLOC_TRIM_THRESHOLD_"}
    return dask.config.set({key: settings})


def add_cluster_options(parser: argparse.ArgumentParser) -> None:
    """``--scheduler ADDRESS`` and ``--workers N``, for commands that can run on Dask."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--scheduler", metavar="ADDRESS", help="run the chunks on this dask.distributed scheduler (tcp://host:8786)"
    )
    group.add_argument("--workers", type=int, metavar="N", help="run the chunks on a local Dask cluster of N processes")


@dataclass
class RulesetSpec:
    """What a worker needs to rebuild a ruleset: its resolved document (picklable, small).

    The live ruleset travels only within this process; a worker builds its own
    once per document (see :func:`RulesetSpec.ruleset`).
    """

    name: str
    document: Document
    path: str | None
    digest: str
    live: Rules | None = None

    @classmethod
    def of(cls, ruleset: Rules) -> RulesetSpec:
        """The spec of a loaded ruleset."""
        text = json.dumps(ruleset.document.data, sort_keys=True, default=str)
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        path = str(ruleset.path) if ruleset.path is not None else None
        return cls(ruleset.name, ruleset.document, path, digest, ruleset)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["live"] = None  # a live ruleset holds compiled closures: rebuilt on the worker
        return state

    def ruleset(self) -> Rules:
        """The ruleset: the live one here, else built once per process from the document."""
        if self.live is not None:
            return self.live
        found = _BUILT.get(self.digest)
        if found is None:
            from ..rules.build import build_ruleset

            found = build_ruleset(self.document, Path(self.path) if self.path else None)
            _BUILT[self.digest] = found
        return found


_BUILT: dict[str, Rules] = {}


def chunk_rng(seed: int, *key: int) -> np.random.Generator:
    """The random stream of one chunk: independent of every other chunk's, and of who runs it.

    >>> bool(chunk_rng(7, 3, 1).integers(100) == chunk_rng(7, 3, 1).integers(100))
    True
    """
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))


def drawn_seed(seed: int | None) -> int:
    """``seed``, or a fresh one (reported with the answer so that it can be reproduced)."""
    if seed is not None:
        return int(seed)
    entropy = np.random.SeedSequence().entropy
    return int(entropy) % (1 << 32) if isinstance(entropy, int) else 0


def _call(task: Any, function: Callable[[RulesetSpec, Any], Any], spec: RulesetSpec) -> Any:
    return function(spec, task)


def run_chunks(
    function: Callable[[RulesetSpec, T], R],
    spec: RulesetSpec,
    tasks: Sequence[T],
    client: Any = None,
    progress: Progress | None = None,
    weights: Sequence[float] | None = None,
) -> list[R]:
    """``function(spec, task)`` for every task, results in task order.

    With a Dask ``client`` the spec is scattered to every worker once and the
    tasks are mapped over the cluster; without one they run here in order.
    ``progress`` receives the fraction done (by ``weights``, the work of each
    task, when given).
    """
    report = progress or (lambda fraction: None)
    cost = [float(w) for w in weights] if weights is not None else [1.0] * len(tasks)
    total = max(sum(cost), 1e-12)
    if client is None:
        results: list[R] = []
        done = 0.0
        for task, work in zip(tasks, cost, strict=True):
            results.append(function(spec, task))
            done += work
            report(min(done / total, 1.0))
        return results
    distributed = _distributed()
    shipped = client.scatter(spec, broadcast=True)
    futures = client.map(_call, list(tasks), function=function, spec=shipped, pure=False)
    index_of = {future.key: i for i, future in enumerate(futures)}
    done = 0.0
    for future in distributed.as_completed(futures):
        done += cost[index_of[future.key]]
        report(min(done / total, 1.0))
    gathered: list[R] = client.gather(futures)
    return gathered


def is_dask_array(value: Any) -> bool:
    """Whether ``value`` is a Dask array (checked without importing Dask)."""
    return type(value).__module__.startswith("dask.array") and hasattr(value, "map_blocks")


def _rank_block(block: np.ndarray, spec: RulesetSpec) -> np.ndarray:
    from ..compiled.fast import ruleset_ranker

    ranked: np.ndarray = ruleset_ranker(spec.ruleset()).rank_many(block)
    return ranked


def rank_many_dask(ruleset: Rules, array: Any) -> Any:
    """``Ruleset.rank_many`` over a Dask array of shape (n, k): a lazy int64 Dask array of shape (n,).

    Each block of rows is ranked by ``map_blocks`` on whichever worker holds
    it; the blocks carry the ruleset's document, and each worker builds the
    ruleset and reads (or compiles) its tables once.
    """
    _distributed()
    if getattr(array, "ndim", 0) != 2:
        raise ValueError(f"rank_many takes an array of shape (hands, cards); got {getattr(array, 'shape', None)}")
    whole_rows = array.rechunk({1: -1})
    return whole_rows.map_blocks(
        _rank_block, RulesetSpec.of(ruleset), dtype=np.int64, drop_axis=1, chunks=(whole_rows.chunks[0],)
    )
