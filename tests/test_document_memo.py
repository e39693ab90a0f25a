"""Rule files parsed before are read back from the disk cache exactly as PyYAML would give them:
the same data, the same line and column of every value and key, named after the file asked for."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from evaluator import load
from evaluator.core import diskcache, resources
from evaluator.core.errors import LoadError
from evaluator.rules import document_memo
from evaluator.rules import load as rules_load
from evaluator.rules.load import load_document
from evaluator.rules.yaml_read import editor_buffers, parse_yaml

REPO = Path(__file__).resolve().parents[1]
FILES = sorted(
    [
        *resources.rulesets_dir().glob("*.yaml"),
        *(REPO / "paytables").glob("*.yaml"),
        *(REPO / "docs" / "examples").rglob("*.yaml"),
    ]
)


@pytest.fixture(autouse=True)
def _parsed_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    # this process's own memo of files read would answer before the disk cache
    monkeypatch.setattr(rules_load, "_PARSED", {})


def memo_files(cache: Path) -> list[str]:
    """The names of the parsed documents kept in ``cache``."""
    return sorted(path.name for path in cache.glob(f"document-*{document_memo.SUFFIX}"))


@pytest.mark.parametrize("path", FILES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_every_shipped_file_reads_back_as_parsed(path: Path, own_cache: Path) -> None:
    raw = path.read_bytes()
    parsed = parse_yaml(raw.decode("utf-8"), str(path))
    key = document_memo.content_key(raw)
    document_memo.remember(key, parsed)
    assert memo_files(own_cache) == [f"document-{key[:32]}.parsed"]
    assert document_memo.remembered(key, str(path)) == parsed


def test_a_second_load_reads_the_kept_document_and_a_changed_file_is_parsed_again(
    tmp_path: Path, own_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = tmp_path / "house.yaml"
    rules.write_text("name: house\nextends: standard\ntitle: first\n", encoding="utf-8")
    first = load_document(rules)
    kept = memo_files(own_cache)
    assert len(kept) == 2  # the house file and standard.yaml
    monkeypatch.setattr(rules_load, "_PARSED", {})
    calls: list[str] = []
    with monkeypatch.context() as patch:
        patch.setattr(rules_load, "parse_yaml", lambda text, source: calls.append(source))
        assert load_document(rules) == first and calls == []  # nothing parsed: both read back
    monkeypatch.setattr(rules_load, "_PARSED", {})
    rules.write_text("name: house\nextends: standard\ntitle: second\n", encoding="utf-8")
    assert load_document(rules).data["title"] == "second"
    assert len(memo_files(own_cache)) == 3


def test_a_copy_elsewhere_names_itself(tmp_path: Path, own_cache: Path) -> None:
    text = "name: house\nhand: {size: 5}\n"
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = tmp_path / "a" / "house.yaml", tmp_path / "b" / "house.yaml"
    first.write_text(text, encoding="utf-8")
    second.write_text(text, encoding="utf-8")
    load_document(first)
    rules_load._PARSED.clear()
    document = load_document(second)
    assert len(memo_files(own_cache)) == 1
    assert document.position(("hand", "size")).source == str(second)
    assert document.sources == (str(second),)


@pytest.mark.parametrize(
    "text",
    ["name: house\n1: a number as a key\n", "name: house\nodds: .nan\n", "name: house\nodds: .inf\n"],
    ids=["number-key", "nan", "infinity"],
)
def test_a_document_json_cannot_say_exactly_is_parsed_every_time(text: str, tmp_path: Path, own_cache: Path) -> None:
    rules = tmp_path / "house.yaml"
    rules.write_text(text, encoding="utf-8")
    document = load_document(rules)
    assert memo_files(own_cache) == []
    assert repr(document.data) == repr(parse_yaml(text).data)  # (repr: nan is not equal to itself)


def test_editor_buffers_are_never_kept(tmp_path: Path, own_cache: Path) -> None:
    rules = tmp_path / "house.yaml"
    with editor_buffers({str(rules): "name: house\nextends: standard\n"}):
        load_document(rules)
    assert len(memo_files(own_cache)) == 1  # standard.yaml, read from disk


def test_a_forged_or_unreadable_kept_document_is_parsed_again(tmp_path: Path, own_cache: Path) -> None:
    rules = tmp_path / "house.yaml"
    rules.write_text("name: house\ntitle: real\n", encoding="utf-8")
    key = document_memo.content_key(rules.read_bytes())
    name = f"document-{key[:32]}.parsed"
    # signed with the user's key but not a document: refused, the file parsed anew
    with diskcache.open_folder(own_cache) as folder:
        assert folder is not None
        folder.write(name, document_memo.MAGIC, {"format": document_memo.FORMAT_VERSION, "digest": key}, b"[1, 2]")
    assert document_memo.remembered(key, str(rules)) is None
    assert load_document(rules).data["title"] == "real"
    # a kept document edited on disk: its signature no longer holds
    rules_load._PARSED.clear()
    blob = (own_cache / name).read_bytes()
    assert b"real" in blob
    (own_cache / name).write_bytes(blob.replace(b"real", b"fake"))
    assert document_memo.remembered(key, str(rules)) is None
    assert load_document(rules).data["title"] == "real"


def test_no_cache_still_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a cache folder that is not ours is not used (diskcache warns once): the file is parsed
    foreign = tmp_path / "cache"
    foreign.mkdir(mode=0o777)
    os.chmod(foreign, 0o777)
    monkeypatch.setenv(resources.CACHE_ENV, str(foreign))
    assert load("standard").name == "standard"
    assert memo_files(foreign) == []


def assert_reads_back(text: str) -> bool:
    """Parse ``text``, keep its document and read it back: the same document, or none when
    JSON cannot say it exactly. False when the text does not parse."""
    try:
        parsed = parse_yaml(text, "rules.yaml")
    except LoadError:
        return False
    key = document_memo.content_key(text.encode("utf-8", "surrogatepass"))
    document_memo.remember(key, parsed)
    back = document_memo.remembered(key, "rules.yaml")
    assert back == parsed if document_memo.exact_in_json(parsed.data) else back is None
    return True


TOKENS = list(":-[]{}&*!|>#%@`,?'\"\n ~=<.0129aAsTx") + ["\r\n", "---", "!!", ": ", "- ", "é", "1e3", ".inf", "null"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.lists(st.one_of(st.sampled_from(TOKENS), st.characters()), max_size=80).map("".join))
def test_any_text_that_parses_reads_back(text: str, own_cache: Path) -> None:
    assert_reads_back(text)


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=12), st.just("12:30"))
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.dictionaries(st.one_of(st.text(min_size=1, max_size=8), st.integers()), VALUES, min_size=1, max_size=5),
    flow=st.booleans(),
)
def test_any_written_document_reads_back(data: dict[object, object], flow: bool, own_cache: Path) -> None:
    import yaml  # (the reader's own dependency) writes the data out as a user might

    assume(assert_reads_back(yaml.safe_dump(data, default_flow_style=flow, allow_unicode=True)))
