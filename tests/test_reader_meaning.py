"""A value the parse leaves untied is taken only from a sentence that says what is asked, in other words (issue 23).

"Acme started life in 1987" answers "When was Acme founded?", though no parse ties "started life" to "founded".
The offline dense model judges it (its cosine of the question and the sentence at the model's own
``statement_cosine``); ``ask`` and ``enrich`` read with the same judge, and without one (or with a model whose
cosines were not measured for it) the value stays related reading.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from answer_helpers import retrieval
from cikb.answer import Answerer
from cikb.answer.reader import Passage, read, read_question
from cikb.embed import ALL_MINILM_L6_V2, ARCTIC_EMBED_S, CloseInMeaning, DenseModelSpec
from cikb.enrich import enrich_table
from enrich_support import TextKnowledgeBase, chunk_text

STARTED = "Globex started life in 1987, when two engineers began building radios in a garage in Leeds."


class CosineEmbedder:
    """A stand-in model: every query is (1, 0); a sentence holding ``word`` lies at ``cosine`` to it, others at 0."""

    def __init__(self, word: str, cosine: float = 1.0, spec: DenseModelSpec = ALL_MINILM_L6_V2) -> None:
        self.word, self.cosine, self.spec = word, cosine, spec
        self.queries: list[str] = []

    def embed_query(self, text: str) -> np.ndarray:
        self.queries.append(text)
        return np.array([1.0, 0.0])

    def embed_documents(self, texts) -> np.ndarray:
        near = np.array([self.cosine, np.sqrt(1 - self.cosine**2)])
        return np.array([near if self.word in text else np.array([0.0, 1.0]) for text in texts])


def test_the_judge_says_yes_at_the_models_own_cosine_and_never_for_an_unmeasured_model() -> None:
    assert ALL_MINILM_L6_V2.statement_cosine == 0.75 and ARCTIC_EMBED_S.statement_cosine is None
    assert CloseInMeaning(CosineEmbedder("life", 0.8))("When was Globex founded?", STARTED)
    assert not CloseInMeaning(CosineEmbedder("life", 0.7))("When was Globex founded?", STARTED)
    assert not CloseInMeaning(CosineEmbedder("radios", 0.8))("When was Globex founded?", "Globex is in Leeds.")
    assert not CloseInMeaning(CosineEmbedder("life", 1.0, ARCTIC_EMBED_S))("When was Globex founded?", STARTED)
    judge = CloseInMeaning(CosineEmbedder("life"))
    for sentence in (STARTED, "Another sentence."):
        judge("When was Globex founded?", sentence)
    assert judge.embedder.queries == ["When was Globex founded?"]  # one question, embedded once


def _read(text: str, judge, question: str = "When was Globex founded?"):
    return read(read_question(question, company="Globex"), [Passage(text, None, 1, "About Globex", own_site=True)],
                close_in_meaning=judge)


def yes(question: str, sentence: str) -> bool:
    return True


def test_an_untied_value_is_taken_at_medium_only_when_the_judge_reads_the_question_in_its_sentence() -> None:
    taken = _read(STARTED, yes)
    assert taken.answer is not None and (taken.answer.value, taken.answer.confidence) == ("1987", "medium")
    for judge in (None, lambda q, s: False):
        left = _read(STARTED, judge)
        assert left.answer is None and left.unsure is not None and left.unsure.value == "1987", judge
        assert left.unsure.confidence == "low" and left.unsure.untied


@pytest.mark.parametrize("text", [
    "Globex did not start life in 1987, when two engineers began building radios.",  # said not to be so
    "Initech started life in 1987, when two engineers began building radios in a garage in Leeds.",  # another's
])
def test_no_judge_takes_a_value_read_against_the_asked_company(text: str) -> None:
    reading = _read(text, yes)
    assert reading.answer is None and (reading.unsure is None or not reading.unsure.untied)


def test_a_value_the_parse_ties_needs_no_judge_and_a_rival_statement_outweighs_the_untied_one() -> None:
    def never(question: str, sentence: str) -> bool:
        raise AssertionError("asked the judge")

    tied = _read(f"{STARTED} Globex was established in 1990 in Leeds.", never)
    assert tied.answer is not None and (tied.answer.value, tied.answer.confidence) == ("1990", "high")


def test_ask_takes_the_untied_value_with_its_model_and_not_with_one_unmeasured() -> None:
    question = "When was Globex founded?"
    texts = [f"# Our history\n\n{STARTED}"]
    answer = Answerer(embedder=CosineEmbedder("started life")).answer(question, retrieval(question, texts, "globex"))
    assert (answer.short_answer, answer.confidence) == ("1987", "medium") and answer.answer.startswith(STARTED)
    unmeasured = CosineEmbedder("started life", spec=ARCTIC_EMBED_S)
    answer = Answerer(embedder=unmeasured).answer(question, retrieval(question, texts, "globex"))
    assert answer.abstained and answer.related[0].text.startswith(STARTED)


class JudgingKnowledgeBase(TextKnowledgeBase):
    """A knowledge base whose model judges meaning, as the retriever's does (enrich.kb)."""

    def __init__(self, chunks, embedder) -> None:
        super().__init__(chunks)
        self._judge = CloseInMeaning(embedder)

    def close_in_meaning(self, question: str, sentence: str) -> bool:
        return self._judge(question, sentence)


def test_enrich_fills_the_cell_ask_gives_and_leaves_it_empty_where_ask_abstains(tmp_path: Path) -> None:
    table = tmp_path / "companies.csv"
    table.write_text("Company,Website\nGlobex,https://globex.test\n", encoding="utf-8")
    chunks = chunk_text("https://globex.test/history/", "Our history", "globex", f"# Our history\n\n{STARTED}")

    def founded(kb):
        proposal = enrich_table(table, "Founded", question="What year was {Company} founded?", column_type="number",
                                kb=kb, web=None, llm=None)
        return proposal.research_log[0]

    row = founded(JudgingKnowledgeBase(chunks, CosineEmbedder("started life")))
    assert (row.status, row.value, row.confidence, row.answered_by) == ("found", "1987", "medium", "kb")
    for kb in (TextKnowledgeBase(chunks), JudgingKnowledgeBase(chunks, CosineEmbedder("started life", 0.7))):
        row = founded(kb)
        assert (row.status, row.value) == ("not_found", None), kb
