"""``pokerrules eval``: hands in, one line out per hand, at table speed, streamed.

Each hand is read with the deck's token table, ranked on the compiled tables,
and the cards that play are the first ``hand.size`` subset reaching the
holding's value (the subset the generic best-of-N keeps). The category and the
description depend only on the value when no wild card plays and no category
overrides its tie-break key (``rank_by``): they are then worked out once per
value by the generic evaluator and cached, so most lines cost a split, a few
dictionary lookups and a sort of five cards. Everything else (wild cards,
``--json``, rulesets the tables do not serve) is filled by the generic
evaluator for that hand alone.

Output streams: each line is written and flushed as soon as its hand is read,
so a pipe sees the first answer at once and a closed pipe (``| head -1``) ends
the command quietly. A bad hand stops the command with its positioned error;
the lines before it have been written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, TextIO

from ..compiled.fasthand import fast_hands, fast_mode
from ..core.errors import PokerRulesError
from ..core.safe_text import visible
from ..engine.cardread import deck_reader, read_ids
from .lines import bounded_lines
from .output import json_document, json_line

if TYPE_CHECKING:
    from ..compiled.fasthand import FastHands
    from ..engine.fill import Fill
    from ..engine.hand import Hand
    from ..rules.cards import Card
    from ..ruleset import Ruleset


class HandLines:
    """Turns hands of one ruleset into output lines, caching descriptions per value."""

    def __init__(self, ruleset: Ruleset, as_json: bool) -> None:
        self.ruleset = ruleset
        self.as_json = as_json
        self.engine = ruleset.engine
        self.reader = deck_reader(ruleset)
        self.deck: tuple[Card, ...] = self.reader.deck
        self.size = ruleset.hand_size
        self.hand_min = ruleset.hand_min
        self.hands: FastHands | None = None  # set once the tables are worth loading (fast_mode)
        game = ruleset.game
        self.one_hand_only = game is not None and (game.use_hole is not None or game.use_board is not None)
        categories = ruleset.data.get("categories") or {}
        rank_by = any(isinstance(spec, dict) and spec.get("rank_by") for spec in categories.values())
        self.cacheable = not rank_by and not ruleset.wild.lowest_rank and not as_json
        self.wild_ids = frozenset(i for i, card in enumerate(self.deck) if self._static_wild(card))
        self.names = [str(card) for card in self.deck]
        # value -> (category, description + qualifier note, play-order key of each card id)
        self.by_value: dict[int, tuple[str, str, list[tuple[int, int, int]]]] = {}

    def _static_wild(self, card: Card) -> bool:
        wild = self.ruleset.wild
        return bool(
            (card.is_joker and wild.jokers) or card in wild.cards or (not card.is_joker and card.rank in wild.ranks)
        )

    def line(self, text: str, label: str) -> str:
        """The output line of one hand (raises the hand's CardError)."""
        ids = self.reader.fast_ids(text) or read_ids(self.ruleset, text, label)
        hands = self.hands
        if hands is None and fast_mode(self.ruleset, "evaluate"):
            hands = self.hands = fast_hands(self.ruleset)
        found = None
        if hands is not None and self.hand_min <= len(ids) and not (self.one_hand_only and len(ids) > self.size):
            found = hands.best_subset(ids)
        if found is not None and found[0] >= 0 and self.cacheable:
            cached = self.by_value.get(found[0])
            if cached is not None and not self.wild_ids.intersection(ids):
                category, words, order = cached
                played_ids = sorted([ids[i] for i in found[1]], key=order.__getitem__)
                names = self.names
                return f"{' '.join([names[i] for i in played_ids])}  {category}  {words}\n"  # made visible when cached
        deck = self.deck
        cards = [deck[i] for i in ids]
        if found is None or found[0] < 0:
            return self._render(text, self.engine.evaluate(cards, label))
        value, subset = found
        played = [cards[i] for i in subset]
        fill = self._fill(cards, played)
        if fill is None:
            return self._render(text, self.engine.evaluate(cards, label))
        from ..engine.hand import Hand

        hand = Hand.from_fill(self.ruleset, fill)
        # a hand that does not qualify has one value for many descriptions: never cached
        if self.cacheable and hand.qualifies and not self.wild_ids.intersection(ids):
            extra = "" if hand.qualifies else "  (does not qualify)"
            key = self.engine.play_order_key(fill.classification)
            # the playing order of every card of the deck in a hand of this value (sorted is stable)
            self.by_value[value] = (
                visible(hand.category),
                visible(hand.describe()) + extra,
                [key(card) for card in deck],
            )
        return self._render(text, hand)

    def _fill(self, cards: Sequence[Card], played: Sequence[Card]) -> Fill | None:
        engine = self.engine
        if not self.ruleset.wild.any:
            return engine.fill(played, [False] * len(played))
        mask_of: dict[Card, bool] = {}
        for card, wild in zip(cards, engine.wild_mask(cards), strict=True):
            mask_of[card] = mask_of.get(card, False) or wild
        return engine.fill(played, [mask_of[card] for card in played])

    def _render(self, text: str, hand: Hand) -> str:
        if self.as_json:
            return json_line({"input": text, **hand.as_dict()})
        extra = "" if hand.qualifies else "  (does not qualify)"
        return f"{visible(' '.join(hand.cards))}  {visible(hand.category)}  {visible(hand.describe())}{extra}\n"

    def as_dict(self, text: str, label: str) -> dict[str, object]:
        """The JSON object of one hand (the generic evaluator's full answer)."""
        ids = self.reader.fast_ids(text) or read_ids(self.ruleset, text, label)
        hand = self.engine.evaluate([self.deck[i] for i in ids], label)
        return {"input": text, **hand.as_dict()}


def hands_from(
    values: Sequence[str], stdin: TextIO, single_card: Callable[[str], bool]
) -> Iterator[tuple[str, int, str]]:
    """(source, line, text) of every hand given: arguments, or stdin line by line (``-``).

    From stdin, blank lines and lines starting with ``#`` are skipped (as
    ``showdown --from`` skips them), and each hand keeps its line number.

    >>> import io
    >>> list(hands_from(["-"], io.StringIO("# mine\\nAs Ks\\n\\nQh Qd\\n"), bool))
    [('<stdin>', 2, 'As Ks'), ('<stdin>', 4, 'Qh Qd')]
    """
    if list(values) == ["-"]:
        for number, line in bounded_lines(stdin, "<stdin>"):  # an endless line is refused, not held
            text = line.strip()
            if text and not text.startswith("#"):
                yield "<stdin>", number, text
        return
    if len(values) > 1 and all(single_card(value) for value in values):
        yield "<cards>", 1, " ".join(values)
        return
    for number, value in enumerate(values, start=1):
        yield (f"<hand {number}>" if len(values) > 1 else "<cards>"), 1, value


def write_lines(
    ruleset: Ruleset, hands: Iterable[tuple[str, int, str]], out: TextIO, as_json: bool, one: bool = False
) -> int:
    """Evaluate and write each hand as it comes (a closed pipe propagates to the caller).

    A bad hand is reported at its own line of the input (``<stdin>:3:13``).

    With ``as_json``, one hand (``one``) is one indented document and many are
    JSON Lines, as every command writes JSON.
    """
    lines = HandLines(ruleset, as_json and not one)
    for source, number, text in hands:
        try:
            if as_json and one:
                out.write(json_document(lines.as_dict(text, source)))
            else:
                out.write(lines.line(text, source))
        except PokerRulesError as problem:
            if number == 1:
                raise
            raise PokerRulesError([replace(d, line=number) for d in problem.diagnostics]) from None
        out.flush()
    return 0
