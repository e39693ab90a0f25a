"""``pokerrules draw``: the best exchange, draw odds, video-poker holds and returns."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from ..core.errors import Diagnostic, PokerRulesError
from ..core.progress import Bar
from ..core.words import counted
from .args import RULESET_HELP, add_command, add_json, add_root
from .output import UsageError, json_document

EXAMPLES = """\
$ pokerrules draw standard "As Ad 7c 4h 2s" --next "Ah 9c 3d Kd 5s"
$ pokerrules draw standard "9s 9h Ac Kd 4h" --discard "Ac Kd 4h"
$ pokerrules draw jacks-or-better-video "Ah Kh Qh Jh 9h" --paytable jacks-or-better-9-6
$ pokerrules draw jacks-or-better-video --paytable jacks-or-better-9-6
$ pokerrules draw bonus-poker --paytable bonus-poker-8-5 --against jacks-or-better-9-6
$ pokerrules draw jacks-or-better-video --paytable jacks-or-better-9-6 --strategy
$ pokerrules draw deuces-wild-video --paytable deuces-wild-full-pay --strategy --lines 20 --html deuces.html
"""


class DrawUsageError(PokerRulesError):
    """A pay table that plays another ruleset than the one given."""


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``draw`` on the subcommand parsers of the main command line."""
    parser = add_command(
        commands,
        "draw",
        "draw poker: best exchange, draw odds, video-poker holds and returns",
        "Draw poker under any ruleset. With --next: which cards to throw for the next cards of the deck\n"
        "(the best exchange). With --discard: the exact odds of each final category. With --paytable:\n"
        "the 32 holds of a hand ranked by exact EV and the strategy-list line the hand meets, or (no hand)\n"
        "the game's return under optimal play. With --strategy: the strategy list of the game (hold types\n"
        "ranked top-down, the first that fits decides) and its exact return played as listed.",
        EXAMPLES,
    )
    parser.add_argument("ruleset", help=RULESET_HELP)
    parser.add_argument("hand", nargs="?", help="the five cards held, e.g. 'As Ad 7c 4h 2s'")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--next", dest="next_cards", metavar="CARDS", help="the next cards of the deck, in order")
    mode.add_argument("--discard", metavar="CARDS", help="the cards thrown (draw odds)")
    mode.add_argument("--paytable", metavar="P", help="a shipped pay table name or a pay-table file")
    parser.add_argument("--dead", metavar="CARDS", default="", help="cards seen elsewhere, out of the draw")
    parser.add_argument(
        "--against", metavar="P", help="a second pay table: both returns and the hands whose best hold changes"
    )
    parser.add_argument("--top", type=int, default=20, help="changed hands to list with --against (default 20)")
    add_root(parser)
    parser.add_argument(
        "--strategy", action="store_true", help="the strategy list of the game and its exact return (with --paytable)"
    )
    parser.add_argument(
        "--lines", type=int, metavar="N", help="the best strategy list of at most N lines (default: full detail)"
    )
    parser.add_argument("--html", metavar="FILE", help="with --strategy: also write the list as an HTML page")
    add_json(parser)
    return parser


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``pokerrules draw``; returns the exit code (options that do not go together: exit 2)."""
    from ..ruleset import load

    if (args.strategy or args.lines is not None) and not args.paytable:
        raise UsageError("pokerrules draw: --strategy and --lines need --paytable")
    if args.against and not args.paytable:
        raise UsageError("pokerrules draw: --against compares with the pay table of --paytable")
    if args.lines is not None and args.lines < 1:
        raise UsageError(f"pokerrules draw: --lines must be at least 1 (got {args.lines})")
    if args.html and not args.strategy:
        raise UsageError("pokerrules draw: --html writes the strategy list: give --strategy")
    if args.strategy and (args.against or args.hand):
        raise UsageError("pokerrules draw: --strategy lists the game's strategy: give no hand and no --against")
    if args.paytable is None and not args.hand:
        raise UsageError(f"pokerrules draw: {'--next' if args.next_cards is not None else '--discard'} needs the hand")
    if args.next_cards is not None or args.discard is not None:
        ruleset = load(args.ruleset, root=args.root)
        return _exchange(ruleset, args, out) if args.next_cards is not None else _odds(ruleset, args, out)
    from ..draw.paytable import load_paytable

    table = load_paytable(args.paytable, root=args.root)
    if table.ruleset.name != args.ruleset:  # the pay table's ruleset is loaded already: load a second only to compare
        ruleset = load(args.ruleset, root=args.root)
        if table.ruleset.name != ruleset.name:
            raise DrawUsageError(
                Diagnostic(
                    "D114",
                    f"pay table {table.name!r} plays ruleset {table.ruleset.name!r}, not {ruleset.name!r}",
                    "<command line>",
                    1,
                    1,
                    "error",
                    f"pokerrules draw {table.ruleset.name} --paytable {table.name}",
                )
            )
    if args.against:
        return _against(table, load_paytable(args.against, root=args.root), args, out)
    if args.strategy:
        return _strategy(table, args, out)
    return _holds(table, args, out) if args.hand else _return(table, args, out)


def _emit(out: TextIO, data: Any) -> None:
    out.write(json_document(data))


def _exchange(ruleset: Any, args: argparse.Namespace, out: TextIO) -> int:
    from ..draw.draw import best_exchange

    result = best_exchange(ruleset, args.hand, args.next_cards)
    if args.json:
        _emit(out, result.to_json())
        return 0
    thrown = " ".join(map(str, result.discard)) or "nothing"
    out.write(f"throw {thrown}; draw {' '.join(map(str, result.drawn)) or 'nothing'}\n")
    out.write(f"final hand: {' '.join(map(str, result.cards))} -- {result.hand.describe()} ({result.hand.category})\n")
    out.write("(equal hands: the exchange keeping more cards is shown)\n")
    return 0


def _odds(ruleset: Any, args: argparse.Namespace, out: TextIO) -> int:
    from ..draw.draw import draw_odds

    result = draw_odds(ruleset, args.hand, args.discard, args.dead)
    if args.json:
        _emit(out, result.to_json())
        return 0
    out.write(
        f"keep {' '.join(map(str, result.kept)) or 'nothing'}, draw {len(result.discard)} "
        f"of {counted(result.unseen, 'unseen card')}: {counted(result.draws, 'draw')}\n"
    )
    for name, count in result.counts.items():
        probability = count / result.draws
        out.write(f"  {name:<24} {count:>12,}  {probability:9.4%}  1 in {1 / probability:,.2f}\n")
    return 0


def _holds(table: Any, args: argparse.Namespace, out: TextIO) -> int:
    from ..draw.payback import holds
    from ..draw.strategy import build_strategy

    bar = Bar(f"ranking every hand of {table.ruleset.name}")
    ranked = holds(table, args.hand, bar)
    bar.finish()
    bar = Bar(f"strategy list of {table.name}")
    strategy = build_strategy(table, args.lines, bar)
    bar.finish()
    cards = table.ruleset.cards(args.hand)
    deck = list(table.ruleset.deck)
    match = strategy.match([deck.index(card) for card in cards])
    kept = [cards[p] for p in range(len(cards)) if match.mask >> p & 1]
    if args.json:
        line = {
            "line": match.line,
            "hold": match.text,
            "keep": [str(c) for c in kept],
            "ev": match.ev,
            "best_ev": match.best_ev,
            "lines": strategy.line_count,
            "max_lines": strategy.max_lines,
        }
        _emit(out, {"paytable": table.name, "holds": [item.to_json() for item in ranked], "strategy": line})
        return 0
    out.write(f"{table.title}: the 32 holds by expected return (coins per coin bet)\n")
    for item in ranked:
        kept_text = " ".join(map(str, item.hold)) or "(draw five)"
        out.write(f"  {item.ev:9.6f}  hold {kept_text}\n")
    size = "full" if strategy.max_lines is None else f"at most {strategy.max_lines} lines"
    out.write(f"strategy list ({size}, {strategy.line_count} lines): line {match.line}, {match.text}\n")
    keep = " ".join(map(str, kept)) or "nothing (draw five)"
    cost = f"; the best hold returns {match.best_ev:.6f}" if match.ev < match.best_ev - 1e-12 else " (the best hold)"
    out.write(f"  keep {keep}: {match.ev:.6f}{cost}\n")
    return 0


def _strategy(table: Any, args: argparse.Namespace, out: TextIO) -> int:
    from ..core.atomic_write import write_atomically
    from ..draw.strategy import build_strategy
    from ..tools.strategy_html import render_strategy_html, strategy_text

    bar = Bar(f"strategy list of {table.name}")
    strategy = build_strategy(table, args.lines, bar)
    bar.finish()
    if args.html:  # first: a page that cannot be written stops the command before anything is printed
        write_atomically(args.html, render_strategy_html(strategy))
    if args.json:
        _emit(out, strategy.to_json())
    else:
        out.write(strategy_text(strategy))
    return 0


def _return(table: Any, args: argparse.Namespace, out: TextIO) -> int:
    from ..draw.payback import game_return

    bar = Bar(f"playing every starting hand of {table.name}")
    result = game_return(table, bar)
    bar.finish()
    if args.json:
        data = result.to_json()
        data["published"] = table.published_return
        _emit(out, data)
        return 0
    out.write(f"{table.title} ({table.ruleset.name}), optimal play over {result.classes:,} starting-hand classes\n")
    out.write(f"return: {result.return_:.6%}   variance: {result.variance:.4f}\n")
    if table.published_return is not None:
        figure = f"{table.published_return:.{table.published_decimals}f}"
        out.write(f"published: {figure}% ({table.published_source})\n")
    for name, probability in result.probabilities.items():
        pay = table.pays.get(name, 0.0)
        if probability:
            out.write(f"  {name:<24} pays {pay:>7g}  {probability:.8f}  return {probability * pay:.6f}\n")
    return 0


def _against(table_a: Any, table_b: Any, args: argparse.Namespace, out: TextIO) -> int:
    from ..draw.payback import compare_paytables

    bar = Bar(f"comparing {table_a.name} and {table_b.name}")
    result_a, result_b, changes = compare_paytables(table_a, table_b, bar)
    bar.finish()
    moved = sum(change.hands for change in changes)
    if args.json:
        _emit(
            out,
            {
                "a": result_a.to_json(),
                "b": result_b.to_json(),
                "changed_classes": len(changes),
                "changed_hands": moved,
                "changes": [
                    {
                        "hand": [str(c) for c in ch.hand],
                        "hands": ch.hands,
                        "hold_a": [str(c) for c in ch.hold_a],
                        "hold_b": [str(c) for c in ch.hold_b],
                    }
                    for ch in changes[: args.top]
                ],
            },
        )
        return 0
    out.write(f"{'':<28}{table_a.name:>26}{table_b.name:>26}\n")
    out.write(f"{'return':<28}{result_a.return_:>26.6%}{result_b.return_:>26.6%}\n")
    out.write(f"{'variance':<28}{result_a.variance:>26.4f}{result_b.variance:>26.4f}\n")
    for name in dict.fromkeys([*result_a.probabilities, *result_b.probabilities]):
        pa, pb = result_a.probabilities.get(name, 0.0), result_b.probabilities.get(name, 0.0)
        if pa or pb:
            out.write(f"  {name:<26}{pa:>26.8f}{pb:>26.8f}\n")
    if table_a.ruleset.deck != table_b.ruleset.deck:
        out.write("the two games deal from different decks: starting hands are not compared\n")
        return 0
    out.write(
        f"best hold changes in {len(changes):,} starting-hand classes ({moved:,} dealt hands); the most frequent:\n"
    )
    for change in changes[: args.top]:
        hand = " ".join(map(str, change.hand))
        hold_a = " ".join(map(str, change.hold_a)) or "(draw five)"
        hold_b = " ".join(map(str, change.hold_b)) or "(draw five)"
        out.write(f"  {hand}  x{change.hands:<4}  {table_a.name}: {hold_a:<16} {table_b.name}: {hold_b}\n")
    return 0
