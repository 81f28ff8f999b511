"""A company's directory under data/: staged generations, an atomic swap, a lock.

    data/<slug>/
        raw -> generations/<id>/raw      the current documents (a symlink, swapped atomically)
        generations/<id>/
            raw/*.md                     documents of one gather
            index/                       its chunks and vectors, kept until they are in the store
            manifest.json                written last: the generation is complete
        indexed                          id of the generation whose points are in the store
        http-cache/                      pages with an ETag or Last-Modified, revalidated by the next gather
        .lock                            held by the gather of this company, removed when it ends

Why generations: a gather writes everything into a new generation first (spec G5). The
previous one stays the current one until the single `os.replace` of the `raw` symlink, so a
gather that fails, yields nothing, or is killed with SIGKILL leaves the previous documents
exactly as they were. `indexed` lags `raw` only between the swap and the store write; the
next command that opens the knowledge base finishes that write from `index/` (roll forward).

Damage (a dangling or replaced `raw` link, a missing or garbled manifest) is reported by
:meth:`CompanyDir.problem` as one DamagedError naming the path and the command that
repairs it: `cikb rebuild <slug>` while raw documents are left to rebuild from
(:meth:`CompanyDir.rebuild_source`), else `cikb forget <slug>` and a new gather.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterator

from filelock import FileLock, Timeout

from cikb.core.errors import BadInputError, DamagedError, LockedError
from cikb.core.identity import CompanyIdentity
from cikb.core.slug import check_slug

MANIFEST = "manifest.json"
REPLACED_RAW = ".raw-replaced-"  # a `raw` that was a real directory, kept until the swap that replaces it is done
LOCK_FILE = ".lock"
_OWN_NAMES = frozenset({"raw", "generations", "http-cache", "indexed", LOCK_FILE})  # and .raw-* (swap_in, REPLACED_RAW)


def rebuild_command(slug: str) -> str:
    return f"cikb rebuild {slug}"


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

    @property
    def slug(self) -> str:
        return self.path.parent.parent.name  # data/<slug>/generations/<id>

    def manifest(self) -> dict:
        """The generation's manifest; DamagedError (naming it and the repair) when it cannot be read."""
        path = self.path / MANIFEST
        try:
            manifest = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise DamagedError(f"{path} is missing: run `{rebuild_command(self.slug)}` to rebuild the company from its raw documents") from None
        except (ValueError, UnicodeDecodeError) as err:  # garbled JSON or bytes
            raise DamagedError(
                f"{path} is damaged ({type(err).__name__}: {_short(err)}): run `{rebuild_command(self.slug)}` to rebuild the company from its raw documents"
            ) from None
        if not isinstance(manifest, dict):
            raise DamagedError(f"{path} is damaged (not a JSON object): run `{rebuild_command(self.slug)}` to rebuild the company from its raw documents")
        return manifest

    def has_documents(self) -> bool:
        return self.raw_dir.is_dir() and any(self.raw_dir.glob("*.md"))


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
    def http_cache_dir(self) -> Path:
        """Its pages as last fetched (Scrapy's HTTP cache): a re-gather asks whether they changed; forget removes them."""
        return self.root / "http-cache"

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

    def generations(self) -> list[Generation]:
        """Every generation on disk, newest first (complete or not)."""
        if not self.generations_dir.is_dir():
            return []
        return sorted((Generation(p) for p in self.generations_dir.iterdir() if p.is_dir()), key=lambda g: g.id, reverse=True)

    def problem(self) -> DamagedError | None:
        """What is damaged in this company's files, as an error naming the path and the repair; None when sound.

        A directory with no `raw` link and no `indexed` marker is not damaged: it is a first
        gather in progress (or killed before its commit), which changed nothing yet.
        """
        link = self.raw_link
        if link.is_symlink():
            try:
                target = link.resolve()
            except (OSError, RuntimeError):  # a link loop
                return self._lost(f"{link} points to {os.readlink(link)}, which does not resolve")
            if not target.is_dir():
                return self._lost(f"{link} points to {os.readlink(link)}, which is missing")
            generation = Generation(target.parent)
            if not generation.complete:
                return DamagedError(
                    f"{generation.path / MANIFEST} is missing: run `{rebuild_command(self.slug)}` to rebuild the company from its raw documents"
                )
            try:
                generation.manifest()
            except DamagedError as err:
                return err
            return None
        if link.is_dir():
            return self._lost(f"{link} is a directory, not the link to the current generation cikb keeps")
        if link.exists():
            return self._lost(f"{link} is a file, not the link to the current generation cikb keeps")
        if self.indexed_file.exists():
            return self._lost(f"{link} is missing")
        return None

    def _lost(self, what: str) -> DamagedError:
        if self.rebuild_source() is not None:
            return DamagedError(f"{what}: run `{rebuild_command(self.slug)}` to rebuild the company from its raw documents")
        return DamagedError(f"{what}, and no raw document of {self.slug!r} is left: run `cikb forget {self.slug}`, then gather it again")

    def rebuild_source(self) -> Path | None:
        """The raw documents a rebuild starts from: the current ones, else the last indexed or newest sealed generation's."""
        link = self.raw_link
        if link.is_dir() and any(link.glob("*.md")):  # the current generation, or a real directory in the link's place
            return link.resolve() if link.is_symlink() else link
        indexed = self.indexed_id()
        candidates = [g for g in self.generations() if g.id == indexed] + [g for g in self.generations() if g.complete]
        for generation in candidates:
            if generation.has_documents():
                return generation.raw_dir
        return None

    def source_manifest(self, source: Path) -> dict:
        """The manifest beside a rebuild source, when there is a readable one ({} otherwise)."""
        try:
            return Generation(source.parent).manifest() if source.name == "raw" and source.parent.parent == self.generations_dir else {}
        except DamagedError:
            return {}

    @contextmanager
    def lock(self, timeout: float = 0.0) -> Iterator[None]:
        """Two gathers (rebuilds, forgets) of one company cannot interleave; the OS drops the lock if we die.

        The lock is an flock on `.lock`, not the file's existence: a lock file left behind by
        a killed process blocks nothing. Nothing is left behind by a release: the lock file goes
        (unlinked while still held, so a waiter that opened it sees it gone and opens afresh:
        filelock checks the link count), and with it the directory of a company that holds
        nothing gathered (a failed first gather, a forget of an unknown company).
        """
        lock, held = self._acquire(timeout)
        try:
            yield
        finally:
            self._release(lock, held)

    @property
    def lock_file(self) -> Path:
        return self.root / LOCK_FILE

    def _acquire(self, timeout: float) -> tuple[FileLock, os.stat_result]:
        attempts = 3  # filelock makes the directory; a holder releasing a company that holds nothing may remove it again
        while True:
            attempts -= 1
            lock = FileLock(str(self.lock_file), timeout=timeout)
            try:
                lock.acquire()
                return lock, os.stat(self.lock_file)
            except Timeout:
                raise LockedError(
                    f"another gather, rebuild or forget of {self.slug!r} is running (lock: {self.lock_file}); try again when it finishes"
                ) from None
            except FileNotFoundError:
                if not attempts:
                    raise

    def _release(self, lock: FileLock, held: os.stat_result) -> None:
        empty = self._holds_nothing()
        try:
            if empty:
                self._clear(keep=LOCK_FILE)
        finally:
            with suppress(FileNotFoundError):
                if os.path.samestat(os.lstat(self.lock_file), held):  # not a newer holder's file, after a forget removed ours
                    self.lock_file.unlink()
            lock.release()
        if empty:
            with suppress(OSError):  # not empty: another gather of the company has begun since
                self.root.rmdir()

    def _holds_nothing(self) -> bool:
        """No `raw` link, no indexed mark and no raw document to rebuild from: nothing a later command could use."""
        return (self.root.is_dir() and not os.path.lexists(self.raw_link) and not self.indexed_file.exists()
                and self.rebuild_source() is None)

    def own_entries(self) -> list[Path]:
        """What cikb keeps in the company's folder (its `raw` link, generations, HTTP cache, marks, lock): only these
        are ever removed. A folder of the data directory that cikb did not make (a user's notes, a data directory
        pointed at a project) is not a company's, and its files are not cikb's to delete."""
        if not self.root.is_dir():
            return []
        return [p for p in self.root.iterdir() if p.name in _OWN_NAMES or p.name.startswith(".raw-")]

    def holds_company_files(self) -> bool:
        """Anything of a company's but its lock: a gather, even a damaged or half-done one, was here."""
        return any(p.name != LOCK_FILE for p in self.own_entries())

    def _clear(self, keep: str) -> None:
        for path in self.own_entries():
            if path.name == keep:
                continue
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)

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
        if self.raw_link.is_dir() and not self.raw_link.is_symlink():
            # Damage repaired by a rebuild or a new gather: a real directory where the link belongs
            # (a copy that followed links) cannot be renamed over; it is kept aside until prune.
            self.raw_link.rename(self.root / f"{REPLACED_RAW}{generation.id}")
        os.replace(tmp_link, self.raw_link)
        _fsync_dir(self.root)

    def mark_indexed(self, generation: Generation) -> None:
        _atomic_write(self.indexed_file, generation.id)

    def prune(self) -> None:
        """Remove every generation but the current one (failed, killed or replaced gathers).

        While `raw` is damaged (no current generation, but one was indexed), the generation a
        rebuild would start from is kept too: a failed gather must not take it away.
        """
        current = self.current()
        if not self.generations_dir.is_dir():
            return
        keep = current.path if current is not None else None
        if keep is None and self.indexed_file.exists():
            source = self.rebuild_source()
            keep = source.parent if source is not None and source.name == "raw" else None
        for path in self.generations_dir.iterdir():
            # Compared resolved: `current` comes from resolving the `raw` link, iterdir() does not resolve.
            if keep is None or path.resolve() != keep.resolve():
                shutil.rmtree(path, ignore_errors=True)
        for stale in self.root.glob(".raw-*"):
            if stale.is_dir() and not stale.is_symlink():
                shutil.rmtree(stale, ignore_errors=True)  # a replaced real `raw` directory
            else:
                stale.unlink(missing_ok=True)

    def remove(self) -> None:
        # The markers first: a reader never sees a half-removed company as a damaged one.
        self.indexed_file.unlink(missing_ok=True)
        if self.raw_link.is_symlink() or self.raw_link.is_file():
            self.raw_link.unlink(missing_ok=True)
        self._clear(keep="")
        with suppress(OSError):  # a file cikb did not write is left, and the folder with it
            self.root.rmdir()


