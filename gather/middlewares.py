"""Downloader middlewares: what may be requested, what is kept, how failures are retried, and page deadlines.

Each one builds itself from the crawler's settings (see gather.settings) and raises
:class:`Dropped` with a DropReason when a request or response is refused, so the
spider's errback can count the drop by its reason.
"""

from __future__ import annotations

import logging
import math
from time import monotonic
from typing import TYPE_CHECKING, Any

from scrapy import Request, signals
from scrapy.core.downloader.handlers.http11 import HTTP11DownloadHandler
from scrapy.downloadermiddlewares.redirect import RedirectMiddleware
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.exceptions import (
    CannotResolveHostError,
    DownloadCancelledError,
    DownloadConnectionRefusedError,
    DownloadTimeoutError,
    IgnoreRequest,
    ResponseDataLossError,
    StopDownload,
)
from scrapy.http import Response
from scrapy.robotstxt import ProtegoRobotParser
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet import defer, error, task
from twisted.web._newclient import ResponseFailed, ResponseNeverReceived

from cikb.core.models import DropReason

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.robotstxt import RobotParser

logger = logging.getLogger(__name__)

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504, 522, 524})
# Transient failures worth another attempt; a refused connection or an unknown host is not.
RETRY_EXCEPTIONS: tuple[type[BaseException], ...] = (
    DownloadTimeoutError,
    error.TimeoutError,
    error.TCPTimedOutError,
    ResponseDataLossError,
    error.ConnectionLost,
    error.ConnectionDone,
    ResponseNeverReceived,
    ResponseFailed,
)
RETRY_PRIORITY_BOOST = 1000
ATTEMPT_KEY = "cikb_attempt"
ACCEPT_KEY = "cikb_accept"
PAGE_KEY = "cikb_key"  # set on page requests (the canonical URL), absent on robots.txt and sitemaps
STARTED_KEY = "cikb_started"  # monotonic time the first attempt of a request began downloading
TIMEOUT_EXCEPTIONS: tuple[type[BaseException], ...] = (DownloadTimeoutError, error.TimeoutError, error.TCPTimedOutError)
KEPT_KEY = "cikb_kept"  # (why, when stored): the answer is the stored copy, kept because the server could not be reached
FRESH_KEY = "cikb_fresh"  # when stored: the answer is the stored copy, fetched live within gather.max_age, taken without a request
ROBOTS_UNAVAILABLE_KEY = "cikb_robots_unavailable"  # the Unavailable rules of the request's host: it may not go out


class Dropped(IgnoreRequest):
    """A request or response refused for a counted reason."""

    def __init__(self, reason: DropReason, detail: str = ""):
        super().__init__(detail or reason.value)
        self.reason = reason
        self.detail = detail or reason.value


class OffsiteMiddleware:
    """Refuse requests the spider does not allow (``SourceSpider.allows``: its registered domains), redirects included.

    A spider whose ``allowed_sites`` is None (news: feed items live anywhere) is not restricted.
    """

    def __init__(self, crawler: Crawler):
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> OffsiteMiddleware:
        return cls(crawler)

    def process_request(self, request: Request) -> None:
        if not self.crawler.spider.allows(request.url):
            raise Dropped(DropReason.offsite, f"off-site: {request.url}")


class BudgetMiddleware:
    """Stop page requests at the door once the source's page budget is spent.

    It counts 2xx page responses of an allowed content type as they leave the
    downloader, which happens before the next request enters it; the spider's own
    count (in its callback) comes too late to stop a request already on its way.
    """

    def __init__(self, crawler: Crawler):
        self.crawler = crawler
        self.max_pages = crawler.settings.getint("CIKB_MAX_PAGES", 20)
        self.accept = set(crawler.settings.getlist("CIKB_ALLOWED_CONTENT_TYPES", ["text/html"]))
        self.pages = 0

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BudgetMiddleware:
        return cls(crawler)

    def process_request(self, request: Request) -> None:
        if request.meta.get(PAGE_KEY) and self.pages >= self.max_pages:
            raise Dropped(DropReason.budget, "page budget spent")

    def process_response(self, request: Request, response: Response) -> Response:
        if request.meta.get(PAGE_KEY) and 200 <= response.status < 300 and content_type_of(response.headers) in self.accept:
            self.pages += 1
        return response


