"""Rule files from strangers, run in CI: no file leaks, no injected output, bounded work.

Each test is an attack that once worked: ``extends:`` and ``game.split``
reading a secret outside the rule files' folder and printing it, YAML escapes
driving the terminal or starting GitHub workflow commands, and files that
made ``check`` run for minutes. The secret is a file the test makes, holding
a random token; the token must never appear in anything pokerrules prints.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from samples import SMALL

from evaluator import load
from evaluator.cli.main import main
from evaluator.core.errors import Diagnostic, PokerRulesError
from evaluator.core.safe_text import github_data, json_text, visible
from evaluator.draw.paytable import load_paytable
from evaluator.rules.confine import RULESET_KEYS
from evaluator.rules.load import load_document
from evaluator.rules.schema import schema
from evaluator.tools.check import check_file, check_paths, render

REPO = Path(__file__).resolve().parents[1]
DECK = " ".join(rank + suit for suit in "shdc" for rank in "23456789TJQKA")
ESC_ATTACK = "\\e[2K\\e]0;owned\\a"  # YAML escapes: erase the line, set the terminal title
WORKFLOW_ATTACK = "\\n::error file=.github/workflows/ci.yml,line=1::owned"
BIDI_ATTACK = "\\u202eevil\\u2066"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def run_cli(argv: Sequence[str]) -> tuple[int, str, str]:
    """The command line in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def run_process(argv: Sequence[str], timeout: float = 60, **options: object) -> subprocess.CompletedProcess[str]:
    """The command line in a subprocess, so that a hang is a failure (the timeout), not a stuck suite."""
    options.setdefault("env", {**os.environ, "PYTHONPATH": str(REPO)})
    return subprocess.run(
        [sys.executable, "-m", "evaluator", *argv], capture_output=True, text=True, timeout=timeout, **options
    )  # type: ignore[call-overload]


@pytest.fixture()
def secret(tmp_path: Path) -> tuple[Path, str]:
    """A victim's folder beside the rule files, with credentials holding a random token."""
    token = "TOKEN" + secrets.token_hex(12)
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "credentials").write_text(f"[default]\naws_access_key_id = {token}\n", encoding="utf-8")
    # the same secret as a YAML mapping, which parses: its keys and values must not be shown either
    (victim / "creds.yaml").write_text(f"aws_access_key_id: {token}\nname: {token}\n", encoding="utf-8")
    # a file whose keys are the secret: an "unknown key" message would quote it
    (victim / "shadow.yml").write_text(f"root:{token}: 1\n", encoding="utf-8")
    (tmp_path / "rules").mkdir()
    return victim, token


def assert_refused_without_leak(argv: Sequence[str], token: str, codes: Sequence[str]) -> str:
    code, out, err = run_cli(argv)
    assert code == 1
    assert token not in out + err
    assert any(marker.format(c) in out + err for c in codes for marker in (" {}: ", '"{}"', "title={}::")), out + err
    return out + err


# --------------------------------------------------------------------------- extends: confined


@pytest.mark.parametrize("report", ["text", "json", "github"])
def test_extends_an_absolute_path_is_refused_without_a_byte_of_it(
    secret: tuple[Path, str], tmp_path: Path, report: str
) -> None:
    victim, token = secret
    for target in ("credentials", "creds.yaml"):
        rule = write(tmp_path / "rules", "r.yaml", f"name: r\nextends: {victim / target}\n")
        shown = assert_refused_without_leak(["check", "--format", report, str(rule)], token, ["Y120"])
        if report == "text":
            assert shown.startswith(f"{rule}:2:10: error Y120: extends: ")


def test_extends_climbing_out_with_dot_dot_is_refused(secret: tuple[Path, str], tmp_path: Path) -> None:
    _, token = secret
    rule = write(tmp_path / "rules", "sub/r.yaml", "name: r\nextends: ../../victim/credentials\n")
    assert_refused_without_leak(["check", str(rule)], token, ["Y120"])
    assert_refused_without_leak(["check", str(tmp_path / "rules")], token, ["Y120"])
    # `..` that stays inside the folder named is a relative path like any other
    write(tmp_path / "rules", "base.yaml", SMALL)
    inside = write(tmp_path / "rules", "sub/inside.yaml", "name: inside\nextends: ../base.yaml\n")
    diagnostics, _ = check_paths([str(tmp_path / "rules")])
    assert [(d.source, d.code) for d in diagnostics] == [(str(tmp_path / "rules/sub/r.yaml"), "Y120")]
    # a file checked on its own only reaches its own folder, unless a root is named
    assert [d.code for d in check_file(inside)] == ["Y120"]
    assert check_file(inside, (str(tmp_path / "rules"),)) == []
    assert run_cli(["check", "--root", str(tmp_path / "rules"), str(inside)])[0] == 0


