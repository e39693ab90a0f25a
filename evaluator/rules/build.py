"""Building Rules from a validated document, and loading a ruleset by name or path.

Building is where the meaning of a ruleset is settled: ranks are ordered under
the ace rule, patterns are parsed and checked against the deck, names in
``order`` are resolved, wild cards are checked against the deck. Every problem
is collected with its position before anything is raised, so one run of
``pokerrules check`` reports them all.
"""

from __future__ import annotations

import difflib
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

from ..core.errors import CardError, Diagnostic, PatternError, RulesetError
from ..core.safe_text import one_line
from . import pattern_memo
from .build_game import build_deal_wild, build_game, check_deal_rules
from .cards import RANKS, SUITS, Card, parse_cards, rank_hint, rank_token
from .confine import MAX_PATH_CHARS, Confinement, check_reference_text, ruleset_reference, user_roots
from .load import Document, load_document
from .patterns import (
    Matcher,
    Pattern,
    PatternContext,
    Where,
    check_pattern,
    compile_pattern,
    key_terms,
    parse_pattern,
)
from .ruleset import Beat, Category, CompiledPattern, Example, Rules, WildRules
from .schema import check as check_schema
from .templates import check_template

MAX_DECK_CARDS = 8 * 52 + 2

# When the schema took out part of the deck, hand or ace sections, these checks
# against the deck cannot be made (they would only report what follows from it).
DECK_SECTIONS = frozenset({"deck", "hand", "ace"})
DECK_CODES = frozenset(
    {"P203", "P204", "P208", "P209", "R103", "R104", "R105", "R106", "R108", "R109", "R111", "R112", "G101", "G102"}
)

R = TypeVar("R", bound="Rules")  # the class a document is built to (the facade passes its own)


class _Builder:
    """Collects diagnostics while turning a document into ruleset fields.

    ``removed`` are the paths of values the schema rejected (see
    :mod:`evaluator.tools.partial`): the problems that only follow from their absence
    are not reported. ``located`` keeps (code, path) of each problem reported,
    and ``broken`` the categories that could not be built.
    """

    def __init__(self, document: Document, removed: Sequence[tuple[Any, ...]] = ()) -> None:
        self.document = document
        self.data: dict[str, Any] = document.data
        self.problems: list[Diagnostic] = []
        self.located: list[tuple[str, tuple[Any, ...]]] = []
        self.broken: set[str] = set()
        self.removed = set(removed)
        deck_unread = any(path and path[0] in DECK_SECTIONS for path in removed)
        self.unchecked: frozenset[str] = DECK_CODES if deck_unread else frozenset()

    def was_removed(self, path: tuple[Any, ...]) -> bool:
        """True when the value at ``path``, or one holding it, was removed."""
        return any(path[:n] in self.removed for n in range(len(path) + 1))

    def touched(self, path: tuple[Any, ...]) -> bool:
        """True when the value at ``path`` was removed, or a part of it was."""
        return self.was_removed(path) or any(removed[: len(path)] == path for removed in self.removed)

    def add(self, found: Sequence[Diagnostic], path: tuple[Any, ...]) -> None:
        """Keep ``found`` (problems of the value at ``path``) except checks that could not be made."""
        for diagnostic in found:
            if diagnostic.code not in self.unchecked:
                self.problems.append(diagnostic)
                self.located.append((diagnostic.code, path))

    def report(
        self, code: str, message: str, path: tuple[Any, ...], hint: str | None = None, *, key: bool = False
    ) -> None:
        position = self.document.key_position(path) if key else self.document.position(path)
        self.add([Diagnostic(code, message, position.source, position.line, position.col, "error", hint)], path)

    def where(self, path: tuple[Any, ...]) -> Where:
        position = self.document.position(path)
        return Where(position.source, position.line, position.col)

    def pattern(self, text: str, path: tuple[Any, ...], context: PatternContext) -> tuple[Pattern, Matcher] | None:
        where = self.where(path)
        try:
            pattern = parse_pattern(text, where)
        except PatternError as problem:
            self.add(problem.diagnostics, path)
            return None
        found = check_pattern(pattern, context, text, where)
        if found:
            self.add(found, path)
            return None
        return pattern, compile_pattern(pattern, context)

    def ranks(self, values: Sequence[Any], path: tuple[Any, ...]) -> list[str]:
        symbols = []
        for index, value in enumerate(values):
            try:
                symbols.append(rank_token(value))
            except ValueError:
                hint = "ranks are 2-9, T (or 10), J, Q, K, A"
                suggestion = rank_hint(value)
                self.report(
                    "R102", f"{value!r} is not a rank", path + (index,), f"{suggestion} {hint}" if suggestion else hint
                )
        return symbols


