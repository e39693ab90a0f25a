"""What building a ruleset's lookup tables costs, estimated before anything is built.

:func:`evaluator.compiled.tables.build_tables` values every hand *class* once
through the generic evaluator, then grows the tables to bigger holdings with
NumPy. Both are counted here without enumerating anything, from the deck's
cards per rank and the hand size:

- **rank classes** (every ruleset): each rank-count vector of ``hand.min`` to
  ``hand.size`` cards (the wild cards held as one more digit) is one fill,
  and a full hand that can be one suit one more per suit that matters. A fill
  with ``w`` wild cards tries the rank multisets the wilds can take, and a
  bigger hand costs more to classify;
- **table growth**: every rank-count vector of ``hand.size + 1`` and
  ``hand.size + 2`` cards, a few vectorised steps each;
- **suit classes** (patterns that look at suits within the hand): every
  holding up to a renaming of suits, each chosen from its subsets -- the
  enumeration ``check`` itself runs for coverage (:func:`suited_work`).

The work is in the units of ``check``'s coverage budget (about 2.5
microseconds each). Past :data:`MAX_TABLE_WORK` (rank classes) or
:data:`MAX_SUITED_TABLE_WORK` (suit classes) the tables are refused before
anything is built (``R130``), by ``check`` and by every command that would
build them; a ruleset whose suit classes cannot be enumerated at all is
``R131``. Whatever ``check`` accepts therefore builds in seconds (rank
classes) or, for suit classes, in at most about the minute freak-hands takes
(built once, then read from the cache).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb, factorial
from typing import TYPE_CHECKING

from ..core.errors import Diagnostic, RulesetError
from ..engine.evaluate import engine_for
from ..rules.work import pattern_factor
from .suitclasses import class_count, supported
from .table_layout import EXTRA_CARDS, CardModel

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

#: The cost of classifying one hand class, in units of about 2.5 microseconds.
CLASS_COST = 12
#: Units per rank-count vector grown by NumPy (about a third of a unit each).
GROW_ROWS_PER_UNIT = 3
#: The most work a rank-class build may take, as ``check``'s own coverage budget:
#: a few seconds (the shipped rulesets take at most 1.1 million units, deuces-wild-video
#: about two seconds; seven-card hands of one pack without wild cards, 950,000).
MAX_TABLE_WORK = 1_500_000
#: The most work a suit-class build may take, as ``check``'s coverage of suit
#: classes: freak-hands (a wild joker, long patterns) is 33 million units, about a minute.
MAX_SUITED_TABLE_WORK = 40_000_000


@dataclass(frozen=True)
class BuildCost:
    """The estimated work of building one ruleset's tables."""

    fills: int  # rank classes valued by the generic evaluator (exactly as many as the build fills)
    grown: int  # rank-count vectors of the bigger holdings grown by NumPy
    suited_classes: int  # suit classes valued (0 unless patterns look at suits within the hand)
    work: int  # in units, rank classes and growth together
    suited_work: int  # in units, suit classes
    cannot: str | None = None  # why the tables cannot be built at all

    @property
    def over(self) -> bool:
        """Whether the work passes a limit."""
        return self.work > MAX_TABLE_WORK or self.suited_work > MAX_SUITED_TABLE_WORK


def count_multisets(total: int, caps: list[int] | tuple[int, ...]) -> int:
    """How many count vectors ``c`` have ``0 <= c[d] <= caps[d]`` and ``sum(c) == total``.

    >>> count_multisets(5, [4] * 13)  # five-card rank multisets of a 52-card deck
    6175
    """
    if total < 0:
        return 0
    ways = [1] + [0] * total
    for cap in caps:
        # multiply by (1 + x + ... + x^cap), truncated at x^total
        new = [0] * (total + 1)
        running = 0
        for size in range(total + 1):
            running += ways[size]
            if size - cap - 1 >= 0:
                running -= ways[size - cap - 1]
            new[size] = running
        ways = new
    return ways[total]


def fill_cost(cards: int, wilds: int, ranks: int, factor: int) -> int:
    """Units of valuing one hand class of ``cards`` cards, ``wilds`` of them wild."""
    per_class = CLASS_COST if wilds == 0 else CLASS_COST + 2 * comb(ranks + wilds - 1, wilds)
    return per_class * factor * max(cards, 5) // 5  # more cards: more to sort, group and match


def suited_work(ruleset: Rules, sizes: range, factor: int) -> tuple[int, int]:
    """(suit classes, units) of valuing every holding of ``sizes`` cards by suit class.

    A hand of wild cards tries every concrete card for them; there is about one
    class per renaming of the suits (hands / suits!).
    """
    jokers = ruleset.jokers if ruleset.wild.jokers else 0
    wild_cards = jokers + sum(len(ruleset.suits) for rank in ruleset.deck_ranks if rank in ruleset.wild.ranks)
    cards = len(ruleset.rank_symbols) * len(ruleset.suits)
    classes = work = 0
    for k in sizes:
        for w in range(0, min(k, wild_cards) + 1):
            count = class_count(ruleset, k - w) // factorial(len(ruleset.suits))
            classes += count
            work += count * CLASS_COST * comb(cards + w - 1, w) * factor
    return classes, work


