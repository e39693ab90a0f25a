"""Loading a ruleset with its ``extends:`` chain: follow the chain, merge child over parent.

``load_document`` reads a file (or a catalogue name) with
:mod:`evaluator.rules.yaml_read`, then follows ``extends:`` (a catalogue name,
or a path relative to the extending file, which must stay inside the allowed
folder trees: see :mod:`evaluator.rules.confine`) and merges child over parent:
maps merge key by key, lists and scalars replace, ``null`` removes the parent's
key, and ``name``, ``title``, ``examples`` and ``extends`` are never inherited.
The merged :class:`Document` keeps, for each value, the position in the file
the value came from. Every failure is a :class:`~evaluator.core.errors.LoadError`
with a stable ``Y1xx`` code and a position; nothing else escapes for any input text.

The reading names (:class:`Document`, :class:`Position`, :func:`parse_yaml`,
:func:`read_file` and the limits) are re-exported here for the callers that
import them from this module.

>>> merge(parse_yaml("name: base\\nhand: {size: 5, min: 5}\\n"), parse_yaml("name: child\\nhand: {min: 3}\\n")).data
{'hand': {'size': 5, 'min': 3}, 'name': 'child'}
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..core import resources
from ..core.errors import LoadError
from . import document_memo
from .confine import (
    MAX_PATH_CHARS,
    Confinement,
    check_named_file,
    check_reference,
    check_reference_text,
    is_catalogue_name,
    looks_like_ruleset,
    not_a_ruleset,
    quiet_errors,
    user_roots,
)
from .yaml_read import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_NODES,
    MAX_SCALAR_CHARS,
    Document,
    Position,
    YamlPath,
    buffer_of,
    decode_utf8,
    did_you_mean,
    fail_at,
    fail_load,
    parse_yaml,
    read_bytes,
    read_file,
)

__all__ = [
    "MAX_CHAIN_BYTES",
    "MAX_CHAIN_NODES",
    "MAX_DEPTH",
    "MAX_EXTENDS",
    "MAX_FILE_BYTES",
    "MAX_NODES",
    "MAX_SCALAR_CHARS",
    "Document",
    "Position",
    "YamlPath",
    "load_document",
    "merge",
    "parse_yaml",
    "read_file",
]

MAX_EXTENDS = 16  # `extends:` links followed from the file asked for
# A whole chain counts as one file for the size and value limits, so a chain of
# large parents cannot multiply the work of one check.
MAX_CHAIN_BYTES = MAX_FILE_BYTES
MAX_CHAIN_NODES = 100_000

_NOT_INHERITED = frozenset({"name", "title", "examples", "extends"})
_YAML_SUFFIXES = (".yaml", ".yml")


def _is_name(ref: str) -> bool:
    """A catalogue name has no directory part and no YAML suffix."""
    return is_catalogue_name(ref)


def _identity(path: Path) -> str:
    """A file's identity for cycle detection (`a.yaml` and `./a.yaml` are one file)."""
    try:
        return str(path.resolve())
    except (OSError, RuntimeError):  # a symlink loop
        return os.path.abspath(path)


def _resolve_ref(ref: str | Path, base_dir: Path | None) -> Path:
    """The file named by a top-level reference: a catalogue name or a path."""
    if isinstance(ref, str):
        check_reference_text(ref, ("<ruleset>", 1, 1), "ruleset", MAX_PATH_CHARS, controls=False)
    if isinstance(ref, str) and _is_name(ref):
        found = resources.catalogue_path(ref)
        if found is None:
            fail_load(
                "Y101",
                f"no ruleset named {ref!r} in the catalogue",
                ref,
                hint=_file_here_hint(ref) or did_you_mean(ref, resources.catalogue_names()),
            )
        return found
    path = Path(ref)
    return base_dir / path if base_dir is not None and not path.is_absolute() else path


def _file_here_hint(name: str) -> str | None:
    """A name that is no catalogue ruleset but a file in the working folder (``friday`` and
    ``friday.yaml``): the path that loads it."""
    for suffix in _YAML_SUFFIXES:
        if Path(name + suffix).is_file():
            return f"a name is looked up in the catalogue; to load the file, give its path: ./{name}{suffix}"
    return None


def _missing_path_hint(target: Path) -> str | None:
    """A did-you-mean among the YAML files beside a missing ``extends:`` target, by their
    names without the suffix (every file ends in .yaml: that alone is no likeness)."""
    try:
        siblings = {p.stem: p.name for p in target.parent.iterdir() if p.suffix.lower() in _YAML_SUFFIXES}
    except OSError:
        return None
    close = difflib.get_close_matches(target.stem, sorted(siblings), n=3, cutoff=0.75)
    return "did you mean " + " or ".join(repr(siblings[stem]) for stem in close) + "?" if close else None


