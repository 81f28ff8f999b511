"""Hand-made chunks and retrieval results for answer tests (no store, no model)."""

from __future__ import annotations

from datetime import datetime, timezone

from cikb.retrieve.models import CompanyChoice, RetrievalResult, RetrievalTrace

from cikb.core.config import RetrieveSettings
from cikb.core.models import Chunk, ChunkMetadata, ScoredChunk

CRAWLED = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


def scored_chunk(text: str, rank: int, company: str = "acme-corp", url: str | None = None, title: str | None = None) -> ScoredChunk:
    url = url or f"https://acme.example/page-{rank}"
    meta = ChunkMetadata(url=url, title=title or f"Acme page {rank}", company=company, source_type="website",
                         chunk_index=0, scraped_at=CRAWLED)
    chunk = Chunk(id=f"00000000-0000-0000-0000-{rank:012d}", text=text, token_count=len(text.split()) + 2, metadata=meta)
    return ScoredChunk(chunk=chunk, score=1 / (60 + rank), dense_score=0.6 - rank / 100, rank=rank)


def retrieval(question: str, texts: list[str], company: str | None = "acme-corp",
              title: str | None = None) -> RetrievalResult:
    """A RetrievalResult whose context is ``texts``, ranked in order (each on a page titled ``title``, if given)."""
    cfg = RetrieveSettings()
    chunks = [scored_chunk(text, rank, title=title) for rank, text in enumerate(texts, start=1)]
    trace = RetrievalTrace(
        query=question, company=CompanyChoice(slug=company, source="explicit" if company else "none"),
        prefetch_limit=cfg.prefetch_limit, rrf_k=cfg.rrf_k, top_k=cfg.top_k, score_threshold=0.3,
        context_budget=cfg.context_tokens, passed=len(chunks), in_context=len(chunks),
    )
    return RetrievalResult(query=question, chunks=chunks, context=chunks, trace=trace)


ACME_DOCS = [
    ("https://acme.example/about", "About Acme Corp", "website",
     "# About Acme Corp\n\nAcme Corp is a maker of desert equipment based in Springfield, Ohio. "
     "The company employs about 1,200 people.\n\n## History\n\nAcme Corp was founded in 1949 by Wile E. Coyote and "
     "Jane Doe. It began as a workshop selling anvils by mail order. In 1987 Acme opened its first factory outside "
     "the United States, in Monterrey, Mexico."),
    ("https://acme.example/products", "Products - Acme Corp", "website",
     "# Products\n\nAcme Corp sells anvils, rockets, giant magnets and portable holes. Its best-selling product is "
     "the Acme Rocket Skate, launched in 1962. Customers order from the online catalogue or from dealers in 40 countries."),
    ("https://acme.example/news/results-2025", "Acme reports 2025 results", "news",
     "# Acme reports 2025 results\n\nAcme Corp reported revenue of $3.2 billion for 2025, up 8 percent. The chief "
     "executive is Maria Lopez, who took over from Jane Doe in 2019. The company plans a new factory in Poland."),
]


def build_kb(settings, docs=ACME_DOCS, company: str = "acme-corp"):
    """Chunk, embed and store ``docs`` with the real model, BM25 and the configured store; returns the embedder."""
    from cikb.embed import load_embedder
    from cikb.store import open_store

    from cikb.app.indexing import build_index
    from cikb.core.models import RawDocument

    embedder = load_embedder(settings.embed)
    documents = [
        RawDocument(url=url, title=title, content=text, source_type=source_type, company=company, scraped_at=CRAWLED)
        for url, title, source_type, text in docs
    ]
    batch = build_index(documents, settings, embedder, bm25_avg_len=None)
    with open_store(settings) as store:
        store.ensure_collection(batch.model, bm25_avg_len=batch.bm25_avg_len)
        store.replace_company(company, batch.chunks, batch.dense, batch.sparse)
    return embedder
