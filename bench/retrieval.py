"""Retrieval and extractive-answer quality on the SQuAD company articles (issue 4, item 6).

    python bench/retrieval.py [--extractive-sample 600] [--keep DIR]

1. Renders the 26 articles of ``../shared/corpora/squad/companies.json`` (read in
   place) as Wikipedia-like pages, served on 127.0.0.1.
2. Gathers each as its company's ``wikipedia`` source through the real pipeline
   (``cikb.app.pipeline.gather_company``: crawl -> clean -> chunk -> embed -> store).
3. For every question, with the article's company as the filter, measures
   answer-recall@1/5/10 and MRR@10 (a hit is a retrieved chunk containing a
   ground-truth answer) for BM25 alone, dense alone, the hybrid before issue 10
   (equal-vote RRF, k = 60) and the hybrid as configured (``Retriever.search``),
   all in this run; then every R1 variant (RRF / DBSF, weights, sentence rerank
   or none, depth, prefetch, threshold), computed with cikb's own fusion and
   rerank. Each is reported on all questions, on the even-numbered articles
   (where the settings were chosen) and on the odd-numbered ones (held out).
4. Extractive answers (no LLM) on a sample: exact match and token F1 (SQuAD's
   normalisation) of the short answer (or the quoted sentences when there is
   none), and how often the quoted sentences contain a ground-truth answer.
5. Abstention on questions put to a company not in the knowledge base: by flag,
   and with the article's name in the question replaced by an unknown company.
6. Latency p50/p95 of ``Retriever.search`` (query embedding included) and of the
   store's hybrid query alone.
"""

from __future__ import annotations

import argparse
import functools
import html
import json
import re
import string
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cikb
from cikb.answer import Answerer
from cikb.app.pipeline import gather_company
from cikb.app.reading import open_retriever
from cikb.app.sample_site import serve_sample_site as serve
from cikb.core.config import Settings
from cikb.core.slug import company_from_name
from cikb.retrieve.expansion import expand_query
from cikb.retrieve.rerank import rerank_by_sentences
from cikb.store._base import SCORE_TIE
from cikb.store.fusion import fuse

REPO = Path(__file__).resolve().parents[1]
SQUAD = REPO.parent / "shared" / "corpora" / "squad" / "companies.json"
UNKNOWN_COMPANY = "Initech Corporation"
KS = (1, 5, 10)


# --- the corpus as a local Wikipedia ------------------------------------------------


def display_name(title: str) -> str:
    """'Sky_(United_Kingdom)' -> 'Sky (United Kingdom)'."""
    return title.replace("_", " ")


def render_article(article: dict) -> str:
    name = html.escape(display_name(article["title"]))
    paragraphs = "\n".join(f"<p>{html.escape(p['context'])}</p>" for p in article["paragraphs"])
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{name} - Wikipedia</title></head>
<body>
<header><nav><a href="/wiki/Main_Page">Main page</a> | <a href="/wiki/Portal:Contents">Contents</a> |
<a href="/wiki/Special:Random">Random article</a> | <a href="/wiki/Help:Contents">Help</a></nav></header>
<main id="content"><h1 id="firstHeading">{name}</h1>
<div id="mw-content-text">
<p><i>From Wikipedia, the free encyclopedia</i></p>
{paragraphs}
</div></main>
<footer><p>This page was last edited on 1 January 2024. Text is available under the Creative Commons
Attribution-ShareAlike License 4.0; additional terms may apply.</p>
<nav><a href="/wiki/Privacy_policy">Privacy policy</a> | <a href="/wiki/About">About Wikipedia</a></nav></footer>
</body></html>
"""


def write_site(articles: list[dict], root: Path) -> Path:
    (root / "wiki").mkdir(parents=True)
    (root / "robots.txt").write_text("User-agent: *\nAllow: /\n")
    for article in articles:
        (root / "wiki" / article["title"]).write_text(render_article(article), encoding="utf-8")
    return root


def bench_settings(data_dir: Path, base_url: str) -> Settings:
    return Settings(
        data_dir=data_dir,
        gather={"wikipedia_base_url": f"{base_url}/wiki/", "download_delay": 0, "max_pages_per_source": 1,
                "max_raw_bytes": 400_000},
        clean={"max_chars": 200_000},  # the longest article has 85k characters: keep every answer
    )


def gather_all(settings: Settings, articles: list[dict]) -> dict[str, str]:
    """Gather every article; returns slug -> title."""
    slugs = {}
    for number, article in enumerate(articles, start=1):
        started = time.perf_counter()
        summary = gather_company(settings, display_name(article["title"]), {"wikipedia": [article["title"]]})
        slugs[summary.company.slug] = article["title"]
        print(f"  gathered {number:2}/{len(articles)} {summary.company.slug:45} {summary.documents} doc, "
              f"{summary.chunks:3} chunks, {time.perf_counter() - started:5.1f} s", file=sys.stderr)
    return slugs


# --- metrics -------------------------------------------------------------------------


def squish(text: str) -> str:
    return " ".join(text.replace("\\", "").lower().split())


def first_hit(chunks: list[str], answers: list[str]) -> int | None:
    """1-based rank of the first chunk containing a ground-truth answer."""
    wanted = [squish(a) for a in answers]
    for rank, text in enumerate(chunks, start=1):
        body = squish(text)
        if any(a in body for a in wanted):
            return rank
    return None


@dataclass
class Recall:
    """First-hit ranks per question, with the question's company, so a subset of the articles can be read off."""

    ranks: list[int | None] = field(default_factory=list)
    slugs: list[str] = field(default_factory=list)

    def add(self, rank: int | None, slug: str = "") -> None:
        self.ranks.append(rank)
        self.slugs.append(slug)

    def of(self, companies: set[str] | None) -> Recall:
        """The questions of ``companies`` only (None: all)."""
        if companies is None:
            return self
        kept = [(r, s) for r, s in zip(self.ranks, self.slugs) if s in companies]
        return Recall([r for r, _ in kept], [s for _, s in kept])

    def at(self, k: int) -> float:
        return sum(1 for r in self.ranks if r is not None and r <= k) / len(self.ranks)

    @property
    def mrr(self) -> float:
        return sum(1 / r for r in self.ranks if r is not None and r <= 10) / len(self.ranks)

    def row(self) -> str:
        return f"{self.at(1):.3f} | {self.at(5):.3f} | {self.at(10):.3f} | {self.mrr:.3f}"


