"""The CSV a user enriches: read strictly, identified by a hash of its bytes, written atomically."""

from __future__ import annotations

import codecs
import csv
import hashlib
import io
import itertools
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from cikb.core.errors import BadInputError

# A cell may be long (a company's description, notes pasted from a page): Python's csv refuses one over 128 KiB as
# malformed. The file's own size is the bound that matters.
csv.field_size_limit(max(csv.field_size_limit(), 2**31 - 1))

_IDENTITY_NAMES = ("company", "company name", "name", "organisation", "organization", "org")
_WEBSITE_NAMES = ("website", "web site", "homepage", "home page", "url", "domain", "site")
# OWASP's CSV injection advice: a cell starting with one of these is run as a formula by spreadsheets...
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# Excel in many European locales writes ";" between cells (a decimal comma takes ","); a tab-separated export too.
_OTHER_DELIMITERS = (";", "\t")
# ...unless it is a plain number ("-12", "+3.5", "1e-3"), which a spreadsheet reads as the number it is.
_PLAIN_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


@dataclass(frozen=True)
class TableHeader:
    """A CSV's header and the sha256 of its bytes: what a run needs before it reads any row."""

    path: Path
    columns: list[str]
    sha256: str

    def find_column(self, name: str) -> str | None:
        """The header's spelling of ``name`` (case-insensitive), or None."""
        wanted = name.strip().lower()
        return next((c for c in self.columns if c.strip().lower() == wanted), None)

    def require_column(self, name: str) -> str:
        found = self.find_column(name)
        if found is None:
            raise BadInputError(f"unknown column {name!r} in {self.path.name} (columns: {', '.join(self.columns)})")
        return found

    def identity_column(self, name: str | None = None) -> str:
        """The column naming each row's company: the one given, else Company/Name/..., else the first."""
        if name:
            return self.require_column(name)
        for candidate in _IDENTITY_NAMES:
            found = self.find_column(candidate)
            if found:
                return found
        return self.columns[0]

    def website_column(self, identity: str | None = None) -> str | None:
        """The column holding each row's website (Website/URL/Domain...), if any other than ``identity``."""
        found = (self.find_column(candidate) for candidate in _WEBSITE_NAMES)
        return next((column for column in found if column and column != identity), None)


@dataclass(frozen=True)
class Table(TableHeader):
    """A CSV read whole: its header, its rows (each a dict keyed by the header), the sha256 of its bytes."""

    rows: list[dict[str, str]]


@dataclass(frozen=True)
class TableScan(TableHeader):
    """A CSV checked in one streaming pass (header, every row, hash) without keeping its rows: they stream from :meth:`rows`.

    How it is written (``header_as_written``, ``bom``, ``newline``) lets a copy of it keep what the rows' reading
    leaves out (a header cell's spaces, a byte-order mark, its line ends, blank lines: :meth:`records`)."""

    row_count: int
    header_as_written: tuple[str, ...] = ()
    bom: bool = False
    newline: str = "\r\n"
    delimiter: str = ","

    def rows(self) -> Iterator[dict[str, str]]:
        """The rows again, one at a time, from the file."""
        with _open_text(self.path) as (text, _):
            yield from _parse(text, self.path.name)[1]

    def records(self) -> Iterator[dict[str, str] | list[str]]:
        """The rows again with the file's blank lines between them, as written (a list of empty cells, or [])."""
        with _open_text(self.path) as (text, _):
            yield from _parse(text, self.path.name, keep_blank=True)[1]


def file_sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def read_table(path: str | Path) -> Table:
    """Read a CSV strictly; every problem is one BadInputError line naming the file and line."""
    path = Path(path)
    with _open_text(path) as (text, digest):
        columns, records, _, _ = _parse(text, path.name)
        rows = list(records)
    return Table(path=path, columns=columns, rows=rows, sha256=digest.hexdigest())


