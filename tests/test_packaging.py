"""The distribution: an isolated virtual environment (no system site packages),
the sdist and the wheel built from it, the wheel installed with its runtime
dependencies, and a working ``pokerrules`` from a directory outside the checkout."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
import venv
from pathlib import Path

import pytest

import evaluator
from evaluator.core.resources import catalogue_names, grammar_dir, rulesets_dir

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
# pip output that means the package index cannot be reached (not a packaging bug)
OFFLINE = (
    "Could not find a version",
    "Failed to establish a new connection",
    "Temporary failure in name resolution",
    "No matching distribution found",
    "Network is unreachable",
)


def test_installed_package_finds_its_data() -> None:
    assert (grammar_dir() / "pattern.lark").is_file()
    assert (grammar_dir() / "ruleset.schema.json").is_file()
    assert (rulesets_dir() / "standard.yaml").is_file()
    shipped = {p.stem for p in (REPO / "rulesets").glob("*.yaml")}
    assert shipped <= set(catalogue_names())
    assert evaluator.__version__


def test_the_package_and_the_project_state_one_version() -> None:
    if not (REPO / "pyproject.toml").is_file():
        pytest.skip("not running from a checkout")
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    version = re.search(r'^version = "([^"]+)"$', text, re.MULTILINE)
    assert version is not None and version.group(1) == evaluator.__version__
    test_extra = re.search(r"^test = \[(.*?)\]$", text, re.MULTILINE | re.DOTALL)
    assert test_extra is not None and '"pre-commit' in test_extra.group(1)


def _run(argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(argv, capture_output=True, text=True, cwd=cwd, env=env, check=False)
    if done.returncode != 0 and any(sign in done.stdout + done.stderr for sign in OFFLINE):
        pytest.skip(f"the package index cannot be reached: {' '.join(argv[:4])}")
    assert done.returncode == 0, f"{' '.join(argv)}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.mark.slow
def test_sdist_and_wheel_install_into_an_isolated_venv(tmp_path: Path) -> None:
    if not (REPO / "pyproject.toml").is_file():
        pytest.skip("not running from a checkout")
    env_dir = tmp_path / "venv"
    # no system site packages: only what the wheel declares gets installed
    venv.create(env_dir, with_pip=True, system_site_packages=False)
    python = str(env_dir / "bin" / "python")
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    quiet = ["--disable-pip-version-check", "-q"]
    _run([python, "-m", "pip", "install", *quiet, "build"], tmp_path, env)
    dist = tmp_path / "dist"
    # `python -m build` makes the sdist, then the wheel from the unpacked sdist:
    # a file missing from the sdist breaks the wheel here, not on a user's machine
    _run([python, "-m", "build", "--outdir", str(dist), str(REPO)], tmp_path, env)
    (sdist,) = dist.glob("pokerrules-*.tar.gz")
    (wheel,) = dist.glob("pokerrules-*.whl")
    assert sdist.name == f"pokerrules-{evaluator.__version__}.tar.gz"
    with tarfile.open(sdist) as archive:
        members = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    shipped_data = {p.relative_to(REPO).as_posix() for p in DATA.rglob("*") if p.is_file()}
    assert shipped_data and shipped_data <= members, sorted(shipped_data - members)[:5]
    assert {"tests/conftest.py", "tests/refdata.py", ".pre-commit-hooks.yaml"} <= members

    _run([python, "-m", "pip", "install", *quiet, str(wheel)], tmp_path, env)  # with its dependencies
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    pokerrules = str(env_dir / "bin" / "pokerrules")
    done = _run([pokerrules, "eval", "standard", "Kc Kd Ks 4h 4c", "--json"], outside, env)
    assert json.loads(done.stdout)["category"] == "full_house"
    assert _run([pokerrules, "--version"], outside, env).stdout.strip() == f"pokerrules {evaluator.__version__}"
    assert "checked" in _run([pokerrules, "check", str(REPO / "rulesets" / "standard.yaml")], outside, env).stdout
    where = _run([python, "-c", "import evaluator; print(evaluator.__file__)"], outside, env).stdout
    assert str(REPO) not in where, "the venv must use the installed wheel, not the checkout"
    # isolated: the venv sees its own site-packages only, not the ones of the interpreter running the tests
    paths = _run([python, "-c", "import sys; print('\\n'.join(sys.path))"], outside, env).stdout.splitlines()
    foreign = [path for path in paths if "site-packages" in path and not path.startswith(str(env_dir))]
    assert not foreign and sys.prefix != str(env_dir)
