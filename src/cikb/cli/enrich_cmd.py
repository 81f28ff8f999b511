"""`cikb enrich`, `cikb review`, `cikb apply`: propose a column's values, look at them, then write them."""

from __future__ import annotations

import asyncio
import re
import signal
import sys
from pathlib import Path

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table as RichTable

from cikb.cli._app import app, console, out, print_json, settings
from cikb.cli._text import safe
from cikb.enrich.models import DataProposal

_CONFIDENCES = ("high", "medium", "low", "none")
_STYLE = {"high": "green", "medium": "yellow", "low": "red", "none": "dim"}


@app.command("enrich")
def enrich_command(
    csv_path: Path | None = typer.Argument(None, help="The table to enrich (CSV with a header row). It is only read."),
    column: str | None = typer.Option(None, "--column", "-c", help="The column to fill (an existing one, or a new one)."),
    question: str | None = typer.Option(None, "--question", "-q", help="lookup/research: the question, with {Column} placeholders."),
    formula: str | None = typer.Option(None, "--formula", "-f", help="computation: e.g. '{Price} * {Quantity}'."),
    strategy: str = typer.Option("lookup", "--strategy", "-s", help="lookup | research | computation | a plugin's strategy."),
    thoroughness: str | None = typer.Option(None, "--thoroughness", help="research: exploratory (default) or comprehensive."),
    column_type: str = typer.Option("text", "--type", "-t", help="text | number | boolean | select."),
    options: str | None = typer.Option(None, "--options", help="select: the allowed values, comma-separated."),
    company_column: str | None = typer.Option(None, "--company-column", help="The column naming each row's company (default: Company/Name, else the first)."),
    out_path: Path | None = typer.Option(None, "--out", "-o", help="Where to write the proposal (default: <csv>.<column>.proposal.json beside the CSV)."),
    resume: str | None = typer.Option(None, "--resume", help="Continue job ID (killed, failed or cancelled): only its unfinished rows run. See `cikb jobs`."),
    as_json: bool = typer.Option(False, "--json", help="Print the proposal as JSON."),
) -> None:
    """Propose values for a column, from the knowledge base first (web search only if configured).

    Nothing is written to the CSV: review the proposal with `cikb review`, then `cikb apply` it.
    Every run is a job (its id is printed first): each finished row is kept in the data
    directory's jobs database, so a killed run continues with `cikb enrich --resume ID`.
    Ctrl-C stops the run and still writes the proposal for the rows that finished.
    """
    from cikb.app.jobs import run_job
    from cikb.enrich import CancellationToken

    request = None if resume else _request(csv_path, column, strategy=strategy, question=question, formula=formula,
                                            thoroughness=thoroughness, column_type=column_type, options=options,
                                            company_column=company_column, out_path=out_path)
    token = CancellationToken()
    with _progress_bar() as bar:
        task = bar.add_task("starting", total=1.0)

        def on_progress(event) -> None:
            label = f"{event.stage} {event.label}".strip()
            bar.update(task, completed=event.fraction, description=safe(label[:60]))

        def on_job(job_id: str) -> None:
            console.print(f"job {job_id}" + (" resumed" if resume else ""), highlight=False)

        async def run():
            _cancel_on_ctrl_c(token)
            return await run_job(settings(), request, resume=resume, on_job=on_job, on_progress=on_progress, cancel=token)

        job, proposal = asyncio.run(run())
    if as_json:
        print_json(proposal)
    _summary(proposal, Path(job.request.proposal_path))
    if proposal.cancelled:
        console.print(f"continue it with `cikb enrich --resume {job.id}`", highlight=False)
        sys.exit(130)  # interrupted, as a shell expects after Ctrl-C (typer.Exit is swallowed outside standalone mode)


def _request(csv_path: Path | None, column: str | None, *, out_path: Path | None, options: str | None, **fields):
    """The job a new `cikb enrich` asks for; one usage error line when the table or column is missing."""
    from cikb.app.jobs import JobRequest
    from cikb.core.errors import BadInputError

    for missing, value in (("argument 'CSV_PATH'", csv_path), ("option '--column'", column)):
        if value is None:
            raise BadInputError(f"Missing {missing}: a new job needs the CSV and --column, `--resume ID` continues one "
                                "(see `cikb enrich --help`)")
    column_part = "-".join(re.findall(r"[a-z0-9]+", column.lower())) or "column"  # a name, never a path: "a/b" stays beside the CSV
    target = out_path or csv_path.with_name(f"{csv_path.stem}.{column_part}.proposal.json")
    return JobRequest(csv_path=str(csv_path.resolve()), column=column, proposal_path=str(target.resolve()),
                      options=options.split(",") if options else None, **fields)


