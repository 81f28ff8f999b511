"""Reading the knowledge base: a retriever over the configured store, answers, enrichment.

Nothing here imports the write path (chunking, indexing, gathering): reading never
embeds a document. The one exception is repair: when a gather was killed between its
raw swap and its store write, the first reader rolls that commit forward, and only
then is the write path imported.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

from cikb.answer import Answerer, join_answers, sure_answer_first
from cikb.answer.models import Answer
from cikb.embed import Bm25Encoder, load_embedder
from cikb.enrich import enrich_table_async as enrich_rows_async
from cikb.enrich.base import Completer
from cikb.enrich.kb import LazyKnowledgeBase
from cikb.enrich.models import DataProposal
from cikb.enrich.providers import SearchCall, SearchCallback, open_web_provider
from cikb.retrieve import Retriever
from cikb.store import VectorStore, open_store

from cikb.app.llm import LOG_DB_NAME, CallLog, LLMClient, llm_secrets
from cikb.app.workspace import (
    CompanyDir,
    check_companies,
    check_points,
    company_identities,
    company_names,
    list_companies,
    process_alive,
)
from cikb.core.config import Settings, load_settings
from cikb.core.errors import BadInputError, access_checked

Auto = Literal["auto"]


def open_retriever(settings: Settings, snapshot: Path | None = None) -> Retriever:
    """The configured store, embedding model and BM25 encoder behind one Retriever.

    The embedded store is held only while each search reads it (a gather commits between two
    searches, never during one). With ``snapshot`` (an empty directory), it is copied there and
    the retriever reads the copy: the reader keeps seeing one state (the generation current when
    it opened) through many searches.

    Raises ModelMismatchError when the store's vectors come from another model
    than the one that would embed the queries, DamagedError (the path and the command
    that repairs it) when the knowledge base's files are damaged. Use it in a ``with``
    block, or ``close()`` it.
    """
    with access_checked(settings.data_dir):
        check_companies(settings.data_dir)
        finish_interrupted_commits(settings)
        embedder = load_embedder(settings.embed)  # before the store: a gather may commit while the model loads
        live = open_store(settings, reader=True)
        try:
            with live.session():  # the companies' files and their points, as one commit left them
                companies = list_companies(settings.data_dir)
                check_store(live, companies)
                live.check_model(embedder.info)
                # The embedded store can be copied; a server has no lock to free.
                store = live.copy_to(snapshot) if snapshot is not None and hasattr(live, "copy_to") else live
        except BaseException:
            live.close()
            raise
        if store is not live:
            live.close()
        # The offline reader's sure answer reorders only what the offline reader reads: an LLM reads the
        # context as retrieval ranked it (issue 23, item 5: no measurement shows the LLM path gains).
        reorder = sure_answer_first if settings.retrieve.answer_first and not settings.llm.configured else None
        return Retriever(settings, store, embedder, Bm25Encoder(), company_names=company_names(companies), reorder=reorder,
                         identities=company_identities(companies))


def check_store(store: VectorStore, companies: list[CompanyDir]) -> None:
    """DamagedError when the store lacks the points of a gathered company (a deleted or damaged store)."""
    if companies:
        check_points(companies, store.companies(), store.location, store.count)


def finish_interrupted_commits(settings: Settings) -> None:
    """Roll forward a gather killed mid-commit, so no reader sees a company half old, half new."""
    if any(folder.pending() for folder in list_companies(settings.data_dir)):
        from cikb.app.kb import (
            recover_pending,  # the write path, only when there is something to repair
        )

        recover_pending(settings)


def ask(settings: Settings, question: str, company: str | None = None, retriever: Retriever | None = None) -> Answer:
    """Answer ``question`` from the knowledge base (the company given, or inferred from the question).

    Opens (and closes) the configured store and model unless a ``retriever`` is passed in. A ``company``
    the knowledge base does not hold (by slug, name or a name its pages give it) raises UnknownCompanyError, an empty
    question BadInputError. A question asking the same of several companies it holds ("When were Acme and Globex
    founded?") is answered for each from its own sources, the answers joined (``Answer.parts``).
    """
    if not question.strip():
        raise BadInputError("the question is empty")
    if retriever is None:
        with open_retriever(settings) as opened:
            return ask(settings, question, company, opened)
    answerer = Answerer(LLMClient.from_settings(settings), embedder=retriever.embedder,
                        search=lambda follow_up, slug: retriever.search(follow_up, company=slug))
    # strict: an unknown company is an error naming the nearest ones, never another company's answer
    retrieval = retriever.search(question, company=company, strict=True)
    if retrieval.parts:  # "When were Acme and Globex founded?": each company's answer from its own sources
        parts = [answerer.answer(part.query, part) for part in retrieval.parts]
        # Each under its company's display name, a name the knowledge base does not hold as the question writes it.
        labels = [(part.retrieval.company.name if asked.slug else None) or asked.name
                  for asked, part in zip(retrieval.trace.asked_of, parts)]
        return join_answers(question, parts, labels)
    return _whose(answerer.answer(question, retrieval))


def _whose(answer: Answer) -> Answer:
    """``answer`` with a warning saying whose sources answered, where the question named no company and the knowledge
    base holds several: "Who is the CEO?" is answered from whichever company's pages state it best."""
    choice, held = answer.retrieval.company, answer.retrieval.companies_held
    if answer.abstained or choice.slug or choice.asked_about or held < 2 or not answer.sources:
        return answer
    whose = ", ".join(dict.fromkeys(source.company for source in answer.sources))
    warning = (f"the question names no company: this answer is from {whose}'s sources, of the {held} companies the "
               "knowledge base holds (name one in the question, or use --company)")
    return answer.model_copy(update={"warnings": [*answer.warnings, warning]})


def default_completer(settings: Settings) -> Completer | None:
    """The configured LLM as enrichment's Completer (every call logged by cikb.app.llm), or None offline."""
    client = LLMClient.from_settings(settings)
    if not client.configured:
        return None

    def complete(step: str, messages: list[dict[str, str]]) -> str:
        return client.complete(step, messages).text

    return complete


def search_logger(settings: Settings) -> SearchCallback:
    """Web searches into the LLM call log (``logs.db``, step ``enrich:web-search``), beside the LLM calls."""
    log = CallLog(settings.data_dir / LOG_DB_NAME, secrets=llm_secrets(settings.llm))

    def record(call: SearchCall) -> None:
        log.record(step="enrich:web-search", model=call.provider, messages=[{"role": "user", "content": call.query}],
                   params={"provider": call.provider}, response=json.dumps(call.urls), prompt_tokens=None,
                   completion_tokens=None, latency_s=call.latency_s, error=call.error)

    return record


async def enrich_table_async(csv_path: str | Path, column: str, *, settings: Settings | None = None,
                             kb: Any = "auto", llm: Any = "auto", web: Any = "auto", **options: Any) -> DataProposal:
    """``cikb.enrich.enrich_table_async`` over the configured knowledge base and LLM.

    ``kb``, ``llm`` and ``web`` default to what ``settings`` configures (every LLM call and
    web search logged in ``logs.db``); pass None to leave one out, or an object of your own. Every other option goes to the enrich stage as is.
    """
    settings = settings or load_settings()
    with enrich_sources(settings, kb=kb, llm=llm, web=web) as sources:
        return await enrich_rows_async(csv_path, column, settings=settings, **sources, **options)


@contextmanager
def enrich_sources(settings: Settings, *, kb: Any = "auto", llm: Any = "auto", web: Any = "auto") -> Iterator[dict[str, Any]]:
    """The ``kb``, ``llm`` and ``web`` an enrichment reads, each ``"auto"`` one opened as ``settings`` configures it:
    the knowledge base checked now and read from one snapshot of the store (taken on its first search), closed at the end.
    Several columns of one job share them, so they read one generation of the store."""
    if kb == "auto":  # damage is one clear error now, not an error in every row that looks something up
        with access_checked(settings.data_dir):
            finish_interrupted_commits(settings)
            if companies := check_companies(settings.data_dir):
                with open_store(settings) as store:
                    check_store(store, companies)
    with read_snapshot_dir(settings) as snapshot:
        opened = LazyKnowledgeBase(lambda: open_retriever(settings, snapshot)) if kb == "auto" else None
        try:
            yield {"kb": opened or kb, "llm": default_completer(settings) if llm == "auto" else llm,
                   "web": open_web_provider(settings, search_logger(settings)) if web == "auto" else web}
        finally:
            if opened is not None:
                opened.close()


SNAPSHOTS = "_snapshots"  # under data_dir; names starting with _ are never company slugs


def knowledge_base_fingerprint(settings: Settings) -> str:
    """sha256 of what an enrichment answers from: each company's indexed generation, the store, the embedding
    model, and the LLM and web search configured to read them.

    Equal fingerprints mean an enrichment would read the same chunks the same way; a gather,
    rebuild or forget changes it, and so does another LLM or search provider.
    """
    companies = [(folder.slug, folder.indexed_id()) for folder in list_companies(settings.data_dir)]
    state = {"companies": companies, "store": settings.store.model_dump(mode="json", include={"mode", "collection", "url", "path"}),
             "model": settings.embed.model_dump(mode="json", include={"model", "model_path"}),
             "llm": settings.llm.model_dump(mode="json", include={"base_url", "model"}),
             "web": settings.enrich.model_dump(mode="json", include={"search_provider", "search_url", "search_model"})}
    return hashlib.sha256(json.dumps(state, sort_keys=True, default=str).encode()).hexdigest()


def enrich_table(csv_path: str | Path, column: str, **options: Any) -> DataProposal:
    """:func:`enrich_table_async` for code without a running event loop."""
    import asyncio

    return asyncio.run(enrich_table_async(csv_path, column, **options))


@contextmanager
def read_snapshot_dir(settings: Settings) -> Iterator[Path]:
    """An empty directory for one reader's copy of the store, removed afterwards (and when its process died)."""
    root = settings.data_dir / SNAPSHOTS
    root.mkdir(parents=True, exist_ok=True)
    for stale in root.iterdir():
        pid = stale.name.split("-", 1)[0]
        if pid.isdigit() and not process_alive(int(pid)):  # left by a killed enrichment
            shutil.rmtree(stale, ignore_errors=True)
    # Ctrl-C can stop the run while the store still writes its copy ("Directory not empty"): what is left is this
    # process's, removed as stale by the next reader, and the run goes on to write the rows that finished.
    with tempfile.TemporaryDirectory(dir=root, prefix=f"{os.getpid()}-", ignore_cleanup_errors=True) as directory:
        yield Path(directory)


def chunk_texts(retriever: Retriever, chunk_ids: Iterable[str]) -> dict[str, str]:
    """The stored text of each chunk (an answer's sources), read back from the retriever's store."""
    return {point.chunk.id: point.chunk.text for point in retriever.store.points(chunk_ids)}
