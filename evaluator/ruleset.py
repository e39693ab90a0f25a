"""The facade: ``Ruleset`` is the built rules with the methods of every stage.

:class:`Rules` (``evaluator/rules/ruleset.py``) is what a file builds to, and
every stage below works on it. This module sits above those stages (see
DESIGN.md, "Layers") and composes them: :class:`Ruleset` adds thin methods
that call the generic engine (``evaluate``, ``explain``, ``showdown``), the
compiled tables (``compare``, ``encode``, ``rank``, ``rank_many``,
``showdown_many``) and the odds (``odds``, ``chart``); :func:`load` builds one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .engine.evaluate import Engine, engine_for
from .rules.build import build_ruleset as build_rules
from .rules.build import load_rules
from .rules.cards import Card
from .rules.load import Document
from .rules.ruleset import Rules

if TYPE_CHECKING:
    from .engine.explain import Explanation
    from .engine.hand import Hand

__all__ = ["Ruleset", "build_ruleset", "load"]


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

    @cached_property
    def evaluate(self) -> Callable[[str | Sequence[Card | str | int]], Hand]:
        """``evaluate(cards)``: the best hand that can be made from ``cards`` (see DESIGN.md).

        >>> load("standard").evaluate("As Ks Qs Js Ts 2c 2d").category
        'royal_flush'

        The attribute is a function built once per ruleset: the first calls go
        through the generic evaluator; once the ruleset's lookup tables are
        loaded, a hand is answered from them and each field of the returned
        ``Hand`` is worked out when first read (``compiled/tablehand.py``).
        """
        from .compiled.tablehand import evaluator

        return evaluator(self)

    @cached_property
    def compare(self) -> Any:
        """``compare(a, b)``: 1 when ``a`` wins, -1 when ``b`` wins, 0 for a tie.

        >>> load("standard").compare("Ah Ad 2c 3c 4c", "Kh Kd Qc Jc 9s")
        1

        The attribute is a function built once per ruleset: card strings are
        compared on the lookup tables, Hands and ``beats:`` by the generic path.
        """
        from .compiled.fasthand import comparer

        return comparer(self)

    def explain(self, a: str | Sequence[Card | str] | Hand, b: str | Sequence[Card | str] | Hand) -> Explanation:
        """Why ``a`` beats ``b`` (or not): the steps :meth:`compare` takes, in words.

        >>> load("standard").explain("Kh Kd 9c 7s 2h", "Ks Kc 8d 7h 2c").decided_by
        'kicker'
        """
        from .engine.explain import explain

        return explain(self, a, b)

    def showdown(
        self, hands: Sequence[str | Sequence[Card | str]], board: str | Sequence[Card | str] = ""
    ) -> list[int]:
        """Indices of the winning hands (ties and top cycles split).

        >>> load("standard").showdown(["Kc 7d", "Qs Td"], board="Jh Jd Jc Js 9s")
        [0]
        """
        from .compiled.fasthand import showdown

        return showdown(self, hands, board).winners

    # --- the fast path: lookup tables (compiled/tables.py, compiled/fast.py) ---------

    @cached_property
    def encode(self) -> Any:
        """``encode(cards) -> codes``: read ``cards`` once (text, Card objects or card
        ids, checked against the deck) into codes for :attr:`rank`.

        >>> rs = load("standard")
        >>> rs.rank(rs.encode("As Ks Qs Js Ts")) > rs.rank(rs.encode("9s 9h 9d 9c 2s 3d 4h"))
        True

        Like :attr:`rank`, the attribute is the compiled function itself.
        """
        from .compiled.fast import ruleset_ranker

        return ruleset_ranker(self).encoder

    @cached_property
    def rank(self) -> Any:
        """``rank(codes) -> int``: the strength of an :meth:`encode`-d holding of any
        size from ``hand.min`` up (5, 6, 7 cards...), from compiled lookup tables.

        Bigger wins in this ruleset's direction; equal strengths are equal hands
        (suit tie-breaks included); -1 means no category matches. ``beats:``
        exceptions are not applied (use :meth:`compare`), and a ruleset with a
        ``game:`` card-usage rule ranks one hand of at most ``hand.size`` cards.
        The attribute is the compiled function itself (tables built or read from
        the disk cache on first use), so a call costs no extra dispatch.
        """
        from .compiled.fast import ruleset_ranker

        return ruleset_ranker(self).rank

    def rank_many(self, cards: Any) -> Any:
        """Strengths of many holdings at once, vectorised with NumPy.

        ``cards`` is an integer array of shape (hands, k): card ids (the index of
        each card in :attr:`deck`) or :meth:`encode` codes. Returns an int64 array
        of shape (hands,), the same values :attr:`rank` gives one by one.

        A Dask array (``pip install "pokerrules[dask]"``) gives a lazy Dask array:
        its blocks of rows are ranked on the workers (``map_blocks``), each worker
        building the ruleset and its tables once (see ``evaluator/cluster.py``).
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
        ``evaluator/batch_showdown.py``.
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
    ) -> Any:
        """Each player's equity, wins and ties: exact when the work allows, else sampled.

        Each hand is cards (``"AhKh"``) or a range (``"QQ+, AKs"``, ``"random"``).
        Returns an :class:`evaluator.odds.OddsResult` (see ``evaluator/odds.py``);
        ``client`` (a ``dask.distributed.Client``) draws a sampled answer on a cluster.

        >>> round(load("holdem").odds(["AhKh", "QsQd"], board="2h 7h 9c").players[0].equity, 4)
        0.5414
        """
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
    ) -> Any:
        """The starting-hand chart: the equity of every class against ``opponents`` random hands;
        in a game whose starting hand is not two hole cards (Omaha, stud), of ``hands`` sampled
        starting hands (default 200).

        Returns an :class:`evaluator.odds.chart.ChartResult`; ``client`` runs it on a Dask
        cluster (same result). See ``evaluator/odds/chart.py`` and ``evaluator/odds/chart_sample.py``.

        >>> 0.8 < load("holdem").chart(samples=500, seed=1).cell("AA").equity < 0.9
        True
        >>> omaha = load("omaha").chart(hands=5, samples=500, seed=1)
        >>> omaha.sample.hands, omaha.cells[0].hand.kind
        (5, 'sampled')
        """
        from .odds.chart import chart

        return chart(self, opponents=opponents, samples=samples, exact=exact, seed=seed, client=client, hands=hands)


def load(ref: str | Path, root: str | Path | Sequence[str | Path] | None = None) -> Ruleset:
    """Load a ruleset: a catalogue name (``"standard"``) or a path to a YAML file.

    ``extends:`` and ``game.split`` paths in the file may only reach files
    inside its own folder tree, or inside ``root`` (a folder or several).

    >>> load("standard").name
    'standard'

    Raises:
        PokerRulesError: for anything wrong with the file, each error positioned.
    """
    return load_rules(ref, root, Ruleset)


def build_ruleset(document: Document, path: Path | None = None) -> Ruleset:
    """Build a :class:`Ruleset` from a loaded document (see :func:`evaluator.rules.load.load_document`).

    Raises:
        SchemaError: when the document does not follow the schema.
        RulesetError: with every semantic problem found, each positioned.
    """
    return build_rules(document, path, Ruleset)
