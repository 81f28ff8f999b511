"""Quality floor of offline ask on the letsencrypt.org build (issue 10, items 3-5), as bench/ask.py measures it.

The shared build is served on 127.0.0.1 and gathered as ISRG with the default 20-page budget through the real
pipeline (crawl, clean, chunk, the offline all-MiniLM-L6-v2, BM25, the embedded store); each of the 14 questions of
letsencrypt_facts.json is then asked extractively (no LLM). Measured when written, default settings:

    fact in the answer 13/14        evidence chunk in the answerer's context 12/14        evidence chunk first 10/14

(2 of the 14 evidence sentences are in no page the 20-page crawl keeps, so 12 is the most the context can hold.)
Gathered as "Let's Encrypt", the name most users would give the site (the facts are about ISRG, its operator):
fact in the answer 13/14.
The whole English site (250 pages, 1,149 chunks, where versioned policy documents, transparency reports and the
blog index crowd the candidates): fact in the answer 13/14, evidence in context 13/14, evidence first 10/14; before
the page-kind prior (retrieve.page_kind_weights) 8, 8 and 5, before the query's relation words
(retrieve.expansion_weight) 13, 12 and 8, before the sentence rerank credited them (and while the facts document
repeated its page's URL on every line) 13, 13 and 9; at 20 pages then 13, 11 and 8, and 13, 12 and 9 before the
reader's evidence was the sentence stating the value in the question's own word ("founded" over "incorporated").
The floors allow EPSILON less: a change that costs more is a regression to explain. About three minutes on 2 cores.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bench_loader import load_bench

# (answered, evidence in context, evidence first) measured, per page budget: 20, the default; 250, the whole site,
# where the page-kind prior keeps the fact pages among the candidates (8, 8 and 5 without it).
MEASURED = {20: (13, 12, 10), 250: (13, 13, 10)}
MEASURED_ANSWERED_AS_BRAND = 13
EPSILON = 1

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("pages", sorted(MEASURED))
def test_offline_ask_answers_the_letsencrypt_facts_above_the_floor(tmp_path: Path, pages: int) -> None:
    bench = load_bench("ask")
    settings = bench.bench_settings(tmp_path / "data", pages=pages)
    bench.gather_site(settings)
    scores = bench.measure(settings)
    figures = (f"{pages} pages, {scores.facts} facts: answered {scores.answered}, evidence in context {scores.in_context}, "
               f"evidence first {scores.top1}")
    answered, in_context, top1 = MEASURED[pages]
    assert scores.answered >= answered - EPSILON, figures
    assert scores.in_context >= in_context - EPSILON, figures
    assert scores.top1 >= top1 - EPSILON, figures


def test_named_by_its_brand_the_site_still_answers_above_the_floor(tmp_path: Path) -> None:
    # The company's display name is the reader's subject: "Let's" in a question is its name, not a word to match.
    bench = load_bench("ask")
    settings = bench.bench_settings(tmp_path / "data", pages=20)
    bench.gather_site(settings, "Let's Encrypt")
    scores = bench.measure(settings, slug="lets-encrypt")
    assert scores.answered >= MEASURED_ANSWERED_AS_BRAND - EPSILON, f"{scores.facts} facts: answered {scores.answered}"
