"""`cikb demo`: the main job end to end on the sample company site, served on 127.0.0.1."""

from __future__ import annotations

import csv
import shlex
import shutil
import tempfile
from pathlib import Path

import typer
from rich.table import Table

from cikb.app.sample_site import SAMPLE_TABLE, serve_sample_site
from cikb.cli._app import app, console, out, state
from cikb.cli._text import safe

QUESTIONS = ("Who founded Acme Corp and when?", "What products does Acme make?")
COLUMNS = (
    ("Founded", "What year was {Company} founded?", "number"),
    ("Headquarters", "Where is {Company} headquartered?", "text"),
    ("Employees", "How many employees does {Company} have?", "number"),
)


@app.command("demo")
def demo_cmd(
    delay: float = typer.Option(1.0, "--delay", min=0, help="Seconds between requests to the sample site (the polite default is 1)."),
) -> None:
    """Serve the sample company site on 127.0.0.1, gather it, ask about it, enrich a table from it.

    The table has a second company the knowledge base does not hold: its cells stay empty,
    since no web search provider is configured.

    Runs the same commands a user would, printing each one first. The knowledge base is
    the configured one (default ./data); the table and proposal go to a temporary folder.
    """
    workdir = Path(tempfile.mkdtemp(prefix="cikb-demo-"))
    table = workdir / "companies.csv"
    shutil.copyfile(SAMPLE_TABLE, table)
    with serve_sample_site() as site:
        _run(["gather", "Acme Corp", "--website", f"{site}/", "--wikipedia", f"{site}/wiki/Acme_Corp", "--news", f"{site}/news/rss.xml", "--delay", str(delay)])
    for question in QUESTIONS:
        _run(["ask", question])
    _run(["search", "founders", "--company", "acme-corp"])
    for column, question, kind in COLUMNS:
        proposal = workdir / f"{column.lower()}.proposal.json"
        _run(["enrich", str(table), "--column", column, "--question", question, "--strategy", "lookup", "--type", kind, "--out", str(proposal)])
        _run(["review", str(proposal)])
        enriched = workdir / f"companies.{column.lower()}.csv"
        _run(["apply", str(proposal), str(table), "--min-confidence", "medium", "--out", str(enriched)])
        table = enriched
    console.rule(f"the enriched table: {safe(table)}")
    out.print(_as_table(table))


def _as_table(path: Path) -> Table:
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    table = Table(*(safe(cell) for cell in rows[0]))
    for row in rows[1:]:
        table.add_row(*(safe(cell) for cell in row))
    return table


def _run(args: list[str]) -> None:
    """Run one cikb command in this process, as the user would type it."""
    console.rule(f"$ cikb {safe(shlex.join(args))}", align="left", style="cyan")
    prefix = ["--data-dir", str(state.data_dir)] if state.data_dir else []
    prefix += ["--config", str(state.config_file)] if state.config_file else []
    app(prefix + args, standalone_mode=False)
