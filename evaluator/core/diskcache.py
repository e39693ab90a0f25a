"""The on-disk cache: a folder that is ours, or no cache at all.

Compiled data (lookup tables, suit-class valuations, the pattern parser, video-poker returns,
coverage analyses) is cached in the folder
:func:`resources.user_cache_dir` names. Whatever sits there is treated as
hostile until proven otherwise:

* the folder must be owned by the current user and writable by nobody else;
  otherwise one warning line goes to stderr (W130) and the command runs
  without a cache, it never fails;
* every file is opened relative to that one folder handle, without following
  symlinks, without blocking (a FIFO cannot hang us) and read only if it is a
  regular file of ours, no bigger than the size cap, and only as many bytes as
  its header promises;
* every file carries an HMAC-SHA256 keyed by a per-user secret
  (``cache.key``, 32 random bytes, mode 0600, made once with ``O_EXCL``): a
  file written by anyone without that key is rejected and rebuilt;
* writes go to a fresh ``O_EXCL`` temporary file in the folder, are synced,
  then renamed over the name (a rename replaces a symlink, never follows it);
* stale temporary files are removed and the folder is kept under a size cap
  (``$POKERRULES_CACHE_MAX_MB``, 256 MB by default) by removing the least
  recently used files first.

Nothing read from the cache is ever unpickled: payloads are raw arrays behind a
JSON index (``compiled/array_payload.py``), ``.npz`` arrays read with
``allow_pickle=False`` or plain JSON. See ``docs/cache.md``.

A file is ``MAGIC`` (8 bytes, one per kind of file), the header length (4
bytes, little-endian), a JSON header and the payload. The header holds the
caller's fields, the payload ``length`` and the ``hmac`` of everything else.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import json
import math
import os
import re
import secrets
import stat
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

#: Environment variable: the most the cache folder may hold, in megabytes.
SIZE_ENV = "POKERRULES_CACHE_MAX_MB"
DEFAULT_MAX_MB = 256
KEY_NAME = "cache.key"
KEY_BYTES = 32
#: The magic strings of the files this cache writes: only such files are pruned.
MAGICS = (
    b"PRTABLES",
    b"PRPARSER",
    b"PRRETURN",
    b"PRSCHEMA",
    b"PRPATTRN",
    b"PRSUITVL",
    b"PRGROWN1",
    b"PRDIRECT",
    b"PRSTRATG",
    b"PRCOVERG",
    b"PRPARSED",
    b"PRCOUNTS",
)
#: Suffixes of the files this cache writes.
CACHE_SUFFIXES = (
    ".tables",
    ".parser",
    ".return",
    ".valid",
    ".memo",
    ".suits",
    ".grown",
    ".direct",
    ".strategy",
    ".coverage",
    ".parsed",
    ".counts",
)
#: Left behind by earlier versions (Lark's pickle cache): removed, never read.
LEGACY_NAMES = ("pattern-grammar.lark-cache",)
TEMP_SUFFIX = ".tmp"
#: Temporary files as this module names them (``NAME.<16 hex digits>.tmp``): the
#: only ones it removes, so that a folder shared with other files loses none of theirs.
_OUR_TEMP = re.compile(
    r"(?:.+(?:" + "|".join(map(re.escape, CACHE_SUFFIXES)) + r")|" + re.escape(KEY_NAME) + r")\.[0-9a-f]{16}\.tmp"
)
#: A temporary file untouched for this long belongs to a process that died.
STALE_SECONDS = 600
HEADER_MAX = 64 * 1024
_PREFIX = 12  # magic (8) + header length (4)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_READ_FLAGS = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | _CLOEXEC
_CREATE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC
#: Without these (Windows) the checks cannot be made: the cache is not used at all.
SUPPORTED = bool(_NOFOLLOW) and hasattr(os, "geteuid") and {os.open, os.stat, os.unlink} <= os.supports_dir_fd

_warned: set[tuple[str, str]] = set()


def max_bytes() -> int:
    """The size cap of the cache folder (and of any one file in it), in bytes:
    ``$POKERRULES_CACHE_MAX_MB`` megabytes, 256 by default."""
    text = os.environ.get(SIZE_ENV, "").strip()
    try:
        megabytes = float(text) if text else DEFAULT_MAX_MB
    except ValueError:
        megabytes = DEFAULT_MAX_MB
    if not math.isfinite(megabytes):  # "inf", "nan": not a size
        megabytes = DEFAULT_MAX_MB
    return max(0, int(megabytes * 1024 * 1024))


def warn(code: str, message: str) -> None:
    """One warning line on stderr, at most once per process for the same message."""
    if (code, message) in _warned:
        return
    _warned.add((code, message))
    try:
        sys.stderr.write(f"pokerrules: warning {code}: {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed stderr is no reason to fail
        pass


def _shown(path: Path) -> str:
    """A path for a warning line: control characters escaped."""
    return str(path).encode("unicode_escape", "backslashreplace").decode("ascii")


def _canonical(header: Mapping[str, Any]) -> bytes:
    return json.dumps(header, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def _read_exact(fd: int, count: int) -> bytearray | None:
    """``count`` bytes from ``fd``, or None at an early end of file.

    Read into one buffer (no chunks joined: a table file is megabytes) and handed
    out as that ``bytearray``, so arrays read from it are views, not copies.
    """
    buffer = bytearray(count)
    view = memoryview(buffer)
    got = 0
    while got < count:
        read = os.readv(fd, [view[got:]])
        if read == 0:
            return None
        got += read
    return buffer


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


class CacheFolder:
    """An open, checked cache folder: every file operation goes through its handle."""

    def __init__(self, path: Path, fd: int, key: bytes) -> None:
        self.path = path
        self.fd = fd
        self.key = key

    def sign(self, magic: bytes, header: Mapping[str, Any], payload: bytes | bytearray) -> str:
        """The HMAC-SHA256 (hex) of a file's magic, header (without ``hmac``) and payload."""
        mac = hmac.new(self.key, magic, hashlib.sha256)
        mac.update(_canonical({k: v for k, v in header.items() if k != "hmac"}))
        mac.update(b"\0")
        mac.update(payload)
        return mac.hexdigest()

    def read(self, name: str, magic: bytes, expect: Mapping[str, Any]) -> bytearray | None:
        """The payload of file ``name`` when it is a regular file of ours that
        starts with ``magic``, whose header holds ``expect`` and whose HMAC checks
        out; None otherwise (missing, foreign, forged, truncated, too big)."""
        try:
            fd = os.open(name, _READ_FLAGS, dir_fd=self.fd)
        except OSError:  # missing, a symlink (ELOOP), unreadable
            return None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid() or info.st_size > max_bytes():
                return None  # a FIFO, a device, someone else's file, a 2 GB file
            prefix = _read_exact(fd, _PREFIX)
            if prefix is None or prefix[:8] != magic:
                return None
            header_length = int.from_bytes(prefix[8:], "little")
            if header_length > HEADER_MAX or _PREFIX + header_length > info.st_size:
                return None
            raw = _read_exact(fd, header_length)
            header = json.loads(raw) if raw is not None else None
            if not isinstance(header, dict):
                return None
            length = header.get("length")
            if type(length) is not int or _PREFIX + header_length + length != info.st_size:
                return None
            if any(header.get(field) != value for field, value in expect.items()):
                return None  # another version or another ruleset: not worth reading
            payload = _read_exact(fd, length)
            claimed = header.get("hmac")
            if payload is None or not isinstance(claimed, str):
                return None
            if not hmac.compare_digest(claimed, self.sign(magic, header, payload)):
                return None  # written without our key: forged, or from another machine
            with suppress(OSError):
                os.utime(fd)  # recently used: pruned last
            return payload
        except (OSError, ValueError, RecursionError):  # bad JSON, bad UTF-8, JSON nested too deep
            return None
        finally:
            os.close(fd)

    def write(self, name: str, magic: bytes, fields: Mapping[str, Any], payload: bytes) -> bool:
        """Write file ``name`` atomically (temporary file, fsync, rename); then tidy
        the folder. False when it could not be written or is over the size cap."""
        header = dict(fields, length=len(payload))
        header["hmac"] = self.sign(magic, header, payload)
        text = _canonical(header)
        blob_size = _PREFIX + len(text) + len(payload)
        if len(magic) != 8 or len(text) > HEADER_MAX or blob_size > max_bytes():
            return False
        temp = f"{name}.{secrets.token_hex(8)}{TEMP_SUFFIX}"
        try:
            fd = os.open(temp, _CREATE_FLAGS, 0o600, dir_fd=self.fd)
        except OSError:
            return False
        try:
            try:
                _write_all(fd, magic + len(text).to_bytes(4, "little") + text)
                _write_all(fd, payload)
                os.fsync(fd)
            finally:
                os.close(fd)
            # rename replaces whatever is at ``name`` (a symlink included) and follows nothing
            os.replace(temp, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
        except OSError:
            _unlink(self.fd, temp)
            return False
        self.tidy(keep=name)
        return True

    def tidy(self, keep: str = "") -> None:
        """Remove stale temporary files and legacy files, then the least recently
        used cache files until the folder is under the size cap (``keep`` stays)."""
        now = time.time()
        ours: list[tuple[float, int, str]] = []
        try:
            with os.scandir(self.fd) as entries:
                names = [entry.name for entry in entries]
        except OSError:
            return
        for name in names:
            try:
                info = os.stat(name, dir_fd=self.fd, follow_symlinks=False)
            except OSError:
                continue
            if _OUR_TEMP.fullmatch(name):
                if now - info.st_mtime > STALE_SECONDS:
                    _unlink(self.fd, name)  # its writer died (a live one keeps it younger)
                else:
                    ours.append((info.st_mtime, info.st_size, name))
            elif name in LEGACY_NAMES:
                _unlink(self.fd, name)
            elif name.endswith(CACHE_SUFFIXES) and stat.S_ISREG(info.st_mode):
                ours.append((info.st_mtime, info.st_size, name))
        total = sum(size for _, size, _ in ours)
        cap = max_bytes()
        for _, size, name in sorted(ours):
            if total <= cap:
                break
            if name == keep or name.endswith(TEMP_SUFFIX) or not self._is_ours(name):
                continue  # the file just written, files being written, files of others
            if _unlink(self.fd, name):
                total -= size

    def _is_ours(self, name: str) -> bool:
        """Whether ``name`` starts with one of this cache's magic strings."""
        try:
            fd = os.open(name, _READ_FLAGS, dir_fd=self.fd)
        except OSError:
            return False
        try:
            return os.read(fd, 8) in MAGICS
        except OSError:
            return False
        finally:
            os.close(fd)


def _unlink(dir_fd: int, name: str) -> bool:
    try:
        os.unlink(name, dir_fd=dir_fd)
    except OSError:
        return False
    return True


def _owner_problem(info: os.stat_result, private: bool) -> str | None:
    """Why a folder or file is not safely ours (a phrase: "is owned by ..."), or None."""
    if info.st_uid != os.geteuid():
        return f"is owned by uid {info.st_uid}, not by you (uid {os.geteuid()})"
    if info.st_mode & (0o077 if private else 0o022):
        kind = "readable or writable" if private else "writable"
        return f"is {kind} by other users (mode {stat.S_IMODE(info.st_mode):04o})"
    return None


def _read_key(dir_fd: int, folder: Path) -> bytes | None:
    """The folder's secret, or None (with a warning) when the key file is unsafe."""
    where = folder / KEY_NAME
    try:
        fd = os.open(KEY_NAME, _READ_FLAGS, dir_fd=dir_fd)
    except OSError as problem:
        if problem.errno == errno.ENOENT:
            return None
        warn("W131", f"cache key {_shown(where)} cannot be opened ({problem.strerror}); running without the cache")
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            reason: str | None = "is not a regular file"
        else:
            reason = _owner_problem(info, private=True)
        if reason is None and info.st_size != KEY_BYTES:
            reason = f"has {info.st_size} bytes, not {KEY_BYTES}"
        if reason is not None:
            warn(
                "W131",
                f"cache key {_shown(where)} {reason}; running without the cache"
                " (remove the file to start a fresh cache)",
            )
            return None
        key = _read_exact(fd, KEY_BYTES)
        return bytes(key) if key is not None else None
    finally:
        os.close(fd)


def _make_key(dir_fd: int) -> None:
    """Create the folder's secret: written whole to a private temporary file, then
    linked in place (a link never replaces an existing key: the first one wins)."""
    temp = f"{KEY_NAME}.{secrets.token_hex(8)}{TEMP_SUFFIX}"
    fd = os.open(temp, _CREATE_FLAGS, 0o600, dir_fd=dir_fd)
    try:
        try:
            _write_all(fd, secrets.token_bytes(KEY_BYTES))
            os.fsync(fd)
        finally:
            os.close(fd)
        with suppress(FileExistsError):  # another process made it first: use theirs
            os.link(temp, KEY_NAME, src_dir_fd=dir_fd, dst_dir_fd=dir_fd, follow_symlinks=False)
    finally:
        _unlink(dir_fd, temp)


def _open_checked(folder: Path, create: bool) -> tuple[int, bytes] | None:
    if not SUPPORTED:
        return None
    if create:
        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError:
            return None  # cannot be made here (a file in the way, read-only): run without
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC)
    except OSError:
        return None
    try:
        problem = _owner_problem(os.fstat(fd), private=False)
        if problem is not None:
            warn("W130", f"cache folder {_shown(folder)} {problem}; running without the cache")
            os.close(fd)
            return None
        key = _read_key(dir_fd=fd, folder=folder)
        if key is None and create and not _key_exists(fd):
            _make_key(fd)
            key = _read_key(dir_fd=fd, folder=folder)
        if key is None:
            os.close(fd)
            return None
        return fd, key
    except OSError:
        os.close(fd)
        return None


