"""Card ids of a batch: reading ids or codes back to ids, and checking them.

``FastRanker.rank_many`` takes card ids (index in ``Ruleset.deck``) or the
codes ``Ruleset.encode`` returns. :class:`CardIds` maps codes back to ids and
checks every row, chunk by chunk: an id outside the deck is C102, a card held
more often than the packs hold it is C103, too many wild cards is C105; each
message names the hand (row) and the card (column), 1-based.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.errors import CardError, PokerRulesError, error
from ..engine.cardread import read_ids
from ..rules.cards import MAX_CARD_TEXT, Card
from .table_layout import MAX_HOLDING

if TYPE_CHECKING:
    from ..rules.ruleset import Rules
    from .table_layout import CardModel

#: Rows per NumPy chunk: keeps the working arrays of a chunk in the CPU cache.
CHUNK = 8192


def not_codes(name: str) -> str:
    """The message for values ``rank`` cannot read as a holding.

    >>> not_codes("holdem").startswith("these values are not codes of holdem")
    True
    """
    return (
        f"these values are not codes of {name}: rank() takes the codes Ruleset.encode returns "
        "(card ids go to rank_many, or through encode first)"
    )


def too_many_wilds(ruleset: Rules, count: int) -> PokerRulesError:
    """The generic evaluator's C105 for a hand of too many wild cards (``Engine.too_many_wilds``)."""
    from ..engine.evaluate import engine_for

    return engine_for(ruleset).too_many_wilds(count)


def make_encoder(ruleset: Rules, codes: list[int]) -> Callable[[str | Sequence[Card | str | int]], tuple[int, ...]]:
    """``FastRanker.encode`` as one closure: plain text is split and looked up in the deck's
    token table; anything else goes through :func:`read_ids` (same errors as ever)."""
    from ..engine.cardread import deck_reader

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


class CardIds:
    """Reads and checks the card ids of batches for one ruleset."""

    def __init__(
        self, ruleset: Rules, model: CardModel, codes: np.ndarray, low: int, wide: list[int] | None = None
    ) -> None:
        self.ruleset = ruleset
        self.model = model
        self.codes = codes  # the table codes, by id
        self.low = low
        # what encode() hands out when it is not the table codes: codes wider than
        # int64 (suitcall.py), which arrive as an array of Python ints
        self.id_of_wide = {code: i for i, code in enumerate(wide)} if wide is not None else None
        self._code_order: tuple[np.ndarray, np.ndarray] | None = None

    def to_ids(self, array: Any) -> np.ndarray:
        """Card ids of a batch given as card ids or as ``encode`` codes.

        Ids are range-checked chunk by chunk as they are used (see :meth:`blocks`);
        codes are mapped back to ids here, all at once.
        """
        cards = np.asarray(array)
        if cards.ndim != 2:
            raise ValueError(f"rank_many takes a 2-D array of shape (hands, cards), not shape {cards.shape}")
        if cards.dtype == object and self.id_of_wide is not None:
            return self.from_wide(cards)
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
        if int(cards[0].max()) < deck_size or self.model.mode == "generic":
            self.check(cards, from_codes=False)
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
        self.check(ids, from_codes=True)
        return ids

    def from_wide(self, cards: np.ndarray) -> np.ndarray:
        """Card ids of an array of ``encode`` codes wider than int64 (NumPy keeps them as objects)."""
        assert self.id_of_wide is not None
        deck_size = len(self.model.cards)
        if cards.size == 0:
            return np.zeros(cards.shape, dtype=np.int64)
        if cards.shape[1] < self.low:
            raise error(
                CardError,
                "C104",
                f"{cards.shape[1]} cards per hand given; {self.ruleset.name} needs at least {self.low}",
                "<cards>",
            )
        get = self.id_of_wide.get
        flat = cards.ravel().tolist()
        try:
            found = [get(code, -1) for code in flat]
        except TypeError:  # unhashable
            found = [-1]
        if -1 in found:
            raise error(
                CardError,
                "C102",
                f"rank_many: values that are neither card ids (0 to {deck_size - 1}) nor codes of {self.ruleset.name}",
                "<cards>",
            )
        ids = np.array(found, dtype=np.int64).reshape(cards.shape)
        self.check(ids, from_codes=True)
        return ids

    def check(self, ids: np.ndarray, from_codes: bool) -> None:
        """C102 for an id outside the deck, C103 for a card held more often than the
        packs hold it; both name the hand (row) and the card (column), 1-based."""
        deck_size = len(self.model.cards)
        bitwise = self.ruleset.copies == 1 and deck_size <= 62
        marked = from_codes and self.model.layout.has_wild_digit
        wild = np.array(self.model.static_wild, dtype=bool)
        step = CHUNK if bitwise else CHUNK * 8
        for start in range(0, len(ids), step):
            columns = np.ascontiguousarray(ids[start : start + step].T, dtype=np.int64)
            if int(columns.min()) < 0 or int(columns.max()) >= deck_size:
                self.outside_error(columns.T, start)
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
                    raise too_many_wilds(self.ruleset, int(wilds[over[0]]))
            rows = repeats_bitwise(columns, marked) if bitwise else self.repeats_sorted(columns.T)
            if len(rows):
                self.repeat_error(columns.T[int(rows[0])].tolist(), start + int(rows[0]))

    def outside_error(self, rows: np.ndarray, start: int) -> None:
        """Raise C102 for the first id of ``rows`` outside the deck."""
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

    def repeats_sorted(self, rows: np.ndarray) -> np.ndarray:
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

    def repeat_error(self, row: list[int], row_index: int) -> None:
        """Raise C103 for the first card of ``row`` held more often than the packs hold it."""
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

    def blocks_checked(self, ids: np.ndarray) -> None:
        """Range-check card ids without using them (for the one-by-one paths)."""
        for _ in self.blocks(ids, len(self.model.cards)):
            pass

    def blocks(self, ids: np.ndarray, limit: int) -> Iterator[tuple[int, np.ndarray]]:
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


def repeats_bitwise(columns: np.ndarray, marked: bool) -> np.ndarray:
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
