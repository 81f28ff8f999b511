"""Documents -> points: chunk, embed (dense + BM25) and write to the store (spec K, E, S).

A gather (or a rebuild) stages its index (chunks and vectors) in its generation's
``index/`` before anything current changes (:func:`stage`); :func:`commit` then
makes the generation current and writes its points; :func:`recover` finishes a
commit that was interrupted between the two (roll forward from the staged index).
A staged index that cannot be read stops recovery with one DamagedError line
naming it and ``cikb rebuild <slug>``.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from time import monotonic
from typing import TypeVar

import numpy as np
from cikb.chunk import chunk_document, indexed_text
from cikb.embed import Bm25Encoder, DenseEmbedder, VectorCache
from cikb.store import VectorStore, open_store
from pydantic import BaseModel, ValidationError

from cikb.app.documents import document_filename, render_document, write_document
from cikb.app.workspace import CompanyDir, Generation, rebuild_command
from cikb.core.config import Settings
from cikb.core.errors import DamagedError, no_space
from cikb.core.models import Chunk, ModelInfo, RawDocument, SparseVector

OnProgress = Callable[[str, int, int | None, str], None]  # stage, done, total, message

_CHUNKS = "chunks.jsonl"
_DENSE = "dense.npy"
_SPARSE = "sparse.jsonl"
_META = "meta.json"
# The embedded store grows in steps, not point by point: its dense vectors take 32 MB chunks and each payload
# index a few MB (measured on a tmpfs: a second commit of 24 points took 43 MB). A write that meets a full disk
# half way through a memory-mapped step would end in SIGBUS, so a commit needs a step's worth free beforehand,
# plus its points a few times over (write-ahead log, segment, optimize).
STORE_HEADROOM = 64_000_000
POINT_COPIES = 4
M = TypeVar("M", bound=BaseModel)


@dataclass
class IndexBatch:
    """One company's chunks with their vectors, row-aligned."""

    chunks: list[Chunk]
    dense: np.ndarray
    sparse: list[SparseVector]
    bm25_avg_len: float
    model: ModelInfo
    chunks_per_second: float = 0.0
    embedded: int = -1  # chunks embedded now; the others came from the vector cache (-1: all of them)

    @property
    def reused(self) -> int:
        return len(self.chunks) - self.embedded if self.embedded >= 0 else 0


@dataclass
class DocumentIndex:
    """One document's chunks and dense vectors, made as soon as the document was cleaned."""

    chunks: list[Chunk]
    dense: np.ndarray
    embedded: int  # chunks embedded now; the others' vectors came from the vector cache


def index_documents(
    docs: Sequence[RawDocument], settings: Settings, embedder: DenseEmbedder, cache: VectorCache, seconds: dict[str, float], *, reuse: bool = True
) -> list[DocumentIndex]:
    """Chunk documents and give each chunk its dense vector, from the cache where ``reuse`` allows
    (the rest in one embedding call); the time spent is added to ``seconds["chunk"]`` and ``["embed"]``.

    A chunk's id depends on its document alone and its vector on its text alone, so documents
    indexed a few at a time, in any order, assemble into the batch :func:`build_index` makes of them all.
    """
    started = monotonic()
    chunked = [chunk_document(doc, embedder.tokenizer, settings.chunk) for doc in docs]
    embedding = monotonic()
    dense, fresh = cache.embed(embedder, [indexed_text(c) for chunks in chunked for c in chunks], reuse=reuse)
    seconds["chunk"] = seconds.get("chunk", 0.0) + embedding - started
    seconds["embed"] = seconds.get("embed", 0.0) + monotonic() - embedding
    parts, row = [], 0
    for chunks in chunked:
        rows = slice(row, row + len(chunks))
        parts.append(DocumentIndex(chunks, dense[rows], int(fresh[rows].sum())))
        row += len(chunks)
    return parts


def assemble_index(parts: Sequence[DocumentIndex], embedder: DenseEmbedder, bm25_avg_len: float | None) -> IndexBatch:
    """The batch of documents indexed one by one (in document order): BM25 weights are made here, over all chunks."""
    chunks = [c for part in parts for c in part.chunks]
    dense = np.concatenate([part.dense for part in parts]) if parts else np.zeros((0, embedder.info.dim), dtype=np.float32)
    avg_len, sparse = _bm25([indexed_text(c) for c in chunks], bm25_avg_len)
    return IndexBatch(chunks, dense, sparse, avg_len, embedder.info, embedded=sum(part.embedded for part in parts))


