"""The embedded default: Qdrant Edge, the Qdrant engine in-process (``qdrant-edge-py``).

Nothing to start, real payload indexes, and a filtered hybrid query in a few
milliseconds at 100k points (``bench/store.py``). On disk, under the store path:

    <store>/edge/<collection>/        the shard (segments + write-ahead log)
    <store>/edge/<collection>.json    the collection record (model, BM25 avg_len)

One process at a time reads or writes the shard (issue 24). Qdrant Edge takes its write-ahead
log's lock only after it has loaded the segments, and a load the lock then refuses has already
rewritten segment flag files (``deleted/flags_a.dat`` and the payload indexes'), so a second process
merely trying to load garbles the first one's shard. cikb
therefore takes its own lock first, an flock on ``<collection>.lock`` beside the shard, and loads
the shard only while holding it; threads of one process queue on ``_session_lock`` before that.

Writers (a gather's commit, a rebuild, a forget) hold the store for their write alone. Readers
(``hold=False``) open it for each read, or each :meth:`EdgeStore.session`, and close it straight
after: milliseconds, so a commit never waits long and readers never see one half done. Whoever
finds the store busy waits up to ``lock_timeout`` seconds, saying so after one, then gets a LockedError.

Damaged files (truncated, garbled, unreadable) make qdrant_edge raise plain
exceptions, or panic (a ``BaseException``); either becomes one StoreDamagedError
naming the store and ``cikb rebuild --all``, or an AccessDeniedError when the
system refused access.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import logging
import os
import re
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import qdrant_edge as qe
from filelock import FileLock, Timeout
from cikb.store._base import (
    DENSE,
    INDEXED_FIELDS,
    SPARSE,
    REBUILD_ALL,
    CollectionRecord,
    Hit,
    QueryFilter,
    StoreDamagedError,
    StoredPoint,
    VectorStore,
    payload_chunk,
)

from cikb.core.errors import CikbError, LockedError, access_denied, is_no_space, no_space
from cikb.core.models import SparseVector

T = TypeVar("T")
log = logging.getLogger("cikb.store")
UPSERT_BATCH = 1_000
# Seconds a busy store is waited for silently; past them the wait is said in one line.
WAIT_NOTICE_S = 1.0
# Loading a shard writes into memory-mapped files (the dense vectors' next 32 MB chunk among them). On a disk
# with less free than that the write faults and the process dies of SIGBUS, with no message: measured on a
# tmpfs, `cikb ask` died so with 16 MB free and answered with 40 MB. So no shard is loaded with less free.
LOAD_HEADROOM = 48_000_000
# No HNSW graph (m=0): at the spec's volume (<= 100k chunks) an exact scan answers
# a filtered hybrid query in a few ms (bench/store.py), while building the graph
# took 72 s per optimize at 100k on 2 cores and bought nothing for per-company
# queries (a tenant's <= 5k points are scanned exactly anyway); exact search also
# gives the same results as qdrant-client (the parity test). The optimizer still
# turns full appendable segments into immutable, memory-mapped ones (6 s at 100k),
# which is what makes reopening fast: 0.2 s at 100k instead of 2 s.
NO_GRAPH = qe.HnswIndexConfig(m=0, ef_construct=100, full_scan_threshold=10_000, payload_m=0)

# One open EdgeStore per store directory and process at a time. The shard's WAL lock (an flock)
# already refuses a second open from another thread of this process, but a thread would poll it;
# `cikb gather --from-csv` runs gathers in threads, so they queue here for the store instead. It
# also keeps two threads from both creating the shard when there is none yet (no WAL lock to meet).
# Per directory, not per process: a read snapshot (copy_to) is a second store open beside the first.
_SESSIONS: dict[Path, threading.Lock] = {}
_SESSIONS_GUARD = threading.Lock()


def _session_lock(shard_dir: Path) -> threading.Lock:
    with _SESSIONS_GUARD:
        return _SESSIONS.setdefault(shard_dir.resolve(), threading.Lock())


def _busy(shard_dir: Path, waited: float = 0.0) -> str:
    waiting = f" (waited {waited:.0f} s; store.lock_timeout)" if waited >= 1 else ""
    return f"the knowledge base at {shard_dir} is open in another cikb process{waiting}; try again when it finishes"


def _guarded(method: Callable[..., T]) -> Callable[..., T]:
    """Run a shard operation in a :meth:`EdgeStore.session`, under :meth:`EdgeStore._guard`."""

    @functools.wraps(method)
    def guarded(self: EdgeStore, *args: Any, **kwargs: Any) -> T:
        with self.session(), self._guard():
            return method(self, *args, **kwargs)

    return guarded


class EdgeStore(VectorStore):
    """A :class:`VectorStore` on a Qdrant Edge shard."""

    mode = "embedded"

    def __init__(self, root: Path, collection: str, lock_timeout: float = 10.0, *, hold: bool = True) -> None:
        """Open the store under ``root``; ``hold=False`` (a reader) opens nothing until a read, and only for it."""
        super().__init__(collection)
        self.root = Path(root) / "edge"
        self.shard_dir = self.root / collection
        self.record_file = self.root / f"{collection}.json"
        self.lock_file = self.root / f"{collection}.lock"
        self.lock_timeout = lock_timeout
        self._shard: qe.EdgeShard | None = None
        self._dirty = False  # written since the last optimize
        self._wrote = False  # written since the shard was loaded: flushed on close (a reader's close writes nothing)
        self._counts: dict[str, int] | None = None  # the companies' point counts, read once per loaded state
        self._broken = False  # a read or write failed on damaged files: close without flushing
        self._depth = 0  # nested sessions in progress; the shard is open while > 0
        self._file_lock: FileLock | None = None
        self._session = _session_lock(self.shard_dir)
        self._in_session = False
        if hold:
            self._begin()

    @contextmanager
    def session(self) -> Iterator[None]:
        """The shard open, under the store's lock, for the block: its reads see one state of the store.

        Re-entrant; a store opened with ``hold=True`` is in one session until closed.
        """
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._begin()
        try:
            yield
        finally:
            self._end()

    def _begin(self) -> None:
        deadline = time.monotonic() + self.lock_timeout
        self._in_session = self._session.acquire(timeout=self.lock_timeout)
        if not self._in_session:
            raise LockedError(_busy(self.shard_dir, self.lock_timeout))
        try:
            self._file_lock = self._lock_store(deadline)
            # Another process may have written since the last session.
            self._broken, self._record, self._counts, self._wrote = False, None, None, False
            with self._guard():
                if self.shard_dir.is_dir():
                    self._check_space()
                    self._shard = self._load(deadline)
        except BaseException:
            self._release()
            raise
        self._depth = 1

    def _end(self) -> None:
        try:
            self._close_shard()  # still in the session: closing may optimize, which needs it
        finally:
            self._depth = 0
            self._release()

    def _release(self) -> None:
        if self._file_lock is not None:
            lock, self._file_lock = self._file_lock, None
            lock.release()
        self._end_session()

    def _check_space(self) -> None:
        """NoSpaceError, one line, where loading the shard could end in SIGBUS (LOAD_HEADROOM)."""
        if shutil.disk_usage(self.shard_dir).free < LOAD_HEADROOM:
            raise no_space(self.root.parent, LOAD_HEADROOM)

    def _lock_store(self, deadline: float) -> FileLock:
        """The store's own lock, waited for until ``deadline`` (one line once the wait passes WAIT_NOTICE_S)."""
        lock = FileLock(str(self.lock_file), thread_local=False)
        started = time.monotonic()
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            try:
                lock.acquire(timeout=max(0.0, min(WAIT_NOTICE_S, deadline - started)))
            except Timeout:
                if time.monotonic() >= deadline:
                    raise LockedError(_busy(self.shard_dir, time.monotonic() - started)) from None
                log.warning("the knowledge base at %s is busy (another cikb process is using it): waiting up to %.0f s",
                            self.shard_dir, deadline - started)
                lock.acquire(timeout=max(0.0, deadline - time.monotonic()))
        except Timeout:
            raise LockedError(_busy(self.shard_dir, time.monotonic() - started)) from None
        except PermissionError as err:
            raise access_denied(self.root.parent, err.strerror) from None
        return lock

    @property
    def location(self) -> str:
        return str(self.shard_dir)

    # -- shard lifecycle -----------------------------------------------------------------

    def _load(self, deadline: float) -> qe.EdgeShard:
        while True:
            try:
                return qe.EdgeShard.load(str(self.shard_dir))
            except Exception as err:  # qdrant_edge raises plain exceptions; the WAL lock says WouldBlock
                if "WouldBlock" not in str(err):
                    raise
                if time.monotonic() >= deadline:  # held by a process that does not take cikb's lock first
                    raise LockedError(_busy(self.shard_dir)) from None
                time.sleep(0.2)

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Damaged or unreadable files -> one StoreDamagedError (or AccessDeniedError) line, never a traceback.

        The engine's own panic report (and a Rust backtrace under RUST_BACKTRACE) goes to the
        process's stderr; it is silenced here, the panic's message is in the error line.
        """
        try:
            with _quiet_stderr():
                yield
        except (CikbError, KeyboardInterrupt, SystemExit, GeneratorExit):
            raise
        except BaseException as err:  # qdrant_edge raises plain Exceptions, and pyo3 PanicExceptions on corrupt files
            self._broken = True
            raise self._damaged(err) from None

    def _damaged(self, err: BaseException) -> CikbError:
        # The engine names every file by its full path: shown relative to the store, the cause fits on the line.
        detail = " ".join(str(err).replace(f"{self.shard_dir}/", "").split())[:300] or type(err).__name__
        if isinstance(err, PermissionError) or "Permission denied" in detail or "Operation not permitted" in detail:
            return access_denied(self.root.parent, detail)
        if is_no_space(err):  # a full disk is not damage: freeing space is the repair
            return no_space(self.root.parent)
        return StoreDamagedError(f"the embedded store {self.shard_dir} is damaged ({detail}): run `{REBUILD_ALL}` to rebuild it from the raw documents")

    @classmethod
    def discard(cls, root: Path, collection: str) -> None:
        """Remove a collection's files without opening them (a damaged store that ``cikb rebuild --all`` replaces)."""
        edge = Path(root) / "edge"
        try:
            if (edge / collection).is_dir():
                shutil.rmtree(edge / collection)
            (edge / f"{collection}.json").unlink(missing_ok=True)
        except PermissionError as err:
            raise access_denied(Path(root), err.strerror) from None

    def copy_to(self, root: Path) -> EdgeStore:
        """A copy of this store's files under ``root``, opened: a read snapshot no later write changes.

        Copied while this process holds the shard's lock, so no writer is half-way through;
        the copy has its own lock, so readers of the copy never block a writer of the original.
        """
        target = Path(root) / "edge"
        with self.session(), self._guard():
            if self._shard is not None:
                self.shard.flush()
            target.mkdir(parents=True, exist_ok=True)
            if self.shard_dir.is_dir():
                shutil.copytree(self.shard_dir, target / self.collection, copy_function=copy_keeping_holes)
            if self.record_file.is_file():
                shutil.copy2(self.record_file, target / self.record_file.name)
        return EdgeStore(Path(root), self.collection, lock_timeout=0)

    @property
    def shard(self) -> qe.EdgeShard:
        if self._shard is None:
            raise RuntimeError("the Edge shard is not open")
        return self._shard

    @_guarded
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
            raise StoreDamagedError(
                f"the embedded store {self.shard_dir} holds points but its record {self.record_file} is missing: "
                f"run `{REBUILD_ALL}` to rebuild the store from the raw documents"
            )
        self._drop_collection()

    @_guarded
    def _drop_collection(self) -> None:
        if self._shard is not None:
            self._shard.close()
            self._shard = None
        shutil.rmtree(self.shard_dir, ignore_errors=True)
        self.record_file.unlink(missing_ok=True)
        self._record = None

    def _read_record(self) -> CollectionRecord | None:
        with self.session():
            return self._read_record_file()

    def _read_record_file(self) -> CollectionRecord | None:
        if self._shard is None or not self.record_file.is_file():
            return None
        try:
            return CollectionRecord.from_json(json.loads(self.record_file.read_text(encoding="utf-8")))
        except PermissionError as err:
            raise access_denied(self.root.parent, err.strerror) from None
        except (ValueError, KeyError, TypeError) as err:  # garbled JSON or text, or not a record
            detail = " ".join(str(err).split())[:200]
            raise StoreDamagedError(
                f"the embedded store's record {self.record_file} is damaged ({type(err).__name__}: {detail}): "
                f"run `{REBUILD_ALL}` to rebuild the store from the raw documents"
            ) from None

    def _write_record(self, record: CollectionRecord) -> None:
        tmp = self.record_file.with_suffix(".json.tmp")
        with self.session(), self._guard():
            tmp.write_text(json.dumps(record.to_json(), indent=2), encoding="utf-8")
            os.replace(tmp, self.record_file)

    def optimize(self) -> None:
        """Seal full segments, merge small ones, vacuum deleted points (seconds at most; no graph to build)."""
        with self.session():
            if self._shard is not None:
                with self._guard():
                    self.shard.optimize()
                self._dirty, self._wrote = False, True

    def close(self) -> None:
        if self._depth:
            self._end()
        else:
            self._release()

    def _end_session(self) -> None:
        if getattr(self, "_in_session", False):
            self._in_session = False
            self._session.release()

    def __del__(self) -> None:
        self._end_session()  # a store dropped unclosed gives its turn back (its file lock goes with its descriptor)

    def _close_shard(self) -> None:
        if self._shard is None:
            return
        shard, self._shard = self._shard, None
        if self._broken:
            return  # its files are damaged: flushing could only fail again (or panic)
        self._shard = shard
        try:
            with self._guard():
                if self._dirty:  # leave the shard quick to load for the next process
                    self.optimize()
                if self._wrote:  # a reader's flush rewrote nothing it needs, at 0.05-0.3 s a close (10k-30k points)
                    shard.flush()
                shard.close()
        finally:
            self._shard = None

    def _after_write(self) -> None:
        with self._guard():
            self.shard.flush()  # durable now, not only in the WAL
        self._dirty = self._wrote = True
        self._counts = None

    # -- writes --------------------------------------------------------------------------

    @_guarded
    def _upsert_points(self, ids: list[str], dense: np.ndarray, sparse: list[SparseVector], payloads: list[dict[str, Any]]) -> None:
        for start in range(0, len(ids), UPSERT_BATCH):
            end = start + UPSERT_BATCH
            points = [
                qe.Point(pid, {DENSE: vec.tolist(), SPARSE: qe.SparseVector(sv.indices, sv.values)}, payload)
                for pid, vec, sv, payload in zip(ids[start:end], dense[start:end], sparse[start:end], payloads[start:end])
            ]
            self.shard.update(qe.UpdateOperation.upsert_points(points))

    @_guarded
    def _delete(self, company: str, keep_ids: list[str] | None) -> None:
        must_not = [qe.HasIdCondition(set(keep_ids))] if keep_ids else None
        self.shard.update(qe.UpdateOperation.delete_points_by_filter(qe.Filter(must=[_match("company", company)], must_not=must_not)))

    # -- reads ---------------------------------------------------------------------------

    @_guarded
    def _count(self, where: QueryFilter) -> int:
        return self.shard.count(qe.CountRequest(filter=_filter(where), exact=True))

    def _company_counts(self) -> dict[str, int]:
        # An exact facet reads every point (0.1 s at 3.5k): once per loaded state, not per search or enrich row.
        if self._counts is None or not self._depth:
            self._counts = self._facet_companies()
        return dict(self._counts)

    @_guarded
    def _facet_companies(self) -> dict[str, int]:
        facets = self.shard.facet(qe.FacetRequest(key="company", limit=1_000_000, exact=True))
        return {str(hit.value): hit.count for hit in facets}

    @_guarded
    def _retrieve(self, ids: list[str]) -> list[StoredPoint]:
        records = {str(r.id): r for r in self.shard.retrieve(ids, with_payload=True, with_vector=True)}
        return [_stored(pid, records[pid]) for pid in ids if pid in records]

    @_guarded
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
        results = [
            _check_vectors([_hit(p, with_dense=True) for p in points], str(self.shard_dir))
            for points in self.shard.query_batch(qe.QueryBatchRequest(queries))
        ]
        if not results[0] and score_threshold is not None:
            # Nothing passed the threshold: make sure that is the question, not vectors read from damaged files.
            points, _ = self.shard.scroll(qe.ScrollRequest(limit=1, filter=flt, with_payload=False, with_vector=[DENSE]))
            _check_vectors([Hit(id=str(p.id), score=0.0, payload={}, dense=list(p.vector[DENSE])) for p in points if p.vector], str(self.shard_dir))
        return results[0], results[1] if len(results) > 1 else []

    @_guarded
    def _dense(self, dense: np.ndarray, where: QueryFilter, limit: int, score_threshold: float | None) -> list[Hit]:
        request = qe.QueryRequest(
            limit=limit, query=qe.Query.Nearest(dense.tolist(), using=DENSE), filter=_filter(where), score_threshold=score_threshold, with_payload=True
        )
        return [_hit(p) for p in self.shard.query(request)]

    @_guarded
    def _sparse(self, sparse: SparseVector, where: QueryFilter, limit: int) -> list[Hit]:
        request = qe.QueryRequest(limit=limit, query=qe.Query.Nearest(_sparse(sparse), using=SPARSE), filter=_filter(where), with_payload=True)
        return [_hit(p) for p in self.shard.query(request)]


