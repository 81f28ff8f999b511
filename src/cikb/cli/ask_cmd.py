"""`cikb ask`, `cikb search`, `cikb logs`: questions against the knowledge base, and the LLM call log."""

from __future__ import annotations

from datetime import date, datetime
from typing import TYPE_CHECKING, Any

import typer
from rich.table import Table
from rich.text import Text

from cikb.cli._app import app, console, out, print_json, settings
from cikb.cli._text import plain, safe

if TYPE_CHECKING:  # the answer and LLM stack (openai) loads only when a command of this module runs
    from cikb.answer.models import Answer
    from cikb.retrieve.models import CompanyChoice, RetrievalResult, RetrievalTrace

MAX_LOGGED_CALLS = 1_000_000  # `logs -n`: more than any log holds, within SQLite's integers

@app.command("ask")
def ask_question(
    question: str = typer.Argument(..., help="The question, e.g. \"Who founded Acme and when?\""),
    company: str | None = typer.Option(None, "--company", "-c", help="Company slug or name (default: inferred from the question)."),
    as_json: bool = typer.Option(False, "--json", help="Answer, citations, sources, mode and the retrieval trace as JSON."),
) -> None:
    """Answer a question from the knowledge base, citing its sources as [1], [2]...

    With an LLM endpoint configured (llm.base_url, llm.model) the answer is written
    from the retrieved sources only; without one it quotes their best sentences.
    When nothing relevant is known the answer is "I don't have enough information about that."
    A question asking the same of several companies ("When were Acme and Globex founded?") is answered
    for each from its own sources.
    """
    from cikb.app.reading import ask, open_retriever

    _not_blank(question, "question")
    cfg = settings()
    with open_retriever(cfg) as retriever:
        result = ask(cfg, question, company=company, retriever=retriever)  # an unknown --company: its error line alone
        _print_model(retriever.embedder)
    if as_json:
        print_json(result)
    else:
        _print_answer(result)


@app.command("search")
def search_chunks(
    query: str = typer.Argument(..., help="What to look for."),
    company: str | None = typer.Option(None, "--company", "-c", help="Company slug or name (default: inferred from the query)."),
    as_json: bool = typer.Option(False, "--json", help="The retrieved chunks, scores, sources and trace as JSON."),
) -> None:
    """Show the chunks hybrid retrieval finds for a query: rank, fused score, cosine, source."""
    from cikb.app.reading import open_retriever

    _not_blank(query, "query")
    with open_retriever(settings()) as retriever:
        # strict: an unknown --company is its error line alone, naming the nearest ones, not another company's chunks
        result = retriever.search(query, company=company, strict=True)
        _print_model(retriever.embedder)
    if as_json:
        print_json(result)
    else:
        _print_chunks(result)


def _not_blank(text: str, what: str) -> None:
    """An empty question asks nothing: one error line, not the knowledge base's most general sentence."""
    from cikb.core.errors import BadInputError

    if not text.strip():
        raise BadInputError(f"the {what} is empty")


def _print_answer(result: Answer, note: bool = True) -> None:
    from cikb.answer.models import RELATED_READING

    if result.parts:  # "When were Acme and Globex founded?": each company's answer from its own sources, in turn
        named = ", ".join(_asked_of(part.retrieval.company) for part in result.parts)
        console.print(f"companies: {safe(named)} (the question asks the same of each: answered one by one)", highlight=False)
        for number, part in enumerate(result.parts):
            if number:
                out.print("", highlight=False)
            _print_answer(part, note=False)
        _print_note(result)  # once: "Extractive answer: ..." holds for every part
        return
    _print_company(result.retrieval)
    out.print(safe(result.answer, multiline=True), highlight=False)
    if result.short_answer:
        out.print(f"\n[bold]In short:[/bold] {safe(result.short_answer)}", highlight=False)
    if result.follow_up:
        out.print(f"[dim](read as: {safe(result.follow_up)})[/dim]", highlight=False)
    if note:
        _print_note(result)
    for warning in result.warnings:
        console.print(f"[yellow]warning:[/yellow] {safe(warning)}", highlight=False)
    if result.related:
        out.print(f"\n{RELATED_READING}:", highlight=False)
        for related in result.related:
            out.print(f"  - {safe(related.text)} [{related.number}]", highlight=False)
    if result.sources:
        out.print("\nSources:", highlight=False)
        for source in result.sources:
            out.print(f"  [{source.number}] {safe(source.title)} — {safe(source.url)} ({_dates(source.published, source.crawled_at)})",
                      highlight=False, markup=True)
    if result.abstained and result.retrieval.abstain_reason:
        console.print(f"[dim]why: {safe(result.retrieval.abstain_reason)}[/dim]", highlight=False)


def _print_note(result: Answer) -> None:
    if result.note:
        style = "yellow" if not result.grounded and not result.abstained else "dim"
        out.print(f"\n[{style}]{safe(result.note, multiline=True)}[/{style}]", highlight=False)


