"""The pre-commit hook, run through pre-commit itself.

The snippets of ``docs/editors.md`` (README.md shows the first one too) are
pasted exactly as written into a tiny git repository that holds a rule file and
unrelated YAML (``docker-compose.yml``): a ``repo: local`` hook that runs the
installed ``pokerrules check``, so they work as pasted, with no repository to
fetch. The hook definition this repository publishes (``.pre-commit-hooks.yaml``)
selects the same files.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from samples import SMALL

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs" / "editors.md"
COMPOSE = "services:\n  web:\n    image: nginx:1.27\n    ports: ['8080:80']\n"
MKDOCS = "site_name: House rules\nnav:\n  - Home: index.md\n"


def _hook() -> dict[str, object]:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (hook,) = [h for h in hooks if h["id"] == "pokerrules-check"]
    return hook


def _selected(hook: dict[str, object], path: str) -> bool:
    """Whether pre-commit would pass this path (from the repository root) to the hook."""
    include = re.search(str(hook.get("files", "")), path) is not None
    exclude = bool(hook.get("exclude")) and re.search(str(hook["exclude"]), path) is not None
    return include and not exclude


def test_hook_definition_selects_rule_files_only() -> None:
    hook = _hook()
    assert hook["entry"] == "pokerrules check"
    assert hook["language"] == "python"
    assert _selected(hook, "rulesets/house.yaml") and _selected(hook, "rulesets/deep/friday.yml")
    for other in (
        "docker-compose.yml",
        "mkdocs.yml",
        ".github/workflows/ci.yml",
        ".pre-commit-config.yaml",
        "README.md",
        "rulesets/notes.txt",
        "config/rulesets/x.yaml",
    ):
        assert not _selected(hook, other), other


def _snippets() -> list[str]:
    """The YAML blocks of the pre-commit section of docs/editors.md."""
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("## On every commit: pre-commit") :]
    section = section[: section.index("\n## ", 4)]
    return re.findall(r"```yaml\n(.*?)```", section, re.DOTALL)


def test_the_documented_snippets_are_local_hooks_that_run_the_installed_check() -> None:
    snippets = _snippets()
    assert len(snippets) == 2
    published = _hook()
    for snippet in snippets:
        (repo,) = yaml.safe_load(snippet)["repos"]
        assert repo["repo"] == "local" and "rev" not in repo
        (hook,) = repo["hooks"]
        assert hook["id"] == published["id"] and hook["entry"] == "pokerrules check"
    assert yaml.safe_load(snippets[0])["repos"][0]["hooks"][0]["files"] == published["files"]
    # README.md shows the first snippet, word for word
    assert f"```yaml\n{snippets[0]}```" in (REPO / "README.md").read_text(encoding="utf-8")
    for text in (DOCS.read_text(encoding="utf-8"), (REPO / "README.md").read_text(encoding="utf-8")):
        assert "OWNER" not in text


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        [
            "git",
            "-c",
            "user.name=pokerrules tests",
            "-c",
            "user.email=tests@pokerrules.invalid",
            "-c",
            "init.defaultBranch=main",
            "-c",
            "commit.gpgsign=false",
            *args,
        ],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
    )


def _pre_commit() -> str:
    found = shutil.which("pre-commit") or shutil.which("pre-commit", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip("the pre-commit executable is not installed (pip install '.[test]')")
    return found


@pytest.mark.slow
def test_the_documented_hook_runs_through_pre_commit(tmp_path: Path) -> None:
    pre_commit = _pre_commit()
    if shutil.which("git") is None:
        pytest.skip("pre-commit needs git")
    default_snippet, files_snippet = _snippets()
    project = tmp_path / "house"
    (project / "rulesets").mkdir(parents=True)
    (project / "rules").mkdir()
    rule_file = project / "rulesets" / "house.yaml"
    rule_file.write_text(SMALL, encoding="utf-8")
    (project / "docker-compose.yml").write_text(COMPOSE, encoding="utf-8")
    (project / "mkdocs.yml").write_text(MKDOCS, encoding="utf-8")
    (project / "rules" / "friday.yaml").write_text(SMALL, encoding="utf-8")
    (project / ".pre-commit-config.yaml").write_text(default_snippet, encoding="utf-8")
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "house rules")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT", "PYTHONPATH"))}
    env["PRE_COMMIT_HOME"] = str(tmp_path / "pre-commit-home")
    # the environment pokerrules is installed in, as the user's shell would have it
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [pre_commit, "run", "--all-files", "--color", "never"],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            check=False,
            timeout=600,
        )

    passed = run()
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert re.search(r"pokerrules check\.+Passed", passed.stdout), passed.stdout
    assert "deprecated" not in (passed.stdout + passed.stderr).lower()

    # a broken rule file fails the hook with its diagnostic; the compose file is never checked
    rule_file.write_text(SMALL.replace("order: [", "order: [nope, "), encoding="utf-8")
    failed = run()
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert re.search(r"pokerrules check\.+Failed", failed.stdout)
    assert "rulesets/house.yaml:14:9: error R101: order names category 'nope'" in failed.stdout
    assert "docker-compose" not in failed.stdout and "mkdocs" not in failed.stdout and "S101" not in failed.stdout

    # the second snippet: rule files under rules/ instead (rulesets/ is no longer looked at)
    (project / ".pre-commit-config.yaml").write_text(files_snippet, encoding="utf-8")
    _git(project, "add", ".pre-commit-config.yaml")
    assert run().returncode == 0
    (project / "rules" / "friday.yaml").write_text(SMALL.replace("order: [", "order: [nope, "), encoding="utf-8")
    failed = run()
    assert failed.returncode == 1 and "rules/friday.yaml:14:9: error R101" in failed.stdout, failed.stdout
