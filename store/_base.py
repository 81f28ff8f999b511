"""What every store does the same way: the collection's facts, the model check, and R1's fusion policy.

A backend (Qdrant Edge in-process, or qdrant-client for a server / its local
mode) implements a handful of primitives (``_upsert_points``, ``_prefetched``...);
:class:`VectorStore` turns them into the public interface, so both paths build
the same collection, run the same queries and post-process results identically.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Iterable, Sequence

import numpy as np

from cikb.core.errors import CikbError, DamagedError, ModelMismatchError
from cikb.core.models import Chunk, ChunkMetadata, ModelInfo, ScoredChunk, SparseVector
from cikb.store.fusion import fuse

DENSE = "dense"
SPARSE = "sparse"
# Payload fields with a keyword index (spec S1); `company` is the tenant key.
INDEXED_FIELDS = ("company", "source_type")
RECORD_SCHEMA = 1
# ModelInfo fields that decide whether two vectors are comparable. backend is not one:
# ONNX and torch fp32 give the same vectors (cosine 1.0000); the weights' precision is
# (see _precision).
MODEL_IDENTITY = ("name", "dim", "pooling", "normalized", "query_prefix")
# Fused scores closer than this count as a tie (Edge scores in float32, qdrant-client in
# float64); ties are broken by the dense cosine, then the id, so every store orders alike.
SCORE_TIE = 1e-7


class StoreUnavailableError(CikbError):
    """The configured Qdrant cannot be reached or refused us."""


class CollectionNotReadyError(CikbError):
    """The collection has no recorded model yet: nothing was ever stored."""


class StoreDamagedError(DamagedError):
    """The store's files cannot be read; `cikb rebuild --all` rebuilds it from the raw documents."""


REBUILD_ALL = "cikb rebuild --all"


@dataclass(frozen=True)
class CollectionRecord:
    """What the collection records about how its vectors were made (spec E2, E3)."""

    model: ModelInfo
    bm25_avg_len: float | None = None
    created_at: str = field(default_factory=lambda: datetime.now(timezone.utc).isoformat(timespec="seconds"))
    schema: int = RECORD_SCHEMA

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": self.schema,
            "model": self.model.model_dump(mode="json"),
            "bm25_avg_len": self.bm25_avg_len,
            "created_at": self.created_at,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CollectionRecord:
        return cls(
            model=ModelInfo.model_validate(data["model"]),
            bm25_avg_len=data.get("bm25_avg_len"),
            created_at=data.get("created_at", ""),
            schema=data.get("schema", RECORD_SCHEMA),
        )


@dataclass(frozen=True)
class Hit:
    """One point as a backend returned it, before it becomes a ScoredChunk."""

    id: str
    score: float
    payload: dict[str, Any]
    dense: list[float] | None = None


@dataclass(frozen=True)
class StoredPoint:
    """A point read back whole: its chunk and both vectors (for idempotency checks)."""

    chunk: Chunk
    dense: list[float]
    sparse: SparseVector


@dataclass(frozen=True)
class QueryFilter:
    """The payload filter of a query: one company (the tenant) and/or some source types."""

    company: str | None = None
    source_types: tuple[str, ...] | None = None

    @classmethod
    def of(cls, company: str | None, source_types: Sequence[str] | None) -> QueryFilter:
        """The filter of a search call's ``company`` and ``source_types`` arguments (no source types: any)."""
        return cls(company=company, source_types=tuple(source_types) if source_types else None)

    @property
    def empty(self) -> bool:
        return self.company is None and not self.source_types


def _precision(variant: str) -> str:
    # "onnx-fp32" and "torch-fp32" are the same weights; "onnx-int8" is not.
    return variant.rsplit("-", 1)[-1]


def model_mismatch(stored: ModelInfo, current: ModelInfo) -> str | None:
    """Why vectors of ``current`` cannot join a collection of ``stored`` vectors, or None."""
    diffs = [f"{name} {getattr(stored, name)!r} != {getattr(current, name)!r}" for name in MODEL_IDENTITY if getattr(stored, name) != getattr(current, name)]
    if _precision(stored.variant) != _precision(current.variant):
        diffs.append(f"variant {stored.variant!r} != {current.variant!r}")
    if not diffs:
        return None
    return (
        f"the knowledge base was built with {stored.name} ({stored.variant}, {stored.dim}-d) "
        f"but the model in use is {current.name} ({current.variant}, {current.dim}-d): {'; '.join(diffs)}. "
        f"Use the same model, or run `{REBUILD_ALL}` to embed every company again with this one."
    )


