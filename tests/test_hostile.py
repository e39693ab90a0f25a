"""Hostile input: rule files and card strings from strangers cannot break pokerrules.

Every limit is a clear, positioned error (never a hang, a traceback or a
memory blow-up): safe YAML only, aliases refused before they expand, limits on
file size, nesting, values, categories, pattern length, deck and hand size,
enumeration work and ``extends:`` depth; the same for ``pokerrules eval``
input. The bomb and the 50 MB file run in a subprocess whose address space is
capped at 200 MB, timed there.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from samples import SMALL

from evaluator.cli.main import main
from evaluator.core.errors import CardError, PatternError, PokerRulesError
from evaluator.rules.cards import MAX_CARD_TEXT, tokenize
from evaluator.rules.load import MAX_EXTENDS, MAX_FILE_BYTES, MAX_NODES, load_document
from evaluator.rules.patterns import parse_pattern
from evaluator.tools.check import check_file, check_paths

REPO = Path(__file__).resolve().parents[1]
MEMORY_LIMIT = 200 * 2**20
TIME_LIMIT = 5.0  # generous: the work itself takes milliseconds

BILLION_LAUGHS = """\
name: lol
a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def run_cli(argv: Sequence[str], stdin: str = "") -> tuple[int, str, str]:
    """Run the command line in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(argv))
    finally:
        sys.stdin = old_stdin
    return code, out.getvalue(), err.getvalue()


def only(path: Path) -> tuple[str, int, int]:
    (found,) = check_file(path)
    return found.code, found.line, found.col


# --------------------------------------------------------------------------- bounded time and memory


_MEASURE = textwrap.dedent(
    """
    import json, resource, sys, time
    resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
    from pathlib import Path
    from evaluator.tools.check import check_file
    started = time.perf_counter()
    found = check_file(Path(sys.argv[1]))
    elapsed = time.perf_counter() - started
    # the peak resident memory of this process image: VmHWM (ru_maxrss would also count
    # the parent's memory, which Linux carries over exec as the high-water mark)
    with open("/proc/self/status") as status:
        rss = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmHWM:"))
    print(json.dumps({{"codes": [d.code for d in found], "where": [[d.line, d.col] for d in found],
                      "elapsed": elapsed, "rss": rss}}))
    """
)


def measure(path: Path) -> dict[str, object]:
    """Check ``path`` in a subprocess capped at 200 MB of address space; what it found and cost."""
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE.format(limit=MEMORY_LIMIT), str(path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc/self/status are Linux")
def test_billion_laughs_is_refused_fast_in_bounded_memory(tmp_path: Path) -> None:
    result = measure(write(tmp_path, "lol.yaml", BILLION_LAUGHS))
    assert result["codes"] == ["Y104"]
    assert result["where"] == [[2, 4]]  # at the first anchor, before anything expands
    assert result["elapsed"] < TIME_LIMIT  # type: ignore[operator]
    assert result["rss"] < MEMORY_LIMIT  # type: ignore[operator]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc/self/status are Linux")
def test_fifty_megabyte_file_is_refused_fast_in_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    with open(path, "wb") as handle:
        line = b"name: " + b"x" * 58 + b"\n"  # 65 bytes
        handle.write(line * (50 * 2**20 // len(line) + 1))
    assert path.stat().st_size > 50 * 2**20
    result = measure(path)
    assert result["codes"] == ["Y102"]
    assert result["elapsed"] < TIME_LIMIT  # type: ignore[operator]
    assert result["rss"] < MEMORY_LIMIT  # type: ignore[operator]


def test_bomb_through_the_command_line_has_no_traceback(tmp_path: Path) -> None:
    bomb = write(tmp_path, "lol.yaml", BILLION_LAUGHS)
    done = subprocess.run(
        [sys.executable, "-m", "evaluator", "check", str(bomb)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 1
    assert f"{bomb}:2:4: error Y104:" in done.stdout
    assert "Traceback" not in done.stderr


def test_bomb_in_a_parent_is_refused_in_the_parent(tmp_path: Path) -> None:
    write(tmp_path, "lol.yaml", BILLION_LAUGHS)
    child = write(tmp_path, "child.yaml", "extends: lol.yaml\n")
    (found,) = check_file(child)
    assert (found.code, Path(found.source).name, found.line) == ("Y104", "lol.yaml", 2)


# --------------------------------------------------------------------------- safe loading


@pytest.mark.parametrize(
    "tag",
    [
        "!!python/object/apply:builtins.open",
        "!!python/object/new:builtins.open",
        "!!python/object:builtins.object",
        "!!python/name:os.system",
        "!!python/module:os",
        "!!binary",
        "!!set",
        "!custom",
    ],
)
def test_unsafe_tags_are_refused_and_never_run(tmp_path: Path, tag: str) -> None:
    target = tmp_path / "pwned"
    text = SMALL.replace("name: small", f'name: small\ntitle: {tag} ["{target}", "w"]')
    path = write(tmp_path, "r.yaml", text)
    assert only(path) == ("Y105", 2, 8)
    code, out, err = run_cli(["eval", str(path), "As Ks Qs Js 9s"])
    assert code == 1 and out == "" and "Y105" in err and "Traceback" not in err
    assert not target.exists()


def test_unsafe_tag_as_a_key_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "r.yaml", SMALL + '? !!python/object/apply:os.system ["echo pwned"]\n: 1\n')
    assert only(path)[0] == "Y105"


# --------------------------------------------------------------------------- limits, each positioned


def test_file_size_limit(tmp_path: Path) -> None:
    path = write(tmp_path, "big.yaml", SMALL + "source: " + "x" * 9_000 + "\n" + "#" * (MAX_FILE_BYTES + 1) + "\n")
    assert only(path) == ("Y102", 1, 1)


def test_nesting_limit(tmp_path: Path) -> None:
    path = write(tmp_path, "deep.yaml", SMALL + "source: " + "[" * 40 + "]" * 40 + "\n")
    assert only(path) == ("Y106", 15, 40)  # at the 33rd opening bracket


def test_value_count_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The real limit (100,000) is pinned by test_load; a lower one keeps this test quick.
    assert MAX_NODES == 100_000
    monkeypatch.setattr(importlib.import_module("evaluator.rules.yaml_base"), "MAX_NODES", 1_000)
    items = ", ".join(["0"] * 1_010)
    path = write(tmp_path, "many.yaml", "name: many\nsource: [" + items + "]\n")
    # values counted: the mapping, 2 keys, "many", the list, then the list items:
    # the 1,001st value is item 995, at column 10 + 3 * 995
    assert only(path) == ("Y107", 2, 10 + 3 * 995)


def test_category_count_limit(tmp_path: Path) -> None:
    many = "".join(f'  c{n:03d}: {{pattern: "X Y Z W V"}}\n' for n in range(65))
    path = write(tmp_path, "r.yaml", "name: r\ncategories:\n" + many + "order: [c000]\n")
    assert only(path) == ("S105", 3, 3)


def test_pattern_length_limit(tmp_path: Path) -> None:
    long_pattern = "X Y Z W V" + " & X > 9" * 70
    path = write(tmp_path, "r.yaml", SMALL.replace('"X Y Z W V"', f'"{long_pattern}"'))
    assert only(path) == ("S105", 13, 31)
    with pytest.raises(PatternError) as info:
        parse_pattern(long_pattern)
    assert info.value.code == "P103"


def test_qualifier_length_limit(tmp_path: Path) -> None:
    path = write(tmp_path, "r.yaml", SMALL + 'qualifier: "' + "X Y Z W V" + " & X > 9" * 70 + '"\n')
    assert only(path) == ("S105", 15, 13)  # the first character inside the quotes


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (("  ranks: [9, T, J, Q, K, A]\n", "  ranks: [9, T, J, Q, K, A]\n  copies: 100\n"), (4, 11)),
        (("  ranks: [9, T, J, Q, K, A]\n", "  ranks: [9, T, J, Q, K, A]\n  jokers: 1000\n"), (4, 11)),
        (("  ranks: [9, T, J, Q, K, A]\n", "  ranks: [9, T, J, Q, K, A]\n  suits: [s, h, d, c, s, h]\n"), (4, 10)),
    ],
    ids=["packs", "jokers", "suits"],
)
def test_deck_size_limits(tmp_path: Path, change: tuple[str, str], where: tuple[int, int]) -> None:
    found = check_file(write(tmp_path, "r.yaml", SMALL.replace(*change)))
    assert {d.code for d in found} == {"S105"}  # six suits is also a repeated suit: two findings
    assert (found[0].line, found[0].col) == where


def test_hand_size_limit(tmp_path: Path) -> None:
    path = write(tmp_path, "r.yaml", SMALL.replace("hand: {size: 5}", "hand: {size: 1000000}"))
    assert only(path) == ("S105", 4, 14)


def test_enumeration_work_limit_is_positioned_and_fast(tmp_path: Path) -> None:
    text = 'name: r\nhand: {size: 9}\ndeck: {copies: 8, jokers: 2}\ncategories:\n  any: {pattern: "flush | not flush"}\norder: [any]\n'
    path = write(tmp_path, "r.yaml", text)
    started = time.perf_counter()
    found = {(d.code, d.line, d.col) for d in check_file(path)}
    # eight packs are also too many for lookup tables of 9-card hands: refused with R104
    assert found == {("W104", 2, 14), ("R104", 3, 16)}
    assert time.perf_counter() - started < TIME_LIMIT


def test_deep_extends_chain_is_bounded(tmp_path: Path) -> None:
    write(tmp_path, "r00.yaml", SMALL)
    for n in range(1, MAX_EXTENDS + 5):
        write(tmp_path, f"r{n:02d}.yaml", f"# link {n}\nextends: r{n - 1:02d}.yaml\n")
    top = tmp_path / f"r{MAX_EXTENDS + 4:02d}.yaml"
    started = time.perf_counter()
    (found,) = check_file(top)
    assert time.perf_counter() - started < TIME_LIMIT
    assert (found.code, found.line, found.col) == ("Y113", 2, 10)
    assert Path(found.source).parent == tmp_path
    # a chain of exactly the limit is fine
    assert check_file(tmp_path / f"r{MAX_EXTENDS - 1:02d}.yaml") == []


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/stdin", "/dev/urandom", "."])
def test_extends_a_device_or_folder_is_refused(tmp_path: Path, target: str) -> None:
    path = write(tmp_path, "r.yaml", f"extends: {target}/\n" if target == "." else f"extends: {target}\n")
    (found,) = check_file(path)
    assert found.code in ("Y101", "Y111", "Y120")  # Y120: an absolute path is never followed


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_named_pipe_in_a_folder_does_not_hang(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    write(tmp_path, "good.yaml", SMALL)
    diagnostics, problem = check_paths([str(tmp_path)])
    assert problem is None and diagnostics == []


def test_a_symlink_loop_in_a_folder_does_not_hang(tmp_path: Path) -> None:
    write(tmp_path, "good.yaml", SMALL)
    (tmp_path / "loop").symlink_to(tmp_path, target_is_directory=True)
    diagnostics, problem = check_paths([str(tmp_path)])
    assert problem is None and diagnostics == []


# --------------------------------------------------------------------------- pokerrules eval input


def test_ten_megabyte_card_string(tmp_path: Path) -> None:
    huge = "As Kd " * (10 * 2**20 // 6)
    started = time.perf_counter()
    code, out, err = run_cli(["eval", "standard", huge])
    assert time.perf_counter() - started < TIME_LIMIT
    assert code == 1 and out == ""
    assert err.startswith("<cards>:1:1: error C107:") and "Traceback" not in err
    assert len(err) < 1000  # the text is not echoed back


def test_ten_megabyte_line_on_stdin() -> None:
    code, out, err = run_cli(["eval", "standard", "-"], stdin="As Ks Qs Js Ts\n" + "Qh" * (5 * 2**20) + "\n")
    assert code == 1 and out.startswith("As Ks Qs Js Ts  royal_flush") and len(err) < 1000
    assert err.startswith("<stdin>:2:1: error Y128: line 2 is longer than 65,536 characters")


def test_a_line_just_within_the_limit_is_read() -> None:
    from evaluator.cli.lines import MAX_LINE_CHARS

    line = ("As Ks Qs Js Ts" + " " * MAX_LINE_CHARS)[:MAX_LINE_CHARS] + "\n"
    code, out, err = run_cli(["eval", "standard", "-"], stdin=line + line)
    assert code == 0 and out.count("royal_flush") == 2, err


_ENDLESS = textwrap.dedent(
    """
    import resource, sys
    resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
    from evaluator.cli.main import main
    code = main(sys.argv[1:])
    with open("/proc/self/status") as status:
        rss = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmHWM:"))
    sys.stderr.write(f"RSS {{rss}}\\n")
    sys.exit(code)
    """
)


@pytest.mark.skipif(not Path("/dev/zero").exists() or not sys.platform.startswith("linux"), reason="/dev/zero")
@pytest.mark.parametrize(
    ("argv", "where"),
    [(["eval", "standard", "-"], "<stdin>"), (["showdown", "standard", "--from", "-"], "<stdin>")]
    + [(["showdown", "standard", "--from", "/dev/zero"], "/dev/zero")],
)
def test_an_endless_line_is_refused_in_bounded_memory(argv: list[str], where: str) -> None:
    limit = 3 * MEMORY_LIMIT  # the lookup tables and NumPy need a little more than a check
    with open("/dev/zero", "rb") as zeros:
        done = subprocess.run(
            [sys.executable, "-c", _ENDLESS.format(limit=limit), *argv],
            stdin=zeros,
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=120,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
    assert done.returncode == 1, done.stderr[-2000:]
    assert done.stderr.startswith(f"{where}:1:1: error Y128: line 1 is longer than 65,536 characters")
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr
    assert int(done.stderr.rsplit("RSS ", 1)[1]) < limit


def test_ten_megabyte_bad_token_is_not_echoed() -> None:
    text = "Z" * (MAX_CARD_TEXT - 10)
    with pytest.raises(CardError) as info:
        tokenize(text)
    assert info.value.code == "C101" and len(info.value.first.message) < 100


@pytest.mark.parametrize("as_arguments", [False, True], ids=["one-string", "one-card-per-argument"])
def test_a_thousand_cards(as_arguments: bool) -> None:
    cards = [f"{'23456789TJQKA'[n % 13]}{'shdc'[n // 13 % 4]}" for n in range(1000)]
    argv = ["eval", "standard", *cards] if as_arguments else ["eval", "standard", " ".join(cards)]
    code, out, err = run_cli(argv)
    assert code == 1 and out == ""
    assert "C105" in err and "1000 cards" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "text",
    [
        "As Kd \x1b[2J Qh Jc Ts",
        "As\x00Kd Qh Jc Ts",
        "As Kd \u202e Qh Jc Ts",
        "As Kd\x07 Qh Jc Ts",
        "As Kd \udcff Qh Jc Ts",
    ],
    ids=["escape-sequence", "nul", "bidi-override", "bell", "lone-surrogate"],
)
def test_control_characters_are_a_clean_error(text: str) -> None:
    code, out, err = run_cli(["eval", "standard", text])
    assert code == 1 and out == ""
    assert "C101" in err and "Traceback" not in err
    # nothing invisible reaches the terminal: each shows as a replacement mark or an escape
    assert all(char.isprintable() or char == "\n" for char in err)


def test_control_characters_on_stdin_in_a_subprocess() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "evaluator", "eval", "standard", "-"],
        input=b"As Kd \x1b[31m Qh Jc Ts\n\xff\xfe\n",
        capture_output=True,
        timeout=60,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 1 and done.stdout == b""
    assert b"Traceback" not in done.stderr and b"\x1b" not in done.stderr


def test_eval_with_a_hostile_ruleset(tmp_path: Path) -> None:
    bomb = write(tmp_path, "lol.yaml", BILLION_LAUGHS)
    code, out, err = run_cli(["eval", str(bomb), "As Kd Qh Jc Ts"])
    assert code == 1 and out == "" and "Y104" in err and "Traceback" not in err


# --------------------------------------------------------------------------- patterns


@pytest.mark.parametrize(
    "text",
    [
        "(" * 240 + "run" + ")" * 240,
        "not " * 120 + "run",
        "!" * 490 + "run",
        "X" * 499,
        " & ".join(["run"] * 80),
        "XX Y Z W & " + " | ".join(["X > 9"] * 40),
    ],
    ids=["parentheses", "nots", "bangs", "one-long-group", "long-and", "long-or"],
)
def test_pathological_patterns_within_the_length_limit(text: str) -> None:
    assert len(text) <= 500
    started = time.perf_counter()
    with contextlib.suppress(PokerRulesError):
        parse_pattern(text)
    assert time.perf_counter() - started < TIME_LIMIT


def test_pathological_patterns_in_a_file_are_diagnostics(tmp_path: Path) -> None:
    deep = "(" * 240 + "run" + ")" * 240
    path = write(tmp_path, "r.yaml", SMALL.replace('"run"', f'"{deep}"'))
    found = check_file(path)
    assert all(d.code != "R199" for d in found)


def test_load_document_bounds_hold_through_the_public_loader(tmp_path: Path) -> None:
    bomb = write(tmp_path, "lol.yaml", BILLION_LAUGHS)
    with pytest.raises(PokerRulesError) as info:
        load_document(bomb)
    assert info.value.code == "Y104"
