"""What enrichment produces: per-row research logs, the data proposal, and what apply wrote (spec N)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import BaseModel, Field

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
    published: date | None = None  # a knowledge-base post's publication date (ChunkMetadata.published)


class AttemptSummary(BaseModel):
    """One attempt at a cell that was tried more than once (spec Q2): what it asked, found, and why it was weak."""

    attempt: int
    status: Literal["found", "not_found", "skipped", "error"]
    value: str | None = None
    confidence: Confidence = "none"
    question: str = Field("", description="The question (phrasing) this attempt asked the knowledge base.")
    sources: list[str] = Field(default_factory=list)
    kept: bool = Field(False, description="This attempt's value is the cell's.")
    why: str = Field("", description="Why the attempt was weak (empty when it was good).")


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
    attempts: list[AttemptSummary] = Field(default_factory=list, description="Every attempt, when the cell was retried (spec Q2).")
    reused_from: str | None = Field(None, description="The earlier job whose answer this is (same column, row and knowledge base).")
    same_as_row: int | None = Field(None, description="The row of this run that asked the same question of the same company: its answer.")


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
    not_accepted: int = Field(0, description="Values the review left out (rejected or undecided).")
    not_found: int = Field(0, description="Rows the proposal has no value for (not found, skipped, error, or not run).")
    replaced: int = Field(0, description="Cells written over another value the table had (a column it already had).")
