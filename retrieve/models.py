"""What retrieval returns: the chosen company, the passing chunks and a trace (spec R1-R3)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from cikb.core.models import ScoredChunk

CompanySource = Literal["explicit", "inferred", "llm", "none"]


class CompanyChoice(BaseModel):
    """Which company a question is about, and how that was decided (spec R2)."""

    slug: str | None = Field(None, description="The company filter, or None to search every company.")
    source: CompanySource = "none"
    matched: str | None = Field(None, description="The words of the question that named it.")
    name: str | None = Field(None, description="The company's display name, when the knowledge base records one.")
    aliases: list[str] = Field(default_factory=list, description="The other names the company's own pages give it.")
    known: bool = Field(True, description="False when the company asked about is not in the knowledge base.")
    unknown_names: list[str] = Field(default_factory=list, description="Names in the question that no retrieved chunk mentions.")
    asked_about: str | None = Field(None, description="With no company of the knowledge base named: the name the question asks about "
                                                      "(\"Initech\" in \"When was Initech founded?\"), which retrieved chunks mention.")

    @property
    def subject(self) -> str:
        """What to call the company: its display name, else the question's words for it, else its slug's words; with
        none, the name the question asks about (an answer is then about it, never about another company in the texts)."""
        return self.name or self.matched or (self.slug or "").replace("-", " ") or (self.asked_about or "")


class AskedOf(BaseModel):
    """One of the names a question asks the same thing of ("When were Acme and Globex founded?"), and the question
    asked of it alone ("When were Acme founded?")."""

    slug: str | None = Field(description="The knowledge-base company it names, or None: a name the knowledge base does not hold.")
    name: str = Field(description="The question's words for it.")
    question: str


class RetrievalTrace(BaseModel):
    """What retrieval did, for --json and debugging."""

    query: str
    company: CompanyChoice
    embedding_model: str | None = None
    prefetch_limit: int
    fusion: str = "dbsf"
    fusion_weights: tuple[float, float] = (1.0, 1.0)
    rrf_k: int
    page_kind_weights: dict[str, float] = Field(default_factory=dict, description="The prior each candidate's page kind weighed its fused score by.")
    expanded: list[str] = Field(default_factory=list, description="Relation words added to the BM25 query (retrieve.expansion_weight).")
    rerank: str = "sentences"
    top_k: int
    score_threshold: float
    context_budget: int = Field(description="Context tokens allowed (settings.retrieve.context_tokens).")
    passed: int = Field(0, description="Chunks that passed the dense threshold, after fusion.")
    in_context: int = 0
    context_tokens: int = 0
    skipped_for_budget: list[str] = Field(default_factory=list, description="Ids of passing chunks that did not fit the budget.")
    collapsed: list[str] = Field(default_factory=list, description="Ids of candidates left out as near-copies of a better-ranked chunk.")
    promoted: str | None = Field(None, description="Id of the chunk the application's reorder step moved first (the reader's sure answer).")
    abstain_reason: str | None = None
    companies_held: int = Field(0, description="How many companies the knowledge base held when it was searched.")
    asked_of: list[AskedOf] = Field(
        default_factory=list, description="The names the question asks the same thing of, each searched alone (RetrievalResult.parts).")
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
    parts: list[RetrievalResult] = Field(
        default_factory=list, description="A question asking the same of several companies (trace.asked_of): each one's own search.")

    @property
    def empty(self) -> bool:
        """Nothing to answer from: the answer is the abstention sentence (spec R3)."""
        return not self.context
