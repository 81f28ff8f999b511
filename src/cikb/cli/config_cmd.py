"""`cikb config`: print the effective configuration, or the reference of every setting."""

from __future__ import annotations

import typer

from cikb.cli._app import app, out, print_json, settings
from cikb.core.config import config_reference_json, config_reference_markdown


@app.command("config")
def show_config(
    reference: bool = typer.Option(False, "--reference", help="Print the reference of every setting instead: Markdown (as in the README), or JSON with --json."),
    as_json: bool = typer.Option(
        False, "--json",
        help="JSON: the effective configuration already is; with --reference, a list of {env, toml, default, description}.",
    ),
) -> None:
    """Print every setting with its effective value as JSON (defaults < cikb.toml < CIKB_* environment < flags).

    Secrets (API keys, credentials in URLs) are shown as ****.
    """
    if reference and as_json:
        print_json(config_reference_json())
    elif reference:
        out.print(config_reference_markdown(), markup=False, highlight=False)
    else:
        print_json(settings().masked_dump())
