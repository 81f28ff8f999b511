"""Fresh enough (issue 25, item 4): `gather --max-age DURATION`, as Firecrawl's maxAge.

A page fetched live within the window is taken from the HTTP cache without a request and counted
as cached, not fetched; an unchanged re-gather then takes at most 0.1x the politeness floor of
the gather that fetched its pages. Outside the window every stored page is asked again (304s).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from sites import Reply, SiteServer, page, paragraphs
from test_gather_incremental import settings_in
from test_pipeline import snapshot

from cikb.app import indexing
from cikb.app.changes import ChangeLog, changes_line
from cikb.app.pipeline import NothingGatheredError, gather_company
from cikb.app.workspace import CompanyDir
from cikb.core.config import GatherSettings, parse_duration
from cikb.embed import DenseEmbedder
from cikb.store import open_store

REPO = Path(__file__).resolve().parents[1]
PAGES = 30
DELAY = 1.0  # the product's politeness delay


def routes() -> dict[str, Reply]:
    links = [f"/page-{n}/" for n in range(PAGES - 1)]
    site = {"/": page("Initech", paragraphs("Initech makes software for banks. " * 12), links=links),
            "/robots.txt": Reply(body="User-agent: *\nDisallow: /private/\n", content_type="text/plain")}
    for n, path in enumerate(links):
        site[path] = page(f"Initech page {n}", paragraphs(f"Initech office {n} opened in {1990 + n} in Austin with {10 + n} staff. " * 6))
    return site


def test_a_regather_within_max_age_makes_no_request_and_takes_a_tenth_of_the_floor(make_site: Callable[..., SiteServer], tmp_path: Path) -> None:
    site = make_site(routes(), etags=True)
    settings = settings_in(tmp_path / "data", download_delay=0.05, max_pages_per_source=PAGES)
    first = gather_company(settings, "Initech", {"website": site.url + "/"})
    assert first.sources[0].fetched == PAGES and first.sources[0].cached == 0
    # The politeness floor of re-gathering this site at the product's delay: every request one delay
    # from the last (robots.txt, the sitemap and the 404s of the navigation included), as the first gather made them.
    floor = (len(site.log) - 1) * DELAY

    requests = len(site.log)
    settings.gather.download_delay, settings.gather.max_age = DELAY, parse_duration("1d")
    fresh = gather_company(settings, "Initech", {"website": site.url + "/"})
    assert site.paths()[requests:] == []  # not one request: pages, robots.txt and the 404s alike
    source = fresh.sources[0]
    assert (source.cached, source.fetched, source.unreachable) == (PAGES, 0, 0)
    assert (fresh.documents, fresh.chunks, fresh.embedded) == (first.documents, first.chunks, 0)
    assert fresh.changes is not None and fresh.changes.pages == [] and fresh.changes.facts == []
    assert fresh.seconds <= 0.1 * floor, (fresh.seconds, fresh.stage_seconds, floor)


def test_a_page_older_than_max_age_is_asked_again(make_site: Callable[..., SiteServer], tmp_path: Path) -> None:
    site = make_site(routes(), etags=True)
    settings = settings_in(tmp_path / "data", download_delay=0.05)
    first = gather_company(settings, "Initech", {"website": site.url + "/"})
    settings.gather.max_age = 0.5  # the HTTP Date has whole seconds: stored pages are at least 0.5 s old after 1.1 s
    __import__("time").sleep(1.1)
    requests = len(site.log)
    summary = gather_company(settings, "Initech", {"website": site.url + "/"})
    pages = [r for r in site.log[requests:] if site.behaviour(r.path) is not None and r.path != "/robots.txt"]
    fetched = first.sources[0].fetched
    assert len(pages) == fetched and all("If-None-Match" in r.headers for r in pages)
    assert (summary.sources[0].fetched, summary.sources[0].cached) == (fetched, 0)


@pytest.mark.parametrize(("text", "seconds"), [("1d", 86_400), ("12h", 43_200), ("1h30m", 5_400), ("90s", 90), ("3600", 3_600), ("1w", 604_800)])
def test_durations(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds
    assert GatherSettings(max_age=text).max_age == seconds  # the same in cikb.toml or CIKB_GATHER__MAX_AGE


def test_a_bad_duration_is_one_error_line(isolated_env: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "cikb", "gather", "Initech", "--website", "http://127.0.0.1:9/", "--max-age", "1 fortnight"],
                            cwd=REPO, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "error: --max-age '1 fortnight' is not a duration: give seconds or a number with s, m, h, d or w, e.g. 1d, 12h, 1h30m"]


def test_pages_without_validators_and_404s_are_stored_and_taken_too(make_site: Callable[..., SiteServer], tmp_path: Path) -> None:
    site = make_site(routes())  # no ETag, no Last-Modified: stored all the same, for --max-age
    settings = settings_in(tmp_path / "data", download_delay=0.05, max_pages_per_source=5)
    first = gather_company(settings, "Initech", {"website": site.url + "/"})
    missing = [r.path for r in site.log if site.behaviour(r.path) is None and r.path != "/sitemap.xml"]  # the navigation's 404s
    assert missing and first.sources[0].dropped.get("http_error") == len(missing)
    requests = len(site.log)
    settings.gather.max_age = parse_duration("1h")
    fresh = gather_company(settings, "Initech", {"website": site.url + "/"})
    assert site.paths()[requests:] == [] and (fresh.sources[0].cached, fresh.sources[0].fetched) == (5, 0)
    assert fresh.sources[0].dropped.get("http_error") == len(missing)  # a 404 taken from the cache is still a 404

    site.stop()  # down: the pages are kept from the cache, the stored 404s are not (they would tell of the page, not the server)
    settings.gather.max_age = 0
    with pytest.raises(NothingGatheredError) as failed:
        gather_company(settings, "Initech", {"website": site.url + "/"})
    [down] = failed.value.sources
    assert (down.unreachable, down.fetched, down.cached) == (5, 0, 0) and "http_error" not in down.dropped


def test_a_regather_that_finds_nothing_new_writes_nothing(make_site: Callable[..., SiteServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = make_site(routes(), etags=True)
    settings = settings_in(tmp_path / "data", download_delay=0.05, max_pages_per_source=5)
    first = gather_company(settings, "Initech", {"website": site.url + "/"})
    folder = CompanyDir(settings.data_dir, "initech")
    generation, before = folder.current().id, snapshot(settings, "initech")
    files = {p.name: p.read_text() for p in folder.current().raw_dir.iterdir()}  # scraped_at included

    def no_write(*args: object) -> None:
        raise AssertionError("the store was written, or the model loaded")

    monkeypatch.setattr(indexing, "_write_points", no_write)
    monkeypatch.setattr(DenseEmbedder, "_load_now", no_write)  # every chunk is in the vector cache: the weights are not loaded either
    settings.gather.max_age = parse_duration("1d")
    fresh = gather_company(settings, "Initech", {"website": site.url + "/"})
    assert fresh.changes is not None and not fresh.changes.written and fresh.changes.generation == generation
    assert changes_line(fresh.changes).endswith("; knowledge base already current, nothing written")
    assert folder.current().id == generation and folder.indexed_id() == generation and len(list(folder.generations_dir.iterdir())) == 1
    assert {p.name: p.read_text() for p in folder.current().raw_dir.iterdir()} == files and snapshot(settings, "initech") == before
    assert folder.manifest()["gathered_at"] == fresh.started_at.isoformat()  # the manifest says when it was last gathered
    assert (fresh.chunks, fresh.documents) == (first.chunks, first.documents) and fresh.sources[0].chunks == first.sources[0].chunks
    history = ChangeLog(settings.data_dir).history("initech")
    assert [(h.written, h.pages, h.facts, h.pages_unchanged) for h in history[1:]] == [(False, [], [], first.documents)]  # no facts document here
    monkeypatch.undo()

    # A page changed: written as ever.
    site.routes["/page-1/"] = page("Initech page 1", paragraphs("Initech closed office 1 in 2024 and moved its staff to Denver. " * 6))
    settings.gather.max_age = 0
    changed = gather_company(settings, "Initech", {"website": site.url + "/"})
    assert changed.changes is not None and changed.changes.written and folder.current().id != generation
    assert [p.url for p in changed.changes.pages] == [site.url + "/page-1/"]
    # The store lost the company's points: written again, though nothing changed on the site.
    with open_store(settings) as store:
        store.delete_company("initech")
    settings.gather.max_age = parse_duration("1d")
    again = gather_company(settings, "Initech", {"website": site.url + "/"})
    assert again.changes is not None and again.changes.written and again.changes.pages == []
    assert snapshot(settings, "initech")["count"] == again.chunks > 0
