"""Sections of the HTML diff report for flips by cause, the lowball breakdown and game deals.

Every string that comes from a ruleset file (names, categories, descriptions,
cards) is escaped with :func:`html.escape`. Each flip cause present gets its own
``<section class="cause" data-cause="...">`` so a reader (and a test) finds
every kind of flip; example hands are shown sorted as the ruleset plays them
(:attr:`Hand.cards`) with both rulesets' descriptions.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from .flip_types import CAUSE_TITLES, FlipCensus, FlipGroup, FlipHand
from .report_cards import cards_html

if TYPE_CHECKING:
    from .game_sample import GameShare
    from .lowball import LowBreakdown

GROUPS_SHOWN = 6  # groups with an example pair per cause; the rest in a table


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _percent(share: float) -> str:
    """A share with three significant digits: 0.000739%, 0.247%, 12.5%."""
    from ..core.stats_math import percent_text

    return percent_text(share)


def _name(category: str) -> str:
    return category.replace("_", " ")


def _hand(hand: FlipHand, name_a: str, name_b: str) -> str:
    described = (
        _esc(hand.description_a)
        if hand.description_a == hand.description_b
        else f"{_esc(name_a)}: {_esc(hand.description_a)} · {_esc(name_b)}: {_esc(hand.description_b)}"
    )
    return f'<div class="hand">{cards_html(hand.cards)}<span class="what">{described}</span></div>'


def _group_html(group: FlipGroup, name_a: str, name_b: str, exact: bool) -> str:
    a, b = _esc(name_a), _esc(name_b)
    count = (
        f"{group.pairs:,} hand pairs"
        if exact
        else f"about {group.pairs:,} hand pairs (95%: {group.low:,}–{group.high:,})"
    )
    from .flips_text import outcome_text

    head = f"<div class=\"rule\">{_esc(outcome_text(group, name_a, name_b))} <span class='count'>{count}</span></div>"
    if group.example is None:
        return f'<div class="flip">{head}<p>No verified example among the cards both decks hold.</p></div>'
    first, second = group.example
    vs = '<span class="vs-mark">vs</span>'
    hands = f'<div class="hands">{_hand(first, name_a, name_b)}{vs}{_hand(second, name_a, name_b)}</div>'
    words = {1: '<span class="win">wins</span>', 0: "ties", -1: '<span class="lose">loses</span>'}
    verdict = (
        f'<div class="verdict">{a}.compare = {group.compare_a} (the first {words[group.outcome_a]}) · '
        f"{b}.compare = {group.compare_b} (the first {words[group.outcome_b]})</div>"
    )
    return f'<div class="flip">{head}{hands}{verdict}</div>'


def cause_sections(census: FlipCensus, name_a: str, name_b: str) -> list[tuple[str, str]]:
    """(title, HTML) of one section per flip cause present, in cause order."""
    exact = census.method == "exact"
    if exact:
        how = (
            f"Counted exactly: every one of the {census.population:,} pairs of {census.hand_size}-card hands "
            f"that can meet in one deal (no shared card) from the {census.common_deck} cards both decks hold."
        )
    else:
        how = (
            f"Sampled: {census.sampled:,} pairs of {census.hand_size}-card hands dealt from one deck with seed "
            f"{census.seed}; counts are estimates over the {census.population:,} pairs that can meet, "
            "with 95% Wilson intervals."
        )
    sections = []
    for cause in census.causes():
        groups = [g for g in census.groups if g.cause == cause]
        total = census.total(cause)
        share = total / census.population if census.population else 0.0
        parts = [
            f'<section class="cause" data-cause="{_esc(cause)}"><p class="cause-count">'
            f"{'Exactly' if all(g.low is None for g in groups) else 'About'} {total:,} hand pairs "
            f"({_percent(share)} of pairs). {_esc(how)}</p>"
        ]
        parts += [_group_html(g, name_a, name_b, g.low is None) for g in groups[:GROUPS_SHOWN]]
        if len(groups) > GROUPS_SHOWN:
            rows = "".join(
                f"<tr><td>{_esc(_name(g.first))}</td><td>{_esc(_name(g.second))}</td><td>{g.pairs:,}</td></tr>"
                for g in groups[GROUPS_SHOWN:]
            )
            parts.append(
                f"<table><thead><tr><th>wins in {_esc(name_a)}</th><th>wins in {_esc(name_b)}</th>"
                "<th>hand pairs</th></tr>"
                f"</thead><tbody>{rows}</tbody></table>"
            )
        parts.append("</section>")
        sections.append((f"Flips: {_esc(CAUSE_TITLES[cause])}", "".join(parts)))
    return sections


def lowball_html(table: LowBreakdown) -> str:
    """The breakdown by top card, best first, as a table with a bar per row."""
    how = (
        f"exact, all {table.deals:,} deals"
        if table.method == "exact"
        else f"sampled, {table.deals:,} deals, seed {table.seed}"
    )
    top = max((row.probability for row in table.rows), default=0.0) or 1.0
    rows = "".join(
        f"<tr><td>{_esc(row.label)}</td><td>{row.count:,}</td><td>{row.probability:.4%}</td><td>{_esc(row.odds_text)}</td>"
        f'<td><span class="lowbar" style="width:{160 * row.probability / top:.0f}px"></span></td></tr>'
        for row in table.rows
    )
    return (
        f"<p>{_esc(table.ruleset)}: hands of {_esc(_name(table.category))} by their top card, "
        "<strong>best first</strong> "
        f"({table.cards}-card deals, {_esc(how)}).</p>"
        "<table class='lowball'><thead><tr><th>top card</th><th>deals</th><th>probability</th><th>odds</th>"
        "<th></th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )


def game_html(share: GameShare, name_a: str, name_b: str) -> str:
    """The game-deal comparison: the pot that moves, winner changes, scoops, examples."""
    if share.method == "impossible":
        return f"<p>Not compared: {_esc(share.reason)}.</p>"
    low, high = share.winner_interval
    big = f"{share.pot_moved:.2%}"
    how = (
        f"of the pot moves on average (95% interval {share.pot_low or 0:.2%}–{share.pot_high or 0:.2%})<br>"
        f"winners change in {share.winners_changed:,} of {share.deals:,} deals ({low:.2%}–{high:.2%}); "
        f"scoops: {_esc(name_a)} {share.scoops_a:,}, {_esc(name_b)} {share.scoops_b:,}; seed {share.seed}"
    )
    deals = "".join(
        "<li>"
        + '<span class="vs-mark">vs</span>'.join(cards_html(hole, small=True) for hole in e.holes)
        + "".join(" board " + cards_html(board, small=True) for board in e.boards if board)
        + f"<span>{_esc(name_a)}: {_esc(' / '.join(e.shares_a))} · "
        + f"{_esc(name_b)}: {_esc(' / '.join(e.shares_b))}</span></li>"
        for e in share.examples
    )
    return (
        f"<p>{_esc(share.plan)}. Each game settles the pot under its own rules; the pot that moves is half the sum "
        "of the differences of the players' shares.</p>"
        f'<div class="share"><span class="big">{big}</span><span class="how">{how}</span></div>'
        f"<ul class='deals'>{deals}</ul>"
    )


EXTRA_STYLE = """
.cause-count { color: #454d5e; }
.flip .count { color: #5b6375; font-weight: 400; margin-left: 8px; }
.lowbar { display: inline-block; height: 12px; background: #4e79a7; border-radius: 2px; }
"""