def _rank_strength_order(deck_ranks: Sequence[str], ace: str) -> tuple[str, ...]:
    if ace == "low" and "A" in deck_ranks:
        return ("A",) + tuple(rank for rank in deck_ranks if rank != "A")
    return tuple(deck_ranks)


def build_ruleset(document: Document, path: Path | None = None, kind: type[R] | None = None) -> R:
    """Build a :class:`Rules` from a loaded document.

    Raises:
        SchemaError: when the document does not follow the schema.
        RulesetError: with every semantic problem found, each positioned.
    """
    check_schema(document)
    builder = _Builder(document)
    ruleset = _build(builder, path, kind)
    pattern_memo.flush()  # the patterns parsed for this ruleset, for the next start
    if builder.problems:
        raise RulesetError(builder.problems)
    return ruleset


def build_readable(
    document: Document, path: Path | None, removed: Sequence[tuple[Any, ...]], kind: type[R] | None = None
) -> tuple[R, _Builder]:
    """Build what can be built of a document the schema accepts once ``removed`` are taken out.

    Nothing is raised: the builder holds every problem (``problems``), where
    each was found (``located``) and the categories that could not be built
    (``broken``). The ruleset leaves out what is broken; use it only to check
    the parts that do not depend on that (see :mod:`evaluator.tools.partial`).
    """
    builder = _Builder(document, removed)
    return _build(builder, path, kind), builder


