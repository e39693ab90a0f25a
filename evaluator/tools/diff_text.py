"""The text rendering of a finished :class:`~evaluator.tools.diff_types.Diff` (JSON is its ``as_dict``)."""

from __future__ import annotations

from collections.abc import Sequence

from .diff_types import Diff, classes_text, odds_text, share_sentence


def _table(rows: Sequence[Sequence[str]], indent: str = "  ") -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [indent + "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in rows]


def _order_rows(diff: Diff) -> list[list[str]]:
    rows = [["", diff.a.name, "deals", "odds", "", diff.b.name, "deals", "odds"]]
    shared = set(c.name for c in diff.order_a) & set(c.name for c in diff.order_b)
    for i in range(max(len(diff.order_a), len(diff.order_b))):
        row: list[str] = []
        for order in (diff.order_a, diff.order_b):
            if i < len(order):
                stat = order[i]
                mark = "" if stat.name in shared else " (only here)"
                row += [str(stat.position), stat.name + mark, f"{stat.count:,}", odds_text(stat.probability)]
            else:
                row += ["", "", "", ""]
        rows.append(row)
    return rows


def _flip_lines(diff: Diff) -> list[str]:
    lines = []
    for flip in diff.flips:
        lines.append(
            f"  {flip.winner_a} > {flip.winner_b} in {diff.a.name}, {flip.winner_b} > {flip.winner_a} in {diff.b.name}"
        )
        if flip.example is None:
            lines.append("    (no example: the cards both decks hold cannot make this pair in both rulesets)")
            continue
        first, second = flip.example
        lines.append(
            f"    {' '.join(first.cards)}  ({first.description_b})  vs  {' '.join(second.cards)}  ({second.description_b})"
        )
        lines.append(
            f"    {diff.a.name}: the {first.category.replace('_', ' ')} wins; {diff.b.name}: the {second.category.replace('_', ' ')} wins  (verified with compare)"
        )
    return lines


def _showdown_lines(diff: Diff) -> list[str]:
    share = diff.showdowns
    lines = [f"  {share_sentence(share).split(': ', 1)[1]}"]
    if share.method in ("exact", "sampled"):
        lines.append(
            f"  ({share.cards} cards to each player from the {share.common_deck} cards both decks hold; a tie that becomes a win counts as a change)"
        )
    verdict = {1: "first wins", -1: "second wins", 0: "tie"}
    for deal in share.examples:
        lines.append(
            f"  e.g. {' '.join(deal.first)}  vs  {' '.join(deal.second)}: "
            f"{diff.a.name} {verdict[deal.outcome_a]}, {diff.b.name} {verdict[deal.outcome_b]}"
        )
    return lines


def render_text(diff: Diff) -> str:
    """The plain-text report."""
    from .flips_text import census_lines
    from .lowball import breakdown_lines

    lines = [f"pokerrules diff {diff.a.name} {diff.b.name}  ({diff.cards}-card hands)", ""]
    lines += [f"* {line}" for line in diff.summary()]
    lines += ["", "Decks and rules (* differs)"]
    rows = [["", diff.a.name, diff.b.name]] + [
        [("* " if s.differs else "  ") + s.name, s.a, s.b] for s in diff.settings
    ]
    lines += _table(rows)
    lines += ["", f"Category order, highest first, with {diff.cards}-card frequencies"]
    lines += _table(_order_rows(diff))
    lines += [
        "",
        f"Category order flips ({len(diff.flips)}): categories that win in {diff.a.name} and lose in {diff.b.name}",
    ]
    lines += _flip_lines(diff) or [
        "  none: the categories both rulesets have keep their order (flips of every kind: see Flips by cause)"
    ]
    if diff.reclassified:
        lines += ["", f"Same cards, another category ({len(diff.reclassified)}), in the cards both decks hold"]
        lines += _table(
            [
                [
                    r.category_a,
                    "→",
                    r.category_b,
                    classes_text(r.classes),
                    "e.g. " + " ".join(r.example.cards),
                    f"({r.example.description_b})",
                ]
                for r in diff.reclassified
            ]
        )
    if diff.flip_causes is not None:
        lines += ["", *census_lines(diff.flip_causes, diff.a.name, diff.b.name)]
    for breakdown in diff.lowball:
        lines += ["", *breakdown_lines(breakdown)]
    if diff.game_showdowns is not None:
        from .game_sample import game_lines

        lines += ["", *game_lines(diff.game_showdowns, diff.a.name, diff.b.name)]
    else:
        lines += ["", "Heads-up showdowns whose winner changes"]
        lines += _showdown_lines(diff)
    return "\n".join(lines) + "\n"