def normalize_answer(text: str) -> str:
    """SQuAD's: lower case, no punctuation, no articles, single spaces."""
    text = "".join(ch for ch in text.lower() if ch not in set(string.punctuation))
    return " ".join(re.sub(r"\b(a|an|the)\b", " ", text).split())


def token_f1(prediction: str, gold: str) -> float:
    pred, truth = normalize_answer(prediction).split(), normalize_answer(gold).split()
    common = sum((Counter(pred) & Counter(truth)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(pred), common / len(truth)
    return 2 * precision * recall / (precision + recall)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


# --- R1 variants, computed here with cikb's own fusion and rerank -----------------------


@dataclass(frozen=True)
class Variant:
    """One retrieval setting: fusion of the dense (cosine >= threshold) and BM25 top-``prefetch`` lists, then,
    when ``rerank`` is a weight, the fused top ``depth`` reordered by their best sentence (cikb.retrieve.rerank)."""

    fusion: str = "dbsf"
    rerank: float | None = 0.5
    k: int = 60
    prefetch: int = 20
    w_dense: float = 1.0
    w_bm25: float = 1.0
    depth: int = 10
    threshold: float | None = None  # None: the retriever's (configured, else the model's own)
    expansion: float = 0.0  # relation words added to the BM25 query, and credited in the rerank, at this weight (retrieve.expansion_weight)

    @classmethod
    def of(cls, cfg) -> Variant:
        """The variant ``[retrieve]`` settings describe."""
        w_dense, w_bm25 = cfg.fusion_weights
        return cls(fusion=cfg.fusion, rerank=cfg.rerank_weight if cfg.rerank == "sentences" else None, k=cfg.rrf_k,
                   prefetch=cfg.prefetch_limit, w_dense=w_dense, w_bm25=w_bm25, depth=cfg.rerank_depth,
                   expansion=cfg.expansion_weight)

    def label(self, threshold: float) -> str:
        fusion = f"RRF k={self.k}" if self.fusion == "rrf" else "DBSF"
        if (self.w_dense, self.w_bm25) != (1.0, 1.0):
            fusion = f"{fusion}, weights {self.w_dense:g}:{self.w_bm25:g}"
        rerank = f"sentence rerank {self.rerank:g} of top {self.depth}" if self.rerank is not None else "no rerank"
        bound = threshold if self.threshold is None else self.threshold
        extra = f", prefetch {self.prefetch}" if self.prefetch != 20 else ""
        extra += f", expansion {self.expansion:g}" if self.expansion else ""
        return f"{fusion}, {rerank}, cosine >= {bound:g}{extra}"

    def retrieve(self, question: str, every: list, sparse: list, threshold: float, tokenize) -> list:
        """The top 10 as the store and the retriever would return them, from the company's chunks ranked by cosine
        (``every``) and by BM25 (``sparse``, the query widened when the variant expands)."""
        bound = threshold if self.threshold is None else self.threshold
        dense_list = [c for c in every if c.score >= bound][: self.prefetch]
        if not dense_list:
            return []  # R3: nothing is related
        lists = [dense_list, sparse[: self.prefetch]]
        fused = fuse(self.fusion, [[(c.chunk.id, c.score) for c in hits] for hits in lists], self.k, (self.w_dense, self.w_bm25))
        by_id = {c.chunk.id: c for hits in lists for c in hits}
        cosine = {c.chunk.id: c.score for c in every}
        order = sorted(fused, key=lambda p: (-round(fused[p] / SCORE_TIE), -cosine.get(p, -1.0), p))
        top = [by_id[p].model_copy(update={"score": fused[p], "rank": rank}) for rank, p in enumerate(order[: max(10, self.depth)], start=1)]
        if self.rerank is not None:
            top = rerank_by_sentences(question, top[: self.depth], tokenize, self.rerank, self.expansion) + top[self.depth :]
        return top[:10]


BASELINE = Variant(fusion="rrf", rerank=None)  # R1 before issue 10: equal-vote RRF, k = 60
VARIANTS = [
    BASELINE, Variant(fusion="rrf", rerank=None, k=10), Variant(fusion="rrf", rerank=None, w_bm25=3),
    Variant(rerank=None), Variant(rerank=None, w_bm25=2),
    Variant(fusion="rrf", rerank=0.5), Variant(fusion="rrf", rerank=0.5, w_bm25=3),
    Variant(rerank=0.3), Variant(rerank=0.5), Variant(rerank=0.7), Variant(rerank=0.5, w_bm25=2),
    Variant(rerank=0.5, depth=5), Variant(rerank=0.5, depth=20), Variant(rerank=0.5, prefetch=10), Variant(rerank=0.5, prefetch=50),
    Variant(rerank=0.5, prefetch=50, depth=20), Variant(rerank=0.5, prefetch=50, depth=30), Variant(rerank=0.6, prefetch=50, depth=20),
    Variant(rerank=0.5, threshold=0.1), Variant(rerank=0.5, threshold=0.2), Variant(rerank=0.5, threshold=0.3),
    Variant(rerank=0.5, prefetch=50, depth=20, expansion=0.3), Variant(rerank=0.5, prefetch=50, depth=20, expansion=0.7),
]


# --- the run ---------------------------------------------------------------------------


def run(args: argparse.Namespace) -> None:
    articles = json.loads(SQUAD.read_text(encoding="utf-8"))
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="cikb-bench-retrieval-"))
    if args.reuse and (work / "data").is_dir():
        settings, slugs, gather_s = bench_settings(work / "data", "http://127.0.0.1:9"), {}, 0.0
    else:
        site = write_site(articles, work / "site")
        with serve(site) as base_url:
            settings = bench_settings(work / "data", base_url)
            started = time.perf_counter()
            slugs = gather_all(settings, articles)
            gather_s = time.perf_counter() - started
    with open_retriever(settings) as retriever, retriever.session():
        report(args, settings, retriever, articles, slugs, gather_s)


