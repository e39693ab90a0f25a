"""Named arrays as the payload of a cache file: a small index, then each array's bytes.

The disk cache signs and checks a payload (:mod:`evaluator.core.diskcache`); this
module only lays arrays out in it. An ``.npz`` archive costs, on every read, its
zip directory, a CRC of every member and a copy of each array; here an array is
one ``frombuffer`` view of the payload, no copy (the grown tables a first batch
call of ten cards reads, 11.5 MB: about 15 ms less).

Layout: the index length (4 bytes, little-endian), the index as JSON (a list of
``[name, dtype, shape, offset]``), zero bytes up to a multiple of 8, then the
arrays' bytes, each starting at a multiple of 8 past that point.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from math import prod
from typing import Any

import numpy as np

#: The longest index read (a few hundred arrays at most).
INDEX_MAX = 1 << 16
#: The dtypes the caches store (anything else in an index is refused).
DTYPES = frozenset({"|i1", "<i2", "<i4", "<i8", "|u1", "<u2", "<u4", "<u8", "|b1", "<f8"})
ALIGN = 8


def pack(arrays: Mapping[str, np.ndarray]) -> bytes:
    """The payload holding ``arrays`` (read back by :func:`unpack`).

    >>> unpack(pack({"a": np.arange(3, dtype=np.int16)}))["a"].tolist()
    [0, 1, 2]
    """
    entries: list[list[Any]] = []
    chunks: list[bytes] = []
    offset = 0
    for name, array in arrays.items():
        data = np.asarray(array)  # tobytes() is in C order whatever the layout
        if data.dtype.str not in DTYPES:
            raise ValueError(f"array {name!r}: dtype {data.dtype.str} is not stored")
        raw = data.tobytes()
        entries.append([name, data.dtype.str, list(data.shape), offset])
        chunks.append(raw + bytes(-len(raw) % ALIGN))
        offset += len(chunks[-1])
    index = json.dumps(entries, separators=(",", ":")).encode("utf-8")
    head = len(index).to_bytes(4, "little") + index
    return head + bytes(-len(head) % ALIGN) + b"".join(chunks)


def unpack(payload: bytes | bytearray) -> dict[str, np.ndarray]:
    """The arrays of a payload made by :func:`pack`, as views of it (writable when the
    payload is a ``bytearray``, as the disk cache reads it).

    Raises:
        ValueError: when the payload is not such a layout (a bad index, an array out of
            bounds, a dtype the caches never store).
    """
    if len(payload) < 4:
        raise ValueError("array payload: too short")
    length = int.from_bytes(payload[:4], "little")
    if length > INDEX_MAX or 4 + length > len(payload):
        raise ValueError("array payload: index length")
    entries = json.loads(bytes(payload[4 : 4 + length]))
    start = 4 + length + (-(4 + length) % ALIGN)
    if not isinstance(entries, list):
        raise ValueError("array payload: index")
    arrays: dict[str, np.ndarray] = {}
    for entry in entries:
        name, dtype, shape, offset = _entry(entry)
        count = prod(shape)
        if start + offset + count * np.dtype(dtype).itemsize > len(payload):
            raise ValueError(f"array payload: {name!r} out of bounds")
        view = np.frombuffer(payload, dtype=dtype, count=count, offset=start + offset)
        arrays[name] = view.reshape(tuple(shape))
    return arrays


def _entry(entry: object) -> tuple[str, str, list[int], int]:
    """One index entry, checked: a name, a stored dtype, a shape and an offset of ints >= 0."""
    if not (isinstance(entry, list) and len(entry) == 4):
        raise ValueError("array payload: index entry")
    name, dtype, shape, offset = entry
    if not (isinstance(name, str) and dtype in DTYPES and isinstance(shape, list)):
        raise ValueError("array payload: index entry")
    numbers = [*shape, offset]
    if not all(type(number) is int and number >= 0 for number in numbers):
        raise ValueError("array payload: shape or offset")
    return name, dtype, shape, offset
