"""What changed (issue 25, item 3): every gather records its changes against the previous one in
data/_changes.sqlite; `cikb gather` says them in one line, `cikb changes` lists them, forget removes them.

A test site edited between two gathers (a page changed, one added, one removed, the footer's
address and the CEO changed) gives exactly those changes; an unchanged site gives none.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from sites import Reply, SiteServer

from cikb.app.changes import ChangeLog, Snapshot, changes_line, compare, fact_lines
from cikb.core.models import RawDocument

REPO = Path(__file__).resolve().parents[1]
OLD_ADDRESS = "Initech, 100 Main Street, Springfield"
NEW_ADDRESS = "Initech, 200 Oak Avenue, Portland"
TEXT = {
    "/about/": "Initech was founded in 1998 in Austin and makes software for banks and credit unions across the country. ",
    "/products/": "Initech sells core banking software, payment gateways and the TPS report generator to regional banks. ",
    "/history/": "Initech opened its first office in 1998, moved to a campus in 2005 and opened a second office in 2012. ",
    "/careers/": "Initech hires engineers, testers and support staff in Austin and Dallas; apply through our careers page. ",
}


def site_routes(paths: list[str], *, address: str = OLD_ADDRESS, ceo: str = "John Doe", about: str = TEXT["/about/"]) -> dict[str, Reply]:
    """Initech's site: a home page with schema.org data (a CEO), the ``paths`` linked from the navigation
    (never from the main text, so adding a page changes no other page's text), the address in every footer."""
    org = json.dumps({"@context": "https://schema.org", "@type": "Organization", "name": "Initech", "legalName": "Initech LLC",
                      "employee": [{"@type": "Person", "name": ceo, "jobTitle": "CEO"}]})
    nav = "".join(f'<a href="{path}">{path.strip("/")}</a> ' for path in ["/", *paths])

    def html(title: str, text: str) -> Reply:
        body = "".join(f"<p>{text * 3}</p>" for _ in range(3))
        return Reply(body=f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<script type="application/ld+json">{org}</script></head>
<body><header><nav>{nav}</nav></header><main><article><h1>{title}</h1>{body}</article></main>
<footer><address>{address}</address><p>&copy; 2024 Initech LLC</p></footer></body></html>""")

    routes = {"/": html("Initech", "Initech makes software for banks, and has done so for a quarter of a century. ")}
    for path in paths:
        routes[path] = html(f"Initech {path.strip('/')}", about if path == "/about/" else TEXT[path])
    return routes


def cikb(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cikb", *args], cwd=REPO, capture_output=True, text=True, timeout=180)


def gather(site: SiteServer) -> str:
    result = cikb("gather", "Initech", "--website", site.url + "/", "--delay", "0.05")
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_an_edited_site_gives_exactly_its_changes_and_an_unchanged_one_none(make_site: Callable[..., SiteServer], isolated_env: Path) -> None:
    site = make_site(site_routes(["/about/", "/products/", "/history/"]))
    first = gather(site)
    assert first.startswith("changes: first gather, 4 pages new")

    assert gather(site) == "changes: 0 pages changed, 0 new, 0 removed; facts: none"  # unchanged
    site.routes.clear()
    site.routes.update(site_routes(["/about/", "/products/", "/careers/"], address=NEW_ADDRESS, ceo="Jane Roe",
                                   about=TEXT["/about/"].replace("1998", "1999")))
    line = gather(site)
    assert line == (f"changes: 1 page changed, 1 new, 1 removed; facts: +CEO Jane Roe (was John Doe), +address {NEW_ADDRESS} (was {OLD_ADDRESS})")

    listed = cikb("changes", "initech", "--json")
    assert listed.returncode == 0, listed.stderr
    history = json.loads(listed.stdout)
    assert [h["first"] for h in history] == [True, False, False]
    unchanged, edited = history[1], history[2]
    assert (unchanged["pages"], unchanged["facts"], unchanged["pages_unchanged"]) == ([], [], 4)
    assert unchanged["chunks_embedded"] == 0 and unchanged["chunks_reused"] > 0
    assert {(p["change"], p["url"]) for p in edited["pages"]} == {
        ("changed", site.url + "/about/"), ("new", site.url + "/careers/"), ("removed", site.url + "/history/")}
    assert (edited["pages_changed"], edited["pages_new"], edited["pages_removed"], edited["pages_unchanged"]) == (1, 1, 1, 2)
    assert 0 < edited["chunks_embedded"] and edited["chunks_reused"] > 0
    facts = {(f["change"], f["kind"], f["value"], f["replaces"]) for f in edited["facts"]}
    assert facts == {
        ("added", "address", NEW_ADDRESS, OLD_ADDRESS), ("removed", "address", OLD_ADDRESS, None),
        ("added", "person", "Jane Roe, CEO", "John Doe, CEO"), ("removed", "person", "John Doe, CEO", None),
    }
    assert {f["page"] for f in edited["facts"]} == {site.url + "/"}  # each value with the page that states it

    text = cikb("changes", "Initech").stdout  # by name too
    assert f"changed  {site.url}/about/" in text and f"+address {NEW_ADDRESS} (was {OLD_ADDRESS})" in text and "nothing changed" in text
    later = json.loads(cikb("changes", "initech", "--since", "2999-01-01", "--json").stdout)
    assert later == []

    forgotten = cikb("forget", "initech")
    assert forgotten.returncode == 0, forgotten.stderr
    assert ChangeLog(isolated_env).history("initech") == []
    gone = cikb("changes", "initech")
    assert gone.returncode != 0 and gone.stderr.strip() == ("error: no company 'initech' in the knowledge base: it is empty "
                                                        "(gather one with `cikb gather`)")


def test_a_raw_document_damaged_by_hand_is_compared_without_it(make_site: Callable[..., SiteServer], isolated_env: Path) -> None:
    site = make_site(site_routes(["/about/", "/products/", "/history/"]))
    gather(site)
    damaged = next(path for path in (isolated_env / "initech" / "raw").glob("*.md") if "products" in path.name)
    damaged.write_text("\n".join(line for line in damaged.read_text(encoding="utf-8").splitlines() if not line.startswith("url:")))
    # The other documents of the replaced gather are read: only the damaged page's copy counts as new, not "first gather".
    assert gather(site) == "changes: 0 pages changed, 1 new, 0 removed; facts: none"


def test_bad_input_is_one_error_line(isolated_env: Path) -> None:
    unknown = cikb("changes", "nobody-here")
    assert unknown.returncode != 0 and unknown.stderr.strip().splitlines() == [
        "error: no company 'nobody-here' in the knowledge base: it is empty (gather one with `cikb gather`)"]
    bad_date = cikb("changes", "nobody-here", "--since", "last tuesday")
    assert bad_date.returncode == 2
    assert bad_date.stderr.strip().splitlines() == ["error: --since 'last tuesday' is not a date: give YYYY-MM-DD or an ISO time such as 2026-11-25T20:00"]


def test_facts_lines_are_read_with_their_kind_and_page() -> None:
    content = """# Facts about Acme Corp

## schema.org data

### Acme Corp

- Name: Acme Corp (Corporation)
- Legal name: Acme Corporation
- Address: 1 Main St, Portland, OR 97201, US (from https://acme.example/about/)
- Employee: Jane Roe, CEO
- Founder: Ann Lee, CTO; Bo Park, President
- Contact: sales: telephone +1 555 0101, email sales@acme.example
- Telephone: +1 555 0100

## Site footer (the same on the site's pages)

- Send all mail to: PO Box 1, Portland, OR 97201
- Write to info@acme.example
- Call +44 20 7946 0958
- Acme raised $20M in a Series A round
- Made with care"""
    doc = RawDocument(url="https://acme.example/#facts", title="Facts about Acme Corp", content=content, source_type="website",
                      company="acme-corp", scraped_at="2026-11-25T00:00:00+00:00")
    lines = [(f.kind, f.label, f.value, f.page) for f in fact_lines(doc)]
    home, about = "https://acme.example/", "https://acme.example/about/"
    assert lines == [
        ("name", "Name", "Acme Corp (Corporation)", home),
        ("legal name", "Legal name", "Acme Corporation", home),
        ("address", "Address", "1 Main St, Portland, OR 97201, US", about),
        ("person", "Employee", "Jane Roe, CEO", home),
        ("person", "Founder", "Ann Lee, CTO", home),  # one line names both: each is a value (and a role) of its own
        ("person", "Founder", "Bo Park, President", home),
        ("contact", "Contact", "sales: telephone +1 555 0101, email sales@acme.example", home),  # neither e-mail nor phone alone
        ("phone", "Telephone", "+1 555 0100", home),
        ("address", "", "Send all mail to: PO Box 1, Portland, OR 97201", home),  # a footer line's colon is no label
        ("email", "", "Write to info@acme.example", home),
        ("phone", "", "Call +44 20 7946 0958", home),
        ("funding", "", "Acme raised $20M in a Series A round", home),
        ("other", "", "Made with care", home),
    ]


def test_a_hire_adds_one_person_and_a_new_ceo_replaces_the_old_one() -> None:
    def snapshot(people: str) -> Snapshot:
        content = f"# Facts about Acme Corp\n\n## schema.org data\n\n### Acme Corp\n\n- Employee: {people}\n"
        return Snapshot([RawDocument(url="https://acme.example/#facts", title="Facts about Acme Corp", content=content,
                                     source_type="website", company="acme-corp", scraped_at="2026-11-25T00:00:00+00:00")])

    def line(before: str, after: str) -> str:
        changes = compare(snapshot(before), snapshot(after), company="acme-corp", generation="g2",
                          gathered_at=datetime(2026, 11, 25, tzinfo=timezone.utc), embedded=0, reused=0)
        return changes_line(changes)

    team = "Jane Roe, Chief Executive Officer; Tom Lind, Chief Technology Officer"
    assert line(team, team + "; Priya Raman, Head of Operations").endswith("facts: +Head of Operations Priya Raman")
    renamed = "Dan Oka, Chief Executive Officer; Tom Lind, Chief Technology Officer"
    assert line(team, renamed).endswith("facts: +Chief Executive Officer Dan Oka (was Jane Roe)")


def test_the_review_page_shows_each_gathers_changes(make_site: Callable[..., SiteServer], tmp_path: Path) -> None:
    from test_web import signed_in

    from cikb.app.pipeline import gather_company
    from cikb.core.config import load_settings

    site = make_site(site_routes(["/about/", "/history/"]))
    settings = load_settings()
    settings.gather.download_delay = 0.05
    gather_company(settings, "Initech", {"website": site.url + "/"})
    site.routes.clear()
    site.routes.update(site_routes(["/about/"], address=NEW_ADDRESS))
    gather_company(settings, "Initech", {"website": site.url + "/"})
    page = signed_in(tmp_path).get("/companies/initech")
    assert page.status_code == 200, page.text
    text = page.text
    assert "Changes (2 gathers)" in text and "(first)" in text
    newest = text.index("Changes (2 gathers)")
    assert text.index(f"removed <a href=\"{site.url}/history/\"", newest) < text.index("(first)", newest)  # newest first
    assert f"+address {NEW_ADDRESS} (was {OLD_ADDRESS})" in text and "0, 0, 1 (2)" in text


def test_a_history_that_cannot_be_written_is_a_warning_for_a_committed_gather(make_site: Callable[..., SiteServer], isolated_env: Path) -> None:
    # The gather is committed before its changes are recorded: a history that cannot be written must not
    # report the gather failed (issue 24: no gather reported failed and then committed).
    site = make_site(site_routes(["/about/", "/products/"]))
    history = isolated_env / "_changes.sqlite"
    history.mkdir(parents=True)  # a directory where the database belongs: SQLite cannot open it
    result = cikb("gather", "Initech", "--website", site.url + "/", "--delay", "0.05")
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning: the gather was committed")]
    assert len(warnings) == 1 and str(history) in warnings[0], result.stderr
    listed = cikb("companies", "--json")
    assert [company["slug"] for company in json.loads(listed.stdout)] == ["initech"]
