"""Redirects (issue 23, item 0): followed within the company's registered domain whatever their
headers say about content, counted apart from drops, each page fetched once, and never off-site.

Servers here answer a redirect as many do: no Content-Type (python's http.server answers
``/about`` with ``301 Location: /about/`` and nothing else). The content-type check used to
stop such an answer at its headers, so a site whose links lack the trailing slash gathered
its start page only.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sites import Reply, SiteServer, paragraphs

from cikb import gather
from cikb.core.config import GatherSettings
from cikb.core.models import CrawlEvent, SourceResult

SETTINGS = GatherSettings(download_delay=0.0, request_timeout=5.0, backoff_base=0.05, max_pages_per_source=50, user_agent="cikb-test/1.0")

# A small company site: every page a directory with an index.html, as static site generators write them.
SECTIONS = ["about", "team", "pricing", "contact", "blog"]
POSTS = ["blog/funding-round", "blog/new-office"]

pytestmark = pytest.mark.slow


def moved(location: str, status: int = 301, content_type: str = "") -> Reply:
    """A redirect; by default with no Content-Type, as http.server and many servers send it."""
    return Reply(status=status, body=b"", content_type=content_type, headers={"Location": location})


def page(title: str, text: str, links: list[str] | None = None) -> Reply:
    """An HTML page linking exactly ``links`` (sites.page adds Acme's navigation)."""
    items = "".join(f'<li><a href="{link}">{link}</a></li>' for link in links or [])
    return Reply(body=f"<!DOCTYPE html><html lang='en'><head><title>{title}</title></head><body><ul>{items}</ul>{paragraphs(text)}</body></html>")


def write_site(root: Path, *, slash: bool) -> Path:
    """The same pages under ``root``, linked as ``/about/`` (``slash``) or ``/about`` (not)."""
    end = "/" if slash else ""

    def write(path: str, title: str, text: str, links: list[str]) -> None:
        folder = root / path
        folder.mkdir(parents=True, exist_ok=True)
        items = "".join(f'<li><a href="/{link}{end}">{link}</a></li>' for link in links)
        body = paragraphs(f"{text} Example Corp builds developer tools in Kiel and sells them worldwide.")
        (folder / "index.html").write_text(
            f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title></head>'
            f"<body><nav><ul>{items}</ul></nav><main><h1>{title}</h1>{body}</main></body></html>",
            encoding="utf-8",
        )

    write("", "Example Corp", "Welcome to Example Corp.", SECTIONS)
    for section in SECTIONS:
        write(section, section.title(), f"The {section} page of Example Corp.", POSTS if section == "blog" else SECTIONS)
    for post in POSTS:
        write(post, post, f"A blog post: {post}.", ["blog"])
    return root


def final_paths(source: SourceResult, site: SiteServer) -> set[str]:
    return {p.url.removeprefix(site.url) for p in source.pages}


@dataclass
class Pair:
    """One crawl of the same site twice: linked with trailing slashes, and without."""

    with_slash: SiteServer
    without_slash: SiteServer
    sources: list[SourceResult]


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pair]:
    root = tmp_path_factory.mktemp("sites")
    slashed = write_site(root / "slash", slash=True)
    bare = write_site(root / "bare", slash=False)
    # Two hosts, so the two sources are two registered domains and crawl side by side.
    with SiteServer(directory=slashed) as with_slash, SiteServer(directory=bare, host="127.0.0.3") as without_slash:
        requests = [gather.resolve_source("website", site.url + "/", SETTINGS) for site in (with_slash, without_slash)]
        result = gather.crawl(requests, SETTINGS)
        yield Pair(with_slash, without_slash, list(result.sources))


def test_links_without_the_trailing_slash_gather_as_fully_as_with_it(pair: Pair) -> None:
    slashed, bare = pair.sources
    expected = {"/"} | {f"/{path}/" for path in SECTIONS + POSTS}
    assert final_paths(slashed, pair.with_slash) == expected
    # The document's URL is where the redirect led, never the URL that was asked for.
    assert final_paths(bare, pair.without_slash) == expected
    assert bare.summary.fetched == slashed.summary.fetched == len(expected)
    assert "content_type" not in bare.summary.dropped


def test_redirects_are_counted_apart_from_drops(pair: Pair) -> None:
    slashed, bare = pair.sources
    assert slashed.summary.redirected == 0
    # Every page but the start URL was linked without its slash: one 301 each.
    assert bare.summary.redirected == len(SECTIONS + POSTS)
    assert bare.summary.dropped == slashed.summary.dropped == {}
    assert bare.summary.model_dump(mode="json")["redirected"] == len(SECTIONS + POSTS)  # as --json shows it


def test_each_page_is_requested_once_under_each_url(pair: Pair) -> None:
    paths = pair.without_slash.paths()
    for path in SECTIONS + POSTS:
        assert paths.count(f"/{path}") == 1  # the 301
        assert paths.count(f"/{path}/") == 1  # the page, linked from every page but fetched once


