"""The company's own website: a crawl of its registered domain that spends the page budget on facts first.

Order of requests (Scrapy priorities; FIFO within one priority, so breadth-first):
the start URL, then sitemaps (robots.txt ``Sitemap:`` lines, else /sitemap.xml),
then pages whose path names company facts (about, team, contact, legal...), then
other sitemap entries, then any other link, and pages under another language's
path prefix (/de/, /fr/) last.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import urldefrag, urljoin, urlsplit

from cikb.gather.spiders.base import SourceSpider
from cikb.gather.urls import ALLOWED_SCHEMES, is_fact_page, is_other_language
from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.http import Response
from scrapy.linkextractors import LinkExtractor
from scrapy.utils.sitemap import Sitemap
from w3lib.url import canonicalize_url

from cikb.core.models import DropReason

START_PRIORITY = 100
SITEMAP_FILE_PRIORITY = 90
FACT_PRIORITY = 50
SITEMAP_ENTRY_PRIORITY = 20
LINK_PRIORITY = 0
OTHER_LANGUAGE_PRIORITY = -50

MAX_SITEMAP_FILES = 5  # per host: a sitemap index may list one per language
MAX_SITEMAP_ENTRIES = 1000  # per sitemap file: bounds the queue, not the budget


class WebsiteSpider(SourceSpider):
    """Crawl the company's website within its registered domain (spec G2)."""

    name = "website"
    # One request in the downloader at a time keeps the scheduler's priority order exact.
    custom_settings = {"CONCURRENT_REQUESTS": 1}

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._links = LinkExtractor(tags=("a", "area"), attrs=("href",))
        self._robots_sitemaps: dict[str, list[str]] = {}
        self._sitemap_files: set[str] = set()
        self._sitemap_hosts: set[str] = set()
        self._offsite: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> WebsiteSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        crawler.signals.connect(spider.on_robots_parsed, signal=signals.robots_parsed)
        return spider

    async def start(self) -> AsyncIterator[Request]:
        for url in self.start_urls:
            if request := self.page_request(url, priority=START_PRIORITY, start=True):
                yield request

    def priority(self, url: str, base: int) -> int:
        if is_other_language(url, self.language):
            return OTHER_LANGUAGE_PRIORITY
        return max(base, FACT_PRIORITY) if is_fact_page(url) else base

    def parse_page(self, response: Response) -> Iterator[Request]:
        if not self.deliver(response):
            return
        yield from self.sitemap_requests(response.url)
        for url in self.onsite_links(response):
            if request := self.page_request(url, priority=self.priority(url, LINK_PRIORITY)):
                yield request

    def onsite_links(self, response: Response) -> list[str]:
        """http(s) links of the page without fragments; off-site ones are counted once and left out."""
        urls = []
        for link in self._links.extract_links(response):
            url = urldefrag(link.url)[0]
            if urlsplit(url).scheme not in ALLOWED_SCHEMES:
                continue
            if not self.allows(url):
                self._count_offsite(url)
                continue
            urls.append(url)
        return urls

    def _count_offsite(self, url: str) -> None:
        key = canonicalize_url(url)
        if key not in self._offsite:
            self._offsite.add(key)
            self.reporter.drop(url, DropReason.offsite, "link to another site, not followed")

    # --- sitemaps -----------------------------------------------------------

    def on_robots_parsed(self, robotparser: Any, request: Request) -> None:
        """Remember the ``Sitemap:`` lines of a host's robots.txt (Protego exposes them)."""
        sitemaps = getattr(getattr(robotparser, "rp", None), "sitemaps", None) or []
        self._robots_sitemaps[urlsplit(request.url).netloc] = list(sitemaps)

    def sitemap_requests(self, page_url: str) -> Iterator[Request]:
        """Once per host, after its first page: its sitemaps, as robots.txt names them or /sitemap.xml."""
        parts = urlsplit(page_url)
        if parts.netloc in self._sitemap_hosts:
            return
        self._sitemap_hosts.add(parts.netloc)
        base = f"{parts.scheme}://{parts.netloc}/"
        for url in self._robots_sitemaps.get(parts.netloc) or ["/sitemap.xml"]:
            if request := self.sitemap_request(urljoin(base, url)):
                yield request

    def sitemap_request(self, url: str) -> Request | None:
        host_files = [u for u in self._sitemap_files if urlsplit(u).netloc == urlsplit(url).netloc]
        if url in self._sitemap_files or len(host_files) >= MAX_SITEMAP_FILES:
            return None
        if not self.allows(url):
            return None
        self._sitemap_files.add(url)
        return Request(
            url,
            callback=self.parse_sitemap,
            errback=self.on_sitemap_error,
            priority=SITEMAP_FILE_PRIORITY,
            dont_filter=True,
        )

    def parse_sitemap(self, response: Response) -> Iterator[Request]:
        try:
            sitemap = Sitemap(response.body)
        except Exception:  # noqa: BLE001 -- a broken sitemap only costs its entries
            self.logger.info("unreadable sitemap %s", response.url)
            return
        entries = [urljoin(response.url, entry["loc"]) for entry in sitemap if entry.get("loc")]
        if sitemap.type == "sitemapindex":
            yield from self._nested_sitemaps(entries)
            return
        for url in entries[:MAX_SITEMAP_ENTRIES]:
            if self.allows(url):
                if request := self.page_request(url, priority=self.priority(url, SITEMAP_ENTRY_PRIORITY)):
                    yield request

    def _nested_sitemaps(self, urls: list[str]) -> Iterator[Request]:
        # Sitemaps of translations hold only translated pages: not worth their requests.
        for url in urls:
            if not is_other_language(url, self.language) and (request := self.sitemap_request(url)):
                yield request

    def on_sitemap_error(self, failure: Any) -> None:
        # A missing sitemap is normal; it is not a page, so it is not counted as a drop.
        self.logger.info("no sitemap at %s: %s", failure.request.url, failure.value)
