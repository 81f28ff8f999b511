"""answer stage: grounded answers with citations from retrieved chunks (spec A1-A5, R3).

Public interface:

- :class:`Answerer` — ``Answerer(llm, embedder).answer(question, retrieval) -> Answer``:
  LLM mode when a configured :class:`~cikb.core.models.ChatModel` is given, extractive
  otherwise, and exactly :data:`ABSTENTION` when retrieval found nothing (without calling the model).
- :func:`join_answers` — the answers of several companies to one question ("When were Acme and Globex founded?")
  as one answer, each part under its company's name, the sources numbered on from part to part.
- :func:`check_citations` — the post-generation citation check (A2): valid numbers, and each cited sentence
  supported by the chunks it cites (:func:`check_support`); text that addresses the reader as instructions
  (:func:`is_instruction`) supports nothing.
- The reader (:mod:`cikb.answer.reader`): :func:`read_question` types a question, :func:`read` finds the
  sentence and the typed value it asks for in passages, with a confidence. Extractive ``ask`` and
  offline ``enrich`` both read through it; :func:`sure_answer_first` is retrieval's last step
  (``retrieve.answer_first``): the chunk holding the reader's sure answer first.

``cikb.app.reading.ask`` runs retrieval and this stage over the configured knowledge base.
"""

from __future__ import annotations

from cikb.answer.answerer import EXTRACTIVE_NOTE, Answerer
from cikb.answer.citations import check_citations
from cikb.answer.extractive import sure_answer_first
from cikb.answer.instructions import is_instruction
from cikb.answer.joined import join_answers
from cikb.answer.models import ABSTENTION
from cikb.answer.reader import Passage, Reading, read, read_question, split_sentences
from cikb.answer.support import check_support

__all__ = ["ABSTENTION", "EXTRACTIVE_NOTE", "Answerer", "Passage", "Reading", "check_citations", "check_support",
           "is_instruction", "join_answers", "read", "read_question", "split_sentences", "sure_answer_first"]
