"""Dealer's-choice games: hand-built deals checked by hand, for each rule the deal triggers.

Every expected winner and share below was worked out by hand from the rule
text quoted in the catalogue file (the comments say how). The deals are read
in dealing order; errors must name the card's column.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from evaluator import load
from evaluator.core.errors import PokerRulesError
from evaluator.deal.deal import read_deal
from evaluator.deal.judge import deal_of
from evaluator.deal.settle import settle
from evaluator.rules.load import load_document
from evaluator.ruleset import build_ruleset


def _rules(tmp_path: Path, text: str, name: str = "house") -> object:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return build_ruleset(load_document(path), path)


def _settle(
    name: str,
    players: list[str],
    boards: list[str] | None = None,
    declare: list[str] | None = None,
    pot: int | None = None,
):  # type: ignore[no-untyped-def]
    rules = load(name)
    return settle(rules, read_deal(rules, players, boards or [], declare), pot)


# --- Follow the Queen ---------------------------------------------------------------------------


def test_the_card_after_the_last_face_up_queen_is_wild_for_everyone() -> None:
    # Qh is player 1's third-street card, 6d player 2's right after it: sixes are wild.
    result = _settle("follow-the-queen", ["(2c 9c) Qh 8s 7s 3d (9d)", "(Kc Kh) 6d Ks 2h 5d (5h)"])
    assert [sorted(ranks) for ranks in result.resolutions[0].added] == [["6"], ["6"]]
    assert result.winners == [1]
    second = result.halves[0].hands[1]
    assert second is not None and second.category == "four_of_a_kind" and second.wilds == {"6d": "Kd"}
    reasons = result.wild_reasons(result.halves[0], 1)
    assert reasons == ["6d: sixes are wild: 6d was dealt face up to player 2 right after Qh to player 1 (wild.follow)"]
    assert result.wild_reasons(result.halves[0], 0) == ["Qh: queens are wild in every deal (wild.follow)"]


def test_a_queen_as_the_last_face_up_card_leaves_only_queens_wild() -> None:
    # Player 2's sixth-street Qs is the last card dealt face up: no rank follows, so player 1's
    # 6c is a plain six (three nines with Qh) and player 2's six-high straight wins.
    last = _settle("follow-the-queen", ["(6c 9c) Qh 9s 7s 3d (2c)", "(Kc 4h) 6d Ks 2h Qs (5h)"])
    assert last.resolutions[0].added == (frozenset(), frozenset())
    assert "Qs to player 2 was the last card dealt face up" in last.resolutions[0].notes[0].text
    assert last.winners == [1]
    # The same deal with a jack there: sixes follow Qh, player 1 has four nines and wins.
    jack = _settle("follow-the-queen", ["(6c 9c) Qh 9s 7s 3d (2c)", "(Kc 4h) 6d Ks 2h Js (5h)"])
    assert jack.winners == [0]
    hand = jack.halves[0].hands[0]
    assert hand is not None and hand.category == "four_of_a_kind"


def test_a_later_queen_cancels_the_earlier_follower_and_face_down_queens_do_not_trigger() -> None:
    # Up cards in order: Qh (p1), 6d (p2) -> sixes; 8s, Qs (p2) -> cancelled; 7s (p1) -> sevens.
    # Player 2's Qc in the hole triggers nothing.
    result = _settle("follow-the-queen", ["(2c 9c) Qh 8s 7s 3d (9d)", "(Qc Kh) 6d Qs 2h 5d (5h)"])
    assert result.resolutions[0].added == (frozenset({"7"}), frozenset({"7"}))


def test_a_folded_players_face_up_cards_still_count() -> None:
    # Qc (p2) is followed by 7c, dealt to player 3 before they folded: sevens are wild.
    result = _settle("follow-the-queen", ["(7d As) Ah 9c 4s Jd (2c)", "(9h 9d) Qc Kd 5s 3c (8h)", "fold: (Jc Js) 7c"])
    assert result.resolutions[0].added[0] == frozenset({"7"})
    assert result.winners == [0] and result.folded == [False, False, True]
    assert result.halves[0].hands[2] is None and result.fractions[2] == 0


def test_house_variants_holder_and_natural_queens(tmp_path: Path) -> None:
    holder = _rules(
        tmp_path,
        "name: holder\nextends: follow-the-queen\nwild: {follow: {rank: Q, follower: holder}}\n",
    )
    deal = ["(2c 9c) Qh 8s 7s 3d (9d)", "(Kc Kh) 6d Ks 2h 5d (5h)"]
    result = settle(holder, read_deal(holder, deal))  # type: ignore[arg-type]
    assert result.resolutions[0].added == (frozenset(), frozenset({"6"}))  # sixes for player 2 only
    natural = _rules(
        tmp_path,
        "name: natural\nextends: follow-the-queen\nwild: {follow: {rank: Q, trigger_wild: false}}\n",
    )
    assert "Q" not in natural.wild.ranks  # type: ignore[attr-defined]
    found = settle(natural, read_deal(natural, deal))  # type: ignore[arg-type]
    hand = found.halves[0].hands[0]
    assert hand is not None and hand.category == "pair" and not hand.wilds  # the queen of hearts is a queen


# --- Baseball -----------------------------------------------------------------------------------


def test_a_four_dealt_face_up_gives_an_extra_card_at_once() -> None:
    # 4h up on third street: Ac comes at once, face down; with the wild 9d, three aces beat three kings.
    result = _settle("baseball", ["(Ah Kd) 4h (Ac) 7c 9d 2s (8h)", "(Kh Ks) 5c Kc 7d Jd (2h)"])
    assert result.winners == [0]
    assert [str(card) for card in result.players[0]] == ["Ah", "Kd", "4h", "Ac", "7c", "9d", "2s", "8h"]
    assert result.dealt[0] == "(Ah Kd) 4h (Ac) 7c 9d 2s (8h)"
    assert result.resolutions[0].extras == ("4h, dealt face up to player 1, gave an extra card: Ac (face down)",)
    # written without faces, the streets and the four place every card the same way
    plain = _settle("baseball", ["Ah Kd 4h Ac 7c 9d 2s 8h", "Kh Ks 5c Kc 7d Jd 2h"])
    assert plain.dealt == result.dealt and plain.winners == [0]


def test_a_face_down_four_buys_nothing_and_a_missing_extra_card_is_reported() -> None:
    with pytest.raises(PokerRulesError) as raised:
        read_deal(load("baseball"), ["(4c 3d) 8h 8c Ts 2d (Jc) 5s", "(Qc Qd) 7h 7s Td 2c (Ac)"])
    assert raised.value.code == "G119" and raised.value.first.col == 26  # 5s, one card too many
    with pytest.raises(PokerRulesError) as raised:
        read_deal(load("baseball"), ["(Ah Kd) 4h 7c 9d 2s (8h)", "(Kh Ks) 5c Kc 7d Jd (2h)"])
    # after 4h comes the extra card, face down: 7c is written face up there
    assert raised.value.code == "G119" and raised.value.first.col == 12
    assert "marked face up" in raised.value.first.message


def test_extra_cards_dealt_face_up_can_chain(tmp_path: Path) -> None:
    chain = _rules(tmp_path, "name: chain\nextends: baseball\ngame: {extra: [{rank: 4, face: up, gives: up}]}\n")
    # 4h up gives 4c up at once, which gives 7c up: nine cards
    deal = read_deal(chain, ["(Ah Kd) 4h 4c 7c 9d 2s 5d (6d)", "(Kh Ks) 5c Kc 7d Jd (2h)"])  # type: ignore[arg-type]
    extra = [d.extra for d in deal.runs[0].seats[0]]
    assert extra == [False, False, False, True, True, False, False, False, False]


# --- Chicago ------------------------------------------------------------------------------------


def test_the_highest_spade_in_the_hole_takes_half_the_pot() -> None:
    # The ace of spades face up does not count: player 2's king of spades in the hole wins the spade half.
    result = _settle("chicago", ["(Ah 2c) As Ad 7c 5h (9d)", "(Ks Qd) Jc 8d 6h 3c (4h)"], pot=11)
    assert result.fractions == [Fraction(1, 2), Fraction(1, 2)]
    assert result.shares == [6, 5]  # the odd chip to the first half (high)
    spade = result.halves[1]
    assert spade.winners == [1] and [str(c) if c else None for c in spade.best] == [None, "Ks"]  # type: ignore[attr-defined]


def test_chicago_scoops_and_the_missing_spade() -> None:
    both = _settle("chicago", ["(Ah Qs) As Ad 7c 5h (9d)", "(Kd Qd) Jc 8d 6h 3c (4h)"], pot=10)
    assert both.shares == [10, 0]
    nobody = _settle("chicago", ["(Ah 2c) As Ad 7c 5h (9d)", "(Kd Qd) Jc 8d 6h 3c (4h)"], pot=11)
    assert nobody.shares == [11, 0] and nobody.halves[1].winners == []


def test_low_chicago_takes_the_lowest_spade_aces_high() -> None:
    result = _settle("low-chicago", ["(As Kh) Ah Ad 7c 5h (9d)", "(9s Qd) Jc 8d 6h 3c (4h)"], pot=10)
    assert result.halves[1].winners == [1] and result.shares == [5, 5]


# --- hi-lo declare ------------------------------------------------------------------------------


def test_a_declare_split() -> None:
    result = _settle(
        "stud-hi-lo-declare", ["(As 2d) 3c 4h 5s 9d (Kc)", "(Kd Ks) Kh 7c 7d 2s (Qc)"], declare=["low", "high"], pot=10
    )
    assert result.shares == [5, 5] and result.halves[0].winners == [1] and result.halves[1].winners == [0]


def test_declaring_both_and_losing_one_way_forfeits_everything() -> None:
    result = _settle(
        "stud-hi-lo-declare", ["(As 2d) 3c 4h 5s 9d (Kc)", "(Kd Ks) Kh 7c 7d 2s (Qc)"], declare=["both", "high"], pot=10
    )
    assert result.eliminated == [0] and result.shares == [0, 10]


def test_a_tie_for_a_swing_player(tmp_path: Path) -> None:
    # Both players hold the same wheel for low; player 1 declares both and wins high outright.
    deal = ["(As 2d) 3c 4h 5s Kd (Kc)", "(Ah 2c) 3d 4s 5h 9c (7d)"]
    strict = settle(load("stud-hi-lo-declare"), read_deal(load("stud-hi-lo-declare"), deal, [], ["both", "low"]), 10)
    assert strict.eliminated == [0] and strict.shares == [0, 10]  # both: win -- a tie loses
    lenient = _rules(tmp_path, "name: lenient\nextends: stud-hi-lo-declare\ngame: {declare: {both: win_or_tie}}\n")
    found = settle(lenient, read_deal(lenient, deal, [], ["both", "low"]), 10)  # type: ignore[arg-type]
    # high 5 to player 1, low 5 split: the odd chip of a low half to the lowest card by suit, player 2's Ah
    assert found.eliminated == [] and found.shares == [7, 3]


def test_declarations_are_checked() -> None:
    rules = load("stud-hi-lo-declare")
    deal = ["(As 2d) 3c 4h 5s 9d (Kc)", "(Kd Ks) Kh 7c 7d 2s (Qc)"]
    for declare, text in (
        (None, "give each player's declaration"),
        (["low"], "2 players"),
        (["low", "middle"], "not a declaration"),
    ):
        with pytest.raises(PokerRulesError) as raised:
            read_deal(rules, deal, [], declare)
        assert raised.value.code == "G120" and text in raised.value.first.message
    with pytest.raises(PokerRulesError) as raised:
        read_deal(load("chicago"), deal, [], ["high", "spade"])
    assert raised.value.code == "G120"


# --- run it twice -------------------------------------------------------------------------------


def test_run_it_twice_splits_the_pot_between_the_runs() -> None:
    result = _settle("holdem-run-it-twice", ["Ah As", "Kh Kd"], ["2c 7d 9h Js 3s", "Kc 8d 4h 5s Tc"], pot=101)
    assert result.shares == [51, 50] and result.fractions == [Fraction(1, 2), Fraction(1, 2)]
    flop = _settle("holdem-run-it-twice", ["Ah As", "Kh Kd"], ["Ac 7d 9h Ks 2c", "Ac 7d 9h 4c 4d"], pot=10)
    assert flop.shares == [10, 0]
    once = _settle("holdem-run-it-twice", ["Ah As", "Kh Kd"], ["2c 7d 9h Js 3s"], pot=10)
    assert once.shares == [10, 0]


def test_the_runs_share_only_the_cards_dealt_before_them() -> None:
    rules = load("holdem-run-it-twice")
    with pytest.raises(PokerRulesError) as raised:
        read_deal(rules, ["Ah As", "Kh Kd"], ["Ac 7d 9h Ks 2c", "Ac 7d 9h 2c 4d"])
    assert raised.value.code == "G104" and raised.value.first.source == "<board 2>" and raised.value.first.col == 10
    with pytest.raises(PokerRulesError) as raised:
        read_deal(rules, ["Ah As", "Kh Kd"], ["2c 7d 9h Js 3s", "Kc 8d 4h 5s Tc", "6c 6d 6h 6s 5c"])
    assert raised.value.code == "G108"


# --- Low Hole Wild and Kings and Little Ones -----------------------------------------------------


def test_each_players_lowest_hole_card_is_wild_for_that_player_only() -> None:
    result = _settle("low-hole-wild", ["(3c Td) 3h 8s 8d Ah (Jc)", "(2h 5d) Kc Ks 3d 2s (Ad)"])
    assert result.resolutions[0].added == (frozenset({"3"}), frozenset({"2"}))
    first, second = result.halves[0].hands
    assert first is not None and first.category == "four_of_a_kind"
    assert (
        second is not None and second.category == "straight_flush" and "3d" not in second.wilds
    )  # p2's three is natural
    assert result.winners == [1]


def test_kings_and_little_ones_is_lowest_card_wild_over_the_whole_hand() -> None:
    rules = load("kings-and-little-ones")
    assert not rules.by_deal  # the rule needs no deal: every card held counts
    hand = rules.evaluate("Kh Ks 8c 8d Ts Jh Ac")  # kings, and the eights (lowest natural) are wild
    assert hand.category == "five_of_a_kind"


# --- reading deals ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code", "col"),
    [
        ("(As Kd 7c Qh 6d 2s 3c", "G119", 1),  # never closed
        ("(As (Kd)) 7c Qh 6d 2s (3c)", "G119", 5),  # nested
        ("As Kd) 7c Qh 6d 2s 3c", "G119", 6),
        ("As Kd ?? Qh 6d 2s 3c", "G121", 7),  # a showdown needs every card
        ("As Kd 7c Qh 6d 2s 3x", "C101", 19),
        ("(As Kd 7c) Qh 6d 2s (3c)", "G119", 8),  # 7c is dealt face up
    ],
)
def test_deal_errors_name_the_column(text: str, code: str, col: int) -> None:
    with pytest.raises(PokerRulesError) as raised:
        read_deal(load("follow-the-queen"), [text, "9s 9d 5c 5d 4c 4d Jh"])
    assert (raised.value.code, raised.value.first.col) == (code, col), str(raised.value)


def test_a_plain_path_refuses_a_game_settled_by_the_deal() -> None:
    from evaluator.engine.showdown import showdown

    with pytest.raises(PokerRulesError) as raised:
        showdown(load("follow-the-queen"), ["2c 9c Qh 8s 7s 3d 9d", "Kc Kh 6d Ks 2h 5d 5h"])
    assert raised.value.code == "G122"
    # the facade reads the hands as a deal
    assert load("follow-the-queen").showdown(["(2c 9c) Qh 8s 7s 3d (9d)", "(Kc Kh) 6d Ks 2h 5d (5h)"]) == [1]


# --- the batch path agrees with the per-deal showdown ---------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "follow-the-queen",
        "baseball",
        "chicago",
        "low-hole-wild",
        "stud-hi-lo-declare",
        "holdem-run-it-twice",
        "follow-the-queen-low-chicago",
    ],
)
def test_the_judge_settles_random_deals_as_the_showdown_does(name: str) -> None:
    import numpy as np

    from evaluator.deal.judge import Judge, deal_of
    from evaluator.deal.sample import Known, random_deals

    rules = load(name)
    players = 3
    declare = ["high", "low", "both"] if rules.game is not None and rules.game.declare else None
    deals = list(random_deals(rules, Known(players), 60, np.random.default_rng(3)))
    shares = Judge(rules, players, declarations=declare).settle(deals).shares
    for deal, row in zip(deals, shares, strict=True):
        expected = settle(rules, deal_of(rules, deal, [False] * players, declare)).fractions
        assert row.tolist() == pytest.approx([float(f) for f in expected])


def test_few_hands_of_a_variant_are_valued_generically_and_meet_table_values_in_one_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A variant's first hands are valued by the generic evaluator (no table build for a few deals),
    the rest on its tables; both kinds of value are placed in one order of strengths, so seats of
    different wild ranks meet as ``settle`` has them meet, whichever way each was valued."""
    import numpy as np

    from evaluator.deal import judge as judging
    from evaluator.deal.sample import Known, random_deals

    rules = load("follow-the-queen")
    deals = list(random_deals(rules, Known(3), 12, np.random.default_rng(3)))
    # whatever the disk cache holds: only tables loaded in this process count as at hand
    monkeypatch.setattr(judging, "tables_at_hand", lambda ruleset: getattr(ruleset, "_cache_tables", None) is not None)
    generic = judging.Judge(rules, 3)
    all_generic = generic.settle(deals)
    assert generic.halves[0] is not None and not generic.halves[0].rankers  # no tables for 36 hands
    monkeypatch.setattr(judging, "GENERIC_HANDS", 5)  # the variants met most go on their tables
    mixed = judging.Judge(rules, 3)
    mixed_settled = mixed.settle(deals)
    half = mixed.halves[0]
    assert half is not None and half.rankers
    assert any(added not in half.rankers for added in half.generic_hands)
    for settled in (all_generic, mixed_settled):
        for deal, row in zip(deals, settled.shares, strict=True):
            expected = settle(rules, deal_of(rules, deal, [False] * 3, None)).fractions
            assert row.tolist() == pytest.approx([float(f) for f in expected])
    # a strength below all the others renumbers every variant's map onto the new order
    half._include([((-1,),)])
    for added, ranker in half.rankers.items():
        assert [half.order[i] for i in half.maps[added]] == list(ranker.tables.strengths)
    assert all_generic.categories.keys() == mixed_settled.categories.keys()
    for name, found in all_generic.categories.items():
        assert (found >= 0).any() and np.array_equal(found, mixed_settled.categories[name])


