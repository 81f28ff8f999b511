"""Tables as people export them (Excel in a European locale, a legacy encoding, an in-place apply) and the jobs
around them, as a user of `cikb enrich`, `review`, `apply` and the Python API meets them."""

from __future__ import annotations

import csv
import threading
import time
from pathlib import Path

import pytest
from enrich_support import run_cli

from cikb.app.jobs import ColumnRequest, JobRequest, JobStore
from cikb.core.errors import BadInputError
from cikb.enrich import apply_proposal, enrich_table
from cikb.enrich.table import scan_table


def _total(table: Path):
    return enrich_table(table, "Total", strategy="computation", formula="{Price} * {Qty}", column_type="number",
                        kb=None, web=None, llm=None)


def test_a_semicolon_delimited_table_is_read_by_its_columns_and_applied_with_its_delimiter(tmp_path: Path) -> None:
    """Excel in a European locale writes `;` between cells: the header was one column "Company;Price;Qty", and every
    template failed "unknown column {Company}"."""
    table = tmp_path / "t.csv"
    table.write_bytes(b"\xef\xbb\xbfCompany;Price;Qty;Note\r\nAcme;2;3;\"a; b\"\r\nBeta;4;5;x,y\r\n")
    assert scan_table(table).columns == ["Company", "Price", "Qty", "Note"]
    proposal = _total(table)
    assert [op.changes for op in proposal.operations] == [{"Total": "6"}, {"Total": "20"}]
    apply_proposal(proposal, table, tmp_path / "out.csv")
    assert (tmp_path / "out.csv").read_bytes() == (b"\xef\xbb\xbfCompany;Price;Qty;Note;Total\r\n"
                                                   b"Acme;2;3;a; b;6\r\nBeta;4;5;x,y;20\r\n".replace(b"a; b", b'"a; b"'))


def test_a_comma_table_whose_header_holds_a_semicolon_stays_a_comma_table(tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    table.write_text("Company,Price,Qty,Notes; misc\nAcme,2,3,x\n", encoding="utf-8")
    assert scan_table(table).columns == ["Company", "Price", "Qty", "Notes; misc"]


def test_a_table_not_in_utf8_names_the_line_and_byte_and_says_how_to_save_it(tmp_path: Path) -> None:
    """A cp1252 export ("München") said "not UTF-8 (byte 25 of a block near byte 52)": neither its line nor the
    file's byte."""
    table = tmp_path / "t.csv"
    table.write_bytes(b"Company,City\r\nAcme,Berlin\r\nBeta,M\xfcnchen\r\n")
    with pytest.raises(BadInputError) as caught:
        scan_table(table)
    message = str(caught.value)
    assert "line 3" in message and "offset 33" in message and "0xfc" in message and "UTF-8" in message


def test_apply_never_writes_over_the_table_it_reads_even_with_force(tmp_path: Path, monkeypatch, capsys) -> None:
    """`cikb apply p.json t.csv --out t.csv --force` replaced the table a proposal was made for: every other
    proposal of it was then refused ("made for ... an earlier version of it; enrich the file again")."""
    table = tmp_path / "t.csv"
    original = b"Company,Price,Qty\nAcme,2,3\n"
    table.write_bytes(original)
    proposal = tmp_path / "p.json"
    from cikb.enrich import save_proposal

    save_proposal(_total(table), proposal)
    code, _, err = run_cli(monkeypatch, capsys, "apply", str(proposal), str(table), "--out", str(table), "--force")
    assert code == 2 and "input table" in err and table.read_bytes() == original
    earlier = tmp_path / "earlier.csv"
    apply_proposal(proposal, table, earlier)
    with pytest.raises(BadInputError, match="input table"):  # nor over the table the proposal was made for, through an earlier output
        apply_proposal(proposal, earlier, table, force=True)
    assert table.read_bytes() == original


def test_apply_says_how_many_values_the_table_had_were_replaced(tmp_path: Path) -> None:
    """A column that already exists: its values were replaced while the summary said only "N cell(s) filled"."""
    table = tmp_path / "t.csv"
    table.write_text("Company,Price,Qty,Total\nAcme,2,3,7\nBeta,4,5,\nGamma,1,1,1\n", encoding="utf-8")
    result = apply_proposal(_total(table), table, tmp_path / "out.csv")
    assert (result.updated, result.replaced) == (3, 1)
    with (tmp_path / "out.csv").open(newline="", encoding="utf-8") as handle:
        assert [r["Total"] for r in csv.DictReader(handle)] == ["6", "20", "1"]


def test_review_of_a_table_without_rows_still_says_what_was_asked(tmp_path: Path, monkeypatch, capsys) -> None:
    table = tmp_path / "t.csv"
    table.write_text("Company,Price,Qty\r\n", encoding="utf-8")
    from cikb.enrich import save_proposal

    save_proposal(_total(table), tmp_path / "p.json")
    code, out, _ = run_cli(monkeypatch, capsys, "review", str(tmp_path / "p.json"))
    assert code == 0 and "found 0 of 0 rows" in out


def test_a_job_request_keeps_absolute_paths(tmp_path: Path, monkeypatch) -> None:
    """The Python API's JobRequest with relative paths stored them as given: `cikb jobs` and `--resume` from another
    folder read another table (or none) and wrote the proposal there."""
    monkeypatch.chdir(tmp_path)
    request = JobRequest(csv_path="t.csv", columns=[ColumnRequest(name="B", proposal_path="out/p.json")])
    assert request.csv_path == str(tmp_path / "t.csv")
    assert request.columns[0].proposal_path == str(tmp_path / "out" / "p.json")


def test_two_resumes_of_one_job_at_once_claim_it_once(tmp_path: Path, monkeypatch) -> None:
    """claim read the job's status and wrote "running" in two steps: two `cikb enrich --resume ID` started at once
    both ran it, each writing the same cells."""
    store = JobStore(tmp_path)
    request = JobRequest(csv_path=str(tmp_path / "t.csv"), columns=[ColumnRequest(name="B", proposal_path=str(tmp_path / "p.json"))])
    job_id = store.create(request)
    store.finish(job_id, "cancelled")
    store.close()
    real_get = JobStore.get

    def slow_get(self, wanted):  # the window between reading the status and writing it
        job = real_get(self, wanted)
        time.sleep(0.3)
        return job

    monkeypatch.setattr(JobStore, "get", slow_get)
    outcomes: list[str] = []

    def resume() -> None:
        with JobStore(tmp_path) as jobs:
            try:
                jobs.claim(job_id)
                outcomes.append("claimed")
            except BadInputError as err:
                outcomes.append(str(err))

    threads = [threading.Thread(target=resume) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes)[0] == "claimed" and "running in another process" in sorted(outcomes)[1]
