"""The fast path (``evaluator/tables.py``, ``evaluator/fast.py``) against the generic evaluator.

The generic evaluator (``Engine.best``) is the oracle; a fast value is right when
it equals ``FastRanker.from_strength`` of the generic ``Fill.strength`` (the same
dense numbering, suit key included). What is checked, and why it is enough:

1. **Every hand class** of every catalogue ruleset, as real cards through
   ``encode`` / ``rank`` / ``rank_many``: each rank multiset of natural cards x
   wild cards x (spread over suits, and one-suited where the deck allows), for
   every holding size from ``hand.min`` to ``hand.size``. Exhaustive by
   construction: a holding of at most ``hand.size`` cards is worth only its class.
2. **Every class of six and seven cards** (rank multiset x wild cards; the
   naturals spread over the suits, piled into one suit, and in three random
   suit assignments, which reach the flush structures) against the best subset
   ranked by the five-card path, which (1) proved equal to the generic
   evaluator -- ``Engine.best`` is exactly that maximum when the wild cards are
   fixed per card (not so for lowest-card wild, left to (3)).
3. **Random hands** of 5, 6, 7 and 8 cards (and of every size for incomplete
   hands) per ruleset, through both paths, plus hands loaded with wild cards
   and suited naturals. Counts: 20,000 five-card and 2,000 seven-card hands for
   standard, 600 and 60 for the others by default -- the generic
   seven-card path costs ~2 ms a hand. ``POKERRULES_TABLE_HANDS=100000`` runs
   that many of each size for every ruleset (an hour or more).
4. **Batch == per call == generic** on random arrays of card ids and of codes.
5. **The disk cache**: truncated, corrupted, foreign-version, foreign-ruleset
   and garbage files are rebuilt, rewritten, and the answers stay right.

Tables are cached in a temporary folder per session unless ``$POKERRULES_CACHE``
is set (CI may point it at a persistent folder to skip the cold builds).
"""

from __future__ import annotations

import csv
import itertools
import json
import os
import random
import subprocess
import sys
import weakref
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from evaluator import load
from evaluator.compiled import table_cache as cache_module
from evaluator.compiled import table_layout
from evaluator.compiled import tables as tables_module
from evaluator.compiled.class_count import count_categories_fast
from evaluator.compiled.classgrid import NO_HAND, count_vectors
from evaluator.compiled.fast import FastRanker, ruleset_ranker
from evaluator.compiled.table_cache import MAGIC, cache_path, read_cache, ruleset_hash, write_cache
from evaluator.compiled.tables import build_tables, load_tables, tables_for
from evaluator.core.errors import CardError, PokerRulesError
from evaluator.core.resources import CACHE_ENV, catalogue_names
from evaluator.rules.build import load_rules
from evaluator.rules.cards import Card
from evaluator.ruleset import Ruleset

CATALOGUE = catalogue_names()
HANDS_ENV = "POKERRULES_TABLE_HANDS"
BIG = {
    "standard": (20_000, 2_000),
    # generic path (suit classes): each holding is valued twice by the generic evaluator
    "four-flush": (300, 30),
    "freak-hands": (200, 20),
    "badugi": (300, 30),
}
DEFAULT = (400, 40)


pytestmark = pytest.mark.usefixtures("table_cache")  # tables built here go to a temporary cache


def ranker(rs: Ruleset) -> FastRanker:
    """The ruleset's ranker (tables built or read once)."""
    return ruleset_ranker(rs)


def generic(rs: Ruleset, cards: Sequence[Card]) -> int:
    """The oracle: the generic evaluator's best fill, numbered as the fast path numbers."""
    engine = rs.engine
    fill = engine.best(list(cards), engine.candidates(list(cards)))
    return ranker(rs).from_strength(fill.strength) if fill is not None else NO_HAND


def physical_deck(rs: Ruleset) -> list[Card]:
    """Every physical card (a card twice with two packs)."""
    return [card for card in rs.deck for _ in range(1 if card.is_joker else rs.copies)]


