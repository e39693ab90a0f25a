"""Validating merged ruleset data against ``grammar/ruleset.schema.json``.

The schema (JSON Schema draft 2020-12) is the single statement of the file
format; this module only runs it and translates its findings. Validation runs
on the *merged* :class:`~evaluator.rules.load.Document` (after ``extends:``), and each
jsonschema error is mapped back through the document's position index to the
file, line and column where the offending value (or, for an unknown key, the
key itself) was written - which may be a parent file.

jsonschema's own messages are reprs of Python data; they are replaced by short
human ones, one stable code per kind of problem:

- S101 unknown key (``additionalProperties``), at the key, with "did you mean"
- S102 wrong type
- S103 value not allowed (``enum``, ``const``, ``pattern``), listing what is
- S104 missing required key
- S105 any other violation (ranges, lengths, counts, uniqueness)
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from ..core import resources
from ..core.errors import Diagnostic, SchemaError
from . import schema_seen
from .cards import rank_hint
from .load import Document, Position, YamlPath

if TYPE_CHECKING:  # jsonschema is imported on first validation: it is slow to import
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

SCHEMA_FILE = "ruleset.schema.json"

# YAML words for JSON types: users write YAML, not JSON.
_TYPE_WORDS = {
    "object": "a mapping",
    "array": "a list",
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}
# Human words for the schema's regular expressions (anything else is shown raw).
_PATTERN_WORDS = {
    "^[a-z][a-z0-9_]*$": "lowercase letters, digits and '_', starting with a letter",
    "^[a-z0-9][a-z0-9_-]*$": "lowercase letters, digits, '_' and '-', starting with a letter or digit",
}
_CARD_PATTERN_WORDS = "a card such as 'As', 'Th', '10h', or a joker 'X', 'X1', 'X2'"


@cache
def schema() -> dict[str, Any]:
    """The parsed ruleset JSON Schema (read once; do not mutate it)."""
    path = resources.grammar_dir() / SCHEMA_FILE
    parsed: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return parsed


@cache
def _validator() -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema())


# jsonschema sets these on every error it reports (the stubs also allow a hand-made
# error without them): read here, once, for the wording below.


def _instance(err: ValidationError) -> Any:
    """The value the error is about."""
    return err.instance


def _limit(err: ValidationError) -> Any:
    """What the failed keyword asks for (``validator_value``): a type, a bound, the allowed values..."""
    return err.validator_value


def _subschema(err: ValidationError) -> Mapping[str, Any]:
    """The schema object holding the failed keyword (``true``/``false`` schemas hold none)."""
    schema = err.schema
    return schema if isinstance(schema, Mapping) else {}


# --------------------------------------------------------------------------- wording


def _where(path: YamlPath) -> str:
    """A path as a user would write it: ``deck.jokers``, ``examples[3].hand``."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text or "the ruleset"


