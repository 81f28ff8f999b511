"""embed stage: dense vectors (a sentence-embedding model) and BM25 sparse vectors for chunks.

Public interface:

- :class:`Bm25Encoder` — BM25 term weights with Qdrant/fastembed token ids (spec E3).
"""

from embed.bm25 import Bm25Encoder

__all__ = ["Bm25Encoder"]
