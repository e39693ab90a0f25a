"""The linter behind ``pokerrules check``: collect every diagnostic, then report.

Each file is checked on its own (a broken file never stops the others), in
stages:

1. **load** -- safe YAML, limits, ``extends:`` (``Y1xx``); a file that cannot
   be read stops here;
2. **schema and build** -- the JSON Schema (``S1xx``); the values it rejects
   are taken out (:mod:`evaluator.tools.partial`) and the rest is built: patterns,
   order, deck, wild cards, ``describe:`` templates (``P1xx``, ``P2xx``,
   ``R1xx``, ``G1xx``, ``T1xx``). Every problem is reported, not just the
   first, and none that only follows from a value taken out. When the file
   has problems, the examples that do not depend on a broken part are run
   (``E1xx``) and the checks below wait for the whole file;
3. **lint** -- on a ruleset built without problems: categories this file defines, leaves
   out of ``order``, and that real hands match (``W101``; a definition no
   hand here can match is kept for the rulesets that extend this one),
   **coverage** -- a possible hand that matches no category
   (``R113``, ``R114``), categories no hand can reach (``W102``) or that an
   earlier category shadows (``W103``), found by enumerating hand classes
   within a work limit (``W104``); and every ``examples:`` entry run
   (``E1xx``).

Coverage works on hand *classes*, not hands: a hand without wild cards is
classified by its rank multiset and, for a full hand, whether it is a flush
(and in which suit, when a pattern asks). So every multiset of ``k`` ranks
the deck allows (each rank at most suits x packs times) is classified with
``Engine.classify``, for ``k`` from ``hand.min`` to ``hand.size``. With wild
cards, a class is the natural cards' multiset, whether they share one suit,
and how many wilds are held; a representative real hand of each class is
played through ``Engine.fill``, so the check agrees with the evaluator. The
work is estimated before anything is enumerated, and a ruleset over the limit
gets a ``W104`` warning instead of a long wait.

Diagnostics are collected, never raised; :func:`render` prints them as text
(``path:line:col: error CODE: message``), JSON or GitHub workflow annotations,
and the caller decides the exit code.
"""

from __future__ import annotations

import json
import os
import stat
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import combinations_with_replacement
from math import comb, factorial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..compiled.suitclasses import class_count, holdings, supported
from ..core.errors import Diagnostic, PokerRulesError
from ..core.safe_text import github_data, github_property, json_text, visible
from ..rules.cards import Card
from ..rules.work import pattern_factor

if TYPE_CHECKING:
    from ..rules.load import Document, Position
    from ..rules.patterns import HandClass, Pattern
    from ..rules.ruleset import Category
    from ..ruleset import Ruleset

YAML_SUFFIXES = (".yaml", ".yml")

# The enumeration budget, in units of about 2.5 microseconds: classifying a
# class costs CLASS_COST units, trying one way to fill a hand's wild cards one
# unit. A 5-card ruleset of 52 cards needs about 150,000 units, deuces wild
# about 580,000, a 7-card hand about 1.2 million; the limit bounds the check
# of one file to a few seconds whatever the file says. Checking reachability
# afterwards has a budget of its own (MAX_REASON_WORK, in pattern matches).
CLASS_COST = 12
MAX_COVERAGE_WORK = 1_500_000
MAX_REASON_WORK = 400_000
# Suit classes (flush(k), run(k, flush), suits): five cards of 52 are 134,459
# classes, checked in seconds; a wild joker more with long patterns (freak-hands,
# 33 million units) takes the better part of a minute, the most a check takes on
MAX_SUITED_COVERAGE_WORK = 40_000_000
# Analyses of identical rules are shared between the files of one run (the
# suit tie-break variants of a catalogue classify alike).
_ANALYSIS_CACHE_SIZE = 64


# --------------------------------------------------------------------------- files


def find_files(paths: Sequence[str]) -> tuple[list[Path], str | None]:
    """Every ruleset file named or found under ``paths``; a usage problem, if any.

    Directories are searched recursively for ``*.yaml`` and ``*.yml``; hidden
    files and folders (``.github``, ``.pre-commit-config.yaml``) are skipped
    there, since they are not rule files. A file named explicitly is always
    checked, and each file is checked once.
    """
    found, _, problem = collect_files(paths)
    return [path for path, _ in found], problem


