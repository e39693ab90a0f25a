"""Reading ruleset YAML safely, with positions: one file or one text into a :class:`Document`.

Rule files are data from strangers, so reading one is done in three passes,
each cheap and bounded:

1. **Bytes.** ``read_file`` checks the size with ``os.stat`` *before* reading
   (a 50 MB file is refused without touching its content), then decodes strict
   UTF-8 and refuses NUL and other control characters.
2. **Events.** ``yaml.parse`` (SafeLoader) streams the YAML events; anchors and
   aliases, non-plain tags, deep nesting, too many nodes and huge scalars are
   refused here, so a billion-laughs file never reaches a stage that could
   expand it, and the recursive composer never sees deep nesting.
3. **Nodes.** ``yaml.compose`` (SafeLoader) gives the node tree with the
   ``start_mark`` of every node; the plain data (dict/list/str/int/float/bool/
   None) is built from it here, not by PyYAML's constructor, so every value and
   every mapping key gets a :class:`Position`. Scalars are typed by the safe
   resolver; types JSON has no word for (timestamps, ``=``, ``<<``) stay text.

Passes 2 and 3 are :mod:`evaluator.rules.yaml_parse`, imported (with PyYAML) only when a
text is parsed; what the passes share -- limits, positions, documents, errors -- is
:mod:`evaluator.rules.yaml_base`. :mod:`evaluator.rules.load` reads a file parsed before
from the disk cache instead (:mod:`evaluator.rules.document_memo`).

Following ``extends:`` and merging is :mod:`evaluator.rules.load`. Every
failure is a :class:`~evaluator.core.errors.LoadError` with a stable ``Y1xx``
code and a position; nothing else escapes for any input text.

>>> parse_yaml("name: demo\\nhand: {size: 5}\\n").position(("hand", "size"))
Position(source='<string>', line=2, col=14)
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from .yaml_base import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_NODES,
    MAX_SCALAR_CHARS,
    Document,
    Position,
    YamlPath,
    _line_col,
    did_you_mean,
    fail_at,
    fail_load,
)

# The names other modules read from here (made in yaml_base, shared with yaml_parse).
__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_NODES",
    "MAX_SCALAR_CHARS",
    "Document",
    "Position",
    "YamlPath",
    "buffer_of",
    "decode_utf8",
    "did_you_mean",
    "editor_buffers",
    "fail_at",
    "fail_load",
    "parse_yaml",
    "read_bytes",
    "read_file",
]

# --------------------------------------------------------------------------- text checks


def _check_text(text: str, source: str) -> None:
    """Refuse oversized text and characters YAML cannot carry, before any parsing."""
    if len(text) > MAX_FILE_BYTES:
        fail_load("Y102", f"the text is too large ({len(text)} characters; the limit is 1 MiB)", source)
    nul = text.find("\0")
    if nul >= 0:
        line, col = _line_col(text, nul)
        fail_load("Y116", "the file contains a NUL character (is it a binary file?)", source, line, col)


def parse_yaml(text: str, source: str = "<string>") -> Document:
    """Parse one ruleset text into a :class:`Document` (no ``extends:`` resolution).

    Raises :class:`~evaluator.core.errors.LoadError` (codes Y102-Y110, Y114-Y116)
    for anything that is not a safe, plain YAML mapping.
    """
    from .yaml_parse import parse_text  # PyYAML, imported only when a text is parsed (a warm start reads none)

    text = text.removeprefix("\ufeff")
    _check_text(text, source)
    return parse_text(text, source)


# --------------------------------------------------------------------------- files


def decode_utf8(raw: bytes, source: str) -> str:
    """``raw`` as UTF-8 text; Y116 at the line and column of the first bad byte."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start].decode("utf-8", errors="replace")
        line, col = _line_col(before, len(before))
        fail_load(
            "Y116",
            f"the file is not valid UTF-8 (byte 0x{raw[exc.start]:02x})",
            source,
            line,
            col,
            hint="save the file as UTF-8",
        )


# Texts that stand for files (an editor's unsaved buffers), by real path: read
# in place of the file on disk, so the editor checks what is typed, not what was saved.
_BUFFERS: ContextVar[Mapping[str, str] | None] = ContextVar("pokerrules_buffers", default=None)


@contextmanager
def editor_buffers(texts: Mapping[str, str]) -> Iterator[None]:
    """Within the block, read each file named in ``texts`` from its text, not from disk.

    Keys are paths (taken to their real path); every limit of a file on disk
    applies to the text too. The language server checks unsaved buffers, and
    the parents of ``extends:`` the editor has open, this way.

    >>> with editor_buffers({"/no/such/dir/a.yaml": "name: a"}):
    ...     read_bytes(Path("/no/such/dir/a.yaml"))
    b'name: a'
    """
    token = _BUFFERS.set({**(_BUFFERS.get() or {}), **{os.path.realpath(path): text for path, text in texts.items()}})
    try:
        yield
    finally:
        _BUFFERS.reset(token)


def buffer_of(path: str | Path) -> str | None:
    """The editor text standing for ``path`` (see :func:`editor_buffers`), or None."""
    buffers = _BUFFERS.get()
    return buffers.get(os.path.realpath(path)) if buffers else None


def read_bytes(path: Path) -> bytes:
    """The bytes of one regular file; the size is checked before any byte is read."""
    source = str(path)
    text = buffer_of(path)
    if text is not None:
        # a lone surrogate from the editor becomes bytes that are not UTF-8: Y116 at its place
        raw = text.encode("utf-8", "surrogatepass")
        if len(raw) > MAX_FILE_BYTES:
            fail_load("Y102", f"the file is too large ({len(raw):,} bytes; the limit is 1 MiB)", source)
        return raw
    try:
        info = os.stat(path)
    except (OSError, ValueError) as exc:
        fail_load("Y101", f"cannot read {source}: {getattr(exc, 'strerror', None) or exc}", source)
    if not stat.S_ISREG(info.st_mode):
        fail_load("Y101", f"cannot read {source}: not a regular file", source)
    if info.st_size > MAX_FILE_BYTES:
        fail_load("Y102", f"the file is too large ({info.st_size:,} bytes; the limit is 1 MiB)", source)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)  # +1: notice a file that grew since stat
    except OSError as exc:
        fail_load("Y101", f"cannot read {source}: {exc.strerror or exc}", source)
    if len(raw) > MAX_FILE_BYTES:
        fail_load("Y102", "the file is too large (the limit is 1 MiB)", source)
    return raw


def read_file(path: Path) -> Document:
    """Read and parse one ruleset file; the size is checked before any byte is read."""
    return parse_yaml(decode_utf8(read_bytes(path), str(path)), str(path))
