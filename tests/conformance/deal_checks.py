"""The checks of a generated file the deal decides (wild cards that follow the deal, extra
cards, card halves, declare, run it twice; see ``deal_features.py``).

The per-deal showdown (``Ruleset.deal_showdown``) is checked against the plain
settle of ``deal_judge.py``; the batch judge (``evaluator/deal/judge.py``)
against the per-deal showdown; exact odds of a partly dealt hand against
settling every completion; the command line's ``showdown`` against the API;
and ``odds``, ``stats``, ``chart``, ``diff``, ``compare``, ``eval`` and
``explain`` for running without an internal error (an answer or a coded
refusal).
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import permutations

import numpy as np

from evaluator.core.errors import PokerRulesError
from evaluator.deal.judge import Judge, deal_of
from evaluator.deal.sample import Known, random_deals
from evaluator.deal.settle import settle

from .deal_judge import PlainDeal, PlainSettle, deal_cards
from .subject import Subject, run_cli

#: Completions the exact odds check settles one by one, at most.
ODDS_DEALS = 400


def _declarations(s: Subject, players: int) -> list[str] | None:
    game = s.spec.game or {}
    if not game.get("declare"):
        return None
    names = [str(half["name"]) for half in game["split"]] + ["both"]
    return [s.rng.choice(names) for _ in range(players)]


def _deal(s: Subject, players: int) -> PlainDeal | None:
    """A random deal under the file's game (None when the deck runs out)."""
    game = s.spec.game
    assert game is not None
    deck = list(s.deck)
    s.rng.shuffle(deck)
    try:
        deal = deal_cards(game, players, deck, s.rng.randint(0, int(game["board"])))
    except StopIteration:
        return None
    deal.declarations = _declarations(s, players)
    return deal


def _boards(deal: PlainDeal, boards: int) -> list[str]:
    """The board texts: one per run, or the two boards of a double-board game."""
    if boards > 1:
        half = len(deal.boards[0]) // boards
        return [" ".join(deal.boards[0][i * half : (i + 1) * half]) for i in range(boards)]
    return [" ".join(board) for board in deal.boards if board]


def _judged(s: Subject) -> bool:
    """Whether the plain settle can judge the file (no double board, no beats: cycles)."""
    game = s.spec.game or {}
    return int(game.get("boards", 1)) == 1 and not s.spec.beats


def check_deal_showdown(s: Subject) -> None:
    """deal_showdown: each deal's shares are the plain settle's (faces written or left to the streets)."""
    assert s.spec.game is not None
    plain = PlainSettle(s.path, s.spec.document())
    boards = int(s.spec.game.get("boards", 1))
    for _ in range(12):
        players = s.rng.choice([2, 2, 3])
        deal = _deal(s, players)
        if deal is None:
            continue
        faces = s.rng.random() < 0.5
        texts = [deal.seat_text(seat, faces) for seat in range(players)]
        try:
            result = s.ruleset.deal_showdown(texts, _boards(deal, boards), deal.declarations, pot=12)
        except PokerRulesError as problem:
            if problem.first.code == "C105":
                continue  # more wild cards in a hand than the evaluator fills (its bound, said with a code)
            raise AssertionError(f"a deal dealt by the game's own rules was refused: {problem}") from problem
        assert sum(result.shares) + (result.carried or 0) == 12, (texts, result.shares, result.carried)
        if _judged(s):
            expected = plain.fractions(deal)
            got = [Fraction(f) for f in result.fractions]
            assert got == expected, (texts, deal.boards, deal.declarations, got, expected)


def check_deal_judge(s: Subject) -> None:
    """The batch judge settles random deals as the per-deal showdown does."""
    rs = s.ruleset
    players = 3 if s.fits(3) else 2
    declare = _declarations(s, players)
    try:
        deals = list(random_deals(rs, Known(players), 20, np.random.default_rng(s.seed)))
    except PokerRulesError as problem:
        assert problem.first.code == "G125", problem  # the deck runs out before a deal is complete
        return
    try:
        shares = Judge(rs, players, declarations=declare).settle(deals).shares
    except PokerRulesError as problem:
        assert problem.first.code == "C105", problem  # more wild cards than the evaluator fills
        return
    for deal, row in zip(deals, shares, strict=True):
        expected = settle(rs, deal_of(rs, deal, [False] * players, declare)).fractions
        assert np.allclose(row, [float(f) for f in expected]), (deal, row.tolist(), expected)


