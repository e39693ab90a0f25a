"""Judging pairs of parts under both rulesets: outcomes, causes and group keys (see :mod:`evaluator.tools.flips`).

Every part of the hand space (:mod:`evaluator.tools.flips_hands`) is valued
once per ruleset through the generic engine (one hand of it); the pairs are
then judged with NumPy, a whole block of them at once: the outcome under each
ruleset (values, qualifying, then ``beats:`` exceptions between qualifying
hands), whether it is a flip (A ranks the first hand higher than B does), the
kind of flip and its cause, and the key of its group (cause, kind and the
categories of the two hands).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine.showdown import hand_matches
from .diff_basis import hand_or_none
from .flip_types import CAUSES, flip_label

if TYPE_CHECKING:
    from ..engine.hand import Hand
    from ..rules.cards import Card
    from ..ruleset import Ruleset
    from .flips_hands import HandSpace

IntArray = np.ndarray[Any, np.dtype[np.int64]]
BoolArray = np.ndarray[Any, np.dtype[np.bool_]]

KINDS = 3
OUTCOMES = ((1, -1), (1, 0), (0, -1))  # (A, B) of each kind: reversed, a win becomes a tie, a tie becomes a loss


class SideJudge:
    """One ruleset's view of every part: qualifying, category and ``beats:`` matches.

    Categories come from the compiled tables (a value names its category);
    the generic engine values one hand of a part only where the tables cannot
    say (a hand that does not qualify) or a ``beats:`` rule must match it.
    """

    def __init__(self, ruleset: Ruleset, values: IntArray, cards: list[tuple[Card, ...]]) -> None:
        from ..compiled.fast import ruleset_ranker

        self.ruleset = ruleset
        index = ruleset_ranker(ruleset).tables.categories[values]
        self.qualifies: BoolArray = index >= 0
        names = [category.name for category in ruleset.categories]
        beats = ruleset.beats
        self.has_beats = bool(beats)
        looked_up = np.flatnonzero(~self.qualifies) if not beats else np.arange(len(values))
        hands = {int(part): _hand(ruleset, cards[int(part)]) for part in looked_up}
        self.categories = [hands[part].category if part in hands else names[i] for part, i in enumerate(index.tolist())]
        self.winner = np.zeros((len(values), len(beats)), dtype=np.int64)
        self.loser = np.zeros((len(values), len(beats)), dtype=np.int64)
        for part, hand in hands.items():
            self.winner[part] = [hand_matches(x.winner.matcher, hand) for x in beats]
            self.loser[part] = [hand_matches(x.loser.matcher, hand) for x in beats]

    def outcomes(
        self, first: IntArray, second: IntArray, value_first: IntArray, value_second: IntArray
    ) -> tuple[np.ndarray, np.ndarray]:
        """(outcome, exception) of every pair (``first[i]``, ``second[j]``) of parts with the values given:
        1 first wins, -1 second wins, 0 tie (int8). Two hands that do not qualify tie."""
        higher, lower = value_first[:, None] > value_second[None, :], value_first[:, None] < value_second[None, :]
        outcome = higher.view(np.int8) - lower.view(np.int8)  # a bool is a byte of 0 or 1: no copies
        if not self.qualifies.all():
            neither = ~self.qualifies[first][:, None] & ~self.qualifies[second][None, :]
            outcome[neither] = 0
        exception = np.zeros(outcome.shape, dtype=np.int8)
        if self.has_beats:
            both = self.qualifies[first][:, None] & self.qualifies[second][None, :]
            wins = (self.winner[first] @ self.loser[second].T) > 0
            loses = (self.loser[first] @ self.winner[second].T) > 0
            exception = np.where(both, wins.astype(np.int8) - loses.astype(np.int8), 0).astype(np.int8)
            outcome = np.where(exception != 0, exception, outcome)
        return outcome, exception


class PartJudge:
    """Both rulesets' view of every part, and the flips of pairs of parts.

    ``labels`` are the group labels (one category, or ``A / B`` when the
    rulesets disagree); a group key is ``((cause * KINDS + kind) * L + first
    label) * L + second label`` with ``L`` labels.
    """

    def __init__(self, space: HandSpace) -> None:
        self.space = space
        a, b = space.a.ruleset, space.b.ruleset
        cards = [space.hand_cards(int(hand)) for hand in space.part_hand]
        self.cards = cards
        # per part, widened to 64 bits (the hand space may keep 32): products of them are keys
        self.value_a: IntArray = space.a.plain[space.part_hand].astype(np.int64)
        self.value_b: IntArray = space.b.plain[space.part_hand].astype(np.int64)
        self.side_a = SideJudge(a, self.value_a, cards)
        self.side_b = SideJudge(b, self.value_b, cards)
        self.tiebreak_a, self.tiebreak_b = space.a.tiebreak, space.b.tiebreak
        labels = [flip_label(x, y) for x, y in zip(self.side_a.categories, self.side_b.categories, strict=True)]
        self.label_names = sorted(set(labels))
        self.label: IntArray = np.array([self.label_names.index(name) for name in labels], dtype=np.int64)
        names_a = sorted(set(self.side_a.categories))
        self.category_a: IntArray = np.array([names_a.index(n) for n in self.side_a.categories], dtype=np.int64)
        self.moved: BoolArray = np.array(
            [x != y for x, y in zip(self.side_a.categories, self.side_b.categories, strict=True)], dtype=bool
        )
        self.qualifier_differs: BoolArray = self.side_a.qualifies != self.side_b.qualifies
        ace = [i for i, card in enumerate(space.deck[:: space.suits]) if card.rank == "A"]
        multiset = space.class_multiset[space.part_class]
        held_ace = space.counts[:, ace[0]] > 0 if ace else np.zeros(len(space.counts), dtype=bool)
        self.ace: BoolArray = held_ace[multiset]
        self.ace_differs = a.ace != b.ace
        self.multiset: IntArray = multiset

    @property
    def key_count(self) -> int:
        """How many group keys there can be."""
        return len(CAUSES) * KINDS * len(self.label_names) ** 2

    def features(self) -> IntArray:
        """A number per part for what the judging reads of it besides its values (equal numbers judge alike)."""
        columns = [
            self.label,
            self.category_a,
            self.side_a.qualifies,
            self.side_b.qualifies,
            self.moved,
            self.ace,
            self.side_a.winner,
            self.side_a.loser,
            self.side_b.winner,
            self.side_b.loser,
        ]
        table = np.column_stack([np.asarray(c, dtype=np.int64).reshape(len(self.label), -1) for c in columns])
        return np.unique(table, axis=0, return_inverse=True)[1].reshape(-1).astype(np.int64)

    def flips(
        self,
        first: IntArray,
        second: IntArray,
        values: tuple[IntArray, IntArray, IntArray, IntArray],
        allowed: BoolArray | None = None,
        suit_tie: BoolArray | None = None,
    ) -> tuple[IntArray, IntArray, IntArray]:
        """The flips among the pairs (``first[i]``, ``second[j]``) of parts: (i, j, group key) of each.

        ``values`` are (A's values of the first parts, of the second, B's of the
        first, of the second); ``allowed`` leaves pairs out (False: not
        looked at); ``suit_tie`` marks the pairs equal by value in a ruleset
        that breaks ties by suit (None: none are).
        """
        outcomes = self._outcomes(first, second, values)
        flip = outcomes[0] > outcomes[2]  # A ranks the first hand higher than B does
        if allowed is not None:
            flip &= allowed
        flat, ii, jj = _positions(flip)
        return ii, jj, self._keys(first[ii], second[jj], flat, outcomes, suit_tie)

    def flips_both_ways(
        self,
        first: IntArray,
        second: IntArray,
        values: tuple[IntArray, IntArray, IntArray, IntArray],
        both: IntArray,
    ) -> tuple[IntArray, IntArray, IntArray, BoolArray]:
        """:meth:`flips` of the pairs (``first[i]``, ``second[j]``) and of the same pairs the other way
        round, judged once: (i, j, group key, back), ``back`` where the flip is (``second[j]``,
        ``first[i]``). Outcomes are antisymmetric and every cause reads both parts alike, so the
        other way round only swaps the parts' labels in the key.

        ``both`` are the parts the caller judges both as firsts and as seconds (in this call or
        another): a pair of two of them is judged twice, and is kept once, from its lower part.
        """
        outcomes = self._outcomes(first, second, values)
        outcome_a, outcome_b = outcomes[0], outcomes[2]
        differ = outcome_a != outcome_b
        rows, columns = np.flatnonzero(np.isin(first, both)), np.flatnonzero(np.isin(second, both))
        differ[np.ix_(rows, columns)] &= first[rows][:, None] < second[columns][None, :]
        flat, ii, jj = _positions(differ)
        back = outcome_a.reshape(-1)[flat] < outcome_b.reshape(-1)[flat]
        one, two = first[ii], second[jj]
        one, two = np.where(back, two, one), np.where(back, one, two)
        return ii, jj, self._keys(one, two, flat, outcomes, None), back

    def _outcomes(
        self, first: IntArray, second: IntArray, values: tuple[IntArray, IntArray, IntArray, IntArray]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(outcome, exception) under A, then under B, of every pair (see :meth:`SideJudge.outcomes`)."""
        outcome_a, exception_a = self.side_a.outcomes(first, second, values[0], values[1])
        outcome_b, exception_b = self.side_b.outcomes(first, second, values[2], values[3])
        return outcome_a, exception_a, outcome_b, exception_b

    def _keys(
        self,
        one: IntArray,
        two: IntArray,
        flat: IntArray,
        outcomes: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
        suit_tie: BoolArray | None,
    ) -> IntArray:
        """The group key of each flip: the parts ``one`` (A ranks it higher than B does) and ``two``,
        judged at the flat positions ``flat`` of the outcome matrices (the same either way round)."""
        outcome_a, exception_a, outcome_b, exception_b = outcomes
        # causes in order, the first that applies names the flip; those that never apply are left out
        conditions, causes = [], []
        if self.side_a.has_beats or self.side_b.has_beats:
            conditions.append((exception_a.reshape(-1)[flat] != 0) | (exception_b.reshape(-1)[flat] != 0))
            causes.append("beats")
        if self.qualifier_differs.any():
            conditions.append(self.qualifier_differs[one] | self.qualifier_differs[two])
            causes.append("qualifier")
        conditions.append(self.moved[one] | self.moved[two])
        causes.append("category_membership")
        conditions.append(self.category_a[one] != self.category_a[two])
        causes.append("category_order")
        if suit_tie is not None:
            conditions.append(suit_tie.reshape(-1)[flat])
            causes.append("suit_tiebreak")
        if self.ace_differs:
            conditions.append(self.ace[one] | self.ace[two])
            causes.append("ace_rule")
        cause = np.select(conditions, [CAUSES.index(c) for c in causes], default=CAUSES.index("rank_order"))
        # (a flat position reads a matrix quicker than its row and column)
        kind = (outcome_a.reshape(-1)[flat] == 0).astype(np.int64) * 2 + (outcome_b.reshape(-1)[flat] == 0)
        labels = len(self.label_names)
        key = ((cause * KINDS + kind) * labels + self.label[one]) * labels + self.label[two]
        keys: IntArray = key.astype(np.int64)
        return keys

    def describe_key(self, key: int) -> tuple[str, str, str, int, int]:
        """(cause, first label, second label, outcome under A, outcome under B) of a group key."""
        labels = len(self.label_names)
        code, rest = divmod(key, labels * labels)
        cause_index, kind = divmod(code, KINDS)
        first, second = divmod(rest, labels)
        want_a, want_b = OUTCOMES[kind]
        return CAUSES[cause_index], self.label_names[first], self.label_names[second], want_a, want_b


def _positions(marked: BoolArray) -> tuple[IntArray, IntArray, IntArray]:
    """The flat positions of the True entries of a matrix, and their rows and columns (split from
    the flat positions: quicker than ``nonzero``'s two index arrays)."""
    flat = np.flatnonzero(marked)
    rows = flat // marked.shape[1]
    return flat, rows, flat - rows * marked.shape[1]


def _hand(ruleset: Ruleset, cards: tuple[Card, ...]) -> Hand:
    hand = hand_or_none(ruleset, cards)
    if hand is None:
        raise ValueError("a part makes no hand")  # ranked on the tables, so the engine plays it too
    return hand
