"""Hybrid retrieval (spec R1-R3): question -> company -> dense + BM25 -> fused, thresholded top-k -> context."""

from __future__ import annotations

import time
from contextlib import AbstractContextManager
from collections.abc import Mapping
from typing import Any, Protocol

import numpy as np
from cikb.embed import Bm25Encoder
from cikb.retrieve.companies import (
    candidate_names, company_variants, coordinated_companies, infer_company, require_company, resolve_company, unmentioned_names,
)
from cikb.retrieve.duplicates import collapse_near_duplicates
from cikb.retrieve.expansion import expand_query
from cikb.retrieve.models import AskedOf, CompanyChoice, RetrievalResult, RetrievalTrace
from cikb.retrieve.priors import weigh_page_kinds
from cikb.retrieve.rerank import Tokenize, rerank_by_sentences

from cikb.core.config import RetrieveSettings, Settings
from cikb.core.errors import BadInputError
from cikb.core.identity import CompanyIdentity
from cikb.core.models import ScoredChunk, SparseVector


class QueryEmbedder(Protocol):
    """What retrieval needs of the dense model (``embed.load_embedder``'s result)."""

    info: Any

    def embed_query(self, text: str) -> np.ndarray: ...


class QueryEncoder(Protocol):
    """What retrieval needs of BM25 (``embed.Bm25Encoder``)."""

    def encode_query(self, text: str) -> SparseVector: ...


class Reorder(Protocol):
    """A last reordering of the top chunks the application may add (``answer.sure_answer_first``).

    It gets the question, what to call the company (``CompanyChoice.subject``: its display name,
    else the question's words for it; empty when the question is about every company) and the
    chunks best first; it returns the same chunks, in an order of its own, ranks renumbered.
    """

    def __call__(self, question: str, company: str, chunks: list[ScoredChunk]) -> list[ScoredChunk]: ...


# The longest question or query read: the embedding model reads about 512 tokens, and the reader's work on a question
# grows faster than its length (a pasted page of 10,000 words as a question took 84 s), so a longer one is refused.
MAX_QUERY_CHARS = 2000


