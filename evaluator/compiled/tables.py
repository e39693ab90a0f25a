"""Compiling a ruleset into lookup tables: the data behind the fast path.

Why a ruleset compiles at all
-----------------------------
The generic evaluator (``evaluate.py``) asks only three things of a set of
cards: the rank multiset of its natural cards, how many wild cards it holds,
and whether its naturals share one suit. Everything it returns is a function
of that *hand class* -- 6,175 rank multisets of five cards in the standard
deck, each flush or not. Compiling runs :meth:`Engine.fill` once per class (on
one representative hand) and numbers the distinct strengths densely, so that
``a > b`` between two table values holds exactly when one ``Fill.strength`` beats
the other (bigger is better in the ruleset's own direction).

Seven cards and more, without enumerating subsets
-------------------------------------------------
A holding of ``k > hand.size`` cards plays its best ``hand.size`` subset. Two
tables give that best directly:

``NF[k-multiset]``
    the best subset *value* when no subset is one-suited: the maximum over
    sub-multisets of the non-flush class value, filled by a dynamic programme
    over ``k`` (the best of a multiset is the best of the multisets one card
    smaller). Exact whenever no suit holds ``hand.size`` cards counting the wild
    cards, which is 97% of seven-card hands.
``FL[multiset of one suit's naturals + wilds]``
    the best one-suited subset drawn from those cards.

When some suit does reach ``hand.size``, the value is ``max(NF, FL of each such
suit)`` -- provided being one-suited never hurts a class (*dominance*: true in
every high game; a wild card can always decline the flush). The non-flush
entries of NF then only over-count subsets whose flush value is at least as
high and is counted by FL. Rulesets where a flush is worse (deuce-to-seven)
take the max over the ``hand.size`` subsets instead, for those rare hands only.
A class with at most one natural card is always one-suited (the generic
evaluator's rule), so such classes carry their flush value in NF as well.

Lowest-card wild is decided on the whole holding: the lowest natural rank held
turns wild before the key is formed. A suit tie-break (``suits.tiebreak``)
orders hands of equal value by the suits of the cards that play: the tables
give the value of every subset and the suit key is computed from the cards
(see ``fast.py``). Patterns that look at suits within the hand (``flush(k)``,
``run(k, flush)``, ``suits``) and ``hand.best_subset`` are valued by suit class
and keyed by a reduced suit key (``suittable.py``, ``suitkey.py``). What the
tables cannot see -- a pattern that names a suit, a non-wild joker, a suit
tie-break together with wild cards -- is evaluated by the generic path and
numbered with the same dense values.

The key encoding is :mod:`evaluator.compiled.table_layout`; the disk cache
(signed, checked, rebuilt when anything is off) is
:mod:`evaluator.compiled.table_cache`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.progress import Bar
from ..engine.evaluate import engine_for
from ..engine.fill import Fill
from ..engine.hand import Hand
from ..rules.cards import Card
from .build_cost import check_build
from .classgrid import NO_HAND, count_vectors, grow, sorted_table
from .classwords import ClassWords, WordsBuilder
from .suitclasses import holdings
from .suittable import SUIT_MODE, build_suit_table, enumerate_classes
from .suitvalue_cache import suit_values
from .table_cache import cache_enabled, cache_path, read_cache, read_grown, write_cache, write_grown
from .table_layout import (
    EXTRA_CARDS,
    CardModel,
    Strength,
    Tables,
    card_model,
    value_part,
)
from .walkstrength import WalkStrengths

if TYPE_CHECKING:
    from ..rules.ruleset import Rules


# --- building --------------------------------------------------------------------------


def build_tables(ruleset: Rules, progress: Callable[[float], None] | None = None) -> Tables:
    """Compile ``ruleset`` (no cache involved). See the module docstring."""
    started = time.monotonic()
    model = card_model(ruleset)
    check_build(ruleset, model)  # R130/R131 before any work: what check refuses is never built
    engine = engine_for(ruleset)
    size = ruleset.hand_size
    low = max(ruleset.hand_min, 1)
    top = size + EXTRA_CARDS
    layout = model.layout
    caps = model.caps
    wild_digit = layout.wild_digit if layout.has_wild_digit else -1
    natural_digits = len(model.natural_caps)
    suits = ruleset.suits
    one_suit = len(suits) < 2
    copies = ruleset.copies
    report = progress or (lambda fraction: None)

    # 1. every class of at most hand.size cards, each filled once by the engine;
    # a pattern that names a suit keeps one one-suited table per suit
    keyed = model.suit_keyed
    flush_suits: list[str] = list(suits) if model.suit_sensitive else [suits[0]]
    small = {k: count_vectors(caps, k) for k in range(low, size + 1)}
    total_classes = sum(len(rows) for rows in small.values())
    strengths: dict[Strength, None] = {}
    raw_nf: dict[int, list[Strength | None]] = {}
    raw_fl: list[Strength | None] = []
    fl_rows: list[list[int]] = []
    fl_suit: list[int] = []
    done = 0
    wild_cards = [Card.joker(n + 1) for n in range(max(caps[-1] if wild_digit >= 0 else 0, size))]
    # the words of each class of natural cards, for the hands the tables answer (classwords.py)
    words = (
        WordsBuilder() if model.mode in ("direct", "suited") and not keyed and not ruleset.wild.lowest_rank else None
    )
    nf_words: dict[int, list[int]] = {}
    fl_words: list[int] = []
    walks = None
    if model.mode == SUIT_MODE:
        # every holding class by suit, valued once: the suit tables (suitkey.py); the rank classes
        # below are among them (walkstrength.py). The valuation is shared with check and stats,
        # and cached: suitvalue_cache.py
        sizes = range(low, size + 1)

        def share(k: int) -> Callable[[float], None]:
            return lambda done: report(0.8 * (k - low + done) / len(sizes))

        walks = [suit_values(ruleset, k, share(k)) for k in sizes]
    known = WalkStrengths(ruleset, engine, walks) if walks is not None and words is None else None

    def strength_of(cards: list[Card], held: list[Card]) -> tuple[Strength | None, Fill | None]:
        """The value part of a class's strength, and its fill when it was played here."""
        if known is not None:
            found, strength = known.strength(cards, held)
            if found:
                return strength, None
        fill = _fill(engine, cards, held)
        return _part(fill), fill

    for k, rows in small.items():
        unsuited: list[Strength | None] = []
        unsuited_words: list[int] = nf_words.setdefault(k, [])
        for row in rows.tolist():
            naturals = [ruleset.rank_symbols[model.digit_rank[d]] for d in range(natural_digits) for _ in range(row[d])]
            wilds = row[wild_digit] if wild_digit >= 0 else 0
            held = wild_cards[:wilds]
            flushable = k == size and all(row[d] <= copies for d in range(natural_digits))
            by_suit: list[tuple[Strength | None, Fill | None]] = []
            if flushable:
                for suit in flush_suits:
                    by_suit.append(strength_of([Card(r, suit) for r in naturals], held))
            if k == size and (len(naturals) <= 1 or one_suit):
                found = [pair for pair in by_suit if pair[0] is not None] if flushable else []
                plain, plain_fill = max(found, key=lambda pair: pair[0] or ()) if found else (None, None)
            else:
                plain, plain_fill = strength_of(_spread(naturals, suits), held)
            unsuited.append(plain)
            if words is not None:
                unsuited_words.append(words.index(_words(ruleset, plain_fill, wilds)))
            if flushable:
                for which in range(len(flush_suits) if keyed else 1):
                    fl_rows.append(row)
                    fl_suit.append(which)
                    raw_fl.append(by_suit[which][0])
                    if words is not None:
                        fl_words.append(words.index(_words(ruleset, by_suit[which][1], wilds)))
            for s in [plain, *(pair[0] for pair in by_suit)]:
                if s is not None:
                    strengths[s] = None
            done += 1
            if done % 256 == 0 and walks is None:  # (the walk's own progress went first)
                report(0.8 * done / total_classes)
        raw_nf[k] = unsuited
    classes = None
    if walks is not None:
        classes = enumerate_classes(model, walks)
        strengths.update(dict.fromkeys(classes.strengths))
    elif engine.by_suit_class:
        # the rank classes above miss what suits within the hand make (a four
        # flush): every strength of a suit class, numbered with the rest
        # (check_build has refused a ruleset whose suit classes cannot be enumerated)
        for k in range(low, size + 1):
            for held, _ in holdings(ruleset, k):
                mask = engine.wild_mask(held)
                if sum(mask) > engine.wild_limit:
                    continue  # refused (C105) per call and in batch before any lookup
                wilds = [card for card, is_wild in zip(held, mask, strict=False) if is_wild]
                strength = _strength(
                    engine, [card for card, is_wild in zip(held, mask, strict=False) if not is_wild], wilds
                )
                if strength is not None:
                    strengths[strength] = None
    ordered = sorted(strengths)
    index = {s: i for i, s in enumerate(ordered)}

    def values(items: list[Strength | None]) -> np.ndarray:
        return np.array([index[s] if s is not None else NO_HAND for s in items], dtype=np.int32)

    nf: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    fl: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    word_indices: dict[int, np.ndarray] = {}
    for k, rows in small.items():
        keys = layout.keys(rows)
        nf[k] = sorted_table(keys, values(raw_nf[k]))
        word_indices[k] = in_key_order(keys, nf_words.get(k, []))
    flush_rows = np.array(fl_rows, dtype=np.int16).reshape(-1, layout.digits)
    suit_offsets = np.array(fl_suit, dtype=np.int64) << layout.key_bits
    flush_keys = layout.keys(flush_rows) + suit_offsets
    fl[size] = sorted_table(flush_keys, values(raw_fl))
    class_words = (
        ClassWords(list(words.texts), word_indices, in_key_order(flush_keys, fl_words)) if words is not None else None
    )

    # 2. dominance: is a one-suited five-card class ever worse than unsuited?
    five_keys, five_values = nf[size]
    flush_keys, flush_values = fl[size]
    positions = np.searchsorted(five_keys, flush_keys & layout.key_mask)
    dominant = bool(np.all(flush_values >= five_values[positions]))
    flush_matters = bool(np.any(flush_values != five_values[positions]))

    # 3. larger holdings: the best sub-multiset, one card at a time
    for k in range(size + 1, top + 1):
        nf[k] = grow(layout, caps, k, nf[k - 1])
        fl[k] = grow_suited(model, k, fl[k - 1])
        report(0.8 + 0.2 * (k - size) / max(top - size, 1))
    categories = np.array([strength_category(ruleset, s) for s in ordered], dtype=np.int16)
    suit_table = build_suit_table(classes, index, model, caps, EXTRA_CARDS) if classes is not None else None
    report(1.0)
    return Tables(
        ruleset,
        model,
        ordered,
        categories,
        nf,
        fl,
        dominant,
        flush_matters,
        built_in=time.monotonic() - started,
        suit_table=suit_table,
        words=class_words,
    )


