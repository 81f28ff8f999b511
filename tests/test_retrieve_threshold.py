"""R1a's threshold is a cosine, and cosines are not comparable across models: each model carries its own."""

from types import SimpleNamespace

from cikb.embed import ALL_MINILM_L6_V2, ARCTIC_EMBED_S
from cikb.retrieve.retriever import resolve_threshold

from cikb.core.models import ModelInfo


def _embedder(spec) -> SimpleNamespace:
    return SimpleNamespace(info=spec.info("fastembed", "onnx-fp32"))


def test_the_product_model_uses_the_spec_threshold() -> None:
    assert ARCTIC_EMBED_S.relevance_threshold == 0.3
    assert resolve_threshold(None, _embedder(ARCTIC_EMBED_S)) == 0.3


def test_the_offline_model_uses_its_calibrated_threshold_and_configuration_wins() -> None:
    assert resolve_threshold(None, _embedder(ALL_MINILM_L6_V2)) == 0.15
    assert resolve_threshold(0.42, _embedder(ALL_MINILM_L6_V2)) == 0.42
    assert resolve_threshold(0.0, _embedder(ALL_MINILM_L6_V2)) == 0.0  # an explicit 0 is not "unset"


def test_an_unknown_model_gets_the_spec_value() -> None:
    info = ModelInfo(name="someone/else", dim=8, backend="x", variant="onnx-fp32", pooling="mean")
    assert resolve_threshold(None, SimpleNamespace(info=info)) == 0.3
