"""Which diagnostics ``pokerrules check`` reports: ``--select``, ``--ignore`` and ignore comments.

The conventions of linters:

- ``--select CODES`` keeps only the codes named, ``--ignore CODES`` drops
  them. A code may be given whole (``W104``) or by a prefix (``W``, ``W10``);
  when a code matches both options, the longer prefix decides, so
  ``--select W --ignore W104`` reports every warning but W104, and
  ``--ignore W --select W104`` only W104. A name that matches no code is a
  usage error.
- A comment ``# pokerrules: ignore[W104]`` (several codes separated by
  commas, prefixes allowed) anywhere in a file silences those codes for that
  file: for every diagnostic of checking it, and for the diagnostics located in
  it when a file that extends it is checked (a finding about inherited values
  only, reported at the child's ``extends:``, counts as located in the parents). A comment that names no code, or
  a code that does not exist, is itself reported (``W140``), so a typo cannot
  silence nothing quietly.

Ignoring only changes the report: a file with an ignored error is still
refused by ``load``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.codes import CODES
from ..core.errors import Diagnostic, PokerRulesError, UsageError

if TYPE_CHECKING:
    from ..rules.load import Document

__all__ = ["IgnoreComment", "Selection", "filtered", "ignore_comments", "known_prefix"]

# `# pokerrules: ignore[...]` after the start of a line or a space (YAML starts a comment so)
_COMMENT = re.compile(r"(?:^|(?<=\s))#\s*pokerrules\s*:\s*ignore\b(?P<rest>.*)$", re.M)
_CODES = re.compile(r"^\s*\[(?P<codes>[^\]]*)\]")


def known_prefix(name: str) -> bool:
    """Whether ``name`` is a code or the prefix of one (``W``, ``W10``, ``W104``; ``ALL``).

    >>> known_prefix("W10"), known_prefix("W9"), known_prefix("ALL")
    (True, False, True)
    """
    return name == "ALL" or (bool(name) and any(code.startswith(name) for code in CODES))


def _split(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(part.strip().upper() for value in values for part in value.split(",") if part.strip())


def _longest(code: str, prefixes: Iterable[str]) -> int:
    """The length of the longest of ``prefixes`` that ``code`` starts with (-1: none; ALL: 0)."""
    return max((0 if p == "ALL" else len(p) for p in prefixes if p == "ALL" or code.startswith(p)), default=-1)


@dataclass(frozen=True)
class Selection:
    """The codes to report (``--select``; empty: every code) and the codes not to (``--ignore``)."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    @classmethod
    def parse(cls, select: Sequence[str] = (), ignore: Sequence[str] = ()) -> Selection:
        """From the command line's values (each may list codes separated by commas).

        >>> Selection.parse(["W,E101"], ["w104"])
        Selection(select=('W', 'E101'), ignore=('W104',))
        >>> Selection.parse(["X1"])
        Traceback (most recent call last):
        ...
        evaluator.core.errors.UsageError: pokerrules check: --select X1 names no diagnostic code (see docs/codes.md)
        """
        chosen, dropped = _split(select), _split(ignore)
        for option, names in (("--select", chosen), ("--ignore", dropped)):
            for name in names:
                if not known_prefix(name):
                    raise UsageError(f"pokerrules check: {option} {name} names no diagnostic code (see docs/codes.md)")
        return cls(chosen, dropped)

    def wants(self, code: str) -> bool:
        """Whether diagnostics of ``code`` are reported.

        >>> rule = Selection(select=("W",), ignore=("W104",))
        >>> rule.wants("W101"), rule.wants("W104"), rule.wants("E101")
        (True, False, False)
        """
        chosen = _longest(code, self.select) if self.select else 0
        dropped = _longest(code, self.ignore)
        return chosen >= 0 and chosen > dropped


@dataclass(frozen=True)
class IgnoreComment:
    """One ``# pokerrules: ignore[...]`` comment: the codes it names and where it is."""

    codes: tuple[str, ...]
    line: int
    col: int
    end_col: int  # just after the comment's closing bracket (or its last character)