def collect_files(paths: Sequence[str]) -> tuple[list[tuple[Path, tuple[str, ...]]], list[Diagnostic], str | None]:
    """The files to check, each with the folders it may reach; what cannot be read; a usage problem.

    A folder named on the command line is a root for the files found in it
    (their ``extends:`` may reach anywhere inside it). A named path that
    exists but is not a regular file (a FIFO, a device) is reported, never
    opened; a folder that cannot be read is reported (``Y125``), not skipped.
    """
    files: list[tuple[Path, tuple[str, ...]]] = []
    problems: list[Diagnostic] = []
    for text in paths:
        path = Path(text)
        try:
            mode = os.stat(path).st_mode
        except (OSError, ValueError):
            return [], [], f"no such file or directory: {visible(text)}"
        if stat.S_ISDIR(mode):
            root = (os.path.realpath(path),)
            files.extend((found, root) for found in _walk(path, problems))
        elif stat.S_ISREG(mode):
            files.append((path, ()))
        else:
            problems.append(
                Diagnostic("Y101", "cannot read this: not a regular file (a pipe, a device or a socket)", text, 1, 1)
            )
    unique: dict[str, tuple[Path, tuple[str, ...]]] = {}
    for path, roots in files:
        unique.setdefault(os.path.normpath(path), (path, roots))
    return list(unique.values()), problems, None


def _walk(top: Path, problems: list[Diagnostic] | None = None) -> list[Path]:
    found = []

    def unreadable(problem: OSError) -> None:
        if problems is not None:
            where = str(problem.filename) if problem.filename is not None else str(top)
            problems.append(
                Diagnostic(
                    "Y125",
                    f"cannot read this folder ({problem.strerror or problem}); its files are not checked",
                    where,
                    1,
                    1,
                )
            )

    # os.walk does not follow symbolic links to folders, so a link loop cannot hang the search.
    for folder, subfolders, names in os.walk(top, onerror=unreadable):
        subfolders[:] = sorted(name for name in subfolders if not name.startswith("."))
        for name in sorted(names):
            if name.endswith(YAML_SUFFIXES) and not name.startswith("."):
                candidate = Path(folder) / name
                if candidate.is_file():
                    found.append(candidate)
    return found


def check_file(path: Path, roots: Sequence[str] = ()) -> list[Diagnostic]:
    """Every diagnostic of one ruleset file, sorted by position.

    ``roots`` are folders (besides the file's own) that its ``extends:`` and
    ``game.split`` paths may reach.
    """
    from ..rules.load import load_document
    from ..rules.ruleset import build_readable
    from ..ruleset import Ruleset
    from .examples import run_examples
    from .partial import doubts_of, readable_part

    source = str(path)
    try:
        document = load_document(path, root=roots)
    except PokerRulesError as problem:
        return list(problem.diagnostics)
    except Exception as bug:  # noqa: BLE001 - one broken file must not stop the others
        return [_internal_error(bug, source)]
    from ..draw.paytable import check_paytable_file, is_paytable

    if is_paytable(document):  # a pay table (paytables/): its own schema and checks
        try:
            return _sorted(check_paytable_file(path, document), document)
        except Exception as bug:  # noqa: BLE001
            return [_internal_error(bug, source)]
    try:
        readable = readable_part(document)
        if readable.document is None:
            return _sorted(readable.diagnostics, document)
        ruleset, builder = build_readable(readable.document, path, readable.removed, Ruleset)
    except PokerRulesError as problem:
        return _sorted(problem.diagnostics, document)
    except Exception as bug:  # noqa: BLE001
        return [_internal_error(bug, source)]
    found = readable.diagnostics + builder.problems
    doubts = doubts_of(readable.removed, builder.located, builder.broken)
    if not doubts.any and not builder.problems:
        return _sorted(found + _split_targets(ruleset) + lint(ruleset, source), document)
    # Coverage and reachability need the whole ruleset; the examples that do
    # not depend on a broken part can still be judged.
    if not doubts.everything:
        found += _run_stage(partial(run_examples, ruleset, doubts.trusts), source)
    return _sorted(found, document)


def _run_stage(stage: Callable[[], list[Diagnostic]], source: str) -> list[Diagnostic]:
    try:
        return stage()
    except Exception as bug:  # noqa: BLE001 - report it and go on
        return [_internal_error(bug, source)]


def _split_targets(ruleset: Ruleset) -> list[Diagnostic]:
    """Each ``game.split`` ruleset loaded as a showdown would load it (confined like ``extends:``)."""
    from ..rules.ruleset import load_split_half

    game = ruleset.game
    found: list[Diagnostic] = []
    for index, split in enumerate(game.split if game is not None else ()):
        try:
            load_split_half(ruleset.document, index, split.ruleset)
        except PokerRulesError as problem:
            found += problem.diagnostics
    return found


