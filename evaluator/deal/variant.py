"""A ruleset variant per set of wild cards a deal decides.

Rules triggered by the deal (Follow the Queen's follower, each player's lowest
face-down rank) resolve into ordinary wild ranks before anything is
evaluated: the deal stage derives, once per distinct set, a :class:`Rules`
whose ``wild.ranks`` hold the static ranks and the deal's, and whose game no
longer carries the deal rules. The generic evaluator, the compiled tables
(cached on disk per variant, like any ruleset) and every fast path then work
on it unchanged. A game meets few sets: Follow the Queen at most 13 (queens
alone, or queens and one other rank), Low Hole Wild at most 13 per player.

A variant knows the ruleset it came from (``variant_of``); hands of one family
have the same categories and compare by strength
(:func:`evaluator.engine.showdown.family`).
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..rules.ruleset import Rules

#: Variants kept per ruleset; past it the oldest are dropped (a hostile game cannot grow memory).
MAX_VARIANTS = 256
_DEAL_KEYS = ("streets", "extra", "split", "declare", "runs")


def _fields(rules: Rules) -> dict[str, Any]:
    """The built fields of ``rules`` (not its caches)."""
    names: set[str] = set()
    for kind in type(rules).__mro__:
        names |= set(getattr(kind, "__annotations__", {}))
    return {name: value for name, value in vars(rules).items() if name in names}


def variant(rules: Rules, added: frozenset[str] = frozenset()) -> Rules:
    """``rules`` with the ranks ``added`` wild too and no rule that reads the deal.

    The same object is returned for the same ``added`` (tables are built once).

    >>> from evaluator import load
    >>> ftq = load("follow-the-queen")
    >>> sixes = variant(ftq, frozenset({"6"}))
    >>> sorted(sixes.wild.ranks), sixes.by_deal, variant(ftq, frozenset({"6"})) is sixes
    (['6', 'Q'], False, True)
    """
    cache: dict[frozenset[str], Rules] | None = rules.__dict__.get("_cache_variants")
    if cache is None:
        cache = {}
        object.__setattr__(rules, "_cache_variants", cache)
    found = cache.get(added)
    if found is not None:
        return found
    ranks = rules.wild.ranks | added
    wild = replace(rules.wild, ranks=ranks, follow=None, lowest_down=False)
    data = copy.deepcopy(rules.data)
    wild_data = dict(data.get("wild") or {})
    wild_data.pop("follow", None)
    if wild_data.get("lowest_rank") == "down":
        wild_data.pop("lowest_rank")
    wild_data["ranks"] = [rank for rank in rules.deck_ranks if rank in ranks]
    data["wild"] = wild_data
    game = rules.game
    if game is not None:
        game = replace(game, streets=(), extra=(), split=(), declare=None, runs=1)
        data["game"] = {key: value for key, value in (data.get("game") or {}).items() if key not in _DEAL_KEYS}
    fields = _fields(rules)
    fields.update(wild=wild, data=data, game=game, examples=(), variant_of=rules.variant_of or rules)
    made = type(rules)(**fields)
    if len(cache) >= MAX_VARIANTS:
        cache.pop(next(iter(cache)))
    cache[added] = made
    return made