class RobotsMiddleware(RobotsTxtMiddleware):
    """Scrapy's robots.txt middleware, read as RFC 9309 says, with a disallowed page counted as DropReason.robots.

    - 4xx: no robots.txt, everything allowed (§2.3.1.3); Scrapy would parse the error page.
    - 5xx, a network error or a timeout, or a copy kept from the HTTP cache because of one: the
      host is completely disallowed for this crawl (§2.3.1.4); Scrapy would allow everything.
      Its pages may still be served from the HTTP cache, without a request (gather.httpcache).
    - ``Crawl-delay`` longer than DOWNLOAD_DELAY becomes the delay of the host's download slot.
    """

    def __init__(self, crawler: Crawler):
        super().__init__(crawler)
        self._useragent: str = self._robotstxt_useragent or self._default_useragent
        self._cache = crawler.settings.getbool("HTTPCACHE_ENABLED")
        crawler.signals.connect(self.honour_crawl_delay, signal=signals.robots_parsed)

    def process_request_2(self, rp: RobotParser | None, request: Request) -> None:
        if isinstance(rp, Unavailable):
            if not self._cache:
                raise rp.refusal()
            request.meta[ROBOTS_UNAVAILABLE_KEY] = rp  # the HTTP cache serves its copy, else refuses it
            return
        try:
            super().process_request_2(rp, request)
        except IgnoreRequest:
            raise Dropped(DropReason.robots, "disallowed by robots.txt") from None

    async def _parse_robots(self, response: Response, netloc: str, request: Request) -> None:
        kept = response.request.meta.get(KEPT_KEY) if response.request is not None else None
        if kept is not None:
            return self._unavailable(netloc, kept[0])
        if response.status >= 500:
            return self._unavailable(netloc, f"HTTP {response.status}")
        if 400 <= response.status < 500:
            response = response.replace(body=b"")  # no rules: the error page is not a robots.txt
        await super()._parse_robots(response, netloc, request)

    def _robots_error(self, exc: Exception, netloc: str) -> None:
        self._unavailable(netloc, describe_failure(exc))

    def _unavailable(self, netloc: str, cause: str) -> None:
        parser = Unavailable(cause, netloc)
        self.crawler.spider.reporter.robots_unavailable(parser.why)
        waiting = self._parsers[netloc]
        self._parsers[netloc] = parser
        if isinstance(waiting, defer.Deferred):
            waiting.callback(parser)

    def honour_crawl_delay(self, robotparser: RobotParser, request: Request) -> None:
        """Sent before any request waiting for this robots.txt goes on, so none slips out sooner."""
        delay = getattr(robotparser, "crawl_delay", lambda agent: None)(self._useragent)
        if delay is None or delay <= self.crawler.settings.getfloat("DOWNLOAD_DELAY"):  # never shorter than configured
            return
        downloader = self.crawler.engine.downloader
        host = urlparse_cached(request).hostname or ""  # the download slot's key (per host, as Scrapy's)
        downloader.per_slot_settings.setdefault(host, {})["delay"] = delay
        if host in downloader.slots:
            downloader.slots[host].delay = delay
        self.crawler.spider.reporter.crawl_delay(delay)


class Unavailable(ProtegoRobotParser):
    """The rules of a robots.txt that could not be read: disallow everything, saying why.

    Its pages are refused as the failure that stopped robots.txt (http_error for a 5xx,
    network_error else), so a site that is down reads as down, and a start URL refused this
    way is the source's error."""

    def __init__(self, cause: str, host: str):
        super().__init__(b"User-agent: *\nDisallow: /\n", None)
        self.cause = cause  # 'HTTP 503', or describe_failure's words: 'timed out', 'connection refused'
        self.reason = DropReason.http_error if cause.startswith("HTTP ") else DropReason.network_error
        # The host named: a feed's items span hosts, and one host's robots.txt speaks for that host only.
        self.why = f"robots.txt unavailable ({cause}) on {host}: complete disallow of that host for this gather (RFC 9309)"

    def refusal(self) -> Dropped:
        return Dropped(self.reason, self.why)


def describe_failure(exception: BaseException) -> str:
    """A few words for why a download failed ('connection refused', 'timed out', ...)."""
    if isinstance(exception, (DownloadConnectionRefusedError, error.ConnectionRefusedError)):
        return "connection refused"
    if isinstance(exception, TIMEOUT_EXCEPTIONS):
        return "timed out"
    if isinstance(exception, (CannotResolveHostError, error.DNSLookupError)):
        return "unknown host"
    if isinstance(exception, Dropped):
        return exception.detail
    return type(exception).__name__