def ignore_comments(text: str) -> list[IgnoreComment]:
    """Every ignore comment of a file's text, with its 1-based line and column.

    >>> ignore_comments("hand: {size: 5}  # pokerrules: ignore[W104, e101]\\n")
    [IgnoreComment(codes=('W104', 'E101'), line=1, col=18, end_col=50)]
    """
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        for match in _COMMENT.finditer(line):
            if _inside_quotes(line[: match.start()]):
                continue
            codes = _CODES.match(match.group("rest"))
            names = _split([codes.group("codes")]) if codes else ()
            end = match.start("rest") + (codes.end() if codes else 0)
            found.append(IgnoreComment(names, number, match.start() + 1, end + 1))
    return found


def _inside_quotes(before: str) -> bool:
    """Whether a ``#`` after ``before`` sits inside a quoted YAML string (then it starts no comment)."""
    return before.count('"') % 2 == 1 or before.count("'") % 2 == 1


def comment_problems(comments: Sequence[IgnoreComment], source: str) -> list[Diagnostic]:
    """W140: ignore comments that name no code, or a code that does not exist."""
    problems = []
    for comment in comments:
        unknown = [name for name in comment.codes if not known_prefix(name)]
        if not comment.codes:
            message = "this ignore comment names no code, so it ignores nothing"
            hint = "name the codes it ignores: # pokerrules: ignore[W104]"
        elif unknown:
            message = f"this ignore comment names {', '.join(unknown)}, which {'is' if len(unknown) == 1 else 'are'} no diagnostic code"
            hint = "the codes are listed in docs/codes.md"
        else:
            continue
        problems.append(Diagnostic("W140", message, source, comment.line, comment.col, "warning", hint))
    return problems


def _text_of(source: str) -> str | None:
    """The text of a file as the check read it (an editor's buffer first), None when unreadable."""
    from ..rules.yaml_read import decode_utf8, read_bytes

    try:
        return decode_utf8(read_bytes(Path(source)), source)
    except (PokerRulesError, OSError, ValueError):
        return None


def filtered(
    diagnostics: Sequence[Diagnostic], path: Path, document: Document | None, selection: Selection | None
) -> list[Diagnostic]:
    """The diagnostics of checking ``path`` that its ignore comments and ``selection`` keep, with W140 added.

    The checked file's comments apply to all of its diagnostics; a parent's
    comments to the diagnostics located in that parent, and to those reported
    at the file's ``extends:`` because they are about inherited values only.
    """
    source = str(path)
    text = _text_of(source)
    own = ignore_comments(text) if text is not None else []
    found = list(diagnostics)
    found += [d for d in comment_problems(own, source) if d not in found]
    silenced: dict[str, tuple[str, ...]] = {}
    parents = set(document.sources[1:]) if document is not None else set()

    def silenced_in(where: str) -> tuple[str, ...]:
        if where not in silenced:
            parent_text = _text_of(where) if where in parents else None
            silenced[where] = tuple(c for comment in ignore_comments(parent_text or "") for c in comment.codes)
        return silenced[where]

    mine = tuple(code for comment in own for code in comment.codes)
    # a finding about inherited values only is reported at the file's own extends: (see lint_place)
    extends = document.positions.get(("extends",)) if document is not None else None
    kept = []
    for diagnostic in found:
        names = mine if diagnostic.source == source else mine + silenced_in(diagnostic.source)
        if extends is not None and (diagnostic.source, diagnostic.line, diagnostic.col) == (
            extends.source,
            extends.line,
            extends.col,
        ):
            names += tuple(code for parent in sorted(parents) for code in silenced_in(parent))
        if diagnostic.code != "W140" and _longest(diagnostic.code, names) >= 0:
            continue
        if selection is not None and not selection.wants(diagnostic.code):
            continue
        kept.append(diagnostic)
    order = {name: rank for rank, name in enumerate(document.sources if document is not None else (source,))}
    return sorted(kept, key=lambda d: (order.get(d.source, len(order)), d.source, d.line, d.col, d.code))
