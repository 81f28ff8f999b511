"""`cikb jobs` and `cikb jobs show ID`: the enrichment jobs of the data directory and their attempts, and the gather jobs of a task queue."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import typer
from rich.table import Table as RichTable

from cikb.cli._app import app, console, out, print_json, settings
from cikb.cli._text import safe

if TYPE_CHECKING:
    from cikb.app.queue import QueueListing

jobs_app = typer.Typer(help="Enrichment jobs: list them, or show one with its attempts; with --queue, the jobs of a task queue too.", no_args_is_help=False)
app.add_typer(jobs_app, name="jobs")


@jobs_app.callback(invoke_without_command=True)
def jobs_command(
    ctx: typer.Context,
    as_json: bool = typer.Option(False, "--json", help="Print the jobs as JSON (a list of objects with id, status, done, total...; "
                                 "with a queue: {\"queued\": [...], \"enrichment\": [...], \"workers_alive\": \\[names]}, null where it cannot be reached)."),
    queue: Optional[str] = typer.Option(None, "--queue", metavar="URL", help="Also list the jobs queued on this Redis broker (gathers and enrichments) (default: \\[queue] url)."),
) -> None:
    """List the enrichment jobs, newest first: status, cells done of all, the table and the proposal.

    A job whose process died (killed, crashed) shows as interrupted: continue it with
    `cikb enrich --resume ID`. With a queue (--queue or [queue] url), the jobs queued
    there come first: their tasks (a company each for a gather, a batch of rows for an
    enrichment) queued, running, ok and failed, and the workers running them, as any
    machine that reaches the broker sees them, under the number of workers alive. With
    none alive, a job's unfinished tasks show as waiting for one: "queued (no worker)".
    """
    if ctx.invoked_subcommand is not None:
        return
    from cikb.app.jobs import JobStore

    cfg = settings()
    url = queue or cfg.queue.url
    queued = _queued_jobs(url, configured=queue is None) if url else None
    with JobStore(cfg.data_dir) as store:
        jobs = store.list()
    if as_json:
        enrichment = [job.model_dump(mode="json") for job in jobs]
        if not url:
            print_json(enrichment)
        else:  # one shape whenever a queue is named: null where the configured one could not be reached (warned)
            print_json({"queued": None if queued is None else [j.model_dump(mode="json") | {"status": j.status} for j in queued.jobs],
                        "enrichment": enrichment, "workers_alive": None if queued is None else queued.workers_alive})
        return
    if queued is not None:
        _print_queued(queued, url)
    table = RichTable(title=f"{len(jobs)} enrichment job(s)", title_justify="left")
    for name in ("id", "status", "done", "found", "column", "strategy", "table", "updated"):
        table.add_column(name, overflow="fold")
    for job in jobs:
        table.add_row(job.id, job.status, f"{job.done}/{job.total}", str(job.found), safe(", ".join(job.columns)),
                      safe(job.strategy), safe(job.csv_path), job.updated_at)
    out.print(table)


def _queued_jobs(url: str, configured: bool) -> QueueListing | None:
    """The queue's workers alive and jobs; None, after a warning line, when the broker only named in the config cannot be reached."""
    from cikb.app.queue import QueueUnavailableError, list_jobs

    try:
        return list_jobs(url)
    except QueueUnavailableError as err:
        if not configured:
            raise
        console.print(f"[yellow]warning:[/yellow] {safe(str(err))} (\\[queue] url); the enrichment jobs only", highlight=False, soft_wrap=True)
        return None


def _print_queued(queued: QueueListing, url: str) -> None:
    from cikb.app.queue import where

    alive = queued.workers_alive
    workers = (f"{len(alive)} worker(s) alive: {safe(', '.join(alive))}" if alive
               else f"no worker alive: start one with `cikb worker --queue {safe(where(url))}`")
    table = RichTable(title=f"{len(queued.jobs)} queued job(s) on {safe(where(url))}; {workers}", title_justify="left")
    for name in ("id", "kind", "status", "tasks", "queued", "running", "ok", "failed", "workers", "file", "queued at"):
        table.add_column(name, overflow="fold")
    for job in queued.jobs:
        table.add_row(job.id, job.kind, job.status, str(job.total), str(job.queued), str(job.running), str(job.ok), str(job.failed),
                      safe(", ".join(job.workers)), safe(job.source), job.queued_at.strftime("%Y-%m-%d %H:%M UTC"))
    out.print(table)


@jobs_app.command("show")
def show_command(
    job_id: str = typer.Argument(..., help="The job's id (printed by `cikb enrich`, listed by `cikb jobs`)."),
    as_json: bool = typer.Option(False, "--json", help="Print the job and its attempts as JSON."),
) -> None:
    """One job: what was asked, its status and counts, and every attempt at every cell."""
    from cikb.app.jobs import JobStore

    with JobStore(settings().data_dir) as store:
        job = store.get(job_id)
        attempts = store.attempts(job.id)
    if as_json:
        print_json({**job.model_dump(mode="json"), "attempts": [a.model_dump() for a in attempts]})
        return
    out.print(f"job {job.id}: {job.status}, {job.done}/{job.total} cells done, {job.found} found, {job.errors} errors", highlight=False)
    out.print(f"table {safe(job.csv_path)}", highlight=False)
    for column in job.request.columns:
        out.print(f"column {safe(column.name)}: {safe(column.strategy)} {safe(column.params())} -> {safe(column.proposal_path)}", highlight=False)
    if job.error:
        out.print(f"error: {safe(job.error)}", highlight=False)
    table = RichTable(title=f"{len(attempts)} attempt(s)", title_justify="left")
    for name in ("row", "label", "column", "try", "status", "value", "confidence", "source", "error"):
        table.add_column(name, overflow="fold")
    for attempt in attempts:
        table.add_row(str(attempt.row_id), safe(attempt.label or ""), safe(attempt.column),
                      f"{attempt.attempt}{'' if attempt.final else ' (replaced)'}", attempt.status, safe(attempt.value or ""),
                      attempt.confidence or "", safe(attempt.sources[0] if attempt.sources else ""), safe(attempt.error or ""))
    out.print(table)