# Per ruleset, without keeping it alive: a ruleset the tests are done with goes, with
# its tables and the generic evaluator's caches (functools.cache kept every one).
_WILD_CARDS: weakref.WeakKeyDictionary[Ruleset, list[Card]] = weakref.WeakKeyDictionary()
_NATURALS: weakref.WeakKeyDictionary[Ruleset, dict[str, list[Card]]] = weakref.WeakKeyDictionary()


def wild_cards(rs: Ruleset) -> list[Card]:
    """The physical cards that are always wild."""
    found = _WILD_CARDS.get(rs)
    if found is None:
        fast = ranker(rs)
        found = _WILD_CARDS[rs] = [card for card in physical_deck(rs) if fast.model.static_wild[fast.id_of[card]]]
    return found


def naturals_by_rank(rs: Ruleset) -> dict[str, list[Card]]:
    """The natural cards of each rank symbol (one of each; ``copies`` may repeat them)."""
    found = _NATURALS.get(rs)
    if found is not None:
        return found
    fast = ranker(rs)
    out: dict[str, list[Card]] = {}
    for suit in rs.suits:
        for rank in rs.rank_symbols:
            card = Card(rank, suit)
            if card in fast.id_of and not fast.model.static_wild[fast.id_of[card]]:
                out.setdefault(rank, []).append(card)
    _NATURALS[rs] = out
    return out


def check(rs: Ruleset, holdings: list[list[Card]]) -> None:
    """Per call == generic for every holding, and batch == per call (ids and codes)."""
    wrong = []
    per_call = []
    for cards in holdings:
        got = rs.rank(rs.encode(cards))
        per_call.append(got)
        want = generic(rs, cards)
        if got != want:
            wrong.append((" ".join(map(str, cards)), got, want))
    assert not wrong, f"{len(wrong)} of {len(holdings)} differ, e.g. {wrong[:3]}"
    check_batch(rs, holdings, per_call)


def check_batch(rs: Ruleset, holdings: list[list[Card]], per_call: list[int]) -> None:
    """``rank_many`` (card ids, and encode codes) gives the per-call values, grouped by size."""
    fast = ranker(rs)
    by_size: dict[int, list[int]] = {}
    for index, cards in enumerate(holdings):
        by_size.setdefault(len(cards), []).append(index)
    for indices in by_size.values():
        ids = np.array([[fast.id_of[card] for card in holdings[i]] for i in indices])
        expected = np.array([per_call[i] for i in indices])
        assert np.array_equal(rs.rank_many(ids), expected)
        codes = np.array([rs.encode(holdings[i]) for i in indices[:200]])
        assert np.array_equal(rs.rank_many(codes), expected[:200])


def spread(rs: Ruleset, ranks: list[str], offset: int = 0) -> list[Card] | None:
    """Natural cards of the given ranks with the suits cycling from card to card, so
    that they are not all of one suit (None when the deck lacks the cards)."""
    pool = naturals_by_rank(rs)
    used: dict[str, list[Card]] = {}
    out = []
    for i, rank in enumerate(ranks):
        free = [card for card in pool.get(rank, []) if used.get(rank, []).count(card) < rs.copies]
        if not free:
            return None
        wanted = rs.suits[(i + offset) % len(rs.suits)]
        card = next((c for c in free if c.suit == wanted), free[0])
        used.setdefault(rank, []).append(card)
        out.append(card)
    return out


def one_suited(rs: Ruleset, ranks: list[str], suit: str) -> list[Card] | None:
    """Natural cards of the given ranks all in ``suit`` (None when impossible)."""
    fast = ranker(rs)
    out = []
    for rank, count in sorted({r: ranks.count(r) for r in ranks}.items()):
        card = Card(rank, suit)
        if card not in fast.id_of or fast.model.static_wild[fast.id_of[card]] or count > rs.copies:
            return None
        out.extend([card] * count)
    return out


