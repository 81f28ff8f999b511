"""The Starlette application: routes, templates, and the uvicorn server that runs it."""

from __future__ import annotations

import asyncio
import re
import socket
from datetime import datetime, timedelta
from http import HTTPStatus
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jinja2
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from cikb.answer.models import RELATED_READING
from cikb.core.config import Settings
from cikb.core.errors import BadInputError, CikbError, UnknownCompanyError, UnknownJobError
from cikb.core.secrets import mask_secrets
from cikb.web import reads
from cikb.web.review import Choice, Decisions, ReviewTable, StalePageError, apply_table, build_table, decide, find_proposals
from cikb.web.security import TOKEN_FIELD, Guard, TokenMiddleware, checked_form

_HERE = Path(str(resources.files("cikb.web")))
_CITATION = re.compile(r"\[(\d+)\]")


def create_app(settings: Settings, guard: Guard, proposals_dir: Path) -> Starlette:
    """The review page for ``settings``' knowledge base and the proposals in ``proposals_dir``."""
    pages = Pages(settings, guard, proposals_dir)
    routes = [
        Route("/", pages.companies),
        Route("/companies", pages.companies),  # the list a company page's address is under
        Route("/companies/{slug}", pages.company),
        Route("/companies/{slug}/documents/{name}", pages.document),
        Route("/ask", pages.ask),
        Route("/search", pages.search),
        Route("/jobs", pages.jobs),
        Route("/jobs/table", pages.jobs_table),
        Route("/jobs/{job_id}", pages.job),
        Route("/jobs/{job_id}/progress", pages.job_progress),
        Route("/review", pages.proposals),
        Route("/review/{key}", pages.review),
        Route("/review/{key}/decide", pages.review_decide, methods=["POST"]),
        Route("/review/{key}/apply", pages.review_apply, methods=["POST"]),
        Route("/review/{key}/proposal", pages.proposal_file),
        Route("/review/{key}/applied", pages.applied_file),
        Mount("/static", StaticFiles(directory=str(_HERE / "static")), name="static"),
    ]
    return Starlette(routes=routes, middleware=[Middleware(TokenMiddleware, guard=guard)],
                     exception_handlers={CikbError: pages.cikb_error, HTTPException: pages.http_error, Exception: pages.unexpected_error})


