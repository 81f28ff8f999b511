"""The data that flows between stages, in one place.

gather -> FetchedPage -> clean -> RawDocument -> chunk -> Chunk -> embed/store
Each stage imports the models of its input and output only from here.
"""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

SourceType = Literal["website", "wikipedia", "news", "crunchbase"]
SOURCE_TYPES: tuple[SourceType, ...] = ("website", "wikipedia", "news", "crunchbase")


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


# --- gather -----------------------------------------------------------------


class FetchedPage(BaseModel):
    """One HTML page as a spider fetched it, before cleaning."""

    url: str
    source_type: SourceType
    html: str
    status: int = 200
    content_type: str = "text/html"
    fetched_at: datetime


class SourceSummary(BaseModel):
    """What one source did in one gather."""

    source_type: SourceType
    start_urls: list[str] = Field(default_factory=list)
    fetched: int = 0
    kept: int = 0
    dropped: dict[str, int] = Field(default_factory=dict)
    documents: int = 0
    chunks: int = 0
    seconds: float = 0.0
    error: str | None = None

    def drop(self, reason: DropReason | str, count: int = 1) -> None:
        key = reason.value if isinstance(reason, DropReason) else reason
        self.dropped[key] = self.dropped.get(key, 0) + count


class GatherSummary(BaseModel):
    """The run summary a gather prints (or returns as JSON)."""

    company: Company
    sources: list[SourceSummary]
    documents: int = 0
    chunks: int = 0
    raw_dir: str
    model: str | None = None
    seconds: float = 0.0
    started_at: datetime
    ok: bool = True
    error: str | None = None


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


GatherStage = Literal["crawl", "clean", "chunk", "embed", "store"]


class GatherEvent(BaseModel):
    """Progress of a whole gather (crawl -> clean -> chunk -> embed -> store), for a live display."""

    stage: GatherStage
    message: str = ""
    done: int = 0
    total: int | None = None
    crawl: CrawlEvent | None = Field(None, description="The crawler's own event, during the crawl stage.")


# --- clean ------------------------------------------------------------------


class RawDocument(BaseModel):
    """One clean English document, stored as Markdown with front matter (spec G6)."""

    url: str
    title: str
    content: str = Field(description="Clean Markdown, UTF-8, NFC.")
    source_type: SourceType
    company: str = Field(description="The company's slug.")
    scraped_at: datetime


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


class Chunk(BaseModel):
    """A piece of a document sized for the embedding model."""

    id: str = Field(description="UUID derived from sha256(url + chunk_index).")
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
    score: float = Field(description="The fused (RRF) score, or the single retriever's score.")
    dense_score: float | None = Field(None, description="Cosine similarity to the query, when known.")
    rank: int = Field(description="1-based rank in the result list.")


# --- knowledge base ---------------------------------------------------------


class CompanyStatus(BaseModel):
    """One company in the knowledge base, as `cikb companies` lists it."""

    slug: str
    name: str
    documents: int
    chunks: int = Field(description="Points in the store.")
    model: str | None = None
    gathered_at: str | None = None
    indexed: bool = Field(True, description="False while a commit is unfinished (the next gather or forget finishes it).")


# --- retrieve ---------------------------------------------------------------

CompanySource = Literal["explicit", "inferred", "llm", "none"]


class CompanyChoice(BaseModel):
    """Which company a question is about, and how that was decided (spec R2)."""

    slug: str | None = Field(None, description="The company filter, or None to search every company.")
    source: CompanySource = "none"
    matched: str | None = Field(None, description="The words of the question that named it.")
    known: bool = Field(True, description="False when the company asked about is not in the knowledge base.")
    unknown_names: list[str] = Field(default_factory=list, description="Names in the question that no retrieved chunk mentions.")


class RetrievalTrace(BaseModel):
    """What retrieval did, for --json and debugging."""

    query: str
    company: CompanyChoice
    embedding_model: str | None = None
    prefetch_limit: int
    rrf_k: int
    top_k: int
    score_threshold: float
    context_budget: int = Field(description="Context tokens allowed (settings.retrieve.context_tokens).")
    passed: int = Field(0, description="Chunks that passed the dense threshold, after fusion.")
    in_context: int = 0
    context_tokens: int = 0
    skipped_for_budget: list[str] = Field(default_factory=list, description="Ids of passing chunks that did not fit the budget.")
    abstain_reason: str | None = None
    embed_ms: float = 0.0
    search_ms: float = 0.0
    total_ms: float = 0.0


class RetrievalResult(BaseModel):
    """The chunks that passed retrieval, and those numbered as context [1]..[n] within the token budget."""

    query: str
    chunks: list[ScoredChunk] = Field(default_factory=list, description="Fused, thresholded, top-k, best first.")
    context: list[ScoredChunk] = Field(default_factory=list, description="The chunks handed to the answerer; context[i] is citation [i+1].")
    trace: RetrievalTrace
    query_vector: list[float] | None = Field(None, exclude=True, description="The query's dense embedding, so the answerer need not embed it again.")

    @property
    def empty(self) -> bool:
        """Nothing to answer from: the answer is the abstention sentence (spec R3)."""
        return not self.context



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


