"""Rewriting a file of the signed disk cache the way an attacker (or a control) would."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from evaluator.core import diskcache


def resign(path: Path, magic: bytes, key: bytes, change: Callable[[bytes], bytes] = lambda payload: payload) -> None:
    """Write the cache file at ``path`` again with its payload passed through ``change``,
    signed with ``key`` (the user's own key makes a file the cache trusts)."""
    blob = path.read_bytes()
    length = int.from_bytes(blob[8:12], "little")
    header = json.loads(blob[12 : 12 + length])
    payload = change(blob[12 + length :])
    header.pop("hmac")
    header["length"] = len(payload)
    header["hmac"] = diskcache.CacheFolder(path.parent, -1, key).sign(magic, header, payload)
    text = json.dumps(header).encode()
    path.write_bytes(magic + len(text).to_bytes(4, "little") + text + payload)
