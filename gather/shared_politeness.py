"""Politeness across crawls and machines: one request per ``download_delay`` per registered domain, through Redis.

Scrapy keeps a domain's requests ``DOWNLOAD_DELAY`` apart within one crawl; the workers of a
task queue run many crawls at once, on several machines, and two of them may reach one
domain (two companies on one host, every Wikipedia article). This downloader middleware asks
Redis for the domain's next free moment before each request goes out: one atomic script
reserves it (``max(now, next free)``, then moves the next free moment ``delay`` on) and
answers how long to wait; at that moment a second script checks the domain's last request
really is ``delay`` behind (a turn taken late, on a busy event loop, pushes the next one back)
and records this one. Redis's own clock is the only clock, so machines whose clocks disagree
still keep the spacing. The delay counts from a request's answer, not from its turn (the
crawl's own delay does too, see DeadlineDownloadHandler): on a busy machine a request can leave
well after its turn, and the next one, on time, would reach the server closer than the delay.
For the same reason a crawl takes its next turn for a domain only once its previous request
there is answered: Scrapy sends one request per domain at a time, and a turn taken while the
previous one was downloading went out after that download, later than Redis recorded it.
Requests answered from the HTTP cache without a request (``gather --max-age``) never reach it:
it sits after the cache in the chain.

robots.txt is read once per origin across the crawls too: the first crawl to need it fetches it
(the others wait for it while it holds a short claim in Redis), and a readable answer (2xx, 4xx)
is kept in Redis for an hour, within RFC 9309's 24 hours; an answer that says the host is
down (5xx, a network error) is not kept, so the next crawl asks again.

Registered by :func:`cikb.gather.settings.scrapy_settings` when ``[gather] politeness_url`` is
set (``cikb worker`` sets it to its queue's URL).
"""

from __future__ import annotations

import asyncio
import json
from time import monotonic
from typing import TYPE_CHECKING

from redis.asyncio import Redis
from redis.exceptions import RedisError
from scrapy import Request
from scrapy.http import Response
from scrapy.utils.httpobj import urlparse_cached

from cikb.gather.middlewares import Dropped
from cikb.gather.urls import site_of

from cikb.core.models import DropReason

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

