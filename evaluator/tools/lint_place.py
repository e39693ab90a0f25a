"""Where ``pokerrules check`` reports a finding, and how a diagnostic is made."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import Diagnostic
from ..rules.place import place_of as place_of  # shared with load (rules/place.py)

if TYPE_CHECKING:
    from ..rules.load import Position


def diagnostic(
    code: str, message: str, where: Position, severity: str = "error", hint: str | None = None
) -> Diagnostic:
    """A :class:`Diagnostic` at ``where``."""
    return Diagnostic(code, message, where.source, where.line, where.col, severity, hint)
