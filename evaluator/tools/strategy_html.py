"""A video-poker strategy list as text and as one self-contained HTML page.

The page is a table per section (the hands dealt with 0, 1, 2... wild cards),
one row per line: its number, the hold types it names, the mean EV of the
holds it decides and a bar of the share of dealt hands it decides. No script,
no external resource; every string that came from a file is escaped.
"""

from __future__ import annotations

from ..draw.strategy import SectionList, Strategy
from .report_cards import esc

BAR_WIDTH = 160  # pixels of a bar for the line deciding the most hands


def percent(value: float, digits: int = 6) -> str:
    """A return per coin as a percentage ("99.543904%")."""
    return f"{100 * value:.{digits}f}%"


def summary(strategy: Strategy) -> list[str]:
    """The lines that head a strategy list: what it is, its return and its error."""
    detail = "full detail" if strategy.max_lines is None else f"at most {strategy.max_lines} lines"
    return [
        f"{strategy.title} ({strategy.ruleset}): strategy list, {strategy.line_count} lines ({detail})",
        f"played as listed it returns {percent(strategy.return_)}; optimal play {percent(strategy.optimal)}; "
        f"error {percent(strategy.error)}",
        "read top-down: keep the cards of the first line one of the hand's holds belongs to; if several "
        "holds fit that line, keep the one with more cards, then fewer penalty cards, then higher ranks",
    ]


def section_heading(strategy: Strategy, section: SectionList) -> str | None:
    """The heading of a section ("dealt 2 deuces"), or None for a game without wild cards."""
    if len(strategy.sections) == 1 and section.wilds == 0:
        return None
    singular, plural = strategy.geometry.wild_word
    total = sum(part.deals for part in strategy.sections)
    name = singular if section.wilds == 1 else plural
    return f"dealt {section.wilds} {name} ({section.deals / total:.2%} of hands)"


def strategy_text(strategy: Strategy) -> str:
    """The list as text: a header, then per section one line per row (#, EV, share of hands, hold)."""
    rows = summary(strategy)
    total = sum(section.deals for section in strategy.sections)
    number = 0
    for section in strategy.sections:
        heading = section_heading(strategy, section)
        if heading:
            rows.append(heading + ":")
        rows.append(f"  {'#':>3}  {'EV':>9}  {'hands':>7}  hold")
        for text, deals, ev in zip(section.texts, section.line_deals, section.line_ev, strict=True):
            number += 1
            rows.append(f"  {number:>3}  {ev:>9.4f}  {deals / total:>7.2%}  {text}")
    return "\n".join(rows) + "\n"


STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
p.summary { color: #444; }
table.strategy { border-collapse: collapse; }
table.strategy th, table.strategy td { padding: 3px 8px; border-bottom: 1px solid #ddd; text-align: left; }
table.strategy td.number, table.strategy td.ev { text-align: right; font-variant-numeric: tabular-nums; }
table.strategy tr.line:hover { background: #f4f4f4; }
span.bar { display: inline-block; height: 10px; background: #2e8b57; vertical-align: middle; }
"""


def render_strategy_html(strategy: Strategy) -> str:
    """The whole page."""
    head = summary(strategy)
    body = [f"<h1>{esc(head[0])}</h1>"] + [f'<p class="summary">{esc(text)}</p>' for text in head[1:]]
    total = sum(section.deals for section in strategy.sections)
    most = max((deals for section in strategy.sections for deals in section.line_deals), default=1) or 1
    number = 0
    for section in strategy.sections:
        heading = section_heading(strategy, section)
        if heading:
            body.append(f"<h2>{esc(heading)}</h2>")
        rows = ["<tr><th>#</th><th>hold</th><th>EV</th><th>hands</th></tr>"]
        for text, deals, ev in zip(section.texts, section.line_deals, section.line_ev, strict=True):
            number += 1
            width = round(BAR_WIDTH * deals / most)
            rows.append(
                f'<tr class="line"><td class="number">{number}</td><td class="hold">{esc(text)}</td>'
                f'<td class="ev">{ev:.4f}</td><td class="share"><span class="bar" style="width:{width}px"></span> '
                f"{esc(f'{deals / total:.2%}')}</td></tr>"
            )
        body.append('<table class="strategy">' + "".join(rows) + "</table>")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{esc(head[0])}</title><style>{STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n"
    )
