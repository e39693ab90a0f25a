"""A hypothesis strategy that writes ruleset documents across the feature space.

A generated ruleset is a :class:`Spec`: what was chosen, kept as plain data,
and turned into a YAML document by :meth:`Spec.document` (it always
``extends: standard``, so ``diff`` has a parent to compare against). Each
feature is one function ``feature(draw, spec)`` that reads what earlier
features chose and adds its own choice; :func:`rulesets` runs them in
``FEATURES`` order. To cover a new key of the file format, write one such
function and add it to ``FEATURES`` (or pass your own list to
:func:`rulesets`); when the brute force of ``brute.py`` cannot judge what
the feature adds, clear ``spec.plain`` (or leave a category's ``plain`` None).

Features: the deck (stripped ranks, suits, 1-2 packs, 0-2 jokers), the ace
rule, the direction (high / low), the hand (size, ``min``, ``best_subset``),
the categories and their order (shapes, runs, flushes, royal flushes,
n-of-a-kind, suit-form patterns ``flush(k)``, ``run(k, flush)``, ``suits``,
a named suit, round-the-corner runs, cyclic straight flushes with
``beats:``), wild cards (ranks, cards, jokers, the bug's ``plays_as``, the
lowest card, ``duplicates``), categories that read the wild cards held
(``natural``, ``wilds = k``), ``rank_by``, ``natural_beats_wild``, the suit order and
its three tie-breaks, a qualifier, other ``beats:`` exceptions, games
(hole / board cards, must-use counts, double boards, hi-lo splits), and last
``examples:`` written with the brute force's answers.

``small=True`` keeps decks to about 12-24 cards, where tables build in a
fraction of a second and the brute force can visit every hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml
from hypothesis import strategies as st

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]
SUITS = ["s", "h", "d", "c"]
LETTERS = "XYZWVU"
TIEBREAKS = ["none", "highest_card", "highest_paired", "highest_unpaired"]

Draw = Callable[[st.SearchStrategy[Any]], Any]


@dataclass
class Category:
    """One category: its name, pattern and describe template, and what the brute force
    knows of it (``plain``: a tag ``brute.py`` understands, or None)."""

    name: str
    pattern: str
    plain: tuple[Any, ...] | None
    describe: str | None = None
    #: ``rank_by:``, the tie-break order when not the pattern's own
    rank_by: list[str] | None = None


@dataclass
class Spec:
    """Everything a generated ruleset says, as chosen feature by feature."""

    small: bool = True
    ranks: list[str] = field(default_factory=lambda: list(RANKS))
    suits: list[str] = field(default_factory=lambda: list(SUITS))
    jokers: int = 0
    copies: int = 1
    ace: str = "both"
    direction: str = "high"
    size: int = 5
    min: int = 5
    best_subset: bool = False
    categories: list[Category] = field(default_factory=list)
    wild: dict[str, Any] = field(default_factory=dict)
    natural_beats_wild: bool = False
    suit_order: list[str] = field(default_factory=lambda: list(SUITS))
    tiebreak: str = "none"
    qualifier: str | None = None
    qualifier_plain: tuple[Any, ...] | None = None
    beats: list[dict[str, str]] = field(default_factory=list)
    game: dict[str, Any] | None = None
    #: examples written from the brute force's answers (check must find them true)
    examples: list[str] = field(default_factory=list)
    #: companion files a game's hi-lo split names (file name -> document)
    companions: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: the features this ruleset uses (reported with hypothesis.event)
    used: set[str] = field(default_factory=set)
    #: False once a feature the brute force cannot judge is chosen
    plain: bool = True
    #: features that must be chosen (not left out) in this run: "wild", "wild terms", "rank_by", "examples", "tiebreak",
    #: "suit forms", "game", "beats", "qualifier", "best_subset", "deal" (the dealer's-choice keys)
    focus: frozenset[str] = frozenset()

    # --- derived -------------------------------------------------------------------

    @property
    def deck_cards(self) -> int:
        """How many cards the deck holds."""
        return len(self.ranks) * len(self.suits) * self.copies + self.jokers

    @property
    def has_wilds(self) -> bool:
        """Whether any card can be wild."""
        return bool(self.wild.get("ranks") or self.wild.get("cards") or self.wild.get("lowest_rank") is True) or (
            self.jokers > 0 and self.wild.get("jokers", True)
        )

    @property
    def deck_texts(self) -> list[str]:
        """Every card of the deck as text, once per pack; jokers ``X``, ``X2``."""
        cards = [rank + suit for rank in self.ranks for suit in self.suits] * self.copies
        return cards + ["X", "X2"][: self.jokers]

    @property
    def most_wilds(self) -> int:
        """The most wild cards one hand can hold (0 without wild cards)."""
        packs = self.copies
        held = self.jokers if self.jokers and self.wild.get("jokers", True) else 0
        held += len(self.wild.get("ranks", [])) * len(self.suits) * packs + len(self.wild.get("cards", [])) * packs
        if self.wild.get("lowest_rank") is True:
            held += len(self.suits) * packs  # every card of the lowest rank held
        return min(self.size, held)

    @property
    def brute_force(self) -> bool:
        """Whether ``brute.py`` can judge every hand of this ruleset."""
        return (
            self.plain
            and all(category.plain is not None for category in self.categories)
            and (self.qualifier is None or self.qualifier_plain is not None)
            and (self.min == self.size or self.best_subset)
        )

    def category_names(self) -> list[str]:
        """The categories, highest first."""
        return [category.name for category in self.categories]

    def document(self) -> dict[str, Any]:
        """The ruleset file as data (it extends ``standard``)."""
        doc: dict[str, Any] = {
            "name": "generated",
            "extends": "standard",
            "deck": {
                "ranks": list(self.ranks),
                "suits": list(self.suits),
                "jokers": self.jokers,
                "copies": self.copies,
            },
            "ace": self.ace,
            "direction": self.direction,
            "hand": {"size": self.size, "min": self.min, "best_subset": self.best_subset},
            "categories": {
                c.name: {
                    "pattern": c.pattern,
                    **({"describe": c.describe} if c.describe else {}),
                    **({"rank_by": c.rank_by} if c.rank_by else {}),
                }
                for c in self.categories
            },
            "order": self.category_names(),
            "natural_beats_wild": self.natural_beats_wild,
            "suits": {"order": list(self.suit_order), "tiebreak": self.tiebreak},
        }
        if self.wild:
            doc["wild"] = self.wild
        if self.qualifier is not None:
            doc["qualifier"] = self.qualifier
        if self.beats:
            doc["beats"] = self.beats
        if self.game is not None:
            doc["game"] = self.game
        if self.examples:
            doc["examples"] = list(self.examples)
        return doc

    def yaml(self) -> str:
        """The ruleset file's text."""
        return yaml.safe_dump(self.document(), sort_keys=False, allow_unicode=True)

    def describe(self) -> str:
        """A short line for failure reports."""
        return f"{self.deck_cards} cards, {sorted(self.used)}"


