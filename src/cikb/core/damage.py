"""Derived SQLite files that heal themselves: a damaged cache or log is moved aside and started afresh.

The vector cache (``_cache/vectors.sqlite``) only saves work and the call log (``logs.db``) only records;
neither is the knowledge base. When one of them is damaged (bytes overwritten, a schema at odds with
its own migrations) it is renamed ``<name>.damaged-<UTC time>`` with its WAL and shared-memory files,
one warning says so, and a new empty file takes its place. Only the knowledge base's own data (raw
documents, generations, the store) calls for ``cikb rebuild``.

A file that is locked, read-only, on a full disk or unreadable for lack of permission is sound: it is
never moved aside (another connection may be using it).
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from pathlib import Path

log = logging.getLogger("cikb.cache")

_DAMAGED = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})


def is_damage(err: sqlite3.DatabaseError, *, schema: bool = False) -> bool:
    """Whether ``err`` says the file is damaged. With ``schema`` (raised while creating or migrating the
    file's own tables), a plain SQL error counts too: "index calls_created_at already exists" is a schema
    at odds with the migrations recorded beside it."""
    code = getattr(err, "sqlite_errorcode", None)
    return code in _DAMAGED or (schema and code == sqlite3.SQLITE_ERROR)


def move_aside(path: Path, err: BaseException, what: str) -> Path:
    """Rename the damaged ``path`` (and its -wal and -shm files) out of the way; one warning names both."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    for suffix in ("", "-wal", "-shm"):
        source = path.with_name(path.name + suffix)
        if source.exists():
            os.replace(source, target.with_name(target.name + suffix))
    log.warning("%s %s was damaged (%s): moved to %s, starting an empty one", what, path, err, target.name)
    return target
