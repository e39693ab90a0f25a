"""The wild cards a deal decides, per player, and why each card is wild.

``resolve`` walks a dealt deal (:mod:`evaluator.deal.walk`) and turns the
rules triggered by the deal into plain wild ranks, per seat:

- ``wild.follow`` (Follow the Queen): among the cards dealt face up, in
  dealing order, the card right after the last one of the trigger rank makes
  its rank wild -- for every player, or (``follower: holder``) only for the
  player dealt it. When the last face-up card is of the trigger rank, or none
  is dealt face up, no rank follows. A later trigger cancels an earlier
  follower.
- ``wild.lowest_rank: down`` (Low Hole Wild): the lowest rank among a
  player's face-down natural cards (aces high, cards wild already left out)
  is wild for that player, every card of it the player holds.

:func:`wild_reasons` says, for the wild cards a player holds, which rule made
each wild -- the notes ``showdown``, ``compare`` and ``chart`` print.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine.hand import RANK_NAMES
from .walk import BOARD, Dealt, Walked, cards_of

if TYPE_CHECKING:
    from ..rules.cards import Card
    from ..rules.ruleset import CardHalf, Rules


@dataclass(frozen=True, slots=True)
class WildNote:
    """One reason cards are wild in a deal: the rule's key, the ranks, who for (None: every
    player), and a sentence."""

    rule: str
    ranks: frozenset[str]
    seats: tuple[int, ...] | None
    text: str

    def as_dict(self) -> dict[str, object]:
        """JSON-ready: ``rule``, ``ranks``, ``seats`` (null: every player), ``text``."""
        return {"rule": self.rule, "ranks": sorted(self.ranks), "seats": self.seats, "text": self.text}


@dataclass(frozen=True, slots=True)
class Resolution:
    """Per seat, the ranks the deal made wild (besides the static ones), and the notes saying why."""

    added: tuple[frozenset[str], ...]
    notes: tuple[WildNote, ...]
    extras: tuple[str, ...] = ()  # the extra cards the deal gave (game.extra), in words


def plural(rank: str) -> str:
    """'queens', 'sixes'."""
    return RANK_NAMES.get(rank, (rank, rank + "s"))[1]


def _seat(seat: int) -> str:
    return "the board" if seat == BOARD else f"player {seat + 1}"


def resolve(rules: Rules, walked: Walked, deck: tuple[Card, ...] | None = None) -> Resolution:
    """The deal-decided wild ranks of every seat of ``walked`` under ``rules``.

    >>> from evaluator import load
    >>> from evaluator.deal.walk import walk
    >>> rules = load("follow-the-queen")
    >>> ids = {str(card): i for i, card in enumerate(rules.deck)}
    >>> hand = lambda text: [(ids[c], None) for c in text.split()]
    >>> walked = walk(rules.game, [c.rank for c in rules.deck], [hand("2c 3c Qh 6d 7s 8s 9c"),
    ...     hand("2d 3d 6h Kd Ks Kh 4c")], [False, False], [])
    >>> [sorted(ranks) for ranks in resolve(rules, walked).added]  # 6h followed Qh face up
    [['6'], ['6']]
    """
    deck = deck or cards_of(rules)
    seats = len(walked.seats)
    added: list[set[str]] = [set() for _ in range(seats)]
    notes: list[WildNote] = []
    follow = rules.wild.follow
    if follow is not None:
        notes += _follow(rules, walked, deck, added)
    if rules.wild.lowest_down:
        notes += _lowest_down(rules, walked, deck, added)
    return Resolution(tuple(frozenset(ranks) for ranks in added), tuple(notes), tuple(_extras(walked, deck)))


def _extras(walked: Walked, deck: tuple[Card, ...]) -> list[str]:
    """What each extra card was dealt for (game.extra), in dealing order."""
    found = []
    for cards in walked.seats:
        for before, dealt in zip(cards, cards[1:], strict=False):
            if dealt.extra:
                face = "face up" if before.up else "face down"
                found.append(
                    f"{deck[before.card]}, dealt {face} to {_seat(dealt.seat)}, gave an extra card: "
                    f"{deck[dealt.card]} ({'face up' if dealt.up else 'face down'})"
                )
    return found


def _follow(rules: Rules, walked: Walked, deck: tuple[Card, ...], added: list[set[str]]) -> list[WildNote]:
    follow = rules.wild.follow
    assert follow is not None
    trigger_name = plural(follow.rank)
    last_trigger: Dealt | None = None
    follower: Dealt | None = None
    for dealt in walked.order:
        if not dealt.up:
            continue
        if deck[dealt.card].rank == follow.rank:
            last_trigger, follower = dealt, None  # a new trigger cancels the earlier follower
        elif last_trigger is not None and follower is None:
            follower = dealt
    if last_trigger is None:
        return [
            WildNote(
                "wild.follow", frozenset(), None, f"no {RANK_NAMES[follow.rank][0]} was dealt face up: no rank follows"
            )
        ]
    trigger_text = f"{deck[last_trigger.card]} to {_seat(last_trigger.seat)}"
    if follower is None:
        return [
            WildNote(
                "wild.follow",
                frozenset(),
                None,
                f"no rank follows: {trigger_text} was the last card dealt face up"
                + (f" (only {trigger_name} are wild)" if follow.trigger_wild else ""),
            )
        ]
    rank = deck[follower.card].rank
    if rank is None:  # a joker followed: it has no rank to make wild
        return [WildNote("wild.follow", frozenset(), None, f"a joker followed {trigger_text}: no rank follows")]
    why = f"{deck[follower.card]} was dealt face up to {_seat(follower.seat)} right after {trigger_text}"
    if follow.follower == "holder" and follower.seat != BOARD:
        added[follower.seat].add(rank)
        return [
            WildNote(
                "wild.follow",
                frozenset({rank}),
                (follower.seat,),
                f"{plural(rank)} are wild for {_seat(follower.seat)}: {why}",
            )
        ]
    for ranks in added:
        ranks.add(rank)
    return [WildNote("wild.follow", frozenset({rank}), None, f"{plural(rank)} are wild: {why}")]


def _lowest_down(rules: Rules, walked: Walked, deck: tuple[Card, ...], added: list[set[str]]) -> list[WildNote]:
    wild = rules.wild
    order = rules.deck_ranks  # aces high: the deck's order as written
    notes = []
    for seat, cards in enumerate(walked.seats):
        naturals = [
            deck[d.card]
            for d in cards
            if not d.up
            and deck[d.card].rank is not None
            and deck[d.card].rank not in wild.ranks | added[seat]
            and deck[d.card] not in wild.cards
        ]
        if not naturals:
            continue
        lowest = min(naturals, key=lambda card: order.index(card.rank or ""))
        rank = lowest.rank or ""
        added[seat].add(rank)
        notes.append(
            WildNote(
                "wild.lowest_rank: down",
                frozenset({rank}),
                (seat,),
                f"{plural(rank)} are wild for {_seat(seat)}: {lowest} is the lowest card dealt face down to "
                f"{_seat(seat)}",
            )
        )
    return notes


def wild_reasons(rules: Rules, resolution: Resolution | None, seat: int, wild_cards: list[Card]) -> list[str]:
    """For each wild card ``seat`` holds, the rule that made it wild, in words (one line per rule).

    >>> from evaluator import load
    >>> from evaluator.rules.cards import parse_cards
    >>> wild_reasons(load("baseball"), None, 0, parse_cards("3h 9c"))
    ['3h 9c: threes and nines are wild (wild.ranks)']
    """
    wild = rules.wild
    by_rule: dict[str, list[Card]] = {}
    texts: dict[str, str] = {}
    follow = wild.follow
    static_ranks = wild.ranks - ({follow.rank} if follow is not None and follow.trigger_wild else set())
    for card in wild_cards:
        key, text = _reason(rules, resolution, seat, card, static_ranks)
        by_rule.setdefault(key, []).append(card)
        texts[key] = text
    return [f"{' '.join(str(c) for c in cards)}: {texts[key]}" for key, cards in by_rule.items()]


def _reason(
    rules: Rules, resolution: Resolution | None, seat: int, card: Card, static_ranks: frozenset[str]
) -> tuple[str, str]:
    wild = rules.wild
    if card.is_joker:
        return "jokers", "jokers are wild (wild.jokers)"
    if card in wild.cards:
        return "cards", f"{' '.join(sorted(str(c) for c in wild.cards))} are wild (wild.cards)"
    if card.rank in static_ranks:
        names = " and ".join(plural(rank) for rank in rules.deck_ranks if rank in static_ranks)
        return "ranks", f"{names} are wild (wild.ranks)"
    follow = wild.follow
    if follow is not None and follow.trigger_wild and card.rank == follow.rank:
        return "trigger", f"{plural(follow.rank)} are wild in every deal (wild.follow)"
    if resolution is not None:
        for note in resolution.notes:
            if card.rank in note.ranks and (note.seats is None or seat in note.seats):
                return note.rule + note.text, f"{note.text} ({note.rule})"
    if wild.lowest_rank:
        return "lowest", "the lowest rank a player holds is wild (wild.lowest_rank)"
    return "other", "wild"


def card_rule_text(card: CardHalf) -> str:
    """A card half in words: 'the highest spade in the hole'."""
    suit = {"s": "spade", "h": "heart", "d": "diamond", "c": "club"}.get(card.suit or "", "card")
    where = {"down": "in the hole", "up": "face up", "any": "held"}[card.face]
    return f"the {card.pick} {suit} {where}" + (" (aces low)" if card.ace == "low" else "")


def rules_text(rules: Rules) -> list[str]:
    """The game's rules that depend on the deal (and its static wild cards), one sentence each.

    >>> from evaluator import load
    >>> rules_text(load("baseball"))[1]
    'a 4 dealt face up gives its player one more card at once, face down (game.extra)'

    """
    wild = rules.wild
    follow = wild.follow
    lines = []
    static = wild.ranks - ({follow.rank} if follow is not None and follow.trigger_wild else set())
    if static:
        names = [plural(rank) for rank in rules.deck_ranks if rank in static]
        lines.append(f"{' and '.join(names)} are wild (wild.ranks)")
    if wild.cards:
        lines.append(f"{' '.join(sorted(str(c) for c in wild.cards))} are wild (wild.cards)")
    if wild.lowest_rank:
        lines.append("the lowest rank a player holds is wild for that player (wild.lowest_rank)")
    if follow is not None:
        who = "every player" if follow.follower == "all" else "the player dealt it"
        lead = f"{plural(follow.rank)} are wild, and " if follow.trigger_wild else ""
        lines.append(
            f"{lead}the rank of the card dealt face up right after the last face-up {RANK_NAMES[follow.rank][0]} is wild "
            f"for {who} (wild.follow)"
        )
    if wild.lowest_down:
        lines.append("each player's lowest face-down rank is wild for that player (wild.lowest_rank: down)")
    game = rules.game
    if game is None:
        return lines
    for extra in game.extra:
        face = "face up" if extra.face == "up" else "face down" if extra.face == "down" else ""
        lines.append(
            f"a {extra.rank} dealt {face or 'either way'} gives its player one more card at once, "
            f"{'face up' if extra.gives == 'up' else 'face down'} (game.extra)"
        )
    for split in game.split:
        if split.card is not None:
            lines.append(f"the {split.name} half goes to {card_rule_text(split.card)} (game.split)")
    if game.declare is not None:
        must = "win every half outright" if game.declare == "win" else "win or tie every half"
        lines.append(f"players declare which half they play for; one declaring both must {must} (game.declare)")
    if game.runs > 1:
        lines.append(
            f"after an all-in the rest of the board is dealt {game.runs} times, the pot split between the runs (game.runs)"
        )
    return lines
