"""Cards in HTML: a card face (rank over a coloured suit symbol) and a row of them.

Shared by the HTML report of ``diff`` (:mod:`evaluator.tools.report`) and its
extra sections (:mod:`evaluator.tools.report_sections`).
"""

from __future__ import annotations

import html
from collections.abc import Iterable

from ..core.safe_text import visible

SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
RED_SUITS = frozenset("hd")


def esc(text: object) -> str:
    """HTML-escape any value; control and bidi characters are shown escaped (see :mod:`evaluator.core.safe_text`)."""
    return html.escape(visible(text), quote=True)


# --- cards ------------------------------------------------------------------------------------------


def card_html(card: str, small: bool = False) -> str:
    """One card as a small face: rank over a coloured suit symbol (red hearts and diamonds)."""
    size = " small" if small else ""
    if card.upper().startswith("X"):
        return f'<span class="card joker{size}" title="joker">{esc(card)}</span>'
    rank, suit = card[:-1], card[-1]
    colour = "red" if suit in RED_SUITS else "black"
    shown = "10" if rank == "T" else rank
    return (
        f'<span class="card {colour}{size}" title="{esc(card)}"><span class="rank">{esc(shown)}</span>'
        f'<span class="suit">{SUIT_SYMBOLS.get(suit, esc(suit))}</span></span>'
    )


def cards_html(cards: Iterable[str], small: bool = False) -> str:
    """A row of cards."""
    return '<span class="cards">' + "".join(card_html(card, small) for card in cards) + "</span>"