def test_extends_through_a_symlink_out_of_the_tree_is_refused(secret: tuple[Path, str], tmp_path: Path) -> None:
    victim, token = secret
    rules = tmp_path / "rules"
    (rules / "parent.yaml").symlink_to(victim / "creds.yaml")
    child = write(rules, "child.yaml", "name: child\nextends: parent.yaml\n")
    assert_refused_without_leak(["check", str(child)], token, ["Y120"])
    (found,) = check_file(child)
    assert (found.code, found.line, found.col) == ("Y120", 2, 10)


def test_a_symlinked_rule_file_pointing_out_is_not_read(secret: tuple[Path, str], tmp_path: Path) -> None:
    victim, token = secret
    rules = tmp_path / "rules"
    (rules / "innocent.yaml").symlink_to(victim / "credentials")
    (rules / "mapping.yaml").symlink_to(victim / "creds.yaml")
    shown = assert_refused_without_leak(["check", str(rules)], token, ["Y122"])
    assert shown.count("Y122") == 2
    assert_refused_without_leak(["check", str(rules / "innocent.yaml")], token, ["Y122"])


def test_game_split_to_a_secret_is_refused_in_check_and_showdown(secret: tuple[Path, str], tmp_path: Path) -> None:
    victim, token = secret
    rules = tmp_path / "rules"
    split = (
        "name: hilo\nextends: standard\ngame: {hole: 5, board: 0, split: "
        "[{name: high, ruleset: standard}, {name: low, ruleset: TARGET}]}\n"
    )
    for target in ("../victim/creds.yaml", str(victim / "credentials")):
        rule = write(rules, "hilo.yaml", split.replace("TARGET", target))
        assert_refused_without_leak(["check", str(rule)], token, ["Y120"])
        code, out, err = run_cli(["showdown", str(rule), "As Ks Qs Js Ts", "2c 3c 4c 5c 7d"])
        assert code == 1 and token not in out + err and "Y120" in err


PAYTABLE = "paytable: p\nruleset: TARGET\npays: {royal_flush: 800, flush: 6}\n"


@pytest.mark.parametrize("report", ["text", "json", "github"])
def test_a_pay_table_naming_a_secret_is_refused_without_a_byte_of_it(
    secret: tuple[Path, str], tmp_path: Path, report: str
) -> None:
    victim, token = secret
    rules = tmp_path / "rules"
    as_json = ["--json"] if report == "json" else []
    for target in ("shadow.yml", "creds.yaml", "credentials"):
        for written in (str(victim / target), f"../../victim/{target}"):
            table = write(rules, "sub/pays.yaml", PAYTABLE.replace("TARGET", written))
            shown = assert_refused_without_leak(["check", "--format", report, str(table)], token, ["Y120"])
            if report == "text":
                assert shown.startswith(f"{table}:2:10: error Y120: ruleset: ")
            draw = ["draw", "jacks-or-better-video", "--paytable", str(table), *as_json]
            shown = assert_refused_without_leak(draw, token, ["Y120"])
            assert shown.startswith('{"error": {"code": "Y120"' if as_json else f"{table}:2:10: error Y120: ")
    # a symbolic link out of the tree, and a pay table that is itself one
    (rules / "sub" / "link.yml").symlink_to(victim / "shadow.yml")
    table = write(rules, "sub/pays.yaml", PAYTABLE.replace("TARGET", "link.yml"))
    assert_refused_without_leak(["check", "--format", report, str(table)], token, ["Y120"])
    assert_refused_without_leak(["draw", "jacks-or-better-video", "--paytable", str(table), *as_json], token, ["Y120"])
    (rules / "linked-table.yaml").symlink_to(victim / "shadow.yml")
    argv = ["draw", "jacks-or-better-video", "--paytable", str(rules / "linked-table.yaml"), *as_json]
    assert_refused_without_leak(argv, token, ["Y122"])
    assert_refused_without_leak(["check", "--format", report, str(rules / "linked-table.yaml")], token, ["Y122"])
    # inside the tree, a file that is not a ruleset is never quoted either
    write(rules, "sub/notes.yaml", f"{token}: 1\n")
    table = write(rules, "sub/pays.yaml", PAYTABLE.replace("TARGET", "notes.yaml"))
    assert_refused_without_leak(["check", "--format", report, str(table)], token, ["Y121"])
    assert_refused_without_leak(["draw", "jacks-or-better-video", "--paytable", str(table), *as_json], token, ["Y121"])


