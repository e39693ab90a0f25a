"""Building a ruleset's ``game:`` and the wild cards a deal decides, with positioned problems.

A game says how cards are dealt and used: hole and board counts, the card
usage rule, double boards, hi-lo splits -- and for dealer's-choice games the
streets (which cards go face down and which face up, in dealing order), extra
cards a dealt card triggers (Baseball), pot halves won by a card (Chicago),
hi-lo declare and run it twice. ``wild.follow`` (Follow the Queen) and
``wild.lowest_rank: down`` (Low Hole Wild) are wild cards the deal decides;
they are built here too because their meaning depends on the game's streets.

Every problem is reported through the builder of :mod:`evaluator.rules.build`
at its position; a ruleset is built from what remains.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from .cards import rank_token
from .ruleset import CardHalf, Extra, Follow, Game, Split, Street, WildRules


class _Builder(Protocol):
    """What this module asks of :mod:`evaluator.rules.build`'s builder (no import back to it)."""

    def report(
        self, code: str, message: str, path: tuple[Any, ...], hint: str | None = None, *, key: bool = False
    ) -> None: ...

    def touched(self, path: tuple[Any, ...]) -> bool: ...


def build_game(builder: _Builder, spec: dict[str, Any] | None, hand_size: int) -> Game | None:
    """The :class:`Game` of a ``game:`` mapping (None when there is none)."""
    if not spec:
        return None
    hole = int(spec.get("hole", hand_size))
    board = int(spec.get("board", 0))
    use_hole = spec.get("use_hole")
    use_board = spec.get("use_board")
    if use_hole is not None and use_hole > hole:
        builder.report("G101", f"use_hole ({use_hole}) is more than the {hole} hole cards", ("game", "use_hole"))
    if use_board is not None and use_board > board:
        builder.report("G101", f"use_board ({use_board}) is more than the {board} board cards", ("game", "use_board"))
    if use_hole is not None and use_board is not None and use_hole + use_board != hand_size:
        builder.report(
            "G102", f"use_hole + use_board ({use_hole} + {use_board}) must make a hand of {hand_size}", ("game",)
        )
    split = tuple(_split(item, index) for index, item in enumerate(spec.get("split") or []))
    streets = tuple(
        Street(int(item.get("down", 0)), int(item.get("up", 0)), int(item.get("board", 0)))
        for item in spec.get("streets") or []
    )
    _check_streets(builder, streets, hole, board)
    extra = tuple(
        Extra(rank_token(item["rank"]), str(item.get("face", "up")), str(item.get("gives", "down")))
        for item in spec.get("extra") or []
        if _is_rank(item.get("rank"))
    )
    declare = spec.get("declare")
    game = Game(
        hole,
        board,
        use_hole,
        use_board,
        int(spec.get("boards", 1)),
        split,
        str(spec.get("odd_chip", "first_after_button")),
        streets,
        extra,
        None if declare is None else str(declare.get("both", "win")),
        int(spec.get("runs", 1)),
    )
    _check_halves(builder, game)
    return game


def _is_rank(value: Any) -> bool:
    try:
        rank_token(value)
    except (ValueError, TypeError):
        return False
    return True


def _split(item: dict[str, Any], index: int) -> Split:
    name = str(item.get("name", f"half {index + 1}"))
    card = item.get("card")
    if card is not None:
        half = CardHalf(
            card.get("suit"),
            str(card.get("face", "down")),
            str(card.get("pick", "highest")),
            str(card.get("ace", "high")),
        )
        return Split(name, None, half)
    ruleset = item.get("ruleset")
    return Split(name, None if ruleset is None else str(ruleset))


def _check_streets(builder: _Builder, streets: tuple[Street, ...], hole: int, board: int) -> None:
    """G113: the streets must deal what ``hole`` and ``board`` say, each street at least one card."""
    if not streets or builder.touched(("game", "streets")):
        return
    for index, street in enumerate(streets):
        if not (street.down or street.up or street.board):
            builder.report("G113", f"street {index + 1} deals no card", ("game", "streets", index))
    dealt = sum(s.down + s.up for s in streets)
    if dealt != hole:
        builder.report(
            "G113",
            f"the streets deal {dealt} card{'s' if dealt != 1 else ''} to each player, but game.hole is {hole}",
            ("game", "streets"),
            "the face-down and face-up cards of every street add up to game.hole",
        )
    on_board = sum(s.board for s in streets)
    if on_board != board:
        builder.report(
            "G113",
            f"the streets deal {on_board} board card{'s' if on_board != 1 else ''}, but game.board is {board}",
            ("game", "streets"),
        )