def _fill(engine: Any, naturals: list[Card], wilds: list[Card]) -> Fill | None:
    fill: Fill | None = engine.fill(naturals + wilds, [False] * len(naturals) + [True] * len(wilds))
    return fill


def _part(fill: Fill | None) -> Strength | None:
    return value_part(fill.strength) if fill is not None else None


def _strength(engine: Any, naturals: list[Card], wilds: list[Card]) -> Strength | None:
    return _part(_fill(engine, naturals, wilds))


def _words(ruleset: Rules, fill: Fill | None, wilds: int) -> str | None:
    """The description of a class's representative hand: natural cards that qualify only."""
    if fill is None or wilds or not fill.classification.qualifies:
        return None
    return Hand.from_fill(ruleset, fill).describe()


def in_key_order(keys: np.ndarray, indices: list[int]) -> np.ndarray:
    """Text indices of classes put in the order of their sorted keys (as ``sorted_table``)."""
    order = np.argsort(keys, kind="stable")
    return np.array(indices, dtype=np.int32).reshape(-1)[order] if len(indices) else np.full(len(keys), -1, np.int32)


def _spread(ranks: list[str], suits: Sequence[str]) -> list[Card]:
    """Cards of the given ranks in suits that are not all the same. Cycling through
    the suits uses a card at most ceil(count / suits) times: within the packs."""
    return [Card(rank, suits[i % len(suits)]) for i, rank in enumerate(ranks)]


