"""A question asking the same of several companies: each company's answer, joined with one numbering of sources."""

from __future__ import annotations

from answer_helpers import retrieval

from cikb.answer import ABSTENTION, Answerer, join_answers
from cikb.answer.models import Answer


def _answer(question: str, texts: list[str], company: str, name: str, **update) -> Answer:
    found = retrieval(question, texts, company=company)
    found.trace.company = found.trace.company.model_copy(update={"name": name})
    for chunk in found.context:
        chunk.chunk.metadata.company = company
    answer = Answerer().answer(question, found)
    return answer.model_copy(update=update)


ACME = ["Acme Corp was founded in 1949 by Jane Doe in Springfield.", "Acme Corp sells anvils and rockets."]
GLOBEX = ["Globex sells power plants to utilities.", "Globex was founded in 1989 in Cypress Creek."]


def test_each_part_is_numbered_on_from_the_part_before() -> None:
    acme = _answer("When was Acme Corp founded?", ACME, "acme-corp", "Acme Corp")
    globex = _answer("When was Globex founded?", GLOBEX, "globex", "Globex")
    assert acme.short_answer == "1949" and globex.short_answer == "1989"
    assert acme.citations == [1] and globex.citations == [2]  # each numbered from 1 alone

    joined = join_answers("When were Acme Corp and Globex founded?", [acme, globex], ["Acme Corp", "Globex"])
    first, second = joined.parts
    assert [s.number for s in joined.context] == [1, 2, 3, 4]
    assert second.citations == [4] and "[4]" in second.answer and "[2]" not in second.answer
    assert [s.number for s in second.sources] == [4] and second.sources[0].company == "globex"
    assert joined.citations == [1, 4] and [s.number for s in joined.sources] == [1, 4]
    assert joined.answer == f"Acme Corp: {first.answer}\n\nGlobex: {second.answer}"
    assert joined.grounded and not joined.abstained
    assert joined.short_answer is None and first.short_answer == "1949" and second.short_answer == "1989"
    # every citation of the joined text opens a source of the company its part is about
    by_number = {s.number: s.company for s in joined.context}
    for part in joined.parts:
        assert {by_number[n] for n in part.citations} == {part.retrieval.company.slug}


def test_a_part_that_abstains_keeps_its_related_reading_numbered_in_the_joined_list() -> None:
    acme = _answer("Who is the CEO of Acme Corp?", [*ACME, "Acme Corp has a chief executive officer."], "acme-corp", "Acme Corp")
    globex = _answer("Who is the CEO of Globex?", [*GLOBEX, "Globex has a chief executive officer."], "globex", "Globex")
    assert acme.abstained and [r.number for r in acme.related] == [3] and [r.number for r in globex.related] == [3]
    joined = join_answers("Who are the CEOs of Acme Corp and Globex?", [acme, globex], ["Acme Corp", "Globex"])
    assert joined.answer == ABSTENTION and joined.abstained and not joined.grounded
    assert [(r.text, r.number) for r in joined.related] == [("Acme Corp has a chief executive officer.", 3),
                                                            ("Globex has a chief executive officer.", 6)]
    assert joined.parts[1].related[0].number == 6 and joined.context[5].company == "globex"

    answered = _answer("When was Globex founded?", GLOBEX, "globex", "Globex")
    joined = join_answers("?", [acme, answered], ["Acme Corp", "Globex"])
    assert joined.answer.startswith(f"Acme Corp: {ABSTENTION}\n\nGlobex: Globex was founded in 1989") and not joined.abstained
    assert joined.citations == [5]


def test_every_form_of_citation_is_numbered_on_and_no_other_number() -> None:
    acme = _answer("When was Acme Corp founded?", ACME, "acme-corp", "Acme Corp")
    written = _answer("When was Globex founded?", GLOBEX, "globex", "Globex").model_copy(
        update={"answer": "Globex, 1989 [2]: its 2 founders [Source 1, 2] in 1989 [1-2][2]."})
    joined = join_answers("?", [acme, written], ["Acme Corp", "Globex"])
    assert joined.parts[1].answer == "Globex, 1989 [4]: its 2 founders [Source 3, 4] in 1989 [3-4][4]."
