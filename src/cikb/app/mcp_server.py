"""The knowledge base over the Model Context Protocol, on stdio, with the official SDK (issue 26, item 3).

Each tool returns what the matching command prints with ``--json`` (citations and sources
included), as JSON text and as structured content (an object as it is, a list under ``result``):

- ``search(query, company)``: ``cikb search --json``; ``ask(question, company)``: ``cikb ask --json``;
- ``companies()``: ``cikb companies --json``;
- ``enrichment_status(job_id)``: ``cikb jobs --json``, or ``cikb jobs show ID --json`` for one job;
- ``gather(company, website, wikipedia, news, max_pages)``: ``cikb gather --json``, only when the server
  was started with ``allow_gather``: one gather at a time, at most ``[gather] max_pages_per_source`` pages
  a source, each page fetched and pipeline step sent as a progress notification; a cancelled one stops
  before its commit.

Tools run the library's blocking calls in a worker thread, so the server keeps answering (and
sending progress) meanwhile. A bad request or an unusable knowledge base is one line in an error
result, as the command line says it; so is an argument missing, of the wrong type, or past its bound (a
question or query of at most ``MAX_TEXT`` characters, a company name of at most ``MAX_NAME``).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field, ValidationError
from cikb.retrieve.retriever import MAX_QUERY_CHARS

from cikb.core.config import Settings
from cikb.core.errors import BadInputError, CikbError
from cikb.core.secrets import mask_secrets

READ_ONLY = ToolAnnotations(readOnlyHint=True, openWorldHint=False)
GATHERS = ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=False, openWorldHint=True)
# Bounds on what an agent may send: the reader's work grows faster than a text's length (a pasted document of 1 MB as
# a question ran for hours, holding a worker thread a cancel cannot stop), and the embedding model reads 512 tokens
# at most, so a longer question or query is a mistake to correct, refused at once, the bound in the tool's schema.
MAX_TEXT = MAX_QUERY_CHARS  # what the retriever reads at most
MAX_NAME = 200
Company = Annotated[str | None, Field(description="A company's slug or name (default: inferred from the text).",
                                      max_length=MAX_NAME)]
Text = Annotated[str, Field(max_length=MAX_TEXT)]
INSTRUCTIONS = ("A company-intelligence knowledge base: `companies` lists what is gathered, `search` shows the chunks "
                "retrieval finds, `ask` answers with numbered citations to its sources, `enrichment_status` reports "
                "enrichment jobs. `gather` (crawl a company's public sources) is offered only when the server was "
                "started with --allow-gather.")


def build_server(settings: Settings, *, allow_gather: bool = False) -> MCPServer:
    """The cikb MCP server over ``settings``'s knowledge base; ``gather`` is a tool only with ``allow_gather``."""
    from cikb import __version__

    # The version goes to the client in initialize, which shows and logs it (it was "", as no version at all).
    server = _Server("cikb", version=__version__, instructions=INSTRUCTIONS,
                     log_level="WARNING")  # stderr: failures, not every call
    tools = _Tools(settings)
    server.add_tool(tools.search, annotations=READ_ONLY, structured_output=False)
    server.add_tool(tools.ask, annotations=READ_ONLY, structured_output=False)
    server.add_tool(tools.companies, annotations=READ_ONLY, structured_output=False)
    server.add_tool(tools.enrichment_status, annotations=READ_ONLY, structured_output=False)
    if allow_gather:
        server.add_tool(tools.gather, annotations=GATHERS, structured_output=False)
    return server


def serve_stdio(settings: Settings, *, allow_gather: bool = False) -> None:
    """Serve until the client closes stdin (the SDK keeps stray output of the library off stdout)."""
    build_server(settings, allow_gather=allow_gather).run("stdio")


