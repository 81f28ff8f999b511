"""`cikb gather`, `cikb companies`, `cikb forget`: build and inspect the knowledge base."""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Self, TextIO

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from cikb.cli._app import app, console, out, print_json, settings
from cikb.cli._text import plain, safe
from cikb.core.errors import BadInputError, GatherFailedError

if TYPE_CHECKING:  # the pipeline (crawler, cleaner, embedder, store) loads only when a command of this module runs
    from cikb.app.batch import BatchEvent, CompanyResult
    from cikb.app.models import GatherEvent, GatherSummary
    from cikb.core.config import Settings
    from cikb.core.models import SourceSummary


@app.command("gather")
def gather_cmd(
    company: Optional[str] = typer.Argument(None, help='The company\'s name, e.g. "Acme Corp" (its slug, acme-corp, keys everything).', show_default=False),
    website: Optional[str] = typer.Option(None, "--website", help="The company's website; crawled within its registered domain."),
    wikipedia: Optional[str] = typer.Option(None, "--wikipedia", help="Wikipedia article URL, or its title (looked up under \\[gather] wikipedia_base_url)."),
    news: Optional[list[str]] = typer.Option(None, "--news", help="News page or RSS/Atom feed URL (repeatable)."),
    crunchbase: Optional[str] = typer.Option(None, "--crunchbase", help="Crunchbase organisation URL or name (robots.txt may forbid it: reported, not an error)."),
    max_pages: Optional[int] = typer.Option(None, "--max-pages", min=1, help="Pages per source at most (default: \\[gather] max_pages_per_source, 20 unless set)."),
    delay: Optional[float] = typer.Option(None, "--delay", min=0, help="Seconds between requests to one domain, counted from the previous answer (default: \\[gather] download_delay, 1 unless set)."),
    from_csv: Optional[Path] = typer.Option(
        None, "--from-csv", metavar="FILE",
        help="Gather every company of a CSV instead: a Company column and optional Website, Wikipedia, News (URLs separated by spaces) "
        "and Crunchbase columns, any case. Companies on different domains run in parallel (\\[gather] max_parallel_companies).",
    ),
    max_age: Optional[str] = typer.Option(
        None, "--max-age", metavar="DURATION",
        help="Take a page fetched live within this long (1d, 12h, 30m, 90s, 1h30m, or seconds) from the HTTP cache without a request, "
        "counted as cached (default: \\[gather] max_age, 0 unless set: every stored page asked again).",
    ),
    full: bool = typer.Option(False, "--full", help="Ignore the caches: download every page in full (no conditional requests) and embed every chunk again."),
    replace: bool = typer.Option(
        False, "--replace",
        help="The company's website moved to another domain: replace the company of this name gathered from its old domain "
        "(without it, a --website on none of the domains the company was gathered from is refused as another company's).",
    ),
    queue: Optional[str] = typer.Option(
        None, "--queue", metavar="URL",
        help="With --from-csv: queue one task per company on this Redis broker (redis://HOST:PORT/N) for `cikb worker` processes, "
        "print the job's id and return (`cikb jobs --queue URL` shows its progress).",
    ),
    wait: bool = typer.Option(False, "--wait", help="With --queue: follow the queued companies as the workers gather them, shown as a local run, and end with its summary "
                              "(one line says so when no worker is alive on the broker, and the wait goes on)."),
    as_json: bool = typer.Option(False, "--json", help="Print the run summary as JSON (with --from-csv: a list, one object per company)."),
) -> None:
    """Gather a company's public sources into the knowledge base (replacing its previous gather).

    Fetches politely (robots.txt and its Crawl-delay, one request per second per domain,
    text/html only), cleans to English Markdown in data/<slug>/raw/, chunks, embeds and stores
    the chunks, each page as it arrives. A re-gather asks the server whether each page changed
    (ETag, Last-Modified) and embeds only chunk texts it has not embedded before (--full ignores
    both caches); with --max-age, a page fetched live within that time is not asked for at
    all. A page whose server cannot be reached is kept from the last gather and counted as
    unreachable, not fetched. A gather that yields nothing, or reaches no live
    page, leaves the previous knowledge base untouched and exits non-zero. The summary ends
    with one line saying what changed since the previous gather (`cikb changes` lists them).
    Given no source, a company gathered before is gathered again from its last gather's sources.

    With --from-csv, every company of the file is gathered the same way and summarised in
    a row of one table (a failure's reason once, in its row); a company that fails does not
    stop the others, and the command exits non-zero counting the ones that failed. With
    --queue, the companies are gathered by `cikb worker` processes on any machine instead.
    """
    from cikb.app.pipeline import gather_company

    cfg = settings()
    if max_pages is not None:
        cfg.gather.max_pages_per_source = max_pages
    if delay is not None:
        if not math.isfinite(delay):  # Typer's min=0 lets "inf" through; the crawler's process then failed reading it
            raise BadInputError(f"--delay must be a number of seconds, not {delay}")
        cfg.gather.download_delay = delay
    if max_age is not None:
        cfg.gather.max_age = _duration("--max-age", max_age)
    sources = {"website": website, "wikipedia": wikipedia, "news": news or None, "crunchbase": crunchbase}
    if from_csv is not None:
        if company is not None or any(sources.values()):
            raise BadInputError("--from-csv reads the companies and their sources from the file: give no company name or source option with it")
        if replace:  # one company's move, said by the user for that company
            raise BadInputError("--replace goes with one company's gather (COMPANY --website URL), not with --from-csv")
        if wait and queue is None:
            raise BadInputError("--wait follows the companies queued with --queue URL: a run without --queue is followed anyway")
        if queue is not None:
            gather_queued(cfg, from_csv, queue, wait, as_json, full)
        else:
            gather_csv(cfg, from_csv, as_json, full)
        return
    if queue is not None or wait:
        raise BadInputError("--queue and --wait go with --from-csv FILE")
    if company is None:
        raise BadInputError("Missing argument 'company' (or --from-csv FILE). (see `cikb gather --help`)")
    given = {k: v for k, v in sources.items() if v} or _recorded(cfg, company)
    website_given = given.get("website") or []  # one URL typed, or the list a last gather recorded
    _say_kept_as(cfg, company, [website_given] if isinstance(website_given, str) else website_given, replace)
    with GatherProgress(cfg.gather.max_pages_per_source) as progress:
        summary = gather_company(cfg, company, given, on_event=progress.update, full=full, replace=replace)
    if as_json:
        print_json(summary)
    else:
        print_summary(summary)


