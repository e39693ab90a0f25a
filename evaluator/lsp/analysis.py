"""What the server knows of one open file: the quick pass of ``check`` and what the heavy pass added.

The quick pass (:func:`analyse`) is the check up to the build -- loading with
``extends:``, the schema, patterns, order, deck, wild cards, templates -- on
the editor's text and its open parents (:func:`~evaluator.rules.yaml_read.editor_buffers`);
it takes milliseconds for a catalogue-size file and runs as you type. The
heavy pass (:mod:`evaluator.lsp.worker`) adds coverage, reachability and the
examples, then example hands and frequencies (:class:`Insight`).

Editors start a YAML language server for every YAML file, so a file is taken
for a rule file only when it says so: a top-level ``extends:``,
``categories:``, ``order:`` or ``paytable:`` key, or a schema modeline naming
the ruleset or pay-table schema. Other YAML (``docker-compose.yml``, CI
workflows) gets no diagnostics and no features.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote, unquote, urlparse

from ..core.errors import Diagnostic

if TYPE_CHECKING:
    from ..rules.load import Document
    from ..ruleset import Ruleset

__all__ = ["Analysis", "Insight", "analyse", "is_rule_file", "path_of_uri", "uri_of_path"]

_RULE_KEYS = re.compile(r"^(?:extends|categories|order|paytable)[ \t]*:", re.M)
_MODELINE = re.compile(r"^#.*\$schema=\S*(?:ruleset|paytable)\.schema\.json", re.M)
# Only the start of a file is searched for these: a rule file says what it is early.
_SNIFF_CHARS = 65_536


def is_rule_file(text: str) -> bool:
    """Whether ``text`` is a ruleset or pay-table file (see the module docstring).

    >>> is_rule_file("name: x\\nextends: standard\\n"), is_rule_file("services:\\n  web: {}\\n")
    (True, False)
    """
    head = text[:_SNIFF_CHARS]
    return bool(_RULE_KEYS.search(head) or _MODELINE.search(head))


def path_of_uri(uri: str) -> Path:
    """The file a document URI names; a document that is no file (``untitled:``) gets a path of its own
    in a folder that does not exist, so ``extends:`` of a catalogue name still works.

    >>> path_of_uri("file:///srv/rules/house%20rules.yaml")
    PosixPath('/srv/rules/house rules.yaml')
    """
    parsed = urlparse(uri)
    if parsed.scheme == "file":
        path = unquote(parsed.path)
        if os.name == "nt" and re.match(r"^/[A-Za-z]:", path):
            path = path[1:]
        return Path(path)
    name = re.sub(r"[^\w.-]+", "-", unquote(parsed.path or uri)).strip("-.") or "untitled"
    return Path(tempfile.gettempdir()) / "pokerrules-untitled-documents" / f"{name[:100]}.yaml"


def uri_of_path(path: str | Path) -> str:
    """The ``file:`` URI of a path (made absolute, symbolic links kept).

    >>> uri_of_path("/srv/rules/house rules.yaml")
    'file:///srv/rules/house%20rules.yaml'
    """
    absolute = os.path.abspath(path)
    return "file://" + quote(absolute.replace(os.sep, "/") if absolute.startswith("/") else "/" + absolute)


@dataclass
class Insight:
    """What the heavy pass found besides diagnostics: an example hand and the frequencies of each category."""

    version: int | None
    examples: dict[str, str] = field(default_factory=dict)
    stats: dict[int, dict[str, tuple[int, int]]] = field(default_factory=dict)  # cards -> category -> (count, deals)


@dataclass
class Analysis:
    """The quick pass over one version of an open file."""

    uri: str
    path: Path
    version: int | None
    text: str
    rule_file: bool
    diagnostics: list[Diagnostic] = field(default_factory=list)
    document: Document | None = None
    ruleset: Ruleset | None = None

    @property
    def sources(self) -> tuple[str, ...]:
        """The real paths of the files this one is made of (itself, then its parents)."""
        found = self.document.sources if self.document is not None else (str(self.path),)
        return tuple(os.path.realpath(source) for source in found)


def analyse(uri: str, version: int | None, text: str, buffers: dict[str, str], roots: tuple[str, ...]) -> Analysis:
    """The quick pass over an editor's text (see the module docstring); never raises."""
    from ..rules.yaml_read import editor_buffers
    from ..tools.check import examine_file

    path = path_of_uri(uri)
    if not is_rule_file(text):
        return Analysis(uri, path, version, text, rule_file=False)
    with editor_buffers({**buffers, str(path): text}):
        examined = examine_file(path, roots, full=False)
    return Analysis(uri, path, version, text, True, examined.diagnostics, examined.document, examined.ruleset)
