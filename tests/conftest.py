"""Shared fixtures: where the reference data lives, and CI's rule that it must be there.

The reference data ships with the repository in ``tests/data`` (see its
README.md for each folder's source, licence and checks). Set
``$POKERRULES_REFERENCE_DATA`` to use another folder with the same layout. When
the folder is missing, tests that need it are skipped with a reason that
starts with ``reference data not found``; with ``$CI`` or
``$POKERRULES_REQUIRE_DATA`` set (``.ci/run`` sets the latter), the hook below
turns each such skip into a failure, so CI cannot pass without the data.

The command line's last line of defence turns a bug into one ``internal
error`` line and exit 70; here ``$POKERRULES_RAISE_INTERNAL`` is set (before any
test runs, so subprocesses inherit it), so that such a bug propagates with its
traceback and fails the test that met it instead of hiding behind the guard.

The locating helper :func:`reference_data_dir` lives in ``refdata.py`` so that
test modules can also use it at collection time (for parametrize ids); it is
re-exported here.
"""

from __future__ import annotations

import ctypes
import gc
import os
import shutil
import sys
import tempfile
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest
from refdata import MISSING_DATA_PREFIX, REFERENCE_DATA_ENV, data_required, missing_data_reason, reference_data_dir

from evaluator.cli.output import RAISE_INTERNAL_ENV
from evaluator.core import diskcache
from evaluator.core.resources import CACHE_ENV
from evaluator.rules import build

os.environ[RAISE_INTERNAL_ENV] = "1"

# load() keeps the last dozen rulesets it built, each with its tables and caches (up to
# 100 MB for the wild-card games once their batches have run): a test worker keeps four,
# so a module that goes through the catalogue does not hold a dozen games at once.
LOADED_IN_TESTS = 4
build.LOADED_LIMIT = LOADED_IN_TESTS

__all__ = ["reference_data_dir", "reference_data", "table_cache"]

_RUN_CACHE = pytest.StashKey[str]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--slow``: the generated-ruleset conformance suite runs thousands of examples, full
    decks included (``$POKERRULES_CONFORMANCE=slow`` does the same), instead of CI's bounded run,
    and the tests marked ``exhaustive`` run too."""
    parser.addoption(
        "--slow", action="store_true", default=False, help="the long profile: conformance and exhaustive tests"
    )
    parser.addoption(
        "--memory-log",
        metavar="FILE",
        default=None,
        help="append each test's memory to FILE (Linux): node id, MiB resident before and after, its own peak",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``exhaustive`` (a minute of CPU each, or a census of billions of pairs
    whose small cases run by default) run only with ``--slow``: CI keeps under its time."""
    if config.getoption("--slow") or os.environ.get("POKERRULES_CONFORMANCE") == "slow":
        return
    kept = [item for item in items if item.get_closest_marker("exhaustive") is None]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if item.get_closest_marker("exhaustive")])
        items[:] = kept


def pytest_report_header(config: pytest.Config) -> str:
    """Say in the session header which reference data is used (or that none is)."""
    found = reference_data_dir()
    required = " (required: a missing-data skip fails)" if data_required() else ""
    if found is None:
        return f"pokerrules reference data: not found ({REFERENCE_DATA_ENV} to override){required}"
    return f"pokerrules reference data: {found}{required}"


@pytest.fixture(scope="session")
def reference_data() -> Path:
    """The reference-data folder; skips the requesting test when it is absent."""
    found = reference_data_dir()
    if found is None:
        pytest.skip(missing_data_reason())
    return found


