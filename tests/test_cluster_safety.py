"""Cluster options and Ctrl-C: clear errors in seconds, and a clean stop.

A ``--scheduler`` that is not a Dask scheduler (an HTTP server, a silent or a
closing listener, all started here on the loopback) is reported as O120 naming
the address, within the timeout; an address or a number of workers that cannot
be right is bad usage (exit 2). Ctrl-C is sent to the command line run as a
subprocess once its work has started: exit 130, one message, no process left.
The tests that need Dask skip without the extra (``pokerrules[dask]``, part of
the test extras).
"""

from __future__ import annotations

import os
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from evaluator.cli.main import main
from evaluator.core.errors import PokerRulesError
from evaluator.core.progress import Interrupts
from evaluator.odds.cluster import max_local_workers
from evaluator.odds.scheduler import read_address

REPO = Path(__file__).resolve().parents[1]
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for child processes")


def _dask_or_skip() -> Any:
    return pytest.importorskip("dask.distributed", reason="Dask is the optional extra pokerrules[dask]")


class Listener:
    """A loopback TCP listener that is not a Dask scheduler: it answers HTTP, closes, or stays silent."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.held: list[socket.socket] = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:  # closed
                return
            if self.kind == "http":
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                conn.close()
            elif self.kind == "close":
                conn.close()
            else:
                self.held.append(conn)  # silent: open, never a byte

    def close(self) -> None:
        self.server.close()
        for conn in self.held:
            conn.close()


@pytest.fixture
def listener(request: pytest.FixtureRequest) -> Iterator[Listener]:
    found = Listener(request.param)
    yield found
    found.close()


@pytest.mark.parametrize("address", ["garbage", "", "tcp://", "tcp://[::1", "http://h:80", "tcp://h:0", "h:70000"])
def test_an_address_that_is_not_one_is_bad_usage(address: str, capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["odds", "holdem", "AA", "random", "--samples", "100"], ["chart", "holdem", "--samples", "100"]):
        assert main([*command, "--scheduler", address]) == 2
        err = capsys.readouterr().err
        assert "error O119:" in err and repr(address) in err and "Traceback" not in err


def test_addresses_are_read_with_their_scheme_host_and_port() -> None:
    assert str(read_address("10.0.0.5:8786")) == "tcp://10.0.0.5:8786"
    assert str(read_address("TLS://scheduler.example.org:8786")) == "tls://scheduler.example.org:8786"
    assert str(read_address("tcp://[::1]:8786")) == "tcp://[::1]:8786"
    with pytest.raises(PokerRulesError) as caught:
        read_address("tcp://[::1")
    assert caught.value.code == "O119" and "brackets" in str(caught.value)


@pytest.mark.parametrize("workers", ["1000", "0", "-3"])
def test_workers_out_of_range_are_bad_usage(workers: str, capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["odds", "holdem", "AA", "random", "--samples", "100"], ["chart", "holdem", "--samples", "100"]):
        assert main([*command, "--workers", workers]) == 2
        err = capsys.readouterr().err
        assert "error O121:" in err and f"1 to {max_local_workers()}" in err and "Traceback" not in err


@pytest.mark.parametrize("timeout", ["nan", "0", "1000", "-1"])
def test_a_connection_timeout_out_of_range_is_bad_usage(
    timeout: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["odds", "holdem", "AA", "random", "--samples", "100", "--scheduler", "tcp://127.0.0.1:9"]
    assert main([*argv, "--connect-timeout", timeout]) == 2
    assert "error O123:" in capsys.readouterr().err
    monkeypatch.setenv("POKERRULES_CONNECT_TIMEOUT", timeout)
    assert main(argv) == 2
    assert "error O123: $POKERRULES_CONNECT_TIMEOUT" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("listener", "reason"),
    [
        ("http", "not a Dask handshake (it starts 'HTTP/1.1')"),
        ("close", "closed the connection without a handshake"),
        ("silent", "no handshake within 0.5 s"),
    ],
    indirect=["listener"],
)
def test_a_peer_that_is_not_a_scheduler_is_reported_not_read(
    listener: Listener, reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _dask_or_skip()
    address = f"tcp://127.0.0.1:{listener.port}"
    for command in (["odds", "holdem", "AA", "random", "--samples", "100"], ["chart", "holdem", "--samples", "100"]):
        assert main([*command, "--scheduler", address, "--connect-timeout", "0.5"]) == 1
        captured = capsys.readouterr()
        assert captured.out == "" and "Traceback" not in captured.err
        assert f"error O120: no Dask scheduler at {address}: " in captured.err and reason in captured.err


@pytest.mark.parametrize("listener", ["silent"], indirect=True)
def test_the_timeout_comes_from_the_environment(
    listener: Listener, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _dask_or_skip()
    monkeypatch.setenv("POKERRULES_CONNECT_TIMEOUT", "0.3")
    argv = ["odds", "holdem", "AA", "random", "--samples", "100", "--scheduler", f"127.0.0.1:{listener.port}"]
    assert main(argv) == 1
    assert "no handshake within 0.3 s" in capsys.readouterr().err
    assert main([*argv, "--connect-timeout", "0.2"]) == 1  # the option wins
    assert "no handshake within 0.2 s" in capsys.readouterr().err


@pytest.mark.parametrize("listener", ["silent"], indirect=True)
def test_tls_without_dask_tls_settings_is_refused_before_anything_is_sent(
    listener: Listener, capsys: pytest.CaptureFixture[str]
) -> None:
    _dask_or_skip()
    argv = ["odds", "holdem", "AA", "random", "--samples", "100", "--scheduler", f"tls://127.0.0.1:{listener.port}"]
    assert main(argv) == 1
    assert "error O120:" in (err := capsys.readouterr().err) and "needs Dask's TLS settings" in err


def test_a_real_scheduler_passes_the_check(capsys: pytest.CaptureFixture[str]) -> None:
    distributed = _dask_or_skip()
    argv = ["odds", "holdem", "QQ+,AKs", "random", "--samples", "70000", "--seed", "6", "--json"]
    assert main(argv) == 0
    alone = capsys.readouterr().out
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, protocol="tcp", dashboard_address=":0"
    ) as cluster:
        assert main([*argv, "--scheduler", cluster.scheduler_address]) == 0
        assert capsys.readouterr().out == alone
        assert (
            main(["chart", "holdem", "--samples", "300", "--seed", "2", "--scheduler", cluster.scheduler_address]) == 0
        )


def test_an_interrupt_stops_once_and_a_deferred_one_waits_for_its_block() -> None:
    """In this process: SIGINT raised where the work is, noted inside a deferred block, then ignored."""
    before = signal.getsignal(signal.SIGINT)
    try:
        with Interrupts():
            pass
        assert signal.getsignal(signal.SIGINT) is before  # no interrupt: the handler is put back
        steps = []
        with pytest.raises(KeyboardInterrupt), Interrupts() as interrupts:
            with interrupts.deferred():
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.05)  # the handler runs: the interrupt is only noted
                steps.append("the block ran to its end")
            steps.append("never reached")
        assert steps == ["the block ran to its end"]
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN  # a second Ctrl-C cannot cut the clean-up
        os.kill(os.getpid(), signal.SIGINT)  # and is ignored
        time.sleep(0.05)
    finally:
        signal.signal(signal.SIGINT, before)


# Ctrl-C: the command line as a subprocess, interrupted once its work has started.


def _descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (read from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _interrupt(argv: list[str], marker: bytes, twice: bool, group: bool) -> tuple[int, str, str, set[int]]:
    """Start ``pokerrules argv``, wait for its progress bar ``marker`` (the work has started), send
    SIGINT (twice: again 20 ms later; group: to its whole process group, as a terminal does),
    and return (exit code, stdout, stderr, the processes it had started)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "evaluator", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        start_new_session=True,  # a process group of its own, as a terminal's foreground job
    )
    assert process.stderr is not None and process.stdout is not None
    seen = b""
    deadline = time.monotonic() + 300
    while marker + b" [" not in seen:  # its progress bar: "pokerrules: chart of holdem [---]   0%"
        assert time.monotonic() < deadline and process.poll() is None, seen.decode()
        ready, _, _ = select.select([process.stderr], [], [], 1.0)
        if ready:
            seen += os.read(process.stderr.fileno(), 4096)
    started = _descendants(process.pid)

    def send() -> None:
        if group:
            os.killpg(process.pid, signal.SIGINT)
        else:
            process.send_signal(signal.SIGINT)

    send()
    if twice:
        time.sleep(0.02)
        send()
    out, err = process.communicate(timeout=120)
    return process.returncode, out.decode(), (seen + err).decode(), started


