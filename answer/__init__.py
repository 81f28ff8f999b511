"""answer stage: grounded answers with citations from retrieved chunks (spec A1-A5, R3).

Public interface:

- :class:`Answerer` — ``Answerer(llm, embedder, bm25).answer(question, retrieval) -> Answer``:
  LLM mode when a configured :class:`~cikb.core.models.ChatModel` is given, extractive
  otherwise, and exactly :data:`ABSTENTION` when retrieval found nothing (without calling the model).
- :func:`check_citations` — the post-generation citation check (A2).

``cikb.app.reading.ask`` runs retrieval and this stage over the configured knowledge base.
"""

from __future__ import annotations

from cikb.answer.answerer import EXTRACTIVE_NOTE, Answerer
from cikb.answer.citations import check_citations
from cikb.answer.models import ABSTENTION

__all__ = ["ABSTENTION", "EXTRACTIVE_NOTE", "Answerer", "check_citations"]