def lint(ruleset: Ruleset, source: str | None = None) -> list[Diagnostic]:
    """The checks that need a built ruleset: unused categories, coverage, reachability, examples.

    Each stage runs on its own, so a bug in one still lets the others report.
    """
    from .examples import run_examples

    source = source or (ruleset.document.sources[0] if ruleset.document.sources else ruleset.name)
    stages: tuple[Callable[[], list[Diagnostic]], ...] = (
        lambda: _Linter(ruleset, source).diagnostics(),
        lambda: run_examples(ruleset),
    )
    found: list[Diagnostic] = []
    for stage in stages:
        try:
            found += stage()
        except Exception as bug:  # noqa: BLE001 - report it and go on
            found.append(_internal_error(bug, source))
    return found


def _internal_error(bug: Exception, source: str) -> Diagnostic:
    """R199: a bug met while checking a file, reported like any other finding."""
    message = f"internal error while checking this file: {type(bug).__name__}: {bug}"[:300]
    return Diagnostic(
        "R199", message, source, 1, 1, "error", "this is a bug in pokerrules; please report it with the file"
    )


def check_paths(
    paths: Sequence[str], roots: Sequence[str] = (), progress: Callable[[str], None] | None = None
) -> tuple[list[Diagnostic], str | None]:
    """Check every file under ``paths``; returns the diagnostics and a usage problem.

    ``roots`` (``--root``) are folders every file's ``extends:`` may reach;
    ``progress`` is told which file is being checked.

    A diagnostic found through several files (a problem in a shared parent)
    is reported once.
    """
    files, unreadable, problem = collect_files(paths)
    if problem:
        return [], problem
    diagnostics: dict[Diagnostic, None] = dict.fromkeys(unreadable)
    for number, (path, found_roots) in enumerate(files, start=1):
        if progress is not None:
            progress(f"{path} ({number} of {len(files)} files)")
        diagnostics.update(dict.fromkeys(check_file(path, (*found_roots, *roots))))
    return list(diagnostics), None


def _sorted(diagnostics: Sequence[Diagnostic], document: Document) -> list[Diagnostic]:
    order = {source: rank for rank, source in enumerate(document.sources)}
    unique = list(dict.fromkeys(diagnostics))
    return sorted(unique, key=lambda d: (order.get(d.source, len(order)), d.source, d.line, d.col, d.code))


# --------------------------------------------------------------------------- positions


def _place(document: Document, source: str, *paths: tuple[Any, ...]) -> tuple[Position, str]:
    """Where to report a finding about ``paths`` when checking ``source``.

    The first path written in the checked file wins. A finding about values
    that were all inherited is reported at the file's own ``extends:`` (the
    file being checked is where the combination was made), with a note
    saying where the value was written.
    """
    first: Position | None = None
    for path in paths:
        position = document.position(path)
        if first is None:
            first = position
        if position.source == source:
            return position, ""
    assert first is not None
    extends = document.positions.get(("extends",))
    if extends is not None and extends.source == source and first.source != source:
        return extends, f" (inherited from {_shown_path(first.source)}:{first.line})"
    return first, ""


def _shown_path(path: str) -> str:
    """A path as short as it can be said: relative to the working folder when inside it."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return path
    return path if relative.startswith("..") else relative


def _diagnostic(
    code: str, message: str, where: Position, severity: str = "error", hint: str | None = None
) -> Diagnostic:
    return Diagnostic(code, message, where.source, where.line, where.col, severity, hint)


# --------------------------------------------------------------------------- W101


def _unused_definitions(document: Document, source: str) -> list[tuple[str, Any, Position]]:
    """Categories this file itself defines that ``order`` never names: (name, spec, where).

    Only definitions written in the checked file count: a child that inherits
    a category it does not rank (``five_of_a_kind`` from ``standard``) is not
    at fault, and could only silence a warning by removing it with null.
    """
    categories, order = document.data.get("categories"), document.data.get("order")
    if not isinstance(categories, dict) or not isinstance(order, list):
        return []
    found = []
    for name, spec in categories.items():
        if isinstance(spec, dict) and name not in order:
            where = document.key_position(("categories", name))
            if where.source == source:
                found.append((name, spec, where))
    return found


# --------------------------------------------------------------------------- coverage


@dataclass
class _Hole:
    """Hands of one size that match no category: how many classes, and one example."""

    size: int
    example: tuple[Card, ...]
    count: int = 1


@dataclass
class _Analysis:
    """What enumerating a ruleset's hand classes found (shared between identical rules)."""

    work: int  # the estimated work, in units (see MAX_COVERAGE_WORK)
    complete: bool  # False when the estimate was over the limit, or the evaluator refused a hand
    refused: str | None = None  # why the evaluator refused a hand, when it did
    holes: list[_Hole] = field(default_factory=list)
    reached: set[str] = field(default_factory=set)
    # every class a hand can be played as, with the category it lands in
    landed: dict[HandClass, str] = field(default_factory=dict)


