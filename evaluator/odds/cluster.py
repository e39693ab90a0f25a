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

**Bounded.** Chunks are made as they are needed and folded in order as they
finish, with a few in flight per worker, so memory does not grow with the
work; work past :data:`MAX_WORK` rank lookups is refused up front with its
estimate (O122), a local cluster has at most :func:`max_local_workers`
processes (O121), and a seed is a whole number from 0 to 2^64 - 1 (O118).
A scheduler is reached through :mod:`evaluator.odds.scheduler`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..core.errors import error
from .scheduler import WorkError, connect_timeout, probe, read_address

if TYPE_CHECKING:
    import numpy as np

    from ..rules.load import Document
    from ..rules.ruleset import Rules

T = TypeVar("T")
R = TypeVar("R")
Progress = Callable[[float], None]

INSTALL_HINT = 'install the Dask extra: pip install "pokerrules[dask]"'
#: Seeds are whole numbers from 0 to this (numpy's SeedSequence takes any; JSON readers do not).
MAX_SEED = (1 << 64) - 1
#: Work past this many rank lookups is refused before it starts (hours on one core at the slowest rates).
MAX_WORK = 10**11
#: Tasks in flight on a cluster per worker: enough to keep each busy, few enough to hold in memory.
TASKS_PER_WORKER = 4


class DaskMissing(ImportError):
    """Dask was asked for (a scheduler, workers, a Dask array) but is not installed."""


def _distributed() -> Any:
    """``dask.distributed``, imported on first use (never when ``evaluator`` is imported)."""
    try:
        import dask.distributed as distributed
    except ImportError as missing:
        raise DaskMissing(f"Dask is not installed ({missing.name or 'dask'} is missing): {INSTALL_HINT}") from None
    return distributed


def max_local_workers() -> int:
    """The most worker processes a local cluster may have: twice the cores this process may use, at least 4.

    Workers are single-threaded: more of them than cores only share the cores
    (and each holds its own tables in memory).
    """
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        cores = os.cpu_count() or 1
    return max(4, 2 * cores)


def check_workers(workers: int) -> None:
    """Refuse (O121) a local cluster of fewer than 1 or more than :func:`max_local_workers` processes."""
    bound = max_local_workers()
    if not 1 <= workers <= bound:
        raise error(
            WorkError,
            "O121",
            f"{workers} workers; a local cluster takes 1 to {bound} here (twice the usable cores, at least 4)",
            "<workers>",
            hint="for more, start a cluster of your own and give its --scheduler",
        )


def check_work(lookups: float, what: str, source: str, hint: str) -> None:
    """Refuse (O122) work estimated past :data:`MAX_WORK` rank lookups, before it starts.

    >>> check_work(1e9, "this", "<odds>", "")
    """
    if lookups > MAX_WORK:
        raise error(
            WorkError,
            "O122",
            f"{what} needs about {lookups:.3g} rank lookups; the bound is {MAX_WORK:.0e}",
            source,
            hint=hint,
        )


@contextmanager
def dask_client(
    scheduler: str | None = None, workers: int | None = None, timeout: float | None = None
) -> Iterator[Any]:
    """A ``dask.distributed.Client``: on an existing scheduler, or on a local cluster of
    ``workers`` single-threaded worker processes (closed on exit); None when neither is given.

    A scheduler's address is read and its handshake checked within ``timeout``
    seconds (:func:`evaluator.odds.scheduler.connect_timeout`) before Dask
    connects: O119 an address that is not one, O120 no Dask scheduler there.
    A local cluster's size is bounded (O121). Its workers ignore Ctrl-C: this
    process takes it and closes them.

    >>> with dask_client() as client:
    ...     client is None
    True
    """
    if scheduler is None and workers is None:
        yield None
        return
    if scheduler is not None:
        address = read_address(scheduler)
        seconds = connect_timeout(timeout)
        distributed = _distributed()
        with _connected(distributed, address, seconds) as client:
            yield client
        return
    assert workers is not None
    check_workers(workers)
    distributed = _distributed()
    with ExitStack() as stack:
        stack.enter_context(worker_environment())
        _start_forkserver_without_interrupts()
        # the dashboard on any free port: 8787 may be taken by another cluster
        cluster = stack.enter_context(
            distributed.LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                # workers stopped mid-task, or closing after the scheduler, log what is no news to the user
                silence_logs=logging.CRITICAL,
            )
        )
        yield stack.enter_context(distributed.Client(cluster))


@contextmanager
def _connected(distributed: Any, address: Any, seconds: float) -> Iterator[Any]:
    """A client of the scheduler at ``address``, its handshake checked first (O120 when it fails)."""
    import asyncio

    import dask

    security = distributed.Security()
    tls = security.get_connection_args("client").get("ssl_context") if address.scheme == "tls" else None
    probe(address, seconds, tls)
    try:
        with dask.config.set({"distributed.comm.timeouts.connect": f"{seconds}s"}):
            client = distributed.Client(str(address), timeout=seconds, security=security)
    except (OSError, asyncio.TimeoutError, TimeoutError, ValueError, MemoryError) as problem:
        raise error(WorkError, "O120", f"no Dask scheduler at {address}: {problem}", "<scheduler>") from None
    with client:
        yield client


def _start_forkserver_without_interrupts() -> None:
    """Start the process that forks Dask's workers with SIGINT ignored, so that every worker
    ignores it: a Ctrl-C at the terminal reaches the whole process group, and only this
    process should take it (and close the workers). Only the start is unguarded, a few milliseconds.
    """
    if threading.current_thread() is not threading.main_thread():
        return
    from multiprocessing import forkserver

    from distributed.utils import get_mp_context

    get_mp_context()  # type: ignore[no-untyped-call]  # sets the modules the fork server loads once
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)