def check_store_model(settings: Settings, embedder: DenseEmbedder) -> float | None:
    """Refuse early when the collection holds another model's vectors; return its BM25 avg_len."""
    return check_store(settings, embedder)[0]


def check_store(settings: Settings, embedder: DenseEmbedder, company: str | None = None) -> tuple[float | None, int]:
    """:func:`check_store_model`, and how many points ``company`` has in the store (0 when not given)."""
    with open_store(settings) as store:
        if not store.count():
            return None, 0  # an empty collection takes any model and a fresh avg_len
        store.check_model(embedder.info)
        return store.bm25_avg_len(), store.count(company) if company else 0


def build_index(
    documents: Sequence[RawDocument],
    settings: Settings,
    embedder: DenseEmbedder,
    bm25_avg_len: float | None,
    on_progress: OnProgress | None = None,
) -> IndexBatch:
    """Chunk every document, then embed the chunks densely and as BM25 term weights."""
    report = on_progress or (lambda *args: None)
    chunks = chunk_documents(documents, settings, embedder)
    report("chunk", len(chunks), len(chunks), f"{len(chunks)} chunks from {len(documents)} documents")
    return embed_chunks(chunks, embedder, bm25_avg_len, on_progress)


def chunk_documents(documents: Sequence[RawDocument], settings: Settings, embedder: DenseEmbedder) -> list[Chunk]:
    return [c for doc in documents for c in chunk_document(doc, embedder.tokenizer, settings.chunk)]


def embed_chunks(chunks: list[Chunk], embedder: DenseEmbedder, bm25_avg_len: float | None, on_progress: OnProgress | None = None) -> IndexBatch:
    """Dense vectors and BM25 term weights of ``chunks`` (avg_len computed from them when not given).

    Each chunk is indexed with its context header (page title, section path: :func:`cikb.chunk.indexed_text`).
    """
    report = on_progress or (lambda *args: None)
    texts = [indexed_text(c) for c in chunks]
    started = monotonic()
    dense = embedder.embed_documents(texts, on_progress=lambda done, total: report("embed", done, total, ""))
    rate = len(chunks) / max(monotonic() - started, 1e-9)
    avg_len, sparse = _bm25(texts, bm25_avg_len)
    report("embed", len(chunks), len(chunks), f"{len(chunks)} chunks embedded, {rate:.1f} chunks/s ({embedder.info.name})")
    return IndexBatch(chunks, dense, sparse, avg_len, embedder.info, rate)


def _bm25(texts: Sequence[str], bm25_avg_len: float | None) -> tuple[float, list[SparseVector]]:
    """BM25 term weights of chunks' indexed texts, with the collection's avg_len or, for a new one, theirs."""
    avg_len = bm25_avg_len or Bm25Encoder().average_length(texts) or 1.0
    return avg_len, Bm25Encoder(avg_len=avg_len).encode_documents(texts)


def save_index(generation: Generation, batch: IndexBatch) -> None:
    """Stage the batch beside the generation's raw files so a commit can be replayed."""
    directory = generation.index_dir
    with open(directory / _CHUNKS, "w", encoding="utf-8") as handle:
        handle.writelines(c.model_dump_json() + "\n" for c in batch.chunks)
    with open(directory / _SPARSE, "w", encoding="utf-8") as handle:
        handle.writelines(s.model_dump_json() + "\n" for s in batch.sparse)
    np.save(directory / _DENSE, batch.dense.astype(np.float32))
    (directory / _META).write_text(json.dumps({"bm25_avg_len": batch.bm25_avg_len, "model": batch.model.model_dump()}))