def test_a_pay_table_reaches_a_root_named_on_the_command_line(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    write(shared, "video.yaml", (REPO / "rulesets" / "jacks-or-better-video.yaml").read_text(encoding="utf-8"))
    table = write(tmp_path / "tables", "pays.yaml", PAYTABLE.replace("TARGET", "../shared/video.yaml"))
    assert [d.code for d in check_file(table)] == ["Y120"]
    assert check_file(table, (str(shared),)) == []
    assert run_cli(["check", "--root", str(shared), str(table)])[0] == 0
    assert load_paytable(table, root=shared).ruleset.name == "jacks-or-better-video"
    with pytest.raises(PokerRulesError) as info:
        load_paytable(table)
    assert info.value.code == "Y120"
    code, _, err = run_cli(["draw", "standard", "--paytable", str(table)])
    assert code == 1 and " error Y120: " in err
    code, _, err = run_cli(["draw", "standard", "--paytable", str(table), "--root", str(shared)])
    assert code == 1 and "D114: pay table 'p' plays ruleset 'jacks-or-better-video'" in err  # loaded: the game differs


def test_files_inside_the_tree_that_are_not_rulesets_are_never_quoted(secret: tuple[Path, str], tmp_path: Path) -> None:
    victim, token = secret
    rules = tmp_path / "rules"
    write(rules, ".env", f"AWS_SECRET={token}\n")  # a plain scalar: Y108 in a file named itself
    write(rules, "notes.yaml", f"password: {token}\nuser: {token}\n")  # a mapping, but not of ruleset keys
    write(rules, "broken.txt", f"key: [{token}\n")  # a YAML syntax error, which would quote the line
    for target, code in (("./.env", "Y108"), ("./notes.yaml", "Y121"), ("./broken.txt", "Y103")):
        rule = write(rules, "r.yaml", f"name: r\nextends: {target}\n")
        shown = assert_refused_without_leak(["check", str(rule)], token, [code])
        assert "content is not shown" in shown
        hilo = write(
            rules,
            "hilo.yaml",
            "name: hilo\nextends: standard\ngame: {hole: 5, board: 0, split: "
            f"[{{name: high, ruleset: standard}}, {{name: low, ruleset: {target}}}]}}\n",
        )
        assert_refused_without_leak(["check", str(hilo)], token, [code])
    # with the victim's folder named as a root, a non-ruleset there is still not quoted
    rule = write(rules, "r.yaml", "name: r\nextends: ../victim/creds.yaml\n")
    assert_refused_without_leak(["check", "--root", str(victim), str(rule)], token, ["Y121"])


def test_errors_of_a_ruleset_parent_inside_the_tree_are_still_shown(tmp_path: Path) -> None:
    write(tmp_path, "parent.yaml", SMALL.replace('"XX Y Z W"', '"XX Y Z W &"'))
    child = write(tmp_path, "child.yaml", "extends: parent.yaml\n")
    (found,) = check_file(child)
    assert found.code == "P101" and found.source == str(tmp_path / "parent.yaml")
    assert found.context is not None and "XX Y Z W &" in found.context


def test_urls_and_home_paths_are_refused(tmp_path: Path) -> None:
    for target in ("https://example.invalid/r.yaml", "file:///etc/passwd", "~/r.yaml", "C:/r.yaml"):
        rule = write(tmp_path, "r.yaml", f"name: r\nextends: '{target}'\n")
        (found,) = check_file(rule)
        assert (found.code, found.line) == ("Y120", 2), target


def test_the_python_api_confines_and_takes_a_root(secret: tuple[Path, str], tmp_path: Path) -> None:
    victim, token = secret
    write(tmp_path, "base.yaml", SMALL)
    child = write(tmp_path / "rules", "child.yaml", "name: child\nextends: ../base.yaml\n")
    with pytest.raises(PokerRulesError) as info:
        load(child)
    assert info.value.code == "Y120" and token not in str(info.value)
    assert load(child, root=tmp_path).name == "child"
    assert load_document(child, root=[tmp_path]).data["name"] == "child"


def test_each_parent_is_parsed_once_per_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own_cache: Path) -> None:
    # (a cache of its own: a file parsed before, by another test, would be read back, not parsed)
    load_module = sys.modules["evaluator.rules.load"]  # the module (evaluator.load is the function)

    write(tmp_path, "base.yaml", SMALL)
    for n in range(5):
        write(tmp_path, f"child{n}.yaml", f"name: child{n}\nextends: base.yaml\nace: high\n")
    read: list[str] = []
    real = load_module.parse_yaml

    def parse(text: str, source: str) -> object:
        read.append(Path(source).name)
        return real(text, source)

    monkeypatch.setattr(load_module, "parse_yaml", parse)
    load_module._PARSED.clear()
    diagnostics, _ = check_paths([str(tmp_path)])
    assert read.count("base.yaml") == 1
    assert sorted(read) == sorted(["base.yaml", *(f"child{n}.yaml" for n in range(5))])


