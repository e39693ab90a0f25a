"""The registry of every diagnostic code, with a one-line meaning.

Codes are stable: tools (CI annotations, editors, ``--format json`` readers)
key on them, so a code is never reused for a different problem. Every code
literal used in ``evaluator/`` must be listed here (a test greps the sources),
and ``docs/codes.md`` is generated from this table::

    python -m evaluator.core.codes > docs/codes.md

Ranges: ``C1xx`` cards, ``Y1xx`` YAML and loading, ``S1xx`` schema, ``P1xx``
pattern syntax, ``P2xx`` pattern semantics, ``R1xx`` ruleset semantics,
``E1xx`` examples, ``W1xx`` lint warnings, ``G1xx`` games and showdowns,
``T1xx`` description templates.
``O1xx`` odds and hand ranges.
"""

from __future__ import annotations

import sys

RANGES: dict[str, str] = {
    "C": "Cards",
    "Y": "YAML and loading",
    "S": "Schema",
    "P": "Patterns (P1xx syntax, P2xx meaning)",
    "R": "Ruleset meaning",
    "E": "Examples",
    "W": "Lint warnings",
    "G": "Games and showdowns",
    "T": "Description templates (describe:)",
    "D": "Draw poker and pay tables",
    "O": "Odds and hand ranges",
}

