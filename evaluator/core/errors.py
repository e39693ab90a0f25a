"""One error family for everything a user can get wrong.

Every error carries a stable code, where it happened (a file path, ``<cards>``
or ``<pattern>``, with a 1-based line and column) and a message. Callers catch
:class:`PokerRulesError` only; the CLI prints ``str(error)`` and exits non-zero,
so no traceback ever reaches a user. Diagnostics that are collected rather than
raised (``pokerrules check``) use the same :class:`Diagnostic` record.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from .safe_text import neutral, shown_path, visible, visible_lines


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem found in a file, with its position.

    >>> str(Diagnostic("R101", "unknown category 'pear'", "a.yaml", 3, 9))
    "a.yaml:3:9: error R101: unknown category 'pear'"
    """

    code: str
    message: str
    source: str = "<input>"
    line: int = 1
    col: int = 1
    severity: str = "error"
    hint: str | None = None
    context: str | None = None  # the offending text with a caret line under it

    def __str__(self) -> str:
        # Every field may hold text from a file or a hand: escaped, so that a
        # message can neither start a line of its own nor drive the terminal.
        text = f"{shown_path(self.source)}:{self.line}:{self.col}: {self.severity} {self.code}: {visible(self.message)}"
        if self.context:
            text += "\n" + visible_lines(self.context)
        if self.hint:
            text += f"\n  hint: {visible(self.hint)}"
        return text

    def as_dict(self) -> dict[str, object]:
        """The diagnostic as JSON-ready data (``--format json``)."""
        return {
            "path": self.source,
            "line": self.line,
            "col": self.col,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
        }


class PokerRulesError(Exception):
    """Base of every error a user can cause; carries one or more diagnostics."""

    def __init__(self, diagnostics: Diagnostic | list[Diagnostic]) -> None:
        self.diagnostics: list[Diagnostic] = [diagnostics] if isinstance(diagnostics, Diagnostic) else list(diagnostics)
        super().__init__(str(self))

    @property
    def first(self) -> Diagnostic:
        """The first (usually the only) diagnostic."""
        return self.diagnostics[0]

    @property
    def code(self) -> str:
        """The stable code of the first diagnostic, e.g. ``C101``."""
        return self.first.code

    def __str__(self) -> str:
        return "\n".join(str(d) for d in self.diagnostics)


class CardError(PokerRulesError):
    """A card string that cannot be read, or a card the deck does not hold."""


class LoadError(PokerRulesError):
    """A ruleset file that cannot be read, parsed or resolved (``extends``)."""


class SchemaError(PokerRulesError):
    """A ruleset that does not follow the JSON Schema."""


class PatternError(PokerRulesError):
    """A pattern that cannot be parsed, or that means nothing in its ruleset."""


class RulesetError(PokerRulesError):
    """A ruleset that is well-formed but inconsistent (unknown category, ...)."""


class GameError(PokerRulesError):
    """Cards that do not fit the game: wrong counts, duplicates across players."""


class UsageError(Exception):
    """Bad usage the argument parser cannot see (exit 2), e.g. two options that exclude each other.

    >>> str(UsageError("pokerrules stats: choose one of --json and --csv"))
    'pokerrules stats: choose one of --json and --csv'
    """

    def __init__(self, message: str, usage: str = "") -> None:
        super().__init__(message)
        self.usage = usage  # the command's usage line, shown before the message in text mode


#: Set (to anything but "" or "0") to let an internal error -- an exception that is not a
#: PokerRulesError -- propagate with its traceback instead of the one-line report of the
#: command line (exit 70) or check's R199 diagnostic. The test suite sets it, so that those
#: guards hide nothing there.
RAISE_INTERNAL_ENV = "POKERRULES_RAISE_INTERNAL"


def raise_internal() -> bool:
    """Whether internal errors propagate (``$POKERRULES_RAISE_INTERNAL``) instead of being reported."""
    return os.environ.get(RAISE_INTERNAL_ENV, "") not in ("", "0")


def error(
    cls: type[PokerRulesError],
    code: str,
    message: str,
    source: str = "<input>",
    line: int = 1,
    col: int = 1,
    hint: str | None = None,
    context: str | None = None,
) -> PokerRulesError:
    """Build an error of class ``cls`` holding a single diagnostic."""
    return cls(Diagnostic(code, message, source, line, col, "error", hint, context))


def caret(text: str, col: int) -> str:
    """Show ``text`` with a caret under 1-based column ``col``.

    >>> print(caret("XX YY ZZZZZZ", 7))
        XX YY ZZZZZZ
              ^
    >>> print(caret("::error ##[x] y", 15))
        :\\x3aerror ##\\x5bx] y
                            ^
    """
    # Control and other invisible characters (an escape sequence, a bidi override)
    # must not reach a terminal: each shows as one replacement mark, so the caret
    # still points at the right column. A tab shows as an arrow: it is often the problem.
    shown = "".join(char if char.isprintable() else "\u2192" if char == "\t" else "\ufffd" for char in text)
    # A workflow command in the line is neutralised; the caret moves with the escapes
    # written before it (neutral() only ever rewrites the last character of a command).
    width = len(neutral(shown[: col - 1]))
    return f"    {neutral(shown)}\n    {' ' * width}^"
