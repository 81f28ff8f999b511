"""Bounded memory (issue 12 item 10): tables and proposals stream, and the streamed files are the usual ones."""

from __future__ import annotations

import json
from pathlib import Path

from cikb.enrich import enrich_table, load_proposal, save_proposal
from cikb.enrich.proposal import iter_research_log, load_proposal_head, save_proposal_rows
from cikb.enrich.table import read_table, scan_table


def _table(tmp_path: Path, rows: int = 30) -> Path:
    path = tmp_path / "t.csv"
    path.write_text("Company,A,Note\n" + "".join(f'C{i},{i},"x, ""quoted"" {i}\nline two"\n' for i in range(rows)), encoding="utf-8")
    return path


def test_a_scanned_table_has_the_rows_and_hash_of_a_table_read_whole(tmp_path: Path) -> None:
    path = _table(tmp_path)
    whole, scanned = read_table(path), scan_table(path)
    assert (scanned.columns, scanned.sha256, scanned.row_count) == (whole.columns, whole.sha256, len(whole.rows))
    assert list(scanned.rows()) == whole.rows


def test_a_proposal_written_row_by_row_is_the_one_written_whole(tmp_path: Path) -> None:
    proposal = enrich_table(_table(tmp_path), "B", strategy="computation", formula="{A} * 2 - 7", column_type="number",
                            kb=None, web=None, llm=None)
    save_proposal(proposal, tmp_path / "whole.json")
    save_proposal_rows(proposal, tmp_path / "rows.json", lambda: iter(proposal.research_log))
    assert json.loads((tmp_path / "rows.json").read_text()) == json.loads((tmp_path / "whole.json").read_text())
    assert load_proposal(tmp_path / "rows.json") == proposal
    for path in (tmp_path / "rows.json", tmp_path / "whole.json"):
        assert load_proposal_head(path) == proposal.model_copy(update={"operations": [], "research_log": []})
        assert list(iter_research_log(path)) == proposal.research_log


def test_an_empty_proposal_streams_too(tmp_path: Path) -> None:
    path = tmp_path / "empty.csv"
    path.write_text("Company,A\n", encoding="utf-8")
    proposal = enrich_table(path, "B", strategy="computation", formula="{A}", kb=None, web=None, llm=None)
    save_proposal_rows(proposal, tmp_path / "p.json", lambda: iter(()))
    assert load_proposal(tmp_path / "p.json") == proposal