_quiet_lock = threading.Lock()
_quiet_users = 0  # shard calls in flight (any thread) while fd 2 points at the capture file
_saved_stderr: int | None = None
_capture: Any = None  # the temporary file fd 2 points at meanwhile
# What the engine writes when it panics: its report (the message is in our error line) and backtrace notes.
_ENGINE_REPORT = re.compile(rb"panicked at|^note: |^stack backtrace:|^\s+\d+: |^\s+at ")


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Point file descriptor 2 at a temporary file while any shard call runs (re-entrant, thread-safe).

    Afterwards what was written there goes to stderr after all, without the engine's panic report:
    another thread's progress line or warning is late by a shard call, never lost.
    """
    global _quiet_users, _saved_stderr, _capture
    with _quiet_lock:
        if _quiet_users == 0:
            try:
                sys.stderr.flush()
                capture = tempfile.TemporaryFile()
                saved = os.dup(2)
                os.dup2(capture.fileno(), 2)
                _saved_stderr, _capture = saved, capture
            except (OSError, ValueError, AttributeError):  # no stderr to quiet
                _saved_stderr = _capture = None
        _quiet_users += 1
    try:
        yield
    finally:
        with _quiet_lock:
            _quiet_users -= 1
            if _quiet_users == 0 and _saved_stderr is not None:
                _restore_stderr(_saved_stderr, _capture)
                _saved_stderr = _capture = None


def _restore_stderr(saved: int, capture: Any) -> None:
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.flush()  # what Python buffered meanwhile belongs to the capture too
    os.dup2(saved, 2)
    os.close(saved)
    with capture:
        capture.seek(0)
        kept = b"".join(line for line in capture.read().splitlines(keepends=True) if not _ENGINE_REPORT.search(line))
    if kept:
        with contextlib.suppress(OSError):
            os.write(2, kept)


def _check_vectors(hits: list[Hit], where: str) -> list[Hit]:
    """Stored dense vectors are unit length (cosine); anything else was read from damaged files."""
    for hit in hits:
        if hit.dense is not None:
            norm = float(np.linalg.norm(np.asarray(hit.dense, dtype=np.float64)))
            if not np.isfinite(norm) or abs(norm - 1.0) > 1e-3:
                raise StoreDamagedError(
                    f"the embedded store {where} is damaged (point {hit.id} has a dense vector of length {norm:.4g}, not 1): "
                    f"run `{REBUILD_ALL}` to rebuild it from the raw documents"
                )
    return hits


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


def copy_keeping_holes(src: str | os.PathLike[str], dst: str | os.PathLike[str], *, follow_symlinks: bool = True) -> object:
    """:func:`shutil.copy2` that keeps a sparse file's holes: the engine's memory-mapped files are mostly holes (a
    store of 4 MB on disk is 179 MB long), and writing them out in full filled a disk a snapshot fitted on."""
    with open(src, "rb") as source, open(dst, "wb") as target:
        size = os.fstat(source.fileno()).st_size
        regions = _data_regions(source.fileno(), size)
        if regions is None:  # a file system that cannot tell holes: every byte, as copy2 does
            shutil.copyfileobj(source, target)
        for start, end in regions or ():
            source.seek(start)
            target.seek(start)
            while start < end and (block := source.read(min(end - start, 1 << 20))):
                target.write(block)
                start += len(block)
        target.truncate(size)
    shutil.copystat(src, dst, follow_symlinks=follow_symlinks)
    return dst


def _data_regions(fd: int, size: int) -> list[tuple[int, int]] | None:
    """The (start, end) byte ranges of a file that hold data, by SEEK_DATA and SEEK_HOLE; None where unsupported."""
    regions, offset = [], 0
    while offset < size:
        try:
            start = os.lseek(fd, offset, os.SEEK_DATA)
        except OSError as err:
            if err.errno == errno.ENXIO:  # only a hole is left
                break
            return None
        offset = os.lseek(fd, start, os.SEEK_HOLE)
        regions.append((start, offset))
    return regions
