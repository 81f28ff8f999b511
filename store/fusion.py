"""How R1's two candidate lists, dense and BM25, become one ranking.

Both functions take the lists best first, as ``(id, score)`` pairs, and return
each candidate's fused score (higher is better); a candidate missing from a
list gets nothing from it.

- ``rrf``: reciprocal rank fusion, ``SUM w_i / (k + rank_i)`` with ranks from 1
  (Cormack et al. 2009; equal weights and k = 60 is their setting, and Qdrant's
  ``Rrf(k=61)``, which ranks from 0). Scores are ignored, only ranks count.
- ``dbsf``: distribution-based score fusion, Qdrant's ``Fusion.DBSF``: each list's
  scores are mapped to [0, 1] by its mean +- 3 sample standard deviations
  (``(s - (mean - 3 sd)) / (6 sd)``; a list of one, or of equal scores, gives
  0.5), multiplied by the list's weight and summed. Score gaps count, so a
  clear BM25 winner stays ahead of a candidate the weak dense model ranks first.

Computed here rather than in the engine, so every store (Qdrant Edge,
qdrant-client against a server of any version, its local mode) fuses alike.
"""

from __future__ import annotations

import math
from typing import Literal, Sequence

Fusion = Literal["rrf", "dbsf"]
FUSIONS: tuple[str, ...] = ("rrf", "dbsf")
Ranked = Sequence[tuple[str, float]]


def rrf(lists: Sequence[Ranked], k: int = 60, weights: Sequence[float] | None = None) -> dict[str, float]:
    """Weighted reciprocal rank fusion, ranks from 1: ``SUM w_i / (k + rank_i)``."""
    weights = _weights(lists, weights)
    scores: dict[str, float] = {}
    for ranked, weight in zip(lists, weights):
        for rank, (point, _) in enumerate(ranked, start=1):
            scores[point] = scores.get(point, 0.0) + weight / (k + rank)
    return scores


def dbsf(lists: Sequence[Ranked], weights: Sequence[float] | None = None) -> dict[str, float]:
    """Distribution-based score fusion (Qdrant's): ``SUM w_i * (s_i - (mean_i - 3 sd_i)) / (6 sd_i)``."""
    weights = _weights(lists, weights)
    scores: dict[str, float] = {}
    for ranked, weight in zip(lists, weights):
        for point, normalised in _distribution_normalised(ranked):
            scores[point] = scores.get(point, 0.0) + weight * normalised
    return scores


def fuse(method: str, lists: Sequence[Ranked], k: int = 60, weights: Sequence[float] | None = None) -> dict[str, float]:
    """The fused score of every candidate by ``method`` (``rrf`` or ``dbsf``; ``k`` is RRF's)."""
    if method == "rrf":
        return rrf(lists, k, weights)
    if method == "dbsf":
        return dbsf(lists, weights)
    raise ValueError(f"unknown fusion {method!r}: choose one of {', '.join(FUSIONS)}")


def _weights(lists: Sequence[Ranked], weights: Sequence[float] | None) -> list[float]:
    if weights is None:
        return [1.0] * len(lists)
    if len(weights) != len(lists):
        raise ValueError(f"{len(weights)} weights for {len(lists)} lists")
    if any(w < 0 or not math.isfinite(w) for w in weights):
        raise ValueError(f"fusion weights must be finite and >= 0, got {list(weights)}")
    return list(weights)


def _distribution_normalised(ranked: Ranked) -> list[tuple[str, float]]:
    n = len(ranked)
    if n < 2:
        return [(point, 0.5) for point, _ in ranked]
    mean = sum(score for _, score in ranked) / n
    sd = math.sqrt(sum((score - mean) ** 2 for _, score in ranked) / (n - 1))
    if sd == 0:
        return [(point, 0.5) for point, _ in ranked]
    low = mean - 3 * sd
    return [(point, (score - low) / (6 * sd)) for point, score in ranked]
