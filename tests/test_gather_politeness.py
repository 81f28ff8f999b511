"""Politeness and filtering, asserted from the server's side (spec G3).

One crawl of the Acme fixture site (every page in budget) is shared by the tests of
this module; a second crawl without delay shows the spacing check can fail.
"""

from __future__ import annotations

import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from sites import TOLERANCE, Reply, SiteServer, acme_routes, gaps, page, paragraphs

from cikb import gather
from cikb.core.config import GatherSettings
from cikb.core.models import CrawlEvent, CrawlResult, SourceResult

DELAY = 0.3
BACKOFF = 0.3
TIMEOUT = 1.5  # one deadline for all attempts of a page: the flaky page needs its two backoffs (0.9 s) inside it
SETTINGS = GatherSettings(
    download_delay=DELAY, backoff_base=BACKOFF, request_timeout=TIMEOUT, max_pages_per_source=50, user_agent="cikb-test/1.0"
)


@dataclass
class Crawled:
    site: SiteServer
    offsite: SiteServer
    result: CrawlResult
    events: list[tuple[float, CrawlEvent]]

    @property
    def source(self) -> SourceResult:
        return self.result.sources[0]

    def page_urls(self) -> list[str]:
        return [p.url for p in self.source.pages]


@pytest.fixture(scope="module")
def crawled() -> Iterator[Crawled]:
    with SiteServer(host="127.0.0.2") as offsite, SiteServer() as site:
        offsite.routes["/partner.html"] = page("Partner", paragraphs("A partner site."))
        site.routes.update(acme_routes(site.url, offsite.url))
        events: list[tuple[float, CrawlEvent]] = []
        request = gather.resolve_source("website", site.url + "/", SETTINGS)
        result = gather.crawl([request], SETTINGS, on_event=lambda e: events.append((time.monotonic(), e)))
        yield Crawled(site, offsite, result, events)


pytestmark = pytest.mark.slow


def test_requests_to_one_domain_are_at_least_the_delay_apart(crawled: Crawled) -> None:
    assert len(crawled.site.log) > 20
    assert min(gaps(crawled.site.times())) >= DELAY - TOLERANCE


def test_without_a_delay_the_spacing_check_fails(make_site) -> None:
    links = [f"/p{n}.html" for n in range(8)]
    routes = {"/": page("Home", "home", links=links)} | {link: page(link, link) for link in links}
    site = make_site(routes)
    settings = SETTINGS.model_copy(update={"download_delay": 0.0})
    gather.crawl([gather.resolve_source("website", site.url + "/", settings)], settings)
    assert len(site.log) >= 9
    assert min(gaps(site.times())) < DELAY - TOLERANCE


def test_robots_txt_is_read_first_once_and_obeyed(crawled: Crawled) -> None:
    paths = crawled.site.paths()
    assert paths[0] == "/robots.txt"
    assert paths.count("/robots.txt") == 1
    assert "/private/secret.html" not in paths
    assert crawled.source.summary.dropped["robots"] == 1


def test_only_html_is_kept(crawled: Crawled) -> None:
    paths = crawled.site.paths()
    assert {p.content_type for p in crawled.source.pages} == {"text/html"}
    # Links with a binary extension are never requested; a PDF without one is stopped at its headers.
    assert "/files/report.pdf" not in paths and "/images/logo.png" not in paths
    assert "/download/brochure" in paths
    assert not any("brochure" in url for url in crawled.page_urls())
    assert crawled.source.summary.dropped["content_type"] == 1


def test_offsite_host_is_never_requested(crawled: Crawled) -> None:
    assert crawled.offsite.log == []
    assert crawled.source.summary.dropped["offsite"] == 1
    # The other host is up: had the crawler followed the link, the log would show it.
    with urllib.request.urlopen(crawled.offsite.url_for("/partner.html"), timeout=5) as response:
        assert response.status == 200


def test_failing_page_succeeds_on_the_third_attempt_with_growing_gaps(crawled: Crawled) -> None:
    attempts = crawled.site.times("/flaky.html")
    assert len(attempts) == 3
    first_gap, second_gap = gaps(attempts)
    assert first_gap >= BACKOFF - TOLERANCE
    assert second_gap >= 2 * BACKOFF - TOLERANCE
    assert second_gap > first_gap
    assert crawled.site.url_for("/flaky.html") in crawled.page_urls()


def test_slow_page_times_out_once_its_deadline_is_spent(crawled: Crawled) -> None:
    # request_timeout is one deadline for all attempts: a timeout leaves no time for a retry.
    assert len(crawled.site.times("/slow.html")) == 1
    assert crawled.site.url_for("/slow.html") not in crawled.page_urls()
    assert crawled.source.summary.dropped["timeout"] == 1
    assert crawled.source.summary.timed_out == [crawled.site.url_for("/slow.html")]


def test_http_errors_are_counted_not_kept(crawled: Crawled) -> None:
    assert crawled.site.paths().count("/missing.html") == 1  # a 404 is not retried
    assert crawled.source.summary.dropped["http_error"] == 1


def test_every_page_request_names_the_configured_user_agent(crawled: Crawled) -> None:
    assert {entry.headers.get("User-Agent") for entry in crawled.site.log} == {"cikb-test/1.0"}