# --- shapes of any hand size ------------------------------------------------------------


def shape(groups: Sequence[int]) -> str:
    """The shape pattern of rank groups, largest first: ``shape([3, 2]) == "XXX YY"``."""
    return " ".join(LETTERS[i] * count for i, count in enumerate(groups))


def partitions(size: int) -> list[tuple[int, ...]]:
    """Every way to split ``size`` cards into rank groups, the strongest (in poker's
    order: the biggest group, then the next) first."""
    found: list[tuple[int, ...]] = []

    def walk(left: int, most: int, prefix: tuple[int, ...]) -> None:
        if left == 0:
            found.append(prefix)
            return
        for part in range(min(left, most), 0, -1):
            walk(left - part, part, prefix + (part,))

    walk(size, size, ())
    return sorted(found, reverse=True)


SHAPE_NAMES = {
    (5,): "five_of_a_kind",
    (4, 1): "four_of_a_kind",
    (3, 2): "full_house",
    (3, 1, 1): "three_of_a_kind",
    (2, 2, 1): "two_pair",
    (2, 1, 1, 1): "pair",
    (1, 1, 1, 1, 1): "high_card",
}


def shape_name(groups: tuple[int, ...]) -> str:
    """A category name for a shape (poker's own names for five cards)."""
    return SHAPE_NAMES.get(groups) or "groups_" + "_".join(map(str, groups))