class BackoffRetryMiddleware:
    """Retry timeouts, dropped connections, 429 and 5xx: ``max_attempts`` attempts in all.

    Before attempt n+1 it waits ``backoff_base * 2**(n-1)`` seconds without blocking
    the reactor (other sources and domains go on meanwhile); the retried request then
    passes the per-domain delay like any other.

    No retry starts when its backoff would end past the request's deadline (see
    :class:`DeadlineDownloadHandler`): a failure then counts as a timeout.
    """

    def __init__(self, crawler: Crawler):
        self.crawler = crawler
        self.max_attempts = crawler.settings.getint("CIKB_MAX_ATTEMPTS", 3)
        self.backoff_base = crawler.settings.getfloat("CIKB_BACKOFF_BASE", 1.0)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BackoffRetryMiddleware:
        return cls(crawler)

    async def process_response(self, request: Request, response: Response) -> Request | Response:
        if response.status not in RETRY_STATUSES:
            return response
        retry = await self._retry(request, f"HTTP {response.status}")
        return retry or response

    async def process_exception(self, request: Request, exception: Exception) -> Request | None:
        if not isinstance(exception, RETRY_EXCEPTIONS):
            return None
        attempt: int = request.meta.get(ATTEMPT_KEY, 1)
        if attempt < self.max_attempts and not isinstance(exception, TIMEOUT_EXCEPTIONS) and self._past_deadline(request):
            raise Dropped(DropReason.timeout, f"{type(exception).__name__} after {attempt} attempt(s), no time left for another")
        return await self._retry(request, type(exception).__name__)

    def _past_deadline(self, request: Request) -> bool:
        """True when the next attempt's backoff would end at or past the request's deadline."""
        attempt: int = request.meta.get(ATTEMPT_KEY, 1)
        return monotonic() + self._backoff(attempt) >= deadline_of(request, self.crawler)

    def _backoff(self, attempt: int) -> float:
        return self.backoff_base * 2 ** (attempt - 1)

    async def _retry(self, request: Request, why: str) -> Request | None:
        attempt: int = request.meta.get(ATTEMPT_KEY, 1)
        if attempt >= self.max_attempts or self._past_deadline(request):
            logger.info("giving up on %s after %d attempts (%s)", request.url, attempt, why)
            return None
        await sleep(self._backoff(attempt))
        logger.info("retrying %s (attempt %d, %s)", request.url, attempt + 1, why)
        # Jump the queue: the backoff is the wait, not the backoff plus everything queued meanwhile.
        meta = {**request.meta, ATTEMPT_KEY: attempt + 1}
        return request.replace(meta=meta, dont_filter=True, priority=request.priority + RETRY_PRIORITY_BOOST)


class DeadlineDownloadHandler(HTTP11DownloadHandler):
    """Scrapy's HTTP/1.1 handler, with DOWNLOAD_TIMEOUT as one deadline for all attempts of a request.

    Scrapy's own timeout already bounds an attempt's whole download (connect, headers and body,
    not idle time), so a server that drips bytes is cut off; but every retry started the clock
    again (3 attempts of 30 s plus backoff held one page for 93 s). Here the clock starts when the
    first attempt starts downloading (after the politeness delay, not while queued), each attempt
    gets only what is left, and never more than the source's time budget has left
    (``SourceSpider.deadline``), so a source ends on time with its requests in flight.
    """

    def __init__(self, crawler: Crawler):
        super().__init__(crawler)
        self.crawler = crawler

    async def download_request(self, request: Request) -> Response:
        request.meta.setdefault(STARTED_KEY, monotonic())
        left = deadline_of(request, self.crawler) - monotonic()
        if left <= 0:
            raise DownloadTimeoutError(f"Getting {request.url}: no time left before its deadline.")
        request.meta["download_timeout"] = left
        try:
            return await super().download_request(request)
        finally:
            self._delay_from_now(request)

    def _delay_from_now(self, request: Request) -> None:
        """The host's next request waits DOWNLOAD_DELAY from this answer, not from when this request was handed
        here: on a busy machine a request reached the wire up to 0.24 s after that (a new connection, a late
        event loop), and the next one, on time, came 0.1 s behind it for a 0.3 s delay. Counted from the
        answer (as Nutch counts its fetcher delay), two requests are never closer than the delay, at the
        cost of one response time per request."""
        downloader = self.crawler.engine.downloader if self.crawler.engine else None
        slot = downloader.slots.get(downloader.get_slot_key(request)) if downloader else None
        if slot is not None:
            slot.lastseen = max(slot.lastseen, monotonic())


