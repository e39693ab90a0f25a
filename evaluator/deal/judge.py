"""Many completed deals settled at once: hands ranked on the variants' tables, pots split per deal.

For the odds, the statistics and ``diff`` of dealer's-choice games. Each
seat's holding (with the board of its run) is ranked in NumPy batches, one
batch per variant of the wild cards and holding size, on that variant's
compiled tables. Values of different variants are made comparable through
the strengths the tables list (:attr:`Tables.strengths`, the generic
evaluator's own): every variant's dense values are mapped onto one order of
strengths per half, so players with different wild cards (Low Hole Wild)
meet as :func:`evaluator.deal.settle.settle` has them meet. A variant whose
tables are not at hand has its first hands valued by the generic evaluator
instead, their strengths put in the same order (a few deals build no
tables; past :data:`GENERIC_HANDS` hands a build pays). The pot of each
deal is then split in Python (halves, card halves, declarations, runs), as
``settle`` splits it; the tests hold the two equal.

Games the tables cannot settle alone (``beats:`` exceptions, a half on the
generic path) are settled deal by deal by ``settle`` itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..compiled.fast import ruleset_ranker
from ..compiled.fasthand import generic_answers
from ..compiled.mustuse import lowest_wild_best
from ..compiled.table_layout import value_part
from ..compiled.tables import strength_category, tables_at_hand
from ..engine.showdown import playing_subsets
from .deal import BOTH, Deal, half_names
from .read import CardsText
from .resolve import resolve
from .sample import Completed
from .settle import best_card, card_value, half_rules_of, hand_of, settle
from .variant import variant

if TYPE_CHECKING:
    from ..compiled.fast import FastRanker
    from ..rules.ruleset import CardHalf, Rules


@dataclass
class Settled:
    """Per deal and seat: the share of the pot, and of it what each half gave; per half, the deals
    where nobody won it; per ruleset half, each seat's category index in run 1 (-1: no hand)."""

    shares: np.ndarray
    halves: dict[str, np.ndarray]
    dead: dict[str, np.ndarray]
    categories: dict[str, np.ndarray]
    wild_sets: list[tuple[frozenset[str], ...]]  # per deal, run 1's deal-decided ranks per seat


def deal_of(rules: Rules, runs: Completed, folded: Sequence[bool], declarations: Sequence[str | None] | None) -> Deal:
    """A :class:`Deal` of a completed one (for :func:`evaluator.deal.settle.settle`)."""
    seats = tuple(
        CardsText("", f"<hand {i + 1}>", tuple((d.card, d.up) for d in cards), (), folded[i])
        for i, cards in enumerate(runs[0].seats)
    )
    boards = tuple(
        CardsText("", f"<board {i + 1}>", tuple((d.card, True) for d in run.board), ()) for i, run in enumerate(runs)
    )
    return Deal(
        rules,
        seats,
        boards if rules.game and rules.game.board else (),
        tuple(runs),
        None if declarations is None else tuple(declarations),
        0,
    )


#: A batch's seats of one variant: (deal, seat) rows, the wild ranks the deal added, holdings,
#: boards, and the strengths the generic evaluator found (None: valued on the variant's tables).
_Group = tuple[list[tuple[int, int]], frozenset[str], np.ndarray, np.ndarray, "list[Any] | None"]

#: Hands of a variant valued by the generic evaluator before its tables are built: a build takes a
#: second or two, the generic evaluator (its hand classes remembered across the variants) two or
#: three milliseconds a hand with two wild ranks.
GENERIC_HANDS = 300