# --- the features -------------------------------------------------------------------------


def deck(draw: Draw, spec: Spec) -> None:
    """Ranks (a stripped deck keeps the high ranks; sometimes it stops below the ace),
    suits, packs and jokers."""
    if spec.small:
        suits = draw(st.sampled_from([2, 3, 4]))
        count = draw(st.integers(5, 6 if suits > 2 else 7))
        copies = draw(st.sampled_from([1, 1, 1, 2])) if count * suits <= 14 else 1
    else:
        suits = draw(st.sampled_from([4, 4, 4, 3]))
        count = draw(st.sampled_from([13, 13, 9, 8, 7]))
        copies = draw(st.sampled_from([1, 1, 1, 2]))
    top = 13 if draw(st.integers(0, 5)) else draw(st.integers(count, 12))  # mostly up to the ace
    spec.ranks = RANKS[top - count : top]
    spec.suits = draw(st.permutations(SUITS))[:suits]
    spec.suit_order = list(spec.suits)
    spec.copies = copies
    spec.jokers = draw(st.sampled_from([0, 0, 0, 1, 2]))
    if "one joker" in spec.focus:  # one pack and one wild joker: the suit-class walk's bulk choice
        spec.copies, spec.jokers = 1, 1
    if spec.copies > 1:
        spec.used.add("two packs")
    if spec.jokers:
        spec.used.add("jokers")
    if top < 13:
        spec.used.add("deck without an ace")


def ace(draw: Draw, spec: Spec) -> None:
    """The ace rule: high and low in runs, high only, or low everywhere."""
    spec.ace = draw(st.sampled_from(["both", "both", "high", "low"]))
    spec.used.add(f"ace {spec.ace}")


def direction(draw: Draw, spec: Spec) -> None:
    """High poker or lowball (the lowest hand wins)."""
    spec.direction = draw(st.sampled_from(["high", "high", "low"]))
    spec.used.add(f"direction {spec.direction}")


def hand(draw: Draw, spec: Spec) -> None:
    """Hand size (five mostly), incomplete hands (``hand.min``) and best subsets."""
    spec.size = draw(st.sampled_from([5, 5, 5, 5, 4, 3]))
    spec.min = spec.size
    if draw(st.integers(0, 5)) == 0:
        spec.min = draw(st.integers(1, spec.size - 1))
        spec.used.add("hand.min")
    if spec.size <= 4 and spec.min < spec.size and "one joker" not in spec.focus and draw(st.booleans()):
        spec.best_subset = True
    if "one joker" in spec.focus:
        spec.size = max(spec.size, 4)  # suit forms need four cards
    if "best_subset" in spec.focus:
        # from one card: every holding has a set of one (a larger min leaves a pair without a
        # category, R113, as other profiles find)
        spec.size, spec.min = draw(st.sampled_from([3, 4])), 1
        spec.best_subset = True
        spec.used.add("hand.min")
    if spec.best_subset:
        spec.used.add("best_subset")