class Retriever:
    """Runs R1 against a store, for one question at a time.

    ``company_names`` maps each slug the knowledge base holds to its display
    name, for matching companies in questions (R2); slugs missing from it are
    matched by their words. ``identities`` add what else identifies a company
    (the names its own pages give it, the websites it was gathered from) to
    resolve an explicit company or a table row (cikb.core.identity).
    """

    def __init__(
        self,
        settings: Settings,
        store: Any,
        embedder: QueryEmbedder,
        bm25: QueryEncoder,
        company_names: Mapping[str, str | None] | None = None,
        reorder: Reorder | None = None,
        identities: Mapping[str, CompanyIdentity] | None = None,
    ) -> None:
        self.settings = settings.retrieve
        self.reorder = reorder
        self.store = store
        self.embedder = embedder
        self.bm25 = bm25
        self.company_names = dict(company_names or {})
        self.identities = dict(identities or {})
        self.score_threshold = resolve_threshold(self.settings.score_threshold, embedder)
        # The rerank counts the stems BM25 counts (stop words dropped, Snowball stems).
        self._tokenize: Tokenize = getattr(bm25, "tokenize", None) or Bm25Encoder().tokenize

    def session(self) -> AbstractContextManager[None]:
        """Many searches over one state of the store, opened once for them all (a benchmark's loop).

        Without it each search opens the embedded store for itself (tens of milliseconds), so a
        gather can commit between two searches; inside it, other processes wait for the block to end.
        """
        return self.store.session()

    def close(self) -> None:
        """Close the store (the retriever is done)."""
        self.store.close()

    def __enter__(self) -> Retriever:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def known_companies(self) -> dict[str, str | None]:
        """Every company slug the store holds, with its display name when known."""
        return {slug: self.company_names.get(slug) for slug in self.store.companies()}

    def known_identities(self, known: Mapping[str, str | None] | None = None) -> dict[str, CompanyIdentity]:
        """What identifies each company the store holds (``known``: those companies and their display names)."""
        known = self.known_companies() if known is None else known
        return {slug: self.identities.get(slug) or CompanyIdentity(slug=slug, name=name) for slug, name in known.items()}

    def resolve_company(self, company: str, website: str | None = None) -> str | None:
        """The slug of the company the store holds that ``company`` (a slug or a name) and ``website`` identify, or None.

        By identity only (cikb.retrieve.companies.resolve_company): "ACME Corp." is Acme Corp, "Acme Robotics" is not.
        """
        return resolve_company(company, self.known_identities(), website)

    def require_company(self, company: str, known: Mapping[str, str | None] | None = None) -> str:
        """The slug of the company ``company`` names; UnknownCompanyError naming the nearest known ones otherwise.
        ``known``: the companies the store holds, when already read."""
        return require_company(company, self.known_identities(known))

    def choose_company(self, question: str, company: str | None, known: Mapping[str, str | None]) -> CompanyChoice:
        """R2: the explicit company (a slug or a name ``known`` holds), else one the question names, else none.

        The choice carries the company's display name when ``known`` has one, and the other names its pages
        give it: the reader takes the name's words as the subject's ("Let's Encrypt"), not the matched form
        ("lets encrypt"), and a question asking by a former name is still about the company.
        """
        identities = self.known_identities(known)
        choice = self._choice(question, company, identities)
        identity = identities.get(choice.slug) if choice.slug else None
        if identity is None:
            return choice
        name = known.get(identity.slug) or identity.name
        return choice.model_copy(update={"name": name, "aliases": list(identity.aliases)})

    @staticmethod
    def _choice(question: str, company: str | None, identities: Mapping[str, CompanyIdentity]) -> CompanyChoice:
        if company is None:
            names = {slug: identity.name for slug, identity in identities.items()}
            return infer_company(question, names, {slug: identity.aliases for slug, identity in identities.items()})
        # "--company 'Acme Corp'" works as well as "acme-corp", by identity: never "X" for "X Labs".
        slug = resolve_company(company, identities)
        if slug is not None:
            return CompanyChoice(slug=slug, source="explicit", matched=company)
        return CompanyChoice(slug=company, source="explicit", matched=company, known=False)

    def search(self, query: str, company: str | None = None, *, strict: bool = False) -> RetrievalResult:
        """The chunks that answer ``query``, best first, and the numbered context within the token budget.

        A ``company`` the store does not hold is an abstention, or with ``strict`` an UnknownCompanyError naming
        the nearest ones (what commands say). The search's reads see one state of the store, in one session (a
        gather committing meanwhile waits for it; each session loads the shard, 0.3 s at 100k points). Only the
        reads and the query's embedding hold it (its lock, which other commands wait for): the embedder's weights
        are loaded before it and the chunks are read (the reader's parser) after it, as loading a model takes seconds.
        A query asking the same of several companies ("When were Acme and Globex founded?", ``trace.asked_of``) is
        searched for each alone (``parts``), and has no chunks of its own.
        """
        if len(query) > MAX_QUERY_CHARS:
            raise BadInputError(f"the question is {len(query):,} characters long; at most {MAX_QUERY_CHARS:,} are read "
                                "(the embedding model reads about 512 tokens): ask it in fewer words")
        started = time.perf_counter()
        _load_weights(self.embedder)
        with self.store.session():
            known = self.known_companies()
            if strict and company is not None:
                self.require_company(company, known)
            asked_of = self._coordinated(query, known) if company is None else []
            # Asked of several, the query has no one company: each name's search has its own.
            choice = CompanyChoice(source="none") if asked_of else self.choose_company(query, company, known)
            trace = self._trace(query, choice)
            trace.companies_held, trace.asked_of = len(known), asked_of
            if asked_of:
                result, chosen = RetrievalResult(query=query, trace=trace), None
            elif not choice.known or not known:
                trace.abstain_reason = (f"the knowledge base holds nothing about {choice.matched!r}" if not choice.known
                                        else "the knowledge base is empty")
                return self._finish(RetrievalResult(query=query, trace=trace), started)
            else:
                embedding = time.perf_counter()
                dense = self.embedder.embed_query(query)  # milliseconds, the weights being loaded
                trace.embed_ms = (time.perf_counter() - embedding) * 1000
                result, chosen = self._candidates(query, dense, known, choice, trace)
        if trace.asked_of:  # each name searched alone after this session, in a session of its own as any question
            result.parts = [self._search_one(asked) for asked in trace.asked_of]
        elif chosen is not None:
            self._read(result, chosen)
        return self._finish(result, started)

    def _coordinated(self, query: str, known: Mapping[str, str | None]) -> list[AskedOf]:
        """The names ``query`` asks the same thing of, one a company the store holds, else none (see
        :func:`coordinated_companies`: "When were Acme and Globex founded?")."""
        identities = self.known_identities(known)
        return coordinated_companies(query, {slug: identity.name for slug, identity in identities.items()},
                                     {slug: identity.aliases for slug, identity in identities.items()})

    def _search_one(self, asked: AskedOf) -> RetrievalResult:
        """The question asked of one name: its company inferred as any question's is (so the names it holds are checked
        against the sources: "Acme Robotics" is no Acme Corp), and given where the inference takes another company."""
        result = self.search(asked.question)
        if asked.slug is not None and result.trace.company.slug != asked.slug:
            result = self.search(asked.question, company=asked.slug)
        return result

    def _candidates(self, query: str, dense: Any, known: Mapping[str, str | None], choice: CompanyChoice,
                    trace: RetrievalTrace) -> tuple[RetrievalResult, CompanyChoice | None]:
        """What the store holds for ``query``: the result, and the company choice when its chunks are to be read
        (None: the result is final, an abstention)."""
        chunks = self._hybrid(query, dense, choice.slug, trace)
        vector = [float(x) for x in dense]
        if choice.source != "explicit" and chunks:
            # A question naming something no passing chunk mentions is about a company (or person)
            # the knowledge base does not hold (R3), not about what retrieval happened to find.
            identity = self.known_identities(known).get(choice.slug) if choice.slug else None
            variants = company_variants(identity.slug, identity.name, identity.aliases) if identity else set()
            unknown = unmentioned_names(query, (f"{c.chunk.metadata.title} {c.chunk.text}" for c in chunks), variants)
            if unknown:
                trace.company = choice.model_copy(update={"known": False, "unknown_names": unknown})
                trace.abstain_reason = f"no retrieved source mentions {', '.join(unknown)}"
                return RetrievalResult(query=query, chunks=chunks, trace=trace, query_vector=vector), None
            if choice.slug is None and (named := candidate_names(query)):
                # No company of the knowledge base is named, and a chunk mentions the name (a customer, a rival, a prize):
                # the answer is about that name, read from what is said of it, not from the companies around it.
                trace.company = choice = choice.model_copy(update={"asked_about": named[0]})
        return RetrievalResult(query=query, chunks=chunks, trace=trace, query_vector=vector), choice

    def _read(self, result: RetrievalResult, choice: CompanyChoice) -> None:
        """The candidates reordered (the reader's) and packed into the context, in place."""
        chunks, trace = result.chunks, result.trace
        if self.reorder is not None and chunks:
            chunks = self._reordered(self.reorder, result.query, choice.subject, chunks, trace)
        result.chunks, result.context = chunks, self._pack(chunks, trace)
        if not chunks:
            trace.abstain_reason = f"no chunk passed the dense threshold {self.score_threshold}"

    def _hybrid(self, query: str, dense: Any, company: str | None, trace: RetrievalTrace) -> list[ScoredChunk]:
        t0 = time.perf_counter()
        sparse, trace.expanded = self.sparse_query(query)
        cfg = self.settings
        reranked = cfg.rerank == "sentences"
        limit = kept_candidates(cfg)
        candidates = self.store.hybrid_search(
            dense, sparse, company=company,
            prefetch_limit=cfg.prefetch_limit, rrf_k=cfg.rrf_k,
            limit=candidate_limit(cfg), score_threshold=self.score_threshold,
            fusion=cfg.fusion, weights=cfg.fusion_weights,
        )
        if has_prior(cfg):
            candidates = weigh_page_kinds(candidates, cfg.page_kind_weights)
        chunks, trace.collapsed = collapse_near_duplicates(candidates, cfg.duplicate_threshold, keep=limit)
        if reranked:  # the fused top rerank_depth by their best sentence; any beyond keep the fused order
            reranked_top = rerank_by_sentences(query, chunks[: cfg.rerank_depth], self._tokenize, cfg.rerank_weight, cfg.expansion_weight)
            chunks = reranked_top + chunks[cfg.rerank_depth :]
            chunks = chunks[: cfg.top_k]
        trace.search_ms = (time.perf_counter() - t0) * 1000
        trace.passed = len(chunks)
        return chunks

    def sparse_query(self, query: str) -> tuple[SparseVector, list[str]]:
        """The BM25 query vector, widened with the question words' relation words, and the words it added."""
        return expand_query(self.bm25.encode_query(query), self._tokenize(query), self.settings.expansion_weight)

    def _reordered(self, reorder: Reorder, query: str, name: str, chunks: list[ScoredChunk],
                   trace: RetrievalTrace) -> list[ScoredChunk]:
        reordered = reorder(query, name, chunks)
        if reordered[0].chunk.id != chunks[0].chunk.id:
            trace.promoted = reordered[0].chunk.id
        return reordered

    def _pack(self, chunks: list[ScoredChunk], trace: RetrievalTrace) -> list[ScoredChunk]:
        """Best-ranked chunks first, as many as fit ``context_tokens`` (counted by the embedding model's tokenizer)."""
        context, used = [], 0
        for chunk in chunks:
            cost = chunk.chunk.token_count
            if used + cost > self.settings.context_tokens:
                trace.skipped_for_budget.append(chunk.chunk.id)
                continue
            context.append(chunk)
            used += cost
        trace.in_context, trace.context_tokens = len(context), used
        return context

    def _trace(self, query: str, choice: CompanyChoice) -> RetrievalTrace:
        info = getattr(self.embedder, "info", None)
        return RetrievalTrace(
            query=query, company=choice, embedding_model=getattr(info, "name", None),
            prefetch_limit=self.settings.prefetch_limit, fusion=self.settings.fusion, fusion_weights=self.settings.fusion_weights,
            rrf_k=self.settings.rrf_k, page_kind_weights=dict(self.settings.page_kind_weights), rerank=self.settings.rerank, top_k=self.settings.top_k,
            score_threshold=self.score_threshold, context_budget=self.settings.context_tokens,
        )

    @staticmethod
    def _finish(result: RetrievalResult, started: float) -> RetrievalResult:
        result.trace.total_ms = (time.perf_counter() - started) * 1000
        return result


