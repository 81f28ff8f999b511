"""The gather job end to end: crawl -> clean -> stage raw files -> chunk -> embed -> store.

    summary = gather_company(settings, "Acme Corp", {"website": ["https://acme.example"]})

Nothing current changes until the new gather has produced its documents and its index
(spec G4, G5): the work is staged in a new generation (see cikb.app.workspace), then swapped in
and written to the store. A gather whose sources all fail raises GatherFailedError and leaves
the previous knowledge base exactly as it was; two gathers of one company cannot interleave.
"""

from __future__ import annotations

import logging
import queue
import shlex
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from datetime import datetime, timezone
from pathlib import Path
from time import monotonic

from cikb.embed import DenseEmbedder, VectorCache, load_embedder

from cikb import clean, gather
from cikb.app.cleaned import CleanedPages
from cikb.app.indexing import (
    DocumentIndex,
    IndexBatch,
    assemble_index,
    check_store,
    commit,
    index_documents,
    recover,
    require_space,
    stage,
    store_need,
    unchanged,
)
from cikb.app.changes import ChangeLog, Snapshot, compare
from cikb.app.models import GatherChanges, GatherEvent, GatherSummary
from cikb.app.workspace import CompanyDir, Generation, gathered_identities, identity_of
from cikb.core.config import Settings
from cikb.core.errors import BadInputError, DamagedError, GatherFailedError, access_checked
from cikb.core.identity import domain_key, name_keys
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

log = logging.getLogger("cikb.changes")
OnEvent = Callable[[GatherEvent], None]
SourceUrls = Mapping[str, str | Sequence[str]]
VECTOR_CACHE = "vectors.sqlite"  # under settings.cache_dir
ABANDONED_PAGE_WAIT = 15.0  # seconds an interrupted gather waits for the page batch being embedded


def _record_changes(settings: Settings, changes: GatherChanges) -> None:
    """Add the gather's changes to the history (under the company's lock: a company's gathers in their order).

    The gather is committed by now: a history that cannot be written (a full disk, a locked file) is a
    warning line, never a gather reported failed that was in fact committed.
    """
    log_file = ChangeLog(settings.data_dir)
    try:
        log_file.record(changes)
    except (sqlite3.Error, OSError) as err:
        log.warning("the gather was committed, but its changes could not be added to %s (%s)", log_file.path, " ".join(str(err).split())[:200])


def resolve_sources(sources: SourceUrls, settings: Settings) -> list[SourceRequest]:
    """What the user typed per source -> validated requests (BadInputError on bad URLs)."""
    requests = [gather.resolve_source(kind, values, settings.gather) for kind, values in sources.items() if values]
    if not requests:
        raise BadInputError("no source given: name at least one of --website, --wikipedia, --news, --crunchbase")
    return requests


def company_kept_as(settings: Settings, company_name: str, websites: Sequence[str] = (), *, replace: bool = False) -> Company:
    """The company a gather of ``company_name`` is kept as: the name's own (its slug, :func:`company_from_name`), unless
    that slug was never gathered and a company gathered under another slug goes by the name (its identity: "Acme
    Corporation" or "Acme S.A." after "Acme", the legal name Acme's imprint gives): that company, gathered again, not a
    second folder of one company. Given ``websites`` on none of that company's domains, a name it goes by as its own is
    another company's: BadInputError saying what to do (with ``replace``, the user says the company's website moved
    there); a name only its pages give it (an operator's, a former owner's) may be another company's, kept as its own."""
    company = company_from_name(company_name)
    if CompanyDir(settings.data_dir, company.slug).exists():
        return company
    keys = name_keys(company.name)
    named = [identity for identity in gathered_identities(settings.data_dir).values() if identity.keys() & keys]
    here = [identity for identity in named if not websites or not all(identity.gathered_elsewhere_than(url) for url in websites)]
    # Elsewhere, the companies that go by the name as their own (not only as a name their pages give them).
    owners = here or [identity for identity in named if identity.own_keys() & keys]
    if len(owners) > 1:
        labels = ", ".join(identity.label() for identity in sorted(owners, key=lambda i: i.slug))
        raise BadInputError(f"{company.name!r} names {len(owners)} companies gathered here ({labels}): gather one of them by "
                            f"its slug, or this company under a name of its own")
    if not owners:
        return company
    held = owners[0]
    if here or replace:
        return Company(name=held.name or company.name, slug=held.slug)
    again = shlex.join(["cikb", "gather", held.name or held.slug, "--website", websites[0], "--replace"])
    raise BadInputError(f"{company.name!r} is {held.label()}, gathered from {', '.join(sorted(held.domains()))}, not from "
                        f"{domain_key(websites[0])}: if this is another company, gather it under a name of its own; if the "
                        f"company's website moved there, run `{again}`")