def grow_suited(model: CardModel, k: int, smaller: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`grow` for one-suited tables (at most ``copies`` cards of a rank in a suit),
    suit by suit when the keys carry a suit (``CardModel.suit_keyed``)."""
    layout = model.layout
    copies = model.ruleset.copies
    caps = [min(cap, copies) for cap in model.natural_caps] + ([model.wild_cap] if layout.has_wild_digit else [])
    keys, values = smaller
    suit_of = keys >> layout.key_bits
    pieces = []
    for suit in np.unique(suit_of).tolist() or [0]:
        mine = suit_of == suit
        grown_keys, grown_values = grow(layout, caps, k, (keys[mine] & layout.key_mask, values[mine]))
        pieces.append((grown_keys + (np.int64(suit) << layout.key_bits), grown_values))
    return sorted_table(np.concatenate([p[0] for p in pieces]), np.concatenate([p[1] for p in pieces]))


def ensure_tables(tables: Tables, k: int) -> None:
    """Grow the tables to ``k``-card holdings (built only to hand.size + 2): each size read
    from the disk cache when a good file is there, else grown and cached."""
    model = tables.model
    use_cache = cache_enabled()
    while tables.max_cards < k:
        nxt = tables.max_cards + 1
        found = read_grown(tables, nxt) if use_cache else None
        if found is not None:
            tables.nf[nxt], tables.fl[nxt] = found
            continue
        tables.nf[nxt] = grow(model.layout, model.caps, nxt, tables.nf[nxt - 1])
        tables.fl[nxt] = grow_suited(model, nxt, tables.fl[nxt - 1])
        if use_cache:
            write_grown(tables, nxt)


def strength_category(ruleset: Rules, strength: Strength) -> int:
    """The category index of a strength (-1 when it does not qualify): its first score part names it.

    >>> from evaluator import load
    >>> rs = load("standard")
    >>> rs.category_names[strength_category(rs, rs.evaluate("As Ad Ks Kd 2c").strength)]
    'two_pair'
    """
    qualifies, score = strength[0], strength[1]
    if not qualifies[0]:
        return -1
    category_strength = score[0] if ruleset.direction == "high" else -score[0]
    for index, category in enumerate(ruleset.categories):
        if category.strength == category_strength:
            return index
    return -1  # pragma: no cover - every score starts with a category strength


def load_tables(ruleset: Rules, use_cache: bool | None = None) -> Tables:
    """The tables of ``ruleset``: from the disk cache when a good file is there,
    else built (with a progress bar on stderr past one second) and cached."""
    use_cache = cache_enabled() if use_cache is None else use_cache
    path = cache_path(ruleset) if use_cache else None
    if path is not None:
        found = read_cache(ruleset, path)
        if found is not None:
            return found
    progress = Bar(f"compiling lookup tables for {ruleset.name}")
    tables = build_tables(ruleset, progress)
    progress.finish()
    if path is not None:
        write_cache(tables, path)
    return tables


def tables_at_hand(ruleset: Rules) -> bool:
    """Whether the tables of ``ruleset`` are loaded or in the disk cache (a fraction of a second
    to read, where a build takes seconds): callers with few hands may value them generically else."""
    if getattr(ruleset, "_cache_tables", None) is not None:
        return True
    return cache_enabled() and cache_path(ruleset).is_file()


def tables_for(ruleset: Rules) -> Tables:
    """The tables of ``ruleset``, loaded once per Ruleset object."""
    found: Tables | None = getattr(ruleset, "_cache_tables", None)
    if found is None:
        found = load_tables(ruleset)
        object.__setattr__(ruleset, "_cache_tables", found)
    return found
