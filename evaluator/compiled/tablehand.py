"""``Ruleset.evaluate`` at table speed: hands answered from the lookup tables, built lazily.

``evaluate`` used to fill every hand through the generic evaluator and build
every field of its :class:`~evaluator.engine.hand.Hand` at once; most of that
work is never looked at. A :class:`TableHand` holds three things -- the
ruleset's :class:`TableHands`, the holding's table value and its card ids --
and works out each field on first access:

- ``category``, ``value``, ``qualifies`` and ``strength`` come from the value
  alone: the tables keep, per dense value, its strength (the qualifier, the
  score, natural-beats-wild) and its category; a suit tie-break's key is the
  low part of the value (``suited.py``).
- ``cards`` and ``played_as`` need the cards that play: the first
  ``hand.size`` subset (in ``itertools.combinations`` order, the one the
  generic best-of-N keeps) whose value is the holding's. When no suit can make
  a flush and one class of ``hand.size`` cards has that value, the subset is
  read off the keys: the holding's rank key minus the class's is the ranks
  left out, and the generic choice leaves out the latest cards of those ranks
  (keeping the earliest cards of each rank gives the first subset in
  combinations order). Otherwise the search of ``FastHands.best_subset`` runs.
  The playing order (groups first, high to low, a low ace last) follows from
  the class's rank multiset, one sort key per card per class.
- ``describe()`` is the class's words, built and cached with the tables
  (``classwords.py``).
- ``fill`` (what ``explain`` and the generic comparisons read) is the generic
  evaluator's fill of the cards that play, made on demand.

Where a field cannot come from the tables -- a wild card plays (what it stands
for), a ruleset whose classes carry suits -- the field comes from that fill, as
the generic evaluator's ``Hand`` gives it. Holdings the tables do not answer
(fewer cards than a hand, a game's card-usage rule, a hand that does not
qualify, lowest-card wild, no category) go to the generic path
(``fasthand.evaluate``), which says the same errors. Every field equals the
generic evaluator's (``tests/test_table_hands.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..engine.cardread import MAX_CARDS, deck_reader, read_cards, read_ids
from ..engine.evaluate import engine_for
from ..engine.hand import Hand
from ..rules.cards import MAX_CARD_TEXT
from .fasthand import FastHands, evaluate, fast_hands, fast_mode

if TYPE_CHECKING:
    from ..engine.fill import Fill
    from ..rules.ruleset import Rules


class TableHand(Hand):
    """A hand answered from the lookup tables; each field is worked out on first access.

    Each ruleset has its own subclass (``TableHands.hand_type``) that carries the
    ruleset and its :class:`TableHands`, so that a hand holds only its value and cards.
    """

    __slots__ = ("_value", "_held", "_kept", "_record")

    _source: TableHands
    _value: int
    _held: str | list[int]
    _kept: tuple[int, ...] | None
    _record: ClassRecord | None

    def __init__(self, value: int, held: str | list[int]) -> None:
        self._value = value
        self._held = held  # plain card text (read again when needed) or card ids

    @property
    def _ids(self) -> list[int]:
        held = self._held
        if isinstance(held, str):
            tokens = self._source.tokens
            held = self._held = [tokens[token] for token in held.split()]
        return held

    def _positions(self) -> tuple[int, ...] | None:
        """Positions of the cards that play in the holding (None: only the generic path knows)."""
        try:
            return self._kept
        except AttributeError:
            kept = self._kept = self._source.kept(self._ids, self._value)
            return kept

    def _class(self) -> ClassRecord | None:
        """The record of the class that plays (None: the fill must say)."""
        try:
            return self._record
        except AttributeError:
            kept = self._positions()
            ids = self._ids
            record = self._record = None if kept is None else self._source.record([ids[p] for p in kept])
            return record

    def _make_fill(self) -> Fill:
        return self._source.fill(self._ids, self._positions())

    @property
    def category(self) -> str:
        """The name of the hand's category."""
        return self._source.category(self._value)

    @property
    def value(self) -> tuple[int, ...]:
        """The high-poker value: the category's strength, then the tie-break ranks."""
        return self._source.value_of(self._value)

    @property
    def strength(self) -> tuple[tuple[int, ...], ...]:
        """What orders hands in this ruleset's direction (bigger wins)."""
        return self._source.strength(self._value, len(self._ids))

    @property
    def qualifies(self) -> bool:
        """Whether the hand meets the ruleset's qualifier (a table hand always does)."""
        return True

    def _order(self) -> None:
        record = self._class()
        if record is None:
            Hand._order(self)  # a wild card plays, or the classes carry suits: from the fill
            return
        ids = self._ids
        names = self._source.names
        kept = self._positions() or ()  # a record implies the positions are known
        played = sorted([ids[p] for p in kept], key=record.order.__getitem__)
        self._cards = self._played_as = tuple([names[i] for i in played])
        self._wilds = {}

    def describe(self) -> str:
        """The hand in words: the class's words from the tables, else the template rendered.

        >>> from evaluator import load
        >>> from evaluator.compiled.tables import tables_for
        >>> rs = load("standard")
        >>> _ = tables_for(rs)
        >>> rs.evaluate("Kc Kd Ks 4h 4c 9s 2d").describe()
        'kings full of fours'
        """
        record = self._class()
        if record is not None and record.words is not None:
            return record.words
        return Hand.describe(self)