def load_index(generation: Generation) -> IndexBatch:
    """The staged index, checked whole; DamagedError naming the file and ``cikb rebuild <slug>`` when it is not."""
    directory = generation.index_dir
    repair = f"run `{rebuild_command(generation.slug)}` to chunk and embed its raw documents again"
    for name in (_CHUNKS, _SPARSE, _DENSE, _META):
        if not (directory / name).is_file():
            raise DamagedError(f"the staged index {directory} has no {name}, so the interrupted commit of {generation.slug!r} cannot be finished: {repair}")
    current = _CHUNKS
    try:
        chunks = _jsonl(directory / _CHUNKS, Chunk)
        current = _SPARSE
        sparse = _jsonl(directory / _SPARSE, SparseVector)
        current = _META
        meta = json.loads((directory / _META).read_text(encoding="utf-8"))
        model, avg_len = ModelInfo(**meta["model"]), float(meta["bm25_avg_len"])
        current = _DENSE
        dense = np.load(directory / _DENSE, allow_pickle=False)
    except (ValueError, UnicodeDecodeError, KeyError, TypeError, EOFError) as err:  # garbled or truncated (pydantic, json, numpy)
        detail = " ".join(str(err).split())[:200]
        raise DamagedError(f"the staged index file {directory / current} is damaged ({type(err).__name__}: {detail}): {repair}") from None
    problem = _batch_problem(generation.slug, chunks, dense, sparse, model)
    if problem:
        raise DamagedError(f"the staged index {directory} is damaged ({problem}): {repair}")
    return IndexBatch(chunks, dense, sparse, avg_len, model)


def _jsonl(path: Path, model: type[M]) -> list[M]:
    items = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            items.append(model.model_validate_json(line))
        except ValidationError as err:
            raise ValueError(f"line {number}: {err.errors()[0]['msg']}") from None
    return items


def _batch_problem(slug: str, chunks: list[Chunk], dense: np.ndarray, sparse: list[SparseVector], model: ModelInfo) -> str | None:
    if not chunks:
        return "no chunks"
    if dense.ndim != 2 or dense.shape != (len(chunks), model.dim):
        return f"{len(chunks)} chunks but dense vectors of shape {dense.shape}, not ({len(chunks)}, {model.dim})"
    if len(sparse) != len(chunks):
        return f"{len(chunks)} chunks but {len(sparse)} sparse vectors"
    if not np.all(np.isfinite(dense)):
        return "dense vectors that are not finite numbers"
    others = {c.metadata.company for c in chunks} - {slug}
    if others:
        return f"chunks of other companies: {sorted(others)}"
    return None


def stage(
    settings: Settings,
    company: CompanyDir,
    documents: Sequence[RawDocument],
    batch_for: Callable[[], IndexBatch],
    manifest_for: Callable[[IndexBatch], dict],
    write_also: Callable[[Path], None] | None = None,
) -> tuple[Generation, IndexBatch]:
    """Write a new, sealed generation (documents, staged index, manifest) beside the current one;
    ``write_also`` writes more files into its ``index/`` before it is sealed.

    Nothing current changes: :func:`commit` makes it current. On failure the half-written
    generation is left for the next prune.
    """
    require_space(settings, company.root, sum(len(doc.content.encode()) + 1_000 for doc in documents) + store_need(settings))
    generation = company.new_generation()
    for doc in documents:
        write_document(generation.raw_dir, doc)
    batch = batch_for()
    require_space(settings, generation.index_dir, 2 * points_bytes(batch) + store_need(settings, batch))
    save_index(generation, batch)
    if write_also is not None:
        write_also(generation.index_dir)
    company.seal(generation, manifest_for(batch))
    return generation, batch


def unchanged(company: CompanyDir, documents: Sequence[RawDocument], batch: IndexBatch, manifest: dict, points: int) -> Generation | None:
    """The current generation when it already is what a new one would be, else None: indexed, with ``points``
    (the company's in the store) its chunks, the same company and model in its manifest, byte for byte the
    same documents, and the same chunks (ids, texts, payloads) with the same dense and sparse vectors.

    A re-gather that found nothing new then writes nothing (issue 25, item 4): writing the store and a
    generation identical to the current one took 0.35-0.6 s of a --max-age re-gather's ~2 s.
    """
    current = company.current()
    if current is None or company.indexed_id() != current.id or points != len(batch.chunks):
        return None
    try:
        old = current.manifest()
        if (old.get("company"), old.get("model")) != (manifest["company"], manifest["model"]) or not _same_documents(current.raw_dir, documents):
            return None
        return current if _same_points(load_index(current), batch) else None
    except (DamagedError, OSError, UnicodeDecodeError):
        return None  # what cannot be read is written anew


