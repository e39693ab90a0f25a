"""Tests for evaluator.rules.schema and grammar/ruleset.schema.json."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from evaluator.core.errors import Diagnostic, SchemaError
from evaluator.core.resources import catalogue_names
from evaluator.rules.load import Document, load_document, parse_yaml
from evaluator.rules.schema import check, schema, validate

MINIMAL = """\
name: tiny
categories:
  pair: {pattern: "XX Y Z W"}
  high_card: {pattern: "X Y Z W V"}
order: [pair, high_card]
"""


def diagnostics(text: str) -> list[Diagnostic]:
    return validate(parse_yaml(text, "r.yaml"))


def only(text: str) -> Diagnostic:
    """The single diagnostic ``text`` must produce."""
    found = diagnostics(text)
    assert len(found) == 1, [str(d) for d in found]
    return found[0]


def where(diagnostic: Diagnostic) -> tuple[str, int, int]:
    return diagnostic.code, diagnostic.line, diagnostic.col


# --------------------------------------------------------------------------- valid files


def test_standard_is_valid() -> None:
    doc = load_document("standard")
    assert validate(doc) == []
    check(doc)  # does not raise


@pytest.mark.parametrize("name", catalogue_names())
def test_every_catalogue_ruleset_is_valid(name: str) -> None:
    assert [str(d) for d in validate(load_document(name))] == []


def test_minimal_is_valid() -> None:
    assert diagnostics(MINIMAL) == []


def test_a_full_ruleset_is_valid() -> None:
    text = (
        MINIMAL
        + """\
$schema: https://pokerrules.dev/schema/ruleset.schema.json
title: Everything at once
source: "a book, p. 12"
extends: null
deck: {ranks: [6, 7, 8, 9, 10, J, Q, K, A], suits: [s, h, d, c], jokers: 2, copies: 2}
ace: low
direction: low
hand: {size: 5, min: 3}
wild:
  cards: [Js, "10h", X1, "Q♥"]
  ranks: [2, "3"]
  jokers: true
  lowest_rank: false
  duplicates: true
  plays_as: {ranks: [A], hands: "run | flush"}
natural_beats_wild: true
suits: {order: [s, h, d, c], tiebreak: highest_unpaired}
beats:
  - {winner: pair, loser: high_card, note: "why not"}
qualifier: "X Y Z W V & all <= 8"
game:
  hole: 4
  board: 5
  use_hole: 2
  use_board: null
  boards: 2
  split:
    - {name: high, ruleset: standard}
    - {name: low, ruleset: ace-to-five}
  odd_chip: suit_order
examples:
  - "Ah Kh Qh Jh Th > 9s 9h 9d 9c 2s"
  - hand: "Ah 9h 8h 5h X"
    category: pair
    cards: "Ah Kh 9h 8h 5h"
    description: "ace-high flush"
    note: "a note"
