"""Completion: keys from the schema, category names, catalogue names and files, pattern forms, cards.

What is offered depends on where the cursor is (:func:`~evaluator.lsp.context.cursor_at`):

- where a **key** goes: the keys the JSON Schema allows there, with their
  descriptions; under ``categories:`` the inherited categories too (to
  override them);
- ``order:``, ``beats:`` winners and losers, an example's ``category:`` or
  the word after ``is`` in an example, and ``qualifier:``: **category names**;
- ``extends:``: **catalogue names** (with their titles) and the **YAML files**
  beside the file and in the folders below it;
- a ``pattern:`` (and ``qualifier``, ``plays_as.hands``, ``beats``):
  **pattern forms** -- shapes, ``run``, ``run(step=2)``, ``flush(4)``,
  ``suits = 4``, ``wilds >= 1``...;
- a ``describe:`` template after ``{``: its **fields**;
- cards (examples, ``wild.cards``): **card tokens** of the deck; ranks where
  ranks go; and any value the schema enumerates (``ace: both | high | low``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from ..core.resources import catalogue_titles
from ..rules.cards import RANKS, SUITS
from .context import cursor_at
from .schema_nav import schema_at

if TYPE_CHECKING:
    from .analysis import Analysis
    from .textmap import TextMap

__all__ = ["PATTERN_FORMS", "complete"]

Kind = types.CompletionItemKind

#: The pattern language's forms, with what each says (docs/patterns.md, DESIGN.md).
PATTERN_FORMS: tuple[tuple[str, str], ...] = (
    ("XXXXX", "five of a kind"),
    ("XXXX Y", "four of a kind"),
    ("XXX YY", "a full house: three of one rank and a pair"),
    ("XXX Y Z", "three of a kind"),
    ("XX YY Z", "two pairs"),
    ("XX Y Z W", "one pair"),
    ("X Y Z W V", "five different ranks"),
    ("run", "the whole hand in sequence"),
    ("run(4)", "four cards of the hand in sequence"),
    ("run(wrap)", "a run that may turn the corner at the ace (Q-K-A-2-3)"),
    ("run(step=2)", "ranks two apart (a skip straight)"),
    ("run(5, flush)", "five cards in sequence and of one suit"),
    ("flush", "the whole hand of one suit"),
    ("flush(4)", "four cards of one suit"),
    ("suits = 4", "the number of suits held"),
    ("wilds >= 1", "the number of wild cards held"),
    ("natural", "no wild card held (wilds = 0)"),
    ("top = A", "the highest card (of a run: its top)"),
    ("bottom = lowest", "the lowest card is the deck's lowest rank"),
    ("all <= 8", "every card is 8 or lower"),
    ("X in {J, Q, K}", "a rank in a set of ranks"),
    ("any in {J, Q, K}", "some card in a set of ranks"),
    ("suit = h", "every card is a heart"),
    ("not ", "negation"),
    ("category >= pair", "the hand's category (qualifier, beats, plays_as only)"),
)
_TEMPLATE_FIELDS = ("top", "bottom", "cards", "wilds", "category")
_PATTERN_KEYS = frozenset({"pattern", "qualifier", "hands", "winner", "loser"})


def complete(analysis: Analysis, textmap: TextMap, offset: int) -> list[types.CompletionItem]:
    """The completion items at ``offset``; each replaces the word being typed."""
    text = analysis.text
    cursor = cursor_at(text, offset)
    if cursor.comment:
        return []
    start, _ = textmap.word_around(offset, r"[\w./-]")
    where = textmap.range(start, offset)
    path = cursor.path
    schema = schema_at(path)
    if cursor.in_key and not _is_list_item(path):
        return _items(_keys(analysis, path), where)
    last = next((part for part in reversed(path) if isinstance(part, str)), None)
    if path[:1] == ("extends",):
        return _items(_parents(analysis), where)
    if path[:1] == ("order",) or (path[:1] == ("examples",) and last == "category"):
        return _items(_category_names(analysis, Kind.EnumMember), where)
    if last == "describe" and cursor.scalar is not None:
        return _items(_template_fields(analysis, path), textmap.range(textmap.word_around(offset, r"\w")[0], offset))
    if last in _PATTERN_KEYS and path[:1] in (("categories",), ("qualifier",), ("wild",), ("beats",)):
        word_start = textmap.word_around(offset, r"\w")[0]
        found = [*_pattern_forms(), *(_category_names(analysis, Kind.EnumMember) if path[0] != "categories" else [])]
        return _items(found, textmap.range(word_start, offset))
    if path[:1] == ("examples",) and cursor.scalar is not None:
        before = text[cursor.scalar[0] : offset]
        word_start = textmap.word_around(offset, r"\w")[0]
        if re.search(r"\bis\s+\w*$", before):
            return _items(_category_names(analysis, Kind.EnumMember), textmap.range(word_start, offset))
        return _items(_cards(analysis), textmap.range(word_start, offset))
    if path[:2] == ("wild", "cards"):
        return _items(_cards(analysis), where)
    if schema is not None and schema.get("enum"):
        shown = list(dict.fromkeys(str(value) for value in schema["enum"] if not isinstance(value, int)))
        return _items([(value, Kind.Value, None) for value in shown], where)
    if schema is not None and "boolean" in _types(schema):
        return _items([("true", Kind.Value, None), ("false", Kind.Value, None)], where)
    return []


Item = tuple[str, types.CompletionItemKind, str | None]


def _items(found: list[Item], where: types.Range) -> list[types.CompletionItem]:
    items: list[types.CompletionItem] = []
    for label, kind, detail in dict.fromkeys(found):
        items.append(
            types.CompletionItem(
                label=label,
                kind=kind,
                detail=detail,
                text_edit=types.TextEdit(range=where, new_text=label),
                sort_text=f"{len(items):04d}",
            )
        )
    return items


def _types(schema: dict[str, Any]) -> list[str]:
    kind = schema.get("type", [])
    return [kind] if isinstance(kind, str) else list(kind)


def _is_list_item(path: tuple[str | int, ...]) -> bool:
    """A word typed after ``- `` in a list of scalars (``order:``) is a value, not a key."""
    schema = schema_at(path)
    return bool(path) and isinstance(path[-1], int) and schema is not None and "object" not in _types(schema)


def _keys(analysis: Analysis, path: tuple[str | int, ...]) -> list[Item]:
    schema = schema_at(path)
    found: list[Item] = []
    if schema is not None:
        for name, spec in schema.get("properties", {}).items():
            described = spec.get("description") if isinstance(spec, dict) else None
            found.append((name, Kind.Property, described))
    if path == ("categories",):
        found += _category_names(analysis, Kind.Class)
    return found


def _category_names(analysis: Analysis, kind: types.CompletionItemKind) -> list[Item]:
    document = analysis.document
    categories = document.data.get("categories") if document is not None else None
    if not isinstance(categories, dict):
        categories = {}
    names = [str(name) for name, spec in categories.items() if spec is not None]
    if analysis.ruleset is not None:
        names = list(dict.fromkeys([*analysis.ruleset.category_names, *names]))
    found: list[Item] = []
    for name in names:
        spec = categories.get(name)
        pattern = spec.get("pattern") if isinstance(spec, dict) else None
        found.append((name, kind, str(pattern) if pattern else None))
    return found


def _parents(analysis: Analysis) -> list[Item]:
    """Catalogue names, then the YAML files beside this one and in the folders below it (not itself)."""
    found: list[Item] = [(name, Kind.Module, title) for name, title in catalogue_titles()]
    folder = analysis.path.parent
    own = os.path.realpath(analysis.path)
    try:
        for current, folders, files in os.walk(folder):
            folders[:] = sorted(name for name in folders if not name.startswith("."))[:50]
            depth = Path(current).relative_to(folder).parts
            if len(depth) > 2:
                folders[:] = []
                continue
            for name in sorted(files)[:500]:
                path = Path(current) / name
                if name.endswith((".yaml", ".yml")) and not name.startswith(".") and os.path.realpath(path) != own:
                    found.append((Path(*depth, name).as_posix(), Kind.File, None))
    except OSError:
        pass
    return found


def _pattern_forms() -> list[Item]:
    return [(form, Kind.Snippet, said) for form, said in PATTERN_FORMS]


def _template_fields(analysis: Analysis, path: tuple[str | int, ...]) -> list[Item]:
    found: list[Item] = [(name, Kind.Field, None) for name in _TEMPLATE_FIELDS]
    document = analysis.document
    if document is not None and len(path) >= 2 and path[0] == "categories":
        spec = (document.data.get("categories") or {}).get(path[1])
        pattern = spec.get("pattern", "") if isinstance(spec, dict) else ""
        for letter in sorted(set(re.findall(r"\b([U-Z])\1*\b", str(pattern)))):
            found += [(letter, Kind.Variable, "a rank"), (f"{letter}:plural", Kind.Variable, "a rank, plural")]
    return found


def _cards(analysis: Analysis) -> list[Item]:
    ruleset = analysis.ruleset
    ranks = list(reversed(ruleset.rank_symbols)) if ruleset is not None else list(reversed(RANKS))
    suits = list(ruleset.suits) if ruleset is not None else list(SUITS)
    found: list[Item] = [(f"{rank}{suit}", Kind.Constant, None) for rank in ranks for suit in suits]
    jokers = ruleset.jokers if ruleset is not None else 0
    found += [("X" if jokers == 1 else f"X{n}", Kind.Constant, "a joker") for n in range(1, jokers + 1)]
    return found
