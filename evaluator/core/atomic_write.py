"""Writing a report file whole or not at all, never through a symbolic link."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def write_atomically(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file, so no half-written report is left.

    A symbolic link is never replaced nor written through (``OSError``): the
    report goes where the name says or nowhere. A path that is not a regular
    file (``/dev/stdout``, a pipe) is written directly, since it cannot be
    replaced. The file gets the mode an ordinary write would give it: the
    replaced file's own, else 0666 less the user's umask (0644 by default).
    """
    target = Path(path)
    if target.is_symlink() and (target.is_file() or not target.exists()):
        raise OSError(f"{path}: is a symbolic link; not replaced (give the real file name)")
    if target.exists() and not target.is_file():  # /dev/stdout, a pipe: written where it leads
        with open(target, "w", encoding="utf-8") as stream:
            stream.write(text)
        return
    mode = _mode_for(target)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent if str(target.parent) else ".")
    try:
        if hasattr(os, "fchmod"):  # the temporary file is private (0600); the report gets a report's mode
            os.fchmod(handle, mode)
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _mode_for(target: Path) -> int:
    """The permission bits ``open(target, "w")`` would leave: an existing file keeps its own."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        return 0o666 & ~current_umask()


def current_umask() -> int:
    """The process's umask, read without changing it where the system says it (Linux).

    >>> 0 <= current_umask() <= 0o777
    True
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # elsewhere the only way to read it is to set it, and set it back at once
    os.umask(mask)
    return mask