def _one_message(err: str) -> None:
    lines = [line for line in err.splitlines() if line.strip()]
    progress = re.compile(r"pokerrules: .*(\[[#-]+\] +[0-9]+%| done in [0-9.]+ s)$")
    assert [line for line in lines if not progress.match(line)] == ["pokerrules: interrupted"], err[-3000:]


@linux_only
@pytest.mark.usefixtures("table_cache")
@pytest.mark.parametrize("twice", [False, True])
def test_ctrl_c_during_odds_exits_130_with_one_message(twice: bool) -> None:
    argv = ["odds", "omaha", "random", "random", "--samples", "50000000", "--seed", "1"]
    code, out, err, _ = _interrupt(argv, b"odds under omaha", twice, group=False)
    assert code == 130 and out == ""
    _one_message(err)


@linux_only
@pytest.mark.usefixtures("table_cache")
@pytest.mark.parametrize(("twice", "group"), [(False, False), (True, True)])
def test_ctrl_c_during_a_chart_on_a_local_cluster_closes_it(twice: bool, group: bool) -> None:
    _dask_or_skip()
    argv = ["chart", "holdem", "--samples", "2000000", "--seed", "1", "--workers", "2"]
    code, out, err, started = _interrupt(argv, b"chart of holdem", twice, group)
    assert code == 130 and out == ""
    _one_message(err)
    assert started  # the cluster's processes (its workers, the server that forks them)
    deadline = time.monotonic() + 60
    while any(_alive(pid) for pid in started) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [pid for pid in started if _alive(pid)], "processes left behind"
