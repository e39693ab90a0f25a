"""The per-call fast path: right answers, the same answers as the generic engine.

The generic evaluator (``Engine.evaluate``, ``top_cycle`` over generic hands,
``read_cards_slowly``) is the reference here; the fast path must agree with it
on every catalogue ruleset, and refuse what it refuses with the same errors.
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from evaluator import load
from evaluator.cli.main import main
from evaluator.compiled.fasthand import showdown
from evaluator.compiled.table_layout import card_model
from evaluator.core.errors import CardError, PokerRulesError, RulesetError
from evaluator.core.resources import catalogue_names
from evaluator.engine.cardread import read_cards, read_cards_slowly
from evaluator.engine.showdown import compare
from evaluator.engine.showdown import showdown as engine_showdown
from evaluator.rules.build import load_rules
from evaluator.rules.cards import Card
from evaluator.ruleset import Ruleset
from evaluator.tools.check import check_paths

CATALOGUE = catalogue_names()


def deal(rs: Ruleset, k: int, rng: random.Random) -> list[Card]:
    """``k`` distinct cards of the deck (one pack's worth of each)."""
    return rng.sample(list(rs.deck), k)


def generic_compare(rs: Ruleset, a: list[Card], b: list[Card]) -> int:
    engine = rs.engine
    return compare(rs, engine.evaluate(a), engine.evaluate(b))  # Hands: the generic comparison


# --- 1. the wrong answers of the fast path --------------------------------------------------


def test_showdown_enforces_hand_min() -> None:
    with pytest.raises(CardError) as raised:
        load("standard").showdown(["As Ah Ad Ac", "Kd Kh Qc Jc 9s"])
    assert raised.value.code == "C104"
    assert raised.value.first.source == "<hand 1>"


def test_encode_refuses_repeats_and_bad_ids_by_position() -> None:
    rs = load("standard")
    with pytest.raises(CardError) as raised:
        rs.encode("As As As As Kd")
    assert (raised.value.code, raised.value.first.col) == ("C103", 4)
    with pytest.raises(CardError) as raised:
        rs.encode([0, 4, 8, 12, 4])
    assert (raised.value.code, raised.value.first.col) == ("C103", 5)
    with pytest.raises(CardError) as raised:
        rs.encode([0, 4, 99])
    assert (raised.value.code, raised.value.first.col) == ("C102", 3)
    assert "id 99" in raised.value.first.message
    # ids, Card objects and text are the same cards
    assert (
        rs.encode([48, 44, 40, 36, 32])
        == rs.encode("As Ks Qs Js Ts")
        == rs.encode([Card("A", "s"), "Ks", "Qs", "Js", "Ts"])
    )


def test_rank_names_values_that_are_not_codes() -> None:
    rs = load("standard")
    with pytest.raises(CardError) as raised:
        rs.rank([0, 1, 2, 3, 4])
    problem = raised.value.first
    assert problem.code == "C102"
    assert "not codes of standard" in problem.message and "0 cards" not in problem.message
    codes = rs.encode("As Kd Qh Jc 9s")
    with pytest.raises(CardError) as raised:
        rs.rank(codes[:3])
    assert raised.value.code == "C104" and "3 cards given" in raised.value.first.message


@pytest.mark.parametrize("card_id", range(52))
def test_rank_many_refuses_five_of_one_card(card_id: int) -> None:
    rs = load("standard")
    with pytest.raises(CardError) as raised:
        rs.rank_many(np.full((2, 5), card_id))
    assert (raised.value.code, raised.value.first.line, raised.value.first.col) == ("C103", 1, 2)


def test_rank_many_names_the_hand_and_card_of_a_bad_id() -> None:
    rs = load("standard")
    ids = np.array([[0, 4, 8, 12, 16], [0, 4, 8, 12, -3]])
    with pytest.raises(CardError) as raised:
        rs.rank_many(ids)
    assert (raised.value.code, raised.value.first.line, raised.value.first.col) == ("C102", 2, 5)
    with pytest.raises(CardError) as raised:
        rs.rank_many(np.array([[0, 4, 8, 12, 16], [1, 5, 9, 1, 17]]))
    assert (raised.value.code, raised.value.first.line, raised.value.first.col) == ("C103", 2, 4)
    # wild cards given as encode() codes share one code and are never repeats
    wild = load("deuces-wild")
    codes = np.array([wild.encode("2s 2h 2d 2c As")])
    assert wild.rank_many(codes)[0] == wild.rank(wild.encode("2s 2h 2d 2c As"))


def test_compare_refuses_a_hand_of_another_ruleset() -> None:
    foreign = load("deuces-wild").evaluate("2s 2h 3c 4d 5s")
    with pytest.raises(TypeError, match="deuces-wild"):
        load("standard").compare(foreign, "As Ks Qs Js Ts")


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


RULE = "name: {name}\ndeck: {{copies: {copies}, jokers: {jokers}}}\nhand: {{size: {size}}}\n" + (
    "categories:\n  flush: {{pattern: flush}}\n  other: {{pattern: not flush}}\norder: [flush, other]\n"
)


def test_every_deck_and_hand_size_fits_the_tables_or_check_refuses_it(tmp_path: Path) -> None:
    refused = []
    for size in range(5, 11):
        for copies in range(1, 9):
            for jokers in range(3):
                name = f"r{size}-{copies}-{jokers}"
                path = write(tmp_path, name, RULE.format(name=name, copies=copies, jokers=jokers, size=size))
                rs = load_rules(path, kind=Ruleset)  # built as the tables see it; load refuses R104 too
                try:
                    card_model(rs)
                except RulesetError as problem:  # never a bare ValueError
                    assert problem.code == "R104"
                    refused.append((size, copies, jokers))
                    with pytest.raises(RulesetError, match="R104"):
                        load(path)
    assert (10, 8, 0) in refused and (5, 1, 0) not in refused
    size, copies, jokers = refused[0]
    diagnostics, _ = check_paths([str(tmp_path / f"r{size}-{copies}-{jokers}.yaml")])
    assert any(d.code == "R104" and d.severity == "error" for d in diagnostics)
    fine, _ = check_paths([str(tmp_path / "r5-1-0.yaml")])
    assert not any(d.code == "R104" for d in fine)


def test_many_wild_ranks_refuse_only_the_hands_the_engine_refuses(tmp_path: Path) -> None:
    text = (
        RULE.format(name="jokers-and-ranks", copies=1, jokers=2, size=7)
        # eight wild ranks: few natural classes, so the tables stay within the build limit (R130)
        + "wild: {ranks: [2, 3, 4, 5, 6, 7, 8, 9], jokers: true}\n"
    )
    rs = load(write(tmp_path, "jokers-and-ranks", text))
    plain = "As Kd Qh Jc Ts Ah Kc"
    assert rs.rank(rs.encode(plain)) >= 0  # no wild card: no C105
    assert rs.evaluate(plain).category == "other"
    seven_wild = "2s 2d 2h 2c 3s 3d X"
    for call in (
        lambda: rs.rank(rs.encode(seven_wild)),
        lambda: rs.engine.evaluate(rs.cards(seven_wild)),
        lambda: rs.rank_many(np.array([rs.encode(seven_wild)])),
    ):
        with pytest.raises(CardError) as raised:
            call()
        assert raised.value.code == "C105"


# --- 2. card reading: the fast reader says what the full reader says --------------------------


@pytest.mark.parametrize(
    "text",
    [
        "As Kd Qh Jc Ts",
        "as KD 10h jC ts",
        "A♠ K♥ 10♦",
        "♠A ♥K",
        "As,Kd",
        "AsKd",
        "X",
        "X X2",
        "X1 X2 As",
        "As Zz Kd",
        "As Kd Q",
        "As As",
        "1h",
        "As K-d",
        "Xs",
        "",
        "X3",
        "As Kd Qh Jc Ts " * 3,
    ],
)
@pytest.mark.parametrize(
    "name", ["standard", "joker-wild", "short-deck", "two-packs" if "two-packs" in CATALOGUE else "standard"]
)
def test_fast_reading_matches_the_full_reader(name: str, text: str) -> None:
    rs = load(name)
    try:
        expected: object = read_cards_slowly(rs, text)
    except PokerRulesError as problem:
        expected = str(problem)
    try:
        got: object = read_cards(rs, text)
    except PokerRulesError as problem:
        got = str(problem)
    assert got == expected


# --- 3. the fast path equals the generic engine on every catalogue ruleset ---------------------


def sizes(rs: Ruleset) -> list[int]:
    if rs.game is not None and (rs.game.use_hole is not None or rs.game.use_board is not None):
        return [rs.hand_size]
    return sorted({max(rs.hand_min, 1), rs.hand_size, rs.hand_size + 1, rs.hand_size + 2})


# freak-hands (a minute of CPU here) runs with --slow: its fast path is held to the generic
# engine in CI by test_tables (every hand class, and random hands)
@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.exhaustive) if n == "freak-hands" else n for n in CATALOGUE]
)
def test_evaluate_and_compare_equal_the_generic_engine(name: str, request: pytest.FixtureRequest) -> None:
    rs = load(name)
    rng = random.Random(f"fast-{name}")
    # 20 hands a size in CI (the generic engine is the cost; test_tables compares every class), 60 with --slow
    for k in sizes(rs):
        for _ in range(60 if request.config.getoption("--slow") else 20):
            cards = deal(rs, k, rng)
            expected = rs.engine.evaluate(cards)
            got = rs.evaluate(cards)
            assert (got.category, got.cards, got.played_as, got.wilds, got.strength, got.describe()) == (
                expected.category,
                expected.cards,
                expected.played_as,
                expected.wilds,
                expected.strength,
                expected.describe(),
            ), " ".join(map(str, cards))
            other = deal(rs, k, rng)
            assert rs.compare(cards, other) == generic_compare(rs, cards, other)
            assert rs.compare(cards, cards) == 0


