"""Web search and page fetching behind one interface (spec N8).

A :class:`WebProvider` can ``search(query)`` (hits with url, title, snippet)
and ``fetch(url)`` (a page's readable text). Two providers ship:

- :class:`OpenAIWebSearch`: the OpenAI Responses API ``web_search`` tool
  through the ``openai`` client (the endpoint and key of ``settings.llm``);
  hits are the answer's ``url_citation`` annotations with the cited text.
- :class:`HttpJsonSearch`: ``GET <settings.enrich.search_url>?q=...&count=N``
  answering ``{"results": [{"url", "title", "snippet"}]}`` (SearXNG-style;
  ``content`` or ``description`` are accepted for ``snippet``). Tests serve
  one on 127.0.0.1.

Both fetch pages with :class:`PageFetcher`: http(s) only, robots.txt obeyed,
``text/html`` only, at most ``settings.gather.max_download_bytes``, the
gather timeout and User-Agent; text via ``clean.clean_page`` when the clean
stage provides it, else trafilatura.
"""

from __future__ import annotations

import asyncio
import re
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any
from urllib.parse import urlsplit
from urllib.robotparser import RobotFileParser

import httpx

from cikb.core.config import GatherSettings, Settings
from cikb.core.errors import BadInputError, CikbError
from cikb.core.secrets import mask_secrets


class SearchError(CikbError):
    """The web search provider failed."""

    exit_code = 1


@dataclass(frozen=True)
class SearchHit:
    url: str
    title: str = ""
    snippet: str = ""


@dataclass(frozen=True)
class WebPage:
    """A fetched page's readable text, or why there is none."""

    url: str
    title: str = ""
    text: str = ""
    skipped: str | None = None  # robots | content_type | size | http_error | network_error | timeout | scheme


class PageFetcher:
    """Polite single-page fetching within the gather bounds."""

    def __init__(self, settings: Settings, transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.gather: GatherSettings = settings.gather
        self.settings = settings
        self._transport = transport
        self._robots: dict[str, RobotFileParser | None] = {}
        self._robots_lock = asyncio.Lock()

    def _client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            timeout=self.gather.request_timeout,
            headers={"User-Agent": self.gather.user_agent},
            follow_redirects=True,
            transport=self._transport,
        )

    async def fetch(self, url: str) -> WebPage:
        """The page's text, or a WebPage whose ``skipped`` says why not."""
        if urlsplit(url).scheme not in ("http", "https"):
            return WebPage(url, skipped="scheme")
        async with self._client() as client:
            if not await self._allowed(client, url):
                return WebPage(url, skipped="robots")
            try:
                # One deadline for the whole page: httpx's own timeout bounds each read, so a server
                # that drips a byte at a time would otherwise hold the row for as long as it likes.
                html = await asyncio.wait_for(self._download(client, url), self.gather.request_timeout)
            except _Skip as skip:
                return WebPage(url, skipped=skip.reason)
            except (TimeoutError, httpx.TimeoutException):
                return WebPage(url, skipped="timeout")
            except httpx.HTTPError:
                return WebPage(url, skipped="network_error")
        title, text = self._extract(url, html)
        return WebPage(url, title=title, text=text)

    async def _allowed(self, client: httpx.AsyncClient, url: str) -> bool:
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        async with self._robots_lock:
            if origin not in self._robots:
                self._robots[origin] = await self._read_robots(client, origin)
        parser = self._robots[origin]
        return parser is None or parser.can_fetch(self.gather.user_agent, url)

    async def _read_robots(self, client: httpx.AsyncClient, origin: str) -> RobotFileParser | None:
        """None means 'no rules' (404); a robots.txt that cannot be read at all (5xx, network) disallows, as RFC 9309 asks."""
        parser = RobotFileParser()
        try:  # under the page deadline too: the lock it is read under holds every other site's fetch
            response = await asyncio.wait_for(client.get(f"{origin}/robots.txt"), self.gather.request_timeout)
        except (TimeoutError, httpx.HTTPError):
            response = None
        if response is None or response.status_code >= 500:
            parser.parse(["User-agent: *", "Disallow: /"])
        elif response.status_code >= 400:
            return None
        else:
            parser.parse(response.text[:500_000].splitlines())
        return parser

    async def _download(self, client: httpx.AsyncClient, url: str) -> str:
        async with client.stream("GET", url) as response:
            if response.status_code >= 400:
                raise _Skip("http_error")
            content_type = response.headers.get("content-type", "").split(";")[0].strip().lower()
            if content_type not in self.gather.allowed_content_types:
                raise _Skip("content_type")
            declared = int(response.headers.get("content-length") or 0)
            if declared > self.gather.max_download_bytes:
                raise _Skip("size")
            body = bytearray()
            async for piece in response.aiter_bytes():
                body.extend(piece)
                if len(body) > self.gather.max_download_bytes:
                    raise _Skip("size")
            return body.decode(response.encoding or "utf-8", errors="replace")

    def _extract(self, url: str, html: str) -> tuple[str, str]:
        """(title, text): the clean stage's extraction when it exists, else trafilatura's."""
        text = _clean_stage_text(url, html, self.settings)
        if text is None:
            text = _trafilatura_text(html)
        return _html_title(html), text[: self.gather.max_raw_bytes]


