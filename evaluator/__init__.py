"""pokerrules: a rules-as-data poker hand evaluator.

>>> import evaluator
>>> rs = evaluator.load("standard")
>>> rs.evaluate("Kc Kd Ks 4h 4c").category
'full_house'
"""

from __future__ import annotations

from .cards import Card, parse_cards
from .errors import Diagnostic, PokerRulesError
from .hand import Hand
from .ruleset import Ruleset, load

__all__ = ["Card", "Diagnostic", "Hand", "PokerRulesError", "Ruleset", "load", "parse_cards"]
__version__ = "0.2.0"
