"""Spec N7: a proposal that records its file and column; nothing touches the CSV until apply; apply is atomic."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cikb.enrich import (
    apply_proposal,
    enrich_table,
    load_proposal,
    review_rows,
    save_proposal,
)
from cikb.enrich.table import file_sha256, read_table
from enrich_support import TextKnowledgeBase, chunk_text

from cikb.core.errors import BadInputError

CSV = "Company,Website\nAcme Corp,https://acme.test\nBeta GmbH,https://beta.test\nGamma Ltd,https://gamma.test\n"


@pytest.fixture
def csv_path(tmp_path: Path) -> Path:
    path = tmp_path / "companies.csv"
    path.write_text(CSV, encoding="utf-8")
    return path


@pytest.fixture
def kb() -> TextKnowledgeBase:
    chunks = (
        chunk_text("https://acme.test/about", "About Acme", "acme-corp", "Acme Corp was founded in 1999 in Springfield.")
        + chunk_text("https://beta.test/news", "Beta news", "beta", "Beta GmbH opened offices in 2005 and 2011; it began trading in Berlin.")
    )
    return TextKnowledgeBase(chunks)


@pytest.fixture
def proposal(csv_path: Path, kb: TextKnowledgeBase):
    return enrich_table(csv_path, "Founded", question="When was {Company} founded?", column_type="number", kb=kb, web=None, llm=None)


def test_enrich_only_reads_the_csv(csv_path: Path, kb: TextKnowledgeBase) -> None:
    before = (csv_path.read_bytes(), csv_path.stat().st_mtime_ns)
    files_before = sorted(p.name for p in csv_path.parent.iterdir())
    enrich_table(csv_path, "Founded", question="When was {Company} founded?", column_type="number", kb=kb, web=None, llm=None)
    assert (csv_path.read_bytes(), csv_path.stat().st_mtime_ns) == before
    assert sorted(p.name for p in csv_path.parent.iterdir()) == files_before  # no file written beside it


def test_the_proposal_has_every_field_of_the_spec(proposal, csv_path: Path, tmp_path: Path) -> None:
    path = save_proposal(proposal, tmp_path / "founded.proposal.json")
    data = json.loads(path.read_text())
    assert data["reasoning"].startswith("Quick Lookup: When was {Company} founded? — found 1 of 3 rows")
    assert data["operations"] == [{"action": "update", "row_id": 0, "changes": {"Founded": "1999"}}]
    assert data["target"] == {"csv_path": str(csv_path.resolve()), "csv_sha256": file_sha256(csv_path), "column": "Founded",
                              "column_type": "number", "options": [], "company_column": "Company"}
    acme = data["research_log"][0]
    for key in ("row_id", "label", "status", "value", "raw_value", "confidence", "steps", "strategy", "sources", "answered_by"):
        assert key in acme
    assert (acme["label"], acme["status"], acme["value"], acme["strategy"]) == ("Acme Corp", "found", "1999", "lookup")
    assert acme["sources"][0] == {"kind": "kb", "url": "https://acme.test/about", "title": "About Acme", "chunk_id": acme["sources"][0]["chunk_id"],
                                  "published": None}
    # Beta's text has years but never says founded: no value rather than a guess
    assert [r["status"] for r in data["research_log"]] == ["found", "not_found", "not_found"]
    assert load_proposal(path) == proposal


def test_review_lists_value_confidence_and_source(proposal) -> None:
    rows = list(review_rows(proposal))
    assert rows[0] == {"row": 0, "label": "Acme Corp", "status": "found", "value": "1999", "confidence": rows[0]["confidence"],
                       "answered_by": "kb", "source": "https://acme.test/about", "source_title": "About Acme", "source_kind": "kb",
                       "source_published": None,
                       "evidence": "Acme Corp was founded in «1999» in Springfield.", "reason": None, "attempts": []}
    assert rows[2]["value"] is None and rows[2]["source"] is None and rows[2]["reason"]  # an empty cell says why


def test_apply_writes_a_new_csv_with_the_values(proposal, csv_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "companies.enriched.csv"
    result = apply_proposal(proposal, csv_path, out)
    assert result.updated == len(proposal.operations) and result.out == str(out)
    table = read_table(out)
    assert table.columns == ["Company", "Website", "Founded"]
    assert table.rows[0]["Founded"] == "1999" and table.rows[2]["Founded"] == ""
    assert csv_path.read_text(encoding="utf-8") == CSV  # the input is untouched


def test_min_confidence_filters_cells(proposal, csv_path: Path, tmp_path: Path) -> None:
    proposal.research_log[0].confidence = "medium"
    result = apply_proposal(proposal, csv_path, tmp_path / "high.csv", min_confidence="high")
    assert result.updated == 0 and result.below_min_confidence == len(proposal.operations)
    assert read_table(tmp_path / "high.csv").rows[0]["Founded"] == ""
    assert apply_proposal(proposal, csv_path, tmp_path / "medium.csv", min_confidence="medium").updated >= 1
    with pytest.raises(BadInputError, match="min_confidence must be high, medium or low, not 'High'"):  # the library's own check
        apply_proposal(proposal, csv_path, tmp_path / "typo.csv", min_confidence="High")  # type: ignore[arg-type]
    assert not (tmp_path / "typo.csv").exists()


def test_an_existing_column_is_filled_in_place_and_keeps_other_cells(tmp_path: Path, kb: TextKnowledgeBase) -> None:
    path = tmp_path / "with_column.csv"
    path.write_text("Company,founded\nAcme Corp,\nGamma Ltd,1870\n", encoding="utf-8")
    proposal = enrich_table(path, "Founded", question="When was {Company} founded?", column_type="number", kb=kb, web=None, llm=None)
    assert proposal.target.column == "founded"  # the header's own spelling
    apply_proposal(proposal, path, tmp_path / "out.csv")
    rows = read_table(tmp_path / "out.csv").rows
    assert [r["founded"] for r in rows] == ["1999", "1870"]


def test_apply_refuses_a_proposal_for_another_file(proposal, csv_path: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.csv"
    other.write_text(CSV.replace("Gamma Ltd", "Delta AG"), encoding="utf-8")
    with pytest.raises(BadInputError, match="made for another file"):
        apply_proposal(proposal, other, tmp_path / "out.csv")
    csv_path.write_text(CSV + "Epsilon,https://e.test\n", encoding="utf-8")  # the same path, edited since
    with pytest.raises(BadInputError, match="made for another file or an earlier version"):
        apply_proposal(proposal, csv_path, tmp_path / "out.csv")
    assert not (tmp_path / "out.csv").exists()


def test_apply_refuses_another_column_or_a_tampered_operation(proposal, csv_path: Path, tmp_path: Path) -> None:
    with pytest.raises(BadInputError, match="fills column 'Founded', not 'Revenue'"):
        apply_proposal(proposal, csv_path, tmp_path / "out.csv", column="Revenue")
    apply_proposal(proposal, csv_path, tmp_path / "ok.csv", column="founded")  # case-insensitive match is fine
    proposal.operations[0].changes = {"Website": "https://evil.test"}
    with pytest.raises(BadInputError, match="not only 'Founded'"):
        apply_proposal(proposal, csv_path, tmp_path / "out.csv")
    assert not (tmp_path / "out.csv").exists()


def test_apply_is_atomic(proposal, csv_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out.csv"
    out.write_text("previous content\n", encoding="utf-8")
    replaced: list[tuple[str, str]] = []
    real_replace = os.replace

    def failing_replace(src, dst):
        replaced.append((str(src), str(dst)))
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError, match="disk full"):
        apply_proposal(proposal, csv_path, out, force=True)
    assert out.read_text(encoding="utf-8") == "previous content\n"  # untouched
    assert replaced and Path(replaced[0][0]).parent == out.parent and replaced[0][1] == str(out)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # temp file removed
    monkeypatch.setattr(os, "replace", real_replace)
    apply_proposal(proposal, csv_path, out, force=True)
    assert read_table(out).rows[0]["Founded"] == "1999"


def test_a_broken_proposal_file_is_one_clear_error(tmp_path: Path, csv_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"reasoning": "x"}', encoding="utf-8")
    with pytest.raises(BadInputError, match="not a cikb proposal"):
        apply_proposal(bad, csv_path, tmp_path / "out.csv")
    with pytest.raises(BadInputError, match="no such proposal"):
        load_proposal(tmp_path / "missing.json")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"Company,Website\nAcme,a,b\n", "line 2 has 3 fields, the header has 2"),
        (b"Company,company\nAcme,x\n", "appears twice"),
        (b"Company,\nAcme,x\n", r"header cell 2 \(after 'Company'\) is empty: name that column or delete it"),
        (b"", "no header row"),
        (b"Company\n\xff\xfe\n", "not UTF-8"),
        (b'Company,Note\nAcme,"unterminated\n', "malformed CSV"),
    ],
)
def test_malformed_csv_is_one_clear_error(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_bytes(content)
    with pytest.raises(BadInputError, match=message):
        enrich_table(path, "X", strategy="computation", formula="1", kb=None, web=None, llm=None)


def test_unknown_company_column_and_missing_file(csv_path: Path, tmp_path: Path) -> None:
    with pytest.raises(BadInputError, match="unknown column 'Firm'"):
        enrich_table(csv_path, "X", question="{Company}?", company_column="Firm", kb=None, web=None, llm=None)
    with pytest.raises(BadInputError, match="no such file"):
        enrich_table(tmp_path / "missing.csv", "X", question="q", kb=None, web=None, llm=None)
    with pytest.raises(BadInputError, match="select column needs its options"):
        enrich_table(csv_path, "Model", question="{Company}?", column_type="select", kb=None, web=None, llm=None)