def recorded_sources(settings: Settings, company_name: str) -> dict[str, list[str]]:
    """The sources the company's last gather crawled, as ``gather_company`` takes them ({} when it was never
    gathered): `cikb gather NAME` alone gathers it again from them (NAME any of its names, :func:`company_kept_as`)."""
    folder = CompanyDir(settings.data_dir, company_kept_as(settings, company_name).slug)
    try:
        manifest = folder.manifest() if folder.exists() else {}
    except DamagedError:
        return {}
    found: dict[str, list[str]] = {}
    for source in manifest.get("sources", []):
        if source.get("source_type") and source.get("start_urls"):
            found.setdefault(source["source_type"], []).extend(source["start_urls"])
    return found


def gather_company(
    settings: Settings, company_name: str, sources: SourceUrls, on_event: OnEvent | None = None, *, full: bool = False,
    embedder: DenseEmbedder | None = None, replace: bool = False,
) -> GatherSummary:
    """Gather one company's sources into the knowledge base; returns the run summary.

    Pages are cleaned, chunked and embedded as they arrive (``[gather] overlap``), while the
    crawler waits out its politeness delay. Vectors of chunk texts embedded before and pages
    the server says are unchanged (a 304) are reused, and so is the cleaned document of a page whose
    HTML the current generation already cleaned; ``full`` ignores all three. ``embedder`` is the
    configured model already loaded (gathers of many companies share one); else its weights are
    loaded here when some chunk's vector is not in the cache. A gather that finds the knowledge base
    already as it would write it writes nothing (``summary.changes.written`` is false). A company of the
    same name gathered from another website domain is refused (another company), unless ``replace``: the
    user says it is this company's website, moved there. A name of a company gathered before under another slug
    gathers that company again (:func:`company_kept_as`).
    """
    requests = resolve_sources(sources, settings)
    websites = [url for request in requests if request.source_type == "website" for url in request.start_urls]
    company = company_kept_as(settings, company_name, websites, replace=replace)
    emit = on_event or (lambda event: None)
    started_at, started = datetime.now(timezone.utc), monotonic()
    folder = CompanyDir(settings.data_dir, company.slug)
    with access_checked(settings.data_dir), folder.lock(settings.gather.lock_timeout):
        require_space(settings, settings.data_dir, store_need(settings))  # a full disk is said before the crawl, not after it
        try:
            recover(settings, folder)  # a previous gather killed mid-commit is finished first
        except DamagedError:
            pass  # its staged index is damaged: this gather replaces the company's raw files and points anyway
        _check_same_company(folder, company)
        if not replace:
            _check_same_website(folder, company, requests)
        before = Snapshot.of(folder)  # read now: the generation this gather replaces is pruned by its commit
        cleaning = CleanedPages.of(None if full else folder.current(), company, settings, started_at)
        with _crawler() as (crawler, exiting):  # starts while the model is found; fetches nothing until given the job
            embedder = embedder or load_embedder(settings.embed, lazy=True)  # weights loaded for the first chunk not in the cache
            avg_len, points = check_store(settings, embedder, company.slug)  # refuse a model mismatch before crawling
            with VectorCache(settings.cache_dir / VECTOR_CACHE, embedder.info) as cache:
                indexer = PageIndexer(company, settings, embedder, cache, emit, cleaning, reuse=not full)
                documents, summaries, aliases = _crawl(requests, settings, crawler, indexer, emit, http_cache=None if full else folder.http_cache_dir)
                exiting.start()
                parts = indexer.index(documents)  # made during the crawl, but for the facts document
            stored = monotonic()
            batch = assemble_index(parts, embedder, avg_len)
            kept = None if full else unchanged(folder, documents, batch, _manifest(company, summaries, batch, started_at, aliases), points)
            if kept is None:
                generation, batch = _stage_and_commit(settings, folder, company, documents, summaries, batch, emit, started_at, aliases, cleaning)
            else:
                generation = _keep_current(folder, kept, company, summaries, batch, emit, started_at, aliases, cleaning)
            indexer.seconds["store"] = monotonic() - stored
            changes = compare(before, Snapshot(documents), company=company.slug, generation=generation.id, gathered_at=started_at,
                              embedded=batch.embedded, reused=batch.reused, written=kept is None)
            _record_changes(settings, changes)
    return GatherSummary(
        company=company,
        sources=summaries,
        documents=len(documents),
        chunks=len(batch.chunks),
        embedded=batch.embedded,
        reused=batch.reused,
        raw_dir=str(folder.raw_link),
        model=embedder.description,
        seconds=round(monotonic() - started, 3),
        stage_seconds={stage: round(seconds, 3) for stage, seconds in indexer.seconds.items()},
        started_at=started_at,
        changes=changes,
    )


