"""Where the paths a file names may lead, and what may be quoted.

A file from a stranger must not make pokerrules read, and then print, a file
the stranger cannot see (``extends: ../../.aws/credentials``). Every key that
names a file goes through this module: a ruleset's ``extends:`` and
``game.split[].ruleset``, a pay table's ``ruleset:`` (:data:`PATH_KEYS`). The
rules:

- A reference is a catalogue name (no ``/``, no ``.yaml``), or a *relative*
  path. A NUL byte or another control character (``Y126``) and a reference
  longer than 500 characters or with a name part longer than 255 bytes
  (``Y127``) are refused before any file system call. Absolute paths, ``~``,
  drive letters and URLs (``scheme:``) are refused (``Y120``).
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

import difflib
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core import resources
from ..core.codes import CODES
from ..core.errors import Diagnostic, LoadError, PokerRulesError, error
from .yaml_read import Position, read_file

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
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
#: Every key of every file kind that names another file: (schema file, key path;
#: ``[]`` is each item of a list). ``extends:`` is followed by :mod:`evaluator.rules.load`
#: through :func:`check_reference`, the others through :func:`ruleset_reference`
#: (``tests/test_hostile_paths.py`` walks the schemas and fails on a key not listed).
PATH_KEYS = (
    ("ruleset.schema.json", "extends"),
    ("ruleset.schema.json", "game.split[].ruleset"),
    ("paytable.schema.json", "ruleset"),
)
#: The longest reference followed (the schemas' ``maxLength`` of every key above).
MAX_REFERENCE_CHARS = 500
#: The longest path named on the command line or to ``load()`` (PATH_MAX of common systems).
MAX_PATH_CHARS = 4096
#: The longest folder or file name in a reference, in bytes (NAME_MAX of common file systems).
MAX_NAME_BYTES = 255
#: The codes of a reference refused by confinement: shown as they are wherever a reference is followed.
CONFINEMENT_CODES = frozenset({"Y120", "Y121", "Y122", "Y126", "Y127"})


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


def _unusable_character(value: str, controls: bool = True) -> int | None:
    """The index of the first NUL, control character (when ``controls``) or lone surrogate of ``value``, or None."""
    found = _CONTROL.search(value) if controls else re.search("\x00", value)
    if found is not None:
        return found.start()
    try:
        os.fsencode(value)
    except UnicodeError:
        return next(i for i, char in enumerate(value) if not _encodable(char))
    return None


def _encodable(char: str) -> bool:
    try:
        os.fsencode(char)
    except UnicodeError:
        return False
    return True


def check_reference_text(
    value: str,
    where: tuple[str, int, int],
    what: str = "extends",
    limit: int = MAX_REFERENCE_CHARS,
    controls: bool = True,
) -> None:
    """``Y126`` when a reference holds a character no file name can (NUL, a lone
    surrogate) or, inside a file (``controls``), a control character; ``Y127`` when
    it is too long to be one. Checked before the reference reaches the file system,
    whose errors would otherwise escape. A path given on the command line or to
    ``load()`` is the user's own (``controls=False``): any name the system allows.

    >>> check_reference_text("parents/base.yaml", ("r.yaml", 2, 10))
    >>> try:
    ...     check_reference_text("a\\x00b.yaml", ("r.yaml", 2, 10))
    ... except LoadError as problem:
    ...     print(problem.code)
    Y126
    """
    source, line, col = where
    hint = "use a catalogue name or a short path relative to this file"
    at = _unusable_character(value, controls)
    if at is not None:
        code = ord(value[at])
        shown = f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
        message = f"{what}: the reference holds {shown} at character {at + 1:,}, which a reference may not hold"
        raise error(LoadError, "Y126", message, source, line, col, hint=hint)
    longest = max((len(os.fsencode(part)) for part in re.split(r"[/\\]", value)), default=0)
    if len(value) > limit or longest > MAX_NAME_BYTES:
        message = (
            f"{what}: the reference is {len(value):,} characters long; the limit is {limit:,}"
            if len(value) > limit
            else f"{what}: a name in the reference is {longest:,} bytes long; the limit is {MAX_NAME_BYTES}"
        )
        raise error(LoadError, "Y127", message, source, line, col, hint=hint)


def check_reference(
    value: str, referring: Path, confinement: Confinement, where: tuple[str, int, int], what: str = "extends"
) -> Path:
    """The file a relative reference names, or ``Y120`` at ``where`` when it may not be followed.

    ``referring`` is the file that wrote ``value``; ``where`` is the position
    (source, line, column) of the value.
    """
    check_reference_text(value, where, what)
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


def ruleset_reference(value: str, where: Position, roots: Sequence[str], what: str) -> str | Path:
    """What a key naming a ruleset (``game.split[].ruleset``, a pay table's ``ruleset:``) may load.

    A catalogue name is returned as it is. A path is taken from the file that
    wrote it (``where.source``), must stay inside ``roots`` (real paths; none:
    that file's own folder), and must be a ruleset: a file that does not parse,
    or is not a mapping of ruleset keys, is reported by code and position only.

    Raises:
        LoadError: ``Y126``/``Y127`` a reference no file can have, ``Y120`` one
            that leads outside, ``Y123`` a missing file, ``Y121`` not a ruleset.
    """
    position = (where.source, where.line, where.col)
    check_reference_text(value, position, what)
    if is_catalogue_name(value):
        if resources.catalogue_path(value) is None:  # reported here, at the key, not at "name:1:1"
            close = difflib.get_close_matches(value, resources.catalogue_names(), n=3)
            hint = "did you mean " + " or ".join(repr(name) for name in close) + "?" if close else None
            raise error(LoadError, "Y123", f"{what}: no ruleset named {value!r} in the catalogue", *position, hint=hint)
        return value
    confinement = Confinement(tuple(roots) or Confinement.around(Path(where.source)).roots)
    target = check_reference(value, Path(where.source), confinement, position, what)
    if not target.is_file():
        raise error(LoadError, "Y123", f"{what}: cannot find {value!r}", *position)
    try:
        parsed = read_file(target)
    except PokerRulesError as problem:
        raise quiet_errors(problem, f"the file named by {what} cannot be read as a ruleset") from None
    if not looks_like_ruleset(parsed.data):
        message = (
            f"the file named by {what} is not a ruleset (its top level is not a mapping "
            "of ruleset keys); its content is not shown"
        )
        raise error(LoadError, "Y121", message, str(target), 1, 1)
    return target
