"""The arrays of a cache file's payload (``compiled/array_payload.py``): read back exactly,
and anything that is not such a payload refused with ValueError (the caches then rebuild)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluator.compiled.array_payload import DTYPES, pack, unpack

dtypes = st.sampled_from(sorted(DTYPES))
shapes = st.lists(st.integers(0, 5), min_size=0, max_size=3)


@st.composite
def arrays(draw: st.DrawFn) -> np.ndarray:
    dtype = np.dtype(draw(dtypes))
    shape = tuple(draw(shapes))
    raw = draw(st.binary(min_size=int(np.prod(shape)) * dtype.itemsize, max_size=int(np.prod(shape)) * dtype.itemsize))
    return np.frombuffer(raw, dtype=dtype).reshape(shape)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.text(min_size=1, max_size=8), arrays(), max_size=5))
def test_arrays_come_back_as_they_went_in(named: dict[str, np.ndarray]) -> None:
    payload = pack(named)
    found = unpack(bytearray(payload))
    assert list(found) == list(named)
    for name, array in named.items():
        assert found[name].dtype == array.dtype and found[name].shape == array.shape
        assert found[name].tobytes() == array.tobytes()


def test_arrays_read_from_a_bytearray_are_writable_views() -> None:
    payload = bytearray(pack({"a": np.arange(4, dtype=np.int64)}))
    array = unpack(payload)["a"]
    array[0] = 7
    assert unpack(payload)["a"].tolist() == [7, 1, 2, 3]


def _index(entries: object) -> bytes:
    text = json.dumps(entries).encode()
    head = len(text).to_bytes(4, "little") + text
    return head + bytes(-len(head) % 8)


@pytest.mark.parametrize(
    "payload",
    [
        b"",
        b"\x01\x00",
        (10**6).to_bytes(4, "little") + b"[]",
        _index({"a": 1}),
        _index([["a", "<i8", [2], 0]]),  # no bytes for it
        _index([["a", "<i8", [-1], 0]]),
        _index([["a", "<i8", [True], 0]]),
        _index([["a", "|O", [1], 0]]) + bytes(8),  # objects: never
        _index([["a", "<i8", [1]]]) + bytes(8),
        _index([[1, "<i8", [1], 0]]) + bytes(8),
        _index([["a", "<i8", [10**30], 0]]) + bytes(8),
        b"\x04\x00\x00\x00[\xff\xfe]",
    ],
    ids=lambda payload: str(len(payload)),
)
def test_what_is_not_a_payload_is_refused(payload: bytes) -> None:
    with pytest.raises(ValueError):
        unpack(payload)


def test_pack_refuses_a_dtype_the_caches_never_store() -> None:
    with pytest.raises(ValueError, match="dtype"):
        pack({"a": np.array(["x"])})