class _Server(MCPServer):
    """The SDK's server, but arguments that fail validation are one line (``query: Field required``) as the tools'
    other errors are, not pydantic's several lines ending with a link to its documentation."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as err:
            if not isinstance(err.__cause__, ValidationError):
                raise
            # Raised from the ValidationError still, so the SDK logs only the fields' names, not the caller's values.
            raise ToolError(f"Error executing tool {name}: {_one_line(err.__cause__)}") from err.__cause__


def _one_line(invalid: ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(part) for part in error['loc'])}: {error['msg']}" for error in invalid.errors())


class _Tools:
    """The tools, over one configuration; their docstrings are what a client shows."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._gathering = asyncio.Lock()

    async def search(self, query: Text, company: Company = None) -> CallToolResult:
        """The chunks hybrid retrieval finds for a query, with their scores, sources and the retrieval trace; a query
        asking the same of several companies ("Acme and Globex founders") is searched for each alone (parts)."""
        return await self._run(lambda: _search(self.settings, query, company))

    async def ask(self, question: Text, company: Company = None) -> CallToolResult:
        """Answer a question from the knowledge base with numbered citations, the cited sources (title, URL,
        crawl date) and the retrieval trace; abstains when nothing relevant is known. A question asking the same of
        several companies ("When were Acme and Globex founded?") is answered for each from its own sources (parts)."""
        from cikb.app.reading import ask

        return await self._run(lambda: ask(self.settings, question, company=company))

    async def companies(self) -> CallToolResult:
        """The companies in the knowledge base: slug, name, documents, chunks, embedding model, last gather."""
        from cikb.app.kb import company_statuses

        return await self._run(lambda: company_statuses(self.settings))

    async def enrichment_status(
        self, job_id: Annotated[str | None, Field(description="One job's id, for its attempts too.")] = None,
    ) -> CallToolResult:
        """The enrichment jobs, newest first (status, cells done of all, found, proposals); with job_id, that
        job and every attempt at every cell."""
        return await self._run(lambda: _jobs(self.settings, job_id))

    async def gather(
        self, company: Annotated[str, Field(description='The company\'s name, e.g. "Acme Corp" (its slug keys everything).',
                                              max_length=MAX_NAME)],
        ctx: Context,
        website: Annotated[str | None, Field(description="Its website; crawled within its registered domain.")] = None,
        wikipedia: Annotated[str | None, Field(description="A Wikipedia article URL, or its title.")] = None,
        news: Annotated[list[str] | None, Field(description="News pages or RSS/Atom feed URLs.")] = None,
        max_pages: Annotated[int | None, Field(description="Pages per source at most (default and upper bound: the configured one).")] = None,
    ) -> CallToolResult:
        """Gather a company's public sources (website, Wikipedia article, news pages or feeds) into the knowledge
        base, replacing its previous gather; max_pages bounds the pages of each source (at most the configured
        bound). Sends progress notifications; one gather runs at a time."""
        if self._gathering.locked():
            raise ToolError("a gather is running; wait for it to finish")
        await self._gathering.acquire()
        sources = {k: v for k, v in {"website": website, "wikipedia": wikipedia, "news": news}.items() if v}
        stop = threading.Event()
        report = _progress_reporter(ctx, asyncio.get_running_loop(), stop, max_pages or self.settings.gather.max_pages_per_source)
        running = asyncio.ensure_future(self._run(lambda: _gather(self.settings, company, sources, max_pages, report)))
        # Released when the gather itself ends, not this call: a call the client cancels (or leaves by closing stdin)
        # returns at once, while its gather stops at its next step, before its commit (one whose commit has begun
        # finishes it); until then no second gather runs beside it.
        running.add_done_callback(lambda _: self._gathering.release())
        try:
            return await asyncio.shield(running)
        except asyncio.CancelledError:
            stop.set()
            raise

    async def _run(self, work: Callable[[], Any]) -> CallToolResult:
        try:
            return as_result(await asyncio.to_thread(work))
        except CikbError as err:  # the command line's one line, never a traceback, never a secret
            raise ToolError(mask_secrets(str(err), self.settings.secrets())) from None