def _show(value: Any) -> str:
    """A short rendering of a user's value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "...")
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return repr(value)


def _type_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    for kind, word in (
        (dict, "a mapping"),
        (list, "a list"),
        (str, "text"),
        (int, "a whole number"),
        (float, "a number"),
    ):
        if isinstance(value, kind):
            return word
    return type(value).__name__


def _allowed(values: Iterable[Any]) -> list[str]:
    """Distinct renderings of allowed values (2 and "2" are shown once)."""
    shown: list[str] = []
    for value in values:
        text = str(value).lower() if isinstance(value, bool) else str(value) if not isinstance(value, str) else value
        if text not in shown:  # a boolean as YAML writes it: true, false
            shown.append(text)
    return shown


def _hint_close(word: Any, choices: Iterable[str]) -> str | None:
    close = difflib.get_close_matches(str(word), list(choices), n=1)
    return f"did you mean {close[0]!r}?" if close else None


def _duplicate(items: list[Any]) -> Any:
    for i, item in enumerate(items):
        for other in items[i + 1 :]:
            if type(item) is type(other) and item == other:
                return item
    return None


# --------------------------------------------------------------------------- mapping


def _diag(code: str, message: str, where: Position, hint: str | None = None) -> Diagnostic:
    return Diagnostic(code, message, where.source, where.line, where.col, "error", hint)


def _is_key_error(err: ValidationError) -> bool:
    """An error about a mapping key itself (from ``propertyNames``), not a value."""
    return "propertyNames" in err.absolute_schema_path


def _unknown_keys(err: ValidationError, doc: Document, path: YamlPath) -> list[Diagnostic]:
    allowed = list(_subschema(err).get("properties", {}))
    patterns = list(_subschema(err).get("patternProperties", {}))
    result = []
    for key in _instance(err):
        if key in allowed or (isinstance(key, str) and any(re.search(p, key) for p in patterns)):
            continue
        where = doc.key_position((*path, key))
        misplaced = _misplaced_top_key(key, doc, where) if path == () else None
        if misplaced is not None:
            result.append(_diag("S101", misplaced[0], where, misplaced[1]))
            continue
        hint = _hint_close(key, allowed) or ("allowed keys: " + ", ".join(allowed) if allowed else None)
        result.append(_diag("S101", f"unknown key {_show(key)}", where, hint))
    return result


def sections_holding(key: object) -> list[str]:
    """The top-level sections of a ruleset that take ``key`` (``ranks``: deck and wild).

    >>> sections_holding("ranks"), sections_holding("bogus")
    (['deck', 'wild'], [])
    """
    found = []
    for section, definition in schema().get("properties", {}).items():
        properties = _resolved(definition).get("properties", {})
        if isinstance(key, str) and key in properties:
            found.append(section)
    return found


def _resolved(definition: Mapping[str, Any]) -> Mapping[str, Any]:
    """A schema object, its ``$ref`` to the schema's own ``$defs`` followed."""
    ref = definition.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        found = schema().get("$defs", {}).get(ref.rsplit("/", 1)[1], {})
        return found if isinstance(found, Mapping) else {}
    return definition


def _misplaced_top_key(key: Any, doc: Document, where: Position) -> tuple[str, str] | None:
    """(message, hint) for a top-level key that belongs in a section: most often a key
    that lost its indentation under the section written just above it (``wild:`` then
    ``ranks: [2]``, both at the left margin)."""
    sections = sections_holding(key)
    if not sections:
        return None
    above = [
        (position.line, name)
        for name in doc.data
        if (position := doc.key_positions.get((name,))) is not None and position.line < where.line
    ]
    section = max(above)[1] if above else None
    if section in sections and doc.data.get(section) is None:
        return (
            f"{_show(key)} is indented under nothing, so it is read as a top-level key",
            f"did you mean it under '{section}:'? indent it with spaces",
        )
    named = " or ".join(f"'{name}:'" for name in sections)
    return (f"{_show(key)} is not a top-level key", f"it belongs under {named}")


def _wrong_type(err: ValidationError, doc: Document, path: YamlPath) -> list[Diagnostic]:
    wanted = _limit(err) if isinstance(_limit(err), list) else [_limit(err)]
    expected = " or ".join(_TYPE_WORDS.get(t, t) for t in wanted)
    if _is_key_error(err):
        where = doc.key_position((*path, _instance(err)))
        return [_diag("S102", f"the key {_show(_instance(err))} in {_where(path)} must be {expected}", where)]
    message = f"{_where(path)} must be {expected}, not {_type_of(_instance(err))}"
    return [_diag("S102", message, doc.position(path), _as_list_hint(err))]


def _as_list_hint(err: ValidationError) -> str | None:
    """``ranks: 2`` where a list is wanted: the list of that one value, when it would do (``[2]``)."""
    value, wanted = _instance(err), _limit(err)
    if "array" not in (wanted if isinstance(wanted, list) else [wanted]) or isinstance(value, (dict, list)):
        return None
    items = _subschema(err).get("items")
    if isinstance(items, Mapping):
        from jsonschema import Draft202012Validator

        try:
            if not Draft202012Validator({"$defs": schema().get("$defs", {}), **items}).is_valid(value):
                return None
        except Exception:  # noqa: BLE001 - an item schema this file cannot resolve: no hint
            return None
    shown = "null" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
    return f"write a list, even of one item: [{shown}]"


