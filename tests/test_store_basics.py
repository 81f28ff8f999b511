"""The store's contract in both modes: collection record, model check, writes that touch one company, persistence."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from _store_corpus import QUERY, TOY_DIM, chunk, model, settings, sparse, with_cosine
from cikb.store import CollectionNotReadyError, open_store

from cikb.core.errors import LockedError, ModelMismatchError

MODES = ["embedded", "local"]


def _vectors(n: int, seed: int = 0) -> tuple[np.ndarray, list]:
    rng = np.random.default_rng(seed)
    dense = rng.standard_normal((n, TOY_DIM)).astype(np.float32)
    return dense, [sparse({int(i): float(w) for i, w in zip(rng.integers(1, 50, 3), rng.random(3) + 0.1)}) for _ in range(n)]


def _fill(store, company: str, keys: list[str], seed: int = 0):
    chunks = [chunk(k, company=company, index=i) for i, k in enumerate(keys)]
    dense, sp = _vectors(len(chunks), seed)
    store.upsert(chunks, dense, sp)
    return chunks


@pytest.fixture(params=MODES)
def mode(request) -> str:
    return request.param


@pytest.fixture
def store(mode: str, tmp_path: Path):
    opened = open_store(settings(tmp_path / "data", mode))
    opened.ensure_collection(model(), bm25_avg_len=42.0)
    yield opened
    opened.close()


def test_a_fresh_store_is_empty_and_refuses_writes_before_ensure(mode: str, tmp_path: Path) -> None:
    with open_store(settings(tmp_path / "data", mode)) as fresh:
        assert fresh.record() is None and fresh.model_info() is None
        assert fresh.count() == 0 and fresh.companies() == {} and fresh.delete_company("acme") == 0
        dense, sp = _vectors(1)
        with pytest.raises(CollectionNotReadyError):
            fresh.upsert([chunk("a")], dense, sp)


def test_the_record_keeps_model_and_avg_len_across_reopen(mode: str, store, tmp_path: Path) -> None:
    _fill(store, "acme", ["a", "b"])
    store.close()
    with open_store(settings(tmp_path / "data", mode)) as reopened:
        assert reopened.model_info() == model()
        # documents were encoded with 42: a later avg_len must not replace it
        record = reopened.ensure_collection(model(), bm25_avg_len=99.0)
        assert record.bm25_avg_len == 42.0 and reopened.bm25_avg_len() == 42.0
        assert reopened.count() == 2 and reopened.companies() == {"acme": 2}


@pytest.mark.parametrize(
    "other",
    [model(name="other/model"), model(dim=TOY_DIM + 1), model(variant="onnx-int8")],
    ids=["name", "dim", "precision"],
)
def test_another_model_is_refused_with_a_clear_message(store, other) -> None:
    _fill(store, "acme", ["a"])
    with pytest.raises(ModelMismatchError) as err:
        store.ensure_collection(other)
    message = str(err.value)
    assert "test/model" in message and other.name in message and "\n" not in message
    assert store.count() == 1  # nothing was dropped


def test_the_same_weights_through_another_backend_are_accepted(store) -> None:
    _fill(store, "acme", ["a"])
    torch = model().model_copy(update={"backend": "sentence-transformers", "variant": "torch-fp32"})
    assert store.ensure_collection(torch).model == model()


def test_dense_vectors_of_the_wrong_dimension_are_refused(store) -> None:
    with pytest.raises(ModelMismatchError):
        store.upsert([chunk("a")], np.ones((1, TOY_DIM + 1), dtype=np.float32), [sparse({1: 1.0})])


def test_an_empty_collection_takes_a_new_model(store) -> None:
    _fill(store, "acme", ["a"])
    store.delete_company("acme")
    record = store.ensure_collection(model(name="new/model", dim=TOY_DIM + 4), bm25_avg_len=7.0)
    assert record.model.name == "new/model" and record.bm25_avg_len == 7.0
    _, sp = _vectors(1)
    store.upsert([chunk("a")], np.ones((1, TOY_DIM + 4), dtype=np.float32), sp)
    assert store.count() == 1


def test_delete_company_removes_exactly_its_points(store) -> None:
    _fill(store, "acme", ["a", "b", "c"])
    kept = _fill(store, "globex", ["a", "b"], seed=1)
    assert store.companies() == {"acme": 3, "globex": 2}
    assert store.delete_company("acme") == 3
    assert store.companies() == {"globex": 2} and store.count("acme") == 0
    assert [p.chunk for p in store.points([c.id for c in kept])] == kept
    assert store.delete_company("acme") == 0


def test_replace_company_keeps_new_points_and_drops_the_rest_of_that_company_only(store) -> None:
    old = _fill(store, "acme", ["a", "b", "c"])
    others = _fill(store, "globex", ["a", "b"], seed=1)
    new = [chunk("b", company="acme", index=1), chunk("d", company="acme", index=3)]  # b keeps its id
    dense, sp = _vectors(2, seed=5)
    removed = store.replace_company("acme", new, dense, sp)
    assert removed == 2  # a and c; b was overwritten in place
    assert store.companies() == {"acme": 2, "globex": 2}
    assert {p.chunk.id for p in store.points([c.id for c in old + new])} == {c.id for c in new}
    assert len(store.points([c.id for c in others])) == 2
    with pytest.raises(ValueError):
        store.replace_company("acme", [chunk("x", company="globex")], dense[:1], sp[:1])


def test_identical_upserts_give_identical_points(store) -> None:
    chunks = _fill(store, "acme", ["a", "b"], seed=3)
    first = store.points([c.id for c in chunks])
    _fill(store, "acme", ["a", "b"], seed=3)
    again = store.points([c.id for c in chunks])
    assert store.count() == 2
    for a, b in zip(first, again, strict=True):
        assert a.chunk == b.chunk and a.sparse.indices == b.sparse.indices
        # qdrant-client's local mode keeps float64 in memory and float32 on disk: equal to float32 precision
        assert np.allclose(a.dense, b.dense, rtol=0, atol=1e-6) and np.allclose(a.sparse.values, b.sparse.values, rtol=0, atol=1e-6)
    assert [p.chunk for p in first] == chunks  # the payload rebuilds the chunk, metadata and all


def test_filters_by_company_and_source_type(store) -> None:
    chunks = [
        chunk("w", company="acme", source_type="website"),
        chunk("n", company="acme", source_type="news"),
        chunk("g", company="globex", source_type="news"),
    ]
    dense = np.array([with_cosine(0.9, 1), with_cosine(0.8, 2), with_cosine(0.95, 3)], dtype=np.float32)
    store.upsert(chunks, dense, [sparse({1: 1.0})] * 3)
    hits = store.hybrid_search(QUERY, sparse({1: 1.0}), company="acme")
    assert {h.chunk.metadata.title for h in hits} == {"w", "n"}
    hits = store.hybrid_search(QUERY, sparse({1: 1.0}), company="acme", source_types=["news"])
    assert [h.chunk.metadata.title for h in hits] == ["n"]
    assert [h.chunk.metadata.title for h in store.dense_search(QUERY, source_types=["news"])] == ["g", "n"]
    assert [h.chunk.metadata.title for h in store.sparse_search(sparse({1: 1.0}), company="globex")] == ["g"]
    assert store.hybrid_search(QUERY, sparse({1: 1.0}), company="initech") == []


def test_reopen_persists_points_and_search(mode: str, store, tmp_path: Path) -> None:
    chunks = _fill(store, "acme", [f"k{i}" for i in range(30)])
    before = store.dense_search(QUERY, limit=5)
    store.close()
    with open_store(settings(tmp_path / "data", mode)) as reopened:
        assert reopened.count() == 30
        after = reopened.dense_search(QUERY, limit=5)
        assert [(h.chunk, h.rank) for h in after] == [(h.chunk, h.rank) for h in before]
        assert [h.score for h in after] == pytest.approx([h.score for h in before], abs=1e-6)
        assert [p.chunk for p in reopened.points([chunks[7].id])] == [chunks[7]]


def test_a_second_process_cannot_open_the_embedded_store_while_it_is_open(tmp_path: Path) -> None:
    with open_store(settings(tmp_path / "data", "embedded")) as first:
        first.ensure_collection(model())
        with pytest.raises(LockedError, match="another cikb process"):
            open_store(settings(tmp_path / "data", "embedded"))


def test_an_embedded_shard_left_without_its_record_is_recreated_when_empty(tmp_path: Path) -> None:
    with open_store(settings(tmp_path / "data", "embedded")) as first:
        first.ensure_collection(model())
        first.record_file.unlink()  # as if the process died between creating the shard and recording it
    with open_store(settings(tmp_path / "data", "embedded")) as again:
        assert again.record() is None
        assert again.ensure_collection(model(name="other/model")).model.name == "other/model"


def _on_disk(folder: Path) -> int:
    return sum(path.stat().st_blocks * 512 for path in folder.rglob("*") if path.is_file())


def _length(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def test_a_snapshot_of_the_embedded_store_takes_its_room_on_disk_not_its_length(tmp_path: Path) -> None:
    """The engine's memory-mapped files are mostly holes: a snapshot (what `cikb enrich` reads) copied them out in
    full, writing the files' length (179 MB for a store of 4 MB) and filling a disk the store fitted on."""
    store = open_store(settings(tmp_path / "data", "embedded"))
    store.ensure_collection(model(), bm25_avg_len=42.0)
    chunks = _fill(store, "acme", ["a", "b", "c"])
    copy = store.copy_to(tmp_path / "snapshot")
    try:
        source, copied = tmp_path / "data" / "_qdrant", tmp_path / "snapshot"
        assert abs(_length(copied) - _length(source)) < 10_000 and _length(source) > 4 * _on_disk(source)  # holes, here as there
        assert _on_disk(copied) <= 2 * _on_disk(source) + 1_000_000
        assert [p.chunk for p in copy.points([c.id for c in chunks])] == chunks
    finally:
        copy.close()
        store.close()


def test_a_sparse_file_is_copied_with_its_holes_and_every_byte(tmp_path: Path) -> None:
    from cikb.store.edge import copy_keeping_holes

    sparse_file, copied = tmp_path / "sparse.bin", tmp_path / "copy.bin"
    with open(sparse_file, "wb") as handle:
        handle.write(b"head")
        handle.seek(30_000_000)
        handle.write(b"middle")
        handle.truncate(50_000_000)
    copy_keeping_holes(sparse_file, copied)
    assert copied.stat().st_size == 50_000_000 and copied.stat().st_blocks * 512 < 1_000_000
    with open(copied, "rb") as handle:
        assert handle.read(4) == b"head" and (handle.seek(30_000_000), handle.read(6))[1] == b"middle"
        assert (handle.seek(4), handle.read(1000))[1] == b"\0" * 1000


def test_a_readers_session_reads_the_companies_once_and_flushes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A search reads the companies' counts (an exact facet over every point) and closes the shard: once per loaded state,
    and without a flush (0.05-0.3 s a close at 10k-30k points), which only a session that wrote needs."""
    from cikb.store import edge

    writer = open_store(settings(tmp_path / "data", "embedded"))
    writer.ensure_collection(model(), bm25_avg_len=42.0)
    _fill(writer, "acme", ["a", "b"])
    writer.close()
    calls: list[str] = []

    class Watched:  # the loaded shard, counting what a reader asks of it
        def __init__(self, shard):
            self.shard = shard

        def __getattr__(self, name):
            if name in ("flush", "facet"):
                calls.append(name)
            return getattr(self.shard, name)

    load = edge.EdgeStore._load
    monkeypatch.setattr(edge.EdgeStore, "_load", lambda self, deadline: Watched(load(self, deadline)))
    reader = open_store(settings(tmp_path / "data", "embedded"), reader=True)
    with reader.session():
        assert reader.companies() == reader.companies() == {"acme": 2}
    assert calls == ["facet"]
    reader.close()
    writer = open_store(settings(tmp_path / "data", "embedded"))
    _fill(writer, "globex", ["c"])
    assert writer.companies() == {"acme": 2, "globex": 1}  # a write reads them anew
    writer.close()
    assert calls.count("flush") >= 1 and calls.count("facet") == 2
