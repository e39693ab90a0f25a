"""How ``pokerrules check`` prints its diagnostics: text, JSON or GitHub annotations."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.errors import Diagnostic
from ..core.safe_text import github_data, github_property, json_dumps, visible


def render(diagnostics: Sequence[Diagnostic], report_format: str) -> str:
    """The diagnostics as text, JSON or GitHub workflow annotations.

    Text from the files (messages, hints, file names) is escaped in every
    format (see :mod:`evaluator.core.safe_text`): no control, escape or bidi
    character is printed raw, and no line can start a workflow command.
    """
    if report_format == "json":
        return json_dumps([d.as_dict() for d in diagnostics], indent=2) + "\n"
    if report_format == "github":
        lines = []
        for d in diagnostics:
            level = "error" if d.severity == "error" else "warning"
            message = visible(d.message) + (f"\nhint: {visible(d.hint)}" if d.hint else "")
            lines.append(
                f"::{level} file={github_property(d.source)},line={d.line},col={d.col},"
                f"title={github_property(d.code)}::{github_data(message)}"
            )
        return "".join(line + "\n" for line in lines)
    return "".join(str(d) + "\n" for d in diagnostics)
