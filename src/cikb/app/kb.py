"""The knowledge base as a whole: which companies it holds, forgetting one (spec S3), rebuilding.

A rebuild re-chunks and re-embeds a company from its current raw Markdown into a new
generation and commits it like a gather does (all-or-nothing, under the company's lock):
the repair for a damaged manifest, `raw` link or staged index, and, with ``--all``, for a
damaged or deleted store or a change of embedding model.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from datetime import datetime, timezone
from time import monotonic

from cikb.chunk import indexed_text
from cikb.embed import Bm25Encoder, DenseEmbedder, load_embedder
from cikb.store import open_empty_store, open_store
from pydantic import BaseModel

from cikb.app.changes import ChangeLog
from cikb.app.documents import read_documents
from cikb.app.indexing import (
    IndexBatch,
    check_store_model,
    chunk_documents,
    commit,
    embed_chunks,
    recover,
    require_space,
    stage,
    store_need,
    write_all,
)
from cikb.app.models import CompanyDetail, CompanyStatus, PageRef
from cikb.app.workspace import (
    CompanyDir,
    Generation,
    check_companies,
    check_points,
    company_dirs,
    display_name,
    list_companies,
    rebuild_command,
)
from cikb.core.config import Settings
from cikb.core.errors import DamagedError, LockedError, UnknownCompanyError, access_checked
from cikb.core.models import Chunk, RawDocument, SourceSummary
from cikb.core.slug import check_slug

OnProgress = Callable[[str], None]


class RebuildSummary(BaseModel):
    """What `cikb rebuild` did for one company."""

    company: str
    name: str
    documents: int
    chunks: int
    generation: str
    model: str
    seconds: float


def company_statuses(settings: Settings) -> list[CompanyStatus]:
    """Every gathered company with its documents, points, model and last gather time.

    Raises DamagedError (the path and the command that repairs it) when a company's files
    or the store are damaged, instead of listing a company without its points.
    """
    with access_checked(settings.data_dir):
        check_companies(settings.data_dir)
        recover_pending(settings)
        folders = list_companies(settings.data_dir)
        if not folders:
            return []
        with open_store(settings) as store:
            points = store.companies()
            check_points(folders, points, store.location, store.count)
        return [_status(folder, points.get(folder.slug, 0)) for folder in folders]


def company_detail(settings: Settings, slug: str) -> CompanyDetail:
    """One company's status, its sources as the last gather summarised them, and its pages (url, title, type)."""
    wanted = check_slug(slug)
    status = next((s for s in company_statuses(settings) if s.slug == wanted), None)
    if status is None:
        raise UnknownCompanyError(f"no company {slug!r} in the knowledge base (see `cikb companies`)")
    folder = CompanyDir(settings.data_dir, wanted)
    with access_checked(settings.data_dir):
        sources = [SourceSummary.model_validate(s) for s in folder.manifest().get("sources") or []]
        documents = read_documents(folder.raw_link, repair=f"then run `{rebuild_command(wanted)}`")
    pages = [PageRef(url=d.url, title=d.title, source_type=d.source_type, scraped_at=d.scraped_at) for d in documents]
    return CompanyDetail(status=status, sources=sources, pages=sorted(pages, key=lambda p: (p.source_type, p.url)))


def _status(folder: CompanyDir, points: int) -> CompanyStatus:
    generation = folder.current()
    manifest = folder.manifest()
    model = manifest.get("model") or {}
    return CompanyStatus(
        slug=folder.slug,
        name=display_name(manifest, folder.slug),
        documents=manifest.get("documents", 0),
        chunks=points,
        model=f"{model.get('name')} ({model.get('variant')})" if model else None,
        gathered_at=manifest.get("gathered_at"),
        indexed=generation is not None and folder.indexed_id() == generation.id,
    )


