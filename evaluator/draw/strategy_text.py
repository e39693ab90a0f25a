"""The words of a strategy list: each line's hold types, in the ruleset's names.

A line is a set of atoms (hold types with their ranks and penalty cards).
Read top-down, a line only has to tell apart what the lines above it have
not already taken, so each line is described against the atoms still
*remaining* (those of the section that no earlier line holds):

* a family ("4 to a flush", "pair", "pat straight") all of whose remaining
  atoms' descriptors are on the line is named alone, or with the gaps and
  high cards that set its part apart ("4 to a straight (0 gaps)");
* otherwise each descriptor is named ("3 to a straight flush (1 gap, 2 high
  cards)"), a made hand by its ranks ("pair (22 33)");
* a draw's rank sets follow when there are at most four, or when naming
  them is shorter than naming those left out ("2 to a royal flush (3 gaps,
  2 high cards: AK AQ AJ)"); then only those are meant;
* remaining atoms of the named descriptors that the line leaves out follow
  "except", by their penalty cards when that says it, else rank set by rank
  set ("except KT with a flush and a straight penalty card").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .hold_types import (
    CARDS,
    DRAW,
    DRAW_FIVE,
    MADE,
    NO_CATEGORY,
    PAT,
    WILDS,
    Geometry,
    HoldType,
    descriptor,
    family,
    penalty_of,
    ranks_of,
    unpack,
)

MAX_EXAMPLES = 4  # a draw's rank sets are named on its line when there are at most this many


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else (plural or word + 's')}"


def category_words(geometry: Geometry, index: int) -> str:
    """A category's name as words ("jacks_or_better" -> "jacks or better")."""
    name = geometry.categories[index] if index < len(geometry.categories) else ""
    return name.replace("_", " ") if name else "no category"


def rank_text(geometry: Geometry, mask: int) -> str:
    """The ranks of a bit mask, highest first ("KQJ")."""
    return "".join(geometry.rank_symbols[v] for v in range(len(geometry.rank_symbols) - 1, -1, -1) if mask >> v & 1)