@contextmanager
def _crawler() -> Iterator[tuple[gather.Crawler, threading.Thread]]:
    """A crawler process started now, and ``exiting``: started by the caller once the crawl is over, it waits
    for the process's exit (the interpreter's shutdown, about half a second) while the gather goes on. The
    block's end waits for it (or closes the crawler when it was never started)."""
    crawler = gather.Crawler()
    exiting = threading.Thread(target=crawler.close, name="cikb-crawler-exit", daemon=True)
    try:
        yield crawler, exiting
    finally:
        if exiting.ident is None:
            crawler.close()
        else:
            exiting.join()


def _crawl(
    requests: list[SourceRequest], settings: Settings, crawler: gather.Crawler, indexer: PageIndexer, emit: OnEvent, http_cache: Path | None
) -> tuple[list[RawDocument], list[SourceSummary], list[str]]:
    """Crawl with ``indexer`` working on each page as it arrives; the documents kept (GatherFailedError if none),
    and the other names the company's website gives it (recorded with its identity: see cikb.core.identity)."""
    with indexer.running(settings.gather.overlap):
        crawl = gather.crawl(
            requests, settings.gather, lambda e: emit(GatherEvent(stage="crawl", crawl=e)),
            on_page=indexer.add, http_cache_dir=http_cache, crawler=crawler,
        )
    indexer.seconds["crawl"] = crawl.seconds
    started = monotonic()
    documents, summaries = clean_crawl(crawl, indexer.company, settings, emit, cleaning=indexer.cleaning)
    if not documents or not any(s.fetched or s.cached for s in summaries):  # pages kept from the cache alone are no gather
        kept = CompanyDir(settings.data_dir, indexer.company.slug).exists()
        raise NothingGatheredError(nothing_gathered(indexer.company, summaries, kept), summaries)
    website = [page for result in crawl.sources for page in result.pages if page.source_type == "website"]
    names = indexer.cleaning.names(website)
    indexer.seconds["clean"] += monotonic() - started
    return documents, summaries, names


