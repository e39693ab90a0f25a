"""pokerrules: a rules-as-data poker hand evaluator.

>>> import evaluator
>>> rs = evaluator.load("standard")
>>> rs.evaluate("Kc Kd Ks 4h 4c").category
'full_house'
"""

from __future__ import annotations

from .core.errors import Diagnostic, PokerRulesError
from .core.version import __version__
from .engine.hand import Hand
from .rules.cards import Card, parse_cards
from .ruleset import Ruleset, load

__all__ = ["Card", "Diagnostic", "Hand", "PokerRulesError", "Ruleset", "__version__", "load", "parse_cards"]
