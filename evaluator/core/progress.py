"""Progress on stderr for work that takes longer than a second: the two kinds every command uses.

:class:`Progress` is for work in steps of unknown number (the files of
``check``): one line of text per report, so that it reads the same in a
terminal, a pipe and a CI log. :class:`Bar` is for work whose fraction done
is known. Nothing is printed for work that finishes
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
from collections.abc import Callable
from math import inf
from types import TracebackType
from typing import TextIO

from .safe_text import visible


class Progress:
    """Reports the current step on ``stream`` once it has run ``delay`` seconds, then every ``every`` seconds.

    A background timer does the reporting, so a single long step (one slow
    file) is reported while it runs, not after.
    """

    def __init__(self, label: str, stream: TextIO | None = None, delay: float = 1.0, every: float = 5.0) -> None:
        self.label = visible(label)  # it may name a file or a ruleset
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
    :meth:`finish` ends a bar that showed with the time the work took. Every
    long command uses this one bar (odds, chart, draw, stats, table builds).

    >>> import io
    >>> stream, now = io.StringIO(), [0.0]
    >>> bar = Bar("counting", stream, clock=lambda: now[0])
    >>> bar(0.5); stream.getvalue()  # not yet a second: nothing shown
    ''
    >>> now[0] = 2.0; bar(0.5); bar.finish(); print(stream.getvalue().strip())
    pokerrules: counting [###############---------------]  50%
    pokerrules: counting done in 2.0 s
    """

    def __init__(
        self, label: str, stream: TextIO | None = None, delay: float = 1.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.label = visible(label)  # it may name a file or a ruleset
        self.stream = stream or sys.stderr
        self.tty = _is_terminal(self.stream)
        self.clock = clock
        self.start = clock()
        self.delay = delay
        self.last = -inf
        self.drawn = -1.0  # the fraction last drawn, -1 when none is (the same one is never drawn twice)

    @property
    def shown(self) -> bool:
        """Whether the bar is on screen (drawn and not yet finished)."""
        return self.drawn >= 0

    def __call__(self, fraction: float) -> None:
        now = self.clock()
        if now - self.start < self.delay:
            return
        pause = 0.2 if self.tty else 2.0  # a log gets a line every two seconds, not a flood
        fraction = min(max(fraction, 0.0), 1.0)
        if (now - self.last < pause and fraction < 1.0) or fraction == self.drawn:
            return
        self.last, self.drawn = now, fraction
        done = int(30 * fraction)
        end = "" if self.tty else "\n"
        self.stream.write(f"\rpokerrules: {self.label} [{'#' * done}{'-' * (30 - done)}] {fraction:4.0%}{end}")
        self.stream.flush()

    def finish(self) -> None:
        """End a bar that showed with the time taken (nothing when it never showed)."""
        if not self.shown:
            return
        elapsed = self.clock() - self.start
        lead = "\r" if self.tty else ""
        self.stream.write(f"{lead}pokerrules: {self.label} done in {elapsed:.1f} s" + " " * 30 * self.tty + "\n")
        self.stream.flush()
        self.drawn = -1.0


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a closed or unusual stream: treated as a log
        return False
