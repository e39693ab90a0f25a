"""The suit-class valuation shared by check, the counter and the suit tables.

Each class's outcome must be the generic evaluator's best fill of that class
(the walk :func:`suited_fills` does, written out here); a valuation read back
from the signed cache must equal one freshly computed; and a cache file that
was tampered with, or signed without the user's key, must be refused and valued
again, as the table files are.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from conformance.checks import walk_matches_evaluator

from evaluator import load
from evaluator.compiled import suitchoice, suitvalue_cache
from evaluator.compiled.array_payload import pack, unpack
from evaluator.compiled.counting import count, played_counts
from evaluator.compiled.suitvalue_cache import MAGIC, cache_path, read_values, suit_values, write_values
from evaluator.compiled.suitvalues import NO_HAND, SuitValues, value_classes
from evaluator.core import diskcache
from evaluator.engine.evaluate import engine_for
from evaluator.tools.check import check_file

pytestmark = pytest.mark.skipif(not diskcache.SUPPORTED, reason="needs O_NOFOLLOW and dir_fd support")

RULESET = "badugi"  # four cards of 52 by suit class: thousands of classes, valued in a second
real_choices = suitchoice.one_wild_choices


@pytest.fixture()
def folder(own_cache: Path) -> Iterator[Path]:
    """A cache folder of this test's own, and nothing kept in memory from earlier tests."""
    suitvalue_cache.forget()
    yield own_cache
    suitvalue_cache.forget()


def same(a: SuitValues, b: SuitValues) -> bool:
    arrays_a, arrays_b = a.arrays(), b.arrays()
    return arrays_a.keys() == arrays_b.keys() and all(np.array_equal(arrays_a[k], arrays_b[k]) for k in arrays_a)


# One wild joker and suit patterns: the walk chooses what the joker plays as in bulk
# (``suitchoice.py``); a suit order that is not the deck's decides which empty suit is tried,
# a low direction and a qualifier turn the scores around, and the wheel plays the ace low.
JOKER_BASE = """
extends: standard
deck: {ranks: [7, 8, 9, T, J, Q, K, A], jokers: 1}
wild: {jokers: true}
suits: {order: [c, d, h, s]}
categories:
  big_bobtail:    {pattern: "run(4, flush)", describe: "big bobtail"}
  little_bobtail: {pattern: "run(3, flush)", describe: "little bobtail"}
  four_flush:     {pattern: "flush(4)", describe: "four flush"}
order: [five_of_a_kind, straight_flush, four_of_a_kind, big_bobtail, full_house, flush, straight,
        three_of_a_kind, little_bobtail, two_pair, four_flush, pair, high_card]
"""
JOKER_FILES = {
    "joker-suit-forms": JOKER_BASE,
    "joker-suit-forms-low": JOKER_BASE + "direction: low\nace: low\n",
    "joker-suit-forms-qualifier": JOKER_BASE + 'qualifier: "XX & X >= J"\n',
}


