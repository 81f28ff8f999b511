"""answer stage: grounded answers with citations from retrieved chunks (spec A1-A5, R3).

Public interface:

- :class:`Answerer` — ``Answerer(llm, embedder, bm25).answer(question, retrieval) -> Answer``:
  LLM mode when an endpoint is configured, extractive otherwise, and exactly
  :data:`ABSTENTION` when retrieval found nothing (without calling the model).
- :func:`ask` — retrieval and answer in one call, over the configured knowledge base.
- :func:`check_citations` — the post-generation citation check (A2).
"""

from __future__ import annotations

from answer.answerer import EXTRACTIVE_NOTE, Answerer
from answer.citations import check_citations
from cikb.config import Settings
from cikb.llm import LLMClient
from cikb.models import ABSTENTION, Answer
from retrieve import Retriever, open_retriever

__all__ = ["ABSTENTION", "EXTRACTIVE_NOTE", "Answerer", "ask", "check_citations"]


def ask(settings: Settings, question: str, company: str | None = None, retriever: Retriever | None = None) -> Answer:
    """Answer ``question`` from the knowledge base (the company given, or inferred from the question).

    Opens (and closes) the configured store and model unless a ``retriever`` is passed in.
    """
    if retriever is None:
        with open_retriever(settings) as opened:
            return ask(settings, question, company, opened)
    retrieval = retriever.search(question, company=company)
    answerer = Answerer(LLMClient.from_settings(settings), embedder=retriever.embedder, bm25=retriever.bm25)
    return answerer.answer(question, retrieval)
