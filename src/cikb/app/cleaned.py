"""Cleaned pages kept with each generation, so that a re-gather cleans only the pages that changed (issue 25, item 4).

    <generation>/index/cleaned.jsonl    one line per page cleaned: {"key", "document"} or {"key", "dropped"};
                                        and what the website's pages give together: {"key", "facts"}, {"key", "names"}

A page whose key (:func:`cikb.clean.reuse.page_key`: its HTML, URL and source, the company, the cleaner's
code, libraries and settings) is that of a page the current generation cleaned takes that page's
outcome instead of being cleaned again (trafilatura, language detection: ~1.5 s for 20 pages); a page
whose HTML changed in any byte has another key and is cleaned. The facts document and the names a
company's site gives it are kept the same way, under the key of all the website's pages. A file that
is missing or cannot be read only means that every page is cleaned.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from types import EllipsisType
from typing import Any

from pydantic import ValidationError

from cikb import clean
from cikb.app.workspace import Generation
from cikb.clean.facts import FRAGMENT, own_names
from cikb.clean.reuse import cleaner_key, page_key, site_key
from cikb.core.config import Settings
from cikb.core.models import Company, DropReason, FetchedPage, RawDocument

CLEANED = "cleaned.jsonl"
Outcome = RawDocument | DropReason


class CleanedPages:
    """One gather's cleaning: each page's outcome, taken from the current generation where its key matches.

    ``since`` is when the gather began: a page fetched before it was not fetched by this gather (taken from
    the HTTP cache), so a document reused for it keeps the time the stored one was scraped (see :func:`as_of`).
    """

    def __init__(self, company: Company, settings: Settings, since: datetime, stored: dict[str, Any] | None = None) -> None:
        self.company, self.settings, self.since = company, settings, since
        self.cleaner = cleaner_key(settings.clean, settings.gather.max_raw_bytes)
        self._stored = stored or {}  # key -> the JSON line's value, as read
        self.kept: dict[str, dict[str, Any]] = {}  # key -> line: this gather's, written with its generation
        self.outcomes: dict[int, Outcome] = {}  # id(page) -> outcome
        self.keys: dict[int, str] = {}  # id(page) -> key

    @classmethod
    def of(cls, generation: Generation | None, company: Company, settings: Settings, since: datetime) -> CleanedPages:
        """Cleaning that reuses ``generation``'s outcomes (None: a first gather, or ``--full``)."""
        return cls(company, settings, since, _read(generation.index_dir / CLEANED) if generation is not None else None)

    def clean(self, page: FetchedPage) -> Outcome:
        """The page's outcome: the stored one for its key, else cleaned now (once per page)."""
        if id(page) in self.outcomes:
            return self.outcomes[id(page)]
        key = page_key(page, self.company.slug, self.cleaner)
        outcome = self._reused(key, page)
        if outcome is None:
            outcome = clean.clean_page(page, self.company.slug, self.settings.clean, max_raw_bytes=self.settings.gather.max_raw_bytes)
        self.outcomes[id(page)], self.keys[id(page)] = outcome, key
        self.kept[key] = {"key": key, "dropped": outcome.value} if isinstance(outcome, DropReason) else {"key": key, "document": _json(outcome)}
        return outcome

    def site_facts(self, site: Sequence[FetchedPage]) -> RawDocument | None:
        """:func:`cikb.clean.site_facts` of the website's pages (in the language kept), or the stored one for the same pages."""
        key = self._site_key(site, "facts")
        facts = self._stored_facts(key, site) if key in self._stored else ...
        if facts is ...:
            facts = clean.site_facts(site, self.company, max_chars=self.settings.clean.max_chars)
        self.kept[key] = {"key": key, "facts": _json(facts) if facts is not None else None}
        return facts

    def _stored_facts(self, key: str, site: Sequence[FetchedPage]) -> RawDocument | None | EllipsisType:
        """The stored facts document (None: the pages state no facts) as of its page; ``...`` when it cannot serve."""
        stored = self._stored[key]
        facts = _document(stored)
        if facts is None:
            return None if stored is None else ...
        home = next((page for page in site if facts.url == page.url.split("#")[0] + FRAGMENT), None)
        return as_of(facts, home, self.since) if home is not None else ...

    def names(self, website: Sequence[FetchedPage]) -> list[str]:
        """The other names the company's website gives it (:func:`cikb.clean.facts.own_names`), or the stored ones."""
        key = self._site_key(website, "names")
        stored = self._stored.get(key)
        names = stored if isinstance(stored, list) and all(isinstance(name, str) for name in stored) else own_names(website, self.company)
        self.kept[key] = {"key": key, "names": names}
        return names

    def _site_key(self, pages: Sequence[FetchedPage], kind: str) -> str:
        keys = (self.keys.get(id(page)) or page_key(page, self.company.slug, self.cleaner) for page in pages)
        return f"{site_key(pages, self.company, self.cleaner, keys)}:{kind}"

    def _reused(self, key: str, page: FetchedPage) -> Outcome | None:
        stored = self._stored.get(key)
        if isinstance(stored, str):
            try:
                return DropReason(stored)
            except ValueError:
                return None
        document = _document(stored)
        return as_of(document, page, self.since) if document is not None else None

    def write(self, directory: Path) -> None:
        """This gather's outcomes as ``directory/cleaned.jsonl`` (atomically: a reader sees the old file or the new one)."""
        path = directory / CLEANED
        part = path.with_name(f".{CLEANED}.part")
        with open(part, "w", encoding="utf-8") as handle:
            handle.writelines(json.dumps(line, ensure_ascii=False) + "\n" for line in self.kept.values())
        os.replace(part, path)


def as_of(document: RawDocument, page: FetchedPage, since: datetime) -> RawDocument:
    """A stored document as cleaning ``page`` now would give it: scraped when the page was fetched.

    A page fetched before ``since`` (the gather's start) was taken from the HTTP cache, not fetched by
    this gather: its time is its stored copy's Date, in whole seconds of the server's clock, while the
    stored document has the time the page was last fetched live; the later of the two is kept, so
    a re-gather that fetched nothing writes the documents it found exactly as they were.
    """
    scraped = page.fetched_at if page.fetched_at >= since else max(page.fetched_at, document.scraped_at)
    return document if scraped == document.scraped_at else document.model_copy(update={"scraped_at": scraped})


def _json(document: RawDocument) -> dict[str, Any]:
    return document.model_dump(mode="json")


def _document(value: Any) -> RawDocument | None:
    if not isinstance(value, dict):
        return None
    try:
        return RawDocument.model_validate(value)
    except ValidationError:
        return None


def _read(path: Path) -> dict[str, Any]:
    """key -> stored value ({document}, a drop reason, {facts} or None, [names]); lines that cannot be read are left out."""
    stored: dict[str, Any] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return stored
    for line in lines:
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if not isinstance(item, dict) or not isinstance(item.get("key"), str):
            continue
        for field in ("document", "dropped", "facts", "names"):
            if field in item:
                stored[item["key"]] = item[field]
    return stored
