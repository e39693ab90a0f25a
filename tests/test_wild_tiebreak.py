"""Wild cards with a suit tie-break: the fast paths agree with the generic engine, which
agrees with a brute force.

Every kind of wild card -- a wild rank (deuces), single cards (one-eyed jacks),
jokers, the bug, the lowest card held -- with each suit tie-break. Such a
ruleset's values carry the suit key above the dense value the generic engine
numbers (``FastRanker.value_scale``); reading them as plain dense values sent
showdowns, categories and draw odds past the end of the tables (an
IndexError from the 33rd call on). The matrix runs on a 20-card deck (ten to
ace, plus a joker where one is wild) so that the tables build in a moment;
the README's ``friday-night`` runs on its full deck in every command.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from conformance.checks import (
    check_brute_force,
    check_compare,
    check_evaluate,
    check_rank,
    check_showdown,
    check_showdown_many,
)
from conformance.commands import check_cli_eval, check_cli_showdown, check_draw
from conformance.features import Spec, poker_categories
from conformance.subject import Subject, run_cli, write_files

from evaluator.core.resources import catalogue_path
from evaluator.ruleset import load
from evaluator.tools.check import check_file

pytestmark = pytest.mark.usefixtures("table_cache")

WILDS = {
    "deuces": ({"ranks": ["T"]}, 0),  # the deck's lowest rank, as deuces are in a full deck
    "one-eyed jacks": ({"cards": ["Js", "Jh"]}, 0),
    "jokers": ({"jokers": True}, 1),
    "bug": ({"jokers": True, "plays_as": {"ranks": ["A"], "hands": "run | flush"}}, 1),
    "lowest card": ({"lowest_rank": True}, 0),
}
TIEBREAKS = ["highest_card", "highest_paired", "highest_unpaired"]


def matrix_spec(wild: str, tiebreak: str, natural_beats_wild: bool, ranks: list[str]) -> Spec:
    cards, jokers = WILDS[wild]
    spec = Spec(
        ranks=ranks,
        suits=["s", "h", "d", "c"],
        jokers=jokers,
        wild=dict(cards),
        natural_beats_wild=natural_beats_wild,
        suit_order=["h", "s", "d", "c"],  # the Greek order of friday-night
        tiebreak=tiebreak,
    )
    spec.categories = poker_categories(5, n_of_a_kind=True)
    return spec


@pytest.mark.parametrize(("wild", "tiebreak"), list(itertools.product(WILDS, TIEBREAKS)))
def test_fast_paths_agree_with_the_engine(tmp_path: Path, wild: str, tiebreak: str) -> None:
    spec = matrix_spec(wild, tiebreak, tiebreak != "highest_paired", ["T", "J", "Q", "K", "A"])
    path = write_files(spec, tmp_path)
    assert [d for d in check_file(path) if d.severity == "error"] == []
    subject = Subject(spec, path, seed=sum(map(ord, wild + tiebreak)))
    for check in (
        check_evaluate,
        check_compare,
        check_showdown,
        check_rank,
        check_showdown_many,
        check_draw,
        check_cli_eval,
        check_cli_showdown,
    ):
        check(subject)


@pytest.mark.parametrize(("wild", "tiebreak"), list(itertools.product(WILDS, ["highest_card", "highest_unpaired"])))
def test_the_engine_agrees_with_brute_force(tmp_path: Path, wild: str, tiebreak: str) -> None:
    """Every five-card hand of 16 cards (four ranks, jack to ace; 17 with a joker) against the
    brute force: the order of hands, and the suit key of every hand without wild cards."""
    spec = matrix_spec(wild, tiebreak, True, ["J", "Q", "K", "A"])
    spec.wild = {key: value for key, value in spec.wild.items()}
    if wild == "deuces":
        spec.wild = {"ranks": ["J"]}
    spec.categories = [c for c in spec.categories if c.name not in ("straight_flush", "straight")]  # no run of 5
    path = write_files(spec, tmp_path)
    assert [d for d in check_file(path) if d.severity == "error"] == []
    check_brute_force(Subject(spec, path, seed=1))


FRIDAY = catalogue_path("friday-night")


def test_friday_night_is_the_readme_example(tmp_path: Path) -> None:
    """The catalogue's friday-night has the rules of the README's example (not its title or examples)."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    block = readme.split("```yaml\n", 1)[1].split("```", 1)[0]
    assert "name: friday-night" in block
    (tmp_path / "friday.yaml").write_text(block, encoding="utf-8")
    ignored = {"name", "title", "source", "examples"}
    readme_rules = {k: v for k, v in load(tmp_path / "friday.yaml").data.items() if k not in ignored}
    assert readme_rules == {k: v for k, v in load("friday-night").data.items() if k not in ignored}


@pytest.mark.parametrize(
    "argv",
    [
        ["odds", "friday-night", "As Ks", "2d 2c", "--board", "Qh 7c 3d"],
        ["chart", "friday-night", "--samples", "20", "--seed", "1"],  # two hole cards: the whole grid
        ["diff", "friday-night", "standard", "--samples", "300"],
        ["draw", "friday-night", "As Ks Qs Jh 3c", "--discard", "Jh 3c"],
        ["outs", "friday-night", "As Ks", "2d 2c", "--board", "Qh 7c 3d"],
        ["stats", "friday-night"],
    ],
    ids=lambda argv: argv[0],
)
def test_friday_night_runs_every_command(argv: list[str]) -> None:
    code, out, err = run_cli([*argv, "--json"])
    assert code == 0, err
    json.loads(out)


def test_friday_night_agrees_with_the_engine_on_seven_cards() -> None:
    """eval - and showdown --from with seven-card lines, rank and showdown_many, cold and warm."""
    spec = Spec(small=False, ranks=["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"])
    subject = Subject(spec, FRIDAY, seed=5)
    for check in (check_evaluate, check_compare, check_showdown, check_rank, check_cli_eval, check_cli_showdown):
        check(subject)