def forget_company(settings: Settings, slug: str) -> dict[str, int | str]:
    """Remove exactly one company's points and raw files; raises UnknownCompanyError if it has neither.

    Works on a damaged company too (a dangling `raw` link, a lost generation): forgetting
    it is one of the repairs.
    """
    folder = CompanyDir(settings.data_dir, check_slug(slug))
    with access_checked(settings.data_dir):
        had_files = folder.holds_company_files()  # a folder cikb did not make is no company's
        with folder.lock(settings.gather.lock_timeout):
            try:
                recover(settings, folder)
            except DamagedError:
                pass  # a staged index that cannot be read: its points are about to be deleted anyway
            documents = len(list(folder.raw_link.glob("*.md"))) if folder.raw_link.is_dir() else 0
            with open_store(settings) as store:  # opened first: a damaged or busy store changes nothing
                # Unmarked first: until the folder is gone, readers see a commit in flight (theirs to skip), not lost points.
                folder.indexed_file.unlink(missing_ok=True)
                points = store.delete_company(slug)
            if not documents and not points and not had_files:
                folder.remove()  # only the lock file we just made
                raise UnknownCompanyError(f"no company {slug!r} in the knowledge base (see `cikb companies`)")
            folder.remove()  # points first: a forget killed halfway is finished by running it again
            ChangeLog(settings.data_dir).forget(slug)  # its history (`cikb changes`) goes with it
    return {"company": slug, "points": points, "documents": documents}


def recover_pending(settings: Settings) -> list[str]:
    """Finish every commit a killed gather left between its raw swap and its store write.

    Readers call this before opening the store, so they never see a company whose raw
    files and points come from different gathers. A company whose lock is held is left
    to the gather holding it. Returns the slugs recovered.
    """
    recovered = []
    for folder in list_companies(settings.data_dir):
        if not folder.pending():
            continue
        try:
            with folder.lock(0):
                if recover(settings, folder):
                    recovered.append(folder.slug)
        except LockedError:
            continue
    return recovered


# --- rebuild --------------------------------------------------------------------------


def rebuild_company(settings: Settings, slug: str, on_progress: OnProgress | None = None) -> RebuildSummary:
    """Chunk and embed one company again from its raw documents, into a new generation committed like a gather.

    Repairs a damaged manifest, `raw` link or staged index, and a company whose points are
    missing from the store. A damaged store or another model's vectors need ``--all``
    (:func:`rebuild_all`): the error says so. Nothing current changes until the commit.
    """
    report = on_progress or (lambda message: None)
    folder = CompanyDir(settings.data_dir, check_slug(slug))
    if not folder.root.is_dir():
        raise UnknownCompanyError(f"no company {slug!r} in the knowledge base (see `cikb companies`)")
    started = monotonic()
    with access_checked(settings.data_dir), folder.lock(settings.gather.lock_timeout):
        require_space(settings, settings.data_dir, store_need(settings))  # a full disk is said before the work, not after it
        documents, manifest = _rebuild_input(folder)
        embedder = load_embedder(settings.embed)
        avg_len = check_store_model(settings, embedder)
        report(f"{slug}: chunking and embedding {len(documents)} documents")
        chunks = chunk_documents(documents, settings, embedder)
        generation, batch = stage(
            settings, folder, documents, lambda: embed_chunks(chunks, embedder, avg_len), _rebuilt_manifest(manifest, folder.slug, documents)
        )
        report(f"{slug}: writing {len(batch.chunks)} points")
        commit(settings, folder, generation, batch)
    return _summary(folder, manifest, documents, generation, batch, embedder, started)


