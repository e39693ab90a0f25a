"""The heavy passes, in a process of their own: the full check, example hands and frequencies.

Typing never waits for them. The server hands a :class:`Job` (the file, the
editor's buffers, the roots) to one worker process, which runs the full
``check`` (coverage, reachability, examples; lookup tables when an example
needs them), then a real hand of each category and the exact frequency
tables, sending each result as soon as it is known. A job superseded while it
runs (the file changed again) is cancelled by ending the process: Python
cannot interrupt a table build or a coverage pass any other way, and the next
job starts a fresh one.

The worker's standard output is pointed at its standard error before anything
runs: the server's standard output is the editor's channel.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
from collections.abc import Callable
from dataclasses import astuple, dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from ..core.errors import Diagnostic, PokerRulesError

__all__ = ["Background", "Job", "run_job"]

# A heavy pass that runs longer than this is stopped (the check's own work limits
# keep a pass to about a minute on the largest catalogue ruleset).
MAX_JOB_SECONDS = 600.0

Message = tuple[Any, ...]


@dataclass(frozen=True)
class Job:
    """One heavy pass: check ``path`` (with the editor's ``buffers``) within ``roots``."""

    key: str  # the document it is for (its URI): a newer job for the same key replaces it
    number: int
    path: str
    buffers: dict[str, str] = field(default_factory=dict)
    roots: tuple[str, ...] = ()


def stats_cards(ruleset: Any) -> list[int]:
    """The deal sizes whose frequency tables the hover shows: the ruleset's own, and seven for five-card hands."""
    from ..tools.stats import default_cards

    sizes = [default_cards(ruleset)]
    deck = len(ruleset.rank_symbols) * len(ruleset.suits) * ruleset.copies + ruleset.jokers
    if ruleset.hand_size == 5 and 7 not in sizes and deck >= 7:
        sizes.append(7)
    return sizes


def run_job(job: Job, send: Callable[[Message], None]) -> None:
    """Run one job, sending ``("diagnostics", n, [...])``, ``("examples", n, {...})``,
    ``("stats", n, cards, {category: (count, deals)})`` and ``("done", n)``."""
    from ..rules.yaml_read import editor_buffers
    from ..tools.check import examine_file
    from ..tools.lint_coverage import category_examples
    from ..tools.stats import stats_table

    with editor_buffers(job.buffers):
        examined = examine_file(Path(job.path), job.roots)
        send(("diagnostics", job.number, [astuple(d) for d in examined.diagnostics]))
        ruleset = examined.ruleset
        if ruleset is None or any(d.severity == "error" for d in examined.diagnostics):
            send(("done", job.number))
            return
        with contextlib.suppress(PokerRulesError):
            send(("examples", job.number, category_examples(ruleset, job.path)))
        for cards in stats_cards(ruleset):
            try:
                table = stats_table(ruleset, cards)
            except PokerRulesError:
                continue
            send(("stats", job.number, cards, {row.category: (row.count, row.deals) for row in table.rows}))
    send(("done", job.number))


def diagnostics_of(rows: list[tuple[Any, ...]]) -> list[Diagnostic]:
    """The diagnostics a worker sent (as tuples, which any Python pickles)."""
    return [Diagnostic(*row) for row in rows]


def _serve(connection: Connection) -> None:
    """The worker process: run jobs until the pipe closes."""
    os.dup2(2, 1)  # nothing may reach the editor's channel
    while True:
        try:
            job = connection.recv()
        except (EOFError, OSError):
            return
        try:
            run_job(job, connection.send)
        except Exception as bug:  # noqa: BLE001 - reported to the server, which logs it
            connection.send(("error", job.number, f"{type(bug).__name__}: {bug}"[:500]))
            connection.send(("done", job.number))


class Background:
    """One worker process and its queue: at most one heavy pass runs at a time.

    ``on_message`` is called from a reader thread with each message (and
    ``("died", n)`` when the process ends in the middle of job ``n``).
    """

    def __init__(self, on_message: Callable[[Message], None]) -> None:
        self.on_message = on_message
        self.lock = threading.Lock()
        self.queue: dict[str, Job] = {}
        self.running: Job | None = None
        self.process: Any = None
        self.connection: Connection | None = None
        self.closed = False
        methods = multiprocessing.get_all_start_methods()
        # a fresh interpreter, never a fork of the server (it has threads)
        self.context: Any = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        if "forkserver" in methods:
            self.context.set_forkserver_preload(["evaluator.lsp.worker", "evaluator.tools.check"])
        self.timer: threading.Timer | None = None

    def submit(self, job: Job) -> None:
        """Run ``job`` when the worker is free; a running or waiting job for the same key is dropped."""
        with self.lock:
            if self.closed:
                return
            self.queue[job.key] = job
            if self.running is not None and self.running.key == job.key:
                self._stop()  # superseded: the process is ended, a new one takes the queue
            self._next()

    def cancel(self, key: str) -> None:
        """Forget the jobs for ``key`` (its document was closed)."""
        with self.lock:
            self.queue.pop(key, None)
            if self.running is not None and self.running.key == key:
                self._stop()
                self._next()

    def close(self) -> None:
        """End the worker process (the server is shutting down)."""
        with self.lock:
            self.closed = True
            self.queue.clear()
            self._stop()

    # --- under the lock ---------------------------------------------------------

    def _start(self) -> None:
        parent, child = self.context.Pipe()
        self.process = self.context.Process(target=_serve, args=(child,), daemon=True, name="pokerrules-lsp-worker")
        self.process.start()
        child.close()
        self.connection = parent
        threading.Thread(target=self._read, args=(parent, self.process), daemon=True).start()

    def _stop(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        process, connection = self.process, self.connection
        self.process, self.connection, self.running = None, None, None
        if connection is not None:
            connection.close()
        if process is not None and process.is_alive():
            process.terminate()
            process.join(2)
            if process.is_alive():
                process.kill()
                process.join(2)

    def _next(self) -> None:
        if self.running is not None or not self.queue:
            return
        key = next(iter(self.queue))
        job = self.queue.pop(key)
        if self.process is None or not self.process.is_alive():
            self._start()
        assert self.connection is not None
        self.running = job
        try:
            self.connection.send(job)
        except (OSError, ValueError):
            self._stop()
            return
        self.timer = threading.Timer(MAX_JOB_SECONDS, self._overrun, args=(job.number,))
        self.timer.daemon = True
        self.timer.start()

    # --- the reader thread ------------------------------------------------------

    def _overrun(self, number: int) -> None:
        with self.lock:
            if self.running is not None and self.running.number == number:
                self._stop()
                self._next()
        self.on_message(("died", number))

    def _read(self, connection: Connection, process: Any) -> None:
        while True:
            try:
                message = connection.recv()
            except (EOFError, OSError):
                break
            self.on_message(message)
            if message[0] == "done":
                with self.lock:
                    if self.running is not None and self.running.number == message[1]:
                        self.running = None
                        if self.timer is not None:
                            self.timer.cancel()
                            self.timer = None
                        self._next()
        with self.lock:
            running = self.running if self.process is process else None
            if running is not None:  # the process ended under a job it was running
                self.running = None
                self.process, self.connection = None, None
                self._next()
        if running is not None:
            self.on_message(("died", running.number))
