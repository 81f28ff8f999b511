"""What every source spider shares: the page budget, de-duplication, and counting drops."""

from __future__ import annotations

import math
from collections.abc import Callable
from time import monotonic
from typing import Any

from cikb.gather.middlewares import (
    ACCEPT_KEY,
    ATTEMPT_KEY,
    FRESH_KEY,
    KEPT_KEY,
    PAGE_KEY,
    RETRY_EXCEPTIONS,
    TIMEOUT_EXCEPTIONS,
    Dropped,
    content_type_of,
)
from cikb.gather.reporter import SourceReporter
from cikb.gather.urls import origin_of, page_key, same_site_origin, site_of
from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import CloseSpider, IgnoreRequest
from scrapy.http import Response
from scrapy.spidermiddlewares.httperror import HttpError
from twisted.python.failure import Failure

from cikb.core.models import DropReason

START = "cikb_start"


class SourceSpider(Spider):
    """One source of one crawl. Delivers at most ``CIKB_MAX_PAGES`` HTML pages, each URL once.

    Subclasses yield requests made by :meth:`page_request` and call :meth:`deliver`
    on each page response; failures reach :meth:`on_page_error`, which counts them.
    """

    def __init__(self, *args: Any, reporter: SourceReporter, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.reporter = reporter
        self.start_urls = list(reporter.request.start_urls)
        # Registered domains requests may go to (see gather.middlewares.OffsiteMiddleware).
        self.allowed_sites: set[str] | None = {site_of(url) for url in self.start_urls}
        self.start_origins = {origin_of(url) for url in self.start_urls}
        self._seen: set[str] = set()  # canonical URLs requested, redirected to, or delivered
        self._pending: set[str] = set()  # page requests not answered yet
        self._delivered: set[str] = set()
        self.deadline = math.inf  # monotonic end of the source's time budget, set when it opens

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> SourceSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.max_pages = crawler.settings.getint("CIKB_MAX_PAGES", 20)
        spider.accept = crawler.settings.getlist("CIKB_ALLOWED_CONTENT_TYPES", ["text/html"])
        spider.language = crawler.settings.get("CIKB_LANGUAGE", "en")
        spider.time_budget = crawler.settings.getfloat("CLOSESPIDER_TIMEOUT") or math.inf
        crawler.signals.connect(spider.on_opened, signal=signals.spider_opened)
        crawler.signals.connect(spider.on_closed, signal=signals.spider_closed)
        return spider

    def allows(self, url: str) -> bool:
        """True when ``url`` lies on one of the source's sites, on a start URL's origin or a default port
        (always, for a source with no bounds): see gather.urls.same_site_origin."""
        if self.allowed_sites is None:
            return True
        return site_of(url) in self.allowed_sites and same_site_origin(url, self.start_origins)

    def page_request(
        self,
        url: str,
        *,
        priority: int = 0,
        start: bool = False,
        callback: Callable[..., Any] | None = None,
        accept: list[str] | None = None,
    ) -> Request | None:
        """A request for a page not requested before in this source, or None."""
        key = page_key(url)
        if key in self._seen:
            return None
        self._seen.add(key)
        self._pending.add(key)
        # dont_filter: this spider de-duplicates itself, so every request ends in its callback or errback
        # (Scrapy's dupefilter drops a repeat silently); redirects inherit it, and one to a page already
        # requested is refused in follow_redirect().
        return Request(
            url,
            callback=callback or self.parse_page,
            errback=self.on_page_error,
            priority=priority,
            dont_filter=True,
            meta={PAGE_KEY: key, START: start, ACCEPT_KEY: accept or self.accept},
        )

    def follow_redirect(self, redirected: Request) -> None:
        """Vet the redirect of a page request to ``redirected`` before it is followed (see
        gather.middlewares.PageRedirectMiddleware); raise Dropped when it must not be.

        The target is marked requested now, so that a page linked both as /about and /about/
        is fetched once whichever comes first: the requested URL is already marked
        (page_request), and a later link to the target finds it marked too.
        """
        if not self.allows(redirected.url):
            # A start URL's site may have moved, or it may now be another company's (an acquirer's): the user says.
            advice = " (if that is the company's site, gather it with that URL)" if redirected.meta.get(START) else ""
            raise Dropped(DropReason.offsite, f"redirects to another site, not followed: {redirected.url}{advice}")
        key = page_key(redirected.url)
        if key in self._seen:
            raise Dropped(DropReason.duplicate, f"redirects to {redirected.url}, requested already")
        self._seen.add(key)
        self.reporter.redirect()

    def parse_page(self, response: Response) -> Any:
        """Pages of a source that follows no links: deliver them."""
        self.deliver(response)
        return []

    def deliver(self, response: Response) -> bool:
        """Send a page to the reporter; False when it is a repeat or the budget is already spent.

        Raises CloseSpider once the budget is reached, so nothing more is requested.
        """
        self._pending.discard(response.meta.get(PAGE_KEY, ""))
        key = page_key(response.url)
        if key in self._delivered:
            return False
        if self.reporter.summary.pages >= self.max_pages:
            self.reporter.drop(response.url, DropReason.budget, "page budget spent")
            return False
        text = getattr(response, "text", None)
        if text is None:
            self.reporter.drop(response.url, DropReason.content_type, "not a text response")
            return False
        self._delivered.add(key)
        self._seen.add(key)
        content_type = content_type_of(response.headers) or "text/html"
        self.reporter.page(response.url, text, response.status, content_type, kept=response.meta.get(KEPT_KEY), cached=response.meta.get(FRESH_KEY))
        if self.reporter.summary.pages >= self.max_pages:
            raise CloseSpider("budget")
        return True

    def on_page_error(self, failure: Failure) -> None:
        """Count a failed page by its reason."""
        request: Request = failure.request  # type: ignore[attr-defined]
        self._pending.discard(request.meta.get(PAGE_KEY, ""))
        reason, detail = classify_failure(failure, request)
        self.reporter.drop(request.url, reason, detail, start=request.meta.get(START, False))

    def on_opened(self, spider: Spider) -> None:
        self.deadline = monotonic() + self.time_budget  # the same moment Scrapy's CloseSpider timer starts from
        self.reporter.started()

    def on_closed(self, spider: Spider, reason: str) -> None:
        # Pages queued but never fetched: the page or time budget ran out first (or the crawl was stopped).
        # The last request's clipped deadline and Scrapy's CloseSpider timer end together: either may win.
        self.reporter.summary.time_budget_spent = reason == "closespider_timeout" or monotonic() >= self.deadline
        why = f"the source's time budget ({self.time_budget:g} s) ran out" if self.reporter.summary.time_budget_spent else reason
        for key in sorted(self._pending):
            self.reporter.drop(key, DropReason.budget, f"not fetched: crawl closed ({why})")
        self._pending.clear()
        self.reporter.finished()


def classify_failure(failure: Failure, request: Request) -> tuple[DropReason, str]:
    """The DropReason and a one-line detail for a failed request."""
    value = failure.value
    if isinstance(value, Dropped):
        return value.reason, value.detail
    if isinstance(value, HttpError):
        return DropReason.http_error, f"HTTP {value.response.status}"
    if isinstance(value, IgnoreRequest):
        return DropReason.network_error, str(value) or "request ignored"
    attempts = request.meta.get(ATTEMPT_KEY, 1)
    name = type(value).__name__
    if isinstance(value, TIMEOUT_EXCEPTIONS):
        return DropReason.timeout, f"{name}: no complete answer by its deadline ({attempts} attempt(s))"
    if isinstance(value, RETRY_EXCEPTIONS):
        return DropReason.network_error, f"{name} after {attempts} attempt(s)"
    message = str(value).strip().splitlines()[0] if str(value).strip() else name
    return DropReason.network_error, f"{name}: {message}"