def categories(draw: Draw, spec: Spec) -> None:
    """The categories and their order: poker's shapes for the hand size with runs and
    flushes where poker puts them, sometimes a royal flush, n of a kind, a swapped pair
    of neighbours or a category left out (a hole ``check`` must find)."""
    if spec.best_subset:
        _subset_categories(spec)
        return
    with_n = spec.size <= 4 or spec.has_wilds or spec.copies > 1 or draw(st.integers(0, 2)) == 0
    royal = "A" in spec.ranks and spec.ace != "low" and draw(st.integers(0, 2)) == 0
    chosen = poker_categories(spec.size, with_n, royal)
    if draw(st.integers(0, 3)) == 0:
        i = draw(st.integers(1, len(chosen) - 2))
        chosen[i], chosen[i + 1] = chosen[i + 1], chosen[i]
        spec.used.add("order swapped")
    if draw(st.integers(0, 9)) == 0:
        chosen.pop(draw(st.integers(0, len(chosen) - 1)))
        spec.used.add("a category left out")
    spec.categories = chosen


def poker_categories(n: int, n_of_a_kind: bool = True, royal: bool = False) -> list[Category]:
    """Poker's categories for hands of ``n`` cards in poker's order: n of a kind, a royal
    flush, the straight flush, the shapes that beat a flush (four of a kind, a full house),
    the flush, the straight, then the other shapes -- each one the brute force knows."""
    shapes = [groups for groups in partitions(n) if len(groups) > 1]
    by_shape = {groups: Category(shape_name(groups), shape(groups), ("shape", groups)) for groups in shapes}
    chosen: list[Category] = []
    if n_of_a_kind:
        chosen.append(Category("n_of_a_kind", "X" * n, ("shape", (n,)), "{X:plural} all"))
    if royal:
        chosen.append(Category("royal_flush", "run & flush & top = A", ("royal",)))
    chosen.append(Category("straight_flush", "run & flush", ("run_flush",), "{top}-high straight flush"))
    above = [g for g in shapes if g[0] >= 4 or (g[0] == 3 and g[1] >= 2)]
    chosen += [by_shape[g] for g in above]
    chosen += [Category("flush", "flush", ("flush",)), Category("straight", "run", ("run",), "{top}-high straight")]
    chosen += [by_shape[g] for g in shapes if g not in above]
    return chosen


def _subset_categories(spec: Spec) -> None:
    """Badugi's family: the best set of k cards of different ranks and suits, bigger sets first
    (no set of more cards than the deck has suits: ``suits = 4`` of a three-suit deck is P217)."""
    spec.categories = [
        Category(f"set_of_{k}", " ".join(LETTERS[:k]) + f" & suits = {k}", ("set", k), "{X}-high set")
        for k in range(min(spec.size, len(spec.suits)), spec.min - 1, -1)
    ]
    if spec.min > 1:
        spec.categories.append(Category("no_set", " ".join(LETTERS[: spec.min]), ("shape", (1,) * spec.min)))


def suit_forms(draw: Draw, spec: Spec) -> None:
    """Patterns that read suits inside the hand -- ``flush(k)``, ``run(k, flush)``,
    ``suits`` -- and a suit named in a pattern (``suit = h``)."""
    focused = "suit forms" in spec.focus or "one joker" in spec.focus
    if spec.best_subset or spec.size < 4 or (not focused and draw(st.integers(0, 2))):
        return
    n = spec.size
    kinds = ["flush(k)", "run(k, flush)", "suits"]  # a named suit keeps the walk choosing card by card
    kind = draw(st.sampled_from(kinds if "one joker" in spec.focus else [*kinds, "named suit"]))
    if kind == "flush(k)":
        extra = Category(f"flush_of_{n - 1}", f"flush({n - 1})", None)
    elif kind == "run(k, flush)":
        extra = Category("bobtail", f"run({n - 1}, flush)", None, "{top}-high bobtail")
    elif kind == "suits":
        extra = Category("two_suited", f"{' '.join(LETTERS[:n])} & suits <= 2", None)
    else:
        suit = draw(st.sampled_from(spec.suits))
        extra = Category("imperial_flush", f"run & flush & suit = {suit}", None)
    names = spec.category_names()
    at = names.index("straight") if "straight" in names else len(names) // 2
    if kind == "named suit":
        at = 0
    spec.categories.insert(at, extra)
    spec.used.add(kind)
    spec.plain = False


