"""Input validation and URL facts of the gather stage (no network)."""

from __future__ import annotations

import pytest
from cikb.gather import resolve_source, validate_url
from cikb.gather._child import host_groups
from cikb.gather.urls import is_fact_page, is_other_language, language_prefix, site_of

from cikb.core.config import GatherSettings
from cikb.core.errors import BadInputError
from cikb.core.models import SourceRequest


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("", "empty URL"),
        ("   ", "empty URL"),
        ("acme.example", "'acme.example' is not a whole URL: give it with its scheme, e.g. https://acme.example/"),
        ("127.0.0.1:8000", "is not a whole URL: give it with its scheme, e.g. https://127.0.0.1:8000/"),
        ("acme.example:8000", "is not a whole URL"),
        ("ftp://acme.example/file", "unsupported URL scheme 'ftp'"),
        ("file:///etc/passwd", "unsupported URL scheme 'file'"),
        ("javascript:alert(1)", "unsupported URL scheme 'javascript'"),
        ("http://", "malformed URL"),
        ("http://acme.example:99999/", "malformed URL"),
        ("http://exa mple.com/", "malformed URL"),
        ("http://[::1/", "malformed URL"),
    ],
)
def test_bad_urls_get_one_clear_line(url: str, words: str) -> None:
    with pytest.raises(BadInputError) as raised:
        validate_url(url)
    message = str(raised.value)
    assert words in message
    assert "\n" not in message


def test_good_url_is_kept_without_its_fragment() -> None:
    assert validate_url(" https://acme.example/about?x=1#team ") == "https://acme.example/about?x=1"


def test_wikipedia_and_crunchbase_accept_names_or_urls() -> None:
    settings = GatherSettings(wikipedia_base_url="http://127.0.0.1:9/wiki/", crunchbase_base_url="http://127.0.0.1:9/organization/")
    assert resolve_source("wikipedia", "Acme Corp", settings).start_urls == ["http://127.0.0.1:9/wiki/Acme_Corp"]
    assert resolve_source("crunchbase", "Acme Corp, Inc.", settings).start_urls == ["http://127.0.0.1:9/organization/acme-corp-inc"]
    full = "https://en.wikipedia.org/wiki/Let%27s_Encrypt"
    assert resolve_source("wikipedia", full, settings).start_urls == [full]
    # A base written without its last slash is still a folder (".../wikiAcme_Corp" was asked for).
    bare = GatherSettings(wikipedia_base_url="http://127.0.0.1:9/wiki", crunchbase_base_url="http://127.0.0.1:9/organization")
    assert resolve_source("wikipedia", "Acme Corp", bare).start_urls == ["http://127.0.0.1:9/wiki/Acme_Corp"]
    assert resolve_source("crunchbase", "Acme Corp", bare).start_urls == ["http://127.0.0.1:9/organization/acme-corp"]


def test_website_and_news_need_urls_and_duplicates_collapse() -> None:
    settings = GatherSettings()
    with pytest.raises(BadInputError, match="'Acme Corp' is not a whole URL: give a web address, with https://"):
        resolve_source("website", "Acme Corp", settings)
    request = resolve_source("news", ["https://news.example/rss", "https://news.example/rss#x"], settings)
    assert request == SourceRequest(source_type="news", start_urls=["https://news.example/rss"])


def test_unknown_source_and_empty_values_are_bad_input() -> None:
    with pytest.raises(BadInputError, match="unknown source"):
        resolve_source("twitter", "https://x.example", GatherSettings())
    with pytest.raises(BadInputError, match="no URL"):
        resolve_source("news", [], GatherSettings())


def test_site_is_the_registered_domain() -> None:
    assert site_of("https://blog.acme.co.uk/x") == "acme.co.uk"
    assert site_of("https://www.acme.com/") == site_of("http://shop.acme.com/") == "acme.com"
    assert site_of("http://127.0.0.1:8000/") == "127.0.0.1"
    assert site_of("http://127.0.0.2:8000/") != site_of("http://127.0.0.1:8000/")


def test_language_prefixes() -> None:
    assert language_prefix("https://a.example/de/ueber-uns/") == "de"
    assert language_prefix("https://a.example/pt-br/about/") == "pt"
    assert language_prefix("https://a.example/about/") is None
    assert language_prefix("https://a.example/xx/") is None
    assert is_other_language("https://a.example/fr/", "en")
    assert not is_other_language("https://a.example/en/", "en")
    assert not is_other_language("https://a.example/blog/", "en")


def test_fact_pages() -> None:
    for path in ("/about/", "/about-us", "/company/leadership", "/press-releases/", "/contact.html", "/legal/imprint"):
        assert is_fact_page("https://a.example" + path), path
    for path in ("/", "/blog/post-1.html", "/products/", "/docs/glossary/"):
        assert not is_fact_page("https://a.example" + path), path


def test_sources_sharing_a_host_share_a_group() -> None:
    requests = [
        SourceRequest(source_type="website", start_urls=["http://a.example/"]),
        SourceRequest(source_type="wikipedia", start_urls=["http://w.example/wiki/A"]),
        SourceRequest(source_type="news", start_urls=["http://a.example/feed", "http://n.example/"]),
        SourceRequest(source_type="crunchbase", start_urls=["http://n.example/org/a"]),
    ]
    assert host_groups(requests) == [[0, 2, 3], [1]]
