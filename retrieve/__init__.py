"""retrieve stage: hybrid dense + BM25 retrieval with RRF fusion, company inference and a context budget.

Public interface:

- :class:`Retriever` — ``Retriever(settings, store, embedder, bm25, company_names).search(query, company=None)
  -> RetrievalResult`` (spec R1-R3).
- :func:`infer_company` — the knowledge-base company a question names (R2).
- :func:`open_retriever` — a Retriever over the configured store and embedding model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from retrieve.companies import infer_company
from retrieve.retriever import Retriever

if TYPE_CHECKING:
    from cikb.config import Settings

__all__ = ["Retriever", "infer_company", "open_retriever"]


def open_retriever(settings: Settings) -> Retriever:
    """The configured store, embedding model and BM25 encoder behind one Retriever.

    Raises ModelMismatchError when the store's vectors come from another model
    than the one that would embed the queries. Use it in a ``with`` block, or ``close()`` it.
    """
    from cikb.errors import ModelMismatchError
    from cikb.kb import company_names, recover_pending
    from embed import Bm25Encoder, load_embedder
    from store import model_mismatch, open_store

    recover_pending(settings)  # a gather killed mid-commit is finished before anyone reads
    store = open_store(settings)
    try:
        embedder = load_embedder(settings.embed)
        stored = store.model_info()
        problem = model_mismatch(stored, embedder.info) if stored is not None else None
        if problem:
            raise ModelMismatchError(problem)
    except BaseException:
        store.close()
        raise
    return Retriever(settings, store, embedder, Bm25Encoder(), company_names=company_names(settings))
