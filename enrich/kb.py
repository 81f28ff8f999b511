"""The knowledge base as enrichment sees it: ``search(question, company) -> list[ScoredChunk]``,
and ``resolve(name, website) -> CompanyIdentity | None``: which of its companies a table row is, by identity; and
``close_in_meaning(question, sentence) -> bool``: whether a sentence says what is asked, by its model (the reader's).

:class:`RetrieverKnowledgeBase` adapts ``retrieve.Retriever`` (R1, company
filter explicit; a row's company resolved by ``Retriever.resolve_company``). Searches run one at a time: the embedder and the embedded
store are shared by all rows in flight. :class:`LazyKnowledgeBase` opens the
retriever on the first search (through the opener the application hands it),
so strategies that never look anything up (computation) never load a model.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from cikb.embed import CloseInMeaning
from cikb.retrieve.companies import resolve_company

from cikb.core.identity import CompanyIdentity
from cikb.core.models import ScoredChunk


class RetrieverKnowledgeBase:
    """A ``retrieve.Retriever`` behind the KnowledgeBase protocol."""

    def __init__(self, retriever: Any) -> None:
        self.retriever = retriever
        self._lock = threading.Lock()
        embedder = getattr(retriever, "embedder", None)
        self._meaning = CloseInMeaning(embedder, self._lock) if embedder is not None else None

    def close_in_meaning(self, question: str, sentence: str) -> bool:
        """Whether ``sentence`` says what ``question`` asks in other words, by the knowledge base's model (as
        ``cikb ask`` reads)."""
        return self._meaning is not None and self._meaning(question, sentence)

    def search(self, question: str, company: str | None) -> list[ScoredChunk]:
        with self._lock:
            return list(self.retriever.search(question, company=company).chunks)

    def resolve(self, name: str, website: str | None = None) -> CompanyIdentity | None:
        """The company a row names (by its name, or its website on the company's domain), or None: never a lookalike."""
        with self._lock:
            identities = self.retriever.known_identities()
        slug = resolve_company(name, identities, website)
        return identities[slug] if slug is not None else None


class LazyKnowledgeBase:
    """Calls ``open_retriever()`` on first use; ``close()`` closes the retriever's store."""

    def __init__(self, open_retriever: Callable[[], Any]) -> None:
        self._open_retriever = open_retriever
        self._inner: RetrieverKnowledgeBase | None = None
        self._lock = threading.Lock()

    def search(self, question: str, company: str | None) -> list[ScoredChunk]:
        return self._opened().search(question, company)

    def resolve(self, name: str, website: str | None = None) -> CompanyIdentity | None:
        return self._opened().resolve(name, website)

    def close_in_meaning(self, question: str, sentence: str) -> bool:
        return self._opened().close_in_meaning(question, sentence)

    def _opened(self) -> RetrieverKnowledgeBase:
        with self._lock:
            if self._inner is None:
                self._inner = RetrieverKnowledgeBase(self._open_retriever())
            return self._inner

    @property
    def model_description(self) -> str | None:
        """The embedding model in use, once a search has opened the knowledge base."""
        return self._inner.retriever.embedder.description if self._inner is not None else None

    def close(self) -> None:
        with self._lock:
            if self._inner is not None:
                self._inner.retriever.close()
                self._inner = None
