"""`cikb worker`: a worker of the task queue, gathering the companies `cikb gather --from-csv FILE --queue URL` queued."""

from __future__ import annotations

from typing import Optional

import typer

from cikb.cli._app import app, console, settings
from cikb.cli._text import safe
from cikb.core.errors import BadInputError


@app.command("worker")
def worker_cmd(
    queue: Optional[str] = typer.Option(None, "--queue", metavar="URL", help="The Redis broker, redis://HOST:PORT/N (default: \\[queue] url)."),
    concurrency: Optional[int] = typer.Option(None, "--concurrency", min=1, help="Companies gathered at once (default: \\[queue] concurrency, 1 unless set)."),
    name: Optional[str] = typer.Option(None, "--name", help="The worker's name in `cikb jobs` (default: cikb-PID@HOST)."),
) -> None:
    r"""Gather companies queued with `cikb gather --from-csv FILE --queue URL` (and run the rows `cikb enrich ... --queue URL` queued), until stopped.

    A Celery worker with Redis as its broker. Each company is gathered as `cikb gather` does,
    into this machine's data directory and store (its configuration: data_dir, \[store], \[embed]),
    with the command line's --delay, --max-pages, --max-age and --full of the queued job. Its
    requests take their turn per registered domain through the broker, so a domain gets one
    request per download_delay across every worker. A task is acknowledged after its company's
    commit: a worker that dies mid-gather has its company gathered by another (\[queue]
    visibility_timeout later). While it runs it keeps a heartbeat in the broker, which
    `cikb jobs` counts and `--wait` listens for. Ctrl-C or SIGTERM stop it after the
    gathers running; a second Ctrl-C stops it at once, as a kill does (exit 130: its
    unfinished tasks are delivered again after \[queue] visibility_timeout).
    """
    from cikb.app.queue import run_worker, where

    cfg = settings()
    url = queue or cfg.queue.url
    if not url:
        raise BadInputError("no queue: give --queue redis://HOST:PORT/N or set [queue] url")
    ready = lambda worker: console.print(f"worker {safe(worker)} ready: queue {safe(where(url))}, data {safe(cfg.data_dir)}", highlight=False, soft_wrap=True)  # noqa: E731
    raise typer.Exit(run_worker(cfg, url, name=name, concurrency=concurrency, on_ready=ready))
