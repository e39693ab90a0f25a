"""Every command and API method, run on one generated ruleset file.

:func:`refused` judges a file ``check`` refuses: each error has a code (never
``R199``), and ``load`` refuses it with the same diagnostics (unless check
only ran its examples or its coverage). :func:`accepted` runs everything on a
file ``check`` accepts, each check a function of a :class:`Subject`
(``subject.py``), listed in ``CHECKS``: here the fast paths (tables, per call
and in batch) against the generic engine (``engine/``) and -- where
``brute.py`` understands the file -- the generic engine against the brute
force; in ``commands.py`` the answers of ``odds``, ``outs``, ``stats`` and
``draw`` against enumerations with the generic engine, and the command line
against the Python API.

An internal error anywhere propagates (the suite sets
``$POKERRULES_RAISE_INTERNAL``), so it fails the test with its traceback.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

import numpy as np

from evaluator.compiled import fasthand
from evaluator.compiled.fast import ruleset_ranker
from evaluator.compiled.suitclasses import class_count, holdings, supported
from evaluator.compiled.suitvalue_cache import suit_values
from evaluator.compiled.suitvalues import NO_HAND, REFUSED
from evaluator.compiled.tables import tables_for
from evaluator.core.errors import PokerRulesError
from evaluator.engine.evaluate import engine_for
from evaluator.engine.showdown import compare as generic_compare
from evaluator.engine.showdown import showdown as generic_showdown
from evaluator.ruleset import Ruleset
from evaluator.tools.check import check_file

from .brute import Brute, card_tuple, same_order
from .commands import (
    check_chart,
    check_cli_eval,
    check_cli_showdown,
    check_diff,
    check_draw,
    check_odds,
    check_outs,
    check_stats,
)
from .deal_checks import check_deal_cli, check_deal_judge, check_deal_odds, check_deal_showdown
from .deal_features import is_by_deal
from .features import Spec
from .subject import CHECK_ONLY, Subject, refused, run_cli, write_files

__all__ = [
    "CHECKS",
    "DEAL_CHECKS",
    "CHECK_ONLY",
    "Subject",
    "accepted",
    "check_brute_force",
    "check_class_values",
    "check_compare",
    "check_evaluate",
    "check_rank",
    "conform",
    "examples_hold",
    "refused",
    "run_cli",
    "walk_matches_evaluator",
    "write_files",
]


def _hand_facts(hand: Any) -> tuple[Any, ...]:
    return (hand.category, hand.cards, hand.played_as, hand.strength, hand.describe())


def check_evaluate(s: Subject) -> None:
    """evaluate: the fast path (tables loaded) answers as the generic engine."""
    tables_for(s.ruleset)
    engine = engine_for(s.ruleset)
    for text in s.holdings(40):
        cards = s.ruleset.cards(text)
        try:
            generic = engine.evaluate(cards)
        except PokerRulesError as problem:
            with _raises_same(problem):
                fasthand.evaluate(s.ruleset, text)
            continue
        assert _hand_facts(fasthand.evaluate(s.ruleset, text)) == _hand_facts(generic), text


@contextlib.contextmanager
def _raises_same(expected: PokerRulesError) -> Iterator[None]:
    try:
        yield
    except PokerRulesError as problem:
        assert problem.first.code == expected.first.code, (problem, expected)
        return
    raise AssertionError(f"the generic engine said {expected.first.code}; the fast path answered")


def _pairs(s: Subject, count: int) -> list[tuple[str, str]]:
    pairs = []
    while len(pairs) < count:
        a, b = s.holdings(2)
        if s.evaluable(a) and s.evaluable(b):
            pairs.append((a, b))
    return pairs


def check_compare(s: Subject) -> None:
    """compare, cold (generic) then warm (tables): always the generic comparison's answer."""
    if not s.fits(2):
        return
    fresh = s.fresh()
    pairs = _pairs(s, 50)
    for a, b in pairs:  # the first calls are answered generically, the rest on the tables
        assert fresh.compare(a, b) == generic_compare(s.ruleset, a, b), (a, b)
    tables_for(s.ruleset)
    for a, b in pairs[:20]:
        assert fasthand.compare(s.ruleset, a, b) == generic_compare(s.ruleset, a, b), (a, b)


