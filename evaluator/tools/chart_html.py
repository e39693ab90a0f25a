"""A starting-hand chart as one self-contained HTML page.

Each chart is an inline SVG grid (pairs on the diagonal, suited classes above,
offsuit below) coloured by equity from red (weakest) through yellow to green
(strongest); hovering a cell shows its figures (an SVG ``<title>``). With a
second chart the page adds the grid of differences, blue where a class loses
equity and red where it gains. A chart of sampled hands (Omaha, stud) has no
grid: it is a list of bars sorted by equity, in the same colours, under the
rule that drew the hands; the differences are bars to the left (losses, blue)
and right (gains, red) of a middle line. No script, no external resource;
every string that came from a file (ruleset names, board text) is escaped.
"""

from __future__ import annotations

from ..odds.chart import Cell, ChartComparison, ChartResult
from .report_cards import esc

CELL = 44  # pixels per grid cell
MARGIN = 22  # room for the rank labels
BAR_ROW = 18  # pixels per hand in a bar list
BAR_LABEL = 150  # room for a hand's cards
BAR_WIDTH = 420  # the length of a bar of equity 1 (of the largest change, for changes)


def _mix(low: tuple[int, int, int], high: tuple[int, int, int], t: float) -> str:
    t = min(max(t, 0.0), 1.0)
    r, g, b = (round(a + (z - a) * t) for a, z in zip(low, high, strict=True))
    return f"#{r:02x}{g:02x}{b:02x}"


def equity_colour(value: float, low: float, high: float) -> str:
    """Red (``low``) through yellow to green (``high``).

    >>> equity_colour(0.5, 0.0, 1.0)
    '#f5d547'
    """
    t = (value - low) / (high - low) if high > low else 0.5
    red, yellow, green = (214, 69, 65), (245, 213, 71), (46, 160, 67)
    return _mix(red, yellow, 2 * t) if t < 0.5 else _mix(yellow, green, 2 * t - 1)


def change_colour(change: float, scale: float) -> str:
    """Blue for a loss, white for none, red for a gain (``scale``: the largest change shown)."""
    t = change / scale if scale > 0 else 0.0
    white = (255, 255, 255)
    return _mix(white, (214, 69, 65), t) if t >= 0 else _mix(white, (49, 99, 186), -t)


def _percent(value: float) -> str:
    return f"{100 * value:.2f}%"


def _title(cell: Cell) -> str:
    error = f" \u00b1 {_percent(cell.std_error)}" if cell.std_error else ""
    return (
        f"{cell.hand.name} ({cell.hand.kind}, {cell.combos} combos): equity {_percent(cell.equity)}{error}, "
        f"win {_percent(cell.win)}, tie {_percent(cell.tie)}, {cell.deals:,} deals"
    )


def _grid(ranks: list[str], label: str, cells: list[tuple[int, int, str, str, str, str]]) -> str:
    """An SVG grid; each cell is (row, col, fill, class name, figure, hover title)."""
    size = MARGIN + CELL * len(ranks)
    parts = [
        f'<svg class="grid" role="img" aria-label="{esc(label)}" xmlns="http://www.w3.org/2000/svg" '
        f'width="{size}" height="{size}" viewBox="0 0 {size} {size}">'
    ]
    for i, rank in enumerate(ranks):
        middle = MARGIN + CELL * i + CELL // 2
        parts.append(f'<text class="axis" x="{middle}" y="15" text-anchor="middle">{esc(rank)}</text>')
        parts.append(f'<text class="axis" x="11" y="{middle + 5}" text-anchor="middle">{esc(rank)}</text>')
    for row, col, fill, name, figure, title in cells:
        x, y = MARGIN + CELL * col, MARGIN + CELL * row
        parts.append(
            f'<g class="cell" data-class="{esc(name)}"><title>{esc(title)}</title>'
            f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#ffffff"/>'
            f'<text x="{x + CELL // 2}" y="{y + 18}" text-anchor="middle">{esc(name)}</text>'
            f'<text class="figure" x="{x + CELL // 2}" y="{y + 34}" text-anchor="middle">{esc(figure)}</text></g>'
        )
    parts.append("</svg>")
    return "".join(parts)


def chart_svg(result: ChartResult) -> str:
    """The grid of one chart, coloured by equity between its weakest and strongest cell."""
    values = [cell.equity for cell in result.cells if cell.deals]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    cells = [
        (
            row,
            col,
            equity_colour(cell.equity, low, high) if cell.deals else "#dddddd",
            cell.hand.name,
            f"{100 * cell.equity:.1f}",
            _title(cell),
        )
        for row, col, cell in result.grid_cells()
    ]
    return _grid(result.ranks, f"starting-hand equity chart of {result.ruleset}", cells)


def difference_svg(comparison: ChartComparison) -> str:
    """The grid of equity changes (second chart minus first), on the second chart's grid."""
    scale = max((abs(change) for change in comparison.differences.values()), default=0.0)
    first = {cell.hand.name: cell for cell in comparison.first.cells}
    cells = []
    for row, col, cell in comparison.second.grid_cells():
        change = comparison.differences.get(cell.hand.name)
        if change is None:
            continue
        title = (
            f"{cell.hand.name}: {_percent(first[cell.hand.name].equity)} in {comparison.first.ruleset}, "
            f"{_percent(cell.equity)} in {comparison.second.ruleset} ({100 * change:+.2f} points)"
        )
        figure = f"{100 * change:+.1f}"
        cells.append((row, col, change_colour(change, scale), cell.hand.name, figure, title))
    label = f"equity change from {comparison.first.ruleset} to {comparison.second.ruleset}"
    return _grid(comparison.second.ranks, label, cells)


