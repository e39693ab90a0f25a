"""Checking what is still readable in a ruleset file that has errors.

``pokerrules check`` reports every problem of a file in one run. A schema
error must not hide the pattern, order, wild-card, template and example
problems of the rest of the file, so:

1. :func:`readable_part` removes the values the schema rejects (an unknown
   key, a value of the wrong type, a category missing its pattern) and
   validates again until what is left follows the schema; the removals that
   only follow from earlier ones (a category left without its pattern) are not
   reported again;
2. the ruleset is built from what is left (``build_readable``), and every
   problem of that build is reported, except those that only follow from a
   removal (a name in ``order`` whose category was removed; a pattern rank
   checked against a deck whose ranks could not be read);
3. :class:`Doubts` says which parts of the evaluation the problems put in
   doubt, and :meth:`Doubts.trusts` which examples can still be judged: an
   example is run when nothing it depends on is in doubt -- the hands it
   evaluates land above every broken category in ``order``, the deck, hand,
   wild cards, qualifier and ``beats:`` were read, and for a description, the
   category's template was.
"""

from __future__ import annotations

import copy
import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.errors import Diagnostic
from ..rules.build import DECK_SECTIONS
from ..rules.load import Document, Position
from ..rules.schema import findings, schema, sections_holding

if TYPE_CHECKING:
    from ..engine.hand import Hand
    from ..ruleset import Ruleset

Path = tuple[Any, ...]

# Removing values can leave others invalid (a list below its minimum length); a
# few rounds settle any file the limits of the loader allow, and a file that
# does not settle is reported with its schema errors alone.
MAX_ROUNDS = 8
# Sections that never change how a hand is evaluated.
HARMLESS_SECTIONS = frozenset({"$schema", "name", "title", "source", "extends", "examples"})
# Checks made against the deck and hand size: not made when those could not be read.
# Wild-card problems that leave the evaluation unchanged: a wild card or joker the deck cannot deal.
HARMLESS_WILD_CODES = frozenset({"R111", "R112"})


@dataclass
class Readable:
    """The schema's findings and what is left of the document without the values it rejects."""

    diagnostics: list[Diagnostic]
    document: Document | None  # None: nothing can be checked further
    removed: list[Path] = field(default_factory=list)


def readable_part(document: Document) -> Readable:
    """The schema diagnostics of ``document`` and its readable part (see the module docstring)."""
    found = findings(document)
    diagnostics = list(dict.fromkeys(d for diagnostics, _ in found for d in diagnostics))
    current, removed = document, list[Path]()
    for _ in range(MAX_ROUNDS):
        if not found:
            return Readable(diagnostics, current, removed)
        paths = [path for _, paths in found for path in paths]
        if any(path == () for path in paths):
            return Readable(diagnostics, None, removed)
        current = without(current, paths)
        removed += paths
        found = findings(current)
    return Readable(diagnostics, None, removed)


def _order_key(path: Path) -> tuple[tuple[int, Any], ...]:
    return tuple((1, part) if isinstance(part, int) else (0, str(part)) for part in path)


def without(document: Document, paths: Iterable[Path]) -> Document:
    """A copy of ``document`` with the values at ``paths`` removed.

    Positions follow the values: removing a list item moves the positions of
    the items after it, so a later problem is still reported where it was written.
    """
    unique = set(paths)
    kept = [p for p in unique if not any(p[:n] in unique for n in range(len(p)))]
    data = copy.deepcopy(document.data)
    positions, key_positions = dict(document.positions), dict(document.key_positions)
    for path in sorted(kept, key=_order_key, reverse=True):  # later list items first
        parent: Any = data
        for part in path[:-1]:
            parent = parent[part]
        last = path[-1]
        if isinstance(parent, dict):
            parent.pop(last, None)
        elif isinstance(parent, list) and isinstance(last, int) and last < len(parent):
            del parent[last]
        positions = _shifted(positions, path)
        key_positions = _shifted(key_positions, path)
    return Document(data, positions, key_positions, document.sources)


