"""Exact and near-exact duplicate documents, stored once (spec C4).

Two documents are one when their normalized text is identical (a hash of
their lowercased words), or when the Jaccard similarity of their sets of
word 5-shingles reaches ``near_duplicate_threshold``: the same page under
two URLs (tracking parameters, a trailing slash, a printer version) differs
by a line or two at most.

Which copy survives must not depend on the order a crawl happened to fetch
the pages in, or a re-gather would write different files (spec G4):
:meth:`Deduplicator.dedupe` sorts the documents canonically first (a URL
without query or fragment, then the shorter URL, then the alphabetically
first), so the same set of documents always keeps the same ones.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from urllib.parse import urlsplit

from cikb.core.models import RawDocument
from cikb.core.shingles import jaccard, near_duplicates, shingles, words

__all__ = ["Deduplicator", "canonical_order", "jaccard"]


class Deduplicator:
    """Remembers the documents kept so far and refuses their duplicates."""

    def __init__(self, threshold: float = 0.9) -> None:
        if not 0 < threshold <= 1:
            raise ValueError(f"threshold must be in (0, 1], got {threshold}")
        self.threshold = threshold
        self._hashes: dict[str, str] = {}  # text hash -> url kept
        self._shingles: list[tuple[str, frozenset[int]]] = []  # (url kept, its shingles)
        self.duplicate_of: dict[str, str] = {}  # url dropped -> url of the copy kept

    def add(self, doc: RawDocument) -> bool:
        """Keep ``doc`` if it is new: True when kept, False when it duplicates a kept document."""
        tokens = words(doc.content)
        digest = hashlib.sha256(" ".join(tokens).encode("utf-8")).hexdigest()
        text_shingles = shingles(tokens)
        original = self._hashes.get(digest) or self._near_duplicate_of(text_shingles)
        if original is not None:
            self.duplicate_of[doc.url] = original
            return False
        self._hashes[digest] = doc.url
        self._shingles.append((doc.url, text_shingles))
        return True

    def dedupe(self, docs: Iterable[RawDocument]) -> tuple[list[RawDocument], list[RawDocument]]:
        """Split ``docs`` into (kept, dropped as duplicates), both in canonical order."""
        kept: list[RawDocument] = []
        dropped: list[RawDocument] = []
        for doc in sorted(docs, key=canonical_order):
            (kept if self.add(doc) else dropped).append(doc)
        return kept, dropped

    def _near_duplicate_of(self, candidate: frozenset[int]) -> str | None:
        return next((url for url, other in self._shingles if near_duplicates(candidate, other, self.threshold)), None)


def canonical_order(doc: RawDocument) -> tuple[bool, int, str]:
    """Sort key that puts the canonical copy of a page first."""
    parts = urlsplit(doc.url)
    return (bool(parts.query or parts.fragment), len(doc.url), doc.url)
