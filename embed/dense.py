"""Dense embeddings (spec E1, E2, E4): one interface, two backends.

- ``fastembed`` (default): onnxruntime, torch-free.
- ``sentence-transformers``: PyTorch, for GPU machines (``device`` auto picks CUDA).

Both pool and normalize as the model's descriptor says (not as a directory's
config says), truncate at its ``max_tokens``, and add its query prefix to
queries only, so the two backends produce the same vectors (cosine >= 0.99).

A ``lazy`` embedder (``load_embedder(settings, lazy=True)``) knows its model's identity and tokenizer at
once but loads the weights on its first embedding: a re-gather whose chunks are all in the vector cache
never loads them (0.4 s of onnxruntime session, and fastembed's import).
"""

from __future__ import annotations

import importlib.util
import logging
import os
import threading
from abc import ABC, abstractmethod
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Sequence

import numpy as np
from cikb.embed.models import KNOWN_MODELS, OFFLINE_MODEL, DenseModelSpec, model_spec
from cikb.embed.resolve import (
    Backend,
    ModelFiles,
    ModelUnavailableError,
    find_model,
    packaged_offline_model,
)
from cikb.embed.tokenizer import ModelTokenizer

from cikb.core.config import EmbedSettings
from cikb.core.models import ModelInfo

log = logging.getLogger("cikb.embed")

ProgressCallback = Callable[[int, int], None]
"""Called after each batch with (texts done, texts in all)."""


