"""The scale path: qdrant-client, talking to a Qdrant server or cluster by URL and API key.

qdrant-client's local mode (``QdrantClient(path=...)``) speaks the same API in
pure Python; it stands in for a server in tests (the parity test). It is far
too slow to be the default store at 100k points (``bench/store.py``).

The collection record (model, BM25 avg_len) lives in the collection's own
metadata, so every client of a shared server sees the same one.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import numpy as np
from cikb.store._base import (
    DENSE,
    INDEXED_FIELDS,
    SPARSE,
    CollectionRecord,
    Hit,
    QueryFilter,
    StoredPoint,
    StoreUnavailableError,
    VectorStore,
    payload_chunk,
)
from qdrant_client import QdrantClient
from qdrant_client import models as qm
from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

from cikb.core.errors import LockedError
from cikb.core.models import SparseVector

RECORD_KEY = "cikb"
UPSERT_BATCH = 256


class ClientStore(VectorStore):
    """A :class:`VectorStore` through qdrant-client (mode ``server`` or ``local``)."""

    def __init__(self, client: QdrantClient, collection: str, mode: str, where: str, shard_number: int | None = None, replication_factor: int | None = None) -> None:
        super().__init__(collection)
        self.client = client
        self.mode = mode
        self.where = where
        self.shard_number = shard_number
        self.replication_factor = replication_factor

    @property
    def location(self) -> str:
        return f"{self.where} (collection {self.collection!r})"

    @classmethod
    def connect(
        cls, url: str, api_key: str | None, collection: str, timeout: float, shard_number: int | None = None, replication_factor: int | None = None
    ) -> ClientStore:
        """A store on a Qdrant server or cluster; fails with one clear line when it cannot be reached."""
        # Our probe below reports an unreachable server in one line; qdrant-client's own
        # version check would first print a warning about it.
        client = QdrantClient(url=url, api_key=api_key, timeout=max(1, round(timeout)), check_compatibility=False)
        store = cls(client, collection, "server", url, shard_number, replication_factor)
        with store._guard():
            store.client.get_collections()  # the client connects lazily: check now, not mid-gather
        return store

    @classmethod
    def local(cls, path: Path, collection: str) -> ClientStore:
        """A store in qdrant-client's local mode (pure Python, for tests and as a server stand-in)."""
        path.mkdir(parents=True, exist_ok=True)
        try:
            client = QdrantClient(path=str(path))
        except RuntimeError as err:  # portalocker: another client holds the folder
            raise LockedError(f"the local Qdrant store at {path} is open in another process") from err
        return cls(client, collection, "local", str(path))

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Turn transport and auth failures into one-line StoreUnavailableErrors."""
        try:
            yield
        except UnexpectedResponse as err:
            if err.status_code in (401, 403):
                raise StoreUnavailableError(f"the Qdrant server at {self.where} refused the API key (HTTP {err.status_code}); check CIKB_STORE__API_KEY") from None
            raise StoreUnavailableError(f"the Qdrant server at {self.where} answered HTTP {err.status_code}: {_first_line(err.content)}") from None
        except (ResponseHandlingException, OSError) as err:
            reason = _first_line(str(getattr(err, "source", None) or err))
            raise StoreUnavailableError(f"cannot reach the Qdrant server at {self.where} ({reason}); check CIKB_STORE__URL or start it (see qdrant/README.md)") from None

    # -- collection ----------------------------------------------------------------------

    def _read_record(self) -> CollectionRecord | None:
        with self._guard():
            if not self.client.collection_exists(self.collection):
                return None
            metadata = self.client.get_collection(self.collection).config.metadata or {}
        return CollectionRecord.from_json(metadata[RECORD_KEY]) if RECORD_KEY in metadata else None

    def _write_record(self, record: CollectionRecord) -> None:
        with self._guard():
            self.client.update_collection(self.collection, metadata={RECORD_KEY: record.to_json()})

    def _create_collection(self, dim: int) -> None:
        with self._guard():
            if self.client.collection_exists(self.collection):
                # A collection without our record: not ours to fill.
                raise StoreUnavailableError(f"a collection {self.collection!r} exists at {self.where} but was not made by cikb; choose another CIKB_STORE__COLLECTION")
            self.client.create_collection(
                self.collection,
                vectors_config={DENSE: qm.VectorParams(size=dim, distance=qm.Distance.COSINE)},
                sparse_vectors_config={SPARSE: qm.SparseVectorParams(modifier=qm.Modifier.IDF)},
                shard_number=self.shard_number,
                replication_factor=self.replication_factor,
            )
            if self.mode == "server":  # local mode ignores payload indexes (and warns)
                self.client.create_payload_index(self.collection, "company", qm.KeywordIndexParams(type=qm.KeywordIndexType.KEYWORD, is_tenant=True))
                for name in INDEXED_FIELDS[1:]:
                    self.client.create_payload_index(self.collection, name, qm.PayloadSchemaType.KEYWORD)

    def _drop_collection(self) -> None:
        with self._guard():
            self.client.delete_collection(self.collection)
        self._record = None

    def close(self) -> None:
        self.client.close()

    # -- writes --------------------------------------------------------------------------

    def _upsert_points(self, ids: list[str], dense: np.ndarray, sparse: list[SparseVector], payloads: list[dict[str, Any]]) -> None:
        with self._guard():
            for start in range(0, len(ids), UPSERT_BATCH):
                end = start + UPSERT_BATCH
                points = [
                    qm.PointStruct(id=pid, vector={DENSE: vec.tolist(), SPARSE: _sparse(sv)}, payload=payload)
                    for pid, vec, sv, payload in zip(ids[start:end], dense[start:end], sparse[start:end], payloads[start:end])
                ]
                self.client.upsert(self.collection, points, wait=True)

    def _delete(self, company: str, keep_ids: list[str] | None) -> None:
        must_not: list[Any] | None = [qm.HasIdCondition(has_id=list(keep_ids))] if keep_ids else None
        selector = qm.FilterSelector(filter=qm.Filter(must=[_match("company", company)], must_not=must_not))
        with self._guard():
            self.client.delete(self.collection, points_selector=selector, wait=True)

    # -- reads ---------------------------------------------------------------------------

    def _count(self, where: QueryFilter) -> int:
        with self._guard():
            return self.client.count(self.collection, count_filter=_filter(where), exact=True).count

    def _company_counts(self) -> dict[str, int]:
        with self._guard():
            facets = self.client.facet(self.collection, key="company", limit=1_000_000, exact=True)
        return {str(hit.value): hit.count for hit in facets.hits}

    def _retrieve(self, ids: list[str]) -> list[StoredPoint]:
        with self._guard():
            records = {str(r.id): r for r in self.client.retrieve(self.collection, ids, with_payload=True, with_vectors=True)}
        return [_stored(pid, records[pid]) for pid in ids if pid in records]

    def _prefetched(
        self, dense: np.ndarray, sparse: SparseVector, where: QueryFilter, prefetch_limit: int, score_threshold: float | None
    ) -> tuple[list[Hit], list[Hit]]:
        flt = _filter(where)
        requests = [
            qm.QueryRequest(
                query=dense.tolist(), using=DENSE, filter=flt, limit=prefetch_limit, score_threshold=score_threshold, with_payload=True, with_vector=[DENSE]
            )
        ]
        if sparse.indices:
            requests.append(qm.QueryRequest(query=_sparse(sparse), using=SPARSE, filter=flt, limit=prefetch_limit, with_payload=True, with_vector=[DENSE]))
        with self._guard():
            responses = self.client.query_batch_points(self.collection, requests)
        results = [[_hit(p, with_dense=True) for p in response.points] for response in responses]
        return results[0], results[1] if len(results) > 1 else []

    def _dense(self, dense: np.ndarray, where: QueryFilter, limit: int, score_threshold: float | None) -> list[Hit]:
        with self._guard():
            response = self.client.query_points(
                self.collection, query=dense.tolist(), using=DENSE, query_filter=_filter(where), limit=limit, score_threshold=score_threshold, with_payload=True
            )
        return [_hit(p) for p in response.points]

    def _sparse(self, sparse: SparseVector, where: QueryFilter, limit: int) -> list[Hit]:
        with self._guard():
            response = self.client.query_points(self.collection, query=_sparse(sparse), using=SPARSE, query_filter=_filter(where), limit=limit, with_payload=True)
        return [_hit(p) for p in response.points]


def _first_line(text: object) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    lines = str(text).strip().splitlines()
    return lines[0][:200] if lines else "no details"


def _match(key: str, value: str) -> qm.FieldCondition:
    return qm.FieldCondition(key=key, match=qm.MatchValue(value=value))


def _filter(where: QueryFilter) -> qm.Filter | None:
    if where.empty:
        return None
    must: list[Any] = []
    if where.company is not None:
        must.append(_match("company", where.company))
    if where.source_types:
        must.append(qm.FieldCondition(key="source_type", match=qm.MatchAny(any=list(where.source_types))))
    return qm.Filter(must=must)


def _sparse(vector: SparseVector) -> qm.SparseVector:
    return qm.SparseVector(indices=vector.indices, values=vector.values)


def _hit(point: qm.ScoredPoint, with_dense: bool = False) -> Hit:
    dense = point.vector.get(DENSE) if with_dense and isinstance(point.vector, dict) else None
    return Hit(id=str(point.id), score=float(point.score), payload=point.payload or {}, dense=dense)


def _stored(point_id: str, record: qm.Record) -> StoredPoint:
    vectors = record.vector if isinstance(record.vector, dict) else {}
    sparse = vectors[SPARSE]
    return StoredPoint(
        chunk=payload_chunk(point_id, record.payload or {}),
        dense=list(vectors[DENSE]),
        sparse=SparseVector(indices=list(sparse.indices), values=list(sparse.values)),
    )