def _build(builder: _Builder, path: Path | None, kind: type[R] | None) -> R:
    document = builder.document
    data = builder.data
    deck = data.get("deck", {}) or {}
    deck_ranks = builder.ranks(deck.get("ranks", list(RANKS)), ("deck", "ranks"))
    _check_contiguous(builder, deck_ranks)
    suits = tuple(deck.get("suits", list(SUITS)))
    jokers = int(deck.get("jokers", 0))
    copies = int(deck.get("copies", 1))
    ace = data.get("ace", "both")
    direction = data.get("direction", "high")
    hand = data.get("hand", {}) or {}
    hand_size = int(hand.get("size", 5))
    hand_min = int(hand.get("min", hand_size))
    if hand_min > hand_size:
        builder.report("R103", f"hand.min ({hand_min}) is larger than hand.size ({hand_size})", ("hand", "min"))
    deck_size = len(deck_ranks) * len(suits) * copies + jokers
    if deck_size > MAX_DECK_CARDS:
        builder.report("R104", f"the deck has {deck_size} cards; the limit is {MAX_DECK_CARDS}", ("deck",))
    if deck_size < hand_size:
        builder.report("R105", f"the deck has {deck_size} cards, fewer than a hand of {hand_size}", ("deck",))
    rank_symbols = _rank_strength_order(deck_ranks, ace)
    ace_low_in_runs = ace == "both" and "A" in deck_ranks
    if ace == "both" and deck_ranks and deck_ranks[-1] != "A" and "A" in deck_ranks:
        builder.report("R106", "with ace: both the ace must be the highest rank of deck.ranks", ("deck", "ranks"))

    order = list(data.get("order") or [])
    definitions: dict[str, Any] = {
        name: spec for name, spec in (data.get("categories") or {}).items() if spec is not None
    }
    # categories the schema rejected: their names still hold their place in order
    unread = {name for name in order if builder.was_removed(("categories", name)) and name not in definitions}
    builder.broken |= unread
    for index, name in enumerate(order):
        if name not in definitions and name not in unread:
            builder.broken.add(name)
            # a name already in order cannot be meant: it would be there twice
            unranked = [known for known in definitions if known not in order]
            close = difflib.get_close_matches(name, unranked, n=1)
            builder.report(
                "R101",
                f"order names category {name!r}, which is not defined",
                ("order", index),
                f"did you mean {close[0]!r}?" if close else None,
            )
    if not order and not builder.was_removed(("order",)):
        builder.report(
            "R107", "order is empty: list the categories, highest first", ("order",) if "order" in data else ()
        )
    known_order = tuple(name for name in order if name in definitions or name in unread)
    base_context = PatternContext(rank_symbols, suits, hand_size, ace_low_in_runs, known_order, allow_categories=False)
    category_context = base_context
    names = known_order
    if builder.broken - unread or builder.touched(("order",)):
        # A name misspelt in (or removed from) order leaves its category out of order:
        # a qualifier or beats: naming it is not blamed for that, but its meaning is unsure.
        names += tuple(sorted(set(definitions) - set(order)))
        if names != known_order and (
            data.get("qualifier") or data.get("beats") or (data.get("wild") or {}).get("plays_as")
        ):
            builder.located.append(("", ("order",)))
    names_context = PatternContext(rank_symbols, suits, hand_size, ace_low_in_runs, names, allow_categories=True)

    categories: list[Category] = []
    for index, name in enumerate(known_order):
        if name in unread:
            continue
        spec = definitions[name]
        text = str(spec.get("pattern", ""))
        compiled = builder.pattern(text, ("categories", name, "pattern"), category_context)
        if compiled is None:
            builder.broken.add(name)
            continue
        pattern, matcher = compiled
        rank_by = spec.get("rank_by")
        key = tuple(rank_by) if rank_by else key_terms(pattern)
        describe = str(spec.get("describe", name.replace("_", " ")))
        if "describe" in spec:
            describe_path = ("categories", name, "describe")
            builder.add(check_template(describe, pattern, name, builder.where(describe_path)), describe_path)
        categories.append(Category(name, text, pattern, matcher, key, describe, len(known_order) - index))
    _check_pattern_work(builder, categories)
    _check_unranked(builder, definitions, set(known_order))

    wild = _build_wild(builder, data.get("wild") or {}, deck_ranks, suits, jokers, names_context)
    suit_spec = data.get("suits") or {}
    suit_order = tuple(suit_spec.get("order") or suits)
    if sorted(suit_order) != sorted(suits) and not builder.touched(("suits", "order")):
        builder.report(
            "R108",
            f"suits.order ({' '.join(suit_order)}) must list each deck suit once ({' '.join(suits)})",
            ("suits", "order"),
        )
    tiebreak = suit_spec.get("tiebreak", "none")

    beats = []
    for index, spec in enumerate(data.get("beats") or []):
        sides = []
        for side in ("winner", "loser"):
            text = str(spec.get(side, ""))
            compiled = builder.pattern(text, ("beats", index, side), names_context)
            if compiled is not None:
                sides.append(CompiledPattern(text, *compiled))
        if len(sides) == 2:
            beats.append(Beat(sides[0], sides[1]))

    qualifier = None
    if data.get("qualifier"):
        text = str(data["qualifier"])
        compiled = builder.pattern(text, ("qualifier",), names_context)
        if compiled is not None:
            qualifier = CompiledPattern(text, *compiled)

    game = build_game(builder, data.get("game"), hand_size)
    check_deal_rules(builder, wild, game, tuple(deck_ranks), suits)
    examples = tuple(
        Example(value, document.position(("examples", index)).line, document.position(("examples", index)).col)
        for index, value in enumerate(data.get("examples") or [])
    )
    name = data.get("name") or (path.stem if path else "ruleset")
    return (kind or Rules)(  # type: ignore[return-value]
        name=name,
        title=one_line(data.get("title", name)),
        source_note=data.get("source", ""),
        path=path,
        document=document,
        deck_ranks=tuple(deck_ranks),
        rank_symbols=rank_symbols,
        suits=suits,
        jokers=jokers,
        copies=copies,
        ace=ace,
        direction=direction,
        hand_size=hand_size,
        hand_min=hand_min,
        categories=tuple(categories),
        wild=wild,
        natural_beats_wild=bool(data.get("natural_beats_wild", False)),
        suit_order=suit_order,
        tiebreak=tiebreak,
        beats=tuple(beats),
        qualifier=qualifier,
        game=game,
        examples=examples,
        data=data,
        best_subset=bool(hand.get("best_subset", False)),
    )