class DenseEmbedder(ABC):
    """A dense model (its weights loaded, or loaded on first use when lazy). ``info`` is what the store records;
    ``description`` is what commands print."""

    backend: Backend

    def __init__(self, files: ModelFiles, batch_size: int = 64, requested: str | None = None, fallback_reason: str | None = None) -> None:
        self.files = files
        self.spec: DenseModelSpec = files.spec
        self.batch_size = batch_size
        self.requested = requested or files.spec.name
        self.fallback_reason = fallback_reason
        self.info: ModelInfo = files.spec.info(self.backend, files.variant)
        self.tokenizer = ModelTokenizer(files.tokenizer_file)
        self._loading = threading.Lock()
        self._loaded: object | None = None

    @property
    def loaded(self) -> bool:
        """Whether the weights are loaded (a lazy embedder loads them on its first embedding)."""
        return self._loaded is not None

    def load(self) -> None:
        """Load the weights now (a lazy embedder would on its first embedding)."""
        self._model  # noqa: B018 - the property loads them

    @property
    def _model(self) -> Any:
        """The backend's model object, loaded on first use by a lazy embedder."""
        if self._loaded is None:
            with self._loading:  # the gather's worker and main threads embed in turn, never loading twice
                if self._loaded is None:
                    self._loaded = self._load_now()
        return self._loaded

    def _load_now(self) -> object:
        try:
            return self._load()
        except Exception as exc:
            raise ModelUnavailableError(f"cannot load {self.info.name} with {self.backend} from {self.files.directory}: {exc}") from exc

    @abstractmethod
    def _load(self) -> object:
        """The backend's model, from ``self.files``."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.description}>"

    @property
    def description(self) -> str:
        """One short line naming the model in use, its weights, where they came from, and the configured one
        if it is a fallback (why is in ``fallback_reason``, and in the notice logged once per process)."""
        line = f"{self.info.name} ({self.info.backend}, {self.info.variant}, from {self.files.source})"
        if self.fallback_reason:
            line += f" instead of {self.requested}"
        return line

    def embed_documents(self, texts: Sequence[str], on_progress: ProgressCallback | None = None) -> np.ndarray:
        """L2-normalized float32 vectors, shape (len(texts), dim), in batches of ``batch_size``."""
        vectors = np.zeros((len(texts), self.info.dim), dtype=np.float32)
        for start in range(0, len(texts), self.batch_size):
            batch = list(texts[start : start + self.batch_size])
            vectors[start : start + len(batch)] = self._embed(batch)
            if on_progress is not None:
                on_progress(start + len(batch), len(texts))
        return vectors

    def embed_query(self, text: str) -> np.ndarray:
        """The query's vector, shape (dim,): the model's query prefix is added here, and only here."""
        return self._embed([self.spec.query_prefix + text])[0]

    @abstractmethod
    def _embed(self, texts: list[str]) -> np.ndarray:
        """Vectors for one batch."""


class FastembedEmbedder(DenseEmbedder):
    """onnxruntime through fastembed, over a directory cikb resolved (fastembed never downloads)."""

    backend: Backend = "fastembed"

    def __init__(
        self, files: ModelFiles, onnx_batch_size: int = 1, onnx_arena: bool = True, onnx_threads: int | None = None, *, lazy: bool = False,
        **kwargs: object,
    ) -> None:
        super().__init__(files, **kwargs)  # type: ignore[arg-type]
        self.onnx_batch_size = onnx_batch_size
        self.onnx_threads = onnx_threads or default_onnx_threads()
        self.onnx_arena = onnx_arena
        if not lazy:
            self._loaded = self._load()  # now: weights that cannot load fall back in load_embedder

    def _load(self) -> object:
        from fastembed import TextEmbedding

        name = _register_fastembed_model(self.files)
        # Chosen by measurement (bench/embed.py --repeat 2, 200 real chunks of ~420 tokens, idle 2-core machine,
        # sentence-transformers fp32 at 11.4 chunks/s): onnxruntime's memory arena on, one text per call, and
        # as many texts at once as there are CPUs, each on one onnxruntime thread: 24.6 chunks/s, 2.16x, 477 MB.
        # Without the arena every call allocates and page-faults its activations afresh (the old setting, no
        # arena and 16 per call: 0.59x at 1.6 GB). One text per call is both the fastest (no padding, buffers
        # stay in cache: 4 / 8 / 16 per call were slower) and the smallest, since the arena keeps the largest
        # call's buffers (~ texts x tokens^2). Texts side by side beat one text on two onnxruntime threads
        # (20.7 chunks/s, 1.85x): a short call's parallel sections hand off and spin more than they compute.
        return TextEmbedding(
            name, specific_model_path=str(self.files.directory), providers=["CPUExecutionProvider"], enable_cpu_mem_arena=self.onnx_arena,
            threads=1,
        )

    def _embed(self, texts: list[str]) -> np.ndarray:
        # With more than one text per call, calls pad to their longest text: embedding in length order
        # wastes far less work (measured +40% chunks/s at 16 per call); rows go back in the caller's order.
        # Dealt round-robin in that order, the threads get equal shares of long and short texts.
        order = np.argsort([len(text) for text in texts], kind="stable")
        lanes = [order[lane::self.onnx_threads] for lane in range(max(1, min(self.onnx_threads, len(texts))))]
        if len(lanes) == 1:
            parts = [self._embed_in_order(texts, order)]
        else:  # onnxruntime runs a session from several threads at once and lets go of the GIL meanwhile
            with ThreadPoolExecutor(len(lanes), thread_name_prefix="cikb-embed") as pool:
                parts = list(pool.map(lambda lane: self._embed_in_order(texts, lane), lanes))
        restored = np.empty((len(texts), self.info.dim), dtype=np.float32)
        for lane, vectors in zip(lanes, parts):
            restored[lane] = vectors
        return restored

    def _embed_in_order(self, texts: list[str], indices: np.ndarray) -> np.ndarray:
        vectors = self._model.embed([texts[i] for i in indices], batch_size=self.onnx_batch_size)
        return np.asarray(list(vectors), dtype=np.float32).reshape(len(indices), self.info.dim)


MAX_DEFAULT_ONNX_THREADS = 8


def default_onnx_threads() -> int:
    """Every CPU this process may use, at most 8: that many texts are embedded at once, one onnxruntime thread each.

    Measured against half the CPUs (the earlier default) on the 2-core machine, idle: 24.6 against
    13.6 chunks/s. A gather embeds while its crawl waits out the politeness delay, so the crawl
    seldom needs the core the embedding takes. Each text in flight holds its own activations in
    the arena (about 100 MB for 512 tokens), so the default stops at 8 (about 1.1 GB in all);
    ``embed.onnx_threads`` sets more.
    """
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(cpus, MAX_DEFAULT_ONNX_THREADS))


class SentenceTransformerEmbedder(DenseEmbedder):
    """PyTorch through sentence-transformers; CUDA when present and ``device`` is auto."""

    backend: Backend = "sentence-transformers"

    def __init__(self, files: ModelFiles, device: str = "auto", *, lazy: bool = False, **kwargs: object) -> None:
        super().__init__(files, **kwargs)  # type: ignore[arg-type]
        self.device = device
        if not lazy:
            self._loaded = self._load()  # now: weights that cannot load fall back in load_embedder

    def _load(self) -> object:
        from sentence_transformers import SentenceTransformer

        try:  # sentence-transformers >= 6
            from sentence_transformers.sentence_transformer import modules as models
        except ImportError:
            from sentence_transformers import models
        from transformers.utils import logging as transformers_logging

        transformers_logging.disable_progress_bar()  # commands print one line about the model, not bars
        import torch

        if self.device == "auto":
            self.device = "cuda" if torch.cuda.is_available() else "cpu"
        elif self.device == "cuda" and not torch.cuda.is_available():  # else torch's AssertionError, deep in the first batch
            raise ModelUnavailableError("embed.device is cuda, but PyTorch finds no CUDA device on this machine: set it to auto or cpu")
        transformer = models.Transformer(str(self.files.directory), max_seq_length=self.spec.max_tokens)
        pooling = models.Pooling(self.spec.dim, pooling_mode=self.spec.pooling)
        model = SentenceTransformer(modules=[transformer, pooling, models.Normalize()], device=self.device)
        model.eval()
        return model

    def _embed(self, texts: list[str]) -> np.ndarray:
        vectors = self._model.encode(texts, batch_size=len(texts), convert_to_numpy=True, show_progress_bar=False)
        return np.asarray(vectors, dtype=np.float32)


def load_embedder(settings: EmbedSettings, *, lazy: bool = False) -> DenseEmbedder:
    """The configured dense model, or the packaged all-MiniLM-L6-v2 when it cannot load and fallback is on.

    Resolution (spec E2): ``model_path``, else the local cache, else the hub when
    ``allow_download``; never a silent wait. A fallback is logged once per process as one
    short warning line, and named by ``embedder.description`` and ``embedder.fallback_reason``.
    Raises ModelUnavailableError (a CikbError) when nothing can be loaded. ``lazy``: the weights
    are loaded on the first embedding (the files are found now); weights that fail to load then
    raise ModelUnavailableError, with no fallback, since the model's identity is in use by then.
    """
    backend = pick_backend(settings)
    spec = model_spec(settings.model)
    try:
        if spec is None:
            raise ModelUnavailableError(f"unknown embedding model {settings.model!r} (cikb knows: {_known_names()})")
        return _construct(_find_files(spec, settings, backend), settings, lazy=lazy)
    except Exception as exc:
        if not settings.offline_fallback:
            if isinstance(exc, ModelUnavailableError):
                raise
            raise ModelUnavailableError(f"cannot load {settings.model} with {backend}: {exc}") from exc
        reason = str(exc) if isinstance(exc, ModelUnavailableError) else f"loading failed: {type(exc).__name__}: {exc}"
        notice = _fallback_notice(settings, spec, exc)
    embedder = _construct(packaged_offline_model(settings, backend), settings, lazy=lazy, requested=settings.model, fallback_reason=reason)
    if notice not in _ANNOUNCED:  # once per process (a command), not once per load: gather and retrieval both load it
        _ANNOUNCED.add(notice)
        log.warning("%s", notice)
    return embedder


def _fallback_notice(settings: EmbedSettings, spec: DenseModelSpec | None, exc: Exception) -> str:
    """One short line: which model could not load, why in a few words, and what is used instead.

    The full reason (every place tried) stays in ``embedder.fallback_reason``.
    """
    if spec is None:
        why = "is not a model cikb knows"
    elif not isinstance(exc, ModelUnavailableError):
        why = f"failed to load ({type(exc).__name__})"
    else:
        where = "at model_path or in the local cache" if settings.model_path is not None else "in the local cache"
        why = f"is not {where} and " + ("could not be downloaded" if settings.allow_download else "allow_download is off")
    return f"{settings.model} {why}: using the packaged {OFFLINE_MODEL.name.split('/')[-1]}"


_ANNOUNCED: set[str] = set()


def _find_files(spec: DenseModelSpec, settings: EmbedSettings, backend: Backend) -> ModelFiles:
    """The configured model's files; for the offline model itself, its packaged copy comes last (no fallback)."""
    try:
        return find_model(spec, settings, backend)
    except ModelUnavailableError:
        if spec is not OFFLINE_MODEL:
            raise
        return packaged_offline_model(settings, backend)


def _construct(files: ModelFiles, settings: EmbedSettings, *, lazy: bool = False, **kwargs: str) -> DenseEmbedder:
    if files.backend == "fastembed":
        return FastembedEmbedder(
            files, onnx_batch_size=settings.onnx_batch_size, onnx_arena=settings.onnx_arena, onnx_threads=settings.onnx_threads,
            batch_size=settings.batch_size, lazy=lazy, **kwargs,
        )
    return SentenceTransformerEmbedder(files, device=settings.device, batch_size=settings.batch_size, lazy=lazy, **kwargs)


def pick_backend(settings: EmbedSettings) -> Backend:
    if settings.backend != "auto":
        return settings.backend
    try:  # found, not imported: importing fastembed takes 0.8 s, which a lazy embedder may never need
        found = importlib.util.find_spec("fastembed") is not None
    except (ImportError, ValueError):
        found = False
    return "fastembed" if found else "sentence-transformers"


def _known_names() -> str:
    return ", ".join(sorted({spec.name for spec in KNOWN_MODELS.values()}))


_REGISTERED: set[str] = set()


def _register_fastembed_model(files: ModelFiles) -> str:
    """Register the model with fastembed under a cikb name, pooling and normalization from our descriptor."""
    from fastembed import TextEmbedding
    from fastembed.common.model_description import ModelSource, PoolingType

    spec = files.spec
    name = f"cikb/{spec.name}@{files.onnx_file}"
    if name not in _REGISTERED:
        try:
            TextEmbedding.add_custom_model(
                name,
                pooling=PoolingType.CLS if spec.pooling == "cls" else PoolingType.MEAN,
                normalization=True,
                sources=ModelSource(hf=spec.name),
                dim=spec.dim,
                model_file=files.onnx_file or spec.onnx_file,
            )
        except ValueError as exc:  # registered by an earlier import of this module
            if "already registered" not in str(exc):
                raise
        _REGISTERED.add(name)
    return name
