"""The rows of ``cliffs.py``: what was timed, per round, and how a row prints.

A row holds the seconds of every round of pokerrules and of its peer or base,
timed in the same rounds (interleaved), and says how they compare: ``speed``
rows compare rates (work per second, bigger is better: ``x peer``), ``time``
rows compare times (smaller is better: ``x base``). The ratio is taken per
round, so a round slowed by other work on the machine shows as spread.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Row:
    """One row of the table: both sides' seconds per round and the target."""

    key: str
    what: str
    base_label: str
    kind: str  # "speed": rates compared (bigger is better); "time": times compared (smaller is better)
    ours: list[float]  # seconds per round
    base: list[float]
    target: str
    met: Callable[[Row], bool]
    ours_work: int = 0  # items per round (0: a whole command, shown as seconds)
    base_work: int = 0
    unit: str = "hands"
    memory: list[float] = field(default_factory=list)  # peak MiB of our process per round
    base_memory: list[float] = field(default_factory=list)
    note: str = ""

    @property
    def ratios(self) -> list[float]:
        """The ratio of each round (``speed``: our rate over the base's; ``time``: our time over the base's)."""
        out = []
        for ours, base in zip(self.ours, self.base, strict=False):
            if self.kind == "speed":
                ours_rate = (self.ours_work or 1) / ours
                base_rate = (self.base_work or 1) / base
                out.append(ours_rate / base_rate)
            else:
                out.append(ours / base)
        return out

    @property
    def ratio(self) -> float:
        """The median of the per-round ratios."""
        return statistics.median(self.ratios)

    @property
    def seconds(self) -> float:
        """The median of our seconds per round."""
        return statistics.median(self.ours)

    @property
    def peak(self) -> float:
        """The largest peak memory (MiB) of our process over the rounds (0 when not measured)."""
        return max(self.memory, default=0.0)


def rate(value: float, unit: str) -> str:
    """63.1 k hands/s, 4.90 M hands/s."""
    if value >= 1e6:
        return f"{value / 1e6:.2f} M {unit}/s"
    if value >= 1e3:
        return f"{value / 1e3:.1f} k {unit}/s"
    return f"{value:.1f} {unit}/s"


def spread(values: list[float], show: Callable[[float], str]) -> str:
    """The median, then min-max when there are several rounds."""
    middle = show(statistics.median(values))
    if len(values) < 2:
        return middle
    return f"{middle} ({show(min(values))}-{show(max(values))})"


def side(seconds: list[float], work: int, unit: str, memory: list[float]) -> str:
    """One side of a row: a rate when it did counted work, else seconds; peak memory after."""
    if work:
        # the slowest round is the lowest rate: spread on rates
        text = spread([work / s for s in seconds], lambda v: rate(v, unit))
    else:
        text = spread(seconds, lambda v: f"{v:.3g} s")
    if memory:
        text += f", {max(memory):.0f} MiB"
    return text


def render(header: str, rows: list[Row]) -> str:
    """The Markdown table of ``rows`` under ``header``, with the command of each row."""
    lines = [
        header,
        "",
        "| row | what | pokerrules | peer or base | peer or base figure | ratio | target | met |",
        "|---|---|---|---|---|---|---|---|",
    ]
    notes = []
    for row in rows:
        ours = side(row.ours, row.ours_work, row.unit, row.memory)
        base = side(row.base, row.base_work, row.unit, row.base_memory)
        sign = "x the rate" if row.kind == "speed" else "x the time"
        ratio = spread(row.ratios, lambda v: f"{v:.3g}")
        lines.append(
            f"| `{row.key}` | {row.what} | {ours} | {row.base_label} | {base} | {ratio} {sign} "
            f"| {row.target} | {'yes' if row.met(row) else 'NO'} |"
        )
        if row.note:
            notes.append(f"- `{row.key}`: {row.note}")
    lines.append("")
    lines.append(
        "Figures: median (min-max over the rounds). Reproduce a row: `python benchmarks/cliffs.py --rows KEY`."
    )
    if notes:
        lines += ["", *notes]
    return "\n".join(lines) + "\n"
