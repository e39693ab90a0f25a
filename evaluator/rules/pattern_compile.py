"""Compiling a pattern into a matcher, and what a matcher sees of a hand.

Matching works on a :class:`HandClass`: what a pattern can ask about a hand
(its rank groups, whether it is a flush and in which suit, the top of its run).
Suits beyond the flush never matter to a pattern, which is what lets the
evaluator memoise classification per class and the table compiler enumerate
classes instead of hands. :func:`compile_pattern` turns the AST into a
:data:`Matcher` ``(hand, binding) -> binding or None``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, partial

from .pattern_ast import AnyOf, CategoryIs, Compare, Flush, Member, Not, Pattern, Run, Shape, Term
from .pattern_check import PatternContext, wild_number


# not frozen, for speed (as ``engine.fill.Classification``): nothing assigns to one
@dataclass(slots=True, unsafe_hash=True)
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
    return _bind_groups(shape.groups, _sizes_needed(shape), hand.groups, allow_missing)


def _sizes_needed(shape: Shape) -> tuple[int, ...]:
    """The group sizes a shape asks for, largest first (how a hand's groups are ordered)."""
    return tuple(sorted((size for _, size in shape.groups), reverse=True))


def _bind_groups(
    letters: tuple[tuple[str, int], ...],
    sizes_needed: tuple[int, ...],
    groups: tuple[tuple[int, int], ...],
    allow_missing: bool,
) -> Binding | None:
    sizes_held = tuple(count for count, _ in groups)
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
    for count, rank in groups:
        available.setdefault(count, []).append(rank)
    binding: Binding = {}
    for letter, size in letters:
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
            hand_size = context.hand_size
            # the same rank groups come back for many hands (every suit pattern of them)
            bind = lru_cache(maxsize=1 << 16)(partial(_bind_groups, node.groups, _sizes_needed(node)))

            def match_shape(hand: HandClass, binding: Binding) -> Binding | None:
                found = bind(hand.groups, len(hand.ranks) < hand_size)
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


# rank sets repeat across the classes of a ruleset (every suit pattern of them)
_find_run_memo = lru_cache(maxsize=1 << 16)(find_run)


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
                    option = _find_run_memo(frozenset(ranks), length, node.step, node.wrap, ace_low, rank_count)
                    if option is not None and (found is None or option[0] > found[0]):
                        found = option
        else:
            found = _find_run_memo(frozenset(hand.ranks), length, node.step, node.wrap, ace_low, rank_count)
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
        number = wild_number(term)
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
