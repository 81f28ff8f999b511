"""Contextual chunk headers: a chunk is indexed with its page title and section path; its own text is what is cited."""

from __future__ import annotations

from datetime import datetime, timezone

from answer_helpers import build_kb
from cikb.chunk import indexed_text
from cikb.chunk.context import context_header

from cikb.app.reading import open_retriever
from cikb.core.config import Settings
from cikb.core.models import Chunk, ChunkMetadata

SCRAPED = datetime(2024, 5, 1, tzinfo=timezone.utc)


def chunk(text: str, title: str, path: list[str]) -> Chunk:
    meta = ChunkMetadata(url="https://acme.example/history", title=title, company="acme", source_type="website",
                         chunk_index=1, scraped_at=SCRAPED, heading_path=path)
    return Chunk(id="00000000-0000-0000-0000-000000000001", text=text, token_count=12, metadata=meta)


def test_a_chunk_from_the_middle_of_a_page_is_indexed_with_its_title_and_section_path() -> None:
    middle = chunk("It moved to Springfield in 1987.", "Acme Corp history", ["Acme Corp history", "Timeline"])
    assert context_header(middle) == "Acme Corp history > Timeline"
    assert indexed_text(middle) == "Acme Corp history > Timeline\n\nIt moved to Springfield in 1987."


def test_what_the_chunk_already_begins_with_is_not_repeated() -> None:
    opening = chunk("# Acme Corp history\n\nAcme was founded in 1949.", "Acme Corp history", ["Acme Corp history"])
    assert context_header(opening) == "" and indexed_text(opening) == opening.text
    untitled = chunk("## Timeline\n\nIt moved in 1987.", "", ["Timeline"])
    assert indexed_text(untitled) == untitled.text


def test_bm25_finds_a_chunk_by_the_page_title_its_text_never_names(tmp_path) -> None:
    # The second section's chunk never says "Zanzibar"; its page title does.
    filler = " ".join(f"Sentence {n} of the opening section talks about deliveries and warehouses." for n in range(60))
    docs = [("https://acme.example/zanzibar", "Acme in Zanzibar", "website",
             f"# Acme in Zanzibar\n\n{filler}\n\n## Opening\n\nThe depot opened in 2004 with twelve staff."),
            ("https://acme.example/other", "Other news", "website", "# Other news\n\nThe depot in Lisbon opened in 2010.")]
    settings = Settings(data_dir=tmp_path / "data")
    build_kb(settings, docs, company="acme")
    with open_retriever(settings) as retriever:
        sparse = retriever.store.sparse_search(retriever.bm25.encode_query("Zanzibar depot opened"), company="acme", limit=5)
    top = sparse[0].chunk
    assert "twelve staff" in top.text and "Zanzibar" not in top.text
    assert not top.text.startswith("Acme in Zanzibar >")  # the stored text is the chunk's own
