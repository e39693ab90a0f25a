"""The dealer's-choice keys as features of the ruleset generator (see ``features.py``).

One feature, :func:`dealers_choice`, drawn after ``game``: on a game it adds
any of the keys that make a deal decide the outcome (docs/games.md) --
``game.streets`` (faces and dealing order), ``game.extra`` (a card that buys
one more), a card half in ``game.split`` (Chicago), ``game.declare``,
``game.runs``, ``wild.follow`` (Follow the Queen) and ``wild.lowest_rank:
down`` (Low Hole Wild) -- each only where the game deals what it reads, so a
file is refused only for what the other features chose. ``DEAL_MISTAKES``
are one mistake each in those keys, every one an error ``check`` must report
with its code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from .features import Draw, Spec


def _streets(draw: Draw, hole: int, board: int) -> list[dict[str, int]]:
    """Streets dealing ``hole`` cards to each player and ``board`` cards: a few cards a street,
    face down or up, the board cards after some of them."""
    faces = [draw(st.sampled_from(["down", "down", "up"])) for _ in range(hole)]
    streets: list[dict[str, int]] = []
    at = 0
    while at < hole:
        take = draw(st.integers(1, min(2, hole - at)))
        street: dict[str, int] = {}
        for face in sorted(faces[at : at + take]):  # down before up, as a street deals them
            street[face] = street.get(face, 0) + 1
        streets.append(street)
        at += take
    left = board
    while left:
        put = draw(st.integers(1, left))
        at = draw(st.integers(0, len(streets)))
        if at == len(streets):
            streets.append({"board": put})
        else:
            streets[at]["board"] = streets[at].get("board", 0) + put
        left -= put
    return streets


def _faces(game: dict[str, Any]) -> set[str]:
    """The faces a player's own cards are dealt with (no streets: every hole card face down)."""
    streets = game.get("streets")
    if not streets:
        return {"down"} if game.get("hole") else set()
    found = {face for street in streets for face in ("down", "up") if street.get(face)}
    return found | {extra["gives"] for extra in game.get("extra", [])}


def dealers_choice(draw: Draw, spec: Spec) -> None:
    """Streets, extra cards, a card half, declare, run it twice, wild cards that follow a
    face-up card or a player's lowest face-down rank (each where the game deals what it reads)."""
    game = spec.game
    if game is None or game.get("boards", 1) > 1 or ("deal" not in spec.focus and draw(st.integers(0, 2))):
        return  # (a double board is refused with every key the deal decides: DEAL_MISTAKES)
    hole, board = int(game["hole"]), int(game["board"])
    boards = int(game.get("boards", 1))
    if draw(st.integers(0, 2)):
        game["streets"] = _streets(draw, hole, board)
        spec.used.add("game.streets")
    faces = _faces(game)
    if draw(st.integers(0, 3)) == 0 and faces:
        face = draw(st.sampled_from(sorted(faces) + ["any"]))
        rank = draw(st.sampled_from(spec.ranks))
        gives = draw(st.sampled_from(["down", "down", "up"]))
        game["extra"] = [{"rank": rank, "face": face, "gives": gives}]
        spec.used.add("game.extra")
        faces = _faces(game)
    halves = list(game.get("split") or [])
    if draw(st.integers(0, 2)) == 0:
        card: dict[str, Any] = {
            "face": draw(st.sampled_from(sorted(faces | {"any"}))),
            "pick": draw(st.sampled_from(["highest", "lowest"])),
            "ace": draw(st.sampled_from(["high", "low"])),
        }
        if draw(st.integers(0, 3)):
            card["suit"] = draw(st.sampled_from(spec.suits))
        halves = (halves or [{"name": "high"}]) + [{"name": "card", "card": card}]
        game["split"] = halves
        spec.used.add("card half")
    if len(halves) >= 2 and draw(st.integers(0, 2)) == 0:
        game["declare"] = {"both": draw(st.sampled_from(["win", "win_or_tie"]))}
        spec.used.add("game.declare")
    if board and boards == 1 and draw(st.integers(0, 2)) == 0:
        game["runs"] = 2
        spec.used.add("game.runs")
    face_up = "up" in faces or board > 0
    if face_up and draw(st.integers(0, 1)):
        follow = {
            "rank": draw(st.sampled_from(spec.ranks)),
            "trigger_wild": draw(st.booleans()),
            "follower": draw(st.sampled_from(["all", "holder"])),
        }
        spec.wild = {**spec.wild, "follow": follow}
        spec.used.add("wild.follow")
        spec.plain = False  # trigger_wild makes a rank wild that brute.py does not know of
    if "down" in faces and "lowest_rank" not in spec.wild and draw(st.integers(0, 2)) == 0:
        spec.wild = {**spec.wild, "lowest_rank": "down"}
        spec.used.add("wild.lowest_rank: down")
    deal_wild = {key: None for key in ("follow", "lowest_rank") if key in spec.wild}
    if deal_wild.get("lowest_rank", 0) is None and spec.wild["lowest_rank"] != "down":
        deal_wild.pop("lowest_rank")
    for companion in spec.companions.values():
        if deal_wild:
            # a half's own ruleset has no game, so no deal to read: the game's deal decides its wild cards
            companion["wild"] = dict(deal_wild)