class Pages:
    """One handler per page; each calls the application's API (in a worker thread, :mod:`cikb.web.reads`) and renders a template."""

    def __init__(self, settings: Settings, guard: Guard, proposals_dir: Path) -> None:
        self.settings = settings
        self.guard = guard
        self.proposals_dir = proposals_dir
        self.decisions = Decisions()
        self.applied: dict[str, set[str]] = {}  # per table, the CSVs this server wrote: the only files it hands out
        # One Apply at a time: two tabs applying to the same name would both find it free, both write, and the
        # second would silently replace the first while both pages said "Wrote" (the page never overwrites a file).
        self.applying = asyncio.Lock()
        # Autoescape everything: page text, titles and chunks are scraped from the web.
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(_HERE / "templates"), autoescape=True)
        env.filters["href"] = href
        env.filters["markdown"] = reads.markdown
        env.filters["slot"] = reads.slot_key
        env.filters["minute"] = minute
        env.globals["choice"] = lambda *args: Choice(*args).encode()
        env.globals["related_reading"] = RELATED_READING
        self.templates = Jinja2Templates(env=env)

    def page(self, request: Request, name: str, status_code: int = 200, **context: Any) -> Response:
        context = {"token": self.guard.token, "token_field": TOKEN_FIELD, **context}
        return self.templates.TemplateResponse(request, name, context, status_code=status_code)

    async def companies(self, request: Request) -> Response:
        from cikb.app.kb import company_statuses

        return self.page(request, "companies.html", statuses=await run_in_threadpool(company_statuses, self.settings))

    async def company(self, request: Request) -> Response:
        found = await run_in_threadpool(reads.company, self.settings, request.path_params["slug"])
        return self.page(request, "company.html", **found)

    async def document(self, request: Request) -> Response:
        found = await run_in_threadpool(reads.document, self.settings, request.path_params["slug"], request.path_params["name"])
        return self.page(request, "document.html", **found)

    async def ask(self, request: Request) -> Response:
        question = request.query_params.get("q", "").strip()
        company = request.query_params.get("company", "").strip()
        if not question:
            return self.page(request, "ask.html", question="", company=company, answer=None)
        answer, texts = await run_in_threadpool(reads.ask, self.settings, question, company or None)
        return self.page(request, "ask.html", question=question, company=company, answer=answer,
                         paragraphs=[citation_parts(text) for text in answer.answer.split("\n\n")], texts=texts)

    async def search(self, request: Request) -> Response:
        query = request.query_params.get("q", "").strip()
        company = request.query_params.get("company", "").strip()
        result = await run_in_threadpool(reads.search, self.settings, query, company or None) if query else None
        return self.page(request, "search.html", query=query, company=company, result=result)

    async def jobs(self, request: Request) -> Response:
        return self.page(request, "jobs.html", **await self._jobs(request))

    async def jobs_table(self, request: Request) -> Response:
        """The jobs table alone, which the jobs page fetches every 2 seconds while a job runs (htmx)."""
        return self.page(request, "_jobs_table.html", **await self._jobs(request))

    async def _jobs(self, request: Request) -> dict[str, Any]:
        listed, pages, live = await run_in_threadpool(reads.jobs, self.settings, page_number(request))
        return {"jobs": listed, "pages": pages, "live": live}

    async def job(self, request: Request) -> Response:
        found = await run_in_threadpool(reads.job, self.settings, request.path_params["job_id"], page_number(request))
        return self.page(request, "job.html", view=found, shown=_shown(found), live=found.job.status == "running")

    async def job_progress(self, request: Request) -> Response:
        """The job's progress, plus the page's rows finished since the last poll, each replacing its placeholder (htmx)."""
        found = await run_in_threadpool(reads.job, self.settings, request.path_params["job_id"], page_number(request))
        if request.query_params.get("rows") != str(found.last - found.first):  # the job started, its rows now known: reload
            return Response(headers={"HX-Refresh": "true"})
        before = set(request.query_params.get("shown", "").split(","))
        fresh = [(slot, log) for slot, log in found.logs.items() if _slot_id(*slot) not in before]
        return self.page(request, "_job_progress.html", view=found, shown=_shown(found), fresh=fresh)

    async def proposals(self, request: Request) -> Response:
        found = await run_in_threadpool(find_proposals, self.proposals_dir)
        return self.page(request, "proposals.html", found=found, folder=self.proposals_dir)

    def review_table(self, key: str) -> ReviewTable:
        found = find_proposals(self.proposals_dir)
        if key not in found:
            raise HTTPException(404, f"no proposals for this table in {self.proposals_dir} any more: see the proposals there now")
        csv_path, items, ignored = found[key]
        return build_table(key, csv_path, items, ignored, self.decisions)

    async def review(self, request: Request) -> Response:
        table = await run_in_threadpool(self.review_table, request.path_params["key"])
        return self.page(request, "review.html", table=table, default_out=f"{table.csv_path.stem}.reviewed.csv")

    async def review_decide(self, request: Request) -> Response:
        fields = await checked_form(request, self.guard)
        table = await run_in_threadpool(self.review_table, request.path_params["key"])
        choice = Choice.parse(fields.get("choice", ""))
        _require_current(table, fields)
        decide(table, self.decisions, choice)
        anchor = f"#row-{choice.row}" if choice.row is not None else ""
        return RedirectResponse(f"/review/{table.key}{anchor}", status_code=303)

    async def review_apply(self, request: Request) -> Response:
        fields = await checked_form(request, self.guard)
        table = await run_in_threadpool(self.review_table, request.path_params["key"])
        _require_current(table, fields)
        async with self.applying:
            results = await run_in_threadpool(apply_table, table, fields.get("out", ""))
        self.applied.setdefault(table.key, set()).add(Path(results[0].out).name)
        return self.page(request, "applied.html", table=table, results=results, written=Path(results[0].out).name)

    async def proposal_file(self, request: Request) -> Response:
        """A column's proposal, as the JSON file `cikb enrich` wrote."""
        table = await run_in_threadpool(self.review_table, request.path_params["key"])
        if "proposals" in request.query_params:  # the page's link: the file must still be the one the page showed
            _require_current(table, dict(request.query_params))
        path = table.proposal_path(request.query_params.get("column", ""))
        return FileResponse(path, media_type="application/json", filename=path.name)

    async def applied_file(self, request: Request) -> Response:
        """A CSV this server's Apply wrote beside the table (no other file: the name must be one it wrote)."""
        table = await run_in_threadpool(self.review_table, request.path_params["key"])
        name = request.query_params.get("file", "")
        if name not in self.applied.get(table.key, set()) or not table.csv_path.with_name(name).is_file():
            raise HTTPException(404, f"{name!r} is not a CSV this page wrote for {table.csv_path.name}: apply the review to write one")
        return FileResponse(table.csv_path.with_name(name), media_type="text/csv", filename=name)

    async def cikb_error(self, request: Request, exc: Exception) -> Response:
        # Bad input 400, an unknown company or job 404, a stale page 409; anything else the knowledge base's state refuses (not gathered, damaged, locked): 409.
        status = 404 if isinstance(exc, (UnknownCompanyError, UnknownJobError)) else 400 if isinstance(exc, BadInputError) else 409
        return self.error(request, str(exc), status, stale=isinstance(exc, StalePageError))

    async def http_error(self, request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        generic = {404: "no such page here (an old link?): go on from the menu above", 405: "this address takes no such request: go on from the menu above"}
        message = generic.get(exc.status_code, exc.detail) if exc.detail == HTTPStatus(exc.status_code).phrase else exc.detail
        response = self.error(request, message, exc.status_code)
        response.headers.update(exc.headers or {})  # a 405's Allow (RFC 9110 says it must be sent)
        return response

    async def unexpected_error(self, request: Request, exc: Exception) -> Response:
        # A failure no handler foresaw (a file name the file system refuses, a full disk, a data directory gone):
        # still one `error:` line and a way back, not a bare "Internal Server Error". The log keeps the traceback.
        return self.error(request, f"{exc} (an unexpected {type(exc).__name__}: the server's log has the details)", 500)

    def error(self, request: Request, message: str, status: int, stale: bool = False) -> Response:
        """One `error:` line, secrets masked as the CLI masks them, and a link to the page to go on from."""
        back, label = way_back(request.url.path, status)
        return self.page(request, "error.html", status_code=status, message=mask_secrets(message, self.settings.secrets()),
                         back=back, back_label=label, stale=stale)


def _require_current(table: ReviewTable, fields: dict[str, str]) -> None:
    """StalePageError unless the form was rendered from the proposals the table holds now."""
    if fields.get("proposals") != table.digest:
        raise StalePageError("the proposals changed since this page was shown (a column was added, enriched again or removed)")


def _slot_id(column: str, row: int) -> str:
    return f"{reads.slot_key(column)}-{row}"


def _shown(view: reads.JobPage) -> str:
    return ",".join(_slot_id(*slot) for slot in view.logs)


def minute(value: str | None) -> str:
    """An ISO time as the pages show times ("2026-12-05 22:21 UTC"), not with its microseconds; "-" for none."""
    if not value:
        return "-"
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return value
    return when.strftime("%Y-%m-%d %H:%M") + (" UTC" if when.utcoffset() == timedelta(0) else "")


def page_number(request: Request) -> int:
    """``?page=N`` (1-based in the address) as a 0-based number; anything else is the first page."""
    value = request.query_params.get("page", "1")
    # isdecimal, not isdigit: "²" is a digit that int() refuses, and a page number must never be a server error.
    return int(value) - 1 if value.isdecimal() else 0


def way_back(path: str, status: int = 400) -> tuple[str, str]:
    """Where an error page sends the reader on: the review, company or jobs page the request came from, else the start."""
    parts = [part for part in path.split("/") if part]
    if len(parts) >= 2 and parts[0] == "review" and status != 404:
        return f"/review/{parts[1]}", "Back to the review (reloaded: the values as they are now)"
    if len(parts) >= 3 and parts[0] == "companies" and status != 404:
        return f"/companies/{parts[1]}", "Back to the company"
    if parts and parts[0] in ("jobs", "review", "ask", "search"):
        return f"/{parts[0]}", f"Back to {parts[0]}"
    return "/", "Back to the companies"


def href(url: str | None) -> str:
    """A link target only for http(s) URLs: a scraped `javascript:` URL must not become a link."""
    return url if url and urlsplit(url).scheme in ("http", "https") else "#"


def citation_parts(text: str) -> list[tuple[str, int | None]]:
    """`Founded in 2011 [1].` -> [("Founded in 2011 ", None), ("1", 1), (".", None)]: citations become links."""
    parts: list[tuple[str, int | None]] = []
    last = 0
    for match in _CITATION.finditer(text):
        parts += [(text[last:match.start()], None), (match.group(1), int(match.group(1)))]
        last = match.end()
    parts.append((text[last:], None))
    return [(piece, number) for piece, number in parts if piece]


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (0: any free port); one clear error when it cannot be had."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as err:
        sock.close()
        raise BadInputError(f"cannot listen on {host}:{port}: {err.strerror or err} (choose another --port, or 0 for any free one)") from None
    sock.set_inheritable(True)
    return sock


def serve(settings: Settings, guard: Guard, proposals_dir: Path, sock: socket.socket) -> None:
    """Run the page with uvicorn on ``sock`` (from :func:`bind`) until Ctrl-C."""
    import uvicorn

    config = uvicorn.Config(create_app(settings, guard, proposals_dir), log_level="warning", server_header=False)
    uvicorn.Server(config).run(sockets=[sock])
