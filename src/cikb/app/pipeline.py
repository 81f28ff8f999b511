"""The gather job end to end: crawl -> clean -> stage raw files -> chunk -> embed -> store.

    summary = gather_company(settings, "Acme Corp", {"website": ["https://acme.example"]})

Nothing current changes until the new gather has produced its documents and its index
(spec G4, G5): the work is staged in a new generation (see cikb.app.workspace), then swapped in
and written to the store. A gather whose sources all fail raises GatherFailedError and leaves
the previous knowledge base exactly as it was; two gathers of one company cannot interleave.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timezone
from time import monotonic

from cikb.embed import DenseEmbedder, load_embedder

from cikb import clean, gather
from cikb.app.indexing import (
    IndexBatch,
    build_index,
    check_store_model,
    commit,
    recover,
    stage,
)
from cikb.app.models import GatherEvent, GatherSummary
from cikb.app.workspace import CompanyDir
from cikb.core.config import Settings
from cikb.core.errors import BadInputError, DamagedError, GatherFailedError, access_checked
from cikb.core.models import (
    Company,
    CrawlEvent,
    CrawlResult,
    DropReason,
    FetchedPage,
    RawDocument,
    SourceRequest,
    SourceSummary,
)
from cikb.core.slug import company_from_name

OnEvent = Callable[[GatherEvent], None]
SourceUrls = Mapping[str, str | Sequence[str]]


def resolve_sources(sources: SourceUrls, settings: Settings) -> list[SourceRequest]:
    """What the user typed per source -> validated requests (BadInputError on bad URLs)."""
    requests = [gather.resolve_source(kind, values, settings.gather) for kind, values in sources.items() if values]
    if not requests:
        raise BadInputError("no source given: name at least one of --website, --wikipedia, --news, --crunchbase")
    return requests


def gather_company(settings: Settings, company_name: str, sources: SourceUrls, on_event: OnEvent | None = None) -> GatherSummary:
    """Gather one company's sources into the knowledge base; returns the run summary."""
    company = company_from_name(company_name)
    requests = resolve_sources(sources, settings)
    emit = on_event or (lambda event: None)
    started_at, started = datetime.now(timezone.utc), monotonic()
    folder = CompanyDir(settings.data_dir, company.slug)
    with access_checked(settings.data_dir), folder.lock(settings.gather.lock_timeout):
        try:
            recover(settings, folder)  # a previous gather killed mid-commit is finished first
        except DamagedError:
            pass  # its staged index is damaged: this gather replaces the company's raw files and points anyway
        embedder = load_embedder(settings.embed)
        avg_len = check_store_model(settings, embedder)  # refuse a model mismatch before crawling
        crawl = gather.crawl(requests, settings.gather, lambda e: emit(GatherEvent(stage="crawl", crawl=e)))
        documents, summaries = clean_crawl(crawl, company, settings, emit)
        if not documents:
            raise GatherFailedError(nothing_gathered(company, summaries))
        batch = _stage_and_commit(settings, folder, company, documents, summaries, embedder, avg_len, emit, started_at)
    return GatherSummary(
        company=company,
        sources=summaries,
        documents=len(documents),
        chunks=len(batch.chunks),
        raw_dir=str(folder.raw_link),
        model=embedder.description,
        seconds=round(monotonic() - started, 3),
        started_at=started_at,
    )