def rebuild_all(settings: Settings, on_progress: OnProgress | None = None) -> list[RebuildSummary]:
    """Rebuild every company and the store itself: after the store was damaged or deleted, or the model changed.

    Every company is read, chunked and embedded first, into new sealed generations; only
    then is the store emptied (its files removed when they cannot even be read) and
    refilled. From the moment the store empties, each company is a commit in flight: if
    the rebuild is interrupted, the next command rolls it forward from its staged index,
    or `cikb rebuild --all` again finishes.
    """
    report = on_progress or (lambda message: None)
    started = monotonic()
    with access_checked(settings.data_dir), ExitStack() as locks:
        require_space(settings, settings.data_dir, store_need(settings))
        folders = [folder for folder in company_dirs(settings.data_dir) if _is_company(folder)]
        for folder in folders:
            locks.enter_context(folder.lock(settings.gather.lock_timeout))
        inputs = [(folder, *_rebuild_input(folder, "cikb rebuild --all")) for folder in folders]  # every raw document readable, or nothing changes
        embedder = load_embedder(settings.embed)
        chunked = [(folder, docs, manifest, chunk_documents(docs, settings, embedder)) for folder, docs, manifest in inputs]
        texts = [indexed_text(chunk) for *_, chunks in chunked for chunk in chunks]  # as gathers index them
        avg_len = (Bm25Encoder().average_length(texts) or 1.0) if texts else None  # one avg_len over the whole new collection
        staged: list[tuple[CompanyDir, Generation, IndexBatch, dict, list[RawDocument]]] = []
        for folder, docs, manifest, chunks in chunked:
            report(f"{folder.slug}: embedding {len(chunks)} chunks of {len(docs)} documents")
            generation, batch = stage(settings, folder, docs, _embedder_call(chunks, embedder, avg_len), _rebuilt_manifest(manifest, folder.slug, docs))
            staged.append((folder, generation, batch, manifest, docs))
        report(f"writing {len(texts)} points into an emptied store")
        # Unmarked before the store empties: readers meanwhile see commits in flight, not lost points.
        marks = {folder: folder.indexed_id() for folder in folders}
        for folder in folders:
            folder.indexed_file.unlink(missing_ok=True)
        try:
            store = open_empty_store(settings)
        except BaseException:
            for folder, mark in marks.items():  # a busy store: nothing changed after all
                if mark:
                    folder.mark_indexed(Generation(folder.generations_dir / mark))
            raise
        with store:
            write_all(store, [(folder, generation, batch) for folder, generation, batch, _, _ in staged])
    return [_summary(folder, manifest, docs, generation, batch, embedder, started) for folder, generation, batch, manifest, docs in staged]


def _is_company(folder: CompanyDir) -> bool:
    """A company to rebuild: a current generation, or damage a rebuild repairs (not a first gather in progress)."""
    return folder.exists() or folder.problem() is not None


def _rebuild_input(folder: CompanyDir, again: str | None = None) -> tuple[list[RawDocument], dict]:
    """The company's raw documents (checked) and the manifest they came with ({} when it is lost).

    ``again`` is the command to run once a damaged document is fixed (default: rebuild this company).
    """
    again = again or rebuild_command(folder.slug)
    source = folder.rebuild_source()
    if source is None:
        if folder.problem() is not None or folder.root.is_dir() and folder.indexed_file.exists():
            raise DamagedError(f"no raw document of {folder.slug!r} is left in {folder.root} to rebuild from: run `cikb forget {folder.slug}`, then gather it again")
        raise UnknownCompanyError(f"no company {folder.slug!r} in the knowledge base (see `cikb companies`)")
    documents = read_documents(source, repair=f"then run `{again}` again")
    for doc in documents:
        if doc.company != folder.slug:
            raise DamagedError(
                f"{source} holds a document of company {doc.company!r} ({doc.url}), not {folder.slug!r}: "
                f"move it to that company's raw documents or delete it, then run `{again}` again"
            )
    if not documents:
        raise DamagedError(f"{source} holds no raw document to rebuild {folder.slug!r} from: run `cikb forget {folder.slug}`, then gather it again")
    return documents, folder.source_manifest(source)


def _embedder_call(chunks: list[Chunk], embedder: DenseEmbedder, avg_len: float | None) -> Callable[[], IndexBatch]:
    return lambda: embed_chunks(chunks, embedder, avg_len)


def _rebuilt_manifest(previous: dict, slug: str, documents: list[RawDocument]) -> Callable[[IndexBatch], dict]:
    """The new generation's manifest: the previous one's company, gather time and sources, new counts and model."""

    def manifest(batch: IndexBatch) -> dict:
        company = previous.get("company") or {"name": slug, "slug": slug}
        return {
            **previous,
            "company": company,
            "gathered_at": previous.get("gathered_at") or max(doc.scraped_at for doc in documents).isoformat(),
            "documents": len(documents),
            "chunks": len(batch.chunks),
            "model": batch.model.model_dump(),
            "rebuilt_at": datetime.now(timezone.utc).isoformat(),
        }

    return manifest


def _summary(
    folder: CompanyDir, manifest: dict, documents: list[RawDocument], generation: Generation, batch: IndexBatch, embedder: DenseEmbedder, started: float
) -> RebuildSummary:
    return RebuildSummary(
        company=folder.slug,
        name=display_name(manifest, folder.slug),
        documents=len(documents),
        chunks=len(batch.chunks),
        generation=generation.id,
        model=embedder.description,
        seconds=round(monotonic() - started, 3),
    )
