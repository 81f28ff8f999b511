"""Store benchmark: the embedded default (Qdrant Edge) against qdrant-client's local mode, in one run.

For each store and size (5k, 20k, 100k chunks over 10 companies) two fresh
subprocesses run: one builds the store through ``VectorStore.upsert`` (upsert
time, then optimize time, peak RSS), one reopens it and runs filtered hybrid
queries (R1: dense and sparse top ``[retrieve] prefetch_limit``, fused as ``[retrieve]`` says, DBSF by
default, one company, as many candidates as the retriever asks for) (reopen time, p50/p95, then p95
with the retriever's steps after the store added: the page-kind prior, near-copies left out, the
sentence rerank of the top ``rerank_depth``; peak RSS of a process that serves queries).

The data are synthetic, and say so: dense vectors are random unit vectors
around 200 random topic directions (so the 0.3 cosine threshold keeps some and
drops most, as with real text); sparse vectors are real BM25 weights
(``embed.Bm25Encoder.term_weights``) of ~220-token documents drawn from a
Zipf(1.1) vocabulary of 50,000 terms; queries are 4 terms at weight 1 and 8 more
at 0.5 (the relation words the retriever adds, ``retrieve.expansion_weight``) and a
vector near a topic. Payloads carry 1,500 characters of text like a real chunk.

    python bench/store.py                      # all sizes, both stores (~10 min on 2 cores)
    python bench/store.py --sizes 5000 20000   # fewer sizes
    python bench/store.py --local-queries 10   # fewer (slow) local-mode queries
    python bench/store.py --dir /var/tmp       # store files on disk instead of tmpfs

Both stores keep their files in ``--dir`` (default /dev/shm, a tmpfs, where there
is one): qdrant-client's local mode commits SQLite once per point, so on a slow
shared disk its upsert measures fsync, not the store. Edge's reopen from disk
is in the same range (0.3 s at 100k; see offline-models.md).
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

DIM = 384
COMPANIES = 10
TOPICS = 200
VOCAB = 50_000
DOC_TOKENS = 220
QUERY_TERMS = 4
EXPANSION_TERMS = 8  # "headquartered" adds hq, based, located, office, head, address, house
SEED = 7
WARMUP = 2
STORES = {"embedded": "Qdrant Edge (default)", "local": "qdrant-client local (baseline)"}


# -- synthetic corpus ----------------------------------------------------------------------


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def _topics() -> np.ndarray:
    return _unit(np.random.default_rng(SEED).standard_normal((TOPICS, DIM)))


def _zipf_terms(rng: np.random.Generator, size: int) -> np.ndarray:
    weights = 1.0 / np.arange(1, VOCAB + 1) ** 1.1
    return rng.choice(VOCAB, size=size, p=weights / weights.sum())


def corpus(n: int, start: int, stop: int):
    """Chunks ``start..stop`` of an ``n``-chunk corpus, with their dense and sparse vectors (deterministic)."""
    from cikb.core.models import Chunk, ChunkMetadata, SparseVector
    from cikb.embed import Bm25Encoder

    rng = np.random.default_rng([SEED, n, start])
    topics = _topics()
    topic_of = rng.integers(0, TOPICS, stop - start)
    dense = _unit(topics[topic_of] * 1.0 + rng.standard_normal((stop - start, DIM)).astype(np.float32) * 0.075)
    bm25 = Bm25Encoder(avg_len=DOC_TOKENS)
    terms = _zipf_terms(rng, (stop - start) * DOC_TOKENS).reshape(stop - start, DOC_TOKENS)
    scraped = datetime(2026, 1, 1, tzinfo=timezone.utc)
    chunks, sparse = [], []
    for row, i in enumerate(range(start, stop)):
        ids, counts = np.unique(terms[row], return_counts=True)
        norm = bm25.k1 * (1 - bm25.b + bm25.b * DOC_TOKENS / bm25.avg_len)
        values = counts * (bm25.k1 + 1) / (counts + norm)
        sparse.append(SparseVector(indices=ids.tolist(), values=values.tolist()))
        company = f"company-{i % COMPANIES:02d}"
        url = f"https://{company}.example/page/{i // 8}"
        chunks.append(
            Chunk(
                id=str(uuid.uuid5(uuid.NAMESPACE_URL, f"{url}#{i % 8}")),
                text=f"chunk {i} " + "lorem ipsum dolor sit amet " * 55,
                token_count=DOC_TOKENS,
                metadata=ChunkMetadata(url=url, title=f"Page {i}", company=company, source_type="website", chunk_index=i % 8, scraped_at=scraped),
            )
        )
    return chunks, dense, sparse


def _query_vector(own: list[int], related: list[int]):
    from cikb.core.models import SparseVector

    weights = dict.fromkeys(related, 0.5) | dict.fromkeys(own, 1.0)
    return SparseVector(indices=sorted(weights), values=[weights[i] for i in sorted(weights)])


def queries(count: int):
    from cikb.core.models import SparseVector

    rng = np.random.default_rng([SEED, 99])
    topics = _topics()
    dense = _unit(topics[rng.integers(0, TOPICS, count)] + rng.standard_normal((count, DIM)).astype(np.float32) * 0.075)
    terms = _zipf_terms(rng, count * QUERY_TERMS).reshape(count, QUERY_TERMS)
    # The retriever widens each question with its words' relation words at a lower weight (retrieve.expansion).
    related = _zipf_terms(rng, count * EXPANSION_TERMS).reshape(count, EXPANSION_TERMS)
    sparse = [_query_vector(own.tolist(), wide.tolist()) for own, wide in zip(terms, related)]
    companies = [f"company-{i % COMPANIES:02d}" for i in range(count)]
    return list(zip(dense, sparse, companies))


# -- the two phases, each in its own process -------------------------------------------------


def _settings(mode: str, path: Path):
    from cikb.core.config import Settings

    return Settings(data_dir=path, store={"mode": mode, "path": path})


def _model():
    from cikb.core.models import ModelInfo

    return ModelInfo(name="bench/random-unit-vectors", dim=DIM, backend="none", variant="synthetic-fp32", pooling="cls")


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def phase_build(mode: str, path: Path, n: int, batch: int) -> dict:
    from cikb.store import open_store

    store = open_store(_settings(mode, path))
    store.ensure_collection(_model(), bm25_avg_len=DOC_TOKENS)
    upsert_s = 0.0
    for start in range(0, n, batch):
        chunks, dense, sparse = corpus(n, start, min(n, start + batch))
        t0 = time.perf_counter()
        store.upsert(chunks, dense, sparse)
        upsert_s += time.perf_counter() - t0
    t0 = time.perf_counter()
    store.optimize()
    optimize_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    store.close()
    close_s = time.perf_counter() - t0
    return {"upsert_s": upsert_s, "optimize_s": optimize_s, "close_s": close_s, "build_rss_mb": _peak_rss_mb()}


def phase_query(mode: str, path: Path, n: int, count: int) -> dict:
    from cikb.embed import Bm25Encoder
    from cikb.retrieve.duplicates import collapse_near_duplicates
    from cikb.retrieve.priors import weigh_page_kinds
    from cikb.retrieve.rerank import rerank_by_sentences
    from cikb.retrieve.retriever import candidate_limit
    from cikb.store import open_store

    work = queries(count + WARMUP)
    settings = _settings(mode, path)
    cfg, tokenize = settings.retrieve, Bm25Encoder().tokenize
    t0 = time.perf_counter()
    store = open_store(settings)
    count_check = store.count()
    reopen_s = time.perf_counter() - t0
    assert count_check == n, (count_check, n)
    latencies, reranked, returned = [], [], []
    for i, (dense, sparse, company) in enumerate(work):
        t0 = time.perf_counter()
        hits = store.hybrid_search(
            dense, sparse, company=company, prefetch_limit=cfg.prefetch_limit, rrf_k=cfg.rrf_k, limit=candidate_limit(cfg),
            fusion=cfg.fusion, weights=cfg.fusion_weights,
        )
        elapsed = time.perf_counter() - t0
        # The retriever's steps after the store: the page-kind prior, near-copies left out, the sentence rerank.
        kept, _ = collapse_near_duplicates(weigh_page_kinds(hits, cfg.page_kind_weights), cfg.duplicate_threshold, keep=cfg.rerank_depth)
        rerank_by_sentences("lorem ipsum chunk dolor", kept, tokenize, cfg.rerank_weight, cfg.expansion_weight)
        with_rerank = time.perf_counter() - t0
        if i >= WARMUP:  # the first queries warm caches
            latencies.append(elapsed)
            reranked.append(with_rerank)
            returned.append(len(hits))
        assert all(h.chunk.metadata.company == company for h in hits)
    store.close()
    ms = np.array(latencies) * 1000
    return {
        "reopen_s": reopen_s,
        "p50_ms": float(np.percentile(ms, 50)),
        "p95_ms": float(np.percentile(ms, 95)),
        "p95_rerank_ms": float(np.percentile(np.array(reranked) * 1000, 95)),
        "queries": count,
        "mean_hits": float(np.mean(returned)),
        "serve_rss_mb": _peak_rss_mb(),
    }


def _disk_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 2**20


def _child(args: list[str]) -> dict:
    proc = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"bench child {args} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def run_one(mode: str, n: int, count: int, batch: int, where: Path) -> dict:
    path = Path(tempfile.mkdtemp(prefix=f"cikb-bench-{mode}-", dir=where))
    try:
        row = {"store": mode, "n": n}
        row.update(_child(["--phase", "build", "--mode", mode, "--path", str(path), "--n", str(n), "--batch", str(batch)]))
        row["disk_mb"] = _disk_mb(path)
        row.update(_child(["--phase", "query", "--mode", mode, "--path", str(path), "--n", str(n), "--queries", str(count)]))
        return row
    finally:
        shutil.rmtree(path, ignore_errors=True)


def print_table(rows: list[dict]) -> None:
    header = f"{'store':<32} {'chunks':>7} {'upsert s':>9} {'optim s':>8} {'reopen s':>9} {'p50 ms':>9} {'p95 ms':>9} {'+rerank':>8} {'queries':>7} {'hits':>5} {'build MB':>9} {'serve MB':>9} {'disk MB':>8}"
    print(header)
    print("-" * len(header))
    for r in rows:
        print(
            f"{STORES[r['store']]:<32} {r['n']:>7} {r['upsert_s']:>9.2f} {r['optimize_s']:>8.2f} {r['reopen_s']:>9.2f} "
            f"{r['p50_ms']:>9.1f} {r['p95_ms']:>9.1f} {r['p95_rerank_ms']:>8.1f} {r['queries']:>7} {r['mean_hits']:>5.1f} {r['build_rss_mb']:>9.0f} {r['serve_rss_mb']:>9.0f} {r['disk_mb']:>8.0f}"
        )
    print()
    by = {(r["store"], r["n"]): r for r in rows}
    for n in sorted({r["n"] for r in rows}):
        edge, local = by.get(("embedded", n)), by.get(("local", n))
        if edge and local:
            print(
                f"{n:>7} chunks: local/Edge  p50 x{local['p50_ms'] / edge['p50_ms']:.0f}, p95 x{local['p95_ms'] / edge['p95_ms']:.0f}, "
                f"reopen x{local['reopen_s'] / edge['reopen_s']:.0f}, upsert x{local['upsert_s'] / edge['upsert_s']:.1f}, serve RSS x{local['serve_rss_mb'] / edge['serve_rss_mb']:.1f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[5_000, 20_000, 100_000])
    parser.add_argument("--stores", nargs="+", choices=list(STORES), default=list(STORES))
    parser.add_argument("--edge-queries", type=int, default=200)
    parser.add_argument("--local-queries", type=int, default=20, help="the local mode takes seconds per query at 100k")
    parser.add_argument("--batch", type=int, default=5_000, help="chunks per upsert call")
    parser.add_argument("--dir", type=Path, default=Path("/dev/shm") if Path("/dev/shm").is_dir() else Path(tempfile.gettempdir()), help="where the stores' files go")
    parser.add_argument("--phase", choices=["build", "query"], help=argparse.SUPPRESS)
    parser.add_argument("--mode", help=argparse.SUPPRESS)
    parser.add_argument("--path", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--n", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--queries", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phase == "build":
        print(json.dumps(phase_build(args.mode, args.path, args.n, args.batch)))
        return
    if args.phase == "query":
        print(json.dumps(phase_query(args.mode, args.path, args.n, args.queries)))
        return
    rows = []
    for n in args.sizes:
        for mode in args.stores:
            count = args.edge_queries if mode == "embedded" else args.local_queries
            t0 = time.perf_counter()
            rows.append(run_one(mode, n, count, args.batch, args.dir))
            print(f"  {STORES[mode]} at {n}: done in {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    from cikb.core.config import RetrieveSettings

    print(f"synthetic chunks (see --help); store files in {args.dir}; filtered hybrid query = R1 for one of {COMPANIES} companies; "
          f"+rerank: p95 with the retriever's steps after the store (page-kind prior, near-copies, the sentence rerank of the top "
          f"{RetrieveSettings().rerank_depth}; synthetic text, so a rough cost)")
    print_table(rows)


if __name__ == "__main__":
    main()