def class_rows(rs: Ruleset, k: int) -> list[tuple[list[str], int]]:
    """Every class of ``k`` cards: (natural rank symbols, number of wild cards)."""
    model = ranker(rs).model
    caps = list(model.caps)
    if model.layout.has_wild_digit:
        caps[-1] = len(wild_cards(rs))  # classes reachable with the deck's always-wild cards
    out = []
    for row in count_vectors(caps, k).tolist():
        naturals = [rs.rank_symbols[model.digit_rank[d]] for d in range(len(model.natural_caps)) for _ in range(row[d])]
        out.append((naturals, row[-1] if model.layout.has_wild_digit else 0))
    return out


def class_holdings(rs: Ruleset, k: int) -> list[list[Card]]:
    """Real cards for every class of ``k`` cards: spread, and one-suited (in every
    suit when a pattern names one)."""
    wilds = wild_cards(rs)
    holdings = []
    flush_suits = rs.suits if ranker(rs).model.suit_sensitive else rs.suits[:1]
    for naturals, w in class_rows(rs, k):
        cards = spread(rs, naturals)
        if cards is not None:
            holdings.append(cards + wilds[:w])
        for suit in flush_suits:
            cards = one_suited(rs, naturals, suit)
            if cards is not None:
                holdings.append(cards + wilds[:w])
    return holdings


# --- 1. every class of a hand, through the public path ------------------------------


@pytest.mark.parametrize("name", CATALOGUE)
def test_every_hand_class_matches_the_generic_evaluator(name: str) -> None:
    rs = load(name)
    holdings = []
    for k in range(max(rs.hand_min, 1), rs.hand_size + 1):
        holdings += class_holdings(rs, k)
    assert holdings
    check(rs, holdings)


def test_standard_has_the_7462_distinct_values_of_five_card_poker() -> None:
    tables = tables_for(load("standard"))
    assert len(tables.strengths) == 7462
    assert tables.strengths == sorted(set(tables.strengths))


# --- 2. six and seven cards: every class against the best subset ------------------------------


def best_subset(rs: Ruleset, ids: np.ndarray) -> np.ndarray:
    """The best ``hand.size`` subset of each row, by the (checked) five-card batch path."""
    best = np.full(len(ids), NO_HAND, dtype=np.int64)
    for subset in itertools.combinations(range(ids.shape[1]), rs.hand_size):
        np.maximum(best, rs.rank_many(np.ascontiguousarray(ids[:, list(subset)])), out=best)
    return best


def class_arrays(rs: Ruleset, k: int, rng: np.random.Generator, random_variants: int = 3) -> np.ndarray:
    """Card ids for every class of ``k`` cards (rank multiset x wild cards): the
    naturals spread over the suits, piled into one suit as far as the deck allows
    (one card of every rank in the first suit), and ``random_variants`` random
    suit assignments -- which between them reach every flush structure often."""
    fast = ranker(rs)
    model = fast.model
    natural_digits = len(model.natural_caps)
    # per digit: the ids of its natural cards, every pack (the same id again)
    avail = [
        [fast.id_of[card] for card in naturals_by_rank(rs)[rs.rank_symbols[model.digit_rank[d]]]] * rs.copies
        for d in range(natural_digits)
    ]
    width = max(len(a) for a in avail)
    table = np.array([a + [a[0]] * (width - len(a)) for a in avail], dtype=np.int64)
    lengths = np.array([len(a) for a in avail], dtype=np.int64)
    wild_ids = [fast.id_of[card] for card in wild_cards(rs)]
    caps = list(model.caps)
    if model.layout.has_wild_digit:
        caps[-1] = len(wild_ids)
    rows = count_vectors(caps, k).astype(np.int64)
    wilds = rows[:, -1] if model.layout.has_wild_digit else np.zeros(len(rows), dtype=np.int64)
    blocks = []
    for w in np.unique(wilds).tolist():
        counts = rows[wilds == w][:, :natural_digits]
        n, held = len(counts), k - w
        if n == 0:
            continue
        digits = np.repeat(np.tile(np.arange(natural_digits), n), counts.ravel()).reshape(n, held)
        position = np.arange(held)
        starts = np.where(np.diff(digits, axis=1, prepend=-1) != 0, position, 0)
        occurrence = position - np.maximum.accumulate(starts, axis=1)
        rotations = [np.tile(np.arange(natural_digits), (n, 1)), np.zeros((n, natural_digits), dtype=np.int64)]
        rotations += [rng.integers(0, width, (n, natural_digits)) for _ in range(random_variants)]
        for rotation in rotations:
            chosen = np.take_along_axis(rotation, digits, axis=1)
            cards = table[digits, (occurrence + chosen) % lengths[digits]]
            blocks.append(np.hstack([cards, np.tile(np.array(wild_ids[:w], dtype=np.int64), (n, 1))]))
    return np.vstack(blocks)


