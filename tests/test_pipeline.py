"""The gather job end to end (spec G4-G7): documents, points, idempotence, no data loss, the lock."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from cikb.store import open_store
from sites import TOLERANCE, SiteServer, page, paragraphs

from cikb import gather
from cikb.app.documents import read_documents
from cikb.app.indexing import load_index
from cikb.app.kb import company_statuses, forget_company, rebuild_all, rebuild_company
from cikb.app.pipeline import clean_crawl, gather_company, resolve_sources
from cikb.app.workspace import CompanyDir
from cikb.core.config import Settings, load_settings
from cikb.core.errors import BadInputError, DamagedError, GatherFailedError, LockedError, ModelMismatchError, UnknownCompanyError
from cikb.core.slug import company_from_name

REPO = Path(__file__).resolve().parents[1]


def fast_settings(**gather: float) -> Settings:
    """Default bounds, but polite at test speed: short delay, timeout and backoff."""
    settings = load_settings()
    settings.gather.download_delay = 0.05
    settings.gather.request_timeout = 0.5
    settings.gather.backoff_base = 0.05
    for key, value in gather.items():
        setattr(settings.gather, key, value)
    return settings


def small_site(make_site: Callable[..., SiteServer], name: str, slow: float = 0.0, pages: int = 3) -> SiteServer:
    """A company site of a few fact pages (optionally slow to answer)."""
    links = [f"/page-{n}/" for n in range(pages)]
    routes = {"/": page(name, paragraphs(f"{name} makes things. " * 8), links=links)}
    for n, path in enumerate(links):
        routes[path] = page(f"{name} page {n}", paragraphs(f"{name} fact number {n}: it was founded in {1990 + n} in Springfield. " * 6))
    server = make_site(routes)
    if slow:
        original = server.behaviour

        def slowly(path: str):
            time.sleep(slow)
            return original(path)

        server.behaviour = slowly  # type: ignore[method-assign]
    return server


def snapshot(settings: Settings, slug: str) -> dict:
    """Raw files (scraped_at aside) and the company's points with their vectors."""
    company = CompanyDir(settings.data_dir, slug)
    files = {p.name: _without_scraped_at(p.read_text()) for p in sorted(company.raw_link.glob("*.md"))}
    ids = [c.id for c in load_index(company.current()).chunks]
    with open_store(settings) as store:
        points = {p.chunk.id: (p.dense, p.sparse.model_dump(), p.chunk.text) for p in store.points(ids)}
        count = store.count(slug)
    return {"files": files, "ids": ids, "points": points, "count": count}


def _without_scraped_at(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith("scraped_at: "))


# --- the happy path -------------------------------------------------------------------


def test_gather_keeps_clean_english_documents_and_stores_their_chunks(acme_site: SiteServer) -> None:
    settings = fast_settings(max_pages_per_source=40)  # enough to reach the German page, fetched last
    summary = gather_company(settings, "Acme Corp, Inc.", {"website": acme_site.url + "/", "wikipedia": acme_site.url + "/wiki/Acme_Corp"})
    docs = read_documents(settings.data_dir / "acme-corp" / "raw")
    urls = {d.url for d in docs}
    assert acme_site.url + "/about/" in urls
    assert not any("/de/" in u or "/private/" in u for u in urls)
    assert all(d.company == "acme-corp" and d.content and d.title for d in docs)
    assert not any("cookie" in d.content.lower() for d in docs)
    website = summary.sources[0]
    assert "/de/ueber-uns/" in acme_site.paths() and website.dropped.get("language", 0) >= 1
    assert website.dropped.get("duplicate", 0) >= 1  # /about/ and /about/?ref=footer stored once
    assert website.documents == len([d for d in docs if d.source_type == "website"])
    assert summary.documents == len(docs) and summary.chunks >= len(docs)
    with open_store(settings) as store:
        assert store.count("acme-corp") == summary.chunks
    [status] = company_statuses(settings)
    assert (status.slug, status.name, status.documents, status.chunks, status.indexed) == ("acme-corp", "Acme Corp, Inc.", len(docs), summary.chunks, True)


