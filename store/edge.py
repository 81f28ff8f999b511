"""The embedded default: Qdrant Edge, the Qdrant engine in-process (``qdrant-edge-py``).

Nothing to start, real payload indexes, and a filtered hybrid query in a few
milliseconds at 100k points (``bench/store.py``). On disk, under the store path:

    <store>/edge/<collection>/        the shard (segments + write-ahead log)
    <store>/edge/<collection>.json    the collection record (model, BM25 avg_len)

The shard's write-ahead log holds an exclusive lock: a second process that opens
the store waits up to ``lock_timeout`` seconds, then gets a LockedError.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np
import qdrant_edge as qe
from cikb.store._base import (
    DENSE,
    INDEXED_FIELDS,
    SPARSE,
    CollectionNotReadyError,
    CollectionRecord,
    Hit,
    QueryFilter,
    StoredPoint,
    VectorStore,
    payload_chunk,
)

from cikb.core.errors import LockedError
from cikb.core.models import SparseVector

UPSERT_BATCH = 1_000
# No HNSW graph (m=0): at the spec's volume (<= 100k chunks) an exact scan answers
# a filtered hybrid query in a few ms (bench/store.py), while building the graph
# took 72 s per optimize at 100k on 2 cores and bought nothing for per-company
# queries (a tenant's <= 5k points are scanned exactly anyway); exact search also
# gives the same results as qdrant-client (the parity test). The optimizer still
# turns full appendable segments into immutable, memory-mapped ones (6 s at 100k),
# which is what makes reopening fast: 0.2 s at 100k instead of 2 s.
NO_GRAPH = qe.HnswIndexConfig(m=0, ef_construct=100, full_scan_threshold=10_000, payload_m=0)


class EdgeStore(VectorStore):
    """A :class:`VectorStore` on a Qdrant Edge shard."""

    mode = "embedded"

    def __init__(self, root: Path, collection: str, lock_timeout: float = 10.0) -> None:
        super().__init__(collection)
        self.root = Path(root) / "edge"
        self.shard_dir = self.root / collection
        self.record_file = self.root / f"{collection}.json"
        self.lock_timeout = lock_timeout
        self._shard: qe.EdgeShard | None = None
        self._dirty = False  # written since the last optimize
        if self.shard_dir.is_dir():
            self._shard = self._load()

    # -- shard lifecycle -----------------------------------------------------------------

    def _load(self) -> qe.EdgeShard:
        deadline = time.monotonic() + self.lock_timeout
        while True:
            try:
                return qe.EdgeShard.load(str(self.shard_dir))
            except Exception as err:  # qdrant_edge raises plain exceptions; the WAL lock says WouldBlock
                if "WouldBlock" not in str(err):
                    raise
                if time.monotonic() >= deadline:
                    raise LockedError(f"the knowledge base at {self.shard_dir} is open in another cikb process; try again when it finishes") from None
                time.sleep(0.2)

    @property
    def shard(self) -> qe.EdgeShard:
        if self._shard is None:
            raise RuntimeError("the Edge shard is not open")
        return self._shard

    def _create_collection(self, dim: int) -> None:
        config = qe.EdgeConfig(
            vectors={DENSE: qe.EdgeVectorParams(size=dim, distance=qe.Distance.Cosine)},
            sparse_vectors={SPARSE: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
            hnsw_config=NO_GRAPH,
        )
        self.root.mkdir(parents=True, exist_ok=True)
        self._discard_unrecorded_shard()
        self._shard = qe.EdgeShard.create(str(self.shard_dir), config)
        # `company` is the tenant: Qdrant co-locates each tenant's points.
        self.shard.update(qe.UpdateOperation.create_field_index("company", qe.KeywordIndexParams(is_tenant=True)))
        for name in INDEXED_FIELDS[1:]:
            self.shard.update(qe.UpdateOperation.create_field_index(name, qe.KeywordIndexParams()))
        self.shard.flush()

    def _discard_unrecorded_shard(self) -> None:
        """A shard without a record is left by a crash between create and record: empty, so safe to remove."""
        if self._shard is None:
            return
        if self._count(QueryFilter()) > 0:
            raise CollectionNotReadyError(
                f"{self.shard_dir} holds points but its record {self.record_file.name} is missing: "
                "restore the file, or remove the directory and gather again"
            )
        self._drop_collection()

    def _drop_collection(self) -> None:
        if self._shard is not None:
            self._shard.close()
            self._shard = None
        shutil.rmtree(self.shard_dir, ignore_errors=True)
        self.record_file.unlink(missing_ok=True)
        self._record = None

    def _read_record(self) -> CollectionRecord | None:
        if self._shard is None or not self.record_file.is_file():
            return None
        return CollectionRecord.from_json(json.loads(self.record_file.read_text(encoding="utf-8")))

    def _write_record(self, record: CollectionRecord) -> None:
        tmp = self.record_file.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(record.to_json(), indent=2), encoding="utf-8")
        os.replace(tmp, self.record_file)

    def optimize(self) -> None:
        """Seal full segments, merge small ones, vacuum deleted points (seconds at most; no graph to build)."""
        if self._shard is not None:
            self.shard.optimize()
            self._dirty = False

    def close(self) -> None:
        if self._shard is not None:
            if self._dirty:  # leave the shard quick to load for the next process
                self.optimize()
            self._shard.flush()
            self._shard.close()
            self._shard = None

    def _after_write(self) -> None:
        self.shard.flush()  # durable now, not only in the WAL
        self._dirty = True

    # -- writes --------------------------------------------------------------------------

    def _upsert_points(self, ids: list[str], dense: np.ndarray, sparse: list[SparseVector], payloads: list[dict[str, Any]]) -> None:
        for start in range(0, len(ids), UPSERT_BATCH):
            end = start + UPSERT_BATCH
            points = [
                qe.Point(pid, {DENSE: vec.tolist(), SPARSE: qe.SparseVector(sv.indices, sv.values)}, payload)
                for pid, vec, sv, payload in zip(ids[start:end], dense[start:end], sparse[start:end], payloads[start:end])
            ]
            self.shard.update(qe.UpdateOperation.upsert_points(points))

    def _delete(self, company: str, keep_ids: list[str] | None) -> None:
        must_not = [qe.HasIdCondition(set(keep_ids))] if keep_ids else None
        self.shard.update(qe.UpdateOperation.delete_points_by_filter(qe.Filter(must=[_match("company", company)], must_not=must_not)))

    # -- reads ---------------------------------------------------------------------------

    def _count(self, where: QueryFilter) -> int:
        return self.shard.count(qe.CountRequest(filter=_filter(where), exact=True))

    def _company_counts(self) -> dict[str, int]:
        facets = self.shard.facet(qe.FacetRequest(key="company", limit=1_000_000, exact=True))
        return {str(hit.value): hit.count for hit in facets}

    def _retrieve(self, ids: list[str]) -> list[StoredPoint]:
        records = {str(r.id): r for r in self.shard.retrieve(ids, with_payload=True, with_vector=True)}
        return [_stored(pid, records[pid]) for pid in ids if pid in records]

    def _prefetched(
        self, dense: np.ndarray, sparse: SparseVector, where: QueryFilter, prefetch_limit: int, score_threshold: float | None
    ) -> tuple[list[Hit], list[Hit]]:
        flt = _filter(where)
        queries = [
            qe.QueryRequest(
                limit=prefetch_limit, query=qe.Query.Nearest(dense.tolist(), using=DENSE), filter=flt,
                score_threshold=score_threshold, with_payload=True, with_vector=[DENSE],
            )
        ]
        if sparse.indices:
            queries.append(
                qe.QueryRequest(limit=prefetch_limit, query=qe.Query.Nearest(_sparse(sparse), using=SPARSE), filter=flt, with_payload=True, with_vector=[DENSE])
            )
        results = [[_hit(p, with_dense=True) for p in points] for points in self.shard.query_batch(qe.QueryBatchRequest(queries))]
        return results[0], results[1] if len(results) > 1 else []

    def _dense(self, dense: np.ndarray, where: QueryFilter, limit: int, score_threshold: float | None) -> list[Hit]:
        request = qe.QueryRequest(
            limit=limit, query=qe.Query.Nearest(dense.tolist(), using=DENSE), filter=_filter(where), score_threshold=score_threshold, with_payload=True
        )
        return [_hit(p) for p in self.shard.query(request)]

    def _sparse(self, sparse: SparseVector, where: QueryFilter, limit: int) -> list[Hit]:
        request = qe.QueryRequest(limit=limit, query=qe.Query.Nearest(_sparse(sparse), using=SPARSE), filter=_filter(where), with_payload=True)
        return [_hit(p) for p in self.shard.query(request)]


def _match(key: str, value: str) -> qe.FieldCondition:
    return qe.FieldCondition(key, match=qe.MatchValue(value))


def _filter(where: QueryFilter) -> qe.Filter | None:
    if where.empty:
        return None
    must: list[Any] = []
    if where.company is not None:
        must.append(_match("company", where.company))
    if where.source_types:
        must.append(qe.FieldCondition("source_type", match=qe.MatchAny(list(where.source_types))))
    return qe.Filter(must=must)


def _sparse(vector: SparseVector) -> qe.SparseVector:
    return qe.SparseVector(vector.indices, vector.values)


def _hit(point: qe.ScoredPoint, with_dense: bool = False) -> Hit:
    dense = point.vector.get(DENSE) if with_dense and point.vector else None
    return Hit(id=str(point.id), score=float(point.score), payload=point.payload or {}, dense=dense)


def _stored(point_id: str, record: qe.Record) -> StoredPoint:
    sparse = record.vector[SPARSE]
    return StoredPoint(
        chunk=payload_chunk(point_id, record.payload or {}),
        dense=list(record.vector[DENSE]),
        sparse=SparseVector(indices=list(sparse.indices), values=[float(v) for v in sparse.values]),
    )
