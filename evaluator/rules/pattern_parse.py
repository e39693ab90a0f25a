"""Parsing patterns: the text, through Lark (LALR), into the AST of :mod:`evaluator.rules.pattern_ast`.

Syntax errors (P101), malformed groups and run/flush arguments (P102, P104-P109)
and empty or overlong patterns (P103) are raised as :class:`PatternError` with
the column inside the pattern and the line and column inside the YAML file.
"""

from __future__ import annotations

from functools import cache

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedInput, UnexpectedToken, v_args

from ..core.errors import Diagnostic, PatternError
from .cards import rank_hint, rank_token
from .parsercache import pattern_parser
from .pattern_ast import (
    MAX_PATTERN_LENGTH,
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


# What can start a pattern, and what can stand on either side of a comparison: said as
# one phrase each rather than as the parser's long list of tokens.
_STARTS_A_PATTERN = frozenset({"GROUP", "RUN", "FLUSH", "LPAR", "NOT", "BANG"})
_TERM_WORDS = {
    "TOP": "top",
    "BOTTOM": "bottom",
    "LOWEST": "lowest",
    "HIGHEST": "highest",
    "ALL": "all",
    "ANY": "any",
    "SUIT": "suit",
    "SUITS": "suits",
    "WILDS": "wilds",
}


def _expected_hint(names: set[str]) -> str | None:
    """What the parser expected, in words: a phrase for a whole pattern or a term, else the tokens."""
    if not names:
        return None
    if names >= _STARTS_A_PATTERN:
        return "expected more pattern: a shape such as XX Y Z, run, flush, a comparison such as X >= J, not, or '('"
    if set(_TERM_WORDS) <= names:
        return (
            "expected something to compare: a rank (2-9, T, J, Q, K, A), a variable such as X, "
            "a number, or one of top, bottom, lowest, highest, all, any, suit, suits, wilds, category"
        )
    return "expected " + _one_of(sorted({_token_words(name) for name in names}))


def _token_words(name: str) -> str:
    """A token the parser expected, as a user would say it: a friendly name, else the
    literal text of the terminal (Lark names a keyword like ``category`` ``__ANON_0``)."""
    if name in _FRIENDLY_TOKENS:
        return _FRIENDLY_TOKENS[name]
    for terminal in _parser().terminals:
        if terminal.name == name and terminal.pattern.type == "str":
            return repr(terminal.pattern.value)
    return "another token"


def _one_of(words: list[str]) -> str:
    """``'a'``, ``'a' or 'b'``, ``'a', 'b' or 'c'``: the words of a hint.

    >>> _one_of(["')'", "','"])
    "')' or ','"
    """
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


@cache
def _parser() -> Lark:
    # Building the LALR tables costs more than everything else at start-up, so
    # the built parser is cached as signed JSON (never Lark's pickle cache).
    return pattern_parser()


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
                    pattern_diagnostic(
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
        raise PatternError(pattern_diagnostic(code, message, self.text + " ", col, self.where, hint))

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
                    rank_hint(str(item)),
                )
            ranks.append(rank_token(str(item)))
        return Member(term, tuple(ranks), rank_cols=tuple(item.column or 1 for item in tokens), col=term.col)

    def _brace_col(self, term: Term) -> int:
        brace = self.text.find("{", term.col - 1)
        return brace + 1 if brace >= 0 else term.col

    def comparison(self, left: Term, op: Token, right: Term) -> Compare:
        for side, other in ((left, right), (right, left)):
            if side.kind == "count" and other.kind not in ("wilds", "suits"):
                # 0 and 1 are not ranks: they count wild cards or suits, and are a syntax error elsewhere
                raise PatternError(
                    pattern_diagnostic(
                        "P101",
                        f"unexpected {side.text!r}",
                        self.text + " ",
                        side.col,
                        self.where,
                        "a rank is 2-9, T, J, Q, K or A; the numbers 0 and 1 count wild cards or suits, as in 'wilds = 0'",
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
    AllOf(items=(Shape(groups=(('X', 2), ('Y', 1), ('Z', 1), ('W', 1))),
        Compare(left=Term(kind='variable', text='X'), op='>=', right=Term(kind='rank', text='J'))))

    Raises:
        PatternError: P101 syntax errors (with what was expected), P102 bad
            groups, P103 a pattern that is empty or too long.
    """
    where = where or Where()
    if not text.strip():
        raise PatternError(pattern_diagnostic("P103", "the pattern is empty", text or " ", 1, where))
    if len(text) > MAX_PATTERN_LENGTH:
        raise PatternError(
            pattern_diagnostic(
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
        raise PatternError(pattern_diagnostic("P101", f"cannot read the pattern: {cause}", text, 1, where)) from None
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
    hint = _expected_hint(set(getattr(problem, "expected", set()) or set()))
    return pattern_diagnostic("P101", message, text + " ", col, where, hint)