def company_dirs(data_dir: Path) -> list[CompanyDir]:
    """Every directory of data_dir named like a company, by slug (sound, damaged or half-gathered)."""
    if not data_dir.is_dir():
        return []
    found = []
    for path in sorted(data_dir.iterdir()):
        try:
            company = CompanyDir(data_dir, path.name)
        except BadInputError:
            continue  # not a company directory (the store, logs, samples...)
        if path.is_dir():
            found.append(company)
    return found


def list_companies(data_dir: Path) -> list[CompanyDir]:
    """Companies with a current generation, by slug."""
    return [company for company in company_dirs(data_dir) if company.exists()]


def check_companies(data_dir: Path) -> list[CompanyDir]:
    """The gathered companies; DamagedError (the path and the command that repairs it) for the first damaged one."""
    for company in company_dirs(data_dir):
        problem = company.problem()
        if problem is not None and company.problem() is not None:  # asked twice: a gather may have just swapped
            raise problem
    return list_companies(data_dir)


def check_points(companies: list[CompanyDir], points: dict[str, int], store_location: str, recount: Callable[[str], int] | None = None) -> None:
    """DamagedError when the store lacks points a company's committed gather wrote (a deleted or damaged store).

    ``points`` is each company's count as the store lists them; ``recount`` (an exact count of
    one company) confirms a difference before it is called damage. Companies with a commit
    in flight (`indexed` behind `raw`) are skipped: recovery or the gather holding their
    lock finishes them.
    """
    for company in companies:
        current = company.current()
        if current is None or company.indexed_id() != current.id:
            continue
        expected = current.manifest().get("chunks")
        found = points.get(company.slug, 0)
        if not expected or found == expected or (recount is not None and (found := recount(company.slug)) == expected):
            continue
        if not points:
            raise DamagedError(
                f"the store {store_location} holds no points, but {company.slug!r} has raw documents in {company.raw_link}: "
                "run `cikb rebuild --all` to rebuild the store from the raw documents"
            )
        raise DamagedError(
            f"the store {store_location} holds {found} points of {company.slug!r}, its raw documents in {company.raw_link} "
            f"made {expected}: run `{rebuild_command(company.slug)}` to rebuild its points"
        )