def test_pages_are_delivered_whole_and_once(crawled: Crawled) -> None:
    urls = crawled.page_urls()
    assert len(urls) == len(set(urls)) == crawled.source.summary.fetched
    big = next(p for p in crawled.source.pages if p.url.endswith("/big.html"))
    assert len(big.html) > 100_000  # truncation is the clean stage's job
    assert crawled.site.paths().count("/") == 1
    assert crawled.source.summary.error is None


def test_other_language_pages_come_last(crawled: Crawled) -> None:
    pages = [urlpath for urlpath in crawled.site.paths() if urlpath.endswith((".html", "/")) and urlpath != "/slow.html"]
    assert pages[-1] == "/de/ueber-uns/"


def test_progress_events_stream_while_the_crawl_runs(crawled: Crawled) -> None:
    kinds = [event.kind for _, event in crawled.events]
    assert kinds[0] == "source_started" and kinds[-1] == "source_finished"
    assert kinds.count("page_fetched") == crawled.source.summary.fetched
    assert kinds.count("page_dropped") == sum(crawled.source.summary.dropped.values())
    first_page_seen = next(at for at, event in crawled.events if event.kind == "page_fetched")
    assert first_page_seen < crawled.site.log[-1].time  # delivered before the crawl ended, not after
    final = crawled.events[-1][1].summary
    assert final is not None and final.fetched == crawled.source.summary.fetched


def test_a_site_whose_home_page_is_in_another_language_spends_its_budget_on_its_english_pages(make_site) -> None:
    german = paragraphs("Acme Corp baut Ambosse und Raketenrollschuhe für Kunden in vierzig Ländern der Welt.")
    english = paragraphs("Acme Corp makes anvils and rocket skates for customers in forty countries of the world.")
    english_pages = ["/en/about/", "/en/contact/", "/en/news/", "/en/products/"]
    routes = {"/": page("Startseite", german, lang="de", links=["/en/"])}
    # The nav links the German pages (/about/, /products/, ...); each English page also links its German version.
    routes |= {path: page(path, german, lang="de") for path in ["/about/", "/products/", "/news/", "/contact/"]}
    routes["/en/"] = page("Home", english, lang="en", links=english_pages)
    routes |= {path: page(path, english, lang="en-GB", links=[path.removeprefix("/en")]) for path in english_pages}
    site = make_site(routes)
    settings = SETTINGS.model_copy(update={"download_delay": 0.0, "max_pages_per_source": 6})
    gather.crawl([gather.resolve_source("website", site.url + "/", settings)], settings)
    pages = [path for path in site.paths() if path.endswith("/")]
    assert pages == ["/", "/en/", *sorted(english_pages, key=pages.index)]  # no German page but the start page


def test_a_start_url_under_a_country_folder_that_is_also_a_language_code_is_the_sites_own(make_site) -> None:
    # "uk" is Ukrainian's code and the United Kingdom's folder: a British site started at /uk/ (lang="en-GB") had its
    # own pages put after every unprefixed one, as Ukrainian, and its about page fell outside the budget.
    def british(title: str, links: list[str] = [], lang: str = "en-GB") -> Reply:  # noqa: B006
        anchors = "".join(f'<li><a href="{href}">{href}</a></li>' for href in links)
        return Reply(body=f"<!DOCTYPE html><html lang='{lang}'><head><title>{title}</title></head><body><main><h1>{title}</h1>"
                          f"<p>Acme Ltd makes anvils and rocket skates for customers in forty countries.</p><ul>{anchors}</ul></main></body></html>")

    own = ["/uk/about/", "/uk/team/", "/uk/contact/"]
    elsewhere = ["/events/spring-meetup/", "/blog/a-post/", "/blog/another-post/", "/blog/third-post/"]
    routes = {"/uk/": british("Acme UK", [*elsewhere, *own])}
    routes |= {path: british(path) for path in own} | {path: british(path, lang="en") for path in elsewhere}
    site = make_site(routes)
    settings = SETTINGS.model_copy(update={"download_delay": 0.0, "max_pages_per_source": 4})
    gather.crawl([gather.resolve_source("website", site.url + "/uk/", settings)], settings)
    pages = [path for path in site.paths() if path.endswith("/") and path in routes]
    assert pages[0] == "/uk/" and sorted(pages[1:]) == sorted(own)


def test_an_error_page_without_a_content_type_is_an_http_error(make_site) -> None:
    # Stopped when its headers came (no Content-Type), it was counted as dropped for its content type.
    routes = {"/": page("Home", paragraphs("Acme Corp makes anvils and rocket skates for customers in forty countries."),
                        links=["/team/", "/gone/"])}
    routes["/team/"] = Reply(status=500, body=b"oops", content_type="")
    routes["/gone/"] = Reply(status=404, body=b"", content_type="")
    site = make_site(routes)
    settings = SETTINGS.model_copy(update={"download_delay": 0.0, "max_pages_per_source": 4})
    [source] = gather.crawl([gather.resolve_source("website", site.url + "/", settings)], settings).sources
    assert source.summary.dropped.get("http_error", 0) >= 2 and "content_type" not in source.summary.dropped, source.summary.dropped