def _asked_of(choice: CompanyChoice) -> str:
    """Whom a part of the answer is about: the company's slug, else the name the question asked of (none held)."""
    return (choice.unknown_names or [choice.slug or choice.asked_about or "?"])[0]


def _print_chunks(result: RetrievalResult) -> None:
    from cikb.app.llm import one_line

    if result.parts:  # "Acme and Globex founders": each company's chunks, searched alone
        named = ", ".join(_asked_of(part.trace.company) for part in result.parts)
        console.print(f"companies: {safe(named)} (the query asks the same of each: searched one by one)", highlight=False)
        for number, part in enumerate(result.parts):
            if number:
                out.print("", highlight=False)
            _print_chunks(part)
        return
    _print_company(result.trace)
    if not result.chunks:
        out.print(f"no chunk found: {safe(result.trace.abstain_reason or 'nothing passed retrieval')}", highlight=False)
        return
    in_context = {c.chunk.id for c in result.context}
    for item in result.chunks:
        meta = item.chunk.metadata
        cosine = f"{item.dense_score:.3f}" if item.dense_score is not None else "-"
        budget = "" if item.chunk.id in in_context else "  (outside the context budget)"
        out.print(f"[bold][{item.rank}][/bold] score {item.score:.4f}  cosine {cosine}  {safe(meta.title)}{budget}", highlight=False)
        out.print(f"    {safe(meta.url)} ({_dates(meta.published, meta.scraped_at)}, chunk {meta.chunk_index})", highlight=False)
        out.print(f"    {safe(one_line(plain(item.chunk.text), 300))}\n", highlight=False)


def _dates(published: date | None, crawled: datetime) -> str:
    """A source's dates as its line shows them: "published 2019-03-05, crawled 2026-11-28" (a post), else the crawl's."""
    return (f"published {published:%Y-%m-%d}, " if published is not None else "") + f"crawled {crawled:%Y-%m-%d}"


def _print_model(embedder: Any) -> None:
    info = embedder.info
    line = f"embedding model: {info.name} ({info.backend}, {info.variant})"
    if getattr(embedder, "fallback_reason", None):
        line += f", the offline fallback for {embedder.requested}"
    console.print(safe(line), highlight=False, soft_wrap=True)


def _print_company(trace: RetrievalTrace) -> None:
    choice = trace.company
    if choice.slug and choice.source == "inferred":
        line = f"company: {choice.slug} (inferred from {choice.matched!r})"
    elif choice.slug:
        line = f"company: {choice.slug}"
    elif choice.unknown_names:
        line = "company: all (the question names none the knowledge base holds)"
    elif choice.asked_about:  # "When was Stripe founded?": no company held, read where the sources mention it
        line = f"company: all (the question asks about {choice.asked_about!r}, no company of the knowledge base)"
    else:
        line = "company: all (none named in the question)"
    if choice.unknown_names:
        # "Acme Robotics" shares a word with Acme Corp and is not it: the sources found are another company's.
        line += f"; {trace.abstain_reason}"  # the retriever's words: "no retrieved source mentions Acme Robotics"
    console.print(safe(line), highlight=False, soft_wrap=True)


@app.command("logs")
def show_logs(
    count: int = typer.Option(10, "-n", "--count", min=1, max=MAX_LOGGED_CALLS, help="How many of the newest calls."),
    step: str | None = typer.Option(None, "--step", help="Only calls of this step (e.g. answer, enrich:lookup)."),
    as_json: bool = typer.Option(False, "--json", help="Full calls (messages, response, params) as JSON."),
) -> None:
    """Show the most recent LLM calls (newest first) from data/logs.db."""
    from cikb.app.llm import LOG_DB_NAME, CallLog, one_line

    cfg = settings()
    calls = CallLog(cfg.data_dir / LOG_DB_NAME, secrets=cfg.secrets()).recent(count, step=step)
    if as_json:
        print_json([call.model_dump(mode="json") for call in calls])
        return
    table = Table("id", "when (UTC)", "step", "model", "tokens in/out", "latency", "response or error")
    for call in calls:
        # Plain Text cells: a logged response or error is shown as written, never read as Rich markup.
        outcome = Text(one_line(plain(call.error or call.response or ""), 80), style="red" if call.error else "")
        table.add_row(
            str(call.id), call.created_at.strftime("%Y-%m-%d %H:%M:%S"), Text(plain(call.step)), Text(plain(call.model)),
            f"{_count(call.prompt_tokens)}/{_count(call.completion_tokens)}",
            f"{call.latency_s:.2f}s" if call.latency_s is not None else "-", outcome,
        )
    out.print(table if calls else f"no LLM calls of step {step!r} logged" if step else "no LLM calls logged yet")


def _count(tokens: int | None) -> str:
    return "-" if tokens is None else str(tokens)  # 0 is a count the endpoint gave, "-" none given
