"""Writing a report file whole or not at all, never through a symbolic link."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file, so no half-written report is left.

    A symbolic link is never replaced nor written through (``OSError``): the
    report goes where the name says or nowhere. A path that is not a regular
    file (``/dev/stdout``, a pipe) is written directly, since it cannot be
    replaced.
    """
    target = Path(path)
    if target.is_symlink() and (target.is_file() or not target.exists()):
        raise OSError(f"{path}: is a symbolic link; not replaced (give the real file name)")
    if target.exists() and not target.is_file():  # /dev/stdout, a pipe: written where it leads
        with open(target, "w", encoding="utf-8") as stream:
            stream.write(text)
        return
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent if str(target.parent) else ".")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
