"""What ``check`` accepts builds in bounded time: a sweep of hand size x packs x jokers.

A sweep of every hand size (1-10), number of packs (1-8) and jokers (0-2)
through ``check`` and then ``rank`` once ran for minutes: ``check`` accepted
rulesets whose lookup tables take a minute to build (ten-card hands) or
cannot be built at all (suit patterns with several packs). Now the build is
estimated first (:mod:`evaluator.compiled.build_cost`) and refused past the
limit (R130, R131) by ``check`` and by ``rank`` alike, before any work.

The whole grid goes through the estimate; a sample of it through ``check``
and ``rank``, where the hand classes the build really values are counted and
must stay within the estimate (so a bounded estimate is a bounded build).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from evaluator import load
from evaluator.compiled import tables as tables_module
from evaluator.compiled.build_cost import MAX_TABLE_WORK, build_cost, refusal
from evaluator.compiled.table_layout import card_model
from evaluator.core.errors import PokerRulesError
from evaluator.rules.load import parse_yaml
from evaluator.ruleset import build_ruleset
from evaluator.tools.check import check_file

pytestmark = pytest.mark.usefixtures("table_cache")

SIZES, PACKS, JOKERS = range(1, 11), range(1, 9), range(3)


def rules_text(size: int, packs: int, jokers: int, low: int | None = None, suit_pattern: bool = False) -> str:
    """Hands of any size: runs and flushes of the whole hand, and the rest (wild jokers when there are some)."""
    four_flush = '  four_flush: {pattern: "flush(4) & not flush"}\n' if suit_pattern else ""
    return (
        f"name: sweep\n"
        f"deck: {{ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A], suits: [s, h, d, c], copies: {packs}, jokers: {jokers}}}\n"
        f"hand: {{size: {size}, min: {low or size}}}\n"
        "categories:\n"
        '  straight_flush: {pattern: "run & flush"}\n'
        "  flush: {pattern: flush}\n"
        "  straight: {pattern: run}\n"
        f"{four_flush}"
        '  nothing: {pattern: "not (run | flush)"}\n'
        f"order: [straight_flush, flush, straight, {'four_flush, ' if suit_pattern else ''}nothing]\n"
    )


def grid() -> Iterator[tuple[int, int, int]]:
    for size in SIZES:
        for packs in PACKS:
            for jokers in JOKERS:
                yield size, packs, jokers


def test_the_whole_grid_is_estimated_and_only_bounded_builds_are_accepted() -> None:
    verdicts: dict[tuple[int, int, int], str] = {}
    for size, packs, jokers in grid():
        try:  # load and build_ruleset refuse R104 (and R131) as check does
            ruleset = build_ruleset(parse_yaml(rules_text(size, packs, jokers), "<sweep>"))
            model = card_model(ruleset)
        except PokerRulesError as problem:  # R104: the cards do not fit the table keys at all
            verdicts[size, packs, jokers] = problem.code
            continue
        cost = build_cost(ruleset, model)
        found = refusal(ruleset, cost)
        if found is None:
            assert cost.work <= MAX_TABLE_WORK
            verdicts[size, packs, jokers] = "ok"
        else:
            code, message, _ = found
            assert code == "R130" and cost.work > MAX_TABLE_WORK
            assert f"{cost.fills:,} hand classes" in message and f"({cost.work:,} units of work" in message
            verdicts[size, packs, jokers] = code
    by_size = {size: {v for (s, _, _), v in verdicts.items() if s == size} for size in SIZES}
    assert all(by_size[size] == {"ok"} for size in range(1, 6))  # up to five cards: any packs, any jokers
    assert by_size[6] == by_size[7] == {"ok", "R130"}  # six and seven: depends on packs and jokers
    assert by_size[8] == {"R130"} and by_size[9] == by_size[10] == {"R130", "R104"}
    assert verdicts[7, 1, 0] == "ok" and verdicts[7, 1, 2] == verdicts[6, 8, 2] == "R130"


class CountFills:
    """Counts the hand classes a build values through the generic evaluator."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = tables_module._fill  # every valuation of a class goes through it

        def counted(*args: object) -> object:
            self.count += 1
            return real(*args)  # type: ignore[arg-type]

        monkeypatch.setattr(tables_module, "_fill", counted)


@pytest.mark.parametrize(
    ("size", "packs", "jokers", "low"),
    [(1, 1, 0, 1), (3, 8, 2, 1), (4, 2, 1, 4), (5, 2, 0, 5)],
)
def test_accepted_points_build_within_their_estimate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int, packs: int, jokers: int, low: int
) -> None:
    path = tmp_path / "sweep.yaml"
    path.write_text(rules_text(size, packs, jokers, low), encoding="utf-8")
    assert not [d for d in check_file(path) if d.severity == "error"]
    ruleset = load(path)
    cost = build_cost(ruleset, card_model(ruleset))
    fills = CountFills(monkeypatch)
    built = tables_module.build_tables(ruleset)
    assert fills.count == cost.fills  # counted exactly: the estimate is the build's work
    assert sum(len(keys) for k, (keys, _) in built.nf.items() if k > size) == cost.grown
    cards = [str(card) for card in ruleset.deck][:size]
    assert ruleset.rank(ruleset.encode(cards)) >= 0


@pytest.mark.parametrize(
    ("size", "packs", "jokers", "suit_pattern", "code"),
    [(10, 1, 0, False, "R130"), (8, 1, 0, False, "R130"), (7, 3, 2, False, "R130"), (6, 8, 2, False, "R130")]
    + [(5, 2, 0, True, "R131"), (7, 1, 0, True, "R131")],
)
def test_refused_points_are_refused_by_check_and_rank_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int, packs: int, jokers: int, suit_pattern: bool, code: str
) -> None:
    path = tmp_path / "sweep.yaml"
    path.write_text(rules_text(size, packs, jokers, suit_pattern=suit_pattern), encoding="utf-8")
    found = [d for d in check_file(path) if d.severity == "error"]
    assert [d.code for d in found] == [code]
    line = 2 if code == "R131" and packs > 1 else 3  # deck.copies breaks the suit symmetry, else hand.size
    written = path.read_text(encoding="utf-8").splitlines()[line - 1]
    col = written.index("copies: " if line == 2 else "size: ") + len("copies: " if line == 2 else "size: ") + 1
    assert (found[0].line, found[0].col) == (line, col), found[0]
    if code == "R130":
        assert re.search(
            r"valuing [\d,]+ hand classes and growing [\d,]+ more \([\d,]+ units of work", found[0].message
        )
    fills = CountFills(monkeypatch)
    if code == "R131":  # load refuses tables that cannot be built at all, as check does
        with pytest.raises(PokerRulesError) as info:
            load(path)
        assert info.value.code == code and (info.value.first.line, info.value.first.col) == (line, col)
        return
    ruleset = load(path)  # R130 is an estimate of time: left to check and to the first build
    with pytest.raises(PokerRulesError) as info:
        tables_module.build_tables(ruleset)
    assert info.value.code == code and fills.count == 0
    assert (info.value.first.source, info.value.first.line) == (str(path), line)
    monkeypatch.setenv("POKERRULES_TABLE_CACHE", "off")
    with pytest.raises(PokerRulesError) as info:
        ruleset.rank(ruleset.encode([str(card) for card in ruleset.deck][:size]))
    assert info.value.code == code and fills.count == 0


def test_the_shipped_rulesets_are_all_within_the_limits() -> None:
    from evaluator.core.resources import catalogue_names

    for name in catalogue_names():
        ruleset = load(name)
        assert refusal(ruleset, build_cost(ruleset, card_model(ruleset))) is None, name
