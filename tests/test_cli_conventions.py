"""The command line's conventions: --version, help with descriptions and
examples, one JSON style validated against the schemas in docs/json/, JSON
errors, check's handling of paths, and a quiet end on a closed pipe."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shlex
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from samples import SMALL

import evaluator
from evaluator.cli import args as cli_args
from evaluator.cli import check as cli_check
from evaluator.cli import main as cli
from evaluator.cli.main import build_parser, main

REPO = Path(__file__).resolve().parents[1]
SCHEMAS = REPO / "docs" / "json"
RULESETS = REPO / "rulesets"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def validate(name: str, data: Any) -> None:
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(data)


def document(out: str) -> Any:
    """One indented JSON document (and nothing else)."""
    assert out.startswith(("{\n", "[\n")) or out in ("[]\n", "{}\n"), out[:80]
    assert out.endswith("\n")
    return json.loads(out)


def json_lines(out: str) -> list[Any]:
    """JSON Lines: one compact object per line."""
    lines = out.splitlines()
    assert lines and all(line.startswith("{") and line.endswith("}") for line in lines), out[:200]
    return [json.loads(line) for line in lines]


def subcommands() -> dict[str, argparse.ArgumentParser]:
    (action,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


# --------------------------------------------------------------------------- version and help


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert (code, out) == (0, f"pokerrules {evaluator.__version__}\n")
    assert evaluator.__version__ == "0.2.0"


def test_version_comes_from_the_metadata_of_the_imported_distribution(monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib import metadata

    class Distribution:
        def __init__(self, version: str, root: Path) -> None:
            self.version, self.root = version, root

        def locate_file(self, name: str) -> Path:
            return self.root / name

    ours = Path(evaluator.__file__).resolve().parents[1]
    monkeypatch.setattr(metadata, "distribution", lambda name: Distribution("9.8.7", ours))
    assert cli_args.installed_version() == "9.8.7"
    # another copy installed elsewhere (an editable install, an old wheel): this package's own version
    monkeypatch.setattr(metadata, "distribution", lambda name: Distribution("0.0.1", Path("/elsewhere")))
    assert cli_args.installed_version() == evaluator.__version__

    def missing(name: str) -> None:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "distribution", missing)
    assert cli_args.installed_version() == evaluator.__version__


def test_every_subcommand_has_a_description_examples_and_argument_help() -> None:
    commands = subcommands()
    assert {"list", "eval", "showdown", "check", "stats", "diff", "schema"} <= set(commands)
    for name, parser in commands.items():
        assert parser.description and len(parser.description) > 40, name
        assert parser.epilog and parser.epilog.startswith("examples:\n"), name
        examples = [line.strip() for line in parser.epilog.splitlines()[1:] if line.strip()]
        assert examples and all(line.startswith(f"$ pokerrules {name}") for line in examples), name
        for example in examples:  # every example parses as written (redirections aside)
            words = shlex.split(example.split(" < ")[0].split(" > ")[0])[2:]
            assert cli.parse_args(words).command == name, example
        for action in parser._actions:
            assert action.help, f"{name}: {action.dest} has no help"
        text = parser.format_help()
        assert "examples:\n  $ pokerrules" in text and parser.description.splitlines()[0] in text


def test_help_exits_0_and_prints_examples(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--help")
    assert code == 0 and "--format {text,json,github}" in out and "examples:" in out and "Y101" in out
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "--version" in out and "examples:" in out


# --------------------------------------------------------------------------- one JSON style


def test_list_and_schema_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "list", "--json")
    rows = document(out)
    validate("list", rows)
    assert code == 0 and {row["name"] for row in rows} == {p.stem for p in RULESETS.glob("*.yaml")}
    code, out, _ = run(capsys, "schema", "--json")
    validate("schema", json.loads(out))


def test_eval_one_hand_is_one_indented_document(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "eval", "deuces-wild", "2s Ah 9h 8h 5h", "--json")
    data = document(out)
    validate("eval", data)
    assert code == 0 and data["wilds"] == {"2s": "Kh"} and data["category"] == "flush"


def test_eval_of_many_hands_is_json_lines(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(capsys, "eval", "standard", "As Kd Qh Jc Ts", "2s 2d 5h 7c 9s", "--json")
    rows = json_lines(out)
    assert code == 0 and [row["category"] for row in rows] == ["straight", "pair"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("As Ks Qs Js Ts\n"))  # stdin is a stream, even of one line
    code, out, _ = run(capsys, "eval", "standard", "-", "--json")
    rows += json_lines(out)
    for row in rows:
        validate("eval", row)
    assert rows[-1]["category"] == "royal_flush"


def test_showdown_json_is_0_based(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "showdown", "standard", "8c 2d", "Kc 7d", "Qs Td", "--board", "Jh Jd Jc Js 9s", "--pot", "10", "--json"
    )
    data = document(out)
    validate("showdown", data)
    assert code == 0
    assert [player["seat"] for player in data["players"]] == [0, 1, 2]
    assert data["winners"] == [1] and data["shares"] == [0, 10, 0]  # the king kicker, the second hand given
    assert data["players"][1]["hands"][0]["wins"] is True
    assert [half["board"] for half in data["halves"]] == [0]


def test_showdown_hi_lo_and_double_board_are_0_based(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "showdown", "omaha-hi-lo", "As 2s 3d Kh", "Qc Qd 7s 6s", "--board", "4c 5h 8d Jc Kd", "--json"
    )
    data = document(out)
    validate("showdown", data)
    assert code == 0 and [p["seat"] for p in data["players"]] == [0, 1]
    halves = {half["name"]: half for half in data["halves"]}
    assert halves["low"]["winners"] == [0] and all(half["board"] == 0 for half in data["halves"])
    code, out, _ = run(
        capsys,
        "showdown",
        "double-board-holdem",
        "As Ad",
        "Kh Kd",
        "--board",
        "2c 7d 9h Jc 3s",
        "--board",
        "Ks 8c 4d Qh 5c",
        "--json",
    )
    data = document(out)
    validate("showdown", data)
    assert sorted(half["board"] for half in data["halves"]) == [0, 1]


def test_showdown_from_a_file_is_json_lines_and_the_summary_a_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = tmp_path / "deals.txt"
    lines.write_text("8C TS KC 9H 4S 7D 2S 5D 3S AC\n5C AD 5D AC 9C 7C 5H 8D TD KS\n", encoding="utf-8")
    code, out, _ = run(capsys, "showdown", "standard", "--from", str(lines), "--hand-size", "5", "--json")
    rows = json_lines(out)
    for row in rows:
        validate("showdown", row)
    assert code == 0 and [row["winners"] for row in rows] == [[1], [0]]
    code, out, _ = run(capsys, "showdown", "standard", "--from", str(lines), "--hand-size", "5", "--summary", "--json")
    summary = document(out)
    validate("showdown-summary", summary)
    assert summary == {"showdowns": 2, "wins": [1, 1], "ties": 0}


def test_stats_and_diff_are_indented_documents(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "stats", "short-deck", "--json")
    validate("stats", document(out))
    code, out, _ = run(capsys, "diff", "standard", "short-deck", "--samples", "200", "--json")
    validate("diff", document(out))


def test_check_json_validates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(SMALL.replace("order: [", "order: [nope, "), encoding="utf-8")
    code, out, _ = run(capsys, "check", "--json", str(tmp_path / "missing.yaml"), str(bad))
    found = document(out)
    validate("check", found)
    assert code == 1 and [d["code"] for d in found] == ["Y101", "R101"]
    code, out, _ = run(capsys, "check", "--json", str(RULESETS / "standard.yaml"))
    assert code == 0 and document(out) == []


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("argv", "code", "status", "path"),
    [
        (["eval", "standard", "As Kd Qh Jc Zs"], "C101", 1, "<cards>"),
        (["eval", "no-such-ruleset", "As Kd Qh Jc Ts"], "Y101", 1, "no-such-ruleset"),
        (["showdown", "standard", "--from", "/no/such/deals.txt"], "Y101", 1, "/no/such/deals.txt"),
        (["showdown", "standard"], "usage", 2, None),
        (["stats", "standard", "--csv"], "usage", 2, None),
        (["eval", "standard"], "usage", 2, None),
        (["check", "--format", "yaml", "x.yaml"], "usage", 2, None),
    ],
)
def test_json_errors_go_to_stderr_as_objects(
    capsys: pytest.CaptureFixture[str], argv: list[str], code: str, status: int, path: str | None
) -> None:
    exit_code, out, err = run(capsys, *argv, "--json")
    assert (exit_code, out) == (status, "")
    objects = json_lines(err)
    for item in objects:
        validate("error", item)
    first = objects[0]["error"]
    assert first["code"] == code and first["message"]
    assert first["path"] == path
    if code != "usage":
        assert first["line"] >= 1 and first["col"] >= 1


def test_json_error_positions_in_a_ruleset_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "x.yaml"
    path.write_text("name: x\nextends: standard\nordr: [pair]\n", encoding="utf-8")
    code, out, err = run(capsys, "eval", str(path), "As Kd Qh Jc Ts", "--json")
    (item,) = json_lines(err)
    assert (code, out) == (1, "")
    assert item["error"]["code"] == "S101" and (item["error"]["path"], item["error"]["line"], item["error"]["col"]) == (
        str(path),
        3,
        1,
    )
    assert item["error"]["hint"]  # did you mean 'order'?


def test_text_errors_stay_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "showdown", "standard")
    assert (code, out) == (2, "") and err.startswith("usage: pokerrules showdown ")
    assert err.endswith("\npokerrules showdown: give at least one hand, or --from FILE\n")
    code, out, err = run(capsys, "eval", "standard")
    assert (
        code == 2 and err.startswith("usage: pokerrules eval") and "error: the following arguments are required" in err
    )


# --------------------------------------------------------------------------- check


def test_check_reports_missing_paths_and_checks_the_rest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.yaml"
    good.write_text(SMALL, encoding="utf-8")
    code, out, err = run(capsys, "check", str(tmp_path / "nope.yaml"), str(good), str(tmp_path / "gone"))
    assert code == 1 and err == ""
    lines = out.splitlines()
    assert (
        lines[0]
        == f"{tmp_path / 'nope.yaml'}:1:1: error Y101: cannot read {tmp_path / 'nope.yaml'}: no such file or directory"
    )
    assert f"{tmp_path / 'gone'}:1:1: error Y101" in out
    assert lines[-1] == "checked 3 files: 2 errors"  # three paths asked for, two of them unreadable


def test_a_clean_check_says_how_many_files_it_checked(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for name in ("standard", "short-deck"):  # a folder of two (the whole catalogue: test_check.py)
        (tmp_path / f"{name}.yaml").write_bytes((RULESETS / f"{name}.yaml").read_bytes())
    code, out, _ = run(capsys, "check", str(tmp_path), str(tmp_path / "standard.yaml"))  # named twice: counted once
    assert (code, out) == (0, "checked 2 files: no problems\n")
    assert cli_check.check_summary(2, 0, 3) == "checked 2 files: 3 warnings"


# --------------------------------------------------------------------------- a closed pipe


def test_a_closed_pipe_ends_quietly_with_the_sigpipe_status(tmp_path: Path) -> None:
    hands = "\n".join(["As Ks Qs Js Ts", "2c 2d 5h 7c 9s", "Kc Kd Ks 4h 4c"] * 3000) + "\n"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(
        [sys.executable, "-m", "evaluator", "eval", "standard", "-"],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    stdin = process.stdin

    def feed() -> None:
        # eval streams: it answers while we still write, so the writing must not block the reading
        with contextlib.suppress(BrokenPipeError, ValueError):
            stdin.write(hands)
            stdin.close()

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    first = process.stdout.readline()
    process.stdout.close()  # what `| head -1` does after its line
    status = process.wait(timeout=300)
    writer.join(timeout=60)
    err = process.stderr.read()
    assert first == "Ts Js Qs Ks As  royal_flush  royal flush\n" or "royal_flush" in first
    assert status == 141, err
    assert err == ""  # no "[Errno 32] Broken pipe", no traceback


def test_a_pipe_read_to_the_end_exits_0(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-m", "evaluator", "eval", "standard", "-"],
        input="As Ks Qs Js Ts\n" * 50,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "") and len(done.stdout.splitlines()) == 50


def test_compare_json_is_one_document_matching_its_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", "deuces-wild", "2s 2h Ah Kh 9c", "As Ad Ac 4d 4c", "--json")
    data = document(out)
    validate("compare", data)
    assert code == 0 and data["winner"] == 1 and data["decided_by"] == "category"
    assert [step["step"] for step in data["steps"]] == ["wilds", "category"]
