"""embed stage: dense vectors (a sentence-embedding model) and BM25 sparse vectors for chunks.

Public interface:

- :func:`load_embedder` -> :class:`DenseEmbedder` (``.info``, ``.description``, ``.embed_documents``,
  ``.embed_query``, ``.tokenizer``) — spec E1, E2, E4.
- :class:`Bm25Encoder` — BM25 term weights with Qdrant/fastembed token ids (spec E3).
- :class:`CloseInMeaning` — whether a sentence says what a question asks in other words (the model's cosine).
- :class:`VectorCache` — vectors already computed, by model and text: re-gathers embed only new text.
- :class:`ModelTokenizer` — the model's tokenizer as the chunker's token counter (spec K2).
- :class:`ModelUnavailableError` — the configured model cannot be loaded (a CikbError).
- :func:`installed_model`, :func:`pull_model`, :func:`packaged_offline_model` — the configured model's files on
  this machine, downloading them through fastembed (``cikb models pull``), and the packaged fallback's.

Importing this package, and embedding with the fastembed backend, never imports torch.
"""

from cikb.embed.bm25 import Bm25Encoder
from cikb.embed.cache import VectorCache
from cikb.embed.meaning import CloseInMeaning
from cikb.embed.dense import (
    DenseEmbedder,
    FastembedEmbedder,
    SentenceTransformerEmbedder,
    load_embedder,
    pick_backend,
)
from cikb.embed.models import (
    ALL_MINILM_L6_V2,
    ARCTIC_EMBED_S,
    OFFLINE_MODEL,
    DenseModelSpec,
    model_spec,
)
from cikb.embed.pull import installed_model, pull_model, pull_refusal
from cikb.embed.resolve import ModelFiles, ModelUnavailableError, packaged_offline_model
from cikb.embed.tokenizer import ModelTokenizer

__all__ = [
    "ALL_MINILM_L6_V2",
    "ARCTIC_EMBED_S",
    "Bm25Encoder",
    "CloseInMeaning",
    "DenseEmbedder",
    "DenseModelSpec",
    "FastembedEmbedder",
    "ModelFiles",
    "ModelTokenizer",
    "ModelUnavailableError",
    "OFFLINE_MODEL",
    "SentenceTransformerEmbedder",
    "VectorCache",
    "installed_model",
    "load_embedder",
    "model_spec",
    "packaged_offline_model",
    "pick_backend",
    "pull_model",
    "pull_refusal",
]