_ANALYSES: dict[str, _Analysis] = {}


class _Linter:
    """Coverage, reachability and shadowing of one built ruleset."""

    def __init__(self, ruleset: Ruleset, source: str) -> None:
        self.ruleset = ruleset
        self.source = source
        self.document = ruleset.document
        self.engine = ruleset.engine
        self.wild = ruleset.wild
        self.symbols = ruleset.rank_symbols  # weakest first: value i is symbols[i]
        self.size = ruleset.hand_size
        self.sizes = range(self.size, max(ruleset.hand_min, 1) - 1, -1)  # full hands first
        self.copies = ruleset.copies
        # Which suits each rank has as natural (never wild) cards.
        self.natural_suits: list[tuple[str, ...]] = [
            ()
            if symbol in self.wild.ranks
            else tuple(s for s in ruleset.suits if Card(symbol, s) not in self.wild.cards)
            for symbol in self.symbols
        ]
        self.caps = [len(suits) * self.copies for suits in self.natural_suits]
        # Cards are made by the thousand: build each one once.
        self.card_of = [{s: Card(symbol, s) for s in ruleset.suits} for symbol in self.symbols]
        self.wild_cards = self._wild_supply()
        self.dead_jokers = ruleset.jokers if not self.wild.jokers else 0
        self.uses_wilds = bool(self.wild_cards) or self.wild.lowest_rank
        # Suit identity only matters to patterns that compare it (`suit = h`).
        self.flush_suits = ruleset.suits if self.engine.flush_needs_suit else ruleset.suits[:1]
        # large patterns make every classification and every match cost more (see evaluator.rules.work)
        self.factor = pattern_factor(category.pattern for category in ruleset.categories)

    def _wild_supply(self) -> list[Card]:
        """One real card for each wild card the deck holds (jokers first)."""
        cards: list[Card] = []
        if self.wild.jokers:
            cards += [Card.joker(n) for n in range(1, self.ruleset.jokers + 1)]
        for card in sorted(self.wild.cards, key=str):
            if not card.is_joker:
                cards += [card] * self.copies
        for symbol in self.ruleset.deck_ranks:
            if symbol in self.wild.ranks:
                cards += [Card(symbol, s) for s in self.ruleset.suits for _ in range(self.copies)]
        return cards

    # --- the report --------------------------------------------------------------------

    def diagnostics(self) -> list[Diagnostic]:
        found = self._dead_jokers() + self._too_wide()
        analysis = self._analysis()
        found += self._unused(analysis)
        if not analysis.complete:
            where, note = _place(self.document, self.source, ("hand", "size"), ("hand",))
            why = (
                f"the evaluator refuses some hands ({analysis.refused})"
                if analysis.refused
                else f"the ruleset has too many hand classes to enumerate (more than the limit of {MAX_SUITED_COVERAGE_WORK if self.engine.by_suit_class else MAX_COVERAGE_WORK:,} units of work)"
            )
            found.append(
                _diagnostic(
                    "W104",
                    f"coverage and reachability not checked: {why}{note}",
                    where,
                    "warning",
                    "a smaller hand, deck or fewer wild cards can be checked",
                )
            )
            return found
        for hole in analysis.holes:
            found.append(self._hole(hole))
        found += self._unreachable(analysis)
        return found

    def _unused(self, analysis: _Analysis) -> list[Diagnostic]:
        """W101: a category this file defines, not in order, that hands of this ruleset match.

        A definition that matches no hand here is left alone: it is there for
        the rulesets that extend this one (``standard`` defines five of a kind,
        which one pack cannot deal, for its wild-card and two-pack children).
        Its pattern is still read, so a broken one is reported (``P1xx``).
        """
        from ..rules.patterns import PatternContext, Where, check_pattern, compile_pattern, parse_pattern

        rs = self.ruleset
        context = PatternContext(
            rs.rank_symbols, rs.suits, rs.hand_size, self.engine.ace_low_in_runs, rs.category_names
        )
        found: list[Diagnostic] = []
        budget = MAX_REASON_WORK
        for name, spec, where in _unused_definitions(self.document, self.source):
            hint = f"add {name!r} to order where it ranks, or delete it"
            text = str(spec.get("pattern", ""))
            at = self.document.position(("categories", name, "pattern"))
            try:
                pattern = parse_pattern(text, Where(at.source, at.line, at.col))
            except PokerRulesError as problem:
                found += problem.diagnostics
                continue
            if check_pattern(pattern, context, text, Where(at.source, at.line, at.col)):
                continue  # meaningless in this deck (a rank it lacks...): cannot match a hand here
            budget -= len(analysis.landed) * self.factor
            if not analysis.complete or budget < 0:
                found.append(
                    _diagnostic(
                        "W101",
                        f"category {name!r} is defined but not in order, so no hand is ever ranked as it",
                        where,
                        "warning",
                        hint,
                    )
                )
                continue
            matcher = compile_pattern(pattern, context)
            hit = next((hc for hc in analysis.landed if matcher(hc, {}) is not None), None)
            if hit is not None:
                found.append(
                    _diagnostic(
                        "W101",
                        f"category {name!r} is defined but not in order: hands such as {self._example_of(hit)} "
                        f"match it but are ranked as {analysis.landed[hit]!r}",
                        where,
                        "warning",
                        hint,
                    )
                )
        return found

    def _too_wide(self) -> list[Diagnostic]:
        """R104: a deck whose packs the lookup tables cannot hold for this hand size."""
        from ..compiled.tables import card_model
        from ..core.errors import RulesetError

        try:
            card_model(self.ruleset)
        except RulesetError as problem:
            where, note = _place(self.document, self.source, ("deck", "copies"), ("deck",))
            return [_diagnostic("R104", problem.first.message + note, where, "error", problem.first.hint)]
        return []

    def _dead_jokers(self) -> list[Diagnostic]:
        """R114: jokers in the deck that are not wild can never play."""
        if not self.dead_jokers:
            return []
        top = tuple(v for v in range(len(self.symbols) - 1, -1, -1) if self.caps[v])[: self.size - 1]
        naturals = self._representative(top, None) or []
        example = " ".join(str(card) for card in [Card.joker(1), *naturals])
        # The choice that makes them dead is wild.jokers: false (jokers are wild by default).
        where, note = _place(self.document, self.source, ("wild", "jokers"), ("deck", "jokers"), ("deck",))
        return [
            _diagnostic(
                "R114",
                f"the deck has {self.dead_jokers} joker{'s' * (self.dead_jokers > 1)} that {'are' if self.dead_jokers > 1 else 'is'} "
                f"not wild, so a hand holding one (e.g. {example}) matches no category{note}",
                where,
                "error",
                "set wild.jokers: true, or deck.jokers: 0",
            )
        ]

    def _hole(self, hole: _Hole) -> Diagnostic:
        where, note = _place(self.document, self.source, ("order",))
        cards = " ".join(str(card) for card in hole.example)
        full = hole.size == self.size
        what = "a hand" if full else f"an incomplete hand of {hole.size} card{'s' * (hole.size > 1)}"
        others = f" ({hole.count:,} hand classes in all)" if hole.count > 1 else ""
        catch_all = " ".join("XYZWVU"[: self.size]) if self.size <= 6 else None
        if full and catch_all:
            hint = (
                f'add a category that matches it, e.g. a catch-all high_card: {{pattern: "{catch_all}"}} last in order'
            )
        elif full:
            hint = "add a category that matches it, e.g. a catch-all last in order"
        else:
            hint = (
                f"hand.min is {self.ruleset.hand_min}: some category must match hands of {hole.size} cards "
                "(shapes may leave out trailing single cards; run, flush and comparisons of a missing card fail)"
            )
        return _diagnostic("R113", f"{what} such as {cards} matches no category{others}{note}", where, "error", hint)

    # --- enumeration -------------------------------------------------------------------

    def _fingerprint(self) -> str:
        """The merged data that can decide where a hand lands, as one comparable text.

        Left out: what only names, documents or tests the rules, what orders hands
        within a category (descriptions, the suit tie-break) and what applies only
        between hands (beats, games). The suit order is kept when it can matter: it
        picks the suit of an all-wild flush, which only `suit =` patterns see.
        """
        data = {
            key: value
            for key, value in self.ruleset.data.items()
            if key not in ("name", "title", "source", "examples", "extends", "$schema", "beats", "game", "suits")
        }
        categories = data.get("categories")
        if isinstance(categories, dict):
            data["categories"] = {
                name: {k: v for k, v in spec.items() if k != "describe"} if isinstance(spec, dict) else spec
                for name, spec in categories.items()
            }
        if self.uses_wilds and self.engine.flush_needs_suit:
            data["suits"] = self.ruleset.suit_order
        # an analysis cut short by a lower limit must not be reused under a higher one
        data["limits"] = [MAX_COVERAGE_WORK, MAX_REASON_WORK]
        return json.dumps(data, sort_keys=True, default=str)

    def _analysis(self) -> _Analysis:
        key = self._fingerprint()
        cached = _ANALYSES.get(key)
        if cached is not None:
            return cached
        work = self._estimate()
        analysis = _Analysis(
            work, work <= (MAX_SUITED_COVERAGE_WORK if self.engine.by_suit_class else MAX_COVERAGE_WORK)
        )
        if analysis.complete:
            self._enumerate(analysis)
        if len(_ANALYSES) >= _ANALYSIS_CACHE_SIZE:
            _ANALYSES.pop(next(iter(_ANALYSES)))
        _ANALYSES[key] = analysis
        return analysis

    def _count(self, n: int, caps: Sequence[int]) -> int:
        """How many multisets of ``n`` ranks have at most ``caps[v]`` cards of rank ``v``."""
        ways = [1] + [0] * n
        for cap in caps:
            # multiply by (1 + x + ... + x^cap), truncated at x^n
            new = [0] * (n + 1)
            running = 0
            for total in range(n + 1):
                running += ways[total]
                if total - cap - 1 >= 0:
                    running -= ways[total - cap - 1]
                new[total] = running
            ways = new
        return ways[n]

    def _estimate(self) -> int:
        """The work enumeration would take, computed without enumerating."""
        if self.engine.by_suit_class:
            return self._estimate_suited()
        variants = 1 + len(self.flush_suits)
        ranks = len(self.symbols)
        work = 0
        for k in self.sizes:
            for w in range(0, min(k, len(self.wild_cards)) + 1):
                classes = self._count(k - w, self.caps) * (variants if k == self.size else 1)
                per_class = (CLASS_COST if w == 0 else CLASS_COST + 2 * comb(ranks + w - 1, w)) * self.factor
                work += classes * per_class
                if work > MAX_COVERAGE_WORK:
                    return work  # enough to know; the rest need not be counted
        return work

    def _multisets(self, n: int) -> Iterator[tuple[int, ...]]:
        """Every multiset of ``n`` natural rank values, high to low, within the deck's counts."""
        values = [v for v in range(len(self.symbols) - 1, -1, -1) if self.caps[v] > 0]
        capped = any(self.caps[v] < n for v in values)
        for combo in combinations_with_replacement(values, n):
            if capped and any(count > self.caps[v] for v, count in Counter(combo).items()):
                continue
            yield combo

    def _estimate_suited(self) -> int:
        """The work of enumerating suit classes (patterns that look at suits within the hand)."""
        if any(supported(self.ruleset, k) is not None for k in self.sizes):
            return MAX_SUITED_COVERAGE_WORK + 1
        work = 0
        for k in self.sizes:
            for w in range(0, min(k, len(self.wild_cards)) + 1):
                # a hand of wild cards tries every concrete card for them
                per_class = CLASS_COST * comb(len(self.symbols) * len(self.ruleset.suits) + w - 1, w)
                # about one class per renaming of the suits: hands / suits!
                work += class_count(self.ruleset, k - w) // factorial(len(self.ruleset.suits)) * per_class * self.factor
        return work

    def _enumerate(self, analysis: _Analysis) -> None:
        if self.engine.by_suit_class:
            self._enumerate_suited(analysis)
            return
        if not self.uses_wilds:
            self._enumerate_natural(analysis)
        else:
            self._enumerate_wild(analysis)

    def _record(
        self, analysis: _Analysis, size: int, hand_class: HandClass | None, name: str | None, example: Sequence[Card]
    ) -> None:
        """Note where one class landed (``name``), or that it is a hole (``name`` None)."""
        if name is None:
            for hole in analysis.holes:
                if hole.size == size:
                    hole.count += 1
                    return
            analysis.holes.append(_Hole(size, tuple(example)))
            return
        analysis.reached.add(name)
        if hand_class is not None:
            analysis.landed.setdefault(hand_class, name)

    def _enumerate_natural(self, analysis: _Analysis) -> None:
        """No wild cards: classify every rank multiset, with and without a flush."""
        classify = self.engine.classify
        several_suits = len(self.ruleset.suits) >= 2
        for k in self.sizes:
            full = k == self.size
            for combo in self._multisets(k):
                # Cheap tests of which suit patterns can be dealt; cards are made only for a hole.
                options: list[str | None] = []
                if not full or (several_suits and k >= 2):
                    options.append(None)
                if full and (self.copies >= k or max(Counter(combo).values()) <= self.copies):
                    options += self.flush_suits
                for suit in options:
                    classification = classify(combo, suit)
                    if classification is None:
                        self._record(analysis, k, None, None, self._representative(combo, suit, mixed=full) or [])
                    else:
                        self._record(analysis, k, classification.hand_class, classification.category.name, ())

    def _enumerate_wild(self, analysis: _Analysis) -> None:
        """Wild cards: play a real hand of each class through the evaluator's fill."""
        engine = self.engine
        for k in self.sizes:
            for w in range(0, min(k, len(self.wild_cards)) + 1):
                wilds = self.wild_cards[:w]
                for combo in self._multisets(k - w):
                    for suit, naturals in self._variants(combo, k):
                        if not wilds and not self.wild.lowest_rank:
                            # no wild card held: fill would classify the naturals as they are
                            chosen = engine.classify(combo, suit if k == self.size else None)
                        else:
                            cards = [*naturals, *wilds]
                            try:
                                fill = engine.fill(cards, engine.wild_mask(cards))
                            except PokerRulesError as problem:
                                # an evaluator limit (too many wild cards to fill): such hands
                                # cannot be ranked at all, so coverage cannot be decided
                                analysis.complete, analysis.refused = False, problem.first.message
                                return
                            chosen = fill.classification if fill is not None else None
                        if chosen is None:
                            self._record(analysis, k, None, None, [*naturals, *wilds])
                        else:
                            self._record(analysis, k, chosen.hand_class, chosen.category.name, ())

    def _enumerate_suited(self, analysis: _Analysis) -> None:
        """flush(k), run(k, flush), suits: play one hand of each suit class."""
        engine = self.engine
        for k in self.sizes:
            for cards, _ in holdings(self.ruleset, k):
                try:
                    fill = engine.best(cards, engine.candidates(cards))  # hand.best_subset: any subset may play
                except PokerRulesError as problem:
                    analysis.complete, analysis.refused = False, problem.first.message
                    return
                if fill is None:
                    self._record(analysis, k, None, None, cards)
                else:
                    self._record(analysis, k, fill.classification.hand_class, fill.classification.category.name, ())

    def _variants(self, combo: tuple[int, ...], k: int) -> Iterator[tuple[str | None, list[Card]]]:
        """The natural cards worth telling apart, with their suit (None: not all of one suit).

        An incomplete hand needs one representative (flushes need a full hand).
        A full one: mixed suits, and all of one suit -- each suit when a pattern
        compares suits, else the first suit that can hold these ranks naturally
        (with wild cards such as Js, a natural jack is not in every suit).
        """
        if k < self.size:
            cards = self._representative(combo, None, mixed=False)
            if cards is not None:
                yield None, cards
            return
        if len(combo) >= 2:
            cards = self._representative(combo, None)
            if cards is not None:
                yield None, cards
        elif not combo:
            yield None, []
            return
        for suit in self.ruleset.suits:
            cards = self._representative(combo, suit)
            if cards is not None:
                yield suit, cards
                if not self.engine.flush_needs_suit:
                    return

    def _representative(self, combo: tuple[int, ...], suit: str | None, mixed: bool = True) -> list[Card] | None:
        """Real natural cards with these ranks: all of ``suit``, or (``mixed``) not all of one suit.

        None when the deck cannot deal such cards.
        """
        card_of = self.card_of
        if suit is not None and combo:
            if any(suit not in self.natural_suits[v] for v in combo) or (
                self.copies < len(combo) and max(Counter(combo).values()) > self.copies
            ):
                return None
            return [card_of[v][suit] for v in combo]
        cards: list[Card] = []
        for index, (value, count) in enumerate(sorted(Counter(combo).items(), reverse=True)):
            options = self.natural_suits[value]
            start = index % len(options)  # rotate, so that different ranks take different suits
            cards += [card_of[value][options[(start + j) % len(options)]] for j in range(count)]
        if mixed and len(cards) >= 2 and len({card.suit for card in cards}) == 1:
            cards = self._unsuit(cards)
        return cards if cards or not combo else None

    def _unsuit(self, cards: list[Card]) -> list[Card]:
        """Move one card to another suit so that the cards are not all of one suit (or give up)."""
        used = Counter(cards)
        for index in range(len(cards) - 1, -1, -1):
            card = cards[index]
            value = self.symbols.index(card.rank or "")
            for other in self.natural_suits[value]:
                replacement = Card(card.rank, other)
                if other != card.suit and used[replacement] < self.copies:
                    return [*cards[:index], replacement, *cards[index + 1 :]]
        return []  # every card can only be of that suit: no mixed hand has these ranks

    # --- reachability ----------------------------------------------------------------------

    def _unreachable(self, analysis: _Analysis) -> list[Diagnostic]:
        """W102 and W103 for each category in order that no hand lands in."""
        found = []
        order = list(self.ruleset.category_names)
        budget = MAX_REASON_WORK
        for index, category in enumerate(self.ruleset.categories):
            if category.name in analysis.reached:
                continue
            where, note = _place(self.document, self.source, ("order", index), ("categories", category.name))
            earlier = self.ruleset.categories[:index]
            # Finding the reason costs a match per class and earlier category: bounded too.
            cost = len(analysis.landed) * (1 + len(earlier)) * self.factor
            if cost > budget:
                found.append(
                    _diagnostic(
                        "W102",
                        f"category {category.name!r} is unreachable: no hand lands in it{note}",
                        where,
                        "warning",
                        f"remove {category.name!r} from order",
                    )
                )
                continue
            budget -= cost
            matched = [hc for hc in analysis.landed if category.matcher(hc, {}) is not None]
            wild_words = "wild cards always make a better hand" if self.uses_wilds else ""
            if not matched:
                reason, hint = self._no_match_reason(category)
                found.append(
                    _diagnostic(
                        "W102", f"category {category.name!r} is unreachable: {reason}{note}", where, "warning", hint
                    )
                )
                continue
            covering = [e for e in earlier if all(e.matcher(hc, {}) is not None for hc in matched)]
            if covering:
                shadow = covering[-1]  # the closest: the most specific category that covers it
                example = self._example_of(matched[0])
                because = f" ({wild_words})" if wild_words else ""
                found.append(
                    _diagnostic(
                        "W103",
                        f"category {category.name!r} is shadowed by {shadow.name!r}, which comes earlier in order "
                        f"and matches every hand {category.name!r} matches{because}, e.g. {example}{note}",
                        where,
                        "warning",
                        f"remove {category.name!r} from order, or move it above {shadow.name!r} "
                        "if it should win those hands",
                    )
                )
                continue
            names = sorted({analysis.landed[hc] for hc in matched}, key=order.index)
            lead = f"{wild_words}; " if wild_words else ""
            found.append(
                _diagnostic(
                    "W102",
                    f"category {category.name!r} is unreachable: {lead}every hand it matches is ranked "
                    f"earlier in order, as {_words(names)}{note}",
                    where,
                    "warning",
                    f"remove {category.name!r} from order, or move it higher",
                )
            )
        return found

    def _no_match_reason(self, category: Category) -> tuple[str, str]:
        """Why a pattern matches no hand this ruleset can make."""
        group = _largest_group(category.pattern)
        most = max(self.caps, default=0)
        if group > most and not self.uses_wilds:
            packs = "one pack" if self.copies == 1 else f"{self.copies} packs"
            suits = len(self.ruleset.suits)
            return (
                f"it needs {group} cards of one rank, but the deck has at most {most} of a rank "
                f"({suits} suit{'s' * (suits > 1)}, {packs}) and no wild cards",
                f"remove {category.name!r} from order, or add wild cards or packs (deck.copies)",
            )
        if self.uses_wilds:
            return (
                "no hand is ever played as it: no natural hand matches its pattern, "
                "and wild cards always make a better hand",
                f"remove {category.name!r} from order",
            )
        return ("no hand this deck can deal matches its pattern", f"remove {category.name!r} from order")

    def _example_of(self, hand_class: HandClass) -> str:
        """A real hand of a class, for messages."""
        combo = hand_class.ranks
        cards = self._representative(combo, hand_class.flush_suit) if hand_class.flush_suit else None
        if cards is None:
            cards = self._representative(combo, None) or [Card(self.symbols[v], self.ruleset.suits[0]) for v in combo]
        return " ".join(str(card) for card in cards)


