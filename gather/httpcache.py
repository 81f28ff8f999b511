"""Conditional requests for re-gathers (issue 11, item 3): Scrapy's HTTP cache, revalidated on every use.

A page stored with a validator (ETag or Last-Modified) is asked for again with If-None-Match /
If-Modified-Since; a 304 answer serves the stored page. The request is still made, through
the downloader's per-domain slot, so the politeness delay applies to it like to any other:
the cache saves bytes and parsing work, never a request. Pages without a validator are
stored too (for ``max_age``), but downloaded in full each time they are used without it.

With ``gather.max_age`` (`gather --max-age`), a stored page fetched or revalidated live within that
many seconds is fresh: it is taken from the cache without a request (so without a politeness
delay) and counted as cached (``meta[FRESH_KEY]``), as Firecrawl's maxAge does. A 304 refreshes
the stored copy's Date, so a page confirmed unchanged is fresh again from then.

When the server cannot be reached (refused, timed out, unknown host, a 5xx), Scrapy serves the
stored copy instead; :class:`KeepingCacheMiddleware` marks such a response as kept (issue 25,
item 1), so the spider counts it as unreachable, not fetched. A 304 is a live answer.
"""

from __future__ import annotations

from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from pathlib import Path

from scrapy import Request, Spider
from scrapy.downloadermiddlewares.httpcache import HttpCacheMiddleware
from scrapy.exceptions import CannotResolveHostError, ResponseDataLossError
from scrapy.extensions.httpcache import FilesystemCacheStorage, RFC2616Policy
from scrapy.http import Response
from scrapy.settings import BaseSettings

from cikb.gather.middlewares import FRESH_KEY, KEPT_KEY, ROBOTS_UNAVAILABLE_KEY, Unavailable, describe_failure

_COMPLETE = "complete"  # written after every other file of an entry
_LASTING = frozenset((*range(200, 300), 300, 301, 302, 303, 307, 308, 404, 410))  # stored whatever their validators; never 304
_CACHED = "cached_response"  # where HttpCacheMiddleware keeps the stored copy while the request is out


class KeepingCacheMiddleware(HttpCacheMiddleware):
    """Scrapy's HTTP cache middleware, saying when it answered with the stored copy because the
    server could not be reached: ``meta[KEPT_KEY] = (why, when the copy was last fetched live)``.

    A page of a host whose robots.txt is unavailable (``meta[ROBOTS_UNAVAILABLE_KEY]``) may not be
    requested (RFC 9309): its stored copy is served without a request, else it is refused.
    """

    # Scrapy's list, and an unknown host or a cut-off body: the site is as unreachable then.
    DOWNLOAD_EXCEPTIONS = (*HttpCacheMiddleware.DOWNLOAD_EXCEPTIONS, CannotResolveHostError, ResponseDataLossError)

    def process_request(self, request: Request, spider: Spider | None = None) -> Request | Response | None:
        request.meta.pop(KEPT_KEY, None)  # a redirect or retry copies its request's meta: its own answer decides
        request.meta.pop(FRESH_KEY, None)
        result = super().process_request(request)
        if isinstance(result, Response):  # fresh within max_age: no request
            request.meta[FRESH_KEY] = stored_at(result)
        robots: Unavailable | None = request.meta.get(ROBOTS_UNAVAILABLE_KEY)
        if result is not None or robots is None:
            return result
        stored: Response | None = request.meta.pop(_CACHED, None)
        if not _keepable(stored):
            raise robots.refusal()
        return _kept(request, stored, robots.cause)

    def process_response(self, request: Request, response: Response, spider: Spider | None = None) -> Request | Response:
        stored: Response | None = request.meta.get(_CACHED)
        result = super().process_response(request, response)
        if result is stored and response.status >= 500:
            return _kept(request, stored, f"HTTP {response.status}") if _keepable(stored) else response
        return result

    def process_exception(self, request: Request, exception: Exception, spider: Spider | None = None) -> Request | Response | None:
        result = super().process_exception(request, exception)
        if isinstance(result, Response):
            return _kept(request, result, describe_failure(exception)) if _keepable(result) else None
        return result


def _keepable(stored: Response | None) -> bool:
    """A stored page worth keeping when its server cannot be reached: not an error answer (a 404 stored
    for --max-age), which would tell of the page, not of the server now."""
    return stored is not None and stored.status < 400


def _kept(request: Request, stored: Response, why: str) -> Response:
    request.meta[KEPT_KEY] = (why, stored_at(stored))
    return stored


def stored_at(response: Response) -> datetime | None:
    """When a stored response was last fetched or revalidated live (its Date header; set on storing when absent)."""
    raw = response.headers.get(b"Date")
    try:
        return parsedate_to_datetime(raw.decode("latin-1")) if raw else None
    except (TypeError, ValueError):
        return None


class RevalidatingPolicy(RFC2616Policy):
    """RFC 2616 caching where a stored page is fresh only within ``CIKB_MAX_AGE`` seconds of its last live
    answer (its Date), whatever its own headers say; any other use asks the server whether it changed."""

    def __init__(self, settings: BaseSettings) -> None:
        super().__init__(settings)
        self.max_age = settings.getfloat("CIKB_MAX_AGE")

    def should_cache_response(self, response: Response, request: Request) -> bool:
        """RFC 2616's choice, and every answer that will not change by asking again soon (2xx, 3xx, 404, 410):
        within max_age a missing page or a page without validators is not asked for again either."""
        if response.status in _LASTING and b"no-store" not in self._parse_cachecontrol(response):
            return True
        return super().should_cache_response(response, request)

    def is_cached_response_fresh(self, cachedresponse: Response, request: Request) -> bool:
        when = stored_at(cachedresponse) if self.max_age > 0 else None
        if when is not None and (datetime.now(timezone.utc) - when).total_seconds() < self.max_age:
            return True
        self._set_conditional_validators(request, cachedresponse)
        return False


class WholeEntryStorage(FilesystemCacheStorage):
    """Scrapy's filesystem storage, but an entry counts only once written whole: a crawl killed
    mid-write leaves a miss (a full download next time), never a torn page a 304 would serve."""

    def store_response(self, spider: Spider, request: Request, response: Response) -> None:
        marker = Path(self._get_request_path(spider, request)) / _COMPLETE
        marker.unlink(missing_ok=True)
        super().store_response(spider, request, response)
        marker.touch()

    def retrieve_response(self, spider: Spider, request: Request) -> Response | None:
        if not (Path(self._get_request_path(spider, request)) / _COMPLETE).is_file():
            return None
        return super().retrieve_response(spider, request)
