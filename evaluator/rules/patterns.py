"""The pattern language: parse with Lark (LALR) into a typed AST, check it, compile it.

The stages live in their own modules, each importing only the ones before it:

- :mod:`evaluator.rules.pattern_ast`: the frozen AST nodes (:class:`Shape`,
  :class:`Run`, :class:`Compare`, ...), :class:`Where` a pattern's text sits,
  and what a pattern asks (:func:`key_terms`, :func:`term_kinds`, ...);
- :mod:`evaluator.rules.pattern_parse`: :func:`parse_pattern`, text to AST,
  with syntax errors at their column;
- :mod:`evaluator.rules.pattern_check`: :func:`check_pattern`, the semantic
  checks against a :class:`PatternContext` (a view of the ruleset);
- :mod:`evaluator.rules.pattern_compile`: :func:`compile_pattern`, AST to a
  matcher over a :class:`HandClass`, and the run helpers.

This module gathers their public names, so callers import from one place.
None of the stage modules imports it.

>>> compile_pattern(parse_pattern("XX Y Z W"), PatternContext(tuple("23456789TJQKA"), tuple("cdhs"), 5, True))(
...     HandClass((12, 12, 9, 5, 0), ((2, 12), (1, 9), (1, 5), (1, 0)), None, None), {}
... )
{'X': 12, 'Y': 9, 'Z': 5, 'W': 0}
"""

from __future__ import annotations

from .pattern_ast import (
    MAX_PATTERN_LENGTH,
    AllOf,
    AnyOf,
    CategoryIs,
    Compare,
    Flush,
    Member,
    Node,
    Not,
    Pattern,
    Run,
    Shape,
    Term,
    Where,
    key_terms,
    mentions,
    needs_suits,
    pattern_diagnostic,
    term_kinds,
)
from .pattern_check import PatternContext, check_pattern, wild_number
from .pattern_compile import (
    BOTTOM,
    TOP,
    Binding,
    HandClass,
    Matcher,
    bind_shape,
    compile_pattern,
    find_run,
    run_bottom,
    run_top,
)
from .pattern_memo import parse_pattern

__all__ = [
    "BOTTOM",
    "MAX_PATTERN_LENGTH",
    "TOP",
    "AllOf",
    "AnyOf",
    "Binding",
    "CategoryIs",
    "Compare",
    "Flush",
    "HandClass",
    "Matcher",
    "Member",
    "Node",
    "Not",
    "Pattern",
    "PatternContext",
    "Run",
    "Shape",
    "Term",
    "Where",
    "bind_shape",
    "check_pattern",
    "compile_pattern",
    "find_run",
    "key_terms",
    "mentions",
    "needs_suits",
    "parse_pattern",
    "pattern_diagnostic",
    "run_bottom",
    "run_top",
    "term_kinds",
    "wild_number",
]
