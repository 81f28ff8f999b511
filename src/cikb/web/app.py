"""The Starlette application: routes, templates, and the uvicorn server that runs it."""

from __future__ import annotations

import re
import socket
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
from starlette.responses import RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from cikb.core.config import Settings
from cikb.core.errors import BadInputError, CikbError, UnknownCompanyError
from cikb.core.secrets import mask_secrets
from cikb.web.review import Decisions, ReviewTable, apply_table, build_table, decide, find_proposals
from cikb.web.security import TOKEN_FIELD, Guard, TokenMiddleware, checked_form

_HERE = Path(str(resources.files("cikb.web")))
_CITATION = re.compile(r"\[(\d+)\]")


def create_app(settings: Settings, guard: Guard, proposals_dir: Path) -> Starlette:
    """The review page for ``settings``' knowledge base and the proposals in ``proposals_dir``."""
    pages = Pages(settings, guard, proposals_dir)
    routes = [
        Route("/", pages.companies),
        Route("/companies/{slug}", pages.company),
        Route("/ask", pages.ask),
        Route("/jobs", pages.jobs),
        Route("/jobs/{job_id}", pages.job),
        Route("/review", pages.proposals),
        Route("/review/{key}", pages.review),
        Route("/review/{key}/decide", pages.review_decide, methods=["POST"]),
        Route("/review/{key}/apply", pages.review_apply, methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(_HERE / "static")), name="static"),
    ]
    return Starlette(routes=routes, middleware=[Middleware(TokenMiddleware, guard=guard)],
                     exception_handlers={CikbError: pages.cikb_error, HTTPException: pages.http_error})


