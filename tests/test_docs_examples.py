"""Every ``$ pokerrules ...`` example of README.md and docs/*.md prints what it shows.

The harness is ``tests/docs_examples.py`` (its docstring says what is
compared and what is normalised); ``python tests/docs_examples.py --update``
rewrites the shown outputs from real runs when they change on purpose.
"""

from __future__ import annotations

from pathlib import Path

import docs_examples as harness
import pytest

BLOCKS = [block for path in harness.doc_files() for block in harness.parse_blocks(path)]


@pytest.fixture(scope="module")
def context(tmp_path_factory: pytest.TempPathFactory, table_cache: Path) -> harness.Context:
    """A copy of docs/examples to run in, and the session's table cache (tables built once)."""
    return harness.Context(harness.prepared_folder(tmp_path_factory.mktemp("docs")), str(table_cache))


@pytest.mark.parametrize("block", BLOCKS, ids=[block.name for block in BLOCKS])
def test_the_example_prints_what_the_doc_shows(block: harness.Block, context: harness.Context) -> None:
    if block.skip:
        pytest.skip(f"marked in the doc: {block.skip}")
    problems = harness.check_block(block, context)
    assert not problems, (
        "\n\n".join(problems) + "\n\n(run `python tests/docs_examples.py --update` after a change on purpose)"
    )


def test_the_docs_have_examples_and_few_skips() -> None:
    commands = [command for block in BLOCKS if not block.skip for command in block.commands]
    assert len(commands) >= 40
    assert all(command.shown for command in commands), [c.text for c in commands if not c.shown]
    skipped = [block for block in BLOCKS if block.skip]
    assert len(skipped) <= 4 and all(len(block.skip or "") > 20 for block in skipped)


def test_the_readme_ruleset_is_the_example_file() -> None:
    readme = (harness.REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## A ruleset") :]
    start = section.index("```yaml\n") + len("```yaml\n")
    shown = section[start : section.index("```", start)]
    assert shown == (harness.EXAMPLES / "house" / "friday-night.yaml").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- the harness itself


DOC = """\
# A doc

```sh
$ pokerrules eval standard "Kc Kd Ks 4h 4c"
{shown}
$ pokerrules odds holdem AhKh QsQd --board "2h 7h 9c"   # a comment is not an argument
holdem: exact, 990 deals (9.99 s)
...
  Qs Qd      45.86%   45.86%    0.00%
```

<!-- docs-example: skip the reason, in words -->
```console
$ pokerrules chart holdem --samples 1000000000
```

```sh
pokerrules eval standard "As"
```
"""


def test_blocks_commands_outputs_and_marks_are_read(tmp_path: Path) -> None:
    path = tmp_path / "doc.md"
    blocks = harness.parse_blocks(path, DOC.format(shown="Ks Kd Kc 4h 4c  full_house  kings full of fours"))
    assert [(b.line, b.skip) for b in blocks] == [(3, None), (13, "the reason, in words")]
    first, second = blocks[0].commands
    assert first.text == 'pokerrules eval standard "Kc Kd Ks 4h 4c"' and first.line == 4
    assert second.shown[1] == "..."
    assert harness.argv_of(second.text) == ["odds", "holdem", "AhKh", "QsQd", "--board", "2h 7h 9c"]
    with pytest.raises(ValueError, match="shell syntax"):
        harness.argv_of("pokerrules eval standard - < hands.txt")


def test_matching_normalises_times_only() -> None:
    shown = ["holdem: exact, 990 deals (9.99 s)", "...", "  Qs Qd      45.86%"]
    assert harness.matches(shown, ["holdem: exact, 990 deals (0.01 s)", "a", "b", "  Qs Qd      45.86%"])
    assert harness.matches(shown, ["holdem: exact, 990 deals (0.01 s)", "  Qs Qd      45.86%"])
    assert not harness.matches(shown, ["holdem: exact, 991 deals (0.01 s)", "  Qs Qd      45.86%"])
    assert not harness.matches(shown, ["holdem: exact, 990 deals (0.01 s)", "  Qs Qd      45.87%"])
    assert not harness.matches(["a", "b"], ["a", "b", "c"])
    assert harness.matches(["a", "...", "c", "...", "e"], ["a", "b", "c", "d", "e"])
    assert not harness.matches(["a", "...", "x", "...", "e"], ["a", "b", "c", "d", "e"])


def test_update_rewrites_drifted_outputs_from_real_runs(tmp_path: Path, context: harness.Context) -> None:
    path = tmp_path / "doc.md"
    path.write_text(DOC.format(shown="Ks Kd Kc 4h 4c  flush  a stale description"), encoding="utf-8")
    (block, _) = harness.parse_blocks(path)
    assert harness.check_block(block, context)  # the drift is found
    assert harness.update_doc(path, context)
    text = path.read_text(encoding="utf-8")
    assert "Ks Kd Kc 4h 4c  full_house  kings full of fours\n$ pokerrules odds" in text
    assert "holdem: exact, 990 deals (9.99 s)\n...\n" in text  # unchanged but for its time: kept as shown
    assert text.count("docs-example: skip") == 1 and text.endswith('pokerrules eval standard "As"\n```\n')
    (block, _) = harness.parse_blocks(path)
    assert harness.check_block(block, context) == []
    assert not harness.update_doc(path, context)  # nothing left to change