def _made_ranks(geometry: Geometry, fields: HoldType) -> str:
    grouped = bin(fields.groups).count("1")
    in_groups = fields.naturals - bin(fields.singles).count("1")
    ranks = ""
    for value in range(len(geometry.rank_symbols) - 1, -1, -1):
        if fields.groups >> value & 1:
            ranks += geometry.rank_symbols[value] * (in_groups // grouped if grouped else 0)
    return ranks + rank_text(geometry, fields.singles)


def _wilds(geometry: Geometry, count: int) -> str:
    singular, plural = geometry.wild_word
    return _plural(count, singular, plural)


def family_text(geometry: Geometry, key: int) -> str:
    """A family's words: "4 to a flush", "pair", "pat straight", "2 deuces only"
    (a made hand with wild cards: "three of a kind with 1 deuce")."""
    fields = unpack(key)
    with_wilds = f" with {_wilds(geometry, fields.wilds)}" if fields.wilds and fields.kind == MADE else ""
    if fields.kind == DRAW_FIVE:
        return "draw five new cards"
    if fields.kind == WILDS:
        return f"{_wilds(geometry, fields.wilds)} only"
    if fields.kind == PAT:
        return f"pat {category_words(geometry, fields.category)}" + with_wilds
    if fields.kind == MADE:
        return category_words(geometry, fields.category) + with_wilds
    if fields.kind == DRAW:
        return f"{fields.held} to a {category_words(geometry, fields.category)}"
    if fields.kind == CARDS:
        return f"{_plural(fields.naturals, 'unrelated card')}" + (
            f" with {_plural(fields.wilds, *geometry.wild_word)}" if fields.wilds else ""
        )
    return "hold"


def _detail(geometry: Geometry, key: int) -> str:
    """What tells a descriptor apart within its family: ranks of a made hand,
    gaps and high cards of a draw, high cards of unrelated cards."""
    fields = unpack(key)
    if fields.kind == MADE:
        return _made_ranks(geometry, fields)
    details = []
    if fields.kind == DRAW and fields.category != NO_CATEGORY and geometry.run_like[fields.category]:
        details.append(_plural(fields.gaps, "gap"))
    if fields.kind in (DRAW, CARDS) and geometry.high_mask:
        details.append(_plural(fields.high, "high card"))
    return ", ".join(details)


def descriptor_text(geometry: Geometry, key: int) -> str:
    """A descriptor's words: the family with its gaps, high cards or ranks."""
    detail = _detail(geometry, key)
    return family_text(geometry, key) + (f" ({detail})" if detail else "")


def penalty_text(penalty: int) -> str:
    """One penalty pair in words: "no penalty card", "a flush and 2 straight penalty cards"."""
    flush, straight = _pair(penalty)
    if not flush and not straight:
        return "no penalty card"
    parts = []
    if flush:
        parts.append("a flush" if flush == 1 else f"{flush} flush")
    if straight:
        parts.append("a straight" if straight == 1 else f"{straight} straight")
    return " and ".join(parts) + (" penalty card" if max(flush, straight) == 1 else " penalty cards")


def _pair(penalty: int) -> tuple[int, int]:
    fields = unpack(penalty)
    return fields.flush_penalty, fields.straight_penalty


_PREDICATES: tuple[tuple[str, Callable[[int, int], bool]], ...] = (
    ("no penalty card", lambda f, s: f + s == 0),
    ("a penalty card", lambda f, s: f + s > 0),
    ("no flush penalty", lambda f, s: f == 0),
    ("a flush penalty", lambda f, s: f > 0),
    ("no straight penalty", lambda f, s: s == 0),
    ("a straight penalty", lambda f, s: s > 0),
    ("at most one penalty card", lambda f, s: f + s <= 1),
    ("two or more penalty cards", lambda f, s: f + s >= 2),
    ("at most one straight penalty card", lambda f, s: s <= 1),
    ("two or more straight penalty cards", lambda f, s: s >= 2),
    ("at most one flush penalty card", lambda f, s: f <= 1),
    ("two or more flush penalty cards", lambda f, s: f >= 2),
    ("a flush penalty and a straight penalty", lambda f, s: f > 0 and s > 0),
    ("a flush penalty or a straight penalty", lambda f, s: f > 0 or s > 0),
)


def _penalty_words(chosen: set[int], universe: set[int]) -> str:
    for words, test in _PREDICATES:
        if {p for p in universe if test(*_pair(p))} == chosen:
            return words
    return " or ".join(penalty_text(p) for p in sorted(chosen))


def penalties_text(chosen: set[int], universe: set[int], invert: bool = True) -> str:
    """Words for the penalty pairs ``chosen`` among those that occur
    (``universe``): "with ..." or "except with ...", the shorter.

    >>> from evaluator.draw.hold_types import pack
    >>> none, flush = pack(), pack(flush_penalty=1)
    >>> penalties_text({none}, {none, flush})
    'with no penalty card'
    """
    options = ["with " + _penalty_words(chosen, universe)]
    if invert and universe - chosen:
        options.append("except with " + _penalty_words(universe - chosen, universe))
    return min(options, key=len)


def _exclusion(geometry: Geometry, excluded: list[int], universe: list[int], keys: Sequence[int], named: bool) -> str:
    """Words for the atoms ``excluded`` among ``universe``, descriptor by
    descriptor: by their penalty cards when that says it, else rank set by
    rank set (with the penalty cards of a rank set left off only in part).
    Clauses with the same words share them ("AKT AQT with a flush penalty")."""
    clauses: dict[str, list[str]] = {}
    for whole in sorted({descriptor(keys[a]) for a in excluded}, key=lambda d: -ranks_of(d)):
        left = [a for a in excluded if descriptor(keys[a]) == whole]
        pool = [a for a in universe if descriptor(keys[a]) == whole]
        by_penalty = {penalty_of(keys[a]) for a in left}
        if {a for a in pool if penalty_of(keys[a]) in by_penalty} == set(left):
            label = _examples(geometry, pool, keys) or (_detail(geometry, whole) if named else "")
            words = penalties_text(by_penalty, {penalty_of(keys[a]) for a in pool}, invert=False)
            clauses.setdefault(words, []).append(label)
            continue
        for ranks in sorted({ranks_of(keys[a]) for a in left}, reverse=True):
            same = [a for a in pool if ranks_of(keys[a]) == ranks]
            picked = {penalty_of(keys[a]) for a in left if ranks_of(keys[a]) == ranks}
            everything = {penalty_of(keys[a]) for a in same}
            words = "" if picked == everything else penalties_text(picked, everything, invert=False)
            clauses.setdefault(words, []).append(rank_text(geometry, ranks & 0xFFFF))
    parts = [
        " ".join(label for label in labels if label) + (f" {words}" if words else "")
        for words, labels in clauses.items()
    ]
    parts = [part.strip() for part in parts]
    return "; ".join(parts)


def _whole_rank_sets(excluded: list[int], universe: list[int], keys: Sequence[int]) -> bool:
    """True when ``excluded`` is made of whole rank sets of ``universe``."""
    ranks = {ranks_of(keys[a]) for a in excluded}
    return {a for a in universe if ranks_of(keys[a]) in ranks} == set(excluded)


def _examples(geometry: Geometry, atoms: Sequence[int], keys: Sequence[int]) -> str:
    """The rank sets of draws, when there are few ("AK AQ AJ")."""
    masks = sorted({ranks_of(keys[a]) & 0xFFFF for a in atoms}, reverse=True)
    if not atoms or unpack(keys[atoms[0]]).kind != DRAW or len(masks) > MAX_EXAMPLES:
        return ""
    return " ".join(rank_text(geometry, m) for m in masks)


def _listed(values: list[int], unit: str) -> str:
    ordered = sorted(values)
    text = ", ".join(str(v) for v in ordered[:-1]) + (" or " if len(ordered) > 1 else "") + str(ordered[-1])
    return f"{text} {unit}" + ("" if ordered == [1] else "s")


def _restriction(covered: set[int], remaining: set[int]) -> str | None:
    """Words for the descriptors ``covered`` among ``remaining`` (of one family)
    by gaps and high cards alone ("0 gaps", "2 high cards"), or None."""
    gaps = {unpack(d).gaps for d in covered}
    high = {unpack(d).high for d in covered}
    if {d for d in remaining if unpack(d).gaps in gaps and unpack(d).high in high} != covered:
        return None
    parts = []
    if gaps != {unpack(d).gaps for d in remaining}:
        parts.append(_listed(list(gaps), "gap"))
    if high != {unpack(d).high for d in remaining}:
        parts.append(_listed(list(high), "high card"))
    return ", ".join(parts) or None


def family_phrases(geometry: Geometry, line: Sequence[int], remaining: Sequence[int], keys: Sequence[int]) -> list[str]:
    """The hold types a line names within one family: ``line`` holds the line's
    atoms of the family, ``remaining`` the family's atoms no earlier line holds.
    One phrase when the family, or a part of it set apart by gaps and high
    cards, is on the line; else one per descriptor. A draw's rank sets are
    named when there are at most four (then only those are meant), and the
    remaining atoms a phrase leaves off the line follow "except"."""
    covered = {descriptor(keys[a]) for a in line}
    rest = {descriptor(keys[a]) for a in remaining}
    head = family_text(geometry, keys[line[0]])
    restriction = None if covered == rest else _restriction(covered, rest)
    groups: list[tuple[str, set[int]]] = []
    if covered == rest or restriction:
        groups.append((restriction or "", covered))
    elif unpack(next(iter(covered))).kind == MADE:
        ranks = sorted(covered, key=lambda d: -ranks_of(d))
        groups.append((" ".join(_made_ranks(geometry, unpack(d)) for d in ranks), covered))
    else:
        order = sorted(covered, key=lambda d: (-unpack(d).high, unpack(d).gaps, -ranks_of(d)))
        groups.extend((_detail(geometry, whole), {whole}) for whole in order)
    members = set(line)
    phrases = []
    for inside, wholes in groups:
        atoms = [a for a in line if descriptor(keys[a]) in wholes]
        examples = _examples(geometry, atoms, keys)
        pool = [a for a in remaining if descriptor(keys[a]) in wholes]
        others = [a for a in pool if a not in members]
        listed = sorted({ranks_of(keys[a]) & 0xFFFF for a in atoms}, reverse=True)
        if (
            not examples
            and others
            and _whole_rank_sets(others, pool, keys)
            and len(listed) < len({ranks_of(keys[a]) for a in others})
        ):
            examples = " ".join(rank_text(geometry, m) for m in listed)  # fewer to name than to leave out
        shown = {ranks_of(keys[a]) for a in atoms} if examples else None
        inside += (": " if inside and examples else "") + examples
        text = head + (f" ({inside})" if inside else "")
        universe = [
            a for a in remaining if descriptor(keys[a]) in wholes and (shown is None or ranks_of(keys[a]) in shown)
        ]
        excluded = [a for a in universe if a not in members]
        if excluded:
            text += ", except " + _exclusion(geometry, excluded, universe, keys, len(wholes) > 1)
        phrases.append(text)
    return phrases


def line_phrases(
    geometry: Geometry, line: Sequence[int], remaining: set[int] | Sequence[int], keys: Sequence[int]
) -> list[str]:
    """The hold types one line names (see :func:`family_phrases`), family by family."""
    families: dict[int, list[int]] = {}
    for atom in line:
        families.setdefault(family(keys[atom]), []).append(atom)
    phrases = []
    for whole, atoms in families.items():
        rest = [a for a in remaining if family(keys[a]) == whole]
        phrases.extend(family_phrases(geometry, atoms, rest, keys))
    return phrases


def line_text(geometry: Geometry, line: Sequence[int], remaining: set[int], keys: Sequence[int]) -> str:
    """The words of one line: ``line`` and ``remaining`` are atom ids (see the module)."""
    return "; ".join(line_phrases(geometry, line, remaining, keys))