def _key_exists(dir_fd: int) -> bool:
    try:
        os.stat(KEY_NAME, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return True


@contextmanager
def open_folder(folder: Path, create: bool = True) -> Iterator[CacheFolder | None]:
    """The checked cache folder ``folder``, or None when it must not be used.

    ``create`` makes the folder (mode 0700) and its key when missing; reading
    needs neither. A folder owned by someone else or writable by group or
    others gives one warning line on stderr (W130), an unsafe key file another
    (W131); the caller then simply works without the cache.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as top, open_folder(Path(top) / "c") as folder:
    ...     folder.write("x.tables", b"EXAMPLE!", {"kind": "demo"}, b"data")
    ...     folder.read("x.tables", b"EXAMPLE!", {"kind": "demo"})
    True
    bytearray(b'data')
    """
    opened = _open_checked(folder, create)
    if opened is None:
        yield None
        return
    fd, key = opened
    try:
        yield CacheFolder(folder, fd, key)
    finally:
        os.close(fd)


def read_file(path: Path, magic: bytes, expect: Mapping[str, Any]) -> bytearray | None:
    """The payload of the cache file at ``path`` (see :meth:`CacheFolder.read`); None when
    the folder is not usable or the file does not check out."""
    with open_folder(path.parent, create=False) as folder:
        return folder.read(path.name, magic, expect) if folder is not None else None


def write_file(path: Path, magic: bytes, fields: Mapping[str, Any], payload: bytes) -> bool:
    """Write the cache file at ``path`` (see :meth:`CacheFolder.write`); False when the
    folder is not usable or the file could not be written."""
    with open_folder(path.parent) as folder:
        return folder is not None and folder.write(path.name, magic, fields, payload)