def _say_kept_as(cfg, company: str, websites: list[str], replace: bool) -> None:  # noqa: ANN001 - Settings
    """One line when the name is that of a company gathered before under another slug ("Acme Corporation" after
    "Acme"): the gather goes to that company, and the user sees which (an error line when the name is another's)."""
    from cikb.app.pipeline import company_kept_as
    from cikb.core.slug import company_from_name

    kept = company_kept_as(cfg, company, websites, replace=replace)
    if kept.slug != company_from_name(company).slug:
        console.print(f"{safe(company)} is {kept.slug} ({safe(kept.name)}), gathered here before: gathering it again",
                      highlight=False, soft_wrap=True)


def _recorded(cfg, company: str) -> dict[str, list[str]]:  # noqa: ANN001 - Settings
    """No source given: a company gathered before is gathered again from the sources its last gather crawled."""
    from cikb.app.pipeline import recorded_sources

    recorded = recorded_sources(cfg, company)
    if not recorded:
        raise BadInputError(f"no source given, and {company!r} was never gathered here: name at least one of --website, "
                            "--wikipedia, --news, --crunchbase")
    said = "; ".join(f"{kind} {' '.join(urls)}" for kind, urls in recorded.items())
    console.print(f"gathering {safe(company)} again from the sources of its last gather: {safe(said)}", highlight=False, soft_wrap=True)
    return recorded


def _duration(option: str, text: str) -> float:
    from cikb.core.config import parse_duration

    try:
        return parse_duration(text)
    except ValueError as err:
        raise BadInputError(f"{option} {err}") from None


