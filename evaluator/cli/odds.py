"""``pokerrules odds`` and ``pokerrules outs``: argument parsing and running."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from ..core.progress import Bar, Interrupts
from ..core.words import counted
from .args import RULESET_HELP, add_cluster_options, add_command, add_json, add_root
from .output import UsageError, json_document

if TYPE_CHECKING:
    from ..odds.odds import OddsResult
    from ..odds.outs import OutsResult

ODDS_EXAMPLES = """\
$ pokerrules odds holdem AhKh QsQd
$ pokerrules odds holdem AhKh QsQd --against short-deck-holdem
$ pokerrules odds holdem "QQ+,AKs" "random" --samples 1000000 --seed 7
$ pokerrules odds omaha-hi-lo AhAd2c3c KsKdQcJc --board "7h 8d 2s" --json
$ pokerrules odds seven-card-stud "As Ad 7c" "Kh Kd 9s" --dead "Ks 7d 2c"
$ pokerrules odds omaha "AhAdKcQc" "random" --samples 5000000 --workers 2
$ pokerrules odds follow-the-queen "(As Ad) Qh" "(?? ??) 6d" --samples 20000 --seed 1
$ pokerrules odds stud-hi-lo-declare "(As 2d) 3c 4h 5s 9d" "(Kd Ks) Kh 7c 7d 2s" --declare low high
"""
RANGES_HELP = (
    "cards (AhKh) or a range per player: QQ+  AKs  AKo  AK  A5s-A2s  KQs+  T9s-65s  AhKh  random (or *)  QQ:0.5, "
    "comma-separated"
)

OUTS_EXAMPLES = """\
$ pokerrules outs holdem "9h 8h" "Ks Qd" --board "Kh 4h 2c"
$ pokerrules outs deuces-wild "9h 8h" "Ks Qd" --board "Kh 4h 3c" --json
"""


def add_parsers(commands: Any) -> None:
    """Register ``odds`` and ``outs`` on the CLI's subparsers."""
    odds = add_command(
        commands,
        "odds",
        "equity of hands or ranges: exact or sampled, any ruleset",
        "Each player's equity (expected share of the pot), wins and ties, exact when the work is at most\n"
        "10^8 rank lookups, else a seeded Monte Carlo with standard errors. Boards of a double-board game\n"
        "are separated by '|'. Dealer's-choice games (follow-the-queen, baseball, chicago, ...) take each\n"
        "player's cards so far in dealing order ('(As Ad) Qh': face down in parentheses, '??' a card not\n"
        "seen, 'fold: ...' a player who folded) and deal the rest street by street.",
        ODDS_EXAMPLES,
    )
    odds.add_argument("ruleset", help=RULESET_HELP)
    odds.add_argument("hands", nargs="+", metavar="HAND", help=RANGES_HELP)
    odds.add_argument("--board", default="", help="board cards already out ('|' between boards)")
    odds.add_argument("--dead", default="", help="cards out of play (folded hands, stud upcards)")
    how = odds.add_mutually_exclusive_group()
    how.add_argument("--samples", type=int, help="sample this many deals (forces Monte Carlo)")
    how.add_argument("--exact", action="store_true", help="enumerate every deal (refused past 2x10^9 lookups)")
    odds.add_argument("--seed", type=int, help="seed of the Monte Carlo (printed when drawn)")
    odds.add_argument(
        "--against", metavar="RULESET2", action="append", default=[], help="the same question under another ruleset"
    )
    odds.add_argument(
        "--declare",
        nargs="+",
        metavar="WORD",
        help="hi-lo declare games: each player's declared strategy in seat order (high, low or both)",
    )
    add_cluster_options(odds)
    add_json(odds)
    add_root(odds)

    outs = add_command(
        commands,
        "outs",
        "the cards of the next street that put a player ahead",
        "For each player behind: the outs, the hand each makes, the chance of one on the next card and\n"
        "within two cards, and the exact equity.",
        OUTS_EXAMPLES,
    )
    outs.add_argument("ruleset", help=RULESET_HELP)
    outs.add_argument("hands", nargs="+", metavar="HAND", help="each player's cards")
    outs.add_argument("--board", required=True, help="the board cards out now")
    outs.add_argument("--dead", default="", help="cards out of play")
    add_json(outs)
    add_root(outs)


def _percent(value: float) -> str:
    return f"{100 * value:6.2f}%"


