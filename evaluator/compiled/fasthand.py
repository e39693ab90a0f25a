"""evaluate, compare and showdown on the compiled tables.

The generic evaluator (``evaluate.py``) stays the reference; this module only
decides *which* cards play and *who wins* with table values, then hands the
display work back to the generic evaluator for the few hands that need it:

- **compare** of two card holdings is two table values and one comparison.
  Equal values are equal ``Fill.strength`` (qualifier, value, natural-beats-wild
  and the suit tie-break included), so ``compare`` answers exactly as the
  generic path -- with the qualifier rule that two hands that do not qualify
  tie. Rulesets with ``beats:`` exceptions need each hand's category and shape,
  so they take the generic path.
- **evaluate** ranks the whole holding once, then looks for the first
  ``hand.size`` subset that reaches that value (the subset the generic
  best-of-N keeps, since equal values are equal strengths) and fills only that
  one subset with the generic evaluator.
- **showdown** ranks every player's holding on the tables (for games with a
  card-usage rule: the best allowed combination) and picks the winners from
  the values; each player's display ``Hand`` is built on first access.

Where the tables cannot answer, the generic path does (see :func:`fast_mode`):
``beats:`` exceptions (compare and showdown), lowest-card wild in a game with a
card-usage rule, hands that do not qualify when more than ``hand.size``
cards are held (the generic evaluator then prefers the best-scoring subset,
which the table value does not see), and the cards that play in a
``best_subset`` ruleset (a smaller subset may beat the whole holding).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from itertools import combinations, product
from math import comb, inf
from typing import TYPE_CHECKING, Any

from ..core.errors import RulesetError
from ..engine.cardread import deck_reader, read_cards
from ..engine.evaluate import engine_for
from ..engine.hand import Hand
from ..engine.showdown import CardsLike, ShowdownResult, best_hand
from ..engine.showdown import compare as generic_compare
from ..engine.showdown import showdown as generic_showdown
from ..rules.cards import Card

NO_HAND = -1  # the tables' value of no hand (classgrid.NO_HAND; not imported: it would load NumPy)

if TYPE_CHECKING:
    from ..engine.fill import Fill
    from ..rules.ruleset import Game, Rules
    from .fast import FastRanker


class FastHands:
    """Table values of card holdings for one ruleset, and the subsets that play."""

    def __init__(self, ruleset: Rules, ranker: FastRanker) -> None:
        self.ruleset = ruleset
        self.ranker = ranker
        self.rank: Callable[[Sequence[int]], int] = ranker.rank
        self.raw_rank: Callable[[Sequence[int]], int] = ranker.raw_rank
        self.codes: list[int] = ranker.code_list
        self.size = ruleset.hand_size
        self.engine = engine_for(ruleset)
        tables = ranker.tables
        self.categories = tables.categories.tolist()
        self.value_scale = ranker.value_scale  # a value is dense * value_scale + suit key
        self.lowest = ruleset.wild.lowest_rank
        self.wild_code = ranker.model.wild_code if ranker.layout.has_wild_digit else None

    def qualifies(self, value: int) -> bool:
        """Whether a table value is a hand that qualifies (and can win)."""
        return value >= 0 and self.categories[value // self.value_scale] >= 0

    def value(self, ids: Sequence[int]) -> int:
        """The table value of a holding given as card ids."""
        codes = self.codes
        return self.rank([codes[i] for i in ids])

    def best_subset(self, ids: Sequence[int]) -> tuple[int, tuple[int, ...]] | None:
        """(value, positions of the cards that play) the generic best-of-N picks, or
        None when only the generic path can tell (see the module docstring)."""
        if self.ruleset.best_subset:
            return None  # a subset of any size may play, even of a short holding: the generic search
        codes = [self.codes[i] for i in ids]
        best = self.rank(codes)
        if len(ids) <= self.size:
            return best, tuple(range(len(ids)))
        if best < 0 or not self.qualifies(best) or self.lowest:
            return None
        finder = self.ranker.subset_finder
        if finder is not None:
            kept = finder(codes, best)
            if kept is not None:
                return best, kept
        raw = self.raw_rank
        for subset in combinations(range(len(ids)), self.size):
            if raw([codes[i] for i in subset]) == best:
                return best, subset
        return None  # pragma: no cover - the holding's value is some subset's value

    def fill(self, cards: Sequence[Card]) -> Fill | None:
        """The generic evaluator's best fill of ``cards``, found with the tables."""
        engine = self.engine
        id_of = deck_reader(self.ruleset).id_of
        found = self.best_subset([id_of[card] for card in cards])
        if found is None:
            return engine.best(cards, engine.candidates(cards))
        subset = [cards[i] for i in found[1]]
        if self.ruleset.wild.any:
            mask_of: dict[Card, bool] = {}
            for card, wild in zip(cards, engine.wild_mask(cards), strict=True):
                mask_of[card] = mask_of.get(card, False) or wild
            mask = [mask_of[card] for card in subset]
        else:
            mask = [False] * len(subset)
        return engine.fill(subset, mask)