class Pages:
    """One handler per page; each calls the application's API (in a worker thread) and renders a template."""

    def __init__(self, settings: Settings, guard: Guard, proposals_dir: Path) -> None:
        self.settings = settings
        self.guard = guard
        self.proposals_dir = proposals_dir
        self.decisions = Decisions()
        # Autoescape everything: page text, titles and chunks are scraped from the web.
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(_HERE / "templates"), autoescape=True)
        env.filters["href"] = href
        self.templates = Jinja2Templates(env=env)

    def page(self, request: Request, name: str, status_code: int = 200, **context: Any) -> Response:
        context = {"token": self.guard.token, "token_field": TOKEN_FIELD, **context}
        return self.templates.TemplateResponse(request, name, context, status_code=status_code)

    async def companies(self, request: Request) -> Response:
        from cikb.app.kb import company_statuses

        return self.page(request, "companies.html", statuses=await run_in_threadpool(company_statuses, self.settings))

    async def company(self, request: Request) -> Response:
        from cikb.app.kb import company_detail

        detail = await run_in_threadpool(company_detail, self.settings, request.path_params["slug"])
        changes = await run_in_threadpool(_changes, self.settings, detail.status.slug)
        return self.page(request, "company.html", detail=detail, changes=changes)

    async def ask(self, request: Request) -> Response:
        question = request.query_params.get("q", "").strip()
        company = request.query_params.get("company", "").strip()
        if not question:
            return self.page(request, "ask.html", question="", company=company, answer=None)
        answer, texts = await run_in_threadpool(_ask, self.settings, question, company or None)
        return self.page(request, "ask.html", question=question, company=company, answer=answer,
                         parts=citation_parts(answer.answer), texts=texts)

    async def jobs(self, request: Request) -> Response:
        listed = await run_in_threadpool(_jobs, self.settings)
        return self.page(request, "jobs.html", jobs=listed, live=any(job.status == "running" for job in listed))

    async def job(self, request: Request) -> Response:
        found, attempts, logs = await run_in_threadpool(_job, self.settings, request.path_params["job_id"])
        return self.page(request, "job.html", job=found, attempts=attempts, logs=logs, live=found.status == "running")

    async def proposals(self, request: Request) -> Response:
        found = await run_in_threadpool(find_proposals, self.proposals_dir)
        return self.page(request, "proposals.html", found=found, folder=self.proposals_dir)

    def review_table(self, key: str) -> ReviewTable:
        found = find_proposals(self.proposals_dir)
        if key not in found:
            raise HTTPException(404, f"no proposals for this table in {self.proposals_dir} any more")
        csv_path, items, ignored = found[key]
        return build_table(key, csv_path, items, ignored, self.decisions)

    async def review(self, request: Request) -> Response:
        table = await run_in_threadpool(self.review_table, request.path_params["key"])
        return self.page(request, "review.html", table=table, default_out=f"{table.csv_path.stem}.reviewed.csv")

    async def review_decide(self, request: Request) -> Response:
        fields = await checked_form(request, self.guard)
        table = await run_in_threadpool(self.review_table, request.path_params["key"])
        decision, scope, row, column = parse_choice(fields.get("choice", ""))
        decide(table, self.decisions, decision, scope, row, column)
        anchor = f"#row-{row}" if row is not None else ""
        return RedirectResponse(f"/review/{table.key}{anchor}", status_code=303)

    async def review_apply(self, request: Request) -> Response:
        fields = await checked_form(request, self.guard)
        table = await run_in_threadpool(self.review_table, request.path_params["key"])
        results = await run_in_threadpool(apply_table, table, self.decisions, fields.get("out", ""))
        return self.page(request, "applied.html", table=table, results=results)

    async def cikb_error(self, request: Request, exc: Exception) -> Response:
        # Bad input 400, an unknown company 404; anything else the knowledge base's state refuses (not gathered, damaged, locked): 409.
        status = 404 if isinstance(exc, UnknownCompanyError) else 400 if isinstance(exc, BadInputError) else 409
        return self.error(request, str(exc), status)

    async def http_error(self, request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return self.error(request, exc.detail, exc.status_code)

    def error(self, request: Request, message: str, status: int) -> Response:
        """One `error:` line, secrets masked as the CLI masks them."""
        return self.page(request, "error.html", status_code=status, message=mask_secrets(message, self.settings.secrets()))


def _ask(settings: Settings, question: str, company: str | None):
    """The CLI's `cikb ask`, plus the text of every chunk in the context (what a citation opens)."""
    from cikb.app.reading import ask, chunk_texts, open_retriever

    with open_retriever(settings) as retriever:
        answer = ask(settings, question, company, retriever)
        return answer, chunk_texts(retriever, [source.chunk_id for source in answer.context])


def _changes(settings: Settings, slug: str) -> list[tuple[Any, list[tuple[str, str]]]]:
    """What each gather of the company changed, newest first, each with its fact notes and their pages (`cikb changes`)."""
    from cikb.app.changes import ChangeLog, fact_note, shown_facts

    return [(gather, [(fact_note(fact), fact.page) for fact in shown_facts(gather)]) for gather in reversed(ChangeLog(settings.data_dir).history(slug))]


def _jobs(settings: Settings):
    """`cikb jobs`: every enrichment job, newest first."""
    from cikb.app.jobs import JobStore

    with JobStore(settings.data_dir) as store:
        return store.list()


def _job(settings: Settings, job_id: str):
    """`cikb jobs show ID`: the job, its attempts, and each finished row's research log (its steps)."""
    from cikb.app.jobs import JobStore

    with JobStore(settings.data_dir) as store:
        found = store.get(job_id)
        logs = [log for column in found.columns for log in store.logs(found.id, column)]
        return found, store.attempts(found.id), logs


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


def parse_choice(choice: str) -> tuple[Any, str, int | None, int | None]:
    """`accept:cell:ROW:COLUMN`, `reject:row:ROW:`, `clear:column::COLUMN`, `accept:all::` -> its parts."""
    try:
        action, scope, row, column = choice.split(":")
        decision = {"accept": "accept", "reject": "reject", "clear": None}[action]
        return decision, scope, int(row) if row else None, int(column) if column else None
    except (KeyError, ValueError):
        raise BadInputError(f"not a review choice: {choice!r}") from None


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
