"""Finding and parsing the reference data under ``tests/data``.

The data is collected from public sources (see each folder's README.md) and is
never produced by this project, so tests that compare the evaluator with it
are independent checks. This module only reads files: it never imports the
evaluator, and every parser turns a file into plain Python values (card
strings the evaluator's parser accepts, class numbers, expected outcomes).

Parsers are cached per path, so each file is read once per test session.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

#: Environment variable that overrides where the reference data lives.
REFERENCE_DATA_ENV = "POKERRULES_REFERENCE_DATA"
#: Environment variables that turn a reference-data skip into a failure.
REQUIRE_DATA_ENVS = ("POKERRULES_REQUIRE_DATA", "CI")
#: Every reference-data skip reason starts with this (the conftest hook looks for it).
MISSING_DATA_PREFIX = "reference data not found"


def default_reference_data_dir() -> Path:
    """The default location: ``tests/data``, shipped with the repository."""
    return Path(__file__).resolve().parent / "data"


def reference_data_dir() -> Path | None:
    """The reference-data folder, or None when it is not there.

    ``$POKERRULES_REFERENCE_DATA`` wins when set (even if it points nowhere, so a
    wrong override is reported rather than silently replaced); otherwise
    :func:`default_reference_data_dir` is used.
    """
    override = os.environ.get(REFERENCE_DATA_ENV)
    path = Path(override).expanduser() if override else default_reference_data_dir()
    return path if path.is_dir() else None


def missing_data_reason() -> str:
    """The skip reason used when the reference data cannot be found."""
    override = os.environ.get(REFERENCE_DATA_ENV)
    where = f"${REFERENCE_DATA_ENV}={override}" if override else str(default_reference_data_dir())
    return (
        f"{MISSING_DATA_PREFIX} ({where} is not a directory); "
        f"unset ${REFERENCE_DATA_ENV} to use tests/data, or point it at a folder with the same layout"
    )


def data_required() -> bool:
    """True when a missing reference-data folder must fail the run (CI)."""
    return any(os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no") for name in REQUIRE_DATA_ENVS)


# --------------------------------------------------------------------------
# ojpoker (Lee Daniel Crocker): 100k five-card hands, class per game
# --------------------------------------------------------------------------

#: Column of each game in ``poker_hands_100k.jsonc`` (column 0 is the hand).
OJPOKER_COLUMNS: dict[str, int] = {
    "high": 1,
    "deuce_to_seven": 2,
    "ace_to_five": 3,
    "ace_to_six": 4,
    "badugi": 5,
}


@dataclass(frozen=True, slots=True)
class OjHand:
    """One row of the ojpoker file: a hand and its class per game.

    Every class number is an equivalence class in which LOWER is BETTER.
    """

    cards: str  # "6h9s4s5h3c": no separators, ranks 2-9TJQKA, suits cdhs
    classes: tuple[int, ...]  # in OJPOKER_COLUMNS order, starting at "high"

    def klass(self, column: str) -> int:
        """The class number of this hand in game ``column`` (see OJPOKER_COLUMNS)."""
        return self.classes[OJPOKER_COLUMNS[column] - 1]


def parse_jsonc(text: str) -> object:
    """Parse JSON with ``//`` line comments and trailing commas.

    Only good enough for files whose strings hold no ``//`` (true of the
    ojpoker card files, whose strings are cards such as ``"AcQcKs"``).
    """
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r",(\s*[\]}])", r"\1", text)
    return json.loads(text)


@cache
def ojpoker_hands(path: Path) -> tuple[OjHand, ...]:
    """The rows of ``ojpoker_lcrocker/poker_hands_100k.jsonc``."""
    rows = parse_jsonc(path.read_text(encoding="utf-8"))
    assert isinstance(rows, list)
    hands = []
    for row in rows:
        cards, *classes = row
        if len(cards) != 10 or len(classes) != len(OJPOKER_COLUMNS):
            raise ValueError(f"{path}: unexpected row {row!r}")
        hands.append(OjHand(cards, tuple(int(c) for c in classes)))
    return tuple(hands)


# --------------------------------------------------------------------------
# UCI Poker Hand (Cattral & Oppacher)
# --------------------------------------------------------------------------

#: UCI suit codes 1-4: Hearts, Spades, Diamonds, Clubs.
UCI_SUITS: dict[int, str] = {1: "h", 2: "s", 3: "d", 4: "c"}
#: UCI rank codes 1-13: Ace, 2, ..., 10, Jack, Queen, King.
UCI_RANKS: dict[int, str] = {
    1: "A",
    2: "2",
    3: "3",
    4: "4",
    5: "5",
    6: "6",
    7: "7",
    8: "8",
    9: "9",
    10: "T",
    11: "J",
    12: "Q",
    13: "K",
}
#: UCI CLASS 0-9 -> the standard ruleset's category name.
UCI_CLASS_CATEGORY: dict[int, str] = {
    0: "high_card",
    1: "pair",
    2: "two_pair",
    3: "three_of_a_kind",
    4: "straight",
    5: "flush",
    6: "full_house",
    7: "four_of_a_kind",
    8: "straight_flush",
    9: "royal_flush",
}


@cache
def uci_hands(path: Path) -> tuple[tuple[str, int], ...]:
    """The rows of a UCI ``.data`` file as ``("Ah Ts 2d Jc 5h", CLASS)``.

    Cards keep the file's order (UCI rows are ordered 5-tuples).
    """
    hands = []
    for lineno, line in enumerate(path.read_text(encoding="ascii").splitlines(), 1):
        if not line.strip():
            continue
        fields = [int(f) for f in line.split(",")]
        if len(fields) != 11:
            raise ValueError(f"{path}:{lineno}: expected 11 fields, got {line!r}")
        cards = " ".join(UCI_RANKS[fields[i + 1]] + UCI_SUITS[fields[i]] for i in range(0, 10, 2))
        hands.append((cards, fields[10]))
    return tuple(hands)


# --------------------------------------------------------------------------
# Project Euler 54 and UVa 10315: two five-card hands per line
# --------------------------------------------------------------------------


def split_ten(line: str) -> tuple[str, str]:
    """Split a line of ten cards into the first and the last five (as strings)."""
    cards = line.split()
    if len(cards) != 10:
        raise ValueError(f"expected 10 cards, got {line!r}")
    return " ".join(cards[:5]), " ".join(cards[5:])


@cache
def euler54_deals(path: Path) -> tuple[tuple[str, str], ...]:
    """``p054_poker.txt`` as (player 1, player 2) hands, one pair per line."""
    lines = path.read_text(encoding="ascii").splitlines()
    return tuple(split_ten(line) for line in lines if line.strip())


@cache
def uva10315_sample(directory: Path) -> tuple[tuple[str, str, str], ...]:
    """UVa 10315 ``sample.in`` / ``sample.out`` as (black, white, expected line)."""
    inputs = [line for line in (directory / "sample.in").read_text().splitlines() if line.strip()]
    outputs = [line.strip() for line in (directory / "sample.out").read_text().splitlines() if line.strip()]
    if len(inputs) != len(outputs):
        raise ValueError(f"{directory}: {len(inputs)} inputs but {len(outputs)} outputs")
    return tuple((*split_ten(i), o) for i, o in zip(inputs, outputs, strict=False))


# --------------------------------------------------------------------------
# Exercism poker canonical data
# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ExercismCase:
    """One ``bestHands`` case: the hands as written and the expected winners."""

    uuid: str
    description: str
    hands: tuple[str, ...]  # e.g. "10D JH QS KD AC" (ten written as 10)
    expected: tuple[str, ...]  # a subset of ``hands`` (several on a tie)

    @property
    def test_id(self) -> str:
        """A readable, unique pytest id: the description and a uuid prefix."""
        slug = re.sub(r"[^a-z0-9]+", "-", self.description.lower()).strip("-")
        return f"{slug[:60]}-{self.uuid[:8]}"


def _walk_cases(node: dict[str, object]) -> list[dict[str, object]]:
    """Flatten the (possibly nested) ``cases`` of canonical data."""
    found: list[dict[str, object]] = []
    for case in node.get("cases", []):  # type: ignore[union-attr]
        if "cases" in case:
            found.extend(_walk_cases(case))
        else:
            found.append(case)
    return found


@cache
def exercism_cases(path: Path) -> tuple[ExercismCase, ...]:
    """Every ``bestHands`` case of ``canonical-data.json``, in file order."""
    data = json.loads(path.read_text(encoding="utf-8"))
    cases = []
    for case in _walk_cases(data):
        if case["property"] != "bestHands":
            continue
        cases.append(
            ExercismCase(
                uuid=case["uuid"],
                description=case["description"],
                hands=tuple(case["input"]["hands"]),
                expected=tuple(case["expected"]),
            )
        )
    return tuple(cases)


def has_repeated_card(hand: str) -> bool:
    """True when one hand holds the same card twice (it needs several packs)."""
    cards = [c.upper() for c in hand.split()]
    return len(set(cards)) != len(cards)


# --------------------------------------------------------------------------
# Cactus Kev's 7,462 equivalence classes
# --------------------------------------------------------------------------

#: Cactus Kev rank ranges (1 = best) -> the standard ruleset's category,
#: from ``cactus_kev_7462/README.md``; the royal flush is rank 1 of SF 1-10.
CACTUS_KEV_BOUNDARIES: tuple[tuple[int, int, str], ...] = (
    (1, 1, "royal_flush"),
    (2, 10, "straight_flush"),
    (11, 166, "four_of_a_kind"),
    (167, 322, "full_house"),
    (323, 1599, "flush"),
    (1600, 1609, "straight"),
    (1610, 2467, "three_of_a_kind"),
    (2468, 3325, "two_pair"),
    (3326, 6185, "pair"),
    (6186, 7462, "high_card"),
)

#: The category code in the files -> the standard ruleset's category.
CACTUS_KEV_CODES: dict[str, str] = {
    "RF": "royal_flush",
    "SF": "straight_flush",
    "4K": "four_of_a_kind",
    "FH": "full_house",
    "FF": "flush",
    "SS": "straight",
    "3K": "three_of_a_kind",
    "2P": "two_pair",
    "1P": "pair",
    "HC": "high_card",
}

#: Codes whose hands are flushes (only the lines of ``flushes.txt``).
CACTUS_KEV_FLUSH_CODES = frozenset({"RF", "SF", "FF"})

CACTUS_KEV_FILES = ("flushes.txt", "uniquefive.txt", "dupes.txt")


@dataclass(frozen=True, slots=True)
class KevClass:
    """One line of Cactus Kev's list: category code, ranks and rank number."""

    code: str  # RF SF FF SS HC 4K FH 3K 2P 1P
    ranks: str  # e.g. "AKQJT", "5432A", "AAAAK"
    rank: int  # 1 = best ... 7462 = worst

    def representative(self) -> str:
        """One concrete 5-card hand of this class, e.g. ``"As Ah Ad Ac Ks"``.

        Flush classes (RF, SF, FF) are all spades. Otherwise the suits must
        not make a flush and no card may repeat: five distinct ranks (SS, HC)
        get ``s h d c s`` by position; with repeated ranks the n-th card of a
        rank gets the n-th suit of ``s h d c`` (two cards of one rank never
        share a suit, and a pair already rules out a flush).
        """
        suits = "shdc"
        if self.code in CACTUS_KEV_FLUSH_CODES:
            cards = [r + "s" for r in self.ranks]
        elif len(set(self.ranks)) == 5:
            cards = [r + suits[i % 4] for i, r in enumerate(self.ranks)]
        else:
            seen: dict[str, int] = {}
            cards = []
            for r in self.ranks:
                cards.append(r + suits[seen.get(r, 0)])
                seen[r] = seen.get(r, 0) + 1
        flush = len({c[1] for c in cards}) == 1
        if len(set(cards)) != 5 or flush != (self.code in CACTUS_KEV_FLUSH_CODES):
            raise AssertionError(f"bad representative {cards} for {self}")
        return " ".join(cards)


def category_for_kev_rank(rank: int) -> str:
    """The standard category of Cactus Kev rank ``rank`` (README boundaries)."""
    for low, high, category in CACTUS_KEV_BOUNDARIES:
        if low <= rank <= high:
            return category
    raise ValueError(f"Cactus Kev rank {rank} is outside 1..7462")


@cache
def cactus_kev_classes(directory: Path) -> tuple[KevClass, ...]:
    """All lines of the three Cactus Kev files, sorted by rank (best first)."""
    classes = []
    for name in CACTUS_KEV_FILES:
        for lineno, line in enumerate((directory / name).read_text().splitlines(), 1):
            if not line.strip():
                continue
            fields = line.split()
            if len(fields) != 3 or len(fields[1]) != 5 or fields[0] not in CACTUS_KEV_CODES:
                raise ValueError(f"{directory / name}:{lineno}: unexpected line {line!r}")
            classes.append(KevClass(fields[0], fields[1], int(fields[2])))
    return tuple(sorted(classes, key=lambda k: k.rank))
