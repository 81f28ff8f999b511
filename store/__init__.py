"""store stage: the knowledge base's points in one Qdrant collection (spec S1-S3, R1).

Public interface:

- :func:`open_store` — the store the settings name: Qdrant Edge in-process
  (``embedded``, the default), a Qdrant server or cluster by URL and API key
  (``server``), or qdrant-client's local mode (``local``, tests).
- :class:`VectorStore` — what every store does: ``ensure_collection``, ``upsert``,
  ``replace_company``, ``delete_company``, ``companies``, ``count``,
  ``hybrid_search`` (R1/R1a), ``dense_search``, ``sparse_search``, ``points``,
  ``model_info``, ``bm25_avg_len``, ``optimize``, ``session`` (reads that see one
  state of the store), ``close``.
- :class:`CollectionRecord` — the model and BM25 avg_len recorded with the collection.
- :class:`StoreUnavailableError` — the configured server cannot be reached (one line).
- :class:`StoreDamagedError` — the embedded store's files cannot be read (one line naming
  them and ``cikb rebuild --all``).
- :func:`open_empty_store` — the store with its collection dropped, damaged or not (rebuild).
"""

from __future__ import annotations

from cikb.store._base import (
    CollectionNotReadyError,
    CollectionRecord,
    StoreDamagedError,
    StoredPoint,
    StoreUnavailableError,
    VectorStore,
    model_mismatch,
)

from cikb.core.config import Settings
from cikb.core.errors import BadInputError


def open_store(settings: Settings, *, reader: bool = False) -> VectorStore:
    """Open (and for the embedded store, load from disk) the store ``settings.store`` describes.

    Close it when done (or use it as a context manager): the embedded store and
    the local mode lock their directory against other processes. A ``reader`` of the
    embedded store holds it only while each read (or :meth:`VectorStore.session`) runs,
    so a gather can commit between two reads.
    """
    cfg = settings.store
    if cfg.mode == "embedded":
        from cikb.store.edge import EdgeStore

        return EdgeStore(settings.store_path, cfg.collection, lock_timeout=cfg.lock_timeout, hold=not reader)
    from cikb.store.client import ClientStore

    if cfg.mode == "local":
        return ClientStore.local(settings.store_path / "local", cfg.collection)
    if not cfg.url:
        raise BadInputError("store mode 'server' needs a URL: set CIKB_STORE__URL (and CIKB_STORE__API_KEY)")
    return ClientStore.connect(cfg.url, cfg.api_key, cfg.collection, cfg.timeout, cfg.shard_number, cfg.replication_factor)


def open_empty_store(settings: Settings) -> VectorStore:
    """The configured store with its whole collection dropped, even when its files are damaged.

    For ``cikb rebuild --all``, which then writes every company again. Raises LockedError
    while another process has the embedded store open.
    """
    try:
        store = open_store(settings)
    except StoreDamagedError:
        if settings.store.mode != "embedded":
            raise
        from cikb.store.edge import EdgeStore

        EdgeStore.discard(settings.store_path, settings.store.collection)  # unreadable: nothing to keep
        store = open_store(settings)
    try:
        store.drop()
    except BaseException:
        store.close()
        raise
    return store


__all__ = [
    "CollectionNotReadyError",
    "CollectionRecord",
    "StoreDamagedError",
    "StoreUnavailableError",
    "StoredPoint",
    "VectorStore",
    "model_mismatch",
    "open_empty_store",
    "open_store",
]
