"""A plain settle of a dealer's-choice deal, written from docs/games.md alone, that the deal
stage (``evaluator/deal/``) is checked against.

:func:`deal_cards` deals a shuffled deck by the generated file's own ``game:``
(streets round the table one card at a time, face down before face up, the
street's board cards after; an extra card at once to the player whose card
bought it; the board run again from a shared start when ``runs: 2``).
:func:`plain_settle` resolves the wild cards of each run (the card after the
last face-up trigger; each player's lowest face-down natural rank, aces high),
ranks each player's best hand with the generic engine under a ruleset written
here with those wild ranks, gives card halves to the best card, strikes out
players who declared both and did not win every half, and splits the pot:
runs someone wins (a run nobody wins gives its part to the others, as a
double board does), then halves with a winner, then winners. ``beats:``
cycles and double boards are left to the engine's own tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

from evaluator.engine.showdown import best_hand
from evaluator.ruleset import Ruleset, load

ACE_HIGH = "23456789TJQKA"


@dataclass
class PlainDeal:
    """A deal: per seat (card, face up) in dealing order, the boards of each run, the
    dealing order as slots (seat, index) -- seat -1 the board -- and the declarations."""

    seats: list[list[tuple[str, bool]]]
    boards: list[list[str]]
    order: list[tuple[int, int]] = field(default_factory=list)
    declarations: list[str] | None = None

    def seat_text(self, seat: int, faces: bool) -> str:
        """The seat's cards in dealing order; ``faces``: face-down cards in parentheses."""
        if not faces:
            return " ".join(card for card, _ in self.seats[seat])
        return " ".join(card if up else f"({card})" for card, up in self.seats[seat])


def _rank(card: str) -> str | None:
    return None if card.startswith("X") or card.startswith("*") else card[0]


def deal_cards(game: dict[str, Any], players: int, deck: list[str], shared: int) -> PlainDeal:
    """Deal ``deck`` (shuffled; raises IndexError when it runs out) to ``players`` under ``game``;
    a second run of the board keeps its first ``shared`` cards."""
    cards = iter(deck)
    hole, board = int(game["hole"]), int(game["board"]) * int(game.get("boards", 1))
    streets = game.get("streets") or [{"down": hole, "board": board}]
    extras = game.get("extra") or []
    deal = PlainDeal([[] for _ in range(players)], [[]])

    def give(seat: int, up: bool) -> None:
        card = next(cards)
        deal.seats[seat].append((card, up))
        deal.order.append((seat, len(deal.seats[seat]) - 1))
        for rule in extras:
            if _rank(card) == str(rule["rank"]) and rule.get("face", "up") in ("any", "up" if up else "down"):
                give(seat, rule.get("gives", "down") == "up")

    for street in streets:
        for number in range(street.get("down", 0) + street.get("up", 0)):
            for seat in range(players):
                give(seat, number >= street.get("down", 0))
        for _ in range(street.get("board", 0)):
            deal.order.append((-1, len(deal.boards[0])))
            deal.boards[0].append(next(cards))
    if int(game.get("runs", 1)) > 1:
        deal.boards.append(deal.boards[0][:shared] + [next(cards) for _ in deal.boards[0][shared:]])
    return deal


