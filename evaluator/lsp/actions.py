"""Diagnostics as the editor shows them, and the quick fixes (code actions) they offer.

A :class:`~evaluator.core.errors.Diagnostic` becomes an LSP diagnostic with
its code, severity and the range of the word it points at; the hint follows
the message. The original travels in the diagnostic's ``data``, so a code
action request gives back exactly what ``check`` found, and the fixes are
:func:`evaluator.tools.check_fix.fixes_for` -- the same that
``pokerrules check --fix`` applies (the preferred ones are marked so). Every
diagnostic also offers to ignore its code in the file, with a
``# pokerrules: ignore[CODE]`` comment.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from ..core.errors import Diagnostic
from ..core.safe_text import visible
from ..tools.check_fix import Fix, fixes_for
from .textmap import TextMap

if TYPE_CHECKING:
    from .analysis import Analysis

__all__ = ["code_actions", "from_lsp", "to_lsp"]

_FIELDS = ("code", "message", "source", "line", "col", "severity", "hint")
_MODELINE = re.compile(r"#\s*yaml-language-server:")


def to_lsp(diagnostic: Diagnostic, textmap: TextMap) -> types.Diagnostic:
    """The editor's form of a diagnostic, over the word it points at."""
    start = textmap.offset(diagnostic.line, diagnostic.col)
    message = visible(diagnostic.message) + (f"\nhint: {visible(diagnostic.hint)}" if diagnostic.hint else "")
    severity = types.DiagnosticSeverity.Error if diagnostic.severity == "error" else types.DiagnosticSeverity.Warning
    return types.Diagnostic(
        range=textmap.range(*textmap.token_span(start)),
        message=message,
        severity=severity,
        code=diagnostic.code,
        source="pokerrules",
        data={name: getattr(diagnostic, name) for name in _FIELDS},
    )


def from_lsp(found: types.Diagnostic) -> Diagnostic | None:
    """The diagnostic ``check`` found, from the ``data`` an LSP diagnostic carries back (None if foreign)."""
    data: Any = found.data
    if found.source != "pokerrules" or not isinstance(data, dict):
        return None
    try:
        values = {name: data[name] for name in _FIELDS}
        return Diagnostic(
            str(values["code"]),
            str(values["message"]),
            str(values["source"]),
            int(values["line"]),
            int(values["col"]),
            str(values["severity"]),
            None if values["hint"] is None else str(values["hint"]),
        )
    except (KeyError, TypeError, ValueError):
        return None


def _edit(fix: Fix, textmap: TextMap, uri: str) -> types.WorkspaceEdit:
    edits = [
        types.TextEdit(
            range=textmap.range(textmap.offset(e.line, e.col), textmap.offset(e.end_line, e.end_col)), new_text=e.text
        )
        for e in fix.edits
    ]
    return types.WorkspaceEdit(changes={uri: edits})


def _ignore_in_file(code: str, textmap: TextMap, uri: str, found: types.Diagnostic) -> types.CodeAction:
    """Insert ``# pokerrules: ignore[CODE]`` at the top (after a schema modeline)."""
    text = textmap.text
    first_line_end = text.find("\n") + 1 if "\n" in text else len(text)
    at = first_line_end if _MODELINE.match(text) else 0
    lead = "\n" if at == len(text) and text and not text.endswith("\n") else ""
    insert = types.TextEdit(range=textmap.range(at, at), new_text=f"{lead}# pokerrules: ignore[{code}]\n")
    return types.CodeAction(
        title=f"Ignore {code} in this file",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[found],
        edit=types.WorkspaceEdit(changes={uri: [insert]}),
    )


def code_actions(
    analysis: Analysis, textmap: TextMap, uri: str, found: list[types.Diagnostic]
) -> list[types.CodeAction]:
    """The quick fixes of the diagnostics the editor asks about, then one ignore comment per code."""
    actions: list[types.CodeAction] = []
    codes: dict[str, types.Diagnostic] = {}
    for lsp_diagnostic in found:
        diagnostic = from_lsp(lsp_diagnostic)
        if diagnostic is None:
            continue
        for fix in fixes_for(diagnostic, textmap.text, analysis.document):
            actions.append(
                types.CodeAction(
                    title=fix.title,
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[lsp_diagnostic],
                    is_preferred=fix.preferred,
                    edit=_edit(fix, textmap, uri),
                )
            )
        codes.setdefault(diagnostic.code, lsp_diagnostic)
    actions += [_ignore_in_file(code, textmap, uri, lsp_diagnostic) for code, lsp_diagnostic in codes.items()]
    return actions
