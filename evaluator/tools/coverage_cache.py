"""The coverage analysis of a ruleset, kept on disk between runs of ``check``.

Enumerating the hand classes of a wild-card ruleset through the generic
evaluator takes about a second (Follow the Queen's two variants, three), on
every ``check`` of the file. What the enumeration found -- its estimated work,
whether it completed and why not, the holes with their example cards, the
categories reached and where each hand class landed -- is kept here as plain
``.npz`` arrays without pickles (a JSON summary and one row of small integers
per landed class) in the signed cache of :mod:`evaluator.core.diskcache`
(``.coverage``, magic ``PRCOVERG``). A file is named by a hash of the coverage fingerprint (the
merged data that decides where a hand lands, and the work limits), the package
version, the file format and the source of the modules whose code decides the
result, so a changed rule or a changed evaluator never reads an old analysis.

A file is believed only when it is ours (signed with the user's key) and fits
the ruleset it is read for: every card in its deck, every category in its
order, every hand class within its ranks, suits and hand size. Anything else is
refused and the classes are enumerated again. Suit-class analyses keep no
landed classes (their valuation is cached already, ``compiled/suitvalue_cache.py``):
the caller works them out from it when they are asked for.
``POKERRULES_TABLE_CACHE=off`` keeps analyses in memory only, as it does tables.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..compiled.table_cache import cache_enabled
from ..core import diskcache
from ..core.resources import user_cache_dir
from ..rules.cards import Card
from ..rules.pattern_compile import HandClass

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

MAGIC = b"PRCOVERG"
SUFFIX = ".coverage"
FORMAT = 1
#: The code that decides an analysis (relative to the package; a folder stands for its modules).
DECIDING_SOURCES = (
    "rules",
    "engine",
    "deal/variant.py",
    "compiled/build_cost.py",
    "compiled/suitclasses.py",
    "compiled/suitvalues.py",
    "tools/lint_hands.py",
    "tools/lint_coverage.py",
    "tools/coverage_cache.py",
)


@dataclass
class Hole:
    """Hands of one size that match no category: how many classes, and one example."""

    size: int
    example: tuple[Card, ...]
    count: int = 1


@dataclass
class Analysis:
    """What enumerating a ruleset's hand classes found (shared between identical rules)."""

    work: int  # the estimated work, in units (see lint_coverage.MAX_COVERAGE_WORK)
    complete: bool  # False when the estimate was over the limit, or the evaluator refused a hand
    refused: str | None = None  # why the evaluator refused a hand, when it did
    holes: list[Hole] = field(default_factory=list)
    reached: set[str] = field(default_factory=set)
    # every class a hand can be played as, with the category it lands in (see ``landed``)
    known: dict[HandClass, str] = field(default_factory=dict)
    # when set, what fills ``known`` on first use (suit classes: dear, and seldom asked)
    landed_later: Callable[[], dict[HandClass, str]] | None = None

    @property
    def landed(self) -> dict[HandClass, str]:
        """Every class a hand can be played as, with the category it lands in."""
        if self.landed_later is not None:
            self.known, self.landed_later = self.landed_later(), None
        return self.known