def worker_environment() -> Any:
    """Dask's settings for starting worker processes: forked from a fork server (see
    :func:`dask_client`), without ``MALLOC_TRIM_THRESHOLD_``.

    Dask starts workers with that variable set; it turns off glibc's adaptive
    mmap threshold, so every large NumPy temporary is mapped and unmapped again,
    which halves the speed of the deal engines (measured). Workers of a cluster
    started elsewhere should be started without it too (docs/chart.md).
    """
    import dask

    key = "distributed.nanny.pre-spawn-environ"
    found = dask.config.get(key, {}) or {}
    settings = {name: value for name, value in found.items() if name != "MALLOC_TRIM_THRESHOLD_"}
    return dask.config.set({key: settings, "distributed.worker.multiprocessing-method": "forkserver"})


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
    import numpy as np  # here, not at the top: every command's parser imports this module

    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))


def check_seed(seed: int) -> int:
    """``seed`` when it is a whole number from 0 to :data:`MAX_SEED`, else O118.

    >>> check_seed(7)
    7
    """
    import numpy as np

    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) <= MAX_SEED:
        shown = str(seed) if len(str(seed)) <= 40 else str(seed)[:37] + "..."
        raise error(WorkError, "O118", f"the seed {shown} is not a whole number from 0 to 2^64 - 1", "<seed>")
    return int(seed)


def drawn_seed(seed: int | None) -> int:
    """``seed`` (checked, O118), or a fresh one (reported with the answer so that it can be reproduced)."""
    if seed is not None:
        return check_seed(seed)
    import numpy as np

    entropy = np.random.SeedSequence().entropy
    return int(entropy) % (1 << 32) if isinstance(entropy, int) else 0


def _call(task: Any, function: Callable[[RulesetSpec, Any], Any], spec: RulesetSpec) -> Any:
    return function(spec, task)


def cluster_workers(client: Any) -> int:
    """How many workers a Dask ``client``'s cluster has (1 without a client, or when it cannot say)."""
    if client is None:
        return 1
    try:
        return len(client.scheduler_info().get("workers", {})) or 1
    except (AttributeError, OSError):
        return 1


def fold_chunks(
    function: Callable[[RulesetSpec, T], R],
    spec: RulesetSpec,
    tasks: Iterable[T],
    fold: Callable[[T, R], None],
    client: Any = None,
    progress: Progress | None = None,
    total: float = 1.0,
    work: Callable[[T], float] | None = None,
) -> None:
    """``fold(task, function(spec, task))`` for every task, in task order, holding only a few at a time.

    ``tasks`` may be a generator: a run of millions of chunks never lists
    them. Here they run one after the other; on a Dask ``client`` the spec is
    scattered to every worker once and at most :data:`TASKS_PER_WORKER` tasks
    per worker are in flight, their results folded in task order as they
    arrive (so the answer is the same bit for bit). ``progress`` receives the
    fraction done: the ``work`` of the tasks folded (1 each by default) over
    ``total``.
    """
    report = progress or (lambda fraction: None)
    cost = work or (lambda task: 1.0)
    whole = max(float(total), 1e-12)
    done = 0.0
    if client is None:
        for task in tasks:
            fold(task, function(spec, task))
            done += cost(task)
            report(min(done / whole, 1.0))
        return
    distributed = _distributed()
    # a key of its own (hash=False): the same spec scattered by the run before may be being released
    shipped = client.scatter(spec, broadcast=True, hash=False)
    window = TASKS_PER_WORKER * max(cluster_workers(client), 2)
    queue = distributed.as_completed()
    waiting: dict[Any, tuple[int, T]] = {}
    ready: dict[int, tuple[T, R]] = {}
    todo = iter(enumerate(tasks))
    folded = 0

    def submit() -> None:
        while len(waiting) + len(ready) < window:
            item = next(todo, None)
            if item is None:
                return
            future = client.submit(_call, item[1], function=function, spec=shipped, pure=False)
            waiting[future.key] = item
            queue.add(future)

    submit()
    for future in queue:
        index, task = waiting.pop(future.key)
        ready[index] = (task, future.result())
        future.release()
        while folded in ready:  # in task order: the sums are added as on one process
            task, result = ready.pop(folded)
            fold(task, result)
            folded += 1
            done += cost(task)
            report(min(done / whole, 1.0))
        submit()


def run_chunks(
    function: Callable[[RulesetSpec, T], R],
    spec: RulesetSpec,
    tasks: Sequence[T],
    client: Any = None,
    progress: Progress | None = None,
    weights: Sequence[float] | None = None,
) -> list[R]:
    """``function(spec, task)`` for every task, results in task order (:func:`fold_chunks` into a list).

    ``progress`` receives the fraction done (by ``weights``, the work of each
    task, when given).
    """
    results: list[R] = []
    cost = [float(w) for w in weights] if weights is not None else [1.0] * len(tasks)
    in_order = iter(cost)  # the work of each task, asked for once per task in task order

    def keep(task: T, result: R) -> None:
        results.append(result)

    fold_chunks(function, spec, tasks, keep, client, progress, total=sum(cost), work=lambda task: next(in_order))
    return results


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
    import numpy as np

    _distributed()
    if getattr(array, "ndim", 0) != 2:
        raise ValueError(f"rank_many takes an array of shape (hands, cards); got {getattr(array, 'shape', None)}")
    whole_rows = array.rechunk({1: -1})
    return whole_rows.map_blocks(
        _rank_block, RulesetSpec.of(ruleset), dtype=np.int64, drop_axis=1, chunks=(whole_rows.chunks[0],)
    )
