"""What each gather changed, kept in SQLite (issue 25, item 3).

    <data_dir>/_changes.sqlite       (names starting with _ are never company slugs)

A gather compares the documents it commits with those of the generation it replaces: pages
(every document but the facts document) new, changed (another sha256 of their Markdown),
removed or unchanged; chunks embedded and reused; and the facts document line by line, each
line's value added or removed with the page that states it. An added line that takes the
place of a removed one of the same kind (a new address, another CEO) names the value it
replaces. Watching companies change is what people re-gather for, and a re-gather already
knows all this; nothing here is recomputed later, since the replaced generation is pruned.

The schema moves forward only, by named migrations (``cikb.app.migrations``); the database
runs in WAL mode so `cikb changes` reads while a gather writes. A damaged file is moved aside
with one warning and a new one started (cikb.core.damage): it is history, not the knowledge base.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from datetime import datetime, timezone
from pathlib import Path

from cikb.app.documents import read_documents
from cikb.app.migrations import Migration, migrate
from cikb.app.models import FactChange, GatherChanges, PageChange
from cikb.app.workspace import CompanyDir, gathered_identities
from cikb.core.damage import is_damage, move_aside
from cikb.core.config import Settings
from cikb.core.errors import BadInputError
from cikb.core.models import RawDocument
from cikb.retrieve.companies import require_company
from cikb.core.sqlite import connect_wal

CHANGES_FILE = "_changes.sqlite"


def m001_changes(db: sqlite3.Connection) -> None:
    for statement in (s.strip() for s in _SCHEMA_001.split(";")):
        if statement:
            db.execute(statement)


def m002_written(db: sqlite3.Connection) -> None:
    db.execute("ALTER TABLE gathers ADD COLUMN written INTEGER NOT NULL DEFAULT 1")  # 0: nothing written, the knowledge base was current


MIGRATIONS: list[tuple[str, Migration]] = [("m001_changes", m001_changes), ("m002_written", m002_written)]  # forward only: append, never edit

_SCHEMA_001 = """
    CREATE TABLE gathers (
        id INTEGER PRIMARY KEY,
        company TEXT NOT NULL,           -- the slug
        generation TEXT NOT NULL,        -- the generation this gather made current
        gathered_at TEXT NOT NULL,       -- ISO time, UTC
        first INTEGER NOT NULL,          -- 1: there was no previous generation to compare with
        pages_new INTEGER NOT NULL, pages_changed INTEGER NOT NULL, pages_removed INTEGER NOT NULL,
        pages_unchanged INTEGER NOT NULL, chunks_embedded INTEGER NOT NULL, chunks_reused INTEGER NOT NULL
    );
    CREATE INDEX gathers_company ON gathers (company, gathered_at);
    CREATE TABLE pages (
        gather_id INTEGER NOT NULL REFERENCES gathers (id),
        url TEXT NOT NULL, title TEXT NOT NULL, change TEXT NOT NULL   -- new, changed, removed
    );
    CREATE INDEX pages_gather ON pages (gather_id);
    CREATE TABLE facts (
        gather_id INTEGER NOT NULL REFERENCES gathers (id),
        kind TEXT NOT NULL, label TEXT NOT NULL, value TEXT NOT NULL,
        change TEXT NOT NULL,            -- added, removed
        page TEXT NOT NULL, replaces TEXT
    );
    CREATE INDEX facts_gather ON facts (gather_id)
"""

# --- comparing two generations ----------------------------------------------------------------------


class Snapshot:
    """What a generation's documents say, as far as a comparison needs: pages by URL and the facts lines."""

    def __init__(self, documents: Sequence[RawDocument]) -> None:
        self.pages = {doc.url: (doc.title, _digest(doc.content)) for doc in documents if not _is_facts(doc)}
        self.facts = {(fact.label, fact.value): fact for doc in documents if _is_facts(doc) for fact in fact_lines(doc)}

    @classmethod
    def of(cls, folder: CompanyDir) -> Snapshot | None:
        """The company's current generation (None before its first gather, or when its folder cannot be read: then
        all is new). A damaged file (a raw document edited by hand) is left out: its page alone counts as new."""
        current = folder.current()
        if current is None:
            return None
        try:
            return cls(read_documents(current.raw_dir, skip_damaged=True))
        except OSError:
            return None


