"""Tests for evaluator.rules.load: safe YAML reading, positions, limits and `extends:`."""

from __future__ import annotations

import importlib
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaluator.core import resources
from evaluator.core.errors import Diagnostic, LoadError, PokerRulesError
from evaluator.rules.load import (
    MAX_EXTENDS,
    MAX_NODES,
    Document,
    Position,
    load_document,
    parse_yaml,
    read_file,
)

# The reading limits live in evaluator.rules.yaml_base (evaluator.rules.load re-exports them).
yaml_base_module = importlib.import_module("evaluator.rules.yaml_base")
STANDARD = (resources.rulesets_dir() / "standard.yaml").read_text(encoding="utf-8")


def write(directory: Path, name: str, text: str) -> Path:
    """Write a UTF-8 file under ``directory`` (creating folders) and return its path."""
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def parse_fails(text: str) -> Diagnostic:
    """The diagnostic of the LoadError that parsing ``text`` must raise."""
    with pytest.raises(LoadError) as info:
        parse_yaml(text, "t.yaml")
    return info.value.first


def where(diagnostic: Diagnostic) -> tuple[str, int, int]:
    return diagnostic.code, diagnostic.line, diagnostic.col


# --------------------------------------------------------------------------- positions

POSITIONS = """\
name: pos
deck:
  ranks: [2, "3", 'T']
  suits:
    - s
    - "h"
title:   plain text
"""


def test_data_is_plain_and_typed() -> None:
    doc = parse_yaml(POSITIONS)
    assert doc.data == {
        "name": "pos",
        "deck": {"ranks": [2, "3", "T"], "suits": ["s", "h"]},
        "title": "plain text",
    }
    assert doc.sources == ("<string>",)


@pytest.mark.parametrize(
    ("path", "line", "col"),
    [
        ((), 1, 1),
        (("name",), 1, 7),
        (("deck",), 3, 3),  # a block mapping starts at its first key
        (("deck", "ranks"), 3, 10),
        (("deck", "ranks", 0), 3, 11),
        (("deck", "ranks", 1), 3, 15),  # after the opening double quote
        (("deck", "ranks", 2), 3, 20),  # after the opening single quote
        (("deck", "suits", 0), 5, 7),
        (("deck", "suits", 1), 6, 8),
        (("title",), 7, 10),
    ],
)
def test_value_positions(path: tuple, line: int, col: int) -> None:
    assert parse_yaml(POSITIONS, "p.yaml").position(path) == Position("p.yaml", line, col)


def test_key_positions_and_fallbacks() -> None:
    doc = parse_yaml(POSITIONS, "p.yaml")
    assert doc.key_position(("deck", "suits")) == Position("p.yaml", 4, 3)
    assert doc.key_position(("title",)) == Position("p.yaml", 7, 1)
    # A list item has no key: its own position. A missing path: the nearest ancestor.
    assert doc.key_position(("deck", "suits", 1)) == Position("p.yaml", 6, 8)
    assert doc.position(("deck", "ranks", 99, "x")) == Position("p.yaml", 3, 10)


def test_tagged_and_flow_positions() -> None:
    doc = parse_yaml('a: !!str  "q"\nb: {c: 1, "d": 2}\n')
    assert doc.data == {"a": "q", "b": {"c": 1, "d": 2}}
    assert doc.position(("a",)) == Position("<string>", 1, 12)
    assert doc.key_position(("b", "d")) == Position("<string>", 2, 12)
    assert doc.position(("b", "d")) == Position("<string>", 2, 16)


def test_scalar_types_stay_json() -> None:
    doc = parse_yaml("a: 2\nb: T\nc: 2001-01-01\nd: 1.5\ne: true\nf: null\ng: '2'\n2: x\nh: =\n")
    assert doc.data == {"a": 2, "b": "T", "c": "2001-01-01", "d": 1.5, "e": True, "f": None, "g": "2", 2: "x", "h": "="}


# --------------------------------------------------------------------------- every Y-code