def test_a_page_linked_with_and_without_its_slash_is_fetched_once(make_site) -> None:
    site = make_site(
        {
            # /about/ comes first, then a link back as /about: its 301 leads to a page already fetched.
            "/": page("Example Corp", "Welcome.", links=["/about/", "/careers"]),
            "/about": moved("/about/"),
            "/about/": page("About Example Corp", "Example Corp was founded in 2015.", links=["/about"]),
            # /careers first: it leads to /careers/, which a link then names again.
            "/careers": moved("/careers/"),
            "/careers/": page("Careers", "Example Corp is hiring.", links=["/careers/"]),
        }
    )
    source = gather.crawl([gather.resolve_source("website", site.url + "/", SETTINGS)], SETTINGS).sources[0]
    paths = site.paths()
    assert paths.count("/about/") == 1 and paths.count("/about") == 1
    assert paths.count("/careers/") == 1 and paths.count("/careers") == 1
    assert sorted(p.url.removeprefix(site.url) for p in source.pages) == ["/", "/about/", "/careers/"]
    assert source.summary.redirected == 1  # /careers; /about's redirect was not followed
    assert source.summary.dropped == {"duplicate": 1}  # /about: the same page as /about/


def test_a_folder_linked_by_its_index_file_is_fetched_once(make_site) -> None:
    # A page's own footer names its folder's index file ("/legal/terms/index.html"), the navigation the folder:
    # one page, which would otherwise take two of the page budget.
    site = make_site(
        {
            "/": page("Example Corp", "Welcome.", links=["/legal/terms/", "/about/index.html"]),
            "/legal/terms/": page("Terms", "These terms govern Example Corp.", links=["/legal/terms/index.html"]),
            "/legal/terms/index.html": page("Terms", "These terms govern Example Corp.", links=[]),
            "/about/index.html": page("About", "Example Corp was founded in 2015.", links=["/about/", "/index.html"]),
            "/about/": page("About", "Example Corp was founded in 2015.", links=[]),
            "/index.html": page("Example Corp", "Welcome.", links=[]),
        }
    )
    source = gather.crawl([gather.resolve_source("website", site.url + "/", SETTINGS)], SETTINGS).sources[0]
    paths = site.paths()
    assert "/legal/terms/index.html" not in paths and "/about/" not in paths and "/index.html" not in paths
    assert sorted(p.url.removeprefix(site.url) for p in source.pages) == ["/", "/about/index.html", "/legal/terms/"]


def test_302_303_307_and_308_are_followed_whatever_their_content_type(make_site) -> None:
    old = ["/old-team", "/see-other", "/temporary", "/permanent"]
    site = make_site(
        {
            "/": page("Example Corp", "Welcome.", links=[*old, "/loop-a"]),
            "/old-team": moved("/team/", 302),
            "/see-other": moved("/contact/", 303, "text/plain"),
            "/temporary": moved("/pricing/", 307, "application/octet-stream"),
            "/permanent": moved("/legal/", 308, "application/json"),
            "/team/": page("Team", "Our team."),
            "/contact/": page("Contact", "Write to us."),
            "/pricing/": page("Pricing", "Ten dollars a month."),
            "/legal/": page("Legal notice", "Example Corp GmbH, Kiel."),
            # A loop ends where it started: its target was requested already.
            "/loop-a": moved("/loop-b", 302),
            "/loop-b": moved("/loop-a", 302),
        }
    )
    source = gather.crawl([gather.resolve_source("website", site.url + "/", SETTINGS)], SETTINGS).sources[0]
    assert sorted(p.url.removeprefix(site.url) for p in source.pages) == ["/", "/contact/", "/legal/", "/pricing/", "/team/"]
    assert {p.content_type for p in source.pages} == {"text/html"}
    assert source.summary.redirected == 5  # four, and /loop-a -> /loop-b
    assert source.summary.dropped == {"duplicate": 1}  # /loop-b -> /loop-a
    paths = site.paths()
    assert all(paths.count(path) == 1 for path in [*old, "/loop-a", "/loop-b"])


def test_a_redirect_to_another_site_is_not_followed_and_is_reported(make_site) -> None:
    other = make_site({"/partner.html": page("Partner", "Another company.")}, host="127.0.0.2")
    site = make_site(
        {
            "/": page("Example Corp", "Welcome.", links=["/partner", "/partner-html"]),
            "/partner": moved(other.url_for("/partner.html")),
            "/partner-html": moved(other.url_for("/partner.html"), 302, "text/html"),
        }
    )
    events: list[CrawlEvent] = []
    source = gather.crawl([gather.resolve_source("website", site.url + "/", SETTINGS)], SETTINGS, on_event=events.append).sources[0]
    assert other.log == []
    assert [p.url for p in source.pages] == [site.url + "/"]
    assert source.summary.redirected == 0
    assert source.summary.dropped == {"offsite": 2}
    drops = {e.url: e for e in events if e.kind == "page_dropped"}
    # Reported under the URL the link named, with where it led.
    for path in ("/partner", "/partner-html"):
        assert drops[site.url + path].reason == "offsite"
        assert other.url_for("/partner.html") in (drops[site.url + path].detail or "")


def test_a_website_that_redirects_to_another_site_says_where_and_is_not_followed(make_site) -> None:
    # "website: 1 dropped (offsite)" was all a user learnt of a company's old domain: its site may have moved, or be
    # another company's now (an acquirer's), so it is not crawled, and the error names where it leads.
    other = make_site({"/": page("Globex", "Globex acquired the company.")}, host="127.0.0.2")
    site = make_site({"/": moved(other.url_for("/"))})
    source = gather.crawl([gather.resolve_source("website", site.url + "/", SETTINGS)], SETTINGS).sources[0]
    assert other.log == [] and source.pages == []
    assert source.summary.error == (f"could not fetch {site.url}/: redirects to another site, not followed: "
                                    f"{other.url_for('/')} (if that is the company's site, gather it with that URL)")