def build_cost(ruleset: Rules, model: CardModel) -> BuildCost:
    """The estimated cost of :func:`evaluator.compiled.tables.build_tables` for ``ruleset``."""
    engine = engine_for(ruleset)
    factor = pattern_factor(category.pattern for category in ruleset.categories)
    size = ruleset.hand_size
    low = max(ruleset.hand_min, 1)
    naturals = list(model.natural_caps)
    wild_cap = model.wild_cap if model.layout.has_wild_digit else 0
    ranks = len(ruleset.rank_symbols)
    flush_suits = len(ruleset.suits) if model.suit_sensitive else 1
    several_suits = len(ruleset.suits) > 1
    one_suited = [min(cap, ruleset.copies) for cap in naturals]  # a suit holds a rank once per pack
    fills = work = 0
    for k in range(low, size + 1):
        for w in range(0, min(k, wild_cap) + 1):
            classes = count_multisets(k - w, naturals)
            if k < size:
                count = classes
            else:  # a full hand: valued unsuited (two naturals or more), and as one suit when it can be
                count = (classes if k - w >= 2 and several_suits else 0) + count_multisets(
                    k - w, one_suited
                ) * flush_suits
            fills += count
            work += count * fill_cost(k, w, ranks, factor)
    caps = [*naturals, wild_cap] if wild_cap else naturals
    grown = sum(count_multisets(k, caps) for k in range(size + 1, size + EXTRA_CARDS + 1))
    work += grown // GROW_ROWS_PER_UNIT
    cannot = None
    suited_classes = suited_units = 0
    if engine.by_suit_class:
        cannot = supported(ruleset, size)
        if cannot is None:
            suited_classes, suited_units = suited_work(ruleset, range(low, size + 1), factor)
    return BuildCost(fills, grown, suited_classes, work, suited_units, cannot)


def refusal(ruleset: Rules, cost: BuildCost) -> tuple[str, str, str] | None:
    """(code, message, hint) when the tables of ``ruleset`` must not be built, else None."""
    if cost.cannot is not None:
        return (
            "R131",
            f"the lookup tables of {ruleset.name} cannot be built: its patterns look at suits within the "
            f"hand, and {cost.cannot}",
            "one pack, at most 6 cards, and no single wild cards or lowest-card wild with such patterns",
        )
    if not cost.over:
        return None
    hint = "a smaller hand, fewer packs or fewer wild cards can be built"
    if cost.suited_work > MAX_SUITED_TABLE_WORK:
        return (
            "R130",
            f"building the lookup tables means valuing about {cost.suited_classes:,} suit classes "
            f"({cost.suited_work:,} units of work); the limit is {MAX_SUITED_TABLE_WORK:,}",
            hint,
        )
    return (
        "R130",
        f"building the lookup tables of {ruleset.hand_size}-card hands means valuing {cost.fills:,} hand classes "
        f"and growing {cost.grown:,} more ({cost.work:,} units of work, about {cost.work * 25 // 10_000_000:,} s); "
        f"the limit is {MAX_TABLE_WORK:,}",
        hint,
    )


def blamed_keys(ruleset: Rules, cost: BuildCost) -> tuple[tuple[str, ...], ...]:
    """The keys a refusal is reported at, the most telling first: what breaks the
    suit symmetry (R131), else the hand size."""
    keys: tuple[tuple[str, ...], ...] = ()
    if cost.cannot is not None:
        if ruleset.copies > 1:
            keys = (("deck", "copies"),)
        elif ruleset.wild.lowest_rank:
            keys = (("wild", "lowest_rank"),)
        elif any(not card.is_joker for card in ruleset.wild.cards):
            keys = (("wild", "cards"),)
    return (*keys, ("hand", "size"), ("hand",))


def check_build(ruleset: Rules, model: CardModel) -> None:
    """Raise ``R130``/``R131`` when the tables must not be built, at the key to blame
    in the ruleset's own file (its ``extends:`` when the value was inherited)."""
    cost = build_cost(ruleset, model)
    found = refusal(ruleset, cost)
    if found is None:
        return
    code, message, hint = found
    document = ruleset.document
    written = [path for path in blamed_keys(ruleset, cost) if path in document.positions]
    where = document.position(written[0] if written else ())
    own = document.sources[0] if document.sources else where.source
    if where.source != own and ("extends",) in document.positions:
        where = document.position(("extends",))
    raise RulesetError(Diagnostic(code, message, where.source, where.line, where.col, "error", hint))
