"""Text from strangers, made safe to print: no control, escape or bidi characters, no workflow command.

Rule files, hands and file names come from people the user may not trust, and
what pokerrules prints goes to terminals and CI logs. A raw ESC starts a
terminal escape sequence (``\\x1b[2K`` erases a line, OSC sequences set titles
and links), a bidi control (U+202E) reorders what a reviewer reads, and the
GitHub Actions runner acts on workflow commands in any line a step prints:
``##[command]`` anywhere in a line, and ``::command::`` at the start of a line
once leading white space is trimmed (a lone CR ends a line for it, as LF
does). So every string that came from a file or a hand goes through
:func:`visible` (text output), :func:`json_dumps` (JSON output) or
:func:`github_data` / :func:`github_property` (``--format github``) before it
is printed, and :class:`GuardedOutput` around stdout and stderr catches what a
command forgot.

Escaped are: C0 controls (including newline and tab: a field never spans
lines), DEL, C1 controls, the bidi controls U+061C, U+200E, U+200F,
U+202A-U+202E and U+2066-U+2069, the line and paragraph separators U+2028 and
U+2029, and lone surrogates (the bytes of a file name that is not UTF-8, read
with ``surrogateescape``, shown as the byte they stand for). Workflow
commands are neutralised by :func:`neutral`, in every form of output
(JSON strings included, so that a consumer printing a decoded value runs
nothing either): the ``[`` of ``##[`` is written ``\\x5b``, and the second
``:`` of a ``::`` that starts a line (after any line break and white space)
``\\x3a``.
"""

from __future__ import annotations

import contextlib
import json
import re

_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_UNSAFE = re.compile(f"[\x00-\x1f\x7f-\x9f{_BIDI}\u2028\u2029\ud800-\udfff]")
# The same set minus newline and tab: what may not appear even between fields.
_UNSAFE_IN_OUTPUT = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}\u2028\u2029\ud800-\udfff]")
# In JSON text these characters can only sit inside strings, where \\uXXXX means the same character.
_JSON_UNSAFE = re.compile(f"[\x7f-\x9f{_BIDI}\u2028\u2029\ud800-\udfff]")


#: Every character that may end a line: for the runner (CR, LF), for Python and for Unicode.
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
# What may come before a command on its line: white space (as .NET's TrimStart and Python's
# str.strip take it) and the invisible characters some tools also drop.
_LEADING = "\\s\u180e\u200b\u2060\ufeff"
# ``::`` first on a line after white space: its second ``:`` is escaped. (The white space
# stops at a line break, so that a run of blank lines is read once, not once per line.)
_SPACE = f"(?:[^\\S{LINE_BREAKS}]|[\u180e\u200b\u2060\ufeff])"
_COMMAND = re.compile(f"(?:\\A|(?<=[{LINE_BREAKS}]))({_SPACE}*:):")


def neutral(text: str) -> str:
    """``text`` with every GitHub workflow command made inert, readably and on every line.

    The ``[`` of ``##[`` becomes ``\\x5b``; a ``::`` at the start of the text
    or after any line break (white space before it or not) gets its second
    ``:`` written ``\\x3a``. Nothing else changes: a ``::`` inside a line is
    no command.

    >>> neutral("ok ##[add-mask]x")
    'ok ##\\\\x5badd-mask]x'
    >>> neutral("a::b\\r  ::error::c")
    'a::b\\r  :\\\\x3aerror::c'
    """
    text = text.replace("##[", "##\\x5b")
    return _COMMAND.sub(lambda match: match.group(1) + "\\x3a", text) if "::" in text else text


def one_line(text: object) -> str:
    """A title or name as one line: every run of white space, line breaks included, one space.

    >>> one_line("Friday night\\n  house rules ")
    'Friday night house rules'
    """
    return " ".join(str(text).split())


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def visible(text: object) -> str:
    """``text`` :func:`neutral`, with every control, escape and bidi character written as ``\\xNN`` or ``\\uNNNN``.

    >>> visible("\\x1b[2K ok")
    '\\\\x1b[2K ok'
    >>> visible("a\\n::error::b")
    'a\\\\x0a:\\\\x3aerror::b'
    >>> visible("abc\\u202edef ##[add-mask]")
    'abc\\\\u202edef ##\\\\x5badd-mask]'
    """
    return _UNSAFE.sub(_escape, neutral(str(text)))


def visible_lines(text: str) -> str:
    """Like :func:`visible`, but keeps newlines and tabs (for text made of several safe lines)."""
    return _UNSAFE_IN_OUTPUT.sub(_escape, neutral(text))


def shown_path(path: object) -> str:
    """A file name as it may be printed at the start of a line.

    Escaped like :func:`visible`; a relative name that starts with ``:``
    (after white space) gets ``./`` in front, so that no line of text output
    can start with ``::`` (a GitHub workflow command), not even ``:`` and the
    ``:line:col`` after it.

    >>> shown_path("::error::x.yaml")
    './::error::x.yaml'
    """
    text = str(path)
    return visible("./" + text if re.match(f"[{_LEADING}]*:", text) else text)


def json_dumps(data: object, indent: int | None = None) -> str:
    """``data`` as JSON text whose strings (keys too) are :func:`neutral`, escaped by :func:`json_text`.

    Every JSON document pokerrules prints is made here: the text is valid
    JSON, holds no workflow command, and neither does any string decoded from
    it. Other characters keep their value (an escape means the same character).

    >>> json_dumps({"describe": "pair ##[add-mask]x"})
    '{"describe": "pair ##\\\\\\\\x5badd-mask]x"}'
    """
    return json_text(json.dumps(_neutral_values(data), ensure_ascii=False, indent=indent))


