"""The fast path: per-call and batch ranking on the compiled tables.

``tables.py`` compiles a ruleset into dense values per hand class; this module
turns cards into additive codes and codes into values, as cheaply as Python
and NumPy allow:

- **per call** (:attr:`FastRanker.rank`): a closure specialised for the ruleset
  when it is built. For the common case it is ``sum(codes, BIAS)``, one AND to
  see whether a suit can be a flush, one shift and one dictionary lookup -- the
  same for five, six or seven cards, no subsets enumerated. Flush-capable
  holdings (3% of seven-card hands) look up the one-suited table per suit.
- **batch** (:meth:`FastRanker.rank_many`): the same sums with NumPy over an
  ``(n, k)`` array, column by column in cache-sized chunks; the rank key is
  turned into a dense table index by a mixed-radix ranking (one offset table per
  part of the key, see :class:`DenseIndex`), so the whole path is gathers and adds.

Which path a ruleset takes (``CardModel.mode``):

- ``direct`` -- everything above; lowest-card wild first turns the lowest
  natural rank of the holding into wild codes; a pattern naming a suit keys
  the one-suited tables by suit.
- ``suited`` -- a suit tie-break without wild cards: the direct value, then the
  suit key of the best hand read from the holding's cards of the ranks its
  class plays (``suitplay.py``); per call, ``encode`` hands out codes that
  carry their card, so that one sum, one lookup of the holding's class and one
  of its suit key answer (``suitcall.py``); the holdings where suits could
  change which cards play rank their ``hand.size`` subsets (``suited.py``).
- ``suitclass`` -- patterns that look at suits within the hand (``flush(k)``,
  ``run(k, flush)``, ``suits``) or ``hand.best_subset``: values by reduced suit
  key, one lookup while no suit reaches the table's threshold (``suitkey.py``).
- ``generic`` -- a suit named in a pattern together with wild cards, a suit
  tie-break with wild cards, or jokers that are not wild: the generic
  evaluator, numbered the same way (the batch path is then a loop; no
  catalogue ruleset takes it).

A batch of more than ``tables.BATCH_CARDS`` cards per hand is ranked as the best of
smaller holdings that cover it (``batch_rank.py``), still vectorised.

Values are the dense strengths of ``tables.py``: bigger wins in the ruleset's
direction, and equal values are equal ``Fill.strength``. With a suit
tie-break the value is ``dense * B**hand.size + suit key`` (``B`` = suits + 1),
so the integer still orders hands exactly. ``-1`` means that no category
matches the cards (never the case in the catalogue).

What the fast path does not decide: ``beats:`` exceptions (the value is the
hand's strength; apply the exceptions with ``Ruleset.compare``), and a game's
card-usage rule (``game.use_hole``): ranking more than ``hand.size`` cards of
such a ruleset raises, because "the best five of these cards" is not what the
game plays.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.errors import CardError, error
from ..engine.cardread import read_ids
from ..rules.cards import Card
from .card_ids import CardIds, make_encoder, not_codes
from .classgrid import NO_HAND
from .per_call import class_value, direct_rank, make_rank, subset_finder
from .suitbatch import SuitBatch
from .suitcall import call_codes
from .suitdirect import DirectTable
from .suited import suited_many
from .suitplay import usable
from .suittable import SUIT_MODE
from .table_layout import Layout, Tables
from .tables import ensure_tables, tables_for

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

#: Values of holdings above the built size that a ``_Grown`` table keeps (a
#: bounded memo: past it, the oldest half is forgotten).
GROWN_MEMO = 1 << 16


class _Grown(dict[int, int]):
    """A value table keyed by rank key that answers larger holdings on demand.

    Holdings up to the built size are in the dict. A bigger one is worth its best
    sub-multiset of ``hand.size`` cards -- what growing the tables one card at a
    time computes -- found by walking those sub-multisets (at most a few
    thousand), then memoised in a bounded side memo (``GROWN_MEMO`` entries).
    """

    def __init__(self, items: dict[int, int], layout: Layout, built: int, low: int, size: int, name: str) -> None:
        super().__init__(items)
        self.layout = layout
        self.built = built
        self.low = low
        self.size = size
        self.name = name
        self.places = [layout.place(d) for d in range(layout.digits)]
        self.memo: dict[int, int] = {}  # holdings above the built size, bounded

    def __missing__(self, key: int) -> int:
        known = self.memo.get(key)
        if known is not None:
            return known
        counts = self.layout.decode(key)
        total = sum(counts)
        if total == 0:
            # card ids, or other small numbers: nothing lands in the rank counts
            raise error(CardError, "C102", not_codes(self.name), "<cards>")
        if total < self.low:
            raise error(
                CardError,
                "C104",
                f"{total} card{'s' if total != 1 else ''} given; {self.name} needs at least {self.low}",
                "<cards>",
            )
        # (one-suited tables of a suit-keyed ruleset carry the suit above the rank key)
        suit_key = key & ~self.layout.key_mask
        if total <= self.built or self.layout.keys(np.array([counts])).item() != key & self.layout.key_mask:
            raise error(CardError, "C102", not_codes(self.name), "<cards>")
        digits = [d for d, count in enumerate(counts) if count]
        places = self.places
        best = NO_HAND

        def walk(i: int, left: int, sub: int) -> None:
            nonlocal best
            if left == 0:
                value = self[sub + suit_key]
                if value > best:
                    best = value
                return
            if i == len(digits):
                return
            digit = digits[i]
            for take in range(min(counts[digit], left), -1, -1):
                walk(i + 1, left - take, sub + take * places[digit])

        walk(0, self.size, 0)
        memo = self.memo
        if len(memo) >= GROWN_MEMO:
            # forget the older half (dicts keep insertion order)
            for old in list(memo)[: GROWN_MEMO // 2]:
                del memo[old]
        memo[key] = best
        return best


class DenseIndex:
    """Ranks rank keys of ``k``-card classes densely (vectorised).

    The key's parts are mixed-radix digit vectors. A class of ``k`` cards gets
    ``sum over parts of OFF[part][cards left, part value]``: the number of
    classes that come before it, part by part (the last part is ranked among
    part values with the same card count). All tables are small (a part spans at
    most 2**17 values), so the ranking is a handful of gathers.
    """

    def __init__(self, layout: Layout, top: int) -> None:
        self.layout = layout
        self.top = top
        self.spans: list[int] = []
        self.sizes: list[np.ndarray] = []  # card count of each part value
        for part in layout.parts:
            span = 1
            for d in part:
                span *= layout.radix[d]
            values = np.arange(span, dtype=np.int64)
            size = np.zeros(span, dtype=np.int64)
            for d in part:
                values, digit = np.divmod(values, layout.radix[d])
                size += digit
            self.spans.append(span)
            self.sizes.append(size)
        # below[p][r]: classes of exactly r cards over parts 0..p
        below: list[np.ndarray] = []
        for p, size in enumerate(self.sizes):
            histogram = np.bincount(np.minimum(size, top + 1), minlength=top + 2)[: top + 1]
            if p == 0:
                below.append(histogram.astype(np.int64))
            else:
                below.append(np.convolve(below[-1], histogram)[: top + 1].astype(np.int64))
        self.below = below
        self.offsets: list[np.ndarray] = []  # offsets[p][r, value], p >= 1
        first = self.sizes[0]
        rank_in_size = np.zeros(len(first), dtype=np.int64)
        for s in range(int(first.max()) + 1):
            where = np.nonzero(first == s)[0]
            rank_in_size[where] = np.arange(len(where))
        self.first = rank_in_size
        self.offsets.append(np.zeros((0, 0), dtype=np.int64))
        for p in range(1, len(self.sizes)):
            size = self.sizes[p]
            table = np.zeros((top + 1, len(size)), dtype=np.int64)
            for r in range(top + 1):
                left = r - size
                completions = np.where(left >= 0, below[p - 1][np.clip(left, 0, top)], 0)
                table[r, 1:] = np.cumsum(completions)[:-1]
            self.offsets.append(table)

    def count(self, k: int) -> int:
        """The number of ``k``-card classes (the length of a dense table)."""
        return int(self.below[-1][k])

    def index(self, key: np.ndarray, k: int | np.ndarray) -> np.ndarray:
        """Dense indices (int64) of rank keys (``sum(codes) >> shift``) of ``k`` cards."""
        layout = self.layout
        top_part = len(layout.parts) - 1
        left: int | np.ndarray = k
        total: np.ndarray | None = None
        for p in range(top_part, 0, -1):
            value = key >> layout.part_shift[p]
            if p != top_part:  # nothing sits above the top part
                value &= (1 << layout.part_bits[p]) - 1
            table = self.offsets[p]
            # take(): faster than fancy indexing for a gather from a small table
            step = np.take(table[left], value) if isinstance(left, int) else table[left, value]
            total = step if total is None else total + step
            if p > 1:
                left = left - self.sizes[p][value]
        low: np.ndarray = np.take(self.first, key & ((1 << layout.part_bits[0]) - 1) if top_part else key)
        if total is None:
            return low
        total += low
        return total


class FastRanker:
    """Per-call and batch ranking of one ruleset on its compiled tables."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        ruleset = tables.ruleset
        self.ruleset = ruleset
        model = tables.model
        self.model = model
        self.layout = model.layout
        self.size = ruleset.hand_size
        self.low = max(ruleset.hand_min, 1)
        self.mode = model.mode
        self.lowest = ruleset.wild.lowest_rank
        self.suits = len(ruleset.suits)
        self.suit_base = self.suits + 1
        self.suit_scale: int = self.suit_base**self.size
        # A value is ``dense * value_scale + suit key`` whenever a suit tie-break applies,
        # whichever path computed it (``suited``, or ``generic`` when wild cards are held too).
        self.value_scale: int = self.suit_scale if ruleset.tiebreak != "none" else 1
        # a suit key of n cards is padded on the right to hand.size cards
        self.suit_pad: list[int] = [
            self.suit_base ** (self.size - n) if n <= self.size else 1 for n in range(self.size + 1)
        ]
        self.constrained = ruleset.game is not None and (
            ruleset.game.use_hole is not None or ruleset.game.use_board is not None
        )
        deck = model.cards
        self.id_of: dict[Card, int] = {card: i for i, card in enumerate(deck)}
        # the tables' additive codes by id (card ids on the generic path): the batch paths add them
        self.codes = np.array(model.codes if self.mode != "generic" else range(len(deck)), dtype=np.int64)
        self.table_codes: list[int] = self.codes.tolist()
        value_of = {symbol: value for value, symbol in enumerate(ruleset.rank_symbols)}
        suit_rank = {suit: len(ruleset.suit_order) - i for i, suit in enumerate(ruleset.suit_order)}
        # per id: aces-high rank (lowest-card wild), rank value and suit rank (suit tie-break)
        big = len(ruleset.deck_ranks) + 1
        self.aces_high = np.array(
            [
                big if (w or d) else ruleset.deck_ranks.index(c.rank or "")
                for c, w, d in zip(deck, model.static_wild, model.dead, strict=False)
            ],
            dtype=np.int64,
        )
        self.rank_value = np.array([value_of[c.rank] if c.rank is not None else -1 for c in deck], dtype=np.int64)
        self.suit_rank = np.array([suit_rank[c.suit] if c.suit is not None else 0 for c in deck], dtype=np.int64)
        self.built = tables.max_cards
        nf: dict[int, int] = {}
        for keys, values in tables.nf.values():
            nf.update(zip(keys.tolist(), values.tolist(), strict=False))
        fl: dict[int, int] = {}
        for keys, values in tables.fl.values():
            fl.update(zip(keys.tolist(), values.tolist(), strict=False))
        self.nf = _Grown(nf, self.layout, self.built, self.low, self.size, ruleset.name)
        self.fl = _Grown(fl, self.layout, self.built, self.size, self.size, ruleset.name)
        self._index: DenseIndex | None = None
        self._dense_nf: dict[int, np.ndarray] = {}
        self._dense_fl: dict[int, np.ndarray] = {}
        self._codes_plus: np.ndarray | None = None
        self._batch_cache: dict[str, Any] = {}  # batch_rank.py's per-ruleset arrays
        self._suit_batch: SuitBatch | None = None
        # codes handed out by encode() and taken by rank(): the table codes, or for a suit
        # tie-break settled by classes codes that carry their card (suitcall.py)
        per_call = self.mode == "suited" and usable(self, batch=False)
        self.code_list: list[int] = call_codes(self) if per_call else self.table_codes
        self.ids = CardIds(ruleset, model, self.codes, self.low, self.code_list if per_call else None)

    # --- encoding ------------------------------------------------------------------------

    def encode(self, cards: str | Sequence[Card | str | int]) -> tuple[int, ...]:
        """Read and check ``cards`` (text, Card objects or card ids) and return one
        integer per card for :attr:`rank`."""
        return self.encoder(cards)

    @cached_property
    def encoder(self) -> Callable[[str | Sequence[Card | str | int]], tuple[int, ...]]:
        """:meth:`encode` as one closure (``card_ids.make_encoder``)."""
        return make_encoder(self.ruleset, self.code_list)

    def card_ids(self, cards: str | Sequence[Card | str | int]) -> tuple[int, ...]:
        """The card ids (index in ``Ruleset.deck``) of ``cards``, for :meth:`rank_many`."""
        return tuple(read_ids(self.ruleset, cards))

    # --- per call (the builders are in per_call.py and suited.py) ---------------------------

    # built on first use: batch work (stats, diff, odds) never calls them, and for a suit-class
    # ruleset the per-call key tables take about a second
    @cached_property
    def _closures(self) -> tuple[Callable[[Sequence[int]], int], Callable[[Sequence[int]], int]]:
        return make_rank(self)

    @cached_property
    def rank(self) -> Callable[[Sequence[int]], int]:
        """The per-call closure for this ruleset (the branches are decided in ``per_call.make_rank``)."""
        return self._closures[0]

    @cached_property
    def raw_rank(self) -> Callable[[Sequence[int]], int]:
        """:attr:`rank` without the wild-card limit, for codes already checked (subsets of a
        checked holding)."""
        return self._closures[1]

    def grown(self, items: dict[int, int], built: int) -> dict[int, int]:
        """A rank-keyed value table built to ``built`` cards that answers larger holdings on demand."""
        return _Grown(items, self.layout, built, self.low, self.size, self.ruleset.name)

    def _direct_rank(self) -> Callable[[Sequence[int]], int]:
        """The direct table lookup, without lowest-card wild or limits (``per_call.direct_rank``)."""
        return direct_rank(self)

    @cached_property
    def subset_finder(self) -> Callable[[Sequence[int], int], tuple[int, ...] | None] | None:
        """``find(codes, value)``: the first ``hand.size`` subset whose table value is
        ``value``, or None for rulesets where that is not one lookup (``per_call.subset_finder``)."""
        return subset_finder(self)

    def category_index(self, value: int) -> int:
        """The category index (in ``order``) of a :attr:`rank` value; -1 for no hand or a
        hand that does not qualify.

        >>> from evaluator import load
        >>> ranker = ruleset_ranker(load("suits-bridge"))
        >>> ranker.category_index(ranker.rank(ranker.encode("As Ks Qs Js Ts")))
        0
        """
        return int(self.tables.categories[value // self.value_scale]) if value >= 0 else -1

    def category_indices(self, values: np.ndarray) -> np.ndarray:
        """:meth:`category_index` of every value of a :meth:`rank_many` result (int64)."""
        dense = np.maximum(values, 0) // self.value_scale
        return np.where(values >= 0, self.tables.categories[dense], -1).astype(np.int64)

    def from_strength(self, strength: tuple[tuple[int, ...], ...]) -> int:
        """The integer the fast path gives a generic ``Fill.strength``."""
        value = self.tables.dense(strength)
        if self.ruleset.tiebreak == "none":
            return value
        key = 0
        suits = strength[3]
        for suit in suits:
            key = key * self.suit_base + suit
        return value * self.suit_scale + key * self.suit_pad[len(suits)]

    # --- batch ---------------------------------------------------------------------------

    @property
    def index(self) -> DenseIndex:
        """The dense ranking of rank keys (built on first batch use)."""
        if self._index is None:
            self._index = DenseIndex(self.layout, min(self.layout.limit, self.built))
        return self._index

    def _dense_tables(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Dense NF and FL value arrays (int64) of ``k``-card classes."""
        plain = self._dense_plain(k)
        return plain, self._dense_flush(k)

    def _index_for(self, k: int) -> DenseIndex:
        """The dense index of ``k``-card classes (grown from the tables first): built for at
        least ``k`` cards at once, rebuilt -- dropping the dense tables -- when ``k`` passes it."""
        ensure_tables(self.tables, k)
        if self._index is None or k > self._index.top:
            self._index = DenseIndex(self.layout, max(k, min(self.layout.limit, self.built)))
            self._dense_nf.clear()
            self._dense_fl.clear()
        return self._index

    def _dense_plain(self, k: int) -> np.ndarray:
        """The dense NF value array of ``k``-card classes."""
        if k not in self._dense_nf:
            index = self._index_for(k)
            dense_nf = np.full(index.count(k), NO_HAND, dtype=np.int64)
            keys, values = self.tables.nf[k]
            dense_nf[index.index(keys, k)] = values
            self._dense_nf[k] = dense_nf
        return self._dense_nf[k]

    def _dense_flush(self, k: int) -> np.ndarray:
        """The dense FL value arrays of ``k``-card classes, one row per suit when the suit
        keys the value (else one row): what one-suited holdings read (``batch_rank.SuitTables``)."""
        if k not in self._dense_fl:
            index = self._index_for(k)
            layout, tables = self.layout, self.tables
            dense_fl = np.full((layout.suits if self.model.suit_keyed else 1, index.count(k)), NO_HAND, dtype=np.int64)
            if k in tables.fl:
                keys, values = tables.fl[k]
                dense_fl[keys >> layout.key_bits, index.index(keys & layout.key_mask, k)] = values
            self._dense_fl[k] = dense_fl
        return self._dense_fl[k]

    def to_ids(self, array: Any) -> np.ndarray:
        """Card ids of a batch given as card ids or as :meth:`encode` codes (``card_ids.CardIds``)."""
        return self.ids.to_ids(array)

    def _blocks(self, ids: np.ndarray, limit: int) -> Iterator[tuple[int, np.ndarray]]:
        """Range-checked chunks of ``ids`` as (start, columns) (``CardIds.blocks``)."""
        return self.ids.blocks(ids, limit)

    def rank_many(self, array: Any) -> np.ndarray:
        """Strengths of many holdings at once: ``array`` of shape (n, k), card ids
        (index in ``Ruleset.deck``) or ``encode`` codes; returns int64 of shape (n,)."""
        ids = self.to_ids(array)
        n, k = ids.shape
        if k < self.low:
            raise error(
                CardError, "C104", f"{k} cards per hand given; {self.ruleset.name} needs at least {self.low}", "<cards>"
            )
        if self.constrained and k > self.size:
            self.rank(tuple(range(k)))  # raises the same error as per call
        if n == 0:
            return np.zeros(0, dtype=np.int64)
        if self.mode == "generic":
            # no vectorised form: the generic path (one engine call per hand)
            self.ids.blocks_checked(ids)
            codes = self.code_list
            return np.array([self.rank(tuple(codes[i] for i in row)) for row in ids.tolist()], dtype=np.int64)
        if self.lowest:
            self.ids.blocks_checked(ids)
            ids = self._lower(ids)
        if self.mode == "suited":
            return self._suited_many(ids)
        if self.mode == SUIT_MODE:
            return self._suit_class_many(ids)
        return self._direct_many(ids)

    def _suit_class_many(self, ids: np.ndarray) -> np.ndarray:
        """Values by reduced suit key, vectorised (``suitbatch.SuitBatch``)."""
        return self._suit_class_batch().rank(ids)

    def _suit_class_batch(self) -> SuitBatch:
        if self._suit_batch is None:
            self._suit_batch = SuitBatch(self, DenseIndex)
        return self._suit_batch

    def direct_table(self) -> DirectTable | None:
        """The per-hand table of a suit-class ruleset with a small deck (``suitdirect.py``), or None."""
        return self._suit_class_batch().direct()

    @property
    def _code_table(self) -> np.ndarray:
        """Codes by id, plus one entry for "a wild card" (lowest-card wild turns cards into it)."""
        if self._codes_plus is None:
            self._codes_plus = np.append(self.codes, np.int64(self.model.wild_code))
        return self._codes_plus

    def _lower(self, ids: np.ndarray) -> np.ndarray:
        """Lowest-card wild, vectorised: the lowest natural rank of each row turns wild."""
        high = self.aces_high[ids]
        lowest = high.min(axis=1, keepdims=True)
        turn = (high == lowest) & (lowest <= len(self.ruleset.deck_ranks))
        return np.where(turn, len(self.model.cards), ids)

    def _direct_many(self, ids: np.ndarray) -> np.ndarray:
        """The tables' value of each row (any number of cards), see ``batch_rank.py``."""
        from .batch_rank import direct_many

        return direct_many(self, ids)

    def _suited_many(self, ids: np.ndarray) -> np.ndarray:
        """Suit tie-break, vectorised (``suited.suited_many``)."""
        return suited_many(self, ids, self._direct_many)

    # --- classes (exact counting) ------------------------------------------------------------

    def class_value(self, counts: Sequence[int], flush_counts: Sequence[int]) -> int:
        """The value of a holding class: rank counts, and the counts of its flush suit (``per_call.class_value``)."""
        return class_value(self, counts, flush_counts)


def ruleset_ranker(ruleset: Rules) -> FastRanker:
    """The ranker of ``ruleset`` (tables from the disk cache or built once; one ranker per tables)."""
    tables = tables_for(ruleset)
    found: FastRanker | None = getattr(ruleset, "_cache_ranker", None)
    if found is None or found.tables is not tables:
        found = FastRanker(tables)
        object.__setattr__(ruleset, "_cache_ranker", found)
    return found