def gather_csv(cfg: Settings, path: Path, as_json: bool, full: bool = False) -> None:
    """`cikb gather --from-csv FILE`: every company of the file, a summary per company, failures named at the end."""
    from cikb.app.batch import gather_many, read_company_rows

    rows = read_company_rows(path)
    with BatchProgress(len(rows), cfg.gather.max_pages_per_source) as progress:
        results = gather_many(cfg, rows, on_event=progress.update, full=full)
    _report_batch(results, as_json)


def _report_batch(results: list, as_json: bool) -> None:
    """A list's results as one table (or --json); a GatherFailedError naming the failures, if any."""
    from cikb.app.batch import failures_line

    if as_json:
        print_json([r.model_dump(mode="json") for r in results])
    else:
        print_batch_summary(results)
    failed = failures_line(results)
    if failed:
        raise GatherFailedError(failed)


def gather_queued(cfg: Settings, path: Path, url: str, wait: bool, as_json: bool, full: bool = False) -> None:
    """`cikb gather --from-csv FILE --queue URL [--wait]`: one task per company for the workers; followed with --wait."""
    from cikb.app.batch import read_company_rows
    from cikb.app.queue import enqueue_gather, follow, where

    rows = read_company_rows(path)
    job_id = enqueue_gather(cfg, url, rows, source=str(path), full=full)
    if not wait:
        if as_json:
            print_json({"job": job_id, "companies": len(rows), "queue": where(url)})
        else:
            out.print(job_id, highlight=False)
            console.print(f"queued {len(rows)} companies as job {job_id} on {safe(where(url))}: `cikb jobs --queue URL` shows their progress",
                          highlight=False, soft_wrap=True)
        return
    console.print(f"job {job_id}: {len(rows)} companies queued on {safe(where(url))}", highlight=False, soft_wrap=True)
    with BatchProgress(len(rows), cfg.gather.max_pages_per_source) as progress:
        notice = lambda line: progress.progress.console.print(safe(line), highlight=False, soft_wrap=True)  # noqa: E731
        results = follow(url, job_id, on_event=progress.update, on_notice=notice)
    _report_batch(results, as_json)


