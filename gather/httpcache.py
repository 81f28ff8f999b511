"""Conditional requests for re-gathers (issue 11, item 3): Scrapy's HTTP cache, revalidated on every use.

A page stored with a validator (ETag or Last-Modified) is asked for again with If-None-Match /
If-Modified-Since; a 304 answer serves the stored page. The request is still made, through
the downloader's per-domain slot, so the politeness delay applies to it like to any other:
the cache saves bytes and parsing work, never a request. Pages without a validator are
not stored (RFC 2616 policy) and are downloaded in full each time.
"""

from __future__ import annotations

from pathlib import Path

from scrapy import Request, Spider
from scrapy.extensions.httpcache import FilesystemCacheStorage, RFC2616Policy
from scrapy.http import Response

_COMPLETE = "complete"  # written after every other file of an entry


class RevalidatingPolicy(RFC2616Policy):
    """RFC 2616 caching where nothing stored is fresh: every use asks the server whether it changed."""

    def is_cached_response_fresh(self, cachedresponse: Response, request: Request) -> bool:
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