@pytest.mark.parametrize(
    ("text", "code", "line", "col"),
    [
        ("a: [1, 2\nb: 3\n", "Y103", 2, 2),
        ("a: b: c\n", "Y103", 1, 5),
        ("a: 1\n---\nb: 2\n", "Y103", 2, 1),
        ("a: !!int abc\n", "Y103", 1, 10),
        ("a: " + "9" * 5000 + "\n", "Y103", 1, 4),
        ("a: 1\nb: &anchor 2\n", "Y104", 2, 4),
        ("a: 1\nb: *anchor\n", "Y104", 2, 4),
        ("a: 1\nb: !!python/object:os.system echo\n", "Y105", 2, 4),
        ("a:\n  b: !custom 3\n", "Y105", 2, 6),
        ("a: !!timestamp 2001-01-01\n", "Y105", 1, 4),
        ("a: !!str [1]\n", "Y105", 1, 4),
        ("a: " + "[" * 32 + "]" * 32 + "\n", "Y106", 1, 35),
        ("- a\n- b\n", "Y108", 1, 1),
        ("just words\n", "Y108", 1, 1),
        ("a: 1\nb: 2\na: 3\n", "Y109", 3, 1),
        ('a: 1\n"a": 2\n', "Y109", 2, 2),
        ("a: 1\n[x, y]: 2\n", "Y110", 2, 1),
        ("a: 1\ntrue: 2\n", "Y110", 2, 1),
        ("a: 1\n~: 2\n", "Y110", 2, 1),
        ("", "Y114", 1, 1),
        ("# only a comment\n\n", "Y114", 1, 1),
        ("---\n", "Y114", 1, 1),
        ("a: 1\nb: " + "x" * 10_001 + "\n", "Y115", 2, 4),
        ("a: 1\nb: x\0y\n", "Y116", 2, 5),
        ("a: 1\nb: x\x01y\n", "Y116", 2, 5),
    ],
)
def test_parse_errors(text: str, code: str, line: int, col: int) -> None:
    diagnostic = parse_fails(text)
    assert where(diagnostic) == (code, line, col)
    assert diagnostic.source == "t.yaml"
    assert str(diagnostic).startswith(f"t.yaml:{line}:{col}: error {code}: ")


def test_depth_32_is_allowed() -> None:
    value = parse_yaml("a: " + "[" * 31 + "]" * 31 + "\n").data["a"]
    depth = 0
    while value:
        value, depth = value[0], depth + 1
    assert depth == 30  # 31 lists, the innermost empty


def test_syntax_error_has_a_caret() -> None:
    diagnostic = parse_fails("a: b: c\n")
    assert diagnostic.context is not None and "^" in diagnostic.context


def test_node_limit_is_one_hundred_thousand() -> None:
    assert MAX_NODES == 100_000


def test_too_many_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    # The real limit takes seconds of pure-Python parsing; the count works the same at 1,000.
    monkeypatch.setattr(yaml_base_module, "MAX_NODES", 1000)
    # Nodes: the mapping, the key `a`, the list, then the items; item k sits at col 5 + 3k.
    assert parse_yaml("a: [" + "0, " * 997 + "]\n").data["a"] == [0] * 997
    text = "a: [" + "0, " * 998 + "]\n"
    assert where(parse_fails(text)) == ("Y107", 1, 5 + 3 * 997)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(LoadError) as info:
        read_file(tmp_path / "nope.yaml")
    assert (info.value.code, info.value.first.line, info.value.first.col) == ("Y101", 1, 1)
    assert info.value.first.source == str(tmp_path / "nope.yaml")


def test_directory_is_not_a_ruleset(tmp_path: Path) -> None:
    with pytest.raises(LoadError) as info:
        load_document(tmp_path)
    assert info.value.code == "Y101"


def test_unknown_catalogue_name_at_top_level() -> None:
    with pytest.raises(LoadError) as info:
        load_document("standrd")
    assert info.value.code == "Y101"
    assert "standard" in (info.value.first.hint or "")


def test_file_too_large(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    with path.open("wb") as handle:
        handle.truncate((1 << 20) + 1)
    with pytest.raises(LoadError) as info:
        read_file(path)
    assert where(info.value.first) == ("Y102", 1, 1)


def test_text_too_large() -> None:
    assert parse_fails("a: b\n" * 300_000).code == "Y102"


def test_invalid_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"name: x\ntitle: caf\xe9\n")
    with pytest.raises(LoadError) as info:
        read_file(path)
    assert where(info.value.first) == ("Y116", 2, 11)