class PageIndexer:
    """Cleans, chunks and embeds each fetched page on a worker thread while the crawl goes on.

    Only per-page work happens here: what depends on every page (near-duplicates, the site's
    facts document, BM25 weights) waits for the crawl's end, and nothing is written but the
    vector cache, so a gather stays all-or-nothing. Pages are processed in arrival order, those
    that queued up while the worker was busy together (fewer, fuller embedding batches); a page's
    chunks and vectors do not depend on the others, so the result is the same whether the work
    overlaps the crawl or follows it.
    """

    def __init__(
        self, company: Company, settings: Settings, embedder: DenseEmbedder, cache: VectorCache, emit: OnEvent, cleaning: CleanedPages, *, reuse: bool,
    ) -> None:
        self.company, self.settings, self.embedder, self.cache, self.emit, self.reuse = company, settings, embedder, cache, emit, reuse
        self.cleaning = cleaning
        self.indexed: dict[int, DocumentIndex] = {}  # id(document) -> chunks and vectors
        self.seconds = {"crawl": 0.0, "clean": 0.0, "chunk": 0.0, "embed": 0.0, "store": 0.0}
        self._queue: queue.SimpleQueue[FetchedPage | None] = queue.SimpleQueue()
        self._failure: BaseException | None = None
        self._abandoned = False

    def add(self, source_index: int, page: FetchedPage) -> None:
        """A page just fetched: worked on at once when overlapping, else after the crawl."""
        self._queue.put(page)

    @contextmanager
    def running(self, overlap: bool) -> Iterator[None]:
        """Work on pages as they are added (``overlap``), else when the block ends; then wait for every page."""
        worker = threading.Thread(target=self._work, name="cikb-page-indexer", daemon=True) if overlap else None
        if worker is not None:
            worker.start()
        try:
            yield
        except BaseException:
            self._abandoned = True  # the crawl failed or was interrupted: the worker stops at its next page
            self._queue.put(None)
            if worker is not None:
                # Waited for (bounded): a daemon thread still inside the model's native code when the
                # interpreter exits after Ctrl-C can abort the process (onnxruntime, exit 134).
                with suppress(KeyboardInterrupt):
                    worker.join(ABANDONED_PAGE_WAIT)
            raise
        self._queue.put(None)  # the worker stops after the pages already queued
        if worker is None:
            self._work()
        else:
            worker.join()
        if self._failure is not None:
            raise self._failure

    def _work(self) -> None:
        try:
            stop = False
            while not stop and not self._abandoned:
                pages = [self._queue.get()]
                while pages[-1] is not None and not self._queue.empty():  # pages that arrived meanwhile: embedded together
                    pages.append(self._queue.get())
                stop = pages[-1] is None
                self._process([page for page in pages if page is not None])
        except BaseException as err:  # re-raised in the gather's thread
            self._failure = err

    def _process(self, pages: list[FetchedPage]) -> None:
        docs = []
        for page in pages:
            started = monotonic()
            outcome = self.cleaning.clean(page)
            self.seconds["clean"] += monotonic() - started
            self.emit(GatherEvent(stage="clean", done=len(self.cleaning.outcomes), total=None))
            if isinstance(outcome, RawDocument):
                docs.append(outcome)
        self.index(docs)

    def index(self, docs: Sequence[RawDocument]) -> list[DocumentIndex]:
        """The documents' chunks and vectors (made now for those the worker did not make)."""
        new = [doc for doc in docs if id(doc) not in self.indexed]
        if new:
            for doc, part in zip(new, index_documents(new, self.settings, self.embedder, self.cache, self.seconds, reuse=self.reuse)):
                self.indexed[id(doc)] = part
            done = sum(len(p.chunks) for p in self.indexed.values())
            self.emit(GatherEvent(stage="embed", done=done, total=None, message=f"{done} chunks"))
        return [self.indexed[id(doc)] for doc in docs]


