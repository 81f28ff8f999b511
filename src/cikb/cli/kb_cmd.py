"""`cikb rebuild`: chunk and embed companies again from their raw documents (the repair for damage)."""

from __future__ import annotations

from typing import Optional

import typer
from rich.markup import escape
from rich.table import Table

from cikb.cli._app import app, console, out, print_json, settings
from cikb.core.errors import BadInputError


@app.command("rebuild")
def rebuild_cmd(
    company: Optional[str] = typer.Argument(None, help="The company's slug, as `cikb companies` lists it."),
    all_companies: bool = typer.Option(False, "--all", help="Every company, and the store itself (after it was damaged or deleted, or the embedding model changed)."),
    as_json: bool = typer.Option(False, "--json", help="Print what was rebuilt as JSON."),
) -> None:
    """Rebuild a company's chunks and points from its raw Markdown in data/<slug>/raw/, like a gather without the web.

    The new generation is committed like a gather's (all-or-nothing, under the company's lock).
    `--all` rebuilds every company into an emptied store: the repair for a damaged or deleted
    store, or for a knowledge base built with another embedding model.
    """
    from cikb.app.kb import rebuild_all, rebuild_company

    if all_companies == (company is not None):
        raise BadInputError("name one company to rebuild, or --all for every company and the store")
    cfg = settings()

    def progress(message: str) -> None:
        console.print(escape(message), highlight=False)

    summaries = rebuild_all(cfg, on_progress=progress) if all_companies else [rebuild_company(cfg, company or "", on_progress=progress)]
    if as_json:
        print_json([s.model_dump(mode="json") for s in summaries])
        return
    if not summaries:
        console.print("The knowledge base holds no company: the store is empty now.")
        return
    table = Table("company", "name", "documents", "chunks", "generation", title="rebuilt")
    for s in summaries:
        table.add_row(s.company, s.name, str(s.documents), str(s.chunks), s.generation)
    out.print(table)
    out.print(f"embedding model: {summaries[0].model}; {summaries[-1].seconds:.1f} s", highlight=False)
