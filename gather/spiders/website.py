"""The company's own website: a best-first crawl of its registered domain that spends the page budget on facts first.

The start URL comes first; then the sitemaps (robots.txt ``Sitemap:`` lines; /sitemap.xml when
it names none or they are not there), which are not pages and cost no budget. Every page URL the crawl learns of
(a sitemap entry, a link with its anchor text) goes to a :class:`~cikb.gather.scoring.Frontier`,
which hands out the candidate most likely to state company facts (see gather.scoring):
about, team, contact, pricing, legal and press pages, then one section index (/blog/,
/news/) whose post titles become anchor texts, then announcement posts, then the rest;
listings, generic articles and other languages last: paths under another language's prefix (/de/, /fr/), links
found only on pages that declare another language (``<html lang="de">``), and, once an unprefixed page is in
another language while /en/ pages are known, every unprefixed path. The prefix of a start URL whose page is in the
crawl's language is the site's own (a British site's /uk/ is not Ukrainian).

Exactly one page request is out at a time, and none while a sitemap is being read, so the
order of fetches is the frontier's order whatever the scheduler or the concurrency settings,
and each pick sees everything learnt before it. With ``gather.crawl_order = "breadth_first"``
the scorer is off: pages come in the order they were found (other languages still last).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Iterator
from typing import Any
from urllib.parse import urldefrag, urljoin, urlsplit

from cikb.gather.scoring import Candidate, FactScorer, Frontier, fact_page_title, is_core_url
from cikb.gather.spiders.base import START, SourceSpider
from cikb.gather.urls import ALLOWED_SCHEMES, language_prefix, page_key
from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DontCloseSpider
from scrapy.http import Response
from scrapy.linkextractors import LinkExtractor
from scrapy.utils.gz import gunzip, gzip_magic_number
from scrapy.utils.sitemap import Sitemap
from twisted.python.failure import Failure

from cikb.core.models import DropReason

START_PRIORITY = 100
SITEMAP_FILE_PRIORITY = 90
PAGE_PRIORITY = 0

MAX_SITEMAP_FILES = 5  # per host: a sitemap index may list one per language
MAX_SITEMAP_ENTRIES = 1000  # per sitemap file: bounds the frontier, not the budget
MAX_SITEMAP_BYTES = 50 * 1024 * 1024  # a sitemap file's uncompressed limit (sitemaps.org)
CANDIDATE_KEY = "cikb_candidate"


class WebsiteSpider(SourceSpider):
    """Crawl the company's website within its registered domain (spec G2), fact pages first."""

    name = "website"
    # One request in the downloader at a time: politeness, and the frontier's order is the fetch order.
    custom_settings = {"CONCURRENT_REQUESTS": 1}

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._links = LinkExtractor(tags=("a", "area"), attrs=("href",))
        self._robots_sitemaps: dict[str, list[str]] = {}
        self._sitemap_files: set[str] = set()
        self._sitemap_hosts: set[str] = set()
        self._offsite: set[str] = set()
        self.frontier = Frontier()
        self._pages_out = 0  # page requests yielded and not answered yet
        self._sitemaps_out = 0  # sitemap requests yielded and not answered yet

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> WebsiteSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        best_first = crawler.settings.get("CIKB_CRAWL_ORDER", "facts_first") != "breadth_first"
        spider.frontier = Frontier(FactScorer(spider.language, enabled=best_first))
        crawler.signals.connect(spider.on_robots_parsed, signal=signals.robots_parsed)
        crawler.signals.connect(spider.on_idle, signal=signals.spider_idle)
        return spider

    async def start(self) -> AsyncIterator[Request]:
        for url in self.start_urls:
            if request := self.page_request(url, priority=START_PRIORITY, start=True):
                self._pages_out += 1
                yield request

    # --- the frontier -----------------------------------------------------------------

    def remember(self, url: str, *, anchor: str = "", in_sitemap: bool = False, from_fact_page: bool = False,
                 referrer: str = "", other_language: bool = False) -> None:
        """Add a page URL to the frontier (unless it was requested already)."""
        key = page_key(url)
        if key not in self._seen:
            self.frontier.add(url, key, anchor=anchor, in_sitemap=in_sitemap, from_fact_page=from_fact_page,
                              referrer=referrer, other_language=other_language)

    def next_requests(self) -> list[Request]:
        """The frontier's best page, when no page and no sitemap is out and the budget is not spent."""
        if self._pages_out or self._sitemaps_out or self.reporter.summary.pages >= self.max_pages:
            return []
        while (candidate := self.frontier.pop()) is not None:
            request = self.page_request(candidate.url, priority=PAGE_PRIORITY)
            if request is None:  # requested meanwhile under this canonical URL
                self.frontier.untake(candidate)
                continue
            request.meta[CANDIDATE_KEY] = candidate
            self._pages_out += 1
            return [request]
        return []

    def on_idle(self, spider: Any) -> None:
        """A safety net: should a page request vanish without an answer, the crawl goes on."""
        self._pages_out = self._sitemaps_out = 0
        requests = self.next_requests()
        for request in requests:
            self.crawler.engine.crawl(request)
        if requests:
            raise DontCloseSpider

    def on_closed(self, spider: Any, reason: str) -> None:
        # Candidates never requested: the budget ran out first (or the crawl was stopped).
        for candidate in self.frontier.remaining():
            self.reporter.drop(candidate.url, DropReason.budget, f"not fetched: crawl closed ({reason})")
        super().on_closed(spider, reason)

    # --- pages --------------------------------------------------------------------------

    def parse_page(self, response: Response) -> Iterator[Request]:
        self._pages_out = max(0, self._pages_out - 1)
        if self.deliver(response):
            fact = self._is_fact_page(response)
            referrer = page_key(response.url)
            declared = self._declared_language(response)
            other_language = bool(declared) and declared != self.language.lower()
            if response.meta.get(START) and declared in ("", self.language.lower()):
                # The user's own start URL, in the crawl's language: its folder is the site's ("/uk/" is the United
                # Kingdom's, not Ukrainian), learnt before its links are scored. Only there: a translation's template
                # often declares the original's language.
                self.frontier.own_language_prefix(response.url)
            for url, anchor in self.onsite_links(response):
                self.remember(url, anchor=anchor, from_fact_page=fact, referrer=referrer, other_language=other_language)
            if other_language and language_prefix(response.url) is None:
                self.frontier.unprefixed_elsewhere()
            yield from self.sitemap_requests(response.url)
        yield from self.next_requests()

    def on_page_error(self, failure: Failure) -> Iterable[Request]:  # type: ignore[override]
        super().on_page_error(failure)
        self._pages_out = max(0, self._pages_out - 1)
        candidate: Candidate | None = failure.request.meta.get(CANDIDATE_KEY)  # type: ignore[attr-defined]
        if candidate is not None:
            self.frontier.untake(candidate)  # a page that failed covers no category
        return self.next_requests()

    def _declared_language(self, response: Response) -> str:
        """The language the page declares (``<html lang="de">`` -> "de"; "en-GB" is "en"), "" when none. A page in
        another language than the crawl's links pages in that language, which the clean stage would drop, unless they
        name the crawl's language ("/en/"): a site whose home page is German spends its budget on its English version."""
        return (response.xpath("/html/@lang").get() or "").strip().lower().replace("_", "-").split("-")[0]

    def _is_fact_page(self, response: Response) -> bool:
        candidate: Candidate | None = response.meta.get(CANDIDATE_KEY)
        if candidate is not None and (candidate.core or candidate.events):
            return True
        title = response.css("title::text").get() or ""
        return is_core_url(response.url) or fact_page_title(title)

    def onsite_links(self, response: Response) -> list[tuple[str, str]]:
        """(URL, anchor text) of the page's http(s) links without fragments; off-site ones are counted once and left out."""
        links = []
        for link in self._links.extract_links(response):
            url = urldefrag(link.url)[0]
            if urlsplit(url).scheme not in ALLOWED_SCHEMES:
                continue
            if not self.allows(url):
                self._count_offsite(url)
                continue
            links.append((url, link.text or ""))
        return links

    def _count_offsite(self, url: str) -> None:
        key = page_key(url)
        if key not in self._offsite:
            self._offsite.add(key)
            self.reporter.drop(url, DropReason.offsite, "link to another site, not followed")

    # --- sitemaps -------------------------------------------------------------------------

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
        self._sitemaps_out += 1
        return Request(
            url,
            callback=self.parse_sitemap,
            errback=self.on_sitemap_error,
            priority=SITEMAP_FILE_PRIORITY,
            dont_filter=True,
        )

    def parse_sitemap(self, response: Response) -> Iterator[Request]:
        self._sitemaps_out = max(0, self._sitemaps_out - 1)
        requests = self._sitemap_entries(response)
        if requests is None:  # not a sitemap: as for one that is not there, /sitemap.xml is left to try
            requests = self._usual_sitemap(response.url)
        yield from requests
        yield from self.next_requests()

    def _usual_sitemap(self, url: str) -> list[Request]:
        """The request for /sitemap.xml on ``url``'s host, where sitemaps usually are; none when it was asked already."""
        request = self.sitemap_request(urljoin(url, "/sitemap.xml"))
        return [request] if request is not None else []

    def _sitemap_entries(self, response: Response) -> list[Request] | None:
        """The requests for the sitemap files a sitemap index lists (its pages go to the frontier); None if unreadable."""
        try:
            # A sitemap.xml.gz served as a file (no Content-Encoding) arrives compressed, as Scrapy's SitemapSpider knows.
            body = gunzip(response.body, max_size=MAX_SITEMAP_BYTES) if gzip_magic_number(response) else response.body
            sitemap = Sitemap(body)
        except Exception:  # noqa: BLE001 -- a broken sitemap only costs its entries
            sitemap = None
        # lxml's recovering parser reads an HTML page (a site's "not found" page served with 200) as a document of
        # another type: it is no more a sitemap than a file that does not parse.
        if sitemap is None or sitemap.type not in ("urlset", "sitemapindex"):
            self.logger.info("unreadable sitemap %s", response.url)
            return None
        entries = [urljoin(response.url, entry["loc"]) for entry in sitemap if entry.get("loc")]
        if sitemap.type == "sitemapindex":
            # Sitemaps of translations hold only translated pages: not worth their requests.
            return [request for url in entries
                    if not self.frontier.scorer.is_other_language(url) and (request := self.sitemap_request(url))]
        for url in entries[:MAX_SITEMAP_ENTRIES]:
            if self.allows(url):
                self.remember(url, in_sitemap=True)
        return []

    def on_sitemap_error(self, failure: Failure) -> list[Request]:
        # A missing sitemap is normal; it is not a page, so it is not counted as a drop. One that robots.txt names
        # and that is not there (a moved file, a template left unrendered: "Sitemap: {{ site.url }}/sitemap.xml"),
        # or not a sitemap (parse_sitemap), leaves /sitemap.xml, where sitemaps usually are, to try.
        self._sitemaps_out = max(0, self._sitemaps_out - 1)
        url = failure.request.url  # type: ignore[attr-defined]
        self.logger.info("no sitemap at %s: %s", url, failure.value)
        return self._usual_sitemap(url) or self.next_requests()