def _faces(game: Game) -> set[str]:
    """The faces a player's cards can be dealt with in this game ("up", "down")."""
    faces = set()
    for street in game.dealing:
        if street.down:
            faces.add("down")
        if street.up:
            faces.add("up")
    faces |= {extra.gives for extra in game.extra}
    return faces


def _check_halves(builder: _Builder, game: Game) -> None:
    """G115 (a card half no card can win), G116 (declare), G117 (run it twice)."""
    faces = _faces(game) | ({"board"} if game.board else set())
    for index, split in enumerate(game.split):
        half = split.card
        if half is None or builder.touched(("game", "split", index)):
            continue
        if half.face != "any" and half.face not in faces:
            builder.report(
                "G115",
                f"card half {split.name!r} looks at cards dealt face {half.face}, but the game deals none",
                ("game", "split", index, "card", "face"),
                "set game.streets, or face: any",
            )
    if game.declare is not None and len(game.split) < 2 and not builder.touched(("game", "split")):
        builder.report(
            "G116",
            "hi-lo declare needs a split pot: game.split must name at least two halves to declare for",
            ("game", "declare"),
        )
    if game.runs > 1 and not any(builder.touched(("game", key)) for key in ("board", "boards", "runs")):
        if game.board == 0:
            builder.report("G117", "run it twice deals the board again, but the game has no board", ("game", "runs"))
        elif game.boards > 1:
            builder.report(
                "G117", "run it twice and a double board cannot be combined: use one of them", ("game", "runs")
            )


def build_deal_wild(builder: _Builder, spec: dict[str, Any], deck_ranks: Sequence[str]) -> tuple[Follow | None, bool]:
    """``wild.follow`` and whether ``wild.lowest_rank`` is ``down`` (R111 for a rank not in the deck)."""
    follow = None
    raw = spec.get("follow")
    if raw is not None and _is_rank(raw.get("rank")):
        rank = rank_token(raw["rank"])
        if rank not in deck_ranks:
            builder.report("R111", f"wild.follow rank {rank} is not in the deck", ("wild", "follow", "rank"))
        follow = Follow(rank, bool(raw.get("trigger_wild", True)), str(raw.get("follower", "all")))
    return follow, spec.get("lowest_rank") == "down"


_DEALING = (("game", "streets"), ("game", "hole"), ("game", "board"))


def _dealing_unread(builder: _Builder) -> bool:
    """Whether the schema took out part of what says how the cards are dealt."""
    return any(builder.touched(path) for path in _DEALING)


def check_deal_rules(
    builder: _Builder, wild: WildRules, game: Game | None, deck_ranks: tuple[str, ...], suits: tuple[str, ...]
) -> None:
    """The rules that read the deal need a game that deals what they look at (G114, G115, G118)."""
    faces = set() if game is None else _faces(game) | ({"up"} if game.board else set())
    if wild.follow is not None and "up" not in faces and not _dealing_unread(builder):
        builder.report(
            "G114",
            "wild.follow looks at the cards dealt face up, but "
            + ("the ruleset has no game" if game is None else "the game deals none"),
            ("wild", "follow"),
            "add game.streets with face-up cards (seven-card stud: [{down: 2}, {up: 1}, {up: 1}, {up: 1}, "
            "{up: 1}, {down: 1}])",
        )
    if wild.lowest_down and "down" not in faces and not _dealing_unread(builder):
        builder.report(
            "G114",
            "wild.lowest_rank: down looks at each player's face-down cards, but "
            + ("the ruleset has no game" if game is None else "the game deals none"),
            ("wild", "lowest_rank"),
        )
    if game is None:
        return
    for index, split in enumerate(game.split):
        if split.card is not None and split.card.suit is not None and split.card.suit not in suits:
            builder.report(
                "G115",
                f"card half {split.name!r} wants a card of suit {split.card.suit}, which the deck does not hold",
                ("game", "split", index, "card", "suit"),
            )
    for index, extra in enumerate(game.extra):
        if extra.rank not in deck_ranks:
            builder.report("R111", f"game.extra rank {extra.rank} is not in the deck", ("game", "extra", index, "rank"))
        if extra.face != "any" and extra.face not in _faces(game) and not _dealing_unread(builder):
            builder.report(
                "G118",
                f"game.extra waits for a {extra.rank} dealt face {extra.face}, but the game deals no card face "
                f"{extra.face}",
                ("game", "extra", index, "face"),
            )
