"""Fact-page coverage of the website gather on letsencrypt.org, before and after the fact-seeking order (issue 10, item 1).

    python bench/gather_facts.py [--budget N] [--delay SECONDS] [--verbose]

1. Serves the shared letsencrypt.org build (``../shared/corpora/site_letsencrypt``) on 127.0.0.1.
2. Gathers it twice with the website source only, default settings (20 pages) but for the
   politeness delay (lowered, default 0.05 s, so the run takes seconds):
   - before: ``gather.crawl_order = "breadth_first"``, the scorer off: pages in the order the
     crawl found them (other-language paths still last);
   - after: ``"facts_first"`` (the default): gather.scoring's best-first order.
3. Scores each run against ``letsencrypt_facts.json``: of the 8 distinct pages that hold its
   14 facts, how many were fetched (fact-page coverage), how many survived the clean stage
   (kept: extracted, English, long enough), and how many of the 14 facts have their evidence
   sentence in a kept page's clean text.

The crawl is deterministic (one request at a time, a fixed order), so one run per order is
the measurement. The site is one real organisation's; the signals are general words (see
gather/scoring.py) and a held-out site measures them too.
"""

from __future__ import annotations

import argparse
import json
import re
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from cikb import gather
from cikb.app.sample_site import serve_sample_site
from cikb.clean import clean_page, strip_markdown
from cikb.core.config import CleanSettings, GatherSettings
from cikb.core.models import RawDocument

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"
SITE = CORPORA / "site_letsencrypt"
FACTS = CORPORA / "letsencrypt_facts.json"
ORDERS = {"before": "breadth_first", "after": "facts_first"}


@dataclass
class Run:
    label: str
    order: str
    fetched: list[str]  # page paths in fetch order
    kept: dict[str, str]  # path -> clean plain text
    seconds: float


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"')
    return re.sub(r"\s+", " ", text).strip().lower()


def gather_site(base_url: str, label: str, order: str, budget: int, delay: float) -> Run:
    settings = GatherSettings(download_delay=delay, crawl_order=order, max_pages_per_source=budget)
    started = time.monotonic()
    result = gather.crawl([gather.resolve_source("website", base_url + "/", settings)], settings)
    seconds = time.monotonic() - started
    source = result.sources[0]
    if source.summary.error:
        raise SystemExit(f"gather failed: {source.summary.error}")
    fetched, kept = [], {}
    for page in source.pages:
        path = page.url.removeprefix(base_url)
        fetched.append(path)
        document = clean_page(page, "isrg", CleanSettings(), max_raw_bytes=settings.max_raw_bytes)
        if isinstance(document, RawDocument):
            kept[path] = normalise(strip_markdown(document.content))
    return Run(label, order, fetched, kept, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=int, default=GatherSettings().max_pages_per_source, help="pages per source (default: the default budget)")
    parser.add_argument("--delay", type=float, default=0.05, help="politeness delay in seconds (default 0.05; the product's is 1.0)")
    parser.add_argument("--verbose", action="store_true", help="list every fetched page")
    args = parser.parse_args()

    data = json.loads(FACTS.read_text(encoding="utf-8"))
    facts = data["facts"]
    fact_pages = sorted({fact["page"] for fact in facts})
    with serve_sample_site(SITE) as base_url:
        runs = [gather_site(base_url, label, order, args.budget, args.delay) for label, order in ORDERS.items()]

    print(f"letsencrypt.org build, website source, budget {args.budget} pages, delay {args.delay}s")
    print(f"{len(fact_pages)} fact pages hold the {len(facts)} facts of {FACTS.name}\n")
    print(f"{'run':<8} {'order':<14} {'fetched':>7} {'fact pages fetched':>19} {'kept':>5} {'facts in kept text':>19} {'seconds':>8}")
    for run in runs:
        got = [p for p in fact_pages if p in run.fetched]
        kept = [p for p in fact_pages if p in run.kept]
        evident = [f for f in facts if normalise(f["evidence"]) in run.kept.get(f["page"], "")]
        print(
            f"{run.label:<8} {run.order:<14} {len(run.fetched):>7} {len(got):>10}/{len(fact_pages)} = {len(got) / len(fact_pages):.2f}"
            f" {len(kept):>5} {len(evident):>12}/{len(facts)} {run.seconds:>8.1f}"
        )
    print()
    width = max(len(p) for p in fact_pages)
    print(f"{'fact page':<{width}}  " + "  ".join(f"{run.label:>8}" for run in runs))
    for path in fact_pages:
        marks = []
        for run in runs:
            marks.append(f"#{run.fetched.index(path) + 1}" if path in run.fetched else "-")
        print(f"{path:<{width}}  " + "  ".join(f"{mark:>8}" for mark in marks))
    print("(#n: fetched n-th; -: not fetched within the budget)")
    if args.verbose:
        for run in runs:
            print(f"\n{run.label} ({run.order}):")
            for n, path in enumerate(run.fetched, 1):
                flag = "*" if path in fact_pages else " "
                print(f"  {n:>2} {flag} {path}{'' if path in run.kept else '   (dropped by clean)'}")


if __name__ == "__main__":
    main()
