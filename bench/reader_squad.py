"""The offline reader on SQuAD's company articles: values given (medium or high confidence), right and wrong.

    python bench/reader_squad.py [--every N] [--show KIND] [--meaning]

Every question of ``../shared/corpora/squad`` (26 Wikipedia articles on companies, 4,398 questions written
by people who read them) is put to the reader with the five paragraphs of its article that BM25 ranks
first (cikb's own BM25: its stems, stop words and Qdrant's IDF), as ``cikb ask`` would read five passages.
A value is given when the reader states it at medium or high confidence (what ``ask`` gives as a short
answer and ``enrich`` as a cell); it is right when it holds a gold answer or a gold answer holds it
(normalised words). A free-text question is answered by the sentence the reader quotes (``cikb ask``'s first
cited statement): counted apart as ``text``, right when that sentence holds a gold answer, as ``bench/ask.py``
scores a first statement.

These are not company sites and their questions are not the ones users ask of one (often about the
company's history: "Who did The Sun endorse in 2005?"), so the figures are a second, broad check of how
often a confident value is wrong, not a target; a rule fitted to one of its questions is tuning to it.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from cikb.answer.reader import MeaningJudge, Passage, read, read_question
from cikb.embed.bm25 import Bm25Encoder, token_id

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"
PASSAGES = 5


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


class ArticleIndex:
    """One article's paragraphs ranked for a question as the store ranks chunks: BM25 weights from cikb's
    encoder, Qdrant's IDF over the article's paragraphs."""

    def __init__(self, paragraphs: list[str]) -> None:
        tokenizer = Bm25Encoder()
        stems = [tokenizer.tokenize(p) for p in paragraphs]
        self.encoder = Bm25Encoder(avg_len=max(sum(map(len, stems)) / len(stems), 1.0))
        self.weights = [self.encoder.term_weights(s) for s in stems]
        holding = Counter(t for w in self.weights for t in w)
        n = len(paragraphs)
        self.idf = {t: math.log((n - k + 0.5) / (k + 0.5) + 1) for t, k in holding.items()}

    def top(self, question: str, k: int) -> list[int]:
        terms = {token_id(s) for s in self.encoder.tokenize(question)}
        scores = [sum(self.idf.get(t, 0.0) * w.get(t, 0.0) for t in terms) for w in self.weights]
        return sorted(range(len(scores)), key=lambda i: -scores[i])[:k]


def is_right(value: str, answers: list[str]) -> bool:
    given = " ".join(words(value))
    gold = [" ".join(words(a)) for a in answers]
    return bool(given) and any(g and (g in given or given in g) for g in gold)


def holds_answer(sentence: str, answers: list[str]) -> bool:
    """A quoted sentence answers when a gold answer's words stand in it, in order."""
    said = f" {' '.join(words(sentence))} "
    return any(g and f" {g} " in said for g in (" ".join(words(a)) for a in answers))


class CountedJudge:
    """A reader's meaning judge that remembers whether it said yes (the reader then took the value it asked about)."""

    def __init__(self, judge: MeaningJudge) -> None:
        self.judge, self.said_yes = judge, False

    def __call__(self, question: str, sentence: str) -> bool:
        yes = self.judge(question, sentence)
        self.said_yes = self.said_yes or yes
        return yes


def measure(articles: list[dict], every: int = 1, show: str | None = None,
            judge: MeaningJudge | None = None) -> tuple[Counter[str], Counter[tuple[str, str, bool]]]:
    """Questions asked by kind, and values given by (kind, confidence, right); every ``every``-th question only,
    printing the wrong values given for questions of kind ``show``. With ``judge`` (the reader's
    ``close_in_meaning``), the values it let the reader take are counted again under the confidence "meaning"."""
    asked: Counter[str] = Counter()
    given: Counter[tuple[str, str, bool]] = Counter()
    n = 0
    for article in articles:
        paragraphs = [p["context"] for p in article["paragraphs"]]
        index = ArticleIndex(paragraphs)
        company = article["title"].replace("_", " ")
        for qa in (qa for p in article["paragraphs"] for qa in p["qas"]):
            n += 1
            if n % every:
                continue
            question = read_question(qa["question"], company=company)
            asked[question.kind] += 1
            top = index.top(qa["question"], PASSAGES)
            passages = [Passage(paragraphs[i], None, rank + 1, company) for rank, i in enumerate(top)]
            counted = CountedJudge(judge) if judge is not None else None
            answer = read(question, passages, close_in_meaning=counted).answer
            if answer is None:
                continue
            right = (holds_answer(answer.sentence.text, qa["answers"]) if question.kind == "text"
                     else is_right(answer.value, qa["answers"]))
            given[(question.kind, answer.confidence, right)] += 1
            if counted is not None and counted.said_yes:
                given[(question.kind, "meaning", right)] += 1
            if show == question.kind and not right:
                print(f"[{company}] {qa['question']}\n   given: {answer.value} ({answer.confidence})  gold: "
                      f"{qa['answers'][0]}\n   from: {answer.sentence.text[:160]}")
    return asked, given


def tally(given: Counter[tuple[str, str, bool]], keep: Callable[[str, str], bool]) -> tuple[int, int]:
    """Right and wrong values given, of the (kind, confidence) pairs ``keep`` accepts."""
    counts = [sum(v for (kind, confidence, r), v in given.items() if r == right and keep(kind, confidence))
              for right in (True, False)]
    return counts[0], counts[1]


def load_articles(corpora: Path = CORPORA) -> list[dict]:
    return json.loads((corpora / "squad" / "companies.json").read_text(encoding="utf-8"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--every", type=int, default=1, help="Ask every Nth question only (default: all).")
    parser.add_argument("--show", metavar="KIND", help="Print the wrong values given for questions of this kind.")
    parser.add_argument("--meaning", action="store_true",
                        help="Read as `cikb ask` does with the offline dense model: a value the parse leaves untied is "
                             "taken from a sentence close in meaning to the question (counted apart as 'meaning').")
    args = parser.parse_args()
    articles = load_articles()
    judge = None
    if args.meaning:
        from cikb.core.config import Settings
        from cikb.embed import CloseInMeaning, load_embedder

        judge = CloseInMeaning(load_embedder(Settings().embed))
    started = time.perf_counter()
    asked, given = measure(articles, args.every, args.show, judge)
    total = sum(asked.values())
    print(f"{total} questions of {len(articles)} articles ({time.perf_counter() - started:.0f} s), "
          f"{sum(v for k, v in asked.items() if k != 'text')} asking for a value")
    print(f"{'kind':8} {'asked':>6} {'high':>12} {'medium':>12}   (right/given)")
    for kind in sorted(k for k in asked if k != "text"):
        cells = []
        for confidence in ("high", "medium"):
            right, wrong = given[(kind, confidence, True)], given[(kind, confidence, False)]
            cells.append(f"{right}/{right + wrong}")
        print(f"{kind:8} {asked[kind]:>6} {cells[0]:>12} {cells[1]:>12}")
    for confidence in ("high", "medium", *(("meaning",) if judge is not None else ())):
        right, wrong = tally(given, lambda kind, c: kind != "text" and c == confidence)
        share = right / max(right + wrong, 1)
        print(f"{confidence:8} given {right + wrong}: right {right} ({share:.0%}), wrong {wrong}")
    right, wrong = tally(given, lambda kind, _: kind == "text")
    print(f"{'text':8} asked {asked['text']}, a sentence quoted for {right + wrong}: holds a gold answer {right} "
          f"({right / max(right + wrong, 1):.0%}), does not {wrong}")


if __name__ == "__main__":
    main()
