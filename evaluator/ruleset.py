"""The facade: ``Ruleset`` is the built rules with the methods of every stage.

:class:`Rules` (``evaluator/rules/ruleset.py``) is what a file builds to, and
every stage below works on it. This module sits above those stages (see
DESIGN.md, "Layers") and composes them: :class:`Ruleset` adds thin methods
that call the generic engine (``evaluate``, ``explain``, ``showdown``), the
compiled tables (``compare``, ``encode``, ``rank``, ``rank_many``,
``showdown_many``) and the odds (``odds``, ``chart``); :func:`load` builds one.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from .core.errors import Diagnostic, RulesetError
from .engine.evaluate import Engine, engine_for
from .rules.build import build_ruleset as build_rules
from .rules.build import load_rules
from .rules.cards import Card
from .rules.load import Document
from .rules.place import place_of
from .rules.ruleset import Rules
from .rules.usable import dead_jokers, split_targets

if TYPE_CHECKING:
    from .engine.explain import Explanation
    from .engine.hand import Hand

__all__ = ["Ruleset", "build_ruleset", "load", "table_refusal", "unusable"]

Method = TypeVar("Method", bound=Callable[..., Any])


class built_per_ruleset:  # noqa: N801 - used as a decorator, named like one
    """A method whose function is built once per ruleset: the fast path, with a face.

    On the class it is the method as written (``help(Ruleset)`` and
    ``inspect.signature(Ruleset.rank)`` show its parameters and docstring). On a
    ruleset the first access builds the function (``build(ruleset)``), gives it
    the method's name, docstring and signature, and stores it on the instance, so
    every later call goes straight to it: no dispatch on the hot path.
    """

    def __init__(self, build: Callable[[Ruleset], Callable[..., Any]]) -> None:
        self.build = build
        self.method: Callable[..., Any] | None = None
        self.name = ""

    def __call__(self, method: Method) -> Method:
        self.method = method
        self.name = method.__name__
        self.__doc__ = method.__doc__
        return cast(Method, self)

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: Ruleset | None, owner: type | None = None) -> Any:
        if instance is None:
            return self.method
        function = self.build(instance)
        wear_the_face(function, self.method)
        instance.__dict__[self.name] = function
        return function


def wear_the_face(function: Callable[..., Any], method: Callable[..., Any] | None) -> None:
    """Give a built ``function`` the name, docstring and signature (without ``self``) of ``method``."""
    if method is None:
        return
    signature = inspect.signature(method)
    try:
        function.__name__ = method.__name__
        function.__qualname__ = method.__qualname__
        function.__doc__ = method.__doc__
        function.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=list(signature.parameters.values())[1:]
        )
    except (AttributeError, TypeError):  # a built-in or bound method takes no attributes: it keeps its own
        pass


def _ranker(ruleset: Ruleset) -> Any:
    from .compiled.fast import ruleset_ranker

    return ruleset_ranker(ruleset)


def _evaluator(ruleset: Ruleset) -> Callable[[Any], Hand]:
    from .compiled.tablehand import evaluator

    return evaluator(ruleset)


def _comparer(ruleset: Ruleset) -> Callable[[Any, Any], int]:
    from .compiled.fasthand import comparer

    return comparer(ruleset)


class Ruleset(Rules):
    """A built ruleset with its methods. Immutable: every attribute is fixed when it is built.

    >>> rs = load("standard")
    >>> rs.evaluate("Kc Kd Ks 4h 4c").describe()
    'kings full of fours'
    """

    @cached_property
    def engine(self) -> Engine:
        """The generic evaluator for this ruleset (built on first use)."""
        return engine_for(self)

    def cards(self, text: str | Sequence[Card | str], source: str = "<cards>") -> list[Card]:
        """Read cards and check them against the deck.

        Raises:
            CardError: C101 unreadable, C102 not in this deck, C103 repeated.
        """
        from .engine.cardread import read_cards

        return read_cards(self, text, source)

    @built_per_ruleset(lambda ruleset: _evaluator(ruleset))
    def evaluate(self, cards: str | Sequence[Card | str | int]) -> Hand:
        """The best hand that can be made from ``cards`` (see DESIGN.md).

        >>> load("standard").evaluate("As Ks Qs Js Ts 2c 2d").category
        'royal_flush'

        The first calls go through the generic evaluator; once the ruleset's
        lookup tables are loaded, a hand is answered from them and each field of
        the returned ``Hand`` is worked out when first read (``compiled/tablehand.py``).
        """
        return self.evaluate(cards)

    @built_per_ruleset(lambda ruleset: _comparer(ruleset))
    def compare(self, a: str | Sequence[Card | str | int] | Hand, b: str | Sequence[Card | str | int] | Hand) -> int:
        """1 when ``a`` wins, -1 when ``b`` wins, 0 for a tie.

        ``a`` and ``b`` are cards (text such as ``"Ah Ad 2c 3c 4c"``, Card
        objects or card ids; more cards than a hand: the best hand plays) or
        :class:`Hand` objects. ``beats:`` exceptions and qualifiers apply.

        >>> load("standard").compare("Ah Ad 2c 3c 4c", "Kh Kd Qc Jc 9s")
        1

        Built once per ruleset: card strings are compared on the lookup tables,
        Hands and ``beats:`` by the generic path.

        Raises:
            CardError: bad cards (C1xx, positioned). TypeError: neither cards nor a Hand.
        """
        return int(self.compare(a, b))

    def explain(self, a: str | Sequence[Card | str] | Hand, b: str | Sequence[Card | str] | Hand) -> Explanation:
        """Why ``a`` beats ``b`` (or not): the steps :meth:`compare` takes, in words.

        >>> load("standard").explain("Kh Kd 9c 7s 2h", "Ks Kc 8d 7h 2c").decided_by
        'kicker'

        When the deal decides wild cards (Follow the Queen), two card strings are the
        two seats of a heads-up deal in dealing order (see ``evaluator/deal/explain.py``).
        """
        if self.wild.by_deal and isinstance(a, str) and isinstance(b, str):
            from .deal.explain import explain_deal

            return explain_deal(self, a, b)
        from .engine.explain import explain

        return explain(self, a, b)

    def showdown(
        self,
        hands: Sequence[str | Sequence[Card | str]],
        board: str | Sequence[Card | str] = "",
        declare: Sequence[str] | None = None,
    ) -> list[int]:
        """Indices of the winning hands (ties and top cycles split).

        In a game settled by the deal (Follow the Queen, Chicago, ...) each hand is
        the player's cards in dealing order (see :meth:`deal_showdown`).

        >>> load("standard").showdown(["Kc 7d", "Qs Td"], board="Jh Jd Jc Js 9s")
        [0]
        >>> load("follow-the-queen").showdown(["(2c 9c) Qh 8s 7s 3d (9d)", "(Kc Kh) 6d Ks 2h 5d (5h)"])
        [1]
        """
        if self.by_deal:
            boards = _runs_of(board)
            texts = [hand if isinstance(hand, str) else " ".join(map(str, hand)) for hand in hands]
            winners: list[int] = self.deal_showdown(texts, boards, declare).winners
            return winners
        from .compiled.fasthand import showdown

        return showdown(self, hands, board).winners

    def deal_showdown(
        self,
        players: Sequence[str],
        boards: Sequence[str] = (),
        declare: Sequence[str] | None = None,
        pot: int | None = None,
    ) -> Any:
        """The showdown of a deal: each player's cards in dealing order (``(As Kd) 7c``: face down in
        parentheses; ``fold: ...`` a player who folded), one board per run, the declarations.

        Returns a :class:`evaluator.deal.settle.DealShowdown`: winners, shares, halves, and per
        run the wild cards the deal decided and why.

        >>> result = load("chicago").deal_showdown(["(Ah 2c) As Ad 7c 5h (9d)", "(Ks Qd) Jc 8d 6h 3c (4h)"], pot=10)
        >>> result.shares
        [5, 5]
        """
        from .deal.deal import read_deal
        from .deal.settle import settle

        return settle(self, read_deal(self, players, boards, declare), pot)

    # --- the fast path: lookup tables (compiled/tables.py, compiled/fast.py) ---------

    @built_per_ruleset(lambda ruleset: _ranker(ruleset).encoder)
    def encode(self, cards: str | Sequence[Card | str | int], source: str = "<cards>") -> tuple[int, ...]:
        """Read ``cards`` once (text, Card objects or card ids, checked against the
        deck) into the codes :meth:`rank` takes.

        >>> rs = load("standard")
        >>> rs.rank(rs.encode("As Ks Qs Js Ts")) > rs.rank(rs.encode("9s 9h 9d 9c 2s 3d 4h"))
        True

        ``source`` names the cards in an error (``<cards>``). Like :meth:`rank`,
        the method is the compiled function itself, built once per ruleset.

        Raises:
            CardError: bad cards (C1xx, positioned). TypeError: not cards at all.
        """
        return tuple(self.encode(cards, source))

    @built_per_ruleset(lambda ruleset: _ranker(ruleset).rank)
    def rank(self, codes: Sequence[int]) -> int:
        """The strength of an :meth:`encode`-d holding of any size from ``hand.min``
        up (5, 6, 7 cards...), from compiled lookup tables.

        >>> rs = load("standard")
        >>> rs.rank(rs.encode("Kc Kd Ks 4h 4c")) > rs.rank(rs.encode("Ac Ad As Kh 2c"))
        True

        Bigger wins in this ruleset's direction; equal strengths are equal hands
        (suit tie-breaks included); -1 means no category matches. ``beats:``
        exceptions are not applied (use :meth:`compare`), and a ruleset with a
        ``game:`` card-usage rule ranks one hand of at most ``hand.size`` cards.
        The method is the compiled function itself (tables built or read from
        the disk cache on first use), so a call costs no extra dispatch.
        """
        return int(self.rank(codes))

    def rank_many(self, cards: Any) -> Any:
        """Strengths of many holdings at once, vectorised with NumPy.

        ``cards`` is an integer array of shape (hands, k): card ids (the index of
        each card in :attr:`deck`) or :meth:`encode` codes (an array of Python ints
        for a suit tie-break, whose codes are wider than 64 bits). Returns an int64
        array of shape (hands,), the same values :attr:`rank` gives one by one.

        A Dask array (``pip install "pokerrules[dask]"``) gives a lazy Dask array:
        its blocks of rows are ranked on the workers (``map_blocks``), each worker
        building the ruleset and its tables once (see ``evaluator/odds/cluster.py``).
        """
        from .odds.cluster import is_dask_array

        if is_dask_array(cards):
            from .odds.cluster import rank_many_dask

            return rank_many_dask(self, cards)
        from .compiled.fast import ruleset_ranker

        return ruleset_ranker(self).rank_many(cards)

    def showdown_many(self, holes: Any, boards: Any = None) -> Any:
        """Pot shares of many deals at once, on the compiled tables (vectorised).

        ``holes`` is an integer array of card ids (the index of each card in
        :attr:`deck`) of shape (deals, players, hole cards), players in seat
        order; ``boards`` is (deals, board cards), (deals, boards, board cards)
        for double board, or None. Returns float64 (deals, players): each
        player's exact share of the pot, as ``showdown`` divides it (hi-lo
        halves, double boards, ties, ``beats:`` cycles); a row sums to 1, or to
        0 when no hand qualifies (the pot is carried). See
        ``evaluator/compiled/batch_showdown.py``.
        """
        from .compiled.batch_showdown import showdown_many

        return showdown_many(self, holes, boards)

    def odds(
        self,
        hands: Sequence[str],
        board: str = "",
        dead: str = "",
        samples: int | None = None,
        seed: int | None = None,
        client: Any = None,
        declare: Sequence[str] | None = None,
    ) -> Any:
        """Each player's equity, wins and ties: exact when the work allows, else sampled.

        Each hand is cards (``"AhKh"``) or a range (``"QQ+, AKs"``, ``"random"``).
        Returns an :class:`evaluator.odds.odds.OddsResult` (see ``evaluator/odds/odds.py``);
        ``client`` (a ``dask.distributed.Client``) draws a sampled answer on a cluster. A
        dealer's-choice game takes each player's cards so far in dealing order and ``declare``
        (hi-lo declare strategies); see ``evaluator/odds/dealt.py``.

        >>> round(load("holdem").odds(["AhKh", "QsQd"], board="2h 7h 9c").players[0].equity, 4)
        0.5414
        """
        if self.by_deal:  # dealer's choice: partly known deals completed street by street
            from .odds.dealt import dealt_odds

            return dealt_odds(self, hands, board=board, dead=dead, samples=samples, seed=seed, declare=declare)
        from .odds.odds import odds

        return odds(self, hands, board=board, dead=dead, samples=samples, seed=seed, client=client)

    def chart(
        self,
        opponents: int = 1,
        samples: int | None = None,
        exact: bool = False,
        seed: int | None = None,
        client: Any = None,
        hands: int | None = None,
        declare: Sequence[str] | None = None,
    ) -> Any:
        """The starting-hand chart: the equity of every class against ``opponents`` random hands;
        in a game whose starting hand is not two hole cards (Omaha, stud), of ``hands`` sampled
        starting hands (default 200). A hi-lo declare game takes ``declare``: each seat's declared
        strategy, the charted hand's first.

        Returns an :class:`evaluator.odds.chart.ChartResult`; ``client`` runs it on a Dask
        cluster (same result). See ``evaluator/odds/chart.py`` and ``evaluator/odds/chart_sample.py``.

        >>> 0.8 < load("holdem").chart(samples=500, seed=1).cell("AA").equity < 0.9
        True
        >>> omaha = load("omaha").chart(hands=5, samples=500, seed=1)
        >>> omaha.sample.hands, omaha.cells[0].hand.kind
        (5, 'sampled')
        """
        from .odds.chart import chart

        return chart(
            self,
            opponents=opponents,
            samples=samples,
            exact=exact,
            seed=seed,
            client=client,
            hands=hands,
            declare=declare,
        )


def _runs_of(board: str | Sequence[Card | str]) -> list[str]:
    """The boards of a deal: one card string, a sequence of cards (one board), or one string per run."""
    if isinstance(board, str):
        return [board] if board.strip() else []
    items = list(board)
    if all(isinstance(item, Card) or len(item.split()) == 1 for item in items):
        return [" ".join(map(str, items))] if items else []
    return [str(item) for item in items]


def load(ref: str | Path, root: str | Path | Sequence[str | Path] | None = None) -> Ruleset:
    """Load a ruleset: a catalogue name (``"standard"``) or a path to a YAML file.

    ``extends:`` and ``game.split`` paths in the file may only reach files
    inside its own folder tree, or inside ``root`` (a folder or several).
    A file is refused with every error ``pokerrules check`` reports about its
    values and about what makes it unusable (:func:`unusable`); what ``check``
    finds by running the file -- its examples (``E1xx``) and the enumeration
    of every hand class (``R113``) -- is left to ``check``.

    >>> load("standard").name
    'standard'

    Raises:
        PokerRulesError: for anything wrong with the file, each error positioned.
    """
    return _usable(load_rules(ref, root, Ruleset))


def build_ruleset(document: Document, path: Path | None = None) -> Ruleset:
    """Build a :class:`Ruleset` from a loaded document (see :func:`evaluator.rules.load.load_document`).

    Raises:
        SchemaError: when the document does not follow the schema.
        RulesetError: with every semantic problem found, each positioned (:func:`unusable` included).
    """
    return _usable(build_rules(document, path, Ruleset))


def _usable(ruleset: Ruleset) -> Ruleset:
    problems: list[Diagnostic] | None = ruleset.__dict__.get("_cache_unusable")
    if problems is None:
        problems = unusable(ruleset)
        object.__setattr__(ruleset, "_cache_unusable", problems)  # load() returns the same object again
    if problems:
        raise RulesetError(problems)
    return ruleset


def unusable(ruleset: Rules, source: str | None = None) -> list[Diagnostic]:
    """What makes a ruleset that builds unusable (each also a ``check`` error, at the same place):
    jokers that can never play (R114), a deck the lookup tables cannot hold (R104), a pattern
    that reads suits inside the hand where the tables cannot be built (R131) and
    ``game.split`` halves that cannot be loaded. ``source`` is the file being checked
    (default: the ruleset's own); an inherited value is reported at its ``extends:``.

    >>> unusable(load("holdem"))
    []
    """
    found = dead_jokers(ruleset, source)
    found += _too_wide(ruleset, source)
    found += _not_by_suit_class(ruleset, source)
    found += split_targets(ruleset)
    return found


def _not_by_suit_class(ruleset: Rules, source: str | None) -> list[Diagnostic]:
    """R131: a pattern that reads suits inside the hand where the suit-class tables cannot be
    built (several packs, single wild cards, lowest-card wild, hands above six cards)."""
    if not engine_for(ruleset).by_suit_class:
        return []
    from .compiled.suitclasses import supported

    if supported(ruleset, ruleset.hand_size) is None:
        return []
    return table_refusal(ruleset, source)


def table_refusal(ruleset: Rules, source: str | None = None) -> list[Diagnostic]:
    """R130 / R131 as ``check`` reports them (``compiled/build_cost.py``): lookup tables that
    would take too long to build, or cannot be built. Estimated, never built here.

    ``load`` refuses R131 (the tables cannot exist); R130 is an estimate of time, refused by
    ``check`` and by each command that would build the tables, while hands are still
    evaluated one by one (and ``load`` does not import NumPy to estimate it).
    """
    from .compiled.build_cost import blamed_keys, build_cost, refusal
    from .compiled.table_layout import card_model

    try:
        model = card_model(ruleset)
    except RulesetError:
        return []  # R104: said by _too_wide
    cost = build_cost(ruleset, model)
    found = refusal(ruleset, cost)
    if found is None:
        return []
    code, message, hint = found
    document = ruleset.document
    checked = source if source is not None else (document.sources[0] if document.sources else "")
    where, note = place_of(document, checked, *blamed_keys(ruleset, cost))
    return [Diagnostic(code, message + note, where.source, where.line, where.col, "error", hint)]


def _too_wide(ruleset: Rules, source: str | None) -> list[Diagnostic]:
    """R104: a deck whose packs the lookup tables cannot hold for this hand size."""
    if ruleset.copies == 1:
        # one pack always fits, whatever the hand, jokers and wild cards (tests/test_check_load_agree.py);
        # so a one-pack load never imports NumPy just to ask
        return []
    from .compiled.table_layout import card_model

    try:
        card_model(ruleset)
    except RulesetError as problem:
        document = ruleset.document
        checked = source if source is not None else (document.sources[0] if document.sources else "")
        where, note = place_of(document, checked, ("deck", "copies"), ("deck",))
        first = problem.first
        return [Diagnostic("R104", first.message + note, where.source, where.line, where.col, "error", first.hint)]
    return []