URL_SETTING = "CIKB_POLITENESS_URL"
KEY_PREFIX = "cikb:polite:"
ROBOTS_PREFIX = "cikb:robots:"  # + origin: the answer (hash of status, headers, body); + ":claim": who fetches it
ROBOTS_TTL = 3600  # seconds a robots.txt answer is shared (RFC 9309 §2.4: at most 24 hours)
ROBOTS_MAX_BYTES = 500 * 1024  # RFC 9309 §2.5: parsers read at least 500 KiB
SHARED_KEY = "cikb_shared_robots"  # meta: this crawl holds the claim to fetch this robots.txt
TURN_KEY = "cikb_shared_turn"  # meta: the domain whose turn this request holds until it is answered
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
# At the reserved moment: KEYS[1] the domain's last request (ms, Redis time); ARGV[1] the delay (ms). A request
# whose turn came late (a busy event loop) pushes the next one back instead of leaving less than the delay.
# Returns the ms still to wait (0: go now, recorded as the last request).
CONFIRM = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
local delay = tonumber(ARGV[1])
if last > 0 and now < last + delay then return last + delay - now end
redis.call('SET', KEYS[1], now, 'PX', delay + 60000)
return 0
"""

# When a request is answered: KEYS[1] the domain's next free moment, KEYS[2] its last request; ARGV[1] the delay
# (ms). Both move to this moment if later, so the domain's next request, of any crawl, waits the delay from now.
ANSWERED = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local delay = tonumber(ARGV[1])
if now > tonumber(redis.call('GET', KEYS[2]) or '0') then redis.call('SET', KEYS[2], now, 'PX', delay + 60000) end
if now + delay > tonumber(redis.call('GET', KEYS[1]) or '0') then redis.call('SET', KEYS[1], now + delay, 'PX', delay + 60000) end
return 0
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
        self._turns: dict[str, asyncio.Lock] = {}  # per domain in this crawl: held from a request's turn until its answer

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SharedPolitenessMiddleware:
        return cls(crawler, crawler.settings.get(URL_SETTING))

    async def process_request(self, request: Request) -> Response | None:
        if self._client is None:  # made in the running event loop (the asyncio reactor's)
            self._client = Redis.from_url(self.url, socket_timeout=10, socket_connect_timeout=10)
        if _is_robots(request):
            shared = await self._guarded(self._shared_robots(request))
            if shared is not None:
                return shared
        await self._guarded(self._take_turn(request))
        return None

    async def process_response(self, request: Request, response: Response) -> Response:
        await self._end_turn(request)
        if request.meta.pop(SHARED_KEY, None):
            readable = 200 <= response.status < 300 or 400 <= response.status < 500  # not a 304 (a revalidation) nor a redirect
            if readable and len(response.body) <= ROBOTS_MAX_BYTES:
                await self._guarded(self._keep_robots(request, response))
            await self._guarded(self._client.delete(_robots_key(request) + ":claim"))
        return response

    async def process_exception(self, request: Request, exception: Exception) -> None:
        await self._end_turn(request)
        if request.meta.pop(SHARED_KEY, None):  # not kept: the next crawl asks again
            await self._guarded(self._client.delete(_robots_key(request) + ":claim"))

    async def _guarded(self, step):  # noqa: ANN001, ANN202
        try:
            return await step
        except (RedisError, OSError) as err:
            raise Dropped(DropReason.network_error, f"politeness lock at {_where(self.url)} unavailable ({type(err).__name__})") from None

    async def _shared_robots(self, request: Request) -> Response | None:
        """The robots.txt answer another crawl fetched, waiting while one is fetching it; None: this crawl fetches it."""
        key = _robots_key(request)
        deadline = monotonic() + self.crawler.settings.getfloat("DOWNLOAD_TIMEOUT")
        while True:
            kept = await self._client.hgetall(key)
            if kept:
                return Response(request.url, status=int(kept[b"status"]), headers=json.loads(kept[b"headers"]), body=kept[b"body"],
                                request=request, flags=["shared"])
            claim_seconds = int(self.crawler.settings.getfloat("DOWNLOAD_TIMEOUT")) + 5
            if await self._client.set(key + ":claim", "1", nx=True, ex=claim_seconds) or monotonic() > deadline:
                request.meta[SHARED_KEY] = True
                return None
            await asyncio.sleep(0.05)

    async def _keep_robots(self, request: Request, response: Response) -> None:
        headers = {name.decode("latin-1"): [v.decode("latin-1") for v in values] for name, values in response.headers.items()}
        key = _robots_key(request)
        pipe = self._client.pipeline()
        pipe.hset(key, mapping={"status": response.status, "headers": json.dumps(headers), "body": response.body})
        pipe.expire(key, ROBOTS_TTL)
        await pipe.execute()

    async def _take_turn(self, request: Request) -> None:
        domain = site_of(request.url)
        # Scrapy hands every queued request of a domain to the middlewares at once; reserving them all at
        # once would book the domain for this crawl's whole queue. Each waits until the last one is
        # answered, so crawls sharing a domain take turns request by request, and a request goes out
        # as soon as its turn is confirmed (Scrapy's slot has nothing else of this domain in flight).
        delay_ms = int(self._delay(request) * 1000)
        turn = self._turns.setdefault(domain, asyncio.Lock())
        try:  # bounded: a request some later middleware dropped without an answer must not stop the domain
            await asyncio.wait_for(turn.acquire(), self.crawler.settings.getfloat("DOWNLOAD_TIMEOUT") + self.delay)
        except asyncio.TimeoutError:
            pass  # this request takes the lost one's turn over: the lock stays held, and is released at this answer
        request.meta[TURN_KEY] = (domain, delay_ms)
        try:
            await asyncio.sleep(await self._client.eval(RESERVE, 1, KEY_PREFIX + domain, delay_ms) / 1000)
            while (late_ms := await self._client.eval(CONFIRM, 1, KEY_PREFIX + domain + ":last", delay_ms)) > 0:
                await asyncio.sleep(late_ms / 1000)
        except BaseException:
            request.meta.pop(TURN_KEY, None)
            self._turns[domain].release()
            raise

    async def _end_turn(self, request: Request) -> None:
        """The request is answered (or failed): the domain's delay counts from now, and this crawl's next request
        to it may take a turn. A broker failure here loses nothing: the next turn asks the broker again."""
        domain, delay_ms = request.meta.pop(TURN_KEY, (None, 0))
        if domain is None:
            return
        try:
            await self._client.eval(ANSWERED, 2, KEY_PREFIX + domain, KEY_PREFIX + domain + ":last", delay_ms)
        except (RedisError, OSError):
            pass
        finally:
            turn = self._turns[domain]
            if turn.locked():
                turn.release()

    def _delay(self, request: Request) -> float:
        host = urlparse_cached(request).hostname or ""
        slot = self.crawler.engine.downloader.slots.get(host) if self.crawler.engine else None
        return max(self.delay, slot.delay if slot is not None else 0.0)


def _is_robots(request: Request) -> bool:
    """The robots.txt request Scrapy's robots.txt middleware makes (its meta says so)."""
    return bool(request.meta.get("dont_obey_robotstxt")) and urlparse_cached(request).path == "/robots.txt"


def _robots_key(request: Request) -> str:
    url = urlparse_cached(request)
    return f"{ROBOTS_PREFIX}{url.scheme}://{url.netloc}"


def _where(url: str) -> str:
    """host:port of a Redis URL, without its credentials."""
    return url.rsplit("@", 1)[-1].split("://", 1)[-1]
