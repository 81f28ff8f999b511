"""Counts what one source fetched and dropped, and streams it as messages (child side).

A spider calls :meth:`SourceReporter.page` and :meth:`SourceReporter.drop` (and
:meth:`SourceReporter.redirect`, which only counts); each of the first two
updates the source's SourceSummary and sends one :class:`Message` through
``send`` (in the crawler process: a JSON line to the parent).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from time import monotonic

from pydantic import BaseModel

from cikb.core.config import GatherSettings
from cikb.core.models import (
    CrawlEvent,
    CrawlEventKind,
    DropReason,
    FetchedPage,
    SourceRequest,
    SourceSummary,
)


class CrawlJob(BaseModel):
    """What the parent hands the crawler process: the sources and the bounds."""

    requests: list[SourceRequest]
    settings: GatherSettings
    http_cache_dir: str | None = None  # conditional requests against the pages stored here (None: no HTTP cache)


class Message(BaseModel):
    """One line from the crawler process: an event (with its page, for page_fetched), or the end."""

    event: CrawlEvent | None = None
    page: FetchedPage | None = None
    done: bool = False


Send = Callable[[Message], None]
Kept = tuple[str, "datetime | None"]  # why the server could not be reached, when the stored copy was last fetched live


class SourceReporter:
    """The running account of one source in one crawl."""

    def __init__(self, index: int, request: SourceRequest, send: Send):
        self.index = index
        self.request = request
        self.summary = SourceSummary(source_type=request.source_type, start_urls=list(request.start_urls))
        self._send = send
        self._started = monotonic()
        self._start_failures: list[str] = []

    def started(self) -> None:
        self._started = monotonic()
        self._emit("source_started")

    def page(self, url: str, html: str, status: int, content_type: str, *, kept: Kept | None = None, cached: datetime | None = None) -> None:
        """Count one delivered HTML page and send it: fetched live; ``kept`` from the HTTP cache because
        its server could not be reached (then it counts as unreachable, not fetched); or ``cached``: taken
        from the HTTP cache without a request, as fetched live at that time, within gather.max_age."""
        fetched_at = datetime.now(timezone.utc)
        if kept is not None:
            self._unreachable(*kept)
            fetched_at = kept[1] or fetched_at
        elif cached is not None:
            self.summary.cached += 1
            fetched_at = cached
        else:
            self.summary.fetched += 1
        page = FetchedPage(
            url=url,
            source_type=self.request.source_type,
            html=html,
            status=status,
            content_type=content_type,
            fetched_at=fetched_at,
            unreachable=kept[0] if kept else None,
        )
        self._send(Message(event=self._event("page_fetched", url=url), page=page))

    def _unreachable(self, reason: str, stored_at: datetime | None) -> None:
        s = self.summary
        s.unreachable += 1
        s.unreachable_reason = s.unreachable_reason or reason
        if stored_at is not None and (s.kept_from is None or stored_at < s.kept_from):
            s.kept_from = stored_at

    def crawl_delay(self, seconds: float) -> None:
        """robots.txt asks for more time between requests than configured, and gets it."""
        self.summary.crawl_delay = max(seconds, self.summary.crawl_delay or 0.0)

    def robots_unavailable(self, why: str) -> None:
        """robots.txt could not be read: its host is completely disallowed for this gather."""
        self.summary.robots_unavailable = self.summary.robots_unavailable or why

    def redirect(self) -> None:
        """Count one redirect followed (a page request answered 3xx whose target is fetched instead); not a drop."""
        self.summary.redirected += 1

    def drop(self, url: str, reason: DropReason, detail: str = "", *, start: bool = False) -> None:
        """Count one dropped page; a failed start URL (not a robots refusal), or one that redirects to another site, may
        become the source's error."""
        self.summary.drop(reason)
        if reason is DropReason.timeout:
            self.summary.timed_out.append(url)
        if start and reason in (DropReason.http_error, DropReason.network_error, DropReason.offsite):
            self._start_failures.append(f"{url}: {detail or reason.value}")
        self._emit("page_dropped", url=url, reason=reason.value, detail=detail or None)

    def finished(self) -> SourceSummary:
        """Close the account: seconds taken, and an error when nothing came and a start URL failed."""
        self.summary.seconds = round(monotonic() - self._started, 3)
        if self.summary.fetched == 0 and self._start_failures:
            self.summary.error = "could not fetch " + "; ".join(self._start_failures)
        self._emit("source_finished", summary=self.summary)
        return self.summary

    def _event(self, kind: CrawlEventKind, **fields: object) -> CrawlEvent:
        return CrawlEvent(kind=kind, source_index=self.index, source_type=self.request.source_type, **fields)

    def _emit(self, kind: CrawlEventKind, **fields: object) -> None:
        self._send(Message(event=self._event(kind, **fields)))
