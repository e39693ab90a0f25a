"""The commands run on one accepted generated file: odds, outs, chart, stats, diff, draw and
the command line's ``eval -`` and ``showdown --from``, each against an enumeration written
here with the generic engine (or, where a figure has no such truth, for running cleanly)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Any

from evaluator.core.errors import PokerRulesError
from evaluator.engine.evaluate import engine_for
from evaluator.engine.showdown import best_hand as generic_best_hand
from evaluator.engine.showdown import compare as generic_compare
from evaluator.engine.showdown import showdown as generic_showdown
from evaluator.ruleset import Ruleset, load

from .subject import Subject, run_cli


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
    """stats --json: on a small deck, each category's count is the engine's over every hand (a
    game's counted exactly: its best hand of every deal of hole and board cards)."""
    code, out, err = run_cli(["stats", str(s.path), "--json", "--samples", "300"])
    assert code in (0, 1), err
    if code:
        assert " error " in err or '"error"' in err
        return
    rs = s.ruleset
    data = json.loads(out)
    if "game" in data:  # sampled (a must-use game, hi-lo halves): every deal counted once per half
        for half in data["game"]["halves"]:
            assert sum(row["count"] for row in half["categories"]) <= data["game"]["deals"]
        return
    cards = int(data["cards"])
    if comb(len(s.deck), cards) > 5000:
        return
    engine = engine_for(rs)
    counted: Counter[str] = Counter()
    unplayable = 0
    for hand in combinations(s.deck, cards):
        try:
            if rs.game is None:
                counted[engine.evaluate(rs.cards(" ".join(hand))).category] += 1
                continue
            best = generic_best_hand(rs, rs.cards(" ".join(hand)))  # any five of hole and board
        except PokerRulesError:
            unplayable += 1
            continue
        if best is None:
            unplayable += 1
        else:
            counted[best.category] += 1
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


def _fractions(result: Any) -> list[Fraction]:
    return [Fraction(f) for f in result.fractions]
