"""Going places in rule files: definitions, the outline of a file, and frequencies beside categories.

- **Go to definition** of an ``extends:`` target opens the parent file (a
  catalogue ruleset, or the path, if the file may reach it); of a category
  name, its definition in the merged ruleset (in a parent when inherited); on
  a definition that overrides an inherited one, the parent's definition.
- **Document symbols**: the file's top-level keys, with its categories (and
  their patterns) under ``categories``.
- **Inlay hints**: each category the file defines (or each ``order:`` item,
  one per line, when it defines none) with its frequency, "1 in N", from the
  heavy pass.

Every position in another file is read from that file's own text (the
editor's buffer when it is open), so it lands where the file says.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from ..core.errors import PokerRulesError
from ..tools.stats_format import format_odds, format_probability
from .analysis import uri_of_path
from .context import cursor_at
from .textmap import TextMap

if TYPE_CHECKING:
    from ..rules.load import Document, Position
    from .analysis import Analysis, Insight

__all__ = ["definition", "inlay_hints", "parent_file", "symbols"]

TextOf = Callable[[str], str | None]


def _own(text: str, source: str) -> Document | None:
    """The file parsed alone (no ``extends:``), or None when it does not parse."""
    from ..rules.yaml_read import parse_yaml

    try:
        return parse_yaml(text, source)
    except PokerRulesError:
        return None


def parent_file(analysis: Analysis, value: str, roots: tuple[str, ...]) -> Path | None:
    """The file an ``extends:`` value names, when it exists and the file may reach it."""
    from ..core.resources import catalogue_path
    from ..rules.confine import Confinement, is_catalogue_name
    from ..rules.yaml_read import buffer_of

    value = value.strip()
    if not value:
        return None
    if is_catalogue_name(value):
        return catalogue_path(value)
    if value.startswith(("/", "\\", "~")) or os.path.isabs(value) or ":" in value:
        return None
    target = analysis.path.parent / value
    confinement = Confinement.around(analysis.path, roots)
    if not confinement.allows(target) or not (target.is_file() or buffer_of(target) is not None):
        return None
    return target


def _location(source: str, line: int, col: int, text_of: TextOf) -> types.Location | None:
    text = text_of(source)
    if text is None:
        return None
    textmap = TextMap(text)
    start = textmap.offset(line, col)
    return types.Location(uri=uri_of_path(source), range=textmap.range(*textmap.token_span(start)))


def definition(
    analysis: Analysis, textmap: TextMap, offset: int, roots: tuple[str, ...], text_of: TextOf
) -> list[types.Location]:
    """Where the ``extends:`` target or the category name at ``offset`` is defined."""
    text = analysis.text
    cursor = cursor_at(text, offset)
    if cursor.comment:
        return []
    if cursor.path[:1] == ("extends",) and cursor.scalar is not None:
        target = parent_file(analysis, text[cursor.scalar[0] : cursor.scalar[1]], roots)
        origin = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0))
        return [types.Location(uri=uri_of_path(target), range=origin)] if target is not None else []
    document = analysis.document
    start, end = textmap.word_around(offset, r"\w")
    name = text[start:end]
    categories = document.data.get("categories") if document is not None else None
    if document is None or not isinstance(categories, dict) or name not in categories:
        return []
    places = _definitions(document, name, text_of)
    here = os.path.realpath(analysis.path)
    on_own_definition = cursor.path == ("categories",) and cursor.in_key
    if on_own_definition:
        places = [place for place in places if os.path.realpath(place.source) != here][:1]
    else:
        places = places[:1]
    found = [_location(place.source, place.line, place.col, text_of) for place in places]
    return [location for location in found if location is not None]


def _definitions(document: Document, name: str, text_of: TextOf) -> list[Position]:
    """Where each file of the chain defines category ``name``, the child first."""
    found = []
    for source in document.sources:
        text = text_of(source)
        own = _own(text, source) if text is not None else None
        if own is None:
            continue
        where = own.key_positions.get(("categories", name))
        spec = (own.data.get("categories") or {}).get(name) if isinstance(own.data.get("categories"), dict) else None
        if where is not None and spec is not None:
            found.append(where)
    return found


def symbols(analysis: Analysis, textmap: TextMap) -> list[types.DocumentSymbol]:
    """The outline of a file: its top-level keys, the categories under ``categories``."""
    own = _own(analysis.text, str(analysis.path))
    if own is None:
        return []
    found = []
    keys = list(own.data)
    for index, key in enumerate(keys):
        start = _key_offset(own, textmap, (key,))
        end = _key_offset(own, textmap, (keys[index + 1],)) if index + 1 < len(keys) else len(textmap.text)
        children = []
        if key == "categories" and isinstance(own.data[key], dict):
            names = list(own.data[key])
            for number, name in enumerate(names):
                child_start = _key_offset(own, textmap, (key, name))
                following = (key, names[number + 1]) if number + 1 < len(names) else None
                child_end = _key_offset(own, textmap, following) if following is not None else end
                spec = own.data[key][name]
                pattern = spec.get("pattern") if isinstance(spec, dict) else None
                children.append(
                    _symbol(textmap, str(name), child_start, child_end, types.SymbolKind.EnumMember, pattern)
                )
        found.append(_symbol(textmap, str(key), start, end, types.SymbolKind.Namespace, None, children))
    return found


def _key_offset(own: Document, textmap: TextMap, path: tuple[Any, ...]) -> int:
    where = own.key_position(path)
    return textmap.offset(where.line, where.col)


def _symbol(
    textmap: TextMap,
    name: str,
    start: int,
    end: int,
    kind: types.SymbolKind,
    detail: object,
    children: list[types.DocumentSymbol] | None = None,
) -> types.DocumentSymbol:
    end = max(end, start)
    while end > start and textmap.text[end - 1] in " \t\r\n":
        end -= 1
    selection = textmap.range(*textmap.token_span(start))
    whole = textmap.range(start, max(end, textmap.offset_at(selection.end)))
    return types.DocumentSymbol(
        name=name or "(empty)",
        kind=kind,
        range=whole,
        selection_range=selection,
        detail=str(detail) if detail is not None else None,
        children=children or None,
    )


def inlay_hints(analysis: Analysis, insight: Insight | None, textmap: TextMap) -> list[types.InlayHint]:
    """Each category's frequency at the end of the line that defines it (or that ranks it in ``order:``)."""
    if insight is None or not insight.stats:
        return []
    cards = min(insight.stats)
    table = insight.stats[cards]
    own = _own(analysis.text, str(analysis.path))
    if own is None:
        return []
    places: list[tuple[str, tuple[Any, ...]]] = []
    categories = own.data.get("categories")
    if isinstance(categories, dict):
        places = [(str(name), ("categories", name)) for name, spec in categories.items() if spec is not None]
    order = own.data.get("order")
    if not places and isinstance(order, list):
        places = [(str(name), ("order", index)) for index, name in enumerate(order)]
    spots = [(name, own.key_position(path) if path[0] == "categories" else own.position(path)) for name, path in places]
    shared = {line for line in (where.line for _, where in spots) if sum(w.line == line for _, w in spots) > 1}
    hints = []
    for name, where in spots:
        if name not in table or where.line in shared:
            continue  # a flow list's items share a line: a hint would not say whose it is
        count, deals = table[name]
        label = f"{format_odds(deals / count if count else None)} ({format_probability(count / deals)}, {cards} cards)"
        line_end = textmap.position(_line_end(textmap, textmap.offset(where.line, where.col)))
        hints.append(types.InlayHint(position=line_end, label=label, padding_left=True))
    return hints


def _line_end(textmap: TextMap, offset: int) -> int:
    text = textmap.text
    while offset < len(text) and text[offset] not in "\r\n":
        offset += 1
    return offset
