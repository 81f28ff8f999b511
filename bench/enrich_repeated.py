"""One question asked of one company by every row (issue 26, item 4): answered once, not once a row.

    python bench/enrich_repeated.py [--rows 20000] [--keep DIR]

1. Serves the sample company site (``cikb demo``'s) on 127.0.0.1 and gathers Acme Corp from it
   through the real pipeline (crawl, clean, chunk, embed, store).
2. Writes a table of ``--rows`` identical rows (``Acme Corp``).
3. Runs ``cikb enrich`` on it in its own process, as a user would: ``lookup`` of
   "What year was {Company} founded?" as a number, the knowledge base alone (no LLM, no web search).

Prints the seconds the command took, the distinct values proposed, and how many rows the job
counts as found. Target: 20,000 rows in under 60 s.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from cikb.app.pipeline import gather_company
from cikb.app.sample_site import serve_sample_site
from cikb.core.config import Settings

TARGET_S = 60.0
QUESTION = "What year was {Company} founded?"


def gather(data_dir: Path, config: Path) -> None:
    """Acme Corp from the sample site, as `cikb gather` would (no politeness delay: the site is local)."""
    config.write_text(f'data_dir = "{data_dir}"\n[gather]\ndownload_delay = 0\n', encoding="utf-8")
    os.environ["CIKB_CONFIG"] = str(config)
    with serve_sample_site() as url:
        summary = gather_company(Settings(), "Acme Corp", {"website": [f"{url}/"]})
    print(f"gathered Acme Corp: {summary.documents} document(s), {summary.chunks} chunks", file=sys.stderr)


def enrich(table: Path, proposal: Path, data_dir: Path, config: Path) -> tuple[float, int]:
    """``cikb enrich`` in its own process: (seconds, exit code)."""
    command = [sys.executable, "-m", "cikb", "--data-dir", str(data_dir), "enrich", str(table), "--column", "Founded",
               "--question", QUESTION, "--type", "number", "--out", str(proposal)]
    started = time.perf_counter()
    done = subprocess.run(command, env={**os.environ, "CIKB_CONFIG": str(config)}, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        print(f"cikb enrich failed ({done.returncode}): {done.stderr[-800:]}", file=sys.stderr)
    return seconds, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=20_000, help="Identical rows in the table (default 20000).")
    parser.add_argument("--keep", type=Path, help="Work in this folder and keep it (default: a temporary one).")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="cikb-bench-repeated-"))
    work.mkdir(parents=True, exist_ok=True)
    data_dir, config, table, proposal = work / "data", work / "cikb.toml", work / "same.csv", work / "same.proposal.json"
    gather(data_dir, config)
    table.write_text("Company\n" + "Acme Corp\n" * args.rows, encoding="utf-8")

    seconds, code = enrich(table, proposal, data_dir, config)
    rows = json.loads(proposal.read_text(encoding="utf-8"))["research_log"] if code == 0 else []
    values = Counter(str(row.get("value")) for row in rows)
    print(f"\n{args.rows} identical rows: cikb enrich took {seconds:.1f} s (exit {code})")
    print(f"values proposed: {dict(values)}")
    met = code == 0 and len(rows) == args.rows and len(values) == 1 and seconds < TARGET_S * args.rows / 20_000
    print(f"target (20,000 rows in < {TARGET_S:.0f} s, one answer for all): {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()
