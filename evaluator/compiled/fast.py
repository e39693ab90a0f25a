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
- ``suited`` -- a suit tie-break without wild cards: the best value over the
  ``hand.size`` subsets (21 for seven cards), then the best suit key among the
  subsets that reach it (vectorised in the batch path).
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

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from functools import cached_property
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.errors import CardError, PokerRulesError, error
from ..engine.cardread import read_ids
from ..engine.evaluate import engine_for
from ..rules.cards import MAX_CARD_TEXT, Card
from .tables import MAX_HOLDING, NO_HAND, Layout, Tables, count_vectors, ensure_tables, tables_for

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

#: Rows per NumPy chunk: keeps the working arrays of a chunk in the CPU cache.
CHUNK = 8192
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
            step = table[left][value] if isinstance(left, int) else table[left, value]
            total = step if total is None else total + step
            if p > 1:
                left = left - self.sizes[p][value]
        low: np.ndarray = self.first[key & ((1 << layout.part_bits[0]) - 1)] if top_part else self.first[key]
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
        # a suit key of n cards is padded on the right to hand.size cards
        self.suit_pad: list[int] = [
            self.suit_base ** (self.size - n) if n <= self.size else 1 for n in range(self.size + 1)
        ]
        self.constrained = ruleset.game is not None and (
            ruleset.game.use_hole is not None or ruleset.game.use_board is not None
        )
        deck = model.cards
        self.id_of: dict[Card, int] = {card: i for i, card in enumerate(deck)}
        # codes handed out by encode(): additive codes, or card ids on the generic path
        self.codes = np.array(model.codes if self.mode != "generic" else range(len(deck)), dtype=np.int64)
        self.code_list: list[int] = self.codes.tolist()
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
        self._code_order: tuple[np.ndarray, np.ndarray] | None = None
        self._codes_plus: np.ndarray | None = None
        self._batch_cache: dict[str, Any] = {}  # batch_rank.py's per-ruleset arrays
        self.rank: Callable[[Sequence[int]], int] = self._make_rank()

    # --- encoding ------------------------------------------------------------------------

    def encode(self, cards: str | Sequence[Card | str | int]) -> tuple[int, ...]:
        """Read and check ``cards`` (text, Card objects or card ids) and return one
        integer per card for :attr:`rank`."""
        return self.encoder(cards)

    @cached_property
    def encoder(self) -> Callable[[str | Sequence[Card | str | int]], tuple[int, ...]]:
        """:meth:`encode` as one closure: plain text is split and looked up in the deck's
        token table; anything else goes through :func:`read_ids` (same errors as ever)."""
        from ..engine.cardread import deck_reader

        codes = self.code_list
        ruleset = self.ruleset
        tokens = deck_reader(ruleset).tokens
        longest = MAX_CARD_TEXT

        def encode(cards: str | Sequence[Card | str | int], source: str = "<cards>") -> tuple[int, ...]:
            if cards.__class__ is str and len(cards) <= longest:
                try:
                    ids = [tokens[part] for part in cards.split()]
                except KeyError:
                    ids = None
                if ids is not None and len(set(ids)) == len(ids) and len(ids) <= MAX_HOLDING:
                    return tuple([codes[i] for i in ids])
            return tuple([codes[i] for i in read_ids(ruleset, cards, source)])

        encode.__doc__ = f"Read cards of {ruleset.name} (text, Card objects or card ids) into codes for rank()."
        return encode

    def card_ids(self, cards: str | Sequence[Card | str | int]) -> tuple[int, ...]:
        """The card ids (index in ``Ruleset.deck``) of ``cards``, for :meth:`rank_many`."""
        return tuple(read_ids(self.ruleset, cards))

    # --- per call ------------------------------------------------------------------------

    def _make_rank(self) -> Callable[[Sequence[int]], int]:
        """Build the per-call closure for this ruleset (the branches are decided here)."""
        if self.mode == "generic":
            rank = self._generic_rank()
        elif self.mode == "suited":
            rank = self._suited_rank(self._direct_rank())
        else:
            rank = self._direct_rank()
            if self.lowest:
                rank = self._lowest_rank(rank)
        if self.constrained:
            rank = self._no_best_of(rank)
        self.raw_rank: Callable[[Sequence[int]], int] = rank  # for codes already checked (subsets of a checked holding)
        limit = self.model.wild_limit
        if limit is not None and self.mode != "generic":
            rank = self._wild_limited(rank, limit)
        rank.__doc__ = (
            f"The strength of an encoded holding of {self.ruleset.name} (bigger wins; -1: no hand).\n\n"
            "``codes`` come from ``Ruleset.encode``; any number of cards from hand.min up."
        )
        return rank

    def _wild_limited(self, rank: Callable[[Sequence[int]], int], limit: int) -> Callable[[Sequence[int]], int]:
        """More wild cards than the evaluator fills: C105, as the generic evaluator says it."""
        wild = self.model.wild_code

        def rank_limited(codes: Sequence[int]) -> int:
            if codes.count(wild) > limit:
                raise too_many_wilds(len([c for c in codes if c == wild]))
            return rank(codes)

        return rank_limited

    def _direct_rank(self) -> Callable[[Sequence[int]], int]:
        layout = self.layout
        nf = self.nf
        fl = self.fl
        shift = layout.shift
        size = self.size
        limit = layout.limit
        tables = self.tables
        if not tables.flush_matters:
            # no class changes value when one-suited (ace-to-five, twenty-card): suits are ignored
            def rank_plain(codes: Sequence[int]) -> int:
                return nf[sum(codes) >> shift]

            rank: Callable[[Sequence[int]], int] = rank_plain
        else:
            bias = layout.bias
            flush_bits = layout.flush_bits
            keyed = self.model.suit_keyed
            suit_tests = [
                (layout.suit_flush_bit(s), layout.suit_one(s), (s << layout.key_bits) if keyed else 0)
                for s in range(layout.suits)
            ]
            dominant = tables.dominant

            def flushable(codes: Sequence[int], total: int) -> int:
                best = NO_HAND
                for bit, one, suit_key in suit_tests:
                    if total & bit:
                        # the naturals of this suit and the wild cards (a wild adds to every suit)
                        value = fl[(sum([code for code in codes if code & one]) >> shift) + suit_key]
                        if value > best:
                            best = value
                if len(codes) > size:
                    if dominant:
                        value = nf[total >> shift]
                        if value > best:
                            best = value
                    else:
                        best = max(rank_flush(subset) for subset in combinations(codes, size))
                return best

            def rank_flush(codes: Sequence[int]) -> int:
                total = sum(codes, bias)
                if total & flush_bits:
                    if len(codes) == size and not keyed:
                        # one hand: the suit that reached hand.size holds every natural
                        return fl[total >> shift]
                    return flushable(codes, total)
                return nf[total >> shift]

            rank = rank_flush
        if limit < MAX_HOLDING:
            inner = rank

            def rank_wide(codes: Sequence[int]) -> int:
                # several packs: past `limit` cards a count field could overflow, so go by subsets
                if len(codes) > limit:
                    return max(inner(subset) for subset in combinations(codes, size))
                return inner(codes)

            rank = rank_wide
        return rank

    @cached_property
    def subset_finder(self) -> Callable[[Sequence[int], int], tuple[int, ...] | None] | None:
        """``find(codes, value)``: the first ``hand.size`` subset (positions, in
        ``itertools.combinations`` order) whose table value is ``value``, found by
        subtracting the left-out cards from the holding's sum; None for rulesets
        where a subset's value is more than one lookup (see ``FastHands.best_subset``)."""
        if self.mode != "direct" or self.lowest or self.model.suit_keyed:
            return None
        layout = self.layout
        nf, fl = self.nf, self.fl
        shift, bias, flush_bits = layout.shift, layout.bias, layout.flush_bits
        size = self.size
        flush_matters = self.tables.flush_matters
        limit = layout.limit
        plans: dict[int, list[tuple[tuple[int, ...], tuple[int, ...]]]] = {}
        pairs: dict[int, list[tuple[tuple[int, ...], int, int]]] = {}

        def find(codes: Sequence[int], value: int) -> tuple[int, ...] | None:
            k = len(codes)
            if k > limit:
                return None
            plan = plans.get(k)
            if plan is None:
                every = set(range(k))
                plan = plans[k] = [(kept, tuple(sorted(every - set(kept)))) for kept in combinations(range(k), size)]
                if k == size + 2:  # seven of five: two cards left out, the common case unrolled
                    pairs[k] = [(kept, left_out[0], left_out[1]) for kept, left_out in plan]
            total = sum(codes, bias)
            two = pairs.get(k)
            if two is not None:
                for kept, a, b in two:
                    part = total - codes[a] - codes[b]
                    if (fl[part >> shift] if flush_matters and part & flush_bits else nf[part >> shift]) == value:
                        return kept
                return None
            for kept, left_out in plan:
                part = total
                for i in left_out:
                    part -= codes[i]
                found = fl[part >> shift] if flush_matters and part & flush_bits else nf[part >> shift]
                if found == value:
                    return kept
            return None

        return find

    def _lowest_rank(self, direct: Callable[[Sequence[int]], int]) -> Callable[[Sequence[int]], int]:
        """Lowest-card wild: the lowest natural rank held turns wild first."""
        codes = self.code_list
        aces_high = self.aces_high.tolist()
        high_of = {code: rank for code, rank in zip(codes, aces_high, strict=False)}
        never = len(self.ruleset.deck_ranks) + 1
        wild = self.model.wild_code

        def rank_lowest(held: Sequence[int]) -> int:
            lowest = min([high_of[code] for code in held])
            if lowest == never:
                return direct(held)
            return direct([wild if high_of[code] == lowest else code for code in held])

        return rank_lowest

    def _suited_rank(self, direct: Callable[[Sequence[int]], int]) -> Callable[[Sequence[int]], int]:
        """Suit tie-break: the best value over subsets, then the best suit key among them."""
        size = self.size
        order = {
            code: (rank, suit)
            for code, rank, suit in zip(self.code_list, self.rank_value.tolist(), self.suit_rank.tolist(), strict=False)
        }
        key_of = self._suit_key_function(order)
        scale = self.suit_scale

        def rank_suited(held: Sequence[int]) -> int:
            if len(held) <= size:
                value = direct(held)
                return value * scale + key_of(held) if value >= 0 else NO_HAND
            best = NO_HAND
            ties: list[Sequence[int]] = []
            for subset in combinations(held, size):
                value = direct(subset)
                if value > best:
                    best, ties = value, [subset]
                elif value == best:
                    ties.append(subset)
            if best < 0:
                return NO_HAND
            return best * scale + max(key_of(subset) for subset in ties)

        return rank_suited

    def _suit_key_function(self, order: dict[int, tuple[int, int]]) -> Callable[[Sequence[int]], int]:
        """The suit key of the cards that play, as an integer (``Engine._suit_key``)."""
        method = self.ruleset.tiebreak
        base = self.suit_base
        pad = self.suit_pad

        def key_of(held: Sequence[int]) -> int:
            cards = sorted((order[code] for code in held), reverse=True)
            first_rank = _first_rank(method, [rank for rank, _ in cards])
            if first_rank is not None:
                cards = [c for c in cards if c[0] == first_rank] + [c for c in cards if c[0] != first_rank]
            key = 0
            for _, suit in cards:
                key = key * base + suit
            return key * pad[len(cards)]

        return key_of

    def _generic_rank(self) -> Callable[[Sequence[int]], int]:
        """What the tables cannot see goes through the generic evaluator, then is numbered."""
        deck = self.model.cards
        engine = engine_for(self.ruleset)
        from_strength = self.from_strength
        low = self.low
        name = self.ruleset.name

        def rank_generic(held: Sequence[int]) -> int:
            cards = [deck[i] for i in held]
            if len(cards) < low:
                raise error(CardError, "C104", f"{len(cards)} cards given; {name} needs at least {low}", "<cards>")
            fill = engine.best(cards, engine.candidates(cards))
            return from_strength(fill.strength) if fill is not None else NO_HAND

        return rank_generic

    def _no_best_of(self, rank: Callable[[Sequence[int]], int]) -> Callable[[Sequence[int]], int]:
        size = self.size
        name = self.ruleset.name

        def rank_one_hand(held: Sequence[int]) -> int:
            if len(held) > size:
                raise error(
                    CardError,
                    "C105",
                    f"{len(held)} cards given; {name} has card-usage rules (game:), so rank() takes one hand of at most {size}",
                    "<cards>",
                    hint="use Ruleset.showdown for hole and board cards",
                )
            return rank(held)

        return rank_one_hand

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
        if k not in self._dense_nf:
            tables = self.tables
            ensure_tables(tables, k)
            if k > self.index.top:
                self._index = DenseIndex(self.layout, k)
                self._dense_nf.clear()
                self._dense_fl.clear()
            index = self.index
            count = index.count(k)
            dense_nf = np.full(count, NO_HAND, dtype=np.int64)
            keys, values = tables.nf[k]
            dense_nf[index.index(keys, k)] = values
            layout = self.layout
            dense_fl = np.full((layout.suits if self.model.suit_keyed else 1, count), NO_HAND, dtype=np.int64)
            if k in tables.fl:
                keys, values = tables.fl[k]
                dense_fl[keys >> layout.key_bits, index.index(keys & layout.key_mask, k)] = values
            self._dense_nf[k] = dense_nf
            self._dense_fl[k] = dense_fl
        return self._dense_nf[k], self._dense_fl[k]

    def to_ids(self, array: Any) -> np.ndarray:
        """Card ids of a batch given as card ids or as :meth:`encode` codes.

        Ids are range-checked chunk by chunk as they are used (see :meth:`_blocks`);
        codes are mapped back to ids here, all at once.
        """
        cards = np.asarray(array)
        if cards.ndim != 2:
            raise ValueError(f"rank_many takes a 2-D array of shape (hands, cards), not shape {cards.shape}")
        if cards.dtype.kind not in "iu":
            raise TypeError(f"rank_many takes an integer array, not {cards.dtype}")
        deck_size = len(self.model.cards)
        if cards.size == 0:
            return cards
        if cards.shape[1] < self.low:  # too few cards says more than what the cards are
            raise error(
                CardError,
                "C104",
                f"{cards.shape[1]} cards per hand given; {self.ruleset.name} needs at least {self.low}",
                "<cards>",
            )
        if int(cards[0].max()) < deck_size or self.mode == "generic":
            self._check_ids(cards, from_codes=False)
            return cards
        # encode() codes: map back to ids (a wild code stands for any wild card, alike)
        if self._code_order is None:
            order = np.argsort(self.codes, kind="stable")
            self._code_order = (self.codes[order], order)
        sorted_codes, order = self._code_order
        where = np.minimum(np.searchsorted(sorted_codes, cards), len(sorted_codes) - 1)
        if not np.array_equal(sorted_codes[where], cards):
            raise error(
                CardError,
                "C102",
                f"rank_many: values that are neither card ids (0 to {deck_size - 1}) nor codes of {self.ruleset.name}",
                "<cards>",
            )
        ids = order[where]
        self._check_ids(ids, from_codes=True)
        return ids

    def _check_ids(self, ids: np.ndarray, from_codes: bool) -> None:
        """C102 for an id outside the deck, C103 for a card held more often than the
        packs hold it; both name the hand (row) and the card (column), 1-based."""
        deck_size = len(self.model.cards)
        bitwise = self.ruleset.copies == 1 and deck_size <= 62
        marked = from_codes and self.layout.has_wild_digit
        wild = np.array(self.model.static_wild, dtype=bool)
        step = CHUNK if bitwise else CHUNK * 8
        for start in range(0, len(ids), step):
            columns = np.ascontiguousarray(ids[start : start + step].T, dtype=np.int64)
            if int(columns.min()) < 0 or int(columns.max()) >= deck_size:
                self._outside_error(columns.T, start)
            if len(columns) < 2:
                continue
            if marked:
                # a code says "a wild card", not which one: wild cards are never repeats here
                columns = np.where(wild[columns], -1 - np.arange(len(columns), dtype=np.int64)[:, None], columns)
            if self.model.wild_limit is not None:
                wilds = (
                    (columns == -1 - np.arange(len(columns))[:, None]).sum(axis=0)
                    if marked
                    else wild[columns].sum(axis=0)
                )
                over = np.flatnonzero(wilds > self.model.wild_limit)
                if len(over):
                    raise too_many_wilds(int(wilds[over[0]]))
            rows = self._repeats_bitwise(columns, marked) if bitwise else self._repeats_sorted(columns.T)
            if len(rows):
                self._repeat_error(columns.T[int(rows[0])].tolist(), start + int(rows[0]))

    def _outside_error(self, rows: np.ndarray, start: int) -> None:
        deck_size = len(self.model.cards)
        row, col = (int(x) for x in np.argwhere((rows < 0) | (rows >= deck_size))[0])
        raise error(
            CardError,
            "C102",
            f"rank_many: hand {start + row + 1}, card {col + 1}: id {int(rows[row, col])} is not a card of {self.ruleset.name} "
            f"(ids run from 0 to {deck_size - 1})",
            "<cards>",
            start + row + 1,
            col + 1,
        )

    @staticmethod
    def _repeats_bitwise(columns: np.ndarray, marked: bool) -> np.ndarray:
        """Rows (of a one-pack deck of at most 62 cards) holding a card twice: one bit per
        card, and the sum of the bits equals their OR exactly when no card repeats."""
        if marked:  # negative marks (wild cards of encode codes) carry no bit
            bits = np.left_shift(np.int64(1), np.maximum(columns, 0)) * (columns >= 0)
        else:
            bits = np.left_shift(np.int64(1), columns)
        total = bits[0].copy()
        union = bits[0].copy()
        for j in range(1, len(bits)):
            total += bits[j]
            union |= bits[j]
        return np.flatnonzero(total != union)

    def _repeats_sorted(self, rows: np.ndarray) -> np.ndarray:
        """Rows holding a card more often than the packs hold it (jokers: once)."""
        copies = self.ruleset.copies
        jokers_from = len(self.model.cards) - self.ruleset.jokers
        ordered = np.sort(rows, axis=1)
        same_next = ordered[:, 1:] == ordered[:, :-1]
        bad = same_next & (ordered[:, 1:] >= jokers_from)  # one of each joker
        if copies == 1:
            bad |= same_next
        elif ordered.shape[1] > copies:
            bad[:, copies - 1 :] |= ordered[:, copies:] == ordered[:, :-copies]
        return np.flatnonzero(bad.any(axis=1))

    def _repeat_error(self, row: list[int], row_index: int) -> None:
        seen: dict[int, int] = {}
        deck = self.model.cards
        for col, card_id in enumerate(row):
            seen[card_id] = seen.get(card_id, 0) + 1
            limit = 1 if card_id < 0 or deck[card_id].is_joker else self.ruleset.copies
            if card_id >= 0 and seen[card_id] > limit:
                packs = "one pack" if self.ruleset.copies == 1 else f"{self.ruleset.copies} packs"
                raise error(
                    CardError,
                    "C103",
                    f"rank_many: hand {row_index + 1}, card {col + 1}, {deck[card_id]}, is repeated ({self.ruleset.name} uses {packs})",
                    "<cards>",
                    row_index + 1,
                    col + 1,
                )

    def _blocks_checked(self, ids: np.ndarray) -> None:
        """Range-check card ids without using them (for the one-by-one paths)."""
        for _ in self._blocks(ids, len(self.model.cards)):
            pass

    def _blocks(self, ids: np.ndarray, limit: int) -> Iterator[tuple[int, np.ndarray]]:
        """Chunks of ``ids`` as (start, columns): a transposed, contiguous intp copy
        per chunk, so each column gather reads a cache-resident index array."""
        n = ids.shape[0]
        for start in range(0, n, CHUNK):
            columns = np.ascontiguousarray(ids[start : start + CHUNK].T, dtype=np.intp)
            if columns.size and (int(columns.min()) < 0 or int(columns.max()) >= limit):
                bad = int(columns.max()) if int(columns.min()) >= 0 else int(columns.min())
                raise error(
                    CardError,
                    "C102",
                    f"rank_many: card id {bad} is not in {self.ruleset.name} (ids run from 0 to {len(self.model.cards) - 1})",
                    "<cards>",
                )
            yield start, columns

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
            self._blocks_checked(ids)
            codes = self.code_list
            return np.array([self.rank(tuple(codes[i] for i in row)) for row in ids.tolist()], dtype=np.int64)
        if self.lowest:
            self._blocks_checked(ids)
            ids = self._lower(ids)
        if self.mode == "suited":
            return self._suited_many(ids)
        return self._direct_many(ids)

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
        """Suit tie-break, vectorised: (value, suit key) of every subset, best first."""
        n, k = ids.shape
        subsets = [list(range(k))] if k <= self.size else [list(s) for s in combinations(range(k), self.size)]
        best = np.full(n, NO_HAND, dtype=np.int64)
        for subset in subsets:
            part = ids[:, subset]
            value = self._direct_many(part)
            key = self._suit_keys(part)
            combined = np.where(value >= 0, value * self.suit_scale + key, NO_HAND)
            np.maximum(best, combined, out=best)
        return best

    def _suit_keys(self, ids: np.ndarray) -> np.ndarray:
        """``Engine._suit_key`` as integers, for rows of at most hand.size cards."""
        base = self.suit_base
        rank = self.rank_value[ids]
        suit = self.suit_rank[ids]
        order = rank * base + suit
        method = self.ruleset.tiebreak
        if method in ("highest_paired", "highest_unpaired"):
            same = (rank[:, :, None] == rank[:, None, :]).sum(axis=2)  # cards of each card's rank
            if method == "highest_paired":
                # the most significant group of two or more: most cards, then highest rank
                score = np.where(same >= 2, same * 1000 + rank, -1)
            else:
                score = np.where(same == 1, rank, -1)
            pick = score.max(axis=1, keepdims=True)
            first = (score == pick) & (pick >= 0)
            order = order + first * (base * (len(self.ruleset.rank_symbols) + 1))
        order = -np.sort(-order, axis=1)
        key = np.zeros(len(ids), dtype=np.int64)
        for j in range(ids.shape[1]):
            key = key * base + order[:, j] % base
        return key * self.suit_pad[ids.shape[1]]

    # --- classes (exact counting) ------------------------------------------------------------

    def class_value(self, counts: Sequence[int], flush_counts: Sequence[int]) -> int:
        """The value of a holding class: rank counts, and the counts of its flush suit."""
        layout = self.layout
        key = sum(c * layout.place(d) for d, c in enumerate(counts))
        flush_key = sum(c * layout.place(d) for d, c in enumerate(flush_counts))
        if self.tables.dominant:
            return max(self.nf[key], self.fl[flush_key])
        best = NO_HAND
        size = self.size
        for sub in count_vectors(counts, size).tolist():
            support = [d for d, c in enumerate(sub) if c]
            sub_key = sum(c * layout.place(d) for d, c in enumerate(sub))
            one_suited = all(sub[d] <= flush_counts[d] for d in support)
            forced = one_suited and all(counts[d] == flush_counts[d] for d in support)
            if not forced:
                best = max(best, self.nf[sub_key])
            if one_suited:
                best = max(best, self.fl[sub_key])
        return best