def pytest_configure(config: pytest.Config) -> None:
    """One cache folder for the whole run, unless ``$POKERRULES_CACHE`` names one: made by
    the main process before the workers start (they inherit it), so tables, suit
    valuations and strategy lists are built once for both workers, never in the user's
    cache; removed when the run ends. Tests that need an empty or a hostile cache make
    their own folder."""
    if hasattr(config, "workerinput") or os.environ.get(CACHE_ENV):
        return
    folder = tempfile.mkdtemp(prefix="pokerrules-tests-")  # mode 0700, as the cache wants
    os.environ[CACHE_ENV] = folder
    os.environ.setdefault(diskcache.SIZE_ENV, "4096")  # the whole catalogue's files: never pruned mid-run
    config.stash[_RUN_CACHE] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the run's cache folder (made by :func:`pytest_configure`)."""
    folder = config.stash.get(_RUN_CACHE, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop(CACHE_ENV, None)


@pytest.fixture()
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of this test's own instead of the run's: made (mode 0700, as the
    cache wants) and named in ``$POKERRULES_CACHE`` for the test."""
    made = tmp_path / "cache"
    made.mkdir(mode=0o700)
    monkeypatch.setenv(CACHE_ENV, str(made))
    return made


@pytest.fixture(scope="session")
def table_cache() -> Path:
    """The run's cache folder (``$POKERRULES_CACHE``, set for every test by
    :func:`pytest_configure`); a module may name it with
    ``pytestmark = pytest.mark.usefixtures("table_cache")``."""
    return Path(os.environ[CACHE_ENV])


# What a process keeps between questions, by module and name: a dict is emptied, a
# cached function cleared. Only modules already imported are touched (clearing never
# imports Dask or the draw stage into a module that did not use them); a name that is
# no longer there fails the module's teardown, so a renamed cache is not silently kept.
PROCESS_CACHES = (
    ("evaluator.draw.payback", "_FINAL_HANDS"),  # 60 MB per video-poker game
    ("evaluator.compiled.suitvalue_cache", "_MEMO"),  # suit-class valuations
    ("evaluator.odds.odds", "_PREPARED"),  # deal tables and share engines (and their rulesets)
    ("evaluator.odds.chart_run", "_PREPARED"),
    ("evaluator.odds.board_run", "_PLANS"),  # board-major plans: holding values per board class
    ("evaluator.odds.cluster", "_BUILT"),  # rulesets rebuilt from a document
    ("evaluator.odds.boards", "_combinations"),
    ("evaluator.tools.lint_coverage", "_ANALYSES"),
    ("evaluator.tools.showdown_share", "_drawn"),  # a diff's last draw of deals (and its rulesets)
    ("evaluator.rules.load", "_PARSED"),
    # the tests' own helpers: every five-card hand of 52 cards, censuses
    ("meeting", "every_hand"),
    ("test_flips", "all_hands"),
    ("test_flips", "found"),
)


def forget_process_caches() -> None:
    """Let go of every ruleset :func:`evaluator.load` keeps and of the caches in
    :data:`PROCESS_CACHES`, then give the freed heap back to the system (glibc's
    ``malloc_trim``: freed arrays otherwise stay in the process's arenas, and two
    workers on one machine would each keep their high-water mark)."""
    build.forget_loaded()
    for module_name, name in PROCESS_CACHES:
        module = sys.modules.get(module_name)
        if module is None:
            continue
        cache = getattr(module, name)
        if hasattr(cache, "cache_clear"):
            cache.cache_clear()
        else:
            cache.clear()
    gc.collect()
    _trim_heap()


def _trim_heap() -> None:
    if not sys.platform.startswith("linux"):
        return
    try:
        trim = ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc (musl): nothing to trim
        return
    trim(0)


def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Give the heap a test freed back to the system (a few milliseconds)."""
    _trim_heap()


@pytest.fixture(scope="module", autouse=True)
def _forget_rulesets_after_each_module() -> Iterator[None]:
    """A test module's rulesets and cached results are let go when it ends, so a worker
    that runs many modules holds the memory of its largest module, not of all of them."""
    yield
    forget_process_caches()


def _status_mib(*fields: str) -> list[int]:
    """Fields of ``/proc/self/status`` (``VmRSS``, ``VmHWM``) in MiB."""
    found = dict.fromkeys(fields, 0)
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in found:
                found[name] = int(value.split()[0]) // 1024
    return [found[name] for name in fields]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    """``--memory-log FILE``: one line per test, ``node id, resident before, after, peak``
    (MiB), the peak being the test's own (setup, call and teardown, the module's cleanup
    included when it is the module's last test): the high-water mark is reset before it.
    ``/proc/self/status`` is Linux's: elsewhere the option fails the first test."""
    log = item.config.getoption("--memory-log")
    if not log:
        yield
        return
    (before,) = _status_mib("VmRSS")
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as clear:
            clear.write("5")  # reset VmHWM to the current resident size
    except OSError:  # not Linux, or not allowed: the peak is then the process's so far
        pass
    yield
    after, peak = _status_mib("VmRSS", "VmHWM")
    with open(log, "a", encoding="utf-8") as out:
        out.write(f"{item.nodeid}\t{before}\t{after}\t{peak}\n")


def _skip_reason(report: pytest.TestReport) -> str:
    """The reason of a skipped report (pytest stores it as (path, line, reason))."""
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, None, None]:
    """With the data required, a reference-data skip is reported as a failure."""
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    if report.skipped and data_required():
        reason = _skip_reason(report)
        if MISSING_DATA_PREFIX in reason:
            report.outcome = "failed"
            report.longrepr = (
                f"{reason}\n(a reference-data test may not skip when $CI or $POKERRULES_REQUIRE_DATA is set)"
            )