def check_explain(s: Subject) -> None:
    """explain: its winner is compare's."""
    for a, b in _pairs(s, 6):
        explained = s.ruleset.explain(a, b)
        assert {0: 1, 1: -1, None: 0}[explained.winner] == generic_compare(s.ruleset, a, b), (a, b)


def _fractions(result: Any) -> list[Fraction]:
    return [Fraction(f) for f in result.fractions]


def check_showdown(s: Subject) -> None:
    """showdown, cold then warm, and on the tables: the generic showdown's winners and shares."""
    if not s.fits(2):
        return
    fresh = s.fresh()
    tables_for(s.ruleset)
    for _ in range(40):
        players = s.rng.choice([2, 2, 3]) if s.fits(3) else 2
        hands, board = s.players_and_board(players)
        try:
            generic = generic_showdown(s.ruleset, hands, board)
        except PokerRulesError as problem:
            with _raises_same(problem):
                fresh.showdown(hands, board)
            continue
        assert fresh.showdown(hands, board) == generic.winners, (hands, board)
        fast = fasthand.showdown(s.ruleset, hands, board)
        assert fast.winners == generic.winners and _fractions(fast) == _fractions(generic), (hands, board)


def check_rank(s: Subject) -> None:
    """encode / rank / rank_many: the values order hands exactly as the engine's strengths."""
    rs = s.ruleset
    ranker = ruleset_ranker(rs)
    engine = engine_for(rs)
    sizes = s.holding_sizes()
    keyed = []
    by_size: dict[int, list[tuple[list[int], int]]] = {}
    for text in s.holdings(60):
        cards = rs.cards(text)
        refused: PokerRulesError | None = None
        try:
            hand = engine.evaluate(cards)
        except PokerRulesError as problem:
            hand, refused = None, problem
        try:
            value = rs.rank(rs.encode(text))
        except PokerRulesError as problem:
            # a hand the evaluator refuses (more wild cards than it fills, which check warns
            # of: W104) is refused by rank too, with the same code
            assert refused is not None and problem.code == refused.code, (text, problem)
            continue
        assert (value < 0) == (hand is None), text
        if hand is None:
            continue
        assert fasthand.fast_hands(rs).qualifies(value) == hand.qualifies, text
        # more cards than a hand that do not qualify play their best-scoring hand, which the
        # value does not see (docs/fast-calls.md): it is the best strength of any of their hands
        if hand.qualifies or len(cards) <= rs.hand_size:
            keyed.append((hand.strength, value, text))
        ids = list(ranker.card_ids(text))
        by_size.setdefault(len(ids), []).append((ids, value))
    problems = same_order([(strength, value, text) for strength, value, text in keyed])
    assert not problems, problems[:3]
    for k, rows in by_size.items():
        batch = rs.rank_many(np.array([ids for ids, _ in rows], dtype=np.int64))
        assert batch.tolist() == [value for _, value in rows], f"rank_many of {k}-card holdings"
    if rs.game is not None and (rs.game.use_hole is not None or rs.game.use_board is not None):
        big = max(sizes) + 1
        if big <= len(s.deck):
            text = " ".join(s.deal(big)[0])
            try:
                rs.rank(rs.encode(text))
            except PokerRulesError as problem:
                assert problem.first.code == "C105"
            else:
                raise AssertionError("a must-use game ranked more than one hand")


