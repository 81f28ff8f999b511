"""Quality floor of the one reader on the shared data (issue 10 items 4-5): enrichment cells of bench/enrich.py.

The knowledge base is a word-overlap stand-in for retrieval (tests/enrich_support.TextKnowledgeBase) over the
SQuAD company articles and four letsencrypt.org pages, so the figure moves only with the reader. Measured
when written: 28 of 34 cells right, 15 high-confidence cells, all right; re-measured after the reader's
timeline, agent-descriptor and related-word rules: 28 right, 17 high, all right (and 6 wrong). Since the reader
gives no value it reads with low confidence and a trained entity recogniser vetoes values of another kind (issue
23): 24 right, 4 wrong, 6 empty, 17 high, all right; with a passive predicate's agent stated after adjuncts
("founded in 1899 in Barcelona by ...") at medium: 26 right, 4 wrong, 4 empty. The floor allows EPSILON cells less right and no more wrong,
and high-confidence cells must stay >= 95% right. A second floor holds the values bench/reader_squad.py gives on
every SQuAD company question.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bench_loader import load_bench
from enrich_support import TextKnowledgeBase, chunk_text, letsencrypt_chunks

from cikb.core.slug import slugify
from cikb.enrich.evidence import passages_from_chunks
from cikb.enrich.extract import extract_answer

MEASURED_RIGHT, EPSILON = 26, 2
MEASURED_WRONG = 4
MIN_HIGH = 15  # measured 17

pytestmark = pytest.mark.slow


def test_enrichment_cells_stay_above_the_floor(corpora: Path) -> None:
    bench = load_bench("enrich")
    companies, truth = bench.load_truth()
    chunks = letsencrypt_chunks(corpora, company=slugify(bench.ISRG))
    articles = {a["title"]: a for a in json.loads((corpora / "squad" / "companies.json").read_text(encoding="utf-8"))}
    for company, title in companies.items():
        if title:
            text = "\n".join(p["context"] for p in articles[title]["paragraphs"])
            chunks += chunk_text(f"https://wiki.test/{title}", title, slugify(company), text)
    kb = TextKnowledgeBase(chunks, limit=10)
    right = wrong = high = high_right = 0
    for (company, column_name), answers in truth.items():
        column = next(c for c in bench.COLUMNS if c.name == column_name)
        question = column.question.replace("{Company}", company)
        cell = extract_answer(question, column.type, passages_from_chunks(kb.search(question, slugify(company))), company=company)
        ok = cell.value is not None and bench.is_right(cell.value, answers, column.type)
        right += ok
        wrong += cell.value is not None and not ok
        high += cell.confidence == "high"
        high_right += ok and cell.confidence == "high"
    assert right >= MEASURED_RIGHT - EPSILON, f"{right}/{len(truth)} cells right"
    assert wrong <= MEASURED_WRONG, f"{wrong}/{len(truth)} cells wrong"
    assert high >= MIN_HIGH and high_right / high >= 0.95, f"high-confidence cells: {high_right}/{high} right"


# bench/reader_squad.py on every question of the SQuAD company articles, measured in session 45 (a role's words all
# held by the sentence that names its holder; a job title names no one; a counsel is a person): high 223 right of 231
# (97%), medium 544 right of 737 (193 wrong); in session 63 high 242 of 251, medium 536 of 712 (176 wrong); in session
# 70, with an amount or a date of several in one sentence read by its own words, medium 549 of 707 (158 wrong), and
# with a count of each of many capped at low, medium 547 of 703 (156 wrong); in session 73, with a date told in the
# future, only planned or only tried not the date of what happened, and a role held between two years not held now,
# high 242 of 251, medium 546 of 697 (151 wrong); in session 74, with a value of the deed that undoes the one asked
# of ("closed its Berlin office in 2022", asked when it opened it) no answer and a move the other way no move, high
# 243 of 252, medium 546 of 696 (150 wrong); in session 75, with what the parse tells of another organisation told
# in its own clause, medium 546 of 695 (149 wrong). The floor keeps high-confidence values >= 95% right, the
# confident values right (high and medium together: a value that moves up to high is no loss) at most a few fewer,
# and the medium values wrong at most a few more.
SQUAD_CONFIDENT_RIGHT, SQUAD_MEDIUM_WRONG, SQUAD_EPSILON = 789, 149, 5


# 4,398 questions through the reader: 130 to 210 s on two busy cores, close to the suite's 300 s hang guard;
# the parse count it depends on is checked in tests/test_answer_reader.py.
@pytest.mark.timeout(600)
def test_confident_values_on_squad_stay_above_the_floor(corpora: Path) -> None:
    bench = load_bench("reader_squad")
    _, given = bench.measure(bench.load_articles(corpora))
    count = lambda confidence, right: sum(v for (_, c, r), v in given.items() if c == confidence and r == right)  # noqa: E731
    high_right, high_wrong = count("high", True), count("high", False)
    assert high_right / (high_right + high_wrong) >= 0.95, f"high: {high_right} right, {high_wrong} wrong"
    confident_right = high_right + count("medium", True)
    assert confident_right >= SQUAD_CONFIDENT_RIGHT - SQUAD_EPSILON, f"high and medium right: {confident_right}"
    assert count("medium", False) <= SQUAD_MEDIUM_WRONG + SQUAD_EPSILON, f"medium wrong: {count('medium', False)}"
