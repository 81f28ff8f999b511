"""Live or not (issue 25, item 1): a page the HTTP cache answered because its server could not be
reached is counted as unreachable, kept from the date of that copy, never as fetched; a gather in
which no source reached a live page fails in one line and leaves the knowledge base as it was.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from sites import Reply, SiteServer, page, paragraphs
from test_pipeline import fast_settings, snapshot

from cikb.app.pipeline import NothingGatheredError, gather_company
from cikb.core.config import Settings

REPO = Path(__file__).resolve().parents[1]
PAGES = 3  # the home page and its fact pages: what the first gather stores


def routes(name: str = "Initech") -> dict:
    links = [f"/page-{n}/" for n in range(PAGES - 1)]
    site = {"/": page(name, paragraphs(f"{name} makes software for banks. " * 10), links=links)}
    for n, path in enumerate(links):
        site[path] = page(f"{name} page {n}", paragraphs(f"{name} fact number {n}: its office {n} opened in {1990 + n} in Austin. " * 6))
    return site


def gathered(make_site: Callable[..., SiteServer], **routes_of: dict) -> tuple[SiteServer, Settings, dict]:
    """A site with validators (so its pages are stored in the HTTP cache), gathered once; its knowledge base."""
    site = make_site(routes_of.get("routes") or routes(), etags=True)
    settings = fast_settings()
    first = gather_company(settings, "Initech", {"website": site.url + "/"})
    assert first.sources[0].fetched == PAGES and first.sources[0].unreachable == 0
    return site, settings, snapshot(settings, "initech")


def every_path(status: int) -> Callable[[str], Reply]:
    return lambda path: Reply(status=status, body=f"<h1>{status}</h1>")


def cikb(*args: str) -> subprocess.CompletedProcess[str]:
    # A site answering 503 is retried: at test speed (as fast_settings), the retries are not what these tests check.
    env = {**os.environ, "CIKB_GATHER__BACKOFF_BASE": "0.05"}
    return subprocess.run([sys.executable, "-m", "cikb", *args], cwd=REPO, capture_output=True, text=True, timeout=120, env=env)


def one_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    return lines[0]


DOWN = {"refused": "connection refused", "503": "HTTP 503"}


def take_down(site: SiteServer, how: str) -> None:
    """Connection refused from now on, or 503 on every path (robots.txt too)."""
    if how == "refused":
        site.stop()
    else:
        site.behaviour = every_path(503)  # type: ignore[method-assign]


@pytest.mark.parametrize("how", DOWN)
def test_a_site_down_on_regather_exits_non_zero_in_one_line_and_changes_nothing(make_site: Callable[..., SiteServer], how: str) -> None:
    site, settings, before = gathered(make_site)
    take_down(site, how)
    result = cikb("gather", "Initech", "--website", site.url + "/", "--delay", "0.05")
    assert result.returncode != 0
    line = one_line(result.stderr)
    assert "no source could be reached" in line and f"website: {PAGES} pages unreachable ({DOWN[how]}), kept from " in line
    assert snapshot(settings, "initech") == before  # files, chunk ids, vectors


@pytest.mark.parametrize("robots", [503, 404], ids=["robots-txt-503-too", "robots-txt-404"])
def test_a_site_answering_503_on_every_page_counts_them_unreachable_kept_from_the_first_gather(
    make_site: Callable[..., SiteServer], robots: int
) -> None:
    site, settings, before = gathered(make_site)
    stored = datetime.now(timezone.utc)
    requests = len(site.log)
    site.behaviour = lambda path: Reply(status=robots, body="no") if path == "/robots.txt" else every_path(503)(path)  # type: ignore[method-assign]
    with pytest.raises(NothingGatheredError) as failed:
        gather_company(settings, "Initech", {"website": site.url + "/"})
    source = failed.value.sources[0]
    assert (source.fetched, source.unreachable) == (0, PAGES)
    assert source.kept_from is not None and stored - source.kept_from < timedelta(minutes=1)
    assert "no source could be reached" in str(failed.value) and f"website: {PAGES} pages unreachable (HTTP 503), kept from " in str(failed.value)
    assert snapshot(settings, "initech") == before
    asked = [r.path for r in site.log[requests:]]
    if robots == 503:  # robots.txt unavailable: complete disallow, so no page is even asked for (RFC 9309)
        assert set(asked) == {"/robots.txt"} and source.unreachable_reason == "HTTP 503" and "HTTP 503" in (source.robots_unavailable or "")
    else:  # the pages were asked for; each 503 was answered with its stored copy, not retried
        assert set(asked) > {"/", "/page-0/"} and source.unreachable_reason == "HTTP 503" and source.robots_unavailable is None


def test_a_304_is_live(make_site: Callable[..., SiteServer]) -> None:
    site, settings, _ = gathered(make_site)
    again = gather_company(settings, "Initech", {"website": site.url + "/"})
    assert site.not_modified == PAGES
    assert (again.sources[0].fetched, again.sources[0].unreachable, again.sources[0].kept_from) == (PAGES, 0, None)


def test_one_source_down_keeps_its_pages_and_says_so_while_the_other_is_live(make_site: Callable[..., SiteServer]) -> None:
    site = make_site(routes(), etags=True)
    wiki = make_site({"/wiki/Initech": page("Initech - Wikipedia", paragraphs("Initech is an American software company in Austin. " * 8))}, host="127.0.0.3")
    sources = ["--website", site.url + "/", "--wikipedia", wiki.url + "/wiki/Initech", "--delay", "0.05"]
    first = json.loads(cikb("gather", "Initech", *sources, "--json").stdout)
    site.stop()
    result = cikb("gather", "Initech", *sources, "--json")
    assert result.returncode == 0, result.stderr
    again = json.loads(result.stdout)
    website, wikipedia = again["sources"]
    assert (website["fetched"], website["unreachable"], website["unreachable_reason"]) == (0, PAGES, "connection refused")
    assert website["kept_from"] and wikipedia["fetched"] == 1 and wikipedia["unreachable"] == 0
    assert again["documents"] == first["documents"] and again["chunks"] == first["chunks"]  # the website's pages were kept
    text = cikb("gather", "Initech", *sources).stdout
    assert f"website: {PAGES} pages unreachable (connection refused), kept from " in " ".join(text.split())


@pytest.mark.parametrize("how", DOWN)
def test_from_csv_a_site_down_fails_the_company_and_changes_nothing(make_site: Callable[..., SiteServer], tmp_path: Path, how: str) -> None:
    site, settings, before = gathered(make_site)
    table = tmp_path / "companies.csv"
    table.write_text(f"Company,Website\nInitech,{site.url}/\n")
    take_down(site, how)
    result = cikb("gather", "--from-csv", str(table), "--delay", "0.05", "--json")
    assert result.returncode != 0
    [row] = json.loads(result.stdout)
    assert row["status"] == "failed" and f"website: {PAGES} pages unreachable ({DOWN[how]})" in row["error"]
    assert (row["sources"][0]["fetched"], row["sources"][0]["unreachable"]) == (0, PAGES)
    assert snapshot(settings, "initech") == before


def test_a_page_timing_out_on_regather_is_kept_while_the_others_are_fetched_live(make_site: Callable[..., SiteServer]) -> None:
    site, settings, _ = gathered(make_site)
    site.routes["/page-1/"] = lambda hit: Reply(delay=3.0, body="late")  # past request_timeout (0.5 s)
    again = gather_company(settings, "Initech", {"website": site.url + "/"})
    source = again.sources[0]
    assert (source.fetched, source.unreachable, source.unreachable_reason) == (PAGES - 1, 1, "timed out")
    raw = (settings.data_dir / "initech" / "raw").glob("*.md")
    assert any("fact number 1:" in path.read_text() for path in raw)  # still in the knowledge base, as kept
