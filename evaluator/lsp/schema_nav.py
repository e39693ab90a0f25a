"""The part of the ruleset JSON Schema that describes a place in a file (for completion and hover).

>>> sorted(schema_at(("categories", "pair")).get("properties", {}))
['describe', 'pattern', 'rank_by']
>>> schema_at(("ace",))["enum"]
['both', 'high', 'low']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..rules.schema import schema

__all__ = ["schema_at"]


def _resolved(node: Any) -> dict[str, Any]:
    """A schema object with its ``$ref`` followed and the object branches of ``anyOf`` / ``oneOf`` merged."""
    if not isinstance(node, Mapping):
        return {}
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        found = schema().get("$defs", {}).get(ref.rsplit("/", 1)[1], {})
        return _resolved({**found, **{k: v for k, v in node.items() if k != "$ref"}})
    branches = [branch for key in ("anyOf", "oneOf") for branch in node.get(key, [])]
    if not branches:
        return dict(node)
    merged: dict[str, Any] = {k: v for k, v in node.items() if k not in ("anyOf", "oneOf")}
    for branch in branches:
        branch = _resolved(branch)
        merged.setdefault("properties", {}).update(branch.get("properties", {}))
        if "items" in branch:
            merged.setdefault("items", branch["items"])
        if "enum" in branch:
            merged["enum"] = [*merged.get("enum", []), *branch["enum"]]
    return merged


def schema_at(path: tuple[str | int, ...]) -> dict[str, Any] | None:
    """The schema of the value at ``path`` (keys and list indexes from the top), or None when none applies."""
    node = _resolved(schema())
    for part in path:
        if isinstance(part, int):
            if "items" not in node:
                return None
            node = _resolved(node["items"])
            continue
        properties = node.get("properties", {})
        if part in properties:
            node = _resolved(properties[part])
        elif isinstance(node.get("additionalProperties"), Mapping):
            node = _resolved(node["additionalProperties"])
        elif node.get("patternProperties"):
            node = _resolved(next(iter(node["patternProperties"].values())))
        else:
            return None
    return node
