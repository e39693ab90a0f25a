"""Python's cycle collector held off during a bulk walk.

A walk over every class of a ruleset (``compiled/suitvalues.py``) makes millions
of short-lived objects and keeps its growing results in long lists; the
collector, triggered by the allocations, traverses those lists again and again
(about a quarter of the walk's time) and finds nothing: the walk makes no
reference cycles that outlive a class. Reference counting still frees every
object as soon as it is dropped.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Hold the cycle collector off for the block (nested uses are fine); the state it had is
    restored afterwards, and a collection then frees whatever cycles the block left.

    >>> import gc
    >>> with collector_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
            gc.collect(1)  # the young generations: the block's own leftovers, cheaply
