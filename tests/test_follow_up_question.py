""""Who runs Acme?": when the sources retrieved for it state no answer, the offline reader retrieves again for
"Who is the CEO of Acme?" (whose words find the chief executive's card) and reads both, in ask and in enrich."""

from __future__ import annotations

from pathlib import Path

from answer_helpers import retrieval, scored_chunk
from cikb.answer import Answerer
from cikb.answer.reader import follow_up_question
from cikb.enrich import enrich_table
from enrich_support import TextKnowledgeBase, chunk_text

ABOUT = "Acme Corp sells anvils, rockets and portable holes to customers in 40 countries."
TEAM = "# Our team\n\nMaria Lopez: CEO\n\nJane Doe: Chief Operating Officer"


def test_only_a_question_on_who_runs_the_company_itself_has_a_follow_up() -> None:
    assert follow_up_question("Who runs Acme Corp?", company="Acme Corp") == "Who is the CEO of Acme Corp?"
    assert follow_up_question("Who is in charge of the company?", company="Acme Corp") is not None
    assert follow_up_question("Who runs Acme Corp's research team?", company="Acme Corp") is None
    assert follow_up_question("When was Acme Corp founded?", company="Acme Corp") is None


def test_ask_reads_the_chunks_retrieved_for_the_follow_up_question() -> None:
    question = "Who runs Acme Corp?"
    first = retrieval(question, [ABOUT], company="acme-corp")
    first.trace.company.matched = "Acme Corp"
    searched: list[tuple[str, str | None]] = []

    def search(follow_up: str, company: str | None):
        searched.append((follow_up, company))
        found = retrieval(follow_up, [], company=company)
        found.context = [scored_chunk(ABOUT, 1), scored_chunk(TEAM, 7, title="Team")]  # one it holds, one new
        return found

    alone = Answerer().answer(question, first)
    asked = Answerer(search=search).answer(question, first)
    assert alone.abstained and alone.follow_up is None
    assert searched == [("Who is the CEO of Acme Corp?", "acme-corp")]
    assert not asked.abstained and asked.short_answer == "Maria Lopez", asked.answer
    assert asked.follow_up == "Who is the CEO of Acme Corp?"
    assert [s.number for s in asked.context] == [1, 2] and asked.citations == [2]  # numbered after the first's


def test_a_follow_up_that_finds_no_answer_leaves_the_abstention() -> None:
    question = "Who runs Acme Corp?"
    first = retrieval(question, [ABOUT], company="acme-corp")
    first.trace.company.matched = "Acme Corp"
    asked = Answerer(search=lambda q, c: retrieval(q, [ABOUT], company=c)).answer(question, first)
    assert asked.abstained and asked.follow_up is None and len(asked.context) == 1


def test_enrich_retrieves_for_the_follow_up_question_and_logs_it(tmp_path: Path) -> None:
    table = tmp_path / "companies.csv"
    table.write_text("Company\nAcme Corp\n", encoding="utf-8")
    kb = TextKnowledgeBase(chunk_text("https://acme.test/about", "About Acme", "acme-corp", ABOUT)
                           + chunk_text("https://acme.test/team", "Team", "acme-corp", TEAM), limit=2)
    proposal = enrich_table(table, "Chief", question="Who runs {Company}?", column_type="text", kb=kb, web=None,
                            llm=None)
    row = proposal.research_log[0]
    assert (row.status, row.value) == ("found", "Maria Lopez"), row
    assert [q for q, _ in kb.searches] == ["Who runs Acme Corp?", "Who is the CEO of Acme Corp?"]
    assert any(step.type == "retrieve" and "Who is the CEO of Acme Corp?" in step.detail for step in row.steps)