def scan_table(path: str | Path) -> TableScan:
    """Check a CSV as strictly as :func:`read_table`, in memory that does not grow with the file."""
    path = Path(path)
    with _open_text(path) as (text, digest):
        columns, records, written, delimiter = _parse(text, path.name)
        count = sum(1 for _ in records)
    with path.open("rb") as raw:  # how it is written: its byte-order mark and line end, from its first bytes
        start = raw.read(1 << 16)
    first_end = start.find(b"\n")
    newline = "\r\n" if first_end < 0 or start[first_end - 1:first_end] == b"\r" else "\n"
    return TableScan(path=path, columns=columns, sha256=digest.hexdigest(), row_count=count, header_as_written=tuple(written),
                     bom=start.startswith(codecs.BOM_UTF8), newline=newline, delimiter=delimiter)


class _Hashing(io.RawIOBase):
    """A binary file that feeds every byte read through a sha256."""

    def __init__(self, raw: BinaryIO) -> None:
        self.raw, self.digest = raw, hashlib.sha256()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
        n = self.raw.readinto(buffer)
        self.digest.update(memoryview(buffer)[:n])
        return n


@contextmanager
def _open_text(path: Path) -> Iterator[tuple[io.TextIOWrapper, Any]]:
    """The file as text (UTF-8, a BOM skipped) and the running sha256 of its bytes; one clear error for bad bytes."""
    try:
        raw = path.open("rb")
    except FileNotFoundError:
        raise BadInputError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise BadInputError(f"not a file: {path}") from None
    hashing = _Hashing(raw)
    text = io.TextIOWrapper(io.BufferedReader(hashing, 1 << 16), encoding="utf-8-sig", newline="")
    try:
        yield text, hashing.digest
    except UnicodeDecodeError:
        raise BadInputError(f"malformed CSV {path.name}: not UTF-8 ({_first_bad_byte(path)}); save it as UTF-8 "
                            "(Excel: \"CSV UTF-8\")") from None
    finally:
        raw.close()


def _first_bad_byte(path: Path) -> str:
    """Where the file's first byte that is not UTF-8 is: its line, its offset in the file and the byte (the decoder's
    own offset counts from the start of a read block, which says nothing to the user)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset, lines = 0, 1
    with path.open("rb") as raw:
        for block in iter(lambda: raw.read(1 << 16), b""):
            held = len(decoder.getstate()[0])  # the start of a character the block before ended in
            try:
                decoder.decode(block)
            except UnicodeDecodeError as err:
                at = offset - held + err.start
                lines += block[:max(at - offset, 0)].count(b"\n")
                return f"line {lines}, offset {at}: byte 0x{err.object[err.start]:02x}"
            offset, lines = offset + len(block), lines + block.count(b"\n")
    return "at its end"


def _parse(text: io.TextIOBase, name: str, keep_blank: bool = False) -> tuple[list[str], Iterator[Any], list[str], str]:
    """The header's column names (read now), a generator of the rows (read as it is iterated), checked strictly, the
    header as written and the delimiter; with ``keep_blank``, a blank line comes too, as the list of its cells."""
    first = text.readline()
    delimiter = _delimiter(first)
    reader = csv.reader(itertools.chain([first], text), strict=True, delimiter=delimiter)
    try:
        header = next(reader, None)
    except csv.Error as err:
        raise BadInputError(f"malformed CSV {name}: line {reader.line_num}: {err}") from None
    if not header or not any(h.strip() for h in header):
        raise BadInputError(f"malformed CSV {name}: no header row")
    columns = [h.strip() for h in header]
    _check_header(columns, name)

    def rows() -> Iterator[dict[str, str]]:
        try:
            for record in reader:
                if not record or not any(cell.strip() for cell in record):
                    if keep_blank:
                        yield record
                    continue  # blank lines are not rows
                if len(record) != len(columns):
                    raise BadInputError(
                        f"malformed CSV {name}: line {reader.line_num} has {len(record)} fields, the header has {len(columns)}"
                    )
                yield dict(zip(columns, record))
        except csv.Error as err:
            raise BadInputError(f"malformed CSV {name}: line {reader.line_num}: {err}") from None

    return columns, rows(), header, delimiter


def _delimiter(first_line: str) -> str:
    """The table's delimiter, from its first line: a comma, unless the line is one cell by commas and several by
    ";" (or a tab), as a European Excel writes it. A comma table is never read otherwise."""
    def cells(delimiter: str) -> int:
        try:
            return len(next(csv.reader([first_line], delimiter=delimiter), []))
        except csv.Error:
            return 0
    if cells(",") > 1:
        return ","
    return next((d for d in _OTHER_DELIMITERS if cells(d) > 1), ",")


def _check_header(columns: list[str], name: str) -> None:
    for number, column in enumerate(columns, 1):
        if not column:  # often a spreadsheet's trailing column that was once formatted: say which, and what to do
            after = f" (after {columns[number - 2]!r})" if number > 1 and columns[number - 2] else ""
            raise BadInputError(f"malformed CSV {name}: header cell {number}{after} is empty: name that column or delete it")
    seen: set[str] = set()
    for column in columns:
        if column.lower() in seen:
            raise BadInputError(f"malformed CSV {name}: column {column!r} appears twice in the header")
        seen.add(column.lower())


def spreadsheet_safe(value: str) -> str:
    """``value`` as a CSV cell no spreadsheet runs as a formula: a leading apostrophe when it starts like one.

    Numbers stay numbers, negative ones included; the apostrophe is what OWASP advises (Excel and
    LibreOffice show the text without it).
    """
    if value.startswith(_FORMULA_START) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` so that readers see the old file or the new one, never half of one."""
    with atomic_writer(path) as handle:
        handle.write(text)