def compare(before: Snapshot | None, after: Snapshot, *, company: str, generation: str, gathered_at: datetime,
            embedded: int, reused: int, written: bool = True) -> GatherChanges:
    """What changed from ``before`` (the replaced generation) to ``after``."""
    old = before or Snapshot(())
    pages = [PageChange(url=url, title=title, change="new" if url not in old.pages else "changed")
             for url, (title, digest) in after.pages.items() if old.pages.get(url, (None, None))[1] != digest]
    pages += [PageChange(url=url, title=title, change="removed") for url, (title, _) in old.pages.items() if url not in after.pages]
    counts = {change: sum(p.change == change for p in pages) for change in ("new", "changed", "removed")}
    return GatherChanges(
        company=company, generation=generation, gathered_at=gathered_at, first=before is None,
        pages_new=counts["new"], pages_changed=counts["changed"], pages_removed=counts["removed"],
        pages_unchanged=len(after.pages) - counts["new"] - counts["changed"],
        chunks_embedded=embedded, chunks_reused=reused, written=written,
        pages=sorted(pages, key=lambda p: (p.change, p.url)), facts=_fact_changes(old, after),
    )


def _fact_changes(before: Snapshot, after: Snapshot) -> list[FactChange]:
    removed = [fact.model_copy(update={"change": "removed"}) for key, fact in before.facts.items() if key not in after.facts]
    added = [fact for key, fact in after.facts.items() if key not in before.facts]
    for fact in added:  # a new value of the same kind (and role) takes the place of the first removed one
        old = next((r for r in removed if _slot(r) == _slot(fact) and r.value not in {a.replaces for a in added}), None)
        if old is not None:
            fact.replaces = old.value
    return added + removed


def _slot(fact: FactChange) -> tuple[str, str, str]:
    return fact.kind, fact.label, person_role(fact.value) if fact.kind == "person" else ""


def _is_facts(document: RawDocument) -> bool:
    from cikb.clean.facts import FRAGMENT  # the clean stage (trafilatura) loads for a gather, not for `cikb changes` or forget

    return document.url.endswith(FRAGMENT)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --- the facts document's lines ---------------------------------------------------------------------

_ITEM = re.compile(r"^- (?P<text>.+?)(?: \(from (?P<page>\S+)\))?$")
# Schema.org labels (cikb.clean.facts) by the kind of fact a change list names; other labels are their own kind.
_LABEL_KINDS = {"Legal name": "legal name", "Address": "address", "Location": "address", "Telephone": "phone", "Fax": "phone",
                "Email": "email", "Founder": "person", "Employee": "person", "Person": "person"}
