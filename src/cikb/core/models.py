"""The data that crosses stage boundaries (the foundation every stage may import).

gather -> FetchedPage -> clean -> RawDocument -> chunk -> Chunk -> embed/store -> ScoredChunk
A type that one stage alone uses lives in that stage (``cikb.retrieve.models``,
``cikb.answer.models``, ``cikb.enrich.models``); the application's own in ``cikb.app.models``.
"""

from __future__ import annotations

from datetime import date, datetime
from enum import Enum
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

SourceType = Literal["website", "wikipedia", "news", "crunchbase"]
SOURCE_TYPES: tuple[SourceType, ...] = ("website", "wikipedia", "news", "crunchbase")
# What a page is to someone asking about the company (gather.page_kind decides; retrieval weighs it):
# about the company itself, company news, any other page, a generic article (how-to, docs, report),
# a listing of other pages (blog index, tag page).
PageKind = Literal["company", "news", "page", "generic", "listing"]
PAGE_KINDS: tuple[PageKind, ...] = ("company", "news", "page", "generic", "listing")


class Company(BaseModel):
    """A company as the user named it, and its safe slug (spec G1)."""

    model_config = ConfigDict(frozen=True)

    name: str
    slug: str


class DropReason(str, Enum):
    """Why a page did not become a document (spec G7)."""

    robots = "robots"
    content_type = "content_type"
    size = "size"
    http_error = "http_error"
    network_error = "network_error"
    offsite = "offsite"
    language = "language"
    too_short = "too_short"
    duplicate = "duplicate"
    budget = "budget"
    timeout = "timeout"


# --- gather -----------------------------------------------------------------


class FetchedPage(BaseModel):
    """One HTML page as a spider fetched it, before cleaning."""

    url: str
    source_type: SourceType
    html: str
    status: int = 200
    content_type: str = "text/html"
    fetched_at: datetime
    unreachable: str | None = Field(
        None, description="Set when the server could not be reached and this is the copy an earlier gather stored: why (then fetched_at is when that copy was last fetched live)."
    )


class SourceSummary(BaseModel):
    """What one source did in one gather."""

    source_type: SourceType
    start_urls: list[str] = Field(default_factory=list)
    fetched: int = 0
    redirected: int = Field(0, description="Redirects (301, 302, 303, 307, 308) followed to a page of the source's sites; not drops.")
    kept: int = 0
    dropped: dict[str, int] = Field(default_factory=dict)
    documents: int = 0
    chunks: int = 0
    seconds: float = 0.0
    error: str | None = None
    timed_out: list[str] = Field(default_factory=list, description="URLs of pages not answered in full by their deadline (gather.request_timeout).")
    time_budget_spent: bool = Field(False, description="The source stopped at its time budget (gather.source_timeout); pages not fetched by then count as dropped (budget).")
    unreachable: int = Field(
        0, description="Pages whose server could not be reached (refused, timed out, 5xx, robots.txt unavailable), kept from an earlier gather's HTTP cache; not counted in fetched."
    )
    unreachable_reason: str | None = Field(None, description="Why the first of those pages could not be fetched, e.g. 'connection refused' or 'HTTP 503'.")
    kept_from: datetime | None = Field(None, description="When the oldest page kept that way was last fetched live.")
    cached: int = Field(
        0, description="Pages taken from the HTTP cache without a request: fetched live within gather.max_age (`--max-age`); not counted in fetched."
    )
    crawl_delay: float | None = Field(None, description="robots.txt Crawl-delay honoured (seconds), when longer than gather.download_delay.")
    robots_unavailable: str | None = Field(
        None, description="Why robots.txt could not be read (5xx, timeout, network error): its host is completely disallowed for this gather (RFC 9309 §2.3.1.4)."
    )

    def drop(self, reason: DropReason | str, count: int = 1) -> None:
        key = reason.value if isinstance(reason, DropReason) else reason
        self.dropped[key] = self.dropped.get(key, 0) + count

    @property
    def pages(self) -> int:
        """Pages delivered, live, fresh in the cache or kept from it (what the page budget counts)."""
        return self.fetched + self.cached + self.unreachable


class SourceRequest(BaseModel):
    """One source to crawl: its type and the http(s) URLs it starts from (see gather.resolve_source)."""

    model_config = ConfigDict(frozen=True)

    source_type: SourceType
    start_urls: list[str]


class SourceResult(BaseModel):
    """What one source of a crawl delivered: HTML pages and the counts of what it fetched and dropped."""

    request: SourceRequest
    pages: list[FetchedPage] = Field(default_factory=list)
    summary: SourceSummary


