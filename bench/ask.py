"""Offline answers to the letsencrypt.org facts (issue 10, items 4-5).

    python bench/ask.py [--data-dir DIR] [--reuse] [--pages N] [--verbose]

Serves the letsencrypt.org build (``../shared/corpora/site_letsencrypt``) on 127.0.0.1, gathers it
as the company ISRG through the real pipeline with a page budget of ``--pages`` (default 250: the
whole English site, so the figure measures reading, not which pages a 20-page crawl picks), then asks
each of the 14 questions of ``letsencrypt_facts.json`` with ``cikb ask``'s code in extractive mode
(no LLM). A question is a hit when the answer's text holds the fact's answer (case and punctuation
aside); the short answer ("In short: ...") is reported beside it. Target: >= 10/14.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

from cikb.app.pipeline import gather_company
from cikb.app.reading import ask, open_retriever
from cikb.app.sample_site import serve_sample_site
from cikb.core.config import Settings

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"


def normal(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower().replace("’", "'")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", type=Path, help="Knowledge base directory (default: a temporary one).")
    parser.add_argument("--reuse", action="store_true", help="Skip the gather when --data-dir already holds ISRG.")
    parser.add_argument("--pages", type=int, default=250, help="Page budget of the crawl (default 250).")
    parser.add_argument("--verbose", action="store_true", help="Print every answer.")
    args = parser.parse_args()

    facts = json.loads((CORPORA / "letsencrypt_facts.json").read_text())["facts"]
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="cikb-bench-ask-"))
    settings = Settings(data_dir=data_dir)
    settings.gather.download_delay = 0
    settings.gather.max_pages_per_source = args.pages
    if not (args.reuse and (data_dir / "isrg").exists()):
        with serve_sample_site(CORPORA / "site_letsencrypt") as url:
            started = time.perf_counter()
            summary = gather_company(settings, "ISRG", {"website": [url + "/"]})
            print(f"gathered ISRG: {summary.documents} documents, {summary.chunks} chunks, "
                  f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
    hits = 0
    with open_retriever(settings) as retriever:
        for fact in facts:
            answer = ask(settings, fact["question"], company="isrg", retriever=retriever)
            hit = normal(fact["answer"]) in normal(answer.answer)
            hits += hit
            if args.verbose:
                print(f"{'ok' if hit else '--'} {fact['id']} {fact['question']}\n   truth: {fact['answer']}\n"
                      f"   short: {answer.short_answer}\n   answer: {answer.answer[:300]}\n   warnings: {answer.warnings}")
    print(f"\nletsencrypt facts in offline ask answers: {hits}/{len(facts)} (target >= 10)")


if __name__ == "__main__":
    main()