def wrap_runs(draw: Draw, spec: Spec) -> None:
    """Round-the-corner runs (``run(wrap)``), ranked below the straight flush."""
    if spec.best_subset or ("suit forms" not in spec.focus and draw(st.integers(0, 5))):
        return
    names = spec.category_names()
    at = names.index("straight") if "straight" in names else len(names) - 1
    spec.categories.insert(at, Category("corner_straight", "run(wrap)", None, "round-the-corner straight to the {top}"))
    spec.used.add("run(wrap)")
    spec.plain = False


def cyclic_straight_flush(draw: Draw, spec: Spec) -> None:
    """Italian poker's cycle: the minimum straight flush beats the maximum (``beats:``)."""
    names = spec.category_names()
    if spec.best_subset or "straight_flush" not in names or ("beats" not in spec.focus and draw(st.integers(0, 4))):
        return
    at = names.index("straight_flush")
    spec.categories[at : at + 1] = [
        Category("maximum_straight_flush", "run & flush & top = highest", None),
        Category("medium_straight_flush", "run & flush & bottom != lowest", None),
        Category("minimum_straight_flush", "run & flush & bottom = lowest", None),
    ]
    spec.beats.append({"winner": "minimum_straight_flush", "loser": "maximum_straight_flush"})
    spec.used.add("cyclic straight flush")
    spec.plain = False


def wild(draw: Draw, spec: Spec) -> None:
    """Wild cards: a rank, some cards, the jokers, the bug (jokers that play as an ace or
    complete a run or a flush), the lowest card held; sometimes ``duplicates``. The focus
    ``one joker`` (with :func:`deck`, :func:`hand`, :func:`suit_forms`) writes one pack, one
    wild joker and a suit form: the files whose suit-class walk chooses the joker's card in bulk."""
    kinds = ["ranks", "cards", "jokers", "bug", "lowest"]
    kind = draw(st.sampled_from(kinds if "wild" in spec.focus else ["none", "none", *kinds]))
    if "one joker" in spec.focus:
        kind = "jokers"
    if kind == "none":
        if spec.jokers and draw(st.integers(0, 4)) == 0:
            spec.wild = {"jokers": False}  # jokers that never play: check and load refuse it (R114)
            spec.used.add("dead jokers")
        return
    if kind == "ranks":
        spec.wild = {"ranks": [draw(st.sampled_from([spec.ranks[0], spec.ranks[0], *spec.ranks]))]}
    elif kind == "cards":
        pool = [r + s for r in spec.ranks for s in spec.suits]
        spec.wild = {"cards": draw(st.lists(st.sampled_from(pool), min_size=1, max_size=2, unique=True))}
    elif kind in ("jokers", "bug"):
        spec.jokers = spec.jokers or draw(st.sampled_from([1, 2]))
        spec.wild = {"jokers": True}
        if kind == "bug":
            # the highest rank (the ace of a full deck), or anything in a run or a flush
            spec.wild["plays_as"] = {"ranks": [spec.ranks[-1]], "hands": "run | flush"}
    else:
        spec.wild = {"lowest_rank": True}
    if "one joker" not in spec.focus and draw(st.integers(0, 5)) == 0:
        spec.wild["duplicates"] = True
        spec.used.add("duplicates")
    spec.used.add(f"wild {kind}")