def test_ruleset_keys_are_the_schema_keys() -> None:
    assert set(schema()["properties"]) == RULESET_KEYS


# --------------------------------------------------------------------------- output that cannot inject


INJECTING = f"""\
name: injecting
extends: standard
title: "title{ESC_ATTACK}{BIDI_ATTACK}"
categories:
  pair: {{pattern: "XX Y Z W", describe: "pair{WORKFLOW_ATTACK}{ESC_ATTACK}{BIDI_ATTACK}"}}
examples:
  - "2s 2h 5d 7c 9s is high_card"
  - "As Ks 5d 7c 9s is high_card{WORKFLOW_ATTACK}{ESC_ATTACK}{BIDI_ATTACK}"
"""

RAW = ("\x1b", "\x07", "\u202e", "\u2066")


def assert_clean(text: str, workflow_lines: bool = False) -> None:
    """No raw control, escape or bidi character; no line a workflow runner would take as a command."""
    assert not any(char in text for char in RAW), repr(text)
    for line in text.splitlines():
        assert workflow_lines or not line.startswith("::"), line
        assert not line.startswith("::") or line.startswith(("::error file=", "::warning file="))


@pytest.mark.parametrize("report", ["text", "json", "github"])
def test_check_output_cannot_inject(tmp_path: Path, report: str) -> None:
    rule = write(tmp_path, "r.yaml", INJECTING)
    code, out, err = run_cli(["check", "--format", report, str(rule)])
    assert code == 1 and "owned" in out
    assert_clean(out, workflow_lines=report == "github")
    assert_clean(err)
    if report == "github":
        # one annotation per diagnostic, whatever the messages hold
        assert all(line.startswith(("::error file=", "::warning file=")) for line in out.splitlines())
        assert "owned" in out and "%0A::" not in out.split("title=")[1]
    if report == "json":
        # JSON escaping keeps every value as written, except that a workflow command is made inert
        messages = [item["message"] for item in json.loads(out)]
        assert any("\x1b[2K" in m and "\u202e" in m and "\n:\\x3aerror" in m for m in messages)
    if report == "text":
        assert "\\x0a:\\x3aerror file=.github/workflows/ci.yml" in out and "\\x1b[2K" in out and "\\u202e" in out


def test_eval_and_showdown_output_cannot_inject(tmp_path: Path) -> None:
    rule = write(tmp_path, "r.yaml", INJECTING)
    code, out, _ = run_cli(["eval", str(rule), "2s 2h 5d 7c 9s"])
    assert code == 0 and "\\x0a:\\x3aerror" in out
    assert_clean(out)
    code, out, _ = run_cli(["eval", "--json", str(rule), "2s 2h 5d 7c 9s"])
    assert code == 0 and "\\u202e" in out
    assert_clean(out)
    assert json.loads(out)["description"].startswith("pair\n:\\x3aerror")
    for extra in ([], ["--json"]):
        code, out, _ = run_cli(["showdown", *extra, str(rule), "2s 2h 5d 7c 9s", "3s 3h 5c 7d 9h"])
        assert code == 0
        assert_clean(out)


