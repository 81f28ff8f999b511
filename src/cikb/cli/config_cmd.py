"""`cikb config`: print the effective configuration, or the reference of every setting."""

from __future__ import annotations

import typer

from cikb.cli._app import app, out, print_json, settings
from cikb.core.config import config_reference_markdown


@app.command("config")
def show_config(
    reference: bool = typer.Option(False, "--reference", help="Print the Markdown reference of every setting (as in the README) instead."),
    as_json: bool = typer.Option(False, "--json", help="JSON (the default output already is: the flag is accepted like every command's)."),
) -> None:
    """Print every setting with its effective value as JSON (defaults < cikb.toml < CIKB_* environment < flags).

    Secrets (API keys, credentials in URLs) are shown as ****.
    """
    if reference:
        out.print(config_reference_markdown(), markup=False, highlight=False)
        return
    print_json(settings().masked_dump())
