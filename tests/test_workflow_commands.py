"""No GitHub workflow command reaches a CI log through pokerrules's output.

The Actions runner reads every line a step prints, on stdout and stderr, and
acts on two forms: ``##[command]data`` anywhere in a line (``##[add-mask]``,
``##[set-output name=x;]``) and ``::command props::data`` at the start of a
line once leading white space is trimmed. A lone CR ends a line for the
runner as LF does. :func:`runner_acts_on` writes that rule down; every test
here runs a command on hostile rule files (titles, descriptions, sources,
notes, half names, pay-table titles and a file stem, each holding all three;
category and pay-table names cannot, as the schema allows ``[a-z][a-z0-9_]*``)
and asserts that no line of stdout or stderr is one the runner acts on. For
JSON output the decoded strings are checked too: a consumer that prints a
value must not run a command either. ``check --format github`` is the one
output that prints commands of its own: exactly one annotation per
diagnostic, with escaped properties and message.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import time
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from samples import SMALL

from evaluator.cli.main import main
from evaluator.core import progress, safe_text

pytestmark = pytest.mark.usefixtures("table_cache")

#: Every character Python, .NET or a browser may take as the end of a line.
LINE_BREAKS = "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"

#: Each form of workflow command, after each kind of line break and leading white space.
HOSTILE = (
    "##[set-output name=v;]pass ##[add-mask]k\r::error file=a.py::cr\n  ::warning::lf"
    "\u2028::x\u2029::x\x85::x\x0b::x\x0c::x\n\t::x\r\u00a0::x ::"
)

#: The same, short enough for a name (at most 64 characters).
SHORT = "##[add-mask]k\r::error::n\n  ::warning::n \u2028::x"

#: A file stem the rule file's name defaults to: a lone CR, then a command, then ``##[``.
STEM = "\r::error file=stem.py::stem ##[add-mask]k\n  ::warning::stem"
#: The runner's annotation lines ``check --format github`` means to print.
ANNOTATION = re.compile(r"::(error|warning) file=[^:,\r\n]*,line=\d+,col=\d+,title=[A-Z]\d{3}::[^\r\n]*")


def runner_acts_on(text: str) -> list[str]:
    """The lines of ``text`` the Actions runner would act on as workflow commands.

    >>> runner_acts_on("ok\\r  ::error::x")
    ['  ::error::x']
    >>> runner_acts_on("a ##[add-mask]b")
    ['a ##[add-mask]b']
    >>> runner_acts_on("a :: b ##\\\\x5b")
    []
    """
    return [line for line in re.split(f"[{LINE_BREAKS}]", text) if line.lstrip().startswith("::") or "##[" in line]


def yaml_string(text: str) -> str:
    """``text`` as a YAML double-quoted scalar (JSON's escapes are YAML's)."""
    return json.dumps(text)


def describe(category: str, pattern: str) -> str:
    """A category line of a ruleset whose description holds the hostile text."""
    placeholder = " {X:plural}" if "X" in pattern else ""
    return f"{category}: {{pattern: {json.dumps(pattern)}, describe: {yaml_string(category + placeholder + ' ' + HOSTILE)}}}"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Hostile rule files in one folder: paths by role."""
    folder = tmp_path_factory.mktemp("hostile")
    text = yaml_string(HOSTILE)
    base = SMALL.replace("name: small\n", f"title: {text}\nsource: {text}\n")
    # every category describes its hands with the hostile text
    base = re.sub(r'(\w+): +\{pattern: "([^"]+)"\}', lambda m: describe(m[1], m[2]), base)
    base += f"beats:\n  - {{winner: high_card, loser: pair, note: {text}}}\n"
    rule = folder / f"{STEM}.yaml"
    rule.write_text(base, encoding="utf-8")
    # the same game played low, so that diff has flips and changed showdowns to show
    (folder / "low.yaml").write_text(base + "direction: low\n", encoding="utf-8")
    split = (
        f"title: {text}\nextends: {yaml_string(rule.name)}\ngame:\n  hole: 2\n  board: 3\n"
        f"  split:\n    - {{name: {yaml_string(SHORT)}, ruleset: {yaml_string(rule.name)}}}\n"
        f"    - {{name: {yaml_string('low ' + SHORT)}, ruleset: low.yaml}}\n"
    )
    (folder / "split.yaml").write_text(split, encoding="utf-8")
    pays = (
        f"paytable: hostile\ntitle: {text}\nruleset: {yaml_string(rule.name)}\n"
        f"pays: {{four_of_a_kind: 25, full_house: 9, pair: 1}}\n"
        f"published: {{return: 99.0, source: {text}}}\n"
    )
    (folder / "pays.yaml").write_text(pays, encoding="utf-8")
    (folder / "pays2.yaml").write_text(pays.replace("pair: 1", "pair: 2"), encoding="utf-8")
    # check only: a wrong example (its message quotes the description), a pattern shown as context
    (folder / "examples.yaml").write_text(
        base + f"examples:\n  - {{hand: 9s 9h Td Jc Ks, description: {text}, note: {text}}}\n", encoding="utf-8"
    )
    (folder / "broken.yaml").write_text(
        SMALL.replace('{pattern: "XX Y Z W"}', '{pattern: "XX Y Z W ::error file=p.py::pattern ##[x]"}'),
        encoding="utf-8",
    )
    # a YAML error shows its source line indented under the message: here a command
    (folder / "syntax.yaml").write_text("name: syntax\n  ::error file=s.py::yaml##[add-mask]k: a\n", encoding="utf-8")
    (folder / "hands.txt").write_text(f"{HANDS[0]} | {HANDS[1]}\n9s ##[add-mask]x{STEM}\n", encoding="utf-8")
    return {
        "folder": str(folder),
        "rule": str(rule),
        "low": str(folder / "low.yaml"),
        "split": str(folder / "split.yaml"),
        "pays": str(folder / "pays.yaml"),
        "pays2": str(folder / "pays2.yaml"),
        "hands": str(folder / "hands.txt"),
    }


