"""Patterns parsed before are read back from the disk cache (``rules/pattern_memo.py``).

The ASTs kept must be the parser's exactly (every field, the columns too), a
table that is not ours or not readable must be ignored, and a warm start must
not import Lark (nor jsonschema, nor NumPy for one hand).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from evaluator import load
from evaluator.core import diskcache
from evaluator.core.errors import PatternError
from evaluator.core.resources import catalogue_names
from evaluator.rules import pattern_memo
from evaluator.rules.pattern_ast import Node
from evaluator.rules.pattern_parse import parse_pattern as parse_with_lark

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def memo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh cache folder and a fresh in-process table (as a new process has)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("POKERRULES_CACHE", str(folder))
    monkeypatch.setattr(pattern_memo, "_memo", pattern_memo._Memo())
    return folder


def every_field(value: object) -> object:
    """A node with every field, those left out of ``==`` (columns) too."""
    if isinstance(value, Node):
        return (type(value).__name__, tuple((f.name, every_field(getattr(value, f.name))) for f in fields(value)))
    if isinstance(value, tuple):
        return tuple(every_field(item) for item in value)
    return value


def catalogue_patterns() -> list[str]:
    texts = set()
    for name in catalogue_names():
        for spec in (load(name).data.get("categories") or {}).values():
            if isinstance(spec, dict) and isinstance(spec.get("pattern"), str):
                texts.add(spec["pattern"])
    return sorted(texts)


def test_every_catalogue_pattern_reads_back_as_parsed() -> None:
    texts = catalogue_patterns()
    assert len(texts) > 40
    for text in texts:
        parsed = parse_with_lark(text)
        back = pattern_memo.decode(json.loads(json.dumps(pattern_memo.encode(parsed))))
        assert every_field(back) == every_field(parsed) and repr(back) == repr(parsed), text


def test_a_second_start_reads_the_patterns_without_the_parser(memo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    texts = ["XX YY Z", "run & flush", "XXX YY & X > Y", "XX Y Z W & X in {J, Q, K, A}"]
    first = [pattern_memo.parse_pattern(text) for text in texts]
    pattern_memo.flush()
    assert len(list(memo.glob("patterns-*.memo"))) == 1
    monkeypatch.setattr(pattern_memo, "_memo", pattern_memo._Memo())  # a new process
    import evaluator.rules.pattern_parse as lark_side

    def refuse(*args: object) -> None:
        raise AssertionError("the Lark parser was asked")

    monkeypatch.setattr(lark_side, "parse_pattern", refuse)
    again = [pattern_memo.parse_pattern(text) for text in texts]
    assert [every_field(p) for p in again] == [every_field(p) for p in first]


def test_a_bad_pattern_is_never_remembered(memo: Path) -> None:
    for _ in range(2):
        with pytest.raises(PatternError):
            pattern_memo.parse_pattern("XY Z")
    assert "XY Z" not in pattern_memo._memo.known and not pattern_memo._memo.pending


@pytest.mark.parametrize(
    "table",
    [
        {"XX Y": {"n": "NoSuchNode", "f": {}}},
        {"XX Y": {"n": "Shape", "f": {"groups": {"t": []}, "col": 1, "extra": 1}}},
        {"XX Y": [1, 2]},
        ["not", "a", "table"],
    ],
)
def test_a_signed_but_unreadable_table_is_ignored(memo: Path, table: object) -> None:
    with diskcache.open_folder(memo) as folder:
        assert folder is not None
        fields_ = {"format": pattern_memo.FORMAT_VERSION, "digest": pattern_memo._digest()}
        folder.write(pattern_memo._name(), pattern_memo.MAGIC, fields_, json.dumps(table).encode())
    assert every_field(pattern_memo.parse_pattern("XX Y")) == every_field(parse_with_lark("XX Y"))


def test_a_forged_table_is_not_read(memo: Path) -> None:
    pattern_memo.parse_pattern("XX Y")
    pattern_memo.flush()
    (path,) = memo.glob("patterns-*.memo")
    forged = path.read_bytes().replace(b'"XX Y"', b'"XX Z"')
    path.write_bytes(forged)  # the HMAC no longer checks out
    fresh = pattern_memo._Memo()
    pattern_memo._memo = fresh
    try:
        pattern_memo._load()
        assert fresh.known == {}
    finally:
        pattern_memo._memo = pattern_memo._Memo()


def test_a_warm_eval_imports_neither_lark_jsonschema_yaml_nor_numpy(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO), "POKERRULES_CACHE": str(tmp_path / "cache")}
    probe = (
        "import sys; from evaluator.cli.main import main; main(['eval', 'standard', 'Kc Kd Ks 4h 4c']);"
        "print(sorted(m for m in ('jsonschema', 'lark', 'numpy', 'yaml') if m in sys.modules))"
    )
    runs = [
        subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True) for _ in "12"
    ]
    assert runs[0].stdout.endswith("['jsonschema', 'lark', 'yaml']\n")  # the first start reads, validates, parses
    assert runs[1].stdout == "Ks Kd Kc 4h 4c  full_house  kings full of fours\n[]\n"
