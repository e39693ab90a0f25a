"""The command line's last line of defence: a bug (an exception that is not a
``PokerRulesError``) is one ``internal error`` line naming the command, the
version and where to report it, exit 70 -- a JSON error object under --json --
and never a traceback; and in the test suite it is raised instead, so the
guard hides nothing here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from evaluator.cli import main as cli
from evaluator.cli.args import installed_version
from evaluator.cli.output import EXIT_INTERNAL, RAISE_INTERNAL_ENV
from evaluator.tools import check

SCHEMAS = Path(__file__).resolve().parents[1] / "docs" / "json"


def _broken(args: Any, out: Any) -> int:
    out.write("partial")  # what a command printed before the bug stays printed; the error goes to stderr
    raise IndexError("list index out of range")


@pytest.fixture
def guard_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The guard as users have it (the suite turns it into a re-raise), with a broken `list`."""
    monkeypatch.delenv(RAISE_INTERNAL_ENV, raising=False)
    monkeypatch.setitem(cli.COMMANDS, "list", _broken)


def test_the_suite_raises_internal_errors() -> None:
    """conftest.py sets the variable for the whole run (and for subprocesses)."""
    assert os.environ.get(RAISE_INTERNAL_ENV) == "1"


def test_a_bug_propagates_in_the_suite(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(cli.COMMANDS, "list", _broken)
    with pytest.raises(IndexError):
        cli.main(["list"])


@pytest.mark.usefixtures("guard_on")
def test_a_bug_is_one_line_and_exit_70(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["list"]) == EXIT_INTERNAL == 70
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("pokerrules list: internal error (")
    assert f"pokerrules {installed_version()}" in err
    assert "IndexError: list index out of range" in err
    assert "report it with the command and the file" in err and "README.md" in err


@pytest.mark.usefixtures("guard_on")
def test_a_bug_under_json_is_an_error_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["list", "--json"]) == EXIT_INTERNAL
    err = capsys.readouterr().err
    (line,) = err.splitlines()
    data = json.loads(line)
    schema = json.loads((SCHEMAS / "error.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(data)
    assert data["error"]["code"] == "internal"
    assert data["error"]["path"] is None and "pokerrules list: internal error" in data["error"]["message"]


@pytest.mark.usefixtures("guard_on")
def test_input_errors_keep_their_codes(capsys: pytest.CaptureFixture[str]) -> None:
    """The guard is the last handler: a user's error is still exit 1 with its code."""
    assert cli.main(["eval", "standard", "As Kd Qh Jc Zs"]) == 1
    assert "error C101" in capsys.readouterr().err


def test_a_real_process_prints_no_traceback() -> None:
    """End to end, outside the suite's setting: a bug in a command, exit 70, one line on stderr."""
    env = {k: v for k, v in os.environ.items() if k != RAISE_INTERNAL_ENV}
    script = (
        "import sys\n"
        "from evaluator.cli import main as cli\n"
        "def broken(args, out):\n"
        "    raise KeyError('boom')\n"
        "cli.COMMANDS['list'] = broken\n"
        "sys.exit(cli.main(['list']))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 70
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "internal error" in done.stderr and "KeyError" in done.stderr


def test_check_raises_its_internal_errors_in_the_suite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """check reports a bug as an R199 diagnostic for users; in the suite the bug propagates."""
    path = tmp_path / "a.yaml"
    path.write_text("name: a\nextends: standard\n", encoding="utf-8")

    def boom(self: object) -> list[object]:
        raise ZeroDivisionError("simulated bug")

    monkeypatch.setattr(check._Linter, "diagnostics", boom)
    with pytest.raises(ZeroDivisionError):
        check.check_file(path)
    monkeypatch.delenv(RAISE_INTERNAL_ENV)
    assert [d.code for d in check.check_file(path)] == ["R199"]
