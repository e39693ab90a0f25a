"""The ``$ pokerrules ...`` examples of README.md and docs/*.md: run them and compare what they print.

A fenced block whose first line starts with ``$ pokerrules`` is an example
block: every ``$`` line in it is a command, and the lines after it (up to the
next ``$`` line) are what the command prints. A command runs in a copy of
``docs/examples/`` (the files the docs name live there), as ``python -m
evaluator``; what it prints is its stdout, and when it fails (a non-zero exit)
its stderr too, without progress lines (which depend on how long the work
takes). Only what is meant to vary is normalised: times (``(1.19 s)``,
``done in 3.4 s``), the copy's absolute path, the shipped catalogue's folder
and the table cache's path.

A line that is only ``...`` stands for any number of lines (the docs show the
head and the tail of a long output). A block whose commands cannot run in a
test (a cluster, minutes of work) is marked on the line above its fence:

    <!-- docs-example: skip the reason, in words -->

``tests/test_docs_examples.py`` runs every block under pytest. When outputs
change on purpose, regenerate what the docs show from real runs:

    python tests/docs_examples.py --update              # every doc
    python tests/docs_examples.py --update docs/chart.md
    python tests/docs_examples.py                       # check only, print the differences

``--update`` keeps a shown line whose normalised text is unchanged (so times
do not churn) and keeps the head and tail lengths around a ``...`` line.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "docs" / "examples"
PROMPT = "$ "
ELLIPSIS = "..."
SKIP_MARK = re.compile(r"^<!--\s*docs-example:\s*skip\b\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")
# Shell syntax the harness does not run: a doc shows plain commands (files live in docs/examples).
SHELL_WORDS = frozenset({"|", "||", "&&", ";", "<", ">", ">>", "2>", "2>&1", "&"})
# Times vary from run to run: "(1.19 s)", "(5.4 s)", "done in 3.4 s".
TIMES = (re.compile(r"\(\d+(?:\.\d+)? s\)"), re.compile(r"\bin \d+(?:\.\d+)? s\b"))
# What core/progress.py prints on stderr while work goes on: a step line, a bar, its end.
PROGRESS = (
    re.compile(r"^[\w .:'-]+: .* \.\.\.$"),
    re.compile(r"^pokerrules: .*\[[#-]+\] +\d+%$"),
    re.compile(r"^pokerrules: .* done in \d+(?:\.\d+)? s$"),
)
TIMEOUT = 900


def doc_files(repo: Path = REPO) -> list[Path]:
    """README.md and every docs/*.md, in a stable order."""
    return [repo / "README.md", *sorted((repo / "docs").glob("*.md"))]


@dataclass
class Command:
    """One ``$`` line of a block and the output lines shown under it."""

    line: int  # 1-based line of the ``$`` line in the doc
    text: str  # the command, without the prompt
    shown: list[str]  # the shown output lines (without trailing blank lines)
    first: int  # 0-based index in the doc's lines of the first shown line
    count: int  # how many doc lines (blank ones included) follow the command before the next one


@dataclass
class Block:
    """An example block of one doc."""

    path: Path
    line: int  # 1-based line of the opening fence
    commands: list[Command] = field(default_factory=list)
    skip: str | None = None  # the reason of a skip mark

    @property
    def name(self) -> str:
        """``docs/chart.md:12``: where the block is, for test ids and messages."""
        try:
            where = self.path.relative_to(REPO)
        except ValueError:
            where = self.path
        return f"{where.as_posix()}:{self.line}"


def parse_blocks(path: Path, text: str | None = None) -> list[Block]:
    """Every example block of the doc at ``path`` (``text``: its content, when already read)."""
    lines = (path.read_text(encoding="utf-8") if text is None else text).splitlines()
    blocks: list[Block] = []
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        marker = opening.group(2)
        end = index + 1
        while end < len(lines) and not lines[end].strip().startswith(marker):
            end += 1
        body = lines[index + 1 : end]
        if body and body[0].startswith(PROMPT + "pokerrules"):
            block = Block(path, index + 1, skip=_skip_reason(lines, index))
            block.commands = list(_commands(body, index + 1))
            blocks.append(block)
        index = end + 1
    return blocks


def _skip_reason(lines: Sequence[str], fence: int) -> str | None:
    above = fence - 1
    while above >= 0 and not lines[above].strip():
        above -= 1
    found = SKIP_MARK.match(lines[above].strip()) if above >= 0 else None
    if found is None:
        return None
    if not found.group(1):
        raise ValueError(f"line {above + 1}: a docs-example skip mark needs a reason")
    return found.group(1)


def _commands(body: Sequence[str], offset: int) -> Iterator[Command]:
    starts = [i for i, line in enumerate(body) if line.startswith(PROMPT)]
    for number, start in enumerate(starts):
        stop = starts[number + 1] if number + 1 < len(starts) else len(body)
        shown = list(body[start + 1 : stop])
        count = len(shown)
        while shown and not shown[-1].strip():
            shown.pop()
        text = body[start][len(PROMPT) :]
        yield Command(offset + start + 1, text, shown, offset + start + 1, count)


# --------------------------------------------------------------------------- running


@dataclass
class Context:
    """Where the commands run and what varies between runs."""

    cwd: Path
    cache: str

    def env(self) -> dict[str, str]:
        """The commands' environment: this one, with the cache, UTF-8 and 80 columns fixed."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
        env.update(
            POKERRULES_CACHE=self.cache, PYTHONUTF8="1", PYTHONIOENCODING="utf-8", COLUMNS="80", LC_ALL="C.UTF-8"
        )
        # the package this harness belongs to, also when it is run from a checkout that is not installed
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH", "")]))
        return env


def argv_of(command: str) -> list[str]:
    """The arguments of a shown command (a ``# comment`` at its end is left out)."""
    argv = shlex.split(command, comments=True)
    if not argv or argv[0] != "pokerrules":
        raise ValueError(f"not a pokerrules command: {command!r}")
    shell = [word for word in argv if word in SHELL_WORDS]
    if shell:
        raise ValueError(f"{command!r}: the docs show plain commands; {shell[0]!r} is shell syntax")
    return argv[1:]


def run(command: str, context: Context) -> list[str]:
    """What ``command`` prints, as lines: stdout, and stderr without progress when it fails."""
    done = subprocess.run(
        [sys.executable, "-m", "evaluator", *argv_of(command)],
        cwd=context.cwd,
        env=context.env(),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=TIMEOUT,
        check=False,
    )
    lines = done.stdout.splitlines()
    if done.returncode != 0:
        lines += [line for line in done.stderr.splitlines() if not any(p.match(line) for p in PROGRESS)]
    while lines and not lines[-1].strip():
        lines.pop()
    return [_plain(line, context) for line in lines]


def _plain(line: str, context: Context) -> str:
    """A printed line with the run's own folders written as a reader's would be."""
    from evaluator.core.resources import paytables_dir, rulesets_dir

    line = line.replace(str(context.cwd) + os.sep, "").replace(str(context.cwd), ".")
    line = line.replace(context.cache, "~/.cache/pokerrules")
    return line.replace(str(rulesets_dir()), "<catalogue>").replace(str(paytables_dir()), "<paytables>")


def normalised(line: str) -> str:
    """A line with its times replaced, for comparison (trailing blanks do not count)."""
    for pattern in TIMES:
        line = pattern.sub(lambda m: re.sub(r"\d+(?:\.\d+)?", "#", m.group(0)), line)
    return line.rstrip()


def _segments(shown: Sequence[str]) -> list[list[str]]:
    parts: list[list[str]] = [[]]
    for line in shown:
        if line.strip() == ELLIPSIS:
            parts.append([])
        else:
            parts[-1].append(line)
    return parts


def matches(shown: Sequence[str], actual: Sequence[str]) -> bool:
    """Whether ``actual`` is what ``shown`` shows (``...`` lines standing for any lines)."""
    want = [[normalised(line) for line in part] for part in _segments(shown)]
    got = [normalised(line) for line in actual]
    if len(want) == 1:
        return want[0] == got
    head, *middle, tail = want
    if got[: len(head)] != head or (tail and got[len(got) - len(tail) :] != tail):
        return False
    position, end = len(head), len(got) - len(tail)
    if end < position:
        return False
    for part in middle:
        found = _find(got, part, position, end)
        if found < 0:
            return False
        position = found + len(part)
    return True


def _find(lines: Sequence[str], part: Sequence[str], start: int, end: int) -> int:
    for index in range(start, end - len(part) + 1):
        if list(lines[index : index + len(part)]) == list(part):
            return index
    return -1


def updated(shown: Sequence[str], actual: Sequence[str]) -> list[str]:
    """What to show for ``actual``: the same head and tail lengths around a ``...`` line,
    and a shown line kept when only its times differ."""
    parts = _segments(shown)
    if len(parts) == 1:
        return _keep_equal(shown, actual)
    if len(parts) > 2:
        raise ValueError("a block with text between two '...' lines is updated by hand")
    head, tail = parts
    if len(head) + len(tail) >= len(actual):
        return _keep_equal([*head, *tail], actual)
    indent = next((line[: len(line) - len(line.lstrip())] for line in shown if line.strip() == ELLIPSIS), "")
    new_tail = list(actual[len(actual) - len(tail) :]) if tail else []
    return [
        *_keep_equal(head, actual[: len(head)]),
        indent + ELLIPSIS,
        *_keep_equal(tail, new_tail),
    ]


def _keep_equal(old: Sequence[str], new: Sequence[str]) -> list[str]:
    return [old[i] if i < len(old) and normalised(old[i]) == normalised(line) else line for i, line in enumerate(new)]


def difference(command: Command, actual: Sequence[str]) -> str:
    """A unified diff of what a command shows and what it printed."""
    return "\n".join(difflib.unified_diff(command.shown, list(actual), "shown", "printed", lineterm="", n=2))


# --------------------------------------------------------------------------- the script


def prepared_folder(into: Path) -> Path:
    """A copy of docs/examples to run commands in (they may write files, e.g. --html)."""
    target = into / "examples"
    shutil.copytree(EXAMPLES, target)
    return target


def check_block(block: Block, context: Context) -> list[str]:
    """The differences of one block (empty: it shows what its commands print)."""
    problems = []
    for command in block.commands:
        actual = run(command.text, context)
        if not matches(command.shown, actual):
            problems.append(f"{block.path.name}:{command.line}: $ {command.text}\n{difference(command, actual)}")
    return problems


def update_doc(path: Path, context: Context) -> bool:
    """Rewrite the shown outputs of one doc from real runs; True when it changed."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    replacements: list[tuple[int, int, list[str]]] = []
    for block in parse_blocks(path, text):
        if block.skip:
            continue
        for command in block.commands:
            actual = run(command.text, context)
            if matches(command.shown, actual):
                continue
            shown = updated(command.shown, actual)
            trailing = command.count - len(command.shown)  # blank lines kept before the next command
            replacements.append((command.first, command.first + command.count, shown + [""] * trailing))
    for start, stop, new in sorted(replacements, reverse=True):
        lines[start:stop] = new
    if not replacements:
        return False
    path.write_text("\n".join(lines) + ("\n" if text.endswith("\n") else ""), encoding="utf-8")
    return True


def main(argv: Sequence[str] | None = None) -> int:
    """Check (or with ``--update`` rewrite) the examples of the docs named, else of every doc."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("docs", nargs="*", type=Path, help="docs to check (default: README.md and docs/*.md)")
    parser.add_argument("--update", action="store_true", help="rewrite the shown outputs from real runs")
    args = parser.parse_args(argv)
    docs = [path.resolve() for path in args.docs] or doc_files()
    with tempfile.TemporaryDirectory(prefix="pokerrules-docs-") as folder:
        cache = os.environ.get("POKERRULES_CACHE") or str(Path(folder) / "cache")
        context = Context(prepared_folder(Path(folder)), cache)
        failed = 0
        for path in docs:
            if args.update:
                if update_doc(path, context):
                    print(f"updated {path.relative_to(REPO)}")
                continue
            for block in parse_blocks(path):
                if block.skip:
                    print(f"{block.name}: skipped ({block.skip})")
                    continue
                for problem in check_block(block, context):
                    failed += 1
                    print(problem)
    if not args.update:
        print("every example shows what it prints" if not failed else f"{failed} example(s) differ")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    sys.exit(main())
