"""The sentence-transformers backend on a GPU: ``device = auto`` picks CUDA, vectors agree with the CPU's, and speed.

    python bench/embed_gpu.py [--model-path DIR] [--texts FILE.json] [--n 1000]

Needs the ``torch`` extra (sentence-transformers and the packaged fp32 all-MiniLM-L6-v2) on a
machine with CUDA. ``--model-path`` loads other files of the same model (a copy of its
sentence-transformers folder); ``--texts`` a JSON list of texts (default: the SQuAD company
paragraphs in ../shared/corpora). Prints one JSON object: the device ``auto`` picked, where the
weights are, the lowest cosine between GPU and CPU vectors of the same texts (documents and a
query), the golden vector's largest deviation (tests/test_embed_dense.py), whether the token
counts cikb uses match the model's tokenizer, and texts/s on the GPU against the CPU (all its
cores) in the same run. Exits 1 unless CUDA was picked and the vectors agree (cosine >= 0.9999).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

SQUAD = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "squad" / "companies.json"
GOLDEN_TEXT = "Acme Corporation builds industrial robots for warehouses."
GOLDEN_TORCH_FP32 = [-0.070034, -0.066156, -0.031781, 0.007427, 0.007344, -0.010902, -0.054653, 0.014870]


def load_texts(path: Path | None, n: int) -> list[str]:
    if path is not None:
        return json.loads(path.read_text())[:n]
    texts = dict.fromkeys(p["context"] for article in json.loads(SQUAD.read_text()) for p in article["paragraphs"])
    return list(texts)[:n]


def embedder(device: str, model_path: Path | None):  # type: ignore[no-untyped-def]
    from cikb.embed import load_embedder

    from cikb.core.config import EmbedSettings

    return load_embedder(EmbedSettings(
        model="sentence-transformers/all-MiniLM-L6-v2", model_path=model_path, backend="sentence-transformers",
        device=device, offline_fallback=model_path is None,
    ))


def texts_per_second(model, texts: list[str]) -> float:  # type: ignore[no-untyped-def]
    import torch

    model.embed_documents(texts[:32])  # warm-up: CUDA kernels, the allocator
    torch.cuda.synchronize() if torch.cuda.is_available() else None
    start = time.perf_counter()
    model.embed_documents(texts)
    torch.cuda.synchronize() if torch.cuda.is_available() else None
    return round(len(texts) / (time.perf_counter() - start), 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model-path", type=Path)
    parser.add_argument("--texts", type=Path)
    parser.add_argument("--n", type=int, default=1000)
    args = parser.parse_args()
    import torch

    texts = load_texts(args.texts, args.n)
    gpu, cpu = embedder("auto", args.model_path), embedder("cpu", args.model_path)
    sample = texts[:200]
    documents = float((gpu.embed_documents(sample) * cpu.embed_documents(sample)).sum(axis=1).min())
    query = "When was the company founded?"
    golden = gpu.embed_documents([GOLDEN_TEXT])[0][:8]
    report = {
        "model": gpu.description,
        "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
        "auto_picked": gpu.device,
        "weights_on": str(next(gpu._model.parameters()).device),
        "min_cosine_gpu_cpu_documents": documents,
        "cosine_gpu_cpu_query": float(gpu.embed_query(query) @ cpu.embed_query(query)),
        "golden_max_deviation": float(np.abs(golden - np.array(GOLDEN_TORCH_FP32)).max()),
        "token_counts_agree": all(
            gpu.tokenizer.count_tokens(t) == len(gpu._model.tokenizer(t)["input_ids"]) for t in sample
        ),
        "gpu_texts_per_s": texts_per_second(gpu, texts),
        "cpu_texts_per_s": texts_per_second(cpu, sample),
        "cpu_threads": torch.get_num_threads(),
        "texts": len(texts),
    }
    report["gpu_over_cpu"] = round(report["gpu_texts_per_s"] / report["cpu_texts_per_s"], 1)
    print(json.dumps(report, indent=1))
    return 0 if report["auto_picked"] == "cuda" and documents >= 0.9999 else 1


if __name__ == "__main__":
    sys.exit(main())