def has_prior(cfg: RetrieveSettings) -> bool:
    """Whether the page-kind weights may reorder the candidates (they are not all equal)."""
    return len(set(cfg.page_kind_weights.values())) > 1


def kept_candidates(cfg: RetrieveSettings) -> int:
    """Distinct candidates kept for the rerank (its depth) or, without one, for the result."""
    return max(cfg.top_k, cfg.rerank_depth) if cfg.rerank == "sentences" else cfg.top_k


def candidate_limit(cfg: RetrieveSettings) -> int:
    """Fused candidates to ask the store for: every one (both prefetch lists) when the page-kind prior
    may lift a candidate from far down; else twice what is kept, room for the near-copies left out."""
    return max(2 * kept_candidates(cfg), 2 * cfg.prefetch_limit if has_prior(cfg) else 0)


def resolve_threshold(configured: float | None, embedder: Any) -> float:
    """The configured dense threshold, else the query model's own (R1a), else the spec's 0.3."""
    if configured is not None:
        return configured
    from cikb.embed import model_spec

    spec = model_spec(getattr(getattr(embedder, "info", None), "name", "") or "")
    return spec.relevance_threshold if spec is not None else 0.3


def _load_weights(embedder: Any) -> None:
    """A lazy embedder's weights loaded now (seconds), not under the store's lock; others are loaded already."""
    if getattr(embedder, "loaded", True) is False:
        embedder.load()
