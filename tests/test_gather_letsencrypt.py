"""The real letsencrypt.org site (176 English pages, 42 German under /de/), gathered with the default 20-page budget."""

from __future__ import annotations

import pytest
from cikb.gather.urls import is_fact_page, language_prefix
from sites import TOLERANCE, SiteServer, gaps

from cikb import gather
from cikb.core.config import GatherSettings

DELAY = 0.3


@pytest.mark.slow
def test_website_gather_spends_the_default_budget_on_english_fact_pages_first(letsencrypt_site: SiteServer) -> None:
    settings = GatherSettings(download_delay=DELAY, request_timeout=5.0)
    assert settings.max_pages_per_source == 20
    result = gather.crawl([gather.resolve_source("website", letsencrypt_site.url + "/", settings)], settings)
    source = result.sources[0]
    paths = letsencrypt_site.paths()
    page_paths = [p.url.removeprefix(letsencrypt_site.url) for p in source.pages]

    assert source.summary.error is None
    assert len(page_paths) == source.summary.fetched == 20
    assert all(language_prefix(letsencrypt_site.url + path) in (None, "en") for path in page_paths)
    assert len(page_paths) >= 15 and "/about/" in page_paths
    # Fact pages before anything else the crawl reached, and no other language at all within budget.
    fact_pages = [path for path in page_paths if is_fact_page(letsencrypt_site.url + path)]
    assert {"/about/", "/contact/"} <= set(fact_pages)
    assert page_paths[1 : 1 + len(fact_pages)] == fact_pages
    assert not any(path.startswith("/de/") for path in paths)
    # Politeness, from the server's side: each path once, the delay between any two requests.
    assert len(paths) == len(set(paths))
    assert min(gaps(letsencrypt_site.times())) >= DELAY - TOLERANCE
    # Sitemap entries were used: robots.txt names /sitemap.xml, an index pointing at /en/sitemap.xml.
    assert "/sitemap.xml" in paths and "/en/sitemap.xml" in paths
    assert source.summary.dropped.get("offsite", 0) > 0  # sponsor links, counted, never followed
