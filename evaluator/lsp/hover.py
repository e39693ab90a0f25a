"""Hover: what a category is and how often it comes, what a code means, what an example evaluates to.

- A **category name** (its definition, ``order:``, ``beats:``, an example, a
  pattern): its pattern and the pattern in words, its exact frequency in
  deals of the ruleset's own size and of seven cards with "1 in N" (from the
  heavy pass, :class:`~evaluator.lsp.analysis.Insight`), a real hand of it,
  and where it is defined (``inherited from standard.yaml:41``).
- A **diagnostic code** (in a ``# pokerrules: ignore[...]`` comment): its
  meaning from the registry of codes (docs/codes.md).
- An **example** (a line of ``examples:``) or a card: what the generic
  evaluator makes of its hands, and the verdict of a comparison; the work is
  bounded as ``check`` bounds it.
- A **key**: its description from the JSON Schema.
"""

from __future__ import annotations

import contextlib
import os
import re
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from ..core.codes import CODES
from ..core.errors import PokerRulesError
from ..core.safe_text import visible
from ..tools.stats_format import format_odds, format_probability
from .context import cursor_at
from .schema_nav import schema_at

if TYPE_CHECKING:
    from ..ruleset import Ruleset
    from .analysis import Analysis, Insight
    from .textmap import TextMap

__all__ = ["hover"]

_CODE = re.compile(r"\b[A-Z]\d{3}\b")
_COMPARISON = re.compile(r"^(?P<a>.+?)\s+(?P<op>[<>=])\s+(?P<b>.+)$")
_IS = re.compile(r"^(?P<hand>.+?)\s+is\s+(?P<category>\w+)$")
_CARDS = re.compile(r"^(?:\s*(?:10|[2-9TJQKAtjqka])[shdcSHDC]|\s*[Xx][12]?)+\s*$")


def hover(
    analysis: Analysis, insight: Insight | None, textmap: TextMap, offset: int, counting: bool = False
) -> types.Hover | None:
    """The hover at ``offset`` of an analysed file, or None when there is nothing to say.

    ``counting``: the heavy pass is still running (its frequencies may come).
    """
    text = analysis.text
    cursor = cursor_at(text, offset)
    start, end = textmap.word_around(offset, r"\w")
    word = text[start:end]
    where = textmap.range(start, end)
    if cursor.comment:
        code = _CODE.fullmatch(word)
        return _markdown(f"**{word}**: {CODES[word]}", where) if code and word in CODES else None
    document = analysis.document
    categories = document.data.get("categories") if document is not None else None
    path = cursor.path
    if path[:1] == ("examples",) and analysis.ruleset is not None and cursor.scalar is not None:
        said = _example(analysis.ruleset, text[cursor.scalar[0] : cursor.scalar[1]], word, categories)
        if said is not None:
            scalar_range = textmap.range(*cursor.scalar)
            return _markdown(said, scalar_range)
    if isinstance(categories, dict) and word in categories and not _is_key_of_category(path, cursor.in_key):
        return _markdown(_category(analysis, insight, word, counting), where)
    if _CARDS.match(word) and analysis.ruleset is not None and path[:1] != ("examples",):
        said = _evaluated(analysis.ruleset, word)
        return _markdown(said, where) if said else None
    if cursor.in_key or (path and path[-1] == word):
        described = schema_at((*path, word) if cursor.in_key else path)
        if described and described.get("description"):
            return _markdown(f"**{word}**: {described['description']}", where)
    return None


def _is_key_of_category(path: tuple[Any, ...], in_key: bool) -> bool:
    """A key inside a category's mapping (``pattern:``), not the category's own name."""
    return len(path) >= 2 and path[0] == "categories" and in_key


def _markdown(text: str, where: types.Range) -> types.Hover:
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text), range=where)


