"""Where a finding about a merged ruleset is reported: the file that made the combination.

``pokerrules check`` and ``load`` report the problems found beyond a single
value (a deck too wide for the tables, jokers that cannot play) at the same
place, so that both say the same code, position and reason.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .load import Document, Position


def place_of(document: Document, source: str, *paths: tuple[Any, ...]) -> tuple[Position, str]:
    """Where to report a finding about ``paths`` when checking ``source``.

    The first path written in the checked file wins. A finding about values
    that were all inherited is reported at the file's own ``extends:`` (the
    file being checked is where the combination was made), with a note
    saying where the value was written.
    """
    first: Position | None = None
    for path in paths:
        position = document.position(path)
        if first is None:
            first = position
        if position.source == source:
            return position, ""
    assert first is not None
    extends = document.positions.get(("extends",))
    if extends is not None and extends.source == source and first.source != source:
        return extends, f" (inherited from {shown_path(first.source)}:{first.line})"
    return first, ""


def shown_path(path: str) -> str:
    """A path as short as it can be said: relative to the working folder when inside it."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return path
    return path if relative.startswith("..") else relative
