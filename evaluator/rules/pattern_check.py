"""Semantic checks of a pattern against the ruleset: :func:`check_pattern`.

What needs the ruleset (a rank not in the deck, a variable compared but never
bound, a category name that does not exist, a run longer than the deck's
ranks) is checked on the AST, with each node's position, so every message
points at the column inside the YAML file.

>>> from evaluator.rules.pattern_ast import Compare, Term
>>> context = PatternContext(("9", "T", "J", "Q", "K", "A"), ("c", "d", "h", "s"), 5, True)
>>> pattern = Compare(Term("variable", "X"), ">=", Term("rank", "2"))
>>> [problem.code for problem in check_pattern(pattern, context, "X >= 2", Where())]
['P201', 'P208']
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from ..core.errors import Diagnostic
from .pattern_ast import (
    AllOf,
    AnyOf,
    CategoryIs,
    Compare,
    Flush,
    Member,
    Not,
    Pattern,
    Run,
    Shape,
    Term,
    Where,
    pattern_diagnostic,
)


@dataclass(frozen=True)
class PatternContext:
    """What a pattern is checked and compiled against (a view of the ruleset)."""

    rank_symbols: tuple[str, ...]  # deck ranks, weakest first under the ace rule
    suits: tuple[str, ...]
    hand_size: int
    ace_low_in_runs: bool  # ace both: the ace can also sit below the lowest rank
    category_names: tuple[str, ...] = ()  # in order, highest first
    allow_categories: bool = False

    def rank_value(self, symbol: str) -> int:
        """The strength of a rank symbol (0 = weakest)."""
        return self.rank_symbols.index(symbol)


def check_pattern(pattern: Pattern, context: PatternContext, text: str, where: Where) -> list[Diagnostic]:
    """Every semantic problem of ``pattern`` in ``context`` (empty when fine)."""
    problems: list[Diagnostic] = []

    def report(code: str, message: str, col: int, hint: str | None = None) -> None:
        problems.append(pattern_diagnostic(code, message, text, col, where, hint))

    def visit(node: Pattern, bound: frozenset[str]) -> None:
        if isinstance(node, AllOf):
            inner = bound | {letter for item in node.items if isinstance(item, Shape) for letter, _ in item.groups}
            for item in node.items:
                visit(item, inner)
        elif isinstance(node, (AnyOf,)):
            for item in node.items:
                visit(item, bound)
        elif isinstance(node, Not):
            visit(node.item, bound)
        elif isinstance(node, Shape):
            letters = [letter for letter, _ in node.groups]
            repeated = {letter for letter in letters if letters.count(letter) > 1}
            if repeated:
                report(
                    "P202",
                    f"variable {sorted(repeated)[0]} names two groups; distinct letters are distinct ranks",
                    node.col,
                )
            total = sum(size for _, size in node.groups)
            if total > context.hand_size:
                report("P203", f"the shape needs {total} cards but a hand has {context.hand_size}", node.col)
            if any(size > len(context.suits) * 8 for _, size in node.groups):
                report("P203", "a group is larger than any deck allows", node.col)
        elif isinstance(node, Run):
            if node.plain:
                if context.hand_size > len(context.rank_symbols) + (1 if context.ace_low_in_runs else 0):
                    report("P204", f"a run of {context.hand_size} cards is longer than the deck's ranks", node.col)
            else:
                check_run(node)
        elif isinstance(node, Flush):
            if node.length is not None:
                check_length(node.length, node.arg_cols[0] if node.arg_cols else node.col, "flush")
        elif isinstance(node, Member):
            check_member(node, bound)
        elif isinstance(node, Compare):
            for term in (node.left, node.right):
                check_term(term, bound, other=node.right if term is node.left else node.left)
        elif isinstance(node, CategoryIs):
            check_category(node.name, node.col)

    def check_length(length: int, col: int, what: str) -> bool:
        if 2 <= length <= context.hand_size:
            return True
        report(
            "P215",
            f"a {what} of {length} card{'s' if length != 1 else ''} in a hand of {context.hand_size}: "
            f"the count must be 2 to {context.hand_size}",
            col,
        )
        return False

    def check_run(node: Run) -> None:
        col = node.arg_cols[0] if node.arg_cols else node.col
        length = node.length if node.length is not None else context.hand_size
        if node.length is not None and not check_length(node.length, col, "run"):
            return
        ranks = len(context.rank_symbols)
        if node.step < 1:
            report("P216", "a run's step must be 1 or more", col)
            return
        span = (length - 1) * node.step + 1
        room = ranks if node.wrap else ranks + (1 if context.ace_low_in_runs else 0)
        if (span > room) if not node.wrap else (length * node.step > ranks):
            report("P216", f"a run of {length} cards {node.step} apart needs {span} ranks; this deck has {ranks}", col)

    def check_member(node: Member, bound: frozenset[str]) -> None:
        term = node.term
        if term.kind not in ("variable", "top", "bottom", "all", "any"):
            report(
                "P219",
                f"only ranks can be in a rank set, and {term.text or term.kind!r} is not a rank",
                term.col,
                "use a variable, top, bottom, all or any, e.g. 'all in {J, Q, K}'",
            )
            return
        check_term(term, bound, other=Term("rank", node.ranks[0]))
        seen: set[str] = set()
        for rank, col in zip(node.ranks, node.rank_cols or (node.col,) * len(node.ranks), strict=False):
            if rank not in context.rank_symbols:
                report("P208", f"rank {rank} is not in this deck ({' '.join(context.rank_symbols)})", col)
            elif rank in seen:
                report("P218", f"the rank set names {rank} twice", col)
            seen.add(rank)

    def check_suit_count(term: Term, other: Term) -> None:
        number = wild_number(other)
        most = min(context.hand_size, len(context.suits))
        if number is None:
            report(
                "P217",
                "'suits' can only be compared with a number of suits",
                other.col if other.kind != "suits" else term.col,
                "write e.g. 'suits = 4' or 'suits <= 2'",
            )
        elif number > most:
            report(
                "P217",
                f"a hand of {context.hand_size} cards from {len(context.suits)} suits "
                f"holds at most {most} suits, not {number}",
                other.col,
            )

    def check_category(name: str, col: int) -> None:
        if not context.allow_categories:
            report(
                "P205",
                f"category names ({name!r}) are allowed in qualifier, beats and plays_as, not in category patterns",
                col,
            )
        elif name not in context.category_names:
            close = difflib.get_close_matches(name, context.category_names, n=1)
            report("P206", f"unknown category {name!r}", col, f"did you mean {close[0]!r}?" if close else None)

    def check_term(term: Term, bound: frozenset[str], other: Term) -> None:
        if term.kind == "suits":
            check_suit_count(term, other)
            return
        if other.kind == "suits":
            return  # checked from the `suits` side: it must be a number of suits
        if term.kind == "wilds":
            check_wild_count(term, other)
            return
        if other.kind == "wilds":
            return  # checked from the `wilds` side: it must be a number of wild cards
        if term.kind == "variable":
            if len(term.text) != 1:
                report("P207", f"{term.text!r} is not a variable: compare one letter, e.g. {term.text[0]}", term.col)
            elif term.text not in bound:
                report(
                    "P201",
                    f"variable {term.text} is compared but no shape binds it",
                    term.col,
                    f"add a shape such as '{term.text}{term.text} Y Z W'",
                )
        elif term.kind == "rank":
            if term.text not in context.rank_symbols:
                report("P208", f"rank {term.text} is not in this deck ({' '.join(context.rank_symbols)})", term.col)
        elif term.kind == "name":
            if other.kind == "suit":
                if term.text not in context.suits:
                    report("P209", f"{term.text!r} is not a suit of this deck ({' '.join(context.suits)})", term.col)
            elif other.kind == "category":
                check_category(term.text, term.col)
            else:
                report(
                    "P210",
                    f"{term.text!r} cannot be compared here",
                    term.col,
                    "compare names with 'category' or suits with 'suit'",
                )
        elif term.kind == "category" and not context.allow_categories:
            report("P205", "'category' is allowed in qualifier, beats and plays_as, not in category patterns", term.col)

    def check_wild_count(term: Term, other: Term) -> None:
        if other.kind == "count":
            return
        if other.kind == "wilds":
            report("P212", "'wilds' compared with itself", term.col, "compare 'wilds' with a number, e.g. 'wilds = 4'")
            return
        number = wild_number(other)
        if number is None:
            report(
                "P211",
                "'wilds' can only be compared with a number of wild cards",
                other.col,
                "write e.g. 'wilds = 4' or 'wilds >= 1'",
            )
        elif number > context.hand_size:
            report("P213", f"a hand of {context.hand_size} cards cannot hold {number} wild cards", other.col)

    visit(pattern, frozenset())
    return problems


def wild_number(term: Term) -> int | None:
    """The number a term stands for next to ``wilds`` (0-9, 10), or None."""
    if term.kind == "count" or (term.kind == "rank" and term.text in "23456789"):
        return int(term.text)
    if term.kind == "rank" and term.text == "T":
        return 10
    return None