class ClassRecord:
    """What a class says of the hands that play it: its count of cards per digit and,
    for a class of natural cards, the playing order of every card of the deck (a sort
    key) and the description kept with the tables (or None)."""

    __slots__ = ("counts", "order", "wild", "words")

    def __init__(self, counts: list[int], order: list[int], wild: bool, words: str | None) -> None:
        self.counts = counts
        self.order = order
        self.wild = wild  # a wild card plays: the order and the words come from the fill
        self.words = words


class TableHands:
    """What the table hands of one ruleset read: names, values, class records."""

    def __init__(self, ruleset: Rules, hands: FastHands) -> None:
        ranker = hands.ranker
        tables = ranker.tables
        model = ranker.model
        layout = ranker.layout
        self.ruleset = ruleset
        self.hands = hands
        self.tables = tables
        self.engine = hands.engine
        self.size = ruleset.hand_size
        self.deck = model.cards
        self.tokens = deck_reader(ruleset).tokens
        self.names = [str(card) for card in model.cards]
        self.codes = hands.codes  # what rank() takes (encode's codes)
        self.table_codes = ranker.table_codes  # the tables' additive codes (class keys)
        self.rank = hands.rank
        self.layout = layout
        self.shift, self.bias, self.flush_bits = layout.shift, layout.bias, layout.flush_bits
        self.flush_matters = tables.flush_matters
        self.scale = hands.value_scale  # a value is dense * value_scale + suit key
        self.category_names: list[str] = [category.name for category in ruleset.categories]
        self.category_index: list[int] = tables.categories.tolist()
        self.strengths = tables.strengths
        self.high = ruleset.direction == "high"
        self.suit_base = ranker.suit_base
        self.suit_pad = ranker.suit_pad
        self.tiebreak = ruleset.tiebreak != "none"
        self.best_subset = ruleset.best_subset
        self.wild = [bool(wild) for wild in model.static_wild]
        self.wild_ids = frozenset(i for i, wild in enumerate(self.wild) if wild)
        # class records (orders, words, keyed subsets) where a class is its rank key and flush bit
        self.classes = model.mode in ("direct", "suited") and not model.suit_keyed and not ruleset.wild.lowest_rank
        self.keyed = self.classes and model.mode == "direct"
        digit_of_value = {value: digit for digit, value in enumerate(model.digit_rank)}
        self.digit_of = [
            layout.wild_digit if wild else digit_of_value.get(ranker.rank_value[i].item(), -1)
            for i, wild in enumerate(self.wild)
        ]
        # the ruleset's own TableHand class: the ruleset and this object as class attributes
        self.hand_type: type[TableHand] = type(
            "TableHand", (TableHand,), {"__slots__": (), "ruleset": ruleset, "_source": self}
        )
        self._records: dict[int, ClassRecord] = {}
        self._unique: dict[int, int] | None = None
        self._words: dict[int, str] | None = None

    # --- from the value alone -----------------------------------------------------------------

    def category(self, value: int) -> str:
        """The category name of a qualifying table value."""
        return self.category_names[self.category_index[value // self.scale]]

    def value_of(self, value: int) -> tuple[int, ...]:
        """``Classification.value`` of a qualifying table value (the score, oriented high)."""
        score = self.strengths[value // self.scale][1]
        return score if self.high else tuple([-part for part in score])

    def strength(self, value: int, held: int) -> tuple[tuple[int, ...], ...]:
        """``Fill.strength`` of a table value: its strength, then the suit key of the cards that play."""
        base = self.strengths[value // self.scale]
        if not self.tiebreak:
            return (*base, ())
        played = min(held, self.size)
        key = (value % self.scale) // self.suit_pad[played]
        suits = []
        for _ in range(played):
            key, suit = divmod(key, self.suit_base)
            suits.append(suit)
        return (*base, tuple(reversed(suits)))

    # --- the cards that play -------------------------------------------------------------------

    def kept(self, ids: Sequence[int], value: int) -> tuple[int, ...] | None:
        """Positions of the cards that play: the first subset the generic best-of-N keeps."""
        k = len(ids)
        if self.best_subset:
            return None  # a subset of any size may play: the generic search
        if k <= self.size:
            return tuple(range(k))
        record = self.unique_record(ids, value, None)
        if record is not None:
            quota = record.counts.copy()
            digit_of = self.digit_of
            positions = []
            for position, card in enumerate(ids):
                digit = digit_of[card]
                if quota[digit]:
                    quota[digit] -= 1
                    positions.append(position)
            return tuple(positions)
        found = self.hands.best_subset(ids)
        return found[1] if found is not None else None

    def unique_record(self, ids: Sequence[int], value: int, total: int | None) -> ClassRecord | None:
        """The record of the one ``hand.size`` class worth ``value`` when no suit of the
        holding reaches a hand (``total``: the holding's sum of table codes and bias, if known),
        else None. The cards that play are then the earliest of each rank the class
        holds: of the subsets of that class, the first in combinations order."""
        if not self.keyed:
            return None
        if total is None:
            codes = self.table_codes
            total = sum([codes[i] for i in ids], self.bias)
        if self.flush_matters and total & self.flush_bits:
            return None
        five = self.unique().get(value)
        if five is None:
            return None
        found = self._records.get(five * 2)
        return found if found is not None else self.record_of(five * 2)

    def unique(self) -> dict[int, int]:
        """Table value -> the rank key of the one ``hand.size`` class of that value (values
        several classes share are left out)."""
        if self._unique is None:
            keys, values = self.tables.nf[self.size]
            seen: dict[int, int] = {}
            shared: set[int] = set()
            for key, value in zip(keys.tolist(), values.tolist(), strict=True):
                if value in seen:
                    shared.add(value)
                seen[value] = key
            self._unique = {value: key for value, key in seen.items() if value not in shared}
        return self._unique

    def play(self, ids: Sequence[int], value: int, total: int | None = None) -> tuple[list[int], ClassRecord] | None:
        """The ids that play (in holding order) and their class record, in one go: what
        ``pokerrules eval`` prints (None when a wild card plays, or only the fill can say)."""
        if not self.classes:
            return None
        if len(ids) > self.size:
            record = self.unique_record(ids, value, total)
            if record is not None:
                if record.wild:
                    return None
                quota = record.counts.copy()
                digit_of = self.digit_of
                played = []
                for card in ids:
                    digit = digit_of[card]
                    if quota[digit]:
                        quota[digit] -= 1
                        played.append(card)
                return played, record
        kept = self.kept(ids, value)
        if kept is None:
            return None
        played = [ids[p] for p in kept]
        found = self.record(played)
        return (played, found) if found is not None else None

    def record(self, played: Sequence[int]) -> ClassRecord | None:
        """The record of the class of the cards that play (None when a wild card plays or
        the ruleset's classes carry suits)."""
        if not self.classes or not self.wild_ids.isdisjoint(played):
            return None
        total = sum([self.table_codes[i] for i in played], self.bias)
        key = (total >> self.shift) * 2 + (1 if len(played) == self.size and total & self.flush_bits else 0)
        found = self._records.get(key)
        return found if found is not None else self.record_of(key)

    def record_of(self, key: int) -> ClassRecord:
        """The record of class ``key`` (rank key * 2 + flush), made on first use."""
        layout = self.layout
        counts = layout.decode(key >> 1)
        wild = layout.has_wild_digit and counts[layout.wild_digit] > 0
        order: list[int] = []
        if not wild:
            digit_rank = self.tables.model.digit_rank
            ranks = tuple(sorted((digit_rank[d] for d, n in enumerate(counts) for _ in range(n)), reverse=True))
            key_of = self.engine.order_key(self.engine.hand_class(ranks, None))
            # the engine's play-order key of every card of the deck, numbered in its order
            keys = [key_of(card) for card in self.deck]
            place = {item: at for at, item in enumerate(sorted(set(keys)))}
            order = [place[item] for item in keys]
        found = self._records[key] = ClassRecord(counts, order, wild, None if wild else self.words_of(key))
        return found

    def words_of(self, key: int) -> str | None:
        """The description the tables keep for class ``key`` (rank key * 2 + flush), or None."""
        words = self.tables.words
        if words is None:
            return None
        if self._words is None:
            size = self.size
            nf_keys = {k: keys for k, (keys, _) in self.tables.nf.items() if k <= size}
            self._words = words.lookup(nf_keys, self.tables.fl[size][0])
        return self._words.get(key)

    def fill(self, ids: Sequence[int], kept: Sequence[int] | None) -> Fill:
        """The generic evaluator's fill of the cards that play (of the best subset when
        ``kept`` is None)."""
        engine = self.engine
        cards = [self.deck[i] for i in ids]
        if kept is None:
            found = engine.best(cards, engine.candidates(cards))
        else:
            # wild cards are decided on the whole holding (lowest-card wild)
            wild = engine.wild_mask(cards) if self.ruleset.wild.any else [False] * len(cards)
            found = engine.fill([cards[p] for p in kept], [wild[p] for p in kept])
        assert found is not None  # a qualifying table value is some subset's fill
        return found


def table_hands(ruleset: Rules, hands: FastHands) -> TableHands:
    """The (cached) :class:`TableHands` of ``ruleset``."""
    found: TableHands | None = getattr(ruleset, "_cache_table_hands", None)
    if found is None or found.hands is not hands:
        found = TableHands(ruleset, hands)
        object.__setattr__(ruleset, "_cache_table_hands", found)
    return found


def table_evaluator(ruleset: Rules, hands: FastHands, slow: Callable[[Any], Hand]) -> Callable[[Any], Hand]:
    """``Ruleset.evaluate`` on the tables as one closure: plain text read with the deck's
    token table straight into codes, one table lookup, one :class:`TableHand` (which
    keeps the text and reads the card ids only when a field needs them); anything else
    is read by the full reader first, and ``slow`` answers what the tables do not."""
    source = table_hands(ruleset, hands)
    make = source.hand_type
    tokens = deck_reader(ruleset).tokens
    codes = hands.codes
    code_of = {token: codes[i] for token, i in tokens.items()}.__getitem__
    rank = hands.rank
    scale = source.scale
    category_index = source.category_index
    qualifying = [index >= 0 for index in category_index]
    low = max(ruleset.hand_min, 1)
    ranker = hands.ranker
    # a game's card-usage rule (use_hole, use_board): rank() takes one hand, and the generic
    # path says the rest; a game without one plays the best hand of any holding, as here
    high = ruleset.hand_size if ranker.constrained else MAX_CARDS
    longest = MAX_CARD_TEXT
    layout = ranker.layout
    # the direct lookup inlined when nothing comes before or after it (per_call.direct_rank)
    direct = ranker.mode == "direct" and not ranker.lowest and ranker.model.wild_limit is None and scale == 1
    direct = direct and layout.limit >= MAX_CARDS and not ranker.constrained
    nf, bias, flush_bits, shift = ranker.nf, layout.bias, layout.flush_bits, layout.shift
    if not ranker.tables.flush_matters:
        flush_bits = 0  # suits are ignored (ace-to-five): every holding is one lookup

    def careful(cards: Any) -> Hand:
        ids = read_ids(ruleset, cards)
        if low <= len(ids) <= high:
            value = rank([codes[i] for i in ids])
            if value >= 0 and category_index[value // scale] >= 0:
                return make(value, ids)
        return slow(cards)

    if direct:

        def evaluate(cards: Any) -> Hand:
            if cards.__class__ is str and len(cards) <= longest:
                tokens = cards.split()
                try:
                    # a set: a card written twice is caught by the count (wild cards share
                    # one code, so a holding of several goes to the full reader)
                    held = set(map(code_of, tokens))
                except KeyError:
                    return careful(cards)
                count = len(tokens)
                if len(held) == count and low <= count <= high:
                    total = sum(held, bias)
                    value = rank(list(held)) if total & flush_bits else nf[total >> shift]
                    if value >= 0 and qualifying[value]:
                        return make(value, cards)
            return careful(cards)

    else:

        def evaluate(cards: Any) -> Hand:
            if cards.__class__ is str and len(cards) <= longest:
                tokens = cards.split()
                try:
                    held = set(map(code_of, tokens))
                except KeyError:
                    return careful(cards)
                count = len(tokens)
                if len(held) == count and low <= count <= high:
                    value = rank(list(held))
                    if value >= 0 and qualifying[value // scale]:
                        return make(value, cards)
            return careful(cards)

    return evaluate


def evaluator(ruleset: Rules) -> Callable[[Any], Hand]:
    """``Ruleset.evaluate`` as one closure: the generic evaluator for the first calls,
    then hands answered from the tables (``tablehand.table_evaluator``)."""

    fast: Callable[[Any], Hand] | None = None

    def slow(cards: Any) -> Hand:
        return evaluate(ruleset, cards)

    def warming(cards: Any) -> Hand:
        # generic until the tables are worth loading, then the table closure takes over
        # (also for callers that kept this function: ``evaluate = rs.evaluate``)
        nonlocal fast
        if fast is None:
            if not fast_mode(ruleset, "evaluate"):
                return engine_for(ruleset).evaluate(read_cards(ruleset, cards))
            fast = table_evaluator(ruleset, fast_hands(ruleset), slow)
            for name in ("__name__", "__qualname__", "__doc__", "__signature__"):  # the method's face
                if hasattr(warming, name):
                    setattr(fast, name, getattr(warming, name))
            object.__setattr__(ruleset, "evaluate", fast)
        return fast(cards)

    if fast_mode(ruleset, "evaluate"):
        return table_evaluator(ruleset, fast_hands(ruleset), slow)
    return warming
