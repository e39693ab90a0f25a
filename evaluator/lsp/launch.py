"""``pokerrules lsp``: start the language server (stdio, or TCP), or print an editor's setup.

The server needs the optional extra ``pokerrules[lsp]`` (pygls and
lsprotocol); without it the command says how to install it and exits 1.
``pokerrules lsp editor-config NAME`` needs nothing more.
"""

from __future__ import annotations

import importlib
import sys
from typing import BinaryIO, TextIO

__all__ = ["MISSING_EXTRA", "missing_extra", "serve"]

MISSING_EXTRA = (
    "pokerrules lsp: the language server needs the optional extra 'lsp' (pygls and lsprotocol), "
    "which is not installed.\n  install it with: pip install 'pokerrules[lsp]'\n"
)


def missing_extra() -> bool:
    """Whether pygls or lsprotocol cannot be imported."""
    try:
        importlib.import_module("lsprotocol.types")
        importlib.import_module("pygls.lsp.server")
    except ImportError:
        return True
    return False


def serve(
    tcp: int | None = None,
    host: str = "127.0.0.1",
    err: TextIO | None = None,
    channels: tuple[BinaryIO, BinaryIO] | None = None,
) -> int:
    """Run the server until the client ends it; 1 when the extra is missing.

    ``channels`` are the binary streams to speak on (the process's standard
    input and output by default). On stdio the protocol owns standard
    output: whatever else prints goes to standard error.
    """
    err = err or sys.stderr
    if missing_extra():
        err.write(MISSING_EXTRA)
        return 1
    from .server import build_server

    server = build_server()
    if tcp is not None:
        err.write(f"pokerrules lsp: listening on {host}:{tcp}\n")
        server.start_tcp(host, tcp)
        return 0
    channel_in, channel_out = channels or (sys.stdin.buffer, sys.stdout.buffer)
    sys.stdout = sys.stderr  # a stray print must not break the protocol
    try:
        server.start_io(channel_in, channel_out)
    finally:
        server.shutdown_worker()
    return 0
