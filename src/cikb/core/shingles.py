"""Near-duplicate texts by their word shingles: one measure for documents (clean) and chunks (retrieve).

Two texts are near-duplicates when the Jaccard similarity of their sets of word 5-shingles
(lowercased ``\\w+`` tokens) reaches a threshold: the same page under two URLs, or the same
section in two versions of a policy document, differ by a line or two at most.
"""

from __future__ import annotations

import re
from collections.abc import Set

__all__ = ["SHINGLE_WORDS", "jaccard", "near_duplicates", "shingles", "words"]

SHINGLE_WORDS = 5
_WORD = re.compile(r"\w+")


def words(text: str) -> list[str]:
    """Lowercased word tokens (``\\w+``): the unit of duplicate detection and scoring."""
    return _WORD.findall(text.lower())


def shingles(tokens: list[str]) -> frozenset[int]:
    """The hashed word ``SHINGLE_WORDS``-grams of ``tokens``; a text shorter than one shingle is one shingle.

    Python's str hash is salted per process, which is fine: shingles are only compared in-process.
    """
    if len(tokens) <= SHINGLE_WORDS:
        return frozenset({hash(tuple(tokens))})
    return frozenset(hash(tuple(tokens[i : i + SHINGLE_WORDS])) for i in range(len(tokens) - SHINGLE_WORDS + 1))


def jaccard(a: Set[object], b: Set[object]) -> float:
    """|A ∩ B| / |A ∪ B| (1.0 for two empty sets)."""
    union = len(a | b)
    return len(a & b) / union if union else 1.0


def near_duplicates(a: frozenset[int], b: frozenset[int], threshold: float) -> bool:
    """Whether two shingle sets reach ``threshold`` Jaccard similarity (two empty sets do)."""
    small, large = sorted((len(a), len(b)))
    if small < threshold * large:  # |A ∩ B| / |A ∪ B| <= min / max of the sizes: it cannot reach the threshold
        return False
    shared = len(a & b)
    return shared >= threshold * (len(a) + len(b) - shared)
