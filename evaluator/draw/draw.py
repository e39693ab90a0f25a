"""Draw poker under any ruleset: the best exchange, and the odds of a draw.

* :func:`best_exchange` -- five cards in hand and the next cards of the deck
  known: which cards to throw (any n of them, replaced by the next n cards in
  order) to make the best hand under the ruleset (its direction, wild cards,
  bug...). Ties between exchanges go to the one that keeps more cards.
* :func:`draw_odds` -- the exact distribution of the final hand's category
  when the discarded cards are replaced from the unseen cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

import numpy as np

from ..core.errors import Diagnostic, PokerRulesError
from ..engine.hand import Hand
from ..rules.cards import Card
from ..ruleset import Ruleset

NO_CATEGORY = "not qualifying"  # the hands a qualifier rules out (or no category matches)
MAX_DRAWS = 20_000_000  # draws ranked by one draw_odds call (C(47, 5) is 1.5 million)


class DrawError(PokerRulesError):
    """Cards that do not make a draw-poker question (wrong counts, a discard not held)."""


def _fail(code: str, message: str, hint: str | None = None) -> DrawError:
    return DrawError(Diagnostic(code, message, "<cards>", 1, 1, "error", hint))


def _playable(ruleset: Ruleset) -> None:
    if ruleset.game is not None and (ruleset.game.board or ruleset.game.hole != ruleset.hand_size):
        raise _fail(
            "D108",
            f"ruleset {ruleset.name!r} deals hole and board cards; a draw needs a plain {ruleset.hand_size}-card hand",
        )


@dataclass(frozen=True)
class Exchange:
    """The answer to the exchange problem."""

    discard: tuple[Card, ...]
    drawn: tuple[Card, ...]
    cards: tuple[Card, ...]  # the final hand: kept cards in their order, then the cards drawn
    hand: Hand

    def to_json(self) -> dict[str, object]:
        """``{"discard", "drawn", "cards", "category", "description"}``."""
        return {
            "discard": [str(c) for c in self.discard],
            "drawn": [str(c) for c in self.drawn],
            "cards": [str(c) for c in self.cards],
            "category": self.hand.category,
            "description": self.hand.describe(),
        }


def best_exchange(
    ruleset: Ruleset, hand: str | Sequence[Card | str], next_cards: str | Sequence[Card | str]
) -> Exchange:
    """The best final hand from throwing any n cards for the next n cards of the deck.

    Every exchange from keeping all cards to throwing all is tried; the best
    under :meth:`Ruleset.compare` wins, and between equal hands the one that
    keeps more cards (then the one met first, throwing earlier cards first).

    >>> import evaluator
    >>> best_exchange(evaluator.load("standard"), "As Ad 7c 4h 2s", "Ah 9c 3d Kd 5s").to_json()["discard"]
    ['4h', '2s']

    Raises:
        PokerRulesError: a card not in the deck or repeated (C1xx); D109 when
            the hand is not a full hand; D110 when more cards follow than can be drawn.
    """
    _playable(ruleset)
    held = ruleset.cards(hand)
    if len(held) != ruleset.hand_size:
        raise _fail("D109", f"a draw starts from a hand of {ruleset.hand_size} cards; {len(held)} given")
    following = ruleset.cards(next_cards) if (next_cards if isinstance(next_cards, str) else list(next_cards)) else []
    if len(following) > len(held):
        raise _fail("D110", f"--next gives {len(following)} cards; at most {len(held)} can be drawn")
    ruleset.cards([*held, *following])  # the same card twice (hand and deck) is an error
    best: Exchange | None = None
    for thrown in range(len(following) + 1):
        for positions in combinations(range(len(held)), thrown):
            kept = [card for index, card in enumerate(held) if index not in positions]
            drawn = following[:thrown]
            final = ruleset.evaluate([*kept, *drawn])
            candidate = Exchange(tuple(held[i] for i in positions), tuple(drawn), (*kept, *drawn), final)
            if best is None or ruleset.compare(final, best.hand) > 0:
                best = candidate
    assert best is not None  # keeping every card is always an exchange
    return best


@dataclass(frozen=True)
class DrawOdds:
    """The exact distribution of the final category of one draw."""

    kept: tuple[Card, ...]
    discard: tuple[Card, ...]
    unseen: int
    draws: int
    counts: dict[str, int]  # category -> number of draws (categories of the ruleset, highest first)

    def probability(self, category: str) -> float:
        """Chance that the final hand is ``category``."""
        return self.counts.get(category, 0) / self.draws

    def to_json(self) -> dict[str, object]:
        """Counts, probabilities and odds (``1 in x``) per category."""
        return {
            "kept": [str(c) for c in self.kept],
            "discard": [str(c) for c in self.discard],
            "unseen": self.unseen,
            "draws": self.draws,
            "categories": {
                name: {
                    "count": count,
                    "probability": count / self.draws,
                    "one_in": self.draws / count if count else None,
                }
                for name, count in self.counts.items()
            },
        }


def draw_odds(
    ruleset: Ruleset,
    hand: str | Sequence[Card | str],
    discard: str | Sequence[Card | str],
    dead: str | Sequence[Card | str] = "",
) -> DrawOdds:
    """Every replacement for ``discard`` from the cards not seen (neither in
    ``hand`` nor ``dead``), ranked with the compiled tables, counted by category.

    >>> import evaluator
    >>> odds = draw_odds(evaluator.load("standard"), "Ah Kh Qh Jh 2c", "2c")
    >>> odds.draws, odds.counts["royal_flush"], odds.counts["flush"]
    (47, 1, 8)

    Raises:
        PokerRulesError: bad cards (C1xx); D109 a hand that is not full; D111 a
            discard not held; D112 too few unseen cards; D113 too many draws.
    """
    _playable(ruleset)
    if ruleset.copies != 1:
        raise _fail("D113", "draw odds need a deck of one pack")
    held = ruleset.cards(hand)
    if len(held) != ruleset.hand_size:
        raise _fail("D109", f"a draw starts from a hand of {ruleset.hand_size} cards; {len(held)} given")
    thrown = ruleset.cards(discard) if (discard if isinstance(discard, str) else list(discard)) else []
    for card in thrown:
        if card not in held:
            raise _fail("D111", f"the discard {card} is not in the hand", "discard cards of the hand")
    gone = ruleset.cards(dead) if (dead if isinstance(dead, str) else list(dead)) else []
    ruleset.cards([*held, *gone])  # a dead card cannot also be held
    deck = list(ruleset.deck)
    seen = set(held) | set(gone)
    unseen = [index for index, card in enumerate(deck) if card not in seen]
    kept = [card for card in held if card not in thrown]
    need = len(held) - len(kept)
    if need > len(unseen):
        raise _fail("D112", f"{need} cards to draw but only {len(unseen)} unseen")
    total = comb(len(unseen), need)
    if total > MAX_DRAWS:
        raise _fail("D113", f"{total:,} draws to rank; the limit is {MAX_DRAWS:,}")
    names = (*ruleset.category_names, NO_CATEGORY)
    counts = dict.fromkeys(names, 0)
    kept_ids = [deck.index(card) for card in kept]
    if need == 0:
        final = ruleset.evaluate(kept)
        counts[final.category if final.qualifies else NO_CATEGORY] += 1
    else:
        categories = _categories_of_draws(ruleset, kept_ids, unseen, need)
        for index, number in enumerate(np.bincount(categories, minlength=len(names))):
            counts[names[index]] = int(number)
    return DrawOdds(tuple(kept), tuple(thrown), len(unseen), total, {k: v for k, v in counts.items() if v})


def _categories_of_draws(ruleset: Ruleset, kept_ids: list[int], unseen: list[int], need: int) -> np.ndarray:
    from .videopoker import all_hands, category_of_strengths

    pool = np.array(unseen, dtype=np.int16)
    drawn = pool[all_hands(len(unseen), need)]
    hands = np.concatenate(
        [np.broadcast_to(np.array(kept_ids, dtype=np.int16), (len(drawn), len(kept_ids))), drawn], axis=1
    )
    return category_of_strengths(ruleset, ruleset.rank_many(hands))
