"""The real knowledge base under enrich: gather letsencrypt.org (served locally), then enrich offline from it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from enrich_support import run_cli

from cikb.app.pipeline import gather_company
from cikb.core.config import Settings

PAGES = ["/2022/02/25/ford-foundation.html", "/2023/05/24/isrg-10th-anniversary.html", "/about/"]


@pytest.fixture
def isrg_settings(tmp_path: Path, letsencrypt_site, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """A knowledge base holding three real letsencrypt.org pages for the company ISRG."""
    config = tmp_path / "cikb.toml"
    config.write_text(
        f'data_dir = "{tmp_path / "kb"}"\n[gather]\ndownload_delay = 0\nmax_pages_per_source = {len(PAGES)}\n', encoding="utf-8"
    )
    monkeypatch.setenv("CIKB_CONFIG", str(config))
    monkeypatch.delenv("CIKB_DATA_DIR", raising=False)
    settings = Settings()
    gather_company(settings, "ISRG", {"website": [letsencrypt_site.url_for(p) for p in PAGES]})
    return settings


def cikb(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    return run_cli(monkeypatch, capsys, *args)


@pytest.mark.slow
def test_enrich_answers_from_the_gathered_knowledge_base(isrg_settings: Settings, letsencrypt_site, tmp_path: Path,
                                                         monkeypatch, capsys) -> None:
    table = tmp_path / "companies.csv"
    # A name no gather could take ("looks like a path") still names a company: by its website, or none of the KB's.
    table.write_text(f"Company,Website\nISRG,{letsencrypt_site.url}\nNobody Known,\nISRG/Let's Encrypt,{letsencrypt_site.url}/about/\n"
                     "<b>Nobody</b>,\n", encoding="utf-8")
    proposal = tmp_path / "founded.proposal.json"
    code, _, err = cikb(monkeypatch, capsys, "enrich", str(table), "--column", "Founded", "--question",
                        "What year was {Company} founded?", "--type", "number", "--out", str(proposal))
    assert code == 0, err
    data = json.loads(proposal.read_text(encoding="utf-8"))
    isrg, nobody, by_website, unusable = data["research_log"]
    assert (by_website["value"], by_website["steps"][0]["data"]["company"]) == ("2013", "isrg")
    assert unusable["status"] == "not_found" and unusable["steps"][0]["detail"] == "not in the knowledge base"  # not "names no company"
    assert (isrg["value"], isrg["confidence"], isrg["answered_by"]) == ("2013", "high", "kb")
    assert isrg["steps"][0]["type"] == "retrieve" and isrg["steps"][0]["data"]["company"] == "isrg"
    assert isrg["sources"][0]["url"].startswith(letsencrypt_site.url) and isrg["sources"][0]["chunk_id"]
    assert nobody["status"] == "not_found"  # nothing gathered for it, and no web search configured
    assert "all-MiniLM-L6-v2" in data["embedding_model"] and "embedding model:" in err  # says which model searched

    code, out, _ = cikb(monkeypatch, capsys, "review", str(proposal), "--json")
    assert json.loads(out)["rows"][0]["source"] == isrg["sources"][0]["url"]
    out_csv = tmp_path / "companies.enriched.csv"
    code, _, err = cikb(monkeypatch, capsys, "apply", str(proposal), str(table), "--min-confidence", "medium", "--out", str(out_csv))
    assert code == 0, err
    assert out_csv.read_text(encoding="utf-8").splitlines()[1] == f"ISRG,{letsencrypt_site.url},2013"
    assert out_csv.read_text(encoding="utf-8").splitlines()[3].endswith(",2013")