def test_regather_of_identical_content_gives_identical_files_ids_and_vectors(make_site: Callable[..., SiteServer]) -> None:
    settings = fast_settings()
    site = small_site(make_site, "Initech")
    gather_company(settings, "Initech", {"website": site.url + "/"})
    first = snapshot(settings, "initech")
    gather_company(settings, "Initech", {"website": site.url + "/"})
    second = snapshot(settings, "initech")
    assert first["files"] == second["files"] and first["files"]
    assert first["ids"] == second["ids"]
    assert first["points"] == second["points"] and first["count"] == second["count"] == len(first["ids"])
    assert len(list((settings.data_dir / "initech" / "generations").iterdir())) == 1


def test_regather_replaces_what_the_previous_gather_stored(make_site: Callable[..., SiteServer]) -> None:
    settings = fast_settings()
    gather_company(settings, "Initech", {"website": small_site(make_site, "Initech", pages=4).url + "/"})
    smaller = small_site(make_site, "Initech", pages=1)
    summary = gather_company(settings, "Initech", {"website": smaller.url + "/"})
    docs = read_documents(settings.data_dir / "initech" / "raw")
    assert {d.url for d in docs} <= {smaller.url + p for p in ("/", "/page-0/")}
    with open_store(settings) as store:
        assert store.count("initech") == summary.chunks


# --- no data loss ---------------------------------------------------------------------


def test_a_gather_whose_sources_all_fail_leaves_everything_as_it_was(make_site: Callable[..., SiteServer]) -> None:
    settings = fast_settings()
    gather_company(settings, "Initech", {"website": small_site(make_site, "Initech").url + "/"})
    before = snapshot(settings, "initech")
    with pytest.raises(GatherFailedError, match="previous knowledge base kept"):
        gather_company(settings, "Initech", {"website": "http://127.0.0.1:9/"})  # nothing listens on port 9
    assert snapshot(settings, "initech") == before


def test_two_gathers_of_one_company_cannot_interleave(make_site: Callable[..., SiteServer]) -> None:
    settings = fast_settings()
    site = small_site(make_site, "Initech")
    with CompanyDir(settings.data_dir, "initech").lock():
        with pytest.raises(LockedError):
            gather_company(settings, "Initech", {"website": site.url + "/"})
    assert site.paths() == []  # refused before fetching anything