def _category(analysis: Analysis, insight: Insight | None, name: str, counting: bool) -> str:
    """A category's hover: pattern, words, frequencies, an example hand, where it is defined."""
    from ..rules.pattern_words import parse_pattern, pattern_words

    document = analysis.document
    assert document is not None
    spec = document.data["categories"].get(name)
    pattern = spec.get("pattern") if isinstance(spec, dict) else None
    lines = [f"**{name}** · `{visible(pattern)}`" if isinstance(pattern, str) else f"**{name}**"]
    if isinstance(pattern, str):
        with contextlib.suppress(PokerRulesError):
            lines.append(pattern_words(parse_pattern(pattern)))
    order = document.data.get("order")
    if isinstance(order, list) and name in order:
        lines.append(f"rank {order.index(name) + 1} of {len(order)} in order")
    elif isinstance(order, list):
        lines.append("not in order: no hand is ranked as it")
    lines += _frequencies(insight, name, counting)
    if insight is not None and name in insight.examples:
        lines.append(f"e.g. `{insight.examples[name]}`")
    lines += _where_defined(analysis, name)
    if insight is not None and insight.version != analysis.version:
        lines.append("_frequencies as of the last full check_")
    return "\n\n".join(lines)


def _where_defined(analysis: Analysis, name: str) -> list[str]:
    """Where the category's pattern comes from, and whether this file overrides part of it."""
    document = analysis.document
    assert document is not None
    key = document.key_positions.get(("categories", name))
    pattern = document.positions.get(("categories", name, "pattern"))
    here = os.path.realpath(analysis.path)
    origin = pattern or key
    if origin is None:
        return []
    if os.path.realpath(origin.source) == here:
        return [f"defined here, line {(key or origin).line}"]
    said = f"inherited from {os.path.basename(origin.source)}:{origin.line}"
    if key is not None and os.path.realpath(key.source) == here:
        said += f", changed here (line {key.line})"
    return [said]


def _frequencies(insight: Insight | None, name: str, counting: bool) -> list[str]:
    if insight is None or not insight.stats:
        return ["frequencies: being counted"] if counting else []
    rows = ["| cards | deals | probability | odds |", "| --- | --- | --- | --- |"]
    for cards, table in sorted(insight.stats.items()):
        if name in table:
            count, deals = table[name]
            odds = deals / count if count else None
            rows.append(
                f"| {cards} | {count:,} of {deals:,} | {format_probability(count / deals)} | {format_odds(odds)} |"
            )
    return ["\n".join(rows)] if len(rows) > 2 else []


def _evaluated(ruleset: Ruleset, cards: str) -> str | None:
    """What the generic evaluator makes of ``cards`` (None when they are not a hand of this ruleset)."""
    from ..engine.evaluate import MAX_SUBSETS
    from ..tools.examples import example_work

    if example_work(ruleset, f"{cards} is x") > MAX_SUBSETS:
        return f"`{visible(cards)}`: too many cards to evaluate here"
    try:
        hand = ruleset.engine.evaluate(ruleset.cards(cards))
    except PokerRulesError as problem:
        return f"`{visible(cards)}`: {visible(problem.first.message)}"
    return f"`{visible(cards)}` → **{hand.category}**: {visible(hand.describe())} (plays `{' '.join(hand.cards)}`)"


def _example(ruleset: Ruleset, text: str, word: str, categories: object) -> str | None:
    """An example line: each hand evaluated, and for a comparison the generic evaluator's verdict."""
    from ..engine.evaluate import MAX_SUBSETS
    from ..engine.explain import explain
    from ..tools.examples import example_work

    text = text.strip()
    if isinstance(categories, dict) and word in categories and not _CARDS.match(word):
        return None  # the category named: its own hover
    if example_work(ruleset, text) > MAX_SUBSETS:
        return "too many cards to evaluate here"
    compared = _COMPARISON.match(text)
    named = _IS.match(text)
    if compared:
        hands = [compared.group("a"), compared.group("b")]
    elif named:
        hands = [named.group("hand")]
    elif _CARDS.match(text):
        hands = [text]
    else:
        return None
    lines = [said for said in (_evaluated(ruleset, hand) for hand in hands) if said]
    if compared and len(lines) == 2:
        try:
            lines.append(visible(explain(ruleset, hands[0], hands[1]).verdict()))
        except PokerRulesError as problem:
            lines.append(visible(problem.first.message))
    return "\n\n".join(lines) or None
