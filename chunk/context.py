"""Contextual chunk headers: the text a chunk is embedded and BM25-encoded as.

A chunk cut from the middle of a page loses what the page is about: "It was
incorporated on May 24, 2013" under the heading "Timeline" of the page
"ISRG's 10th Anniversary" never names ISRG. Prepending the page title and the
section path to the text that is indexed (Anthropic's "contextual retrieval",
LlamaIndex's and Haystack's title/heading metadata in embeddings) puts that
context back for both retrievers. The chunk's own ``text`` is what is stored,
cited and read: the header is only indexed.
"""

from __future__ import annotations

from cikb.core.models import Chunk

SEPARATOR = " > "


def context_header(chunk: Chunk) -> str:
    """The page title and the section path, each left out when the chunk already begins with it (or repeats)."""
    opening = chunk.text.lstrip("#* \t\n")
    parts: list[str] = []
    for part in (chunk.metadata.title, *chunk.metadata.heading_path):
        part = " ".join(part.split())
        if part and part not in parts and not opening.startswith(part):
            parts.append(part)
    return SEPARATOR.join(parts)


def indexed_text(chunk: Chunk) -> str:
    """What is embedded and BM25-encoded for ``chunk``: its context header on a first line, then its text."""
    header = context_header(chunk)
    return f"{header}\n\n{chunk.text}" if header else chunk.text