def _largest_group(pattern: Pattern) -> int:
    """The largest rank group a conjunction of the pattern requires (0 when none is required)."""
    from ..rules.patterns import AllOf, Shape

    items = pattern.items if isinstance(pattern, AllOf) else (pattern,)
    sizes = [size for item in items if isinstance(item, Shape) for _, size in item.groups]
    return max(sizes, default=0)


def _words(names: Sequence[str]) -> str:
    quoted = [repr(name) for name in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


# --------------------------------------------------------------------------- reporting


def render(diagnostics: Sequence[Diagnostic], report_format: str) -> str:
    """The diagnostics as text, JSON or GitHub workflow annotations.

    Text from the files (messages, hints, file names) is escaped in every
    format (see :mod:`evaluator.core.safe_text`): no control, escape or bidi
    character is printed raw, and no line can start a workflow command.
    """
    if report_format == "json":
        return json_text(json.dumps([d.as_dict() for d in diagnostics], indent=2)) + "\n"
    if report_format == "github":
        lines = []
        for d in diagnostics:
            level = "error" if d.severity == "error" else "warning"
            message = visible(d.message) + (f"\nhint: {visible(d.hint)}" if d.hint else "")
            lines.append(
                f"::{level} file={github_property(d.source)},line={d.line},col={d.col},"
                f"title={github_property(d.code)}::{github_data(message)}"
            )
        return "".join(line + "\n" for line in lines)
    return "".join(str(d) + "\n" for d in diagnostics)
