"""Progress on stderr for work that takes longer than a second, and Ctrl-C during it.

:class:`Progress` is for work in steps of unknown number (the files of
``check``): one line of text per report, so that it reads the same in a
terminal, a pipe and a CI log. :class:`Bar` is for work whose fraction done
is known. Nothing is printed for work that finishes
within the first second. The line names what is being done (a file name, a
ruleset), escaped like every other string that came from a file.

:class:`Interrupts` makes Ctrl-C end long work once and cleanly: the first
one stops the work (``KeyboardInterrupt``), every later one is ignored so
that the clean-up (a local cluster torn down) runs to its end, and a part
that must not be cut in the middle (starting a cluster) takes the interrupt
when it is done.

>>> import io
>>> stream = io.StringIO()
>>> with Progress("pokerrules check", stream, delay=0.0, every=60.0) as progress:
...     progress.step("r.yaml")
>>> stream.getvalue()
'pokerrules check: r.yaml ...\\n'
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from math import inf
from types import FrameType, TracebackType
from typing import Any, TextIO

from .safe_text import visible

#: Seconds between two progress lines in a log (not a terminal).
LOG_PAUSE = 30.0


class Progress:
    """Reports the current step on ``stream`` once it has run ``delay`` seconds, then every ``every`` seconds
    (by default 5 on a terminal, 30 in a log).

    A background timer does the reporting, so a single long step (one slow
    file) is reported while it runs, not after.
    """

    def __init__(
        self, label: str, stream: TextIO | None = None, delay: float = 1.0, every: float | None = None
    ) -> None:
        self.label = visible(label)  # it may name a file or a ruleset
        self.stream = sys.stderr if stream is None else stream
        self.delay = delay
        # ``every`` by default: 5 s on a terminal, LOG_PAUSE in a log (a long file is not reported 18 times)
        self.every = every if every is not None else 5.0 if _is_terminal(self.stream) else LOG_PAUSE
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
    plain line when it first shows, then at most one every 30 seconds, and the
    end line, so a log reads start, a few steps, done.
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
        pause = 0.2 if self.tty else LOG_PAUSE  # a log gets a line now and then, not a flood
        fraction = min(max(fraction, 0.0), 1.0)
        if (now - self.last < pause and fraction < 1.0) or fraction == self.drawn:
            return
        self.last, self.drawn = now, fraction
        done = int(30 * fraction)
        lead, end = ("\r", "") if self.tty else ("", "\n")  # a log keeps no carriage return
        self.stream.write(f"{lead}pokerrules: {self.label} [{'#' * done}{'-' * (30 - done)}] {fraction:4.0%}{end}")
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

    def abandon(self) -> None:
        """End a bar whose work stopped short (an error, Ctrl-C): the line it was redrawing is
        ended, so the message that follows starts a line of its own; nothing is claimed done.

        >>> import io
        >>> stream, now = io.StringIO(), [0.0]
        >>> bar = Bar("counting", stream, clock=lambda: now[0])
        >>> now[0] = 2.0; bar(0.25); bar.abandon(); stream.getvalue().endswith("25%\\n")
        True
        """
        if not self.shown:
            return
        try:
            if self.tty:
                self.stream.write("\n")
                self.stream.flush()
        except (OSError, ValueError):  # a closed stderr: nothing more to say there
            pass
        self.drawn = -1.0

    @contextmanager
    def running(self) -> Iterator[Bar]:
        """The bar for the work of a ``with`` block: finished when it ends, abandoned when it raises."""
        try:
            yield self
        except BaseException:
            self.abandon()
            raise
        self.finish()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a closed or unusual stream: treated as a log
        return False


class Interrupts:
    """Ctrl-C (SIGINT) during a command: the first stops the work, the rest are ignored.

    Used as a context manager around a command's work in the main thread. The
    first SIGINT raises ``KeyboardInterrupt`` where the work is (the caller
    exits 130 with one message) and from then on SIGINT is ignored, so that a
    second Ctrl-C cannot cut the clean-up short: the process is on its way
    out. Without an interrupt, the handler found on entry is put back on exit.
    Inside :meth:`deferred` an interrupt is only noted, and raised when the
    block ends (a cluster is never left half started). Outside the main thread
    (where signals cannot be handled) it does nothing.
    """

    def __init__(self) -> None:
        self.previous: Any = None
        self.installed = False
        self.deferring = 0
        self.pending = False
        self.interrupted = False

    def __enter__(self) -> Interrupts:
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, self._on_signal)
            self.installed = True
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, trace: TracebackType | None
    ) -> None:
        if not self.installed:
            return
        if kind is not None and issubclass(kind, KeyboardInterrupt):
            self._stop_listening()  # however it came: the clean-up and the exit go on undisturbed
            return
        if not self.interrupted:
            signal.signal(signal.SIGINT, self.previous)

    def _stop_listening(self) -> None:
        self.interrupted = True
        if self.installed:
            signal.signal(signal.SIGINT, signal.SIG_IGN)

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        if self.deferring:
            self.pending = True
            return
        self._stop_listening()
        raise KeyboardInterrupt

    @contextmanager
    def deferred(self) -> Iterator[None]:
        """A block that an interrupt must not cut: a Ctrl-C during it is raised when it ends."""
        self.deferring += 1
        try:
            yield
        finally:
            self.deferring -= 1
        if self.pending and not self.deferring:
            self._stop_listening()
            raise KeyboardInterrupt