def _check_contiguous(builder: _Builder, deck_ranks: Sequence[str]) -> None:
    positions = [RANKS.index(rank) for rank in deck_ranks]
    if positions != sorted(positions) or len(set(positions)) != len(positions):
        builder.report("R109", "deck.ranks must be listed low to high, each once", ("deck", "ranks"))
    elif positions and positions != list(range(positions[0], positions[0] + len(positions))):
        builder.report(
            "R109", "deck.ranks must be consecutive ranks (a stripped deck drops the low cards)", ("deck", "ranks")
        )


def _build_wild(
    builder: _Builder,
    spec: dict[str, Any],
    deck_ranks: Sequence[str],
    suits: Sequence[str],
    jokers: int,
    context: PatternContext,
) -> WildRules:
    cards: set[Card] = set()
    for index, text in enumerate(spec.get("cards") or []):
        try:
            parsed = parse_cards(str(text))
        except CardError:
            builder.report("R110", f"{text!r} is not a card", ("wild", "cards", index))
            continue
        for card in parsed:
            if card.is_joker:
                if card.joker_number > jokers:
                    builder.report(
                        "R111",
                        f"wild card {card} is not in the deck (deck.jokers is {jokers})",
                        ("wild", "cards", index),
                    )
            elif card.rank not in deck_ranks or card.suit not in suits:
                builder.report("R111", f"wild card {card} is not in the deck", ("wild", "cards", index))
            cards.add(card)
    ranks = builder.ranks(spec.get("ranks") or [], ("wild", "ranks"))
    for index, rank in enumerate(ranks):
        if rank not in deck_ranks:
            builder.report("R111", f"wild rank {rank} is not in the deck", ("wild", "ranks", index))
    if spec.get("jokers") and jokers == 0:
        builder.report(
            "R112", "wild.jokers is true but the deck has no jokers", ("wild", "jokers"), "set deck.jokers: 1"
        )
    plays_as = spec.get("plays_as")
    plays_as_ranks = None
    plays_as_hands = None
    if plays_as is not None:
        plays_as_ranks = frozenset(builder.ranks(plays_as.get("ranks") or [], ("wild", "plays_as", "ranks")))
        for index, symbol in enumerate(_rank_symbols(plays_as.get("ranks") or [])):
            if symbol is not None and symbol not in deck_ranks:
                builder.report(
                    "R111", f"wild.plays_as rank {symbol} is not in the deck", ("wild", "plays_as", "ranks", index)
                )
        if plays_as.get("hands"):
            text = str(plays_as["hands"])
            compiled = builder.pattern(text, ("wild", "plays_as", "hands"), context)
            if compiled is not None:
                plays_as_hands = CompiledPattern(text, *compiled)
    follow, lowest_down = build_deal_wild(builder, spec, deck_ranks)
    if follow is not None and follow.trigger_wild:
        ranks.append(follow.rank)  # the trigger rank is wild in every deal: a static wild rank
    return WildRules(
        cards=frozenset(cards),
        ranks=frozenset(ranks),
        # the schema's default: a deck's jokers are wild unless the file says otherwise
        # (a joker that is not wild could never play)
        jokers=bool(spec.get("jokers", jokers > 0)),
        lowest_rank=spec.get("lowest_rank", False) is True,
        duplicates=bool(spec.get("duplicates", False)),
        plays_as_ranks=plays_as_ranks,
        plays_as_hands=plays_as_hands,
        follow=follow,
        lowest_down=lowest_down,
    )


def _rank_symbols(values: Sequence[Any]) -> list[str | None]:
    """Each value as a rank symbol, None where it is not a rank (already reported)."""
    symbols: list[str | None] = []
    for value in values:
        try:
            symbols.append(rank_token(value))
        except ValueError:
            symbols.append(None)
    return symbols


def _check_unranked(builder: _Builder, definitions: dict[str, Any], ranked: set[str]) -> None:
    """A category left out of ``order`` ranks no hand, but its pattern is part of the file and
    must read (``P1xx``). Its meaning is not checked against this deck: a definition kept for
    the rulesets that extend this one may name a rank this deck lacks."""
    for name, spec in definitions.items():
        path = ("categories", name, "pattern")
        if name in ranked or builder.was_removed(path):
            continue
        try:
            parse_pattern(str(spec.get("pattern", "")), builder.where(path))
        except PatternError as problem:
            builder.add(problem.diagnostics, path)


