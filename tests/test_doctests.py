"""The examples in the docstrings run and say what they show.

Every module of the package is imported by name (so under CI it is the
installed wheel's) and its doctests run as one test per module; a module
whose examples drift from the code fails here.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import evaluator


def module_names() -> list[str]:
    """Every module of the package, by dotted name."""
    found = ["evaluator"]
    for info in pkgutil.walk_packages(evaluator.__path__, prefix="evaluator."):
        if not info.name.endswith("__main__"):
            found.append(info.name)
    return sorted(found)


def test_every_stage_is_found() -> None:
    names = module_names()
    for stage in ("core", "rules", "engine", "compiled", "odds", "draw", "tools", "cli"):
        assert f"evaluator.{stage}" in names
    assert "evaluator.ruleset" in names and len(names) > 60


@pytest.mark.parametrize("name", module_names())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    seen: set[str] = set()
    for test in finder.find(module, name, globs=dict(vars(module))):
        if test.docstring in seen:
            continue  # a wrapper (an lru_cache of a function) shares its function's docstring
        seen.add(test.docstring or "")
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} docstring examples of {name} failed"
