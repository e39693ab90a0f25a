"""Numbers of the frequency tables as people read them: odds ("1 in X") and percentages.

Shared by ``stats`` (:mod:`evaluator.tools.stats`), its game tables
(:mod:`evaluator.tools.game_stats`) and the low breakdown
(:mod:`evaluator.tools.lowball`).
"""

from __future__ import annotations


def format_odds(odds: float | None) -> str:
    """ "1 in X" with X rounded for reading.

    >>> format_odds(649740.0), format_odds(1.9953), format_odds(None)
    ('1 in 649,740', '1 in 2.00', 'never')
    """
    if odds is None:
        return "never"
    if odds >= 100:
        return f"1 in {odds:,.0f}"
    return f"1 in {odds:,.2f}"


def format_probability(probability: float) -> str:
    """A probability as a percentage with four significant digits.

    >>> format_probability(4 / 2598960), format_probability(0.5), format_probability(0.0)
    ('0.0001539%', '50.00%', '0%')
    """
    if probability == 0:
        return "0%"
    return f"{probability * 100:#.4g}%"
