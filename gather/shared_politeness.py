"""Politeness across crawls and machines: one request per ``download_delay`` per registered domain, through Redis.

Scrapy keeps a domain's requests ``DOWNLOAD_DELAY`` apart within one crawl; the workers of a
task queue run many crawls at once, on several machines, and two of them may reach one
domain (two companies on one host, every Wikipedia article). This downloader middleware asks
Redis for the domain's next free moment before each request goes out: one atomic script
reserves it (``max(now, next free)``, then moves the next free moment ``delay`` on) and
answers how long to wait. Redis's own clock is the only clock, so machines whose clocks
disagree still keep the spacing. Requests answered from the HTTP cache without a request
(``gather --max-age``) never reach it: it sits after the cache in the chain.

Registered by :func:`cikb.gather.settings.scrapy_settings` when ``[gather] politeness_url`` is
set (``cikb worker`` sets it to its queue's URL).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from redis.asyncio import Redis
from redis.exceptions import RedisError
from scrapy import Request
from scrapy.utils.httpobj import urlparse_cached

from cikb.gather.middlewares import Dropped
from cikb.gather.urls import site_of

from cikb.core.models import DropReason

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

URL_SETTING = "CIKB_POLITENESS_URL"
KEY_PREFIX = "cikb:polite:"
# KEYS[1]: the domain's next free moment (ms, Redis time); ARGV[1]: the delay (ms). Returns the ms to wait.
RESERVE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local free = tonumber(redis.call('GET', KEYS[1]) or '0')
local at = math.max(now, free)
local delay = tonumber(ARGV[1])
redis.call('SET', KEYS[1], at + delay, 'PX', at - now + delay + 60000)
return at - now
"""


class SharedPolitenessMiddleware:
    """Wait for the request's registered domain's turn across every crawl sharing the Redis at ``CIKB_POLITENESS_URL``.

    The delay is the crawl's: DOWNLOAD_DELAY, or robots.txt's longer Crawl-delay once the host's
    download slot has it (see RobotsMiddleware). A Redis that cannot be reached drops the request
    as a network error naming it: a request sent without its turn would break the promise.
    """

    def __init__(self, crawler: Crawler, url: str):
        self.crawler = crawler
        self.url = url
        self.delay = crawler.settings.getfloat("DOWNLOAD_DELAY")
        self._client: Redis | None = None
        self._turns: dict[str, asyncio.Lock] = {}  # one reservation at a time per domain in this crawl

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SharedPolitenessMiddleware:
        return cls(crawler, crawler.settings.get(URL_SETTING))

    async def process_request(self, request: Request) -> None:
        if self._client is None:  # made in the running event loop (the asyncio reactor's)
            self._client = Redis.from_url(self.url, socket_timeout=10, socket_connect_timeout=10)
        domain = site_of(request.url)
        # Scrapy hands every queued request of a domain to the middlewares at once; reserving them all at
        # once would book the domain for this crawl's whole queue. Each waits for the last one's moment,
        # so crawls sharing a domain take turns request by request.
        async with self._turns.setdefault(domain, asyncio.Lock()):
            try:
                wait_ms = await self._client.eval(RESERVE, 1, KEY_PREFIX + domain, int(self._delay(request) * 1000))
            except (RedisError, OSError) as err:
                raise Dropped(DropReason.network_error, f"politeness lock at {_where(self.url)} unavailable ({type(err).__name__})") from None
            if wait_ms > 0:
                await asyncio.sleep(wait_ms / 1000)

    def _delay(self, request: Request) -> float:
        host = urlparse_cached(request).hostname or ""
        slot = self.crawler.engine.downloader.slots.get(host) if self.crawler.engine else None
        return max(self.delay, slot.delay if slot is not None else 0.0)


def _where(url: str) -> str:
    """host:port of a Redis URL, without its credentials."""
    return url.rsplit("@", 1)[-1].split("://", 1)[-1]