def test_file_names_cannot_inject(tmp_path: Path) -> None:
    folder = tmp_path / "::error file=x::\x1b[2K\u202e"
    folder.mkdir()
    rule = write(folder, "r\x1b]0;t\x07.yaml", SMALL.replace("order: [", "order: [nope, "))
    for report in ("text", "json", "github"):
        code, out, _ = run_cli(["check", "--format", report, str(rule)])
        assert code == 1
        assert not any(char in out for char in RAW)
        assert "]0;t" in out and "R101" in out  # the name is there, escaped
    # a relative name that starts with "::" is printed as ./::..., never at the start of a line
    assert str(Diagnostic("R101", "m", "::error file=x::.yaml", 1, 1)).startswith("./::error file=x::.yaml:1:1:")


def test_a_file_name_that_is_not_utf8_never_crashes_strict_stdout(tmp_path: Path) -> None:
    folder = tmp_path / "names"
    folder.mkdir()
    name = os.fsencode(folder) + b"/r\xff\xfe.yaml"
    with open(name, "w", encoding="utf-8") as stream:
        stream.write(SMALL.replace("order: [", "order: [nope, "))
    strict = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONIOENCODING": "utf-8:strict"}
    done = run_process(["check", os.fsdecode(folder)], env=strict)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and "UnicodeEncodeError" not in done.stderr
    assert "r\\xff\\xfe.yaml:14:9: error R101" in done.stdout


def test_the_escaping_functions() -> None:
    shown = "a\\x1b[2Kb\\x9b\\x7f\\u202e\\u2069\\u200f\\u061c\\x0a\\x09"
    assert visible("a\x1b[2Kb\x9b\x7f\u202e\u2069\u200f\u061c\n\t") == shown
    assert visible("plain text, ♠ ♥ — é") == "plain text, ♠ ♥ — é"
    assert visible("\udcff") == "\\xff"  # a byte that was not UTF-8 (surrogateescape)
    assert json.loads(json_text(json.dumps("x\u202e\x85", ensure_ascii=False))) == "x\u202e\x85"
    assert "\u202e" not in json_text(json.dumps("x\u202e", ensure_ascii=False))
    assert github_data("100%\r\n::x") == "100%25%0D%0A:\\x3ax"
    diagnostic = Diagnostic("E101", "a\n::error::b\x1b", "r.yaml", 1, 1)
    assert render([diagnostic], "github") == "::error file=r.yaml,line=1,col=1,title=E101::a\\x0a:\\x3aerror::b\\x1b\n"
    assert "\n" not in str(diagnostic)


# --------------------------------------------------------------------------- bounded work


def ten_card_rules(examples: int, cards: str = DECK) -> str:
    lines = "".join(f'  - "{cards} is flushy"\n' for _ in range(examples))
    return (
        "name: ten\ndeck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A], suits: [s, h, d, c]}\n"
        "hand: {size: 10, min: 10}\ncategories:\n  flushy: {pattern: flush}\n  other: {pattern: not flush}\n"
        f"order: [flushy, other]\nexamples:\n{lines}"
    )


def test_a_52_card_example_with_hands_of_ten_is_refused_not_run(tmp_path: Path) -> None:
    rule = write(tmp_path, "ten.yaml", ten_card_rules(1))
    done = run_process(["check", str(rule)])
    assert done.returncode == 1
    assert f"{rule}:9:6: error R120: this example needs 15,820,024,220 hands tried" in done.stdout


def test_ten_such_examples_each_refused(tmp_path: Path) -> None:
    rule = write(tmp_path, "ten.yaml", ten_card_rules(10))
    done = run_process(["check", "--format", "json", str(rule)])
    found = [(d["code"], d["line"]) for d in json.loads(done.stdout)]
    assert [line for code, line in found if code == "R120"] == list(range(9, 19))


def test_examples_together_have_a_budget(tmp_path: Path) -> None:
    # 16 cards, hands of ten: 8,008 hands each; 200,000 together is 24 such examples
    sixteen = " ".join(DECK.split()[:16])
    rule = write(tmp_path, "ten.yaml", ten_card_rules(40, sixteen))
    found = check_file(rule)
    budget = [d for d in found if d.code == "W120"]
    assert len(budget) == 1 and budget[0].line == 9 + 24
    assert not [d for d in found if d.code in ("R120", "E101", "E103")]