def write_table_atomic(path: Path, columns: list[str], rows: Iterable[Mapping[str, str]]) -> None:
    """Write a CSV (``columns``, then ``rows`` as they come) through :func:`atomic_writer`."""
    with atomic_writer(path) as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)


def check_writable(path: Path, *, inputs: Iterable[Path] = ()) -> None:
    """Raise BadInputError (one line) unless :func:`atomic_writer` can write ``path``: not one of ``inputs`` (a table
    is never overwritten by what is made from it), not a folder, and in a folder this user may write (one to be made
    under the nearest existing one)."""
    target = Path(os.path.abspath(path))
    for given in inputs:
        same_file = target.exists() and Path(given).exists() and os.path.samefile(target, given)  # a link to it too
        if target == Path(os.path.abspath(given)) or same_file:
            raise BadInputError(f"{path} is the input table, which is only read: write to another file")
    if target.is_dir():
        raise BadInputError(f"cannot write {path}: it is a folder")
    folder = target.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise BadInputError(f"cannot write {path}: {folder} is a file, not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise BadInputError(f"cannot write {path}: this user may not write in {folder} (or it is read-only)")


def _new_file_mode(path: Path) -> int:
    """The mode a file written at ``path`` should have: the replaced file's, else what the umask leaves of 0o666
    (the temporary file is made 0o600)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return 0o666 & ~_UMASK


def _current_umask() -> int:
    mask = os.umask(0o022)  # read once, at import: changing it later from another thread would race
    os.umask(mask)
    return mask


_UMASK = _current_umask()


@contextmanager
def atomic_writer(path: Path, *, overwrite: bool = True) -> Iterator[TextIO]:
    """A text file to write bit by bit: a temporary file beside ``path``, fsynced and renamed over it (os.replace)
    when the block ends, with the mode of the file it replaces (a new one's follows the umask); removed, leaving
    ``path`` as it was, when the block raises. Without ``overwrite`` it is published only if ``path`` still does not
    exist (a hard link, which fails if another process wrote it meanwhile): else BadInputError, nothing replaced."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", newline="", dir=path.parent,
                                         prefix=f".{path.name}.", suffix=".tmp", delete=False)
    try:
        with handle:
            yield handle
            handle.flush()
            os.fchmod(handle.fileno(), _new_file_mode(path))
            os.fsync(handle.fileno())
        if overwrite:
            os.replace(handle.name, path)
        else:
            _publish_new(Path(handle.name), path)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise


def _publish_new(written: Path, path: Path) -> None:
    """``written`` as ``path``, which must not exist: checking first and renaming after would let two commands both
    write it, the second silently replacing the first (the review page's Apply beside `cikb apply`)."""
    try:
        os.link(written, path)
    except FileExistsError:
        raise BadInputError(f"{path} exists (written meanwhile by another command?): give another name") from None
    except OSError:  # a file system without hard links: the check and the rename, as close together as can be
        if path.exists():
            raise BadInputError(f"{path} exists (written meanwhile by another command?): give another name") from None
        os.replace(written, path)
        return
    written.unlink()
