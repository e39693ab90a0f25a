"""Where a rule file's ``extends:`` and ``game.split`` paths may lead, and what may be quoted.

A rule file from a stranger must not make pokerrules read, and then print, a
file the stranger cannot see (``extends: ../../.aws/credentials``). The rules:

- A reference is a catalogue name (no ``/``, no ``.yaml``), or a *relative*
  path. Absolute paths, ``~``, drive letters and URLs (``scheme:``) are
  refused (``Y120``).
- A relative path is taken from the folder of the file that writes it, and
  its *real* path (symbolic links followed) must lie inside an allowed folder
  tree: the folder of the file the user named, a folder the user named
  (``pokerrules check DIR``), or a root given with ``--root`` /
  ``load(..., root=...)``. Anything else -- ``..`` that climbs out, a symbolic
  link that points out -- is refused (``Y120``) *before* the file is opened,
  so not even its existence is revealed.
- A rule file that is itself a symbolic link must point inside its own
  folder tree (or a root): ``Y122``.
- Nothing is quoted from a parent file unless it was read as a ruleset: a
  parent that does not parse, or whose top level is not a mapping of ruleset
  keys, is reported by code and position only (``Y121``; the message, hint
  and source line are replaced). Source lines under a diagnostic therefore
  come only from the file the user named or from parents that are rulesets
  inside the allowed trees.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.codes import CODES
from ..core.errors import Diagnostic, LoadError, PokerRulesError, error

# Top-level keys of a ruleset file (the schema's properties). A parent whose
# keys are not all among these is some other file: it is never quoted.
RULESET_KEYS = frozenset(
    {
        "$schema",
        "name",
        "title",
        "source",
        "extends",
        "deck",
        "ace",
        "direction",
        "hand",
        "categories",
        "order",
        "wild",
        "natural_beats_wild",
        "suits",
        "beats",
        "qualifier",
        "game",
        "examples",
    }
)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


@dataclass(frozen=True, slots=True)
class Confinement:
    """The folder trees (real paths) that references may reach."""

    roots: tuple[str, ...]

    @classmethod
    def around(cls, named: Path, extra: Iterable[str | Path] = ()) -> Confinement:
        """The trees for a file the user named: its own folder, plus ``extra`` roots.

        >>> Confinement.around(Path("/srv/rules/a.yaml")).roots[0].endswith("rules")
        True
        """
        home = os.path.realpath(os.path.dirname(os.path.abspath(named)))
        return cls(tuple(dict.fromkeys([home, *(os.path.realpath(r) for r in extra)])))

    def allows(self, path: str | Path) -> bool:
        """Whether the real path of ``path`` lies inside one of the trees."""
        real = os.path.realpath(path)
        return any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in self.roots)


def user_roots(root: str | Path | Sequence[str | Path] | None) -> tuple[str, ...]:
    """The roots a caller named, as real paths (``None``: none)."""
    if root is None:
        return ()
    items = [root] if isinstance(root, (str, Path)) else list(root)
    return tuple(os.path.realpath(item) for item in items)


def is_catalogue_name(ref: str) -> bool:
    """A catalogue name has no directory part and no YAML suffix."""
    return "/" not in ref and "\\" not in ref and not ref.lower().endswith((".yaml", ".yml"))


def check_reference(
    value: str, referring: Path, confinement: Confinement, where: tuple[str, int, int], what: str = "extends"
) -> Path:
    """The file a relative reference names, or ``Y120`` at ``where`` when it may not be followed.

    ``referring`` is the file that wrote ``value``; ``where`` is the position
    (source, line, column) of the value.
    """
    source, line, col = where
    hint = "use a catalogue name or a path relative to this file, inside its folder (or name a root with --root)"
    if value.startswith(("/", "\\", "~")) or os.path.isabs(value) or _SCHEME.match(value):
        kind = "a URL" if "://" in value else "an absolute path"
        raise error(
            LoadError,
            "Y120",
            f"{what}: {value!r} is {kind}; only relative paths are followed",
            source,
            line,
            col,
            hint=hint,
        )
    target = referring.parent / value
    if not confinement.allows(target):
        raise error(
            LoadError,
            "Y120",
            f"{what}: {value!r} leads outside the allowed folder tree "
            f"({'..' if '..' in Path(value).parts else 'a symbolic link'})",
            source,
            line,
            col,
            hint=hint,
        )
    return target


def check_named_file(path: Path, confinement: Confinement) -> None:
    """``Y122`` when a rule file is a symbolic link to somewhere outside the trees."""
    if os.path.islink(path) and not confinement.allows(path):
        message = "the file is a symbolic link that points outside its folder tree; it is not read"
        raise error(
            LoadError,
            "Y122",
            message,
            str(path),
            1,
            1,
            hint="copy the file into the folder, or name its folder with --root",
        )


def looks_like_ruleset(data: Any) -> bool:
    """Whether parsed data is a mapping whose keys are all ruleset keys."""
    return isinstance(data, dict) and all(isinstance(key, str) and key in RULESET_KEYS for key in data)


def quiet_errors(problem: PokerRulesError, note: str) -> LoadError:
    """The same problems, by code and position only: nothing of the file's text is kept.

    Used for files reached through ``extends:`` or ``game.split`` that were
    not read as a ruleset, whose content must never be printed.
    """
    quiet = [
        Diagnostic(
            d.code,
            f"{note}: {CODES.get(d.code, 'it cannot be read')} (its content is not shown)",
            d.source,
            d.line,
            d.col,
            d.severity,
        )
        for d in problem.diagnostics
    ]
    return LoadError(quiet)


def not_a_ruleset(source: str) -> LoadError:
    """``Y121``: a parent that parsed, but is not a ruleset mapping."""
    return LoadError(
        Diagnostic(
            "Y121",
            "the file named by extends: is not a ruleset (its top level is not a mapping "
            "of ruleset keys); its content is not shown",
            source,
            1,
            1,
        )
    )
