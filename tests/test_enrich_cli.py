"""`cikb enrich / review / apply`: the thin CLI over the enrich API, its errors, and Ctrl-C."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from child_env import python_path, sigint_as_in_a_terminal
from enrich_support import run_cli


@pytest.fixture(autouse=True)
def empty_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI's --config (CIKB_CONFIG) insists the file exists: an empty one means defaults."""
    config = tmp_path / "cikb.toml"
    config.write_text("", encoding="utf-8")
    monkeypatch.setenv("CIKB_CONFIG", str(config))


def cikb(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    return run_cli(monkeypatch, capsys, *args)


@pytest.fixture
def prices(tmp_path: Path) -> Path:
    path = tmp_path / "prices.csv"
    path.write_text("Company,Price,Quantity\nAcme,2.5,4\nBeta,10,0\n", encoding="utf-8")
    return path


def test_enrich_review_apply_round_trip(monkeypatch, capsys, prices: Path, tmp_path: Path) -> None:
    proposal = tmp_path / "total.proposal.json"
    code, out, err = cikb(monkeypatch, capsys, "enrich", str(prices), "--column", "Total", "--strategy", "computation",
                          "--formula", "{Price} * {Quantity}", "--type", "number", "--out", str(proposal))
    assert code == 0, err
    assert "found 2 of 2 rows (2 high)" in err and str(proposal) in err  # the split by confidence was never printed
    assert prices.read_text(encoding="utf-8") == "Company,Price,Quantity\nAcme,2.5,4\nBeta,10,0\n"

    code, out, _ = cikb(monkeypatch, capsys, "review", str(proposal), "--json")
    review = json.loads(out)
    assert code == 0 and [(r["label"], r["value"], r["confidence"]) for r in review["rows"]] == [("Acme", "10", "high"), ("Beta", "0", "high")]

    code, out, _ = cikb(monkeypatch, capsys, "review", str(proposal))
    assert code == 0 and "Acme" in out and "compute" in out
    # Rows numbered as the review page numbers them, the table's first row 1 (it said 0 where the page says 1).
    numbered = [re.match(r"\W*(\d+)\W+(\w+)", line) for line in out.splitlines()]
    assert [(m.group(1), m.group(2)) for m in numbered if m and m.group(2) in ("Acme", "Beta")] == [("1", "Acme"), ("2", "Beta")]

    enriched = tmp_path / "prices.enriched.csv"
    code, out, err = cikb(monkeypatch, capsys, "apply", str(proposal), str(prices), "--min-confidence", "medium",
                          "--out", str(enriched), "--json")
    assert code == 0 and json.loads(out)["updated"] == 2
    assert enriched.read_text(encoding="utf-8").splitlines() == ["Company,Price,Quantity,Total", "Acme,2.5,4,10", "Beta,10,0,0"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--column", "X", "--strategy", "computation", "--formula", "{Price}.__class__"], "error: bad formula"),
        (["--column", "X", "--strategy", "computation", "--formula", "{Cost} * 2"], "error: unknown column in template: {Cost}"),
        (["--column", "X", "--question", "{Company}?", "--company-column", "Firm"], "error: unknown column 'Firm'"),
        (["--column", "X", "--strategy", "magic", "--question", "q"], "error: unknown strategy 'magic'"),
        (["--column", "X", "--question", "q", "--type", "date"], "error: unknown column type 'date'"),
    ],
)
def test_bad_input_is_one_line_without_a_traceback(monkeypatch, capsys, prices: Path, args: list[str], message: str) -> None:
    code, _, err = cikb(monkeypatch, capsys, "enrich", str(prices), *args)
    # one message (rich may wrap it to the terminal's width), never a traceback
    assert code == 2 and " ".join(err.split()).startswith(message) and err.count("error:") == 1, err
    assert "Traceback" not in err