def _progress_bar() -> Progress:
    return Progress(TextColumn("{task.description:<40}"), BarColumn(), TextColumn("{task.percentage:>3.0f}%"),
                    TimeElapsedColumn(), console=console, transient=True)


def _cancel_on_ctrl_c(token) -> None:
    """First Ctrl-C: stop between rows and keep what finished. A second one interrupts at once."""
    loop = asyncio.get_running_loop()

    def first_interrupt() -> None:
        token.cancel()
        console.print("stopping: the rows that finished are kept (Ctrl-C again to abort)")
        loop.remove_signal_handler(signal.SIGINT)

    try:
        loop.add_signal_handler(signal.SIGINT, first_interrupt)
    except (NotImplementedError, RuntimeError):  # not the main thread, or a platform without it
        pass


def _summary(proposal: DataProposal, target: Path) -> None:
    counts = {c: sum(1 for r in proposal.research_log if r.status == "found" and r.confidence == c) for c in _CONFIDENCES}
    by_level = ", ".join(f"{counts[c]} {c}" for c in _CONFIDENCES[:3] if counts[c])
    console.print(safe(proposal.reasoning) + (f" ({by_level})" if by_level else ""), highlight=False, soft_wrap=True)
    if proposal.embedding_model:
        console.print(f"embedding model: {safe(proposal.embedding_model)}", highlight=False, soft_wrap=True)
    console.print(f"proposal written to {safe(target)}; review it with `cikb review {safe(target)}`", highlight=False, soft_wrap=True)


@app.command("review")
def review_command(
    proposal_path: Path = typer.Argument(..., help="A proposal written by `cikb enrich`."),
    as_json: bool = typer.Option(False, "--json", help="Print the rows as JSON."),
) -> None:
    """Show a proposal: each row's value, confidence, and where it came from (KB chunk or web page)."""
    from cikb.enrich import load_proposal, review_rows

    proposal = load_proposal(proposal_path)
    rows = review_rows(proposal)
    if as_json:
        print_json({"reasoning": proposal.reasoning, "target": proposal.target.model_dump(), "rows": rows})
        return
    table = RichTable(title=safe(proposal.reasoning), title_justify="left")
    for name in ("row", "label", "value", "confidence", "from", "source"):
        table.add_column(name, overflow="fold")
    for row in rows:
        style = _STYLE.get(row["confidence"], "")
        source = row["source"] or ""
        table.add_row(str(row["row"]), safe(row["label"]), safe(row["value"]) if row["value"] else f"[dim]{safe(row['status'])}[/dim]",
                      f"[{style}]{safe(row['confidence'])}[/{style}]", safe(row["answered_by"]), safe(source))
    out.print(table)


@app.command("apply")
def apply_command(
    proposal_path: Path = typer.Argument(..., help="A proposal written by `cikb enrich`."),
    csv_path: Path = typer.Argument(..., help="The CSV the proposal was made for (checked by its content hash)."),
    out_path: Path | None = typer.Option(None, "--out", "-o", help="Where to write the enriched CSV (default: <csv>.enriched.csv)."),
    min_confidence: str = typer.Option("low", "--min-confidence", help="Apply only values at least this confident: high | medium | low."),
    column: str | None = typer.Option(None, "--column", help="Refuse unless the proposal fills this column."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Write the proposal's values into a copy of the CSV (atomically). Refuses a proposal made for another file or column."""
    from cikb.core.errors import BadInputError
    from cikb.enrich import apply_proposal

    if min_confidence not in ("high", "medium", "low"):
        raise BadInputError(f"--min-confidence must be high, medium or low, not {min_confidence!r}")
    target = out_path or csv_path.with_name(f"{csv_path.stem}.enriched.csv")
    result = apply_proposal(proposal_path, csv_path, target, min_confidence=min_confidence, column=column)  # type: ignore[arg-type]
    if as_json:
        print_json(result)
        return
    console.print(
        f"wrote {safe(result.out)}: {result.updated} cell(s) of {safe(repr(result.column))} filled; "
        f"{result.below_min_confidence} below {min_confidence} confidence left as they were; {result.not_found} row(s) without a value",
        highlight=False, soft_wrap=True,
    )
