"""The cache folder is hostile until proven ours: regression tests for each way in.

Every attack here was once possible: Lark's pickle cache ran a planted payload,
a forged table file with a recomputed checksum was trusted, a FIFO hung every
command, a symlink to /dev/zero or a 2 GB file filled memory, a shared folder
made by another user was used as is, a symlink at the destination had its
target overwritten, and a killed write left its temporary file forever. The
commands run in a subprocess (``POKERRULES_CACHE`` pointing at a folder made
by the test), with a timeout, and their answers are checked.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import pickle
import stat
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from evaluator import load
from evaluator.compiled.array_payload import pack, unpack
from evaluator.compiled.fast import FastRanker
from evaluator.compiled.table_cache import MAGIC, cache_path, read_cache, write_cache
from evaluator.compiled.tables import build_tables, load_tables
from evaluator.core import diskcache
from evaluator.core.resources import CACHE_ENV
from evaluator.rules import pattern_memo
from evaluator.rules.parsercache import MAGIC as PARSER_MAGIC
from evaluator.rules.parsercache import pattern_cache_name

REPO = Path(__file__).resolve().parents[1]
TIMEOUT = 120  # a hang (FIFO) would never end; a normal run takes about a second
OTHER_UID = 12345
ROYAL = "As Ks Qs Js Ts"
#: The fast path (and so the table cache) through the Python API, in a fresh process.
TABLE_SCRIPT = (
    "import sys\n"
    "from evaluator import load\n"
    "from evaluator.compiled.tables import tables_for\n"
    "rs = load('short-deck')\n"
    "tables = tables_for(rs)\n"
    f"royal = rs.rank(rs.encode({ROYAL!r}))\n"
    "quads = rs.rank(rs.encode('9s 9h 9d 9c Ks'))\n"
    "print(tables.category_of(royal), royal > quads, tables.from_cache)\n"
)
#: Runs the CLI and reports its peak memory (VmHWM: of this process image only --
#: ru_maxrss would count the test process it was forked from), whatever happens.
CLI_SCRIPT = (
    "import sys\n"
    "from evaluator.cli.main import main\n"
    "try:\n"
    "    code = main(sys.argv[1:])\n"
    "finally:\n"
    "    with open('/proc/self/status') as status:\n"
    "        peak = [line.split()[1] for line in status if line.startswith('VmHWM:')][0]\n"
    "    sys.stderr.write(f'\\nMAXRSS_KB {peak}\\n')\n"
    "sys.exit(code)\n"
)
MAX_RSS_KB = 600_000  # the attacks grew memory to 2-3 GB; a normal run uses ~40 MB

pytestmark = pytest.mark.skipif(
    not diskcache.SUPPORTED or not Path("/proc/self/status").exists(),
    reason="needs O_NOFOLLOW, dir_fd support and /proc (Linux)",
)


@pytest.fixture()
def folder(own_cache: Path) -> Path:
    """A cache folder of this test's own (``own_cache`` in conftest)."""
    return own_cache


def run(cache: Path, *args: str, script: str = CLI_SCRIPT) -> subprocess.CompletedProcess[str]:
    """Run a script (the CLI by default) in a fresh process using ``cache``."""
    env = dict(os.environ, PYTHONPATH=str(REPO), **{CACHE_ENV: str(cache)})
    env.pop(diskcache.SIZE_ENV, None)
    command = [sys.executable, "-c", script, *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=REPO, timeout=TIMEOUT, check=False)


