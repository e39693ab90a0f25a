"""Pay tables as data: what a video-poker machine pays per ruleset category.

A pay table is a YAML file (``paytables/NAME.yaml``, schema
``grammar/paytable.schema.json``)::

    paytable: jacks-or-better-9-6
    ruleset: jacks-or-better-video      # a catalogue name or a path
    pays: {royal_flush: 250, straight_flush: 50, ...}   # coins per coin bet
    max_bet: {coins: 5, pays: {royal_flush: 4000}}     # the royal bonus
    published: {return: 99.5439, source: "..."}   # decimals: N when the source gives fewer than 4

Returns are computed for the maximum bet, per coin: a category listed under
``max_bet.pays`` pays that total divided by ``max_bet.coins``.

``ruleset:`` is confined like a ruleset's ``extends:`` (a relative path inside
the pay table's folder tree or a root, a file that is a ruleset: see
:mod:`evaluator.rules.confine`). Every pay is a finite number of at most
:data:`MAX_PAY` coins (``D115``).
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import Diagnostic, PokerRulesError
from ..core.safe_text import one_line
from ..rules.confine import (
    CONFINEMENT_CODES,
    MAX_PATH_CHARS,
    Confinement,
    check_named_file,
    check_reference_text,
    ruleset_reference,
    user_roots,
)
from ..rules.load import Document, read_file
from ..ruleset import Ruleset
from ..ruleset import load as load_ruleset

SCHEMA_FILE = "paytable.schema.json"
#: The most coins one pay may be (a machine's top award is a few thousand coins;
#: ``max_bet.pays`` totals included). Above it a pay is a mistake, and NumPy sums would overflow.
MAX_PAY = 1_000_000
#: The highest published return taken, in percent (real machines publish 90 to 102).
MAX_PUBLISHED_RETURN = 1000.0


class PayTableError(PokerRulesError):
    """A pay table that is malformed or does not fit its ruleset."""


@dataclass(frozen=True)
class PayTable:
    """A loaded pay table: its ruleset and the coins paid per coin bet at the maximum bet."""

    name: str
    title: str
    ruleset: Ruleset
    pays: dict[str, float]  # per coin, at the maximum bet (royal bonus applied)
    coins: int
    published_return: float | None  # percent
    published_source: str
    published_decimals: int  # decimals of a percent the source gives
    path: Path | None

    def vector(self, categories: tuple[str, ...]) -> np.ndarray:
        """The pay of each category bucket, in ``categories`` order (unlisted: 0)."""
        return np.array([self.pays.get(name, 0.0) for name in categories], dtype=np.float64)

    def key(self) -> str:
        """What the pay table's results depend on besides the ruleset (for the cache)."""
        return ";".join(f"{name}={self.pays[name]!r}" for name in sorted(self.pays))


def is_paytable(document: Document) -> bool:
    """True when a YAML document is a pay table (it has a top-level ``paytable:`` or ``pays:``)."""
    return isinstance(document.data, dict) and ("paytable" in document.data or "pays" in document.data)


def _resolve(ref: str | Path) -> Path:
    from ..core.resources import paytable_names, paytable_path

    text = str(ref)
    check_reference_text(text, ("<paytable>", 1, 1), "pay table", MAX_PATH_CHARS)
    if "/" not in text and "\\" not in text and not text.endswith((".yaml", ".yml")):
        found = paytable_path(text)
        if found is None:
            close = difflib.get_close_matches(text, paytable_names(), n=1)
            raise PayTableError(
                Diagnostic(
                    "D102",
                    f"no pay table named {text!r}",
                    text,
                    1,
                    1,
                    "error",
                    f"did you mean {close[0]!r}?" if close else None,
                )
            )
        return found
    return Path(ref)


def _bad_pay(value: float) -> str | None:
    """Why a pay cannot be paid (D105, D115), or None."""
    if not math.isfinite(value):
        return "D115"
    if value < 0:
        return "D105"
    return "D115" if value > MAX_PAY else None


