"""`cikb changes`: what each gather of a company changed (issue 25, item 3)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import typer

from cikb.cli._app import app, out, print_json, settings
from cikb.cli._text import plain

if TYPE_CHECKING:
    from cikb.app.models import GatherChanges


@app.command("changes")
def changes_cmd(
    company: str = typer.Argument(..., help="The company's slug, as `cikb companies` lists it, or its name."),
    since: Optional[str] = typer.Option(None, "--since", metavar="DATE", help="Only gathers from this date (YYYY-MM-DD, UTC) or ISO time on."),
    as_json: bool = typer.Option(False, "--json", help="Print a list, one object per gather, oldest first."),
) -> None:
    """List what every gather of a company changed: pages new, changed (another content hash) and removed;
    chunks embedded and reused; and the facts document's values (address, phone, e-mail, people and
    roles, funding, legal name...) added and removed, each with its page. `cikb forget` removes the history."""
    from cikb.app.changes import company_history, parse_since

    history = company_history(settings(), company, parse_since(since) if since else None)
    if as_json:
        print_json([gather.model_dump(mode="json") for gather in history])
        return
    if not history:
        out.print(f"no gather of {plain(company)} recorded{' since ' + plain(since) if since else ''}", highlight=False, markup=False)
    for gather in history:
        print_gather(gather)


def print_gather(changes: GatherChanges) -> None:
    """A heading line with the counts, then one line per page and per fact value changed."""
    from cikb.app.changes import fact_note, shown_facts

    counts = (f"{changes.pages_changed} changed, {changes.pages_new} new, {changes.pages_removed} removed, {changes.pages_unchanged} unchanged pages; "
              f"{changes.chunks_embedded} chunks embedded, {changes.chunks_reused} reused")
    first = " (first gather)" if changes.first else ""
    out.print(f"{changes.gathered_at:%Y-%m-%d %H:%M} UTC{first}: {counts}", highlight=False, markup=False)
    for page in changes.pages:
        out.print(f"  {page.change:<8} {plain(page.url)}", highlight=False, markup=False)
    for fact in shown_facts(changes):
        out.print(f"  {plain(fact_note(fact))}  ({plain(fact.page)})", highlight=False, markup=False)
    if not changes.pages and not changes.facts:
        out.print("  nothing changed", highlight=False, markup=False)
