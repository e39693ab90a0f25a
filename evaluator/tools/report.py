"""The HTML report of ``pokerrules diff --html FILE``.

One self-contained file: inline CSS, inline SVG charts, no scripts, no
network, no external fonts (system font stacks only), so it opens the same way
from a mail attachment as from a CI artefact. The page reads top to bottom in
the order people ask: what changed (summary), where the categories sit
(the two orders side by side, each with a bar chart of its frequencies),
which hands change places (flips and re-classified cards, with rendered
cards), how often a showdown changes its winner, and the full settings table.

The charts are horizontal bars on a log scale of probability, one ``<rect
class="bar">`` per category and side and no other ``<rect>`` in the page, so a
test can count them. Both charts share one axis so their bars compare. A
category keeps its colour on both sides, which makes a swap visible at a
glance; categories one side lacks are hatched grey.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .diff_types import CategoryStat, Diff, ExampleHand, Flip, odds_text
from .report_cards import cards_html, esc
from .report_sections import EXTRA_STYLE, cause_sections, game_html, lowball_html
from .showdown_share import ChangedDeal

PALETTE = (
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#1f3a93",
    "#8c564b",
    "#17becf",
    "#bcbd22",
    "#7f3c8d",
    "#d62728",
    "#2ca02c",
    "#ff7f0e",
    "#393b79",
    "#637939",
    "#e7969c",
)  # fmt: skip  (20 distinct colours: one per shared category, the same on both sides)
LABEL_CHAR = 7.4  # px per character of a 13 px chart label (wide enough for bold system fonts)
ONLY_ONE_SIDE = "#b8b8b8"

CHART_ROW = 26
CHART_LABEL = 150
CHART_BARS = 230
CHART_VALUE = 110
CHART_TOP = 30
CHART_BOTTOM = 34

STYLE = """
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; background: #f4f5f7; color: #1d2330;
  font: 15px/1.45 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "DejaVu Sans", sans-serif; }
