"""Every command and API method, run on one generated ruleset file.

:func:`refused` judges a file ``check`` refuses: each error has a code (never
``R199``), and ``load`` refuses it with the same diagnostics (unless check
only ran its examples or its coverage). :func:`accepted` runs everything on a
file ``check`` accepts, each check a function of :class:`Subject` below
(listed in ``CHECKS``): the fast paths (tables, per call and in batch) against
the generic engine (``engine/``), the answers of ``odds``, ``outs``, ``stats``
and ``draw`` against enumerations written here with the generic engine, the
command line against the Python API, and -- where ``brute.py`` understands
the file -- the generic engine against the brute force.

An internal error anywhere propagates (the suite sets
``$POKERRULES_RAISE_INTERNAL``), so it fails the test with its traceback.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from evaluator.cli.main import main
from evaluator.compiled import fasthand
from evaluator.compiled.fast import ruleset_ranker
from evaluator.compiled.tables import tables_for
from evaluator.core.errors import PokerRulesError
from evaluator.engine.evaluate import engine_for
from evaluator.engine.showdown import compare as generic_compare
from evaluator.engine.showdown import showdown as generic_showdown
from evaluator.rules.load import load_document
from evaluator.ruleset import Ruleset, build_ruleset, load
from evaluator.tools.check import check_file

from .brute import Brute, card_tuple, same_order
from .features import Spec

#: What check finds by running the file (its examples, the coverage enumeration); load leaves it to check.
RUN_CODES = frozenset({"E101", "E102", "E103", "R113", "R120"})


def write_files(spec: Spec, folder: Path) -> Path:
    """Write the ruleset (and the companions its hi-lo split names); the ruleset's path."""
    for name, document in spec.companions.items():
        (folder / name).write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    path = folder / "generated.yaml"
    path.write_text(spec.yaml(), encoding="utf-8")
    return path