HANDS = ["9s 9h Td Jc Ks", "As Ah Qd Tc Kh"]

#: (id, argv with {role} placeholders, whether ``--json`` applies).
COMMANDS: list[tuple[str, list[str], bool]] = [
    ("list", ["list"], True),
    ("check-text", ["check", "{folder}"], False),
    ("check-json", ["check", "--format", "json", "{folder}"], False),
    ("check-github", ["check", "--format", "github", "{folder}"], False),
    ("check-missing-path", ["check", "{folder}/" + STEM + "-missing.yaml"], True),
    ("usage-error", ["check", "--format", HOSTILE, "{rule}"], True),
    ("usage-error-command", [STEM], True),
    ("eval", ["eval", "{rule}", HANDS[0]], True),
    ("eval-stream", ["eval", "{rule}", *HANDS], True),
    ("eval-bad-hand", ["eval", "{rule}", "9s ##[add-mask]x" + STEM], True),
    ("showdown", ["showdown", "{rule}", *HANDS], True),
    ("showdown-split", ["showdown", "{split}", "9s 9h", "As Ah", "--board", "Td Jc Kh"], True),
    ("showdown-from", ["showdown", "{rule}", "--from", "{hands}"], True),
    ("compare", ["compare", "{rule}", *HANDS], True),
    ("stats", ["stats", "{rule}"], True),
    ("stats-game", ["stats", "{split}", "--samples", "300", "--seed", "1"], True),
    ("diff", ["diff", "{rule}", "{low}", "--samples", "300", "--seed", "1"], True),
    ("draw-next", ["draw", "{rule}", HANDS[0], "--next", "As Ah Ad Ac Kh"], True),
    ("draw-discard", ["draw", "{rule}", HANDS[0], "--discard", "Td Jc Ks"], True),
    ("draw-holds", ["draw", "{rule}", HANDS[0], "--paytable", "{pays}"], True),
    ("draw-return", ["draw", "{rule}", "--paytable", "{pays}"], True),
    ("draw-against", ["draw", "{rule}", "--paytable", "{pays}", "--against", "{pays2}"], True),
    ("draw-mismatch", ["draw", "{low}", "--paytable", "{pays}"], True),
    ("odds", ["odds", "{rule}", "9s 9h", "Ts Js"], True),
    ("odds-against", ["odds", "{rule}", "9s 9h", "Ts Js", "--against", "{low}"], True),
    ("odds-split", ["odds", "{split}", "9s 9h", "As Ah"], True),
    ("outs", ["outs", "{rule}", "9s 9h", "Ts Js", "--board", "Td Jc 9c"], True),
    ("chart", ["chart", "{rule}", "--samples", "200", "--seed", "1"], True),
    ("chart-against", ["chart", "{rule}", "--against", "{low}", "--samples", "200", "--seed", "1"], True),
    ("chart-csv", ["chart", "{rule}", "--samples", "200", "--seed", "1", "--csv"], False),
]