CODES: dict[str, str] = {
    # cards
    "C101": "text that is not a card (with its column)",
    "C102": "a card this ruleset's deck does not hold",
    "C103": "a card repeated more often than the deck's packs allow",
    "C104": "too few cards for a hand of this ruleset",
    "C105": "too many cards given",
    "C106": "no category of the ruleset matches these cards",
    "C107": "the card text is too long to read",
    # YAML and loading
    "Y101": "the file cannot be read (missing, not a regular file, unknown catalogue name)",
    "Y102": "the file is larger than 1 MiB",
    "Y103": "YAML syntax error, or a value that cannot be read as its tag says",
    "Y104": "YAML anchors and aliases are not allowed (no expansion bombs)",
    "Y105": "a YAML tag other than the plain ones (e.g. !!python/object)",
    "Y106": "the file is nested too deeply",
    "Y107": "the file has too many values",
    "Y108": "the top level is not a mapping",
    "Y109": "a key is written twice in one mapping",
    "Y110": "a mapping key that is not a name or a number",
    "Y111": "the extends: target is missing or is not a name or path",
    "Y112": "extends: forms a cycle",
    "Y113": "the extends: chain is too deep",
    "Y114": "the file is empty",
    "Y115": "a single value is too long",
    "Y116": "a character YAML does not allow (NUL, control characters, invalid UTF-8)",
    "Y120": "a path a file names (extends:, game.split, a pay table's ruleset:) that is absolute, a URL, or leads outside the allowed folder tree",
    "Y121": "a file reached through extends:, game.split or a pay table's ruleset: that is not a ruleset (its content is never shown)",
    "Y122": "a rule file that is a symbolic link pointing outside its folder tree",
    "Y123": "a game.split ruleset that cannot be found or loaded (a catalogue name: with a did-you-mean hint)",
    "Y124": "the extends: chain is larger in total than one file may be",
    "Y125": "a folder that cannot be read (permissions): its files are not checked",
    "Y126": "a reference to a file (extends:, game.split, ruleset:) holding a NUL, a control character or a lone surrogate",
    "Y127": "a reference to a file longer than 500 characters, or with a name part longer than 255 bytes",
    "Y128": "an input line (eval -, showdown --from) longer than 65,536 characters",
    # schema
    "S101": "unknown key (with a did-you-mean hint)",
    "S102": "a value of the wrong type",
    "S103": "a value that is not allowed (enum, name or card syntax)",
    "S104": "a required key is missing",
    "S105": "a value out of range: too large, too small, too many, too long, repeated",
    # pattern syntax
    "P101": "pattern syntax error (with what was expected)",
    "P102": "a rank group that mixes letters (XY instead of XX)",
    "P103": "the pattern is empty or too long",
    # pattern semantics
    "P104": "run(...) given a word or option it does not know (it takes a card count, wrap, step=N and flush)",
    "P105": "run(...) given the same option twice",
    "P106": "a rank set {...} lists something that is not a rank",
    "P107": "an empty rank set {}",
    "P108": "flush(...) given something other than a number of cards",
    "P109": "step without a number (step=2)",
    "P201": "a variable is compared but no shape binds it",
    "P202": "one variable names two groups of a shape",
    "P203": "a shape needs more cards than a hand has (or a group no deck allows)",
    "P204": "run needs more consecutive ranks than the deck has",
    "P205": "a category name used inside a category pattern",
    "P206": "an unknown category name in qualifier, beats or plays_as",
    "P207": "a comparison term that is not a single variable letter",
    "P208": "a rank that is not in this deck",
    "P209": "a suit that is not in this deck",
    "P210": "a name compared with something other than category or suit",
    "P211": "'wilds' compared with something that is not a number of wild cards",
    "P212": "'wilds' compared with itself",
    "P213": "'wilds' compared with more wild cards than a hand holds",
    "P215": "flush(k) or run(k) with k outside 2 to the hand size",
    "P216": "a run with a step below 1, or longer than the deck's ranks allow",
    "P217": "'suits' compared with something that is not a number of suits, or with more suits than a hand can hold",
    "P218": "a rank set that names a rank twice",
    "P219": "something that is not a rank (wilds, suit, category...) tested against a rank set",
    # ruleset semantics
    "R101": "order names a category that is not defined",
    "R102": "a value that is not a rank",
    "R103": "hand.min is larger than hand.size",
    "R104": "the deck has more cards than the limit (or more packs than lookup tables of its hand size can hold)",
    "R105": "the deck has fewer cards than a hand",
    "R106": "with ace: both, the ace must be the highest rank of the deck",
    "R107": "order is empty",
    "R108": "suits.order does not list each deck suit once",
    "R109": "deck.ranks are not consecutive ranks listed low to high",
    "R110": "a wild card that is not a card",
    "R111": "a wild card or wild rank that is not in the deck",
    "R112": "wild.jokers is true but the deck has no jokers",
    "R113": "coverage: a possible hand matches no category (an example hand is given)",
    "R114": "the deck has jokers that are not wild, so no hand holding one can be ranked",
    "R120": "an example needs more work than the limit (too many cards: best-of subsets to try)",
    "R121": "a pattern costs more to match than the limit (length x alternatives x hand classes)",
    "R122": "too many cards to choose the best hand from (the subsets pass the work limit)",
    "R130": "the lookup tables would take more work to build than the limit (hand classes x their cost, estimated)",
    "R131": "the lookup tables cannot be built: patterns that look at suits within the hand, with several packs, more than 6 cards, single wild cards or lowest-card wild",
    "R199": "internal error while checking the file (a bug in pokerrules: please report it)",
    # examples
    "E101": "an example fails: the evaluator says something else (shown)",
    "E102": "an example cannot be read, or names a category not in order",
    "E103": "an example's cards cannot be evaluated (not cards, not in the deck)",
    # lint warnings
    "W101": "a category defined in this file, left out of order, that hands of this ruleset match",
    "W102": "a category in order that no hand can ever land in (with the reason)",
    "W103": "a category shadowed by an earlier one that matches every hand it matches",
    "W104": "coverage not checked: too many hand classes to enumerate (the work limit), or hands the evaluator refuses",
    "W130": "the cache folder is owned by another user or writable by group or others: the command runs without the cache",
    "W131": "the cache key file is not a private regular file of this user: the command runs without the cache",
    "W120": "examples not run: the file's examples together need more work than the limit",
    "W140": "a # pokerrules: ignore[...] comment that names no code, or a code that does not exist",
    # games and showdowns
    "G101": "use_hole or use_board is more than the cards dealt",
    "G102": "use_hole + use_board does not make a hand",
    "G103": "no players, or more players than can be seated",
    "G104": "a card dealt more often than the deck holds it",
    "G105": "a player's hand has the wrong number of cards for the game",
    "G106": "a board has the wrong number of cards for the game",
    "G107": "the pot is not a whole number of chips, 0 or more",
    "G108": "the wrong number of boards for the game",
    "G113": "game.streets do not deal what game.hole and game.board say (or a street deals nothing)",
    "G114": "wild.follow or wild.lowest_rank: down looks at cards the game never deals (face up / face down)",
    "G115": "a card half (game.split card:) no card can win: a face never dealt, or a suit not in the deck",
    "G116": "game.declare without a split pot of at least two halves",
    "G117": "game.runs (run it twice) without a board, or with a double board",
    "G118": "game.extra waits for a card dealt with a face the game never deals",
    "G119": "a deal that does not fit the game: a card's face, a card too many or too few, unpaired parentheses",
    "G120": "hi-lo declare: a declaration missing, unknown, or given for a game without declare",
    "G121": "a card not known ('??') where a showdown needs every card",
    "G122": "a game settled by the deal given to a path that knows no deal (give the deal in dealing order)",
    "G124": "a line of dealer and player actions (showdown --from) that cannot be read",
    "G125": "the deck runs out before a deal of the game is complete",
    # description templates
    "T101": "an unknown field in a describe: template (e.g. {bogus})",
    "T102": "an unknown filter in a describe: template (e.g. {X:plurl})",
    "T103": "a describe: template uses a variable that no shape of the category's pattern binds",
    "T104": "a brace in a describe: template that does not open or close a field",
    "T105": "a filter on a describe: field that is not a rank (e.g. {cards:plural})",
    # draw poker and pay tables
    "D101": "a pay table names a category its ruleset does not have (with a did-you-mean hint)",
    "D102": "no shipped pay table has this name",
    "D103": "the ruleset a pay table names cannot be loaded",
    "D104": "the pay table's ruleset is not a video-poker game (one pack, five-card hands, no board)",
    "D105": "a negative pay",
    "D106": "the pay table pays nothing",
    "D107": "the file given as a pay table is not one (no paytable: key)",
    "D108": "a draw needs a plain hand: the ruleset deals hole and board cards",
    "D109": "a draw starts from a full hand; the wrong number of cards was given",
    "D110": "--next gives more cards than can be drawn",
    "D111": "a discarded card is not in the hand",
    "D112": "more cards to draw than there are unseen cards",
    "D113": "a draw too large to count exactly, or a deck of several packs",
    "D114": "a pay table given for another ruleset than the one named",
    "D115": "a pay that is not a finite number, or more than 1,000,000 coins",
    "D116": "a published return that is not a finite percentage between 0 and 1,000",
    # odds and hand ranges
    "O101": "a hand or range item that is neither cards nor a range form (with its column)",
    "O102": "a rank or card in a range that this ruleset's deck does not hold (with its column)",
    "O103": "a range weight that is not a number from 0 to 1",
    "O104": "a span that neither keeps its first rank (A5s-A2s) nor its gap (T9s-65s), or mixes forms",
    "O105": "rank classes (AKs, QQ+) in a game that does not deal two hole cards",
    "O106": "a range with no combination left (all weights 0, or every one blocked by known cards)",
    "O107": "a hand with more cards than the game deals, or a range mixing hand sizes",
    "O108": "fewer than two or more than 23 players",
    "O109": "more boards, or more board cards, than the game deals",
    "O110": "a card out more often than the deck holds it (between hands, board and dead cards)",
    "O111": "exact enumeration refused: the work is past the hard bound",
    "O112": "samples out of range, or given together with exact",
    "O113": "more cards to deal than the deck has left",
    "O114": "outs need a board with a next street to come",
    "O116": "ranges that can hardly ever be dealt together (they keep sharing cards)",
    "O117": "a sampled-hand chart asked for what it cannot give: hands out of 1..10,000, a hand of the wrong size, a chart of another kind to compare",
    "O118": "a seed that is not a whole number from 0 to 2^64 - 1",
    "O119": "a --scheduler address that cannot be read (tcp://HOST:PORT or tls://HOST:PORT)",
    "O120": "no Dask scheduler at the address: refused, no answer in time, closed, or a handshake that is not Dask's",
    "O121": "a number of local Dask workers out of 1 to the bound (twice the usable cores, at least 4)",
    "O122": "work refused before it starts: its estimate in rank lookups is past the bound",
    "O123": "a connection timeout that is not a number of seconds from 0.1 to 300",
    "O126": "an exact matchup table the game cannot give: not two hole cards and one board, a split pot, beats: exceptions, several packs",
}


def markdown() -> str:
    """The table of every code as Markdown (the content of ``docs/codes.md``)."""
    lines = [
        "# Diagnostic codes",
        "",
        "<!-- generated by `python -m evaluator.core.codes > docs/codes.md`; edit evaluator/core/codes.py -->",
        "",
        "Every problem pokerrules reports has a stable code. `pokerrules check` prints",
        "`path:line:col: error|warning CODE: message`; `--format json` and",
        "`--format github` carry the same code. Warnings (`W1xx`) fail a check only",
        "with `--strict`.",
        "",
    ]
    for prefix, title in RANGES.items():
        lines += [f"## {prefix} — {title}", "", "| Code | Meaning |", "| --- | --- |"]
        lines += [f"| `{code}` | {meaning} |" for code, meaning in CODES.items() if code.startswith(prefix)]
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - a maintenance command
    sys.stdout.write(markdown())