def _not_allowed(err: ValidationError, doc: Document, path: YamlPath) -> list[Diagnostic]:
    if err.validator == "pattern":
        pattern = _limit(err)
        words = _PATTERN_WORDS.get(pattern) or (_CARD_PATTERN_WORDS if "Xx" in pattern else f"text matching {pattern}")
        if _is_key_error(err):
            return [
                _diag(
                    "S103",
                    f"bad name {_show(_instance(err))} in {_where(path)}: use {words}",
                    doc.key_position((*path, _instance(err))),
                )
            ]
        return [_diag("S103", f"{_where(path)} cannot be {_show(_instance(err))}: use {words}", doc.position(path))]
    values = _limit(err) if err.validator == "enum" else [_limit(err)]
    allowed = _allowed(values)
    message = f"{_where(path)} cannot be {_show(_instance(err))}; allowed: {', '.join(allowed)}"
    hint = _hint_close(_instance(err), allowed) if isinstance(_instance(err), str) else None
    if {"T", "J", "Q", "K", "A"} <= set(allowed):  # a rank: 1, 11, t and ace are read for what they mean
        hint = rank_hint(_instance(err)) or hint
    return [_diag("S103", message, doc.position(path), hint)]


def _missing(err: ValidationError, doc: Document, path: YamlPath) -> list[Diagnostic]:
    missing = [key for key in _limit(err) if key not in _instance(err)]
    return [_diag("S104", f"{_where(path)} is missing the required key {key!r}", doc.position(path)) for key in missing]


def _other(err: ValidationError, doc: Document, path: YamlPath) -> list[Diagnostic]:
    where, value, limit = _where(path), _instance(err), _limit(err)
    if err.validator == "anyOf" and isinstance(value, dict):
        # alternatives that differ by a required key read best as "needs one of"
        keys = [key for option in limit for key in option.get("required", [])]
        if keys:
            named = ", ".join(repr(key) for key in keys)
            return [_diag("S104", f"{where} needs one of the keys {named}", doc.position(path))]
    words: dict[str, Callable[[], str]] = {
        "minimum": lambda: f"{where} must be at least {limit}, not {_show(value)}",
        "maximum": lambda: f"{where} must be at most {limit}, not {_show(value)}",
        "exclusiveMinimum": lambda: f"{where} must be more than {limit}",
        "exclusiveMaximum": lambda: f"{where} must be less than {limit}",
        "minItems": lambda: f"{where} needs at least {limit} item{'s' * (limit != 1)}",
        "maxItems": lambda: f"{where} has too many items (at most {limit})",
        "uniqueItems": lambda: f"{where} lists {_show(_duplicate(value))} more than once",
        "minLength": lambda: (
            f"{where} must not be empty" if limit == 1 else f"{where} must be at least {limit} characters"
        ),
        "maxLength": lambda: f"{where} is too long (at most {limit} characters)",
        "maxProperties": lambda: f"{where} has too many entries (at most {limit})",
        "minProperties": lambda: f"{where} needs at least {limit} entr{'ies' if limit != 1 else 'y'}",
        "anyOf": lambda: f"{where} does not match any of the allowed forms",
        "oneOf": lambda: f"{where} does not match exactly one of the allowed forms",
    }
    make = words.get(str(err.validator))
    message = make() if make else f"{where}: {err.message[:200]}"
    return [_diag("S105", message, doc.position(path))]


_HANDLERS: dict[str, Callable[[ValidationError, Document, YamlPath], list[Diagnostic]]] = {
    "additionalProperties": _unknown_keys,
    "type": _wrong_type,
    "enum": _not_allowed,
    "const": _not_allowed,
    "pattern": _not_allowed,
    "required": _missing,
}


def _diagnose(err: ValidationError, doc: Document) -> list[Diagnostic]:
    """The diagnostics for one jsonschema error (an unknown-keys error may name several keys)."""
    handler = _HANDLERS.get(str(err.validator), _other)
    return handler(err, doc, tuple(err.absolute_path))


# --------------------------------------------------------------------------- public


