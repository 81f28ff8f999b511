"""One Scrapy spider per source type (spec G2), registered by source type."""

from __future__ import annotations

from gather.spiders.base import SourceSpider
from gather.spiders.news import NewsSpider
from gather.spiders.pages import CrunchbaseSpider, WikipediaSpider
from gather.spiders.website import WebsiteSpider

SPIDERS: dict[str, type[SourceSpider]] = {
    spider.name: spider for spider in (WebsiteSpider, WikipediaSpider, NewsSpider, CrunchbaseSpider)
}

__all__ = ["SPIDERS", "CrunchbaseSpider", "NewsSpider", "SourceSpider", "WebsiteSpider", "WikipediaSpider"]
