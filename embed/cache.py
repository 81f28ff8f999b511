"""Vectors already computed, by content: a re-gather of unchanged text embeds nothing (issue 11, item 3).

    cache = VectorCache(settings.cache_dir / "vectors.sqlite", embedder.info)
    vectors, fresh = cache.embed(embedder, texts)   # only texts never seen with this model are embedded (fresh: which)

The key is sha256 of the model's identity (name, backend, weights, pooling, prefix...) and the
text, so another model or backend never reuses a vector. A vector depends on its text alone
(the backends embed each text independently of its batch), which is what makes a reused vector
the one a fresh embedding would give. One SQLite file serves every company: each write is one
transaction, so concurrent gathers and a gather killed mid-write leave it consistent. A cache
file found damaged, when it opens or later, is moved aside and started afresh (cikb.core.damage): it only
ever saves work.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from cikb.embed.dense import DenseEmbedder

from cikb.core.damage import is_damage, move_aside
from cikb.core.models import ModelInfo
from cikb.core.sqlite import connect_wal

_SCHEMA = "CREATE TABLE IF NOT EXISTS vectors (key BLOB PRIMARY KEY, vector BLOB NOT NULL)"
_LOOKUP_BATCH = 500  # keys per SELECT: under SQLite's bound on parameters


_OPENING = threading.Lock()


class VectorCache:
    """Dense vectors of texts under one model, kept in a SQLite file."""

    def __init__(self, path: Path, model: ModelInfo) -> None:
        self.path = path
        self.model = model
        self._model_key = model.model_dump_json().encode("utf-8") + b"\0"
        self._lock = threading.Lock()  # one connection, used from the gather's worker and main threads in turn
        path.parent.mkdir(parents=True, exist_ok=True)
        with _OPENING:  # the companies of one `gather --from-csv` open a new cache file at once
            try:
                self._db = self._connect()
            except sqlite3.DatabaseError as err:
                # Only a damaged file is moved aside. Moving a sound file aside on a lock error left another
                # connection of the process with the old file's -shm, which the new file's first connection
                # resets under it (a SIGBUS).
                if not is_damage(err, schema=True):
                    raise
                move_aside(path, err, "vector cache")
                self._db = self._connect()

    def _healed(self, err: sqlite3.DatabaseError) -> None:
        """Damage found while reading or writing (the caller holds the lock): a new empty file takes its place."""
        if not is_damage(err):
            raise err
        self._db.close()
        move_aside(self.path, err, "vector cache")
        self._db = self._connect()

    def _connect(self) -> sqlite3.Connection:
        # WAL: readers never wait for another gather's write.
        db = connect_wal(self.path, timeout=60, check_same_thread=False, isolation_level=None)
        db.execute(_SCHEMA)
        db.execute("SELECT count(*) FROM (SELECT 1 FROM vectors LIMIT 1)").fetchone()
        return db

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> VectorCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def key(self, text: str) -> bytes:
        return hashlib.sha256(self._model_key + text.encode("utf-8")).digest()

    def lookup(self, texts: Sequence[str]) -> list[np.ndarray | None]:
        """Each text's cached vector, or None."""
        keys = [self.key(t) for t in texts]
        found: dict[bytes, np.ndarray] = {}
        with self._lock:
            try:
                for start in range(0, len(keys), _LOOKUP_BATCH):
                    part = keys[start : start + _LOOKUP_BATCH]
                    marks = ",".join("?" * len(part))
                    for key, blob in self._db.execute(f"SELECT key, vector FROM vectors WHERE key IN ({marks})", part):
                        vector = np.frombuffer(blob, dtype=np.float32)
                        if vector.shape == (self.model.dim,):
                            found[key] = vector
            except sqlite3.DatabaseError as err:
                self._healed(err)  # nothing is cached any more: every text is embedded again
                return [None] * len(keys)
        return [found.get(k) for k in keys]

    def store(self, texts: Sequence[str], vectors: np.ndarray) -> None:
        """Remember each text's vector (one transaction)."""
        rows = [(self.key(t), np.ascontiguousarray(v, dtype=np.float32).tobytes()) for t, v in zip(texts, vectors)]
        if not rows:
            return
        with self._lock:
            try:
                self._insert(rows)
            except sqlite3.DatabaseError as err:
                self._healed(err)
                self._insert(rows)

    def _insert(self, rows: list[tuple[bytes, bytes]]) -> None:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.executemany("INSERT OR REPLACE INTO vectors (key, vector) VALUES (?, ?)", rows)
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def embed(self, embedder: DenseEmbedder, texts: Sequence[str], *, reuse: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """Vectors of ``texts`` (row-aligned), and which were embedded now (a bool per text); the rest came from the cache.

        The texts not cached are embedded in one call; ``reuse=False`` embeds every text (and
        refreshes the cache with the result).
        """
        cached = self.lookup(texts) if reuse else [None] * len(texts)
        fresh = np.array([vector is None for vector in cached], dtype=bool)
        vectors = np.zeros((len(texts), self.model.dim), dtype=np.float32)
        for i, vector in enumerate(cached):
            if vector is not None:
                vectors[i] = vector
        if fresh.any():
            missing = [texts[i] for i in np.flatnonzero(fresh)]
            vectors[fresh] = embedder.embed_documents(missing)
            self.store(missing, vectors[fresh])
        return vectors, fresh
