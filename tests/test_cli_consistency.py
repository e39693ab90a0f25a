"""One set of conventions across commands: --root wherever a ruleset is read, a
JSON schema for every --json output, exit 2 and the subcommand's usage for bad
usage, eval's stdin read as showdown --from reads its file, compare refusing a
card in both hands, reports written with the user's umask, counts in words."""

from __future__ import annotations

import argparse
import json
import os
import re
import stat
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from evaluator.cli.main import build_parser, main
from evaluator.core.atomic_write import current_umask, write_atomically

REPO = Path(__file__).resolve().parents[1]
SCHEMAS = REPO / "docs" / "json"

pytestmark = pytest.mark.usefixtures("table_cache")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def validate(name: str, data: Any) -> None:
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(data)


def subcommands() -> dict[str, argparse.ArgumentParser]:
    (action,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def options(parser: argparse.ArgumentParser) -> set[str]:
    return {option for action in parser._actions for option in action.option_strings}


# --------------------------------------------------------------------------- --root


def test_every_command_that_reads_a_ruleset_takes_root() -> None:
    readers = {
        name
        for name, parser in subcommands().items()
        if any(action.dest in ("ruleset", "ruleset_a") for action in parser._actions)
    }
    assert readers >= {"eval", "showdown", "compare", "odds", "outs", "chart", "draw", "stats", "diff"}
    assert {name for name in readers if "--root" not in options(subcommands()[name])} == set()


@pytest.fixture
def house(tmp_path: Path) -> tuple[Path, Path]:
    """A hold'em house file in one folder whose parent lives in another."""
    shared, mine = tmp_path / "shared", tmp_path / "mine"
    shared.mkdir()
    mine.mkdir()
    (shared / "base.yaml").write_text("name: base\nextends: holdem\n", encoding="utf-8")
    (mine / "house.yaml").write_text("name: house\nextends: ../shared/base.yaml\n", encoding="utf-8")
    return mine / "house.yaml", shared


@pytest.mark.parametrize(
    "argv",
    [
        ["odds", "{file}", "AhKh", "QsQd", "--board", "2h 7h 9c Td"],
        ["outs", "{file}", "9h 8h", "Ks Qd", "--board", "Kh 4h 2c"],
        ["compare", "{file}", "As Ks Qs Js Ts", "Ad Kd Qd Jd 9d"],
        ["chart", "{file}", "--samples", "2", "--seed", "1", "--board", "2h 7h 9c Td"],
        ["eval", "{file}", "As Ks Qs Js Ts"],
    ],
    ids=lambda argv: argv[0],
)
def test_root_lets_a_house_file_reach_its_parent(
    argv: list[str], house: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    file, shared = house
    command = [part.replace("{file}", str(file)) for part in argv]
    code, _, err = run(capsys, *command)
    assert code == 1 and "Y120" in err, err
    code, out, err = run(capsys, *command, "--root", str(shared))
    assert code == 0 and out, err


def test_draw_takes_root(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shared, mine = tmp_path / "shared", tmp_path / "mine"
    shared.mkdir()
    mine.mkdir()
    (shared / "base.yaml").write_text("name: base\nextends: standard\n", encoding="utf-8")
    (mine / "house.yaml").write_text("name: house\nextends: ../shared/base.yaml\n", encoding="utf-8")
    argv = ["draw", str(mine / "house.yaml"), "9s 9h Kc Kd 4h", "--discard", "4h"]
    assert run(capsys, *argv)[0] == 1
    code, out, _ = run(capsys, *argv, "--root", str(shared))
    assert code == 0 and "full_house" in out


# --------------------------------------------------------------------------- JSON schemas


def test_every_json_schema_is_listed_in_cli_md_and_every_command_has_one() -> None:
    listed = set(re.findall(r"\(json/([\w-]+)\.schema\.json\)", (REPO / "docs" / "cli.md").read_text(encoding="utf-8")))
    present = {path.name.removesuffix(".schema.json") for path in SCHEMAS.glob("*.schema.json")}
    assert listed == present
    # the server itself speaks JSON-RPC; what `lsp editor-config --json` prints has its schema
    assert set(subcommands()) - {"lsp"} <= present and "lsp-editor-config" in present


def test_odds_json_follows_its_schema_and_a_hand_is_a_list_of_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "holdem", "AhKh", "QsQd", "--board", "2h 7h 9c", "--json")
    data = json.loads(out)
    validate("odds", data)
    assert code == 0 and data["players"][0]["hand"] == ["Ah", "Kh"] and data["players"][0]["range"] is None
    code, out, _ = run(capsys, "odds", "holdem", "QQ+", "random", "--samples", "2000", "--seed", "3", "--json")
    data = json.loads(out)
    validate("odds", data)
    first, second = data["players"]
    assert (first["hand"], first["range"], first["combos"]) == (None, "QQ+", 18)
    assert (second["hand"], second["range"], second["combos"]) == (None, "random", None)
    assert set(first["std_errors"]) == {"equity", "win", "tie"}
    code, out, _ = run(capsys, "odds", "omaha-hi-lo", "Ah2h3dKd", "KsKcQsJc", "--board", "4c 5d 9s", "--json")
    validate("odds", json.loads(out))
    argv = ["odds", "holdem", "AhKh", "QsQd", "--board", "Th 7h 9c", "--against", "short-deck-holdem", "--json"]
    code, out, _ = run(capsys, *argv)
    both = json.loads(out)
    validate("odds", both)
    assert code == 0 and len(both) == 2


def test_outs_json_follows_its_schema_and_outs_are_the_outs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "outs", "holdem", "9h 8h", "Ks Qd", "--board", "Kh 4h 2c", "--json")
    data = json.loads(out)
    validate("outs", data)
    behind, ahead = data["players"]
    assert behind["hand"] == ["9h", "8h"] and len(behind["outs"]) == 9 and "cards" not in behind
    assert {out["card"] for out in behind["outs"]} == {"2h", "3h", "5h", "6h", "7h", "Ah", "Jh", "Qh", "Th"}
    assert ahead["behind"] is False and ahead["outs"] == []


def test_a_schema_rejects_the_old_shapes() -> None:
    old_odds = {"ruleset": "holdem", "method": "exact", "deals": 1, "seed": None, "players": [{"hand": "Ah Kh"}] * 2}
    with pytest.raises(jsonschema.ValidationError):
        validate("odds", old_odds)
    player = {"hand": "9h 8h", "behind": True, "outs": 9, "cards": [], "unseen": 47, "next_card": 0.2}
    old_outs = {"ruleset": "holdem", "board": [], "to_come": 2, "players": [player, player]}
    with pytest.raises(jsonschema.ValidationError):
        validate("outs", old_outs)


# --------------------------------------------------------------------------- usage errors


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["odds", "holdem", "AhKh", "QsQd", "--exact", "--samples", "100"], "not allowed with argument"),
        (["draw", "standard", "As Ad 7c 4h 2s", "--discard", "4h", "--next", "2c"], "not allowed with argument"),
        (["eval", "standard", "As Ks Qs Js Ts", "--bogus"], "unrecognized arguments: --bogus"),
        (["outs", "holdem", "9h 8h", "Ks Qd", "--board", "Kh 4h 2c", "--samples", "5"], "unrecognized arguments"),
        (["chart", "holdem", "--workers", "0"], "error O121: 0 workers"),
    ],
    ids=["odds-exact-samples", "draw-discard-next", "eval-unknown-option", "outs-unknown-option", "chart-own-check"],
)
def test_usage_errors_exit_2_with_the_subcommands_usage(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.startswith(f"usage: pokerrules {argv[0]} "), err
    assert says in err


def test_check_refuses_json_with_another_format(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(REPO / "rulesets" / "standard.yaml")
    code, out, err = run(capsys, "check", path, "--json", "--format", "github")
    assert (code, out) == (2, "")
    assert json.loads(err)["error"]["message"] == "pokerrules check: --json and --format github exclude each other"
    code, out, err = run(capsys, "check", path, "--format", "text", "--json")
    assert (code, out) == (2, "") and "--json and --format text exclude each other" in err


def test_a_usage_error_under_json_is_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "odds", "holdem", "AhKh", "QsQd", "--exact", "--samples", "100", "--json")
    (line,) = err.splitlines()
    assert code == 2 and json.loads(line)["error"]["code"] == "usage"


def test_check_json_alone_and_format_json_with_json_are_json(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(REPO / "rulesets" / "standard.yaml")
    for argv in (["--json"], ["--format", "json"], ["--json", "--format", "json"]):
        code, out, _ = run(capsys, "check", path, *argv)
        assert code == 0 and json.loads(out) == []


# --------------------------------------------------------------------------- eval - and compare


def test_eval_stdin_skips_comments_and_reports_the_real_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    text = "# Friday's hands\nKc Kd Ks 4h 4c\n\n  # a comment after blanks\nAs Kd Qh Jc Zs\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    code, out, err = run(capsys, "eval", "standard", "-")
    assert code == 1 and out == "Ks Kd Kc 4h 4c  full_house  kings full of fours\n"
    assert err.startswith("<stdin>:5:13: error C101: 'Zs' is not a card"), err
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    code, out, err = run(capsys, "eval", "standard", "-", "--json")
    problem = json.loads(err)["error"]
    assert (problem["path"], problem["line"], problem["col"]) == ("<stdin>", 5, 13)
    assert [json.loads(line)["input"] for line in out.splitlines()] == ["Kc Kd Ks 4h 4c"]


def test_compare_refuses_a_card_in_both_hands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "compare", "standard", "As Ks Qs Js Ts", "Ad Kd Qd Jd As")
    assert (code, out) == (1, "")
    assert err.startswith("<hand 2>:1:13: error C103: card 5, As, is in both hands"), err
    code, _, err = run(capsys, "compare", "standard", "As Ks Qs Js Ts", "Ad Kd Qd Jd As", "--json")
    assert json.loads(err)["error"]["code"] == "C103"
    # two packs hold two of each card
    assert run(capsys, "compare", "two-decks", "As Ks Qs Js Ts", "Ad Kd Qd Jd As")[0] == 0
    # a bad card of either hand is reported in that hand
    code, _, err = run(capsys, "compare", "standard", "As Ks Qs Js Ts", "Ad Kd Qd Jd Zs")
    assert code == 1 and err.startswith("<hand 2>:1:13: error C101")


# --------------------------------------------------------------------------- reports and words


def test_reports_are_written_with_the_users_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        assert current_umask() == 0o022
        write_atomically(tmp_path / "report.html", "<p>report</p>")
        assert stat.S_IMODE((tmp_path / "report.html").stat().st_mode) == 0o644
        os.umask(0o077)
        write_atomically(tmp_path / "private.html", "<p>private</p>")
        assert stat.S_IMODE((tmp_path / "private.html").stat().st_mode) == 0o600
        # a report written again keeps the mode its owner gave it
        (tmp_path / "report.html").chmod(0o640)
        write_atomically(tmp_path / "report.html", "<p>again</p>")
        assert stat.S_IMODE((tmp_path / "report.html").stat().st_mode) == 0o640
        assert (tmp_path / "report.html").read_text() == "<p>again</p>"
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    finally:
        os.umask(old)


def test_chart_html_is_written_with_the_umask(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = os.umask(0o022)
    try:
        page = tmp_path / "chart.html"
        argv = ["chart", "holdem", "--samples", "2", "--seed", "1", "--board", "2h 7h 9c Td", "--html", str(page)]
        assert run(capsys, *argv)[0] == 0
        assert stat.S_IMODE(page.stat().st_mode) == 0o644
    finally:
        os.umask(old)


def test_one_of_anything_is_singular(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "showdown", "standard", "Kc 7d 2s 3h 8c", "Qs Td 2d 3c 8d", "--pot", "1")
    assert "share 1 = 1 chip\n" in out and "share 0 = 0 chips" in out
    source = tmp_path / "deals.txt"
    source.write_text("Kc 7d 2s 3h 8c | Qs Td 2d 3c 8d\n", encoding="utf-8")
    code, out, _ = run(capsys, "showdown", "standard", "--from", str(source), "--pot", "1", "--summary")
    assert "player 1 wins 1 (1 chip)\n" in out
    code, out, _ = run(capsys, "outs", "holdem", "Ah Kh", "2c 2d", "--board", "Qh Jh 5c 3s")
    assert "1 card to come" in out
    good = REPO / "rulesets" / "standard.yaml"
    code, out, _ = run(capsys, "check", str(good), str(tmp_path / "missing.yaml"))
    assert code == 1 and out.endswith("checked 2 files: 1 error\n")
