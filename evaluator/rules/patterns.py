"""The pattern language: parse with Lark (LALR) into a typed AST, check it, compile it.

A pattern is parsed once, when a ruleset is built, into frozen dataclasses
(:class:`Shape`, :class:`Run`, :class:`Compare`, ...). Semantic checks that need
the ruleset (a rank not in the deck, a variable compared but never bound, a
category name that does not exist) run on the AST with the node's position, so
every message points at the column inside the YAML file.

Matching works on a :class:`HandClass`: what a pattern can ask about a hand
(its rank groups, whether it is a flush and in which suit, the top of its run).
Suits beyond the flush never matter to a pattern, which is what lets the
evaluator memoise classification per class and the table compiler enumerate
classes instead of hands.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedInput, UnexpectedToken, v_args

from ..core.errors import Diagnostic, PatternError, caret
from .cards import rank_token
from .parsercache import pattern_parser

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

# --- parsing -------------------------------------------------------------------

_FRIENDLY_TOKENS = {
    "GROUP": "a rank group such as XX",
    "RANK": "a rank (2-9, T, J, Q, K, A)",
    "COMPARATOR": "a comparison (= != < <= > >=)",
    "CATEGORY": "a name",
    "RUN": "'run'",
    "FLUSH": "'flush'",
    "LPAR": "'('",
    "RPAR": "')'",
    "VBAR": "'|'",
    "OR": "'or'",
    "AMPERSAND": "'&'",
    "AND": "'and'",
    "COMMA": "','",
    "NOT": "'not'",
    "BANG": "'!'",
    "TOP": "'top'",
    "BOTTOM": "'bottom'",
    "ALL": "'all'",
    "LOWEST": "'lowest'",
    "HIGHEST": "'highest'",
    "SUIT": "'suit'",
    "WILDS": "'wilds'",
    "NATURAL": "'natural'",
    "COUNT": "a number of wild cards",
    "NUMBER": "a number",
    "IN": "'in'",
    "ANY": "'any'",
    "SUITS": "'suits'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "$END": "the end of the pattern",
}


@cache
def _parser() -> Lark:
    # Building the LALR tables costs more than everything else at start-up, so
    # the built parser is cached as signed JSON (never Lark's pickle cache).
    return pattern_parser()


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


def _diagnostic(code: str, message: str, text: str, col: int, where: Where, hint: str | None = None) -> Diagnostic:
    line, file_col = where.at(text, col)
    context = caret(text, col) if "\n" not in text else None
    return Diagnostic(code, message, where.source, line, file_col, "error", hint, context)


@v_args(inline=True)
class _ToAst(Transformer):  # type: ignore[type-arg]
    """Lark tree -> AST nodes (columns taken from the tokens)."""

    def __init__(self, text: str, where: Where) -> None:
        super().__init__()
        self.text = text
        self.where = where

    def shape(self, *groups: Token) -> Shape:
        parsed = []
        for token in groups:
            letters = str(token)
            if len(set(letters)) != 1:
                raise PatternError(
                    _diagnostic(
                        "P102",
                        f"group {letters!r} mixes letters: a group repeats one letter",
                        self.text,
                        token.column or 1,
                        self.where,
                        hint="write separate groups with spaces, e.g. 'XX YY'",
                    )
                )
            parsed.append((letters[0], len(letters)))
        return Shape(tuple(parsed), col=groups[0].column or 1)

    def run(self, token: Token) -> Run:
        return Run(col=token.column or 1)

    def flush(self, token: Token) -> Flush:
        return Flush(col=token.column or 1)

    # run(...) / flush(...) arguments arrive as (kind, text, column, value token)
    def arg_number(self, token: Token) -> tuple[str, str, int, Token]:
        return ("number", str(token), token.column or 1, token)

    def arg_flush(self, token: Token) -> tuple[str, str, int, Token]:
        return ("flush", "flush", token.column or 1, token)

    def arg_word(self, token: Token) -> tuple[str, str, int, Token]:
        if str(token).isdigit():  # 2-9 and 10 lex as ranks
            return ("number", str(token), token.column or 1, token)
        return ("word", str(token), token.column or 1, token)

    def arg_option(self, name: Token, op: Token, value: Token) -> tuple[str, str, int, Token]:
        if str(op) != "=":
            self._fail(
                "P104",
                f"write run options as name=number, e.g. 'step=2', not {str(name)}{op}{value}",
                op.column or 1,
                "run takes a card count, wrap, step=N and flush",
            )
        return ("option", str(name), name.column or 1, value)

    def _fail(self, code: str, message: str, col: int, hint: str | None = None) -> None:
        raise PatternError(_diagnostic(code, message, self.text + " ", col, self.where, hint))

    def run_with(self, token: Token, *args: tuple[str, str, int, Token]) -> Run:
        length: int | None = None
        wrap = suited = False
        step = 1
        seen: set[str] = set()
        for kind, text, col, value in args:
            what = {"number": "count", "flush": "flush", "word": text, "option": text}[kind]
            if what in seen:
                self._fail(
                    "P105",
                    f"run names its {what} twice",
                    col,
                    "give each of a card count, wrap, step=N and flush at most once",
                )
            seen.add(what)
            if kind == "number":
                length = int(text)
            elif kind == "flush":
                suited = True
            elif kind == "word" and text == "wrap":
                wrap = True
            elif kind == "word" and text == "step":
                self._fail("P109", "'step' needs a number: write step=2", col)
            elif kind == "option" and text == "step":
                if not str(value).isdigit():
                    self._fail("P109", f"'step' needs a number, not {str(value)!r}: write step=2", value.column or col)
                step = int(str(value))
            else:
                self._fail(
                    "P104",
                    f"run does not know {text!r}",
                    col,
                    "run takes a card count, wrap, step=N and flush, e.g. 'run(4, flush)'",
                )
        return Run(length, wrap, step, suited, arg_cols=tuple(a[2] for a in args), col=token.column or 1)

    def flush_with(self, token: Token, arg: tuple[str, str, int, Token]) -> Flush:
        kind, text, col, _ = arg
        if kind != "number":
            self._fail(
                "P108",
                f"flush(...) takes a number of cards, not {text!r}",
                col,
                "write e.g. 'flush(4)'; a straight flush of k cards is 'run(k, flush)'",
            )
        return Flush(int(text), arg_cols=(col,), col=token.column or 1)

    def membership(self, term: Term, *items: Token | None) -> Member:
        tokens = [item for item in items if item is not None]
        if not tokens:
            self._fail("P107", "the rank set is empty", self._brace_col(term), "list ranks, e.g. 'all in {J, Q, K}'")
        ranks = []
        for item in tokens:
            if item.type == "NUMBER" and str(item) in ("2", "3", "4", "5", "6", "7", "8", "9", "10"):
                item = Token(
                    "RANK", str(item), start_pos=item.start_pos, line=item.line, column=item.column
                )  # lexed as a number
            if item.type != "RANK":
                self._fail(
                    "P106",
                    f"{str(item)!r} is not a rank: a rank set lists ranks (2-9, 10, T, J, Q, K, A)",
                    item.column or 1,
                )
            ranks.append(rank_token(str(item)))
        return Member(term, tuple(ranks), rank_cols=tuple(item.column or 1 for item in tokens), col=term.col)

    def _brace_col(self, term: Term) -> int:
        brace = self.text.find("{", term.col - 1)
        return brace + 1 if brace >= 0 else term.col

    def comparison(self, left: Term, op: Token, right: Term) -> Compare:
        for side, other in ((left, right), (right, left)):
            if side.kind == "count" and other.kind != "wilds":
                # 0 and 1 are not ranks: without `wilds` they stay the syntax error they always were
                raise PatternError(
                    _diagnostic(
                        "P101",
                        f"unexpected {side.text!r}",
                        self.text + " ",
                        side.col,
                        self.where,
                        "a rank is 2-9, T, J, Q, K or A; the numbers 0 and 1 count wild cards, as in 'wilds = 0'",
                    )
                )
        return Compare(left, str(op), right, col=left.col)

    def category_is(self, name: Token) -> CategoryIs:
        return CategoryIs(str(name), col=name.column or 1)

    def all_of(self, left: Pattern, right: Pattern) -> AllOf:
        items = (left.items if isinstance(left, AllOf) else (left,)) + (right,)
        return AllOf(items, col=left.col)

    def any_of(self, left: Pattern, right: Pattern) -> AnyOf:
        items = (left.items if isinstance(left, AnyOf) else (left,)) + (right,)
        return AnyOf(items, col=left.col)

    def negation(self, item: Pattern) -> Not:
        return Not(item, col=max(1, item.col - 4))

    def variable(self, token: Token) -> Term:
        return Term("variable", str(token), col=token.column or 1)

    def rank(self, token: Token) -> Term:
        return Term("rank", rank_token(str(token)), col=token.column or 1)

    def name(self, token: Token) -> Term:
        return Term("name", str(token), col=token.column or 1)

    def count(self, token: Token) -> Term:
        return Term("count", str(token), col=token.column or 1)

    def natural(self, *_: object) -> Compare:
        # `natural` is shorthand for `wilds = 0`: the hand holds no wild card
        return Compare(Term("wilds"), "=", Term("count", "0"))

    def __default__(self, data: str, children: list[object], meta: object) -> object:
        # The keyword terms: top, bottom, all (-> every), lowest, highest, suit, category.
        kinds = {"every": "all", "some": "any"}
        column = getattr(meta, "column", 1) if not getattr(meta, "empty", True) else 1
        return Term(kinds.get(data, data), col=column)


def parse_pattern(text: str, where: Where | None = None) -> Pattern:
    """Parse ``text`` into an AST.

    >>> parse_pattern("XX Y Z W & X >= J")
    AllOf(items=(Shape(groups=(('X', 2), ('Y', 1), ('Z', 1), ('W', 1))), Compare(left=Term(kind='variable', text='X'), op='>=', right=Term(kind='rank', text='J'))))

    Raises:
        PatternError: P101 syntax errors (with what was expected), P102 bad
            groups, P103 a pattern that is empty or too long.
    """
    where = where or Where()
    if not text.strip():
        raise PatternError(_diagnostic("P103", "the pattern is empty", text or " ", 1, where))
    if len(text) > MAX_PATTERN_LENGTH:
        raise PatternError(
            _diagnostic(
                "P103",
                f"the pattern is {len(text)} characters long; the limit is {MAX_PATTERN_LENGTH}",
                text[:60],
                1,
                where,
            )
        )
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as problem:
        raise PatternError(_syntax_diagnostic(problem, text, where)) from None
    try:
        result = _ToAst(text, where).transform(tree)
    except PatternError:
        raise
    except Exception as problem:  # lark wraps transformer errors in VisitError
        cause = getattr(problem, "orig_exc", problem)
        if isinstance(cause, PatternError):
            raise cause from None
        raise PatternError(_diagnostic("P101", f"cannot read the pattern: {cause}", text, 1, where)) from None
    return result  # type: ignore[no-any-return]


def _syntax_diagnostic(problem: UnexpectedInput, text: str, where: Where) -> Diagnostic:
    col = getattr(problem, "column", 1) or 1
    if isinstance(problem, UnexpectedCharacters):
        at = problem.pos_in_stream  # None only for errors lark raises without a position
        found = text[at] if at is not None and at < len(text) else "end"
        message = f"unexpected character {found!r}"
    elif isinstance(problem, UnexpectedToken):
        token = problem.token
        if token.type == "$END":
            message = "the pattern ends too early"
            col = len(text) + 1
        else:
            message = f"unexpected {str(token)!r}"
    else:
        message = "cannot read the pattern"
    expected = sorted(
        {_FRIENDLY_TOKENS.get(name, name.lower()) for name in getattr(problem, "expected", set()) or set()}
    )
    hint = ("expected " + ", ".join(expected)) if expected else None
    return _diagnostic("P101", message, text + " ", col, where, hint)


# --- semantic checks ------------------------------------------------------------


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
        problems.append(_diagnostic(code, message, text, col, where, hint))

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
        number = _wild_number(other)
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
                f"a hand of {context.hand_size} cards from {len(context.suits)} suits holds at most {most} suits, not {number}",
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
        number = _wild_number(other)
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


def _wild_number(term: Term) -> int | None:
    """The number a term stands for next to ``wilds`` (0-9, 10), or None."""
    if term.kind == "count" or (term.kind == "rank" and term.text in "23456789"):
        return int(term.text)
    if term.kind == "rank" and term.text == "T":
        return 10
    return None


# --- matching --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandClass:
    """What a pattern can ask about a hand.

    ``ranks`` are rank values high to low; ``groups`` are (count, rank) pairs,
    larger groups first and higher ranks first within a size; ``run_top`` is
    the value of the top card when the hand is a run (the wheel's top is its
    five) and ``flush_suit`` the suit when the hand is a flush.
    """

    ranks: tuple[int, ...]
    groups: tuple[tuple[int, int], ...]
    flush_suit: str | None
    run_top: int | None
    category: int = -1  # strength of the hand's category; set for qualifier/beats matching
    wilds: int = 0  # how many wild cards the hand holds (``wilds``, ``natural``)
    # each suit held with its rank values high to low, when a pattern asks about
    # suits within the hand (flush(k), run(k, flush), suits); None otherwise
    suited: tuple[tuple[str, tuple[int, ...]], ...] | None = None


Binding = dict[str, int]
Matcher = Callable[[HandClass, Binding], Binding | None]

_OPERATORS: dict[str, Callable[[int, int], bool]] = {
    "=": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}

_RUN_KINDS = ("top", "bottom")


def bind_shape(shape: Shape, hand: HandClass, hand_size: int, allow_missing: bool) -> Binding | None:
    """Bind the shape's variables to the hand's groups, or None when it does not fit.

    Groups of equal size are bound high to low in the order written. Trailing
    single-card groups may be left unbound when incomplete hands are allowed.
    """
    sizes_needed = sorted((size for _, size in shape.groups), reverse=True)
    sizes_held = [count for count, _ in hand.groups]
    if sizes_held != sizes_needed:
        if not allow_missing:
            return None
        missing = len(sizes_needed) - len(sizes_held)
        if (
            missing <= 0
            or sizes_held != sizes_needed[: len(sizes_held)]
            or any(s != 1 for s in sizes_needed[len(sizes_held) :])
        ):
            return None
        # only trailing kickers may be missing: every group of 2+ must be present
    available: dict[int, list[int]] = {}
    for count, rank in hand.groups:
        available.setdefault(count, []).append(rank)
    binding: Binding = {}
    for letter, size in shape.groups:
        pool = available.get(size)
        if pool:
            binding[letter] = pool.pop(0)
        elif size != 1:
            return None
    return binding


def compile_pattern(pattern: Pattern, context: PatternContext) -> Matcher:
    """Turn an AST into a matcher ``(hand, binding) -> binding or None``.

    The binding maps shape variables to rank values; a conjunction passes the
    bindings of its shapes to its other parts.
    """
    allow_missing = False  # set per call through the closure below

    def build(node: Pattern) -> Matcher:
        if isinstance(node, Shape):

            def match_shape(hand: HandClass, binding: Binding, node: Shape = node) -> Binding | None:
                found = bind_shape(node, hand, context.hand_size, len(hand.ranks) < context.hand_size)
                if found is None:
                    return None
                return {**binding, **found}

            return match_shape
        if isinstance(node, Run):
            if node.plain:
                return lambda hand, binding: binding if hand.run_top is not None else None
            return _compile_run(node, context)
        if isinstance(node, Flush):
            if node.length is not None:
                length = node.length
                return lambda hand, binding: (
                    binding if any(len(ranks) >= length for _, ranks in hand.suited or ()) else None
                )
            return lambda hand, binding: binding if hand.flush_suit is not None else None
        if isinstance(node, Member):
            return _compile_member(node, context)
        if isinstance(node, CategoryIs):
            strength = (
                len(context.category_names) - context.category_names.index(node.name)
                if node.name in context.category_names
                else -99
            )
            return lambda hand, binding: binding if hand.category == strength else None
        if isinstance(node, Compare):
            return _compile_compare(node, context)
        if isinstance(node, Not):
            inner = build(node.item)
            return lambda hand, binding: binding if inner(hand, binding) is None else None
        if isinstance(node, AnyOf):
            options = [build(item) for item in node.items]

            def match_any(hand: HandClass, binding: Binding) -> Binding | None:
                for option in options:
                    found = option(hand, binding)
                    if found is not None:
                        return found
                return None

            return match_any
        # AllOf: shapes first, so comparisons see their bindings
        ordered = sorted(node.items, key=lambda item: 0 if isinstance(item, Shape) else 1)
        parts = [build(item) for item in ordered]

        def match_all(hand: HandClass, binding: Binding) -> Binding | None:
            current: Binding | None = binding
            for part in parts:
                current = part(hand, current)  # type: ignore[arg-type]
                if current is None:
                    return None
            return current

        return match_all

    del allow_missing
    return build(pattern)


def find_run(
    values: frozenset[int], length: int, step: int, wrap: bool, ace_low: bool, rank_count: int
) -> tuple[int, int] | None:
    """The best run of ``length`` ranks ``step`` apart among rank ``values``: (top, bottom), or None.

    The ace (value ``rank_count - 1``) may sit below the lowest rank as -1 when
    ``ace_low``; with ``wrap`` a run may go round the corner (Q-K-A-2-3), and its
    top is its last card (3), so a wrapped run ranks by where it ends.

    >>> find_run(frozenset({12, 0, 1, 2, 3}), 5, 1, False, True, 13)
    (3, -1)
    >>> find_run(frozenset({10, 11, 12, 0, 1}), 5, 1, True, True, 13)
    (1, 10)
    """
    best: tuple[int, int] | None = None
    ace = rank_count - 1
    for start in range(-1 if ace_low else 0, rank_count):
        end = start + (length - 1) * step
        if end >= rank_count and not wrap:
            break
        members = [start + i * step for i in range(length)]
        if any((ace if value == -1 else value % rank_count) not in values for value in members):
            continue
        top = end % rank_count if end >= rank_count else end
        if best is None or top > best[0]:
            best = (top, start)
    return best


def _compile_run(node: Run, context: PatternContext) -> Matcher:
    size, rank_count = context.hand_size, len(context.rank_symbols)
    ace_low = context.ace_low_in_runs and not node.wrap
    length = node.length if node.length is not None else size
    whole = node.length is None

    def match_run(hand: HandClass, binding: Binding) -> Binding | None:
        if whole and (len(hand.ranks) != size or len(hand.groups) != size):
            return None
        if node.suited:
            found: tuple[int, int] | None = None
            for _, ranks in hand.suited or ():
                if len(ranks) >= length:
                    option = find_run(frozenset(ranks), length, node.step, node.wrap, ace_low, rank_count)
                    if option is not None and (found is None or option[0] > found[0]):
                        found = option
        else:
            found = find_run(frozenset(hand.ranks), length, node.step, node.wrap, ace_low, rank_count)
        if found is None:
            return None
        return {**binding, TOP: found[0], BOTTOM: found[1]}

    return match_run


def _compile_member(node: Member, context: PatternContext) -> Matcher:
    allowed = frozenset(context.rank_value(rank) for rank in node.ranks if rank in context.rank_symbols)
    ace = len(context.rank_symbols) - 1
    read = _term_reader(node.term, Term("rank"), context)
    every = node.term.kind != "any"

    def match_member(hand: HandClass, binding: Binding) -> Binding | None:
        values = read(hand, binding)
        if values is None:
            return None
        inside = [(ace if value == -1 else value) in allowed for value in values]
        return binding if (all(inside) if every else any(inside)) else None

    return match_member


def _compile_compare(node: Compare, context: PatternContext) -> Matcher:
    operator = _OPERATORS[node.op]
    if "suit" in (node.left.kind, node.right.kind):
        suit_term = node.right if node.left.kind == "suit" else node.left
        wanted = suit_term.text
        if node.op == "=":
            return lambda hand, binding: binding if hand.flush_suit == wanted else None
        return lambda hand, binding: binding if hand.flush_suit != wanted else None
    left = _term_reader(node.left, node.right, context)
    right = _term_reader(node.right, node.left, context)
    some = "any" in (node.left.kind, node.right.kind)  # `any = 2`: some card is a two

    def match_compare(hand: HandClass, binding: Binding) -> Binding | None:
        lefts = left(hand, binding)
        rights = right(hand, binding)
        if lefts is None or rights is None:
            return None
        if some:
            if any(operator(a, b) for a in lefts for b in rights):
                return binding
        elif all(operator(a, b) for a in lefts for b in rights):
            return binding
        return None

    return match_compare


#: Binding keys under which a run(...) form leaves the top and bottom of the run it found.
TOP, BOTTOM = "^top", "^bottom"


def run_top(hand: HandClass, binding: Binding) -> int:
    """``top``: the top of the run a run(...) form found, else of the hand's run, else its highest card."""
    if TOP in binding:
        return binding[TOP]
    return hand.run_top if hand.run_top is not None else hand.ranks[0]


