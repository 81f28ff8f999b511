"""`cikb ask` and `cikb search` end to end: the real embedding model, BM25 and the embedded store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from answer_helpers import build_kb
from enrich_support import run_cli
from cikb.answer import ABSTENTION, EXTRACTIVE_NOTE
from cikb.answer.models import RELATED_READING
from typer.testing import CliRunner

from cikb.cli import app
from cikb.core.config import Settings

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def kb_dir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("ask-kb")
    build_kb(Settings(data_dir=root / "data"))
    (root / "cikb.toml").write_text("")
    return root


@pytest.fixture
def cli(kb_dir, monkeypatch):
    monkeypatch.setenv("CIKB_DATA_DIR", str(kb_dir / "data"))
    monkeypatch.setenv("CIKB_CONFIG", str(kb_dir / "cikb.toml"))
    runner = CliRunner()

    def run(*args: str):
        result = runner.invoke(app, list(args))
        assert result.exit_code == 0, result.output
        return result

    return run


def test_ask_prints_a_cited_extractive_answer_and_the_source_list(cli):
    result = cli("ask", "When was Acme founded?")
    out = result.stdout
    assert "Acme Corp was founded in 1949 by Wile E. Coyote and Jane Doe. [1]" in out
    assert "In short: 1949" in out
    assert EXTRACTIVE_NOTE.split(":")[0] in out
    assert "Sources:\n  [1] About Acme Corp — https://acme.example/about (crawled 2026-03-01)" in out
    assert "embedding model: sentence-transformers/all-MiniLM-L6-v2" in result.stderr
    assert "company: acme-corp (inferred from 'acme')" in result.stderr


def test_ask_json_has_answer_citations_sources_mode_and_trace(cli):
    payload = json.loads(cli("ask", "Who is the chief executive?", "--company", "acme-corp", "--json").stdout)
    assert payload["mode"] == "extractive" and payload["grounded"] and not payload["abstained"]
    assert "Maria Lopez" in payload["answer"] and payload["short_answer"] == "Maria Lopez"
    cited = {s["number"]: s for s in payload["sources"]}
    assert set(payload["citations"]) == set(cited)
    assert cited[payload["citations"][0]]["url"] == "https://acme.example/news/results-2025"
    trace = payload["retrieval"]
    assert trace["company"] == {"slug": "acme-corp", "source": "explicit", "matched": "acme-corp", "name": None, "aliases": [],
                                "known": True, "unknown_names": [], "asked_about": None}  # a store built without company folders records no names
    assert trace["rrf_k"] == 60 and trace["score_threshold"] == 0.15 and trace["in_context"] == len(payload["context"])


def test_ask_about_a_company_not_in_the_kb_abstains(cli, monkeypatch, capsys):
    result = cli("ask", "Who founded Globex?")
    assert result.stdout.strip() == ABSTENTION
    assert ("company: all (the question names none the knowledge base holds); no retrieved source mentions Globex"
            in result.stderr)
    payload = json.loads(cli("ask", "Who founded Globex?", "--json").stdout)
    assert payload["abstained"] and payload["answer"] == ABSTENTION and payload["sources"] == []
    # Named with --company, a company the knowledge base lacks is an error naming the nearest ones (issue 23, item 4).
    code, out, err = run_cli(monkeypatch, capsys, "ask", "Who founded it?", "--company", "globex")
    assert code == 2 and out == ""
    assert "error: no company 'globex' in the knowledge base; nearest: acme-corp" in err


def test_an_abstention_lists_the_closest_sentences_as_related_reading_not_as_the_answer(cli):
    out = cli("ask", "Who is Acme's CTO?", "--company", "acme-corp").stdout
    answer, related = out.split(f"\n\n{RELATED_READING}:\n", 1)
    assert answer.strip() == ABSTENTION
    assert "  - Acme Corp was founded in 1949 by Wile E. Coyote and Jane Doe." in related


def test_search_lists_chunks_with_scores_and_sources(cli):
    payload = json.loads(cli("search", "rocket skate", "--company", "acme-corp", "--json").stdout)
    top = payload["chunks"][0]
    assert top["chunk"]["metadata"]["url"] == "https://acme.example/products" and top["rank"] == 1
    assert all(c["dense_score"] >= 0.3 for c in payload["chunks"])
    table = cli("search", "rocket skate", "--company", "acme-corp").stdout
    assert "https://acme.example/products" in table and "Rocket Skate" in table


def test_the_model_fallback_is_one_line_once_per_command(kb_dir, monkeypatch) -> None:
    import subprocess
    import sys

    cikb = Path(sys.executable).with_name("cikb")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(kb_dir), "CIKB_DATA_DIR": str(kb_dir / "data"), "CIKB_CONFIG": str(kb_dir / "cikb.toml")}
    for command in (["ask", "When was Acme founded?"], ["search", "founders"]):
        result = subprocess.run([str(cikb), *command], capture_output=True, text=True, env=env, timeout=300)
        assert result.returncode == 0, result.stderr
        lines = [line for line in result.stderr.splitlines() if "snowflake-arctic-embed-s" in line.lower()]
        assert len(lines) == 1, result.stderr


@pytest.mark.parametrize("command", ["ask", "search"])
@pytest.mark.parametrize("text", ["", "   "])
def test_an_empty_question_is_one_error_line_not_an_answer(cli, monkeypatch, capsys, command: str, text: str) -> None:
    code, out, err = run_cli(monkeypatch, capsys, command, text)
    assert code == 2 and out == "" and err.strip() == f"error: the {'question' if command == 'ask' else 'query'} is empty"


@pytest.mark.parametrize("command", [["ask", "Who founded Acme?"], ["companies"], ["jobs"]])
def test_a_data_dir_that_is_a_file_is_one_error_line(tmp_path: Path, monkeypatch, capsys, command: list[str]) -> None:
    afile = tmp_path / "afile"
    afile.write_text("", encoding="utf-8")
    (tmp_path / "cikb.toml").write_text("")
    monkeypatch.setenv("CIKB_CONFIG", str(tmp_path / "cikb.toml"))
    code, out, err = run_cli(monkeypatch, capsys, "--data-dir", str(afile), *command)
    assert code == 2 and err.count("error:") == 1 and "is a file, not a folder" in err and "Traceback" not in err, err
    assert afile.read_text(encoding="utf-8") == ""
