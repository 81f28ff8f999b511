"""Opening cikb's SQLite files (the vector cache, the jobs database, the change history) in WAL mode.

WAL lets readers go on while another process writes. SQLite's busy timeout does not cover the switch
to WAL itself: two processes opening a new file at once got "database is locked" (1 run in 20 of
tests/test_store_concurrency.py, two first gathers opening a new vector cache), so the switch waits
and tries again, as long as the connection's own timeout.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any


def connect_wal(path: Path, *, timeout: float, **options: Any) -> sqlite3.Connection:
    """A connection to ``path`` in WAL mode (``options`` go to :func:`sqlite3.connect`); closed again on failure."""
    db = sqlite3.connect(path, timeout=timeout, **options)
    try:
        _switch_to_wal(db, patience_s=timeout)
    except BaseException:
        db.close()
        raise
    return db


def _switch_to_wal(db: sqlite3.Connection, patience_s: float) -> None:
    deadline = time.monotonic() + patience_s
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or time.monotonic() >= deadline:
                raise
            time.sleep(0.05)