def fast_hands(ruleset: Rules) -> FastHands:
    """The (cached) :class:`FastHands` of ``ruleset``."""
    found: FastHands | None = getattr(ruleset, "_cache_fast_hands", None)
    if found is None:
        from .fast import ruleset_ranker

        found = FastHands(ruleset, ruleset_ranker(ruleset))
        object.__setattr__(ruleset, "_cache_fast_hands", found)
    return found


#: Rulesets with more hand classes than this (hands of 7 or more cards over many ranks)
#: are not compiled just to answer a call: a build would take far longer than the
#: generic evaluator needs for the hands asked about.
MAX_CLASSES_FOR_CALLS = 50_000
#: Calls per ruleset answered generically before the tables are loaded for the rest.
WARM_CALLS = 32


def tables_worth_it(ruleset: Rules) -> bool:
    """Whether per-call answers should go through the tables: they are built already,
    or the ruleset has few enough classes to build them in a second or two, and its
    deck fits them."""
    if getattr(ruleset, "_cache_fast_hands", None) is not None:
        return True
    left = getattr(ruleset, "_cache_generic_left", 0)
    if left > 0:  # inside :func:`generic_answers`
        object.__setattr__(ruleset, "_cache_generic_left", left - 1)
        return False
    if getattr(ruleset, "_cache_tables", None) is not None:
        return True
    # A few calls are answered by the generic evaluator: loading NumPy and the tables
    # would cost more than they save (and a one-off evaluate stays a cold start).
    calls = getattr(ruleset, "_cache_calls", 0) + 1
    object.__setattr__(ruleset, "_cache_calls", calls)
    if calls <= WARM_CALLS:
        return False
    digits = len(ruleset.rank_symbols) + (1 if ruleset.wild.any else 0)
    if comb(digits + ruleset.hand_size, ruleset.hand_size) > MAX_CLASSES_FOR_CALLS:
        return False
    try:
        fast_hands(ruleset)
    except RulesetError:
        return False  # R104: too many packs for the tables
    return True


@contextmanager
def generic_answers(ruleset: Rules, calls: int | None = None) -> Iterator[None]:
    """Answer the block's calls (its first ``calls``, when given) with the generic evaluator
    unless the per-call closures are made already: a file's examples are a few dozen hands,
    which a first table build (seconds for a ruleset walked by suit class), or the per-call
    closures of loaded suit-class tables (a second or two), would cost far more than they
    save. ``check`` runs its examples so; ``diff`` its search for examples, with a budget.

    >>> from evaluator import load
    >>> rs = load("four-flush")
    >>> with generic_answers(rs):  # a four flush beats a pair, however many calls
    ...     {rs.compare("Ah 9h 7h 4h Kc", "As Ad 7d 4c 2s") for _ in range(100)}
    {1}
    """
    before = getattr(ruleset, "_cache_generic_left", 0)
    object.__setattr__(ruleset, "_cache_generic_left", inf if calls is None else calls)
    try:
        yield
    finally:
        object.__setattr__(ruleset, "_cache_generic_left", before)


def fast_mode(ruleset: Rules, what: str) -> bool:
    """Whether ``what`` (``"compare"``, ``"evaluate"``, ``"showdown"``) runs on the tables.

    >>> from evaluator import load
    >>> from evaluator.compiled.tables import tables_for
    >>> _ = tables_for(load("standard"))  # built already: per-call answers go through them
    >>> fast_mode(load("standard"), "compare"), fast_mode(load("italian"), "compare")
    (True, False)
    """
    if what in ("compare", "showdown") and ruleset.beats:
        return False
    if not tables_worth_it(ruleset):
        return False
    game = ruleset.game
    constrained = game is not None and (game.use_hole is not None or game.use_board is not None)
    return not (what == "showdown" and constrained and ruleset.wild.lowest_rank)


