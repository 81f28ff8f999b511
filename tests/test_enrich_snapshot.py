"""Enrichment reads a snapshot of the store: a gather commits while an enrichment runs, and both succeed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from child_env import python_path

from cikb.app.sample_site import serve_sample_site

PLUGIN = textwrap.dedent('''
    import asyncio
    from pathlib import Path

    from cikb.enrich import RowStrategy, answer_step, register_strategy


    class Companies(RowStrategy):
        """Which companies a search over the whole knowledge base sees; rows from the third on wait for `go`."""

        name = "companies"
        display_name = "Companies seen"

        def validate_params(self, params, ctx):
            pass

        async def execute_one(self, row, params, ctx):
            folder = Path(params["question"])
            if row.row_id >= 2:
                for _ in range(1200):
                    if (folder / "go").exists():
                        break
                    await asyncio.sleep(0.05)
            chunks = ctx.kb.search("What does Acme make?", None)
            (folder / f"row-{row.row_id}").touch()
            yield answer_step(",".join(sorted({c.chunk.metadata.company for c in chunks})), "high", answered_by="kb")


    register_strategy(Companies())
''')


@pytest.mark.slow
def test_a_gather_commits_while_an_enrichment_runs_and_the_enrichment_reads_one_generation(tmp_path: Path) -> None:
    (tmp_path / "companiesplugin.py").write_text(PLUGIN, encoding="utf-8")
    flags = tmp_path / "flags"
    flags.mkdir()
    table = tmp_path / "rows.csv"
    table.write_text("Company\n" + "".join(f"Row {i}\n" for i in range(6)), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": python_path(tmp_path), "CIKB_ENRICH__PLUGINS": '["companiesplugin"]',
           "CIKB_ENRICH__CONCURRENCY": '{"companies": 1}', "CIKB_STORE__LOCK_TIMEOUT": "3"}
    cikb = [sys.executable, "-m", "cikb", "--data-dir", str(tmp_path / "data")]
    proposal = tmp_path / "rows.proposal.json"
    with serve_sample_site() as site:
        first = subprocess.run([*cikb, "gather", "Acme Corp", "--website", f"{site}/", "--delay", "0"], env=env,
                               capture_output=True, text=True, timeout=300)
        assert first.returncode == 0, first.stderr
        enrichment = subprocess.Popen([*cikb, "enrich", str(table), "--column", "Seen", "--strategy", "companies",
                                       "--question", str(flags), "--out", str(proposal)],
                                      env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 120
            while not (flags / "row-1").exists() and enrichment.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            assert enrichment.poll() is None, enrichment.communicate()[1]  # running, its knowledge base open
            second = subprocess.run([*cikb, "gather", "Acme Two", "--website", f"{site}/", "--delay", "0"], env=env,
                                    capture_output=True, text=True, timeout=300)
            assert enrichment.poll() is None  # the gather committed while the enrichment was still running
            (flags / "go").touch()
            _, err = enrichment.communicate(timeout=120)
        finally:
            if enrichment.poll() is None:
                enrichment.kill()
    assert second.returncode == 0, second.stderr
    assert enrichment.returncode == 0, err
    rows = json.loads(proposal.read_text(encoding="utf-8"))["research_log"]
    assert [r["value"] for r in rows] == ["acme-corp"] * 6  # every row read the generation it started with
    listed = json.loads(subprocess.run([*cikb, "companies", "--json"], env=env, capture_output=True, text=True).stdout)
    assert sorted(c["slug"] for c in listed) == ["acme-corp", "acme-two"]
    assert not any((tmp_path / "data" / "_snapshots").iterdir())  # the snapshot is gone with its reader