def _plays_best_of(name: str) -> bool:
    """True when a holding of the ruleset plays its best hand.size cards (no lowest-card
    wild, which is decided on the holding, and no card-usage rule)."""
    rs = load(name)
    return not rs.wild.lowest_rank and (rs.game is None or rs.game.use_hole is None)


# Rulesets valued by suit class (flush(k), suits, hand.best_subset) rank through the
# generic evaluator: every 6- and 7-card class would take minutes; their random
# holdings of every size are compared below and in test_pattern_forms.py.
SEVEN_CARD_RULESETS = [name for name in CATALOGUE if _plays_best_of(name) and not load(name).engine.by_suit_class]


# friday-night (deuces wild with a suit order) walks its classes for three minutes of CPU:
# --slow; its seven-card hands are checked against brute force in test_wild_tiebreak.py
@pytest.mark.parametrize(
    "name",
    [pytest.param(n, marks=pytest.mark.exhaustive) if n == "friday-night" else n for n in SEVEN_CARD_RULESETS],
)
def test_six_and_seven_card_classes_equal_the_best_subset(name: str) -> None:
    rs = load(name)
    fast = ranker(rs)
    rng = np.random.default_rng(zlib.crc32(name.encode()))  # the same classes in every run
    for k in (rs.hand_size + 1, rs.hand_size + 2):
        ids = class_arrays(rs, k, rng, random_variants=1 if fast.mode == "suited" else 3)
        assert len(ids)
        direct = rs.rank_many(ids)
        expected = best_subset(rs, ids)
        wrong = np.flatnonzero(direct != expected)
        assert not len(wrong), (
            f"{k} cards: {len(wrong)} of {len(ids)} differ, e.g. {[str(fast.model.cards[i]) for i in ids[wrong[0]]]}"
        )
        # per call gives the same values
        sample = rng.choice(len(ids), min(100 if fast.mode == "suited" else 500, len(ids)), replace=False)
        codes = fast.code_list
        assert [rs.rank(tuple(codes[i] for i in ids[j])) for j in sample.tolist()] == direct[sample].tolist()


def test_lowest_card_wild_is_decided_on_the_whole_holding() -> None:
    # Seven cards: only the two is wild; per five cards the eights would be wild (four aces).
    rs = load("lowest-card-wild")
    hand = "2c 8d 8h Ah Ad Kh Ks"
    assert tables_for(rs).category_of(rs.rank(rs.encode(hand))) == "full_house"
    assert rs.rank(rs.encode(hand)) == generic(rs, rs.cards(hand))


# --- 3. random hands through both paths ------------------------------------------------------


