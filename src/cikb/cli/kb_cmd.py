"""`cikb rebuild`: chunk and embed companies again from their raw documents (the repair for damage)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import typer
from rich.markup import escape
from rich.table import Table

from cikb.cli._app import app, console, out, print_json, settings
from cikb.core.errors import BadInputError

if TYPE_CHECKING:
    from cikb.core.config import Settings


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
    if company is not None:
        require_slug(cfg, company, "rebuild")

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


def require_slug(cfg: Settings, company: str, command: str) -> None:
    """BadInputError naming the slug to use when ``company`` is a gathered company's name rather than its slug.

    `cikb rebuild` and `cikb forget` take slugs only: they rewrite or remove a company, which a name that resembles
    another's must never pick; but a user who typed the name is told the slug (by identity, as `--company` resolves)."""
    from cikb.app.workspace import gathered_identities
    from cikb.retrieve.companies import resolve_company

    identities = gathered_identities(cfg.data_dir)
    slug = None if company in identities else resolve_company(company, identities)
    if slug is not None:
        raise BadInputError(f"`cikb {command}` takes a company's slug, as `cikb companies` lists it: {company!r} is {slug!r} "
                            f"(`cikb {command} {slug}`)")
