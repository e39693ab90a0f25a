"""Text from strangers, made safe to print: no control, escape or bidi characters.

Rule files, hands and file names come from people the user may not trust, and
what pokerrules prints goes to terminals and CI logs. A raw ESC starts a
terminal escape sequence (``\\x1b[2K`` erases a line, OSC sequences set titles
and links), a bidi control (U+202E) reorders what a reviewer reads, and a line
that starts with ``::`` is a GitHub workflow command. So every string that
came from a file or a hand goes through :func:`visible` (text output),
:func:`json_text` (JSON output) or :func:`github_data` / :func:`github_property`
(``--format github``) before it is printed.

Escaped are: C0 controls (including newline and tab: a field never spans
lines), DEL, C1 controls, the bidi controls U+061C, U+200E, U+200F,
U+202A-U+202E and U+2066-U+2069, the line and paragraph separators U+2028 and
U+2029, and lone surrogates (the bytes of a file name that is not UTF-8, read
with ``surrogateescape``, shown as the byte they stand for).
"""

from __future__ import annotations

import re

_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_UNSAFE = re.compile(f"[\x00-\x1f\x7f-\x9f{_BIDI}\u2028\u2029\ud800-\udfff]")
# The same set minus newline and tab: what may not appear even between fields.
_UNSAFE_IN_OUTPUT = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}\u2028\u2029\ud800-\udfff]")
# In JSON text these characters can only sit inside strings, where \\uXXXX means the same character.
_JSON_UNSAFE = re.compile(f"[\x7f-\x9f{_BIDI}\u2028\u2029\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def visible(text: object) -> str:
    """``text`` with every control, escape and bidi character written as ``\\xNN`` or ``\\uNNNN``.

    >>> visible("\\x1b[2K ok")
    '\\\\x1b[2K ok'
    >>> visible("a\\n::error::b")
    'a\\\\x0a::error::b'
    >>> visible("abc\\u202edef")
    'abc\\\\u202edef'
    """
    return _UNSAFE.sub(_escape, str(text))


def visible_lines(text: str) -> str:
    """Like :func:`visible`, but keeps newlines and tabs (for text made of several safe lines)."""
    return _UNSAFE_IN_OUTPUT.sub(_escape, text)


def shown_path(path: object) -> str:
    """A file name as it may be printed at the start of a line.

    Escaped like :func:`visible`; a relative name that starts with ``:`` gets
    ``./`` in front, so that no line of text output can start with ``::``
    (a GitHub workflow command).

    >>> shown_path("::error::x.yaml")
    './::error::x.yaml'
    """
    text = visible(path)
    return "./" + text if text.startswith(":") else text


def json_text(text: str) -> str:
    """JSON text with C1, DEL, bidi and surrogate characters written as ``\\uNNNN`` escapes.

    ``json.dumps`` already escapes C0 controls; this covers the rest. The
    decoded values are unchanged: an escape inside a JSON string means the
    same character.

    >>> json_text('"a\\u202eb"')
    '"a\\\\u202eb"'
    """
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def github_data(text: object) -> str:
    """The message of a GitHub workflow command: visible, and ``%``, CR and LF encoded.

    >>> github_data("50% \\x1b")
    '50%25 \\\\x1b'
    """
    return _github_escape(visible_keep_breaks(str(text)))


def visible_keep_breaks(text: str) -> str:
    """:func:`visible`, except CR and LF stay (GitHub encodes them as ``%0D`` / ``%0A``)."""
    return re.sub("[^\r\n]+", lambda m: visible(m.group()), text)


def _github_escape(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_property(text: object) -> str:
    """A property of a GitHub workflow command (``file``, ``title``): also ``:`` and ``,`` encoded.

    >>> github_property("a:b,c")
    'a%3Ab%2Cc'
    """
    return _github_escape(visible(text)).replace(":", "%3A").replace(",", "%2C")


# What the output guard escapes: everything visible() does except newline and tab.
_GUARDED = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}\u2028\u2029\ud800-\udfff]")
_GUARDED_KEEP_CR = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f{_BIDI}\u2028\u2029\ud800-\udfff]")


class GuardedOutput:
    """A text stream that never lets a control, escape or bidi character through.

    The last line of defence around ``sys.stdout`` and ``sys.stderr`` in the
    command line, behind the escaping of each field: characters that slipped
    through are written as ``\\uNNNN`` (which also reads correctly inside a
    JSON string), and unless ``workflow_commands`` is set (``check --format
    github``) a line never starts with ``::``.

    >>> import io
    >>> buffer = io.StringIO()
    >>> _ = GuardedOutput(buffer).write("ok\\n::error::x \\x1b[2K\\n")
    >>> buffer.getvalue()
    'ok\\n\\\\u003a:error::x \\\\u001b[2K\\n'
    """

    def __init__(self, stream: object, workflow_commands: bool = False, carriage_returns: bool = False) -> None:
        self.stream = stream
        self.workflow_commands = workflow_commands
        # stderr keeps CR for progress bars drawn on a terminal; text from files never holds one (visible())
        self.unsafe = _GUARDED_KEEP_CR if carriage_returns else _GUARDED
        self.at_line_start = True

    def write(self, text: str) -> int:
        """Write ``text`` made safe; returns the length of ``text`` (as streams do)."""
        safe = self.unsafe.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
        if not self.workflow_commands:
            if self.at_line_start and safe.startswith(":"):
                safe = "\\u003a" + safe[1:]
            safe = safe.replace("\n:", "\n\\u003a")
        if safe:
            self.at_line_start = safe.endswith("\n")
        self.stream.write(safe)  # type: ignore[attr-defined]
        return len(text)

    def __getattr__(self, name: str) -> object:
        return getattr(self.stream, name)
