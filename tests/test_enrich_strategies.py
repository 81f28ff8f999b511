"""Spec N1-N4, N8 item 8: the registry, templates, the knowledge base first, then the web."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from cikb.app import reading  # the configured LLM is wired by the application
from cikb.enrich import (
    HttpJsonSearch,
    RowStrategy,
    answer_step,
    enrich_table,
    get_strategy,
    register_strategy,
)
from cikb.enrich.models import DataProposal, RowStep
from cikb.enrich.template import interpolate_template
from enrich_support import (
    SearchServer,
    TextKnowledgeBase,
    chunk_text,
    letsencrypt_chunks,
)
from sites import Reply, page, paragraphs

from cikb import enrich
from cikb.core.config import Settings
from cikb.core.errors import BadInputError


@pytest.fixture(scope="module")
def isrg_kb_chunks(corpora: Path):
    return letsencrypt_chunks(corpora)


@pytest.fixture
def kb(isrg_kb_chunks) -> TextKnowledgeBase:
    return TextKnowledgeBase(isrg_kb_chunks)


@pytest.fixture
def table(tmp_path: Path) -> Path:
    path = tmp_path / "companies.csv"
    path.write_text("Company,Website\nISRG,https://letsencrypt.org\nAcme Corp,https://acme.test\n", encoding="utf-8")
    return path


@pytest.fixture
def search_server() -> Iterator[SearchServer]:
    acme = [{"url": "https://news.test/acme", "title": "Acme Corp history",
             "snippet": "Acme Corp was founded in 1999 in Springfield by Jane Doe."}]
    server = SearchServer(lambda q: acme if "acme" in q.lower() else [])
    yield server
    server.close()


def web_settings(search_url: str) -> Settings:
    settings = Settings()
    settings.enrich.search_provider = "http"
    settings.enrich.search_url = search_url
    return settings


def enrich_founded(table: Path, kb: TextKnowledgeBase, search_url: str, attempts: int = 1, **options: str) -> DataProposal:
    """The table's Founded year (a number column), from ``kb`` first, then the search endpoint at ``search_url``.

    One attempt per cell unless asked: these tests count one attempt's searches (retries: test_enrich_retry.py).
    """
    settings = web_settings(search_url)
    settings.gather.request_timeout = 5
    settings.enrich.max_attempts = attempts
    return enrich_table(table, "Founded", question="What year was {Company} founded?", column_type="number",
                        settings=settings, kb=kb, web=HttpJsonSearch(settings), llm=None, **options)


# --- registry and templates ----------------------------------------------------


def test_builtins_are_registered_with_their_attributes() -> None:
    names = {s.name for s in enrich.get_all_strategies()}
    assert {"lookup", "research", "computation"} <= names
    lookup, research, computation = (get_strategy(n) for n in ("lookup", "research", "computation"))
    assert (lookup.display_name, lookup.kind, lookup.max_steps) == ("Quick Lookup", "enrichment", 2)
    assert research.max_steps == 5 and computation.max_steps == 1
    assert research.concurrency_key({"thoroughness": "comprehensive"}) == "research:comprehensive"
    assert {s.name for s in enrich.get_strategies_by_kind("enrichment")} >= {"lookup", "research", "computation"}
    assert "lookup" not in {s.name for s in enrich.get_strategies_by_kind("action")}


def test_unknown_strategy_is_one_clear_error() -> None:
    with pytest.raises(BadInputError, match="unknown strategy 'nope' \\(known: .*lookup"):
        get_strategy("nope")


class Initials(RowStrategy):
    """A strategy defined here, not in enrich/: the orchestrator must run it through the registry alone."""

    name = "initials"
    display_name = "Company initials"
    max_steps = 1

    def validate_params(self, params, ctx) -> None:
        if params.get("question") != "initials":
            raise BadInputError("initials wants --question initials")

    async def execute_one(self, row, params, ctx):
        yield RowStep(type="thinking", detail="taking initials")
        yield answer_step("".join(w[0] for w in row.label.split()), "high", answered_by="compute")


def test_a_new_strategy_registers_without_touching_the_orchestrator(table: Path) -> None:
    register_strategy(Initials())
    try:
        assert get_strategy("initials").display_name == "Company initials"
        proposal = enrich_table(table, "Initials", strategy="initials", question="initials", kb=None, web=None, llm=None)
        assert [op.changes for op in proposal.operations] == [{"Initials": "I"}, {"Initials": "AC"}]
        assert all(r.strategy == "initials" for r in proposal.research_log)
        with pytest.raises(BadInputError, match="initials wants"):
            enrich_table(table, "Initials", strategy="initials", question="other", kb=None, web=None, llm=None)
    finally:
        enrich.unregister_strategy("initials")
    with pytest.raises(BadInputError):
        get_strategy("initials")


def test_templates_fill_columns_case_insensitively() -> None:
    row = {"Company": "Acme Corp", "HQ City": "Springfield"}
    assert interpolate_template("When was {company} founded in {HQ CITY}?", row) == "When was Acme Corp founded in Springfield?"
    assert interpolate_template("{ Company }", row) == "Acme Corp"
    with pytest.raises(BadInputError, match="unknown column in template: {Country}"):
        interpolate_template("{Country}", row)


def test_a_question_naming_an_unknown_column_is_refused_before_any_row(table: Path, kb: TextKnowledgeBase) -> None:
    with pytest.raises(BadInputError, match="unknown column in template"):
        enrich_table(table, "Founded", question="When was {Firm} founded?", kb=kb, web=None, llm=None)
    assert kb.searches == []


# --- knowledge base first --------------------------------------------------------


def test_lookup_answers_from_the_knowledge_base_and_never_searches_the_web(table: Path, kb: TextKnowledgeBase,
                                                                          search_server: SearchServer) -> None:
    proposal = enrich_founded(table, kb, search_server.url)
    isrg = proposal.research_log[0]
    assert (isrg.status, isrg.value, isrg.confidence, isrg.answered_by) == ("found", "2013", "high", "kb")
    assert [s.type for s in isrg.steps][0] == "retrieve"
    assert not any(s.type == "search" for s in isrg.steps)
    assert isrg.sources and isrg.sources[0].kind == "kb"
    assert isrg.sources[0].url == "https://letsencrypt.org/2022/02/25/ford-foundation.html"
    assert isrg.sources[0].title and isrg.sources[0].chunk_id
    assert kb.searches[0] == ("What year was ISRG founded?", "isrg")  # the row's company, as its slug
    assert not any("ISRG" in q for q in search_server.queries)


def test_lookup_goes_to_the_web_only_when_the_kb_has_no_good_answer(table: Path, kb: TextKnowledgeBase,
                                                                     search_server: SearchServer) -> None:
    proposal = enrich_founded(table, kb, search_server.url)
    acme = proposal.research_log[1]
    assert kb.searches[-1] == ("What year was Acme Corp founded?", "acme-corp")
    assert (acme.value, acme.answered_by) == ("1999", "web")
    assert acme.sources[0].kind == "web" and acme.sources[0].url == "https://news.test/acme"
    types = [s.type for s in acme.steps]
    assert types.index("retrieve") < types.index("search")
    assert 1 <= types.count("search") <= 2  # lookup: at most two search turns
    assert search_server.queries == ["What year was Acme Corp founded?"]


def test_without_a_search_provider_the_kb_is_the_only_path(table: Path, kb: TextKnowledgeBase) -> None:
    proposal = enrich_table(table, "Founded", question="What year was {Company} founded?", column_type="number",
                            kb=kb, web=None, llm=None)
    acme = proposal.research_log[1]
    assert (acme.status, acme.value, acme.answered_by) == ("not_found", None, "none")
    assert not any(s.type == "search" for s in acme.steps)


def test_lookup_makes_at_most_two_search_turns(table: Path, kb: TextKnowledgeBase) -> None:
    server = SearchServer(lambda q: [{"url": "https://x.test/", "title": "Nothing here", "snippet": "No dates at all."}])
    try:
        enrich_founded(table, kb, server.url)
        acme_queries = [q for q in server.queries if "Acme" in q]
        assert len(acme_queries) == 2 and acme_queries[1] != acme_queries[0]
    finally:
        server.close()


@pytest.mark.parametrize(
    ("column", "question", "column_type", "value"),
    [
        ("Founders", "Who founded {Company}?", "text", "Eric Rescorla, Alex Halderman, Peter Eckersley"),
        ("Director", "Who is the Executive Director of {Company}?", "text", "Josh Aas"),
    ],
)
def test_offline_kb_answers_are_typed_spans_with_sources(table: Path, kb: TextKnowledgeBase, column: str,
                                                          question: str, column_type: str, value: str) -> None:
    proposal = enrich_table(table, column, question=question, column_type=column_type, kb=kb, web=None, llm=None)
    isrg = proposal.research_log[0]
    assert isrg.value == value and isrg.confidence in ("high", "medium")
    assert isrg.sources[0].url.startswith("https://letsencrypt.org/")


# --- research ------------------------------------------------------------------


@pytest.fixture
def acme_pages(make_site):
    """Acme's pages on 127.0.0.1, with a robots.txt that forbids /private/."""
    site = make_site({
        "/robots.txt": Reply(body="User-agent: *\nDisallow: /private/\n", content_type="text/plain"),
        "/history/": page("Acme Corp history", paragraphs(
            "Acme Corp was founded in 1999 in Springfield, Oregon, by Jane Doe and Richard Roe.",
            "Today Acme Corp makes anvils and rocket skates for customers in 40 countries around the world.")),
        "/private/secret.html": page("Secret", paragraphs("Acme Corp was founded in 1842 according to this hidden page.")),
        "/blog/": page("Acme blog", paragraphs("Acme Corp, the anvil maker founded in 1999, opened a new plant in 2021.")),
    })
    return site


def research_acme(table: Path, kb: TextKnowledgeBase, hits: list[dict[str, str]], **options: str) -> DataProposal:
    """Research the table's Founded year through a search server that answers ``hits`` to queries about Acme."""
    server = SearchServer(lambda q: hits if "acme" in q.lower() else [])
    try:
        return enrich_founded(table, kb, server.url, strategy="research", **options)
    finally:
        server.close()


def test_research_fetches_pages_and_obeys_robots(table: Path, kb: TextKnowledgeBase, acme_pages) -> None:
    hits = [
        {"url": acme_pages.url_for("/private/secret.html"), "title": "Acme", "snippet": "Acme Corp"},
        {"url": acme_pages.url_for("/history/"), "title": "Acme Corp history", "snippet": "The story of Acme Corp"},
    ]
    proposal = research_acme(table, kb, hits)
    acme = proposal.research_log[1]
    assert (acme.value, acme.answered_by, acme.strategy, acme.thoroughness) == ("1999", "web", "research", None)
    fetches = [s for s in acme.steps if s.type == "fetch"]
    assert any(s.data.get("skipped") == "robots" for s in fetches)
    assert "/private/secret.html" not in acme_pages.paths()
    assert acme.sources[0].url == acme_pages.url_for("/history/")
    isrg = proposal.research_log[0]
    assert isrg.answered_by == "kb" and not any(s.type in ("search", "fetch") for s in isrg.steps)


def test_comprehensive_research_tries_three_angles_and_assesses_coverage(table: Path, kb: TextKnowledgeBase, acme_pages) -> None:
    hits = [
        {"url": acme_pages.url_for("/history/"), "title": "Acme Corp history", "snippet": "Acme Corp was founded in 1999."},
        {"url": acme_pages.url_for("/blog/"), "title": "Acme blog", "snippet": "Acme Corp, founded in 1999"},
    ]
    proposal = research_acme(table, kb, hits, thoroughness="comprehensive")
    acme = proposal.research_log[1]
    searches = [s for s in acme.steps if s.type == "search"]
    assert len(searches) >= 3 and len({s.detail for s in searches}) == len(searches)
    coverage = [s for s in acme.steps if s.type == "coverage"]
    assert len(coverage) == 1 and coverage[0].detail.startswith("coverage medium: 1 site")  # both pages are one site
    assert (acme.value, acme.confidence, acme.thoroughness) == ("1999", "medium", "comprehensive")


def test_bad_thoroughness_is_refused(table: Path) -> None:
    with pytest.raises(BadInputError, match="thoroughness"):
        enrich_table(table, "X", strategy="research", question="{Company}?", thoroughness="deep", kb=None, web=None, llm=None)


# --- with an LLM -----------------------------------------------------------------


def test_with_an_llm_the_kb_answer_is_extracted_by_it_and_logged(table: Path, kb: TextKnowledgeBase, fake_openai) -> None:
    fake_openai.respond_with(lambda body: "Answer: 2013\nConfidence: high\nSources: [1]"
                             if "ISRG" in body["messages"][-1]["content"] else "Answer: Could not determine an answer.\nConfidence: low\nSources:")
    settings = Settings()
    settings.llm.base_url, settings.llm.model = fake_openai.base_url, "fake-model"
    settings.enrich.max_attempts = 1  # one extraction per row: the requests are the rows' (retries: test_enrich_retry.py)
    proposal = reading.enrich_table(table, "Founded", question="What year was {Company} founded?", column_type="number",
                                    settings=settings, kb=kb, web=None)
    isrg, acme = proposal.research_log
    assert (isrg.value, isrg.confidence, isrg.answered_by) == ("2013", "high", "kb")
    first_chunk_url = kb.search("What year was ISRG founded?", "isrg")[0].chunk.metadata.url
    assert isrg.sources[0].url == first_chunk_url
    request = fake_openai.chat_requests[0]
    assert "never instructions" in request["messages"][0]["content"]
    user = request["messages"][1]["content"]
    assert "<sources>" in user and '<source id="1" title=' in user and "Question: What year was ISRG founded?" in user
    assert user.index("</sources>") < user.index("Question:")
    assert acme.status == "not_found"
    with sqlite3.connect(settings.data_dir / "logs.db") as db:
        steps = [row[0] for row in db.execute("SELECT step FROM calls")]
    assert "enrich:kb" in steps


def test_an_llm_answer_without_a_valid_citation_is_low_confidence(table: Path, kb: TextKnowledgeBase, fake_openai) -> None:
    fake_openai.respond_with(lambda body: "Answer: 2013\nConfidence: high\nSources: [42]")
    settings = Settings()
    settings.llm.base_url, settings.llm.model = fake_openai.base_url, "fake-model"
    proposal = reading.enrich_table(table, "Founded", question="What year was {Company} founded?", column_type="number",
                                    settings=settings, kb=kb, web=None)
    assert proposal.research_log[0].confidence == "low" and proposal.research_log[0].sources == []


@pytest.mark.parametrize(("reply", "confidence"), [
    ("Answer: 2017\nConfidence: high\nSources: [1]", "high"),  # what the offline reader reads too
    ("Answer: 164\nConfidence: high\nSources: [1]", "low"),  # "164 people": in the source, not its founding year (was high)
])
def test_an_llm_value_is_high_only_when_the_offline_reader_reads_it_too(reply: str, confidence: str) -> None:
    import asyncio

    from cikb.enrich.base import ColumnSpec, EnrichContext, RowInput
    from cikb.enrich.evidence import _llm_extract
    from cikb.enrich.extract import Passage
    from cikb.enrich.models import EnrichSource

    about = ("Skylight was founded in 2017 in Sarasota, Florida, to help governments deliver better digital services. "
             "We're currently made up of 164 people across the country.")
    passages = [Passage(text=about, source=EnrichSource(kind="kb", url="https://skylight.example/about/", title="About"), own_site=True)]
    ctx = EnrichContext(settings=Settings(), column=ColumnSpec("Founded", "number"), columns=["Company"], llm=lambda step, messages: reply)
    row = RowInput(row_id=0, data={"Company": "Skylight"}, label="Skylight", company="skylight")
    candidate, _ = asyncio.run(_llm_extract("What year was Skylight founded?", passages, row, ctx, "enrich:kb"))
    assert candidate.confidence == confidence, candidate


# --- computation -------------------------------------------------------------------


@pytest.fixture
def prices(tmp_path: Path) -> Path:
    path = tmp_path / "prices.csv"
    path.write_text('Company,Price,Quantity\nAcme,"$1,200",3\nBeta,2.5,4\nGamma,n/a,2\nDelta,5,0\n', encoding="utf-8")
    return path


def test_computation_evaluates_formulas_over_columns(prices: Path) -> None:
    proposal = enrich_table(prices, "Total", strategy="computation", formula="{price} * {Quantity}", column_type="number",
                            kb=None, web=None, llm=None)
    acme, beta, gamma, delta = proposal.research_log
    assert (acme.value, acme.confidence, acme.answered_by) == ("3600", "high", "compute")
    assert (beta.value, delta.value) == ("10", "0")
    assert (gamma.status, gamma.raw_value) == ("not_found", None) and "'n/a' is not a number" in gamma.steps[0].detail
    divided = enrich_table(prices, "Unit", strategy="computation", formula="{Price} / {Quantity}", column_type="number",
                           kb=None, web=None, llm=None)
    assert divided.research_log[0].value == "400"
    failed = divided.research_log[3]
    assert failed.status == "not_found" and "division by zero" in failed.steps[0].detail


def test_a_cell_that_is_no_number_fails_its_row_whatever_the_columns_type(tmp_path: Path) -> None:
    # '12 USD' * 2 was '12 USD12 USD' at high confidence (text repeated), and 12 in a number column.
    path = tmp_path / "prices.csv"
    path.write_text("Company,Price,Qty\nA,12 USD,2\nB,N/A,3\nC,10%,2\nD,1e3,2\n", encoding="utf-8")
    for column_type in ("text", "number"):
        proposal = enrich_table(path, "Total", strategy="computation", formula="{Price} * {Qty}", column_type=column_type,
                                kb=None, web=None, llm=None)
        a, b, c, d = proposal.research_log
        for row, cell in ((a, "12 USD"), (b, "N/A"), (c, "10%")):
            assert (row.status, row.value, row.confidence) == ("not_found", None, "none")
            assert f"{cell!r} is not a number" in row.steps[0].detail
        assert (d.value, d.confidence) == ("2000", "high")  # '1e3' reads as a spreadsheet reads it


def test_a_cell_is_data_never_code(tmp_path: Path) -> None:
    path = tmp_path / "evil.csv"
    path.write_text('Company,Note\nAcme,"__import__(\'os\').system(\'touch pwned\')"\n', encoding="utf-8")
    proposal = enrich_table(path, "Copy", strategy="computation", formula="{Note} + '!'", kb=None, web=None, llm=None)
    assert proposal.research_log[0].value == "__import__('os').system('touch pwned')!"
    assert not (Path.cwd() / "pwned").exists()


def test_a_formula_beyond_the_safe_subset_is_a_bad_formula_without_an_llm(prices: Path) -> None:
    with pytest.raises(BadInputError, match="bad formula .*no LLM is configured"):
        enrich_table(prices, "Total", strategy="computation", formula="{Price}.real", kb=None, web=None, llm=None)
    with pytest.raises(BadInputError, match="bad formula"):
        enrich_table(prices, "Total", strategy="computation", formula="convert {Price} to euros", kb=None, web=None, llm=None)


def test_a_formula_beyond_the_safe_subset_goes_to_the_llm_when_configured(prices: Path, fake_openai) -> None:
    fake_openai.reply("1104", "2.3", "Could not determine an answer.", "4.6")
    settings = Settings()
    settings.llm.base_url, settings.llm.model = fake_openai.base_url, "fake-model"
    settings.enrich.concurrency["computation"] = 1  # replies are queued in row order
    proposal = reading.enrich_table(prices, "Euros", strategy="computation", formula="convert {Price} to euros",
                                    column_type="number", settings=settings, kb=None, web=None)
    assert [r.value for r in proposal.research_log] == ["1104", "2.3", None, "4.6"]
    assert proposal.research_log[0].answered_by == "llm" and proposal.research_log[0].confidence == "medium"
    assert "Formula: convert {Price} to euros" in fake_openai.chat_requests[0]["messages"][1]["content"]


def test_kb_chunks_become_citations_with_url_and_title() -> None:
    chunks = chunk_text("https://acme.test/about", "About Acme", "acme-corp", "Acme Corp was founded in 1999 by Jane Doe.")
    kb = TextKnowledgeBase(chunks)
    result = kb.search("When was Acme Corp founded?", "acme-corp")
    from cikb.enrich.evidence import passages_from_chunks

    source = passages_from_chunks(result)[0].source
    assert (source.kind, source.url, source.title, source.chunk_id) == ("kb", "https://acme.test/about", "About Acme", chunks[0].id)
