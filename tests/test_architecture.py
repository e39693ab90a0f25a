"""The architecture holds: no import cycles, and imports only point down.

The layers are read from DESIGN.md (the fenced ``layers`` block, lowest
first), so the document and the check cannot drift apart. A line names one
layer; ``a | b`` are peers in one layer, which may not import each other. A
module may import its own unit (its subpackage, or itself) and any unit of a
lower layer. Every import counts: module level, function level, and those
under ``TYPE_CHECKING``. ``evaluator/__init__.py`` and ``__main__.py`` are the
package's entry points and stand above every layer.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Iterable
from pathlib import Path

import pytest

PACKAGE = "evaluator"
ROOT = Path(__file__).resolve().parents[1]
ENTRY_POINTS = {"__init__", "__main__"}


def read_layers(design_text: str) -> list[list[str]]:
    """The layers of the ```layers block, lowest first, each a list of unit names."""
    match = re.search(r"```layers\n(.*?)```", design_text, re.S)
    if match is None:
        raise AssertionError("DESIGN.md has no ```layers block")
    layers = []
    for line in match.group(1).splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            layers.append([unit.strip() for unit in line.split("|")])
    return layers


def module_name(package_dir: Path, path: Path) -> str:
    """The dotted name of the module at ``path`` inside ``package_dir``."""
    parts = list(path.relative_to(package_dir.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, name: str, is_package: bool) -> Iterable[str]:
    """Every module ``path`` imports (absolute names), at any level of the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    here = name.split(".") if is_package else name.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            yield target
            # `from . import x` / `from .pkg import mod` may name modules
            yield from (f"{target}.{alias.name}" for alias in node.names)


def import_graph(package_dir: Path) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (names that are not modules dropped)."""
    files = {module_name(package_dir, p): p for p in package_dir.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        targets = imports_of(path, name, path.name == "__init__.py")
        graph[name] = {t for t in targets if t in files and t != name}
    return graph


def unit_of(module: str) -> str:
    """The layer unit of a module: its first name below the package."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def violations(graph: dict[str, set[str]], layers: list[list[str]]) -> list[str]:
    """Imports against the layer order, and modules in no layer."""
    level = {unit: n for n, line in enumerate(layers) for unit in line}
    problems = []
    for module, targets in sorted(graph.items()):
        unit = unit_of(module)
        if unit in ENTRY_POINTS:
            continue
        if unit not in level:
            problems.append(f"{module}: its unit {unit!r} is in no layer of DESIGN.md")
            continue
        for target in sorted(targets):
            other = unit_of(target)
            if other == unit:
                continue
            if other in ENTRY_POINTS or other not in level or level[other] >= level[unit]:
                problems.append(f"{module} imports {target}: not a lower layer")
    return problems


# --- the package itself ----------------------------------------------------------


def test_the_package_has_no_import_cycle() -> None:
    assert cycles(import_graph(ROOT / PACKAGE)) == []


def test_imports_point_down_the_layers_of_design_md() -> None:
    layers = read_layers((ROOT / "DESIGN.md").read_text(encoding="utf-8"))
    assert violations(import_graph(ROOT / PACKAGE), layers) == []


def test_every_layer_of_design_md_exists() -> None:
    layers = read_layers((ROOT / "DESIGN.md").read_text(encoding="utf-8"))
    package = ROOT / PACKAGE
    for unit in (u for line in layers for u in line):
        assert (package / unit).is_dir() or (package / f"{unit}.py").is_file(), unit


# --- the checker on a small fake package: it must catch what it claims to --------


def make_package(root: Path, files: dict[str, str]) -> Path:
    package = root / "fake"
    for name, text in files.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    for folder in [package, *(p for p in package.rglob("*") if p.is_dir())]:
        (folder / "__init__.py").touch()
    return package


FAKE_LAYERS = read_layers("```layers\nlow\nmid_a | mid_b\ntop\n```")


def test_a_clean_fake_package_passes(tmp_path: Path) -> None:
    package = make_package(
        tmp_path,
        {
            "low/base.py": "",
            "mid_a/one.py": "from ..low import base\nfrom . import two\n",
            "mid_a/two.py": "import fake.low.base\n",
            "top.py": "def f():\n    from .mid_a.one import x\n",
        },
    )
    graph = import_graph(package)
    assert cycles(graph) == []
    assert violations(graph, FAKE_LAYERS) == []
    assert graph["fake.mid_a.one"] == {"fake.low", "fake.low.base", "fake.mid_a.two", "fake.mid_a"}


def test_a_cycle_is_found_even_through_a_function_level_import(tmp_path: Path) -> None:
    package = make_package(
        tmp_path,
        {
            "low/a.py": "from .b import thing\n",
            "low/b.py": "def f():\n    from .a import other\n",
        },
    )
    assert cycles(import_graph(package)) == [["fake.low.a", "fake.low.b"]]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from ..top import x\n", "fake.low.base imports fake.top: not a lower layer"),
        ("if True:\n    from fake.mid_a import one\n", "fake.low.base imports fake.mid_a.one: not a lower layer"),
        (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import fake.top\n",
            "fake.low.base imports fake.top: not a lower layer",
        ),
    ],
)
def test_an_upward_import_is_found(tmp_path: Path, source: str, expected: str) -> None:
    package = make_package(tmp_path, {"low/base.py": source, "mid_a/one.py": "", "top.py": ""})
    assert expected in violations(import_graph(package), FAKE_LAYERS)


def test_peers_in_one_layer_may_not_import_each_other(tmp_path: Path) -> None:
    package = make_package(tmp_path, {"mid_a/one.py": "from ..mid_b import two\n", "mid_b/two.py": ""})
    assert violations(import_graph(package), FAKE_LAYERS) == [
        "fake.mid_a.one imports fake.mid_b: not a lower layer",
        "fake.mid_a.one imports fake.mid_b.two: not a lower layer",
    ]


def test_a_module_outside_every_layer_is_reported(tmp_path: Path) -> None:
    package = make_package(tmp_path, {"stray.py": ""})
    assert violations(import_graph(package), FAKE_LAYERS) == [
        "fake.stray: its unit 'stray' is in no layer of DESIGN.md"
    ]
