"""The letsencrypt.org addresses, before and after the site facts document (issue 10, item 2).

    python bench/site_facts.py [--pages N] [--verbose]

1. Serves the shared letsencrypt.org build (``../shared/corpora/site_letsencrypt``) on 127.0.0.1.
2. Gathers it as the company ISRG through the real pipeline, website source, default settings
   (20 pages; the politeness delay set to 0 so the run takes seconds), twice:
   - before: ``clean.site_facts = false``: main text only (trafilatura drops the footer that holds
     both addresses, in schema.org ``PostalAddress`` microdata);
   - after: ``clean.site_facts = true`` (the default): plus the facts document (schema.org data and
     the site-wide footer, kept once).
3. For the two address facts of ``letsencrypt_facts.json`` (le-04, le-14), asks the retriever their
   questions (and a "mailing address" wording) and reports the rank of the first retrieved chunk
   holding the address (top-1? in the top 10?), and whether the offline (extractive) answer holds it.

Prints the facts document the after run stored.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

from cikb.app.documents import read_documents
from cikb.app.pipeline import gather_company
from cikb.app.reading import ask, open_retriever
from cikb.app.sample_site import serve_sample_site
from cikb.clean.facts import FRAGMENT
from cikb.core.config import Settings

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"
ADDRESS_FACTS = ("le-04", "le-14")
EXTRA_QUESTIONS = {"le-14": ["Where is ISRG's mailing address?"], "le-04": ["Where is ISRG located?"]}


def normal(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower().replace("’", "'")))


def run(url: str, site_facts: bool, pages: int, facts: list[dict], verbose: bool) -> list[tuple[str, str, int | None, bool]]:
    settings = Settings(data_dir=Path(tempfile.mkdtemp(prefix="cikb-bench-facts-")))
    settings.gather.download_delay = 0
    settings.gather.max_pages_per_source = pages
    settings.clean.site_facts = site_facts
    summary = gather_company(settings, "ISRG", {"website": [url + "/"]})
    print(f"\n{'after' if site_facts else 'before'} (clean.site_facts = {str(site_facts).lower()}): "
          f"{summary.documents} documents, {summary.chunks} chunks", file=sys.stderr)
    if site_facts:
        doc = next((d for d in read_documents(settings.data_dir / "isrg" / "raw") if d.url.endswith(FRAGMENT)), None)
        print(f"facts document: {doc.url if doc else None}\n{doc.content if doc else ''}\n")
    rows = []
    with open_retriever(settings) as retriever, retriever.session():
        for fact in facts:
            for question in [fact["question"], *EXTRA_QUESTIONS.get(fact["id"], [])]:
                result = retriever.search(question, company="isrg")
                ranks = [n for n, hit in enumerate(result.chunks, 1) if normal(fact["answer"]) in normal(hit.chunk.text)]
                answer = ask(settings, question, company="isrg", retriever=retriever)
                answered = normal(fact["answer"]) in normal(answer.answer)
                rows.append((fact["id"], question, ranks[0] if ranks else None, answered))
                if verbose:
                    print(f"  {question}\n    answer: {answer.answer[:300]}\n    top: {[c.chunk.metadata.url for c in result.chunks[:3]]}")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=20, help="Page budget of the crawl (default 20, the product's).")
    parser.add_argument("--verbose", action="store_true", help="Print every answer.")
    args = parser.parse_args()

    facts = [f for f in json.loads((CORPORA / "letsencrypt_facts.json").read_text())["facts"] if f["id"] in ADDRESS_FACTS]
    with serve_sample_site(CORPORA / "site_letsencrypt") as url:
        results = {label: run(url, on, args.pages, facts, args.verbose) for label, on in (("before", False), ("after", True))}
    print(f"letsencrypt.org, website source, {args.pages} pages; rank of the first retrieved chunk holding the address (top 10), offline answer")
    print(f"{'fact':<6} {'question':<58} {'before':>12} {'after':>12}")
    for n, (fact_id, question, *_) in enumerate(results["after"]):
        cells = []
        for label in ("before", "after"):
            _, _, rank, answered = results[label][n]
            cells.append(f"{'#' + str(rank) if rank else '-':>4} {'answer' if answered else '------':>7}")
        print(f"{fact_id:<6} {question[:58]:<58} {cells[0]:>12} {cells[1]:>12}")
    for label in ("before", "after"):
        rows = results[label]
        print(f"{label}: top-1 {sum(r[2] == 1 for r in rows)}/{len(rows)}, in top 10 {sum(r[2] is not None for r in rows)}/{len(rows)}, "
              f"answered {sum(r[3] for r in rows)}/{len(rows)}")


if __name__ == "__main__":
    main()