def wild_terms(draw: Draw, spec: Spec) -> None:
    """Categories that read the wild cards a hand holds: a natural hand just above the same
    hand made with wild cards (``... & natural``, video poker's natural royal flush) and
    ``wilds = k`` / ``wilds >= k`` anywhere in the order (Deuces Wild's four deuces)."""
    if spec.best_subset or not spec.has_wilds or "one joker" in spec.focus:
        return  # (a pattern reading the wild cards keeps the suit-class walk choosing card by card)
    if "wild terms" not in spec.focus and draw(st.integers(0, 2)):
        return
    kind = draw(st.sampled_from(["natural", "wilds", "both"]))
    if kind != "wilds":
        # a natural hand needs its groups from natural cards: no more of a rank than the packs hold
        reachable = [
            i
            for i, category in enumerate(spec.categories)
            if category.plain is not None
            and (category.plain[0] != "shape" or category.plain[1][0] <= len(spec.suits) * spec.copies)
        ]
        if reachable:
            at = draw(st.sampled_from(reachable))
            twin = spec.categories[at]
            plain = ("natural", twin.plain)
            describe = None if twin.describe is None else "natural " + twin.describe
            spec.categories.insert(at, Category(f"natural_{twin.name}", f"{twin.pattern} & natural", plain, describe))
            spec.used.add("natural")
    if kind != "natural" and spec.most_wilds:
        count = draw(st.integers(1, spec.most_wilds))
        compare = draw(st.sampled_from(["=", ">="]))
        at = draw(st.integers(0, len(spec.categories)))
        spec.categories.insert(at, Category(f"wilds_{count}", f"wilds {compare} {count}", ("wilds", compare, count)))
        spec.used.add("wilds")


def rank_by(draw: Draw, spec: Spec) -> None:
    """``rank_by:`` on a category: the groups of a shape in another order (sometimes only the
    first few), or a run by every card (``[cards]``: a wheel then ranks by its ace). (``[bottom]``
    orders runs as ``top`` does.)"""
    if "rank_by" not in spec.focus and draw(st.integers(0, 3)):
        return
    choices = [
        category
        for category in spec.categories
        if category.plain is not None
        and (category.plain[0] in ("run", "run_flush") or (category.plain[0] == "shape" and len(category.plain[1]) > 1))
    ]
    if not choices:
        return
    category = draw(st.sampled_from(choices))
    if category.plain is not None and category.plain[0] == "shape":
        letters = list(LETTERS[: len(category.plain[1])])
        order = list(draw(st.permutations(letters)))
        category.rank_by = order[: draw(st.integers(1, len(order)))]
    else:
        category.rank_by = ["cards"]
    spec.used.add("rank_by")


def natural_beats_wild(draw: Draw, spec: Spec) -> None:
    """Between otherwise equal hands, fewer wild cards win."""
    spec.natural_beats_wild = draw(st.booleans()) if spec.has_wilds else draw(st.integers(0, 5)) == 0
    if spec.natural_beats_wild:
        spec.used.add("natural_beats_wild")


def suits(draw: Draw, spec: Spec) -> None:
    """The suit order and how suits break ties."""
    spec.suit_order = list(draw(st.permutations(spec.suits)))
    spec.tiebreak = draw(st.sampled_from(TIEBREAKS[1:] if "tiebreak" in spec.focus else TIEBREAKS))
    if spec.tiebreak != "none":
        spec.used.add(f"tiebreak {spec.tiebreak}")


def qualifier(draw: Draw, spec: Spec) -> None:
    """A qualifier: a category or better, or (low) every card at most a rank."""
    if "qualifier" not in spec.focus and draw(st.integers(0, 3)):
        return
    names = spec.category_names()
    plain_names = [c.name for c in spec.categories if c.plain is not None]
    if spec.direction == "low" and not spec.best_subset:
        rank = draw(st.sampled_from(spec.ranks[1:]))
        spec.qualifier = f"{' '.join(LETTERS[: spec.size])} & all <= {rank}"
        spec.qualifier_plain = ("all_at_most", rank)
    else:
        name = draw(st.sampled_from(plain_names or names))
        spec.qualifier = f"category >= {name}"
        spec.qualifier_plain = ("at_least", name)
    spec.used.add("qualifier")


