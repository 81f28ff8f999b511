"""Documents -> points: chunk, embed (dense + BM25) and write to the store (spec K, E, S).

A gather stages its index (chunks and vectors) in its generation's ``index/``
before anything current changes; :func:`commit` then makes the generation
current and writes its points; :func:`recover` finishes a commit that was
interrupted between the two (roll forward from the staged index).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from time import monotonic

import numpy as np
from cikb.chunk import chunk_document
from cikb.embed import Bm25Encoder, DenseEmbedder
from cikb.store import VectorStore, model_mismatch, open_store

from cikb.app.workspace import CompanyDir, Generation
from cikb.core.config import Settings
from cikb.core.errors import ModelMismatchError
from cikb.core.models import Chunk, ModelInfo, RawDocument, SparseVector

OnProgress = Callable[[str, int, int | None, str], None]  # stage, done, total, message

_CHUNKS = "chunks.jsonl"
_DENSE = "dense.npy"
_SPARSE = "sparse.jsonl"


@dataclass
class IndexBatch:
    """One company's chunks with their vectors, row-aligned."""

    chunks: list[Chunk]
    dense: np.ndarray
    sparse: list[SparseVector]
    bm25_avg_len: float
    model: ModelInfo
    chunks_per_second: float = 0.0


def check_store_model(settings: Settings, embedder: DenseEmbedder) -> float | None:
    """Refuse early when the collection holds another model's vectors; return its BM25 avg_len."""
    with open_store(settings) as store:
        if not store.count():
            return None  # an empty collection takes any model and a fresh avg_len
        problem = model_mismatch(store.model_info(), embedder.info)
        if problem:
            raise ModelMismatchError(problem)
        return store.bm25_avg_len()


def build_index(
    documents: Sequence[RawDocument],
    settings: Settings,
    embedder: DenseEmbedder,
    bm25_avg_len: float | None,
    on_progress: OnProgress | None = None,
) -> IndexBatch:
    """Chunk every document, then embed the chunks densely and as BM25 term weights."""
    report = on_progress or (lambda *args: None)
    chunks = [c for doc in documents for c in chunk_document(doc, embedder.tokenizer, settings.chunk)]
    texts = [c.text for c in chunks]
    report("chunk", len(chunks), len(chunks), f"{len(chunks)} chunks from {len(documents)} documents")
    started = monotonic()
    dense = embedder.embed_documents(texts, on_progress=lambda done, total: report("embed", done, total, ""))
    rate = len(chunks) / max(monotonic() - started, 1e-9)
    avg_len = bm25_avg_len or Bm25Encoder().average_length(texts) or 1.0
    sparse = Bm25Encoder(avg_len=avg_len).encode_documents(texts)
    report("embed", len(chunks), len(chunks), f"{len(chunks)} chunks embedded, {rate:.1f} chunks/s ({embedder.info.name})")
    return IndexBatch(chunks, dense, sparse, avg_len, embedder.info, rate)


def save_index(generation: Generation, batch: IndexBatch) -> None:
    """Stage the batch beside the generation's raw files so a commit can be replayed."""
    directory = generation.index_dir
    with open(directory / _CHUNKS, "w", encoding="utf-8") as handle:
        handle.writelines(c.model_dump_json() + "\n" for c in batch.chunks)
    with open(directory / _SPARSE, "w", encoding="utf-8") as handle:
        handle.writelines(s.model_dump_json() + "\n" for s in batch.sparse)
    np.save(directory / _DENSE, batch.dense.astype(np.float32))
    (directory / "meta.json").write_text(json.dumps({"bm25_avg_len": batch.bm25_avg_len, "model": batch.model.model_dump()}))


def load_index(generation: Generation) -> IndexBatch:
    directory = generation.index_dir
    chunks = [Chunk.model_validate_json(line) for line in (directory / _CHUNKS).read_text(encoding="utf-8").splitlines()]
    sparse = [SparseVector.model_validate_json(line) for line in (directory / _SPARSE).read_text(encoding="utf-8").splitlines()]
    meta = json.loads((directory / "meta.json").read_text())
    dense = np.load(directory / _DENSE)
    return IndexBatch(chunks, dense, sparse, meta["bm25_avg_len"], ModelInfo(**meta["model"]))


def commit(settings: Settings, company: CompanyDir, generation: Generation, batch: IndexBatch) -> int:
    """Make `generation` current, then `batch` (its staged index) the company's points; returns points written.

    Order matters: the raw swap is the commit point. If we die after it, `indexed`
    still names the old generation and :func:`recover` replays the staged index.
    """
    with open_store(settings) as store:  # opened first: a busy or unreachable store changes nothing
        company.swap_in(generation)
        _write_points(store, company.slug, batch)
    company.mark_indexed(generation)
    company.prune()
    return len(batch.chunks)


def recover(settings: Settings, company: CompanyDir) -> bool:
    """Finish an interrupted commit (raw swapped, points not yet written); True if one was finished."""
    current = company.current()
    if current is None or company.indexed_id() == current.id:
        company.prune()
        return False
    if (current.index_dir / _CHUNKS).is_file():
        batch = load_index(current)
        with open_store(settings) as store:
            _write_points(store, company.slug, batch)
    company.mark_indexed(current)
    company.prune()
    return True


def _write_points(store: VectorStore, slug: str, batch: IndexBatch) -> None:
    record = store.ensure_collection(batch.model, batch.bm25_avg_len)
    sparse = batch.sparse
    if record.bm25_avg_len and abs(record.bm25_avg_len - batch.bm25_avg_len) > 1e-9:
        # Another gather created the collection meanwhile: encode with the length it recorded.
        sparse = Bm25Encoder(avg_len=record.bm25_avg_len).encode_documents([c.text for c in batch.chunks])
    store.replace_company(slug, batch.chunks, batch.dense, sparse)