def evaluate(ruleset: Rules, cards: Any) -> Hand:
    """``Ruleset.evaluate`` with the tables choosing the cards that play."""
    read = read_cards(ruleset, cards)
    engine = engine_for(ruleset)
    game = ruleset.game
    constrained = game is not None and (game.use_hole is not None or game.use_board is not None)
    if (
        len(read) < ruleset.hand_min
        or (constrained and len(read) > ruleset.hand_size)
        or not fast_mode(ruleset, "evaluate")
    ):
        return engine.evaluate(read)  # C104, or a game's card-usage rule where rank() takes one hand
    fill = fast_hands(ruleset).fill(read)
    if fill is None:
        return engine.evaluate(read)  # C106, said by the generic evaluator
    return Hand.from_fill(ruleset, fill)


def compare_values(ruleset: Rules, a: Any, b: Any) -> int | None:
    """``compare`` of two card holdings on the tables; None when the tables cannot
    answer (a Hand given, beats:, a game's card-usage rule on a big holding)."""
    if isinstance(a, Hand) or isinstance(b, Hand) or not fast_mode(ruleset, "compare"):
        return None
    hands = fast_hands(ruleset)
    first, second = hands.ranker.encoder(a), hands.ranker.encoder(b)
    game = ruleset.game
    if game is not None and max(len(first), len(second)) > ruleset.hand_size:
        return None
    if min(len(first), len(second)) < ruleset.hand_min:
        return None  # the generic path says C104 with its hint
    left, right = hands.rank(first), hands.rank(second)
    if left < 0 or right < 0:
        return None  # no category matches: the generic path says C106
    left_ok, right_ok = hands.qualifies(left), hands.qualifies(right)
    if left_ok != right_ok:
        return 1 if left_ok else -1
    if not left_ok or left == right:
        return 0
    return 1 if left > right else -1


def compare(ruleset: Rules, a: CardsLike | Hand, b: CardsLike | Hand) -> int:
    """1 when ``a`` wins, -1 when ``b`` wins, 0 for a tie: the tables where they answer
    (:func:`compare_values`), else ``engine.showdown.compare``, with the same answer.

    >>> from evaluator import load
    >>> compare(load("standard"), "As Ks Qs Js Ts", "Ah Ad Ac As Kd")
    1
    """
    decided = compare_values(ruleset, a, b)
    return decided if decided is not None else generic_compare(ruleset, a, b)


# --- showdown ------------------------------------------------------------------------


def showdown(
    ruleset: Rules,
    players: Sequence[CardsLike],
    board: CardsLike | Sequence[CardsLike] = "",
    pot: int | None = None,
) -> ShowdownResult:
    """``engine.showdown.showdown`` with each half settled on the tables where they can
    (:func:`fast_half`): the same result, the display hands built on first access.

    >>> from evaluator import load
    >>> showdown(load("holdem"), ["As Ad", "Kc Kd"], "2s 7h 9c Jd 3c").winners
    [0]
    """
    return generic_showdown(ruleset, players, board, pot, decide_half=fast_half)


def fast_half(
    half_rules: Rules, holes: Sequence[Sequence[Card]], board: Sequence[Card], game: Game | None
) -> tuple[list[Hand | None], list[int]] | None:
    """(display hands built on first access, winners) of one half from table values,
    or None when only the generic path can decide (see :func:`fast_mode`)."""
    if not fast_mode(half_rules, "showdown"):
        return None
    id_of = deck_reader(half_rules).id_of
    try:
        board_ids = [id_of[card] for card in board]
        hole_ids = [[id_of[card] for card in hole] for hole in holes]
    except KeyError:
        return None  # a card of the game's deck this half's deck lacks: the generic path decides
    hands = fast_hands(half_rules)
    values = [holding_value(hands, hole, board_ids, game) for hole in hole_ids]

    def build() -> list[Hand | None]:
        return [best_hand(half_rules, hole, board, game) for hole in holes]

    return LazyHands(build), winners(hands, values)