def random_sizes(rs: Ruleset) -> dict[int, int]:
    """How many random holdings of each size to compare for ``rs``."""
    override = os.environ.get(HANDS_ENV)
    five, seven = (int(override), int(override)) if override else BIG.get(rs.name, DEFAULT)
    size = rs.hand_size
    sizes = {size: five, size + 1: max(seven // 2, 20), size + 2: seven, size + 3: max(seven // 10, 10)}
    for k in range(max(rs.hand_min, 1), size):
        sizes[k] = max(five // 10, 50)
    game = rs.game
    if game is not None and game.use_hole is not None:
        sizes = {k: n for k, n in sizes.items() if k <= size}  # one hand at a time in such games
    return sizes


def random_holdings(rs: Ruleset, k: int, count: int, rng: random.Random) -> list[list[Card]]:
    """Random holdings, a third of them loaded with wild cards and one suit."""
    deck = physical_deck(rs)
    wild = set(wild_cards(rs))
    wild_slots = [i for i, card in enumerate(deck) if card in wild]
    out = [rng.sample(deck, k) for _ in range(count)]
    for _ in range(count // 3):
        w = rng.randint(1, min(len(wild_slots), k)) if wild_slots else 0
        chosen = rng.sample(wild_slots, w)
        rest = [i for i in range(len(deck)) if i not in chosen and deck[i] not in wild]
        suit = rng.choice(rs.suits)
        suited = [i for i in rest if deck[i].suit == suit]
        naturals = rng.sample(suited if len(suited) >= k - w and rng.random() < 0.7 else rest, k - w)
        holding = [deck[i] for i in chosen + naturals]
        rng.shuffle(holding)
        out.append(holding)
    return out


@pytest.mark.parametrize("name", CATALOGUE)
def test_random_hands_match_the_generic_evaluator(name: str) -> None:
    rs = load(name)
    rng = random.Random(f"random-{name}")
    holdings = []
    for k, count in random_sizes(rs).items():
        holdings += random_holdings(rs, k, count, rng)
    check(rs, holdings)


# --- rulesets the catalogue does not have: generic fallbacks and odd decks --------------------------


ODD_RULESETS = {
    "suit-pattern-wild": "extends: joker-wild\ncategories:\n  heart_flush: {pattern: 'flush & suit = h'}\n"
    "order: [five_of_a_kind, heart_flush, royal_flush, straight_flush, four_of_a_kind, full_house, flush, straight,"
    " three_of_a_kind, two_pair, pair, high_card]\n",
    "tiebreak-wild": "extends: deuces-wild\nsuits: {order: [s, h, d, c], tiebreak: highest_card}\n",
    "dead-joker": "extends: standard\ndeck: {jokers: 1}\nwild: {jokers: false}\n",
    "suited-low": "extends: ace-to-six\nsuits: {order: [c, d, h, s], tiebreak: highest_unpaired}\n",
    "lowest-low": "extends: ace-to-five\nwild: {lowest_rank: true}\n",
    "two-packs-wild": "extends: deuces-wild\ndeck: {copies: 2}\n",
}


@pytest.fixture(scope="module")
def odd_rulesets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Ruleset]:
    """Rulesets built for the paths the catalogue does not reach."""
    folder = tmp_path_factory.mktemp("odd-rulesets")
    out = {}
    for name, text in ODD_RULESETS.items():
        path = folder / f"{name}.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            if name == "dead-joker":
                # check and load refuse a joker that never plays (R114); the tables must still say so
                with pytest.raises(PokerRulesError, match="R114"):
                    load(path)
                out[name] = load_rules(path, kind=Ruleset)
            else:
                out[name] = load(path)
        except PokerRulesError as problem:  # pragma: no cover - reported, not hidden
            pytest.fail(f"{name}: {problem}")
    return out


@pytest.mark.parametrize("name", list(ODD_RULESETS))
def test_odd_rulesets_match_the_generic_evaluator(odd_rulesets: dict[str, Ruleset], name: str) -> None:
    rs = odd_rulesets[name]
    rng = random.Random(f"odd-{name}")
    holdings = []
    size = rs.hand_size
    for k, count in {size: 300, size + 1: 40, size + 2: 60, max(rs.hand_min, 1): 40}.items():
        holdings += random_holdings(rs, k, count, rng)
    if rs.hand_size == 5:
        holdings += class_holdings(rs, 5)[:1500]
    expected_mode = {
        "suit-pattern-wild": "generic",
        "tiebreak-wild": "generic",
        "dead-joker": "generic",
        "suited-low": "suited",
    }
    assert ranker(rs).mode == expected_mode.get(name, "direct")
    check(rs, holdings)


def test_a_dead_joker_makes_no_hand_when_it_must_play(odd_rulesets: dict[str, Ruleset]) -> None:
    rs = odd_rulesets["dead-joker"]
    assert rs.rank(rs.encode("X As Ks Qs Js")) == NO_HAND
    assert rs.rank(rs.encode("X As Ks Qs Js Ts")) == rs.rank(rs.encode("As Ks Qs Js Ts"))


# --- ordering, errors, games -------------------------------------------------------------------


def test_values_order_hands_in_the_rulesets_direction() -> None:
    standard, low = load("standard"), load("deuce-to-seven")
    royal, quads = "As Ks Qs Js Ts", "9s 9h 9d 9c 2s"
    assert standard.rank(standard.encode(royal)) > standard.rank(standard.encode(quads))
    seven_low, pair = "7s 5d 4h 3c 2s", "2c 2d 5h 7d 9c"
    assert low.rank(low.encode(seven_low)) > low.rank(low.encode(pair))
    # equal values are equal hands, whatever the suits
    assert standard.rank(standard.encode("Ah Kh Qd Jc 9s")) == standard.rank(standard.encode("As Kd Qh Jd 9c"))
    # a suit tie-break separates them
    bridge = load("suits-bridge")
    assert bridge.rank(bridge.encode("As Kd Qh Jd 9c")) > bridge.rank(bridge.encode("Ah Kh Qd Jc 9s"))


def test_the_value_names_its_category() -> None:
    rs = load("deuces-wild")
    tables = tables_for(rs)
    assert tables.category_of(rs.rank(rs.encode("2s 2h Ah Kh Qh"))) == "royal_flush"
    assert tables.category_of(rs.rank(rs.encode("2s 2h 2d 2c As 3h 4d"))) == "five_of_a_kind"


def test_too_few_cards_is_a_card_error() -> None:
    rs = load("standard")
    with pytest.raises(CardError) as info:
        rs.rank(rs.encode("As Ks Qs Js"))
    assert info.value.code == "C104"
    with pytest.raises(CardError) as info:
        rs.rank_many(np.zeros((3, 4), dtype=np.int64))
    assert info.value.code == "C104"


def test_rank_many_checks_its_input() -> None:
    rs = load("standard")
    with pytest.raises(ValueError):
        rs.rank_many(np.arange(5))
    with pytest.raises(TypeError):
        rs.rank_many(np.zeros((2, 5), dtype=float))
    with pytest.raises(CardError) as info:
        rs.rank_many(np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 52]]))
    assert info.value.code == "C102"
    with pytest.raises(CardError):
        rs.rank_many(np.array([[0, 1, 2, 3, -1]]))
    with pytest.raises(CardError):
        rs.rank_many(np.array([list(rs.encode("As Ks Qs Js Ts")), [1 << 40] * 5]))
    assert rs.rank_many(np.zeros((0, 5), dtype=np.int64)).shape == (0,)
    # any integer dtype
    ids = np.array([[48, 44, 40, 36, 32]], dtype=np.uint8)
    assert rs.rank_many(ids)[0] == rs.rank(rs.encode("As Ks Qs Js Ts"))