def clean_crawl(
    crawl: CrawlResult, company: Company, settings: Settings, emit: OnEvent, cleaning: CleanedPages | None = None
) -> tuple[list[RawDocument], list[SourceSummary]]:
    """Clean every fetched page and store duplicates once, then add the site's facts document;
    per-source counts are updated in place. ``cleaning`` holds pages already cleaned, and those
    an earlier gather cleaned (none when not given)."""
    cleaning = cleaning or CleanedPages(company, settings, datetime.now(timezone.utc))
    summaries = [result.summary.model_copy(deep=True) for result in crawl.sources]
    candidates: list[tuple[RawDocument, SourceSummary]] = []
    site: list[tuple[FetchedPage, SourceSummary]] = []  # the company's own pages in the language kept
    pages = [(page, summary) for result, summary in zip(crawl.sources, summaries) for page in result.pages]
    for done, (page, summary) in enumerate(pages, start=1):
        outcome = cleaning.clean(page)
        if isinstance(outcome, DropReason):
            summary.drop(outcome)
        else:
            candidates.append((outcome, summary))
        if page.source_type == "website" and outcome is not DropReason.language:
            site.append((page, summary))
        emit(GatherEvent(stage="clean", done=done, total=len(pages)))
    documents = _dedupe(candidates, settings)
    facts = cleaning.site_facts([page for page, _ in site]) if site and settings.clean.site_facts else None
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
    batch: IndexBatch,
    emit: OnEvent,
    started_at: datetime,
    aliases: Sequence[str] = (),
    cleaning: CleanedPages | None = None,
) -> tuple[Generation, IndexBatch]:
    def manifest(batch: IndexBatch) -> dict:
        _count_chunks(batch, summaries)
        return _manifest(company, summaries, batch, started_at, aliases)

    generation, batch = stage(settings, folder, documents, lambda: batch, manifest, cleaning.write if cleaning is not None else None)
    emit(GatherEvent(stage="store", message=f"writing {len(batch.chunks)} points"))
    commit(settings, folder, generation, batch)
    emit(GatherEvent(stage="store", done=len(batch.chunks), total=len(batch.chunks), message="done"))
    return generation, batch


def _keep_current(
    folder: CompanyDir, current: Generation, company: Company, summaries: list[SourceSummary], batch: IndexBatch, emit: OnEvent,
    started_at: datetime, aliases: Sequence[str], cleaning: CleanedPages,
) -> Generation:
    """The current generation already holds what this gather found: nothing is written to the store, and the
    generation stays; only its manifest says this gather (its time, what each source did) and its cleaned pages are kept."""
    emit(GatherEvent(stage="store", message="unchanged: the knowledge base already holds this gather, nothing written"))
    _count_chunks(batch, summaries)
    cleaning.write(current.index_dir)
    folder.seal(current, _manifest(company, summaries, batch, started_at, aliases))
    emit(GatherEvent(stage="store", done=len(batch.chunks), total=len(batch.chunks), message="unchanged"))
    return current


def _count_chunks(batch: IndexBatch, summaries: list[SourceSummary]) -> None:
    by_type = {s.source_type: s for s in summaries}
    for chunk in batch.chunks:
        by_type[chunk.metadata.source_type].chunks += 1


def _check_same_company(folder: CompanyDir, company: Company) -> None:
    """BadInputError when the folder holds another company: two names may make one slug ("C++ Foundation" and "C
    Foundation"; two long names alike in their first 64 characters), and the second gather replaced the first."""
    if folder.current() is None:
        return
    try:
        held = folder.manifest().get("company", {})
    except DamagedError:
        return  # a damaged company is replaced by this gather, as it always was
    names = [held.get("name") or "", *held.get("aliases", [])]
    if held.get("name") and not any(name_keys(company.name) & name_keys(name) for name in names):
        raise BadInputError(f"{company.name!r} would be kept as {company.slug!r}, which holds {held['name']!r}: give it a name of "
                            f"its own, or run `cikb forget {company.slug}` first to replace that company")


