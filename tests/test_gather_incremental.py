"""Gathers that overlap the crawl and re-gathers that redo nothing (issue 11, items 2 and 3).

Overlapping the crawl and reusing cached vectors must not change what a gather produces:
the same raw files, chunk ids and vectors as a gather that works after the crawl, embeds
everything, and as a fresh gather into an empty data directory.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from sites import TOLERANCE, SiteServer, gaps, page, paragraphs
from test_pipeline import fast_settings, snapshot

from cikb import clean
from cikb.app.documents import read_documents
from cikb.app.indexing import load_index
from cikb.app.kb import forget_company, rebuild_company
from cikb.app.models import GatherEvent
from cikb.app.pipeline import gather_company
from cikb.app.workspace import CompanyDir
from cikb.core.config import Settings
from cikb.core.errors import ModelMismatchError

REPO = Path(__file__).resolve().parents[1]
ORG = '<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Organization", "name": "Initech", "foundingDate": "1998", "address": "1 Office Park, Austin, TX"}</script>'


def routes(pages: int, changed: int | None = None) -> dict:
    """A company site: a home page with schema.org data, ``pages`` fact pages (page ``changed`` reworded)
    and one near-duplicate of the first (a tracking parameter)."""
    links = [f"/page-{n}/" for n in range(pages)] + ["/page-0/?ref=home"]
    site = {"/": page("Initech", ORG + paragraphs("Initech makes software for banks. " * 12), links=links)}
    for n in range(pages):
        fact = f"Initech fact number {n}: its office {n} opened in {1990 + n} in Austin with {10 + n} staff. "
        if n == changed:
            fact = f"Initech moved office {n} to Dallas in 2020, and it now employs {500 + n} engineers there. "
        site[f"/page-{n}/"] = page(f"Initech page {n}", paragraphs(fact * 5, f"Initech's page {n} also lists its products and services. " * 4))
    return site


def settings_in(folder: Path, **gather: float) -> Settings:
    settings = fast_settings(**gather)
    settings.data_dir = folder
    return settings


def chunks_of(settings: Settings, slug: str, url: str) -> int:
    return sum(1 for c in load_index(CompanyDir(settings.data_dir, slug).current()).chunks if c.metadata.url == url)


def test_an_overlapped_gather_stores_what_a_gather_after_the_crawl_stores(make_site: Callable[..., SiteServer], tmp_path: Path) -> None:
    site = make_site(routes(6))
    after = settings_in(tmp_path / "after", download_delay=0.3, overlap=False)
    gather_company(after, "Initech", {"website": site.url + "/"})
    overlapped = settings_in(tmp_path / "overlapped", download_delay=0.3)
    seen: list[tuple[float, GatherEvent]] = []
    summary = gather_company(overlapped, "Initech", {"website": site.url + "/"}, on_event=lambda e: seen.append((time.monotonic(), e)))
    first = snapshot(overlapped, "initech")
    assert first == snapshot(after, "initech") and first["files"]
    assert any(name.endswith("facts.md") or "facts" in text for name, text in first["files"].items())  # the facts document is in
    assert summary.sources[0].dropped.get("duplicate") == 1  # the near-duplicate was stored once
    # It overlapped: pages were embedded before the crawl finished.
    crawl_end = max(t for t, e in seen if e.crawl is not None and e.crawl.kind == "source_finished")
    assert min(t for t, e in seen if e.stage == "embed") < crawl_end - 0.3
    assert set(summary.stage_seconds) == {"crawl", "clean", "chunk", "embed", "store"} and summary.stage_seconds["crawl"] > 6 * 0.3
    # ... and the vectors are those of embedding every chunk at once (rebuild's batch path).
    rebuild_company(overlapped, "initech")  # reads the raw files in name order: the same points, listed in another order
    rebuilt = snapshot(overlapped, "initech")
    assert {**rebuilt, "ids": sorted(rebuilt["ids"])} == {**first, "ids": sorted(first["ids"])}


def test_a_regather_of_unchanged_pages_revalidates_them_and_embeds_nothing(make_site: Callable[..., SiteServer], tmp_path: Path) -> None:
    site = make_site(routes(5), etags=True)
    settings = settings_in(tmp_path / "data", download_delay=0.3)
    first = gather_company(settings, "Initech", {"website": site.url + "/"})
    assert first.embedded == first.chunks > 0 and first.reused == 0
    before, requests = snapshot(settings, "initech"), len(site.log)
    again = gather_company(settings, "Initech", {"website": site.url + "/"})
    assert (again.embedded, again.reused, again.chunks) == (0, first.chunks, first.chunks)
    assert snapshot(settings, "initech") == before
    second = site.log[requests:]
    pages = [r for r in second if site.behaviour(r.path) is not None]  # the site's pages; the rest are 404s, never stored
    assert pages and all("If-None-Match" in r.headers for r in pages)  # every page asked for conditionally
    assert site.not_modified == len(pages)  # ... and none sent again
    assert min(gaps([r.time for r in second])) >= 0.3 - TOLERANCE  # a 304 is still a polite request
    fresh = settings_in(tmp_path / "fresh")
    gather_company(fresh, "Initech", {"website": site.url + "/"})
    assert snapshot(fresh, "initech") == before
    pages_kept = CompanyDir(settings.data_dir, "initech").http_cache_dir
    assert pages_kept.is_dir()
    forget_company(settings, "initech")  # the company's cached pages go with it
    assert not pages_kept.exists()


def test_a_changed_page_is_the_only_one_embedded_again(make_site: Callable[..., SiteServer], tmp_path: Path) -> None:
    site = make_site(routes(5), etags=True)
    settings = settings_in(tmp_path / "data")
    gather_company(settings, "Initech", {"website": site.url + "/"})
    site.routes.update(routes(5, changed=2))
    requests = len(site.log)
    summary = gather_company(settings, "Initech", {"website": site.url + "/"})
    changed = chunks_of(settings, "initech", site.url + "/page-2/")
    assert summary.embedded == changed > 0 and summary.reused == summary.chunks - changed
    pages = [r.path for r in site.log[requests:] if site.behaviour(r.path) is not None]
    assert "/page-2/" in pages and site.not_modified == len(pages) - 1  # every page but the changed one: 304
    fresh = settings_in(tmp_path / "fresh")
    gather_company(fresh, "Initech", {"website": site.url + "/"})
    regathered, new = snapshot(settings, "initech"), snapshot(fresh, "initech")
    assert (regathered["files"], regathered["ids"]) == (new["files"], new["ids"])
    # The same dense vectors; BM25 weights differ by design: they use the collection's avg_len, set by its first gather.
    assert {i: p[0] for i, p in regathered["points"].items()} == {i: p[0] for i, p in new["points"].items()}


def test_full_ignores_both_caches(make_site: Callable[..., SiteServer], tmp_path: Path, isolated_env: Path) -> None:
    site = make_site(routes(3), etags=True)
    args = ["gather", "Initech", "--website", site.url + "/", "--delay", "0.05", "--json"]
    first = json.loads(_cikb(*args).stdout)
    assert first["embedded"] == first["chunks"] and first["reused"] == 0
    again = json.loads(_cikb(*args).stdout)
    assert (again["embedded"], again["reused"]) == (0, first["chunks"])
    assert set(again["stage_seconds"]) == {"crawl", "clean", "chunk", "embed", "store"}
    requests = len(site.log)
    full = json.loads(_cikb(*args, "--full").stdout)
    assert (full["embedded"], full["reused"], full["chunks"]) == (first["chunks"], 0, first["chunks"])
    assert not any("If-None-Match" in r.headers for r in site.log[requests:])  # downloaded in full
    text = _cikb(*args[:-1]).stdout
    assert f"0 embedded, {first['chunks']} reused" in text and "seconds by stage: crawl" in text


def _cikb(*args: str) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([sys.executable, "-m", "cikb", *args], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result


def test_a_gather_refused_for_another_models_store_fetches_nothing(make_site: Callable[..., SiteServer], tmp_path: Path) -> None:
    # The crawler process starts while the model loads, but gets its job only once the checks pass.
    site = make_site(routes(1))
    settings = settings_in(tmp_path / "data")
    gather_company(settings, "Initech", {"website": site.url + "/"})
    record = settings.store_path / "edge" / f"{settings.store.collection}.json"
    data = json.loads(record.read_text())
    data["model"]["name"] = "BAAI/bge-small-en-v1.5"
    record.write_text(json.dumps(data))
    requests = len(site.log)
    with pytest.raises(ModelMismatchError):
        gather_company(settings, "Initech", {"website": site.url + "/"})
    assert len(site.log) == requests


def test_a_changed_page_is_cleaned_again_and_only_it(make_site: Callable[..., SiteServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Unchanged pages take the cleaned document the current generation kept for their HTML (issue 25, item 4);
    # a page whose HTML changed never gets its old document back.
    site = make_site(routes(5), etags=True)
    settings = settings_in(tmp_path / "data")
    gather_company(settings, "Initech", {"website": site.url + "/"})
    site.routes.update(routes(5, changed=2))
    cleaned: list[str] = []
    clean_page = clean.clean_page
    monkeypatch.setattr(clean, "clean_page", lambda page, *args, **kwargs: cleaned.append(page.url) or clean_page(page, *args, **kwargs))
    summary = gather_company(settings, "Initech", {"website": site.url + "/"})
    assert cleaned == [site.url + "/page-2/"]
    assert summary.changes is not None and [(p.url, p.change) for p in summary.changes.pages] == [(site.url + "/page-2/", "changed")]
    [document] = [d for d in read_documents(CompanyDir(settings.data_dir, "initech").current().raw_dir) if d.url == site.url + "/page-2/"]
    assert "Dallas" in document.content and "fact number 2" not in document.content
    # What a gather that cleans every page stores, chunk ids included.
    fresh = settings_in(tmp_path / "fresh")
    gather_company(fresh, "Initech", {"website": site.url + "/"})
    assert {k: snapshot(settings, "initech")[k] for k in ("files", "ids")} == {k: snapshot(fresh, "initech")[k] for k in ("files", "ids")}


def test_other_clean_settings_clean_every_page_again(make_site: Callable[..., SiteServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = make_site(routes(2), etags=True)
    settings = settings_in(tmp_path / "data")
    first = gather_company(settings, "Initech", {"website": site.url + "/"})
    cleaned: list[str] = []
    clean_page = clean.clean_page
    monkeypatch.setattr(clean, "clean_page", lambda page, *args, **kwargs: cleaned.append(page.url) or clean_page(page, *args, **kwargs))
    settings.clean.max_chars, settings.gather.max_age = 150, 86_400  # the same HTML from the HTTP cache, cut shorter
    summary = gather_company(settings, "Initech", {"website": site.url + "/"})
    assert len(cleaned) == sum(s.cached for s in summary.sources) == sum(s.fetched for s in first.sources)
    documents = read_documents(CompanyDir(settings.data_dir, "initech").current().raw_dir)
    assert documents and all(len(d.content) <= 150 for d in documents)


def test_a_damaged_record_of_cleaned_pages_means_cleaning_them_again(make_site: Callable[..., SiteServer], tmp_path: Path) -> None:
    site = make_site(routes(2), etags=True)
    settings = settings_in(tmp_path / "data")
    gather_company(settings, "Initech", {"website": site.url + "/"})
    before = snapshot(settings, "initech")
    kept = CompanyDir(settings.data_dir, "initech").current().index_dir / "cleaned.jsonl"
    lines = kept.read_text().splitlines()
    kept.write_text("\n".join(['{"key": "x", "document": {"url": 1}}', "not json", *(line[: len(line) // 2] for line in lines)]))
    gather_company(settings, "Initech", {"website": site.url + "/"})
    assert {k: snapshot(settings, "initech")[k] for k in ("files", "ids")} == {k: before[k] for k in ("files", "ids")}