def run_cli(argv: Sequence[str], stdin: str = "") -> tuple[int, str, str]:
    """``pokerrules ARGV`` in this process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(argv))
    finally:
        sys.stdin = saved
    assert code != 70, f"internal error: {err.getvalue()}"
    return code, out.getvalue(), err.getvalue()


# --- refused files ------------------------------------------------------------------------------


def refused(path: Path, errors: Sequence[Any]) -> None:
    """A file check refuses: codes, never R199; load agrees; the command line says a code."""
    codes = [d.code for d in errors]
    assert "R199" not in codes, errors
    assert all(len(code) == 4 and code[0].isalpha() and code[1:].isdigit() for code in codes), codes
    refusable = [d for d in errors if d.code not in RUN_CODES]
    try:
        load(path)
        loaded = None
    except PokerRulesError as problem:
        loaded = list(problem.diagnostics)
    if refusable:
        assert loaded, f"check refused it ({refusable[0]}), load did not"
        for diagnostic in loaded:
            assert diagnostic in errors, f"load said {diagnostic}; check said {errors}"
        code, out, err = run_cli(["eval", str(path), "As Ks Qs Js Ts"])
        assert code == 1 and out == "" and " error " in err, (code, err)
    else:
        assert loaded is None, f"load refused what check only found by running the file: {loaded}"


# --- accepted files -----------------------------------------------------------------------------


@dataclass
class Subject:
    """One accepted ruleset file, loaded, with seeded card sampling."""

    spec: Spec
    path: Path
    seed: int
    ruleset: Ruleset = field(init=False)
    rng: random.Random = field(init=False)
    deck: list[str] = field(init=False)

    def __post_init__(self) -> None:
        self.ruleset = load(self.path)
        self.rng = random.Random(self.seed)
        # the physical deck: each card once per pack (Ruleset.deck lists each card once), jokers once
        rs = self.ruleset
        self.deck = [str(card) for card in rs.deck for _ in range(1 if card.is_joker else rs.copies)]

    def fresh(self) -> Ruleset:
        """A newly built ruleset object (nothing warmed, no tables loaded)."""
        return build_ruleset(load_document(self.path), self.path)

    @property
    def game(self) -> Any:
        return self.ruleset.game

    def deal(self, *sizes: int) -> list[list[str]]:
        """Disjoint random holdings of the given sizes (None when the deck is too small)."""
        cards = self.rng.sample(self.deck, sum(sizes))
        out, at = [], 0
        for size in sizes:
            out.append(cards[at : at + size])
            at += size
        return out

    def holding_sizes(self) -> list[int]:
        """Holding sizes a single-hand call takes: hand.min up to hand.size (+2 without a game)."""
        rs = self.ruleset
        top = rs.hand_size if rs.game is not None else min(rs.hand_size + 2, len(self.deck))
        return list(range(max(rs.hand_min, 1), top + 1))

    def holdings(self, count: int) -> list[str]:
        sizes = self.holding_sizes()
        return [" ".join(self.deal(self.rng.choice(sizes))[0]) for _ in range(count)]

    def players_and_board(self, players: int) -> tuple[list[str], str | list[str]]:
        """One showdown's hands and board(s), dealt under the game's geometry."""
        game = self.game
        if game is None:
            sizes = [self.rng.choice(self.holding_sizes()) for _ in range(players)]
            while sum(sizes) > len(self.deck):
                sizes = [max(self.ruleset.hand_min, 1)] * players
            return [" ".join(h) for h in self.deal(*sizes)], ""
        parts = self.deal(*([game.hole] * players + [game.board] * game.boards))
        hands = [" ".join(h) for h in parts[:players]]
        boards = [" ".join(b) for b in parts[players:]]
        return hands, (boards if game.boards > 1 else boards[0])

    def fits(self, players: int) -> bool:
        game = self.game
        if game is None:
            return players * max(self.ruleset.hand_min, 1) <= len(self.deck)
        return players * game.hole + game.board * game.boards <= len(self.deck)

    def evaluable(self, text: str) -> bool:
        """Whether the generic engine makes a hand of these cards (C106 otherwise)."""
        try:
            engine_for(self.ruleset).evaluate(self.ruleset.cards(text))
        except PokerRulesError as problem:
            assert problem.first.code in ("C106", "C105"), problem
            return False
        return True


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
        try:
            strength = engine.evaluate(cards).strength
        except PokerRulesError:
            strength = None
        value = rs.rank(rs.encode(text))
        assert (value < 0) == (strength is None), text
        if strength is not None:
            keyed.append((strength, value, text))
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


def check_odds(s: Subject) -> None:
    """Exact odds of a small case equal an enumeration of every deal by the generic showdown."""
    rs = s.ruleset
    game = rs.game
    if game is None:
        known = rs.hand_size - 1
        if known <= 2 or 2 * rs.hand_size > len(s.deck):
            return
        hands = [" ".join(h) for h in s.deal(known, known)]
        board, missing = "", None
    else:
        if not game.board or game.boards > 1 or not s.fits(2):
            return
        parts = s.deal(game.hole, game.hole, game.board - 1)
        hands, board, missing = [" ".join(p) for p in parts[:2]], " ".join(parts[2]), 1
    try:
        result = rs.odds(hands, board=board)
    except PokerRulesError as problem:
        assert problem.first.code.startswith(("O", "C", "G")), problem
        return
    assert result.method == "exact", result.method
    left = list(s.deck)
    for card in " ".join(hands + [board]).split():
        left.remove(card)
    totals = [Fraction(0)] * 2
    deals = 0
    if missing is None:
        for i, first in enumerate(left):
            for j, second in enumerate(left):
                if i == j:
                    continue
                shares = _generic_shares(rs, [f"{hands[0]} {first}", f"{hands[1]} {second}"], "")
                totals = [t + x for t, x in zip(totals, shares, strict=True)]
                deals += 1
    else:
        for card in left:
            shares = _generic_shares(rs, hands, f"{board} {card}")
            totals = [t + x for t, x in zip(totals, shares, strict=True)]
            deals += 1
    for player, total in zip(result.players, totals, strict=True):
        assert abs(player.equity - float(total / deals)) < 1e-9, (hands, board, player.equity, float(total / deals))


def _generic_shares(rs: Ruleset, hands: list[str], board: str) -> list[Fraction]:
    try:
        result = generic_showdown(rs, hands, board)
    except PokerRulesError:
        return [Fraction(0)] * len(hands)
    return _fractions(result)


def check_outs(s: Subject) -> None:
    """outs: with one card to come, a behind player's outs are the cards that give a share."""
    rs = s.ruleset
    game = rs.game
    if game is not None and (game.boards > 1 or not game.board):
        return
    hole = game.hole if game is not None else 2
    board_size = game.board if game is not None else rs.hand_size
    if 2 * hole + board_size > len(s.deck):
        return
    parts = s.deal(hole, hole, board_size - 1)
    hands, board = [" ".join(p) for p in parts[:2]], " ".join(parts[2])
    try:
        result = rs_outs(rs, hands, board)
    except PokerRulesError as problem:
        assert problem.first.code.startswith(("O", "C", "G")), problem
        return
    left = list(s.deck)
    for card in " ".join(hands + [board]).split():
        left.remove(card)  # one copy: two packs hold each card twice
    left = list(dict.fromkeys(left))
    for p, player in enumerate(result.players):
        if not player.behind:
            continue
        expected = {c for c in left if _generic_shares(rs, hands, f"{board} {c}")[p] > 0}
        assert {str(out.card) for out in player.outs} == expected, (hands, board, p)