def test_a_malformed_csv_is_one_line(monkeypatch, capsys, tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("Company,Price\nAcme,1,2\n", encoding="utf-8")
    code, _, err = cikb(monkeypatch, capsys, "enrich", str(bad), "--column", "X", "--strategy", "computation", "--formula", "1")
    assert code == 2 and err.strip() == "error: malformed CSV bad.csv: line 2 has 3 fields, the header has 2"


def test_apply_refuses_a_proposal_for_another_file(monkeypatch, capsys, prices: Path, tmp_path: Path) -> None:
    proposal = tmp_path / "p.json"
    cikb(monkeypatch, capsys, "enrich", str(prices), "--column", "Total", "--strategy", "computation",
         "--formula", "{Price} * 2", "--out", str(proposal))
    other = tmp_path / "other.csv"
    other.write_text("Company,Price,Quantity\nZeta,1,1\n", encoding="utf-8")
    code, _, err = cikb(monkeypatch, capsys, "apply", str(proposal), str(other), "--out", str(tmp_path / "o.csv"))
    assert code == 2 and "made for another file" in err and not (tmp_path / "o.csv").exists()


PLUGIN = textwrap.dedent('''
    """A slow enrichment plugin: registered by import, like any plugin."""
    import asyncio
    from pathlib import Path

    from cikb.enrich import RowStrategy, answer_step, register_strategy


    class Crawl(RowStrategy):
        name = "crawl"
        display_name = "Slow crawl"
        max_steps = 1

        def validate_params(self, params, ctx):
            pass

        async def execute_one(self, row, params, ctx):
            await asyncio.sleep(0.25)
            yield answer_step(f"done {row.row_id}", "high", answered_by="compute")
            Path(params["question"], f"row-{row.row_id}").touch()  # the test watches these


    register_strategy(Crawl())
''')


@pytest.mark.slow
def test_ctrl_c_writes_the_proposal_for_the_finished_rows(tmp_path: Path) -> None:
    (tmp_path / "crawlplugin.py").write_text(PLUGIN, encoding="utf-8")
    markers = tmp_path / "markers"
    markers.mkdir()
    table = tmp_path / "many.csv"
    table.write_text("Company\n" + "".join(f"Company {i}\n" for i in range(40)), encoding="utf-8")
    proposal = tmp_path / "many.proposal.json"
    env = {**os.environ, "PYTHONPATH": python_path(tmp_path), "CIKB_ENRICH__PLUGINS": '["crawlplugin"]',
           "CIKB_ENRICH__CONCURRENCY": '{"crawl": 2}'}
    process = subprocess.Popen(
        [sys.executable, "-m", "cikb", "enrich", str(table), "--column", "V", "--strategy", "crawl",
         "--question", str(markers), "--out", str(proposal)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=sigint_as_in_a_terminal,
    )
    try:
        deadline = time.monotonic() + 60
        while len(list(markers.iterdir())) < 4 and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert "stopping" in err and "cancelled" in err
    data = json.loads(proposal.read_text(encoding="utf-8"))
    finished = data["research_log"]
    assert data["cancelled"] is True and data["rows_total"] == 40
    assert 4 <= len(finished) < 40
    assert all(r["status"] == "found" and r["value"] == f"done {r['row_id']}" for r in finished)
    assert {f"row-{r['row_id']}" for r in finished} <= {p.name for p in markers.iterdir()}


def test_the_default_proposal_path_stays_beside_the_csv_whatever_the_column_name(monkeypatch, capsys, prices: Path) -> None:
    code, _, err = cikb(monkeypatch, capsys, "enrich", str(prices), "--column", "../Price/Qty", "--strategy", "computation",
                        "--formula", "{Price} / 2", "--type", "number")
    assert code == 0, err
    assert (prices.parent / "prices.price-qty.proposal.json").is_file()
    assert [p.name for p in prices.parent.rglob("*.proposal.json")] == ["prices.price-qty.proposal.json"]


def test_a_proposal_is_never_written_over_its_own_table(monkeypatch, capsys, prices: Path) -> None:
    before = prices.read_bytes()
    code, _, err = cikb(monkeypatch, capsys, "enrich", str(prices), "--column", "Total", "--strategy", "computation",
                        "--formula", "{Price} * {Quantity}", "--out", str(prices.parent / "." / prices.name))
    assert code == 2 and err.count("error:") == 1 and "is the input table" in err, err
    assert prices.read_bytes() == before


@pytest.mark.parametrize("where", ["a folder", "under a file"])
def test_an_output_that_cannot_be_written_is_one_line_before_any_row_runs(monkeypatch, capsys, prices: Path,
                                                                          tmp_path: Path, where: str) -> None:
    out = tmp_path / "adir" if where == "a folder" else prices / "x.json"
    if where == "a folder":
        out.mkdir()
    code, _, err = cikb(monkeypatch, capsys, "enrich", str(prices), "--column", "Total", "--strategy", "computation",
                        "--formula", "{Price}", "--out", str(out))
    assert code == 2 and err.count("error:") == 1 and "cannot write" in err and "Traceback" not in err, err
    code, listed, _ = cikb(monkeypatch, capsys, "jobs", "--json")
    assert code == 0 and json.loads(listed) == []  # refused before the job began: no job ran its rows for nothing


def test_a_folder_the_user_may_not_write_in_is_refused_before_writing(tmp_path: Path, monkeypatch) -> None:
    # As root (CI) a mode of 0o555 refuses nothing, so the system's answer is what is simulated: os.access says no, as
    # it does for a read-only mount or a folder of another user's.
    from cikb.core.errors import BadInputError
    from cikb.enrich.table import check_writable

    monkeypatch.setattr(os, "access", lambda path, mode: Path(path) != tmp_path / "ro")
    (tmp_path / "ro").mkdir()
    with pytest.raises(BadInputError, match="may not write in"):
        check_writable(tmp_path / "ro" / "sub" / "p.json")  # a folder to make, under one that cannot be written
    check_writable(tmp_path / "elsewhere" / "p.json")


def test_apply_to_a_folder_and_review_of_a_folder_are_one_line(monkeypatch, capsys, prices: Path, tmp_path: Path) -> None:
    proposal = tmp_path / "total.proposal.json"
    code, _, err = cikb(monkeypatch, capsys, "enrich", str(prices), "--column", "Total", "--strategy", "computation",
                        "--formula", "{Price}", "--out", str(proposal))
    assert code == 0, err
    folder = tmp_path / "adir"
    folder.mkdir()
    code, _, err = cikb(monkeypatch, capsys, "apply", str(proposal), str(prices), "--out", str(folder), "--force")
    assert code == 2 and err.count("error:") == 1 and "cannot write" in err and "Traceback" not in err, err
    code, _, err = cikb(monkeypatch, capsys, "review", str(folder))
    assert code == 2 and err.count("error:") == 1 and "Traceback" not in err, err


def test_written_files_follow_the_umask_and_a_replaced_file_keeps_its_mode(monkeypatch, capsys, prices: Path,
                                                                           tmp_path: Path) -> None:
    proposal = tmp_path / "total.proposal.json"
    code, _, err = cikb(monkeypatch, capsys, "enrich", str(prices), "--column", "Total", "--strategy", "computation",
                        "--formula", "{Price}", "--out", str(proposal))
    assert code == 0, err
    mask = os.umask(0o022)
    os.umask(mask)
    assert proposal.stat().st_mode & 0o777 == 0o666 & ~mask
    enriched = tmp_path / "prices.enriched.csv"
    enriched.write_text("old", encoding="utf-8")
    enriched.chmod(0o640)
    code, _, err = cikb(monkeypatch, capsys, "apply", str(proposal), str(prices), "--out", str(enriched), "--force")
    assert code == 0, err
    assert enriched.stat().st_mode & 0o777 == 0o640 and enriched.read_text(encoding="utf-8").startswith("Company")


@pytest.mark.parametrize("template", ["What year was {} founded?", "What year was {Company founded?", "Who runs Company}?"])
def test_a_brace_that_is_no_placeholder_is_one_line(monkeypatch, capsys, prices: Path, template: str) -> None:
    code, _, err = cikb(monkeypatch, capsys, "enrich", str(prices), "--column", "Founded", "--question", template)
    assert code == 2 and err.count("error:") == 1 and "no {Column} placeholder" in " ".join(err.split()), err
