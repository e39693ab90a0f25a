"""The HTML report a person reads: a section per flip cause, colours, lowball best first, labels not cut."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from evaluator.cli.main import main

CHROMIUM = Path("/usr/bin/chromium")
needs_chromium = pytest.mark.skipif(not CHROMIUM.exists(), reason="no browser: /usr/bin/chromium is missing")

# Measures every chart label in the browser and writes what is clipped into the page (test copy only).
MEASURE = """<script>
window.addEventListener('load', () => {
  const clipped = [];
  for (const svg of document.querySelectorAll('svg.chart')) {
    const view = svg.viewBox.baseVal;
    for (const label of svg.querySelectorAll('text.label')) {
      const box = label.getBBox();
      if (box.x < view.x - 0.5 || box.x + box.width > view.x + view.width + 0.5) clipped.push(label.textContent);
    }
  }
  const out = document.createElement('pre');
  out.id = 'measured';
  out.textContent = JSON.stringify({labels: document.querySelectorAll('svg.chart text.label').length, clipped});
  document.body.appendChild(out);
});
</script>"""


def report(tmp_path: Path, a: str, b: str) -> tuple[str, dict]:
    page, data = tmp_path / f"{a}-{b}.html", tmp_path / f"{a}-{b}.json"
    import contextlib
    import io

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(["diff", a, b, "--samples", "300", "--html", str(page), "--json"]) == 0
    data.write_text(buffer.getvalue(), encoding="utf-8")
    return page.read_text(encoding="utf-8"), json.loads(buffer.getvalue())


@pytest.fixture(scope="module")
def italian(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict, Path]:
    folder = tmp_path_factory.mktemp("italian")
    page, data = report(folder, "italian", "standard")
    return page, data, folder


@pytest.fixture(scope="module")
def lowball(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict, Path]:
    folder = tmp_path_factory.mktemp("lowball")
    page, data = report(folder, "deuce-to-seven", "ace-to-five")
    return page, data, folder


def test_every_flip_cause_has_its_section(italian: tuple[str, dict, Path], lowball: tuple[str, dict, Path]) -> None:
    for page, data, _ in (italian, lowball):
        causes = [entry["cause"] for entry in data["flip_causes"]["causes"]]
        assert causes
        sections = re.findall(r'<section class="cause" data-cause="([a-z_]+)"', page)
        assert sections == causes
    assert "minimum straight flush" in italian[0] and "compare = 1" in italian[0]


def test_one_colour_per_category_on_both_sides(italian: tuple[str, dict, Path]) -> None:
    bars = re.findall(r'<rect class="bar" data-category="([a-z_]+)"[^>]*fill="(#[0-9a-f]{6})"', italian[0])
    colour: dict[str, set[str]] = {}
    for name, fill in bars:
        colour.setdefault(name, set()).add(fill)
    assert all(len(fills) == 1 for fills in colour.values()), colour
    shared = [
        name
        for name in colour
        if name
        in {c["name"] for c in italian[1]["categories"]["a"]} & {c["name"] for c in italian[1]["categories"]["b"]}
    ]
    assert len({next(iter(colour[name])) for name in shared}) == len(shared)  # no two share a colour


def test_lowball_charts_and_breakdown_are_best_first(lowball: tuple[str, dict, Path]) -> None:
    page, data, _ = lowball
    assert "best first: a low game" in page
    first_labels = re.findall(r'<text class="label"[^>]*><title>([a-z_]+)</title>', page)
    assert first_labels[0] == "high_card"  # the best low category leads each chart
    labels = re.findall(r"<tr><td>([0-9TJQKA]+-low[^<]*)</td>", page)
    assert labels[:2] == ["7-low", "8-low"] and "5-low (the wheel)" in labels
    assert [t["ruleset"] for t in data["lowball"]] == ["deuce-to-seven", "ace-to-five"]


@needs_chromium
@pytest.mark.parametrize("which", ["italian", "lowball"])
def test_chromium_labels_are_not_clipped(which: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    page, _, folder = request.getfixturevalue(which)
    probe = folder / "probe.html"
    probe.write_text(page.replace("</body>", MEASURE + "</body>"), encoding="utf-8")
    command = [
        str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=3000", "--dump-dom", probe.as_uri(),
    ]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    found = re.search(r'<pre id="measured">(.*?)</pre>', result.stdout)
    assert found, result.stderr[-2000:]
    measured = json.loads(found.group(1).replace("&quot;", '"'))
    assert measured["labels"] >= 12
    assert measured["clipped"] == []