def test_games_with_card_usage_rules_rank_one_hand_at_a_time() -> None:
    rs = load("omaha")
    assert rs.rank(rs.encode("As Ks Qs Js Ts")) == load("standard").rank(load("standard").encode("As Ks Qs Js Ts"))
    with pytest.raises(CardError) as info:
        rs.rank(rs.encode("As Ks Qs Js Ts 2c 3d 4h 5s"))
    assert info.value.code == "C105"
    with pytest.raises(CardError):
        rs.rank_many(np.arange(9).reshape(1, 9))


def test_many_cards_grow_the_tables_on_demand() -> None:
    rs = load("standard")
    rng = random.Random(9)
    deck = list(rs.deck)
    for k in (9, 11):
        for _ in range(3):
            cards = rng.sample(deck, k)
            assert rs.rank(rs.encode(cards)) == generic(rs, cards)
    for k in (9, 11, 20, 52):
        many = np.array([[ranker(rs).id_of[c] for c in rng.sample(deck, k)] for _ in range(4)])
        per_call = [rs.rank(tuple(ranker(rs).code_list[i] for i in row)) for row in many.tolist()]
        assert rs.rank_many(many).tolist() == per_call
    royal_in_all = rs.rank(rs.encode(deck))
    assert tables_for(rs).category_of(royal_in_all) == "royal_flush"