def _bars(label: str, rows: list[tuple[str, float, float, str, str, str]], middle: float) -> str:
    """An SVG list of bars; each row is (hand, start, end as fractions of the bar width, fill, figure, title)."""
    height = BAR_ROW * len(rows) + 4
    width = BAR_LABEL + BAR_WIDTH + 70
    parts = [
        f'<svg class="bars" role="img" aria-label="{esc(label)}" xmlns="http://www.w3.org/2000/svg" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
    ]
    for i, (hand, start, end, fill, figure, title) in enumerate(rows):
        y = 2 + BAR_ROW * i
        x0, x1 = (BAR_LABEL + BAR_WIDTH * min(start, end), BAR_LABEL + BAR_WIDTH * max(start, end))
        parts.append(
            f'<g class="hand" data-hand="{esc(hand)}"><title>{esc(title)}</title>'
            f'<text x="{BAR_LABEL - 6}" y="{y + 13}" text-anchor="end">{esc(hand)}</text>'
            f'<rect x="{x0:.1f}" y="{y + 2}" width="{max(x1 - x0, 1):.1f}" height="{BAR_ROW - 4}" fill="{fill}"/>'
            f'<text class="figure" x="{max(x1, BAR_LABEL + BAR_WIDTH * middle) + 4:.1f}" y="{y + 13}">{esc(figure)}</text></g>'
        )
    if middle:
        x = BAR_LABEL + BAR_WIDTH * middle
        parts.append(f'<line x1="{x}" y1="0" x2="{x}" y2="{height}" stroke="#888888"/>')
    parts.append("</svg>")
    return "".join(parts)


def hand_bars_svg(result: ChartResult) -> str:
    """The hands of a sampled chart as bars of equity, the strongest first, coloured as the grid."""
    values = [cell.equity for cell in result.cells if cell.deals]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    ranked = sorted(result.cells, key=lambda cell: (-cell.equity, cell.hand.name))
    rows = [
        (cell.hand.name, 0.0, cell.equity, equity_colour(cell.equity, low, high), _percent(cell.equity), _title(cell))
        for cell in ranked
    ]
    return _bars(f"starting-hand equity of the sampled hands of {result.ruleset}", rows, 0.0)


def change_bars_svg(comparison: ChartComparison) -> str:
    """The change of every common hand of two sampled charts, the largest gain first."""
    scale = max((abs(change) for change in comparison.differences.values()), default=0.0) or 1.0
    first = {cell.hand.name: cell for cell in comparison.first.cells}
    second = {cell.hand.name: cell for cell in comparison.second.cells}
    rows = []
    for name, change in sorted(comparison.differences.items(), key=lambda item: (-item[1], item[0])):
        title = (
            f"{name}: {_percent(first[name].equity)} in {comparison.first.ruleset}, "
            f"{_percent(second[name].equity)} in {comparison.second.ruleset} ({100 * change:+.2f} points)"
        )
        end = 0.5 + 0.5 * change / scale
        rows.append((name, 0.5, end, change_colour(change, scale), f"{100 * change:+.2f}", title))
    label = f"equity change from {comparison.first.ruleset} to {comparison.second.ruleset}"
    return _bars(label, rows, 0.5)


def method_text(result: ChartResult) -> str:
    """One line saying how a chart was computed."""
    against = f"{result.opponents} random opponent{'s' if result.opponents > 1 else ''}"
    known = "".join(
        f", {what} {text}" for what, text in (("board", result.board), ("dead", result.dead)) if text.strip()
    )
    if result.method == "exact":
        return f"exact: every deal against {against}{known}; {result.deals:,} deals"
    unit = "class" if result.sample is None else "hand"
    return (
        f"sampled: {result.samples:,} deals per {unit} against {against}{known}, seed {result.seed}; "
        f"largest standard error {_percent(result.max_error)}"
    )


STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
.grid text { font-size: 12px; font-family: system-ui, sans-serif; fill: #111; pointer-events: none; }
.grid text.figure { font-size: 10px; }
.grid text.axis { font-weight: bold; }
.grid .cell:hover rect { stroke: #000; stroke-width: 2; }
.bars text { font-size: 12px; font-family: ui-monospace, monospace; fill: #111; }
.bars text.figure { font-family: system-ui, sans-serif; font-size: 11px; }
.bars .hand:hover rect { stroke: #000; stroke-width: 1.5; }
p.method { color: #555; }
"""


def render_chart_html(result: ChartResult, comparison: ChartComparison | None = None) -> str:
    """The whole page: one chart, or two charts and their difference (grids, or bars of sampled hands)."""
    charts = [result] if comparison is None else [comparison.first, comparison.second]
    sampled = result.sample is not None
    title = ("Sampled starting hands: " if sampled else "Starting-hand chart: ") + " vs ".join(
        chart.ruleset for chart in charts
    )
    body = [f"<h1>{esc(title)}</h1>"]
    for chart in charts:
        body.append(f'<h2>{esc(chart.ruleset)}</h2><p class="method">{esc(method_text(chart))}</p>')
        if chart.sample is not None:
            body.append(f'<p class="method">sample: {esc(chart.sample.rule)}</p>')
        body.append(hand_bars_svg(chart) if chart.sample is not None else chart_svg(chart))
    if comparison is not None:
        body.append(
            f"<h2>{esc(f'Change from {comparison.first.ruleset} to {comparison.second.ruleset}')}</h2>"
            f'<p class="method">equity points; red: the {"hand" if sampled else "class"} gains, blue: it loses</p>'
        )
        body.append(change_bars_svg(comparison) if sampled else difference_svg(comparison))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n"
    )
