"""One Scrapy spider per source type (spec G2), registered by source type."""

from __future__ import annotations

from cikb.gather.spiders.base import SourceSpider
from cikb.gather.spiders.news import NewsSpider
from cikb.gather.spiders.pages import CrunchbaseSpider, WikipediaSpider
from cikb.gather.spiders.website import WebsiteSpider

SPIDERS: dict[str, type[SourceSpider]] = {
    spider.name: spider for spider in (WebsiteSpider, WikipediaSpider, NewsSpider, CrunchbaseSpider)
}

__all__ = ["SPIDERS", "CrunchbaseSpider", "NewsSpider", "SourceSpider", "WebsiteSpider", "WikipediaSpider"]