# --- 5. the disk cache ----------------------------------------------------------------------------


@pytest.fixture()
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder for one test."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    return folder


def answers(tables: table_layout.Tables) -> list[int]:
    """A fingerprint of what the tables answer: a fixed set of hands, per call and batch."""
    fast = FastRanker(tables)
    rng = random.Random(4)
    deck = list(tables.ruleset.deck)
    holdings = [rng.sample(deck, k) for k in (5, 5, 5, 6, 7, 7, 7) for _ in range(40)]
    values = [fast.rank(fast.encode(cards)) for cards in holdings]
    ids = np.array([[fast.id_of[c] for c in cards] for cards in holdings if len(cards) == 7])
    batch: list[int] = fast.rank_many(ids).tolist()
    return values + batch


def test_tables_are_cached_and_read_back(fresh_cache: Path) -> None:
    rs = load("deuces-wild")
    built = load_tables(rs)
    path = cache_path(rs)
    assert not built.from_cache and path.is_file() and path.parent == fresh_cache
    again = load_tables(rs)
    assert again.from_cache
    assert again.strengths == built.strengths and again.dominant == built.dominant
    assert answers(again) == answers(built)
    assert not [p for p in fresh_cache.iterdir() if p.suffix == ".tmp"]  # no temporary file left behind


def _damage_truncate(path: Path) -> None:
    blob = path.read_bytes()
    path.write_bytes(blob[: len(blob) // 2])


def _damage_flip(path: Path) -> None:
    blob = bytearray(path.read_bytes())
    blob[-100] ^= 0xFF  # inside the payload: the checksum no longer matches
    path.write_bytes(bytes(blob))


def _rewrite_header(path: Path, **changes: object) -> None:
    blob = path.read_bytes()
    length = int.from_bytes(blob[len(MAGIC) : len(MAGIC) + 4], "little")
    start = len(MAGIC) + 4
    header = json.loads(blob[start : start + length])
    header.update(changes)
    text = json.dumps(header).encode()
    path.write_bytes(MAGIC + len(text).to_bytes(4, "little") + text + blob[start + length :])


def _damage_version(path: Path) -> None:
    _rewrite_header(path, version="0.0.0-foreign")  # checksum still right: only the version is foreign


def _damage_format(path: Path) -> None:
    _rewrite_header(path, format=999)


def _damage_garbage(path: Path) -> None:
    path.write_bytes(b"not a table file at all")


def _damage_empty(path: Path) -> None:
    path.write_bytes(b"")


def _damage_header_json(path: Path) -> None:
    blob = path.read_bytes()
    start = len(MAGIC) + 4
    path.write_bytes(blob[: start + 1] + b"#" + blob[start + 2 :])  # the header is no longer JSON


@pytest.mark.parametrize(
    "damage",
    [
        _damage_truncate,
        _damage_flip,
        _damage_version,
        _damage_format,
        _damage_garbage,
        _damage_empty,
        _damage_header_json,
    ],
    ids=["truncated", "corrupted", "foreign-version", "foreign-format", "garbage", "empty", "bad-header"],
)
def test_a_bad_cache_file_is_rebuilt_and_answers_stay_right(fresh_cache: Path, damage: object) -> None:
    rs = load("short-deck")
    good = load_tables(rs)
    expected = answers(good)
    path = cache_path(rs)
    damage(path)  # type: ignore[operator]
    assert read_cache(rs, path) is None  # detected, never trusted
    rebuilt = load_tables(rs)
    assert not rebuilt.from_cache
    assert answers(rebuilt) == expected
    assert read_cache(rs, path) is not None  # and rewritten whole


def test_a_cache_file_of_another_ruleset_is_not_used(fresh_cache: Path) -> None:
    short, stripped = load("short-deck"), load("stripped-32")
    load_tables(short)
    load_tables(stripped)
    cache_path(stripped).write_bytes(cache_path(short).read_bytes())
    assert read_cache(stripped, cache_path(stripped)) is None
    assert answers(load_tables(stripped)) == answers(build_tables(stripped))


def test_the_cache_key_follows_the_ruleset_and_the_version(monkeypatch: pytest.MonkeyPatch) -> None:
    from evaluator.core import version

    names = ["standard", "suits-bridge", "suits-german", "short-deck", "deuces-wild"]
    assert len({ruleset_hash(load(n)) for n in names}) == len(names)
    before = ruleset_hash(load("standard"))
    monkeypatch.setattr(version, "__version__", "99.0")
    assert ruleset_hash(load("standard")) != before


def test_the_cache_folder_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_module.cache_dir() == tmp_path / "xdg" / "pokerrules"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_module.cache_dir() == Path.home() / ".cache" / "pokerrules"
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "mine"))
    assert cache_module.cache_dir() == tmp_path / "mine"