def check_showdown_many(s: Subject) -> None:
    """showdown_many: each deal's shares are the generic showdown's."""
    if not s.fits(2):
        return
    rs = s.ruleset
    game = rs.game
    id_of: dict[str, list[int]] = {}
    for i, card in enumerate(s.deck):
        id_of.setdefault(card, []).append(i)
    players = 3 if s.fits(3) else 2
    deals, expected = [], []
    size = rs.hand_size if game is None else None
    for _ in range(25):
        if game is None:
            parts = s.deal(*([size] * players)) if players * size <= len(s.deck) else None
            if parts is None:
                return
            hands, board = [" ".join(p) for p in parts], ""
        else:
            hands, board = s.players_and_board(players)
        try:
            result = generic_showdown(rs, hands, board)
        except PokerRulesError:
            return  # C106 and the like: the batch is not asked
        deals.append((hands, board))
        expected.append([float(f) for f in result.fractions])
    holes = np.array([[_ids(rs, h) for h in hands] for hands, _ in deals], dtype=np.int64)
    boards = None
    if game is not None and game.board:
        if game.boards > 1:
            boards = np.array([[_ids(rs, b) for b in board] for _, board in deals], dtype=np.int64)
        else:
            boards = np.array([_ids(rs, board) for _, board in deals], dtype=np.int64)
    shares = rs.showdown_many(holes, boards)
    assert np.allclose(shares, np.array(expected)), (deals, shares.tolist(), expected)


def _ids(rs: Ruleset, text: str) -> list[int]:
    return list(ruleset_ranker(rs).card_ids(text))


def _brute_sizes(s: Subject) -> list[int]:
    """Holding sizes the brute force judges: ``hand.size``; every size a best subset can
    have; one card more when a qualifier makes the choice of the hand that plays matter."""
    spec = s.spec
    if spec.best_subset:
        return list(range(max(spec.min, 1), spec.size + 1))
    if spec.qualifier is not None and s.ruleset.game is None and spec.size < len(s.deck):
        return [spec.size, spec.size + 1]
    return [spec.size]


def check_brute_force(s: Subject) -> None:
    """The generic engine against the brute force, on every holding of a small deck (a sample
    of a bigger one): the same order before the suit tie-break, the same suit key after it."""
    spec, rs = s.spec, s.ruleset
    if not spec.brute_force or len(s.deck) > 26:
        return
    brute = Brute(spec)
    engine = engine_for(rs)
    sizes = _brute_sizes(s)
    everything = sum(comb(len(s.deck), size) for size in sizes) <= BRUTE_HANDS
    hands: Iterator[tuple[int, ...]] | list[tuple[int, ...]]
    if everything:
        hands = (positions for size in sizes for positions in combinations(range(len(s.deck)), size))
    else:
        hands = [tuple(sorted(s.rng.sample(range(len(s.deck)), s.rng.choice(sizes)))) for _ in range(BRUTE_HANDS)]
    keyed = []
    for positions in hands:
        texts = [s.deck[i] for i in positions]
        label = " ".join(texts)
        cards = rs.cards(label)
        found = brute.best([card_tuple(t) for t in texts])
        try:
            hand = engine.evaluate(cards)
        except PokerRulesError as problem:
            assert problem.first.code == "C106" and found is None, (label, problem)
            continue
        assert found is not None, f"{label}: the engine found {hand.strength}, the brute force no category"
        expected, played = found
        keyed.append((tuple(hand.strength[:3]), expected, label))
        if rs.tiebreak != "none" and not any(brute.wild_mask([card_tuple(t) for t in texts])):
            assert hand.strength[3] == brute.suit_key(played), label
    problems = same_order(keyed)
    assert not problems, problems[:3]


#: Hands the brute force visits: every hand of a deck with at most this many, else a sample this big.
BRUTE_HANDS = 2500
#: Suit classes the walk's valuation is compared with the generic evaluator's, class by class.
WALKED_CLASSES = 20_000