def _unreadable(err: ValidationError) -> list[tuple[Any, ...]]:
    """The paths of the values an error makes unreadable: the unknown keys themselves,
    a badly named key, else the value the error is about (a mapping missing a key)."""
    path = tuple(err.absolute_path)
    if err.validator == "additionalProperties" and isinstance(_instance(err), dict):
        allowed = _subschema(err).get("properties", {})
        patterns = list(_subschema(err).get("patternProperties", {}))
        return [
            (*path, key)
            for key in _instance(err)
            if key not in allowed and not (isinstance(key, str) and any(re.search(p, key) for p in patterns))
        ]
    if _is_key_error(err):
        return [(*path, _instance(err))]
    return [path]


def findings(doc: Document) -> list[tuple[list[Diagnostic], list[tuple[Any, ...]]]]:
    """Each schema violation of ``doc``: its diagnostics and the paths of the values it makes unreadable.

    One typo is one error: a required key missing from a mapping that holds a
    misspelling of it (``patern:``) is reported by the unknown key alone, whose
    hint names the key.
    """
    errors = list(_validator().iter_errors(doc.data))
    misspelt = _misspelt_required(errors)
    found = []
    for err in errors:
        diagnostics = _diagnose(err, doc)
        if err.validator == "required":
            path = tuple(err.absolute_path)
            diagnostics = [d for d in diagnostics if (path, _missing_key(d)) not in misspelt]
        found.append((diagnostics, _unreadable(err)))
    return found


def _misspelt_required(errors: Iterable[ValidationError]) -> set[tuple[YamlPath, str]]:
    """(mapping path, required key) pairs whose mapping has an unknown key close to that key."""
    unknown: dict[YamlPath, list[str]] = {}
    required: dict[YamlPath, list[str]] = {}
    for err in errors:
        path, value = tuple(err.absolute_path), _instance(err)
        if err.validator == "additionalProperties" and isinstance(value, dict):
            allowed = _subschema(err).get("properties", {})
            unknown.setdefault(path, []).extend(str(key) for key in value if key not in allowed)
        elif err.validator == "required" and isinstance(value, dict):
            required.setdefault(path, []).extend(key for key in _limit(err) if key not in value)
    return {
        (path, key)
        for path, keys in required.items()
        for key in keys
        if difflib.get_close_matches(key, unknown.get(path, []), n=1)
    }


def _missing_key(diagnostic: Diagnostic) -> str:
    found = re.search(r"the required key '([^']*)'", diagnostic.message)
    return found.group(1) if found else ""


def validate(doc: Document) -> list[Diagnostic]:
    """Every schema violation in ``doc``, positioned and sorted; ``[]`` when it is valid."""
    found: dict[Diagnostic, None] = {}  # ordered and deduplicated
    for diagnostics, _ in findings(doc):
        found.update(dict.fromkeys(diagnostics))
    order = {source: rank for rank, source in enumerate(doc.sources)}
    return sorted(found, key=lambda d: (order.get(d.source, len(order)), d.source, d.line, d.col, d.code))


def check(doc: Document) -> None:
    """Raise :class:`~evaluator.core.errors.SchemaError` with every violation when ``doc`` is invalid.

    Data the schema accepted before (``schema_seen``: a digest in the disk cache)
    are not validated again, so that a warm start does not import jsonschema."""
    key = schema_seen.digest(doc.data, SCHEMA_FILE)
    if schema_seen.seen_valid(key):
        return
    diagnostics = validate(doc)
    if diagnostics:
        raise SchemaError(diagnostics)
    schema_seen.remember_valid(key)


@cache
def _validator_for(schema_file: str) -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    path = resources.grammar_dir() / schema_file
    return Draft202012Validator(json.loads(path.read_text(encoding="utf-8")))


def validate_against(doc: Document, schema_file: str) -> list[Diagnostic]:
    """Every violation of the shipped schema ``schema_file`` (e.g. ``paytable.schema.json``)
    in ``doc``, positioned and sorted, with the same wording as :func:`validate`."""
    found: dict[Diagnostic, None] = {}
    for err in _validator_for(schema_file).iter_errors(doc.data):
        found.update(dict.fromkeys(_diagnose(err, doc)))
    return sorted(found, key=lambda d: (d.source, d.line, d.col, d.code))
