"""`cikb mcp`: the knowledge base as an MCP server on stdio, for editors, chat clients and agents."""

from __future__ import annotations

import typer

from cikb.cli._app import app, console, settings
from cikb.cli._text import safe


@app.command("mcp")
def mcp_cmd(
    allow_gather: bool = typer.Option(False, "--allow-gather", help="Offer the gather tool too: the client may crawl a company's public sources into the knowledge base. Without it the server only reads."),
) -> None:
    """Serve the knowledge base over the Model Context Protocol on stdin/stdout (an MCP client starts it).

    Tools: search, ask, companies and enrichment_status, each returning the fields the matching
    command prints with --json (ask's citations and sources included); gather (one at a time, pages
    bounded by \\[gather] max_pages_per_source, with progress notifications) only with --allow-gather.
    Stdout carries the protocol alone; notices go to stderr. It stops when the client closes stdin.
    """
    from cikb.app.mcp_server import serve_stdio

    cfg = settings()
    reach = "gather allowed" if allow_gather else "read-only"
    console.print(f"cikb MCP server on stdio for {safe(cfg.data_dir)} ({reach}); stops when the client closes stdin",
                  highlight=False, soft_wrap=True)  # stderr: stdout is the protocol's
    serve_stdio(cfg, allow_gather=allow_gather)
