"""What a cleaned page depends on, as one key: the same key gives the same document (issue 25, item 4).

    cleaner = cleaner_key(settings.clean, max_raw_bytes)       # once per gather
    key = page_key(page, company.slug, cleaner)                # per fetched page

:func:`~cikb.clean.clean_page` is a pure function of the page's HTML, URL and source, the company,
the clean settings and the cleaner itself (the code of this package and of what it calls, the
versions of trafilatura, lxml, langdetect and extruct, Python's Unicode tables): every one of
them goes into the key, so an outcome stored under a key may stand for cleaning the page again.
Only ``scraped_at`` (the page's fetch time) is not in it: the caller sets it.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterable, Sequence
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from cikb.core.config import CleanSettings
from cikb.core.models import Company, FetchedPage

# The libraries whose output a cleaned document depends on (trafilatura's own parsers among them).
_LIBRARIES = ("trafilatura", "justext", "htmldate", "courlan", "lxml", "langdetect", "extruct")
# cikb's modules outside this package that cleaning calls (page kinds, shingles, the company identity, the models).
_MODULES = ("cikb.gather.scoring", "cikb.gather.urls", "cikb.core.shingles", "cikb.core.identity", "cikb.core.models")


def cleaner_key(settings: CleanSettings, max_raw_bytes: int | None) -> str:
    """The cleaner's identity under these settings: its code, its libraries' versions and the settings."""
    return _digest([_code_digest(), settings.model_dump_json(), repr(max_raw_bytes)])


def page_key(page: FetchedPage, company_slug: str, cleaner: str) -> str:
    """The key of cleaning ``page`` for ``company_slug`` with the cleaner ``cleaner`` (see :func:`cleaner_key`)."""
    return _digest([cleaner, company_slug, page.url, page.source_type, page.html])


def site_key(pages: Sequence[FetchedPage], company: Company, cleaner: str, page_keys: Iterable[str]) -> str:
    """The key of what is read from a company's website pages together (the facts document, the names it gives
    itself): the pages' keys in crawl order, and the company."""
    return _digest([cleaner, "site", company.model_dump_json(), *page_keys, *(page.url for page in pages)])


def _digest(parts: Iterable[str]) -> str:
    sha = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogatepass")
        sha.update(len(data).to_bytes(8, "big") + data)  # length-prefixed: no two part lists share a byte string
    return sha.hexdigest()


@lru_cache(maxsize=1)
def _code_digest() -> str:
    """sha256 of the cleaner's source files, its libraries' versions and the Python that runs it (once per process)."""
    files = sorted(Path(__file__).parent.glob("*.py")) + [Path(_module_file(name)) for name in _MODULES]
    versions = [f"{name}={_version(name)}" for name in _LIBRARIES]
    return _digest([sys.version, *versions, *(f"{path.name}:{hashlib.sha256(path.read_bytes()).hexdigest()}" for path in files)])


def _module_file(name: str) -> str:
    module = sys.modules.get(name) or __import__(name, fromlist=["_"])
    return str(module.__file__)


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "-"