def test_an_unwritable_cache_folder_is_not_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(CACHE_ENV, str(blocker / "cache"))
    rs = load("twenty-card")
    tables = load_tables(rs)
    assert not tables.from_cache
    assert not write_cache(tables, cache_path(rs))


def test_a_slow_build_shows_a_progress_bar(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from evaluator.core.progress import Bar

    monkeypatch.setattr(tables_module, "Bar", lambda label: Bar(label, delay=0.0))  # as if past its second
    load_tables(load("twenty-card"), use_cache=False)
    err = capsys.readouterr().err
    assert "compiling lookup tables for twenty-card [" in err and "100%" in err
    assert "compiling lookup tables for twenty-card done in" in err
    monkeypatch.undo()
    load_tables(load("twenty-card"), use_cache=False)  # a quick build: nothing shown
    assert capsys.readouterr().err == ""


# --- cold start ----------------------------------------------------------------------------------


def test_importing_the_package_or_evaluating_does_not_import_numpy() -> None:
    code = (
        "import sys, evaluator\n"
        "evaluator.load('standard').evaluate('As Ks Qs Js Ts')\n"
        "print('numpy' in sys.modules, 'evaluator.compiled.tables' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["False", "False"]


# --- exact counting over classes -----------------------------------------------------------------


def test_seven_card_category_counts_of_standard_match_the_published_table(reference_data: Path) -> None:
    expected = {}
    with open(reference_data / "tables" / "standard_7card_52deck.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            expected[row["category"]] = int(row["count"])
    counts = count_categories_fast(load("standard"), 7)
    rename = {"straight_flush": "straight_flush_excl_royal", "pair": "one_pair"}
    for category, count in counts.items():
        assert count == expected[rename.get(category, category)], category
    assert sum(counts.values()) == expected["total"] == 133_784_560


@pytest.mark.parametrize(
    "name, cards",
    [
        ("standard", 5),
        ("standard", 6),
        ("short-deck", 7),
        ("deuce-to-seven", 6),
        ("ace-to-five", 6),
        ("twenty-card", 7),
    ],
)
def test_fast_counts_equal_the_counting_module(name: str, cards: int) -> None:
    counting = pytest.importorskip("evaluator.compiled.counting")
    rs = load(name)
    assert count_categories_fast(rs, cards) == counting.count(rs, cards).counts


def test_fast_counting_says_what_it_does_not_handle() -> None:
    for name in ("deuces-wild", "two-decks", "jacks-or-better", "greek"):
        with pytest.raises(NotImplementedError):
            count_categories_fast(load(name), 5)
    with pytest.raises(NotImplementedError):
        count_categories_fast(load("standard"), 10)
