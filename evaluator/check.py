"""The linter behind ``pokerrules check``: collect every diagnostic, then report.

Each file is checked on its own (a broken file never stops the others): it is
loaded, validated against the schema, built (patterns parsed and checked) and
its examples run. Diagnostics are collected, never raised; the reporters render
them as text (``path:line:col: error CODE: message``), JSON or GitHub workflow
annotations, and the exit code is decided by the caller.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from .errors import Diagnostic, PokerRulesError

YAML_SUFFIXES = (".yaml", ".yml")


def find_files(paths: Sequence[str]) -> tuple[list[Path], str | None]:
    """Every ruleset file named or found under ``paths``; a usage problem, if any."""
    files: list[Path] = []
    for text in paths:
        path = Path(text)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.suffix in YAML_SUFFIXES and p.is_file()))
        elif path.is_file():
            files.append(path)
        else:
            return [], f"no such file or directory: {text}"
    return files, None


def check_file(path: Path) -> list[Diagnostic]:
    """Every diagnostic of one ruleset file."""
    from .examples import run_examples
    from .load import load_document
    from .ruleset import build_ruleset

    try:
        document = load_document(path)
        ruleset = build_ruleset(document, path)
    except PokerRulesError as problem:
        return list(problem.diagnostics)
    return run_examples(ruleset)


def check_paths(paths: Sequence[str]) -> tuple[list[Diagnostic], str | None]:
    """Check every file under ``paths``; returns the diagnostics and a usage problem."""
    files, problem = find_files(paths)
    if problem:
        return [], problem
    diagnostics: list[Diagnostic] = []
    for path in files:
        diagnostics.extend(check_file(path))
    return diagnostics, None


def render(diagnostics: Sequence[Diagnostic], report_format: str) -> str:
    """The diagnostics as text, JSON or GitHub workflow annotations."""
    if report_format == "json":
        return json.dumps([d.as_dict() for d in diagnostics], indent=2) + "\n"
    if report_format == "github":
        lines = []
        for d in diagnostics:
            level = "error" if d.severity == "error" else "warning"
            message = d.message.replace("%", "%25").replace("\n", "%0A")
            lines.append(f"::{level} file={d.source},line={d.line},col={d.col},title={d.code}::{message}")
        return "".join(line + "\n" for line in lines)
    return "".join(str(d) + "\n" for d in diagnostics)
