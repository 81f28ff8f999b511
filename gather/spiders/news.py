"""News: RSS/Atom feeds (their items' article pages are fetched, nothing further) or article pages."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import urljoin, urlsplit

from cikb.gather.middlewares import PAGE_KEY
from cikb.gather.spiders.base import SourceSpider
from cikb.gather.urls import ALLOWED_SCHEMES
from scrapy import Request, Selector
from scrapy.http import Response

FEED_CONTENT_TYPES = [
    "application/rss+xml",
    "application/atom+xml",
    "application/rdf+xml",
    "application/xml",
    "text/xml",
]
_FEED_MARKERS = (b"<rss", b"<feed", b"<rdf:rdf")
_FEED_TYPES = frozenset({b"application/rss+xml", b"application/atom+xml", b"application/rdf+xml"})
_SNIFF_BYTES = 65_536
_XML_BASE = "{http://www.w3.org/XML/1998/namespace}base"  # "base" once the selector has dropped namespaces


class NewsSpider(SourceSpider):
    """Pages from configured news URLs: a feed's item links, or the page itself."""

    name = "news"
    # Feed items often live on several news sites; politeness stays per domain.
    custom_settings = {"CONCURRENT_REQUESTS": 4}

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.allowed_sites = None  # a feed links wherever its articles are

    async def start(self) -> AsyncIterator[Request]:
        for url in self.start_urls:
            accept = [*self.accept, *FEED_CONTENT_TYPES]
            if request := self.page_request(url, start=True, accept=accept, callback=self.parse_start):
                yield request

    def parse_start(self, response: Response) -> Iterator[Request]:
        if not is_feed(response):
            self.deliver(response)
            return
        self._pending.discard(response.meta.get(PAGE_KEY, ""))  # a feed is not a page
        for url in feed_links(response):
            if request := self.page_request(url):
                yield request


def is_feed(response: Response) -> bool:
    """True for an RSS, RDF or Atom document: by its Content-Type, else sniffed from its start (feeds are often
    served as text/html or text/plain, after a comment or a stylesheet's processing instruction of any length)."""
    content_type = response.headers.get(b"Content-Type", b"").split(b";")[0].strip().lower()
    if content_type in _FEED_TYPES:
        return True
    head = response.body[:_SNIFF_BYTES].lower()
    return any(marker in head for marker in _FEED_MARKERS)


def feed_links(response: Response) -> list[str]:
    """The article links of a feed's items, in feed order, absolute (against Atom's ``xml:base`` where it sets
    one, RFC 4287), http(s) only."""
    selector = Selector(body=response.body, type="xml")
    selector.remove_namespaces()
    found = selector.xpath("//item/link | //entry/link[not(@rel) or @rel='alternate']")
    links = []
    for link in found:
        href = (link.attrib.get("href") or link.xpath("string()").get() or "").strip()  # Atom's href, RSS's text
        if href:
            links.append(urljoin(_base(link.root, response.url), href))
    return [link for link in dict.fromkeys(links) if urlsplit(link).scheme in ALLOWED_SCHEMES]


def _base(element: Any, url: str) -> str:
    """The URL a link inside ``element`` is relative to: each xml:base on the way down from the root, applied in turn."""
    bases = [value for node in reversed([element, *element.iterancestors()]) if (value := node.get(_XML_BASE) or node.get("base"))]
    for base in bases:
        url = urljoin(url, base)
    return url