def as_result(payload: Any) -> CallToolResult:
    """``payload`` as ``--json`` prints it (the same fields), and as structured content (an object)."""
    data = _plain(payload)
    text = json.dumps(data, indent=2, ensure_ascii=False, default=str)
    return CallToolResult(content=[TextContent(type="text", text=text)],
                          structured_content=data if isinstance(data, dict) else {"result": data})


def _plain(payload: Any) -> Any:
    if isinstance(payload, BaseModel):
        return payload.model_dump(mode="json")
    if isinstance(payload, list):
        return [_plain(item) for item in payload]
    return payload


def _search(settings: Settings, query: str, company: str | None) -> Any:
    from cikb.app.reading import open_retriever

    if not query.strip():  # as `cikb search ""` says; every company's chunks would come back, ranked by nothing
        raise BadInputError("the query is empty")
    with open_retriever(settings) as retriever:
        # strict: an unknown company is an error naming the nearest ones, never another's chunks
        return retriever.search(query, company=company, strict=True)


def _jobs(settings: Settings, job_id: str | None) -> Any:
    from cikb.app.jobs import JobStore

    with JobStore(settings.data_dir) as store:
        if job_id is None:
            return store.list()
        job = store.get(job_id)
        return {**job.model_dump(mode="json"), "attempts": [a.model_dump() for a in store.attempts(job.id)]}


def _gather(settings: Settings, company: str, sources: dict, max_pages: int | None, report: Callable[[Any], None]) -> Any:
    from cikb.app.pipeline import gather_company

    if not sources:
        raise BadInputError("give at least one source: website, wikipedia or news")
    bounded = settings.model_copy(deep=True)
    limit = settings.gather.max_pages_per_source
    if max_pages is not None:
        if not 1 <= max_pages <= limit:
            raise BadInputError(f"max_pages must be between 1 and {limit} ([gather] max_pages_per_source)")
        bounded.gather.max_pages_per_source = max_pages
    return gather_company(bounded, company, sources, on_event=report)


class _Stopped(Exception):
    """Raised inside a running gather (from its progress callback) to stop it before its commit."""


def _progress_reporter(ctx: Context, loop: asyncio.AbstractEventLoop, stop: threading.Event,
                       page_budget: int) -> Callable[[Any], None]:
    """A gather event (from the pipeline's thread) -> a progress notification when it says something: a page fetched
    (``crawl website: 3/20 URL``), a source finished, a stage's step; not the crawler's every link set aside. The
    count only grows, as the protocol asks. Once ``stop`` is set it stops the gather instead (but for its commit)."""
    sent = 0
    fetched: dict[int, int] = {}

    def report(event: Any) -> None:
        nonlocal sent
        if stop.is_set() and event.stage != "store":  # from the store stage on, the commit is under way
            raise _Stopped
        message = _progress_message(event, fetched, page_budget)
        if message is None:
            return
        sent += 1
        asyncio.run_coroutine_threadsafe(ctx.report_progress(sent, None, message), loop).result()

    return report


def _progress_message(event: Any, fetched: dict[int, int], page_budget: int) -> str | None:
    crawl = event.crawl
    if crawl is None:
        counted = f"{event.done}/{event.total}" if event.total else ("" if event.message else str(event.done))
        return " ".join(part for part in (f"{event.stage}:", counted, event.message) if part)
    if crawl.kind == "page_fetched":
        fetched[crawl.source_index] = fetched.get(crawl.source_index, 0) + 1
        return f"crawl {crawl.source_type}: {fetched[crawl.source_index]}/{page_budget} {crawl.url or ''}".strip()
    if crawl.kind == "source_finished" and crawl.summary is not None:
        return f"crawl {crawl.source_type}: {crawl.summary.error or f'{crawl.summary.fetched} pages'}"
    return None