def run_bottom(hand: HandClass, binding: Binding, size: int) -> int:
    """``bottom``: as :func:`run_top`, the lowest card (a low ace is -1)."""
    if BOTTOM in binding:
        return binding[BOTTOM]
    return hand.run_top - size + 1 if hand.run_top is not None else hand.ranks[-1]


def _term_reader(term: Term, other: Term, context: PatternContext) -> Callable[[HandClass, Binding], list[int] | None]:
    size = context.hand_size
    lowest_rank, highest_rank = 0, len(context.rank_symbols) - 1
    lowest_bottom = -1 if context.ace_low_in_runs else 0
    kind = term.kind
    if kind == "wilds":
        return lambda hand, binding: [hand.wilds]
    if kind == "suits":
        return lambda hand, binding: [len(hand.suited)] if hand.suited is not None else None
    if other.kind in ("wilds", "suits") and kind in ("rank", "count"):
        number = _wild_number(term)
        return lambda hand, binding: [number] if number is not None else None
    if kind == "variable":
        letter = term.text
        return lambda hand, binding: [binding[letter]] if letter in binding else None
    if kind == "rank":
        value = context.rank_value(term.text)
        return lambda hand, binding: [value]
    if kind == "top":
        return lambda hand, binding: [run_top(hand, binding)]
    if kind == "bottom":
        return lambda hand, binding: [run_bottom(hand, binding, size)]
    if kind in ("all", "any"):
        return lambda hand, binding: list(hand.ranks)
    if kind in ("lowest", "highest"):
        # the lowest / highest value the other side can take in this ruleset
        if other.kind == "bottom":
            value = lowest_bottom if kind == "lowest" else highest_rank - size + 1
        elif other.kind == "top":
            value = lowest_bottom + size - 1 if kind == "lowest" else highest_rank
        else:
            value = lowest_rank if kind == "lowest" else highest_rank
        return lambda hand, binding: [value]
    if kind == "category":
        return lambda hand, binding: [hand.category]
    if kind == "name":
        names = context.category_names
        value = len(names) - names.index(term.text) if term.text in names else -99
        return lambda hand, binding: [value]
    raise AssertionError(f"unknown term kind {kind}")  # the grammar produces no other


# --- what a pattern says about tie-breaks ----------------------------------------------


def key_terms(pattern: Pattern) -> tuple[str, ...]:
    """The tie-break order a pattern implies (see DESIGN.md, "Tie-break keys").

    >>> key_terms(parse_pattern("XX YY Z"))
    ('X', 'Y', 'Z')
    >>> key_terms(parse_pattern("run & flush"))
    ('top',)
    >>> key_terms(parse_pattern("flush"))
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