def clean_crawl(crawl: CrawlResult, company: Company, settings: Settings, emit: OnEvent) -> tuple[list[RawDocument], list[SourceSummary]]:
    """Clean every fetched page and store duplicates once, then add the site's facts document;
    per-source counts are updated in place."""
    summaries = [result.summary.model_copy(deep=True) for result in crawl.sources]
    candidates: list[tuple[RawDocument, SourceSummary]] = []
    site: list[tuple[FetchedPage, SourceSummary]] = []  # the company's own pages in the language kept
    pages = [(page, summary) for result, summary in zip(crawl.sources, summaries) for page in result.pages]
    for done, (page, summary) in enumerate(pages, start=1):
        outcome = clean.clean_page(page, company.slug, settings.clean, max_raw_bytes=settings.gather.max_raw_bytes)
        if isinstance(outcome, DropReason):
            summary.drop(outcome)
        else:
            candidates.append((outcome, summary))
        if page.source_type == "website" and outcome is not DropReason.language:
            site.append((page, summary))
        emit(GatherEvent(stage="clean", done=done, total=len(pages)))
    documents = _dedupe(candidates, settings)
    facts = clean.site_facts([page for page, _ in site], company, max_chars=settings.clean.max_chars) if site and settings.clean.site_facts else None
    if facts is not None:  # schema.org data and the site-wide footer, once per company (counted with the website)
        site[0][1].documents += 1
        documents.append(facts)
    return documents, summaries


def _dedupe(candidates: list[tuple[RawDocument, SourceSummary]], settings: Settings) -> list[RawDocument]:
    owner = {id(doc): summary for doc, summary in candidates}
    kept, dropped = clean.Deduplicator(settings.clean.near_duplicate_threshold).dedupe(doc for doc, _ in candidates)
    for doc in dropped:
        owner[id(doc)].drop(DropReason.duplicate)
    for doc in kept:
        owner[id(doc)].kept += 1
        owner[id(doc)].documents += 1
    return kept


def _stage_and_commit(
    settings: Settings,
    folder: CompanyDir,
    company: Company,
    documents: list[RawDocument],
    summaries: list[SourceSummary],
    embedder: DenseEmbedder,
    avg_len: float | None,
    emit: OnEvent,
    started_at: datetime,
) -> IndexBatch:
    def manifest(batch: IndexBatch) -> dict:
        _count_chunks(batch, summaries)
        return _manifest(company, summaries, batch, started_at)

    generation, batch = stage(
        settings, folder, documents,
        lambda: build_index(documents, settings, embedder, avg_len, lambda step, done, total, msg: emit(GatherEvent(stage=step, done=done, total=total, message=msg))),
        manifest,
    )
    emit(GatherEvent(stage="store", message=f"writing {len(batch.chunks)} points"))
    commit(settings, folder, generation, batch)
    emit(GatherEvent(stage="store", done=len(batch.chunks), total=len(batch.chunks), message="done"))
    return batch


def _count_chunks(batch: IndexBatch, summaries: list[SourceSummary]) -> None:
    by_type = {s.source_type: s for s in summaries}
    for chunk in batch.chunks:
        by_type[chunk.metadata.source_type].chunks += 1


def _manifest(company: Company, summaries: list[SourceSummary], batch: IndexBatch, started_at: datetime) -> dict:
    return {
        "company": company.model_dump(),
        "gathered_at": started_at.isoformat(),
        "documents": sum(s.documents for s in summaries),
        "chunks": len(batch.chunks),
        "model": batch.model.model_dump(),
        "sources": [s.model_dump(mode="json") for s in summaries],
    }


def nothing_gathered(company: Company, summaries: list[SourceSummary]) -> str:
    """One line saying why no source produced a document."""
    reasons = []
    for s in summaries:
        if s.error:
            reasons.append(f"{s.source_type}: {s.error}")
        elif s.dropped:
            reasons.append(f"{s.source_type}: " + ", ".join(f"{n} dropped ({r})" for r, n in sorted(s.dropped.items())))
        else:
            reasons.append(f"{s.source_type}: no pages")
    return f"nothing gathered for {company.name!r}, previous knowledge base kept; " + "; ".join(reasons)


def crawl_event_line(event: CrawlEvent) -> str:
    """A short human line for a crawl event (used by displays and logs)."""
    if event.kind == "page_dropped":
        return f"{event.source_type}: dropped {event.url} ({event.reason}{': ' + event.detail if event.detail else ''})"
    return f"{event.source_type}: {event.kind.replace('_', ' ')} {event.url or ''}".rstrip()
