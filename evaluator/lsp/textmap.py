"""Positions in one text, three ways: offsets, YAML's (line, col) and the editor's LSP positions.

Diagnostics count 1-based lines and columns in characters, with YAML's line
breaks (``\\r\\n``, ``\\n``, ``\\r``, NEL, LS, PS). An editor counts 0-based lines
broken at ``\\r\\n``, ``\\n`` and ``\\r`` only, and columns in the code units of
the encoding agreed at start-up (UTF-16 unless the client offers another).
:class:`TextMap` converts between the three for one text.
"""

from __future__ import annotations

import bisect
import re

from lsprotocol import types

from ..tools.check_fix import line_starts, offset_of, position_of

_LSP_BREAK = re.compile(r"\r\n|\r|\n")
_WORD = re.compile(r"[^\s,\[\]{}:#'\"]+")


class TextMap:
    """Offsets, YAML positions and LSP positions of one text.

    >>> text = TextMap("a: 1\\nb: 😀x\\n")
    >>> found = text.position(text.offset(2, 5))
    >>> found.line, found.character
    (1, 5)
    >>> text.offset_at(types.Position(line=1, character=5))
    9
    """

    def __init__(self, text: str, encoding: str = types.PositionEncodingKind.Utf16) -> None:
        self.text = text
        self.encoding = encoding
        self.yaml_starts = line_starts(text)
        self.lsp_starts = [0, *(found.end() for found in _LSP_BREAK.finditer(text))]

    # --- YAML positions (diagnostics) -----------------------------------------

    def offset(self, line: int, col: int) -> int:
        """The offset of a 1-based YAML (line, col), clamped to the text."""
        return offset_of(self.text, line, col, self.yaml_starts)

    def yaml_position(self, offset: int) -> tuple[int, int]:
        """The 1-based YAML (line, col) of ``offset``."""
        return position_of(self.text, max(0, min(offset, len(self.text))), self.yaml_starts)

    # --- LSP positions (the editor) -------------------------------------------

    def _units(self, chars: str) -> int:
        if self.encoding == types.PositionEncodingKind.Utf8:
            return len(chars.encode("utf-8", "surrogatepass"))
        if self.encoding == types.PositionEncodingKind.Utf32:
            return len(chars)
        return len(chars) + sum(1 for char in chars if ord(char) > 0xFFFF)

    def _line_end(self, index: int) -> int:
        start = self.lsp_starts[index]
        found = _LSP_BREAK.search(self.text, start)
        return found.start() if found else len(self.text)

    def position(self, offset: int) -> types.Position:
        """The LSP position of ``offset``."""
        offset = max(0, min(offset, len(self.text)))
        index = bisect.bisect_right(self.lsp_starts, offset) - 1
        start = self.lsp_starts[index]
        return types.Position(line=index, character=self._units(self.text[start : min(offset, self._line_end(index))]))

    def offset_at(self, position: types.Position) -> int:
        """The offset of an LSP position (past the end of a line: the line's end)."""
        if position.line >= len(self.lsp_starts):
            return len(self.text)
        start = self.lsp_starts[max(position.line, 0)]
        end = self._line_end(max(position.line, 0))
        units = 0
        for offset in range(start, end):
            if units >= position.character:
                return offset
            units += self._units(self.text[offset])
        return end

    def range(self, start: int, end: int) -> types.Range:
        """The LSP range of the offsets ``start`` to ``end``."""
        return types.Range(start=self.position(start), end=self.position(max(start, end)))

    # --- words ----------------------------------------------------------------

    def token_span(self, offset: int) -> tuple[int, int]:
        """The scalar that starts at ``offset`` (a quoted one with its quotes), at least one character
        unless the line ends there."""
        text = self.text
        if offset < len(text) and text[offset] in "'\"":
            close = text.find(text[offset], offset + 1)
            line_end = self._line_end(bisect.bisect_right(self.lsp_starts, offset) - 1)
            if 0 < close < line_end:
                return offset, close + 1
        found = _WORD.match(text, offset)
        if found and found.end() > offset:
            return offset, found.end()
        line_end = self._line_end(bisect.bisect_right(self.lsp_starts, min(offset, len(text))) - 1)
        return offset, min(offset + 1, line_end)

    def word_around(self, offset: int, pattern: str = r"[\w.\-/]") -> tuple[int, int]:
        """The span of the word that ``offset`` is in or just after (empty when none)."""
        char = re.compile(pattern)
        start = offset
        while start > 0 and char.fullmatch(self.text[start - 1]):
            start -= 1
        end = offset
        while end < len(self.text) and char.fullmatch(self.text[end]):
            end += 1
        return start, end
