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
    strategy = [] if "--job-file" in args else ["--strategy", "computation"]  # a job file's columns name their own
    code, _, err = run_cli(monkeypatch, capsys, "enrich", str(prices), *strategy, *args)
    assert code == 2 and err.startswith("error:") and message in err and err.count("error:") == 1, err


def test_a_malformed_job_file_is_one_error_line(monkeypatch, capsys, prices: Path, tmp_path: Path) -> None:
    job_file = tmp_path / "job.toml"
    job_file.write_text('[[column]]\nname = "X"\nquestoin = "typo"\n', encoding="utf-8")
    code, _, err = run_cli(monkeypatch, capsys, "enrich", str(prices), "--job-file", str(job_file))
    assert code == 2 and "job file" in err and "questoin" in err, err


def test_apply_chains_onto_an_earlier_output_that_filled_a_column_of_the_original(monkeypatch, capsys, tmp_path: Path) -> None:
    # The original has a Total column, empty: the first apply fills it, and the second proposal, which never read
    # Total, was refused on that output as "made for another file or an earlier version".
    table = tmp_path / "orders.csv"
    table.write_text("Company,Price,Quantity,Total\nAcme,2.5,4,\nBeta,10,3,\n", encoding="utf-8")
    code, _, err = run_cli(monkeypatch, capsys, "enrich", str(table), "--strategy", "computation", "--type", "number",
                           "--column", "Total", "--formula", "{Price} * {Quantity}", "--column", "Double", "--formula", "{Price} * 2")
    assert code == 0, err
    first, second = tmp_path / "first.csv", tmp_path / "second.csv"
    assert run_cli(monkeypatch, capsys, "apply", str(tmp_path / "orders.total.proposal.json"), str(table), "--out", str(first))[0] == 0
    code, _, err = run_cli(monkeypatch, capsys, "apply", str(tmp_path / "orders.double.proposal.json"), str(first), "--out", str(second))
    assert code == 0, err
    assert second.read_text(encoding="utf-8").splitlines() == ["Company,Price,Quantity,Total,Double", "Acme,2.5,4,10,5", "Beta,10,3,30,20"]


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


def test_apply_copies_the_table_as_written_but_for_the_values_filled(monkeypatch, capsys, tmp_path: Path) -> None:
    # A byte-order mark (Excel reads UTF-8 by it), a header cell's spaces, blank lines and LF line ends were lost.
    table = tmp_path / "orders.csv"
    table.write_bytes("\ufeffCompany, Price ,Quantity\nAcme,2.5,4\n,,\n\nBeta,10,3\n".encode("utf-8"))
    code, _, err = run_cli(monkeypatch, capsys, "enrich", str(table), "-s", "computation", "-c", "Total", "-f", "{Price} * {Quantity}")
    assert code == 0, err
    out = tmp_path / "out.csv"
    assert run_cli(monkeypatch, capsys, "apply", str(tmp_path / "orders.total.proposal.json"), str(table), "--out", str(out))[0] == 0
    assert out.read_bytes() == "\ufeffCompany, Price ,Quantity,Total\nAcme,2.5,4,10\n,,\n\nBeta,10,3,30\n".encode("utf-8")


def test_a_column_asked_twice_is_refused_and_names_alike_get_their_own_proposals(monkeypatch, capsys, prices: Path) -> None:
    # Both wrote one proposal file, the second over the first: "Total"/"total", "Revenue (USD)"/"Revenue USD", and
    # any two names in another script ("成立", "总部" were both "column").
    code, _, err = run_cli(monkeypatch, capsys, "enrich", str(prices), "-s", "computation", "-c", "Total", "-f", "{Price} * 2",
                           "-c", "total", "-f", "{Price} * 3")
    assert code == 2 and "column 'total' is asked twice" in err and err.count("error:") == 1, err
    code, _, err = run_cli(monkeypatch, capsys, "enrich", str(prices), "-s", "computation", "-c", "Revenue (USD)", "-f", "{Price} * 2",
                           "-c", "Revenue USD", "-f", "{Price} * 3", "-c", "成立", "-f", "{Price} * 4", "-c", "总部", "-f", "{Price} * 5")
    assert code == 0, err
    written = {name: json.loads(prices.with_name(f"prices.{name}.proposal.json").read_text(encoding="utf-8"))["target"]["column"]
               for name in ("revenue-usd", "revenue-usd-2", "成立", "总部")}
    assert written == {"revenue-usd": "Revenue (USD)", "revenue-usd-2": "Revenue USD", "成立": "成立", "总部": "总部"}


def test_a_job_file_or_a_resume_with_options_that_describe_a_job_is_refused(monkeypatch, capsys, prices: Path, tmp_path: Path) -> None:
    # They were dropped unsaid: --out ignored, the proposal written over the default one.
    job_file = tmp_path / "job.toml"
    job_file.write_text('[[column]]\nname = "Total"\nstrategy = "computation"\nformula = "{Price} * 2"\n', encoding="utf-8")
    code, _, err = run_cli(monkeypatch, capsys, "enrich", str(prices), "--job-file", str(job_file), "--out", str(tmp_path / "mine.json"))
    assert code == 2 and "--job-file describes the whole job: --out cannot be given with it" in err, err
    code, _, err = run_cli(monkeypatch, capsys, "enrich", "--resume", "abc123", "--column", "Total")
    assert code == 2 and "--resume continues a job as it was asked: --column cannot be given with it" in err, err
    assert not list(tmp_path.glob("*.json"))


def test_a_cell_longer_than_pythons_csv_limit_is_read(monkeypatch, capsys, tmp_path: Path) -> None:
    # Python's csv refuses a field over 128 KiB; the table was called "malformed".
    table = tmp_path / "notes.csv"
    table.write_text("Company,Note\nAcme," + "a" * 200_000 + "\n", encoding="utf-8")
    code, _, err = run_cli(monkeypatch, capsys, "enrich", str(table), "-s", "computation", "-c", "Length", "-f", "len({Note})")
    assert code == 0, err
    proposal = json.loads((tmp_path / "notes.length.proposal.json").read_text(encoding="utf-8"))
    assert proposal["operations"][0]["changes"] == {"Length": "200000"}
