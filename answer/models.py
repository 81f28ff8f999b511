"""A grounded answer with its numbered sources, or the abstention sentence (spec A1-A3, R3)."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Literal

from cikb.retrieve.models import RetrievalTrace
from pydantic import BaseModel, Field

from cikb.core.models import SourceType

ABSTENTION = "I don't have enough information about that."
# The heading of the sentences shown beside an abstention: they hold the asked kind of value or the question's words,
# and the reader did not take them as stating the answer, which often one does (check them).
RELATED_READING = "Related reading (not read as stating the answer; check them, it may be there)"
# A reply that says the answer is not there, in any of the ways a model words it: "Not stated in the sources", "None
# disclosed", "This is not mentioned in the context" (`ask` takes it for the abstention, `enrich` for no value).
_NOT_THERE = re.compile(
    r"(?:(?:it|this|that|the answer) (?:is|was) )?(?:not|none|never|nothing) (?:(?:explicitly|clearly|directly) )?"
    r"(?:stated|given|mentioned|provided|specified|disclosed|available|known|listed|found|reported|said|indicated|named)"
    r"(?: (?:in|by|from|on) (?:the |any )?(?:sources?|context|texts?|passages?|pages?|documents?|information(?: given| provided)?))?"
)


def says_not_there(text: str) -> bool:
    """Whether ``text`` says only that the answer is not there (case, spacing and end punctuation aside)."""
    return bool(_NOT_THERE.fullmatch(" ".join(text.lower().split()).strip(" .!;:")))


AnswerMode = Literal["llm", "extractive"]


class Source(BaseModel):
    """A numbered context chunk as the answer cites it: [number] -> title, url, crawl date."""

    number: int
    title: str
    url: str
    source_type: SourceType
    company: str
    crawled_at: datetime
    published: date | None = Field(None, description="The post's publication date, where its page states one.")
    chunk_id: str
    score: float = Field(description="The chunk's fused retrieval score.")
    dense_score: float | None = None


class Related(BaseModel):
    """A sentence close to the question that does not state its answer: to read, never to copy as the answer."""

    text: str
    number: int = Field(description="The number of the source it is quoted from.")


class Answer(BaseModel):
    """A grounded answer with citations, or the abstention sentence (spec A1-A3, R3)."""

    question: str
    answer: str
    mode: AnswerMode
    grounded: bool = Field(description="Every sentence of substance cites a source that was in the context and states it.")
    abstained: bool = Field(False, description="The answer is exactly the abstention sentence.")
    citations: list[int] = Field(default_factory=list, description="Valid source numbers the answer cites, in order of first use.")
    removed_citations: list[int] = Field(default_factory=list, description="Numbers the answer cited that were not in the context: removed (A2).")
    uncited_sentences: list[str] = Field(default_factory=list, description="Sentences of substance that cite nothing.")
    unsupported_sentences: list[str] = Field(
        default_factory=list,
        description="Sentences whose cited sources do not state them (a valid number is not enough; text in a "
                    "source that addresses the reader as instructions states nothing).")
    short_answer: str | None = Field(None, description="Extractive mode: the year, number or name that answers a when/how-many/who question.")
    confidence: Literal["high", "medium", "low"] | None = Field(
        None, description="Extractive mode: how directly the quoted sentence states the short answer (low only for free text).")
    related: list[Related] = Field(
        default_factory=list,
        description="When abstaining: the closest sentences of the sources, none read as stating the answer (related reading: the answer may be in them, unconfirmed).")
    sources: list[Source] = Field(default_factory=list, description="The cited sources, by number.")
    context: list[Source] = Field(default_factory=list, description="Every numbered source that was in the context.")
    note: str | None = Field(None, description="A line to show with the answer, e.g. that it is extractive.")
    follow_up: str | None = Field(
        None, description="Extractive mode: a second question retrieved for, whose sources (numbered after the first "
                          "retrieval's) the answer comes from (\"Who is the CEO of Acme?\" for \"Who runs Acme?\").")
    warnings: list[str] = Field(default_factory=list)
    parts: list[Answer] = Field(
        default_factory=list, description="A question asking the same of several companies (\"When were Acme and Globex founded?\"): "
                                          "each company's answer from its own sources, numbered as in the joined answer.")
    llm_model: str | None = None
    llm_log_id: int | None = None
    retrieval: RetrievalTrace
