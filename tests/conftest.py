"""Shared fixtures: where the external reference data lives.

The reference data (``shared/data``, see its README.md) sits next to the
repository checkout: ``Path(__file__).resolve().parents[2] / "shared" / "data"``.
Set ``$POKERRULES_SHARED_DATA`` to use another folder. When the folder is
missing, tests that need it are skipped with a reason (CI has it).

The locating helper :func:`shared_data_dir` lives in ``refdata.py`` so that
test modules can also use it at collection time (for parametrize ids); it is
re-exported here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from refdata import SHARED_DATA_ENV, missing_data_reason, shared_data_dir

__all__ = ["shared_data_dir", "shared_data"]


def pytest_report_header(config: pytest.Config) -> str:
    """Say in the session header which reference data is used (or that none is)."""
    found = shared_data_dir()
    if found is None:
        return f"pokerrules reference data: not found ({SHARED_DATA_ENV} to override)"
    return f"pokerrules reference data: {found}"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The reference-data folder; skips the requesting test when it is absent."""
    found = shared_data_dir()
    if found is None:
        pytest.skip(missing_data_reason())
    return found
