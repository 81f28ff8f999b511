"""`cikb demo`: the main job end to end on the sample company site, served on 127.0.0.1."""

from __future__ import annotations

import csv
import os
import shlex
import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import Optional

import typer
from rich.table import Column, Table

from cikb.app.sample_site import sample_table, serve_sample_site
from cikb.cli._app import app, console, out, settings, state
from cikb.cli._text import safe
from cikb.core.errors import BadInputError, CikbError

QUESTIONS = ("Who founded Acme Corp and when?", "What products does Acme make?")
COLUMNS = (
    ("Founded", "What year was {Company} founded?", "number"),
    ("Headquarters", "Where is {Company} headquartered?", "text"),
    ("Employees", "How many employees does {Company} have?", "number"),
)
# One port for every demo: a second demo serves the same URLs, so its gather finds the pages it kept the first
# time ("nothing changed"), where a new port would make every page new and the old ones removed.
DEMO_PORT = 8731


@app.command("demo")
def demo_cmd(
    delay: Optional[float] = typer.Option(None, "--delay", min=0, help="Seconds between requests to the sample site (default: \\[gather] download_delay, 1 unless set)."),
    port: Optional[int] = typer.Option(None, "--port", min=0, max=65535, help=f"Port of 127.0.0.1 to serve the sample site on; 0: a free one (default: {DEMO_PORT}, or a free one when it is in use)."),
) -> None:
    """Serve the sample company site on 127.0.0.1, gather it, ask about it, enrich a table from it.

    The table has a second company the knowledge base does not hold: its cells stay empty,
    since no web search provider is configured.

    Runs the same commands a user would, printing each one first. The knowledge base is
    the configured one (default ./data); the table, its enriched copies and the proposals go
    to a temporary folder, named at the end.
    """
    with ExitStack() as stack:
        site = _serve(stack, port)
        workdir = Path(tempfile.mkdtemp(prefix="cikb-demo-"))
        table = workdir / "companies.csv"
        table.write_text(sample_table(site), encoding="utf-8")
        gather = ["gather", "Acme Corp", "--website", f"{site}/", "--wikipedia", f"{site}/wiki/Acme_Corp", "--news", f"{site}/news/rss.xml"]
        _gather(gather + (["--delay", f"{delay:g}"] if delay is not None else []))
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
    cikb = shlex.join(["cikb", *_global_options()])
    console.print(f"the knowledge base stays in {safe(settings().data_dir)}: try `{safe(cikb)} companies`, "
                  f"`{safe(cikb)} ask \"Where is Acme Corp headquartered?\"`; the tables and proposals are in {safe(workdir)}",
                  soft_wrap=True, highlight=False)


def _serve(stack: ExitStack, port: int | None) -> str:
    """The sample site's base URL, served until ``stack`` closes: on ``port``, else on DEMO_PORT or a free one."""
    try:
        return stack.enter_context(serve_sample_site(port=DEMO_PORT if port is None else port))
    except OSError as err:  # a port in use or refused: one line, not a traceback (the error names no file)
        if port is not None:
            raise BadInputError(f"cannot serve the sample site on 127.0.0.1:{port}: {err.strerror or err} (--port 0 takes a free port)") from err
    console.print(f"port {DEMO_PORT} of 127.0.0.1 is in use: the sample site is served on a free port "
                  "(its pages' URLs differ from a previous demo's, so the gather counts them as new)", highlight=False, soft_wrap=True)
    return stack.enter_context(serve_sample_site(port=0))


def _gather(args: list[str]) -> None:
    """The demo's gather; if it fails, say how to run the demo apart from this knowledge base."""
    try:
        _run(args)
    except CikbError:
        # Such as another "Acme Corp", gathered from another site, already in the knowledge base: the error's own
        # advice (--replace) would put the fictional company in its place, from a site gone once the demo ends.
        console.print(f"the demo could not gather the sample company into {safe(settings().data_dir)}; run it in an "
                      "empty folder, or with a knowledge base of its own: `cikb --data-dir cikb-demo-data demo`", highlight=False, soft_wrap=True)
        raise


def _as_table(path: Path) -> Table:
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    # A narrow terminal folds a cell (a website) onto more lines rather than cutting it short with an ellipsis.
    table = Table(*(Column(safe(cell), overflow="fold") for cell in rows[0]))
    for row in rows[1:]:
        table.add_row(*(safe(cell) for cell in row))
    return table


def _global_options() -> list[str]:
    """The demo's own --data-dir and --config, which each command it runs (and prints) needs too; not a
    --config that CIKB_CONFIG gave, which a pasted command takes from the environment as the demo did."""
    options = ["--data-dir", str(state.data_dir)] if state.data_dir else []
    from_environment = state.config_file is not None and os.environ.get("CIKB_CONFIG") == str(state.config_file)
    return options + (["--config", str(state.config_file)] if state.config_file and not from_environment else [])


def _run(args: list[str]) -> None:
    """Run one cikb command in this process, as the user would type it; stop the demo where it stops."""
    command = _global_options() + args
    console.rule(style="cyan")
    # The whole command on its own line, wrapped by the terminal, never cut: it is there to be pasted.
    console.print(f"[cyan]$ cikb {safe(shlex.join(command))}[/cyan]", soft_wrap=True, highlight=False)
    code = app(command, standalone_mode=False)
    # Outside standalone mode click returns a command's exit code instead of exiting, Ctrl-C's 130 included:
    # going on would run the next steps on what an interrupted or failed step left.
    if code == 130:
        raise KeyboardInterrupt
    if code:
        raise SystemExit(code)
