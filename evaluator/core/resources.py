"""Where the shipped data lives: the grammar, the schema and the catalogue.

In a checkout (and an editable install) ``grammar/`` and ``rulesets/`` sit at
the top of the repository; a built wheel carries copies inside the package
(``evaluator/grammar``, ``evaluator/rulesets``), forced in by pyproject.toml.
Both layouts are looked up here and nowhere else.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

#: Environment variable naming the cache directory (overrides the XDG default).
CACHE_ENV = "POKERRULES_CACHE"

_PACKAGE_DIR = Path(__file__).resolve().parents[1]  # evaluator/, above core/


def _shipped(name: str) -> Path:
    inside = _PACKAGE_DIR / name
    if inside.is_dir():
        return inside
    return _PACKAGE_DIR.parent / name


@cache
def grammar_dir() -> Path:
    """The folder holding ``pattern.lark`` and ``ruleset.schema.json``."""
    return _shipped("grammar")


@cache
def rulesets_dir() -> Path:
    """The folder of the shipped catalogue (``NAME.yaml``)."""
    return _shipped("rulesets")


def catalogue_names() -> list[str]:
    """The names of every shipped ruleset, sorted."""
    return sorted(p.stem for p in rulesets_dir().glob("*.yaml"))


def catalogue_path(name: str) -> Path | None:
    """The file of catalogue ruleset ``name``, or None when there is none."""
    path = rulesets_dir() / f"{name}.yaml"
    return path if path.is_file() else None


def user_cache_dir() -> Path:
    """Where compiled data is cached: ``$POKERRULES_CACHE``, else
    ``$XDG_CACHE_HOME/pokerrules``, else ``~/.cache/pokerrules``."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "pokerrules"


@cache
def paytables_dir() -> Path:
    """The folder of the shipped pay tables (``NAME.yaml``)."""
    return _shipped("paytables")


def paytable_names() -> list[str]:
    """The names of every shipped pay table, sorted."""
    return sorted(p.stem for p in paytables_dir().glob("*.yaml"))


def paytable_path(name: str) -> Path | None:
    """The file of shipped pay table ``name``, or None when there is none."""
    path = paytables_dir() / f"{name}.yaml"
    return path if path.is_file() else None


def catalogue_titles() -> list[tuple[str, str]]:
    """(name, title) of every catalogue ruleset, without building any of them.

    Each shipped file is read with YAML's safe loader and only ``title:`` is
    taken (titles are never inherited through ``extends:``: a file without one is
    titled by its name). A file that does not read is listed as broken.

    >>> dict(catalogue_titles())["standard"]
    'Standard high poker (52 cards, no wild cards)'
    """
    import yaml

    from .safe_text import one_line

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    rows = []
    for name in catalogue_names():
        path = catalogue_path(name)
        try:
            data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader) if path is not None else None
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
            rows.append((name, "(broken: Y103)"))
            continue
        title = data.get("title") if isinstance(data, dict) else None
        rows.append((name, one_line(title) if title is not None else name))
    return rows