def rs_outs(rs: Ruleset, hands: list[str], board: str) -> Any:
    from evaluator.odds.outs import outs

    return outs(rs, hands, board)


def check_chart(s: Subject) -> None:
    """A small sampled chart runs and gives equities between 0 and 1."""
    rs = s.ruleset
    if not s.fits(2):
        return
    try:
        chart = rs.chart(samples=20, seed=1, hands=3)
    except PokerRulesError as problem:
        assert problem.first.code.startswith(("O", "C", "G")), problem
        return
    for cell in chart.cells[:40]:
        assert 0.0 <= cell.equity <= 1.0


def check_stats(s: Subject) -> None:
    """stats --json: on a small deck, each category's count is the engine's over every hand."""
    code, out, err = run_cli(["stats", str(s.path), "--json", "--samples", "300"])
    assert code in (0, 1), err
    if code:
        assert " error " in err or '"error"' in err
        return
    rs = s.ruleset
    if rs.game is not None or comb(len(s.deck), rs.hand_size) > 5000:
        return
    data = json.loads(out)
    engine = engine_for(rs)
    counted: Counter[str] = Counter()
    unplayable = 0
    for hand in combinations(s.deck, rs.hand_size):
        try:
            counted[engine.evaluate(rs.cards(" ".join(hand))).category] += 1
        except PokerRulesError:
            unplayable += 1
    got = {row["name"]: row["count"] for row in data["categories"] if row["count"]}
    assert got == dict(counted), (got, dict(counted))
    assert data.get("unplayable", 0) == unplayable


def check_diff(s: Subject) -> None:
    """diff against the parent (standard) runs and prints a JSON document."""
    code, out, err = run_cli(["diff", str(s.path), "standard", "--json", "--samples", "200"])
    assert code in (0, 1), err
    if code == 0:
        json.loads(out)


def diff_examples(data: Any) -> Iterator[tuple[list[str], list[str], int, int]]:
    """Every pair of hands ``diff --json`` shows: (first, second, outcome in a, outcome in b)."""
    if isinstance(data, dict):
        if "wins_in_a" in data and "compare_a" in data:
            yield data["wins_in_a"]["cards"], data["wins_in_b"]["cards"], data["compare_a"], data["compare_b"]
        elif "first" in data and "outcome_a" in data:
            yield data["first"], data["second"], data["outcome_a"], data["outcome_b"]
        for value in data.values():
            yield from diff_examples(value)
    elif isinstance(data, list):
        for value in data:
            yield from diff_examples(value)


def check_diff_examples(s: Subject) -> None:
    """diff's examples are real: two hands that can meet in one deal (no card shared), whose
    outcomes under each ruleset are what ``compare`` says."""
    code, out, err = run_cli(["diff", str(s.path), "standard", "--json", "--samples", "200"])
    assert code in (0, 1), err
    if code:
        return
    standard = load("standard")
    for first, second, outcome_a, outcome_b in diff_examples(json.loads(out)):
        shared = Counter(first) & Counter(second)
        assert not shared, f"diff shows {' '.join(first)} against {' '.join(second)}: they share {dict(shared)}"
        if len(first) == s.ruleset.hand_size == len(second) and s.ruleset.game is None:
            assert generic_compare(s.ruleset, " ".join(first), " ".join(second)) == outcome_a, (first, second)
            assert generic_compare(standard, " ".join(first), " ".join(second)) == outcome_b, (first, second)


def check_lowball(s: Subject) -> None:
    """stats' lowball breakdown names only lows that exist: a hand of distinct ranks tops at
    the hand.size-th lowest rank or above."""
    rs = s.ruleset
    if rs.direction != "low" or rs.game is not None:
        return
    code, out, err = run_cli(["stats", str(s.path), "--json"])
    assert code in (0, 1), err
    lowball = json.loads(out).get("lowball") if code == 0 else None
    if not lowball:
        return
    category = next(c for c in rs.categories if c.name == lowball["category"])
    if category.pattern_text != " ".join("XYZWVU"[: rs.hand_size]):
        return  # only a no-pair category says that every card is a different rank
    for row in lowball["rows"]:
        assert rs.rank_symbols.index(row["top"]) >= rs.hand_size - 1, f"stats lists a {row['label']}"


