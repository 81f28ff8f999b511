"""retrieve stage: hybrid dense + BM25 retrieval (fused, then reranked by best sentence), company inference and a context budget.

Public interface:

- :class:`Retriever` — ``Retriever(settings, store, embedder, bm25, company_names).search(query, company=None)
  -> RetrievalResult`` (spec R1-R3).
- :func:`infer_company` — the knowledge-base company a question names (R2).
- :class:`AskedOf` — one of the names a question asks the same thing of ("When were Acme and Globex founded?"),
  and the question asked of it alone: ``search`` lists them in ``trace.asked_of`` and searches each (``parts``).

The application wires a Retriever over the configured store and model
(``cikb.app.reading.open_retriever``).
"""

from __future__ import annotations

from cikb.retrieve.companies import infer_company
from cikb.retrieve.models import AskedOf
from cikb.retrieve.retriever import Retriever

__all__ = ["AskedOf", "Retriever", "infer_company"]
