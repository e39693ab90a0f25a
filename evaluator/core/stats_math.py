"""Small statistics shared by the sampled reports: the Wilson score interval."""

from __future__ import annotations

import math

CONFIDENCE = 0.95
Z_95 = 1.959963984540054  # two-sided 95% normal quantile


def wilson_interval(changed: int, total: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``changed / total``.

    >>> low, high = wilson_interval(0, 100)
    >>> round(low, 4), round(high, 4)
    (0.0, 0.037)
    """
    if total <= 0:
        return 0.0, 1.0
    p = changed / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator
    low = 0.0 if changed == 0 else max(0.0, centre - half)  # exact ends: no rounding past p
    high = 1.0 if changed == total else min(1.0, centre + half)
    return low, high


def percent_text(share: float, digits: int = 3) -> str:
    """A share as a percentage with ``digits`` significant digits and no exponent.

    >>> percent_text(7.39e-11), percent_text(0.00247), percent_text(0.125), percent_text(0.0)
    ('0.00000000739%', '0.247%', '12.5%', '0%')
    """
    value = share * 100
    if value == 0:
        return "0%"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    return f"{value:.{decimals}f}%"