def check_document(
    document: Document, path: Path | None, roots: Sequence[str] = ()
) -> tuple[list[Diagnostic], PayTable | None]:
    """Every problem of a pay-table document (positioned), and the pay table when there is none.

    ``ruleset:`` may reach the pay table's own folder tree and ``roots`` (real
    paths; the document's roots when it was loaded with some).
    """
    from ..rules.schema import validate_against

    problems = validate_against(document, SCHEMA_FILE)
    if problems:
        return problems, None
    data: dict[str, Any] = document.data

    def report(code: str, message: str, where: tuple[Any, ...], hint: str | None = None, key: bool = False) -> None:
        position = document.key_position(where) if key else document.position(where)
        problems.append(Diagnostic(code, message, position.source, position.line, position.col, "error", hint))

    reference = str(data["ruleset"])
    where = document.position(("ruleset",))
    allowed = tuple(roots) or document.roots
    try:
        target = ruleset_reference(reference, where, allowed, "ruleset")
        ruleset = load_ruleset(target, root=allowed or None) if isinstance(target, Path) else load_ruleset(target)
    except PokerRulesError as problem:
        if problem.code in CONFINEMENT_CODES:
            return list(problem.diagnostics), None  # by code and position: nothing of the target is quoted
        message = f"the ruleset {reference!r} cannot be loaded: {problem.first.message}"
        report("D103", message, ("ruleset",), problem.first.hint)
        return problems, None
    if ruleset.hand_size != 5 or ruleset.game is not None or ruleset.copies != 1 or len(ruleset.deck) > 64:
        report(
            "D104",
            f"ruleset {ruleset.name!r} is not a video-poker game: one pack, five-card hands, no hole or board cards",
            ("ruleset",),
        )
        return problems, None
    names = ruleset.category_names
    coins = int((data.get("max_bet") or {}).get("coins", 1))
    max_pays: dict[str, Any] = (data.get("max_bet") or {}).get("pays") or {}
    for section, table in ((("pays",), data["pays"]), (("max_bet", "pays"), max_pays)):
        for name, value in table.items():
            where_pay = section + (name,)
            if name not in names:
                close = difflib.get_close_matches(name, names, n=1)
                hint = (
                    f"did you mean {close[0]!r}?" if close else f"the categories of {ruleset.name}: {', '.join(names)}"
                )
                report("D101", f"{name!r} is not a category of ruleset {ruleset.name!r}", where_pay, hint, key=True)
            elif _bad_pay(value) == "D105":
                report("D105", f"the pay for {name} is negative ({value})", where_pay, "a machine pays 0 or more coins")
            elif _bad_pay(value) == "D115":
                report(
                    "D115",
                    f"the pay for {name} is {value!r}: a pay is a finite number of at most {MAX_PAY:,} coins",
                    where_pay,
                    "write the coins the machine pays for this category",
                )
    published = data.get("published") or {}
    if "return" in published and not (0.0 <= float(published["return"]) <= MAX_PUBLISHED_RETURN):
        report(
            "D116",
            f"the published return is {published['return']!r}: a percentage between 0 and {MAX_PUBLISHED_RETURN:,.0f}",
            ("published", "return"),
            "write the return as the source prints it, e.g. 99.5439",
        )
    if problems:
        return problems, None
    pays = {name: float(value) for name, value in data["pays"].items()}
    pays.update({name: float(value) / coins for name, value in max_pays.items()})  # the royal bonus, per coin
    if not any(pays.values()):
        report("D106", "the pay table pays nothing", ("pays",))
        return problems, None
    table_name = str(data["paytable"])
    return [], PayTable(
        table_name,
        one_line(data.get("title", table_name)),
        ruleset,
        pays,
        coins,
        float(published["return"]) if "return" in published else None,
        str(published.get("source", "")),
        int(published.get("decimals", 4)),
        path,
    )


def load_paytable(ref: str | Path, root: str | Path | Sequence[str | Path] | None = None) -> PayTable:
    """Load a pay table: a shipped name (``"jacks-or-better-9-6"``) or a path.

    Its ``ruleset:`` may name a file inside the pay table's folder tree or
    inside ``root`` (a folder or several), as ``extends:`` may.

    >>> load_paytable("jacks-or-better-9-6").pays["royal_flush"]
    800.0

    Raises:
        PokerRulesError: the file cannot be read, breaks the schema, or does
            not fit its ruleset (each problem with file, line and column).
    """
    path = _resolve(ref)
    confinement = Confinement.around(path, user_roots(root))
    check_named_file(path, confinement)
    document = read_file(path)
    if not is_paytable(document):
        raise PayTableError(
            Diagnostic("D107", "this file is not a pay table (it has no 'paytable:' key)", str(path), 1, 1, "error")
        )
    problems, table = check_document(document, path, confinement.roots)
    if table is None:
        raise PayTableError(problems)
    return table


def check_paytable_file(path: Path, document: Document) -> list[Diagnostic]:
    """The diagnostics ``pokerrules check`` shows for a pay-table file."""
    problems, _ = check_document(document, path)
    return problems