@cache
def _source_digest() -> str:
    """SHA-256 of the source of :data:`DECIDING_SOURCES`, read once per process."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for name in DECIDING_SOURCES:
        where = package / name
        for path in sorted(where.glob("*.py")) if where.is_dir() else [where]:
            digest.update(path.relative_to(package).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def cache_file(fingerprint: str) -> Path:
    """Where the analysis of rules with this coverage ``fingerprint`` is kept."""
    from ..core.version import __version__

    key = {"fingerprint": fingerprint, "version": __version__, "format": FORMAT, "source": _source_digest()}
    name = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:32]
    return user_cache_dir() / f"coverage-{name}{SUFFIX}"


def _header(path: Path) -> dict[str, Any]:
    return {"format": FORMAT, "key": path.stem}


def write_analysis(fingerprint: str, analysis: Analysis, rules: Rules) -> bool:
    """Keep ``analysis`` of ``rules`` signed and atomically; its landed classes only when
    they are known (not those a suit-class analysis works out later). False when not written."""
    if not cache_enabled():
        return False
    lazy = analysis.landed_later is not None
    if not lazy and any(hand_class.suited is not None for hand_class in analysis.known):
        return False  # suits held are asked only of suit classes, whose landed classes are not kept
    summary = {
        "work": analysis.work,
        "complete": analysis.complete,
        "refused": analysis.refused,
        "holes": [[hole.size, [_card_data(card) for card in hole.example], hole.count] for hole in analysis.holes],
        "reached": sorted(analysis.reached),
        "lazy": lazy,
    }
    arrays = {
        "summary": np.frombuffer(json.dumps(summary, separators=(",", ":")).encode("utf-8"), dtype=np.uint8),
        "landed": _landed_rows(analysis.known if not lazy else {}, rules),
    }
    buffer = io.BytesIO()
    save: Any = np.savez_compressed  # (the stubs mistake the arrays for its allow_pickle flag)
    save(buffer, **arrays)
    path = cache_file(fingerprint)
    return diskcache.write_file(path, MAGIC, _header(path), buffer.getvalue())


def read_analysis(fingerprint: str, rules: Rules, sizes: range, limit: int, lazy: bool) -> Analysis | None:
    """The kept analysis of ``rules`` when a good file is there, else None (missing, not
    ours, forged, or not fitting these rules: a card, category or class they cannot have).

    ``sizes`` are the hand sizes enumerated, ``limit`` the work limit; ``lazy`` says the
    file must hold no landed classes (a suit-class analysis: the caller sets
    ``landed_later``). Landed classes are checked on reading, made into objects when
    first asked for (most checks never ask)."""
    if not cache_enabled():
        return None
    path = cache_file(fingerprint)
    payload = diskcache.read_file(path, MAGIC, _header(path))
    if payload is None:
        return None
    try:
        with np.load(io.BytesIO(payload), allow_pickle=False) as archive:
            if sorted(archive.files) != ["landed", "summary"]:
                return None
            summary, landed = archive["summary"], archive["landed"]
        _need(summary.dtype == np.uint8 and summary.ndim == 1)
        analysis = _analysis_of(json.loads(summary.tobytes()), rules, sizes, limit, lazy)
        _check_rows(landed, rules, analysis.reached)
    except Exception:  # noqa: BLE001 - whatever is wrong with the file, the classes are enumerated again
        return None
    if not lazy:
        analysis.landed_later = lambda: _landed_of(landed, rules)
    return analysis


class _Unfit(ValueError):
    """The file does not fit the rules it was read for."""


def _need(condition: bool) -> None:
    if not condition:
        raise _Unfit


def _is_int(value: object, low: int, high: int) -> bool:
    """``low <= value < high``, for an int that is not a bool."""
    return type(value) is int and low <= value < high


def _analysis_of(data: Any, rules: Rules, sizes: range, limit: int, lazy: bool) -> Analysis:
    """The summary of a kept analysis (all but its landed classes), checked against ``rules``."""
    keys = {"work", "complete", "refused", "holes", "reached", "lazy"}
    _need(isinstance(data, dict) and set(data) == keys and data["lazy"] is lazy)
    work, complete, refused = data["work"], data["complete"], data["refused"]
    # only enumerated analyses are kept: their work is within the limit
    _need(_is_int(work, 0, limit + 1) and type(complete) is bool)
    _need(refused is None if complete else isinstance(refused, str) and 0 < len(refused) <= 1000)
    reached = data["reached"]
    _need(isinstance(reached, list) and all(isinstance(name, str) for name in reached))
    _need(len(set(reached)) == len(reached) and set(reached) <= set(rules.category_names))
    deck = set(rules.deck)
    holes: list[Hole] = []
    for size, cards, count in data["holes"]:
        _need(type(size) is int and size in sizes and size not in {hole.size for hole in holes})
        _need(_is_int(count, 1, 1 << 62) and isinstance(cards, list) and len(cards) == size)
        example = tuple(_card_of(item) for item in cards)
        _need(all(card in deck for card in example))
        holes.append(Hole(size, example, count))
    return Analysis(work, complete, refused, holes, set(reached))


def _card_data(card: Card) -> list[Any]:
    return [card.rank, card.suit, card.joker_number]


def _card_of(data: Any) -> Card:
    rank, suit, joker = data
    _need((rank is None or isinstance(rank, str)) and (suit is None or isinstance(suit, str)))
    _need(_is_int(joker, 0, 3))
    return Card(rank, suit, joker)


# A landed class is one row of small integers (-1 for none, or past the end of a hand):
# its ranks (hand size), its groups as count and rank (twice the hand size), then the
# flush suit's index, the run's top, the category strength, the wild cards held and
# the index of the category it lands in.
_TAIL = 5


def _landed_rows(landed: dict[HandClass, str], rules: Rules) -> np.ndarray[Any, np.dtype[np.int16]]:
    size, suits, names = rules.hand_size, rules.suits, rules.category_names
    rows = np.full((len(landed), 3 * size + _TAIL), -1, dtype=np.int16)
    for row, (hand_class, name) in zip(rows, landed.items(), strict=True):
        row[: len(hand_class.ranks)] = hand_class.ranks
        for index, (count, value) in enumerate(hand_class.groups):
            row[size + 2 * index : size + 2 * index + 2] = (count, value)
        flush = -1 if hand_class.flush_suit is None else suits.index(hand_class.flush_suit)
        top = -1 if hand_class.run_top is None else hand_class.run_top
        row[3 * size :] = (flush, top, hand_class.category, hand_class.wilds, names.index(name))
    return rows


def _check_rows(rows: np.ndarray[Any, Any], rules: Rules, reached: set[str]) -> None:
    """Refuse landed rows these rules cannot have (out of range, repeated, or landing in a
    category the summary says no hand reached)."""
    size, values = rules.hand_size, len(rules.rank_symbols)
    _need(rows.dtype == np.int16 and rows.ndim == 2 and rows.shape[1] == 3 * size + _TAIL)
    if not len(rows):
        return
    ranks, groups, tail = rows[:, :size], rows[:, size : 3 * size].reshape(-1, size, 2), rows[:, 3 * size :]
    _need(bool(((ranks >= -1) & (ranks < values)).all()))
    _need(bool(((groups[:, :, 0] >= -1) & (groups[:, :, 0] <= size)).all()))
    _need(bool(((groups[:, :, 1] >= -1) & (groups[:, :, 1] < values)).all()))
    _need(bool(((groups[:, :, 0] == -1) == (groups[:, :, 1] == -1)).all()) and not (groups[:, :, 0] == 0).any())
    # what is missing (-1) is missing to the end of the hand
    _need(bool((np.diff(ranks == -1, axis=1) >= 0).all() and (np.diff(groups[:, :, 0] == -1, axis=1) >= 0).all()))
    flush, top, category, wilds, name = tail.T
    _need(bool(((flush >= -1) & (flush < len(rules.suits))).all() and ((top >= -1) & (top < values)).all()))
    _need(bool(((category >= -1) & (category < len(rules.categories))).all()))
    _need(bool(((wilds >= 0) & (wilds <= size)).all()))
    landing = {int(index) for index in np.unique(name).tolist()}
    _need(all(0 <= index < len(rules.category_names) for index in landing))
    _need({rules.category_names[index] for index in landing} <= reached)
    _need(len(np.unique(rows[:, : 3 * size + _TAIL - 1], axis=0)) == len(rows))  # one landing per class


def _landed_of(rows: np.ndarray[Any, Any], rules: Rules) -> dict[HandClass, str]:
    """The landed classes of checked rows (see :func:`_check_rows`), in the order kept."""
    size, suits, names = rules.hand_size, rules.suits, rules.category_names
    landed: dict[HandClass, str] = {}
    for row in rows.tolist():
        ranks = tuple(value for value in row[:size] if value >= 0)
        pairs = row[size : 3 * size]
        groups = tuple((pairs[i], pairs[i + 1]) for i in range(0, 2 * size, 2) if pairs[i] > 0)
        flush, top, category, wilds, name = row[3 * size :]
        hand_class = HandClass(
            ranks, groups, suits[flush] if flush >= 0 else None, top if top >= 0 else None, category, wilds
        )
        landed[hand_class] = names[name]
    return landed