#: Commands whose progress (lines or a bar on stderr, naming the ruleset or file) the matrix sees.
WITH_PROGRESS = {"check-text", "check-json", "check-github", "stats", "odds", "chart", "chart-against"}

CASES = [
    pytest.param(name, argv, as_json, id=f"{name}{'-json' if as_json else ''}")
    for name, argv, json_too in COMMANDS
    for as_json in ((False, True) if json_too else (False,))
]


@pytest.fixture()
def eager_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    """Progress lines and bars from the first moment, so that every command shows its own."""
    bar_init, lines_init = progress.Bar.__init__, progress.Progress.__init__

    def bar(
        self: progress.Bar, label: str, stream: Any = None, delay: float = 1.0, clock: Any = time.monotonic
    ) -> None:
        bar_init(self, label, stream, 0.0, clock)

    def lines(self: progress.Progress, label: str, stream: Any = None, delay: float = 1.0, every: float = 5.0) -> None:
        lines_init(self, label, stream, 0.0, every)

    monkeypatch.setattr(progress.Bar, "__init__", bar)
    monkeypatch.setattr(progress.Progress, "__init__", lines)


def run_cli(argv: Sequence[str]) -> tuple[int, str, str]:
    """The command line in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def json_values(text: str) -> Iterator[Any]:
    """The JSON documents of ``text``: one indented document, or one per line (JSON Lines)."""
    try:
        yield json.loads(text)
    except json.JSONDecodeError:
        for line in text.splitlines():
            yield json.loads(line)


def strings(value: Any) -> Iterator[str]:
    """Every string in a decoded JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


@pytest.mark.usefixtures("eager_progress")
@pytest.mark.parametrize(("name", "argv", "as_json"), CASES)
def test_no_command_reaches_the_runner(hostile: dict[str, str], name: str, argv: list[str], as_json: bool) -> None:
    command = [part.format(**hostile) for part in argv]
    command = [*command, "--json"] if as_json else command
    code, out, err = run_cli(command)
    assert code in ((2,) if name.startswith("usage") else (0, 1)), (code, err)
    assert out or err
    if name in WITH_PROGRESS:  # the hostile file stem is in the progress on stderr
        assert "stem.py::stem ##" in err, err
    github = "github" in command
    for stream in (out, err):
        acted = runner_acts_on(stream)
        if github and stream is out:
            assert all(ANNOTATION.fullmatch(line) for line in acted), acted
            assert len(acted) == len(out.splitlines()) > 0
        else:
            assert acted == [], acted
    json_out = as_json or "json" in command
    if json_out and out:
        for document in json_values(out):
            assert [s for s in strings(document) if runner_acts_on(s)] == []
    if json_out and err.startswith("{"):
        for document in json_values(err):
            assert [s for s in strings(document) if runner_acts_on(s)] == []


