"""Reaching a Dask scheduler: the address read, the handshake checked, in seconds.

``--scheduler ADDRESS`` hands the run to a ``dask.distributed`` scheduler. Dask's
messages carry pickles, so a scheduler can make its clients run code: it must
be a cluster the user trusts, reached over ``tls://`` with Dask's TLS settings
when it runs on another machine (docs/security.md). Before Dask itself
connects, the address is read here (``O119`` for anything but
``tcp://HOST:PORT``, ``tls://HOST:PORT`` or ``HOST:PORT``) and the peer is
probed with a plain socket: a Dask scheduler sends its handshake as soon as a
connection opens, one message in Dask's framing (a length, a frame count, the
frame lengths, the frames). A peer that refuses, stays silent past the
timeout, closes, or sends anything else (an HTTP server's ``HTTP/1.1 ...``
read as a length is 3 EiB) is reported as ``O120`` naming the address, and
Dask never reads from it.

The timeout (default :data:`DEFAULT_CONNECT_TIMEOUT` seconds) covers the
connection and the handshake; ``--connect-timeout`` or
``$POKERRULES_CONNECT_TIMEOUT`` raise it for a far cluster.
"""

from __future__ import annotations

import ipaddress
import os
import re
import socket
import ssl
import time
from dataclasses import dataclass
from typing import Any

from ..core.errors import PokerRulesError, error

#: Seconds to wait for a scheduler's connection and handshake when nothing else is said.
DEFAULT_CONNECT_TIMEOUT = 5.0
#: The environment variable that sets the timeout (``--connect-timeout`` wins over it).
TIMEOUT_ENV = "POKERRULES_CONNECT_TIMEOUT"
#: A timeout must lie in this range of seconds.
TIMEOUT_RANGE = (0.1, 300.0)
#: A handshake announcing a bigger message than this is not Dask's (its own is a few hundred bytes).
MAX_HANDSHAKE = 1 << 16
#: Address schemes a scheduler is reached by (Dask's default is tcp).
SCHEMES = ("tcp", "tls")

_HOST = re.compile(
    r"(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$"
)
_ADDRESS = re.compile(
    r"(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://)?(?P<host>\[[^\]]*\]|[^:/\[\]]*):(?P<port>[0-9]{1,5})$"
)


class WorkError(PokerRulesError):
    """Work that cannot run as asked: a seed, a scheduler, a number of workers, its size."""


@dataclass(frozen=True)
class SchedulerAddress:
    """A scheduler's address, read and checked: ``tls://[::1]:8786``."""

    scheme: str
    host: str  # without brackets
    port: int

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}"


def _bad_address(text: str, why: str) -> PokerRulesError:
    return error(
        WorkError,
        "O119",
        f"--scheduler {text!r} is not a scheduler address: {why}",
        "<scheduler>",
        hint="write tcp://HOST:PORT (tls://HOST:PORT with Dask's TLS settings), e.g. tcp://10.0.0.5:8786",
    )


def read_address(text: str) -> SchedulerAddress:
    """Read a scheduler address (O119 for anything that is not one).

    >>> str(read_address("10.0.0.5:8786")), str(read_address("tls://[::1]:8786"))
    ('tcp://10.0.0.5:8786', 'tls://[::1]:8786')
    >>> read_address("tcp://")
    Traceback (most recent call last):
    ...
    evaluator.odds.scheduler.WorkError: <scheduler>:1:1: error O119: --scheduler 'tcp://' is not a scheduler address: no port
      hint: write tcp://HOST:PORT (tls://HOST:PORT with Dask's TLS settings), e.g. tcp://10.0.0.5:8786
    """
    if len(text) > 300:
        raise _bad_address(text[:40] + "...", "longer than 300 characters")
    found = _ADDRESS.match(text.strip())
    if found is None:
        if "[" in text or "]" in text:
            why = "an IPv6 address goes in brackets with the port after them, as tcp://[::1]:8786"
        else:
            why = "no port" if not re.search(r":[0-9]+$", text.strip()) else "not HOST:PORT"
        raise _bad_address(text, why)
    scheme = (found["scheme"] or "tcp").lower()
    if scheme not in SCHEMES:
        raise _bad_address(text, f"the scheme {scheme}:// is not one of {', '.join(s + '://' for s in SCHEMES)}")
    host, port = found["host"], int(found["port"])
    if host.startswith("["):
        try:
            host = str(ipaddress.IPv6Address(host[1:-1]))
        except ValueError:
            raise _bad_address(text, "the brackets do not hold an IPv6 address") from None
    elif not _HOST.match(host):
        raise _bad_address(text, "no host name or address" if not host else "not a host name or address")
    if not 1 <= port <= 65535:
        raise _bad_address(text, "the port is not from 1 to 65535")
    return SchedulerAddress(scheme, host, port)