"""
    )
    assert diagnostics(text) == []


def test_null_is_accepted_where_a_child_deletes() -> None:
    text = MINIMAL + "extends: null\nqualifier: null\nwild: null\ngame: null\nsuits: null\n"
    text = text.replace("categories:\n", "categories:\n  royal_flush: null\n")
    assert diagnostics(text) == []


# --------------------------------------------------------------------------- each code


def test_unknown_top_level_key_is_reported_at_the_key() -> None:
    diagnostic = only(MINIMAL.replace("order:", "ordr:"))
    assert where(diagnostic) == ("S101", 5, 1)
    assert diagnostic.source == "r.yaml"
    assert diagnostic.message == "unknown key 'ordr'"
    assert diagnostic.hint is not None and "order" in diagnostic.hint


def test_unknown_nested_key() -> None:
    found = diagnostics(MINIMAL + "deck: {jokers: 1, sutis: [s]}\n")
    assert [where(d) for d in found] == [("S101", 6, 19)]
    assert "suits" in (found[0].hint or "")


def test_unknown_key_in_a_category() -> None:
    diagnostic = only(MINIMAL.replace('"X Y Z W V"}', '"X Y Z W V", rnk_by: [X]}'))
    assert where(diagnostic) == ("S101", 4, 37)
    assert diagnostic.hint == "did you mean 'rank_by'?"


def test_wrong_type() -> None:
    diagnostic = only(MINIMAL + "deck:\n  jokers: two\n")
    assert where(diagnostic) == ("S102", 7, 11)
    assert "deck.jokers" in diagnostic.message and "whole number" in diagnostic.message


def test_boolean_is_not_an_integer() -> None:
    assert where(only(MINIMAL + "hand: {size: true}\n")) == ("S102", 6, 14)


def test_bad_enum_lists_the_allowed_values() -> None:
    diagnostic = only(MINIMAL + "ace: bothe\n")
    assert where(diagnostic) == ("S103", 6, 6)
    assert "both, high, low" in diagnostic.message
    assert "'both'" in (diagnostic.hint or "")


def test_bad_rank_token() -> None:
    diagnostic = only(MINIMAL + "deck: {ranks: [2, 3, 1]}\n")
    assert where(diagnostic) == ("S103", 6, 22)
    assert "T, J, Q, K, A" in diagnostic.message


def test_bad_category_name_is_reported_at_the_key() -> None:
    text = MINIMAL.replace("  high_card:", "  High_Card:")
    found = diagnostics(text)
    assert where(found[0]) == ("S103", 4, 3)
    assert "'High_Card'" in found[0].message


def test_bad_name() -> None:
    assert where(only(MINIMAL.replace("name: tiny", "name: 'Tiny Rules'"))) == ("S103", 1, 8)


def test_missing_required_key() -> None:
    diagnostic = only(MINIMAL.replace('pair: {pattern: "XX Y Z W"}', "pair: {describe: pair}"))
    assert where(diagnostic) == ("S104", 3, 9)
    assert "'pattern'" in diagnostic.message


def test_example_mapping_needs_a_hand() -> None:
    diagnostic = only(MINIMAL + "examples:\n  - {category: pair}\n")
    assert where(diagnostic) == ("S104", 7, 5)


def test_other_violations() -> None:
    assert where(only(MINIMAL + "hand: {size: 11}\n")) == ("S105", 6, 14)
    diagnostic = only(MINIMAL + "deck: {suits: [s, h, s]}\n")
    assert where(diagnostic) == ("S105", 6, 15)
    assert "'s'" in diagnostic.message


def test_errors_are_sorted_and_all_reported() -> None:
    text = MINIMAL + "ace: bothe\ndeck: {jokers: 9}\nordr: []\n"
    found = diagnostics(text)
    assert [d.code for d in found] == ["S103", "S105", "S101"]
    assert [d.line for d in found] == [6, 7, 8]


def test_check_raises_with_every_diagnostic() -> None:
    with pytest.raises(SchemaError) as info:
        check(parse_yaml(MINIMAL + "ace: bothe\ndirection: up\n", "r.yaml"))
    assert [d.code for d in info.value.diagnostics] == ["S103", "S103"]
    assert str(info.value).startswith("r.yaml:6:6: error S103: ")


def test_errors_in_inherited_values_point_into_the_parent(tmp_path: Path) -> None:
    parent = tmp_path / "parent.yaml"
    parent.write_text(MINIMAL + "deck: {copies: 99}\n", encoding="utf-8")
    child = tmp_path / "child.yaml"
    child.write_text("name: child\nextends: parent.yaml\nace: hgh\n", encoding="utf-8")
    found = validate(load_document(child))
    assert [(d.source, *where(d)) for d in found] == [
        (str(child), "S103", 3, 6),
        (str(parent), "S105", 6, 16),
    ]


# --------------------------------------------------------------------------- the schema file


def test_schema_is_valid_2020_12() -> None:
    Draft202012Validator.check_schema(schema())
    assert schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema()["$id"] == "https://pokerrules.dev/schema/ruleset.schema.json"
    assert schema()["title"] and schema()["description"]


def properties(node: Any, path: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every (location, subschema) declared under a ``properties`` keyword, anywhere."""
    if isinstance(node, dict):
        for name, sub in node.get("properties", {}).items():
            yield f"{path}/properties/{name}", sub
        for key, value in node.items():
            yield from properties(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from properties(value, f"{path}/{index}")


def test_every_property_has_a_description_and_a_default() -> None:
    found = list(properties(schema()))
    assert len(found) > 40
    missing = [where for where, sub in found if "description" not in sub or "default" not in sub]
    assert missing == []


def test_every_default_fits_its_property() -> None:
    # A null default means "absent"; every other default must itself be valid.
    validator = Draft202012Validator(schema())
    wrong = [
        where
        for where, sub in properties(schema())
        if sub["default"] is not None and not validator.evolve(schema=sub).is_valid(sub["default"])
    ]
    assert wrong == []


def test_mappings_with_fixed_keys_are_closed() -> None:
    open_ones = [
        where
        for where, sub in properties(schema())
        if "properties" in sub and sub.get("additionalProperties") is not False
    ]
    assert open_ones == []
    assert schema()["additionalProperties"] is False


# --------------------------------------------------------------------------- robustness

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-20, 20)
    | st.floats(allow_nan=False)
    | st.text(max_size=6)
    | st.sampled_from(["s", "A", "T", "both", "flush", "XX Y Z W"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["pattern", "size", "ranks", "x", "hand"]) | st.integers(0, 3), inner, max_size=4
        )
    ),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(sorted(schema()["properties"]) + ["ordr", "Flush"]), json_values, max_size=6))
def test_validate_never_raises(data: dict[str, Any]) -> None:
    # No positions at all: every diagnostic falls back to the document's start.
    for diagnostic in validate(Document(data)):
        assert diagnostic.code in {"S101", "S102", "S103", "S104", "S105"}
        assert diagnostic.message and (diagnostic.line, diagnostic.col) == (1, 1)
