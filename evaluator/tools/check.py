"""The linter behind ``pokerrules check``: collect every diagnostic, then report.

Each file is checked on its own (a broken file never stops the others), in
stages:

1. **load** -- safe YAML, limits, ``extends:`` (``Y1xx``); a file that cannot
   be read stops here;
2. **schema and build** -- the JSON Schema (``S1xx``); the values it rejects
   are taken out (:mod:`evaluator.tools.partial`) and the rest is built: patterns,
   order, deck, wild cards, ``describe:`` templates (``P1xx``, ``P2xx``,
   ``R1xx``, ``G1xx``, ``T1xx``), patterns of categories left out of
   ``order`` included. Every problem is reported, not just the first, and
   none that only follows from a value taken out. What makes a file unusable
   -- jokers that never play (``R114``), a deck too wide for the tables
   (``R104``), ``game.split`` halves that cannot be loaded -- is reported
   whatever else is wrong (``ruleset.unusable``; ``load`` refuses the same
   files). When the file has problems, the examples that do not depend on a
   broken part are run (``E1xx``) and the checks below wait for the whole file;
3. **lint** -- on a ruleset built without problems: categories this file defines, leaves
   out of ``order``, and that real hands match (``W101``; a definition no
   hand here can match is kept for the rulesets that extend this one),
   **coverage** -- a possible hand that matches no category
   (``R113``, ``R114``), categories no hand can reach (``W102``) or that an
   earlier category shadows (``W103``), found by enumerating hand classes
   within a work limit (``W104``); and every ``examples:`` entry run
   (``E1xx``).

Coverage works on hand *classes*, not hands: a hand without wild cards is
classified by its rank multiset and, for a full hand, whether it is a flush
(and in which suit, when a pattern asks). So every multiset of ``k`` ranks
the deck allows (each rank at most suits x packs times) is classified with
``Engine.classify``, for ``k`` from ``hand.min`` to ``hand.size``. With wild
cards, a class is the natural cards' multiset, whether they share one suit,
and how many wilds are held; a representative real hand of each class is
played through ``Engine.fill``, so the check agrees with the evaluator. The
work is estimated before anything is enumerated, and a ruleset over the limit
gets a ``W104`` warning instead of a long wait.

Diagnostics are collected, never raised; :func:`render` prints them as text
(``path:line:col: error CODE: message``), JSON or GitHub workflow annotations,
and the caller decides the exit code.

The checks of a built ruleset live in modules of their own, each adding to
the one below: :mod:`~evaluator.tools.lint_hands` (the deck's hands and real
example cards), :mod:`~evaluator.tools.lint_coverage` (enumerating hand
classes within the work limit; what it finds is kept on disk by
:mod:`~evaluator.tools.coverage_cache`), :mod:`~evaluator.tools.lint_reach` (``W102``,
``W103``) and :mod:`~evaluator.tools.lint_unused` (``W101``);
:mod:`~evaluator.tools.lint_place` says where a finding is reported and
:mod:`~evaluator.tools.check_render` prints the diagnostics.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import Diagnostic, PokerRulesError, raise_internal
from ..core.safe_text import visible
from .check_render import render
from .coverage_cache import Hole
from .lint_place import diagnostic, place_of
from .lint_reach import _Reachability
from .lint_unused import _UnusedCategories

if TYPE_CHECKING:
    from ..rules.load import Document
    from ..ruleset import Ruleset
    from .check_select import Selection

__all__ = [
    "YAML_SUFFIXES",
    "Examined",
    "check_file",
    "examine_file",
    "check_paths",
    "collect_files",
    "find_files",
    "lint",
    "render",
]

YAML_SUFFIXES = (".yaml", ".yml")


# --------------------------------------------------------------------------- files


def find_files(paths: Sequence[str]) -> tuple[list[Path], str | None]:
    """Every ruleset file named or found under ``paths``; a usage problem, if any.

    Directories are searched recursively for ``*.yaml`` and ``*.yml``; hidden
    files and folders (``.github``, ``.pre-commit-config.yaml``) are skipped
    there, since they are not rule files. A file named explicitly is always
    checked, and each file is checked once.
    """
    found, _, problem = collect_files(paths)
    return [path for path, _ in found], problem


def collect_files(paths: Sequence[str]) -> tuple[list[tuple[Path, tuple[str, ...]]], list[Diagnostic], str | None]:
    """The files to check, each with the folders it may reach; what cannot be read; a usage problem.

    A folder named on the command line is a root for the files found in it
    (their ``extends:`` may reach anywhere inside it). A named path that
    exists but is not a regular file (a FIFO, a device) is reported, never
    opened; a folder that cannot be read is reported (``Y125``), not skipped.
    """
    files: list[tuple[Path, tuple[str, ...]]] = []
    problems: list[Diagnostic] = []
    for text in paths:
        path = Path(text)
        try:
            mode = os.stat(path).st_mode
        except (OSError, ValueError):
            return [], [], f"no such file or directory: {visible(text)}"
        if stat.S_ISDIR(mode):
            root = (os.path.realpath(path),)
            files.extend((found, root) for found in _walk(path, problems))
        elif stat.S_ISREG(mode):
            files.append((path, ()))
        else:
            problems.append(
                Diagnostic("Y101", "cannot read this: not a regular file (a pipe, a device or a socket)", text, 1, 1)
            )
    unique: dict[str, tuple[Path, tuple[str, ...]]] = {}
    for path, roots in files:
        unique.setdefault(os.path.normpath(path), (path, roots))
    return list(unique.values()), problems, None


def _walk(top: Path, problems: list[Diagnostic] | None = None) -> list[Path]:
    found = []

    def unreadable(problem: OSError) -> None:
        if problems is not None:
            where = str(problem.filename) if problem.filename is not None else str(top)
            problems.append(
                Diagnostic(
                    "Y125",
                    f"cannot read this folder ({problem.strerror or problem}); its files are not checked",
                    where,
                    1,
                    1,
                )
            )

    # os.walk does not follow symbolic links to folders, so a link loop cannot hang the search.
    for folder, subfolders, names in os.walk(top, onerror=unreadable):
        subfolders[:] = sorted(name for name in subfolders if not name.startswith("."))
        for name in sorted(names):
            if name.endswith(YAML_SUFFIXES) and not name.startswith("."):
                candidate = Path(folder) / name
                if candidate.is_file():
                    found.append(candidate)
    return found


def check_file(
    path: Path, roots: Sequence[str] = (), *, full: bool = True, selection: Selection | None = None
) -> list[Diagnostic]:
    """Every diagnostic of one ruleset file, sorted by position.

    ``roots`` are folders (besides the file's own) that its ``extends:`` and
    ``game.split`` paths may reach. ``full=False`` stops after the build
    (load, schema, patterns, order, deck, wild cards, templates): what an
    editor shows as you type, before coverage and the examples. The file's
    ``# pokerrules: ignore[CODE]`` comments and ``selection`` (``--select``,
    ``--ignore``) decide which diagnostics are kept.
    """
    return examine_file(path, roots, full=full, selection=selection).diagnostics


@dataclass
class Examined:
    """What checking one file found: its diagnostics, and what could be read of it."""

    diagnostics: list[Diagnostic]
    document: Document | None = None  # the merged document, when the file could be loaded
    ruleset: Ruleset | None = None  # the ruleset built from its readable part


def examine_file(
    path: Path, roots: Sequence[str] = (), *, full: bool = True, selection: Selection | None = None
) -> Examined:
    """:func:`check_file`, with the merged document and the ruleset built on the way.

    The language server reads them for hover, completion and go-to-definition.
    """
    from .check_select import filtered

    examined = _examine(path, roots, full)
    examined.diagnostics = filtered(examined.diagnostics, path, examined.document, selection)
    return examined


def _examine(path: Path, roots: Sequence[str], full: bool) -> Examined:
    """The diagnostics of one file, before ignore comments and selection."""
    from ..rules.build import build_readable
    from ..rules.load import load_document
    from ..ruleset import Ruleset, unusable
    from .examples import run_examples
    from .partial import doubts_of, readable_part

    source = str(path)
    try:
        document = load_document(path, root=roots)
    except PokerRulesError as problem:
        return Examined(list(problem.diagnostics))
    except Exception as bug:  # noqa: BLE001 - one broken file must not stop the others
        return Examined([_internal_error(bug, source)])
    from ..draw.paytable import check_paytable_file, is_paytable

    if is_paytable(document):  # a pay table (paytables/): its own schema and checks
        try:
            return Examined(_sorted(check_paytable_file(path, document), document), document)
        except Exception as bug:  # noqa: BLE001
            return Examined([_internal_error(bug, source)], document)
    try:
        readable = readable_part(document)
        if readable.document is None:
            return Examined(_sorted(readable.diagnostics, document), document)
        ruleset, builder = build_readable(readable.document, path, readable.removed, Ruleset)
    except PokerRulesError as problem:
        return Examined(_sorted(problem.diagnostics, document), document)
    except Exception as bug:  # noqa: BLE001
        return Examined([_internal_error(bug, source)], document)
    found = readable.diagnostics + builder.problems
    doubts = doubts_of(readable.removed, builder.located, builder.broken)
    if not full:
        return Examined(_sorted(found, document), document, ruleset)
    # what makes the file unusable is reported whatever else is wrong (load refuses the same)
    if not doubts.everything:
        found += _run_stage(partial(unusable, ruleset, source), source)
    if not doubts.any and not builder.problems:
        return Examined(_sorted(found + lint(ruleset, source), document), document, ruleset)
    # Coverage and reachability need the whole ruleset; the examples that do
    # not depend on a broken part can still be judged.
    if not doubts.everything:
        found += _run_stage(partial(run_examples, ruleset, doubts.trusts), source)
    return Examined(_sorted(found, document), document, ruleset)


def _run_stage(stage: Callable[[], list[Diagnostic]], source: str) -> list[Diagnostic]:
    try:
        return stage()
    except Exception as bug:  # noqa: BLE001 - report it and go on
        return [_internal_error(bug, source)]


def lint(ruleset: Ruleset, source: str | None = None) -> list[Diagnostic]:
    """The checks that need a built ruleset: unused categories, coverage, reachability, examples.

    Each stage runs on its own, so a bug in one still lets the others report.
    """
    from .examples import run_examples

    source = source or (ruleset.document.sources[0] if ruleset.document.sources else ruleset.name)
    stages: tuple[Callable[[], list[Diagnostic]], ...] = (
        lambda: _lint_hands(ruleset, source),
        lambda: run_examples(ruleset),
    )
    found: list[Diagnostic] = []
    for stage in stages:
        try:
            found += stage()
        except Exception as bug:  # noqa: BLE001 - report it and go on
            found.append(_internal_error(bug, source))
    return found


def _lint_hands(ruleset: Ruleset, source: str) -> list[Diagnostic]:
    """Coverage, reachability and shadowing; for wild cards a deal decides, of the deals' variants.

    Follow the Queen's hands are played with the trigger rank alone, or with one
    rank more; Low Hole Wild's with one rank wild, or none. A category is
    unreachable (a warning) only when it is in every variant; a hand no category
    takes is reported from any of them.
    """
    if not ruleset.wild.by_deal:
        return _Linter(ruleset, source).diagnostics()
    from ..deal.variant import variant

    extra = next((rank for rank in ruleset.deck_ranks if rank not in ruleset.wild.ranks), None)
    variants = [variant(ruleset)] + ([variant(ruleset, frozenset({extra}))] if extra is not None else [])
    results = [_Linter(made, source).diagnostics() for made in variants]  # type: ignore[arg-type]
    found: list[Diagnostic] = []
    seen: set[tuple[str, int, int]] = set()
    for diagnostics in results:
        for item in diagnostics:
            key = (item.code, item.line, item.col)
            if key in seen:
                continue
            if item.severity == "warning" and not all(
                any((other.code, other.line, other.col) == key for other in others) for others in results
            ):
                continue  # reachable under another set of wild cards
            seen.add(key)
            found.append(item)
    return found


def _internal_error(bug: Exception, source: str) -> Diagnostic:
    """R199: a bug met while checking a file, reported like any other finding
    (raised instead under ``$POKERRULES_RAISE_INTERNAL``, as the test suite runs)."""
    if raise_internal():
        raise bug
    message = f"internal error while checking this file: {type(bug).__name__}: {bug}"[:300]
    return Diagnostic(
        "R199", message, source, 1, 1, "error", "this is a bug in pokerrules; please report it with the file"
    )


def check_paths(
    paths: Sequence[str],
    roots: Sequence[str] = (),
    progress: Callable[[str], None] | None = None,
    selection: Selection | None = None,
) -> tuple[list[Diagnostic], str | None]:
    """Check every file under ``paths``; returns the diagnostics and a usage problem.

    ``roots`` (``--root``) are folders every file's ``extends:`` may reach;
    ``progress`` is told which file is being checked; ``selection`` keeps the
    codes of ``--select`` / ``--ignore``.

    A diagnostic found through several files (a problem in a shared parent)
    is reported once.
    """
    files, unreadable, problem = collect_files(paths)
    if problem:
        return [], problem
    diagnostics: dict[Diagnostic, None] = dict.fromkeys(
        d for d in unreadable if selection is None or selection.wants(d.code)
    )
    for number, (path, found_roots) in enumerate(files, start=1):
        if progress is not None:
            progress(f"{path} ({number} of {len(files)} files)")
        diagnostics.update(dict.fromkeys(check_file(path, (*found_roots, *roots), selection=selection)))
    return list(diagnostics), None


def _sorted(diagnostics: Sequence[Diagnostic], document: Document) -> list[Diagnostic]:
    order = {source: rank for rank, source in enumerate(document.sources)}
    unique = list(dict.fromkeys(diagnostics))
    return sorted(unique, key=lambda d: (order.get(d.source, len(order)), d.source, d.line, d.col, d.code))


# --------------------------------------------------------------------------- lint


class _Linter(_Reachability, _UnusedCategories):
    """Coverage, reachability and shadowing of one built ruleset."""

    # --- the report --------------------------------------------------------------------

    def diagnostics(self) -> list[Diagnostic]:
        found: list[Diagnostic] = []
        refused = self._too_costly()
        if refused:
            return refused  # tables that cannot be built: coverage would only repeat it, slowly
        analysis = self._analysis()
        found += self._unused(analysis)
        if not analysis.complete:
            where, note = place_of(self.document, self.source, ("hand", "size"), ("hand",))
            why = (
                f"the evaluator refuses some hands ({analysis.refused})"
                if analysis.refused
                else f"the ruleset has too many hand classes to enumerate (more than the limit of {self._work_limit():,} units of work)"
            )
            found.append(
                diagnostic(
                    "W104",
                    f"coverage and reachability not checked: {why}{note}",
                    where,
                    "warning",
                    "a smaller hand, deck or fewer wild cards can be checked",
                )
            )
            return found
        for hole in analysis.holes:
            found.append(self._hole(hole))
        found += self._unreachable(analysis)
        return found

    def _too_costly(self) -> list[Diagnostic]:
        """R130/R131: lookup tables that would take too long to build, or cannot be built
        (estimated, never built here: see :mod:`evaluator.compiled.build_cost`)."""
        from ..ruleset import table_refusal

        if self.dead_jokers:
            return []  # refused already (R114, ruleset.unusable)
        return table_refusal(self.ruleset, self.source)

    def _hole(self, hole: Hole) -> Diagnostic:
        where, note = place_of(self.document, self.source, ("order",))
        cards = " ".join(str(card) for card in hole.example)
        full = hole.size == self.size
        what = "a hand" if full else f"an incomplete hand of {hole.size} card{'s' * (hole.size > 1)}"
        others = f" ({hole.count:,} hand classes in all)" if hole.count > 1 else ""
        catch_all = " ".join("XYZWVU"[: self.size]) if self.size <= 6 else None
        if full and catch_all:
            hint = (
                f'add a category that matches it, e.g. a catch-all high_card: {{pattern: "{catch_all}"}} last in order'
            )
        elif full:
            hint = "add a category that matches it, e.g. a catch-all last in order"
        else:
            hint = (
                f"hand.min is {self.ruleset.hand_min}: some category must match hands of {hole.size} cards "
                "(shapes may leave out trailing single cards; run, flush and comparisons of a missing card fail)"
            )
        return diagnostic("R113", f"{what} such as {cards} matches no category{others}{note}", where, "error", hint)