# A footer line has no label: its kind is read from what it says (first match).
_CONTENT_KINDS = (
    ("funding", re.compile(r"\b(?:raised|funding|series [a-f]|seed round|investors?)\b", re.IGNORECASE)),
    ("email", re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")),
    ("address", re.compile(
        r"\b\d{1,5}[a-z]?\s+(?:[\w.'-]+\s+){1,4}(?:street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|way|place|pl|square|sq"
        r"|court|ct|parkway|pkwy|highway|hwy|park)\b|\bp\.?\s?o\.? box\b|\b[A-Z]{2} \d{5}\b", re.IGNORECASE)),
    ("phone", re.compile(r"(?:\+|\btel\b|\bphone\b)[\s:.]*\d[\d\s().-]{5,}\d|\b\d{3}[\s.-]\d{3,4}[\s.-]\d{4}\b", re.IGNORECASE)),
)


def fact_lines(document: RawDocument) -> list[FactChange]:
    """The facts document's lines as values (change "added"), each with its page: the `(from URL)` it ends with,
    else the document's own page. Lines of the schema.org section are `Label: value`; footer lines have no label."""
    home, labelled, facts = document.url.split("#")[0], True, []
    for line in document.content.splitlines():
        if line.startswith("## "):
            labelled = not line.startswith("## Site footer")
        elif match := _ITEM.match(line):
            label, value = match["text"].split(": ", 1) if labelled and ": " in match["text"] else ("", match["text"])
            kind = fact_kind(label, value)
            # cikb.clean.facts writes a company's people on one line, "; " between them: each is a value of its own,
            # so that a hire adds one person and a new CEO replaces the old one by role.
            for one in value.split("; ") if kind == "person" else (value,):
                facts.append(FactChange(kind=kind, label=label, value=one, change="added", page=match["page"] or home))
    return facts


def fact_kind(label: str, value: str) -> str:
    """address, phone, email, person, legal name, funding; another schema.org label as itself; else other."""
    if label in _LABEL_KINDS:
        return _LABEL_KINDS[label]
    if label.startswith("Place"):
        return "address"
    if label:  # "Contact" too: a contact point holds its phone, e-mail and hours together
        return label.lower()
    return next((kind for kind, pattern in _CONTENT_KINDS if pattern.search(value)), "other")


def person_role(value: str) -> str:
    """`Jane Roe, CEO, works for Acme` -> `CEO` (cikb.clean.facts writes a person so); '' when none is given."""
    parts = [p.strip() for p in value.split(",")]
    return parts[1] if len(parts) > 1 and not parts[1].startswith("works for") else ""


# --- the one line a gather ends with --------------------------------------------------------------


def changes_line(changes: GatherChanges, max_facts: int = 4) -> str:
    """`changes: 2 pages changed, 1 new, 0 removed; facts: +CEO Jane Roe (was John Doe)`."""
    if changes.first:
        return f"changes: first gather, {_plural(changes.pages_new, 'page')} new, {_plural(len(changes.facts), 'fact')}"
    pages = f"{_plural(changes.pages_changed, 'page')} changed, {changes.pages_new} new, {changes.pages_removed} removed"
    shown = shown_facts(changes)
    facts = ", ".join(fact_note(fact) for fact in shown[:max_facts]) or "none"
    if len(shown) > max_facts:
        facts += f" and {len(shown) - max_facts} more"
    return f"changes: {pages}; facts: {facts}" + ("" if changes.written else "; knowledge base already current, nothing written")


def shown_facts(changes: GatherChanges) -> list[FactChange]:
    """The values added (each naming the one it replaces), then those removed and not replaced."""
    added = [fact for fact in changes.facts if fact.change == "added"]
    replaced = {fact.replaces for fact in added}
    return added + [fact for fact in changes.facts if fact.change == "removed" and fact.value not in replaced]


def fact_note(fact: FactChange) -> str:
    """`+CEO Jane Roe (was John Doe)`, `+address 2 Oak Ave (was 1 Main St)`, `-email info@acme.example`."""
    sign = "+" if fact.change == "added" else "-"
    role = person_role(fact.value) if fact.kind == "person" else ""
    if role:
        name = fact.value.split(",")[0]
        was = f" (was {fact.replaces.split(',')[0]})" if fact.replaces else ""
        return f"{sign}{role} {name}{was}"
    return f"{sign}{fact.kind} {fact.value}" + (f" (was {fact.replaces})" if fact.replaces else "")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


# --- the database -----------------------------------------------------------------------------------


class ChangeLog:
    """The change history of one data directory's companies."""

    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / CHANGES_FILE

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            db = self._open()
        except sqlite3.DatabaseError as err:
            if not is_damage(err, schema=True):
                raise
            move_aside(self.path, err, "change history")
            db = self._open()
        with closing(db):
            yield db

    def _open(self) -> sqlite3.Connection:
        db = connect_wal(self.path, timeout=30)
        try:
            db.row_factory = sqlite3.Row
            migrate(db, MIGRATIONS)
        except BaseException:
            db.close()
            raise
        return db

    def record(self, changes: GatherChanges) -> None:
        counts = changes.model_dump(include={"pages_new", "pages_changed", "pages_removed", "pages_unchanged", "chunks_embedded", "chunks_reused"})
        with self._connect() as db, db:
            row = db.execute(
                f"INSERT INTO gathers (company, generation, gathered_at, first, written, {', '.join(counts)}) VALUES (?, ?, ?, ?, ?{', ?' * len(counts)})",
                (changes.company, changes.generation, _utc(changes.gathered_at).isoformat(), int(changes.first), int(changes.written), *counts.values()),
            ).lastrowid
            db.executemany("INSERT INTO pages VALUES (?, ?, ?, ?)", [(row, p.url, p.title, p.change) for p in changes.pages])
            db.executemany("INSERT INTO facts VALUES (?, ?, ?, ?, ?, ?, ?)",
                           [(row, f.kind, f.label, f.value, f.change, f.page, f.replaces) for f in changes.facts])

    def history(self, company: str, since: datetime | None = None) -> list[GatherChanges]:
        """Every recorded gather of ``company`` (a slug), oldest first; only those from ``since`` on when given."""
        if not self.path.exists():
            return []
        since_text = _utc(since).isoformat() if since else ""
        with self._connect() as db:
            rows = db.execute("SELECT * FROM gathers WHERE company = ? AND gathered_at >= ? ORDER BY gathered_at, id", (company, since_text)).fetchall()
            return [self._changes(db, row) for row in rows]

    def _changes(self, db: sqlite3.Connection, row: sqlite3.Row) -> GatherChanges:
        pages = [PageChange(**dict(p)) for p in db.execute("SELECT url, title, change FROM pages WHERE gather_id = ? ORDER BY rowid", (row["id"],))]
        facts = [FactChange(**dict(f)) for f in db.execute(
            "SELECT kind, label, value, change, page, replaces FROM facts WHERE gather_id = ? ORDER BY rowid", (row["id"],))]
        fields = {key: row[key] for key in row.keys() if key != "id"}
        return GatherChanges(**{**fields, "first": bool(row["first"]), "written": bool(row["written"])}, pages=pages, facts=facts)

    def forget(self, company: str) -> int:
        """Remove a company's history; how many gathers it held."""
        if not self.path.exists():
            return 0
        with self._connect() as db, db:
            ids = "SELECT id FROM gathers WHERE company = ?"
            db.execute(f"DELETE FROM pages WHERE gather_id IN ({ids})", (company,))
            db.execute(f"DELETE FROM facts WHERE gather_id IN ({ids})", (company,))
            return db.execute("DELETE FROM gathers WHERE company = ?", (company,)).rowcount


def company_history(settings: Settings, company: str, since: datetime | None = None) -> list[GatherChanges]:
    """`cikb changes`: a company's gathers, oldest first; UnknownCompanyError, naming the nearest companies, when it is not gathered.

    ``company`` resolves by identity, as `--company` does (issue 23, item 4): the slug, the display name or a name the
    company's own pages give it ("formerly Widgetco"). Its slug is not enough: "C++ Foundation" makes the slug of
    "C Foundation", another company, and "Acme Labs" is not Acme.
    """
    slug = require_company(company, gathered_identities(settings.data_dir))
    return ChangeLog(settings.data_dir).history(slug, since)


def parse_since(text: str) -> datetime:
    """`2026-11-25` (midnight UTC) or an ISO time; BadInputError otherwise."""
    try:
        return _utc(datetime.fromisoformat(text.strip()))
    except ValueError:
        raise BadInputError(f"--since {text!r} is not a date: give YYYY-MM-DD or an ISO time such as 2026-11-25T20:00") from None


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment.astimezone(timezone.utc)
