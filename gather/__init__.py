"""gather: fetch a company's public sources as HTML pages, politely (spec G2, G3).

    requests = [resolve_source("website", "https://acme.example", settings.gather)]
    result = crawl(requests, settings.gather, on_event=print)
    for source in result.sources:
        source.pages      # list[FetchedPage]: HTML only, at most max_pages_per_source
        source.summary    # SourceSummary: fetched, dropped by reason, seconds, error

Scrapy runs in a child process (``gather._child``): Twisted's reactor cannot be
restarted, and a crawl must be killable. The child streams progress events as JSON
lines; ``on_event`` receives each as a CrawlEvent while the crawl runs, and ``on_page``
each FetchedPage as it arrives (with its source's index), so the caller can work on it
while the crawler waits out its politeness delay.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from time import monotonic
from typing import IO

from cikb.gather.reporter import CrawlJob, Message
from cikb.gather.urls import resolve_source, validate_url

from cikb.core.config import GatherSettings
from cikb.core.errors import GatherFailedError
from cikb.core.models import (
    CrawlEvent,
    CrawlResult,
    FetchedPage,
    SourceRequest,
    SourceResult,
    SourceSummary,
)

__all__ = ["CrawlEvent", "CrawlResult", "Crawler", "SourceRequest", "SourceResult", "crawl", "resolve_source", "validate_url"]

OnEvent = Callable[[CrawlEvent], None]
OnPage = Callable[[int, FetchedPage], None]


def crawl(
    requests: list[SourceRequest],
    settings: GatherSettings,
    on_event: OnEvent | None = None,
    *,
    on_page: OnPage | None = None,
    http_cache_dir: Path | None = None,
    crawler: Crawler | None = None,
) -> CrawlResult:
    """Crawl every source in a child process and return its pages and counts, one SourceResult per request.

    A source that cannot be reached reports ``summary.error``; it does not raise.
    Raises GatherFailedError only when the crawler process itself fails. If this
    process is interrupted or killed, the child stops too. With ``http_cache_dir``,
    pages an earlier crawl stored there are asked for conditionally (gather.httpcache).
    ``crawler``: a :class:`Crawler` started earlier (else one is started now).
    """
    started = monotonic()
    collector = _Collector(requests, on_event, on_page)
    if requests:
        cache = str(http_cache_dir) if http_cache_dir is not None else None
        job = CrawlJob(requests=requests, settings=settings, http_cache_dir=cache)
        if crawler is None:
            with Crawler() as own:
                own.run(job, collector)
        else:
            crawler.run(job, collector)
    return CrawlResult(sources=collector.results(), seconds=round(monotonic() - started, 3))


class Crawler:
    """A crawler process started before its job, so that its start-up (Python, Scrapy, the
    reactor) overlaps the caller's own work; it fetches nothing until :func:`crawl` hands it
    the job, and exits unused when closed first. One crawl each.

        with gather.Crawler() as crawler:
            embedder = load_embedder(...)        # may still refuse the gather: nothing fetched yet
            result = gather.crawl(requests, settings, crawler=crawler)
    """

    def __init__(self) -> None:
        self._stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cikb.gather._child"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            encoding="utf-8",
        )

    def __enter__(self) -> Crawler:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        _stop(self.process)
        self._stderr.close()

    def run(self, job: CrawlJob, collector: _Collector) -> None:
        child = self.process
        try:
            assert child.stdin is not None and child.stdout is not None
            child.stdin.write(job.model_dump_json() + "\n")
            child.stdin.flush()  # stdin stays open: its EOF tells the child we are gone
            for line in child.stdout:
                collector.handle(Message.model_validate_json(line))
                if collector.done:
                    break  # its exit (the interpreter's shutdown, about half a second) is waited for by close(), not by the crawl
        finally:
            if not collector.done:
                _stop(child)
        if child.returncode != 0 and not collector.done:
            raise GatherFailedError(f"the crawler process failed (exit {child.returncode}): {_last_line(self._stderr)}")


def _stop(child: subprocess.Popen[str]) -> None:
    if child.stdin is not None:
        child.stdin.close()
    try:
        child.wait(timeout=5)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()


def _last_line(stream: IO[str]) -> str:
    stream.seek(0)
    lines = [line.strip() for line in stream.read().splitlines() if line.strip()]
    return lines[-1] if lines else "no output"


class _Collector:
    """Assembles the child's messages into SourceResults and passes events on."""

    def __init__(self, requests: list[SourceRequest], on_event: OnEvent | None, on_page: OnPage | None):
        self.sources = [SourceResult(request=r, summary=_unfinished(r)) for r in requests]
        self.on_event = on_event
        self.on_page = on_page
        self.done = False

    def handle(self, message: Message) -> None:
        self.done = self.done or message.done
        event = message.event
        if event is None:
            return
        source = self.sources[event.source_index]
        if message.page is not None:
            source.pages.append(message.page)
            if self.on_page is not None:
                self.on_page(event.source_index, message.page)
        if event.summary is not None:
            source.summary = event.summary
        if self.on_event is not None:
            self.on_event(event)

    def results(self) -> list[SourceResult]:
        return self.sources


def _unfinished(request: SourceRequest) -> SourceSummary:
    # Replaced by the child's final summary; stays only if the crawl stopped before the source finished.
    return SourceSummary(source_type=request.source_type, start_urls=list(request.start_urls), error="crawl stopped before this source finished")