def eval_royal(cache: Path) -> subprocess.CompletedProcess[str]:
    """``pokerrules eval standard <royal flush> --json``: must answer royal_flush."""
    done = run(cache, "eval", "standard", ROYAL, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["category"] == "royal_flush"
    peak = int(done.stderr.rsplit("MAXRSS_KB", 1)[1])
    assert peak < MAX_RSS_KB, f"peak memory {peak} kB"
    return done


def table_answer(cache: Path) -> subprocess.CompletedProcess[str]:
    """The fast path in a fresh process: a royal flush is a royal flush and beats quads."""
    done = run(cache, script=TABLE_SCRIPT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[:2] == ["royal_flush", "True"]
    return done


def warnings_in(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "warning W13" in line]


# --- 1. no pickle, ever -----------------------------------------------------------------------


class _WritesMarker:
    """Unpickling this object creates the marker file (what an attacker's payload would do)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (str(self.marker), "w"))


def payload(marker: Path) -> bytes:
    """A Lark-cache-shaped file: a hash line, then the pickle Lark used to load first."""
    return b"0" * 64 + b"\n" + pickle.dumps(_WritesMarker(marker))


def test_the_payload_is_live(tmp_path: Path) -> None:
    # the control: unpickling the planted bytes does write the marker
    marker = tmp_path / "control-marker"
    blob = payload(marker)
    pickle.loads(blob[blob.index(b"\n") + 1 :])
    assert marker.exists()


PLANTED = {
    "lark-cache": lambda: "pattern-grammar.lark-cache",
    "parser-file": pattern_cache_name,
    "tables-file": lambda: cache_path(load("short-deck")).name,
    "key-file": lambda: diskcache.KEY_NAME,
    "other-file": lambda: "anything.pickle",
}


@pytest.mark.parametrize("where", list(PLANTED))
def test_a_planted_pickle_never_runs(folder: Path, tmp_path: Path, where: str) -> None:
    marker = tmp_path / "marker"
    planted = folder / PLANTED[where]()
    planted.write_bytes(payload(marker))
    planted.chmod(0o600)
    eval_royal(folder)
    table_answer(folder)
    assert not marker.exists(), "the cache unpickled a planted file"
    if where == "lark-cache":
        assert not planted.exists()  # the old pickle cache is removed on the next write, never read
    if where == "key-file":
        assert planted.read_bytes() == payload(marker)  # a bad key is reported, not replaced


UNPICKLERS = {"pickle", "marshal", "shelve", "dill", "joblib", "cloudpickle"}


def test_the_sources_load_nothing_with_pickle() -> None:
    # a static guard: no pickle-like module, no Lark ``cache=`` option, every NumPy load with allow_pickle=False
    for source in sorted((REPO / "evaluator").rglob("*.py")):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [alias.name for alias in node.names] + [getattr(node, "module", None) or ""]
                assert not {n.split(".")[0] for n in names} & UNPICKLERS, source.name
            if isinstance(node, ast.Call):
                keywords = {k.arg: k.value for k in node.keywords}
                assert "cache" not in keywords, f"{source.name}:{node.lineno}: cache= (Lark's cache is a pickle)"
                func = ast.unparse(node.func)
                if func in ("np.load", "numpy.load"):
                    flag = keywords.get("allow_pickle")
                    assert isinstance(flag, ast.Constant) and flag.value is False, f"{source.name}:{node.lineno}"


# --- 2. a forged table is not trusted --------------------------------------------------------------


def _forge(path: Path, key: bytes) -> None:
    """Rewrite the table values (best becomes worst), then fix up everything a forger
    can: the payload length, a SHA-256 and an HMAC with the key given."""
    blob = path.read_bytes()
    length = int.from_bytes(blob[8:12], "little")
    header = json.loads(blob[12 : 12 + length])
    arrays = dict(unpack(blob[12 + length :]))
    top = len(arrays["categories"]) - 1
    for name in arrays:
        if name.startswith(("nf_values_", "fl_values_")):
            values = arrays[name]
            arrays[name] = np.where(values >= 0, top - values, values).astype(values.dtype)
    payload = pack(arrays)
    header.update(length=len(payload), sha256=hashlib.sha256(payload).hexdigest())
    forger = diskcache.CacheFolder(path.parent, -1, key)
    header["hmac"] = forger.sign(MAGIC, header, payload)
    text = json.dumps(header).encode()
    path.write_bytes(MAGIC + len(text).to_bytes(4, "little") + text + payload)


def _royal_value(tables: object) -> tuple[int, int]:
    fast = FastRanker(tables)  # type: ignore[arg-type]
    return fast.rank(fast.encode(ROYAL.split())), fast.rank(fast.encode(["2s", "3h", "4d", "5c", "7s"]))


def test_a_forged_table_is_rejected_and_rebuilt(folder: Path) -> None:
    rs = load("standard")
    built = load_tables(rs)
    path = cache_path(rs)
    royal, junk = _royal_value(built)
    assert royal > junk
    _forge(path, key=b"a forger's guess at the key.....")
    forged = path.read_bytes()
    assert read_cache(rs, path) is None, "a table signed without the user's key was trusted"
    rebuilt = load_tables(rs)
    assert not rebuilt.from_cache
    assert _royal_value(rebuilt) == (royal, junk)
    assert rebuilt.category_of(royal) == "royal_flush"
    assert path.read_bytes() != forged and read_cache(rs, path) is not None  # rewritten, and good


def test_the_forgery_itself_works_with_the_real_key(folder: Path) -> None:
    # the control: signed with the user's own key, the same forgery loads and
    # ranks the royal flush below junk -- so only the key stops it above
    rs = load("standard")
    royal, junk = _royal_value(load_tables(rs))
    _forge(cache_path(rs), key=(folder / diskcache.KEY_NAME).read_bytes())
    forged = read_cache(rs, cache_path(rs))
    assert forged is not None
    low_royal, high_junk = _royal_value(forged)
    assert low_royal < high_junk


def test_a_valid_file_of_another_owner_is_not_read(folder: Path) -> None:
    rs = load("short-deck")
    load_tables(rs)
    try:
        os.chown(cache_path(rs), OTHER_UID, -1)
    except PermissionError:
        pytest.skip("changing a file's owner needs root")
    assert read_cache(rs, cache_path(rs)) is None


# --- 3. special files in place of cache files ----------------------------------------------------


def _real_header(path: Path) -> dict[str, object]:
    """The header of the good cache file at ``path`` (so a fake passes every check
    that comes before reading the payload)."""
    blob = path.read_bytes()
    length = int.from_bytes(blob[8:12], "little")
    header: dict[str, object] = json.loads(blob[12 : 12 + length])
    return header


def _fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path, 0o600)


def _dev_zero(path: Path) -> None:
    path.unlink()
    path.symlink_to("/dev/zero")


def _sparse(path: Path) -> None:
    magic = path.read_bytes()[:8]
    header = _real_header(path)
    header["length"] = 0
    size = 2 * 1024**3
    for _ in range(2):  # the length changes the header's own length: settle it
        text = json.dumps(header).encode()
        header["length"] = size - 12 - len(text)
    text = json.dumps(header).encode()
    assert 12 + len(text) + int(header["length"]) == size  # type: ignore[call-overload]
    with path.open("wb") as handle:
        handle.write(magic + len(text).to_bytes(4, "little") + text)
        handle.truncate(size)  # a sparse file: 2 GB that take no disk


def _huge_header(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:8] + (0xFFFFFFF0).to_bytes(4, "little") + b"{")


def _deep_header(path: Path) -> None:
    text = b"[" * 60_000 + b"]" * 60_000
    path.write_bytes(path.read_bytes()[:8] + len(text).to_bytes(4, "little") + text)


def _short_payload(path: Path) -> None:
    magic = path.read_bytes()[:8]
    header = _real_header(path)
    header["length"] = 1_000_000
    text = json.dumps(header).encode()
    path.write_bytes(magic + len(text).to_bytes(4, "little") + text + b"x" * 10)


SPECIAL = {
    "fifo": _fifo,
    "dev-zero": _dev_zero,
    "sparse-2GB": _sparse,
    "huge-header": _huge_header,
    "deep-header": _deep_header,
    "short": _short_payload,
}


@pytest.mark.parametrize("make", list(SPECIAL))
def test_a_special_file_in_place_of_a_cache_file(folder: Path, make: str) -> None:
    eval_royal(folder)
    assert table_answer(folder).stdout.split()[2] == "False"  # built and cached
    parser_file = folder / pattern_cache_name()
    table_file = folder / cache_path(load("short-deck")).name
    memo_file = folder / pattern_memo._name()  # the patterns parsed before: without it, the parser is read
    for path in (parser_file, table_file, memo_file):
        SPECIAL[make](path)
    eval_royal(folder)  # returns (the timeout would fail it), right answer, bounded memory
    assert table_answer(folder).stdout.split()[2] == "False"  # not read: rebuilt
    for path in (parser_file, table_file, memo_file):
        info = path.lstat()
        assert stat.S_ISREG(info.st_mode) and info.st_size < 10 * 1024**2  # replaced by a real cache file
    assert table_answer(folder).stdout.split()[2] == "True"  # and that one is used


def test_a_symlink_to_a_good_cache_file_is_not_followed(folder: Path, tmp_path: Path) -> None:
    rs = load("twenty-card")
    load_tables(rs)
    path = cache_path(rs)
    elsewhere = tmp_path / "elsewhere.tables"
    path.rename(elsewhere)  # a valid, signed file, but outside the folder
    path.symlink_to(elsewhere)
    assert read_cache(rs, path) is None
    os.link(elsewhere, path.with_name("hardlinked.tables"))  # the same file under its own name is fine
    assert read_cache(rs, path.with_name("hardlinked.tables")) is not None


# --- 4. a folder that is not ours is not used ------------------------------------------------------


def _world_writable(path: Path) -> None:
    path.chmod(0o777)


def _group_writable(path: Path) -> None:
    path.chmod(0o770)


def _other_owner(path: Path) -> None:
    try:
        os.chown(path, OTHER_UID, -1)
    except PermissionError:
        pytest.skip("changing a folder's owner needs root")


@pytest.mark.parametrize("spoil", [_world_writable, _group_writable, _other_owner], ids=["0777", "0770", "other-owner"])
def test_a_folder_not_ours_is_not_used(folder: Path, tmp_path: Path, spoil: object) -> None:
    marker = tmp_path / "marker"
    (folder / "pattern-grammar.lark-cache").write_bytes(payload(marker))
    before = sorted(p.name for p in folder.iterdir())
    spoil(folder)  # type: ignore[operator]
    done = eval_royal(folder)
    assert len(warnings_in(done.stderr)) == 1 and "W130" in done.stderr and str(folder) in done.stderr
    done = table_answer(folder)
    assert done.stdout.split()[2] == "False" and len(warnings_in(done.stderr)) == 1
    assert sorted(p.name for p in folder.iterdir()) == before  # nothing read, written or removed
    assert not marker.exists()


def test_a_folder_readable_by_others_is_fine(folder: Path) -> None:
    folder.chmod(0o755)  # readable is not writable: the HMAC key file itself stays 0600
    done = eval_royal(folder)
    assert not warnings_in(done.stderr)
    key = (folder / diskcache.KEY_NAME).stat()
    assert stat.S_IMODE(key.st_mode) == 0o600 and key.st_size == diskcache.KEY_BYTES


def _key_symlink(key: Path) -> None:
    secret = key.parent.parent / "elsewhere"
    secret.write_bytes(b"k" * diskcache.KEY_BYTES)
    secret.chmod(0o600)
    key.symlink_to(secret)


def _key_readable(key: Path) -> None:
    key.write_bytes(b"k" * diskcache.KEY_BYTES)
    key.chmod(0o644)


def _key_short(key: Path) -> None:
    key.write_bytes(b"k")
    key.chmod(0o600)


def _key_fifo(key: Path) -> None:
    os.mkfifo(key, 0o600)


def _key_other_owner(key: Path) -> None:
    key.write_bytes(b"k" * diskcache.KEY_BYTES)
    key.chmod(0o600)
    try:
        os.chown(key, OTHER_UID, -1)
    except PermissionError:
        pytest.skip("changing a file's owner needs root")


@pytest.mark.parametrize(
    "spoil",
    [_key_symlink, _key_readable, _key_short, _key_fifo, _key_other_owner],
    ids=["symlink", "0644", "short", "fifo", "other-owner"],
)
def test_an_unsafe_key_file_means_no_cache(folder: Path, spoil: object, capsys: pytest.CaptureFixture[str]) -> None:
    key = folder / diskcache.KEY_NAME
    spoil(key)  # type: ignore[operator]
    with diskcache.open_folder(folder) as opened:
        assert opened is None
    err = capsys.readouterr().err
    assert len(warnings_in(err)) == 1 and "W131" in err
    rs = load("twenty-card")
    tables = load_tables(rs)
    assert not tables.from_cache and not cache_path(rs).exists()
    assert not write_cache(tables, cache_path(rs))


def test_a_new_folder_and_key_are_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made = tmp_path / "deep" / "cache"
    monkeypatch.setenv(CACHE_ENV, str(made))
    rs = load("twenty-card")
    load_tables(rs)
    assert stat.S_IMODE(made.stat().st_mode) == 0o700
    for path in made.iterdir():
        info = path.lstat()
        assert stat.S_ISREG(info.st_mode) and stat.S_IMODE(info.st_mode) == 0o600, path.name


# --- 5. writing: no symlink followed, no temporary file left, a size cap ------------------------


def test_a_symlink_at_the_destination_is_replaced_not_followed(folder: Path, tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    rs = load("twenty-card")
    for name in (pattern_cache_name(), cache_path(rs).name):
        (folder / name).symlink_to(victim)
    eval_royal(folder)
    assert write_cache(build_tables(rs), cache_path(rs))
    assert victim.read_text() == "precious"
    for name in (pattern_cache_name(), cache_path(rs).name):
        assert not (folder / name).is_symlink()
    assert read_cache(rs, cache_path(rs)) is not None


def test_a_stale_temporary_file_is_cleaned(folder: Path) -> None:
    rs = load("twenty-card")
    stale = folder / (cache_path(rs).name + ".0123456789abcdef.tmp")
    fresh = folder / (cache_path(rs).name + ".fedcba9876543210.tmp")
    not_ours = folder / "notes.tmp"
    for path in (stale, fresh, not_ours):
        path.write_bytes(b"x" * 1000)
    hour_ago = time.time() - 3600
    for path in (stale, not_ours):
        os.utime(path, (hour_ago, hour_ago))
    load_tables(rs)  # builds and writes: the write tidies the folder
    assert not stale.exists()
    assert fresh.exists()  # young enough to belong to a process still writing it
    assert not_ours.exists()  # not named as this cache names its files: someone else's
    not_ours.unlink()
    assert not [p for p in folder.iterdir() if p.suffix == ".tmp" and p not in (fresh,)]


def test_pruning_keeps_the_folder_under_the_cap(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(diskcache.SIZE_ENV, "0.05")  # about 52 kB
    cap = diskcache.max_bytes()
    assert cap == int(0.05 * 1024 * 1024)
    foreign = folder / "foreign.tables"  # oldest of all, but not written by this cache
    foreign.write_bytes(b"NOTOURS!" + bytes(5_000))
    os.utime(foreign, (1_000, 1_000))
    with diskcache.open_folder(folder) as opened:
        assert opened is not None
        names = [f"file-{i}.tables" for i in range(8)]
        for age, name in enumerate(names):
            assert opened.write(name, MAGIC, {"n": age}, bytes(15_000))
            os.utime(folder / name, (1_000_000 + age, 1_000_000 + age))  # strictly older first
        assert not opened.write("too-big.tables", MAGIC, {}, bytes(cap + 1))  # never cached at all
    kept = sorted(p.name for p in folder.iterdir() if p.suffix == ".tables" and p != foreign)
    assert foreign.exists()  # no magic of ours: never pruned
    assert sum((folder / name).stat().st_size for name in kept) + foreign.stat().st_size <= cap
    assert kept == names[-len(kept) :] and 1 <= len(kept) < len(names)  # the oldest went first
    assert (folder / diskcache.KEY_NAME).exists()  # the key is never pruned


def test_every_cache_file_kind_is_known_to_the_pruner() -> None:
    from evaluator.compiled import counting_cache, suitvalue_cache, table_cache
    from evaluator.draw import strategy_cache
    from evaluator.rules import parsercache
    from evaluator.tools import coverage_cache

    assert {table_cache.MAGIC, table_cache.GROWN_MAGIC, parsercache.MAGIC, suitvalue_cache.MAGIC} <= set(
        diskcache.MAGICS
    )
    assert suitvalue_cache.SUFFIX in diskcache.CACHE_SUFFIXES
    assert table_cache.grown_path(load("standard"), 8).suffix in diskcache.CACHE_SUFFIXES
    assert table_cache.DIRECT_MAGIC in diskcache.MAGICS
    assert table_cache.direct_path(load("badugi")).suffix in diskcache.CACHE_SUFFIXES
    assert strategy_cache.MAGIC in diskcache.MAGICS and strategy_cache.SUFFIX in diskcache.CACHE_SUFFIXES
    assert coverage_cache.MAGIC in diskcache.MAGICS and coverage_cache.SUFFIX in diskcache.CACHE_SUFFIXES
    assert counting_cache.MAGIC in diskcache.MAGICS and counting_cache.SUFFIX in diskcache.CACHE_SUFFIXES


def test_reading_marks_a_file_recently_used(folder: Path) -> None:
    with diskcache.open_folder(folder) as opened:
        assert opened is not None
        assert opened.write("a.tables", MAGIC, {"kind": "a"}, b"payload")
        os.utime(folder / "a.tables", (1_000_000, 1_000_000))
        assert opened.read("a.tables", MAGIC, {"kind": "a"}) == b"payload"
        assert opened.read("a.tables", MAGIC, {"kind": "b"}) is None  # the header must hold what is expected
        assert opened.read("a.tables", PARSER_MAGIC, {"kind": "a"}) is None  # and the kind of file
    assert (folder / "a.tables").stat().st_mtime > 1_000_000 + 3600


def test_the_size_cap_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(diskcache.SIZE_ENV, raising=False)
    assert diskcache.max_bytes() == 256 * 1024 * 1024
    monkeypatch.setenv(diskcache.SIZE_ENV, "10")
    assert diskcache.max_bytes() == 10 * 1024 * 1024
    for wrong in ("lots", "inf", "nan", ""):
        monkeypatch.setenv(diskcache.SIZE_ENV, wrong)
        assert diskcache.max_bytes() == 256 * 1024 * 1024
