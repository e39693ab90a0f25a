"""One generated ruleset file on disk, loaded, with seeded card sampling; and how a file
``check`` refuses is judged (see ``checks.py``)."""

from __future__ import annotations

import contextlib
import io
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from evaluator.cli.main import main
from evaluator.core.errors import PokerRulesError
from evaluator.engine.evaluate import engine_for
from evaluator.rules.load import load_document
from evaluator.ruleset import Ruleset, build_ruleset, load

from .features import Spec

#: What check finds by running the file (examples, coverage), and its estimate of the
#: tables' build time (R130, refused by the commands that build them): load leaves them to check.
CHECK_ONLY = frozenset({"E101", "E102", "E103", "R113", "R120", "R130"})


def write_files(spec: Spec, folder: Path) -> Path:
    """Write the ruleset (and the companions its hi-lo split names); the ruleset's path."""
    for name, document in spec.companions.items():
        (folder / name).write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    path = folder / "generated.yaml"
    path.write_text(spec.yaml(), encoding="utf-8")
    return path


def run_cli(argv: Sequence[str], stdin: str = "") -> tuple[int, str, str]:
    """``pokerrules ARGV`` in this process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(argv))
    finally:
        sys.stdin = saved
    assert code != 70, f"internal error: {err.getvalue()}"
    return code, out.getvalue(), err.getvalue()


# --- refused files ------------------------------------------------------------------------------


def refused(path: Path, errors: Sequence[Any]) -> None:
    """A file check refuses: codes, never R199; load agrees; the command line says a code."""
    codes = [d.code for d in errors]
    assert "R199" not in codes, errors
    assert all(len(code) == 4 and code[0].isalpha() and code[1:].isdigit() for code in codes), codes
    refusable = [d for d in errors if d.code not in CHECK_ONLY]
    try:
        load(path)
        loaded = None
    except PokerRulesError as problem:
        loaded = list(problem.diagnostics)
    if refusable:
        assert loaded, f"check refused it ({refusable[0]}), load did not"
        for diagnostic in loaded:
            assert diagnostic in errors, f"load said {diagnostic}; check said {errors}"
        code, out, err = run_cli(["eval", str(path), "As Ks Qs Js Ts"])
        assert code == 1 and out == "" and " error " in err, (code, err)
    else:
        assert loaded is None, f"load refused what check only found by running the file: {loaded}"


# --- accepted files -----------------------------------------------------------------------------


@dataclass
class Subject:
    """One accepted ruleset file, loaded, with seeded card sampling."""

    spec: Spec
    path: Path
    seed: int
    ruleset: Ruleset = field(init=False)
    rng: random.Random = field(init=False)
    deck: list[str] = field(init=False)

    def __post_init__(self) -> None:
        self.ruleset = load(self.path)
        self.rng = random.Random(self.seed)
        # the physical deck: each card once per pack (Ruleset.deck lists each card once), jokers once
        rs = self.ruleset
        self.deck = [str(card) for card in rs.deck for _ in range(1 if card.is_joker else rs.copies)]

    def fresh(self) -> Ruleset:
        """A newly built ruleset object (nothing warmed, no tables loaded)."""
        return build_ruleset(load_document(self.path), self.path)

    @property
    def game(self) -> Any:
        return self.ruleset.game

    def deal(self, *sizes: int) -> list[list[str]]:
        """Disjoint random holdings of the given sizes (None when the deck is too small)."""
        cards = self.rng.sample(self.deck, sum(sizes))
        out, at = [], 0
        for size in sizes:
            out.append(cards[at : at + size])
            at += size
        return out

    def holding_sizes(self) -> list[int]:
        """Holding sizes a single-hand call takes: hand.min up to hand.size (+2 without a game)."""
        rs = self.ruleset
        top = rs.hand_size if rs.game is not None else min(rs.hand_size + 2, len(self.deck))
        return list(range(max(rs.hand_min, 1), top + 1))

    def holdings(self, count: int) -> list[str]:
        sizes = self.holding_sizes()
        return [" ".join(self.deal(self.rng.choice(sizes))[0]) for _ in range(count)]

    def players_and_board(self, players: int) -> tuple[list[str], str | list[str]]:
        """One showdown's hands and board(s), dealt under the game's geometry."""
        game = self.game
        if game is None:
            sizes = [self.rng.choice(self.holding_sizes()) for _ in range(players)]
            while sum(sizes) > len(self.deck):
                sizes = [max(self.ruleset.hand_min, 1)] * players
            return [" ".join(h) for h in self.deal(*sizes)], ""
        parts = self.deal(*([game.hole] * players + [game.board] * game.boards))
        hands = [" ".join(h) for h in parts[:players]]
        boards = [" ".join(b) for b in parts[players:]]
        return hands, (boards if game.boards > 1 else boards[0])

    def fits(self, players: int) -> bool:
        game = self.game
        if game is None:
            return players * max(self.ruleset.hand_min, 1) <= len(self.deck)
        return players * game.hole + game.board * game.boards <= len(self.deck)

    def evaluable(self, text: str) -> bool:
        """Whether the generic engine makes a hand of these cards (C106 otherwise)."""
        try:
            engine_for(self.ruleset).evaluate(self.ruleset.cards(text))
        except PokerRulesError as problem:
            assert problem.first.code in ("C106", "C105"), problem
            return False
        return True
