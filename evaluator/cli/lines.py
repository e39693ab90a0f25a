"""Lines of hands read from a stream (``eval -``, ``showdown --from``), each of bounded length.

A stream may never end a line (``/dev/zero``, a generator piped in): iterating
over it would hold the whole "line" in memory before looking at it. Lines are
read here in pieces of at most :data:`MAX_LINE_CHARS` characters, so memory
stays bounded, and a longer line is refused (``Y128``) with its number.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import TextIO

from ..core.errors import Diagnostic, LoadError, PokerRulesError

#: The longest input line read, in characters (a hand is at most 4,000 characters
#: of card text; a showdown line holds a few hands and boards).
MAX_LINE_CHARS = 64 * 1024


def bounded_lines(stream: TextIO, source: str) -> Iterator[tuple[int, str]]:
    """(1-based line number, line with its end) of every line of ``stream``.

    >>> import io
    >>> list(bounded_lines(io.StringIO("As Ks\\n\\n2c"), "<stdin>"))
    [(1, 'As Ks\\n'), (2, '\\n'), (3, '2c')]

    Raises:
        LoadError: ``Y128`` at ``source:N:1`` when line N is longer than
            :data:`MAX_LINE_CHARS` (read no further than that).
    """
    number = 0
    while True:
        line = stream.readline(MAX_LINE_CHARS + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE_CHARS and not line.endswith("\n"):
            raise line_too_long(number, source)
        yield number, line


def line_too_long(number: int, source: str) -> LoadError:
    """The ``Y128`` error of line ``number`` of ``source``, longer than :data:`MAX_LINE_CHARS`."""
    return LoadError(
        Diagnostic(
            "Y128",
            f"line {number:,} is longer than {MAX_LINE_CHARS:,} characters; it is not read",
            source,
            number,
            1,
            "error",
            "give one hand (or one showdown) per line",
        )
    )


def at_input_line(problem: PokerRulesError, source: str, number: int) -> PokerRulesError:
    """``problem``, met reading line ``number`` of ``source``, placed at that line (where in the
    line it was is kept in the message: ``... (in <hand 2>)``)."""
    first = problem.first
    return PokerRulesError(
        replace(first, message=f"{first.message} (in {first.source})", source=source, line=number, col=1, context=None)
    )