def _neutral_values(data: object) -> object:
    if isinstance(data, str):
        return neutral(data)
    if isinstance(data, dict):
        return {neutral(key) if isinstance(key, str) else key: _neutral_values(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [_neutral_values(item) for item in data]
    return data


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
# The annotations ``check --format github`` prints on purpose, at the very start of a line.
_ANNOTATION = re.compile("(?:error|warning|notice) ")
# A line so far that a command could still start on: white space, perhaps with its first ``:``.
_OPEN_LINE = re.compile(f"([{_LEADING}]*)(:?)")
# A ``::`` after LF or CR (the only line breaks a guard lets through) and white space.
_GUARDED_COMMAND = re.compile(f"[\\n\\r]({_SPACE}*:):")


class SharedLine:
    """The line of the place where two guarded streams both write, as when stderr goes to stdout (``2>&1``).

    pre-commit and many CI steps read a command's stdout and stderr as one
    stream, so a command can also form across the two: ``abc`` on stdout, a
    newline on stderr, ``::error`` on stdout. Guards that share this line
    escape what would be a command in either stream alone or in the two
    together, and flush each other before they write so that the order holds.
    """

    def __init__(self) -> None:
        self.line = ""
        self.streams: list[GuardedOutput] = []


class GuardedOutput:
    """A text stream that never lets a control, escape or bidi character, nor a workflow command, through.

    The last line of defence around ``sys.stdout`` and ``sys.stderr`` in the
    command line, behind the escaping of each field: characters that slipped
    through are written as ``\\uNNNN`` (which also reads correctly inside a
    JSON string), the ``[`` of ``##[`` as ``\\u005b``, and the second ``:``
    of a ``::`` that starts a line as ``\\u003a``, also when the pieces come
    in separate writes (or, with a :class:`SharedLine`, on the other stream).
    With ``workflow_commands`` (``check --format github``) the annotations
    ``::error``, ``::warning`` and ``::notice`` at the very start of a line
    pass.

    >>> import io
    >>> buffer = io.StringIO()
    >>> _ = GuardedOutput(buffer).write("ok\\n  ::error::x \\x1b[2K ##[add-mask]\\n")
    >>> buffer.getvalue()
    'ok\\n  :\\\\u003aerror::x \\\\u001b[2K ##\\\\u005badd-mask]\\n'
    """

    def __init__(
        self,
        stream: object,
        workflow_commands: bool = False,
        carriage_returns: bool = False,
        shared: SharedLine | None = None,
    ) -> None:
        self.stream = stream
        self.workflow_commands = workflow_commands
        # stderr keeps CR for progress bars drawn on a terminal; text from files never holds one (visible())
        self.unsafe = _GUARDED_KEEP_CR if carriage_returns else _GUARDED
        # What the current line holds so far, as far as a command could still form: when it is white
        # space and perhaps a colon, one space if there is any and the colon ("", " ", ":", " :");
        # else "x" and the last two characters written.
        self.line = ""
        self.shared = shared
        self.unflushed = False  # written to since the other stream of a SharedLine last flushed it
        if shared is not None:
            shared.streams.append(self)

    def write(self, text: str) -> int:
        """Write ``text`` made safe; returns the length of ``text`` (as streams do)."""
        safe = self.unsafe.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
        marks = self._command_marks(self.line, safe)
        if self.shared is not None:
            self._flush_the_others()
            if self.shared.line != self.line:
                marks |= self._command_marks(self.shared.line, safe)
            self.unflushed = True
        if marks:
            safe = "".join(f"\\u{ord(char):04x}" if at in marks else char for at, char in enumerate(safe))
        self.line = _open_line(self.line, safe)
        if self.shared is not None:
            self.shared.line = _open_line(self.shared.line, safe)
        self.stream.write(safe)  # type: ignore[attr-defined]
        return len(text)

    def _command_marks(self, line: str, text: str) -> set[int]:
        """Where in ``text`` a command written after ``line`` ends: the characters to escape."""
        if ":" not in text and "[" not in text:  # the last character of every command
            return set()
        # the line so far goes in front, so that a command split over two writes is seen whole;
        # the last character of a command is always in the new text
        joined = "\n" + line + text
        skip = len(joined) - len(text)
        marks: set[int] = set()
        if "##[" in joined:
            marks.update(at + 2 - skip for at in _find_all(joined, "##[") if at + 2 >= skip)
        if "::" not in joined:
            return marks
        for match in _GUARDED_COMMAND.finditer(joined):
            if match.end() - 1 < skip:
                continue
            at_line_start = match.group(1) == ":"  # no white space before it
            if not (self.workflow_commands and at_line_start and _ANNOTATION.match(joined, match.end())):
                marks.add(match.end() - 1 - skip)
        return marks

    def _flush_the_others(self) -> None:
        assert self.shared is not None
        for other in self.shared.streams:
            if other is not self and other.unflushed:
                other.unflushed = False
                # a stream closed or gone has nothing to keep in order
                with contextlib.suppress(OSError, ValueError, AttributeError):
                    other.stream.flush()  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> object:
        return getattr(self.stream, name)


def _find_all(text: str, part: str) -> list[int]:
    """Where ``part`` starts in ``text``, overlapping occurrences too."""
    found, at = [], text.find(part)
    while at >= 0:
        found.append(at)
        at = text.find(part, at + 1)
    return found


def _open_line(line: str, written: str) -> str:
    """The state of the current line (see ``GuardedOutput.line``) once ``written`` follows ``line``."""
    if written.endswith(("\n", "\r")):  # LF and CR are the only line breaks a guard lets through
        return ""
    written = line + written
    line = written[max(written.rfind("\n"), written.rfind("\r")) + 1 :]
    start = _OPEN_LINE.fullmatch(line)
    if start is None:
        return "x" + line[-2:]
    return (" " if start.group(1) else "") + start.group(2)