class _Skip(Exception):
    def __init__(self, reason: str) -> None:
        self.reason = reason


def _clean_stage_text(url: str, html: str, settings: Settings) -> str | None:
    try:
        from cikb.clean import clean_page
    except ImportError:
        return None
    from cikb.core.models import FetchedPage, RawDocument

    page = FetchedPage(url=url, source_type="news", html=html, fetched_at=datetime.now(timezone.utc))
    try:
        result = clean_page(page, "web", settings.clean)
    except Exception:  # a page the clean stage cannot handle is a page without text, not a failed row
        return ""
    return result.content if isinstance(result, RawDocument) else ""


def _trafilatura_text(html: str) -> str:
    import trafilatura

    return trafilatura.extract(html, include_comments=False, favor_precision=True) or ""


def _html_title(html: str) -> str:
    match = re.search(r"<title[^>]*>(.*?)</title>", html[:50_000], re.I | re.S)
    return " ".join(match.group(1).split())[:200] if match else ""


@dataclass(frozen=True)
class SearchCall:
    """One web search as the call log records it."""

    provider: str
    query: str
    urls: list[str]
    latency_s: float
    error: str | None = None


SearchCallback = Callable[[SearchCall], None]


class WebProvider(ABC):
    """Web search plus page fetching: what the web path of lookup and research uses."""

    name: str

    def __init__(self, settings: Settings, fetcher: PageFetcher | None = None, on_call: SearchCallback | None = None) -> None:
        self.settings = settings
        self.fetcher = fetcher or PageFetcher(settings)
        self.on_call = on_call  # every search reported here (the application logs it beside the LLM calls)

    def _report(self, query: str, started: float, hits: list[SearchHit] | None, error: str | None) -> None:
        if self.on_call is not None:
            self.on_call(SearchCall(provider=self.name, query=query, urls=[h.url for h in hits or []],
                                    latency_s=time.monotonic() - started, error=error))

    @abstractmethod
    async def search(self, query: str, max_results: int = 5) -> list[SearchHit]:
        """Hits for ``query``, best first; raises SearchError when the provider fails."""

    async def fetch(self, url: str) -> WebPage:
        return await self.fetcher.fetch(url)


class HttpJsonSearch(WebProvider):
    """A search endpoint answering JSON (``settings.enrich.search_url``)."""

    name = "http"

    def __init__(self, settings: Settings, fetcher: PageFetcher | None = None,
                 transport: httpx.AsyncBaseTransport | None = None, on_call: SearchCallback | None = None) -> None:
        super().__init__(settings, fetcher, on_call)
        if not settings.enrich.search_url:
            raise BadInputError("enrich.search_provider is 'http' but enrich.search_url is not set")
        self.url = settings.enrich.search_url
        self._transport = transport

    async def search(self, query: str, max_results: int = 5) -> list[SearchHit]:
        params = {"q": query, "count": max_results, "format": "json"}
        started = time.monotonic()
        try:
            async with httpx.AsyncClient(timeout=self.settings.gather.request_timeout, transport=self._transport,
                                         headers={"User-Agent": self.settings.gather.user_agent}) as client:
                response = await client.get(self.url, params=params)
                response.raise_for_status()
                payload = response.json()
        except (httpx.HTTPError, ValueError) as err:
            # The message reaches proposals and review: no key in the URL or the error survives into them.
            message = mask_secrets(f"search provider {self.url} failed: {err}", self.settings.secrets())
            self._report(query, started, None, message)
            raise SearchError(message) from None
        hits = _hits_from_json(payload)[:max_results]
        self._report(query, started, hits, None)
        return hits


