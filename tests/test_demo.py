"""The README's main-job command: `cikb demo` gathers the sample company, asks, and enriches a table."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_demo_runs_the_main_job_end_to_end(isolated_env: Path, tmp_path: Path) -> None:
    temp = tmp_path / "tmp"  # the demo's tables go to a temporary folder: this test's, not the machine's
    temp.mkdir()
    result = subprocess.run(
        [sys.executable, "-m", "cikb", "demo", "--delay", "0.05"], cwd=REPO, capture_output=True, text=True, timeout=600,
        env={**os.environ, "COLUMNS": "200", "TMPDIR": str(temp)},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    printed = result.stdout + result.stderr
    assert "Traceback" not in printed
    # gather: documents written, the German page dropped
    assert (isolated_env / "acme-corp" / "raw").is_dir()
    assert "1 language" in printed
    # ask: an extractive answer with citations and its sources
    assert "Maria Okafor" in printed and "[1]" in printed and "Extractive answer" in printed
    # enrich: the final table has Acme's values from the knowledge base and nothing invented for Globex
    final = result.stdout[result.stdout.rindex("Company"):]
    acme = next(line for line in final.splitlines() if "Acme Corp" in line)
    globex = next(line for line in final.splitlines() if "Globex" in line)
    for value in ("2011", "Portland", "420"):
        assert value in acme
    assert not any(ch.isdigit() for ch in globex.replace("Globex Corporation", "").replace("globex.example", ""))
    # the tables and proposals stay in the folder the demo names at its end
    [workdir] = temp.glob("cikb-demo-*")
    assert str(workdir) in " ".join(printed.split())
    assert {path.name for path in workdir.iterdir()} >= {"companies.csv", "founded.proposal.json", "companies.founded.csv"}