class _Half:
    """One ruleset half: its variants' rankers and one order of strengths for all of them.

    A variant whose tables are neither loaded nor on disk has its first :data:`GENERIC_HANDS`
    hands valued by the generic evaluator (their strengths join the order), so a few deals of
    a game whose wild ranks the deal decides build no tables."""

    def __init__(self, rules: Rules, judge: Rules, extra_static: frozenset[str]) -> None:
        self.rules, self.judge, self.extra_static = rules, judge, extra_static
        self.rankers: dict[frozenset[str], FastRanker] = {}
        self.maps: dict[frozenset[str], np.ndarray] = {}
        self.order: list[Any] = []
        self.where: dict[Any, int] = {}
        self.generic_hands: dict[frozenset[str], int] = {}
        same = judge.deck == rules.deck
        self.id_map = None if same else np.array([judge.deck.index(card) for card in rules.deck], dtype=np.int64)

    def ranker(self, added: frozenset[str]) -> FastRanker:
        found = self.rankers.get(added)
        if found is None:
            found = ruleset_ranker(variant(self.judge, added | self.extra_static))
            self.rankers[added] = found
            if not self._include(found.tables.strengths):
                self.maps[added] = self._map(found)
        return found

    def _include(self, strengths: Iterable[Any]) -> bool:
        """Put ``strengths`` in the one order and renumber every variant's map onto it (True), or
        leave both as they are when the order holds them all (False)."""
        known = set(self.order)
        new = set(strengths) - known
        if not new:
            return False
        self.order = sorted(known | new)
        self.where = {strength: i for i, strength in enumerate(self.order)}
        for key, ranker in self.rankers.items():
            self.maps[key] = self._map(ranker)
        return True

    def _map(self, ranker: FastRanker) -> np.ndarray:
        return np.array([self.where[s] for s in ranker.tables.strengths], dtype=np.int64)

    def on_tables(self, added: frozenset[str], hands: int, growth: float = 1.0) -> bool:
        """Whether ``hands`` more hands of the variant go on its tables: they are at hand, the
        ruleset breaks ties by suit (a suit key the generic values here lack), or the variant's
        hands so far, times ``growth`` (deals to settle in all / deals so far), come to more than
        :data:`GENERIC_HANDS`, enough for a build to pay for itself."""
        if added in self.rankers:
            return True
        if added not in self.generic_hands:  # first met: are its tables at hand? (asked once)
            rules = variant(self.judge, added | self.extra_static)
            if rules.tiebreak != "none" or tables_at_hand(rules):
                return True
        seen = self.generic_hands.get(added, 0) + hands
        self.generic_hands[added] = seen
        return seen * growth > GENERIC_HANDS

    def generic_strengths(self, added: frozenset[str], holdings: np.ndarray, board: np.ndarray) -> list[Any]:
        """The strength of each row (None: no hand) by the generic evaluator; they join the order."""
        rules = variant(self.judge, added | self.extra_static)
        deck = self.rules.deck
        found: list[Any] = []
        with generic_answers(rules):
            for held, shared in zip(holdings.tolist(), board.tolist(), strict=True):
                hand = hand_of(rules, [deck[i] for i in held], [deck[i] for i in shared])
                found.append(None if hand is None else value_part(hand.strength))
        self._include(strength for strength in found if strength is not None)
        return found

    def generic_values(self, strengths: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
        """(comparable value, category index) of strengths found by :meth:`generic_strengths`."""
        category = np.array(
            [-1 if strength is None else strength_category(self.judge, strength) for strength in strengths],
            dtype=np.int64,
        )
        where = self.where
        dense = np.array([-1 if strength is None else where[strength] for strength in strengths], dtype=np.int64)
        return np.where(category >= 0, dense, -1), category

    def values(self, added: frozenset[str], holdings: np.ndarray, board: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(comparable value, category index) of each row: the holding with its board, best allowed subset."""
        ranker = self.ranker(added)
        cards = np.concatenate([holdings, board], axis=1) if board.shape[1] else holdings
        if self.id_map is not None:
            cards = self.id_map[cards]
        if ranker.constrained and ranker.ruleset.wild.lowest_rank:
            raw = lowest_wild_best(ranker, cards, holdings.shape[1])[0]
        elif ranker.constrained:
            game = ranker.ruleset.game
            subsets = np.array(list(playing_subsets(ranker.ruleset, holdings.shape[1], board.shape[1], game)))
            rows = cards[:, subsets].reshape(-1, subsets.shape[1])
            raw = np.asarray(ranker.rank_many(rows)).reshape(len(cards), len(subsets)).max(axis=1)
        else:
            raw = np.asarray(ranker.rank_many(cards))
        scale = ranker.value_scale  # a value is dense * value_scale + suit key on every path (generic too)
        dense = raw // scale
        valid = raw >= 0
        category = np.where(valid, ranker.tables.categories[np.maximum(dense, 0)], -1)
        # a hand that does not qualify cannot win: no value (its category is -1 too)
        mapped = np.where(category >= 0, self.maps[added][np.maximum(dense, 0)] * scale + raw % scale, -1)
        return mapped, category


class Judge:
    """Settles completed deals of one game with ``players`` seats (see the module docstring)."""

    def __init__(
        self,
        rules: Rules,
        players: int,
        folded: Sequence[bool] = (),
        declarations: Sequence[str | None] | None = None,
        deals: int | None = None,
    ) -> None:
        """``deals``: how many deals will be settled in all, when known (a variant met often in the
        first batches is then put on its tables at once; see :data:`GENERIC_HANDS`)."""
        self.rules = rules
        self.deals_in_all = deals
        self.settled = 0
        self.players = players
        self.folded = list(folded) + [False] * (players - len(folded))
        self.declarations = None if declarations is None else list(declarations)
        self.names = half_names(rules)
        self.specs = half_rules_of(rules)
        self.halves: list[_Half | None] = []
        for _, judge, _card in self.specs:
            if judge is None:
                self.halves.append(None)
            else:
                self.halves.append(_Half(rules, judge, rules.wild.ranks if judge is not rules else frozenset()))
        self.generic = any(judge is not None and judge.beats for _, judge, _ in self.specs)

    def settle(self, deals: Sequence[Completed]) -> Settled:
        """Shares, half shares, dead halves and categories of ``deals``."""
        n, players = len(deals), self.players
        shares = np.zeros((n, players))
        halves = {name: np.zeros((n, players)) for name in self.names}
        dead = {name: np.ones(n, dtype=bool) for name in self.names}
        categories = {
            name: np.full((n, players), -1, dtype=np.int64) for name, judge, _ in self.specs if judge is not None
        }
        resolutions = [[resolve(self.rules, run) for run in deal] for deal in deals]
        wild_sets = [r[0].added for r in resolutions]
        if self.generic:  # beats: exceptions: the showdown of each deal, halves and all
            for index, deal in enumerate(deals):
                result = settle(self.rules, deal_of(self.rules, deal, self.folded, self.declarations))
                shares[index] = [float(f) for f in result.fractions]
                for position, half in enumerate(result.halves):
                    name = self.names[position % len(self.names)]
                    for seat in half.winners:
                        halves[name][index, seat] += float(half.share) / len(half.winners)
                    if half.winners:
                        dead[name][index] = False
            return Settled(shares, halves, dead, categories, wild_sets)
        runs = len(deals[0]) if deals else 1
        values = [self._values(deals, resolutions, run, categories) for run in range(runs)]
        self.settled += n
        for index, deal in enumerate(deals):
            self._split(index, deal, values, shares, halves, dead)
        return Settled(shares, halves, dead, categories, wild_sets)

    def _values(
        self, deals: Sequence[Completed], resolutions: list[list[Any]], run: int, categories: dict[str, np.ndarray]
    ) -> list[np.ndarray | None]:
        """Per half, (n, players) comparable values of run ``run`` (-1: no hand; None: a card half)."""
        n = len(deals)
        found: list[np.ndarray | None] = []
        for (name, _judge, _), half in zip(self.specs, self.halves, strict=True):
            if half is None:
                found.append(None)
                continue
            values = np.full((n, self.players), -1, dtype=np.int64)
            groups: dict[tuple[frozenset[str], int, int], list[tuple[int, int]]] = {}
            for index, deal in enumerate(deals):
                walked = deal[run]
                for seat, cards in enumerate(walked.seats):
                    if self.folded[seat] or not cards:
                        continue
                    key = (resolutions[index][run].added[seat], len(cards), len(walked.board))
                    groups.setdefault(key, []).append((index, seat))
            # every variant's strengths first: the order of strengths is then fixed for this batch
            growth = max(1.0, self.deals_in_all / (self.settled + n)) if self.deals_in_all else 1.0
            groups_valued: list[_Group] = []
            for (added, _size, board_size), rows in groups.items():
                holdings = np.array([[d.card for d in deals[i][run].seats[s]] for i, s in rows], dtype=np.int64)
                boards = np.array([[d.card for d in deals[i][run].board] for i, _ in rows], dtype=np.int64).reshape(
                    len(rows), board_size
                )
                if half.on_tables(added, len(rows), growth):
                    half.ranker(added)
                    groups_valued.append((rows, added, holdings, boards, None))
                else:
                    strengths = half.generic_strengths(added, holdings, boards)
                    groups_valued.append((rows, added, holdings, boards, strengths))
            for rows, added, holdings, boards, found_strengths in groups_valued:
                if found_strengths is None:
                    mapped, category = half.values(added, holdings, boards)
                else:
                    mapped, category = half.generic_values(found_strengths)
                where = tuple(np.array(rows).T)
                values[where] = mapped
                if run == 0:
                    categories[name][where] = category
            found.append(values)
        return found

    def _split(
        self,
        index: int,
        deal: Completed,
        values: list[list[np.ndarray | None]],
        shares: np.ndarray,
        halves: dict[str, np.ndarray],
        dead: dict[str, np.ndarray],
    ) -> None:
        """One deal's pot: per run the halves with a winner, each split between its winners."""
        runs = len(deal)
        won: list[list[list[int]]] = []
        for run in range(runs):
            eligible = [self._eligible(name) for name in self.names]
            per_half = [self._winners(index, run, h, eligible[h], deal, values) for h in range(len(self.specs))]
            if self.declarations is not None:
                failed = {
                    seat
                    for seat, said in enumerate(self.declarations)
                    if said == BOTH
                    and any(
                        seat not in winners
                        or (self.rules.game is not None and self.rules.game.declare == "win" and len(winners) > 1)
                        for winners in per_half
                    )
                }
                if failed:
                    per_half = [
                        self._winners(index, run, h, eligible[h] - failed, deal, values) if failed & set(w) else w
                        for h, w in enumerate(per_half)
                    ]
            won.append(per_half)
        live_runs = [run for run in range(runs) if any(won[run])]
        for run in live_runs:
            live = [h for h, winners in enumerate(won[run]) if winners]
            for h in live:
                part = 1.0 / (len(live_runs) * len(live) * len(won[run][h]))
                for seat in won[run][h]:
                    shares[index, seat] += part
                    halves[self.names[h]][index, seat] += part
        for h, name in enumerate(self.names):
            if any(won[run][h] for run in range(runs)):
                dead[name][index] = False

    def _eligible(self, name: str) -> set[int]:
        seats = {seat for seat in range(self.players) if not self.folded[seat]}
        if self.declarations is not None:
            seats = {seat for seat in seats if self.declarations[seat] in (name, BOTH)}
        return seats

    def _winners(
        self, index: int, run: int, h: int, eligible: set[int], deal: Completed, values: list[list[np.ndarray | None]]
    ) -> list[int]:
        card: CardHalf | None = self.specs[h][2]
        if card is not None:
            best = {}
            for seat in eligible:
                found = best_card(self.rules, deal[run].seats[seat], card)
                if found is not None:
                    best[seat] = card_value(self.rules, found, card)
            if not best:
                return []
            top = max(best.values())
            return sorted(seat for seat, value in best.items() if value == top)
        row = values[run][h]
        assert row is not None
        scores = {seat: int(row[index, seat]) for seat in eligible if row[index, seat] >= 0}
        if not scores:
            return []
        top = max(scores.values())
        return sorted(seat for seat, score in scores.items() if score == top)
