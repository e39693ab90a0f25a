"""Headless Chromium for the tests of the self-contained HTML pages (diff report, charts)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")

#: Skips a browser test on a machine without Chromium (CI installs it).
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="no browser: /usr/bin/chromium is missing (install Debian packages chromium and chromium-driver)",
)


def chromium(*args: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Run headless Chromium with ``args`` (``--dump-dom URL``, ``--screenshot=...``), a fresh profile
    under ``tmp_path`` and nothing reaching the network."""
    command = [
        str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}", *args,
    ]  # fmt: skip
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