main { max-width: 1120px; margin: 0 auto; padding: 28px 32px 40px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h1 .vs { color: #7a8294; font-weight: 400; padding: 0 6px; }
h2 { font-size: 18px; margin: 30px 0 10px; padding-bottom: 4px; border-bottom: 2px solid #dde1e8; }
.subtitle { color: #5b6375; margin: 0 0 18px; }
.summary { background: #fff; border-left: 5px solid #4e79a7; padding: 12px 18px; border-radius: 6px;
  box-shadow: 0 1px 2px rgba(0,0,0,.06); margin: 0; }
.summary li { margin: 3px 0; }
.same { border-left-color: #59a14f; font-weight: 600; list-style: none; }
.columns { display: grid; grid-template-columns: 1fr 1fr; gap: 22px; }
.panel { background: #fff; border-radius: 8px; padding: 12px 14px; box-shadow: 0 1px 2px rgba(0,0,0,.06); }
.panel h3 { margin: 0 0 2px; font-size: 16px; }
.panel .title { color: #5b6375; font-size: 13px; margin: 0 0 6px; }
svg text { font-family: inherit; }
svg.chart { width: 100%; height: auto; }
.flip { background: #fff; border-radius: 8px; padding: 12px 16px; margin: 0 0 12px;
  box-shadow: 0 1px 2px rgba(0,0,0,.06); }
.flip .rule { font-weight: 600; margin-bottom: 8px; }
.hands { display: flex; align-items: center; gap: 18px; flex-wrap: wrap; }
.hand { display: flex; flex-direction: column; gap: 4px; }
.hand .what { font-size: 13px; color: #5b6375; }
.vs-mark { color: #7a8294; font-weight: 600; }
.cards { display: flex; gap: 4px; }
.card { width: 40px; height: 56px; border: 1px solid #c9ced8; border-radius: 5px; background: #fff;
  display: flex; flex-direction: column; align-items: center; justify-content: center;
  font-weight: 700; font-size: 17px; line-height: 1.05; box-shadow: 0 1px 1px rgba(0,0,0,.08); }
.card .suit { font-size: 20px; }
.card.red { color: #d0021b; }
.card.black { color: #1d2330; }
.card.joker { color: #7b3fa0; font-size: 14px; }
.card.small { width: 30px; height: 42px; font-size: 13px; }
.card.small .suit { font-size: 15px; }
.verdict { font-size: 14px; margin-top: 8px; }
.win { color: #2b7a2b; font-weight: 600; }
.lose { color: #b3261e; font-weight: 600; }
table { border-collapse: collapse; width: 100%; background: #fff; border-radius: 8px; overflow: hidden;
  box-shadow: 0 1px 2px rgba(0,0,0,.06); }
th, td { text-align: left; padding: 6px 12px; border-bottom: 1px solid #eceef2; vertical-align: middle; }
th { background: #e9ecf2; font-size: 13px; text-transform: uppercase; letter-spacing: .03em; color: #454d5e; }
tr.differs td { background: #fff6e0; }
tr.differs td:first-child { font-weight: 600; }
.share { display: flex; align-items: baseline; gap: 16px; background: #fff; border-radius: 8px;
  padding: 14px 18px; box-shadow: 0 1px 2px rgba(0,0,0,.06); }
.share .big { font-size: 34px; font-weight: 700; color: #4e79a7; }
.share .how { color: #454d5e; }
.deals { margin: 10px 0 0; padding: 0; list-style: none; }
.deals li { display: flex; align-items: center; gap: 10px; margin: 6px 0; font-size: 14px; flex-wrap: wrap; }
footer { margin-top: 30px; color: #7a8294; font-size: 12px; }
"""


# --- charts -----------------------------------------------------------------------------------------


def category_colours(diff: Diff) -> dict[str, str]:
    """One colour per category both sides share; grey for the others."""
    shared = {c.name for c in diff.order_a} & {c.name for c in diff.order_b}
    colours: dict[str, str] = {}
    given = 0
    for stat in list(diff.order_a) + list(diff.order_b):
        if stat.name in colours:
            continue
        if stat.name in shared:
            colours[stat.name] = PALETTE[given % len(PALETTE)]
            given += 1
        else:
            colours[stat.name] = ONLY_ONE_SIDE
    return colours


def log_floor(diff: Diff) -> int:
    """The lowest power of ten on the shared axis (at most -1)."""
    positive = [c.probability for c in list(diff.order_a) + list(diff.order_b) if c.probability > 0]
    return min(-1, math.floor(math.log10(min(positive)))) if positive else -1


def _superscript(exponent: int) -> str:
    digits = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
    return "1" if exponent == 0 else "10" + str(exponent).translate(digits)


def bar_chart(order: Sequence[CategoryStat], colours: dict[str, str], floor: int, moved: set[str], label: str) -> str:
    """A horizontal bar chart of one side's frequencies, log scale from 10^floor to 1."""
    labels = [f"{stat.position}. {stat.name.replace('_', ' ')}" for stat in order]
    label_width = max(CHART_LABEL, int(max((len(text) for text in labels), default=0) * LABEL_CHAR) + 12)
    width = label_width + CHART_BARS + CHART_VALUE
    height = CHART_TOP + CHART_ROW * len(order) + CHART_BOTTOM
    span = -floor

    def x_of(probability: float) -> float:
        if probability <= 0:
            return 0.0
        return max(0.0, min(1.0, (math.log10(probability) - floor) / span)) * CHART_BARS

    parts = [
        f'<svg class="chart" role="img" aria-label="{esc(label)}" xmlns="http://www.w3.org/2000/svg" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
        f'<text x="{label_width}" y="14" font-size="11" fill="#5b6375">probability per deal (log scale)</text>',
    ]
    bottom = CHART_TOP + CHART_ROW * len(order)
    for exponent in range(floor, 1):
        x = label_width + (exponent - floor) / span * CHART_BARS
        parts.append(
            f'<line x1="{x:.1f}" y1="{CHART_TOP - 4}" x2="{x:.1f}" y2="{bottom}" stroke="#e3e6ec" stroke-width="1"/>'
        )
        parts.append(
            f'<text x="{x:.1f}" y="{bottom + 16}" font-size="10" fill="#7a8294" text-anchor="middle">{_superscript(exponent)}</text>'
        )
    for index, stat in enumerate(order):
        y = CHART_TOP + index * CHART_ROW
        weight = "700" if stat.name in moved else "400"
        parts.append(
            f'<text class="label" x="{label_width - 8}" y="{y + 17}" font-size="13" font-weight="{weight}" text-anchor="end" fill="#1d2330">'
            f"<title>{esc(stat.name)}</title>{esc(labels[index])}</text>"
        )
        bar = x_of(stat.probability)
        parts.append(
            f'<rect class="bar" data-category="{esc(stat.name)}" x="{label_width}" y="{y + 5}" width="{bar:.1f}" height="{CHART_ROW - 10}" '
            f'rx="2" fill="{colours[stat.name]}"><title>{esc(stat.name)}: {stat.count:,} deals, p = {stat.probability:.6g}</title></rect>'
        )
        parts.append(
            f'<text x="{label_width + bar + 6:.1f}" y="{y + 17}" font-size="11" fill="#454d5e">{esc(odds_text(stat.probability))}</text>'
        )
    parts.append(
        f'<line x1="{label_width}" y1="{CHART_TOP - 4}" x2="{label_width}" y2="{bottom}" stroke="#9aa1b0" stroke-width="1"/>'
    )
    parts.append("</svg>")
    return "".join(parts)


def orders_html(diff: Diff) -> str:
    """The two category orders side by side, each with its chart."""
    colours = category_colours(diff)
    floor = log_floor(diff)
    moved = (
        {name for flip in diff.flips for name in (flip.winner_a, flip.winner_b)} | set(diff.only_a) | set(diff.only_b)
    )
    panels = []
    direction = {row.name: (row.a, row.b) for row in diff.settings}.get("direction", ("high", "high"))
    for side, order, way in ((diff.a, diff.order_a, direction[0]), (diff.b, diff.order_b, direction[1])):
        low = way.startswith("low")
        rows = tuple(reversed(order)) if low else order
        chart = bar_chart(rows, colours, floor, moved, f"{side.name}: category frequencies, {diff.cards}-card deals")
        reading = "best first: a low game, the lowest category wins" if low else "best first"
        panels.append(
            f'<div class="panel"><h3>{esc(side.name)}</h3><p class="title">{esc(side.title)} · {side.deck_size} cards · '
            f"{reading}</p>{chart}</div>"
        )
    note = (
        f"<p>Best category first on each side (for a low game, the lowest category, numbered by its place in the order). Bars: the share of {diff.cards}-card deals from each side's own deck in that category "
        "(log scale, one axis for both). Bold: categories that change places or exist on one side only.</p>"
    )
    return note + '<div class="columns">' + "".join(panels) + "</div>"


# --- flips, re-classified hands, showdowns -----------------------------------------------------------


def _hand_block(hand: ExampleHand, description: str) -> str:
    return f'<div class="hand">{cards_html(hand.cards)}<span class="what">{esc(description)}</span></div>'


def flip_html(diff: Diff, flip: Flip) -> str:
    """One flip: the rule on each side and the verified example pair."""
    a, b = esc(diff.a.name), esc(diff.b.name)
    wa, wb = esc(flip.winner_a.replace("_", " ")), esc(flip.winner_b.replace("_", " "))
    head = f'<div class="rule">{wa} &gt; {wb} in {a} · {wb} &gt; {wa} in {b}</div>'
    if flip.example is None:
        return f'<div class="flip">{head}<p>No example: the cards both decks hold cannot make this pair in both rulesets.</p></div>'
    first, second = flip.example
    hands = (
        f'<div class="hands">{_hand_block(first, first.description_b)}<span class="vs-mark">vs</span>'
        f"{_hand_block(second, second.description_b)}</div>"
    )
    verdict = (
        f'<div class="verdict">{a}: the {wa} <span class="win">wins</span> · '
        f'{b}: the {wa} <span class="lose">loses</span> (checked with compare in both rulesets)</div>'
    )
    return f'<div class="flip">{head}{hands}{verdict}</div>'


def flips_html(diff: Diff) -> str:
    """Every flip, or a sentence saying there is none."""
    if not diff.flips:
        return "<p>None: the categories both rulesets have keep their order (flips of every kind are in the sections below).</p>"
    return "".join(flip_html(diff, flip) for flip in diff.flips)


def reclassified_html(diff: Diff) -> str:
    """The same cards in another category, as a table with rendered cards."""
    rows = "".join(
        f"<tr><td>{esc(r.category_a.replace('_', ' '))}</td><td>{esc(r.category_b.replace('_', ' '))}</td>"
        f"<td>{r.classes:,}</td><td>{cards_html(r.example.cards, small=True)}</td><td>{esc(r.example.description_a)} → {esc(r.example.description_b)}</td></tr>"
        for r in diff.reclassified
    )
    return (
        f"<table><thead><tr><th>in {esc(diff.a.name)}</th><th>in {esc(diff.b.name)}</th><th>hand classes</th><th>example</th>"
        f"<th>described</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def _verdict(outcome: int) -> str:
    return {1: "first wins", -1: "second wins", 0: "tie"}[outcome]


def _deal_html(diff: Diff, deal: ChangedDeal) -> str:
    return (
        f"<li>{cards_html(deal.first, small=True)}<span class='vs-mark'>vs</span>{cards_html(deal.second, small=True)}"
        f"<span>{esc(diff.a.name)}: {_verdict(deal.outcome_a)} · {esc(diff.b.name)}: {_verdict(deal.outcome_b)}</span></li>"
    )


def _percent(value: float | None) -> str:
    if value is None:
        return "n/a"
    return f"{value * 100:.3g}%"


def showdowns_html(diff: Diff) -> str:
    """The share of heads-up showdowns whose winner changes, with how it was measured."""
    share = diff.showdowns
    if share.method == "impossible":
        return f"<p>Not compared: {esc(share.reason)}.</p>"
    if share.method == "identical":
        big, how = "0%", f"exactly: {esc(share.reason)}"
    elif share.method == "exact":
        big, how = _percent(share.share), f"exactly: {share.changed:,} of all {share.deals:,} deals"
    else:
        big = _percent(share.share)
        how = (
            f"95% Wilson interval {_percent(share.low)} – {_percent(share.high)}<br>"
            f"{share.changed:,} of {share.deals:,} random deals, seed {share.seed}"
        )
    context = (
        f"<p>Two players, {share.cards} cards each, dealt from the {share.common_deck} cards both decks hold, judged under both rulesets. "
        "A tie that becomes a win (or the reverse) counts as a change.</p>"
    )
    deals = "".join(_deal_html(diff, deal) for deal in share.examples)
    examples = f"<ul class='deals'>{deals}</ul>" if deals else ""
    return f'{context}<div class="share"><span class="big">{big}</span><span class="how">{how}</span></div>{examples}'


def settings_html(diff: Diff) -> str:
    """The settings table, differing rows highlighted."""
    rows = "".join(
        f'<tr class="{"differs" if s.differs else "unchanged"}"><td>{esc(s.name)}</td><td>{esc(s.a)}</td><td>{esc(s.b)}</td></tr>'
        for s in diff.settings
    )
    return f"<table><thead><tr><th>rule</th><th>{esc(diff.a.name)}</th><th>{esc(diff.b.name)}</th></tr></thead><tbody>{rows}</tbody></table>"


def summary_html(diff: Diff) -> str:
    """The summary list (or the plain statement that nothing differs)."""
    extra = " same" if diff.identical else ""
    return f'<ul class="summary{extra}">' + "".join(f"<li>{esc(line)}</li>" for line in diff.summary()) + "</ul>"


def render_html(diff: Diff) -> str:
    """The whole self-contained report."""
    a, b = esc(diff.a.name), esc(diff.b.name)
    sections = [
        ("What changes", summary_html(diff)),
        ("Category order and frequencies", orders_html(diff)),
        (f"Category order flips: categories that win in {a} and lose in {b}", flips_html(diff)),
    ]
    if diff.flip_causes is not None:
        sections += cause_sections(diff.flip_causes, diff.a.name, diff.b.name)
    if diff.reclassified:
        sections.append(("Same cards, another category", reclassified_html(diff)))
    sections += [
        (f"Lowball: {esc(table.ruleset)} by top card, best first", lowball_html(table)) for table in diff.lowball
    ]
    if diff.game_showdowns is not None:
        sections.append(
            ("Game deals: the share of the pot that moves", game_html(diff.game_showdowns, diff.a.name, diff.b.name))
        )
    else:
        sections.append(("Heads-up showdowns whose winner changes", showdowns_html(diff)))
    sections.append(("Decks and rules", settings_html(diff)))
    body = "".join(f"<section><h2>{title}</h2>{content}</section>" for title, content in sections)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>pokerrules diff {a} {b}</title><style>{STYLE}{EXTRA_STYLE}</style></head><body><main>"
        f'<h1>{a}<span class="vs">vs</span>{b}</h1>'
        f'<p class="subtitle">{esc(diff.a.title)} · {esc(diff.b.title)} · {diff.cards}-card hands</p>'
        f"{body}<footer>Generated by pokerrules diff. Every example pair was checked with both rulesets' compare.</footer>"
        "</main></body></html>\n"
    )
