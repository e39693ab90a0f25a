"""The shipped reference data is complete and unedited, and CI cannot pass without it."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from refdata import REFERENCE_DATA_ENV, REQUIRE_DATA_ENVS, default_reference_data_dir

DATA = default_reference_data_dir()
TESTS = Path(__file__).resolve().parent


def _manifest() -> list[tuple[str, str]]:
    """(sha256, relative path) of every line of ``tests/data/SHA256SUMS``."""
    rows = []
    for line in (DATA / "SHA256SUMS").read_text(encoding="ascii").splitlines():
        digest, name = line.split(maxsplit=1)
        rows.append((digest, name.lstrip("*").removeprefix("./")))
    return rows


def test_every_data_file_matches_its_recorded_checksum() -> None:
    rows = _manifest()
    assert len(rows) >= 20
    for digest, name in rows:
        assert hashlib.sha256((DATA / name).read_bytes()).hexdigest() == digest, name


def test_every_data_file_is_listed_and_every_folder_documented() -> None:
    listed = {name for _, name in _manifest()}
    documentation = {"README.md", "SHA256SUMS", "description.md", "poker-hand.names"}
    present = {p.relative_to(DATA).as_posix() for p in DATA.rglob("*") if p.is_file() and p.name not in documentation}
    assert present == listed
    folders = [p for p in DATA.iterdir() if p.is_dir()]
    assert len(folders) == 7
    for folder in folders:
        readme = (folder / "README.md").read_text(encoding="utf-8")
        assert "http" in readme or "GitHub" in readme, folder.name  # where it was taken from
        assert "licen" in readme.lower(), folder.name  # every folder states its licence (or that none is stated)
    top = (DATA / "README.md").read_text(encoding="utf-8")
    assert all(f"{folder.name}/" in top for folder in folders)


def _pytest(env_changes: dict[str, str | None], *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    for name in (*REQUIRE_DATA_ENVS, REFERENCE_DATA_ENV):
        env.pop(name, None)
    for name, value in env_changes.items():
        if value is not None:
            env[name] = value
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-rs", "-p", "no:cacheprovider", *args],
        capture_output=True,
        text=True,
        cwd=TESTS.parent,
        env=env,
        check=False,
    )


TARGETS = (
    "tests/test_reference_data.py::test_uva_10315_sample",
    "tests/test_reference_data.py::test_exercism_case_count",
)


@pytest.mark.parametrize("variable", REQUIRE_DATA_ENVS)
def test_a_reference_data_skip_fails_when_the_data_is_required(tmp_path: Path, variable: str) -> None:
    nowhere = str(tmp_path / "no-data-here")
    skipped = _pytest({REFERENCE_DATA_ENV: nowhere}, *TARGETS)
    assert skipped.returncode == 0, skipped.stdout + skipped.stderr
    assert "2 skipped" in skipped.stdout and "reference data not found" in skipped.stdout
    required = _pytest({REFERENCE_DATA_ENV: nowhere, variable: "1"}, *TARGETS)
    assert required.returncode == 1, required.stdout + required.stderr
    # a skip in a fixture is reported as an error, a skip marker as a failure: either fails the run
    assert required.stdout.count("may not skip") >= 2 and "skipped" not in required.stdout.splitlines()[-1]


def test_the_shipped_data_runs_without_a_skip_when_required() -> None:
    done = _pytest({"POKERRULES_REQUIRE_DATA": "1"}, *TARGETS)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout and "skipped" not in done.stdout