def more_beats(draw: Draw, spec: Spec) -> None:
    """A ``beats:`` exception written as a pattern (Greek poker's four of the lowest rank)."""
    names = spec.category_names()
    four = shape([4] + [1] * (spec.size - 4)) if spec.size >= 4 else None
    if four is None or "royal_flush" not in names or ("beats" not in spec.focus and draw(st.integers(0, 3))):
        return
    spec.beats.append({"winner": f"{four} & X = lowest", "loser": "royal_flush"})
    spec.used.add("beats pattern")
    spec.plain = False


def game(draw: Draw, spec: Spec) -> None:
    """A game: hole and board cards, must-use counts, two boards, a hi-lo split."""
    if spec.best_subset or ("game" not in spec.focus and draw(st.integers(0, 2))):
        return
    n = spec.size
    kind = draw(st.sampled_from(["board", "must use", "stud", "double board", "hi-lo"]))
    room = spec.deck_cards
    if kind == "stud":
        spec.game = {"hole": n + draw(st.integers(0, 2)), "board": 0}
    elif kind == "must use":
        spec.game = {"hole": 4, "board": n, "use_hole": 2, "use_board": n - 2}
    else:
        spec.game = {"hole": 2, "board": n}
    if kind == "double board":
        spec.game["boards"] = 2
    if kind == "hi-lo":
        low = _low_companion(spec)
        spec.companions["low.yaml"] = low
        spec.game["split"] = [{"name": "high", "ruleset": "./high.yaml"}, {"name": "low", "ruleset": "./low.yaml"}]
        spec.companions["high.yaml"] = {"name": "high", "extends": "./generated.yaml", "game": None}
    dealt = spec.game["hole"] * 2 + spec.game["board"] * spec.game.get("boards", 1)
    if dealt > room:
        spec.game["hole"] = max(1, (room - spec.game["board"] * spec.game.get("boards", 1)) // 2)
        spec.game.pop("use_hole", None)
        spec.game.pop("use_board", None)
    spec.used.add(f"game {kind}")


def _low_companion(spec: Spec) -> dict[str, Any]:
    """The low half of a hi-lo split: this deck, ace low, lowest wins, eight-or-better style."""
    low: dict[str, Any] = {
        "name": "low",
        "extends": "./generated.yaml",
        "ace": "low",
        "direction": "low",
        "qualifier": f"{' '.join(LETTERS[: spec.size])} & all <= {spec.ranks[len(spec.ranks) // 2]}",
        "game": None,
    }
    if spec.beats:
        low["beats"] = None  # (a null with nothing to remove would stay, and beats: is a list)
    return low


def written_examples(draw: Draw, spec: Spec) -> None:
    """``examples:`` as a user writes them -- ``<cards> is <category>``, ``<a> > <b>`` -- with the
    brute force's answers, on files it judges (no game, no ``beats:``): ``check`` runs them, so a
    failing example is a disagreement (``checks.conform`` fails on it). Drawn last."""
    if not spec.brute_force or spec.game is not None or spec.beats or spec.size != spec.min:
        return
    if "examples" not in spec.focus and draw(st.integers(0, 2)):
        return
    from .brute import Brute, card_tuple

    brute = Brute(spec)
    deck = spec.deck_texts
    if len(deck) < 2 * spec.size:
        return
    for _ in range(2):
        picked = draw(
            st.lists(st.integers(0, len(deck) - 1), min_size=2 * spec.size, max_size=2 * spec.size, unique=True)
        )
        first, second = [deck[i] for i in picked[: spec.size]], [deck[i] for i in picked[spec.size :]]
        judged = [brute.best([card_tuple(t) for t in hand]) for hand in (first, second)]
        for hand in (first, second):
            category = brute.category([card_tuple(t) for t in hand])
            if category is not None:
                spec.examples.append(f"{' '.join(hand)} is {category}")
        if judged[0] is None or judged[1] is None:
            continue
        # as compare judges: a hand that does not qualify cannot win, so two such hands tie (their
        # keys still order them, natural before wild, for choosing a holding's best hand)
        a, b = (key if key[0] else key[:1] for key in (judged[0][0], judged[1][0]))
        if a != b:
            spec.examples.append(f"{' '.join(first)} {'>' if a > b else '<'} {' '.join(second)}")
        elif spec.tiebreak == "none":  # (with a suit tie-break the suits decide: not judged here)
            spec.examples.append(f"{' '.join(first)} = {' '.join(second)}")
    if spec.examples:
        spec.used.add("examples")


#: The features in the order they are drawn (later ones read earlier choices).
FEATURES: list[Callable[[Draw, Spec], None]] = [
    deck,
    ace,
    direction,
    hand,
    wild,
    categories,
    suit_forms,
    wrap_runs,
    cyclic_straight_flush,
    wild_terms,
    rank_by,
    natural_beats_wild,
    suits,
    qualifier,
    more_beats,
    game,
]


@st.composite
def rulesets(
    draw: Draw,
    small: bool = True,
    focus: frozenset[str] = frozenset(),
    features: Sequence[Callable[[Draw, Spec], None]] | None = None,
) -> Spec:
    """A generated ruleset (see the module docstring); ``focus`` names features that must be chosen.
    By default every feature: ``FEATURES``, the dealer's-choice keys (``deal_features.py``), then
    :func:`written_examples`."""
    if features is None:
        from .deal_features import dealers_choice

        features = (*FEATURES, dealers_choice, written_examples)
    spec = Spec(small=small, focus=focus)
    for feature in features:
        feature(draw, spec)
    return spec


# --- breaking a file ----------------------------------------------------------------------------


def _first_category(doc: dict[str, Any]) -> dict[str, Any]:
    return next(iter(doc["categories"].values()))


#: One mistake each, written into a generated document: every one is an error ``check``
#: must report with a code (name -> the change, applied in place).
MISTAKES: dict[str, Callable[[dict[str, Any]], None]] = {
    "pattern syntax": lambda doc: _first_category(doc).update(pattern=_first_category(doc)["pattern"] + " &"),
    "unbound variable": lambda doc: _first_category(doc).update(
        pattern=f"({_first_category(doc)['pattern']}) & U > {doc['deck']['ranks'][0]}"
    ),
    "order names nothing": lambda doc: doc["order"].append("no_such_category"),
    # a category left out of order ranks nothing, but its pattern must still read
    "pattern syntax outside order": lambda doc: doc["categories"].update(spare={"pattern": "XX YX Z"}),
    "suit order short": lambda doc: doc["suits"].update(order=doc["suits"]["order"][:-1] or ["x"]),
    "min above size": lambda doc: doc["hand"].update(min=doc["hand"]["size"] + 1),
    "unknown key": lambda doc: doc.update(colour="red"),
    "wrong type": lambda doc: doc["hand"].update(size="five"),
    "template field": lambda doc: _first_category(doc).update(describe="{nothing}"),
    "must use too many": lambda doc: doc.update(game={"hole": 2, "board": 3, "use_hole": 3}),
    "qualifier names nothing": lambda doc: doc.update(qualifier="category >= no_such_category"),
    "wild rank not in deck": lambda doc: (
        doc.update(wild={"ranks": ["2" if "2" not in doc["deck"]["ranks"] else "A"]})
        if doc["deck"]["ranks"][-1] != "A" or "2" not in doc["deck"]["ranks"]
        else doc.update(colour="red")
    ),
}


@st.composite
def broken_rulesets(draw: Draw, mistakes: Sequence[str] = tuple(sorted(MISTAKES))) -> tuple[Spec, str, str]:
    """A generated ruleset with one of ``mistakes`` (``MISTAKES`` or ``deal_features.DEAL_MISTAKES``):
    (spec, the mistake's name, the file's text)."""
    from .deal_features import DEAL_MISTAKES

    spec = draw(rulesets())
    name = draw(st.sampled_from(list(mistakes)))
    doc = spec.document()
    {**MISTAKES, **DEAL_MISTAKES}[name](doc)
    return spec, name, yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)
