"""``pokerrules check PATH...``: lint ruleset files, fix what can be fixed, and summarise.

Every path that can be read is checked (a folder as one tree, so its files'
``extends:`` reach each other); one that cannot is a Y101 diagnostic like any
other problem. The report is text (ending with one summary line), JSON or
GitHub annotations (:mod:`evaluator.tools.check_render`).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

from ..core.errors import Diagnostic
from ..core.words import counted
from .output import EXIT_OK, EXIT_PROBLEM, UsageError

if TYPE_CHECKING:
    from ..tools.check_fix import FixOutcome
    from ..tools.check_select import Selection


def run(args: argparse.Namespace, out: TextIO) -> int:
    """``pokerrules check``: lint ruleset files and report every diagnostic.

    Every path that can be read is checked; one that cannot is a Y101
    diagnostic like any other problem (exit 1). The text report ends with how
    many files were checked and what was found.
    """
    from ..core.progress import Progress
    from ..tools.check import render
    from ..tools.check_select import Selection

    report_format = check_format(args)
    selection = Selection.parse(args.select, args.ignore)
    with Progress("pokerrules check") as progress:
        fixed = fix_every_path(args.paths, args.root, selection, progress.step) if args.fix else []
        diagnostics, checked = check_every_path(args.paths, args.root, progress.step, selection)
    out.write(render(diagnostics, report_format))
    errors = [d for d in diagnostics if d.severity == "error"]
    warnings = [d for d in diagnostics if d.severity == "warning"]
    if report_format == "text":
        if args.fix:
            out.write(fixed_summary(fixed) + "\n")
        out.write(check_summary(checked, len(errors), len(warnings)) + "\n")
    return EXIT_PROBLEM if errors or (args.strict and warnings) else EXIT_OK


def fix_every_path(
    paths: Sequence[str],
    roots: Sequence[str],
    selection: Selection | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[FixOutcome]:
    """``check --fix``: apply the preferred quick fixes to every ruleset file under ``paths``.

    Each changed file is rewritten whole or not at all; the fixes are those
    the language server offers (:mod:`evaluator.tools.check_fix`).
    """
    from ..core.atomic_write import write_atomically
    from ..tools.check import collect_files
    from ..tools.check_fix import fix_file

    files = []
    for text in paths:  # a path that cannot be read is reported by the check that follows
        found, _, problem = collect_files([text])
        files += [] if problem else found
    outcomes = []
    for number, (path, found_roots) in enumerate(files, start=1):
        if progress is not None:
            progress(f"fixing {path} ({number} of {len(files)} files)")
        outcome = fix_file(str(path), (*found_roots, *roots), selection)
        if outcome.text is not None:
            write_atomically(path, outcome.text)
        outcomes.append(outcome)
    return outcomes


def fixed_summary(outcomes: Sequence[FixOutcome]) -> str:
    """The line ``check --fix`` prints before its summary.

    >>> fixed_summary([])
    'fixed nothing'
    """
    changed = [outcome for outcome in outcomes if outcome.applied]
    count = sum(len(outcome.applied) for outcome in changed)
    if not count:
        return "fixed nothing"
    files = len(changed)
    return f"fixed {count} problem{'s' * (count != 1)} in {files} file{'s' * (files != 1)}"


def check_format(args: argparse.Namespace) -> str:
    """The report format of ``check``: ``--format``, or json for ``--json`` (which no other format takes)."""
    if args.json and args.format not in (None, "json"):
        raise UsageError(f"pokerrules check: --json and --format {args.format} exclude each other")
    return str(args.format or ("json" if args.json else "text"))


def check_every_path(
    paths: Sequence[str],
    roots: Sequence[str] = (),
    progress: Callable[[str], None] | None = None,
    selection: Selection | None = None,
) -> tuple[list[Diagnostic], int]:
    """The diagnostics of every ruleset file under ``paths`` and how many files were checked
    (a path that cannot be read counts as one: it was asked for, and its Y101 is its result).

    A path that is neither a file nor a folder gives a Y101 diagnostic (first,
    in the order given) and the other paths are checked all the same. Each
    folder named is checked as one tree, so its files' ``extends:`` may reach
    each other; ``roots`` (``--root``) are further folders they may reach.
    """
    from ..tools.check import check_paths, find_files

    unreadable: list[Diagnostic] = []
    found_paths: list[str] = []
    files: dict[str, None] = {}
    for text in paths:
        found, problem = find_files([text])
        if problem:
            reason = "not a regular file or directory" if os.path.lexists(text) else "no such file or directory"
            unreadable.append(Diagnostic("Y101", f"cannot read {text}: {reason}", text, hint="check the path"))
            continue
        found_paths.append(text)
        files.update(dict.fromkeys(os.path.normpath(path) for path in found))
    diagnostics, _ = check_paths(found_paths, roots, progress, selection) if found_paths else ([], None)
    count = len(files) + len(unreadable)
    if selection is not None:
        unreadable = [d for d in unreadable if selection.wants(d.code)]
    return unreadable + diagnostics, count


def check_summary(files: int, errors: int, warnings: int) -> str:
    """The last line of a text ``check`` report.

    >>> check_summary(47, 0, 0)
    'checked 47 files: no problems'
    >>> check_summary(1, 2, 1)
    'checked 1 file: 2 errors, 1 warning'
    """

    found = [counted(n, word) for n, word in ((errors, "error"), (warnings, "warning")) if n]
    return f"checked {counted(files, 'file')}: {', '.join(found) or 'no problems'}"
