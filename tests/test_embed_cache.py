"""The vector cache (embed.VectorCache): text + model identity -> vector, shared safely by concurrent gathers."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from cikb.embed import VectorCache

from cikb.core.models import ModelInfo

MODEL = ModelInfo(name="test/model", dim=4, backend="fastembed", variant="onnx-int8", pooling="mean")


class CountingEmbedder:
    """A deterministic stand-in for a dense model that counts the texts it embeds."""

    def __init__(self) -> None:
        self.embedded: list[str] = []

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        self.embedded.extend(texts)
        return np.array([[len(t), sum(map(ord, t)) % 97, t.count(" "), 1.0] for t in texts], dtype=np.float32)


def test_a_text_is_embedded_once_per_model(tmp_path: Path) -> None:
    path, embedder = tmp_path / "vectors.sqlite", CountingEmbedder()
    with VectorCache(path, MODEL) as cache:
        first, fresh = cache.embed(embedder, ["alpha beta", "gamma"])
        assert fresh.tolist() == [True, True]
    with VectorCache(path, MODEL) as cache:  # a later gather
        again, fresh = cache.embed(embedder, ["gamma", "alpha beta", "delta"])
        assert fresh.tolist() == [False, False, True] and embedder.embedded[-1:] == ["delta"]
        assert np.array_equal(again[:2], first[::-1])
        _, fresh = cache.embed(embedder, ["gamma"], reuse=False)  # --full: embedded again
        assert fresh.all()
    other = MODEL.model_copy(update={"variant": "onnx-fp32"})
    with VectorCache(path, other) as cache:
        _, fresh = cache.embed(embedder, ["gamma"])
        assert fresh.all()  # another model's vector is never reused


def test_a_damaged_cache_file_is_moved_aside_and_started_afresh(tmp_path: Path) -> None:
    path = tmp_path / "vectors.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    with VectorCache(path, MODEL) as cache:
        _, fresh = cache.embed(CountingEmbedder(), ["alpha"])
        assert fresh.all() and cache.lookup(["alpha"])[0] is not None
    assert len(list(tmp_path.glob("vectors.sqlite.damaged-*"))) == 1


def test_damage_found_while_reading_moves_the_cache_aside_and_embeds_again(tmp_path: Path, caplog) -> None:
    # Bytes overwritten inside the file: it opens, and its first read says "database disk image is malformed".
    path = tmp_path / "vectors.sqlite"
    texts = [f"chunk {n} " * 40 for n in range(2000)]
    with VectorCache(path, MODEL) as cache:
        cache.embed(CountingEmbedder(), texts)
    data = bytearray(path.read_bytes())
    data[len(data) // 2 : len(data) // 2 + 512] = bytes(range(256)) * 2
    path.write_bytes(bytes(data))
    embedder = CountingEmbedder()
    with caplog.at_level("WARNING", logger="cikb.cache"), VectorCache(path, MODEL) as cache:
        vectors, fresh = cache.embed(embedder, texts)
        assert fresh.all() and len(embedder.embedded) == len(texts)  # nothing was trusted from the damaged file
        assert cache.lookup(texts[:1])[0] is not None  # the new file holds them
    [moved] = list(tmp_path.glob("vectors.sqlite.damaged-*"))
    assert [r.getMessage() for r in caplog.records if moved.name in r.getMessage()]


def test_concurrent_gathers_share_one_cache_file(tmp_path: Path) -> None:
    path = tmp_path / "vectors.sqlite"
    VectorCache(path, MODEL).close()

    def gather(company: str) -> None:
        with VectorCache(path, MODEL) as cache:
            for n in range(30):
                cache.embed(CountingEmbedder(), [f"{company} chunk {n} {m}" for m in range(5)])

    threads = [threading.Thread(target=gather, args=(name,)) for name in ("initech", "globex", "acme")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with VectorCache(path, MODEL) as cache:
        texts = [f"{company} chunk {n} {m}" for company in ("initech", "globex", "acme") for n in range(30) for m in range(5)]
        assert all(vector is not None for vector in cache.lookup(texts))


def test_a_locked_cache_file_is_never_moved_aside(tmp_path: Path, monkeypatch) -> None:
    # Only a damaged file is moved aside: a lock error says the file is sound and in use by another connection.
    import sqlite3

    path = tmp_path / "vectors.sqlite"
    with VectorCache(path, MODEL) as cache:
        cache.embed(CountingEmbedder(), ["alpha"])

    def locked(self: VectorCache) -> sqlite3.Connection:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(VectorCache, "_connect", locked)
    try:
        VectorCache(path, MODEL)
    except sqlite3.OperationalError as err:
        assert "locked" in str(err)
    else:
        raise AssertionError("a locked cache opened")
    assert not list(tmp_path.glob("vectors.sqlite.damaged*"))
    monkeypatch.undo()
    with VectorCache(path, MODEL) as cache:
        assert cache.lookup(["alpha"])[0] is not None