def odds_text(result: OddsResult) -> str:
    """The human-readable table of one odds answer."""
    how = (
        f"exact, {result.deals:,} deals"
        if result.method == "exact"
        else f"sampled, {result.deals:,} deals, seed {result.seed}"
    )
    lines = [f"{result.ruleset}: {how} ({result.seconds:.2f} s)"]
    width = max(8, *(len(p.hand) for p in result.players))
    header = f"  {'hand':<{width}}  {'equity':>7}  {'win':>7}  {'tie':>7}"
    if result.method == "sampled":
        header += f"  {'± s.e.':>7}"
    if result.split:
        header += f"  {'hi':>7}  {'lo':>7}  {'scoop':>7}"
    lines.append(header)
    for player in result.players:
        line = f"  {player.hand:<{width}}  {_percent(player.equity)}  {_percent(player.win)}  {_percent(player.tie)}"
        if result.method == "sampled":
            line += f"  {_percent(player.std_error)}"
        if result.split:
            hi, lo = list(player.halves.values())[:2]
            line += f"  {_percent(hi)}  {_percent(lo)}  {_percent(player.scoop or 0.0)}"
        lines.append(line)
    if result.split and result.no_low is not None:
        lines.append(f"  no low qualifies: {_percent(result.no_low).strip()}")
    return "\n".join(lines)


def _dealt_odds() -> Callable[..., OddsResult]:
    from ..odds.dealt import dealt_odds

    return dealt_odds


def cmd_odds(args: argparse.Namespace, out: TextIO) -> int:
    """``pokerrules odds``: equity under one ruleset or several."""
    from ..odds.odds import odds
    from ..ruleset import load
    from .chart import check_run_options, cluster_client

    check_run_options(args)
    results = []
    rulesets = [load(name, root=args.root) for name in [args.ruleset, *args.against]]
    with Interrupts() as interrupts, cluster_client(args, interrupts) as client:
        for ruleset in rulesets:
            if ruleset.by_deal and client is not None:
                raise UsageError(
                    f"pokerrules odds: {ruleset.name} is dealt street by street: its odds run on one machine"
                )
            if args.declare and not ruleset.by_deal:
                raise UsageError(f"pokerrules odds: --declare is for hi-lo declare games; {ruleset.name} is not one")
            # a dealer's-choice game is dealt street by street (evaluator/odds/dealt.py), on this machine
            extra = {"declare": args.declare} if ruleset.by_deal else {"client": client}
            answer = _dealt_odds() if ruleset.by_deal else odds
            with Bar(f"odds under {ruleset.name}").running() as bar:
                results.append(
                    answer(
                        ruleset,
                        args.hands,
                        board=args.board,
                        dead=args.dead,
                        samples=args.samples,
                        seed=args.seed,
                        exact=args.exact or None,
                        progress=bar,
                        **extra,
                    )
                )
    if args.json:
        data = [r.as_dict() for r in results]
        out.write(json_document(data[0] if len(data) == 1 else data))
    else:
        out.write("\n\n".join(odds_text(r) for r in results) + "\n")
    return 0


def outs_text(result: OutsResult) -> str:
    """The human-readable outs of every player."""
    board = " ".join(map(str, result.board))
    lines = [f"{result.ruleset}: board {board}, {counted(result.to_come, 'card')} to come"]
    for player in result.players:
        if not player.behind:
            lines.append(f"  {player.hand}: ahead (equity {_percent(player.equity).strip()})")
            continue
        two = f", {_percent(player.within_two).strip()} within two cards" if player.within_two is not None else ""
        lines.append(
            f"  {player.hand}: {counted(len(player.outs), 'out')} of {player.unseen} unseen: "
            f"{_percent(player.next_card).strip()} next card{two}"
            f" (exact equity {_percent(player.equity).strip()})"
        )
        for out in player.outs:
            lines.append(f"    {out.card}  {out.hand}" + ("" if out.share >= 1 else f"  (shares {out.share:.0%})"))
    return "\n".join(lines)


def cmd_outs(args: argparse.Namespace, out: TextIO) -> int:
    """``pokerrules outs``: the outs of every player behind."""
    from ..odds.outs import outs
    from ..ruleset import load

    result = outs(load(args.ruleset, root=args.root), args.hands, board=args.board, dead=args.dead)
    out.write(json_document(result.as_dict()) if args.json else outs_text(result) + "\n")
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace, TextIO], int]] = {"odds": cmd_odds, "outs": cmd_outs}
