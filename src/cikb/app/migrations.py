"""Forward-only named schema migrations for cikb's SQLite files (the LLM call log, the change history, the jobs).

    migrate(db, [("m001_calls", m001_calls), ...])   # the steps this database has not seen, in order

A module of its own: the change history, the jobs and the LLM call log share it, none loading the others.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import datetime, timezone

Migration = Callable[[sqlite3.Connection], None]


def migrate(db: sqlite3.Connection, migrations: list[tuple[str, Migration]]) -> list[str]:
    """Apply the migrations this database has not seen; return their names.

    Safe when several connections (threads or processes) open a new database at once: each step
    runs under SQLite's write lock (``BEGIN IMMEDIATE``) and is skipped if another connection
    recorded it while this one waited.
    """
    db.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    applied = []
    for name, step in migrations:
        if _migrated(db, name):  # the common case, read without the write lock
            continue
        db.execute("BEGIN IMMEDIATE")
        try:
            if not _migrated(db, name):
                step(db)
                db.execute("INSERT INTO _migrations VALUES (?, ?)", (name, datetime.now(timezone.utc).isoformat()))
                applied.append(name)
            db.commit()  # each step and its record commit together
        except BaseException:
            db.rollback()
            raise
    return applied


def _migrated(db: sqlite3.Connection, name: str) -> bool:
    return db.execute("SELECT 1 FROM _migrations WHERE name = ?", (name,)).fetchone() is not None
