"""`cikb enrich`, `cikb review`, `cikb apply`: propose a column's values, look at them, then write them."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table as RichTable

from cikb.cli._app import OPTION_ORDER, OrderedOptionsCommand, app, console, out, print_json, print_json_stream, settings
from cikb.cli._text import safe

if TYPE_CHECKING:  # the enrich stack loads only when a command of this module runs
    from cikb.enrich.models import DataProposal

_STYLE = {"high": "green", "medium": "yellow", "low": "red", "none": "dim"}


@app.command("enrich", cls=OrderedOptionsCommand)
def enrich_command(
    ctx: typer.Context,
    csv_path: Path | None = typer.Argument(None, help="The table to enrich (CSV with a header row). It is only read."),
    column: list[str] | None = typer.Option(None, "--column", "-c", help="The column to fill (an existing one, or a new one); repeat it to fill several in one job."),
    question: list[str] | None = typer.Option(None, "--question", "-q", help="lookup/research: the question, with {Column} placeholders."),
    formula: list[str] | None = typer.Option(None, "--formula", "-f", help="computation: e.g. '{Price} * {Quantity}'."),
    strategy: list[str] | None = typer.Option(None, "--strategy", "-s", help="lookup (default) | research | computation | a plugin's strategy."),
    thoroughness: list[str] | None = typer.Option(None, "--thoroughness", help="research: exploratory (default) or comprehensive."),
    column_type: list[str] | None = typer.Option(None, "--type", "-t", help="text (default) | number | boolean | select."),
    options: list[str] | None = typer.Option(None, "--options", help="select: the allowed values, comma-separated."),
    company_column: str | None = typer.Option(None, "--company-column", help="The column naming each row's company (default: Company/Name, else the first)."),
    out_path: Path | None = typer.Option(None, "--out", "-o", help="Where to write the proposal (default: <csv name without .csv>.<column>.proposal.json beside the CSV); with several columns, a folder for their proposals."),
    job_file: Path | None = typer.Option(None, "--job-file", help="A TOML job: csv, company_column and one \\[\\[column]] table per column (name, strategy, question or formula, type, options, out)."),
    resume: str | None = typer.Option(None, "--resume", help="Continue job ID (killed, failed or cancelled): only its unfinished rows run. See `cikb jobs`."),
    fresh: bool = typer.Option(False, "--fresh", help="Answer every cell anew, even one an earlier job answered for the same column, row and knowledge base."),
    as_json: bool = typer.Option(False, "--json", help="Print the proposal as JSON (a list of proposals with several columns)."),
    queue: str | None = typer.Option(None, "--queue", metavar="URL", help="Queue the job's rows on this Redis broker (redis://HOST:PORT/N) for `cikb worker` processes sharing this data directory, one task per --batch rows; print the job's id and return (`cikb jobs --queue URL` shows its progress)."),
    wait: bool = typer.Option(False, "--wait", help="With --queue: follow the job as the workers run it, shown as a local run, and end with its proposals "
                              "(one line says so when no worker is alive on the broker, and the wait goes on)."),
    batch: int = typer.Option(50, "--batch", min=1, help="With --queue: rows per task."),
) -> None:
    """Propose values for a column, from the knowledge base first (web search only if configured).

    Nothing is written to the CSV: review the proposal with `cikb review`, then `cikb apply` it.
    Several columns in one job: repeat --column, each followed by its own --question,
    --formula, --strategy, --type, --options and --thoroughness (one given before the first
    --column is every column's); or give all the --column first and then each option once
    (for every column) or once per column, in the same order ('' for none); or describe the
    job in a TOML file (--job-file).
    Every run is a job (its id is printed first): each finished row is kept in the data
    directory's jobs database, so a killed run continues with `cikb enrich --resume ID`.
    A cell an earlier job answered for the same column, row and knowledge base (and LLM) is
    reused, not asked again, unless --fresh.
    Ctrl-C stops the run and still writes the proposal for the rows that finished.
    With --queue, `cikb worker` processes run the rows instead, each cell recorded once.
    """
    from cikb.app.jobs import load_job_file, run_job
    from cikb.core.errors import BadInputError
    from cikb.enrich import CancellationToken

    if wait and queue is None:
        raise BadInputError("--wait follows a job queued with --queue URL: a run without --queue is followed anyway")
    if queue is not None and resume:
        raise BadInputError("--resume runs a job here; a queued job's rows are run by its workers")
    described = [flag for flag, value in (("--column", column), ("--question", question), ("--formula", formula),
                                          ("--strategy", strategy), ("--thoroughness", thoroughness), ("--type", column_type),
                                          ("--options", options), ("--company-column", company_column), ("--out", out_path)) if value]
    for asked, by in ((resume, "--resume continues a job as it was asked"), (job_file, "--job-file describes the whole job")):
        if asked and described:  # never dropped unsaid: the run would write where the user did not ask
            raise BadInputError(f"{by}: {', '.join(described)} cannot be given with it"
                                + (" (in the file: `company_column`, `[[column]]` tables with `out`)" if by.startswith("--job") else ""))
    if resume:
        request = None
    elif job_file is not None:
        request = load_job_file(job_file, csv_path)
    else:
        given = {"strategy": strategy or [], "question": question or [], "formula": formula or [], "thoroughness": thoroughness or [],
                 "column_type": column_type or [], "options": options or []}
        given = _by_column(given, len(column or []), ctx.meta.get(OPTION_ORDER, []))
        request = _request(csv_path, column or [], company_column=company_column, out_path=out_path, **given)
    if queue is not None:
        _enrich_queued(request, queue, wait=wait, fresh=fresh, batch=batch, as_json=as_json)
        return
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
            return await run_job(settings(), request, resume=resume, on_job=on_job, fresh=fresh, on_progress=on_progress, cancel=token)

        job, proposals = asyncio.run(run())
    _report(job, proposals, as_json)


def _report(job, proposals, as_json: bool) -> None:
    """What a finished run prints: its proposals (whole with --json), a summary line each, reused cells, how to resume."""
    if as_json:  # the whole proposals, rows included, as written
        from cikb.enrich import load_proposal

        whole = [load_proposal(c.proposal_path) for c in job.request.columns if c.name in job.targets]
        print_json(whole[0] if len(whole) == 1 else [p.model_dump(mode="json") for p in whole])
    for proposal, column_request in zip(proposals, job.request.columns):
        _summary(proposal, Path(column_request.proposal_path))
    if job.reused:
        console.print(f"{job.reused} cell(s) reused from earlier jobs (same column, row and knowledge base; --fresh asks again)", highlight=False)
    if job.status != "done":
        console.print(f"continue it with `cikb enrich --resume {job.id}`", highlight=False)
        sys.exit(130)  # interrupted, as a shell expects after Ctrl-C (typer.Exit is swallowed outside standalone mode)


def _enrich_queued(request, url: str, *, wait: bool, fresh: bool, batch: int, as_json: bool) -> None:
    """`cikb enrich ... --queue URL [--wait]`: the job queued, its id printed; with --wait followed to its proposals."""
    from cikb.app.queue import enqueue_enrich, follow_enrich, where
    from cikb.enrich.proposal import load_proposal_head

    cfg = settings()
    job_id, rows = enqueue_enrich(cfg, url, request, fresh=fresh, batch=batch)
    tasks = -(-rows // batch)
    if not wait:
        if as_json:
            print_json({"job": job_id, "rows": rows, "tasks": tasks, "queue": where(url)})
        else:
            out.print(job_id, highlight=False)
            console.print(f"queued {rows} rows in {tasks} task(s) as job {job_id} on {safe(where(url))}: `cikb jobs --queue URL` shows "
                          "their progress", highlight=False, soft_wrap=True)
        return
    console.print(f"job {job_id}", highlight=False)
    with _progress_bar() as bar:
        task = bar.add_task(f"queued on {where(url)}"[:40], total=1.0)
        job = follow_enrich(cfg, url, job_id, on_progress=lambda done, total: bar.update(task, completed=done / total if total else 1.0),
                            on_notice=lambda line: bar.console.print(safe(line), highlight=False, soft_wrap=True))
    _report(job, [load_proposal_head(c.proposal_path) for c in job.request.columns if c.name in job.targets], as_json)


_PER_COLUMN = {"strategy": "--strategy", "question": "--question", "formula": "--formula", "thoroughness": "--thoroughness",
               "column_type": "--type", "options": "--options"}


def _by_column(given: dict[str, list[str]], columns: int, order: list[str]) -> dict[str, list[str]]:
    """Each per-column option as one value per column when the command line interleaves them
    (``--column A --type number --column B --type text``): an option belongs to the ``--column``
    written before it, and one written before the first ``--column`` is every column's ('' where
    a column has neither). Written all after the last ``--column``, or all before the first,
    the options keep their own pairing (once for all, or once per column in order)."""
    lanes = {field: [] for field in given}  # per occurrence: the index of the --column before it, -1 before any
    seen = -1
    for name in order:
        if name == "column":
            seen += 1
        elif name in lanes:
            lanes[name].append(seen)
    interleaved = any(0 <= lane < columns - 1 for field_lanes in lanes.values() for lane in field_lanes)
    if columns < 2 or not interleaved:
        return given
    from cikb.core.errors import BadInputError

    paired = {}
    for field, values in given.items():
        default = [v for v, lane in zip(values, lanes[field]) if lane < 0]
        per_column = {lane: v for v, lane in zip(values, lanes[field]) if lane >= 0}
        if len(default) > 1 or len(per_column) < sum(1 for lane in lanes[field] if lane >= 0):
            raise BadInputError(f"{_PER_COLUMN[field]} was given twice for one --column: give it once after each --column "
                                "it belongs to (see `cikb enrich --help`)")
        if values:
            paired[field] = [per_column.get(i, default[0] if default else "") for i in range(columns)]
        else:
            paired[field] = []
    return paired


def _request(csv_path: Path | None, columns: list[str], *, company_column: str | None, out_path: Path | None, **given: list[str]):
    """The job a new `cikb enrich` asks for; one usage error line when something is missing or does not pair up."""
    from cikb.app.jobs import ColumnRequest, JobRequest, proposal_path_for
    from cikb.core.errors import BadInputError

    for missing, value in (("argument 'CSV_PATH'", csv_path), ("option '--column'", columns or None)):
        if value is None:
            raise BadInputError(f"Missing {missing}: a new job needs the CSV and --column, `--resume ID` continues one "
                                "(see `cikb enrich --help`)")
    for field, values in given.items():
        if len(values) not in (0, 1, len(columns)):
            raise BadInputError(f"{_PER_COLUMN[field]} was given {len(values)} times for {len(columns)} columns: "
                                "give it once for all of them or once per column (see `cikb enrich --help`)")
    columns_asked = []
    for i, name in enumerate(columns):
        fields = {f: (v[i] if len(v) > 1 else v[0]) for f, v in given.items() if v}
        fields = {f: v for f, v in fields.items() if v != ""}  # '' leaves an option out for this column
        if "options" in fields:
            fields["options"] = fields["options"].split(",")
        folder = out_path if out_path is not None and len(columns) > 1 else None
        taken = [Path(c.proposal_path) for c in columns_asked]
        target = (out_path if out_path is not None and len(columns) == 1
                  else proposal_path_for(csv_path.resolve(), name, folder and folder.resolve(), taken=taken))
        columns_asked.append(ColumnRequest(name=name, proposal_path=str(target.resolve()), **fields))
    return JobRequest(csv_path=str(csv_path.resolve()), company_column=company_column, columns=columns_asked)


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
    console.print(safe(proposal.reasoning), highlight=False, soft_wrap=True)  # "found 3 of 4 rows (2 high, 1 medium)"
    if proposal.embedding_model:
        console.print(f"embedding model: {safe(proposal.embedding_model)}", highlight=False, soft_wrap=True)
    console.print(f"proposal written to {safe(target)}; review it with `cikb review {safe(target)}`", highlight=False, soft_wrap=True)


@app.command("review")
def review_command(
    proposal_path: Path = typer.Argument(..., help="A proposal written by `cikb enrich`."),
    as_json: bool = typer.Option(False, "--json", help="Print the rows as JSON."),
) -> None:
    """Show a proposal: each row's value, confidence, and where it came from (KB chunk or web page).

    Rows are numbered from 1, the table's first row after its header, as the review page numbers them (in --json,
    "row" is the 0-based index). Rows stream from the file, so a proposal for a table of any size is shown in bounded
    memory.
    """
    from itertools import chain, islice

    from cikb.enrich import review_rows
    from cikb.enrich.proposal import iter_research_log, load_proposal_head

    head = load_proposal_head(proposal_path)
    rows = review_rows(iter_research_log(proposal_path))
    if as_json:
        print_json_stream({"reasoning": head.reasoning, "target": head.target.model_dump()}, "rows", rows)
        return
    if (first := next(rows, None)) is None:  # a table without rows: still say what was asked and found
        out.print(safe(head.reasoning), highlight=False, soft_wrap=True)
        return
    rows = chain([first], rows)
    for number, batch in enumerate(iter(lambda: list(islice(rows, _REVIEW_BATCH)), [])):  # one table per batch: rich keeps a table whole
        table = RichTable(title=safe(head.reasoning) if number == 0 else None, title_justify="left", show_header=number == 0)
        for name in ("row", "label", "value", "confidence", "from", "source", "evidence / reason", "attempts"):
            table.add_column(name, overflow="fold")
        for row in batch:
            table.add_row(*_review_cells(row))
        out.print(table)


_REVIEW_BATCH = 500


def _review_cells(row: dict) -> list[str]:
    style = _STYLE.get(row["confidence"], "")
    why = safe(row["evidence"] or "").replace("«", "[bold]").replace("»", "[/bold]") if row["value"] else f"[dim]{safe(row['reason'] or '')}[/dim]"
    return [str(row["row"] + 1), safe(row["label"]), safe(row["value"]) if row["value"] else f"[dim]{safe(row['status'])}[/dim]",
            f"[{style}]{safe(row['confidence'])}[/{style}]", safe(row["answered_by"]), safe(row["source"] or ""), why,
            _attempts(row["attempts"])]


def _attempts(attempts: list[dict]) -> str:
    """A retried cell's attempts, one per line: number, value and confidence, the phrasing asked, why it was weak."""
    lines = []
    for a in attempts:
        value = f"{a['value']!r} {a['confidence']}" if a["value"] else a["status"].replace("_", " ")
        lines.append(f"{a['attempt']}{' (kept)' if a['kept'] else ''}: {value}; {a['question']}" + (f" — {a['why']}" if a["why"] else ""))
    return safe("\n".join(lines), multiline=True)