def check_draw(s: Subject) -> None:
    """draw --discard: each final category's count is the engine's over every draw."""
    rs = s.ruleset
    if rs.game is not None or rs.hand_size + 2 > len(s.deck):
        return
    (held,) = s.deal(rs.hand_size)
    thrown = held[-2:]
    code, out, err = run_cli(["draw", str(s.path), " ".join(held), "--discard", " ".join(thrown), "--json"])
    assert code in (0, 1), err
    if code:
        return
    data = json.loads(out)
    kept = held[:-2]
    left = list(s.deck)
    for card in held:
        left.remove(card)
    engine = engine_for(rs)
    counted: Counter[str] = Counter()
    for draw in combinations(left, 2):
        try:
            hand = engine.evaluate(rs.cards(" ".join(kept + list(draw))))
        except PokerRulesError:
            counted[""] += 1
            continue
        counted[hand.category if hand.qualifies else "not qualifying"] += 1
    got = {name: row["count"] for name, row in data["categories"].items() if row["count"]}
    assert got == {k: v for k, v in counted.items() if k}, (held, got, dict(counted))


def check_cli_eval(s: Subject) -> None:
    """eval - (JSON Lines): each line's category and cards as the Python API says."""
    lines = [h for h in s.holdings(12) if s.evaluable(h)]
    if not lines:
        return
    code, out, err = run_cli(["eval", str(s.path), "-", "--json"], "\n".join(lines) + "\n")
    assert code == 0, err
    for text, row in zip(lines, out.splitlines(), strict=True):
        hand = engine_for(s.ruleset).evaluate(s.ruleset.cards(text))
        data = json.loads(row)
        assert data["category"] == hand.category, (text, data)


def check_cli_showdown(s: Subject) -> None:
    """showdown --from - (JSON Lines): each line's winners as the generic showdown's."""
    if not s.fits(2):
        return
    lines, expected = [], []
    for _ in range(10):
        hands, board = s.players_and_board(2)
        try:
            result = generic_showdown(s.ruleset, hands, board)
        except PokerRulesError:
            continue
        boards = board if isinstance(board, list) else ([board] if board else [])
        lines.append(" | ".join(hands) + "".join(f" ; {b}" for b in boards))
        expected.append(result.winners)
    if not lines:
        return
    code, out, err = run_cli(["showdown", str(s.path), "--from", "-", "--json"], "\n".join(lines) + "\n")
    assert code == 0, err
    assert [json.loads(row)["winners"] for row in out.splitlines()] == expected


def check_brute_force(s: Subject) -> None:
    """The generic engine against the brute force, on every hand of a small deck (a sample
    of a bigger one): the same order before the suit tie-break, the same suit key after it."""
    spec, rs = s.spec, s.ruleset
    if not spec.brute_force or len(s.deck) > 26:
        return
    brute = Brute(spec)
    engine = engine_for(rs)
    size = rs.hand_size
    everything = comb(len(s.deck), size) <= BRUTE_HANDS
    hands: Iterator[tuple[int, ...]] | list[tuple[int, ...]]
    if everything:
        hands = combinations(range(len(s.deck)), size)
    else:
        hands = [tuple(sorted(s.rng.sample(range(len(s.deck)), size))) for _ in range(BRUTE_HANDS)]
    keyed = []
    for positions in hands:
        texts = [s.deck[i] for i in positions]
        label = " ".join(texts)
        cards = rs.cards(label)
        expected = brute.strength([card_tuple(t) for t in texts])
        try:
            strength = engine.evaluate(cards).strength
        except PokerRulesError as problem:
            assert problem.first.code == "C106" and expected is None, (label, problem)
            continue
        assert expected is not None, f"{label}: the engine found {strength}, the brute force no category"
        keyed.append((tuple(strength[:3]), expected, label))
        if rs.tiebreak != "none" and not any(brute.wild_mask([card_tuple(t) for t in texts])):
            assert strength[3] == brute.suit_key([card_tuple(t) for t in texts]), label
    problems = same_order(keyed)
    assert not problems, problems[:3]


#: Hands the brute force visits: every hand of a deck with at most this many, else a sample this big.
BRUTE_HANDS = 2500

CHECKS: list[Callable[[Subject], None]] = [
    check_brute_force,
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


def accepted(spec: Spec, path: Path, seed: int, checks: Sequence[Callable[[Subject], None]] = tuple(CHECKS)) -> None:
    """Run ``checks`` on a file check accepts."""
    subject = Subject(spec, path, seed)
    for check in checks:
        check(subject)


def conform(spec: Spec, folder: Path, seed: int, text: str | None = None) -> str:
    """Write the file (``text``, else the spec's own), check it, and judge it as refused or
    accepted; says which."""
    path = write_files(spec, folder)
    if text is not None:
        path.write_text(text, encoding="utf-8")
    errors = [d for d in check_file(path) if d.severity == "error"]
    if errors:
        refused(path, errors)
        return "refused: " + " ".join(sorted({d.code for d in errors}))
    accepted(spec, path, seed)
    return "accepted"
