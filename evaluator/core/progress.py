"""Plain progress lines on stderr for work that takes longer than a second.

Not a bar: one line of text per report, so that it reads the same in a
terminal, a pipe and a CI log. Nothing is printed for work that finishes
within the first second. The line names what is being done (a file name, a
ruleset), escaped like every other string that came from a file.

>>> import io
>>> stream = io.StringIO()
>>> with Progress("pokerrules check", stream, delay=0.0, every=60.0) as progress:
...     progress.step("r.yaml")
>>> stream.getvalue()
'pokerrules check: r.yaml ...\\n'
"""

from __future__ import annotations

import sys
import threading
import time
from types import TracebackType
from typing import TextIO

from .safe_text import visible


class Progress:
    """Reports the current step on ``stream`` once it has run ``delay`` seconds, then every ``every`` seconds.

    A background timer does the reporting, so a single long step (one slow
    file) is reported while it runs, not after.
    """

    def __init__(self, label: str, stream: TextIO | None = None, delay: float = 1.0, every: float = 5.0) -> None:
        self.label = label
        self.stream = sys.stderr if stream is None else stream
        self.delay = delay
        self.every = every
        self.current: str | None = None
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.thread: threading.Thread | None = None

    def __enter__(self) -> Progress:
        self.thread = threading.Thread(target=self._run, name="pokerrules-progress", daemon=True)
        self.thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.stopped.set()
        if self.thread is not None:
            self.thread.join(timeout=1.0)

    def step(self, what: str) -> None:
        """Say what is being done now (reported only if it is still going after the delay)."""
        with self.lock:
            self.current = what
        if self.delay <= 0:
            self._report()

    def _report(self) -> None:
        with self.lock:
            what = self.current
        if what is None:
            return
        try:
            self.stream.write(f"{self.label}: {visible(what)} ...\n")
            self.stream.flush()
        except (OSError, ValueError):  # a closed or broken stderr must not stop the work
            self.stopped.set()

    def _run(self) -> None:
        if self.delay > 0 and self.stopped.wait(self.delay):
            return
        if self.delay > 0:
            self._report()
        while not self.stopped.wait(self.every):
            self._report()


class Bar:
    """A progress bar for work whose fraction done is known, on stderr once it takes over a second.

    On a terminal it redraws one line; elsewhere (a pipe, a CI log) it writes a
    plain line every two seconds, so a log is never flooded with redraws.
    """

    def __init__(self, label: str, stream: TextIO | None = None, delay: float = 1.0) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.start = time.monotonic()
        self.delay = delay
        self.shown = False
        self.last = 0.0

    def __call__(self, fraction: float) -> None:
        now = time.monotonic()
        pause = 0.2 if self.stream.isatty() else 2.0  # a log gets a line every two seconds, not a flood
        if now - self.start < self.delay or (now - self.last < pause and fraction < 1.0):
            return
        self.last = now
        done = int(30 * min(max(fraction, 0.0), 1.0))
        end = "" if self.stream.isatty() else "\n"
        self.stream.write(f"\rpokerrules: {self.label} [{'#' * done}{'-' * (30 - done)}] {fraction:4.0%}{end}")
        self.stream.flush()
        self.shown = True

    def finish(self) -> None:
        """Close the bar line (nothing when it never showed)."""
        if self.shown and self.stream.isatty():
            self.stream.write("\n")
            self.stream.flush()
