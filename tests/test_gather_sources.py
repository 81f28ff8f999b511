"""The four sources, the page budget, failures, parallelism and the crawler process (spec G2, G3)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator

import pytest
from sites import TOLERANCE, SiteServer, acme_routes, gaps, page, paragraphs

from cikb import gather
from cikb.core.config import GatherSettings
from cikb.core.errors import BadInputError
from cikb.core.models import SourceResult

FAST = GatherSettings(download_delay=0.02, request_timeout=2.0, backoff_base=0.05)
ARTICLES = ["/news/2024/acme-raises-series-b.html", "/news/2023/acme-opens-berlin-office.html"]
FACT_PATHS = ["/about/", "/team/", "/leadership/", "/contact/", "/legal/", "/news/"]

pytestmark = pytest.mark.slow


def test_budget_is_spent_on_fact_pages_first(acme_site: SiteServer) -> None:
    settings = FAST.model_copy(update={"max_pages_per_source": 8})
    result = gather.crawl([gather.resolve_source("website", acme_site.url + "/", settings)], settings)
    source = result.sources[0]
    paths = acme_site.paths()
    page_paths = [p.url.removeprefix(acme_site.url) for p in source.pages]
    assert source.summary.fetched == len(page_paths) == 8
    assert page_paths[0] == "/"
    assert set(FACT_PATHS) <= set(page_paths)
    assert paths.count("/") == 1  # the start URL is not fetched again from a link or the sitemap
    assert not any(path.startswith(("/blog/", "/de/")) for path in paths)
    # Nothing past the budget was requested: every page request the server saw was delivered.
    assert sorted(p for p in paths if p not in ("/robots.txt", "/sitemap.xml")) == sorted(page_paths)
    assert source.summary.dropped["budget"] > 0


@pytest.fixture(scope="module")
def one_page_sources() -> Iterator[tuple[SiteServer, list[SourceResult]]]:
    """One crawl of five single-host sources (they take turns): cheaper than five crawler processes."""
    with SiteServer(host="127.0.0.2") as offsite, SiteServer() as site:
        site.routes.update(acme_routes(site.url, offsite.url))
        settings = FAST.model_copy(
            update={
                "wikipedia_base_url": site.url + "/wiki/",
                "crunchbase_base_url": site.url + "/organization/",
                "max_download_bytes": 50_000,
            }
        )
        requests = [
            gather.resolve_source("wikipedia", "Acme Corp", settings),
            gather.resolve_source("crunchbase", "Acme Corp", settings),
            gather.resolve_source("news", site.url_for("/feed.xml"), settings),
            gather.resolve_source("news", site.url_for(ARTICLES[0]), settings),
            gather.resolve_source("wikipedia", site.url_for("/big.html"), settings),
        ]
        yield site, gather.crawl(requests, settings).sources


def test_wikipedia_article_by_name(one_page_sources: tuple[SiteServer, list[SourceResult]]) -> None:
    site, sources = one_page_sources
    source = sources[0]
    assert [p.url for p in source.pages] == [site.url_for("/wiki/Acme_Corp")]
    assert source.pages[0].source_type == "wikipedia"
    assert site.paths().count("/wiki/Acme_Corp") == 1


def test_crunchbase_disallowed_by_robots_is_reported_not_an_error(one_page_sources: tuple[SiteServer, list[SourceResult]]) -> None:
    site, sources = one_page_sources
    assert sources[1].pages == []
    assert sources[1].summary.dropped == {"robots": 1}
    assert sources[1].summary.error is None
    assert not any(path.startswith("/organization/") for path in site.paths())


def test_news_feed_items_are_fetched_and_nothing_further(one_page_sources: tuple[SiteServer, list[SourceResult]]) -> None:
    site, sources = one_page_sources
    assert sorted(p.url for p in sources[2].pages) == sorted(site.url_for(a) for a in ARTICLES)
    assert sources[2].summary.fetched == 2
    assert [p.url for p in sources[3].pages] == [site.url_for(ARTICLES[0])]  # an article URL is a page
    # No source followed a link: the server saw only what the five sources named (robots.txt once per crawler).
    expected = {"/robots.txt", "/wiki/Acme_Corp", "/feed.xml", *ARTICLES, "/big.html"}
    assert set(site.paths()) == expected


def test_oversized_responses_are_dropped(one_page_sources: tuple[SiteServer, list[SourceResult]]) -> None:
    _, sources = one_page_sources
    assert sources[4].pages == []
    assert sources[4].summary.dropped == {"size": 1}


def test_unreachable_host_is_a_source_error_not_a_crash(acme_site: SiteServer) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        dead_url = f"http://127.0.0.1:{probe.getsockname()[1]}/"
    requests = [gather.resolve_source("website", dead_url, FAST), gather.resolve_source("news", acme_site.url_for("/news/"), FAST)]
    dead, alive = gather.crawl(requests, FAST).sources
    assert dead.pages == [] and dead.summary.dropped == {"network_error": 1}
    assert dead.summary.error is not None and dead.summary.error.startswith(f"could not fetch {dead_url}")
    assert "\n" not in dead.summary.error
    assert alive.summary.fetched == 1 and alive.summary.error is None


def test_bad_input_is_refused_before_crawling() -> None:
    with pytest.raises(BadInputError):
        gather.resolve_source("website", "file:///etc/passwd", FAST)


def _small_site(make_site, host: str, pages: int) -> SiteServer:
    links = [f"/p{n}.html" for n in range(pages)]
    routes = {"/": page("Home", paragraphs("home"), links=links)} | {link: page(link, paragraphs(link)) for link in links}
    return make_site(routes, host=host)


def test_sources_on_different_domains_run_in_parallel(make_site) -> None:
    settings = FAST.model_copy(update={"download_delay": 0.3})
    one, two = _small_site(make_site, "127.0.0.1", 3), _small_site(make_site, "127.0.0.2", 3)
    requests = [gather.resolve_source("website", site.url + "/", settings) for site in (one, two)]
    result = gather.crawl(requests, settings)
    assert [s.summary.fetched for s in result.sources] == [4, 4]
    overlap = min(one.log[-1].time, two.log[-1].time) - max(one.log[0].time, two.log[0].time)
    assert overlap > 0.5  # each takes 6 requests 0.3 s apart; in sequence they would not overlap at all
    for site in (one, two):
        assert min(gaps(site.times())) >= 0.3 - TOLERANCE


def test_sources_on_one_host_take_turns(make_site) -> None:
    settings = FAST.model_copy(update={"download_delay": 0.3})
    site = _small_site(make_site, "127.0.0.1", 1)
    requests = [gather.resolve_source("website", site.url + "/", settings), gather.resolve_source("news", site.url_for("/p0.html"), settings)]
    result = gather.crawl(requests, settings)
    assert [s.summary.fetched for s in result.sources] == [2, 1]
    assert min(gaps(site.times())) >= 0.3 - TOLERANCE  # politeness holds across sources


def test_killing_the_caller_stops_the_crawler_process(make_site, tmp_path) -> None:
    site = _small_site(make_site, "127.0.0.1", 30)
    script = textwrap.dedent(
        f"""
        from cikb import gather
        from cikb.core.config import GatherSettings
        settings = GatherSettings(download_delay=0.2)
        gather.crawl([gather.resolve_source("website", {site.url + "/"!r}, settings)], settings)
        """
    )
    caller = subprocess.Popen([sys.executable, "-c", script], cwd=tmp_path)
    try:
        deadline = time.monotonic() + 30
        while len(site.log) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(site.log) >= 3, "the crawl did not start"
        os.kill(caller.pid, signal.SIGKILL)
        caller.wait()
        time.sleep(0.5)  # the crawler notices its closed stdin and exits
        seen = len(site.log)
        time.sleep(1.0)  # five delays: a crawler still running would have made requests
        assert len(site.log) == seen
        assert seen < 31
    finally:
        if caller.poll() is None:
            caller.kill()


def test_a_feed_is_known_by_its_type_or_its_start_and_its_links_by_xml_base() -> None:
    from scrapy.http import TextResponse

    from cikb.gather.spiders.news import feed_links, is_feed

    def response(body: str, content_type: str = "text/plain", url: str = "https://news.example/feeds/all.xml") -> TextResponse:
        return TextResponse(url=url, body=body.encode(), headers={"Content-Type": content_type}, encoding="utf-8")

    rss = "<rss version='2.0'><channel><item><link>/2024/launch.html</link></item></channel></rss>"
    long_comment = "<?xml version='1.0'?><!-- " + "generated by a tool, " * 200 + "-->"
    assert is_feed(response(long_comment + rss))  # the marker after 2 KB: it was cleaned as a page, its items never fetched
    assert is_feed(response("<?xml version='1.0'?><channel/>", "application/rss+xml; charset=utf-8"))  # by its type
    assert not is_feed(response("<html><body><p>We publish an RSS feed.</p></body></html>", "text/html"))
    atom = ("<feed xmlns='http://www.w3.org/2005/Atom' xml:base='https://news.example/atomfeed/'>"
            "<entry><link href='three.html'/></entry>"
            "<entry xml:base='/archive/'><link rel='alternate' href='four.html'/><link rel='replies' href='comments.html'/></entry>"
            "<entry><link href='https://other.example/five.html'/></entry></feed>")
    assert feed_links(response(atom)) == ["https://news.example/atomfeed/three.html", "https://news.example/archive/four.html",
                                          "https://other.example/five.html"]  # three.html was read against the feed's URL
    assert feed_links(response(rss)) == ["https://news.example/2024/launch.html"]