def test_bom_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbfname: x\n")
    doc = read_file(path)
    assert doc.data == {"name": "x"}
    assert doc.position(("name",)) == Position(str(path), 1, 7)


# --------------------------------------------------------------------------- hostile files

BILLION_LAUGHS = """\
lol: &lol "lol"
lol2: &lol2 [*lol, *lol, *lol, *lol, *lol, *lol, *lol, *lol, *lol, *lol]
lol3: &lol3 [*lol2, *lol2, *lol2, *lol2, *lol2, *lol2, *lol2, *lol2, *lol2, *lol2]
lol4: &lol4 [*lol3, *lol3, *lol3, *lol3, *lol3, *lol3, *lol3, *lol3, *lol3, *lol3]
lol5: &lol5 [*lol4, *lol4, *lol4, *lol4, *lol4, *lol4, *lol4, *lol4, *lol4, *lol4]
lol6: &lol6 [*lol5, *lol5, *lol5, *lol5, *lol5, *lol5, *lol5, *lol5, *lol5, *lol5]
lol7: &lol7 [*lol6, *lol6, *lol6, *lol6, *lol6, *lol6, *lol6, *lol6, *lol6, *lol6]
lol8: &lol8 [*lol7, *lol7, *lol7, *lol7, *lol7, *lol7, *lol7, *lol7, *lol7, *lol7]
lol9: &lol9 [*lol8, *lol8, *lol8, *lol8, *lol8, *lol8, *lol8, *lol8, *lol8, *lol8]
"""


def test_billion_laughs_is_refused_quickly(tmp_path: Path) -> None:
    path = write(tmp_path, "lol.yaml", BILLION_LAUGHS)
    start = time.perf_counter()
    with pytest.raises(LoadError) as info:
        read_file(path)
    assert time.perf_counter() - start < 5
    assert where(info.value.first) == ("Y104", 1, 6)


def test_billion_laughs_without_anchors_on_scalars_is_refused() -> None:
    # The anchor on the first list, not the scalar: still refused at the anchor.
    text = BILLION_LAUGHS.replace('lol: &lol "lol"', 'lol: "lol"').replace("*lol,", '"lol",')
    assert where(parse_fails(text))[:2] == ("Y104", 2)


def test_fifty_megabytes_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as handle:
        handle.truncate(50 * 1024 * 1024)  # sparse: nothing is really written
    start = time.perf_counter()
    with pytest.raises(LoadError) as info:
        read_file(path)
    assert time.perf_counter() - start < 5
    assert info.value.code == "Y102"


# --------------------------------------------------------------------------- extends

PARENT = """\
name: parent
title: The parent
source: a book
deck:
  ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A]
  suits: [s, h, d, c]
  jokers: 0
ace: both
categories:
  royal: {pattern: "run & flush & top = A"}
  flush: {pattern: flush, describe: "{top}-high flush"}
  pair:  {pattern: "XX Y Z W"}
order: [royal, flush, pair]
examples:
  - "As Ks Qs Js Ts is royal"
"""

CHILD = """\
name: child
extends: ../parent.yaml
deck: {jokers: 1, suits: [s, h]}
categories:
  royal: null
  flush: {describe: "flush!"}
order: [flush, pair]
qualifier: null
"""


