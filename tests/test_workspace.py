"""Raw documents on disk: front matter round trip, generations, atomic swap, lock."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date, datetime, timezone
from pathlib import Path

import pytest

from cikb.app.documents import (
    document_filename,
    parse_document,
    read_documents,
    render_document,
    write_document,
)
from cikb.app.workspace import CompanyDir, list_companies
from cikb.core.errors import BadInputError, LockedError
from cikb.core.models import RawDocument


def _doc(url: str = "https://acme.example/about/", content: str = "# About\n\nAcme makes robots.") -> RawDocument:
    return RawDocument(
        url=url,
        title='About "Acme": robots',
        content=content,
        source_type="website",
        company="acme-corp",
        scraped_at=datetime(2026, 11, 22, 5, 0, tzinfo=timezone.utc),
    )


def test_front_matter_round_trip() -> None:
    doc = _doc(content="---\nA line that looks like a fence.\n\nÜnïcödé")
    text = render_document(doc)
    assert text.startswith('---\nurl: "https://acme.example/about/"\n')
    assert parse_document(text) == doc


def test_the_publication_date_is_kept_and_a_file_written_before_it_existed_has_none() -> None:
    doc = _doc("https://acme.example/blog/acme-raises").model_copy(update={"page_kind": "news", "published": date(2019, 3, 5)})
    text = render_document(doc)
    assert 'published: "2019-03-05"\n---' in text and parse_document(text) == doc
    assert parse_document(text.replace('published: "2019-03-05"\n', "")).published is None
    assert 'published: null\n' in render_document(_doc())


def test_the_page_kind_is_kept_and_a_file_written_before_it_existed_gets_it_from_its_url_and_title() -> None:
    doc = _doc().model_copy(update={"page_kind": "news"})
    text = render_document(doc)
    assert 'page_kind: "news"\n' in text and parse_document(text) == doc  # kept as written
    older = text.replace('page_kind: "news"\n', "")
    assert parse_document(older).page_kind == "company"  # /about/, judged again (cikb rebuild reads such files)
    blog = render_document(_doc("https://acme.example/blog/")).replace('page_kind: "page"\n', "")
    assert parse_document(blog).page_kind == "listing"
    with pytest.raises(ValueError):
        parse_document(text.replace('"news"', '"brochure"'))


def test_filenames_are_stable_readable_and_unique() -> None:
    a, b = _doc("https://acme.example/about/"), _doc("https://acme.example/about")
    assert document_filename(a) == document_filename(_doc("https://acme.example/about/"))
    assert document_filename(a) != document_filename(b)
    assert document_filename(a).startswith("website-about-")


def _sealed(company: CompanyDir, docs: list[RawDocument]):
    generation = company.new_generation()
    for doc in docs:
        write_document(generation.raw_dir, doc)
    company.seal(generation, {"documents": len(docs)})
    return generation


def test_swap_replaces_documents_atomically(tmp_path: Path) -> None:
    company = CompanyDir(tmp_path, "acme-corp")
    first = _sealed(company, [_doc()])
    company.swap_in(first)
    assert read_documents(company.raw_link) == [_doc()]
    second = _sealed(company, [_doc("https://acme.example/team/")])
    # Until the swap, readers see the first generation only.
    assert [d.url for d in read_documents(company.raw_link)] == ["https://acme.example/about/"]
    company.swap_in(second)
    company.prune()
    assert [d.url for d in read_documents(company.raw_link)] == ["https://acme.example/team/"]
    assert [p.name for p in company.generations_dir.iterdir()] == [second.id]


def test_unsealed_generation_cannot_be_swapped_in_and_is_pruned(tmp_path: Path) -> None:
    company = CompanyDir(tmp_path, "acme-corp")
    good = _sealed(company, [_doc()])
    company.swap_in(good)
    half_done = company.new_generation()
    write_document(half_done.raw_dir, _doc("https://acme.example/x/"))
    with pytest.raises(ValueError):
        company.swap_in(half_done)
    company.prune()
    assert not half_done.path.exists()
    assert company.current() == good


def test_lock_refuses_a_second_holder(tmp_path: Path) -> None:
    company = CompanyDir(tmp_path, "acme-corp")
    with company.lock():
        with pytest.raises(LockedError):
            with CompanyDir(tmp_path, "acme-corp").lock():
                pass
    with company.lock():  # released again
        pass


def test_company_dir_refuses_escaping_slugs(tmp_path: Path) -> None:
    for slug in ["../etc", "", "a/b", "_qdrant"]:
        with pytest.raises(BadInputError):
            CompanyDir(tmp_path, slug)


def test_list_companies_ignores_non_company_dirs(tmp_path: Path) -> None:
    (tmp_path / "_qdrant").mkdir()
    (tmp_path / "half-gathered").mkdir()
    company = CompanyDir(tmp_path, "acme-corp")
    company.swap_in(_sealed(company, [_doc()]))
    assert [c.slug for c in list_companies(tmp_path)] == ["acme-corp"]
    assert os.path.islink(company.raw_link)


# --- a relative data directory (issue 9, item 2) --------------------------------------


def test_a_relative_root_prunes_every_generation_but_the_current_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `current` comes from resolving the `raw` link (absolute), iterdir() of a relative root does not
    # resolve: compared as they come, the current generation looked like a stale one and was deleted.
    monkeypatch.chdir(tmp_path)
    company = CompanyDir(Path("data"), "acme-corp")
    old = _sealed(company, [_doc()])
    company.swap_in(old)
    current = _sealed(company, [_doc("https://acme.example/team/")])
    company.swap_in(current)
    stale = company.new_generation()  # a gather killed before sealing
    company.prune()
    assert current.path.is_dir() and not old.path.exists() and not stale.path.exists()
    assert company.current() is not None and company.current().id == current.id
    assert [d.url for d in read_documents(company.raw_link)] == ["https://acme.example/team/"]


def test_gather_in_an_empty_directory_with_the_default_relative_data_dir(make_site, tmp_path: Path) -> None:
    # Default settings, no --data-dir and no CIKB_DATA_DIR: data/ is relative to the working directory.
    from sites import page, paragraphs

    site = make_site({"/": page("Initech", paragraphs("Initech makes staplers in Springfield since 1990. " * 8))})
    workdir = tmp_path / "empty"
    workdir.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "CIKB_DATA_DIR"}
    command = [str(Path(sys.executable).with_name("cikb"))]
    gathered = subprocess.run([*command, "gather", "Initech", "--website", site.url + "/", "--delay", "0", "--json"],
                              cwd=workdir, env=env, capture_output=True, text=True, timeout=180)
    assert gathered.returncode == 0, gathered.stderr
    company = CompanyDir(workdir / "data", "initech")
    raw_files = list((workdir / "data" / "initech" / "raw").glob("*.md"))
    assert raw_files and all(p.is_file() for p in raw_files)
    assert company.raw_link.is_symlink() and company.raw_link.resolve().is_dir()
    current = company.current()
    assert current is not None
    assert [p.name for p in company.generations_dir.iterdir()] == [current.id]
    listed = subprocess.run([*command, "companies", "--json"], cwd=workdir, env=env, capture_output=True, text=True, timeout=120)
    assert listed.returncode == 0, listed.stderr
    [status] = json.loads(listed.stdout)
    assert (status["slug"], status["documents"], status["chunks"]) == ("initech", len(raw_files), json.loads(gathered.stdout)["chunks"])