@app.command("apply")
def apply_command(
    proposal_paths: list[Path] = typer.Argument(..., metavar="PROPOSAL... CSV", help="Proposals written by `cikb enrich` (several: the columns of one job), then the CSV they were made for (checked by its content hash)."),
    out_path: Path | None = typer.Option(None, "--out", "-o", help="Where to write the enriched CSV (default: <csv>.enriched.csv)."),
    min_confidence: str = typer.Option("low", "--min-confidence", help="Apply only values at least this confident: high | medium | low."),
    column: str | None = typer.Option(None, "--column", help="Refuse unless the proposal fills this column."),
    force: bool = typer.Option(False, "--force", help="Overwrite the output file when it exists."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON (a list with several proposals)."),
) -> None:
    """Write the proposals' values into a copy of the CSV (atomically). Refuses a proposal made for another file or column.

    The CSV may also be the output of an earlier apply of the same table (its rows, and the
    cells the proposal was made from, unchanged), so columns can be applied one after another. An existing output is kept unless --force.
    """
    from cikb.core.errors import BadInputError
    from cikb.enrich import apply_proposals
    from cikb.enrich.proposal import APPLIED_CONFIDENCES

    if min_confidence not in APPLIED_CONFIDENCES:  # the library's check names its argument, this one the flag
        raise BadInputError(f"--min-confidence must be high, medium or low, not {min_confidence!r}")
    if len(proposal_paths) < 2:
        raise BadInputError("Missing argument 'CSV': give the proposal(s), then the CSV they were made for (see `cikb apply --help`)")
    *proposals, csv_path = proposal_paths
    target = out_path or csv_path.with_name(f"{csv_path.stem}.enriched.csv")
    results = apply_proposals(proposals, csv_path, target, min_confidence=min_confidence, column=column, force=force)  # type: ignore[arg-type]
    if as_json:
        print_json(results[0] if len(results) == 1 else [r.model_dump() for r in results])
        return
    for result in results:
        console.print(
            f"wrote {safe(result.out)}: {result.updated} cell(s) of {safe(repr(result.column))} filled"
            + (f" ({result.replaced} over a value the table had)" if result.replaced else "") + "; "
            f"{result.below_min_confidence} below {min_confidence} confidence left as they were; {result.not_found} row(s) without a value",
            highlight=False, soft_wrap=True,
        )