@pytest.mark.parametrize("name", [RULESET, *JOKER_FILES])
def test_every_class_is_valued_as_the_generic_evaluator_values_it(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if name in JOKER_FILES:
        path = tmp_path / f"{name}.yaml"
        path.write_text(JOKER_FILES[name], encoding="utf-8")
        name = str(path)
    rs = load(name)
    bulk = []
    monkeypatch.setattr(suitchoice, "one_wild_choices", lambda *a: bulk.append(1) or real_choices(*a))
    valued = value_classes(rs, rs.hand_size)
    assert bulk == ([] if rs.jokers == 0 else [1])  # the joker files take the bulk choice
    assert walk_matches_evaluator(rs, valued) > 1000


def test_a_wild_joker_plays_as_a_card_in_the_valuation() -> None:
    rs = load("freak-hands")
    valued = value_classes(rs, 2)  # two-card holdings: the joker is in some, and plays as a card
    with_joker = [i for i in range(len(valued.outcome)) if any(card.is_joker for card in valued.holding(i))]
    assert with_joker
    for index in with_joker:
        played = valued.played_cards(index)
        assert len(played) == 2 and not any(card.is_joker for card in played)
        assert valued.outcomes[int(valued.outcome[index])].wilds == 1


def test_the_walk_leaves_no_memo_of_its_classes_behind() -> None:
    # the memos of a whole walk are hundreds of MB in a cold check of freak-hands
    rs = load("freak-hands")
    engine = engine_for(rs)
    engine.classify((12, 11, 10, 9, 8), None)
    value_classes(rs, 2)
    assert engine.classify.cache_info().currsize == 0 and "_best_suited" not in engine.__dict__
    assert engine.memo_classes and engine.scores is None  # the engine as before the walk


def test_the_cached_valuation_equals_a_fresh_one(folder: Path) -> None:
    rs = load(RULESET)
    first = suit_values(rs, rs.hand_size)
    assert not first.from_cache and cache_path(rs, rs.hand_size).exists()
    suitvalue_cache.forget()
    again = suit_values(rs, rs.hand_size)
    assert again.from_cache
    assert same(again, first) and same(again, value_classes(rs, rs.hand_size))
    assert again.outcomes == first.outcomes and again.deck == first.deck


def _resign(path: Path, key: bytes, change: object = None) -> None:
    """Rewrite a cache file signed with ``key``, its arrays changed by ``change`` first."""
    blob = path.read_bytes()
    length = int.from_bytes(blob[8:12], "little")
    header = json.loads(blob[12 : 12 + length])
    arrays = dict(unpack(blob[12 + length :]))
    if callable(change):
        change(arrays)
    payload = pack(arrays)
    header["length"] = len(payload)
    header.pop("hmac")
    header["hmac"] = diskcache.CacheFolder(path.parent, -1, key).sign(MAGIC, header, payload)
    text = json.dumps(header).encode()
    path.write_bytes(MAGIC + len(text).to_bytes(4, "little") + text + payload)


def _worse(arrays: dict[str, np.ndarray]) -> None:
    """Every class made to play no hand: a forgery that would hide every category."""
    arrays["outcome"] = np.full_like(arrays["outcome"], NO_HAND)


def test_a_file_signed_without_the_key_is_refused_and_valued_again(folder: Path) -> None:
    rs = load(RULESET)
    good = suit_values(rs, rs.hand_size)
    path = cache_path(rs, rs.hand_size)
    _resign(path, b"a forger's guess at the key.....", _worse)
    forged = path.read_bytes()
    assert read_values(rs, rs.hand_size, path) is None
    suitvalue_cache.forget()
    again = suit_values(rs, rs.hand_size)
    assert not again.from_cache and same(again, good)
    assert path.read_bytes() != forged and read_values(rs, rs.hand_size, path) is not None  # rewritten


def test_the_forgery_itself_loads_with_the_real_key(folder: Path) -> None:
    # the control: the same forgery signed with the user's key is read (so only the key stops it)
    rs = load(RULESET)
    suit_values(rs, rs.hand_size)
    path = cache_path(rs, rs.hand_size)
    _resign(path, (folder / diskcache.KEY_NAME).read_bytes(), _worse)
    forged = read_values(rs, rs.hand_size, path)
    assert forged is not None and (forged.outcome == NO_HAND).all()


def test_a_flipped_byte_is_refused(folder: Path) -> None:
    rs = load(RULESET)
    suit_values(rs, rs.hand_size)
    path = cache_path(rs, rs.hand_size)
    blob = bytearray(path.read_bytes())
    blob[-100] ^= 0xFF
    path.write_bytes(bytes(blob))
    assert read_values(rs, rs.hand_size, path) is None


def test_inconsistent_arrays_are_refused_even_when_signed(folder: Path) -> None:
    rs = load(RULESET)
    suit_values(rs, rs.hand_size)
    path = cache_path(rs, rs.hand_size)
    key = (folder / diskcache.KEY_NAME).read_bytes()

    def drop_a_class(arrays: dict[str, np.ndarray]) -> None:
        arrays["weights"] = arrays["weights"][:-1]

    _resign(path, key, drop_a_class)
    assert read_values(rs, rs.hand_size, path) is None

    def outcome_out_of_range(arrays: dict[str, np.ndarray]) -> None:
        arrays["outcome"] = arrays["outcome"] + 10_000

    suit_values(rs, rs.hand_size, use_cache=False)
    assert write_values(rs, value_classes(rs, rs.hand_size), path)
    _resign(path, key, outcome_out_of_range)
    assert read_values(rs, rs.hand_size, path) is None


def test_a_file_of_another_size_is_not_read_for_this_one(folder: Path) -> None:
    rs = load(RULESET)
    three = suit_values(rs, 3)
    four = cache_path(rs, 4)
    cache_path(rs, 3).rename(four)
    assert read_values(rs, 4, four) is None
    assert three.cards == 3


def test_the_counter_and_check_share_one_valuation(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rs = load(RULESET)
    expected = count(rs, rs.hand_size)  # valued here (or on the tables), then kept
    calls: list[int] = []
    real = suitvalue_cache.value_classes

    def counted(*args: object, **kwargs: object) -> SuitValues:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(suitvalue_cache, "value_classes", counted)
    suit_values(rs, rs.hand_size)
    warm = len(calls)
    check_file(Path(__file__).resolve().parents[1] / "rulesets" / f"{RULESET}.yaml")
    tally = played_counts(rs)
    assert len(calls) - warm <= len(range(max(rs.hand_min, 1), rs.hand_size))  # smaller sizes once, at most
    assert sum(tally.values()) == expected.deals - expected.unplayable
