"""Sources that fetch exactly the pages they are given: a Wikipedia article, a Crunchbase organisation."""

from __future__ import annotations

from collections.abc import AsyncIterator

from cikb.gather.spiders.base import SourceSpider
from scrapy import Request


class PageSpider(SourceSpider):
    """Fetch the start URLs and follow nothing."""

    custom_settings = {"CONCURRENT_REQUESTS": 1}

    async def start(self) -> AsyncIterator[Request]:
        for url in self.start_urls:
            if request := self.page_request(url, start=True):
                yield request


class WikipediaSpider(PageSpider):
    """The company's Wikipedia article (base URL configurable: gather.wikipedia_base_url)."""

    name = "wikipedia"


class CrunchbaseSpider(PageSpider):
    """The company's Crunchbase organisation page. Crunchbase's robots.txt usually disallows it:
    then nothing is fetched and the drop is counted as ``robots`` (not an error)."""

    name = "crunchbase"