def connect_timeout(given: float | None = None) -> float:
    """The timeout in seconds: ``given``, else ``$POKERRULES_CONNECT_TIMEOUT``, else the default (O123 out of range).

    >>> connect_timeout(12), connect_timeout() == DEFAULT_CONNECT_TIMEOUT or "set in the environment"
    (12.0, True)
    """
    source = "--connect-timeout"
    value: Any = given
    if value is None and os.environ.get(TIMEOUT_ENV, "").strip():
        source, value = f"${TIMEOUT_ENV}", os.environ[TIMEOUT_ENV].strip()
    if value is None:
        return DEFAULT_CONNECT_TIMEOUT
    try:
        seconds = float(value)
    except ValueError:
        seconds = float("nan")
    low, high = TIMEOUT_RANGE
    if not low <= seconds <= high:  # NaN fails too
        raise error(
            WorkError,
            "O123",
            f"{source} {str(value)[:40]!r} is not a number of seconds from {low:g} to {high:g}",
            "<scheduler>",
        )
    return seconds


def _unreachable(address: SchedulerAddress, why: str, hint: str | None = None) -> PokerRulesError:
    return error(WorkError, "O120", f"no Dask scheduler at {address}: {why}", "<scheduler>", hint=hint)


def _silent(address: SchedulerAddress, timeout: float) -> PokerRulesError:
    hint = f"a far cluster may need longer: --connect-timeout or ${TIMEOUT_ENV}"
    if address.scheme == "tcp":
        hint = "a scheduler that uses TLS waits for the client to speak first (write tls://); " + hint
    why = f"no handshake within {timeout:g} s (a Dask scheduler sends one at once)"
    return _unreachable(address, why, hint=hint)


def _read_exactly(sock: socket.socket, size: int, deadline: float, address: SchedulerAddress, timeout: float) -> bytes:
    parts: list[bytes] = []
    left = size
    while left:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise _silent(address, timeout)
        sock.settimeout(remaining)
        try:
            part = sock.recv(min(left, 1 << 16))
        except TimeoutError:
            raise _silent(address, timeout) from None
        except OSError as problem:
            raise _unreachable(address, f"the connection failed: {problem.strerror or problem}") from None
        if not part:
            raise _unreachable(address, "it closed the connection without a handshake")
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def _not_dask(address: SchedulerAddress, start: bytes) -> PokerRulesError:
    shown = start[:16].decode("latin-1")
    return _unreachable(
        address,
        f"it answered with something that is not a Dask handshake (it starts {shown!r})",
        hint="is this the scheduler's port (8786 by default), not its dashboard (8787) or another service?",
    )


def check_handshake(sock: socket.socket, address: SchedulerAddress, timeout: float, deadline: float) -> None:
    """Read the peer's first message and check that it is framed as Dask frames its messages.

    Layout (little-endian 64-bit numbers): the message length, then the number
    of frames, the length of each frame and the frames, which fill the
    message exactly.
    """
    header = _read_exactly(sock, 8, deadline, address, timeout)
    size = int.from_bytes(header, "little")
    if not 16 <= size <= MAX_HANDSHAKE:
        raise _not_dask(address, header)
    body = _read_exactly(sock, size, deadline, address, timeout)
    frames = int.from_bytes(body[:8], "little")
    if not 1 <= frames <= 64 or 8 + 8 * frames > size:
        raise _not_dask(address, header + body)
    lengths = [int.from_bytes(body[8 + 8 * i : 16 + 8 * i], "little") for i in range(frames)]
    if 8 + 8 * frames + sum(lengths) != size:
        raise _not_dask(address, header + body)


def probe(address: SchedulerAddress, timeout: float, tls: ssl.SSLContext | None = None) -> None:
    """Connect to ``address`` and check its handshake within ``timeout`` seconds (O120 if not Dask's).

    ``tls``: the client's TLS context for a ``tls://`` address (Dask's security settings).
    """
    deadline = time.monotonic() + timeout
    try:
        raw = socket.create_connection((address.host, address.port), timeout=timeout)
    except TimeoutError:
        raise _unreachable(address, f"no connection within {timeout:g} s") from None
    except OSError as problem:
        raise _unreachable(address, f"cannot connect: {problem.strerror or problem}") from None
    with raw:
        if address.scheme != "tls":
            check_handshake(raw, address, timeout, deadline)
            return
        if tls is None:
            raise _unreachable(
                address,
                "tls:// needs Dask's TLS settings and none are set",
                hint="set distributed.comm.tls.ca-file, .client.cert and .client.key (docs/security.md)",
            )
        raw.settimeout(max(deadline - time.monotonic(), 0.01))
        try:
            with tls.wrap_socket(raw, server_hostname=address.host if tls.check_hostname else None) as wrapped:
                check_handshake(wrapped, address, timeout, deadline)
        except TimeoutError:
            raise _unreachable(address, f"no TLS handshake within {timeout:g} s") from None
        except ssl.SSLError as problem:
            raise _unreachable(address, f"the TLS handshake failed: {problem.reason or problem}") from None
        except OSError as problem:
            raise _unreachable(address, f"the connection failed: {problem.strerror or problem}") from None
