"""Every source path the docs and docstrings name exists.

README.md, DESIGN.md and docs/*.md name files of the repository
(``evaluator/compiled/fasthand.py``, ``docs/json/chart.schema.json``,
``benchmarks/bench.py``) and link to each other; the package's docstrings and
comments name files too. A file that moves or is renamed must take those
mentions along: this test finds every one and checks that it exists.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = [REPO / "README.md", REPO / "DESIGN.md", *sorted((REPO / "docs").glob("*.md"))]
SOURCES = sorted((REPO / "evaluator").rglob("*.py"))
TOP_FOLDERS = ("evaluator", "tests", "benchmarks", "grammar", "rulesets", "paytables", "docs", ".ci")
STAGES = ("core", "rules", "engine", "compiled", "odds", "draw", "tools", "cli")
# a path from the repository root: evaluator/odds/chart.py, docs/json/, tests/data/...
_TOPS = "|".join(re.escape(t) for t in TOP_FOLDERS)
ROOTED = re.compile(rf"(?<![\w/.-])((?:{_TOPS})/[A-Za-z0-9_./*-]*[A-Za-z0-9_*/])")
# a module of the package named from its stage, as DESIGN.md does: compiled/suitclasses.py
STAGED = re.compile(rf"(?<![\w/.-])((?:{'|'.join(STAGES)})/[A-Za-z0-9_]+\.py)\b")
# a relative Markdown link: [text](json/chart.schema.json)
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
# a dotted name of the package: evaluator.odds.chart.chart, evaluator.load
DOTTED = re.compile(r"(?<![\w.])(evaluator(?:\.[A-Za-z_]\w*)+)")
# the shipped data folders are inside the wheel under evaluator/
IN_THE_WHEEL = {"evaluator/grammar": "grammar", "evaluator/rulesets": "rulesets", "evaluator/paytables": "paytables"}


def named_paths(text: str) -> list[str]:
    """The repository paths a text names (globs and folders included).

    >>> named_paths("see `evaluator/compiled/fasthand.py` and compiled/suitclasses.py.")
    ['evaluator/compiled/fasthand.py', 'evaluator/compiled/suitclasses.py']
    """
    found = [match.rstrip(".") for match in ROOTED.findall(text)]
    found += ["evaluator/" + match for match in STAGED.findall(text)]
    return found


def exists(name: str, base: Path = REPO) -> bool:
    """Whether a named path exists (a glob, a regular expression's ``.*`` or a
    placeholder such as ``NAME``: whether it matches something)."""
    for wheel, checkout in IN_THE_WHEEL.items():
        if name == wheel or name.startswith(wheel + "/"):
            name = checkout + name[len(wheel) :]
    name = re.sub(r"\b[A-Z]{3,}\b", "*", name.replace(".*", "*"))
    if any(char in name for char in "*?["):
        return any(base.glob(name))
    return (base / name.rstrip("/")).exists()


def _mentions(path: Path) -> list[tuple[int, str]]:
    return [
        (number, name)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        for name in named_paths(line)
    ]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_path_a_doc_names_exists(doc: Path) -> None:
    missing = [f"{doc.name}:{number}: {name}" for number, name in _mentions(doc) if not exists(name)]
    assert not missing, "paths named in the docs that do not exist:\n" + "\n".join(missing)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_of_a_doc_exists(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    links = [link for link in LINK.findall(text) if not re.match(r"[a-z]+:", link)]
    missing = [link for link in links if not (doc.parent / link).exists()]
    assert not missing, f"{doc.name} links to files that do not exist: {missing}"


def test_every_path_the_package_names_exists() -> None:
    missing = [
        f"{source.relative_to(REPO)}:{number}: {name}"
        for source in SOURCES
        for number, name in _mentions(source)
        if not exists(name)
    ]
    assert not missing, "paths named in docstrings and comments that do not exist:\n" + "\n".join(missing)


def resolves(dotted: str) -> bool:
    """Whether ``evaluator.a.b.c`` names a module of the package or something in one.

    >>> resolves("evaluator.odds.chart.chart"), resolves("evaluator.odds.OddsResult")
    (True, False)
    """
    import importlib

    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


@pytest.mark.parametrize("path", DOCS + SOURCES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_dotted_name_resolves(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    names = sorted({name.rstrip(".") for name in DOTTED.findall(text)})
    missing = [name for name in names if not resolves(name)]
    assert not missing, f"{path.name} names what the package does not have: {missing}"


def test_a_stale_path_is_found() -> None:
    text = "## `pokerrules eval` (`evaluator/cli_eval.py`), like compiled/fasthand.py and docs/json/"
    names = named_paths(text)
    assert names == ["evaluator/cli_eval.py", "docs/json/", "evaluator/compiled/fasthand.py"]
    assert [exists(name) for name in names] == [False, True, True]
    assert exists("evaluator/rulesets/standard.yaml") and exists("rulesets/*.yaml")
    assert not exists("rulesets/*.toml")