def not_codes(name: str) -> str:
    """The message for values ``rank`` cannot read as a holding."""
    return (
        f"these values are not codes of {name}: rank() takes the codes Ruleset.encode returns "
        "(card ids go to rank_many, or through encode first)"
    )


def too_many_wilds(count: int) -> PokerRulesError:
    """The generic evaluator's C105 for a hand of too many wild cards."""
    from ..engine.evaluate import MAX_WILD_CHOICES

    return error(
        CardError,
        "C105",
        f"{count} wild cards in one hand; the evaluator fills at most {MAX_WILD_CHOICES:,} rank choices",
        "<cards>",
        1,
        1,
    )


def _first_rank(method: str, ranks: list[int]) -> int | None:
    """The rank whose cards come first in the suit key (highest_paired / _unpaired)."""
    if method == "highest_card":
        return None
    counts = Counter(ranks)
    if method == "highest_paired":
        paired = sorted(((count, rank) for rank, count in counts.items() if count >= 2), reverse=True)
        return paired[0][1] if paired else None
    single = [rank for rank, count in counts.items() if count == 1]
    return max(single) if single else None


def ruleset_ranker(ruleset: Rules) -> FastRanker:
    """The ranker of ``ruleset`` (tables from the disk cache or built once; one ranker per tables)."""
    tables = tables_for(ruleset)
    found: FastRanker | None = getattr(ruleset, "_cache_ranker", None)
    if found is None or found.tables is not tables:
        found = FastRanker(tables)
        object.__setattr__(ruleset, "_cache_ranker", found)
    return found
