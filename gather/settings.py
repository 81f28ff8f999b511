"""Scrapy settings built from cikb's GatherSettings (spec G3): the polite values, made exact.

Every spider of one crawl gets these; a spider class may tighten them in ``custom_settings``.
"""

from __future__ import annotations

from typing import Any

from cikb.core.config import GatherSettings

_MW = "cikb.gather.middlewares"

# Numbers order the chain as Scrapy's built-ins do (engine side low, downloader side high).
DOWNLOADER_MIDDLEWARES: dict[str, int | None] = {
    "scrapy.downloadermiddlewares.offsite.OffsiteMiddleware": None,
    f"{_MW}.BudgetMiddleware": 40,
    f"{_MW}.OffsiteMiddleware": 50,
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
    f"{_MW}.RobotsMiddleware": 100,
    "scrapy.downloadermiddlewares.retry.RetryMiddleware": None,
    f"{_MW}.BackoffRetryMiddleware": 550,
    f"{_MW}.HtmlOnlyMiddleware": 560,
    # Scrapy's own, in its place (after HtmlOnly on the way in, before it on the way out): a redirect
    # is followed before the content-type check of its body, vetted by the spider (see the class).
    "scrapy.downloadermiddlewares.redirect.RedirectMiddleware": None,
    f"{_MW}.PageRedirectMiddleware": 600,
    # Scrapy's, in its place, saying which answers are stored copies kept because the server was unreachable.
    "scrapy.downloadermiddlewares.httpcache.HttpCacheMiddleware": None,
    "cikb.gather.httpcache.KeepingCacheMiddleware": 900,
}


def scrapy_settings(settings: GatherSettings, http_cache_dir: str | None = None) -> dict[str, Any]:
    """The Scrapy settings dict for one crawl under ``settings``; with ``http_cache_dir``, pages
    stored there by an earlier crawl are revalidated (conditional requests) instead of re-downloaded."""
    return {
        **_http_cache(http_cache_dir),
        "CIKB_MAX_AGE": settings.max_age,  # stored pages fresher than this are taken without a request (gather.httpcache)
        "USER_AGENT": settings.user_agent,
        "ROBOTSTXT_OBEY": True,
        # Politeness per domain: one request at a time, at least download_delay apart.
        "DOWNLOAD_DELAY": settings.download_delay,
        "DOWNLOAD_DELAY_JITTER": 0.0,  # no randomisation: the delay is a floor, not an average
        "CONCURRENT_REQUESTS_PER_DOMAIN": 1,
        "AUTOTHROTTLE_ENABLED": False,
        "DOWNLOAD_TIMEOUT": settings.request_timeout,  # one deadline per request, retries included: see DeadlineDownloadHandler
        "DOWNLOAD_HANDLERS": {"http": f"{_MW}.DeadlineDownloadHandler", "https": f"{_MW}.DeadlineDownloadHandler"},
        "CLOSESPIDER_TIMEOUT": settings.source_timeout,  # the source's time budget (closes with reason closespider_timeout)
        "DOWNLOAD_MAXSIZE": settings.max_download_bytes,
        "DOWNLOAD_WARNSIZE": 0,
        "DOWNLOADER_MIDDLEWARES": _middlewares(settings),
        "CIKB_POLITENESS_URL": settings.politeness_url,
        "RETRY_ENABLED": False,  # BackoffRetryMiddleware replaces it
        "CIKB_MAX_ATTEMPTS": settings.max_attempts,
        "CIKB_BACKOFF_BASE": settings.backoff_base,
        "CIKB_ALLOWED_CONTENT_TYPES": list(settings.allowed_content_types),
        "CIKB_MAX_PAGES": settings.max_pages_per_source,
        "CIKB_LANGUAGE": settings.language,
        "CIKB_CRAWL_ORDER": settings.crawl_order,
        # FIFO within one priority: the crawl reaches pages breadth-first, not depth-first.
        "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.FifoMemoryQueue",
        "SCHEDULER_DISK_QUEUE": "scrapy.squeues.PickleFifoDiskQueue",
        "REDIRECT_ENABLED": True,  # 301, 302, 303, 307, 308 within the source's sites (PageRedirectMiddleware)
        "REDIRECT_MAX_TIMES": 5,
        "COOKIES_ENABLED": False,
        "TELNETCONSOLE_ENABLED": False,
        "MEMUSAGE_ENABLED": False,
        "LOGSTATS_INTERVAL": 0,
        "LOG_LEVEL": "WARNING",
    }


def _middlewares(settings: GatherSettings) -> dict[str, int | None]:
    if settings.politeness_url is None:
        return DOWNLOADER_MIDDLEWARES
    # Last before the download itself, after the HTTP cache: a page the cache answers takes no turn.
    return {**DOWNLOADER_MIDDLEWARES, "cikb.gather.shared_politeness.SharedPolitenessMiddleware": 950}


def _http_cache(directory: str | None) -> dict[str, Any]:
    if directory is None:
        return {"HTTPCACHE_ENABLED": False}
    return {
        "HTTPCACHE_ENABLED": True,
        "HTTPCACHE_DIR": directory,
        "HTTPCACHE_EXPIRATION_SECS": 0,  # entries never expire: each use is revalidated instead
        "HTTPCACHE_POLICY": "cikb.gather.httpcache.RevalidatingPolicy",
        "HTTPCACHE_STORAGE": "cikb.gather.httpcache.WholeEntryStorage",
    }
