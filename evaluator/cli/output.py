"""The command line's output conventions, in one place.

* ``--json`` prints **one indented JSON document** per command. The commands
  that read many inputs and answer each one as it comes -- ``eval`` with more
  than one hand (or ``-``), ``showdown --from`` -- print **JSON Lines**
  instead: one compact object per line, so that a consumer can stream them.
* Indices are **0-based** everywhere (seats, winners, boards), as in Python.
* Errors: text ``path:line:col: error CODE: message`` on stderr; with
  ``--json``, one JSON object per line on stderr,
  ``{"error": {"code", "message", "path", "line", "col", "hint"}}``. The
  code is a registered diagnostic code (``docs/codes.md``), or ``usage`` for
  bad usage (exit 2), or ``io`` for an operating-system error that is not
  about reading an input file, or ``internal`` for a bug in pokerrules
  (exit 70: any exception that is not a ``PokerRulesError``).

The schema of every command's output is in ``docs/json/``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core.errors import RAISE_INTERNAL_ENV as RAISE_INTERNAL_ENV  # the CLI modules and tests import it from here
from ..core.errors import Diagnostic, PokerRulesError
from ..core.errors import UsageError as UsageError  # the CLI modules import it from here
from ..core.safe_text import json_dumps, visible

EXIT_OK, EXIT_PROBLEM, EXIT_USAGE = 0, 1, 2
#: The exit status of a process whose output pipe was closed (128 + SIGPIPE), as ``yes | head -1`` gives.
EXIT_BROKEN_PIPE = 141
#: The exit status of an internal error: a bug in pokerrules, not a problem with the input (EX_SOFTWARE).
EXIT_INTERNAL = 70


def json_document(data: Any) -> str:
    """``data`` as one indented JSON document (the ``--json`` output of a command).

    >>> print(json_document({"winners": [0]}), end="")
    {
      "winners": [
        0
      ]
    }
    """
    return json_dumps(data, indent=2) + "\n"


def json_line(data: Any) -> str:
    """``data`` as one line of JSON Lines (one result of a streaming command).

    >>> json_line({"category": "pair"})
    '{"category": "pair"}\\n'
    """
    return json_dumps(data) + "\n"


def error_object(
    code: str,
    message: str,
    path: str | None = None,
    line: int | None = None,
    col: int | None = None,
    hint: str | None = None,
) -> dict[str, Any]:
    """The JSON form of one error (see ``docs/json/error.schema.json``).

    >>> error_object("usage", "give at least one hand")["error"]["code"]
    'usage'
    """
    return {"error": {"code": code, "message": message, "path": path, "line": line, "col": col, "hint": hint}}


def diagnostic_object(diagnostic: Diagnostic) -> dict[str, Any]:
    """The JSON error object of a positioned diagnostic."""
    return error_object(
        diagnostic.code, diagnostic.message, diagnostic.source, diagnostic.line, diagnostic.col, diagnostic.hint
    )


def render_error(problem: PokerRulesError, as_json: bool) -> str:
    """A user's error for stderr: positioned text, or one JSON object per diagnostic."""
    if as_json:
        return _lines(diagnostic_object(d) for d in problem.diagnostics)
    return f"{problem}\n"


def render_usage(problem: UsageError, as_json: bool) -> str:
    """A usage problem for stderr (the caller exits 2)."""
    if as_json:
        return json_line(error_object("usage", str(problem)))
    lines = str(problem).split("\n")  # a message with its hint line: each line escaped, the break kept
    return problem.usage + "\n".join(visible(line) for line in lines) + "\n"


def render_os_error(problem: OSError | UnicodeDecodeError, as_json: bool) -> str:
    """An operating-system error met while running a command, e.g. a file that cannot be written."""
    path = getattr(problem, "filename", None)
    if isinstance(problem, UnicodeDecodeError):
        message = f"input is not UTF-8 text: {problem.reason}"
    else:
        message = f"{path}: {problem.strerror or problem}" if path else str(problem.strerror or problem)
    if as_json:
        return json_line(error_object("io", message, str(path) if path else None))
    return f"pokerrules: {visible(message)}\n"


def render_internal(command: str, version: str, bug: BaseException, as_json: bool) -> str:
    """One line for stderr about a bug met while running ``command`` (the caller exits 70).

    >>> print(render_internal("eval", "0.2.0", IndexError("list index out of range"), False), end="")
    pokerrules eval: internal error (pokerrules 0.2.0, IndexError: list index out of range); this is a bug in pokerrules: please report it with the command and the file (README.md, "Reporting a bug")
    """
    what = f"{type(bug).__name__}: {bug}" if str(bug) else type(bug).__name__
    what = " ".join(what.split())[:200]  # one line, whatever the exception says
    message = (
        f"pokerrules {command}: internal error (pokerrules {version}, {what}); this is a bug in pokerrules: "
        'please report it with the command and the file (README.md, "Reporting a bug")'
    )
    if as_json:
        return json_line(error_object("internal", message))
    return visible(message) + "\n"


def _lines(objects: Iterable[dict[str, Any]]) -> str:
    return "".join(json_line(item) for item in objects)