def generic_showdown(rs: Ruleset, monkeypatch: pytest.MonkeyPatch, *args: object) -> object:
    return engine_showdown(rs, *args)  # type: ignore[arg-type]  # the engine alone: no tables


# games the deal decides (Follow the Queen, Chicago, ...) are settled from deals in dealing order, by
# the deal stage (tests/test_dealers_choice.py), not from a set of cards per player
DEALT_GAMES = {name for name in CATALOGUE if load(name).by_deal}


@pytest.mark.parametrize("name", [name for name in CATALOGUE if name not in DEALT_GAMES])
def test_showdowns_equal_the_generic_engine(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rs = load(name)
    rng = random.Random(f"showdown-{name}")
    game = rs.game
    hole = game.hole if game is not None else rs.hand_size
    board = game.board if game is not None else 0
    boards = game.boards if game is not None and board else 1
    deck = list(rs.deck)
    for _ in range(25):
        players = min(rng.randint(2, 5), (len(deck) - boards * board) // hole)
        cards = rng.sample(deck, players * hole + boards * board)
        holes = [cards[i * hole : (i + 1) * hole] for i in range(players)]
        rest = cards[players * hole :]
        dealt = [rest[i * board : (i + 1) * board] for i in range(boards)]
        given = dealt if boards > 1 else (dealt[0] if board else "")
        fast = showdown(rs, holes, given, pot=101)
        slow = generic_showdown(rs, monkeypatch, holes, given, 101)
        assert (fast.winners, fast.fractions, fast.shares) == (slow.winners, slow.fractions, slow.shares)  # type: ignore[attr-defined]
        assert fast.as_dict() == slow.as_dict()  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "name", ["standard", "deuces-wild", "suits-bridge", "jacks-or-better", "ace-to-five", "lowest-card-wild"]
)
def test_eval_lines_equal_the_generic_hands(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rs = load(name)
    rng = random.Random(f"eval-{name}")
    hands = [deal(rs, rng.choice([rs.hand_size, rs.hand_size + 2]), rng) for _ in range(300)]
    hands += hands[:50]  # the second time round the descriptions come from the cache
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(" ".join(map(str, h)) + "\n" for h in hands)))
    assert main(["eval", name, "-"]) == 0
    out = capsys.readouterr().out.splitlines()
    expected = []
    for cards in hands:
        hand = rs.engine.evaluate(cards)
        extra = "" if hand.qualifies else "  (does not qualify)"
        expected.append(f"{' '.join(hand.cards)}  {hand.category}  {hand.describe()}{extra}")
    assert out == expected