def _same_documents(raw_dir: Path, documents: Sequence[RawDocument]) -> bool:
    files = {path.name: path.read_text(encoding="utf-8") for path in raw_dir.glob("*.md")}
    return files == {document_filename(doc): render_document(doc) for doc in documents}


def _same_points(old: IndexBatch, new: IndexBatch) -> bool:
    if (old.model, old.bm25_avg_len, len(old.chunks)) != (new.model, new.bm25_avg_len, len(new.chunks)):
        return False
    rows = {chunk.id: row for row, chunk in enumerate(old.chunks)}
    for row, chunk in enumerate(new.chunks):
        was = rows.get(chunk.id)
        if was is None or old.chunks[was] != chunk or old.sparse[was] != new.sparse[row] or not np.array_equal(old.dense[was], new.dense[row]):
            return False
    return True


def commit(settings: Settings, company: CompanyDir, generation: Generation, batch: IndexBatch) -> int:
    """Make `generation` current, then `batch` (its staged index) the company's points; returns points written.

    Order matters: the raw swap is the commit point. If we die after it, `indexed`
    still names the old generation and :func:`recover` replays the staged index.
    """
    require_space(settings, settings.store_path, store_need(settings, batch))  # never swap in what the store cannot take
    with open_store(settings) as store:  # opened first: a busy or unreachable store changes nothing
        company.swap_in(generation)
        _write_points(store, company.slug, batch)
        company.mark_indexed(generation)  # under the store's lock: no reader sees the points ahead of the mark
    company.prune()
    return len(batch.chunks)


def points_bytes(batch: IndexBatch) -> int:
    """About how many bytes the batch's points take: vectors, sparse weights and payload."""
    return batch.dense.nbytes + sum(12 * len(s.indices) for s in batch.sparse) + sum(len(c.model_dump_json()) for c in batch.chunks)


def store_need(settings: Settings, batch: IndexBatch | None = None) -> int:
    """Bytes to have free before writing ``batch`` (or any commit) into the store; a server's disk is not ours to check."""
    if settings.store.mode == "server":
        return 0
    return STORE_HEADROOM + (POINT_COPIES * points_bytes(batch) if batch is not None else 0)


def require_space(settings: Settings, path: Path, need: int) -> None:
    """NoSpaceError (one line, about how much is needed) when the disk under ``path`` has less than ``need`` bytes free."""
    probe = next((p for p in (path, *path.parents) if p.exists()), None)
    if need and probe is not None and shutil.disk_usage(probe).free < need:
        raise no_space(path, need)


def recover(settings: Settings, company: CompanyDir) -> bool:
    """Finish an interrupted commit (raw swapped, points not yet written); True if one was finished.

    Raises DamagedError (naming the file and ``cikb rebuild <slug>``) when the staged index
    cannot be read: the company is left as it is, never marked indexed without its points.
    """
    current = company.current()
    if current is None or company.indexed_id() == current.id:
        company.prune()
        return False
    batch = load_index(current)
    require_space(settings, settings.store_path, store_need(settings, batch))
    with open_store(settings) as store:
        _write_points(store, company.slug, batch)
        company.mark_indexed(current)
    company.prune()
    return True


def write_all(store: VectorStore, staged: Sequence[tuple[CompanyDir, Generation, IndexBatch]]) -> None:
    """Make each staged generation current and write its points (``cikb rebuild --all``, into an emptied store).

    Every company is swapped first: if we die after that, each is a commit in flight that
    the next command rolls forward from its staged index.
    """
    for company, generation, _ in staged:
        company.swap_in(generation)
    for company, generation, batch in staged:
        _write_points(store, company.slug, batch)
        company.mark_indexed(generation)
    for company, _, _ in staged:
        company.prune()


def _write_points(store: VectorStore, slug: str, batch: IndexBatch) -> None:
    record = store.ensure_collection(batch.model, batch.bm25_avg_len)
    sparse = batch.sparse
    if record.bm25_avg_len and abs(record.bm25_avg_len - batch.bm25_avg_len) > 1e-9:
        # Another gather created the collection meanwhile: encode with the length it recorded.
        sparse = Bm25Encoder(avg_len=record.bm25_avg_len).encode_documents([indexed_text(c) for c in batch.chunks])
    store.replace_company(slug, batch.chunks, batch.dense, sparse)
