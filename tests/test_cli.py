"""The command line end to end: output, JSON, exit codes, errors without tracebacks."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from evaluator.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_eval_json_has_the_pinned_fields(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "eval", "standard", "Kc Kd Ks 4h 4c", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["category"] == "full_house"
    assert sorted(data["cards"]) == sorted(["Kc", "Kd", "Ks", "4h", "4c"])
    assert data["description"] == "kings full of fours"


def test_eval_best_five_of_seven(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "eval", "holdem" if False else "standard", "2c 3d As Ks Qs Js Ts", "--json")
    assert code == 0
    assert json.loads(out)["cards"] == ["As", "Ks", "Qs", "Js", "Ts"]


def test_eval_one_card_per_argument_and_several_hands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "eval", "standard", "As", "Kd", "Qh", "Jc", "Ts")
    assert code == 0 and out.count("\n") == 1 and "straight" in out
    code, out, _ = run(capsys, "eval", "standard", "As Kd Qh Jc Ts", "2s 2d 5h 7c 9s", "--json")
    assert [json.loads(line)["category"] for line in out.splitlines()] == ["straight", "pair"]


def test_eval_reads_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("As Ks Qs Js Ts\n\n2c 2d 2h 5s 5d\n"))
    code, out, _ = run(capsys, "eval", "standard", "-", "--json")
    assert code == 0
    assert [json.loads(line)["category"] for line in out.splitlines()] == ["royal_flush", "full_house"]


@pytest.mark.parametrize(
    ("argv", "code_text"),
    [
        (["eval", "standard", "As Kd Qh Jc Zs"], "C101"),
        (["eval", "short-deck", "As Kd Qh Jc 2s"], "C102"),
        (["eval", "standard", "As As Qh Jc 2s"], "C103"),
        (["eval", "standard", "As Kd"], "C104"),
        (["eval", "no-such-ruleset", "As Kd Qh Jc Ts"], "Y101"),
    ],
)
def test_bad_input_is_one_positioned_line_and_exit_1(
    capsys: pytest.CaptureFixture[str], argv: list[str], code_text: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 1
    assert out == ""  # nothing written
    assert code_text in err
    assert "Traceback" not in err


def test_bad_stdin_line_stops_the_stream_where_it_stands(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # eval streams: the lines before the bad hand are out, nothing after it
    monkeypatch.setattr(sys, "stdin", io.StringIO("As Ks Qs Js Ts\nAs Ks Qs Js Tx\n2c 2d 2h 5s 5d\n"))
    code, out, err = run(capsys, "eval", "standard", "-")
    assert code == 1
    assert out.splitlines() == ["As Ks Qs Js Ts  royal_flush  royal flush"]
    assert err.startswith("<stdin>:2:13: error C101")


@pytest.mark.parametrize(
    ("text", "code_text", "line", "col"),
    [
        ("name: x\nextends: standard\nordr: [pair]\n", "S101", 3, 1),
        ("name: x\nextends: standard\nace: sometimes\n", "S103", 3, 6),
        ("name: x\nextends: standard\ncategories:\n  pair: {pattern: 'XX Y Z W & X >'}\n", "P101", 4, 34),
        ("name: x\nextends: standard\ncategories: [\n", "Y103", 4, 1),
    ],
)
def test_bad_ruleset_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, code_text: str, line: int, col: int
) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "eval", str(path), "As Kd Qh Jc Ts")
    assert code == 1 and out == ""
    first = err.splitlines()[0]
    assert first.startswith(f"{path}:{line}:{col}: error {code_text}"), first
    assert "Traceback" not in err


def test_list_and_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "list", "--json")
    names = {row["name"] for row in json.loads(out)}
    assert code == 0 and {"standard", "short-deck", "ace-to-five"} <= names
    code, out, _ = run(capsys, "schema")
    assert code == 0 and json.loads(out)["$schema"].endswith("2020-12/schema")


def test_showdown_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "showdown", "standard", "Kc 7d", "Qs Td", "--board", "Jh Jd Jc Js 9s")
    assert code == 0
    assert "player 1 wins" in out and "four jacks, king kicker" in out
    code, out, _ = run(
        capsys, "showdown", "standard", "8c 2d", "6s 5d", "--board", "Jh Jd Jc Js 9s", "--pot", "7", "--json"
    )
    data = json.loads(out)
    assert data["winners"] == [0, 1] and sum(data["shares"]) == 7 and data["shares"] == [4, 3]


def test_check_catalogue_is_clean(capsys: pytest.CaptureFixture[str]) -> None:
    rulesets = Path(__file__).resolve().parents[1] / "rulesets"
    code, out, _ = run(capsys, "check", str(rulesets / "standard.yaml"), str(rulesets / "short-deck.yaml"))
    assert (code, out) == (0, "checked 2 files: no problems\n")


def test_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "eval")
    assert (code, out) == (2, "")
    assert "usage:" in err and "Traceback" not in err
    assert run(capsys, "eval", "standard", "-T")[0] == 2  # looks like an option


def test_python_dash_m(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "evaluator", "eval", "standard", "Ah Kh Qh Jh Th", "--json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["category"] == "royal_flush"
