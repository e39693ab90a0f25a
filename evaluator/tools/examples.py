"""Executable examples: the ``examples:`` list of a ruleset, run and judged.

Forms (see DESIGN.md):

- ``"HAND > HAND"`` / ``<`` / ``=``: the first hand wins / loses / ties
  (in a low game the winner is the lower hand);
- ``"HAND is CATEGORY"``;
- a mapping ``{hand, category, cards, description}``: what the hand is, which
  cards play (wilds filled in) and how it reads;
- a mapping ``{showdown: [HAND, ...], board, winners, shares, pot}``; in a
  game settled by the deal (Follow the Queen, Chicago, ...) each hand is the
  player's cards in dealing order, and ``declare`` gives the declarations.

A failing example becomes a diagnostic at the example's own line, saying what
the evaluator found instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from math import comb
from typing import TYPE_CHECKING, Any, NamedTuple

from ..compiled.fasthand import generic_answers, showdown
from ..core.errors import Diagnostic, PokerRulesError
from ..engine.evaluate import MAX_SUBSETS
from ..engine.showdown import best_hand
from ..rules.cards import parse_cards, tokenize
from ..rules.yaml_read import did_you_mean

if TYPE_CHECKING:
    from ..engine.hand import Hand
    from ..engine.showdown import ShowdownResult
    from ..rules.ruleset import Example
    from ..ruleset import Ruleset

_COMPARISON = re.compile(r"^(?P<a>.+?)\s+(?P<op>[<>=])\s+(?P<b>.+)$")
_IS = re.compile(r"^(?P<hand>.+?)\s+is\s+(?P<category>[a-z][a-z0-9_]*)$")
_WORDS = {1: "wins against", -1: "loses to", 0: "ties with"}


# Work is counted in hands tried (subsets of a holding, each about 15 microseconds).
# One example may try as many as the evaluator allows; the examples of one file
# together at most MAX_EXAMPLES_WORK, so that a check of one file stays within
# seconds (1,000 examples of 52 cards would otherwise take hours).
MAX_EXAMPLES_WORK = 200_000


# Whether a failing example is to be reported: given the example and the hands it
# evaluated (None where no hand could be made). See evaluator/tools/partial.py.
Trust = Callable[["Ruleset", Any, Sequence["Hand | None"]], bool]
# Card problems are the example's own, whatever else is broken in the file.
_CARD_CODES = ("C101", "C102", "C103", "C104", "C105", "C107")


class Failure(NamedTuple):
    """A failing example: its code, message, and the explanation of a comparison."""

    code: str
    message: str
    context: str | None = None
    cause: str | None = None  # the code of the error that stopped the evaluation (E103)
    hint: str | None = None


def run_examples(ruleset: Ruleset, trust: Trust | None = None) -> list[Diagnostic]:
    """Run every example of ``ruleset``; a diagnostic for each one that fails.

    A failing comparison carries the explanation of the comparison (the
    steps of :meth:`Ruleset.explain`), printed under the message. With
    ``trust``, a failure is reported only when ``trust`` accepts it.

    Each example's work is estimated before it runs: one that needs more
    than the evaluator's limit is ``R120``; once the file's examples together
    pass :data:`MAX_EXAMPLES_WORK`, the rest are not run (one ``W120``).
    """
    with generic_answers(ruleset):  # a few dozen hands: no table build for them
        return _run_all(ruleset, trust)


def _run_all(ruleset: Ruleset, trust: Trust | None) -> list[Diagnostic]:
    problems = []
    spent = 0
    for example in ruleset.examples:
        source = example_source(ruleset, example)
        work = example_work(ruleset, example.value)
        if work > MAX_SUBSETS:
            problems.append(
                Diagnostic(
                    "R120",
                    f"this example needs {work:,} hands tried to find the best ones; the limit is {MAX_SUBSETS:,}",
                    source,
                    example.line,
                    example.col,
                    hint=f"give at most a few more cards than a hand ({ruleset.hand_size})",
                )
            )
            continue
        if spent + work > MAX_EXAMPLES_WORK:
            problems.append(
                Diagnostic(
                    "W120",
                    f"this example and the ones after it are not run: the examples together need more than "
                    f"{MAX_EXAMPLES_WORK:,} hands tried",
                    source,
                    example.line,
                    example.col,
                    "warning",
                    "use fewer cards in the examples",
                )
            )
            break
        spent += work
        hands: list[Hand | None] = []
        result = _run_one(ruleset, example.value, hands)
        if result is None:
            continue
        failure = result if isinstance(result, Failure) else Failure(*result)
        if failure.cause is not None and failure.cause not in _CARD_CODES:
            hands.append(None)  # no hand could be made: what the file meant is unknown
        if trust is not None and failure.cause not in _CARD_CODES and not trust(ruleset, example.value, hands):
            continue
        problems.append(
            Diagnostic(
                failure.code,
                failure.message,
                source,
                example.line,
                example.col,
                hint=failure.hint,
                context=failure.context,
            )
        )
    return problems


def example_work(ruleset: Ruleset, value: Any) -> int:
    """How many hands running an example tries: the subsets of ``hand.size`` cards of each holding.

    Cards are only counted here (text that does not read as cards counts as
    nothing, and running the example reports it).
    """
    size = ruleset.hand_size

    def subsets(*texts: Any) -> int:
        cards = sum(_count_cards(text) for text in texts)
        return comb(cards, size) if cards > size else 1

    if isinstance(value, str):
        match = _IS.match(value.strip()) or _COMPARISON.match(value.strip())
        if match is None:
            return 1
        parts = [match.group("hand")] if "hand" in match.groupdict() else [match.group("a"), match.group("b")]
        return sum(subsets(part) for part in parts)
    if isinstance(value, dict):
        if "showdown" in value and isinstance(value["showdown"], list):
            board = value.get("board", "")
            boards = board if isinstance(board, list) else [board]
            return sum(subsets(hand, item) for hand in value["showdown"] for item in boards) or 1
        if "hole" in value:
            return subsets(value.get("hole", ""), value.get("board", ""))
        return subsets(value.get("hand", ""))
    return 1


def _count_cards(text: Any) -> int:
    # a deal's faces and folds ("(As Kd) 7c", "fold: ...") are no cards
    plain = str(text).replace("(", " ").replace(")", " ").replace("??", "2c")
    if plain.lstrip().lower().startswith("fold:"):
        plain = plain.lstrip()[5:]
    try:
        return len(tokenize(plain))
    except PokerRulesError:
        return 0


def example_source(ruleset: Ruleset, example: Example) -> str:
    """The file an example was written in."""
    return ruleset.document.sources[0] if ruleset.document.sources else ruleset.name


def _run_one(ruleset: Ruleset, value: Any, hands: list[Hand | None] | None = None) -> Failure | tuple[str, ...] | None:
    """Run one example: None when it holds, else (code, message[, explanation]).

    The hands the example evaluates are appended to ``hands``.
    """
    seen: list[Hand | None] = [] if hands is None else hands
    try:
        if isinstance(value, str):
            return _run_text(ruleset, value.strip(), seen)
        if isinstance(value, dict):
            if "showdown" in value:
                return _run_showdown(ruleset, value, seen)
            return _run_mapping(ruleset, value, seen)
        return ("E102", "an example is a string or a mapping")
    except PokerRulesError as problem:
        return Failure("E103", f"example cannot be evaluated: {problem.first.message}", None, problem.code)


def _run_text(ruleset: Ruleset, text: str, seen: list[Hand | None]) -> Failure | tuple[str, ...] | None:
    match = _IS.match(text)
    if match:
        hand = ruleset.evaluate(match.group("hand"))
        seen.append(hand)
        wanted = match.group("category")
        if wanted not in ruleset.category_names:
            message = f"example names category {wanted!r}, which is not in order"
            return Failure("E102", message, hint=did_you_mean(wanted, list(ruleset.category_names)))
        if hand.category != wanted:
            return ("E101", f"{match.group('hand')} is {hand.summary()}, not {wanted}")
        return None
    match = _COMPARISON.match(text)
    if match:
        wanted = {">": 1, "<": -1, "=": 0}[match.group("op")]
        first, second = ruleset.evaluate(match.group("a")), ruleset.evaluate(match.group("b"))
        seen += [first, second]
        found = ruleset.compare(first, second)
        if found != wanted:
            # the steps say which hands these are and why; the verdict is the message's own
            steps = ruleset.explain(first, second).text().splitlines()[:-1]
            return (
                "E101",
                f"expected {match.group('a')} to {_verb(wanted)} {match.group('b')}, but it {_WORDS[found]} it",
                "\n".join("    " + line for line in steps),
            )
        return None
    return Failure(
        "E102",
        f"cannot read example {text!r}: write 'HAND > HAND', 'HAND < HAND', 'HAND = HAND' or 'HAND is CATEGORY'",
        hint=_reading_hint(text),
    )


# Words people write between two hands, and the operator an example uses for them.
_OPERATOR_WORDS = {"beats": ">", "wins": ">", "over": ">", "loses": "<", "ties": "=", "equals": "=", "==": "="}


def _reading_hint(text: str) -> str | None:
    """A did-you-mean for an example that does not read: ``A beats B`` is ``A > B``.

    >>> _reading_hint("As Ks Qs Js Ts beats Kh Kd Qc Jd 9h")
    "did you mean 'As Ks Qs Js Ts > Kh Kd Qc Jd 9h'?"
    """
    words = text.split()
    for index, word in enumerate(words):
        operator = _OPERATOR_WORDS.get(word.lower())
        if operator is not None and 0 < index < len(words) - 1:
            return f"did you mean {' '.join([*words[:index], operator, *words[index + 1 :]])!r}?"
    return None


def _verb(outcome: int) -> str:
    return {1: "win against", -1: "lose to", 0: "tie with"}[outcome]


def _run_mapping(ruleset: Ruleset, value: dict[str, Any], seen: list[Hand | None]) -> tuple[str, str] | None:
    hand = _mapping_hand(ruleset, value)
    seen.append(hand)
    if hand is None:
        return ("E101", "no hand can be made from these cards")
    checks: list[tuple[str, Callable[[Hand], object], Callable[[Any], object]]] = [
        ("category", lambda h: h.category, str),
        ("description", lambda h: h.describe(), str),
        ("cards", lambda h: sorted(h.cards), lambda v: sorted(str(c) for c in parse_cards(str(v)))),
        ("plays_as", lambda h: sorted(h.played_as), lambda v: sorted(str(c) for c in parse_cards(str(v)))),
        ("qualifies", lambda h: h.qualifies, bool),
    ]
    for key, read, normal in checks:
        if key in value and read(hand) != normal(value[key]):
            found = _shown(read(hand))
            says_more = key != "description" and found != hand.describe() and hand.summary() != hand.category
            said = f" ({hand.describe()})" if says_more else ""
            return ("E101", f"{key}: expected {value[key]!r}, found {found!r}{said}")
    if "wilds" in value:
        expected = {str(parse_cards(str(k))[0]): str(parse_cards(str(v))[0]) for k, v in dict(value["wilds"]).items()}
        if hand.wilds != expected:
            return ("E101", f"wilds: expected {expected}, found {hand.wilds}")
    return None


def _shown(found: object) -> object:
    return " ".join(found) if isinstance(found, list) else found


def _mapping_hand(ruleset: Ruleset, value: dict[str, Any]) -> Hand | None:
    if "hole" in value:
        hole = ruleset.cards(str(value["hole"]))
        board = ruleset.cards(str(value.get("board", "")))
        return best_hand(ruleset, hole, board)
    return ruleset.evaluate(str(value.get("hand", "")))


def _run_showdown(ruleset: Ruleset, value: dict[str, Any], seen: list[Hand | None]) -> tuple[str, str] | None:
    board = value.get("board", "")
    boards = board if isinstance(board, list) else str(board)
    if ruleset.by_deal:
        from ..deal.deal import read_deal
        from ..deal.settle import settle

        runs = [str(b) for b in boards] if isinstance(boards, list) else ([boards] if boards.strip() else [])
        declare = [str(d) for d in value["declare"]] if value.get("declare") else None
        deal = read_deal(ruleset, [str(h) for h in value["showdown"]], runs, declare)
        result: ShowdownResult = settle(ruleset, deal, value.get("pot"))
    else:
        result = showdown(ruleset, [str(h) for h in value["showdown"]], boards, value.get("pot"))
    # the hands this ruleset judged (the halves of a hi-lo game have rulesets of their own)
    seen += [hand for half in result.halves if half.ruleset == ruleset.name for hand in half.hands]
    if "winners" in value and result.winners != list(value["winners"]):
        return ("E101", f"winners: expected {value['winners']}, found {result.winners}")
    if "shares" in value and result.shares != list(value["shares"]):
        return ("E101", f"shares: expected {value['shares']}, found {result.shares}")
    return None