def test_a_judge_told_how_many_deals_come_puts_a_variant_met_early_on_its_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the number of deals known, a variant's hands so far are projected over all of them: one
    hand in the first of a thousand batches is enough for a build to pay (the run's decision)."""
    import numpy as np

    from evaluator.deal import judge as judging
    from evaluator.deal.sample import Known, random_deals

    monkeypatch.setattr(judging, "tables_at_hand", lambda ruleset: False)
    rules = load("follow-the-queen")
    deals = list(random_deals(rules, Known(3), 4, np.random.default_rng(3)))
    growths: list[float] = []
    decide = judging._Half.on_tables

    def spy(half: judging._Half, added: frozenset[str], hands: int, growth: float = 1.0) -> bool:
        growths.append(growth)
        return False  # no table build in this test: the decision's input is what is checked

    monkeypatch.setattr(judging._Half, "on_tables", spy)
    told = judging.Judge(rules, 3, deals=4_000)
    told.settle(deals[:2])
    assert growths and set(growths) == {2000.0}  # 4,000 deals to come, 2 settled
    growths.clear()
    told.settle(deals[2:])
    assert growths and set(growths) == {1000.0}
    monkeypatch.setattr(judging._Half, "on_tables", decide)
    half = judging._Half(rules, rules, frozenset())
    assert not half.on_tables(frozenset({"2"}), 3)
    assert half.on_tables(frozenset({"2"}), 1, judging.GENERIC_HANDS / 3)  # 4 seen, projected past the bound
    assert not half.on_tables(frozenset({"3"}), judging.GENERIC_HANDS)
    assert half.on_tables(frozenset({"3"}), 1)


# --- the command line ---------------------------------------------------------------------------


def test_showdown_command_says_which_rule_made_which_card_wild(capsys: pytest.CaptureFixture[str]) -> None:
    from evaluator.cli.main import main

    code = main(["showdown", "follow-the-queen", "(2c 9c) Qh 8s 7s 3d (9d)", "(Kc Kh) 6d Ks 2h 5d (5h)", "--pot", "10"])
    out = capsys.readouterr().out
    assert code == 0
    assert "sixes are wild: 6d was dealt face up to player 2 right after Qh to player 1 (wild.follow)" in out
    assert "wild 6d: sixes are wild" in out and "= 10 chips" in out
    code = main(
        [
            "showdown",
            "stud-hi-lo-declare",
            "(As 2d) 3c 4h 5s 9d (Kc)",
            "(Kd Ks) Kh 7c 7d 2s (Qc)",
            "--declare",
            "both",
            "high",
            "--json",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["deal"]["eliminated"] == [0] and data["players"][0]["declared"] == "both"


def test_showdown_from_action_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from evaluator.cli.main import main

    hands = tmp_path / "deals.phh"
    hands.write_text(
        "# sixes follow the queen of hearts\n"
        "d dh p1 2c 9c\nd dh p2 Kc Kh\nd dh p1 Qh\nd dh p2 6d\np1 cbr 10\np2 cc\n"
        "d dh p1 8s\nd dh p2 Ks\nd dh p1 7s\nd dh p2 2h\nd dh p1 3d\nd dh p2 5d\nd dh p1 9d\nd dh p2 5h\n"
        "\n"
        'actions = [\n  "d dh p1 AsAh",\n  "d dh p2 ????",\n  "p2 f",\n  "d dh p1 Kd Kc 2h 3s 4d",\n]\n',
        encoding="utf-8",
    )
    code = main(["showdown", "follow-the-queen", "--from", str(hands), "--json"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0 and [line["winners"] for line in lines] == [[1], [0]]
    assert lines[1]["players"][1]["folded"] is True
    shown = tmp_path / "shown.phh"
    shown.write_text(
        'variant = "NT"\nactions = [\n  "d dh p1 AhAs",\n  "d dh p2 ????",\n  "d db Ac7d9h",\n  "d db Ks",\n'
        '  "d db 2c",\n  "d db 4c4d",  # the second run, from the flop\n  "p2 sm KhKd",\n]\n',
        encoding="utf-8",
    )
    code = main(["showdown", "holdem-run-it-twice", "--from", str(shown), "--pot", "10", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["players"][1]["hole"] == ["Kh", "Kd"]
    assert [run["board"] for run in data["deal"]["runs"]] == [
        ["Ac", "7d", "9h", "Ks", "2c"],
        ["Ac", "7d", "9h", "4c", "4d"],
    ]
    assert data["shares"] == [10, 0]
    bad = tmp_path / "bad.phh"
    bad.write_text("d dh p1 2c 9c\nd dh p2 Kc Kh\nd dx p1 Qh\n", encoding="utf-8")
    code = main(["showdown", "follow-the-queen", "--from", str(bad)])
    err = capsys.readouterr().err
    assert code == 1 and f"{bad}:3:3: error G124" in err


def test_odds_exact_equals_every_completion_settled(tmp_path: Path) -> None:
    """Chicago on seventh street: every pair of down cards, settled one by one, gives the exact odds."""
    from itertools import permutations

    from evaluator.odds.dealt import dealt_odds

    rules = load("chicago")
    hands = ["(As 2d) Ah Ad 7c 5h", "(Ks 3d) 9c 9d 8c 8h"]
    result = dealt_odds(rules, hands)
    assert result.method == "exact"
    used = {str(c) for text in hands for c in rules.cards(text.replace("(", " ").replace(")", " "))}
    left = [str(card) for card in rules.deck if str(card) not in used]
    total = [Fraction(0), Fraction(0)]
    count = 0
    for first, second in permutations(left, 2):
        deal = read_deal(rules, [f"{hands[0]} ({first})", f"{hands[1]} ({second})"])
        fractions = settle(rules, deal).fractions
        total = [t + f for t, f in zip(total, fractions, strict=True)]
        count += 1
    assert result.deals == count
    assert [p.equity for p in result.players] == pytest.approx([float(t / count) for t in total])


def test_beats_exceptions_are_settled_deal_by_deal(tmp_path: Path) -> None:
    """A dealer's-choice game with a non-transitive exception: the judge hands each deal to the showdown."""
    import numpy as np

    from evaluator.deal.judge import Judge, deal_of
    from evaluator.deal.sample import Known, random_deals

    rules = _rules(
        tmp_path,
        "name: italian-queen\nextends: follow-the-queen\n"
        'beats: [{winner: "XX Y Z W & X = lowest", loser: five_of_a_kind}]\n'
        "game: {split: [{name: high}, {name: spade, card: {suit: s}}]}\n",
    )
    deals = list(random_deals(rules, Known(3), 30, np.random.default_rng(5)))  # type: ignore[arg-type]
    settled = Judge(rules, 3).settle(deals)  # type: ignore[arg-type]
    for index, deal in enumerate(deals):
        result = settle(rules, deal_of(rules, deal, [False] * 3, None))  # type: ignore[arg-type]
        assert settled.shares[index].tolist() == pytest.approx([float(f) for f in result.fractions])
        total = settled.halves["high"][index] + settled.halves["spade"][index]
        assert total.tolist() == pytest.approx(settled.shares[index].tolist())


# --- odds, stats, chart, diff and compare on the command line ----------------------------------

ROOT = Path(__file__).resolve().parents[1]


def _schema(name: str) -> dict[str, object]:
    loaded: dict[str, object] = json.loads((ROOT / "docs" / "json" / name).read_text(encoding="utf-8"))
    return loaded


def test_odds_stats_chart_and_compare_commands(capsys: pytest.CaptureFixture[str]) -> None:
    from jsonschema import validate

    from evaluator.cli.main import main

    assert (
        main(["odds", "follow-the-queen", "(As Ad) Qh", "(?? ??) 6d", "--samples", "300", "--seed", "1", "--json"]) == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["method"] == "sampled" and data["deals"] == 300 and data["seed"] == 1
    assert sum(player["equity"] for player in data["players"]) == pytest.approx(1.0)
    assert (
        main(["odds", "stud-hi-lo-declare", "(As 2d) 3c 4h 5s 9d", "(Kd Ks) Kh 7c 7d 2s", "--declare", "low", "high"])
        == 0
    )
    assert "exact, 1,560 deals" in capsys.readouterr().out
    assert main(["odds", "follow-the-queen", "As Ad Qh", "Kd Kc 9h", "--declare", "high", "low"]) == 1
    assert "G120" in capsys.readouterr().err
    assert main(["stats", "chicago", "--samples", "100", "--players", "3", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    validate(stats, _schema("stats.schema.json"))
    assert stats["deal"]["players"] == 3 and stats["deals"] == 300
    assert main(["stats", "chicago", "--players", "0"]) == 2
    assert main(["stats", "chicago", "--seed", "-1"]) == 1 and "O118" in capsys.readouterr().err
    assert main(["chart", "holdem-run-it-twice", "--hands", "2", "--samples", "50", "--seed", "1", "--json"]) == 0
    chart = json.loads(capsys.readouterr().out)
    validate(chart, _schema("chart.schema.json"))
    assert [cell["deals"] for cell in chart["cells"]] == [50, 50]
    assert chart["deal_rules"] == [
        "after an all-in the rest of the board is dealt 2 times, the pot split between the runs (game.runs)"
    ]
    assert main(["compare", "follow-the-queen", "(2c 9c) Qh 8s 7s 3d (9d)", "(Kc Kh) 6d Ks 2h 5d (5h)"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("deal: sixes are wild: 6d was dealt face up to player 2") and "second hand wins" in text


def test_a_stud_chart_keeps_the_dealing_order() -> None:
    """Which of the first three cards is face up matters: the starting hands are never sorted."""
    from evaluator.odds.dealt_chart import draw_dealt_hands

    hands, _, _ = draw_dealt_hands(load("follow-the-queen"), 40, seed=3)
    ups = [hand.name.split(") ")[1] for hand in hands]
    order = "23456789TJQKA"
    lowest = [
        min(hand.name.replace("(", "").replace(")", "").split(), key=lambda c: order.index(c[0])) for hand in hands
    ]
    assert any(up != low for up, low in zip(ups, lowest, strict=True))


def test_diff_settles_each_game_on_the_same_deal() -> None:
    from evaluator.rules.cards import parse_cards
    from evaluator.tools.game_sample import combined_shape, pot_shares

    ftq, stud = load("follow-the-queen"), load("seven-card-stud")
    deal = ([parse_cards("6c 9c Qh 9s 7s 3d 9d"), parse_cards("Kc Kh 6d Ks 2h 5d 5h")], [[]])
    shape = combined_shape(ftq, stud)
    # sixes follow the queen: five nines; in plain stud the kings full win
    assert pot_shares(ftq, deal, shape) == [1, 0]
    assert pot_shares(stud, deal, shape) == [0, 1]


@pytest.mark.parametrize(
    "name",
    ["follow-the-queen", "baseball", "low-hole-wild", "holdem-run-it-twice", "low-chicago", "stud-hi-lo-declare"],
)
def test_the_game_share_settles_deals_together_as_one_by_one(name: str) -> None:
    """``diff``'s game deals of a dealer's-choice game are settled many at a time on the variants'
    tables: the same exact fractions as settling each deal (declare games stay deal by deal)."""
    import random

    from evaluator.tools.diff import common_deck
    from evaluator.tools.game_sample import Settler, combined_shape, pot_shares

    a, b = load("standard"), load(name)
    shape = combined_shape(a, b)
    deck, rng = common_deck(a, b), random.Random(5)
    need = 2 * shape.hole + shape.boards * shape.board
    deals = []
    for _ in range(120):
        cards = rng.sample(deck, need)
        rest = cards[2 * shape.hole :]
        holes = [cards[: shape.hole], cards[shape.hole : 2 * shape.hole]]
        deals.append((holes, [rest[i * shape.board : (i + 1) * shape.board] for i in range(shape.boards)]))
    settler = Settler(b, shape, total=len(deals))
    assert (settler.judge is None) == (name == "stud-hi-lo-declare")
    together = settler.shares(deals[:70]) + settler.shares(deals[70:])
    one_by_one = [pot_shares(b, deal, shape) for deal in deals]
    assert together == one_by_one
    assert all(isinstance(share, Fraction) for row in together for share in row)
    if name in ("holdem-run-it-twice", "low-chicago"):  # halves and runs: splits, not only whole pots
        assert len({share for row in together for share in row}) > 2


def test_the_showdown_help_examples_run(capsys: pytest.CaptureFixture[str]) -> None:
    """Every example of ``showdown --help`` that reads no file runs (one named a ruleset not in the catalogue)."""
    import shlex

    from evaluator.cli.main import main

    assert main(["showdown", "--help"]) == 0
    examples = [line.strip()[2:] for line in capsys.readouterr().out.splitlines() if line.strip().startswith("$ ")]
    runnable = [shlex.split(line)[1:] for line in examples if "--from" not in line]
    assert any("--declare" in argv for argv in runnable)
    for argv in runnable:
        assert main(argv) == 0, (argv, capsys.readouterr().err)


def test_the_variants_of_a_game_share_one_memo_and_play_as_rulesets_of_their_own(tmp_path: Path) -> None:
    """A deal's variants differ only in which cards are wild, so they classify hand classes through
    their family's memo; each still plays every hand as a ruleset written with its wild ranks."""
    import random

    from evaluator.deal.variant import variant
    from evaluator.engine.evaluate import engine_for
    from evaluator.rules.cards import Card

    family = load("follow-the-queen")
    sixes, nines = variant(family, frozenset({"6"})), variant(family, frozenset({"9"}))
    assert engine_for(sixes).classify is engine_for(nines).classify is engine_for(family).classify
    rng = random.Random(4)
    deck = [Card(rank, suit) for rank in family.deck_ranks for suit in family.suits]
    holdings = [rng.sample(deck, 7) for _ in range(300)]
    for added, shared in (("6", sixes), ("9", nines)):
        path = tmp_path / f"written-{added}.yaml"
        path.write_text(
            f"name: written\nextends: follow-the-queen\nwild: {{ranks: [Q, '{added}'], follow: null}}\n",
            encoding="utf-8",
        )
        written = engine_for(load(path))
        for cards in holdings:
            mine, theirs = engine_for(shared).evaluate(cards), written.evaluate(cards)
            assert (mine.category, mine.strength) == (theirs.category, theirs.strength), cards
