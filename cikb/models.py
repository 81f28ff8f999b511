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


# --- retrieve ---------------------------------------------------------------


# --- answer -----------------------------------------------------------------


# --- enrich -----------------------------------------------------------------
