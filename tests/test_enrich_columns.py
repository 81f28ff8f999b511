"""Several columns in one job: repeated --column with per-column options, or a TOML job file; one apply for all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from enrich_support import run_cli


@pytest.fixture
def prices(tmp_path: Path) -> Path:
    path = tmp_path / "prices.csv"
    path.write_text("Company,Price,Quantity\nAcme,2.5,4\nBeta,10,3\n", encoding="utf-8")
    return path


def test_repeated_columns_fill_several_columns_in_one_job(monkeypatch, capsys, prices: Path, tmp_path: Path) -> None:
    code, _, err = run_cli(monkeypatch, capsys, "enrich", str(prices), "--strategy", "computation", "--type", "number",
                           "--column", "Total", "--formula", "{Price} * {Quantity}",
                           "--column", "Double", "--formula", "{Price} * 2", "--out", str(tmp_path / "proposals"))
    assert code == 0, err
    job_id = err.split("job ", 1)[1].split()[0]
    total, double = tmp_path / "proposals" / "prices.total.proposal.json", tmp_path / "proposals" / "prices.double.proposal.json"
    assert "found 2 of 2 rows" in err and str(total) in err and str(double) in err
    code, out, _ = run_cli(monkeypatch, capsys, "jobs", "show", job_id, "--json")
    job = json.loads(out)
    assert (job["columns"], job["done"], job["total"]) == (["Total", "Double"], 4, 4)
    assert sorted((a["column"], a["row_id"], a["value"]) for a in job["attempts"]) == [
        ("Double", 0, "5"), ("Double", 1, "20"), ("Total", 0, "10"), ("Total", 1, "30")]

    enriched = tmp_path / "out.csv"
    code, out, err = run_cli(monkeypatch, capsys, "apply", str(total), str(double), str(prices), "--out", str(enriched), "--json")
    assert code == 0, err
    assert [r["updated"] for r in json.loads(out)] == [2, 2]
    assert enriched.read_text(encoding="utf-8").splitlines() == [
        "Company,Price,Quantity,Total,Double", "Acme,2.5,4,10,5", "Beta,10,3,30,20"]


def test_a_job_file_describes_columns_with_their_own_strategy_and_type(monkeypatch, capsys, prices: Path, tmp_path: Path) -> None:
    job_file = tmp_path / "job.toml"
    job_file.write_text(
        'csv = "prices.csv"\n'
        '[[column]]\nname = "Total"\nstrategy = "computation"\nformula = "{Price} * {Quantity}"\ntype = "number"\nout = "total.json"\n'
        '[[column]]\nname = "Label"\nstrategy = "computation"\nformula = "{Company} + \'!\'"\n', encoding="utf-8")
    code, _, err = run_cli(monkeypatch, capsys, "enrich", "--job-file", str(job_file))
    assert code == 0, err
    total = json.loads((tmp_path / "total.json").read_text(encoding="utf-8"))
    label = json.loads((tmp_path / "prices.label.proposal.json").read_text(encoding="utf-8"))
    assert [op["changes"] for op in total["operations"]] == [{"Total": "10"}, {"Total": "30"}]
    assert [op["changes"] for op in label["operations"]] == [{"Label": "Acme!"}, {"Label": "Beta!"}]


def test_an_option_written_after_a_column_is_that_columns_own(monkeypatch, capsys, prices: Path, tmp_path: Path) -> None:
    # "--column Total ... --type number --column Label ...": the number type is Total's alone. Read as
    # "given once, for every column", Label's text values would not coerce to a number and be lost.
    code, _, err = run_cli(monkeypatch, capsys, "enrich", str(prices), "--strategy", "computation",
                           "--column", "Total", "--formula", "{Price} * {Quantity}", "--type", "number",
                           "--column", "Label", "--formula", "{Company} + '!'", "--out", str(tmp_path / "proposals"))
    assert code == 0, err
    label = json.loads((tmp_path / "proposals" / "prices.label.proposal.json").read_text(encoding="utf-8"))
    assert [op["changes"] for op in label["operations"]] == [{"Label": "Acme!"}, {"Label": "Beta!"}]
    code, _, err = run_cli(monkeypatch, capsys, "enrich", str(prices), "--strategy", "computation", "--column", "Total",
                           "--formula", "1", "--formula", "2", "--column", "Label", "--formula", "3")
    assert code == 2 and "--formula was given twice for one --column" in err and err.count("error:") == 1, err


@pytest.mark.parametrize(("args", "message"), [
    (["--column", "A", "--column", "B", "--formula", "1", "--formula", "2", "--formula", "3"], "--formula was given 3 times for 2 columns"),
    (["--job-file", "missing.toml"], "no such job file"),
])
def test_options_that_do_not_pair_up_are_one_error_line(monkeypatch, capsys, prices: Path, args: list[str], message: str) -> None:
    code, _, err = run_cli(monkeypatch, capsys, "enrich", str(prices), "--strategy", "computation", *args)
    assert code == 2 and err.startswith("error:") and message in err and err.count("error:") == 1, err


def test_a_malformed_job_file_is_one_error_line(monkeypatch, capsys, prices: Path, tmp_path: Path) -> None:
    job_file = tmp_path / "job.toml"
    job_file.write_text('[[column]]\nname = "X"\nquestoin = "typo"\n', encoding="utf-8")
    code, _, err = run_cli(monkeypatch, capsys, "enrich", str(prices), "--job-file", str(job_file))
    assert code == 2 and "job file" in err and "questoin" in err, err


def test_apply_chains_onto_an_earlier_output_and_never_overwrites_without_force(monkeypatch, capsys, prices: Path, tmp_path: Path) -> None:
    code, _, err = run_cli(monkeypatch, capsys, "enrich", str(prices), "--strategy", "computation", "--type", "number",
                           "--column", "Total", "--formula", "{Price} * {Quantity}", "--column", "Double", "--formula", "{Price} * 2")
    assert code == 0, err
    total, double = prices.with_name("prices.total.proposal.json"), prices.with_name("prices.double.proposal.json")
    first, second = tmp_path / "first.csv", tmp_path / "second.csv"
    assert run_cli(monkeypatch, capsys, "apply", str(total), str(prices), "--out", str(first))[0] == 0
    code, _, err = run_cli(monkeypatch, capsys, "apply", str(double), str(first), "--out", str(second))  # onto the earlier output
    assert code == 0, err
    assert second.read_text(encoding="utf-8").splitlines() == ["Company,Price,Quantity,Total,Double", "Acme,2.5,4,10,5", "Beta,10,3,30,20"]

    code, _, err = run_cli(monkeypatch, capsys, "apply", str(double), str(first), "--out", str(second))
    assert code == 2 and "exists" in err and "--force" in err
    assert run_cli(monkeypatch, capsys, "apply", str(double), str(first), "--out", str(second), "--force")[0] == 0

    edited = tmp_path / "edited.csv"
    edited.write_text(first.read_text(encoding="utf-8").replace("Beta,10,3", "Beta,11,3"), encoding="utf-8")
    code, _, err = run_cli(monkeypatch, capsys, "apply", str(double), str(edited), "--out", str(tmp_path / "third.csv"))
    assert code == 2 and "another file or an earlier version" in err  # its rows changed: not an earlier output