def test_eval_of_a_big_holding_is_refused_not_run() -> None:
    done = run_process(["eval", "standard", DECK])
    assert done.returncode == 1
    assert "R122: choosing the best 5 of 52 cards means trying 2,598,960 hands" in done.stderr
    assert load("standard").evaluate(" ".join(DECK.split()[:12])).category == "straight_flush"


def test_sixty_categories_of_long_alternatives_are_refused(tmp_path: Path) -> None:
    alternative = "(XX Y Z W & X = {})"
    pattern = " | ".join(alternative.format(rank) for rank in "23456789TJQKA23456789TJQ")[:480].rsplit(" | ", 1)[0]
    categories = "".join(f'  c{n}: {{pattern: "{pattern}"}}\n' for n in range(59))
    deck = "deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A], suits: [s, h, d, c]}\n"
    order = "order: [" + ", ".join(f"c{n}" for n in range(59)) + ", rest]\n"
    rule = write(
        tmp_path,
        "pat.yaml",
        "name: pat\n"
        + deck
        + "hand: {size: 5}\ncategories:\n"
        + categories
        + '  rest: {pattern: "not (XX Y Z W)"}\n'
        + order,
    )
    done = run_process(["check", str(rule)])
    assert done.returncode == 1
    assert f"{rule}:5:18: error R121: the categories' patterns have" in done.stdout
    done = run_process(["eval", str(rule), "2s 2h 5d 7c 9s"])
    assert done.returncode == 1 and "R121" in done.stderr


def megabyte_chain(folder: Path, files: int = 6) -> Path:
    for n in range(files):
        parent = f"extends: f{n + 1}.yaml\n" if n + 1 < files else ""
        body = f"name: f{n}\n{parent}categories:\n"
        row = 0
        while len(body) < 1_000_000:
            body += f'  c{row}: {{pattern: "XX Y Z W", describe: "{"d" * 400}"}}\n'
            row += 1
        write(folder, f"f{n}.yaml", body)
    return folder / "f0.yaml"


def test_a_chain_of_megabyte_files_is_refused_early(tmp_path: Path) -> None:
    first = megabyte_chain(tmp_path)
    done = run_process(["check", str(first)])
    assert done.returncode == 1
    assert done.stdout.startswith(f"{first}:2:10: error Y124: the extends chain is too large")
    # the whole folder: each file is read once, its parent refused by its size before it is read
    done = run_process(["check", "--format", "json", str(tmp_path)], timeout=180)
    codes = [d["code"] for d in json.loads(done.stdout)]
    assert codes.count("Y124") == 5
    # that took seconds: plain progress lines on stderr, which is a pipe here, not a terminal
    progress = done.stderr.splitlines()
    assert progress and all(line.startswith("pokerrules check: ") and line.endswith(" files) ...") for line in progress)


def test_progress_reports_a_long_step_while_it_runs() -> None:
    from evaluator.core.progress import Progress

    stream = io.StringIO()
    with Progress("pokerrules check", stream, delay=0.05, every=0.05) as progress:
        progress.step("slow.yaml (1 of 1 files)")
        time.sleep(0.3)
    lines = stream.getvalue().splitlines()
    assert lines and all(line == "pokerrules check: slow.yaml (1 of 1 files) ..." for line in lines)
    quiet = io.StringIO()
    with Progress("pokerrules check", quiet, delay=5.0) as progress:
        progress.step("fast.yaml")
    assert quiet.getvalue() == ""


# --------------------------------------------------------------------------- smaller items