def check_class_values(s: Subject) -> None:
    """The suit-class walk (shared by the counts, the tables and ``stats``; its one-wild choices made in
    bulk where they can be) against the generic evaluator's best fill of every class: the same
    category, strength and wild count, and the same cards played, a wild card's chosen card included;
    a class the evaluator refuses (too many wild cards) is refused by the walk too."""
    rs = s.ruleset
    size = rs.hand_size
    if not engine_for(rs).by_suit_class or rs.best_subset or supported(rs, size) is not None:
        return
    if class_count(rs, size) > WALKED_CLASSES:
        return
    walk_matches_evaluator(rs, suit_values(rs, size))


def walk_matches_evaluator(rs: Ruleset, valued: Any) -> int:
    """Assert that the suit-class walk ``valued`` (of ``rs.hand_size`` cards) values every class as
    the generic evaluator's best fill does -- category, value, strength, qualifying, wild count and
    the cards played -- and refuses the classes it refuses; the number of classes compared."""
    engine = engine_for(rs)
    names = rs.category_names
    compared = 0
    for index, (held, weight) in enumerate(holdings(rs, rs.hand_size)):
        compared += 1
        label = " ".join(map(str, held))
        assert valued.holding(index) == held and int(valued.weights[index]) == weight, label
        found = int(valued.outcome[index])
        try:
            fill = engine.best(held, engine.candidates(held))
        except PokerRulesError:
            assert found == REFUSED, label
            continue
        if fill is None:
            assert found == NO_HAND, label
            continue
        outcome = valued.outcomes[found]
        assert names[outcome.category] == fill.classification.category.name, label
        assert outcome.value == fill.classification.value and outcome.strength == fill.strength, label
        assert outcome.qualifies == fill.classification.qualifies and outcome.wilds == fill.wild_count, label
        assert valued.played_cards(index) == [*fill.naturals, *fill.played], label
    assert compared == len(valued.outcome)
    return compared


CHECKS: list[Callable[[Subject], None]] = [
    check_brute_force,
    check_class_values,
    check_evaluate,
    check_compare,
    check_explain,
    check_showdown,
    check_rank,
    check_showdown_many,
    check_odds,
    check_outs,
    check_chart,
    check_stats,
    check_diff,
    check_draw,
    check_cli_eval,
    check_cli_showdown,
]


#: The checks of a game the deal decides: a hand alone as for any file (the static wild
#: cards), the showdowns and the commands of deals (``deal_checks.py``).
DEAL_CHECKS: list[Callable[[Subject], None]] = [
    check_brute_force,
    check_class_values,
    check_evaluate,
    check_rank,
    check_deal_showdown,
    check_deal_judge,
    check_deal_odds,
    check_deal_cli,
]


def accepted(spec: Spec, path: Path, seed: int, checks: Sequence[Callable[[Subject], None]] | None = None) -> None:
    """Run ``checks`` on a file check accepts (by default ``CHECKS``, or ``DEAL_CHECKS`` for a
    game the deal decides)."""
    subject = Subject(spec, path, seed)
    if checks is None:
        checks = DEAL_CHECKS if is_by_deal(spec) else CHECKS
    for check in checks:
        check(subject)


def examples_hold(spec: Spec, errors: Sequence[Any]) -> None:
    """The examples the brute force wrote into the file (``features.written_examples``) pass check."""
    failed = [d for d in errors if d.code in ("E101", "E102", "E103")]
    assert not (spec.examples and failed), f"an example the brute force wrote fails: {failed[0]}"


def conform(spec: Spec, folder: Path, seed: int, text: str | None = None) -> str:
    """Write the file (``text``, else the spec's own), check it, and judge it as refused or
    accepted; says which."""
    path = write_files(spec, folder)
    if text is not None:
        path.write_text(text, encoding="utf-8")
    errors = [d for d in check_file(path) if d.severity == "error"]
    if text is None:
        examples_hold(spec, errors)
    if errors:
        refused(path, errors)
        return "refused: " + " ".join(sorted({d.code for d in errors}))
    accepted(spec, path, seed)
    return "accepted"