class CrawlResult(BaseModel):
    """The outcome of gather.crawl: one SourceResult per SourceRequest, in the same order."""

    sources: list[SourceResult]
    seconds: float = 0.0

    @property
    def pages(self) -> list[FetchedPage]:
        return [page for source in self.sources for page in source.pages]


CrawlEventKind = Literal["source_started", "page_fetched", "page_dropped", "source_finished"]


class CrawlEvent(BaseModel):
    """A progress event streamed while a crawl runs (for a live display)."""

    kind: CrawlEventKind
    source_index: int = Field(description="Index of the source in the crawl's request list.")
    source_type: SourceType
    url: str | None = None
    reason: str | None = Field(None, description="A DropReason value, for page_dropped.")
    detail: str | None = Field(None, description="Why, in words (e.g. the HTTP status or network error).")
    summary: SourceSummary | None = Field(None, description="The source's final counts, for source_finished.")




# --- clean ------------------------------------------------------------------


class RawDocument(BaseModel):
    """One clean English document, stored as Markdown with front matter (spec G6)."""

    url: str
    title: str
    content: str = Field(description="Clean Markdown, UTF-8, NFC.")
    source_type: SourceType
    company: str = Field(description="The company's slug.")
    scraped_at: datetime
    page_kind: PageKind = Field("page", description="What the page is to a question about the company (gather.page_kind).")
    published: date | None = Field(
        None,
        description="A post's or an article's publication date, where its markup or URL states one (htmldate); None for "
        "undated pages and pages that are no post (fact pages tell how the company is when they are read).",
    )


# --- chunk ------------------------------------------------------------------


class ChunkMetadata(BaseModel):
    """What a chunk needs to be cited, filtered and traced (spec K3)."""

    url: str
    title: str
    company: str
    source_type: SourceType
    chunk_index: int
    scraped_at: datetime
    heading_path: list[str] = Field(default_factory=list)
    page_kind: PageKind = "page"
    published: date | None = None  # the page's publication date (RawDocument.published)

    @property
    def as_of(self) -> date | None:
        """When what the chunk says held: a post's publication date; a fact page's, when it was read; else unknown."""
        if self.published is not None:
            return self.published
        return self.scraped_at.date() if self.page_kind == "company" else None


class Chunk(BaseModel):
    """A piece of a document sized for the embedding model."""

    id: str = Field(description="UUID derived from sha256(company + url + chunk_index).")
    text: str
    token_count: int
    metadata: ChunkMetadata


# --- embed ------------------------------------------------------------------


class ModelInfo(BaseModel):
    """Facts about the dense model in use; recorded with the collection (spec E2)."""

    model_config = ConfigDict(frozen=True)

    name: str = Field(description="e.g. Snowflake/snowflake-arctic-embed-s")
    dim: int
    backend: str = Field(description="fastembed | sentence-transformers")
    variant: str = Field(description="weights actually loaded, e.g. onnx-fp32, onnx-int8, torch-fp32")
    pooling: Literal["cls", "mean"]
    query_prefix: str = ""
    max_tokens: int = 512
    normalized: bool = True


class SparseVector(BaseModel):
    """BM25 term weights: token ids and their weights (IDF is applied by the store)."""

    indices: list[int]
    values: list[float]


# --- store ------------------------------------------------------------------


class ScoredChunk(BaseModel):
    """A chunk as a query returned it."""

    chunk: Chunk
    score: float = Field(description="The fused score (after the sentence rerank, when on), or the single retriever's score.")
    dense_score: float | None = Field(None, description="Cosine similarity to the query, when known.")
    rank: int = Field(description="1-based rank in the result list.")


# --- knowledge base ---------------------------------------------------------


# --- llm --------------------------------------------------------------------


class LLMResult(BaseModel):
    """One chat completion as the endpoint returned it (spec A3, A5)."""

    model_config = ConfigDict(frozen=True)

    text: str
    model: str = Field(description="The model the endpoint says answered.")
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_s: float
    log_id: int | None = Field(None, description="Row id of this call in logs.db.")
    truncated: bool = Field(False, description="The endpoint stopped at the token limit (finish_reason 'length'): the text may be cut.")


class ChatModel(Protocol):
    """What a stage needs of a language model; ``cikb.app.llm.LLMClient`` is the one implementation.

    Stages take this protocol, never the client itself, so they do not import the application layer.
    """

    @property
    def configured(self) -> bool: ...

    def complete(self, step: str, messages: list[dict[str, str]]) -> LLMResult: ...