def test_an_unreadable_subfolder_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "good.yaml", SMALL)
    locked = tmp_path / "locked"
    write(locked, "hidden.yaml", SMALL)
    real_scandir = os.scandir

    def scandir(path: object = ".") -> object:
        if Path(os.fsdecode(path)) == locked:  # type: ignore[arg-type]
            raise PermissionError(13, "Permission denied", str(locked))
        return real_scandir(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)
    code, out, _ = run_cli(["check", str(tmp_path)])
    assert code == 1
    assert f"{locked}:1:1: error Y125: cannot read this folder (Permission denied)" in out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_fifo_or_a_device_named_explicitly_is_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    done = run_process(["check", str(fifo), "/dev/zero"], timeout=60)
    assert done.returncode == 1
    assert f"{fifo}:1:1: error Y101: cannot read this: not a regular file" in done.stdout
    assert "/dev/zero:1:1: error Y101: cannot read this: not a regular file" in done.stdout
    done = run_process(["eval", str(fifo), "As Ks Qs Js Ts"], timeout=60)
    assert done.returncode == 1 and "not a regular file" in done.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_ctrl_c_exits_130_with_one_line() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = subprocess.Popen(
        [sys.executable, "-m", "evaluator", "eval", "standard", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        # Ctrl-C as a terminal delivers it: a test worker may run with SIGINT ignored, and
        # an ignored signal stays ignored across exec (Python then installs no handler)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert child.stdin is not None
        child.stdin.write("As Ks Qs Js Ts\n")
        child.stdin.flush()
        # its answer is out, so the command is past starting up and reading stdin again (it
        # has not seen its end); a fixed wait could land in start-up on a loaded machine
        assert child.stdout is not None
        assert child.stdout.readline().startswith("As Ks Qs Js Ts  royal_flush")
        time.sleep(0.5)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 130, err
    assert err == "pokerrules: interrupted\n"


def test_diff_html_refuses_a_symlink_and_writes_to_stdout(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.html"
    target.write_text("keep me", encoding="utf-8")
    link = tmp_path / "report.html"
    link.symlink_to(target)
    code, out, err = run_cli(["diff", "standard", "short-deck", "--samples", "200", "--html", str(link)])
    assert code == 1 and "symbolic link" in err
    assert target.read_text(encoding="utf-8") == "keep me" and link.is_symlink()
    code, out, _ = run_cli(["diff", "standard", "short-deck", "--samples", "200", "--html", "-"])
    assert code == 0 and out.startswith("<!DOCTYPE html>")
    done = run_process(["diff", "standard", "short-deck", "--samples", "200", "--html", "/dev/stdout"], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "<!DOCTYPE html>" in done.stdout
    assert not list(Path("/dev").glob(".stdout.*"))


def test_every_command_that_loads_a_ruleset_takes_root(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", SMALL)
    child = write(tmp_path / "rules", "child.yaml", "name: child\nextends: ../base.yaml\n")
    assert run_cli(["eval", str(child), "As Ah Ks Qd Jc"])[0] == 1
    for argv in (
        ["eval", str(child), "As Ah Ks Qd Jc"],
        ["showdown", str(child), "As Ah Ks Qd Jc", "Kh Kd Qs Jd 9c"],
        ["stats", str(child)],
        ["diff", str(child), str(child), "--samples", "100"],
    ):
        code, out, err = run_cli([*argv, "--root", str(tmp_path)])
        assert code == 0, (argv, err)
    assert run_cli(["eval", str(child), "As Ah Ks Qd Jc", "--root", str(tmp_path)])[1].split()[-1] == "pair"


def test_chart_html_refuses_a_symlink_and_writes_to_stdout(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.html"
    target.write_text("keep me", encoding="utf-8")
    link = tmp_path / "chart.html"
    link.symlink_to(target)
    argv = ["chart", "twenty-card", "--samples", "50", "--seed", "3"]
    code, out, err = run_cli([*argv, "--html", str(link)])
    assert code == 1 and "symbolic link" in err and out == ""
    assert target.read_text(encoding="utf-8") == "keep me" and link.is_symlink()
    code, out, _ = run_cli([*argv, "--html", "-"])
    assert code == 0 and out.startswith("<!DOCTYPE html>")
    page = tmp_path / "real.html"
    assert run_cli([*argv, "--html", str(page)])[0] == 0
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert not list(tmp_path.glob(".real.html.*"))  # no temporary left behind


def test_a_title_is_one_line_wherever_it_is_shown(tmp_path: Path) -> None:
    # a title with line breaks would split a report's line and start the rest on a new one
    rule = write(
        tmp_path, "broken.yaml", 'name: broken\nextends: standard\ntitle: "first\\n::notice::second\\r\\nthird"\n'
    )
    assert load(str(rule)).title == "first ::notice::second third"
    code, out, _ = run_cli(["stats", str(rule)])
    assert code == 0
    assert out.splitlines()[0] == "broken: first ::notice::second third"
    paytable = write(
        tmp_path,
        "pays.yaml",
        'paytable: pays\ntitle: "two\\nlines"\nruleset: jacks-or-better-video\npays: {jacks_or_better: 1}\n',
    )
    assert load_paytable(str(paytable)).title == "two lines"
