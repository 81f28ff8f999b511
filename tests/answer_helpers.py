"""Hand-made chunks and retrieval results for answer tests (no store, no model)."""

from __future__ import annotations

from datetime import datetime, timezone

from cikb.config import RetrieveSettings
from cikb.models import Chunk, ChunkMetadata, CompanyChoice, RetrievalResult, RetrievalTrace, ScoredChunk

CRAWLED = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


def scored_chunk(text: str, rank: int, company: str = "acme-corp", url: str | None = None, title: str | None = None) -> ScoredChunk:
    url = url or f"https://acme.example/page-{rank}"
    meta = ChunkMetadata(url=url, title=title or f"Acme page {rank}", company=company, source_type="website",
                         chunk_index=0, scraped_at=CRAWLED)
    chunk = Chunk(id=f"00000000-0000-0000-0000-{rank:012d}", text=text, token_count=len(text.split()) + 2, metadata=meta)
    return ScoredChunk(chunk=chunk, score=1 / (60 + rank), dense_score=0.6 - rank / 100, rank=rank)


def retrieval(question: str, texts: list[str], company: str | None = "acme-corp") -> RetrievalResult:
    """A RetrievalResult whose context is ``texts``, ranked in order."""
    cfg = RetrieveSettings()
    chunks = [scored_chunk(text, rank) for rank, text in enumerate(texts, start=1)]
    trace = RetrievalTrace(
        query=question, company=CompanyChoice(slug=company, source="explicit" if company else "none"),
        prefetch_limit=cfg.prefetch_limit, rrf_k=cfg.rrf_k, top_k=cfg.top_k, score_threshold=cfg.score_threshold,
        context_budget=cfg.context_tokens, passed=len(chunks), in_context=len(chunks),
    )
    return RetrievalResult(query=question, chunks=chunks, context=chunks, trace=trace)