def _hits_from_json(payload: Any) -> list[SearchHit]:
    items = payload.get("results", []) if isinstance(payload, dict) else payload
    hits = []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict) or not str(item.get("url", "")).startswith(("http://", "https://")):
            continue
        snippet = item.get("snippet") or item.get("content") or item.get("description") or ""
        hits.append(SearchHit(url=str(item["url"]), title=str(item.get("title", ""))[:300], snippet=str(snippet)[:2000]))
    return hits


class OpenAIWebSearch(WebProvider):
    """The OpenAI Responses API with its ``web_search`` tool, through the ``openai`` client."""

    name = "openai"

    def __init__(self, settings: Settings, fetcher: PageFetcher | None = None, on_call: SearchCallback | None = None) -> None:
        super().__init__(settings, fetcher, on_call)
        model = settings.enrich.search_model or settings.llm.model
        if not model:
            raise BadInputError("enrich.search_provider is 'openai' but neither enrich.search_model nor llm.model is set")
        self.model = model

    def _client(self):
        import openai

        return openai.AsyncOpenAI(
            base_url=self.settings.llm.base_url,
            api_key=self.settings.llm.api_key or "not-needed",
            timeout=self.settings.llm.timeout,
            max_retries=self.settings.llm.max_retries,
        )

    async def search(self, query: str, max_results: int = 5) -> list[SearchHit]:
        import openai

        client = self._client()
        started = time.monotonic()
        try:
            response = await client.responses.create(
                model=self.model,
                tools=[{"type": "web_search"}],
                tool_choice="required",
                input=f"Search the web and report what the results say, with sources: {query}",
            )
        except openai.OpenAIError as err:
            message = mask_secrets(f"OpenAI web search failed: {err}", self.settings.secrets())
            self._report(query, started, None, message)
            raise SearchError(message) from None
        finally:
            await client.close()
        hits = hits_from_response(response.model_dump())[:max_results]
        self._report(query, started, hits, None)
        return hits


def hits_from_response(response: dict) -> list[SearchHit]:
    """The cited URLs of a Responses API answer, each with the sentence that cites it as its snippet."""
    hits: dict[str, SearchHit] = {}
    for item in response.get("output", []) or []:
        if item.get("type") != "message":
            continue
        for part in item.get("content", []) or []:
            text = part.get("text") or ""
            for note in part.get("annotations", []) or []:
                if note.get("type") != "url_citation" or not str(note.get("url", "")).startswith(("http://", "https://")):
                    continue
                snippet = _cited_text(text, note.get("start_index"), note.get("end_index"))
                hits.setdefault(note["url"], SearchHit(url=note["url"], title=note.get("title", ""), snippet=snippet))
    return list(hits.values())


def _cited_text(text: str, start: int | None, end: int | None) -> str:
    """The sentence(s) an annotation covers, widened to sentence boundaries."""
    if start is None or end is None:
        return text[:500]
    before = text.rfind(". ", 0, start)
    left = before + 2 if before >= 0 else 0
    after = text.find(". ", max(end - 1, start))
    return text[left:(after + 1 if after >= 0 else len(text))].strip()[:1000]


def open_web_provider(settings: Settings, on_call: SearchCallback | None = None) -> WebProvider | None:
    """The configured provider (every search reported to ``on_call``), or None when enrichment stays with the knowledge base."""
    provider = settings.enrich.search_provider
    if provider == "http":
        return HttpJsonSearch(settings, on_call=on_call)
    if provider == "openai":
        return OpenAIWebSearch(settings, on_call=on_call)
    return None