def holding_value(hands: FastHands, hole: Sequence[int], board: Sequence[int], game: Game | None) -> int:
    """A player's best table value under the game's card-usage rule (NO_HAND: none)."""
    size = hands.size
    if game is None or (game.use_hole is None and game.use_board is None):
        held = list(hole) + list(board)
        return hands.value(held) if held else NO_HAND
    use_hole = game.use_hole if game.use_hole is not None else size - (game.use_board or 0)
    use_board = game.use_board if game.use_board is not None else size - use_hole
    if len(hole) < use_hole or len(board) < use_board:
        return NO_HAND
    codes = hands.codes
    raw = hands.raw_rank
    hole_parts = [[codes[i] for i in part] for part in combinations(hole, use_hole)]
    board_parts = [[codes[i] for i in part] for part in combinations(board, use_board)]
    return max(raw(h + b) for h, b in product(hole_parts, board_parts))


def winners(hands: FastHands, values: Sequence[int]) -> list[int]:
    """The players with the best qualifying value (all of them share)."""
    alive = [i for i, value in enumerate(values) if hands.qualifies(value)]
    if not alive:
        return []
    top = max(values[i] for i in alive)
    return [i for i in alive if values[i] == top]


class LazyHands(list):  # type: ignore[type-arg]
    """The players' display hands of one half, built on first access."""

    def __init__(self, build: Callable[[], list[Hand | None]]) -> None:
        super().__init__()
        self._build: Callable[[], list[Hand | None]] | None = build

    def _ready(self) -> None:
        if self._build is not None:
            build, self._build = self._build, None
            super().extend(build())

    def __getitem__(self, index: Any) -> Any:
        self._ready()
        return super().__getitem__(index)

    def __iter__(self) -> Iterator[Any]:
        self._ready()
        return super().__iter__()

    def __len__(self) -> int:
        self._ready()
        return super().__len__()

    def __eq__(self, other: object) -> bool:
        self._ready()
        return super().__eq__(other)

    __hash__ = None

    def __repr__(self) -> str:
        self._ready()
        return super().__repr__()


def comparer(ruleset: Rules) -> Callable[[Any, Any], int]:
    """``Ruleset.compare`` as one closure: two card strings are encoded, ranked and
    compared on the tables; everything else (Hands, beats:, big holdings of a game)
    goes through :func:`compare` (the tables where they answer, else the generic comparison)."""

    def slow(a: Any, b: Any) -> int:
        return compare(ruleset, a, b)

    if ruleset.beats:
        return slow

    def warming(a: Any, b: Any) -> int:
        # generic until the tables are worth loading, then the table closure takes over
        # (with the name, docstring and signature the facade gave this one)
        if fast_mode(ruleset, "compare"):
            fast = on_tables(ruleset, slow)
            for face in ("__name__", "__qualname__", "__doc__", "__signature__"):
                if hasattr(warming, face):
                    setattr(fast, face, getattr(warming, face))
            object.__setattr__(ruleset, "compare", fast)
        return slow(a, b)

    return on_tables(ruleset, slow) if fast_mode(ruleset, "compare") else warming


def on_tables(ruleset: Rules, slow: Callable[[Any, Any], int]) -> Callable[[Any, Any], int]:
    """The table closure of :func:`comparer` (the tables are loaded)."""
    hands = fast_hands(ruleset)
    encode, rank = hands.ranker.encoder, hands.rank
    categories, scale = hands.categories, hands.value_scale
    low = ruleset.hand_min
    high = ruleset.hand_size if ruleset.game is not None else 52

    def compare(a: Any, b: Any) -> int:
        if a.__class__ is str and b.__class__ is str:
            first, second = encode(a), encode(b)
            if low <= len(first) <= high and low <= len(second) <= high:
                left, right = rank(first), rank(second)
                if left >= 0 and right >= 0:
                    left_ok, right_ok = categories[left // scale] >= 0, categories[right // scale] >= 0
                    if left_ok != right_ok:
                        return 1 if left_ok else -1
                    if not left_ok or left == right:
                        return 0
                    return 1 if left > right else -1
        return slow(a, b)

    compare.__doc__ = f"1 when a wins, -1 when b wins, 0 for a tie (in {ruleset.name})."
    return compare