def chunk_payload(chunk: Chunk) -> dict[str, Any]:
    """A point's payload: the chunk's text and metadata, flat, so `company` and `source_type` are indexable."""
    meta = chunk.metadata.model_dump(mode="json")
    return {"text": chunk.text, "token_count": chunk.token_count, **meta}


def payload_chunk(point_id: str, payload: dict[str, Any]) -> Chunk:
    """Rebuild the Chunk a payload was made from."""
    meta = {name: payload[name] for name in ChunkMetadata.model_fields if name in payload}
    return Chunk(id=point_id, text=payload["text"], token_count=payload["token_count"], metadata=ChunkMetadata.model_validate(meta))


def cosine(query: np.ndarray, vector: Sequence[float] | None) -> float | None:
    if vector is None:
        return None
    v = np.asarray(vector, dtype=np.float64)
    norm = float(np.linalg.norm(query) * np.linalg.norm(v))
    return float(query @ v / norm) if norm > 0 else 0.0


def as_query_vector(dense: Sequence[float] | np.ndarray) -> np.ndarray:
    vector = np.asarray(dense, dtype=np.float64).reshape(-1)
    if not np.all(np.isfinite(vector)) or not np.any(vector):
        raise ValueError("the dense query vector must be finite and non-zero")
    return vector