def _check_pattern_work(builder: _Builder, categories: Sequence[Category]) -> None:
    """R121: patterns so large together that every hand would cost hundreds of usual ones."""
    from .work import MAX_PATTERN_WORK, pattern_size, patterns_work

    total = patterns_work(c.pattern for c in categories)
    if total > MAX_PATTERN_WORK:
        costliest = max(categories, key=lambda c: pattern_size(c.pattern))
        builder.report(
            "R121",
            f"the categories' patterns have {total:,} parts together, each tried for every hand; the limit is "
            f"{MAX_PATTERN_WORK:,} (the largest, {costliest.name!r}, has {pattern_size(costliest.pattern):,})",
            ("categories", costliest.name, "pattern"),
        )


# The rulesets loaded last, by kind, file, modification time and roots: a command that
# loads one ruleset many times builds it once. Bounded, least recently used first out: a
# built ruleset carries its lookup tables and evaluation caches (tens of megabytes for
# some), and a process that goes through many files must not keep them all.
_LOADED: OrderedDict[tuple[str, str, float, tuple[str, ...]], Rules] = OrderedDict()
LOADED_LIMIT = 12


def load_rules(
    ref: str | Path, root: str | Path | Sequence[str | Path] | None = None, kind: type[R] | None = None
) -> R:
    """Load a ruleset as ``kind`` (:class:`Rules` by default): a catalogue name or a YAML file's path.

    ``extends:`` and ``game.split`` paths in the file may only reach files
    inside its own folder tree, or inside ``root`` (a folder or several).

    >>> load_rules("standard").name
    'standard'

    Raises:
        PokerRulesError: for anything wrong with the file, each error positioned.
    """
    from ..core.resources import catalogue_path

    if isinstance(ref, str):  # before the name reaches the file system (a NUL, 9,000 characters)
        check_reference_text(ref, ("<ruleset>", 1, 1), "ruleset", MAX_PATH_CHARS, controls=False)
    path = Path(ref) if not isinstance(ref, Path) else ref
    resolved = (
        catalogue_path(str(ref))
        if isinstance(ref, str) and "/" not in ref and not ref.endswith((".yaml", ".yml"))
        else path
    )
    file_path = resolved if resolved is not None else path
    try:
        stamp = file_path.stat().st_mtime
    except OSError:
        stamp = -1.0
    made = kind or Rules
    cache_key = (made.__qualname__, str(file_path.resolve()) if stamp >= 0 else str(ref), stamp, user_roots(root))
    if stamp >= 0 and cache_key in _LOADED and not _parents_changed(_LOADED[cache_key]):
        _LOADED.move_to_end(cache_key)
        return _LOADED[cache_key]  # type: ignore[return-value]
    document = load_document(ref, root=root)
    source = Path(document.sources[0]) if document.sources and document.sources[0] != "<string>" else None
    ruleset = build_ruleset(document, source, kind)
    if stamp >= 0:
        object.__setattr__(ruleset, "_cache_stamps", {src: _mtime(src) for src in document.sources})
        _LOADED[cache_key] = ruleset
        while len(_LOADED) > LOADED_LIMIT:
            _LOADED.popitem(last=False)
    return ruleset


def forget_loaded() -> None:
    """Let go of every ruleset :func:`load_rules` keeps (their tables and caches are freed
    once nothing else holds them); the next load builds again."""
    _LOADED.clear()


def _mtime(source: str) -> float:
    try:
        return Path(source).stat().st_mtime
    except OSError:
        return -1.0


def _parents_changed(ruleset: Rules) -> bool:
    stamps: dict[str, float] = getattr(ruleset, "_cache_stamps", {})
    return any(_mtime(source) != stamp for source, stamp in stamps.items())


def load_split_half(document: Document, index: int, value: str) -> Rules:
    """The ruleset a ``game.split`` entry names, confined like ``extends:``.

    ``document`` is the splitting ruleset's :class:`~evaluator.rules.load.Document`.
    A path is taken from the file that wrote it and must stay inside
    ``document.roots``; a target file that is not a ruleset is reported by
    code and position only (see :func:`evaluator.rules.confine.ruleset_reference`).
    """
    where = document.position(("game", "split", index, "ruleset"))
    target = ruleset_reference(value, where, document.roots, "game.split")
    if isinstance(target, str):
        return load_rules(target)
    return load_rules(target, root=document.roots or Confinement.around(Path(where.source)).roots)