def _shifted(index: dict[Path, Position], removed: Path) -> dict[Path, Position]:
    """Positions after removing the value at ``removed`` (list items after it move up by one)."""
    depth, parent, last = len(removed), removed[:-1], removed[-1]
    result: dict[Path, Position] = {}
    for path, position in index.items():
        if path[:depth] == removed:
            continue
        if isinstance(last, int) and len(path) >= depth and path[: depth - 1] == parent:
            item = path[depth - 1]
            if isinstance(item, int) and item > last:
                path = (*parent, item - 1, *path[depth:])
        result[path] = position
    return result


def _category_fields() -> frozenset[str]:
    definition = schema().get("$defs", {}).get("category", {})
    return frozenset(definition.get("properties", {}))


@dataclass
class Doubts:
    """What a file's problems leave uncertain about how its hands are evaluated."""

    everything: bool = False  # the deck, hand, wild cards, order, qualifier or beats could not be read
    categories: set[str] = field(default_factory=set)  # categories that could not be built
    descriptions: set[str] = field(default_factory=set)  # categories whose describe: could not be read
    game: bool = False
    deck: bool = False  # the deck, hand or ace rule could not be read

    @property
    def any(self) -> bool:
        """True when some part of the evaluation is in doubt."""
        return self.everything or bool(self.categories or self.descriptions) or self.game or self.deck

    def trusts(self, ruleset: Ruleset, example: Any, hands: Sequence[Hand | None]) -> bool:
        """Whether a failing ``example`` (which evaluated ``hands``) is a real failure."""
        if self.everything:
            return False
        named: list[object] = [example] if isinstance(example, str) else []
        if isinstance(example, dict):
            named = [example.get("category")]
        if any(isinstance(text, str) and set(re.findall(r"\w+", text)) & self.categories for text in named):
            return False  # it names a category that could not be built
        if isinstance(example, dict) and ("showdown" in example or "hole" in example) and self.game:
            return False
        safe = self.safe_categories(ruleset)
        for hand in hands:
            if hand is None or hand.category not in safe:
                return False
            if isinstance(example, dict) and "description" in example and hand.category in self.descriptions:
                return False
        return True

    def safe_categories(self, ruleset: Ruleset) -> set[str]:
        """The categories above every broken one in ``order``: a hand landing there lands there anyway."""
        safe: set[str] = set()
        for name in ruleset.data.get("order") or []:
            if name in self.categories:
                break
            safe.add(name)
        return safe


def doubts_of(removed: Sequence[Path], problems: Sequence[tuple[str, Path]], broken: Iterable[str]) -> Doubts:
    """The :class:`Doubts` left by removed values, build problems (code, path) and categories that failed."""
    doubts = Doubts(categories=set(broken))
    fields = _category_fields()
    for path in removed:
        section = path[0] if path else None
        if len(path) == 1 and section not in schema().get("properties", {}):
            # an unknown top-level key: harmless, unless it is a section's key that lost its
            # indentation (``wild:`` then ``ranks: [2]``): that section was meant otherwise
            for holder in sections_holding(section):
                _doubt_section(doubts, holder)
            continue
        if section in HARMLESS_SECTIONS or section not in schema().get("properties", {}):
            continue  # a name, an example: nothing else depends on it
        if section == "categories":
            if len(path) == 1:
                doubts.everything = True
            elif len(path) >= 3 and path[2] == "describe":
                doubts.descriptions.add(str(path[1]))
            elif len(path) == 3 and path[2] not in fields:
                # an unknown key of a category; a misspelt field (patern:) meant to change it
                close = difflib.get_close_matches(str(path[2]), sorted(fields), n=1)
                if close == ["describe"]:
                    doubts.descriptions.add(str(path[1]))
                elif close:
                    doubts.categories.add(str(path[1]))
                continue
            else:
                doubts.categories.add(str(path[1]))
            continue
        _doubt_section(doubts, str(section))
    for code, path in problems:
        section = str(path[0]) if path else ""
        if section == "categories" and len(path) >= 3 and path[2] == "describe":
            doubts.descriptions.add(str(path[1]))
        elif section == "categories" or code == "R101":
            continue  # the category is among ``broken``
        elif section == "wild" and code in HARMLESS_WILD_CODES:
            continue
        elif section not in HARMLESS_SECTIONS:
            _doubt_section(doubts, section)
    return doubts


def _doubt_section(doubts: Doubts, section: str) -> None:
    if section == "game":
        doubts.game = True
        return
    if section in DECK_SECTIONS:
        doubts.deck = True
    doubts.everything = True
