"""Near-duplicate chunks collapse to the best-ranked copy (``retrieve.duplicate_threshold``).

A site publishes the same text more than once: versioned policy documents repeat their sections
word for word, a blog listing repeats its posts' first lines. Each copy is a chunk of its own, so
on letsencrypt.org's 1,148 chunks 15 of the 140 context slots of its 14 fact questions held a
near-copy of a better-ranked chunk. The answerer gains nothing from a second copy; the slot goes
to the next distinct chunk instead.
"""

from __future__ import annotations

from collections.abc import Sequence

from cikb.core.models import ScoredChunk
from cikb.core.shingles import near_duplicates, shingles, words


def collapse_near_duplicates(chunks: Sequence[ScoredChunk], threshold: float, keep: int) -> tuple[list[ScoredChunk], list[str]]:
    """The first ``keep`` of ``chunks`` (best first) that are no near-copy of a better-ranked one (their word
    shingles reach ``threshold`` Jaccard similarity), ranks renumbered; and the ids of the copies left out."""
    kept: list[tuple[ScoredChunk, frozenset[int]]] = []
    dropped: list[str] = []
    for chunk in chunks:
        if len(kept) == keep:
            break
        own = shingles(words(chunk.chunk.text))
        if any(near_duplicates(own, other, threshold) for _, other in kept):
            dropped.append(chunk.chunk.id)
        else:
            kept.append((chunk, own))
    return [c.model_copy(update={"rank": rank}) for rank, (c, _) in enumerate(kept, start=1)], dropped