def _extends_target(doc: Document, path: Path, confinement: Confinement) -> Path:
    """The parent file a document's ``extends:`` names (Y111 none, Y120 not allowed)."""
    value = doc.data["extends"]
    where = doc.position(("extends",))
    if not isinstance(value, str) or not value.strip():
        fail_at("Y111", f"extends must be a catalogue name or a path, not {value!r}", where)
    check_reference_text(value, (where.source, where.line, where.col))
    if _is_name(value):
        found = resources.catalogue_path(value)
        if found is None:
            fail_at(
                "Y111",
                f"extends: no ruleset named {value!r} in the catalogue",
                where,
                hint=did_you_mean(value, resources.catalogue_names()),
            )
        return found
    # relative to the extending file, not the working directory; confined before it is touched
    target = check_reference(value, path, confinement, (where.source, where.line, where.col))
    if not target.is_file() and buffer_of(target) is None:
        fail_at("Y111", f"extends: cannot find {value!r} (looked for {target})", where, hint=_missing_path_hint(target))
    return target


# Files parsed in this process, by real path and a digest of their bytes: a
# folder of files sharing one parent parses it once per run, and a file that
# changed (even within one tick of the file system's clock) is parsed again.
_PARSED: dict[tuple[str, str], Document] = {}
_PARSED_LIMIT = 128


def _with_source(doc: Document, source: str) -> Document:
    """The same parsed file, its positions naming it as ``source``."""
    if doc.sources == (source,):
        return doc
    positions = {path: Position(source, p.line, p.col) for path, p in doc.positions.items()}
    keys = {path: Position(source, p.line, p.col) for path, p in doc.key_positions.items()}
    return Document(doc.data, positions, keys, (source,))


def _read_once(path: Path) -> Document:
    """:func:`read_file`, parsing each file's content once per run (and, read from disk, once
    ever: see :mod:`evaluator.rules.document_memo`)."""
    raw = read_bytes(path)
    digest = document_memo.content_key(raw)  # one digest of the bytes names both memos
    key = (os.path.realpath(path), digest)
    if key in _PARSED:
        return _with_source(_PARSED[key], str(path))
    doc = _parsed(raw, str(path), digest if buffer_of(path) is None else None)
    if len(_PARSED) >= _PARSED_LIMIT:
        _PARSED.pop(next(iter(_PARSED)))
    _PARSED[key] = doc
    return doc


def _parsed(raw: bytes, source: str, digest: str | None) -> Document:
    """The document of a file's bytes: from the disk cache when they were parsed before, else
    parsed and kept under ``digest`` (None: never kept -- an editor's buffer, which changes every
    keystroke)."""
    if digest is None:
        return parse_yaml(decode_utf8(raw, source), source)
    found = document_memo.remembered(digest, source)
    if found is None:
        found = parse_yaml(decode_utf8(raw, source), source)
        document_memo.remember(digest, found)
    return found


def _read_parent(path: Path) -> Document:
    """Read a parent; one that does not parse, or is not a ruleset, is never quoted (Y121)."""
    try:
        doc = _read_once(path)
    except LoadError as problem:
        raise quiet_errors(problem, "the file named by extends: cannot be read as a ruleset") from None
    if not looks_like_ruleset(doc.data):
        raise not_a_ruleset(str(path))
    return doc


@dataclass
class _Chain:
    """What following one file's ``extends:`` chain has cost so far."""

    confinement: Confinement
    size: int = 0
    values: int = 0

    def spend(self, doc: Document, path: Path, where: Position) -> None:
        """Count a parent against the chain's limits (Y124 at the ``extends:`` that passed them)."""
        self.size += _size_of(path) or 0
        self.values += len(doc.positions)
        if self.size > MAX_CHAIN_BYTES or self.values > MAX_CHAIN_NODES:
            fail_at(
                "Y124",
                f"the extends chain is too large: together its files pass the limit of one file "
                f"({MAX_CHAIN_BYTES:,} bytes, {MAX_CHAIN_NODES:,} values)",
                where,
                hint="keep parents small; a chain is read as if it were one file",
            )

    def check_size(self, path: Path, where: Position) -> None:
        """Refuse a parent before reading it when its size alone passes the chain's limit."""
        size = _size_of(path)
        if size is not None and self.size + size > MAX_CHAIN_BYTES:
            fail_at(
                "Y124",
                f"the extends chain is too large: together its files pass {MAX_CHAIN_BYTES:,} bytes",
                where,
                hint="keep parents small; a chain is read as if it were one file",
            )


