"""Spec N8: web search and page fetching behind one interface, against servers on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from cikb.enrich.providers import (
    HttpJsonSearch,
    OpenAIWebSearch,
    PageFetcher,
    SearchError,
    SearchHit,
    hits_from_response,
    open_web_provider,
)
from enrich_support import SearchServer
from sites import Reply, drip, page, paragraphs

from cikb.core.config import Settings
from cikb.core.errors import BadInputError


def run(coro):
    return asyncio.run(coro)


@pytest.fixture
def settings() -> Settings:
    settings = Settings()
    settings.gather.request_timeout = 5
    settings.gather.max_download_bytes = 20_000
    return settings


# --- the HTTP JSON search provider -------------------------------------------------


def test_http_json_search_reads_results_and_drops_non_http_urls(settings: Settings) -> None:
    server = SearchServer(lambda q: [
        {"url": "https://acme.test/about", "title": "About Acme", "snippet": f"results for {q}"},
        {"url": "file:///etc/passwd", "title": "local file", "snippet": "nope"},
        {"url": "https://acme.test/news", "title": "News", "content": "content is accepted as the snippet"},
    ])
    try:
        settings.enrich.search_provider, settings.enrich.search_url = "http", server.url
        provider = open_web_provider(settings)
        assert isinstance(provider, HttpJsonSearch)
        hits = run(provider.search("when was Acme founded", max_results=3))
    finally:
        server.close()
    assert hits == [
        SearchHit("https://acme.test/about", "About Acme", "results for when was Acme founded"),
        SearchHit("https://acme.test/news", "News", "content is accepted as the snippet"),
    ]
    assert server.queries == ["when was Acme founded"]


def test_a_failing_search_endpoint_is_a_search_error(settings: Settings, make_site) -> None:
    site = make_site({"/search": Reply(status=500, body="oops")})
    settings.enrich.search_provider, settings.enrich.search_url = "http", site.url_for("/search")
    with pytest.raises(SearchError, match="search provider .* failed"):
        run(HttpJsonSearch(settings).search("x"))


def test_a_search_error_never_shows_the_key_in_the_search_url(settings: Settings, make_site) -> None:
    site = make_site({"/search": Reply(status=500, body="oops")})
    settings.enrich.search_provider = "http"
    settings.enrich.search_url = site.url_for("/search").replace("://", "://user:pw-planted-4821@") + "?api_key=sk-planted-key-4821"
    with pytest.raises(SearchError) as raised:
        run(HttpJsonSearch(settings).search("x"))
    assert "planted" not in str(raised.value) and "search provider" in str(raised.value)


def test_provider_configuration_errors_are_clear(settings: Settings) -> None:
    assert open_web_provider(settings) is None  # the default: knowledge base only
    settings.enrich.search_provider = "http"
    with pytest.raises(BadInputError, match="search_url is not set"):
        open_web_provider(settings)
    settings.enrich.search_provider = "openai"
    with pytest.raises(BadInputError, match="search_model nor llm.model"):
        open_web_provider(settings)


# --- page fetching -------------------------------------------------------------------


@pytest.fixture
def pages(make_site):
    return make_site({
        "/robots.txt": Reply(body="User-agent: *\nDisallow: /private/\n", content_type="text/plain"),
        "/about/": page("About Acme", paragraphs("Acme Corp was founded in 1999 in Springfield, Oregon, by Jane Doe. " * 3)),
        "/private/plans.html": page("Plans", paragraphs("Secret plans.")),
        "/report.pdf": Reply(body=b"%PDF-1.4 ...", content_type="application/pdf"),
        "/huge/": page("Huge", paragraphs("word " * 10_000)),
        "/gone/": Reply(status=404, body="<h1>404</h1>"),
        "/drip/": drip(0.2),
    })


def test_fetch_extracts_the_text_of_an_html_page(settings: Settings, pages) -> None:
    result = run(PageFetcher(settings).fetch(pages.url_for("/about/")))
    assert result.skipped is None and result.title == "About Acme"
    assert "Acme Corp was founded in 1999" in result.text
    assert "cookies" not in result.text.lower()  # the banner is boilerplate, not text
    user_agents = {entry.headers.get("User-Agent") for entry in pages.log}
    assert user_agents == {settings.gather.user_agent}


@pytest.mark.parametrize(
    ("path", "reason"),
    [("/private/plans.html", "robots"), ("/report.pdf", "content_type"), ("/huge/", "size"), ("/gone/", "http_error")],
)
def test_fetch_obeys_robots_and_the_gather_bounds(settings: Settings, pages, path: str, reason: str) -> None:
    result = run(PageFetcher(settings).fetch(pages.url_for(path)))
    assert result.skipped == reason and result.text == ""
    if reason == "robots":
        assert path not in pages.paths() and "/robots.txt" in pages.paths()


def test_fetch_reads_robots_once_per_site_and_refuses_other_schemes(settings: Settings, pages) -> None:
    fetcher = PageFetcher(settings)

    async def both():
        return await asyncio.gather(fetcher.fetch(pages.url_for("/about/")), fetcher.fetch(pages.url_for("/gone/")))

    run(both())
    assert pages.paths().count("/robots.txt") == 1
    assert run(fetcher.fetch("file:///etc/passwd")).skipped == "scheme"


def test_an_unreadable_robots_txt_disallows(settings: Settings, make_site) -> None:
    site = make_site({"/robots.txt": Reply(status=503, body="down"), "/about/": page("About", paragraphs("text " * 50))})
    assert run(PageFetcher(settings).fetch(site.url_for("/about/"))).skipped == "robots"
    assert "/about/" not in site.paths()


def test_a_slow_page_is_a_timeout_not_a_crash(settings: Settings, make_site) -> None:
    settings.gather.request_timeout = 0.2
    site = make_site({"/slow/": Reply(body="<p>late</p>", delay=1.0)})
    assert run(PageFetcher(settings).fetch(site.url_for("/slow/"))).skipped == "timeout"


# --- the OpenAI Responses API web-search tool ----------------------------------------

RESPONSE_TEXT = "Acme Corp was founded in 1999 in Springfield. It makes anvils and rocket skates."


def responses_payload(model: str) -> dict[str, Any]:
    return {
        "id": "resp_1", "object": "response", "created_at": 1_700_000_000, "model": model, "status": "completed",
        "output": [
            {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "acme founded"}},
            {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed", "content": [{
                "type": "output_text", "text": RESPONSE_TEXT, "annotations": [
                    {"type": "url_citation", "url": "https://acme.test/about", "title": "About Acme", "start_index": 0, "end_index": 45},
                    {"type": "url_citation", "url": "https://news.test/skates", "title": "Skates", "start_index": 47, "end_index": 80},
                    {"type": "url_citation", "url": "javascript:alert(1)", "title": "bad", "start_index": 0, "end_index": 5},
                ]}]},
        ],
        "parallel_tool_calls": True, "tool_choice": "required", "tools": [{"type": "web_search"}],
        "usage": {"input_tokens": 10, "output_tokens": 20, "total_tokens": 30,
                  "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}},
    }


@pytest.fixture
def responses_server() -> Iterator[dict[str, Any]]:
    """A /v1/responses endpoint on 127.0.0.1 that records requests."""
    state: dict[str, Any] = {"requests": []}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_POST(self) -> None:  # noqa: N802
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            state["requests"].append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
            data = json.dumps(responses_payload(body.get("model", ""))).encode()
            self.send_response(200 if self.path == "/v1/responses" else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True).start()
    state["base_url"] = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    yield state
    httpd.shutdown()
    httpd.server_close()


def test_openai_web_search_sends_the_tool_request_and_reads_citations(settings: Settings, responses_server) -> None:
    settings.llm.base_url, settings.llm.api_key, settings.llm.model = responses_server["base_url"], "sk-test", "gpt-test"
    settings.enrich.search_provider, settings.enrich.search_model = "openai", "gpt-search"
    provider = open_web_provider(settings)
    assert isinstance(provider, OpenAIWebSearch)
    hits = run(provider.search("When was Acme Corp founded?"))
    request = responses_server["requests"][0]
    assert request["path"] == "/v1/responses" and request["auth"] == "Bearer sk-test"
    assert request["body"]["model"] == "gpt-search"
    assert request["body"]["tools"] == [{"type": "web_search"}]
    assert "When was Acme Corp founded?" in request["body"]["input"]
    assert [h.url for h in hits] == ["https://acme.test/about", "https://news.test/skates"]
    assert hits[0].title == "About Acme" and hits[0].snippet == "Acme Corp was founded in 1999 in Springfield."


def test_citations_without_offsets_keep_some_text() -> None:
    response = {"output": [{"type": "message", "content": [{"text": "Short answer.", "annotations": [
        {"type": "url_citation", "url": "https://a.test/", "title": "A"}]}]}]}
    assert hits_from_response(response) == [SearchHit("https://a.test/", "A", "Short answer.")]


def test_a_page_that_drips_is_cut_at_the_request_deadline_and_said_to_time_out(settings: Settings, pages) -> None:
    settings.gather.request_timeout = 1.5  # each byte comes within httpx's read timeout; the page never ends
    started = time.monotonic()
    result = run(PageFetcher(settings).fetch(pages.url_for("/drip/")))
    assert (result.skipped, result.text) == ("timeout", "")
    assert time.monotonic() - started < 5


def test_a_dripping_robots_txt_is_cut_at_the_deadline_and_disallows(settings: Settings, make_site) -> None:
    # robots.txt is read under a lock every site's fetch shares: it must not hold them all.
    settings.gather.request_timeout = 1.0
    site = make_site({"/robots.txt": drip(0.2), "/about/": page("About Acme", paragraphs("Acme Corp was founded in 1999. " * 5))})
    started = time.monotonic()
    assert run(PageFetcher(settings).fetch(site.url_for("/about/"))).skipped == "robots"  # unreadable rules disallow (RFC 9309)
    assert time.monotonic() - started < 5