@pytest.mark.slow
@pytest.mark.parametrize("name", CATALOGUE)
def test_compare_equals_the_generic_engine_on_many_deals(name: str, request: pytest.FixtureRequest) -> None:
    rs = load(name)
    rng = random.Random(f"many-{name}")
    k = rs.hand_size
    # 200 deals a ruleset in CI (the generic engine's compare is the cost), 1500 with --slow
    for _ in range(1500 if request.config.getoption("--slow") else 200):
        a, b = deal(rs, k, rng), deal(rs, k, rng)
        assert rs.compare(a, b) == generic_compare(rs, a, b)


def test_generic_answers_keep_to_their_budget_of_calls(tmp_path: Path) -> None:
    """Inside ``generic_answers(rs, n)`` the calls are answered generically even with the tables
    loaded (no per-call closures made for them) until ``n`` are spent; then the tables answer."""
    from evaluator.compiled.fasthand import generic_answers
    from evaluator.compiled.tables import tables_for
    from evaluator.core.resources import rulesets_dir

    path = tmp_path / "house.yaml"
    path.write_text((rulesets_dir() / "four-flush.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    rs = load(str(path))  # a fresh ruleset: no closures made by other tests
    tables_for(rs)
    answers = []
    with generic_answers(rs, 1_000):
        answers += [rs.compare("Ah 9h 7h 4h Kc", "As Ad 7d 4c 2s") for _ in range(10)]
        assert getattr(rs, "_cache_fast_hands", None) is None
    with generic_answers(rs, 3):
        answers += [rs.compare("Ah 9h 7h 4h Kc", "As Ad 7d 4c 2s") for _ in range(10)]
        assert getattr(rs, "_cache_fast_hands", None) is not None
    assert answers == [1] * 20
    with generic_answers(rs):  # closures made already: they answer
        assert rs.compare("As Ad 7d 4c 2s", "Ah 9h 7h 4h Kc") == -1