def is_by_deal(spec: Spec) -> bool:
    """Whether the generated game is settled by the deal (docs/games.md)."""
    game = spec.game or {}
    return bool(
        "follow" in spec.wild
        or spec.wild.get("lowest_rank") == "down"
        or game.get("extra")
        or any("card" in half for half in game.get("split") or [])
        or game.get("declare")
        or game.get("runs", 1) > 1
    )


def _stud(doc: dict[str, Any]) -> dict[str, Any]:
    size = doc["hand"]["size"]
    return {"hole": size, "board": 0}


def _rank_not_in_deck(doc: dict[str, Any]) -> str:
    return next(rank for rank in "23456789TJQKA" if rank not in doc["deck"]["ranks"])


#: One mistake each in the dealer's-choice keys (name -> the change, applied in place).
DEAL_MISTAKES: dict[str, Callable[[dict[str, Any]], object]] = {
    "streets deal too few": lambda doc: doc.update(game={**_stud(doc), "streets": [{"down": 1}]}),
    "street deals nothing": lambda doc: doc.update(
        game={**_stud(doc), "streets": [{"down": doc["hand"]["size"]}, {"up": 0}]}
    ),
    "follow without face-up cards": lambda doc: (
        doc.update(game=_stud(doc)),
        doc.update(wild={"follow": {"rank": doc["deck"]["ranks"][0]}}),
    ),
    "lowest down without face-down cards": lambda doc: (
        doc.update(game={**_stud(doc), "streets": [{"up": doc["hand"]["size"]}]}),
        doc.update(wild={"lowest_rank": "down"}),
    ),
    "follow rank not in deck": lambda doc: (
        doc.update(game={**_stud(doc), "streets": [{"up": doc["hand"]["size"]}]}),
        doc.update(wild={"follow": {"rank": _rank_not_in_deck(doc)}}),
    ),
    "extra rank not in deck": lambda doc: doc.update(
        game={**_stud(doc), "extra": [{"rank": _rank_not_in_deck(doc), "face": "down"}]}
    ),
    "extra face not dealt": lambda doc: doc.update(
        game={**_stud(doc), "extra": [{"rank": doc["deck"]["ranks"][0], "face": "up"}]}
    ),
    "card half face not dealt": lambda doc: doc.update(
        game={**_stud(doc), "split": [{"name": "high"}, {"name": "spade", "card": {"face": "up"}}]}
    ),
    "card half suit not in deck": lambda doc: doc.update(
        game={**_stud(doc), "split": [{"name": "high"}, {"name": "odd", "card": {"suit": "x"}}]}
    ),
    "declare without a split": lambda doc: doc.update(game={**_stud(doc), "declare": {"both": "win"}}),
    "run twice without a board": lambda doc: doc.update(game={**_stud(doc), "runs": 2}),
    "run twice on two boards": lambda doc: doc.update(game={"hole": 2, "board": 5, "boards": 2, "runs": 2}),
    "card half on two boards": lambda doc: doc.update(
        game={"hole": 2, "board": 3, "boards": 2, "split": [{"name": "high"}, {"name": "c", "card": {}}]}
    ),
    "declare both unknown": lambda doc: doc.update(
        game={**_stud(doc), "split": [{"name": "high"}, {"name": "c", "card": {}}], "declare": {"both": "always"}}
    ),
}
