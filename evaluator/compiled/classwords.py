"""The words of each hand class, built with the tables and cached with them.

A hand's description ("kings full of fours") depends only on its class when
no wild card plays: the category, the pattern's binding and the ranks in
playing order all follow from the rank multiset and whether the cards are one
suit. The table build fills one representative hand of every class of at most
``hand.size`` cards anyway (``tables.py``); it keeps that hand's description
too, so that ``Ruleset.evaluate`` and ``pokerrules eval`` describe a hand with
one dictionary lookup instead of classifying it again. Only classes of natural
cards that qualify get words (a wild card's description names the card it
stands for, which the class does not know).

The texts are stored once each, as UTF-8 bytes with their end offsets, and every
class table of the tables (``nf[k]`` for ``k <= hand.size``, ``fl[hand.size]``)
gets an array of text indices in its own key order (-1: no words).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

#: Marks a one-suited class in a :meth:`ClassWords.lookup` key (``key * 2 + 1``).
FLUSH = 1


class WordsBuilder:
    """Collects the descriptions of classes while the tables are built."""

    def __init__(self) -> None:
        self.texts: dict[str, int] = {}

    def index(self, text: str | None) -> int:
        """The index of ``text`` (added on first sight), -1 for None."""
        if text is None:
            return -1
        found = self.texts.get(text)
        if found is None:
            found = self.texts[text] = len(self.texts)
        return found


@dataclass
class ClassWords:
    """Descriptions per class: text indices aligned with the tables' sorted keys."""

    texts: list[str]
    nf: dict[int, np.ndarray]  # k -> int32 text index per entry of nf[k] (k <= hand.size)
    fl: np.ndarray  # int32 text index per entry of fl[hand.size]
    _lookup: dict[int, str] | None = field(default=None, repr=False)

    def arrays(self) -> dict[str, np.ndarray]:
        """The arrays to cache with the tables."""
        encoded = [text.encode("utf-8") for text in self.texts]
        blob = np.frombuffer(b"".join(encoded), dtype=np.uint8) if encoded else np.zeros(0, dtype=np.uint8)
        ends = np.cumsum([len(item) for item in encoded], dtype=np.int64) if encoded else np.zeros(0, np.int64)
        out: dict[str, np.ndarray] = {"words_bytes": blob, "words_ends": ends, "words_fl": self.fl}
        for k, indices in self.nf.items():
            out[f"words_nf_{k}"] = indices
        return out

    def lookup(self, nf_keys: dict[int, np.ndarray], fl_keys: np.ndarray) -> dict[int, str]:
        """``key * 2 (+ FLUSH when one-suited) -> description`` for every class with words
        (built once, from the tables' keys)."""
        if self._lookup is None:
            found: dict[int, str] = {}
            texts = self.texts
            for k, indices in self.nf.items():
                for key, index in zip(nf_keys[k].tolist(), indices.tolist(), strict=True):
                    if index >= 0:
                        found[key * 2] = texts[index]
            for key, index in zip(fl_keys.tolist(), self.fl.tolist(), strict=True):
                if index >= 0:
                    found[key * 2 + FLUSH] = texts[index]
            self._lookup = found
        return self._lookup


def read_words(arrays: dict[str, np.ndarray], nf_sizes: dict[int, int], fl_size: int) -> ClassWords | None:
    """The words back from cached arrays, checked against the tables' lengths (None when
    the tables were built without words). Raises ValueError when they do not fit."""
    if "words_bytes" not in arrays:
        return None
    blob = arrays["words_bytes"]
    ends = arrays["words_ends"]
    if blob.dtype != np.uint8 or ends.dtype != np.int64 or ends.ndim != 1:
        raise ValueError("words arrays")
    data = blob.tobytes()
    bounds = [0, *ends.tolist()]
    if any(b < a for a, b in zip(bounds, bounds[1:], strict=False)) or bounds[-1] != len(data):
        raise ValueError("words offsets")
    texts = [data[a:b].decode("utf-8") for a, b in zip(bounds, bounds[1:], strict=False)]
    nf = {}
    for k, length in nf_sizes.items():
        nf[k] = _indices(arrays.get(f"words_nf_{k}"), length, len(texts))
    fl = _indices(arrays.get("words_fl"), fl_size, len(texts))
    return ClassWords(texts, nf, fl)


def _indices(array: np.ndarray | None, length: int, count: int) -> np.ndarray:
    if array is None or array.dtype != np.int32 or array.shape != (length,):
        raise ValueError("words index array")
    if length and (array.min() < -1 or array.max() >= count):
        raise ValueError("words index out of range")
    return array
