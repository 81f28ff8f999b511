"""`cikb serve`: the local review page (companies and their documents, ask, search, jobs, proposals to review and apply)."""

from __future__ import annotations

from pathlib import Path

import typer

from cikb.cli._app import app, console, out, settings
from cikb.cli._text import safe
from cikb.core.errors import BadInputError


@app.command("serve")
def serve_cmd(
    host: str = typer.Option("127.0.0.1", "--host", help="The address to listen on. Keep the loopback default: anyone who can reach the port and has the token can act."),
    port: int = typer.Option(8484, "--port", "-p", min=0, max=65535, help="The port to listen on (0: any free port)."),
    token: str | None = typer.Option(None, "--token", envvar="CIKB_SERVE_TOKEN", help="The token every request must carry (default: a new random one per start). Env: CIKB_SERVE_TOKEN."),
    proposals: Path = typer.Option(Path("."), "--proposals", help="The folder whose *.proposal.json files the review page lists (default: the current one)."),
    allow_host: list[str] = typer.Option([], "--allow-host", help="A further host name (or address) requests may name in their Host header, e.g. this machine's name when --host is 0.0.0.0; repeatable. Any other name is refused."),
) -> None:
    """Serve a local review page: companies and their documents, ask with citations, search with its trace, enrichment jobs, proposals to accept or reject cell by cell, apply and download.

    Prints http://127.0.0.1:PORT/?token=... and opens nothing by itself. Every request needs that token (the page keeps it in a cookie); changes are POST forms carrying it; requests naming another Host are refused. Ctrl-C stops it.
    """
    from cikb.web import Guard, bind, new_token, serve

    if token is not None and len(token.strip()) < 16:
        raise BadInputError("--token must be at least 16 characters (leave it out for a random one)")
    if token is not None and not (token.strip().isascii() and token.strip().isprintable()):
        # The token travels in a cookie and a header, which carry Latin-1 at most: "€" would make the printed URL fail.
        raise BadInputError("--token must be printable ASCII (letters, digits, punctuation; leave it out for a random one)")
    if not proposals.is_dir():
        raise BadInputError(f"--proposals: no such folder: {proposals}")
    cfg = settings()
    sock = bind(host, port)
    guard = Guard(token=(token or new_token()).strip(), host=host, port=sock.getsockname()[1], extra_hosts=tuple(allow_host))
    console.print(f"cikb review page for {safe(cfg.data_dir)}; proposals from {safe(proposals.resolve())}; Ctrl-C stops it", highlight=False, soft_wrap=True)
    if guard.exposed:
        names = ", ".join(sorted(guard.allowed_hosts()))
        console.print(f"[yellow]warning:[/yellow] {safe(host)} is not loopback: plain HTTP, and anyone who can reach the port with the token can act; "
                      f"requests must name one of {safe(names)} (add names with --allow-host)", highlight=False, soft_wrap=True)
    out.print(guard.url(), markup=False, highlight=False, soft_wrap=True)
    serve(cfg, guard, proposals.resolve(), sock)
