"""Opening cikb's SQLite files (the vector cache, the jobs database, the change history) in WAL mode.

WAL lets readers go on while another process writes. SQLite's busy timeout does not cover the switch
to WAL itself: two processes opening a new file at once got "database is locked" (1 run in 20 of
tests/test_store_concurrency.py, two first gathers opening a new vector cache), so the switch waits
and tries again, as long as the connection's own timeout. A file or folder this user may not write is one
:class:`~cikb.core.errors.AccessDeniedError` line naming it (SQLite writes even to open a file: the switch to WAL, its
side files), not SQLite's "attempt to write a readonly database"; a full disk is one
:class:`~cikb.core.errors.NoSpaceError` line.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from pathlib import Path
from typing import Any

from cikb.core.errors import access_denied, is_no_space, no_space

FULL_BELOW_BYTES = 1_000_000  # free space under which SQLite's "disk I/O error" is taken for a full disk (a WAL needs more)


def connect_wal(path: Path, *, timeout: float, **options: Any) -> sqlite3.Connection:
    """A connection to ``path`` in WAL mode (``options`` go to :func:`sqlite3.connect`); closed again on failure."""
    try:
        db = sqlite3.connect(path, timeout=timeout, **options)
    except sqlite3.OperationalError as err:
        raise _refused(path, err) or err
    try:
        _switch_to_wal(db, patience_s=timeout)
    except BaseException as err:
        db.close()
        if isinstance(err, sqlite3.OperationalError):
            raise _refused(path, err) or err
        raise
    return db


def _refused(path: Path, err: sqlite3.OperationalError) -> Exception | None:
    """AccessDeniedError when SQLite failed because this user may not write the file or its folder, NoSpaceError
    when its disk is full, else None."""
    folder = Path(path).parent
    if is_no_space(err) or ("disk I/O error" in str(err) and _free_bytes(folder) < FULL_BELOW_BYTES):
        return no_space(path)  # creating the WAL's side files on a full disk is SQLite's "disk I/O error"
    writable = os.access(folder, os.W_OK | os.X_OK) and (not os.path.exists(path) or os.access(path, os.R_OK | os.W_OK))
    if writable or not any(s in str(err) for s in ("readonly", "unable to open")):
        return None
    return access_denied(path if os.path.exists(path) else folder, "read-only for this user", root=folder)


def _free_bytes(folder: Path) -> int:
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return FULL_BELOW_BYTES  # unknown: no claim of a full disk


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
