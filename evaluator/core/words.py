"""Counts in words: ``1 hand``, ``2 hands``, ``1,000 deals``.

Every count a command prints for people goes through :func:`counted`, so
that one of anything is never written as a plural.
"""

from __future__ import annotations


def counted(count: int, word: str, plural: str | None = None) -> str:
    """``count`` and ``word``, the word in the plural unless the count is one.

    >>> counted(1, "chip"), counted(10, "chip"), counted(1234, "deal"), counted(2, "class", "classes")
    ('1 chip', '10 chips', '1,234 deals', '2 classes')
    """
    return f"{count:,} {word if count == 1 else plural or word + 's'}"
