"""`cikb gather`, `cikb companies`, `cikb forget`: build and inspect the knowledge base."""

from __future__ import annotations

from typing import Optional

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from cikb.app.kb import company_statuses, forget_company
from cikb.app.models import GatherEvent, GatherSummary
from cikb.app.pipeline import gather_company
from cikb.cli._app import app, console, out, print_json, settings
from cikb.cli._text import plain, safe


@app.command("gather")
def gather_cmd(
    company: str = typer.Argument(..., help='The company\'s name, e.g. "Acme Corp" (its slug, acme-corp, keys everything).'),
    website: Optional[str] = typer.Option(None, "--website", help="The company's website; crawled within its registered domain."),
    wikipedia: Optional[str] = typer.Option(None, "--wikipedia", help="Wikipedia article URL, or its title (looked up under \\[gather] wikipedia_base_url)."),
    news: Optional[list[str]] = typer.Option(None, "--news", help="News page or RSS/Atom feed URL (repeatable)."),
    crunchbase: Optional[str] = typer.Option(None, "--crunchbase", help="Crunchbase organisation URL or name (robots.txt may forbid it: reported, not an error)."),
    max_pages: Optional[int] = typer.Option(None, "--max-pages", min=1, help="Pages per source at most (default from config: 20)."),
    delay: Optional[float] = typer.Option(None, "--delay", min=0, help="Seconds between requests to one domain (default from config: 1)."),
    as_json: bool = typer.Option(False, "--json", help="Print the run summary as JSON."),
) -> None:
    """Gather a company's public sources into the knowledge base (replacing its previous gather).

    Fetches politely (robots.txt, one request per second per domain, text/html only), cleans
    to English Markdown in data/<slug>/raw/, chunks, embeds and stores the chunks. A gather
    that yields nothing leaves the previous knowledge base untouched and exits non-zero.
    """
    cfg = settings()
    if max_pages is not None:
        cfg.gather.max_pages_per_source = max_pages
    if delay is not None:
        cfg.gather.download_delay = delay
    sources = {"website": website, "wikipedia": wikipedia, "news": news or None, "crunchbase": crunchbase}
    with GatherProgress(cfg.gather.max_pages_per_source) as progress:
        summary = gather_company(cfg, company, {k: v for k, v in sources.items() if v}, on_event=progress.update)
    if as_json:
        print_json(summary)
    else:
        print_summary(summary)


@app.command("companies")
def companies_cmd(as_json: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """List the companies in the knowledge base: documents, chunks, model, last gather."""
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
    removed = forget_company(settings(), company)
    if as_json:
        print_json(removed)
    else:
        console.print(f"forgot {safe(company)}: {removed['points']} points, {removed['documents']} raw documents", highlight=False)


def _minutes(iso: str | None) -> str:
    """`2026-11-22T05:49:35.81+00:00` -> `2026-11-22 05:49 UTC` (JSON output keeps the full time)."""
    return f"{iso[:10]} {iso[11:16]} UTC" if iso else "-"


class GatherProgress:
    """A live display of a gather: one bar per source, then clean / embed / store."""

    def __init__(self, page_budget: int) -> None:
        self.page_budget = page_budget
        self.progress = Progress(
            TextColumn("{task.description:<28}"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[note]}"), TimeElapsedColumn(), console=console
        )
        self.sources: dict[int, TaskID] = {}
        self.stages: dict[str, TaskID] = {}

    def __enter__(self) -> GatherProgress:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

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


def print_summary(summary: GatherSummary) -> None:
    table = Table("source", "fetched", "kept", "dropped", "documents", "chunks", "seconds",
                  title=f"gathered {safe(summary.company.name)} ({safe(summary.company.slug)})")
    for s in summary.sources:
        dropped = ", ".join(f"{n} {reason}" for reason, n in sorted(s.dropped.items())) or "-"
        if s.time_budget_spent:
            dropped = f"{dropped}; time budget spent"
        if s.error:
            dropped = f"{dropped}; error: {s.error}"
        table.add_row(safe(s.source_type), str(s.fetched), str(s.kept), safe(dropped), str(s.documents), str(s.chunks), f"{s.seconds:.1f}")
    out.print(table)
    for s in summary.sources:
        if s.timed_out:
            out.print(f"{s.source_type}: {len(s.timed_out)} timed out: {', '.join(s.timed_out)}", highlight=False, markup=False)
    out.print(f"{summary.documents} documents in {plain(summary.raw_dir)}/, {summary.chunks} chunks stored, {summary.seconds:.1f} s",
              highlight=False, markup=False)
    out.print(f"embedding model: {plain(summary.model)}", highlight=False, markup=False)