def _size_of(path: Path) -> int | None:
    """The size of a file in bytes (of its editor text when there is one), None when unknown."""
    text = buffer_of(path)
    if text is not None:
        return len(text.encode("utf-8", "surrogatepass"))
    try:
        return os.stat(path).st_size
    except OSError:
        return None


def _load_chain(
    path: Path, chain: tuple[tuple[str, str], ...], budget: _Chain, doc: Document | None = None
) -> Document:
    """Read ``path`` and its ``extends:`` ancestors; ``chain`` is (identity, name) of the children."""
    if doc is None:
        doc = _read_once(path)
        budget.spend(doc, path, doc.position(()))
    if doc.data.get("extends") is None:
        return doc
    here = (*chain, (_identity(path), path.name))
    target = _extends_target(doc, path, budget.confinement)
    identity = _identity(target)
    seen = [ident for ident, _ in here]
    where = doc.position(("extends",))
    if identity in seen:
        names = [name for _, name in here[seen.index(identity) :]] + [target.name]
        fail_at("Y112", "extends cycle: " + " -> ".join(names), where)
    if len(here) > MAX_EXTENDS:
        fail_at(
            "Y113",
            f"extends chain is deeper than {MAX_EXTENDS} files",
            where,
            hint=" -> ".join(name for _, name in here[:3]) + " -> ...",
        )
    budget.check_size(target, where)
    parent = _read_parent(target)
    budget.spend(parent, target, where)
    return merge(_load_chain(target, here, budget, parent), doc)


def load_document(
    ref: str | Path, base_dir: Path | None = None, root: str | Path | Sequence[str | Path] | None = None
) -> Document:
    """Load a ruleset by catalogue name or path, with its ``extends:`` chain merged in.

    A string with no ``/`` and no ``.yaml``/``.yml`` suffix is a catalogue name;
    anything else is a path (relative paths are taken from ``base_dir`` when given).
    ``extends:`` paths must stay inside the folder of the file named here or
    inside ``root`` (one folder or several), symbolic links included
    (see :mod:`evaluator.rules.confine`).
    """
    path = _resolve_ref(ref, base_dir)
    confinement = Confinement.around(path, user_roots(root))
    check_named_file(path, confinement)
    doc = _load_chain(path, (), _Chain(confinement))
    return replace(doc, roots=confinement.roots)


# --------------------------------------------------------------------------- merging


_REMOVED = object()


class _Merger:
    """Merges a child document over its (already merged) parent, keeping positions."""

    def __init__(self, parent: Document, child: Document) -> None:
        self.parent = parent
        self.child = child
        self.positions: dict[YamlPath, Position] = {}
        self.key_positions: dict[YamlPath, Position] = {}

    def copy(self, doc: Document, path: YamlPath, value: Any) -> None:
        """Take the positions of ``value`` and everything under it from ``doc``."""
        if path in doc.positions:
            self.positions[path] = doc.positions[path]
        if path in doc.key_positions:
            self.key_positions[path] = doc.key_positions[path]
        if isinstance(value, dict):
            for key, item in value.items():
                self.copy(doc, (*path, key), item)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                self.copy(doc, (*path, index), item)

    def value(self, old: Any, new: Any, path: YamlPath) -> Any:
        """The merged value at ``path``: maps merge, null removes, the rest replaces."""
        if new is None:
            return _REMOVED
        if isinstance(old, dict) and isinstance(new, dict):
            self.copy(self.child, path, None)  # the map itself is where the child wrote it
            return self.mapping(old, new, path)
        self.copy(self.child, path, new)
        return new

    def mapping(self, old: dict[Any, Any], new: dict[Any, Any], path: YamlPath) -> dict[Any, Any]:
        """Merge two maps key by key; parent order first, then the child's new keys."""
        result: dict[Any, Any] = {}
        for key, old_value in old.items():
            if key not in new:
                result[key] = old_value
                self.copy(self.parent, (*path, key), old_value)
                continue
            merged = self.value(old_value, new[key], (*path, key))
            if merged is not _REMOVED:
                result[key] = merged
        for key, new_value in new.items():
            if key not in old:
                result[key] = new_value  # a null with nothing to remove stays as written
                self.copy(self.child, (*path, key), new_value)
        return result


def merge(parent: Document, child: Document) -> Document:
    """Merge ``child`` over ``parent`` by the ``extends:`` rules of DESIGN.md.

    Maps merge recursively, lists and scalars replace, a ``null`` in the child
    removes the parent's key, and ``name``, ``title``, ``examples`` and
    ``extends`` come from the child only.
    """
    merger = _Merger(parent, child)
    merger.copy(child, (), None)
    inherited = {k: v for k, v in parent.data.items() if k not in _NOT_INHERITED}
    data = merger.mapping(inherited, child.data, ())
    return Document(data, merger.positions, merger.key_positions, child.sources + parent.sources)
