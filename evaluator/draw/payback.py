"""Video-poker answers for a pay table: the holds of one hand, the game's
return under optimal play (cached on disk), and two pay tables compared.

The return file lives in the user cache folder (see
:func:`resources.user_cache_dir`), named ``return-<hash>.return`` by a hash of
the resolved ruleset, the pays and the package version. It goes through
:mod:`evaluator.core.diskcache` like the lookup tables: a folder that is ours
(else W130 and no cache), files opened without following symlinks, only
regular files of ours, bounded reads, and an HMAC keyed by the user's secret.
The payload is plain JSON, checked field by field when read: anything
unexpected is recomputed, never trusted.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core import diskcache
from ..core.errors import Diagnostic, PokerRulesError
from ..core.resources import user_cache_dir
from ..rules.cards import Card
from ..ruleset import Ruleset
from .paytable import PayTable
from .videopoker import HAND, FinalHands, Progress, ReturnCalculator, build_final_hands, hold_results, mask_positions

RESULT_FORMAT = 2
#: The magic string of a return file in the cache folder (see :mod:`evaluator.core.diskcache`).
MAGIC = b"PRRETURN"


class PaybackError(PokerRulesError):
    """A question a pay table cannot answer (a hand of the wrong size...)."""


#: Subset counts kept in memory, by the ruleset's content hash: about 60 MB each once
#: the counts per subset are swept down, and a comparison visits two games. Keyed by
#: hash, not by the ruleset, so that keeping them does not keep a ruleset (its tables
#: and evaluation caches) alive after :func:`evaluator.load` lets it go.
FINAL_HANDS_KEPT = 2
_FINAL_HANDS: OrderedDict[str, FinalHands] = OrderedDict()


def final_hands(ruleset: Ruleset, progress: Progress | None = None) -> FinalHands:
    """The subset counts of ``ruleset`` (built once per process, a few seconds; the
    last :data:`FINAL_HANDS_KEPT` games are kept, least recently used out)."""
    from ..compiled.table_cache import ruleset_hash

    key = ruleset_hash(ruleset)
    found = _FINAL_HANDS.pop(key, None)
    if found is None:
        if progress is not None:
            progress(0.0)
        found = build_final_hands(ruleset)
    _FINAL_HANDS[key] = found
    while len(_FINAL_HANDS) > FINAL_HANDS_KEPT:
        _FINAL_HANDS.popitem(last=False)
    return found


def forget_final_hands() -> None:
    """Drop the subset counts kept in memory (the next question builds them again)."""
    _FINAL_HANDS.clear()


@dataclass(frozen=True)
class Hold:
    """One of the 32 holds of a dealt hand."""

    hold: tuple[Card, ...]
    discard: tuple[Card, ...]
    ev: float  # coins back per coin bet
    draws: int
    counts: dict[str, int]  # final category -> number of draws (paid or not)

    def to_json(self) -> dict[str, Any]:
        """``{"hold", "discard", "ev", "draws", "categories": {name: {count, probability}}}``."""
        return {
            "hold": [str(c) for c in self.hold],
            "discard": [str(c) for c in self.discard],
            "ev": self.ev,
            "draws": self.draws,
            "categories": {name: {"count": n, "probability": n / self.draws} for name, n in self.counts.items()},
        }


def holds(table: PayTable, hand: str | Sequence[Card | str], progress: Progress | None = None) -> list[Hold]:
    """All 32 holds of a dealt hand ranked by exact EV, the best first (equal
    EVs: the hold keeping more cards first).

    >>> best = holds(load_paytable("jacks-or-better-9-6"), "Ah Kh Qh Jh 9h")[0]
    >>> [str(c) for c in best.hold]
    ['Ah', 'Kh', 'Qh', 'Jh']

    Raises:
        PokerRulesError: bad cards (C1xx), or D109 a hand that is not five cards.
    """
    ruleset = table.ruleset
    cards = ruleset.cards(hand)
    if len(cards) != HAND:
        raise PaybackError(
            Diagnostic("D109", f"a video-poker hand has {HAND} cards; {len(cards)} given", "<cards>", 1, 1, "error")
        )
    deck = list(ruleset.deck)
    ids = [deck.index(card) for card in cards]
    final = final_hands(ruleset, progress)
    pays = table.vector(final.categories)
    result = []
    for item in hold_results(final, ids, pays):
        kept = mask_positions(item.mask)
        names = [name or "nothing" for name in final.categories]
        result.append(
            Hold(
                tuple(cards[i] for i in kept),
                tuple(cards[i] for i in range(HAND) if i not in kept),
                item.ev,
                item.draws,
                {names[i]: n for i, n in enumerate(item.counts) if n},
            )
        )
    return result


@dataclass(frozen=True)
class Payback:
    """The game under optimal play: return, category probabilities, variance."""

    paytable: str
    ruleset: str
    return_: float  # per coin bet (1.0 = break-even)
    probabilities: dict[str, float]
    variance: float
    classes: int
    best_holds: tuple[int, ...]  # per starting-hand class, the best hold mask
    from_cache: bool = False

    def to_json(self) -> dict[str, Any]:
        """``{"paytable", "ruleset", "return", "categories", "variance", "classes"}``."""
        return {
            "paytable": self.paytable,
            "ruleset": self.ruleset,
            "return": self.return_,
            "categories": self.probabilities,
            "variance": self.variance,
            "classes": self.classes,
        }


def _cache_file(table: PayTable) -> Path:
    from ..compiled.table_cache import ruleset_hash
    from ..core.version import __version__

    text = json.dumps(
        {"ruleset": ruleset_hash(table.ruleset), "pays": table.key(), "version": __version__, "format": RESULT_FORMAT}
    )
    return user_cache_dir() / f"return-{hashlib.sha256(text.encode()).hexdigest()[:32]}.return"


def _expected_header(path: Path) -> dict[str, Any]:
    return {"format": RESULT_FORMAT, "key": path.stem}


def _read_cached(path: Path, table: PayTable) -> Payback | None:
    """The cached result, or None when the file is missing, not a signed file of
    ours in a folder of ours (see :mod:`evaluator.core.diskcache`), or not exactly as written."""
    payload = diskcache.read_file(path, MAGIC, _expected_header(path))
    if payload is None:
        return None
    try:
        data = json.loads(payload)
        ok = (
            data["format"] == RESULT_FORMAT
            and data["key"] == path.stem
            and isinstance(data["return"], float)
            and isinstance(data["variance"], float)
            and isinstance(data["classes"], int)
            and isinstance(data["categories"], dict)
            and all(
                isinstance(k, str) and isinstance(v, float) and 0.0 <= v <= 1.0 for k, v in data["categories"].items()
            )
            and isinstance(data["best_holds"], list)
            and len(data["best_holds"]) == data["classes"]
            and all(type(m) is int and 0 <= m < 32 for m in data["best_holds"])
            and math.isfinite(data["return"])
            and math.isfinite(data["variance"])
        )
    except (KeyError, TypeError, ValueError, RecursionError):
        return None
    if not ok:
        return None
    return Payback(
        table.name,
        table.ruleset.name,
        data["return"],
        data["categories"],
        data["variance"],
        data["classes"],
        tuple(data["best_holds"]),
        True,
    )


def _write_cached(path: Path, result: Payback) -> bool:
    """Write ``result`` signed and atomically (False when the folder is not usable)."""
    if not (math.isfinite(result.return_) and math.isfinite(result.variance)):
        return False  # never cache what could not be read back
    data = {
        "format": RESULT_FORMAT,
        "key": path.stem,
        "return": result.return_,
        "variance": result.variance,
        "classes": result.classes,
        "categories": result.probabilities,
        "best_holds": list(result.best_holds),
    }
    payload = json.dumps(data, allow_nan=False).encode("utf-8")
    return diskcache.write_file(path, MAGIC, _expected_header(path), payload)


def game_return(table: PayTable, progress: Progress | None = None, use_cache: bool = True) -> Payback:
    """The exact return of ``table`` under optimal play (every starting hand, every hold).

    >>> round(game_return(load_paytable("jacks-or-better-9-6")).return_ * 100, 4)
    99.5439
    """
    path = _cache_file(table)
    if use_cache:
        cached = _read_cached(path, table)
        if cached is not None:
            return cached
    final = final_hands(table.ruleset, progress)
    computed = ReturnCalculator(table.ruleset, final, table.vector(final.categories)).compute(progress)
    result = Payback(
        table.name,
        table.ruleset.name,
        computed.return_,
        computed.probabilities,
        computed.variance,
        computed.classes,
        tuple(int(m) for m in computed.best_holds),
    )
    if use_cache:
        _write_cached(path, result)
    return result


@dataclass(frozen=True)
class HoldChange:
    """A starting-hand class whose best hold differs between two pay tables."""

    hand: tuple[Card, ...]  # a representative of the class
    hands: int  # how many dealt hands the class holds
    hold_a: tuple[Card, ...]
    hold_b: tuple[Card, ...]


def compare_paytables(
    table_a: PayTable, table_b: PayTable, progress: Progress | None = None
) -> tuple[Payback, Payback, list[HoldChange]]:
    """Both returns, and the starting hands whose best hold changes (most
    frequent first). Hands are compared only when both tables play one deck.
    """
    result_a = game_return(table_a, progress)
    result_b = game_return(table_b, progress)
    changes: list[HoldChange] = []
    deck_a, deck_b = table_a.ruleset.deck, table_b.ruleset.deck
    if deck_a == deck_b and result_a.classes == result_b.classes:
        from .videopoker import starting_classes

        representatives, sizes = starting_classes(len(deck_a), len(table_a.ruleset.suits))
        best_a, best_b = np.array(result_a.best_holds), np.array(result_b.best_holds)
        for index in np.nonzero(best_a != best_b)[0]:
            cards = tuple(deck_a[int(i)] for i in representatives[index])
            changes.append(
                HoldChange(
                    cards,
                    int(sizes[index]),
                    tuple(cards[p] for p in mask_positions(int(best_a[index]))),
                    tuple(cards[p] for p in mask_positions(int(best_b[index]))),
                )
            )
        changes.sort(key=lambda change: -change.hands)
    return result_a, result_b, changes


def load_paytable(ref: str | Path) -> PayTable:
    """Load a pay table (see :func:`evaluator.draw.paytable.load_paytable`)."""
    from .paytable import load_paytable as load

    return load(ref)
