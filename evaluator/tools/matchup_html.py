"""The exact matchup table as one self-contained HTML page: a heat map.

Rows are the hero's class, columns the villain's, both in the grid's order
(AA, AKs, ... A2s, AKo, KK, ...), cut into blocks by the first card's rank.
Each cell is coloured by the hero's equity on a fixed scale -- red at 0%,
yellow at 50%, green at 100% -- and hovering it shows the matchup's figures
(an SVG ``<title>``). No script and no external resource; every string that
came from a file (the ruleset's name, the board) is escaped.
"""

from __future__ import annotations

from ..odds.matchups import MatchupTable
from .chart_html import STYLE, equity_colour
from .report_cards import esc

CELL = 6  # pixels per cell
MARGIN = 30  # room for the rank labels


def _percent(value: float) -> str:
    return f"{100 * value:.2f}%"


def matchups_svg(table: MatchupTable) -> str:
    """The heat map of every class against every class."""
    count = len(table.classes)
    size = MARGIN + CELL * count
    block = len(table.ranks)
    parts = [
        f'<svg class="heat" role="img" aria-label="{esc(f"exact matchup table of {table.ruleset}")}" '
        f'xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}">'
    ]
    for b, rank in enumerate(table.ranks):
        middle = MARGIN + CELL * (b * block + block // 2)
        parts.append(f'<text class="axis" x="{middle}" y="18" text-anchor="middle">{esc(rank)}</text>')
        parts.append(f'<text class="axis" x="14" y="{middle + 4}" text-anchor="middle">{esc(rank)}</text>')
    names = [cls.name for cls in table.classes]
    for i, hero in enumerate(names):
        y = MARGIN + CELL * i
        cells = []
        for j, villain in enumerate(names):
            deals = int(table.deals[i, j])
            x = MARGIN + CELL * j
            if not deals:
                cells.append(
                    f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#dddddd">'
                    f"<title>{esc(hero)} vs {esc(villain)}: never dealt together</title></rect>"
                )
                continue
            wins, ties = float(table.wins[i, j]), float(table.ties[i, j])
            equity = (wins + ties / 2) / deals
            title = (
                f"{hero} vs {villain}: {_percent(equity)} (win {_percent(wins / deals)}, "
                f"tie {_percent(ties / deals)}, {deals:,} deals)"
            )
            cells.append(
                f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{equity_colour(equity, 0.0, 1.0)}">'
                f"<title>{esc(title)}</title></rect>"
            )
        parts.append(f'<g class="row" data-class="{esc(hero)}">' + "".join(cells) + "</g>")
    for b in range(1, len(table.ranks)):
        at = MARGIN + CELL * b * block
        parts.append(f'<line x1="{MARGIN}" y1="{at}" x2="{size}" y2="{at}" stroke="#ffffff"/>')
        parts.append(f'<line x1="{at}" y1="{MARGIN}" x2="{at}" y2="{size}" stroke="#ffffff"/>')
    parts.append("</svg>")
    return "".join(parts)


HEAT_STYLE = """
.heat text { font-size: 12px; font-family: system-ui, sans-serif; fill: #111; }
.heat text.axis { font-weight: bold; }
.heat rect:hover { stroke: #000; stroke-width: 1; }
"""


def render_matchups_html(table: MatchupTable) -> str:
    """The whole page: the method, the scale and the heat map."""
    title = f"Matchup table: {table.ruleset}"
    body = [
        f"<h1>{esc(title)}</h1>",
        f'<p class="method">{esc(table.method_text())}</p>',
        "<p class=\"method\">rows: the hero's class, columns: the villain's, in grid order (pairs, suited, offsuit "
        "by first rank); colour: the hero's equity, red 0%, yellow 50%, green 100%; hover a cell for its figures</p>",
        matchups_svg(table),
    ]
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{esc(title)}</title><style>{STYLE}{HEAT_STYLE}</style></head><body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )
