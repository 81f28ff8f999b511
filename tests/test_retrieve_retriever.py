"""R1-R3 through the Retriever against the real embedded store, with a tiny bag-of-words embedder."""

from __future__ import annotations

import zlib
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pytest
from cikb.embed import Bm25Encoder
from cikb.retrieve import Retriever
from cikb.store import open_store

from cikb.core.config import Settings
from cikb.core.errors import BadInputError, UnknownCompanyError
from cikb.core.models import PAGE_KINDS, Chunk, ChunkMetadata, ModelInfo

DIM = 128


class WordsEmbedder:
    """Hashed bag of stems, L2-normalised: cosine = shared vocabulary (no model weights needed)."""

    info = ModelInfo(name="tests/bag-of-words", dim=DIM, backend="tests", variant="numpy-fp32", pooling="mean")

    def __init__(self) -> None:
        self.bm25 = Bm25Encoder()
        self.queries: list[str] = []

    def _vector(self, text: str) -> np.ndarray:
        vector = np.zeros(DIM, dtype=np.float32)
        for stem in self.bm25.tokenize(text):
            vector[zlib.crc32(stem.encode()) % DIM] += 1.0
        norm = np.linalg.norm(vector)
        return vector / norm if norm else vector + 1 / np.sqrt(DIM)

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        return np.stack([self._vector(t) for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        self.queries.append(text)
        return self._vector(text)


DOCS = {
    "acme-corp": [
        ("Acme founders", "Acme Corp was founded in 1949 by Wile Coyote and Jane Doe in Springfield."),
        ("Acme products", "Acme Corp sells anvils, rockets and giant magnets to desert customers."),
        ("Acme factories", "Acme Corp opened factories in Mexico and Ohio; the factories build rockets."),
    ],
    "globex": [
        ("Globex founders", "Globex was founded in 1989 by Hank Scorpio in Cypress Creek."),
        ("Globex products", "Globex sells doomsday devices and hammocks to governments."),
    ],
}
TOKENS = [60, 70, 30]  # as if counted by a model's tokenizer: sizes that make the budget bite
NAMES = {"acme-corp": "Acme Corporation", "globex": "Globex"}
EQUAL_KINDS = dict.fromkeys(PAGE_KINDS, 1.0)


def _chunks(slug: str) -> list[Chunk]:
    when = datetime(2026, 3, 1, tzinfo=timezone.utc)
    return [
        Chunk(id=f"{zlib.crc32(f'{slug}{i}'.encode()):08x}-0000-4000-8000-{i:012d}", text=text, token_count=TOKENS[i],
              metadata=ChunkMetadata(url=f"https://{slug}.example/{i}", title=title, company=slug,
                                     source_type="website", chunk_index=0, scraped_at=when))
        for i, (title, text) in enumerate(DOCS[slug])
    ]


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    """One store for the module: these tests only read."""
    settings = Settings(data_dir=tmp_path_factory.mktemp("kb") / "data")
    embedder, bm25 = WordsEmbedder(), Bm25Encoder()
    store = open_store(settings)
    store.ensure_collection(embedder.info, bm25_avg_len=10.0)
    for slug in DOCS:
        chunks = _chunks(slug)
        texts = [c.text for c in chunks]
        store.replace_company(slug, chunks, embedder.embed_documents(texts), Bm25Encoder(avg_len=10.0).encode_documents(texts))
    yield settings, store, embedder, bm25
    store.close()


def _retriever(kb, **retrieve) -> Retriever:
    settings, store, embedder, bm25 = kb
    if retrieve:
        settings = settings.model_copy(update={"retrieve": settings.retrieve.model_copy(update=retrieve)})
    return Retriever(settings, store, embedder, bm25, company_names=NAMES)


def test_explicit_company_filters_and_the_trace_says_so(kb):
    result = _retriever(kb).search("Who founded it?", company="globex")
    assert {c.chunk.metadata.company for c in result.chunks} == {"globex"}
    assert result.context[0].chunk.metadata.title == "Globex founders"
    trace = result.trace
    assert trace.company.slug == "globex" and trace.company.source == "explicit"
    assert (trace.prefetch_limit, trace.rrf_k, trace.top_k, trace.score_threshold) == (50, 60, 10, 0.3)  # an unknown model: the spec's 0.3
    assert trace.embedding_model == "tests/bag-of-words" and trace.passed == len(result.chunks)
    assert trace.abstain_reason is None and not result.empty
    assert [c.rank for c in result.chunks] == list(range(1, len(result.chunks) + 1))


def test_explicit_company_may_be_given_by_name(kb):
    result = _retriever(kb).search("Who founded it?", company="Acme Corporation")
    assert result.trace.company.slug == "acme-corp" and result.trace.company.source == "explicit"


@pytest.mark.parametrize(
    ("question", "slug", "matched"),
    [("Who founded Acme Corporation?", "acme-corp", "acme corporation"),
     ("What does acme sell?", "acme-corp", "acme"),  # the name without its legal form
     ("When was Acme Corp founded?", "acme-corp", "acme corp"),  # the slug's words
     ("What does Globex's company sell?", "globex", "globex")],
)
def test_company_is_inferred_from_the_question(kb, question, slug, matched):
    result = _retriever(kb).search(question)
    assert (result.trace.company.slug, result.trace.company.source, result.trace.company.matched) == (slug, "inferred", matched)
    assert {c.chunk.metadata.company for c in result.chunks} == {slug}
    # The subject the reader is given is the display name, not the question's lower-cased words for it.
    assert result.trace.company.name == result.trace.company.subject == NAMES[slug]


def test_a_company_the_kb_does_not_hold_abstains_without_searching(kb):
    retriever = _retriever(kb)
    retriever.embedder.queries.clear()
    result = retriever.search("Who founded Initech?", company="initech")
    assert result.empty and result.chunks == [] and not result.trace.company.known
    assert "initech" in result.trace.abstain_reason
    assert retriever.embedder.queries == []  # nothing was embedded or searched


def test_a_question_naming_an_unknown_company_abstains(kb):
    result = _retriever(kb).search("Does Initech of Austin sell rockets and anvils?")
    assert result.empty and result.chunks  # chunks passed, but none mentions Initech or Austin
    assert result.trace.company.slug is None and result.trace.company.unknown_names == ["Initech", "Austin"]
    assert "Initech" in result.trace.abstain_reason


def test_an_inferred_company_with_an_unknown_person_abstains(kb):
    result = _retriever(kb).search("Was Acme Corporation founded in Springfield by Pete Puma?")
    assert result.trace.company.slug == "acme-corp" and result.empty
    assert result.trace.company.unknown_names == ["Pete Puma"]
    assert not _retriever(kb).search("When was Acme Corporation founded?").empty


def test_no_company_named_searches_every_company(kb):
    result = _retriever(kb).search("who sells rockets and anvils")
    assert result.trace.company.source == "none" and not result.empty
    assert result.context[0].chunk.metadata.title == "Acme products"


def test_nothing_past_the_dense_threshold_gives_an_empty_result(kb):
    result = _retriever(kb, score_threshold=0.95).search("Who founded it?", company="acme-corp")
    assert result.empty and result.chunks == []
    assert "threshold 0.95" in result.trace.abstain_reason
    assert all(c.dense_score >= 0.3 for c in _retriever(kb).search("founded", company="acme-corp").chunks)


def test_context_is_packed_best_first_within_the_token_budget(kb):
    question = "Acme rockets factories anvils founded"
    full = _retriever(kb, score_threshold=0.0).search(question, company="acme-corp")
    assert len(full.context) == 3 and full.trace.context_tokens == 160
    packed = _retriever(kb, score_threshold=0.0, context_tokens=100).search(question, company="acme-corp")
    expected, used = [], 0
    for chunk in full.chunks:  # greedy in rank order: a chunk that does not fit is skipped, smaller ones may follow
        if used + chunk.chunk.token_count <= 100:
            expected.append(chunk.chunk.id)
            used += chunk.chunk.token_count
    assert [c.chunk.id for c in packed.context] == expected
    assert packed.trace.context_tokens == used <= 100 and packed.trace.in_context == len(expected)
    assert packed.trace.skipped_for_budget and set(packed.trace.skipped_for_budget).isdisjoint(expected)
    assert packed.chunks == full.chunks  # the budget trims the context, not the retrieved list


def test_fusion_and_rerank_follow_the_settings_and_the_trace_says_so(kb):
    settings, store, embedder, bm25 = kb
    question = "When was Acme founded?"
    default = _retriever(kb).search(question, company="acme-corp")
    assert (default.trace.fusion, default.trace.fusion_weights, default.trace.rerank) == ("dbsf", (1.0, 1.0), "sentences")
    assert default.trace.page_kind_weights == {"company": 1.0, "news": 1.0, "page": 0.7, "generic": 0.5, "listing": 0.5}
    assert 0.0 <= min(c.score for c in default.chunks) and max(c.score for c in default.chunks) <= 1.0  # the reranked mix
    # Equal-vote RRF without the rerank or the page-kind prior is exactly the store's RRF, as before issue 10.
    plain = _retriever(kb, fusion="rrf", rerank="none", page_kind_weights=EQUAL_KINDS).search(question, company="acme-corp")
    stored = store.hybrid_search(embedder.embed_query(question), bm25.encode_query(question), company="acme-corp", fusion="rrf")
    assert [(c.chunk.id, c.score) for c in plain.chunks] == [(c.chunk.id, c.score) for c in stored]
    # Pages of one kind weigh alike: the prior scales their scores and keeps their order.
    weighed = _retriever(kb, fusion="rrf", rerank="none").search(question, company="acme-corp")
    assert [c.chunk.id for c in weighed.chunks] == [c.chunk.id for c in stored]
    assert (plain.trace.fusion, plain.trace.rerank) == ("rrf", "none")
    # The rerank reorders, never adds or drops: the same chunks either way.
    assert {c.chunk.id for c in default.chunks} == {c.chunk.id for c in _retriever(kb, rerank="none").search(question, company="acme-corp").chunks}
    assert default.context[0].chunk.metadata.title == "Acme founders"


def test_the_applications_reorder_step_runs_last_with_the_company_name_and_is_traced(kb):
    seen = []

    def last_first(question, company, chunks):
        seen.append((question, company, len(chunks)))
        return [c.model_copy(update={"rank": n}) for n, c in enumerate([chunks[-1], *chunks[:-1]], start=1)]

    settings, store, embedder, bm25 = kb
    question = "Which rockets does Acme Corp sell and build?"
    plain = _retriever(kb).search(question, company="acme-corp")
    reordered = Retriever(settings, store, embedder, bm25, company_names=NAMES, reorder=last_first).search(question, company="acme-corp")
    assert len(plain.chunks) > 1 and seen == [(question, NAMES["acme-corp"], len(plain.chunks))]
    assert [c.chunk.id for c in reordered.chunks] == [plain.chunks[-1].chunk.id, *(c.chunk.id for c in plain.chunks[:-1])]
    assert reordered.context[0].chunk.id == plain.chunks[-1].chunk.id  # the context is packed in the new order
    assert (reordered.trace.promoted, plain.trace.promoted) == (plain.chunks[-1].chunk.id, None)


class WatchedStore:
    """The store, saying whether a session is open, how many were opened, and for each read of the companies held
    whether a session was open (outside one, each read loads the shard)."""

    def __init__(self, store) -> None:
        self._store, self.active, self.sessions, self.company_reads = store, False, 0, []

    def __getattr__(self, name):
        return getattr(self._store, name)

    @contextmanager
    def session(self):
        with self._store.session():
            self.active, self.sessions = True, self.sessions + 1
            try:
                yield
            finally:
                self.active = False

    def companies(self):
        self.company_reads.append(self.active)
        return self._store.companies()


def test_one_session_holds_the_reads_and_no_model_loads_under_it(kb):
    """The session is the store's lock, which other commands wait for, and each one loads the shard (0.3 s at 100k
    points): one search opens one, and loading a model (the embedder's weights on first use, the reader's parser for
    its reorder: seconds) happens outside it; embedding the query with weights loaded (milliseconds) inside."""
    settings, store, embedder, bm25 = kb
    events: list[str] = []
    watched = WatchedStore(store)

    class LazyEmbedder:  # weights loaded on first use, as load_embedder(lazy=True) gives
        loaded = False

        def __getattr__(self, name):
            return getattr(embedder, name)

        def load(self):
            events.append(f"load outside: {not watched.active}")
            LazyEmbedder.loaded = True

        def embed_query(self, text):
            events.append(f"embed with weights loaded: {LazyEmbedder.loaded}")
            return embedder.embed_query(text)

    def reorder(question, company, chunks):
        events.append(f"reorder outside: {not watched.active}")
        return chunks

    result = Retriever(settings, watched, LazyEmbedder(), bm25, company_names=NAMES, reorder=reorder).search(
        "Which rockets does Acme Corp sell and build?", company="acme-corp")
    assert result.chunks and watched.sessions == 1  # two before: the company's choice, then the search
    assert events == ["load outside: True", "embed with weights loaded: True", "reorder outside: True"]


def test_a_query_asking_the_same_of_two_companies_searches_each_alone_reading_the_companies_once_a_session(kb):
    """"When were Acme and Globex founded?": one search per company, its chunks that company's; the companies held are
    read (an exact facet: seconds at 100k points) once in each session, never outside one (each would load the shard)."""
    settings, store, embedder, bm25 = kb
    watched = WatchedStore(store)
    result = Retriever(settings, watched, embedder, bm25, company_names=NAMES).search("When were Acme and Globex founded?")
    assert [(a.slug, a.question) for a in result.trace.asked_of] == [("acme-corp", "When were Acme founded?"),
                                                                    ("globex", "When were Globex founded?")]
    assert not result.chunks and result.trace.companies_held == 2 and result.trace.company.slug is None
    for part, slug in zip(result.parts, ("acme-corp", "globex")):
        assert part.trace.company.slug == slug and part.chunks
        assert {c.chunk.metadata.company for c in part.chunks} == {slug}
    assert watched.company_reads == [True, True, True]  # the question's session, then each company's
    watched = WatchedStore(store)
    single = Retriever(settings, watched, embedder, bm25, company_names=NAMES).search("When was Globex founded?")
    assert single.chunks and not single.parts and watched.company_reads == [True]


def test_strict_search_of_an_unknown_company_is_an_error_naming_the_nearest(kb):
    retriever = _retriever(kb)
    retriever.embedder.queries.clear()
    with pytest.raises(UnknownCompanyError, match="no company 'acme-corps' in the knowledge base; nearest: acme-corp"):
        retriever.search("Who founded it?", company="acme-corps", strict=True)
    assert retriever.embedder.queries == []
    assert retriever.search("Who founded it?", company="acme-corps").trace.company.known is False  # else an abstention


POLICY = ("The certificate authority keeps audit logs of every issuance request for seven years and reviews them "
          "each month; staff with access to the signing keys are named in the annual audit report of Initech.")


@contextmanager
def _initech(tmp_path: Path, pages: list[tuple[str, str, str, str | None]]):
    """Settings, a store and the embedder for Initech's ``pages`` (url, title, text, page kind or None), a chunk each."""
    settings = Settings(data_dir=tmp_path / "data")
    embedder, bm25 = WordsEmbedder(), Bm25Encoder(avg_len=10.0)
    when = datetime(2026, 3, 1, tzinfo=timezone.utc)
    chunks = [Chunk(id=f"00000000-0000-4000-8000-{i:012d}", text=text, token_count=50,
                    metadata=ChunkMetadata(url=url, title=title, company="initech", source_type="website", chunk_index=0,
                                           scraped_at=when, **({"page_kind": kind} if kind else {})))
              for i, (url, title, text, kind) in enumerate(pages)]
    texts = [c.text for c in chunks]
    store = open_store(settings)
    try:
        store.ensure_collection(embedder.info, bm25_avg_len=10.0)
        store.replace_company("initech", chunks, embedder.embed_documents(texts), bm25.encode_documents(texts))
        yield settings, store, embedder
    finally:
        store.close()


def _search_initech(kb, question: str, **retrieve):
    settings, store, embedder = kb
    cfg = settings.model_copy(update={"retrieve": settings.retrieve.model_copy(update=retrieve)})
    return Retriever(cfg, store, embedder, Bm25Encoder(), company_names={"initech": "Initech"}).search(question, company="initech")


def test_near_copies_of_a_better_ranked_chunk_leave_their_slot_to_the_next_distinct_one(tmp_path):
    # Versioned documents repeat their sections: v1 and v2 hold the same paragraph, v3 with one word added.
    texts = [POLICY, POLICY, POLICY.replace("of Initech.", "of Initech Corp."), "Initech keeps audit logs of its offices in Austin for visitors."]
    pages = [(f"https://initech.example/policy-v{i + 1}/", f"Policy v{i + 1}", text, None) for i, text in enumerate(texts)]
    with _initech(tmp_path, pages) as kb:
        question = "How long does the certificate authority keep audit logs?"
        result = _search_initech(kb, question, top_k=2)
        assert len(result.chunks) == 2 and result.chunks[1].chunk.text == texts[3]
        assert result.chunks[0].chunk.text in texts[:3] and [c.rank for c in result.chunks] == [1, 2]
        assert len(result.trace.collapsed) == 2 and result.chunks[0].chunk.id not in result.trace.collapsed
        # At 1.0 only identical texts collapse: the copy with a word added keeps its slot.
        exact = _search_initech(kb, question, top_k=2, duplicate_threshold=1.0)
        assert len(exact.trace.collapsed) == 1 and texts[3] not in [c.chunk.text for c in exact.chunks]


def test_the_page_kind_prior_puts_the_about_page_over_a_blog_index_that_repeats_more_of_the_words(tmp_path):
    # A blog index holds every post's first lines, so it shares more of a question's words than the page
    # that answers it; the prior weighs pages about the company over listings (retrieve.page_kind_weights).
    pages = [
        ("https://initech.example/blog/", "Blog",
         "Initech opens an office in Austin. Read more. Initech was named a best place to work. Read more. "
         "Initech headquarters tour for visitors. Read more. Where Initech staff meet. Read more.", "listing"),
        ("https://initech.example/about/", "About Initech", "Initech is headquartered in Austin, Texas.", "company"),
    ]
    with _initech(tmp_path, pages) as kb:

        def first(**retrieve) -> str:
            result = _search_initech(kb, "Where is Initech's office, its headquarters?", rerank="none", **retrieve)
            assert [c.rank for c in result.chunks] == [1, 2]
            return result.chunks[0].chunk.metadata.url

        assert first(page_kind_weights=EQUAL_KINDS) == pages[0][0]
        assert first() == pages[1][0]


def test_the_bm25_query_is_widened_with_the_relation_words_that_state_the_fact(tmp_path):
    # No page says "headquartered": the facts document states it as "Address: ...", and every page names Initech.
    texts = ["Initech sells staplers and printers to schools.", "Initech staff meet every Monday to plan the week.",
             "Initech was named a best place to work in 2020.", "# Facts about Initech\n\nAddress: 12 Quay Street, Austin, Texas"]
    with _initech(tmp_path, [(f"https://initech.example/{i}/", f"Page {i}", text, None) for i, text in enumerate(texts)]) as kb:
        # The bag-of-words test embedder favours the short pages: BM25 must bring the facts in.
        widened = _search_initech(kb, "Where is Initech headquartered?", top_k=2)
        assert texts[3] in [c.chunk.text for c in widened.chunks]
        # ...and the sentence rerank credits "Address" for "headquartered" at the same weight: the facts come first,
        # where the fused order alone leaves a page that only repeats "Initech" above them.
        assert widened.chunks[0].chunk.text == texts[3]
        assert _search_initech(kb, "Where is Initech headquartered?", top_k=2, rerank="none").chunks[0].chunk.text != texts[3]
        assert {"address", "base", "locat", "offic"} <= set(widened.trace.expanded) and "headquart" not in widened.trace.expanded
        plain = _search_initech(kb, "Where is Initech headquartered?", top_k=2, expansion_weight=0.0)
        assert texts[3] not in [c.chunk.text for c in plain.chunks] and plain.trace.expanded == []


def test_a_question_naming_no_company_of_the_knowledge_base_is_answered_of_that_name_only(kb):
    # "When was Cypress Creek founded?": a chunk mentions Cypress Creek ("Globex was founded in 1989 by Hank Scorpio in
    # Cypress Creek"), so retrieval goes on; the reader had no subject then and answered Globex's year, 1989.
    from cikb.answer import ABSTENTION, Answerer

    result = _retriever(kb).search("When was Cypress Creek founded?")
    assert result.trace.company.slug is None and result.trace.company.asked_about == "Cypress Creek" and result.chunks
    assert result.trace.company.subject == "Cypress Creek"
    assert Answerer().answer("When was Cypress Creek founded?", result).answer == ABSTENTION
    # Asked of Globex, named, the same chunk answers.
    globex = _retriever(kb).search("When was Globex founded?")
    assert globex.trace.company.asked_about is None and "1989" in (Answerer().answer("When was Globex founded?", globex).short_answer or "")


def test_a_question_longer_than_the_model_reads_is_refused_at_once(kb):
    """A pasted page as a question: refused in one line before any work (the reader's took 84 s on 10,000 words)."""
    from cikb.retrieve.retriever import MAX_QUERY_CHARS

    retriever = _retriever(kb)
    retriever.embedder.queries.clear()
    with pytest.raises(BadInputError, match=f"the question is 40,000 characters long; at most {MAX_QUERY_CHARS:,} are read"):
        retriever.search("CEO " * 10_000, company="acme-corp")
    assert retriever.embedder.queries == []
    assert retriever.search("Who is the CEO? " + "x" * (MAX_QUERY_CHARS - 20), company="acme-corp").trace.company.known
