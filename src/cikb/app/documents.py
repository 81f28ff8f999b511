"""Raw documents on disk: one Markdown file per document with front matter (spec G6).

    ---
    url: "https://acme.example/about/"
    title: "About Acme Corp"
    source_type: "website"
    company: "acme-corp"
    scraped_at: "2026-11-22T05:00:00+00:00"
    page_kind: "company"
    published: null
    ---
    # About Acme Corp
    ...

Front-matter values are JSON scalars, which are also valid YAML, so any front-matter
tool reads the files while we parse them without a YAML dependency. File names derive
from the URL only, so the same page always lands in the same file.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from pydantic import ValidationError

from cikb.core.config import Settings
from cikb.core.errors import BadInputError, DamagedError, UnknownCompanyError, access_checked
from cikb.core.models import Chunk, RawDocument
from cikb.core.slug import check_slug

_FIELDS = ("url", "title", "source_type", "company", "scraped_at")
# Absent from files written before they existed: the kind is judged again from url and title, the date is unknown.
_OPTIONAL_FIELDS = ("page_kind", "published")
_FENCE = "---"


def document_filename(doc: RawDocument) -> str:
    """`website-about-3f2a1b9c0d.md`: readable, unique per URL, stable across gathers."""
    path = re.sub(r"^[a-z]+://[^/]+", "", doc.url)
    readable = "-".join(re.findall(r"[a-z0-9]+", path.lower()))[:48].strip("-") or "index"
    digest = hashlib.sha256(doc.url.encode("utf-8")).hexdigest()[:10]
    return f"{doc.source_type}-{readable}-{digest}.md"


def render_document(doc: RawDocument) -> str:
    values = doc.model_dump(mode="json")
    header = "\n".join(f"{field}: {json.dumps(values[field], ensure_ascii=False)}" for field in (*_FIELDS, *_OPTIONAL_FIELDS))
    return f"{_FENCE}\n{header}\n{_FENCE}\n{doc.content.rstrip()}\n"


def parse_document(text: str) -> RawDocument:
    """The inverse of render_document; raises ValueError on a file that is not one."""
    lines = text.split("\n")
    if not lines or lines[0] != _FENCE or _FENCE not in lines[1:]:
        raise ValueError("no front matter")
    end = lines.index(_FENCE, 1)
    fields = {}
    for number, line in enumerate(lines[1:end], start=2):
        key, _, value = line.partition(": ")
        try:
            parsed = json.loads(value)
        except ValueError:  # another tool's field is fine; a line that is no `key: value` is not
            raise ValueError(f"line {number}, {line[:60]!r}, is not `key: JSON value`") from None
        if key in _FIELDS or key in _OPTIONAL_FIELDS:
            fields[key] = parsed
    missing = [field for field in _FIELDS if field not in fields]
    if missing:
        raise ValueError(f"front matter lacks {', '.join(missing)}")
    content = "\n".join(lines[end + 1 :]).rstrip("\n")
    if "page_kind" not in fields:  # a file written before the kind was kept, e.g. read by `cikb rebuild`
        from cikb.gather.scoring import page_kind

        fields["page_kind"] = page_kind(str(fields["url"]), str(fields["title"]), fields["source_type"])
    return RawDocument(content=content, **fields)


def write_document(directory: Path, doc: RawDocument) -> Path:
    path = directory / document_filename(doc)
    path.write_text(render_document(doc), encoding="utf-8")
    return path


def read_documents(directory: Path, repair: str = "then run the command again", *, skip_damaged: bool = False) -> list[RawDocument]:
    """Every document in a raw directory, in file-name order.

    A file that is not a raw document (garbled front matter, not UTF-8) raises DamagedError
    naming it: fix or delete it, then ``repair``; with ``skip_damaged``, it is left out.
    """
    if not directory.is_dir():
        return []
    documents = []
    for path in sorted(directory.glob("*.md")):
        try:
            documents.append(parse_document(path.read_text(encoding="utf-8")))
        except (ValueError, UnicodeDecodeError) as err:  # json, pydantic (a ValueError) and our own checks
            if skip_damaged:
                continue
            detail = _validation_detail(err) if isinstance(err, ValidationError) else " ".join(str(err).split())[:200]
            raise DamagedError(f"{path} is not a raw document ({detail}): fix its front matter or delete the file, {repair}") from None
    return documents


def _validation_detail(err: ValidationError) -> str:
    first = err.errors()[0]
    return f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}"


# --- reading one company's documents (the review page) ----------------------------------

_NAME = re.compile(r"[a-z]+-[a-z0-9-]*-[0-9a-f]{10}\.md")
_CHUNK_BATCH = 64


def is_facts_document(doc: RawDocument) -> bool:
    """The company's facts document (its sites' schema.org data and footer): its URL ends in cikb.clean.facts.FRAGMENT."""
    from cikb.clean.facts import FRAGMENT  # the clean stage (trafilatura) loads only when a page asks

    return doc.url.endswith(FRAGMENT)


def company_documents(settings: Settings, slug: str) -> list[tuple[str, RawDocument]]:
    """A gathered company's current raw documents, each with its file name (what :func:`company_document` opens).

    UnknownCompanyError when the company has no documents; DamagedError (naming the file and the repair) for a damaged one.
    """
    from cikb.app.workspace import CompanyDir, rebuild_command

    wanted = check_slug(slug)
    folder = CompanyDir(settings.data_dir, wanted)
    with access_checked(settings.data_dir):
        if not folder.raw_link.is_dir():
            raise UnknownCompanyError(f"no company {slug!r} in the knowledge base (see `cikb companies`)")
        paths = sorted(folder.raw_link.glob("*.md"))
        documents = read_documents(folder.raw_link, repair=f"then run `{rebuild_command(wanted)}`")
    return [(path.name, doc) for path, doc in zip(paths, documents)]


def company_document(settings: Settings, slug: str, name: str) -> RawDocument:
    """One raw document of a company by its file name; BadInputError for a name that is not one of its documents."""
    if not _NAME.fullmatch(name):
        raise BadInputError(f"{name!r} is not a document's file name")
    for found, doc in company_documents(settings, slug):
        if found == name:
            return doc
    raise BadInputError(f"{slug} has no document {name!r} any more (a later gather may have removed it)")


def document_chunks(settings: Settings, doc: RawDocument) -> list[Chunk]:
    """The chunks the store holds for ``doc``, in order (their ids derive from company, URL and position)."""
    from cikb.chunk import chunk_id
    from cikb.store import open_store

    chunks: list[Chunk] = []
    with access_checked(settings.data_dir), open_store(settings, reader=True) as store:
        while True:  # a document's chunks are numbered 0..n-1: read them a batch at a time until one runs short
            ids = [chunk_id(doc.company, doc.url, index) for index in range(len(chunks), len(chunks) + _CHUNK_BATCH)]
            found = [point.chunk for point in store.points(ids)] if store.record() is not None else []
            chunks += found
            if len(found) < _CHUNK_BATCH:
                return chunks
