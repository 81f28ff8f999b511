"""`cikb config`: print the effective configuration."""

from __future__ import annotations

import typer

from cikb.cli._app import app, print_json, settings


@app.command("config")
def show_config(
    as_json: bool = typer.Option(False, "--json", help="Print as JSON (it is JSON either way; kept for symmetry)."),
) -> None:
    """Print every setting with its effective value (defaults < file < environment < flags)."""
    print_json(settings().model_dump(mode="json"))
