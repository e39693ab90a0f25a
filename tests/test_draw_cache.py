"""The cached video-poker returns are checked like the tables: every way in, refused.

A return file once was plain JSON under ``draw/``: a forged ``return: 1.5``
was printed as 150%, a planted file in a shared 0777 folder made by another
user was used after the W130 warning, a FIFO hung ``draw`` and a symlink to
``/dev/zero`` read gigabytes. Returns now go through :mod:`evaluator.core.diskcache`
(a folder of ours, no symlinks followed, regular files, bounded reads, an
HMAC keyed by the user's secret). Each attack here plants its file where the
command will look, runs ``draw`` (in a subprocess with a timeout and a memory
measure where it could hang or blow up) and checks the right return is printed.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from test_cache_security import MAX_RSS_KB, OTHER_UID, folder, run, warnings_in

from evaluator.cli.main import main
from evaluator.core import diskcache
from evaluator.draw.payback import MAGIC, RESULT_FORMAT, _cache_file, _read_cached, game_return
from evaluator.draw.paytable import PayTable, load_paytable

__all__ = ["folder"]  # the cache folder fixture of this test's own

#: A pay table of the twenty-card game: its exact return takes a second, not six.
TABLE = "paytable: twenty\nruleset: twenty-card\npays: {four_of_a_kind: 25, full_house: 9, three_of_a_kind: 3, two_pair: 2, pair: 1}\n"

pytestmark = pytest.mark.skipif(
    not diskcache.SUPPORTED or not Path("/proc/self/status").exists(),
    reason="needs O_NOFOLLOW, dir_fd support and /proc (Linux)",
)


@pytest.fixture()
def table(tmp_path: Path, folder: Path) -> tuple[PayTable, Path, float]:
    """(the pay table, the path its return is cached at, its true return), with nothing cached yet."""
    path = tmp_path / "twenty.yaml"
    path.write_text(TABLE, encoding="utf-8")
    loaded = load_paytable(path)
    truth = game_return(loaded, use_cache=False).return_
    assert 4.0 < truth < 4.1  # computed, never read: 406.77% (a pair pays, on a 20-card deck)
    return loaded, _cache_file(loaded), truth


def draw_return(cache: Path, table_path: Path) -> tuple[float, str]:
    """``pokerrules draw twenty-card --paytable FILE --json`` in a fresh process: (return, stderr)."""
    done = run(cache, "draw", "twenty-card", "--paytable", str(table_path), "--json")
    assert done.returncode == 0, done.stderr
    peak = int(done.stderr.rsplit("MAXRSS_KB", 1)[1])
    assert peak < MAX_RSS_KB, f"peak memory {peak} kB"
    return float(json.loads(done.stdout)["return"]), done.stderr


def forge(path: Path, key: bytes, value: float) -> None:
    """A return file claiming ``value``, signed with ``key`` (a guess, or the real one)."""
    payload = json.dumps(
        {"format": RESULT_FORMAT, "key": path.stem, "return": value, "variance": 1.0, "classes": 0}
        | {"categories": {}, "best_holds": []}
    ).encode()
    header = {"format": RESULT_FORMAT, "key": path.stem, "length": len(payload)}
    header["hmac"] = diskcache.CacheFolder(path.parent, -1, key).sign(MAGIC, header, payload)
    text = json.dumps(header).encode()
    path.write_bytes(MAGIC + len(text).to_bytes(4, "little") + text + payload)
    path.chmod(0o600)


def test_the_return_is_cached_signed_and_read_back(folder: Path, table: tuple[PayTable, Path, float]) -> None:
    loaded, path, truth = table
    assert game_return(loaded).return_ == truth and path.parent == folder
    assert path.read_bytes().startswith(MAGIC) and stat.S_IMODE(path.stat().st_mode) == 0o600
    again = game_return(loaded)
    assert again.from_cache and again.return_ == truth


def test_a_forged_return_is_refused_and_recomputed(folder: Path, table: tuple[PayTable, Path, float]) -> None:
    loaded, path, truth = table
    assert draw_return(folder, loaded.path or Path())[0] == truth  # makes the folder, its key and the file
    forge(path, b"a forger's guess at the key.....", 1.5)
    assert _read_cached(path, loaded) is None
    assert draw_return(folder, loaded.path or Path())[0] == truth  # 406.77%, not 150%
    assert _read_cached(path, loaded) is not None  # rewritten with the right answer
    # the control: the same forgery signed with the user's own key is believed
    forge(path, (folder / diskcache.KEY_NAME).read_bytes(), 1.5)
    cached = _read_cached(path, loaded)
    assert cached is not None and cached.return_ == 1.5


def test_plain_json_where_a_return_file_goes_is_refused(folder: Path, table: tuple[PayTable, Path, float]) -> None:
    loaded, path, truth = table
    game_return(loaded)
    data = {"format": RESULT_FORMAT, "key": path.stem, "return": 1.5, "variance": 1.0, "classes": 0}
    path.write_text(json.dumps(data | {"categories": {}, "best_holds": []}), encoding="utf-8")  # the old format
    assert _read_cached(path, loaded) is None
    legacy = folder / "draw" / f"{path.stem}.json"  # where earlier versions wrote it: never read
    legacy.parent.mkdir(mode=0o700)
    legacy.write_text(json.dumps(data | {"categories": {}, "best_holds": []}), encoding="utf-8")
    assert game_return(loaded).return_ == truth


def _world_writable(path: Path) -> None:
    path.chmod(0o777)


def _other_owner(path: Path) -> None:
    try:
        os.chown(path, OTHER_UID, -1)
    except PermissionError:
        pytest.skip("changing a folder's owner needs root (the simulated owner below runs everywhere)")


@pytest.mark.parametrize("spoil", [_world_writable, _other_owner], ids=["0777", "other-owner"])
def test_a_planted_return_in_a_folder_not_ours_is_not_used(
    folder: Path, table: tuple[PayTable, Path, float], spoil: object
) -> None:
    loaded, path, truth = table
    game_return(loaded)  # the folder and its key exist
    forge(path, (folder / diskcache.KEY_NAME).read_bytes(), 1.5)  # even correctly signed
    before = sorted((p.name, p.stat().st_mtime_ns) for p in folder.iterdir())
    spoil(folder)  # type: ignore[operator]
    value, err = draw_return(folder, loaded.path or Path())
    assert value == truth
    assert len(warnings_in(err)) == 1 and "W130" in err
    assert sorted((p.name, p.stat().st_mtime_ns) for p in folder.iterdir()) == before  # nothing read or written


def test_a_folder_of_another_user_simulated(
    folder: Path,
    table: tuple[PayTable, Path, float],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    loaded, path, truth = table
    game_return(loaded)
    forge(path, (folder / diskcache.KEY_NAME).read_bytes(), 1.5)
    monkeypatch.setattr(os, "geteuid", lambda: OTHER_UID)  # this process is now someone else
    monkeypatch.setattr(diskcache, "_warned", set())
    assert main(["draw", "twenty-card", "--paytable", str(loaded.path), "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["return"] == truth
    assert len(warnings_in(captured.err)) == 1 and "W130" in captured.err and "is owned by uid" in captured.err


def _fifo(path: Path) -> None:
    path.unlink(missing_ok=True)
    os.mkfifo(path, 0o600)


def _dev_zero(path: Path) -> None:
    path.unlink(missing_ok=True)
    path.symlink_to("/dev/zero")


def _sparse(path: Path) -> None:
    with path.open("wb") as handle:  # 2 GB that take no disk, starting like a return file
        handle.write(MAGIC + (100).to_bytes(4, "little"))
        handle.truncate(2 * 1024**3)


@pytest.mark.parametrize("make", [_fifo, _dev_zero, _sparse], ids=["fifo", "dev-zero", "sparse-2GB"])
def test_a_special_file_in_place_of_a_return_file(
    folder: Path, table: tuple[PayTable, Path, float], make: object
) -> None:
    loaded, path, truth = table
    game_return(loaded)
    make(path)  # type: ignore[operator]
    value, _ = draw_return(folder, loaded.path or Path())  # returns (the timeout would fail it), bounded memory
    assert value == truth
    info = path.lstat()
    assert stat.S_ISREG(info.st_mode) and info.st_size < 1024**2  # replaced by a real return file
    assert _read_cached(path, loaded) is not None