def questions_of(articles: list[dict]) -> list[tuple[str, str, list[str]]]:
    """(slug, question, answers) for every question, article by article."""
    return [
        (company_from_name(display_name(a["title"])).slug, qa["question"], qa["answers"])
        for a in articles for p in a["paragraphs"] for qa in p["qas"]
    ]


def halves(articles: list[dict]) -> tuple[set[str], set[str]]:
    """The companies of the even-numbered articles (where settings were chosen) and of the odd-numbered ones (held out)."""
    slugs = [company_from_name(display_name(a["title"])).slug for a in articles]
    return set(slugs[0::2]), set(slugs[1::2])


def report(args, settings: Settings, retriever, articles: list[dict], slugs: dict[str, str], gather_s: float) -> None:
    store, embedder, bm25 = retriever.store, retriever.embedder, retriever.bm25
    cfg = settings.retrieve
    threshold = retriever.score_threshold
    questions = questions_of(articles)
    tuned, held_out = halves(articles)
    chunk_counts = store.companies()
    print(f"\ncorpus: {len(articles)} articles -> {sum(chunk_counts.values())} chunks "
          f"({min(chunk_counts.values())}-{max(chunk_counts.values())} per company), {len(questions)} questions; "
          f"gather {gather_s:.0f} s{' (reused)' if not gather_s else ''}; model {embedder.info.name} ({embedder.info.variant})")

    configured = Variant.of(cfg)
    bm25_only, dense_only, bm25_reranked, hybrid = Recall(), Recall(), Recall(), Recall()
    grid = {variant: Recall() for variant in dict.fromkeys([*VARIANTS, configured])}
    tokenize = functools.lru_cache(maxsize=None)(bm25.tokenize)  # sentences repeat across questions
    search_ms, store_ms, parity, promoted = [], [], 0, 0
    for slug, question, answers in questions:
        t0 = time.perf_counter()
        result = retriever.search(question, company=slug)
        search_ms.append((time.perf_counter() - t0) * 1000)
        hybrid.add(first_hit([c.chunk.text for c in result.chunks], answers), slug)

        dense_vec, sparse_vec = embedder.embed_query(question), bm25.encode_query(question)
        widened = {w: expand_query(sparse_vec, tokenize(question), w)[0] for w in {v.expansion for v in grid}}
        t0 = time.perf_counter()
        store.hybrid_search(dense_vec, widened[cfg.expansion_weight], company=slug, prefetch_limit=cfg.prefetch_limit, rrf_k=cfg.rrf_k,
                            limit=max(cfg.top_k, cfg.rerank_depth), score_threshold=threshold, fusion=cfg.fusion, weights=cfg.fusion_weights)
        store_ms.append((time.perf_counter() - t0) * 1000)
        every = store.dense_search(dense_vec, company=slug, limit=max(chunk_counts[slug], 50))  # all the company's chunks
        sparse = store.sparse_search(sparse_vec, company=slug, limit=50)
        dense_only.add(first_hit([c.chunk.text for c in every[:10]], answers), slug)
        bm25_only.add(first_hit([c.chunk.text for c in sparse[:10]], answers), slug)
        reranked = rerank_by_sentences(question, sparse[:10], tokenize, 0.5)
        bm25_reranked.add(first_hit([c.chunk.text for c in reranked], answers), slug)
        sparse_by = {w: sparse if not w else store.sparse_search(vector, company=slug, limit=50) for w, vector in widened.items()}
        for variant, recall in grid.items():
            top = variant.retrieve(question, every, sparse_by[variant.expansion], threshold, tokenize)
            recall.add(first_hit([c.chunk.text for c in top], answers), slug)
            if variant == configured and result.trace.promoted is None:  # a promotion is the reader's, not fusion's
                parity += [c.chunk.id for c in top] == [c.chunk.id for c in result.chunks]
        promoted += result.trace.promoted is not None

    print(f"\n## Retrieval, per company (filter = the article's company), {len(questions)} questions\n")
    print(f"All questions; then the {len(tuned)} even-numbered articles ({len(bm25_only.of(tuned).ranks)} questions), on which the "
          f"settings were chosen, and the {len(held_out)} odd-numbered ones ({len(bm25_only.of(held_out).ranks)} questions), held out.\n")
    rows = (
        ("BM25 only (Qdrant sparse + IDF)", bm25_only), ("dense only (cosine)", dense_only),
        (f"hybrid before issue 10: {BASELINE.label(threshold)}", grid[BASELINE]),
        (f"**hybrid R1 as configured**: {configured.label(threshold)}", hybrid),
        ("BM25 top 10, sentence rerank 0.5 (no dense)", bm25_reranked),
    )
    print("| retriever | R@1 | R@5 | R@10 | MRR@10 | held out: R@1 | R@5 | R@10 | MRR@10 |\n|---|---|---|---|---|---|---|---|---|")
    for name, recall in rows:
        print(f"| {name} | {recall.row()} | {recall.of(held_out).row()} |")
    best1 = max(bm25_only.at(1), dense_only.at(1))
    print(f"\ntargets: hybrid R@1 {hybrid.at(1):.3f} >= 0.88 and > best single {best1:.3f}: "
          f"{'met' if hybrid.at(1) >= 0.88 and hybrid.at(1) > best1 else 'NOT met'}; "
          f"R@10 {hybrid.at(10):.3f} >= 0.99: {'met' if hybrid.at(10) >= 0.99 else 'NOT met'}")
    print(f"the variant computed here reproduces the retriever's top 10 exactly for {parity}/{len(questions) - promoted} questions; "
          f"for {promoted} more the reader's sure answer moved a chunk first (retrieve.answer_first, not in the variants below)")

    print("\n## R1 variants (same questions; RRF = w/(k + rank), ranks from 1; DBSF = w x (s - (mean - 3 sd)) / 6 sd per list)\n")
    print("| variant | R@1 | R@5 | R@10 | MRR@10 | chosen on: R@1 | R@10 | held out: R@1 | R@5 | R@10 | MRR@10 |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|")
    for variant, recall in grid.items():
        mark = " (configured)" if variant == configured else " (before)" if variant == BASELINE else ""
        half = recall.of(tuned)
        print(f"| {variant.label(threshold)}{mark} | {recall.row()} | {half.at(1):.3f} | {half.at(10):.3f} | {recall.of(held_out).row()} |")

    print("\n## Latency (ms), all questions\n")
    print("| what | p50 | p95 |\n|---|---|---|")
    print(f"| Retriever.search (query embedding + hybrid + rerank + context) | {percentile(search_ms, .5):.1f} | {percentile(search_ms, .95):.1f} |")
    print(f"| store.hybrid_search alone | {percentile(store_ms, .5):.1f} | {percentile(store_ms, .95):.1f} |")

    extractive(args, retriever, questions)
    abstention(retriever, articles, questions)