def test_a_gather_killed_halfway_leaves_the_previous_gather_intact(make_site: Callable[..., SiteServer], isolated_env: Path) -> None:
    settings = fast_settings()
    site = small_site(make_site, "Initech")
    gather_company(settings, "Initech", {"website": site.url + "/"})
    before = snapshot(settings, "initech")
    slow_site = small_site(make_site, "Initech", slow=0.3, pages=12)
    child = subprocess.Popen(
        [sys.executable, "-m", "cikb", "gather", "Initech", "--website", slow_site.url + "/", "--delay", "0.05"],
        cwd=REPO, env={**os.environ, "CIKB_GATHER__REQUEST_TIMEOUT": "5"}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while len(slow_site.paths()) < 4 and time.monotonic() < deadline and child.poll() is None:
        time.sleep(0.05)
    assert child.poll() is None, "the gather ended before we could kill it"
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert snapshot(settings, "initech") == before
    # The lock died with the process, and the next gather cleans up the half-written generation.
    gather_company(settings, "Initech", {"website": site.url + "/"})
    assert snapshot(settings, "initech") == before
    assert len(list((settings.data_dir / "initech" / "generations").iterdir())) == 1


def test_a_commit_interrupted_after_the_swap_is_finished_by_the_next_command(make_site: Callable[..., SiteServer], monkeypatch: pytest.MonkeyPatch) -> None:
    settings = fast_settings()
    gather_company(settings, "Initech", {"website": small_site(make_site, "Initech", pages=1).url + "/"})
    import cikb.app.indexing

    def die(*args: object) -> None:
        raise SystemExit("killed between the raw swap and the store write")

    monkeypatch.setattr(cikb.app.indexing, "_write_points", die)
    with pytest.raises(SystemExit):
        gather_company(settings, "Initech", {"website": small_site(make_site, "Initech", pages=4).url + "/"})
    monkeypatch.undo()
    folder = CompanyDir(settings.data_dir, "initech")
    assert folder.indexed_id() != folder.current().id  # raw files are the new gather's, points still the old one's
    from cikb.app.reading import open_retriever

    open_retriever(settings).store.close()  # the next reader finishes the commit from the staged index
    assert folder.indexed_id() == folder.current().id
    after = snapshot(settings, "initech")
    assert after["count"] == len(after["ids"]) == len(after["points"])  # exactly the new gather's points
    assert set(after["points"]) == set(after["ids"])
    assert company_statuses(settings)[0].indexed


def test_an_interrupted_gather_waits_for_the_page_being_embedded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C unwinds the gather only once its page worker has left the model: a daemon thread still in
    onnxruntime when the interpreter exits can abort the process (exit 134) instead of exiting 130."""
    from cikb.app.pipeline import PageIndexer

    indexer = PageIndexer(company_from_name("Initech"), fast_settings(), None, None, lambda event: None, None, reuse=True)  # type: ignore[arg-type]
    busy, done = threading.Event(), threading.Event()

    def embed_slowly(pages: list[object]) -> None:
        busy.set()
        time.sleep(1.0)
        done.set()

    monkeypatch.setattr(indexer, "_process", embed_slowly)
    with pytest.raises(KeyboardInterrupt):
        with indexer.running(overlap=True):
            indexer.add(0, object())  # type: ignore[arg-type]
            assert busy.wait(10)
            raise KeyboardInterrupt
    assert done.is_set()
    assert not [t for t in threading.enumerate() if t.name == "cikb-page-indexer"]


# --- forget ---------------------------------------------------------------------------


def test_forget_removes_exactly_one_company(make_site: Callable[..., SiteServer]) -> None:
    settings = fast_settings()
    gather_company(settings, "Initech", {"website": small_site(make_site, "Initech").url + "/"})
    gather_company(settings, "Globex", {"website": small_site(make_site, "Globex").url + "/"})
    globex = snapshot(settings, "globex")
    removed = forget_company(settings, "initech")
    assert removed["points"] > 0 and removed["documents"] > 0
    assert not (settings.data_dir / "initech").exists()
    with open_store(settings) as store:
        assert store.companies() == {"globex": globex["count"]}
    assert snapshot(settings, "globex") == globex


def test_forget_never_deletes_a_folder_cikb_did_not_make(make_site: Callable[..., SiteServer]) -> None:
    # `cikb forget notes` deleted data/notes, a user's folder holding no company: any non-empty folder was one. And a
    # company's folder keeps a file cikb did not write when the company is forgotten.
    settings = fast_settings()
    notes = settings.data_dir / "notes"
    notes.mkdir(parents=True)
    (notes / "todo.txt").write_text("important\n", encoding="utf-8")
    with pytest.raises(UnknownCompanyError, match="no company 'notes'"):
        forget_company(settings, "notes")
    assert (notes / "todo.txt").read_text(encoding="utf-8") == "important\n" and sorted(p.name for p in notes.iterdir()) == ["todo.txt"]
    gather_company(settings, "Initech", {"website": small_site(make_site, "Initech").url + "/"})
    (settings.data_dir / "initech" / "README.txt").write_text("mine\n", encoding="utf-8")
    forget_company(settings, "initech")
    assert sorted(p.name for p in (settings.data_dir / "initech").iterdir()) == ["README.txt"]


def test_a_second_company_whose_name_makes_the_same_slug_never_replaces_the_first(make_site: Callable[..., SiteServer]) -> None:
    # Two long names alike in their first 64 characters make one slug: the second gather replaced the first company,
    # exit 0, "2 new, 2 removed" (found by a review of the lifecycle commands).
    settings = fast_settings()
    north, south = (f"International Association of Professional Widget Manufacturers of {part} America" for part in ("North", "South"))
    first = gather_company(settings, north, {"website": small_site(make_site, "North").url + "/"})
    kept = snapshot(settings, first.company.slug)
    with pytest.raises(BadInputError, match="which holds 'International Association .* North America'"):
        gather_company(settings, south, {"website": small_site(make_site, "South").url + "/"})
    assert snapshot(settings, first.company.slug) == kept
    again = gather_company(settings, north.upper(), {"website": small_site(make_site, "North").url + "/"})  # the same company
    assert again.company.slug == first.company.slug


def test_two_companies_that_gather_the_same_page_each_keep_their_chunks(make_site: Callable[..., SiteServer]) -> None:
    # A shared page (a news article about both) is one URL: its chunks must be points of each company.
    settings = fast_settings()
    shared = small_site(make_site, "Merger news")
    first = gather_company(settings, "Initech", {"news": [shared.url + "/"], "website": small_site(make_site, "Initech").url + "/"})
    initech = snapshot(settings, "initech")
    second = gather_company(settings, "Globex", {"news": [shared.url + "/"], "website": small_site(make_site, "Globex").url + "/"})
    globex = snapshot(settings, "globex")
    with open_store(settings) as store:
        assert store.companies() == {"globex": second.chunks, "initech": first.chunks}
    assert snapshot(settings, "initech") == initech  # the second gather took nothing from the first
    assert not set(initech["ids"]) & set(globex["ids"])  # the same page, points of their own
    assert {(s.slug, s.chunks) for s in company_statuses(settings)} == {("initech", first.chunks), ("globex", second.chunks)}
    forget_company(settings, "globex")
    assert snapshot(settings, "initech") == initech
    with open_store(settings) as store:
        assert store.companies() == {"initech": first.chunks}


# --- rebuild ---------------------------------------------------------------------------


def test_rebuild_gives_the_gathers_files_ids_and_vectors_in_a_new_generation(make_site: Callable[..., SiteServer]) -> None:
    settings = fast_settings()
    gather_company(settings, "Initech", {"website": small_site(make_site, "Initech").url + "/"})
    before = snapshot(settings, "initech")
    folder = CompanyDir(settings.data_dir, "initech")
    gathered = folder.manifest()
    summary = rebuild_company(settings, "initech")
    assert folder.current().id == summary.generation != gathered and folder.indexed_id() == summary.generation
    assert snapshot(settings, "initech") == before  # same raw files, chunk ids, vectors and point count
    assert [p.name for p in folder.generations_dir.iterdir()] == [summary.generation]
    rebuilt = folder.manifest()
    assert (rebuilt["company"], rebuilt["gathered_at"], rebuilt["sources"]) == (gathered["company"], gathered["gathered_at"], gathered["sources"])
    assert rebuilt["rebuilt_at"] and (summary.documents, summary.chunks) == (rebuilt["documents"], rebuilt["chunks"])


def test_rebuild_all_refills_a_store_built_with_another_model(make_site: Callable[..., SiteServer]) -> None:
    settings = fast_settings()
    gather_company(settings, "Initech", {"website": small_site(make_site, "Initech").url + "/"})
    gather_company(settings, "Globex", {"website": small_site(make_site, "Globex").url + "/"})
    before = {slug: snapshot(settings, slug) for slug in ("initech", "globex")}
    record = settings.store_path / "edge" / f"{settings.store.collection}.json"
    data = json.loads(record.read_text())
    data["model"]["name"] = "BAAI/bge-small-en-v1.5"  # as if the knowledge base was built with another model
    record.write_text(json.dumps(data))
    with pytest.raises(ModelMismatchError, match="cikb rebuild --all"):
        rebuild_company(settings, "initech")  # one company cannot: the others' vectors are the other model's
    summaries = rebuild_all(settings)
    assert {s.company for s in summaries} == {"initech", "globex"}
    with open_store(settings) as store:
        assert store.model_info().name == "sentence-transformers/all-MiniLM-L6-v2"
        assert store.companies() == {slug: len(shot["ids"]) for slug, shot in before.items()}
    for slug, shot in before.items():
        after = snapshot(settings, slug)
        assert after["ids"] == shot["ids"] and after["files"] == shot["files"]
        assert {i: p[0] for i, p in after["points"].items()} == {i: p[0] for i, p in shot["points"].items()}  # the same dense vectors


def test_rebuild_refuses_what_it_cannot_rebuild_and_changes_nothing(make_site: Callable[..., SiteServer]) -> None:
    settings = fast_settings()
    with pytest.raises(UnknownCompanyError):
        rebuild_company(settings, "nobody")
    gather_company(settings, "Initech", {"website": small_site(make_site, "Initech").url + "/"})
    before = snapshot(settings, "initech")
    folder = CompanyDir(settings.data_dir, "initech")
    bad = sorted(folder.raw_link.glob("*.md"))[0]
    text = bad.read_text()
    bad.write_text(text.replace('url: "', 'url: ', 1))
    with pytest.raises(DamagedError, match=f"{bad.resolve()}.*cikb rebuild initech"):
        rebuild_company(settings, "initech")
    bad.write_text(text)
    assert snapshot(settings, "initech") == before  # nothing swapped, points untouched
    with CompanyDir(settings.data_dir, "initech").lock():
        with pytest.raises(LockedError):
            rebuild_company(settings, "initech")


# --- the real site --------------------------------------------------------------------


@pytest.mark.slow
def test_letsencrypt_website_gather_keeps_fifteen_english_pages_with_the_default_budget(letsencrypt_site: SiteServer) -> None:
    # Crawl and clean exactly as gather_company does; chunking and embedding are tested above.
    settings = fast_settings()
    assert settings.gather.max_pages_per_source == 20
    company = company_from_name("Let's Encrypt")
    requests = resolve_sources({"website": letsencrypt_site.url + "/"}, settings)
    crawl = gather.crawl(requests, settings.gather)
    docs, [summary] = clean_crawl(crawl, company, settings, lambda event: None)
    paths = {d.url.removeprefix(letsencrypt_site.url) for d in docs}
    assert len(docs) >= 15, (sorted(paths), summary)
    assert "/about/" in paths
    assert not any(p.startswith("/de/") for p in paths)
    pages = [d for d in docs if not d.url.endswith("#facts")]
    assert summary.fetched <= 20 and summary.kept == len(pages) == summary.documents - 1
    # ... and one facts document: the footer's schema.org addresses, kept once (issue 10, item 2)
    [facts] = [d for d in docs if d.url.endswith("#facts")]
    assert "548 Market St, PMB 77519" in facts.content and "PO Box 18666" in facts.content
    arrivals = letsencrypt_site.times()
    assert min(b - a for a, b in zip(arrivals, arrivals[1:])) >= settings.gather.download_delay - TOLERANCE


def test_a_store_held_by_another_process_fails_the_commit_before_anything_changes(make_site: Callable[..., SiteServer]) -> None:
    settings = fast_settings()
    site = small_site(make_site, "Initech")
    gather_company(settings, "Initech", {"website": site.url + "/"})
    before = snapshot(settings, "initech")
    settings.store.lock_timeout = 0.2
    holders: list[subprocess.Popen[str]] = []

    def hold_the_store_once_crawling(event) -> None:
        # After the early model check, before the commit: another process takes the embedded store.
        if event.stage == "crawl" and not holders:
            holder = subprocess.Popen(
                [sys.executable, "-c", "import time, cikb; from cikb.core.config import load_settings; from store import open_store;"
                 f" s = open_store(load_settings(data_dir={str(settings.data_dir)!r})); print('open', flush=True); time.sleep(60)"],
                cwd=REPO, stdout=subprocess.PIPE, text=True,
            )
            holders.append(holder)
            assert holder.stdout.readline().strip() == "open"

    try:
        with pytest.raises(LockedError):
            gather_company(settings, "Initech", {"website": small_site(make_site, "Initech", pages=1).url + "/"}, on_event=hold_the_store_once_crawling)
    finally:
        for holder in holders:
            holder.kill()
            holder.wait()
    assert holders, "the gather never started crawling"
    assert snapshot(settings, "initech") == before  # raw files not swapped, points untouched
