"""``pokerrules eval standard -`` as a stream: answers come out before the input waits,
and lines read in chunks are the lines iterating the stream gives."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
from functools import partial
from pathlib import Path

from evaluator.cli.evaluate import Batch, input_lines

REPO = Path(__file__).resolve().parents[1]


def test_each_answer_is_out_before_the_next_hand_is_typed(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO), "POKERRULES_CACHE": str(tmp_path / "cache")}
    process = subprocess.Popen(
        [sys.executable, "-m", "evaluator", "eval", "standard", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert process.stdin is not None and process.stdout is not None
    got: list[str] = []
    try:
        for hand, category in (("As Ks Qs Js Ts", "royal_flush"), ("2c 2d 5h 7c 9s", "pair")):
            process.stdin.write(hand + "\n")
            process.stdin.flush()  # the input stays open: the command waits for more
            reader = threading.Thread(target=lambda: got.append(process.stdout.readline()))  # type: ignore[union-attr]
            reader.start()
            reader.join(timeout=120)
            assert not reader.is_alive(), "no answer while the input waits"
            assert category in got[-1]
    finally:
        process.stdin.close()
        process.wait(timeout=120)
    assert process.returncode == 0


class Chunks(io.RawIOBase):
    """Bytes given a few at a time, as a pipe may."""

    def __init__(self, data: bytes, size: int) -> None:
        self.data, self.size = data, size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray) -> int:  # type: ignore[override]
        piece, self.data = self.data[: min(self.size, len(buffer))], self.data[min(self.size, len(buffer)) :]
        buffer[: len(piece)] = piece
        return len(piece)


def test_chunked_lines_are_the_lines_of_the_stream() -> None:
    data = "As Ks\r\n2c 3d\rQh é\n\nlast".encode()
    for size in (1, 2, 3, 7, 64):
        stream = io.TextIOWrapper(io.BufferedReader(Chunks(data, size), buffer_size=size), encoding="utf-8")
        waits: list[int] = []
        got = list(input_lines(stream, partial(waits.append, 1)))
        expected = list(enumerate(io.StringIO(data.decode(), newline=None), start=1))
        assert got == expected and waits


def test_a_batch_writes_lines_together_and_when_flushed() -> None:
    out = io.StringIO()
    batch = Batch(out)
    batch.write("a\n")
    batch.write("b\n")
    assert out.getvalue() == ""
    batch.flush()
    assert out.getvalue() == "a\nb\n"