class VectorStore(ABC):
    """The knowledge base's points: one collection, dense + BM25 sparse vectors, one tenant per company.

    Open one with :func:`store.open_store`. Call :meth:`ensure_collection` before
    writing; reads need only an existing collection.
    """

    mode: str = ""

    def __init__(self, collection: str) -> None:
        self.collection = collection
        self._record: CollectionRecord | None = None

    # -- collection and model ------------------------------------------------------------

    def ensure_collection(self, info: ModelInfo, bm25_avg_len: float | None = None) -> CollectionRecord:
        """Create the collection for ``info``'s vectors, or check the existing one was built with it.

        Records the model and the BM25 ``avg_len`` used to encode documents. An
        existing ``avg_len`` wins (documents already stored were encoded with it),
        except in an empty collection, which takes the new model and ``avg_len``.
        Returns the record in force: encode documents with its ``bm25_avg_len``.

        Raises ModelMismatchError when the collection holds another model's vectors.
        """
        record = self.record()
        if record is not None and self._count(QueryFilter()) == 0:
            self._drop_collection()  # empty: start over with the model in use
            record = None
        if record is None:
            record = CollectionRecord(model=info, bm25_avg_len=bm25_avg_len)
            self._create_collection(info.dim)
            self._write_record(record)
        else:
            self.check_model(info)
            if record.bm25_avg_len is None and bm25_avg_len is not None:
                record = CollectionRecord(model=record.model, bm25_avg_len=bm25_avg_len, created_at=record.created_at)
                self._write_record(record)
        self._record = record
        return record

    def check_model(self, info: ModelInfo) -> None:
        """Raise ModelMismatchError, naming the store, when its vectors come from another model than ``info``."""
        record = self.record()
        problem = model_mismatch(record.model, info) if record is not None else None
        if problem:
            raise ModelMismatchError(f"{self.location}: {problem}")

    @property
    def location(self) -> str:
        """Where the points live, for messages (a directory, or a server's URL and collection)."""
        return f"collection {self.collection!r}"

    def drop(self) -> None:
        """Delete the whole collection, every company's points (``cikb rebuild --all`` refills it)."""
        self._drop_collection()
        self._record = None

    def record(self) -> CollectionRecord | None:
        """The collection's record (model, BM25 avg_len), or None when there is no collection yet."""
        if self._record is None:
            self._record = self._read_record()
        return self._record

    def model_info(self) -> ModelInfo | None:
        """The model the stored vectors were made with."""
        record = self.record()
        return record.model if record else None

    def bm25_avg_len(self) -> float | None:
        """The BM25 avg_len the stored sparse vectors were encoded with."""
        record = self.record()
        return record.bm25_avg_len if record else None

    def _require_record(self) -> CollectionRecord:
        record = self.record()
        if record is None:
            raise CollectionNotReadyError(f"the collection {self.collection!r} does not exist yet: gather a company first")
        return record

    # -- writes --------------------------------------------------------------------------

    def upsert(self, chunks: Sequence[Chunk], dense: np.ndarray, sparse: Sequence[SparseVector]) -> None:
        """Insert or overwrite points (id = chunk id, so identical content gives identical points)."""
        if not chunks:
            return
        record = self._require_record()
        matrix = np.asarray(dense, dtype=np.float32)
        if matrix.ndim != 2 or matrix.shape[0] != len(chunks) or len(sparse) != len(chunks):
            raise ValueError(f"need one dense and one sparse vector per chunk: {len(chunks)} chunks, dense {matrix.shape}, {len(sparse)} sparse")
        if matrix.shape[1] != record.model.dim:
            raise ModelMismatchError(f"dense vectors are {matrix.shape[1]}-d but the collection holds {record.model.dim}-d vectors of {record.model.name}")
        self._upsert_points([c.id for c in chunks], matrix, list(sparse), [chunk_payload(c) for c in chunks])
        self._after_write()

    def replace_company(self, slug: str, chunks: Sequence[Chunk], dense: np.ndarray, sparse: Sequence[SparseVector]) -> int:
        """Make ``chunks`` the company's whole content: upsert them, then delete its other points.

        Upserting first means an interrupted replace leaves the previous points
        in place. Returns how many old points were removed.
        """
        others = {c.metadata.company for c in chunks} - {slug}
        if others:
            raise ValueError(f"replace_company({slug!r}) got chunks of other companies: {sorted(others)}")
        self.upsert(chunks, dense, sparse)
        keep = [c.id for c in chunks]
        before = self._count(QueryFilter(company=slug))
        self._delete(slug, keep_ids=keep)
        self._after_write()
        self.optimize()  # one company's gather is the natural unit of work to tidy up after
        return before - len(set(keep))

    def delete_company(self, slug: str) -> int:
        """Delete exactly the company's points (spec S3); returns how many there were."""
        if self.record() is None:
            return 0
        count = self._count(QueryFilter(company=slug))
        if count:
            self._delete(slug, keep_ids=None)
            self._after_write()
            self.optimize()
        return count

    # -- reads ---------------------------------------------------------------------------

    def count(self, company: str | None = None) -> int:
        """Points in the collection, or of one company."""
        if self.record() is None:
            return 0
        return self._count(QueryFilter(company=company))

    def companies(self) -> dict[str, int]:
        """Each company slug with its number of points, sorted by slug."""
        if self.record() is None:
            return {}
        # An exact facet can still list a company whose points were all just deleted.
        return {slug: n for slug, n in sorted(self._company_counts().items()) if n > 0}

    def points(self, ids: Iterable[str]) -> list[StoredPoint]:
        """Points read back whole (chunk, dense and sparse vectors), in the order asked; missing ids skipped."""
        self._require_record()
        return self._retrieve(list(ids))

    def hybrid_search(
        self,
        dense: Sequence[float] | np.ndarray,
        sparse: SparseVector,
        company: str | None = None,
        source_types: Sequence[str] | None = None,
        prefetch_limit: int = 20,
        rrf_k: int = 60,
        limit: int = 10,
        score_threshold: float | None = 0.3,
        fusion: str = "rrf",
        weights: tuple[float, float] = (1.0, 1.0),
    ) -> list[ScoredChunk]:
        """R1: dense top-``prefetch_limit`` (cosine >= ``score_threshold``) and sparse top-``prefetch_limit``, fused.

        ``fusion`` (see :mod:`cikb.store.fusion`), with ``weights`` = (dense, BM25):
        ``rrf``, score = sum over the two lists of w / (``rrf_k`` + rank), rank
        from 1 (Cormack et al.; with equal weights Qdrant's ``Rrf(k=rrf_k + 1)``);
        ``dbsf``, Qdrant's distribution-based score fusion (each list's scores
        normalised by its mean +- 3 standard deviations, weighted, summed). Both
        lists are fetched in one batch and fused here, so every store fuses alike.

        R1a: the threshold is a cosine bound on the dense side: it filters the
        dense prefetch, so only chunks at or above it get the dense list's
        votes; BM25 candidates keep their own votes (an answer is often a
        lexical match the dense model scores low). When no chunk of the filter
        reaches the threshold, nothing is related and the result is empty (R3).
        The fused score is never compared with the threshold. ``dense_score``
        carries each chunk's cosine.
        """
        self._require_record()
        query = as_query_vector(dense)
        where = QueryFilter.of(company, source_types)
        dense_hits, sparse_hits = self._prefetched(query, sparse, where, prefetch_limit, score_threshold)
        if score_threshold is not None and not dense_hits:
            return []  # the dense prefetch came back empty: nothing passes the threshold
        lists = [_in_order(dense_hits), _in_order(sparse_hits)]
        fused = fuse(fusion, [[(hit.id, hit.score) for hit in hits] for hits in lists], rrf_k, weights)
        hits = {hit.id: hit for hits in lists for hit in hits}
        scored = [(hits[point], score, cosine(query, hits[point].dense)) for point, score in fused.items()]
        scored.sort(key=lambda item: (-round(item[1] / SCORE_TIE), -(item[2] if item[2] is not None else -math.inf), item[0].id))
        return [
            ScoredChunk(chunk=payload_chunk(hit.id, hit.payload), score=score, dense_score=cos, rank=rank)
            for rank, (hit, score, cos) in enumerate(scored[:limit], start=1)
        ]

    def dense_search(
        self,
        dense: Sequence[float] | np.ndarray,
        company: str | None = None,
        source_types: Sequence[str] | None = None,
        limit: int = 10,
        score_threshold: float | None = None,
    ) -> list[ScoredChunk]:
        """Dense retriever alone: the nearest chunks by cosine (score = dense_score = cosine)."""
        self._require_record()
        query = as_query_vector(dense)
        hits = self._dense(query, QueryFilter.of(company, source_types), limit, score_threshold)
        return _ranked(hits, dense_scores=True)

    def sparse_search(
        self,
        sparse: SparseVector,
        company: str | None = None,
        source_types: Sequence[str] | None = None,
        limit: int = 10,
    ) -> list[ScoredChunk]:
        """BM25 retriever alone (score = BM25 with the collection's IDF)."""
        self._require_record()
        if not sparse.indices:
            return []
        return _ranked(self._sparse(sparse, QueryFilter.of(company, source_types), limit), dense_scores=False)

    # -- lifecycle -----------------------------------------------------------------------

    def optimize(self) -> None:
        """Tidy the storage after writes (the embedded store; a server optimizes by itself).

        Called by replace_company, delete_company and, after plain upserts, close.
        """

    def close(self) -> None:
        """Flush and release the store; the object is unusable afterwards."""

    @contextmanager
    def session(self) -> Iterator[None]:
        """Reads in the block see one state of the store (the embedded store holds its lock meanwhile)."""
        yield

    def __enter__(self) -> VectorStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _after_write(self) -> None:
        """Make the last write durable (a backend hook)."""

    # -- backend primitives --------------------------------------------------------------

    @abstractmethod
    def _read_record(self) -> CollectionRecord | None: ...

    @abstractmethod
    def _write_record(self, record: CollectionRecord) -> None: ...

    @abstractmethod
    def _create_collection(self, dim: int) -> None: ...

    @abstractmethod
    def _drop_collection(self) -> None: ...

    @abstractmethod
    def _upsert_points(self, ids: list[str], dense: np.ndarray, sparse: list[SparseVector], payloads: list[dict[str, Any]]) -> None: ...

    @abstractmethod
    def _delete(self, company: str, keep_ids: list[str] | None) -> None: ...

    @abstractmethod
    def _count(self, where: QueryFilter) -> int: ...

    @abstractmethod
    def _company_counts(self) -> dict[str, int]: ...

    @abstractmethod
    def _retrieve(self, ids: list[str]) -> list[StoredPoint]: ...

    @abstractmethod
    def _prefetched(
        self, dense: np.ndarray, sparse: SparseVector, where: QueryFilter, prefetch_limit: int, score_threshold: float | None
    ) -> tuple[list[Hit], list[Hit]]:
        """R1's two candidate lists, best first, in one request: the dense top-``prefetch_limit`` with cosine >=
        ``score_threshold``, and the BM25 top-``prefetch_limit`` (none when ``sparse`` is empty); every hit with
        its payload and dense vector."""

    @abstractmethod
    def _dense(self, dense: np.ndarray, where: QueryFilter, limit: int, score_threshold: float | None) -> list[Hit]: ...

    @abstractmethod
    def _sparse(self, sparse: SparseVector, where: QueryFilter, limit: int) -> list[Hit]: ...


def _in_order(hits: list[Hit]) -> list[Hit]:
    """A candidate list best first, exact ties by id, so every engine hands fusion the same ranks."""
    return sorted(hits, key=lambda h: (-round(h.score / SCORE_TIE), h.id))


def _ranked(hits: list[Hit], dense_scores: bool) -> list[ScoredChunk]:
    # Deterministic ties, as in hybrid_search.
    hits = sorted(hits, key=lambda h: (-round(h.score / SCORE_TIE), h.id))
    return [
        ScoredChunk(chunk=payload_chunk(h.id, h.payload), score=h.score, dense_score=h.score if dense_scores else None, rank=rank)
        for rank, h in enumerate(hits, start=1)
    ]