def company_names(companies: list[CompanyDir]) -> dict[str, str]:
    """Each company's display name (slug -> name), as its last gather recorded it."""
    return {folder.slug: display_name(folder.manifest(), folder.slug) for folder in companies}


def display_name(manifest: dict, slug: str) -> str:
    return (manifest.get("company") or {}).get("name") or slug


def company_identities(companies: list[CompanyDir]) -> dict[str, CompanyIdentity]:
    """What identifies each company (slug -> identity), as its last gather recorded it: the display name,
    the names its own pages give it (``aliases`` beside the name in the manifest) and its website's URLs."""
    return {folder.slug: identity_of(folder.manifest(), folder.slug) for folder in companies}


def gathered_identities(data_dir: Path) -> dict[str, CompanyIdentity]:
    """What identifies each gathered company (:func:`company_identities`), a company whose manifest is
    damaged by its slug alone: its history stays readable, and it can be named to the commands that repair it."""
    found = {}
    for folder in list_companies(data_dir):
        try:
            found[folder.slug] = identity_of(folder.manifest(), folder.slug)
        except DamagedError:
            found[folder.slug] = CompanyIdentity(folder.slug)
    return found


def identity_of(manifest: dict, slug: str) -> CompanyIdentity:
    company = manifest.get("company") or {}
    aliases = [a for a in company.get("aliases") or [] if isinstance(a, str) and a.strip()]
    websites = [url for source in manifest.get("sources") or [] if isinstance(source, dict) and source.get("source_type") == "website"
                for url in source.get("start_urls") or [] if isinstance(url, str)]
    return CompanyIdentity(slug=slug, name=display_name(manifest, slug), aliases=tuple(aliases), websites=tuple(websites))


def process_alive(pid: int | None) -> bool:
    """Whether a process with this id exists (a job's or a snapshot's owner)."""
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: it exists
    return True


def _short(err: BaseException) -> str:
    return " ".join(str(err).split())[:200]


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
