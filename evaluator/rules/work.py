"""What a ruleset costs to run, estimated before anything runs.

The work of classifying one hand grows with the patterns it is tried
against: each category in ``order`` is matched until one fits, and matching
costs about one step per pattern node (alternatives, conjunctions, shape
groups, comparisons). The same factor multiplies every enumeration that
classifies hands (coverage in ``check``, table builds, counting), so it is
computed in one place. The standard ruleset's patterns have 36 nodes.

>>> from evaluator.rules.patterns import Shape
>>> pattern_size(Shape((("X", 2), ("Y", 1))))
3
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

# Pattern nodes of all categories together. Shipped rulesets have 25 to 40;
# past this a ruleset is refused (R121): every hand would cost hundreds of
# times what a usual ruleset costs, in eval, check, stats and table builds.
MAX_PATTERN_WORK = 2_000
# The pattern size the enumeration budgets of ``check`` were measured with.
BASELINE_PATTERN_WORK = 40


def pattern_size(node: object) -> int:
    """How many nodes pattern ``node`` holds (a shape counts each of its groups)."""
    if not dataclasses.is_dataclass(node):
        return 0
    size = 1
    for item in dataclasses.fields(node):
        value = getattr(node, item.name)
        for child in value if isinstance(value, tuple) else (value,):
            size += pattern_size(child) if dataclasses.is_dataclass(child) else int(isinstance(child, tuple))
    return size


def patterns_work(patterns: Iterable[object]) -> int:
    """The nodes of several patterns together: the cost of classifying one hand, in match steps."""
    return sum(pattern_size(pattern) for pattern in patterns)


def pattern_factor(patterns: Iterable[object]) -> int:
    """How many times a usual ruleset's cost one hand costs with these patterns (at least 1)."""
    return max(1, -(-patterns_work(patterns) // BASELINE_PATTERN_WORK))
