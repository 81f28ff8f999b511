"""chunk stage: documents -> heading-aware chunks sized in the embedding model's tokens (spec K1-K3).

Public interface:

- :func:`chunk_document` ``(doc, tokenizer, settings.chunk) -> list[Chunk]``
- :class:`Tokenizer` — the token-counter protocol the embed stage implements.
- :func:`chunk_id` ``(company, url, chunk_index) -> str`` — the deterministic point id (per company).
- :func:`indexed_text` ``(chunk) -> str`` — what is embedded and BM25-encoded: page title and section path, then the text.
"""

from cikb.chunk.chunker import chunk_document, chunk_id
from cikb.chunk.context import indexed_text
from cikb.chunk.tokenizer import Tokenizer

__all__ = ["Tokenizer", "chunk_document", "chunk_id", "indexed_text"]