class PlainSettle:
    """The plain settle of one generated file's deals (its ruleset and the folder it is in)."""

    def __init__(self, path: Path, document: dict[str, Any]) -> None:
        self.path = path
        self.doc = document
        self.game: dict[str, Any] = document["game"]
        self.wild: dict[str, Any] = document.get("wild") or {}
        self.ruleset = load(path)
        self.variants: dict[tuple[str, frozenset[str]], Ruleset] = {}
        self.halves = self.game.get("split") or [{"name": "high"}]

    # --- wild cards ---------------------------------------------------------------------------

    def static_ranks(self) -> set[str]:
        ranks = {str(rank) for rank in self.wild.get("ranks", [])}
        follow = self.wild.get("follow")
        if follow and follow.get("trigger_wild", True):
            ranks.add(str(follow["rank"]))
        return ranks

    def _statically_wild(self, card: str) -> bool:
        if _rank(card) is None:
            return bool(self.wild.get("jokers", True))
        return _rank(card) in self.static_ranks() or card in {str(c) for c in self.wild.get("cards", [])}

    def resolve(self, deal: PlainDeal, run: int) -> list[set[str]]:
        """Per seat the ranks the deal makes wild in ``run`` (besides the static ones)."""
        added: list[set[str]] = [set() for _ in deal.seats]
        follow = self.wild.get("follow")
        if follow:
            trigger, follower = False, None
            for seat, index in deal.order:
                card, up = (deal.boards[run][index], True) if seat < 0 else deal.seats[seat][index]
                if not up:
                    continue
                if _rank(card) == str(follow["rank"]):
                    trigger, follower = True, None
                elif trigger and follower is None:
                    follower = (seat, card)
            if follower is not None and _rank(follower[1]) is not None:
                seat, card = follower
                for_whom = [seat] if follow.get("follower", "all") == "holder" and seat >= 0 else range(len(deal.seats))
                for who in for_whom:
                    added[who].add(str(_rank(card)))
        if self.wild.get("lowest_rank") == "down":
            for seat, cards in enumerate(deal.seats):
                natural = [
                    str(_rank(card))
                    for card, up in cards
                    if not up and not self._statically_wild(card) and _rank(card) not in added[seat]
                ]
                if natural:
                    added[seat].add(min(natural, key=ACE_HIGH.index))
        return added

    # --- hands --------------------------------------------------------------------------------

    def variant(self, ruleset_path: str | None, ranks: frozenset[str]) -> Ruleset:
        """The half's ruleset with ``ranks`` wild and no rule that reads the deal (a file written here)."""
        key = (ruleset_path or "", ranks)
        if key not in self.variants:
            base = ruleset_path or "./generated.yaml"
            # (a null takes a key out of what is extended; a null with nothing to take out would stay)
            # (a companion half's file has taken the deal's wild cards out already)
            wild: dict[str, Any] = {"ranks": sorted(ranks)}
            if "follow" in self.wild and ruleset_path is None:
                wild["follow"] = None
            if self.wild.get("lowest_rank") == "down" and ruleset_path is None:
                wild["lowest_rank"] = None
            game = {k: None for k in ("streets", "extra", "split", "declare", "runs") if k in self.game}
            doc = {"name": "variant", "extends": base, "wild": wild}
            if ruleset_path is None:
                doc["game"] = game
            target = self.path.parent / f"plain-variant-{len(self.variants)}.yaml"
            target.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
            self.variants[key] = load(target)
        return self.variants[key]

    def _hand_winners(
        self, half: dict[str, Any], deal: PlainDeal, run: int, added: list[set[str]], seats: set[int]
    ) -> list[int]:
        static = self.static_ranks()
        best: dict[int, Any] = {}
        for seat in seats:
            rules = self.variant(half.get("ruleset"), frozenset(static | added[seat]))
            holding = " ".join(card for card, _ in deal.seats[seat])
            board = " ".join(deal.boards[run])
            hand = best_hand(rules, holding, board, self.ruleset.game)  # the game's card usage, in every half
            if hand is not None and hand.qualifies:
                best[seat] = hand.strength
        if not best:
            return []
        top = max(best.values())
        return sorted(seat for seat, strength in best.items() if strength == top)

    def _card_winners(self, card: dict[str, Any], deal: PlainDeal, seats: set[int]) -> list[int]:
        order = [r for r in ACE_HIGH if r in {str(x) for x in self.doc["deck"]["ranks"]}]
        if card.get("ace", "high") == "low" and "A" in order:
            order = ["A"] + order[:-1]
        face = card.get("face", "down")
        values: dict[int, int] = {}
        for seat in seats:
            found = [
                order.index(str(_rank(text)))
                for text, up in deal.seats[seat]
                if _rank(text) is not None
                and (face == "any" or up == (face == "up"))
                and (card.get("suit") is None or text[1:] == card["suit"])
            ]
            if found:
                values[seat] = max(found) if card.get("pick", "highest") == "highest" else -min(found)
        if not values:
            return []
        top = max(values.values())
        return sorted(seat for seat, value in values.items() if value == top)

    def _winners(
        self, half: dict[str, Any], deal: PlainDeal, run: int, added: list[set[str]], seats: set[int]
    ) -> list[int]:
        if "card" in half:
            return self._card_winners(half["card"], deal, seats)
        return self._hand_winners(half, deal, run, added, seats)

    # --- the pot ------------------------------------------------------------------------------

    def fractions(self, deal: PlainDeal) -> list[Fraction]:
        """Each player's share of the pot (summing to 0 when it is carried)."""
        players = len(deal.seats)
        shares = [Fraction(0)] * players
        won_by_run = [self._run_winners(deal, run) for run in range(len(deal.boards))]
        live = [won for won in won_by_run if won]  # a run nobody wins gives its part to the others
        for won in live:
            for w in won:
                for seat in w:
                    shares[seat] += Fraction(1, len(live) * len(won) * len(w))
        return shares

    def _run_winners(self, deal: PlainDeal, run: int) -> list[list[int]]:
        """The winners of each half of ``run`` that someone wins."""
        players = len(deal.seats)
        added = self.resolve(deal, run)
        names = [str(half.get("name")) for half in self.halves]

        def eligible(name: str) -> set[int]:
            if deal.declarations is None:
                return set(range(players))
            return {s for s in range(players) if deal.declarations[s] in (name, "both")}

        winners = [self._winners(h, deal, run, added, eligible(n)) for h, n in zip(self.halves, names, strict=True)]
        if deal.declarations is not None:
            alone = (self.game.get("declare") or {}).get("both", "win") == "win"
            failed = {
                seat
                for seat in range(players)
                if deal.declarations[seat] == "both" and any(seat not in w or (alone and len(w) > 1) for w in winners)
            }
            if failed:
                winners = [
                    self._winners(h, deal, run, added, eligible(n) - failed) if set(w) & failed else w
                    for h, n, w in zip(self.halves, names, winners, strict=True)
                ]
        return [w for w in winners if w]
