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

import codecs
import io
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, TextIO

from ..compiled.fasthand import fast_hands, fast_mode
from ..compiled.tablehand import table_hands
from ..core.errors import PokerRulesError
from ..core.safe_text import visible
from ..engine.cardread import deck_reader, read_ids
from .lines import MAX_LINE_CHARS, bounded_lines, line_too_long
from .output import json_document, json_line

if TYPE_CHECKING:
    from ..compiled.tablehand import ClassRecord, TableHands
    from ..engine.hand import Hand
    from ..rules.cards import Card
    from ..ruleset import Ruleset

#: Output lines held before they are written: bounds memory and the wait behind a busy input.
BATCH_LINES = 1024
#: The most bytes of stdin read at once.
READ_BYTES = 1 << 16


class HandLines:
    """Turns hands of one ruleset into output lines, the words of each class cached."""

    def __init__(self, ruleset: Ruleset, as_json: bool) -> None:
        self.ruleset = ruleset
        self.as_json = as_json
        self.engine = ruleset.engine
        self.reader = deck_reader(ruleset)
        self.deck: tuple[Card, ...] = self.reader.deck
        self.size = ruleset.hand_size
        self.hand_min = ruleset.hand_min
        self.source: TableHands | None = None  # set once the tables are worth loading (fast_mode)
        game = ruleset.game
        self.one_hand_only = game is not None and (game.use_hole is not None or game.use_board is not None)
        self.names = [str(card) for card in self.deck]
        # class record -> "category  description", made visible (a class has one category)
        self.tails: dict[ClassRecord, str] = {}

    def _tables(self) -> TableHands | None:
        if self.source is None and fast_mode(self.ruleset, "evaluate"):
            self.source = table_hands(self.ruleset, fast_hands(self.ruleset))
        return self.source

    def line(self, text: str, label: str) -> str:
        """The output line of one hand (raises the hand's CardError)."""
        ids = self.reader.fast_ids(text) or read_ids(self.ruleset, text, label)
        source = self.source or self._tables()
        if source is None or len(ids) < self.hand_min or (self.one_hand_only and len(ids) > self.size):
            return self._render(text, self.engine.evaluate([self.deck[i] for i in ids], label))
        codes = source.codes
        held = [codes[i] for i in ids]
        value = source.rank(held)
        if value < 0 or source.category_index[value // source.scale] < 0:
            # no category (C106), or a hand that does not qualify: the generic evaluator
            return self._render(text, self.engine.evaluate([self.deck[i] for i in ids], label))
        if not self.as_json:
            # the sum is a class key only where encode's codes are the table codes (keyed: direct)
            found = source.play(ids, value, sum(held, source.bias) if source.keyed else None)
            if found is not None and found[1].words is not None:
                played, record = found
                tail = self.tails.get(record)
                if tail is None:
                    tail = self.tails[record] = f"{visible(source.category(value))}  {visible(record.words)}"
                played.sort(key=record.order.__getitem__)
                names = self.names
                return f"{' '.join([names[i] for i in played])}  {tail}\n"
        return self._render(text, source.hand_type(value, ids))

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


class Batch:
    """Output lines written together: when the input is about to wait, when
    :data:`BATCH_LINES` are held, and at the end. Each write passes the output
    guard (``core/safe_text.GuardedOutput``) and the system once, not once per line."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.lines: list[str] = []

    def write(self, text: str) -> None:
        """Hold ``text`` (written at the next flush)."""
        self.lines.append(text)
        if len(self.lines) >= BATCH_LINES:
            self.flush()

    def flush(self) -> None:
        """Write and flush what is held."""
        if self.lines:
            text = "".join(self.lines)
            self.lines.clear()  # before writing: a closed pipe must not see them twice
            self.out.write(text)
        self.out.flush()


def input_lines(stdin: TextIO, waiting: Callable[[], None], source: str = "<stdin>") -> Iterator[tuple[int, str]]:
    """(1-based number, line) of every line of ``stdin``, as iterating it gives them
    (universal newlines, its encoding and error handler), with ``waiting()`` called
    before every read that may wait for input: what was answered so far is out
    before the command waits. A line longer than ``lines.MAX_LINE_CHARS`` is
    refused (``Y128``) as soon as it is, not held."""
    raw = getattr(stdin, "buffer", None)
    if raw is None or not hasattr(raw, "read1"):
        for number, line in bounded_lines(stdin, source):  # a stream of text only (tests)
            yield number, line
            waiting()
        return
    decoder = io.IncrementalNewlineDecoder(
        codecs.getincrementaldecoder(stdin.encoding or "utf-8")(stdin.errors or "strict"), translate=True
    )
    pending = ""
    number = 0
    while True:
        waiting()
        chunk = raw.read1(READ_BYTES)
        lines = (pending + decoder.decode(chunk, final=not chunk)).split("\n")
        pending = lines.pop()
        for line in lines:
            number += 1
            if len(line) > MAX_LINE_CHARS:
                raise line_too_long(number, source)
            yield number, line + "\n"
        if len(pending) > MAX_LINE_CHARS:
            raise line_too_long(number + 1, source)
        if not chunk:
            if pending:
                yield number + 1, pending
            return


def hands_from(
    values: Sequence[str],
    stdin: TextIO,
    single_card: Callable[[str], bool],
    waiting: Callable[[], None] = lambda: None,
) -> Iterator[tuple[str, int, str]]:
    """(source, line, text) of every hand given: arguments, or stdin line by line
    (``-``, ``waiting()`` called before each read that may wait).

    From stdin, blank lines and lines starting with ``#`` are skipped (as
    ``showdown --from`` skips them), and each hand keeps its line number.

    >>> import io
    >>> list(hands_from(["-"], io.StringIO("# mine\\nAs Ks\\n\\nQh Qd\\n"), bool))
    [('<stdin>', 2, 'As Ks'), ('<stdin>', 4, 'Qh Qd')]
    """
    if list(values) == ["-"]:
        for number, line in input_lines(stdin, waiting):  # an endless line is refused, not held
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
    ruleset: Ruleset, hands: Iterable[tuple[str, int, str]], out: Batch, as_json: bool, one: bool = False
) -> int:
    """Evaluate and write each hand as it comes (a closed pipe propagates to the caller).

    A bad hand is reported at its own line of the input (``<stdin>:3:13``).

    With ``as_json``, one hand (``one``) is one indented document and many are
    JSON Lines, as every command writes JSON. A bad hand stops the command: the
    lines before it are written first.
    """
    lines = HandLines(ruleset, as_json and not one)
    try:
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
    except PokerRulesError:
        out.flush()
        raise
    out.flush()
    return 0
