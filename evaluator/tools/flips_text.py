"""Flips by cause as text: a summary line per cause and a section per cause."""

from __future__ import annotations

from ..core.stats_math import percent_text
from .flip_types import CAUSE_TITLES, FlipCensus, FlipGroup

GROUPS_SHOWN = 8  # groups listed per cause in the text report


def _count_text(census: FlipCensus, cause: str) -> str:
    pairs = census.total(cause)
    share = pairs / census.population if census.population else 0.0
    exact = all(group.low is None for group in census.groups if group.cause == cause)
    return f"{'exactly' if exact else 'about'} {pairs:,} hand pairs ({percent_text(share)} of pairs)"


def cause_summary(census: FlipCensus) -> list[str]:
    """One summary line per cause present, with its count."""
    return [f"flips because {CAUSE_TITLES[cause]}: {_count_text(census, cause)}" for cause in census.causes()]


def outcome_text(group: FlipGroup, name_a: str, name_b: str) -> str:
    """What each ruleset says of the group's pair, in words."""
    first, second = group.first.replace("_", " "), group.second.replace("_", " ")
    if group.reversed:
        return f"{first} beats {second} in {name_a}; the reverse in {name_b}"
    if group.outcome_b == 0:
        return f"{first} beats {second} in {name_a}; they tie in {name_b}"
    return f"{first} and {second} tie in {name_a}; {second} wins in {name_b}"


def _group_lines(group: FlipGroup, name_a: str, name_b: str) -> list[str]:
    interval = f" (95% interval {group.low:,}–{group.high:,})" if group.low is not None else ""
    lines = [f"  {outcome_text(group, name_a, name_b)}: {group.pairs:,} pairs{interval}"]
    if group.example is None:
        lines.append("    (no verified example among the cards both decks hold)")
        return lines
    first, second = group.example
    lines.append(
        f"    {' '.join(first.cards)} ({first.description_a} / {first.description_b})"
        f"  vs  {' '.join(second.cards)} ({second.description_a} / {second.description_b})"
    )
    lines.append(f"    {name_a}.compare = {group.compare_a}, {name_b}.compare = {group.compare_b} (verified)")
    return lines


def census_lines(census: FlipCensus, name_a: str, name_b: str) -> list[str]:
    """A section per cause: its groups with counts and a verified example pair each."""
    if census.method == "none":
        return [f"Flips by cause: not looked for ({census.reason})"]
    if census.method == "exact":
        how = (
            f"exact: all {census.population:,} pairs of {census.hand_size}-card hands that can meet "
            f"(no shared card) from {census.common_deck} cards"
        )
    else:
        how = (
            f"sampled: {census.sampled:,} pairs of {census.hand_size}-card hands dealt from {census.common_deck} "
            f"cards, seed {census.seed}, 95% Wilson intervals" + (f"; {census.reason}" if census.reason else "")
        )
    lines = [f"Flips by cause ({how})"]
    if not census.groups:
        return [*lines, "  none: no pair of hands changes its winner"]
    for cause in census.causes():
        groups = [group for group in census.groups if group.cause == cause]
        lines.append(f" {cause}: {CAUSE_TITLES[cause]} ({_count_text(census, cause)})")
        for group in groups[:GROUPS_SHOWN]:
            lines += _group_lines(group, name_a, name_b)
        if len(groups) > GROUPS_SHOWN:
            lines.append(f"  ... and {len(groups) - GROUPS_SHOWN} more groups (see --json)")
    return lines