def check_deal_odds(s: Subject) -> None:
    """Exact odds with each player's last card to come equal every completion settled."""
    game = s.spec.game
    assert game is not None
    if game.get("extra") or int(game.get("boards", 1)) > 1 or int(game.get("runs", 1)) > 1:
        return  # an extra card may be drawn, or a board dealt twice: sampled, not listed
    deal = _deal(s, 2)
    if deal is None:
        return
    known = [" ".join(card for card, _ in cards[:-1]) for cards in deal.seats]
    board = " ".join(deal.boards[0])
    left = list(s.deck)
    for card in " ".join([*known, board]).split():
        left.remove(card)
    if len(left) * (len(left) - 1) > ODDS_DEALS:
        return
    try:
        result = s.ruleset.odds(known, board=board, declare=deal.declarations)
    except PokerRulesError as problem:
        assert problem.first.code in ("C105", "G125"), problem
        return
    assert result.method == "exact", result.method
    totals = [Fraction(0), Fraction(0)]
    count = 0
    for first, second in permutations(left, 2):
        texts = [f"{known[0]} {first}".strip(), f"{known[1]} {second}".strip()]
        try:
            shown = s.ruleset.deal_showdown(texts, [board] if board else [], deal.declarations)
        except PokerRulesError as problem:
            assert problem.first.code == "C105", problem  # odds met the same bound, or a luckier deal
            return
        totals = [t + Fraction(f) for t, f in zip(totals, shown.fractions, strict=True)]
        count += 1
    assert result.deals == count, (result.deals, count)
    for player, total in zip(result.players, totals, strict=True):
        assert abs(player.equity - float(total / count)) < 1e-9, (known, board, player.equity, float(total / count))


def _cli_ok(argv: list[str], stdin: str = "") -> str | None:
    """Run the command line: an answer (stdout), or None for a coded refusal (or a usage
    error: more players than the deck deals)."""
    code, out, err = run_cli(argv, stdin)
    assert code in (0, 1, 2), (argv, code, err)
    if code:
        said = (" error ", '"error"') if code == 1 else ("pokerrules ",)
        assert any(word in err for word in said) and "Traceback" not in err, (argv, err)
        return None
    return out


def check_deal_cli(s: Subject) -> None:
    """showdown (arguments and --from), odds, compare and eval on the command line: the API's answers
    or a coded refusal; stats, chart and diff run."""
    assert s.spec.game is not None
    path = str(s.path)
    boards = int(s.spec.game.get("boards", 1))
    lines, expected, shown = [], [], []
    for _ in range(4):
        deal = _deal(s, 2)
        if deal is None:
            continue
        texts = [deal.seat_text(seat, s.rng.random() < 0.5) for seat in range(2)]
        runs = _boards(deal, boards)
        declare = f" ; declare: {' '.join(deal.declarations)}" if deal.declarations else ""
        try:
            expected.append(s.ruleset.deal_showdown(texts, runs, deal.declarations).winners)
        except PokerRulesError as problem:
            assert problem.first.code == "C105", problem  # more wild cards than the evaluator fills
            continue
        lines.append(" | ".join(texts) + "".join(f" ; {b}" for b in runs) + declare)
        shown.append((texts, runs, deal.declarations or []))
    if lines:
        out = _cli_ok(["showdown", path, "--from", "-", "--json"], "\n".join(lines) + "\n")
        assert out is not None and [json.loads(row)["winners"] for row in out.splitlines()] == expected
        first, runs, declared = shown[0]
        argv = ["showdown", path, *first, "--json", *[x for board in runs for x in ("--board", board)]]
        out = _cli_ok(argv + (["--declare", *declared] if declared else []))
        assert out is not None and json.loads(out)["winners"] == expected[0], (argv, out)
        _cli_ok(["compare", path, *first])
        try:
            s.ruleset.explain(first[0], first[1])
        except PokerRulesError as problem:
            assert problem.first.code[0] in "CG", problem
    partial = _deal(s, 2)
    if partial is not None:
        known = [" ".join(card for card, _ in cards[:-1]) or "random" for cards in partial.seats]
        odds = ["odds", path, *known, "--samples", "100", "--seed", "1", "--json"]
        if partial.declarations:
            odds += ["--declare", *partial.declarations]
        _cli_ok(odds)
    hand = " ".join(s.deal(s.ruleset.hand_size)[0])
    _cli_ok(["eval", path, hand])
    _cli_ok(["stats", path, "--samples", "40", "--players", "2", "--json"])
    chart = ["chart", path, "--hands", "2", "--samples", "20", "--seed", "1", "--json"]
    strategies = _declarations(s, 2)
    _cli_ok(chart + (["--declare", *strategies] if strategies else []))
    _cli_ok(["diff", path, "standard", "--samples", "60", "--json"])
