"""The pattern AST: frozen dataclasses, where a pattern's text sits, and what a pattern asks.

A pattern is parsed once, when a ruleset is built (:mod:`evaluator.rules.pattern_parse`),
into the nodes here (:class:`Shape`, :class:`Run`, :class:`Compare`, ...). Every
node keeps its column, and :class:`Where` maps that column to a line and
column of the YAML file, so checks and errors point into the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.errors import Diagnostic, caret

#: The longest pattern text read (P103).
MAX_PATTERN_LENGTH = 500

# --- the AST -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Node:
    """Base of every AST node; ``col`` is the 1-based column in the pattern text."""

    col: int = field(default=1, compare=False, kw_only=True, repr=False)


@dataclass(frozen=True, slots=True)
class Shape(Node):
    """Rank groups such as ``XX YY Z``: ``groups`` is ((letter, size), ...)."""

    groups: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Run(Node):
    """``run``: a full hand of consecutive ranks under the ace rule.

    ``run(k, wrap, step=n, flush)`` (see docs/patterns.md): ``length`` cards of
    the hand (None: the whole hand), ranks ``step`` apart, ``wrap`` lets the run
    go round the corner (Q-K-A-2-3), ``suited`` asks the run's cards to share
    one suit (a k-card straight flush). ``Run()`` is the plain ``run``.
    """

    length: int | None = None
    wrap: bool = False
    step: int = 1
    suited: bool = False
    arg_cols: tuple[int, ...] = field(default=(), compare=False, repr=False)

    @property
    def plain(self) -> bool:
        """True for the plain ``run`` (no options)."""
        return self.length is None and not self.wrap and self.step == 1 and not self.suited


@dataclass(frozen=True, slots=True)
class Flush(Node):
    """``flush``: a full hand of one suit; ``flush(k)``: k cards of one suit within the hand."""

    length: int | None = None
    arg_cols: tuple[int, ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Term(Node):
    """One side of a comparison: ``kind`` is variable, rank, top, bottom, all,
    lowest, highest, suit, category, wilds, count or name; ``text`` the letter,
    rank, number or name."""

    kind: str
    text: str = ""


@dataclass(frozen=True, slots=True)
class Member(Node):
    """``term in {J, Q, K}``: the term's rank(s) lie in a set of ranks."""

    term: Term
    ranks: tuple[str, ...]
    rank_cols: tuple[int, ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Compare(Node):
    """``left OP right``."""

    left: Term
    op: str
    right: Term


@dataclass(frozen=True, slots=True)
class CategoryIs(Node):
    """A bare category name: the hand was classified into that category."""

    name: str


@dataclass(frozen=True, slots=True)
class AllOf(Node):
    """Conjunction (``&``, ``and``, ``,``)."""

    items: tuple[Pattern, ...]


@dataclass(frozen=True, slots=True)
class AnyOf(Node):
    """Disjunction (``|``, ``or``)."""

    items: tuple[Pattern, ...]


@dataclass(frozen=True, slots=True)
class Not(Node):
    """Negation (``not``, ``!``)."""

    item: Pattern


Pattern = Shape | Run | Flush | Member | Compare | CategoryIs | AllOf | AnyOf | Not

# --- where a pattern's text sits -------------------------------------------------


@dataclass(frozen=True, slots=True)
class Where:
    """Where a pattern's text sits, so errors can point into the YAML file."""

    source: str = "<pattern>"
    line: int = 1
    col: int = 1

    def at(self, text: str, col: int) -> tuple[int, int]:
        """File line and column of 1-based column ``col`` of the pattern ``text``."""
        if "\n" in text[: col - 1]:
            before = text[: col - 1]
            return self.line + before.count("\n"), len(before) - before.rfind("\n")
        return self.line, self.col + col - 1


def pattern_diagnostic(
    code: str, message: str, text: str, col: int, where: Where, hint: str | None = None
) -> Diagnostic:
    """An error at 1-based column ``col`` of the pattern ``text``, placed in the file by ``where``."""
    line, file_col = where.at(text, col)
    context = caret(text, col) if "\n" not in text else None
    return Diagnostic(code, message, where.source, line, file_col, "error", hint, context)


# --- what a pattern says about tie-breaks ----------------------------------------------


def key_terms(pattern: Pattern) -> tuple[str, ...]:
    """The tie-break order a pattern implies (see DESIGN.md, "Tie-break keys").

    >>> key_terms(Shape((("X", 2), ("Y", 2), ("Z", 1))))
    ('X', 'Y', 'Z')
    >>> key_terms(AllOf((Run(), Flush())))
    ('top',)
    >>> key_terms(Flush())
    ('cards',)
    """
    items = pattern.items if isinstance(pattern, AllOf) else (pattern,)
    for item in items:
        if isinstance(item, Shape):
            return tuple(letter for letter, _ in item.groups)
    if any(isinstance(item, Run) for item in items):
        return ("top",)
    return ("cards",)


def mentions(pattern: Pattern, kinds: tuple[type, ...]) -> bool:
    """True when any node of ``pattern`` is an instance of one of ``kinds``."""
    if isinstance(pattern, kinds):
        return True
    if isinstance(pattern, (AllOf, AnyOf)):
        return any(mentions(item, kinds) for item in pattern.items)
    if isinstance(pattern, Not):
        return mentions(pattern.item, kinds)
    if isinstance(pattern, Member):
        return isinstance(pattern.term, kinds)
    if isinstance(pattern, Compare):
        return isinstance(pattern.left, kinds) or isinstance(pattern.right, kinds)
    return False


def term_kinds(pattern: Pattern) -> set[str]:
    """Every comparison term kind used in ``pattern`` (``suit``, ``category``...)."""
    if isinstance(pattern, Compare):
        return {pattern.left.kind, pattern.right.kind}
    if isinstance(pattern, (AllOf, AnyOf)):
        return set().union(*(term_kinds(item) for item in pattern.items))
    if isinstance(pattern, Not):
        return term_kinds(pattern.item)
    if isinstance(pattern, CategoryIs):
        return {"category"}
    if isinstance(pattern, Member):
        return {pattern.term.kind}
    return set()


def needs_suits(pattern: Pattern) -> bool:
    """True when ``pattern`` asks about suits within the hand: flush(k),
    run(..., flush) or ``suits`` (the hand class then carries its suits)."""
    if isinstance(pattern, Flush):
        return pattern.length is not None
    if isinstance(pattern, Run):
        return pattern.suited
    if isinstance(pattern, (AllOf, AnyOf)):
        return any(needs_suits(item) for item in pattern.items)
    if isinstance(pattern, Not):
        return needs_suits(pattern.item)
    return "suits" in term_kinds(pattern)
