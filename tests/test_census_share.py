"""diff's share of changed showdowns read from the exact flip census, against every deal enumerated.

A heads-up deal changes its outcome exactly when its two hands flip, so when the
census is exact the share is its total over its population. The enumeration
(``exact_share``: every deal of the deck, ranked in batches) is the independent
count; a deck of 14 cards keeps it to 126,126 deals.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluator import load
from evaluator.cli.main import main
from evaluator.ruleset import Ruleset
from evaluator.tools.diff import common_deck, compare_rulesets
from evaluator.tools.flips import census
from evaluator.tools.showdown_share import census_share, exact_share

pytestmark = pytest.mark.usefixtures("table_cache")

DECK = "deck: {ranks: [8, 9, T, J, Q, K, A], suits: [s, h]}"
RULESETS = {
    "std": f"extends: standard\n{DECK}\n",
    "ff": f"extends: four-flush\n{DECK}\n",
    "bridge": "extends: std.yaml\nsuits: {order: [s, h], tiebreak: highest_card}\n",
    "pairs": 'extends: std.yaml\nqualifier: "category >= pair"\n',
    "low27": f"extends: deuce-to-seven\n{DECK}\n",
    "low5": f"extends: ace-to-five\n{DECK}\n",
}
PAIRS = [("std", "ff"), ("std", "bridge"), ("pairs", "ff"), ("bridge", "pairs"), ("low27", "low5")]


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("census-share")
    for name, text in RULESETS.items():
        (folder / f"{name}.yaml").write_text(f"name: {name}\n{text}", encoding="utf-8")
    return {name: folder / f"{name}.yaml" for name in RULESETS}


def loaded(small: dict[str, Path], name: str) -> Ruleset:
    return load(small[name])


@pytest.mark.parametrize(("a_name", "b_name"), PAIRS)
def test_the_census_share_is_every_deal_enumerated(small: dict[str, Path], a_name: str, b_name: str) -> None:
    a, b = loaded(small, a_name), loaded(small, b_name)
    deck = common_deck(a, b)
    found = census(a, b, deck)
    assert found.method == "exact", found.reason
    share = census_share(found)
    enumerated = exact_share(a, b, deck, 5)
    assert (share.deals, share.changed) == (enumerated.deals, enumerated.changed)
    assert share.changed > 0  # each pair changes some deal: the comparison is not of two zeros
    assert share.share == enumerated.share
    for deal in share.examples:
        assert a.compare(" ".join(deal.first), " ".join(deal.second)) == deal.outcome_a
        assert b.compare(" ".join(deal.first), " ".join(deal.second)) == deal.outcome_b
        assert not set(deal.first) & set(deal.second)


def test_diff_reports_the_census_share_as_exact(small: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", str(small["std"]), str(small["ff"]), "--json", "--samples", "50"]) == 0
    data = json.loads(capsys.readouterr().out)
    showdowns, causes = data["showdowns"], data["flip_causes"]
    assert showdowns["method"] == "exact" and showdowns["interval"] is None and showdowns["seed"] is None
    assert showdowns["deals"] == causes["population"] == 126_126
    assert showdowns["changed"] == sum(group["pairs"] for group in causes["groups"]) == 12_240
    # one example per flip group (two groups here), as the census shows them
    shown = [
        (group["example"]["wins_in_a"]["cards"], group["example"]["wins_in_b"]["cards"]) for group in causes["groups"]
    ]
    assert [(deal["first"], deal["second"]) for deal in showdowns["examples"]] == shown[:3]
    assert main(["diff", str(small["std"]), str(small["ff"])]) == 0
    assert "9.70% exactly (12,240 of 126,126 deals)" in capsys.readouterr().out


def test_other_hand_sizes_and_sampled_censuses_still_sample(small: dict[str, Path]) -> None:
    a, b = loaded(small, "std"), loaded(small, "ff")
    assert compare_rulesets(a, b, samples=50).showdowns.method == "exact"
    # six cards each: the census judged five, so the showdowns are dealt (all of them: few enough)
    six = compare_rulesets(a, b, cards=6, samples=50, seed=3).showdowns
    assert six.method == "sampled" and six.cards == 6 and six.deals == 50
    # wild cards: the census samples, and so do the showdowns
    wild = compare_rulesets(load("standard"), load("deuces-wild"), samples=200, seed=3)
    assert wild.flip_causes is not None and wild.flip_causes.method == "sampled"
    assert wild.showdowns.method == "sampled" and wild.showdowns.deals == 200


def test_a_sampled_census_is_not_an_exact_share() -> None:
    a, b = load("standard"), load("deuces-wild")
    sampled = census(a, b, common_deck(a, b), samples=100, seed=1)
    with pytest.raises(ValueError, match="sampled flip census"):
        census_share(sampled)
