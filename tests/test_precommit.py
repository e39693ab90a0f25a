"""The published pre-commit hook, run through pre-commit itself.

The snippets of ``docs/editors.md`` are pasted as written into a tiny git
repository that holds a rule file and unrelated YAML (``docker-compose.yml``),
with only the repository URL replaced by a local release of this checkout
(tagged as the snippet's ``rev``). pre-commit clones it, installs the package
into its own environment and runs the hook.
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
PUBLISHED_URL = "https://github.com/OWNER/pokerrules"
# what a release of the hook repository holds (the tests are not needed to install it)
RELEASE_FILES = (
    "evaluator",
    "grammar",
    "rulesets",
    "paytables",
    "pyproject.toml",
    "README.md",
    "DESIGN.md",
    ".pre-commit-hooks.yaml",
)
OFFLINE = (
    "Could not find a version",
    "Failed to establish a new connection",
    "Temporary failure in name resolution",
    "No matching distribution found",
    "Network is unreachable",
)
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


def test_the_documented_snippets_point_at_the_release_tag() -> None:
    from evaluator import __version__

    snippets = _snippets()
    assert len(snippets) == 2
    for snippet in snippets:
        (repo,) = yaml.safe_load(snippet)["repos"]
        assert repo["repo"] == PUBLISHED_URL and repo["rev"] == f"v{__version__}"
        assert [hook["id"] for hook in repo["hooks"]] == ["pokerrules-check"]


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


def _release(tmp_path: Path, tag: str) -> Path:
    """A git repository holding this checkout's package and hook definition, tagged ``tag``."""
    release = tmp_path / "pokerrules-release"
    release.mkdir()
    for name in RELEASE_FILES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, release / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, release / name)
    _git(release, "init", "-q")
    _git(release, "add", "-A")
    _git(release, "commit", "-q", "-m", "release")
    _git(release, "tag", tag)
    return release


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
    from evaluator import __version__

    default_snippet, files_snippet = _snippets()
    release = _release(tmp_path, f"v{__version__}")
    project = tmp_path / "house"
    (project / "rulesets").mkdir(parents=True)
    (project / "rules").mkdir()
    rule_file = project / "rulesets" / "house.yaml"
    rule_file.write_text(SMALL, encoding="utf-8")
    (project / "docker-compose.yml").write_text(COMPOSE, encoding="utf-8")
    (project / "mkdocs.yml").write_text(MKDOCS, encoding="utf-8")
    (project / "rules" / "friday.yaml").write_text(SMALL, encoding="utf-8")
    (project / ".pre-commit-config.yaml").write_text(
        default_snippet.replace(PUBLISHED_URL, str(release)), encoding="utf-8"
    )
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "house rules")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT", "VIRTUAL_ENV", "PYTHONPATH"))}
    env["PRE_COMMIT_HOME"] = str(tmp_path / "pre-commit-home")

    def run() -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [pre_commit, "run", "--all-files", "--color", "never"],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            check=False,
            timeout=900,
        )
        if done.returncode not in (0, 1) and any(sign in done.stdout + done.stderr for sign in OFFLINE):
            pytest.skip("pre-commit cannot install the hook: the package index cannot be reached")
        return done

    passed = run()
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert re.search(r"pokerrules check\.+Passed", passed.stdout), passed.stdout

    # a broken rule file fails the hook with its diagnostic; the compose file is never checked
    rule_file.write_text(SMALL.replace("order: [", "order: [nope, "), encoding="utf-8")
    failed = run()
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert re.search(r"pokerrules check\.+Failed", failed.stdout)
    assert "rulesets/house.yaml:14:9: error R101: order names category 'nope'" in failed.stdout
    assert "docker-compose" not in failed.stdout and "mkdocs" not in failed.stdout and "S101" not in failed.stdout

    # the second snippet: rule files under rules/ instead (rulesets/ is no longer looked at)
    (project / ".pre-commit-config.yaml").write_text(
        files_snippet.replace(PUBLISHED_URL, str(release)), encoding="utf-8"
    )
    _git(project, "add", ".pre-commit-config.yaml")
    assert run().returncode == 0
    (project / "rules" / "friday.yaml").write_text(SMALL.replace("order: [", "order: [nope, "), encoding="utf-8")
    failed = run()
    assert failed.returncode == 1 and "rules/friday.yaml:14:9: error R101" in failed.stdout, failed.stdout
