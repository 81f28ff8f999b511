"""Expected errors: the CLI prints their message as one line, never a traceback."""

import errno
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager


class CikbError(Exception):
    """Base of every error a user can cause or fix (bad input, missing model, busy lock...)."""

    exit_code = 2


class BadInputError(CikbError):
    """The user's input cannot be used as given."""


class ConfigError(CikbError):
    """The configuration (``cikb.toml``, a ``CIKB_`` variable) cannot be used: where, and why."""


class GatherFailedError(CikbError):
    """A gather produced nothing; the previous knowledge base is untouched."""

    exit_code = 1


class LockedError(CikbError):
    """Another process holds the company's lock."""

    exit_code = 3


class ModelMismatchError(CikbError):
    """The collection was filled by another embedding model than the one in use."""


class UnknownCompanyError(CikbError):
    """The knowledge base holds nothing for that company."""


class UnknownJobError(BadInputError):
    """No enrichment job has that id."""


class DamagedError(CikbError):
    """A file of the knowledge base cannot be used as it is (truncated, garbled, missing, a broken link).

    The message names the path and the command that repairs it, e.g. `cikb rebuild acme-corp`.
    """

    exit_code = 4


class AccessDeniedError(CikbError):
    """The operating system refused cikb access to a path of the knowledge base."""

    exit_code = 4


def access_denied(path: object, detail: object = "permission denied", root: object | None = None) -> AccessDeniedError:
    """One line naming the path the system refused, and how to give cikb access again (to ``root``, default the path)."""
    fix = root if root is not None else path
    return AccessDeniedError(
        f"cannot access {path} ({detail}): give this user read and write access to {fix} "
        f"(`chmod -R u+rwX {fix}`, and `chattr -R -i {fix}` if it is immutable), then run the command again"
    )


class NoSpaceError(CikbError):
    """The disk under the knowledge base is full: freeing space is the whole repair, nothing is damaged."""

    exit_code = 5


NO_SPACE_ERRNOS = (errno.ENOSPC, errno.EDQUOT)


def no_space(path: object, need_bytes: int | None = None) -> NoSpaceError:
    """One line naming where space ran out and, when known, about how much the command needs."""
    need = f" (need about {max(1, -(-need_bytes // 1_000_000))} MB)" if need_bytes else ""
    return NoSpaceError(f"no space left on {path}{need}: free some space there, then run the command again")


def is_no_space(err: BaseException) -> bool:
    """A full disk or quota, as the OS, SQLite or the store engine (whose errors are text) reports it."""
    if isinstance(err, OSError) and err.errno in NO_SPACE_ERRNOS:
        return True
    text = str(err)
    return "database or disk is full" in text if isinstance(err, sqlite3.Error) else "No space left on device" in text or "os error 28" in text


@contextmanager
def access_checked(root: object | None = None) -> Iterator[None]:
    """A PermissionError inside becomes an AccessDeniedError naming the path the system refused (fix: ``root``);
    a full disk becomes a NoSpaceError naming the file (or ``root``)."""
    try:
        yield
    except PermissionError as err:
        path = err.filename2 or err.filename or root or "a file of the knowledge base"
        raise access_denied(path, err.strerror or err, root) from None
    except (OSError, sqlite3.Error) as err:
        if not is_no_space(err):
            raise
        raise no_space(getattr(err, "filename", None) or root or "the knowledge base's disk") from None