@pytest.fixture()
def family(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """parent.yaml and sub/child.yaml; the working directory is somewhere else."""
    parent = write(tmp_path, "parent.yaml", PARENT)
    child = write(tmp_path, "sub/child.yaml", CHILD)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    return parent, child


def test_merge_semantics(family: tuple[Path, Path]) -> None:
    parent, child = family
    doc = load_document(child, root=parent.parent)  # ../ leaves sub/: allowed only inside a named root
    assert doc.data == {
        "name": "child",  # from the child; title and examples are not inherited
        "source": "a book",
        "deck": {
            "ranks": [2, 3, 4, 5, 6, 7, 8, 9, "T", "J", "Q", "K", "A"],  # map merged
            "suits": ["s", "h"],  # list replaced
            "jokers": 1,
        },
        "ace": "both",
        "categories": {
            "flush": {"pattern": "flush", "describe": "flush!"},  # royal removed by null
            "pair": {"pattern": "XX Y Z W"},
        },
        "order": ["flush", "pair"],
        "extends": "../parent.yaml",
        "qualifier": None,  # a null that removes nothing stays as written
    }
    assert doc.sources == (str(child), str(child.parent / "../parent.yaml"))


def test_inherited_positions_point_into_the_parent(family: tuple[Path, Path]) -> None:
    parent, child = family
    doc = load_document(child, root=parent.parent)  # ../ leaves sub/: allowed only inside a named root
    parent_source = str(child.parent / "../parent.yaml")
    assert doc.position(("deck", "ranks")) == Position(parent_source, 5, 10)
    assert doc.position(("deck", "ranks", 8)) == Position(parent_source, 5, 35)
    assert doc.key_position(("categories", "pair")) == Position(parent_source, 12, 3)
    assert doc.position(("categories", "flush", "pattern")) == Position(parent_source, 11, 20)
    assert doc.position(("source",)) == Position(parent_source, 3, 9)
    # ...and the child's own values into the child.
    assert doc.position(("deck",)) == Position(str(child), 3, 7)
    assert doc.position(("deck", "jokers")) == Position(str(child), 3, 16)
    assert doc.position(("categories", "flush", "describe")) == Position(str(child), 6, 22)
    assert doc.key_position(("order",)) == Position(str(child), 7, 1)
    assert doc.position(()) == Position(str(child), 1, 1)


def test_relative_path_from_base_dir(family: tuple[Path, Path]) -> None:
    parent, child = family
    doc = load_document("sub/child.yaml", base_dir=parent.parent, root=parent.parent)
    assert doc.data["deck"]["jokers"] == 1
    assert doc.sources[0] == str(parent.parent / "sub/child.yaml")


def test_no_name_inherits_no_name(tmp_path: Path) -> None:
    write(tmp_path, "parent.yaml", PARENT)
    child = write(tmp_path, "anon.yaml", "extends: parent.yaml\nace: high\n")
    doc = load_document(child)
    assert "name" not in doc.data and "title" not in doc.data and "examples" not in doc.data
    assert doc.data["ace"] == "high"
    assert doc.data["categories"]["royal"] == {"pattern": "run & flush & top = A"}


def test_extends_null_and_no_extends(tmp_path: Path) -> None:
    path = write(tmp_path, "alone.yaml", "name: alone\nextends: null\nace: low\n")
    doc = load_document(path)
    assert doc.data == {"name": "alone", "extends": None, "ace": "low"}
    assert doc.sources == (str(path),)


def test_extends_a_catalogue_name(tmp_path: Path) -> None:
    path = write(tmp_path, "deuce.yaml", "name: deuce\nextends: standard\nace: high\ndirection: low\n")
    doc = load_document(path)
    standard = load_document("standard")
    assert doc.data["categories"] == standard.data["categories"]
    assert doc.data["order"] == standard.data["order"]
    assert (doc.data["ace"], doc.data["direction"]) == ("high", "low")
    assert "examples" not in doc.data and "title" not in doc.data
    assert doc.position(("categories", "flush")).source == str(resources.catalogue_path("standard"))
    assert doc.position(("ace",)) == Position(str(path), 3, 6)


def test_two_file_cycle(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "name: a\nextends: b.yaml\n")
    b = write(tmp_path, "b.yaml", "name: b\n\nextends: a.yaml\n")
    with pytest.raises(LoadError) as info:
        load_document(tmp_path / "a.yaml")
    diagnostic = info.value.first
    assert where(diagnostic) == ("Y112", 3, 10)
    assert diagnostic.source == str(b)
    assert "a.yaml -> b.yaml -> a.yaml" in diagnostic.message


def test_self_cycle(tmp_path: Path) -> None:
    path = write(tmp_path, "me.yaml", "name: me\nextends: ./me.yaml\n")
    with pytest.raises(LoadError) as info:
        load_document(path)
    assert info.value.code == "Y112"
    assert "me.yaml -> me.yaml" in info.value.first.message


def test_missing_catalogue_target(tmp_path: Path) -> None:
    path = write(tmp_path, "typo.yaml", "name: typo\nextends:   standrd\n")
    with pytest.raises(LoadError) as info:
        load_document(path)
    diagnostic = info.value.first
    assert where(diagnostic) == ("Y111", 2, 12)
    assert diagnostic.source == str(path)
    assert "did you mean 'standard'?" in (diagnostic.hint or "")


def test_missing_path_target(tmp_path: Path) -> None:
    write(tmp_path, "parent.yaml", PARENT)
    path = write(tmp_path, "child.yaml", "name: c\nextends: 'parnet.yaml'\n")
    with pytest.raises(LoadError) as info:
        load_document(path)
    assert where(info.value.first) == ("Y111", 2, 11)
    assert "parent.yaml" in (info.value.first.hint or "")


def test_extends_must_be_text(tmp_path: Path) -> None:
    path = write(tmp_path, "odd.yaml", "name: odd\nextends: [standard]\n")
    with pytest.raises(LoadError) as info:
        load_document(path)
    assert where(info.value.first) == ("Y111", 2, 10)


def test_errors_in_a_parent_are_reported_in_the_parent(tmp_path: Path) -> None:
    parent = write(tmp_path, "parent.yaml", "name: p\nace: &x both\n")
    child = write(tmp_path, "child.yaml", "name: c\nextends: parent.yaml\n")
    with pytest.raises(LoadError) as info:
        load_document(child)
    assert info.value.first.source == str(parent)
    assert where(info.value.first) == ("Y104", 2, 6)


def chain(directory: Path, links: int) -> Path:
    """f0.yaml extends f1.yaml ... extends f{links}.yaml; returns f0.yaml."""
    for i in range(links):
        write(directory, f"f{i}.yaml", f"name: f{i}\nextends: f{i + 1}.yaml\ncategories: {{level{i}: {i}}}\n")
    write(directory, f"f{links}.yaml", f"name: f{links}\nace: low\n")
    return directory / "f0.yaml"


def test_chain_of_sixteen_is_followed(tmp_path: Path) -> None:
    doc = load_document(chain(tmp_path, MAX_EXTENDS))
    assert doc.data["ace"] == "low"
    assert doc.data["categories"]["level15"] == 15 and doc.data["categories"]["level0"] == 0
    assert len(doc.sources) == MAX_EXTENDS + 1


def test_chain_deeper_than_sixteen(tmp_path: Path) -> None:
    with pytest.raises(LoadError) as info:
        load_document(chain(tmp_path, MAX_EXTENDS + 1))
    assert where(info.value.first) == ("Y113", 2, 10)
    assert info.value.first.source == str(tmp_path / f"f{MAX_EXTENDS}.yaml")


# --------------------------------------------------------------------------- fuzzing

YAML_TOKENS = list(":-[]{}&*!|>#%@`,?'\"\n\t ~=<.0129aAsTx") + ["\r\n", "---", "...", "!!", ": ", "- "]


def yamlish(max_size: int) -> st.SearchStrategy[str]:
    """Text made mostly of YAML's significant characters, with any character mixed in."""
    token = st.one_of(st.sampled_from(YAML_TOKENS), st.characters())
    return st.lists(token, max_size=max_size).map("".join)


def parse_or_error(text: str) -> None:
    """parse_yaml returns a Document or raises a PokerRulesError, nothing else."""
    try:
        doc = parse_yaml(text)
    except PokerRulesError as exc:
        assert exc.diagnostics and exc.code.startswith("Y")
        assert exc.first.line >= 1 and exc.first.col >= 1
        return
    assert isinstance(doc, Document) and isinstance(doc.data, dict)
    for position in doc.positions.values():
        assert position.line >= 1 and position.col >= 1


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(yamlish(200))
def test_fuzz_random_text(text: str) -> None:
    parse_or_error(text)


@st.composite
def mutated_standard(draw: st.DrawFn) -> str:
    """standard.yaml with a few slices replaced by YAML-ish noise."""
    text = STANDARD
    for _ in range(draw(st.integers(1, 4))):
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + 30)))
        noise = draw(yamlish(8))
        text = text[:start] + noise + text[end:]
    return text


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_standard())
def test_fuzz_mutated_standard(text: str) -> None:
    parse_or_error(text)
