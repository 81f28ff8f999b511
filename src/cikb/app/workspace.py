"""A company's directory under data/: staged generations, an atomic swap, a lock.

    data/<slug>/
        raw -> generations/<id>/raw      the current documents (a symlink, swapped atomically)
        generations/<id>/
            raw/*.md                     documents of one gather
            index/                       its chunks and vectors, kept until they are in the store
            manifest.json                written last: the generation is complete
        indexed                          id of the generation whose points are in the store
        .lock                            held by the gather of this company

Why generations: a gather writes everything into a new generation first (spec G5). The
previous one stays the current one until the single `os.replace` of the `raw` symlink, so a
gather that fails, yields nothing, or is killed with SIGKILL leaves the previous documents
exactly as they were. `indexed` lags `raw` only between the swap and the store write; the
next command that opens the knowledge base finishes that write from `index/` (roll forward).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

from filelock import FileLock, Timeout

from cikb.core.errors import LockedError
from cikb.core.slug import check_slug

MANIFEST = "manifest.json"


@dataclass(frozen=True)
class Generation:
    """One gather's staged output."""

    path: Path

    @property
    def id(self) -> str:
        return self.path.name

    @property
    def raw_dir(self) -> Path:
        return self.path / "raw"

    @property
    def index_dir(self) -> Path:
        return self.path / "index"

    @property
    def complete(self) -> bool:
        return (self.path / MANIFEST).is_file()

    def manifest(self) -> dict:
        return json.loads((self.path / MANIFEST).read_text(encoding="utf-8"))


@dataclass(frozen=True)
class CompanyDir:
    """Paths of one company's data; the slug is checked, so nothing escapes data_dir."""

    data_dir: Path
    slug: str

    def __post_init__(self) -> None:
        check_slug(self.slug)

    @property
    def root(self) -> Path:
        return self.data_dir / self.slug

    @property
    def raw_link(self) -> Path:
        return self.root / "raw"

    @property
    def generations_dir(self) -> Path:
        return self.root / "generations"

    @property
    def indexed_file(self) -> Path:
        return self.root / "indexed"

    def exists(self) -> bool:
        return self.current() is not None

    def current(self) -> Generation | None:
        """The generation `raw` points at, if any."""
        if not self.raw_link.is_symlink():
            return None
        generation = Generation(self.raw_link.resolve().parent)
        return generation if generation.complete else None

    def manifest(self) -> dict:
        """The current generation's manifest ({} before the first gather)."""
        generation = self.current()
        return generation.manifest() if generation else {}

    def pending(self) -> bool:
        """A gather was killed between its raw swap and its store write (recovery rolls it forward)."""
        current = self.current()
        return current is not None and self.indexed_id() != current.id

    def indexed_id(self) -> str | None:
        return self.indexed_file.read_text().strip() if self.indexed_file.is_file() else None

    @contextmanager
    def lock(self, timeout: float = 0.0) -> Iterator[None]:
        """Two gathers of one company cannot interleave; the OS drops the lock if we die."""
        self.root.mkdir(parents=True, exist_ok=True)
        lock = FileLock(str(self.root / ".lock"), timeout=timeout)
        try:
            lock.acquire()
        except Timeout:
            raise LockedError(f"another gather of {self.slug!r} is running (lock: {self.root / '.lock'})") from None
        try:
            yield
        finally:
            lock.release()

    def new_generation(self) -> Generation:
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S")
        path = self.generations_dir / f"{stamp}-{secrets.token_hex(3)}"
        (path / "raw").mkdir(parents=True)
        (path / "index").mkdir()
        return Generation(path)

    def seal(self, generation: Generation, manifest: dict) -> None:
        """Mark a generation complete: its files are flushed, then the manifest appears atomically."""
        _fsync_tree(generation.path)
        _atomic_write(generation.path / MANIFEST, json.dumps(manifest, indent=2, default=str))

    def swap_in(self, generation: Generation) -> None:
        """Make `generation` current with one atomic rename of the `raw` symlink."""
        if not generation.complete:
            raise ValueError(f"generation {generation.id} is not sealed")
        tmp_link = self.root / f".raw-{generation.id}"
        if tmp_link.is_symlink():
            tmp_link.unlink()
        tmp_link.symlink_to(Path("generations") / generation.id / "raw")
        os.replace(tmp_link, self.raw_link)
        _fsync_dir(self.root)

    def mark_indexed(self, generation: Generation) -> None:
        _atomic_write(self.indexed_file, generation.id)

    def prune(self) -> None:
        """Remove every generation but the current one (failed, killed or replaced gathers)."""
        current = self.current()
        if not self.generations_dir.is_dir():
            return
        for path in self.generations_dir.iterdir():
            # Compared resolved: `current` comes from resolving the `raw` link, iterdir() does not resolve.
            if current is None or path.resolve() != current.path.resolve():
                shutil.rmtree(path, ignore_errors=True)
        for stale_link in self.root.glob(".raw-*"):
            stale_link.unlink(missing_ok=True)

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def list_companies(data_dir: Path) -> list[CompanyDir]:
    """Companies with a current generation, by slug."""
    if not data_dir.is_dir():
        return []
    found = []
    for path in sorted(data_dir.iterdir()):
        try:
            company = CompanyDir(data_dir, path.name)
        except Exception:
            continue  # not a company directory (the store, logs, samples...)
        if company.exists():
            found.append(company)
    return found


def company_names(data_dir: Path) -> dict[str, str]:
    """Each gathered company's display name (slug -> name), as its last gather recorded it."""
    return {folder.slug: display_name(folder.manifest(), folder.slug) for folder in list_companies(data_dir)}


def display_name(manifest: dict, slug: str) -> str:
    return (manifest.get("company") or {}).get("name") or slug


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def _fsync_tree(root: Path) -> None:
    for path in sorted(root.rglob("*")):
        if path.is_file():
            with open(path, "rb") as handle:
                os.fsync(handle.fileno())
    for directory in [root, *[p for p in root.rglob("*") if p.is_dir()]]:
        _fsync_dir(directory)


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
