"""Polite by the standard (issue 25, item 2), seen from the server's side: robots.txt's Crawl-delay,
a robots.txt that cannot be read (RFC 9309 §2.3.1.4: complete disallow), one that is missing (4xx:
allow), and another port of the same host as another origin.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from sites import TOLERANCE, Reply, SiteServer, gaps, page, paragraphs, slow
from test_pipeline import fast_settings

from cikb import gather
from cikb.core.config import GatherSettings
from cikb.core.models import SourceResult
from cikb.gather.urls import origin_of, same_site_origin

REPO = Path(__file__).resolve().parents[1]


def crawl(settings: GatherSettings, **sources: str | list[str]) -> list[SourceResult]:
    requests = [gather.resolve_source(kind, urls, settings) for kind, urls in sources.items()]
    return gather.crawl(requests, settings).sources


def site_routes(robots: Reply | None) -> dict:
    site = {
        "/": page("Initech", paragraphs("Initech makes software for banks. " * 8), links=["/about/", "/private/about"]),
        "/about/": page("About Initech", paragraphs("Initech was founded in 1998 in Austin. " * 8)),
        "/private/about": page("Private", paragraphs("Robots may not read this page. " * 8)),
    }
    if robots is not None:
        site["/robots.txt"] = robots
    return site


def robots_txt(text: str) -> Reply:
    return Reply(body=text, content_type="text/plain")


def test_a_crawl_delay_longer_than_the_configured_delay_spaces_every_request_to_the_host(make_site: Callable[..., SiteServer]) -> None:
    # Two sources on one host, one page each: robots.txt, a page, and again for the second source's crawler.
    # 1.5 s: well above the configured 0.2 s, the default 1 s and the timing noise (three gaps of it are the test's time).
    site = make_site({**site_routes(robots_txt("User-agent: *\nCrawl-delay: 1.5\n")), "/wiki/Initech": page("Initech", paragraphs("An article. " * 20))})
    settings = fast_settings(download_delay=0.2).gather
    wikipedia, crunchbase = crawl(settings, wikipedia=site.url + "/wiki/Initech", crunchbase=site.url + "/about/")
    assert [r.path for r in site.log] == ["/robots.txt", "/wiki/Initech", "/robots.txt", "/about/"]
    assert min(gaps(site.times())) >= 1.5 - TOLERANCE
    assert wikipedia.summary.crawl_delay == crunchbase.summary.crawl_delay == 1.5
    assert (wikipedia.summary.fetched, crunchbase.summary.fetched) == (1, 1)


def test_a_crawl_delay_shorter_than_the_configured_delay_changes_nothing(make_site: Callable[..., SiteServer]) -> None:
    site = make_site(site_routes(robots_txt("User-agent: *\nCrawl-delay: 0.1\nDisallow: /private/\n")))
    [website] = crawl(fast_settings(download_delay=0.5, max_pages_per_source=2).gather, website=site.url + "/")
    assert website.summary.fetched == 2 and website.summary.crawl_delay is None
    assert min(gaps(site.times())) >= 0.5 - TOLERANCE


@pytest.mark.parametrize(
    "robots, cause, reason",
    [
        (Reply(status=500, body="oops"), "HTTP 500", "http_error"),
        (Reply(status=503, body="busy"), "HTTP 503", "http_error"),
        (slow(5.0, robots_txt("User-agent: *\nDisallow: /private/\n")), "timed out", "network_error"),
    ],
    ids=["500", "503", "hanging"],
)
def test_a_robots_txt_that_cannot_be_read_disallows_every_page(make_site: Callable[..., SiteServer], robots: Reply, cause: str, reason: str) -> None:
    site = make_site(site_routes(robots))
    [website] = crawl(fast_settings(request_timeout=0.5).gather, website=site.url + "/")
    assert {r.path for r in site.log} == {"/robots.txt"}  # not /, and not /private/about
    assert website.pages == [] and website.summary.fetched == 0
    # The start page is refused as the failure that stopped robots.txt, and that is the source's error.
    assert website.summary.dropped == {reason: 1}
    host = site.url.split("://")[1]
    assert f"robots.txt unavailable ({cause}) on {host}: complete disallow of that host" in (website.summary.robots_unavailable or "")
    assert website.summary.error == f"could not fetch {site.url}/: {website.summary.robots_unavailable}"


@pytest.mark.parametrize("status", [404, 403, 410])
def test_a_robots_txt_answering_4xx_allows_everything(make_site: Callable[..., SiteServer], status: int) -> None:
    # The error page's own text would read as a rule if parsed: it must not be.
    site = make_site(site_routes(Reply(status=status, body="User-agent: *\nDisallow: /\n", content_type="text/plain")))
    [website] = crawl(fast_settings(max_pages_per_source=3).gather, website=site.url + "/")
    assert {site.url + "/", site.url + "/about/", site.url + "/private/about"} <= {p.url for p in website.pages}
    assert website.summary.robots_unavailable is None


def test_another_port_of_the_same_host_is_another_origin(make_site: Callable[..., SiteServer]) -> None:
    other = make_site({"/robots.txt": robots_txt("User-agent: *\nSitemap: /sitemap.xml\n"), "/elsewhere/": page("Elsewhere", paragraphs("Another server. " * 20))})
    routes = site_routes(robots_txt("User-agent: *\nDisallow: /private/\n"))
    routes["/"] = page("Initech", paragraphs("Initech makes software for banks. " * 8), links=["/about/", "/moved/", other.url + "/elsewhere/"])
    routes["/moved/"] = Reply(status=301, headers={"Location": other.url + "/elsewhere/"})
    site = make_site(routes)
    [website] = crawl(fast_settings().gather, website=site.url + "/")
    assert other.log == []  # not its page, nor its robots.txt, nor its sitemap
    assert site.url + "/about/" in {p.url for p in website.pages} and all(p.url.startswith(site.url + "/") for p in website.pages)
    assert website.summary.dropped.get("offsite") == 2  # the link, and the redirect


def test_origins_on_the_start_urls_host() -> None:
    starts = {origin_of("http://127.0.0.1:8000/")}
    assert same_site_origin("http://127.0.0.1:8000/about/", starts)
    assert not same_site_origin("http://127.0.0.1:8001/", starts)
    assert not same_site_origin("http://127.0.0.1/", starts)  # the default port is another port here
    assert not same_site_origin("https://127.0.0.1:8000/", starts)
    site = {origin_of("http://acme.example/")}
    assert same_site_origin("https://acme.example/about", site)  # the upgrade every site makes
    assert same_site_origin("http://blog.acme.example/", site)  # another host of the site, default port
    assert not same_site_origin("http://acme.example:8080/", site)
    assert not same_site_origin("http://acme.example/", {origin_of("https://acme.example/")})  # no downgrade


def cikb(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cikb", *args], cwd=REPO, capture_output=True, text=True, timeout=120)


def test_the_gather_summary_reports_the_crawl_delay_and_a_robots_txt_it_could_not_read(make_site: Callable[..., SiteServer]) -> None:
    site = make_site(site_routes(robots_txt("User-agent: *\nCrawl-delay: 0.4\nDisallow: /private/\n")))
    result = cikb("gather", "Initech", "--website", site.url + "/", "--delay", "0.05", "--max-pages", "2")
    assert result.returncode == 0, result.stderr
    assert "website: robots.txt Crawl-delay 0.4 s honoured" in result.stdout
    assert min(gaps(site.times())) >= 0.4 - TOLERANCE
    site.routes["/robots.txt"] = Reply(status=500, body="oops")
    again = cikb("gather", "Initech", "--website", site.url + "/", "--delay", "0.05", "--max-pages", "2")
    assert again.returncode != 0
    [line] = [line for line in again.stderr.splitlines() if line.strip()]
    assert line.startswith("error: nothing gathered for 'Initech'") and f"robots.txt unavailable (HTTP 500) on {site.url.split('://')[1]}: complete disallow" in line


def test_a_gzipped_sitemap_robots_txt_names_is_read(make_site: Callable[..., SiteServer]) -> None:
    # sitemap.xml.gz served as a file (application/x-gzip, no Content-Encoding) arrives compressed: its pages were lost.
    import gzip

    routes = site_routes(robots_txt("User-agent: *\nSitemap: /sitemap.xml.gz\n"))
    xml = ('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
           "<url><loc>/company/leadership/</loc></url></urlset>")
    routes["/sitemap.xml.gz"] = Reply(body=gzip.compress(xml.encode()), content_type="application/x-gzip")
    routes["/company/leadership/"] = page("Leadership", paragraphs("Jane Roe leads Initech as its chief executive. " * 8))
    site = make_site(routes)
    [website] = crawl(fast_settings(max_pages_per_source=4).gather, website=site.url + "/")
    assert site.url + "/company/leadership/" in {p.url for p in website.pages}


@pytest.mark.parametrize("named", [None, Reply(body="<!doctype html><html><body><h1>Page not found</h1></body></html>", content_type="text/html"),
                                   Reply(body='{"error": "sitemap moved"}', content_type="application/json")],
                         ids=["not-there", "an-html-page", "json"])
def test_a_sitemap_robots_txt_names_that_is_no_sitemap_leaves_sitemap_xml_to_try(make_site: Callable[..., SiteServer], named: Reply | None) -> None:
    # A page linked from nowhere is found through /sitemap.xml when the sitemap robots.txt names is not there (404: a
    # template left unrendered, "{{ site.url }}/sitemap.xml", as a site's build may leave it) or is no sitemap: a
    # single-page app answers every path with 200 and its HTML shell, an API gateway with JSON. Those two were read as a
    # sitemap with no entries and /sitemap.xml was never tried.
    named_path = "/sitemaps/pages.xml" if named is not None else "{{ site.url }}/sitemap.xml"
    routes = site_routes(robots_txt(f"User-agent: *\nSitemap: {named_path}\n"))
    if named is not None:
        routes[named_path] = named
    routes["/sitemap.xml"] = Reply(body='<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
                                        "<url><loc>/company/leadership/</loc></url></urlset>", content_type="application/xml")
    routes["/company/leadership/"] = page("Leadership", paragraphs("Jane Roe leads Initech as its chief executive. " * 8))
    site = make_site(routes)
    [website] = crawl(fast_settings(max_pages_per_source=4).gather, website=site.url + "/")
    assert site.url + "/company/leadership/" in {p.url for p in website.pages}
    assert [r.path for r in site.log].count("/sitemap.xml") == 1
