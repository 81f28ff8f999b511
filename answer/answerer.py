"""From retrieved context to an Answer: LLM mode, extractive mode, or the abstention sentence."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
from cikb.answer.citations import CITATION, check_citations, split_sentences
from cikb.answer.context import numbered_context, sources_of
from cikb.answer.extractive import ExtractiveAnswer, extract_answer
from cikb.answer.models import ABSTENTION, Answer, AnswerMode, Related, Source, says_not_there
from cikb.answer.reader import follow_up_question, follow_up_sources
from cikb.embed import CloseInMeaning
from cikb.prompts import load_prompt
from cikb.retrieve.models import RetrievalResult

from cikb.core.models import ChatModel

EXTRACTIVE_NOTE = (
    "Extractive answer: the best-matching sentences of the sources, quoted as they are "
    "(no language model is configured; set llm.base_url and llm.model for written answers)."
)
UNGROUNDED_NOTE = ("Not grounded: not every claim of this answer cites a source that states it; "
                   "check it against the sources.")
# A second retrieval: (question, company slug or None) -> what retrieval finds for it.
Search = Callable[[str, "str | None"], RetrievalResult]

_ABSTAINS = re.compile(r"\b(?:don['’]?t|do not)\s+have\s+enough\s+information\b", re.IGNORECASE)


class Answerer:
    """Answers a question from a :class:`RetrievalResult` (spec A1-A4, R3).

    With a configured ``llm`` the answer is generated from the numbered context
    (prompts ``answer_system`` / ``answer_user``) and its citations are checked;
    otherwise it is extractive. A generated answer is grounded only when every claim cites a source that
    states it (numbers and words of content, never text that addresses the reader as instructions).
    ``embedder`` (optional) lets extractive mode rank free-text answers by meaning as well as words, and take a
    value the parse leaves untied from a sentence that says what is asked in other words
    (:class:`cikb.embed.CloseInMeaning`). ``search`` (optional) lets extractive mode retrieve for a
    follow-up question when the sources hold no answer (the reader's :func:`follow_up_question`: "Who runs Acme?" is
    also read as "Who is the CEO of Acme?", whose words find the chief executive's card).
    """

    def __init__(self, llm: ChatModel | None = None, embedder: Any = None, search: Search | None = None) -> None:
        self.llm = llm
        self.embedder = embedder
        self.search = search
        self.close_in_meaning = CloseInMeaning(embedder) if embedder is not None else None

    @property
    def mode(self) -> AnswerMode:
        return "llm" if self.llm is not None and self.llm.configured else "extractive"

    def answer(self, question: str, retrieval: RetrievalResult) -> Answer:
        if retrieval.empty:
            # R3: nothing passed retrieval, or the company is not in the KB: never ask the model.
            return self.abstain(question, retrieval)
        if self.mode == "llm":
            return self._generate(question, retrieval)
        return self._extract(question, retrieval)

    def abstain(self, question: str, retrieval: RetrievalResult, **extra: Any) -> Answer:
        return Answer(
            question=question, answer=ABSTENTION, mode=self.mode, grounded=False, abstained=True,
            context=sources_of(retrieval.context), retrieval=retrieval.trace, **extra,
        )

    def messages(self, question: str, retrieval: RetrievalResult) -> list[dict[str, str]]:
        """The chat request: fixed rules as the system message; the question and the framed context as the user's."""
        user = load_prompt("answer_user").format(context=numbered_context(retrieval.context), question=question.strip())
        return [{"role": "system", "content": load_prompt("answer_system").strip()}, {"role": "user", "content": user}]

    def _generate(self, question: str, retrieval: RetrievalResult) -> Answer:
        assert self.llm is not None
        result = self.llm.complete("answer", self.messages(question, retrieval))
        context = sources_of(retrieval.context)
        texts = [f"{item.chunk.metadata.title}\n{item.chunk.text}" for item in retrieval.context]
        checked = check_citations(result.text, available=len(context), sources=texts, subject=_subject(retrieval))
        llm_facts = {"llm_model": result.model, "llm_log_id": result.log_id}
        if _is_non_answer(checked.text, bool(checked.valid)):
            return self.abstain(question, retrieval, **llm_facts)
        warnings = [f"removed citation [{n}]: there is no source {n} in the context" for n in checked.removed]
        if not checked.valid:
            warnings.append("the answer cites no source in the context")
        warnings += [f"uncited claim: {s}" for s in checked.uncited]
        warnings += [claim.describe() for claim in checked.unsupported]
        if getattr(result, "truncated", False):  # cut at llm.max_tokens: what is missing may have changed the answer
            warnings.append("the answer was cut at the token limit (llm.max_tokens): it may be incomplete")
        asked = retrieval.trace.company.asked_about
        named = not asked or _names(asked, [texts[n - 1] for n in checked.valid])
        if not named:  # the question names no company of the knowledge base: its answer must come from what is said of that name
            warnings.append(f"no cited source names {asked}, the company asked about")
        return Answer(
            question=question, answer=checked.text or ABSTENTION, mode="llm", grounded=checked.grounded and named,
            citations=checked.valid, removed_citations=checked.removed, uncited_sentences=checked.uncited,
            unsupported_sentences=[claim.sentence for claim in checked.unsupported],
            sources=_cited(context, checked.valid), context=context,
            note=None if checked.grounded and named else UNGROUNDED_NOTE, warnings=warnings,
            retrieval=retrieval.trace, **llm_facts,
        )

    def _extract(self, question: str, retrieval: RetrievalResult) -> Answer:
        found = self._read(question, retrieval)
        follow_up = None
        if not found.sentences and self.search is not None:
            aliases = retrieval.trace.company.aliases
            follow_up = follow_up_question(question, company=_subject(retrieval), aliases=aliases)
        if follow_up is not None:
            widened = _widened(retrieval, self.search(follow_up, retrieval.trace.company.slug))
            again = self._read(question, widened) if len(widened.context) > len(retrieval.context) else found
            if again.sentences:
                found, retrieval = again, widened
            else:
                follow_up = None
        context = sources_of(retrieval.context)
        if not found.sentences:
            # Sources were found, but none of their sentences states what was asked: say so, quote nothing.
            why = _why_unanswered(found, len(context))
            related = [Related(text=quote.text, number=quote.number) for quote in found.related]
            return self.abstain(question, retrieval, warnings=[why], related=related,
                                sources=_cited(context, [r.number for r in related]))
        numbers = list(dict.fromkeys(c.number for c in found.sentences))
        warnings = [] if found.confidence != "low" or found.short_answer is None else [
            f"low confidence: the quoted sentence may not state {found.short_answer!r} as the answer"]
        return Answer(
            question=question, answer=found.text, mode="extractive", grounded=True, citations=numbers,
            short_answer=found.short_answer, confidence=found.confidence, sources=_cited(context, numbers), context=context,
            note=EXTRACTIVE_NOTE, warnings=warnings, retrieval=retrieval.trace, follow_up=follow_up,
        )

    def _read(self, question: str, retrieval: RetrievalResult) -> ExtractiveAnswer:
        embed_sentences, query_vector = None, None
        if self.embedder is not None:
            embed_sentences = self.embedder.embed_documents
            same_query = retrieval.query_vector is not None and retrieval.query == question
            query_vector = np.asarray(retrieval.query_vector if same_query else self.embedder.embed_query(question), dtype=np.float32)
        # A name the knowledge base does not hold ("When was Stripe founded?") has no page among the sources: each is
        # another company's, whose "Founded: 2014" line and "our headquarters" say nothing of the name asked about.
        return extract_answer(question, retrieval.context, _subject(retrieval), embed_sentences, query_vector,
                              aliases=retrieval.trace.company.aliases,
                              close_in_meaning=self.close_in_meaning,
                              of_others=retrieval.trace.company.asked_about is not None)


def _widened(retrieval: RetrievalResult, more: RetrievalResult) -> RetrievalResult:
    """``retrieval`` with the follow-up's sources it lacks (:func:`follow_up_sources`), numbered after its own."""
    added = follow_up_sources(retrieval.context, more.context)
    return retrieval.model_copy(update={"context": [*retrieval.context, *added]})


def _is_non_answer(text: str, cites: bool) -> bool:
    """The model's reply says only that the answer is not there: the abstention sentence without a citation, or
    (cited or not) one sentence such as "This is not stated in the sources [2]." (it was a grounded answer)."""
    plain = CITATION.sub("", text).strip()
    if _ABSTAINS.search(plain) and (not cites or len(split_sentences(plain)) == 1):
        return True
    return says_not_there(plain)


def _names(name: str, texts: list[str]) -> bool:
    """Whether one of ``texts`` names ``name`` (its words in order, case and punctuation aside)."""
    wanted = " ".join(re.findall(r"\w+", name.casefold()))
    return any(wanted in " ".join(re.findall(r"\w+", text.casefold())) for text in texts)


def _subject(retrieval: RetrievalResult) -> str:
    """The company the question is about: its display name, else as the question named it, else its slug's words."""
    return retrieval.trace.company.subject


def _cited(context: list[Source], numbers: list[int]) -> list[Source]:
    wanted = set(numbers)
    return [source for source in context if source.number in wanted]


def _why_unanswered(found: ExtractiveAnswer, sources: int) -> str:
    """The warning of an abstention: what no source says, or that the one value read is not stated surely enough."""
    if found.unmentioned:
        return f"no retrieved source mentions {found.unmentioned!r}"
    asked = found.unanswered or "an answer"
    if found.unsure:  # a value was read, but not surely: it leads the related reading, not the answer
        return (f"none of the {sources} retrieved source(s) states {asked} for this question surely: "
                f"{found.unsure!r} is the closest reading, shown first as related reading")
    return f"none of the {sources} retrieved source(s) has a sentence that states {asked} for this question"
