"""What the pages read: thin calls into the application's API, run in a worker thread by the handlers.

Each function opens what it needs (retriever, jobs database, store) and closes it before it returns,
so a gather or an enrichment running beside the server is never held up between two page loads.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt

from cikb.core.config import Settings

# Scraped Markdown rendered as HTML: raw HTML in it stays text (html off), and markdown-it refuses
# javascript:, vbscript: and data: links by itself (validateLink).
_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")

JOBS_PER_PAGE = 20
ROWS_PER_PAGE = 50


def markdown(text: str) -> str:
    """HTML for the page (the template marks it safe: markdown-it escaped the text itself)."""
    return _MARKDOWN.render(text)


def ask(settings: Settings, question: str, company: str | None):
    """The CLI's `cikb ask`, plus the text of every chunk in the context (what a citation opens)."""
    from cikb.app.reading import ask as ask_kb
    from cikb.app.reading import chunk_texts, open_retriever

    with open_retriever(settings) as retriever:
        answer = ask_kb(settings, question, company, retriever)
        return answer, chunk_texts(retriever, [source.chunk_id for source in answer.context])


def search(settings: Settings, query: str, company: str | None):
    """The CLI's `cikb search`: the chunks hybrid retrieval finds, with its trace."""
    from cikb.app.reading import open_retriever

    with open_retriever(settings) as retriever:
        # strict: an unknown company is an error naming the nearest ones, not another company's chunks
        return retriever.search(query, company=company, strict=True)


def company(settings: Settings, slug: str) -> dict[str, Any]:
    """One company's status, sources, changes and documents (file name, document), the facts document apart."""
    from cikb.app.documents import company_documents, is_facts_document
    from cikb.app.kb import company_detail

    detail = company_detail(settings, slug)
    documents = company_documents(settings, detail.status.slug)
    facts = next(((name, doc) for name, doc in documents if is_facts_document(doc)), None)
    documents.sort(key=lambda item: (item[1].scraped_at, item[1].url), reverse=True)
    return {"detail": detail, "changes": changes(settings, detail.status.slug), "documents": documents, "facts": facts}


def document(settings: Settings, slug: str, name: str) -> dict[str, Any]:
    """One raw document of a company, and the chunks the store holds for it."""
    from cikb.app.documents import company_document, document_chunks, is_facts_document

    doc = company_document(settings, slug, name)
    return {"slug": slug, "file": name, "doc": doc, "facts": is_facts_document(doc), "chunks": document_chunks(settings, doc)}


def changes(settings: Settings, slug: str) -> list[tuple[Any, list[tuple[str, str]]]]:
    """What each gather of the company changed, newest first, each with its fact notes and their pages (`cikb changes`)."""
    from cikb.app.changes import ChangeLog, fact_note, shown_facts

    history = ChangeLog(settings.data_dir).history(slug)
    return [(gather, [(fact_note(fact), fact.page) for fact in shown_facts(gather)]) for gather in reversed(history)]


@dataclass(frozen=True)
class Pages:
    """Which page of a list is shown: ``number`` (0-based) of ``count``."""

    number: int
    count: int

    @classmethod
    def of(cls, wanted: int, items: int, per_page: int) -> Pages:
        count = max(1, -(-items // per_page))
        return cls(min(max(wanted, 0), count - 1), count)


def jobs(settings: Settings, page: int) -> tuple[list[Any], Pages, bool]:
    """`cikb jobs`, newest first: one page of them, which page, and whether any job runs."""
    from cikb.app.jobs import JobStore

    with JobStore(settings.data_dir) as store:
        listed = store.list()
    pages = Pages.of(page, len(listed), JOBS_PER_PAGE)
    start = pages.number * JOBS_PER_PAGE
    return listed[start:start + JOBS_PER_PAGE], pages, any(job.status == "running" for job in listed)


def slot_key(column: str) -> str:
    """A column name as an HTML id part (any text may name a column)."""
    return hashlib.sha256(column.encode("utf-8")).hexdigest()[:8]


@dataclass(frozen=True)
class JobPage:
    """One page of a job's rows: row numbers [first, last) of every column; ``logs`` the finished ones among them."""

    job: Any
    pages: Pages
    first: int
    last: int
    logs: dict[tuple[str, int], Any]
    attempts: list[Any]

    @property
    def slots(self) -> list[tuple[str, int]]:
        """Every (column, row) the page shows: a finished row, or a placeholder its row replaces when it finishes."""
        return [(column, row) for column in self.job.columns for row in range(self.first, self.last)]


def job(settings: Settings, job_id: str, page: int) -> JobPage:
    """`cikb jobs show ID`, one page of rows at a time: the job, each finished row's research log, and its attempts."""
    from cikb.app.jobs import JobStore

    with JobStore(settings.data_dir) as store:
        found = store.get(job_id)
        rows = found.total // max(1, len(found.columns))
        pages = Pages.of(page, rows, ROWS_PER_PAGE)
        first = pages.number * ROWS_PER_PAGE
        last = min(rows, first + ROWS_PER_PAGE)
        logs = {}
        for column in found.columns:  # logs come by row number: stop after the page's rows
            for log in store.logs(found.id, column):
                if log.row_id >= last:
                    break
                if log.row_id >= first:
                    logs[(column, log.row_id)] = log
        attempts = [a for a in store.attempts(found.id) if first <= a.row_id < last]
    return JobPage(found, pages, first, last, logs, attempts)