class LLMCall(BaseModel):
    """One logged LLM call (a row of logs.db), for `cikb logs` and replay (spec A5)."""

    id: int
    step: str
    model: str
    messages: list[dict] = Field(description="The request's messages, as sent.")
    params: dict = Field(default_factory=dict, description="Other request parameters (temperature, max_tokens...).")
    response: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_s: float | None = None
    error: str | None = None
    created_at: datetime


# --- answer -----------------------------------------------------------------

ABSTENTION = "I don't have enough information about that."
AnswerMode = Literal["llm", "extractive"]


class Source(BaseModel):
    """A numbered context chunk as the answer cites it: [number] -> title, url, crawl date."""

    number: int
    title: str
    url: str
    source_type: SourceType
    company: str
    crawled_at: datetime
    chunk_id: str
    score: float = Field(description="The chunk's fused retrieval score.")
    dense_score: float | None = None


class Answer(BaseModel):
    """A grounded answer with citations, or the abstention sentence (spec A1-A3, R3)."""

    question: str
    answer: str
    mode: AnswerMode
    grounded: bool = Field(description="Every sentence of substance cites a source that was in the context.")
    abstained: bool = Field(False, description="The answer is exactly the abstention sentence.")
    citations: list[int] = Field(default_factory=list, description="Valid source numbers the answer cites, in order of first use.")
    removed_citations: list[int] = Field(default_factory=list, description="Numbers the answer cited that were not in the context: removed (A2).")
    uncited_sentences: list[str] = Field(default_factory=list, description="Sentences of substance that cite nothing.")
    short_answer: str | None = Field(None, description="Extractive mode: the year, number or name that answers a when/how-many/who question.")
    sources: list[Source] = Field(default_factory=list, description="The cited sources, by number.")
    context: list[Source] = Field(default_factory=list, description="Every numbered source that was in the context.")
    note: str | None = Field(None, description="A line to show with the answer, e.g. that it is extractive.")
    warnings: list[str] = Field(default_factory=list)
    llm_model: str | None = None
    llm_log_id: int | None = None
    retrieval: RetrievalTrace



# --- enrich -----------------------------------------------------------------


Confidence = Literal["high", "medium", "low", "none"]
CONFIDENCE_ORDER: tuple[Confidence, ...] = ("none", "low", "medium", "high")
StepType = Literal["retrieve", "search", "fetch", "compute", "answer", "error", "thinking", "coverage"]
ColumnType = Literal["text", "number", "boolean", "select"]


class RowStep(BaseModel):
    """One entry of a row's trace (spec N1): what a strategy did and what it saw."""

    type: StepType
    detail: str = ""
    data: dict = Field(default_factory=dict)


class EnrichSource(BaseModel):
    """Where a cell's value came from: a knowledge-base chunk or a web page."""

    kind: Literal["kb", "web"]
    url: str
    title: str = ""
    chunk_id: str | None = None


class RowLog(BaseModel):
    """The research log of one row (spec N7)."""

    row_id: int = Field(description="0-based index of the row among the CSV's data rows.")
    label: str = Field(description="The row's identity, e.g. its company name.")
    status: Literal["found", "not_found", "skipped", "error"]
    value: str | None = None
    raw_value: str | None = None
    confidence: Confidence = "none"
    answered_by: Literal["kb", "web", "compute", "llm", "none"] = "none"
    strategy: str
    thoroughness: str | None = None
    steps: list[RowStep] = Field(default_factory=list)
    sources: list[EnrichSource] = Field(default_factory=list)


class ProposalOperation(BaseModel):
    """One change the proposal would make to the table."""

    action: Literal["update"] = "update"
    row_id: int
    changes: dict[str, str]


class ProposalTarget(BaseModel):
    """The file and column a proposal was made for; apply checks both."""

    csv_path: str
    csv_sha256: str
    column: str
    column_type: ColumnType = "text"
    options: list[str] = Field(default_factory=list)
    company_column: str | None = None


class DataProposal(BaseModel):
    """What `cikb enrich` writes and `cikb apply` applies (spec N7). Nothing is applied until then."""

    reasoning: str
    target: ProposalTarget
    strategy: str
    params: dict = Field(default_factory=dict)
    rows_total: int
    cancelled: bool = False
    created_at: datetime
    operations: list[ProposalOperation] = Field(default_factory=list)
    research_log: list[RowLog] = Field(default_factory=list)
    embedding_model: str | None = Field(None, description="The dense model the knowledge base was searched with, if it was.")


class ApplyResult(BaseModel):
    """What `cikb apply` wrote."""

    out: str
    column: str
    updated: int = Field(description="Cells written.")
    below_min_confidence: int = 0
    not_found: int = Field(0, description="Rows the proposal has no value for (not found, skipped, error, or not run).")