def extractive(args, retriever, questions) -> None:
    sample = questions[:: max(1, len(questions) // args.extractive_sample)][: args.extractive_sample]
    answerer = Answerer(llm=None, embedder=retriever.embedder)
    lexical_only = Answerer(llm=None, embedder=None)
    print(f"\n## Extractive answers (no LLM), {len(sample)} questions (every {max(1, len(questions) // args.extractive_sample)}th)\n")
    print("| answerer | EM | token F1 | quoted sentences contain an answer | short answer given | ms p50 |\n|---|---|---|---|---|---|")
    for name, which in (("words + meaning (default)", answerer), ("words only", lexical_only)):
        em = f1 = contained = shorts = 0.0
        ms = []
        for slug, question, answers in sample:
            retrieval = retriever.search(question, company=slug)
            t0 = time.perf_counter()
            result = which.answer(question, retrieval)
            ms.append((time.perf_counter() - t0) * 1000)
            quoted = re.sub(r"\s*\[\d+\]", "", result.answer)
            prediction = result.short_answer or quoted
            shorts += result.short_answer is not None
            em += max(normalize_answer(prediction) == normalize_answer(a) for a in answers)
            f1 += max(token_f1(prediction, a) for a in answers)
            contained += any(squish(a) in squish(quoted) for a in answers)
        n = len(sample)
        print(f"| {name} | {em / n:.3f} | {f1 / n:.3f} | {contained / n:.3f} | {shorts / n:.3f} | {percentile(ms, .5):.0f} |")


def abstention(retriever, articles, questions) -> None:
    by_flag = sum(retriever.search(q, company="initech").empty for _, q, _ in questions)
    renamed, renamed_abstained, answered_inferred, inferred_right = 0, 0, 0, 0
    names = {company_from_name(display_name(a["title"])).slug: display_name(a["title"]) for a in articles}
    for slug, question, _ in questions:
        name = re.sub(r"\s*\(.*\)$", "", names[slug])  # "Sky (United Kingdom)" is asked about as "Sky"
        if not re.search(rf"\b{re.escape(name)}\b", question, re.IGNORECASE):
            continue
        renamed += 1
        swapped = re.sub(rf"\b{re.escape(name)}\b", UNKNOWN_COMPANY, question, flags=re.IGNORECASE)
        renamed_abstained += retriever.search(swapped).empty
        original = retriever.search(question)
        answered_inferred += not original.empty
        inferred_right += original.trace.company.slug == slug
    print("\n## Abstention on a company not in the knowledge base\n")
    print("| questions | abstained |\n|---|---|")
    print(f"| all {len(questions)}, asked with --company initech | {by_flag / len(questions):.3f} |")
    print(f"| {renamed} that name their company, the name replaced by '{UNKNOWN_COMPANY}', company inferred | {renamed_abstained / max(renamed, 1):.3f} |")
    print(f"\nthe same {renamed} questions as written, no --company: company inferred correctly {inferred_right / max(renamed, 1):.3f}, "
          f"answered (not abstained) {answered_inferred / max(renamed, 1):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--extractive-sample", type=int, default=600, help="Questions for the extractive-answer metrics.")
    parser.add_argument("--keep", help="Work directory to keep (default: a fresh temporary one).")
    parser.add_argument("--reuse", action="store_true", help="With --keep: use the knowledge base gathered there before.")
    run(parser.parse_args())


if __name__ == "__main__":
    main()
