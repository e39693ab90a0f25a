"""Documents the schema accepted before are not validated again (``rules/schema_seen.py``).

A warm start skips jsonschema for a ruleset whose merged data (and the schema
file) are exactly those accepted before; anything changed, invalid or not
plain data is validated every time.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from evaluator.core.errors import SchemaError
from evaluator.rules import schema, schema_seen
from evaluator.rules.build import build_ruleset
from evaluator.rules.load import load_document


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("POKERRULES_CACHE", str(folder))
    return folder


def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the real validations."""
    calls: list[int] = []
    validate = schema.validate
    monkeypatch.setattr(schema, "validate", lambda doc: calls.append(1) or validate(doc))
    return calls


def test_a_valid_document_is_validated_once(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = counted(monkeypatch)
    doc = load_document("standard")
    build_ruleset(doc)
    build_ruleset(load_document("standard"))
    assert calls == [1]
    assert len(list(cache.glob("schema-*.valid"))) == 1


def test_changed_data_are_validated_again(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = counted(monkeypatch)
    build_ruleset(load_document("standard"))
    doc = copy.deepcopy(load_document("standard"))  # the loaded document is shared: not changed
    doc.data["name"] = "changed"
    build_ruleset(doc)
    assert calls == [1, 1]


def test_an_invalid_document_is_never_remembered(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = counted(monkeypatch)
    doc = copy.deepcopy(load_document("standard"))
    doc.data["no_such_key"] = 1
    for _ in range(2):
        with pytest.raises(SchemaError):
            build_ruleset(doc)
    assert calls == [1, 1] and not list(cache.glob("schema-*.valid"))


def test_data_that_are_not_plain_have_no_digest() -> None:
    class Text(str):
        pass

    assert schema_seen.digest({"a": [1, 2.5, None, True, "x"]}, schema.SCHEMA_FILE) is not None
    assert schema_seen.digest({"a": Text("x")}, schema.SCHEMA_FILE) is None
    assert schema_seen.digest({"a": (1, 2)}, schema.SCHEMA_FILE) is None
    # 1 and "1" as keys, 1 and True as values: distinct digests
    assert schema_seen.digest({1: 0}, "ruleset.schema.json") != schema_seen.digest({"1": 0}, "ruleset.schema.json")
    assert schema_seen.digest({"a": 1}, "ruleset.schema.json") != schema_seen.digest({"a": True}, "ruleset.schema.json")


def test_a_forged_marker_is_not_believed(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = counted(monkeypatch)
    build_ruleset(load_document("standard"))
    (marker,) = cache.glob("schema-*.valid")
    marker.write_bytes(marker.read_bytes()[:-5] + b"forge")  # the HMAC no longer checks out
    build_ruleset(load_document("standard"))
    assert calls == [1, 1]
