"""The configured model on this machine: where its files are, and getting them (``cikb models pull``).

    installed_model(settings)  -> ModelFiles, or ModelUnavailableError naming every place tried (never the hub)
    pull_model(settings)       -> ModelFiles downloaded through fastembed from the hub (``HF_ENDPOINT`` where set)

The download is fastembed's own (``download_model``: the files its loader needs, checked against
the hub's sizes), into the cache :func:`installed_model` and :func:`~cikb.embed.load_embedder`
read, so the next gather loads the model without ``allow_download``. A hub that cannot be reached
is said in one line within :data:`HUB_CHECK_TIMEOUT_S`: fastembed alone would retry for ~39 s.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from cikb.embed.dense import pick_backend
from cikb.embed.models import DenseModelSpec, model_spec
from cikb.embed.resolve import ModelFiles, ModelUnavailableError, find_model

from cikb.core.config import EmbedSettings

HUB_CHECK_TIMEOUT_S = 5.0  # connect and read, for the one request that tells whether the hub answers


def installed_model(settings: EmbedSettings) -> ModelFiles:
    """The configured model's files on this machine (model_path, else the model cache); the hub is never asked."""
    spec = _spec(settings)
    return find_model(spec, settings, pick_backend(settings), ask_hub=False)


def pull_model(settings: EmbedSettings) -> ModelFiles:
    """Download the configured model through fastembed into the model cache; its files as loading will find them.

    Raises ModelUnavailableError in one line: an unknown model, a backend other than fastembed,
    HF_HUB_OFFLINE set, a hub that cannot be reached or lacks the model, a download that failed.
    """
    refusal = pull_refusal(settings)
    if refusal is not None:
        raise ModelUnavailableError(refusal)
    spec = _spec(settings)
    endpoint = _ask_hub(spec)
    from fastembed.text.onnx_embedding import OnnxTextEmbedding

    with _fastembed_quiet():
        try:  # one try: the hub just answered, and fastembed's retries wait 3 s, then 9 s
            OnnxTextEmbedding.download_model(_description(spec), cache_dir=str(download_cache(settings)), retries=1)
        except Exception as exc:  # noqa: BLE001 - any failure of the download is this one line
            raise ModelUnavailableError(f"downloading {spec.name} from {endpoint} failed: {_first_line(exc)}") from None
    return installed_model(settings)


def download_cache(settings: EmbedSettings) -> Path:
    """Where a pulled model goes: embed.cache_dir, else Hugging Face's cache, the first places loading looks."""
    from huggingface_hub import constants

    return Path(settings.cache_dir) if settings.cache_dir is not None else Path(constants.HF_HUB_CACHE)


def pull_refusal(settings: EmbedSettings) -> str | None:
    """Why :func:`pull_model` cannot download the configured model whatever the hub holds (an unknown model,
    a backend other than fastembed); None when it can try."""
    if model_spec(settings.model) is None:
        return f"unknown embedding model {settings.model!r}: see embed.model in the README"
    if pick_backend(settings) != "fastembed":
        return ("`cikb models pull` downloads the ONNX files fastembed loads, but embed.backend is sentence-transformers: "
                "set embed.allow_download = true to let it download its weights instead")
    return None


def _spec(settings: EmbedSettings) -> DenseModelSpec:
    spec = model_spec(settings.model)
    if spec is None:
        raise ModelUnavailableError(pull_refusal(settings) or "")
    return spec


def _ask_hub(spec: DenseModelSpec) -> str:
    """The hub's address, once it has said it holds the model; else ModelUnavailableError in one line, quickly."""
    from huggingface_hub import constants, model_info
    from huggingface_hub.errors import OfflineModeIsEnabled, RepositoryNotFoundError

    endpoint = constants.ENDPOINT
    # Its telemetry first asks the hub for a registry of agents (3 s more on a hub that never answers).
    constants.HF_HUB_DISABLE_TELEMETRY = True
    try:
        model_info(spec.name, timeout=HUB_CHECK_TIMEOUT_S)
    except OfflineModeIsEnabled:
        raise ModelUnavailableError(f"cannot download {spec.name}: HF_HUB_OFFLINE is set, so the hub ({endpoint}) is not asked") from None
    except RepositoryNotFoundError:
        raise ModelUnavailableError(f"the hub {endpoint} has no model {spec.name}") from None
    except Exception as exc:  # noqa: BLE001 - refused, unknown host, timed out, an HTTP error: the hub cannot give it
        raise ModelUnavailableError(f"cannot reach the model hub {endpoint} ({_first_line(exc)}): {spec.name} not downloaded") from None
    return endpoint


def _description(spec: DenseModelSpec):  # -> fastembed's DenseModelDescription (imported lazily)
    """What fastembed downloads: the model's repository, its fp32 ONNX file (and the tokenizer files it always takes)."""
    from fastembed.common.model_description import DenseModelDescription, ModelSource

    return DenseModelDescription(
        model=spec.name, sources=ModelSource(hf=spec.name), model_file=spec.onnx_file, dim=spec.dim,
        description=f"{spec.name}, for cikb", license="see the model's card", size_in_GB=0.0,
    )


@contextmanager
def _fastembed_quiet() -> Iterator[None]:
    """fastembed logs each failed try through loguru; the one line cikb says is enough."""
    from loguru import logger

    logger.disable("fastembed")
    try:
        yield
    finally:
        logger.enable("fastembed")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0][:160]}" if text else type(exc).__name__
