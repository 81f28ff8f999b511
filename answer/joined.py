"""One answer of several companies' answers: a question asking the same of two or more companies.

"When were Acme and Globex founded?" is answered for each company from its own sources (the retriever searches each
alone: ``RetrievalResult.parts``), then joined here: each part under its company's
name, the sources numbered on from the part before ([1]-[4] Acme's, [5]-[8] Globex's), so that every citation of
the joined text, of its parts and of their related reading points at one source of one list.
"""

from __future__ import annotations

import re

from cikb.answer.citations import CITATION
from cikb.answer.models import ABSTENTION, Answer, Related, Source

_NUMBER = re.compile(r"\d+")


def join_answers(question: str, parts: list[Answer], labels: list[str]) -> Answer:
    """The parts, renumbered one after another, as one answer to ``question`` (the abstention when all abstain), each
    under its label (the company's name).

    The joined answer is grounded when every part is; a short answer and a confidence belong to one company's
    value, so only the parts carry them, as they carry the numbers an LLM cited that were not in their context
    (``removed_citations``, in their own numbering: no source of the joined list). Its retrieval trace is the first
    part's (each part keeps its own).
    """
    renumbered, offset = [], 0
    for part in parts:
        renumbered.append(_shifted(part, offset))
        offset += len(part.context)
    answered = [part for part in renumbered if not part.abstained]
    notes = list(dict.fromkeys(part.note for part in renumbered if part.note))
    return Answer(
        question=question, mode=renumbered[0].mode, parts=renumbered,
        answer="\n\n".join(f"{label}: {part.answer}" for label, part in zip(labels, renumbered)) if answered else ABSTENTION,
        abstained=not answered, grounded=bool(answered) and all(part.grounded for part in answered),
        citations=[n for part in renumbered for n in part.citations],
        uncited_sentences=[s for part in renumbered for s in part.uncited_sentences],
        unsupported_sentences=[s for part in renumbered for s in part.unsupported_sentences],
        related=[r for part in renumbered for r in part.related],
        sources=[s for part in renumbered for s in part.sources],
        context=[s for part in renumbered for s in part.context],
        note="\n".join(notes) or None,
        warnings=[f"{label}: {warning}" for label, part in zip(labels, renumbered) for warning in part.warnings],
        llm_model=renumbered[0].llm_model, retrieval=renumbered[0].retrieval,
    )


def _shifted(answer: Answer, offset: int) -> Answer:
    """``answer`` with every source number raised by ``offset``: its text's citations, sources, context, related."""
    if not offset:
        return answer

    def shift(match: re.Match[str]) -> str:  # "[Source 2, 3]" -> "[Source 6, 7]": the numbers alone
        start, end = match.start(1) - match.start(), match.end(1) - match.start()
        numbers = _NUMBER.sub(lambda n: str(int(n.group()) + offset), match.group(1))
        return match.group()[:start] + numbers + match.group()[end:]

    def sources(items: list[Source]) -> list[Source]:
        return [item.model_copy(update={"number": item.number + offset}) for item in items]

    return answer.model_copy(update={
        "answer": CITATION.sub(shift, answer.answer),
        "citations": [n + offset for n in answer.citations],
        "sources": sources(answer.sources), "context": sources(answer.context),
        "related": [Related(text=r.text, number=r.number + offset) for r in answer.related],
    })
