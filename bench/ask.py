"""Offline answers to the letsencrypt.org facts (issue 10, items 4-5).

    python bench/ask.py [--data-dir DIR] [--reuse] [--pages N] [--company NAME] [--verbose]

Serves the letsencrypt.org build (``../shared/corpora/site_letsencrypt``) on 127.0.0.1, gathers it
as the company ISRG (or ``--company``, e.g. "Let's Encrypt", the name most users would give) through the real pipeline with a page budget of ``--pages`` (default 250: the
whole English site, so the figure measures reading, not which pages a 20-page crawl picks), then asks
each of the 14 questions of ``letsencrypt_facts.json`` with ``cikb ask``'s code in extractive mode
(no LLM). A question is a hit when the answer's text holds the fact's answer (case and punctuation
aside); the short answer ("In short: ...") is reported beside it. Target: >= 10/14.

Retrieval is measured on the same questions: the rank of the first chunk holding the fact's evidence
sentence (case and punctuation aside) in the retriever's result (target: top-1 for >= 10/14), whether
it is in the context handed to the answerer (>= 13/14), and its rank in the dense and the BM25
candidate lists alone (depth 100), to tell a recall problem from a fusion one.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from cikb.app.pipeline import gather_company
from cikb.app.reading import ask, open_retriever
from cikb.app.sample_site import serve_sample_site
from cikb.core.config import Settings
from cikb.core.slug import company_from_name

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"


def normal(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower().replace("’", "'")))


def evidence_rank(chunks, evidence: str) -> int | None:
    """1-based rank of the first chunk whose text holds ``evidence``, else None."""
    wanted = normal(evidence)
    return next((n for n, c in enumerate(chunks, 1) if wanted in normal(c.chunk.text)), None)


def retrieval_ranks(retriever, question: str, evidence: str, slug: str = "isrg") -> dict[str, int | None]:
    """Where the evidence chunk ranks: fused result, context, dense list alone, BM25 list alone (depth 100)."""
    result = retriever.search(question, company=slug)
    dense = retriever.store.dense_search(retriever.embedder.embed_query(question), company=slug, limit=100)
    sparse = retriever.store.sparse_search(retriever.sparse_query(question)[0], company=slug, limit=100)  # as widened
    return {"rank": evidence_rank(result.chunks, evidence), "context": evidence_rank(result.context, evidence),
            "dense": evidence_rank(dense, evidence), "bm25": evidence_rank(sparse, evidence)}


@dataclass
class Scores:
    """Of the facts: evidence chunk ranked first, evidence chunk in the answerer's context, fact in the answer."""

    facts: int = 0
    top1: int = 0
    in_context: int = 0
    answered: int = 0


def bench_settings(data_dir: Path, pages: int) -> Settings:
    settings = Settings(data_dir=data_dir)
    settings.gather.download_delay = 0
    settings.gather.max_pages_per_source = pages
    return settings


def gather_site(settings: Settings, company: str = "ISRG") -> None:
    """Gather the letsencrypt.org build, served on 127.0.0.1, as ``company`` (website source)."""
    with serve_sample_site(CORPORA / "site_letsencrypt") as url:
        started = time.perf_counter()
        summary = gather_company(settings, company, {"website": [url + "/"]})
        print(f"gathered {company}: {summary.documents} documents, {summary.chunks} chunks, "
              f"{time.perf_counter() - started:.0f} s", file=sys.stderr)


def measure(settings: Settings, verbose: bool = False, slug: str = "isrg") -> Scores:
    """Ask every fact's question of the gathered company, extractively; score retrieval and answers."""
    facts = json.loads((CORPORA / "letsencrypt_facts.json").read_text())["facts"]
    scores = Scores(facts=len(facts))
    with open_retriever(settings) as retriever:
        for fact in facts:
            ranks = retrieval_ranks(retriever, fact["question"], fact["evidence"], slug)
            scores.top1 += ranks["rank"] == 1
            scores.in_context += ranks["context"] is not None
            answer = ask(settings, fact["question"], company=slug, retriever=retriever)
            hit = normal(fact["answer"]) in normal(answer.answer)
            scores.answered += hit
            if verbose:
                marks = " ".join(f"{k} {'#' + str(v) if v else '-'}" for k, v in ranks.items())
                print(f"{'ok' if hit else '--'} {fact['id']} {fact['question']}\n   truth: {fact['answer']}\n   evidence: {marks}\n"
                      f"   short: {answer.short_answer}\n   answer: {answer.answer[:300]}\n   warnings: {answer.warnings}")
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", type=Path, help="Knowledge base directory (default: a temporary one).")
    parser.add_argument("--reuse", action="store_true", help="Skip the gather when --data-dir already holds the company.")
    parser.add_argument("--pages", type=int, default=250, help="Page budget of the crawl (default 250).")
    parser.add_argument("--company", default="ISRG", help="The name the site is gathered under (default ISRG; try \"Let's Encrypt\").")
    parser.add_argument("--verbose", action="store_true", help="Print every answer.")
    args = parser.parse_args()

    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="cikb-bench-ask-"))
    settings = bench_settings(data_dir, args.pages)
    slug = company_from_name(args.company).slug
    if not (args.reuse and (data_dir / slug).exists()):
        gather_site(settings, args.company)
    scores = measure(settings, args.verbose, slug)
    n = scores.facts
    print(f"\nevidence chunk ranked first: {scores.top1}/{n} (target >= 10); in the answerer's context: {scores.in_context}/{n} (target >= 13)")
    print(f"letsencrypt facts in offline ask answers: {scores.answered}/{n} (target >= 10)")


if __name__ == "__main__":
    main()