def test_the_hostile_text_reaches_the_output_escaped(hostile: dict[str, str]) -> None:
    # the matrix would pass on a command that printed nothing of the file: each field is there, readable
    code, out, _ = run_cli(["eval", hostile["rule"], HANDS[0]])
    assert code == 0
    assert (
        "pair nines ##\\x5bset-output name=v;]pass ##\\x5badd-mask]k\\x0d:\\x3aerror file=a.py::cr\\x0a  :\\x3a" in out
    )
    code, out, _ = run_cli(["eval", "--json", hostile["rule"], HANDS[0]])
    described = json.loads(out)["description"]
    assert described.startswith(
        "pair nines ##\\x5bset-output name=v;]pass ##\\x5badd-mask]k\r:\\x3aerror file=a.py::cr\n"
    )
    assert (
        "\n  :\\x3awarning::lf\u2028:\\x3ax\u2029:\\x3ax\x85:\\x3ax\x0b:\\x3ax\x0c:\\x3ax\n\t:\\x3ax\r\xa0:\\x3ax ::"
        in described
    )
    # a name printed without visible() is still caught by the guard around stdout, readably
    code, out, _ = run_cli(["odds", hostile["rule"], "9s 9h", "Ts Js"])
    assert code == 0 and out.startswith(
        "\\u000d::error file=stem.py::stem ##\\u005badd-mask]k\n  :\\u003awarning::stem:"
    )


def test_github_annotations_escape_their_message_and_properties() -> None:
    assert safe_text.github_data("50% ##[add-mask]x\r\n  ::error::y") == "50%25 ##\\x5badd-mask]x%0D%0A  :\\x3aerror::y"
    assert safe_text.github_property("a::b,c ##[x]") == "a%3A%3Ab%2Cc ##\\x5bx]"


def test_the_neutral_form() -> None:
    assert safe_text.neutral("##[add-mask]x ###[y") == "##\\x5badd-mask]x ###\\x5by"
    assert safe_text.neutral("  ::error::x\r\t::y\u2028::z a::b") == "  :\\x3aerror::x\r\t:\\x3ay\u2028:\\x3az a::b"
    assert safe_text.visible("a\r::b") == "a\\x0d:\\x3ab"
    for text in (HOSTILE, STEM, "#" * 9 + "[", ":" * 9):
        assert runner_acts_on(safe_text.neutral(text)) == []
        assert runner_acts_on(safe_text.visible(text)) == []


@pytest.mark.parametrize("workflow", [False, True])
def test_the_guard_neutralises_commands_split_across_writes(workflow: bool) -> None:
    buffer = io.StringIO()
    guard = safe_text.GuardedOutput(buffer, workflow_commands=workflow, carriage_returns=True)
    for piece in ("ok #", "#", "[add-mask]x\n", "  :", ":error::y\r", ":", ":z\n", "a :: b ##\n", "[no]\n"):
        guard.write(piece)
    assert runner_acts_on(buffer.getvalue()) == []
    assert buffer.getvalue().startswith("ok ##\\u005badd-mask]x\n  :\\u003aerror::y\r:\\u003az\na :: b ##\n[no]\n")
    buffer = io.StringIO()
    safe_text.GuardedOutput(buffer, workflow_commands=workflow).write("::error file=a,line=1,col=1,title=R101::m\n")
    assert (buffer.getvalue() == "::error file=a,line=1,col=1,title=R101::m\n") is workflow
    # only at the very start of a line, and not pieced together from white space and a colon
    buffer = io.StringIO()
    guard = safe_text.GuardedOutput(buffer, workflow_commands=workflow)
    for piece in ("  :", ":error x\n", " ::warning y\n", "\t", "::notice z\n"):
        guard.write(piece)
    assert runner_acts_on(buffer.getvalue()) == []


def test_guards_sharing_a_line_see_commands_across_the_two_streams() -> None:
    # stdout and stderr read as one stream (2>&1): a line break on one starts a line for the other
    merged = io.StringIO()
    both = safe_text.SharedLine()
    out = safe_text.GuardedOutput(merged, shared=both)
    err = safe_text.GuardedOutput(merged, carriage_returns=True, shared=both)
    out.write("result #")
    err.write("#[add-mask]x")
    err.write("\r")
    out.write(" :")
    err.write(":error::y\n")
    assert runner_acts_on(merged.getvalue()) == []
    assert merged.getvalue() == "result ##\\u005badd-mask]x\r :\\u003aerror::y\n"