@app.command("companies")
def companies_cmd(as_json: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """List the companies in the knowledge base: documents, chunks, model, last gather."""
    from cikb.app.kb import company_statuses

    statuses = company_statuses(settings())
    if as_json:
        print_json([s.model_dump(mode="json") for s in statuses])
        return
    if not statuses:
        console.print("The knowledge base is empty: run `cikb gather` first.")
        return
    table = Table("company", "name", "documents", "chunks", "model", "last gather")
    for s in statuses:
        table.add_row(safe(s.slug), safe(s.name), str(s.documents), str(s.chunks), safe(s.model or "-"), _minutes(s.gathered_at))
    out.print(table)


@app.command("forget")
def forget_cmd(
    company: str = typer.Argument(..., help="The company's slug, as `cikb companies` lists it."),
    as_json: bool = typer.Option(False, "--json", help="Print what was removed as JSON."),
) -> None:
    """Remove exactly one company: its raw files and its points in the store."""
    from cikb.app.kb import forget_company
    from cikb.cli.kb_cmd import require_slug

    cfg = settings()
    require_slug(cfg, company, "forget")  # a name: the slug to use, never a company picked by a name
    removed = forget_company(cfg, company)
    if as_json:
        print_json(removed)
    else:
        console.print(f"forgot {safe(company)}: {removed['points']} points, {removed['documents']} raw documents", highlight=False)


def _minutes(iso: str | None) -> str:
    """`2026-11-22T05:49:35.81+00:00` -> `2026-11-22 05:49 UTC` (JSON output keeps the full time)."""
    return f"{iso[:10]} {iso[11:16]} UTC" if iso else "-"


class _LiveProgress:
    """Rich progress bars on stderr, shown while the ``with`` block runs, and cleared after it."""

    def __init__(self, page_budget: int, live_console: Console = console) -> None:
        self.page_budget = page_budget
        self.progress = Progress(
            TextColumn("{task.description:<28}"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[note]}"), TimeElapsedColumn(),
            console=live_console,
            transient=True,  # gone when done: the summary (or a failure's one line) says what happened
        )

    def __enter__(self) -> Self:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()


class GatherProgress(_LiveProgress):
    """A live display of a gather: one bar per source, then clean / embed / store."""

    def __init__(self, page_budget: int) -> None:
        super().__init__(page_budget)
        self.sources: dict[int, TaskID] = {}
        self.stages: dict[str, TaskID] = {}

    def update(self, event: GatherEvent) -> None:
        if event.crawl is not None:
            self._crawl(event)
        else:
            task = self._stage_task(event.stage)
            self.progress.update(task, completed=event.done, total=event.total, note=safe(event.message))

    def _crawl(self, event: GatherEvent) -> None:
        crawl = event.crawl
        task = self.sources.get(crawl.source_index)
        if task is None:
            task = self.progress.add_task(f"crawl {crawl.source_type}", total=self.page_budget, note="")
            self.sources[crawl.source_index] = task
        if crawl.kind == "page_fetched":
            self.progress.advance(task)
            self.progress.update(task, note=safe(crawl.url or ""))
        elif crawl.kind == "page_dropped":
            self.progress.update(task, note=safe(f"dropped ({crawl.reason})"))
        elif crawl.kind == "source_finished" and crawl.summary is not None:
            s = crawl.summary
            self.progress.update(task, total=max(s.fetched, 1), completed=s.fetched, note=safe(s.error or f"{s.fetched} pages"))

    def _stage_task(self, stage: str) -> TaskID:
        if stage not in self.stages:
            self.stages[stage] = self.progress.add_task(safe(stage), total=None, note="")
        return self.stages[stage]


class BatchProgress(_LiveProgress):
    """A live display of `gather --from-csv`: companies done of all, and one line per running company.

    A running company's bar counts its pages fetched (of its sources' page budget); its note
    says the page or stage. A finished company leaves one `ok` or `failed` line above the display.
    """

    def __init__(self, companies: int, page_budget: int) -> None:
        # The embedded store points fd 2 at /dev/null while it loads (cikb.store.edge), whichever thread
        # asks: a line another company's thread printed meanwhile was lost. A copy of fd 2 is not redirected.
        self.stderr = _own_stderr()
        super().__init__(page_budget, Console(file=self.stderr) if self.stderr else console)
        self.overall = self.progress.add_task("companies", total=companies, note="")
        self.running: dict[int, TaskID] = {}

    def __exit__(self, *exc: object) -> None:
        super().__exit__(*exc)
        if self.stderr is not None:
            self.stderr.close()

    def update(self, event: BatchEvent) -> None:
        row = event.row
        if event.kind == "started":
            pages = self.page_budget * max(len(row.sources), 1)
            self.running[row.number] = self.progress.add_task(safe(row.name[:28]), total=pages, note="starting")
        elif event.kind == "progress" and event.event is not None and row.number in self.running:
            self._step(self.running[row.number], event.event)
        elif event.kind == "finished" and event.result is not None:
            task = self.running.pop(row.number, None)
            if task is not None:
                self.progress.remove_task(task)
            self.progress.advance(self.overall)
            self.progress.console.print(_outcome_line(event.result), highlight=False, markup=False)

    def _step(self, task: TaskID, event: GatherEvent) -> None:
        crawl = event.crawl
        if crawl is None:
            self.progress.update(task, note=safe(f"{event.stage} {event.message}".strip()))
        elif crawl.kind == "page_fetched":
            self.progress.advance(task)
            self.progress.update(task, note=safe(crawl.url or ""))


def _own_stderr() -> TextIO | None:
    """A stream on a copy of this process's stderr (None where stderr is no file, as under a test runner's capture)."""
    try:
        return os.fdopen(os.dup(sys.stderr.fileno()), "w", encoding="utf-8", errors="replace")
    except (AttributeError, OSError, ValueError):
        return None


def _outcome_line(result: CompanyResult) -> str:
    """A finished company's one line while the others run; a failure's reason waits for the table (an
    interruption's is said here: no table follows it)."""
    from cikb.app.batch import INTERRUPTED

    name = plain(result.company.name) or "(no name)"
    if result.status == "ok":
        trouble = f"; {result.reason}" if result.reason else ""  # a source that failed beside one that gathered
        return f"ok      {name} (row {result.row}): {result.documents} documents, {result.chunks} chunks, {result.seconds:.1f} s{trouble}"
    if result.error == INTERRUPTED:
        return f"failed  {name} (row {result.row}): {INTERRUPTED}"
    return f"failed  {name} (row {result.row})"


def print_batch_summary(results: list[CompanyResult]) -> None:
    """One table, one row per company; a failure's reason (for a company gathered, what a source could not do), under 120
    characters, in its row (`--json` has the whole text)."""
    table = Table("row", "company", "slug", "status", "fetched", "documents", "chunks", "seconds",
                  title=f"gathered {sum(r.status == 'ok' for r in results)} of {len(results)} companies")
    table.add_column("reason", overflow="fold", min_width=24)  # a narrow terminal wraps it, never cuts a word short
    for r in results:
        fetched = sum(s.fetched for s in r.sources)
        table.add_row(str(r.row), safe(r.company.name), safe(r.company.slug or "-"), r.status, str(fetched), str(r.documents), str(r.chunks),
                      f"{r.seconds:.1f}", safe(r.reason or ""))
    out.print(table)


def source_notes(s: SourceSummary) -> list[str]:
    """What a source's row cannot say: pages kept from the cache, robots.txt's say, pages timed out."""
    from cikb.app.pipeline import unreachable_note

    notes = [note for note in (unreachable_note(s),) if note]
    if s.cached:
        notes.append(f"{s.cached} page{'s' if s.cached != 1 else ''} taken from the cache without a request (fetched live within --max-age)")
    if s.unreachable and s.robots_unavailable:
        notes.append(s.robots_unavailable)
    if s.crawl_delay:
        notes.append(f"robots.txt Crawl-delay {s.crawl_delay:g} s honoured (longer than the configured delay)")
    if s.timed_out:
        notes.append(f"{len(s.timed_out)} timed out: {', '.join(s.timed_out)}")
    return notes


def print_summary(summary: GatherSummary) -> None:
    table = Table("source", "fetched", "redirected", "kept", "dropped", "documents", "chunks", "seconds",
                  title=f"gathered {safe(summary.company.name)} ({safe(summary.company.slug)})")
    for s in summary.sources:
        dropped = ", ".join(f"{n} {reason}" for reason, n in sorted(s.dropped.items())) or "-"
        if s.time_budget_spent:
            dropped = f"{dropped}; time budget spent"
        if s.error:
            dropped = f"{dropped}; error: {s.error}"
        table.add_row(safe(s.source_type), str(s.fetched), str(s.redirected), str(s.kept), safe(dropped), str(s.documents), str(s.chunks), f"{s.seconds:.1f}")
    out.print(table)
    for s in summary.sources:
        for note in source_notes(s):
            out.print(f"{s.source_type}: {plain(note)}", highlight=False, markup=False)
    out.print(f"{summary.documents} documents in {plain(summary.raw_dir)}/, {summary.chunks} chunks stored "
              f"({summary.embedded} embedded, {summary.reused} reused), {summary.seconds:.1f} s", highlight=False, markup=False)
    if summary.stage_seconds:
        out.print("seconds by stage: " + ", ".join(f"{stage} {seconds:.1f}" for stage, seconds in summary.stage_seconds.items()), highlight=False, markup=False)
    out.print(f"embedding model: {plain(summary.model)}", highlight=False, markup=False)
    if summary.changes is not None:
        from cikb.app.changes import changes_line

        out.print(plain(changes_line(summary.changes)), highlight=False, markup=False)
