"""Every key that names a file is confined -- and the list of such keys cannot go stale.

The schemas of every file kind (rulesets, pay tables) are walked for each key
that accepts text. Each is either a path key (``evaluator.rules.confine.PATH_KEYS``)
or listed below with the reason it never names a file; a new text key fails
the first test until it is classified. Each path key then has a file that
writes it, and every attack -- an absolute path, ``..``, a URL, a symbolic link
out of the folder, a file inside it that is not a ruleset, a NUL byte, a name
too long for the file system -- is refused at that key's line, in ``check``
(text, JSON, GitHub) and in the command that follows the key, without a byte
of the target printed.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import secrets
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from evaluator.cli.main import main
from evaluator.core.resources import grammar_dir, rulesets_dir
from evaluator.rules.confine import PATH_KEYS

SCHEMAS = ("ruleset.schema.json", "paytable.schema.json")

#: Every text key of every schema that is not a path, and what it is instead.
NOT_PATHS: dict[tuple[str, str], str] = {
    ("ruleset.schema.json", "$schema"): "a hint for editors: never opened",
    ("ruleset.schema.json", "name"): "a name",
    ("ruleset.schema.json", "title"): "free text",
    ("ruleset.schema.json", "source"): "free text",
    ("ruleset.schema.json", "ace"): "an enum",
    ("ruleset.schema.json", "direction"): "an enum",
    ("ruleset.schema.json", "deck.ranks[]"): "a rank",
    ("ruleset.schema.json", "deck.suits[]"): "a suit",
    ("ruleset.schema.json", "categories.*.pattern"): "a pattern",
    ("ruleset.schema.json", "categories.*.describe"): "a template",
    ("ruleset.schema.json", "categories.*.rank_by[]"): "a pattern variable",
    ("ruleset.schema.json", "order[]"): "a category name",
    ("ruleset.schema.json", "wild.cards[]"): "a card",
    ("ruleset.schema.json", "wild.ranks[]"): "a rank",
    ("ruleset.schema.json", "wild.plays_as.ranks[]"): "a rank",
    ("ruleset.schema.json", "wild.plays_as.hands"): "a pattern",
    ("ruleset.schema.json", "suits.order[]"): "a suit",
    ("ruleset.schema.json", "suits.tiebreak"): "an enum",
    ("ruleset.schema.json", "beats[].winner"): "a category name or a pattern",
    ("ruleset.schema.json", "beats[].loser"): "a category name or a pattern",
    ("ruleset.schema.json", "beats[].note"): "free text",
    ("ruleset.schema.json", "qualifier"): "a pattern",
    ("ruleset.schema.json", "game.split[].name"): "a name",
    ("ruleset.schema.json", "game.odd_chip"): "an enum",
    ("ruleset.schema.json", "examples[]"): "hands",
    ("ruleset.schema.json", "examples[].hand"): "cards",
    ("ruleset.schema.json", "examples[].cards"): "cards",
    ("ruleset.schema.json", "examples[].hole"): "cards",
    ("ruleset.schema.json", "examples[].board"): "cards",
    ("ruleset.schema.json", "examples[].board[]"): "cards",
    ("ruleset.schema.json", "examples[].showdown[]"): "cards",
    ("ruleset.schema.json", "examples[].plays_as"): "cards",
    ("ruleset.schema.json", "examples[].wilds.*"): "a card",
    ("ruleset.schema.json", "examples[].category"): "a category name",
    ("ruleset.schema.json", "examples[].description"): "free text",
    ("ruleset.schema.json", "examples[].note"): "free text",
    ("ruleset.schema.json", "examples[].declare[]"): "a half's name or an enum",
    ("ruleset.schema.json", "game.declare.both"): "an enum",
    ("ruleset.schema.json", "game.extra[].face"): "an enum",
    ("ruleset.schema.json", "game.extra[].gives"): "an enum",
    ("ruleset.schema.json", "game.extra[].rank"): "a rank",
    ("ruleset.schema.json", "game.split[].card.ace"): "an enum",
    ("ruleset.schema.json", "game.split[].card.face"): "an enum",
    ("ruleset.schema.json", "game.split[].card.pick"): "an enum",
    ("ruleset.schema.json", "game.split[].card.suit"): "a suit",
    ("ruleset.schema.json", "wild.follow.follower"): "an enum",
    ("ruleset.schema.json", "wild.follow.rank"): "a rank",
    ("ruleset.schema.json", "wild.lowest_rank"): "an enum (or a boolean)",
    ("paytable.schema.json", "paytable"): "a name",
    ("paytable.schema.json", "title"): "free text",
    ("paytable.schema.json", "published.source"): "free text",
}


def text_keys(schema: dict[str, Any]) -> dict[str, str]:
    """Every key path (``a.b``, ``list[]``, ``map.*``) whose value may be text, with its descriptions."""
    definitions = schema.get("$defs", {})
    found: dict[str, str] = {}

    def takes_text(node: dict[str, Any]) -> bool:
        kinds = node.get("type")
        kinds = kinds if isinstance(kinds, list) else [kinds]
        return "string" in kinds or any(isinstance(v, str) for v in node.get("enum", [])) or "const" in node

    def walk(node: Any, path: str, seen: frozenset[str], said: str) -> None:
        if not isinstance(node, dict):
            return
        said = f"{said} {node.get('description', '')}"
        reference = node.get("$ref")
        if isinstance(reference, str):
            name = reference.rsplit("/", 1)[1]
            if name not in seen:
                walk(definitions[name], path, seen | {name}, said)
        if path and takes_text(node):
            found[path] = f"{found.get(path, '')} {said}"
        for key, child in node.get("properties", {}).items():
            walk(child, f"{path}.{key}" if path else key, seen, "")
        if isinstance(node.get("items"), dict):
            walk(node["items"], path + "[]", seen, said)
        if isinstance(node.get("additionalProperties"), dict):
            walk(node["additionalProperties"], path + ".*", seen, "")
        for key in ("oneOf", "anyOf", "allOf"):
            for child in node.get(key, []):
                walk(child, path, seen, said)
        for key in ("if", "then", "else"):
            walk(node.get(key), path, seen, said)

    walk(schema, "", frozenset(), "")
    return found


def load_schema(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((grammar_dir() / name).read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("name", SCHEMAS)
def test_every_text_key_of_every_file_kind_is_a_path_key_or_listed(name: str) -> None:
    walked = set(text_keys(load_schema(name)))
    paths = {key for schema, key in PATH_KEYS if schema == name}
    others = {key for schema, key in NOT_PATHS if schema == name}
    assert not paths & others
    unlisted = walked - paths - others
    assert not unlisted, f"new text keys in {name}: confine them (PATH_KEYS) or list them in NOT_PATHS: {unlisted}"
    assert paths | others <= walked, f"stale keys: {(paths | others) - walked}"


def test_every_key_documented_as_a_path_is_a_path_key() -> None:
    for name in SCHEMAS:
        for key, said in text_keys(load_schema(name)).items():
            documented = re.search(r"\bpaths?\b", said) is not None
            assert documented == ((name, key) in PATH_KEYS), (name, key, said)


def test_every_file_kind_has_a_schema_here() -> None:
    assert {path.name for path in grammar_dir().glob("*.schema.json")} == set(SCHEMAS)


# --------------------------------------------------------------------------- each path key, attacked


def quoted(value: str) -> str:
    """A YAML double-quoted scalar holding ``value`` exactly (JSON is YAML)."""
    return json.dumps(value)


SPLIT = (
    "name: hilo\nextends: standard\ngame:\n  hole: 5\n  board: 0\n  split:\n"
    "    - {name: high, ruleset: standard}\n    - name: low\n      ruleset: VALUE\n"
)

#: For each path key: (the file writing it, the line of the value, the command that follows it).
WRITERS: dict[tuple[str, str], tuple[Callable[[str], str], int, Callable[[Path], list[str]]]] = {
    ("ruleset.schema.json", "extends"): (
        lambda value: f"name: r\nextends: {quoted(value)}\n",
        2,
        lambda file: ["eval", str(file), "As Ks Qs Js Ts"],
    ),
    ("ruleset.schema.json", "game.split[].ruleset"): (
        lambda value: SPLIT.replace("VALUE", quoted(value)),
        9,
        lambda file: ["showdown", str(file), "As Ks Qs Js Ts", "2c 3c 4c 5c 7d"],
    ),
    ("paytable.schema.json", "ruleset"): (
        lambda value: f"paytable: p\nruleset: {quoted(value)}\npays: {{flush: 1}}\n",
        2,
        lambda file: ["draw", "jacks-or-better-video", "--paytable", str(file)],
    ),
}


@pytest.fixture()
def planted(tmp_path: Path) -> Iterator[tuple[Path, Path, str]]:
    """(rules folder, victim folder, token): secrets beside the rules, and inside them one non-ruleset."""
    token = "TOKEN" + secrets.token_hex(12)
    victim, rules = tmp_path / "victim", tmp_path / "rules"
    victim.mkdir()
    rules.mkdir()
    (victim / "creds.yaml").write_text(f"{token}: 1\naws_secret: {token}\n", encoding="utf-8")
    (rules / "notes.yaml").write_text(f"{token}: 1\npassword: {token}\n", encoding="utf-8")
    (rules / "link.yaml").symlink_to(victim / "creds.yaml")
    yield rules, victim, token


def attacks(victim: Path) -> dict[str, tuple[str, set[str]]]:
    """name -> (the value written, the codes that may refuse it)."""
    return {
        "absolute": (str(victim / "creds.yaml"), {"Y120"}),
        "dot-dot": ("../victim/creds.yaml", {"Y120"}),
        "url": ("file:///etc/passwd", {"Y120"}),
        "home": ("~/creds.yaml", {"Y120"}),
        "symlink-out": ("link.yaml", {"Y120"}),
        "not-a-ruleset": ("notes.yaml", {"Y121"}),
        "nul": ("creds\0.yaml", {"Y126"}),
        "control": ("creds\x1b[2J.yaml", {"Y126"}),
        "long": ("a" * 9000, {"Y127", "S105"}),  # the schema's maxLength may say it first
        "long-name": ("a" * 300 + ".yaml", {"Y127"}),
    }


ATTACKS = list(attacks(Path("/")))


def run_cli(argv: Sequence[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_every_path_key_has_an_attack_file() -> None:
    assert set(WRITERS) == set(PATH_KEYS)


@pytest.mark.parametrize("key", PATH_KEYS, ids=lambda key: f"{key[0].split('.')[0]}:{key[1]}")
@pytest.mark.parametrize("attack", ATTACKS)
def test_each_path_key_is_confined_in_check_and_in_use(
    planted: tuple[Path, Path, str], key: tuple[str, str], attack: str
) -> None:
    rules, victim, token = planted
    value, codes = attacks(victim)[attack]
    write, line, command = WRITERS[key]
    file = rules / "attack.yaml"
    file.write_text(write(value), encoding="utf-8")
    code, out, err = run_cli(["check", str(file)])
    assert code == 1 and token not in out + err and "Traceback" not in err, out + err
    found = re.findall(r"^(.+?):(\d+):\d+: error (\w+):", out, flags=re.M)
    assert found and {c for _, _, c in found} <= codes | {"S105"} and {c for _, _, c in found} & codes, out
    if attack != "not-a-ruleset":  # refused at the key, in the file that writes it
        assert (str(file), str(line)) in {(source, at) for source, at, _ in found}, out
    for report in ("json", "github"):
        code, shown, err = run_cli(["check", "--format", report, str(file)])
        assert code == 1 and token not in shown + err
        assert any(f'"code": "{c}"' in shown or f"title={c}::" in shown for c in codes), shown
    code, out, err = run_cli(command(file))
    assert code == 1 and token not in out + err and "Traceback" not in err
    assert any(f" error {c}:" in err for c in codes), err


def test_a_path_key_inside_the_tree_still_works(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    (rules / "parents").mkdir(parents=True)
    base = rulesets_dir()
    (rules / "parents" / "base.yaml").write_text((base / "standard.yaml").read_text(encoding="utf-8"))
    for key, (write, _, _) in WRITERS.items():
        value = "parents/base.yaml" if key[0] == "ruleset.schema.json" else "parents/jacks.yaml"
        if key[0] == "paytable.schema.json":
            (rules / "parents" / "jacks.yaml").write_text((base / "jacks-or-better-video.yaml").read_text())
        file = rules / "ok.yaml"
        file.write_text(write(value), encoding="utf-8")
        if key[1] == "ruleset":  # a pay table that pays something the ruleset has
            file.write_text(write(value).replace("flush: 1", "royal_flush: 800, flush: 6"), encoding="utf-8")
        code, out, _ = run_cli(["check", str(file)])
        assert " error " not in out, (key, out)


def test_a_misspelt_catalogue_name_is_reported_at_its_own_key(tmp_path: Path) -> None:
    for key, (write, line, command) in WRITERS.items():
        file = tmp_path / "typo.yaml"
        file.write_text(write("standrd" if key[0] == "ruleset.schema.json" else "jacks-or-beter-video"))
        code, out, _ = run_cli(["check", str(file)])
        assert code == 1 and out.startswith(f"{file}:{line}:"), (key, out)
        assert "did you mean 'standard'?" in out or "did you mean 'jacks-or-better-video'" in out, out
        assert "standrd:1:1" not in out
        code, _, err = run_cli(command(file))
        assert code == 1 and err.startswith(f"{file}:{line}:"), (key, err)