def deadline_of(request: Request, crawler: Crawler) -> float:
    """The monotonic time by which ``request`` must be answered: DOWNLOAD_TIMEOUT after its first
    attempt started (not started yet: from now), or the end of the source's time budget if sooner."""
    started = request.meta.get(STARTED_KEY, monotonic())
    page_deadline = started + crawler.settings.getfloat("DOWNLOAD_TIMEOUT")
    return min(page_deadline, getattr(crawler.spider, "deadline", math.inf))


class PageRedirectMiddleware(RedirectMiddleware):
    """Scrapy's RedirectMiddleware (301, 302, 303, 307, 308; at most REDIRECT_MAX_TIMES in a row),
    with each redirect of a page request vetted by its spider before it is followed
    (``SourceSpider.follow_redirect``): not off the source's sites, not to a page already
    requested, and counted apart from drops.

    The vetting is here, where the redirect is made, because nothing else can do it: page
    requests are ``dont_filter`` (the spider de-duplicates itself) and the redirected request
    inherits that, so Scrapy's dupefilter never sees it; and a redirect refused here is
    reported under the URL that was asked for.
    """

    def process_response(self, request: Request, response: Response) -> Request | Response:
        result = super().process_response(request, response)
        if isinstance(result, Request) and request.meta.get(PAGE_KEY):
            self.crawler.spider.follow_redirect(result)  # raises Dropped to refuse it
        return result


class HtmlOnlyMiddleware:
    """Keep only the content types a request accepts (``meta['cikb_accept']``); bound response size.

    Non-HTML bodies are not even downloaded: the check runs when the headers arrive.
    It applies to final answers only: a redirect is followed whatever it says about its own
    (usually empty) body, and the check applies to where it leads.
    Responses over DOWNLOAD_MAXSIZE are cancelled by Scrapy; this counts them as ``size``.
    """

    def __init__(self, crawler: Crawler):
        crawler.signals.connect(self.headers_received, signal=signals.headers_received)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> HtmlOnlyMiddleware:
        return cls(crawler)

    def headers_received(self, headers: Any, request: Request) -> None:
        content_type = content_type_of(headers)
        if not content_type and _conditional(request):
            return  # most likely a 304 (no body, often no Content-Type): the HTTP cache serves the stored page, checked below
        if b"Location" in headers:
            # Most likely a redirect (servers send 301 without a Content-Type, e.g. /about -> /about/);
            # the signal does not carry the status, so it is let through whole (DOWNLOAD_MAXSIZE still
            # bounds it): PageRedirectMiddleware follows a 3xx, and any 2xx is checked below.
            return
        if not _accepted(request, content_type):
            raise StopDownload(fail=True)

    def process_response(self, request: Request, response: Response) -> Response:
        content_type = content_type_of(response.headers)
        if 200 <= response.status < 300 and not _accepted(request, content_type):
            raise Dropped(DropReason.content_type, f"content type {content_type or 'missing'}")
        return response

    def process_exception(self, request: Request, exception: Exception) -> None:
        if isinstance(exception, StopDownload):
            response = getattr(exception, "response", None)
            if response is not None and response.status >= 400:  # an error page without a Content-Type: the error is the news
                raise Dropped(DropReason.http_error, f"HTTP {response.status}")
            content_type = content_type_of(response.headers) if response is not None else ""
            raise Dropped(DropReason.content_type, f"content type {content_type or 'missing'}")
        if isinstance(exception, (DownloadCancelledError, defer.CancelledError)):
            raise Dropped(DropReason.size, "response larger than max_download_bytes")


def _conditional(request: Request) -> bool:
    return b"If-None-Match" in request.headers or b"If-Modified-Since" in request.headers


def content_type_of(headers: Any) -> str:
    """The lowercased media type of a Content-Type header, without parameters ('' when absent)."""
    raw = headers.get(b"Content-Type") or b""
    return raw.decode("latin-1").split(";")[0].strip().lower()


def _accepted(request: Request, content_type: str) -> bool:
    accept: list[str] | None = request.meta.get(ACCEPT_KEY)
    return accept is None or content_type in accept


async def sleep(seconds: float) -> None:
    """Wait without blocking the reactor."""
    from twisted.internet import reactor

    await maybe_deferred_to_future(task.deferLater(reactor, seconds, lambda: None))
