"""What the application reports: gather progress and summaries, company statuses, logged LLM calls."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from cikb.core.models import Company, CrawlEvent, SourceType, SourceSummary

GatherStage = Literal["crawl", "clean", "chunk", "embed", "store"]


class PageChange(BaseModel):
    """A page (a document other than the facts document) that a gather found new, changed or gone."""

    url: str
    title: str
    change: Literal["new", "changed", "removed"]


class FactChange(BaseModel):
    """One line of the facts document that a gather added or removed."""

    kind: str = Field(description="address, phone, email, person, legal name, funding; another schema.org label as itself; else other.")
    label: str = Field(description="The line's schema.org label ('Address', 'Employee'...); '' for a footer line.")
    value: str
    change: Literal["added", "removed"]
    page: str = Field(description="The page that states it.")
    replaces: str | None = Field(None, description="On an added line: the removed value of the same kind (and role) it takes the place of.")


class GatherChanges(BaseModel):
    """What one gather changed against the generation it replaced."""

    company: str = Field(description="The company's slug.")
    generation: str
    gathered_at: datetime
    first: bool = Field(False, description="No previous gather to compare with: every page is new.")
    pages_new: int = 0
    pages_changed: int = Field(0, description="Pages whose Markdown has another sha256.")
    pages_removed: int = 0
    pages_unchanged: int = 0
    chunks_embedded: int = 0
    chunks_reused: int = 0
    written: bool = Field(True, description="False: the knowledge base already held what this gather found (documents, chunks, vectors), so nothing was written.")
    pages: list[PageChange] = Field(default_factory=list, description="The pages new, changed or removed (unchanged ones are only counted).")
    facts: list[FactChange] = Field(default_factory=list)


class GatherSummary(BaseModel):
    """The run summary a gather prints (or returns as JSON)."""

    company: Company
    sources: list[SourceSummary]
    documents: int = 0
    chunks: int = 0
    embedded: int = Field(0, description="Chunks embedded by this gather.")
    reused: int = Field(0, description="Chunks whose vectors came from the vector cache (text already embedded with this model).")
    raw_dir: str
    model: str | None = None
    seconds: float = 0.0
    stage_seconds: dict[str, float] = Field(
        default_factory=dict,
        description="Seconds per stage: crawl (wall clock); clean, chunk, embed (work done, mostly during the crawl); store (staging and commit).",
    )
    started_at: datetime
    ok: bool = True
    error: str | None = None
    changes: GatherChanges | None = Field(None, description="What this gather changed against the previous one (also in `cikb changes`).")


class GatherEvent(BaseModel):
    """Progress of a whole gather (crawl -> clean -> chunk -> embed -> store), for a live display."""

    stage: GatherStage
    message: str = ""
    done: int = 0
    total: int | None = None
    crawl: CrawlEvent | None = Field(None, description="The crawler's own event, during the crawl stage.")


class CompanyStatus(BaseModel):
    """One company in the knowledge base, as `cikb companies` lists it."""

    slug: str
    name: str
    documents: int
    chunks: int = Field(description="Points in the store.")
    model: str | None = None
    gathered_at: str | None = None
    indexed: bool = Field(True, description="False while a commit is unfinished (the next gather or forget finishes it).")


class PageRef(BaseModel):
    """One raw document of a company: where it came from, not its text."""

    url: str
    title: str
    source_type: SourceType
    scraped_at: datetime


class CompanyDetail(BaseModel):
    """One company with what its last gather or rebuild read: each source's summary and the pages kept."""

    status: CompanyStatus
    sources: list[SourceSummary] = Field(default_factory=list)
    pages: list[PageRef] = Field(default_factory=list)


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