def _check_same_website(folder: CompanyDir, company: Company, requests: Sequence[SourceRequest]) -> None:
    """BadInputError when the company held under the slug was gathered from other website domains than this gather's:
    two companies may have one name (a "Nimbus" of nimbus-one.test and one of nimbus-two.test), and the second gather
    replaced the first. The same domain again (http or https, www or not, another port) is the same company's."""
    urls = [url for request in requests if request.source_type == "website" for url in request.start_urls]
    if not urls or folder.current() is None:
        return
    try:
        held = identity_of(folder.manifest(), folder.slug)
    except DamagedError:
        return  # a damaged company is replaced by this gather, as it always was
    if all(held.gathered_elsewhere_than(url) for url in urls):
        domains = ", ".join(sorted(held.domains()))
        again = shlex.join(["cikb", "gather", company.name, "--website", urls[0], "--replace"])
        raise BadInputError(f"{company.name!r} is kept as {company.slug!r}, gathered from {domains}, not from {domain_key(urls[0])}: "
                            f"if this is another company, gather it under a name of its own; if the company's website moved there, "
                            f"run `{again}`")


def _manifest(company: Company, summaries: list[SourceSummary], batch: IndexBatch, started_at: datetime, aliases: Sequence[str] = ()) -> dict:
    return {
        # The company's identity: its name, slug and the other names its own pages give it (a rebuild keeps them).
        "company": {**company.model_dump(), "aliases": list(aliases)},
        "gathered_at": started_at.isoformat(),
        "documents": sum(s.documents for s in summaries),
        "chunks": len(batch.chunks),
        "model": batch.model.model_dump(),
        "sources": [s.model_dump(mode="json") for s in summaries],
    }


class NothingGatheredError(GatherFailedError):
    """No source reached a live page or produced a document; ``sources`` says what each did."""

    def __init__(self, message: str, sources: list[SourceSummary]) -> None:
        super().__init__(message)
        self.sources = sources


def nothing_gathered(company: Company, summaries: list[SourceSummary], kept: bool) -> str:
    """One line saying why no source produced a document, or reached a live page, naming the unreachable sources;
    ``kept``: the company has a previous knowledge base, which stays as it was."""
    kept_note = ", previous knowledge base kept" if kept else ""
    unreachable = [s for s in summaries if s.unreachable or s.robots_unavailable]
    if unreachable and not any(s.fetched or s.cached for s in summaries):
        named = "; ".join(f"{s.source_type}: {unreachable_note(s)}" + (f", {s.robots_unavailable}" if s.unreachable and s.robots_unavailable else "")
                          for s in unreachable)  # pages kept from the cache because robots.txt could not be read: both said
        return f"nothing gathered for {company.name!r}: no source could be reached{kept_note}; {named}"
    reasons = []
    for s in summaries:
        if s.error:
            reasons.append(f"{s.source_type}: {s.error}")
        elif s.dropped:
            reasons.append(f"{s.source_type}: " + ", ".join(f"{n} dropped ({r})" for r, n in sorted(s.dropped.items())))
        else:
            reasons.append(f"{s.source_type}: no pages")
    return f"nothing gathered for {company.name!r}{kept_note}; " + "; ".join(reasons)


def unreachable_note(s: SourceSummary) -> str:
    """'3 pages unreachable (connection refused), kept from 2026-11-25 20:13 UTC': what a source could not reach
    live and kept from an earlier gather instead; else why its robots.txt could not be read ('' when neither)."""
    if not s.unreachable:
        return s.robots_unavailable or ""
    kept = f", kept from {s.kept_from.astimezone(timezone.utc):%Y-%m-%d %H:%M} UTC" if s.kept_from else ""
    return f"{s.unreachable} page{'s' if s.unreachable != 1 else ''} unreachable ({s.unreachable_reason}){kept}"


def crawl_event_line(event: CrawlEvent) -> str:
    """A short human line for a crawl event (used by displays and logs)."""
    if event.kind == "page_dropped":
        return f"{event.source_type}: dropped {event.url} ({event.reason}{': ' + event.detail if event.detail else ''})"
    return f"{event.source_type}: {event.kind.replace('_', ' ')} {event.url or ''}".rstrip()
