"""`cikb serve` without a browser: the token, the Host check, CSRF, escaping, and review -> apply (Starlette's TestClient)."""

from __future__ import annotations

import csv
import hashlib
import os
import socket
import subprocess
import sys
from datetime import date, datetime, timezone
from pathlib import Path

import pytest
from sites import Reply, SiteServer, page, paragraphs
from starlette.testclient import TestClient
from typer.testing import CliRunner

from cikb.cli import app as cli_app
from cikb.core.config import load_settings
from cikb.enrich import save_proposal
from cikb.enrich.models import DataProposal, EnrichSource, ProposalOperation, ProposalTarget, RowLog, RowStep
from cikb.web import Guard, create_app
from cikb.web.review import Choice

TOKEN = "test-token-0123456789abcdef"
PORT = 8765
BASE = f"http://127.0.0.1:{PORT}"


def client(tmp_path: Path, proposals: Path | None = None) -> TestClient:
    guard = Guard(token=TOKEN, host="127.0.0.1", port=PORT)
    return TestClient(create_app(load_settings(), guard, proposals or tmp_path), base_url=BASE, follow_redirects=False)


def signed_in(tmp_path: Path, proposals: Path | None = None) -> TestClient:
    web = client(tmp_path, proposals)
    assert web.get(f"/?token={TOKEN}").status_code == 303
    return web


def write_table(path: Path, rows: list[list[str]]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    return path


def proposal_for(table: Path, column: str, values: dict[int, tuple[str, str, str]], labels: list[str]) -> DataProposal:
    """A proposal as `cikb enrich` writes one: ``values`` maps row -> (value, confidence, evidence sentence)."""
    logs = []
    for row, label in enumerate(labels):
        if row in values:
            value, confidence, evidence = values[row]
            logs.append(RowLog(row_id=row, label=label, status="found", value=value, confidence=confidence, answered_by="kb",
                               strategy="lookup", steps=[RowStep(type="answer", detail=value, data={"evidence": evidence})],
                               sources=[EnrichSource(kind="kb", url=f"https://example.com/{row}", title=f"Page {row}",
                                                     published=date(2019, 3, 5) if row == 0 else None)]))
        else:
            logs.append(RowLog(row_id=row, label=label, status="not_found", strategy="lookup"))
    sha = hashlib.sha256(table.read_bytes()).hexdigest()
    return DataProposal(
        reasoning=f"Quick Lookup of {column}", target=ProposalTarget(csv_path=str(table.resolve()), csv_sha256=sha, column=column),
        strategy="lookup", rows_total=len(labels), created_at=datetime.now(timezone.utc),
        operations=[ProposalOperation(row_id=row, changes={column: values[row][0]}) for row in sorted(values)], research_log=logs,
    )


@pytest.fixture
def reviewed(tmp_path: Path) -> tuple[Path, Path]:
    """A three-company table with two proposals (Founded, City) in tmp_path/work."""
    work = tmp_path / "work"
    work.mkdir()
    table = write_table(work / "companies.csv", [["Company", "Website"], ["Acme", "a.example"], ["Globex", "g.example"], ["Initech", "i.example"]])
    labels = ["Acme", "Globex", "Initech"]
    founded = {0: ("2011", "high", "Acme was founded in 2011."), 1: ("1989", "low", "Globex, since 1989, makes things."),
               2: ("1999", "medium", "Initech opened in 1999.")}
    city = {0: ("Portland", "medium", "Acme is based in Portland, Oregon."), 2: ("Austin", "high", "Initech's office is in Austin.")}
    save_proposal(proposal_for(table, "Founded", founded, labels), work / "founded.proposal.json")
    save_proposal(proposal_for(table, "City", city, labels), work / "city.proposal.json")
    return work, table


def review_url(web: TestClient) -> str:
    listing = web.get("/review").text
    start = listing.index('href="/review/') + len('href="')
    return listing[start:listing.index('"', start)]


def digest(web: TestClient, url: str) -> str:
    """The proposals' digest the review page's forms carry."""
    html = web.get(url).text
    start = html.index('name="proposals" value="') + len('name="proposals" value="')
    return html[start:html.index('"', start)]


def choice(decision: str | None, scope: str, row: int | None = None, column: str | None = None) -> str:
    return Choice(decision, scope, row, column).encode()  # type: ignore[arg-type]


def choose(web: TestClient, url: str, value: str) -> None:
    response = web.post(f"{url}/decide", data={"token": TOKEN, "proposals": digest(web, url), "choice": value})
    assert response.status_code == 303, response.text


def apply(web: TestClient, url: str, out: str):
    return web.post(f"{url}/apply", data={"token": TOKEN, "proposals": digest(web, url), "out": out})


def read_rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


# --- access -------------------------------------------------------------------------


def test_a_request_without_the_token_gets_403(tmp_path: Path) -> None:
    web = client(tmp_path)
    for path in ("/", "/ask", "/review", "/companies/acme", "/static/style.css"):
        assert web.get(path).status_code == 403, path
    assert web.get("/?token=wrong-token-0123456789").status_code == 403
    assert web.post("/review/abc/apply", data={"token": TOKEN, "out": "x.csv"}).status_code == 403  # no cookie, no header


def test_the_printed_url_sets_an_http_only_strict_cookie_and_drops_the_token_from_the_address(tmp_path: Path) -> None:
    web = client(tmp_path)
    first = web.get(f"/review?token={TOKEN}")
    assert first.status_code == 303 and first.headers["location"] == "/review"
    cookie = first.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and f"cikb_token_{PORT}=" in cookie
    assert web.get("/review").status_code == 200
    assert client(tmp_path).get("/review", headers={"X-Cikb-Token": TOKEN}).status_code == 200
    assert client(tmp_path).get("/review", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
    # "//evil.example/" is a path to the server and another host to the browser that follows the redirect.
    assert client(tmp_path).get(f"{BASE}//evil.example/?token={TOKEN}").headers["location"] == "/evil.example/"


def test_another_host_name_is_refused_even_with_the_token(tmp_path: Path) -> None:
    """DNS rebinding: a page on evil.example whose name now resolves to 127.0.0.1 sends Host: evil.example."""
    web = signed_in(tmp_path)
    assert web.get("/review").status_code == 200
    assert web.get("/review", headers={"Host": f"evil.example:{PORT}"}).status_code == 403
    assert web.get("/review", headers={"Host": f"localhost:{PORT}"}).status_code == 200
    assert web.get("/review", headers={"Host": "127.0.0.1:9999"}).status_code == 403


def test_a_change_needs_the_token_in_the_form_not_only_the_cookie(reviewed, tmp_path: Path) -> None:
    """CSRF: the browser would send the cookie along; only the page's own form carries the token."""
    work, table = reviewed
    web = signed_in(tmp_path, work)
    url = review_url(web)
    assert web.post(f"{url}/decide", data={"choice": choice("accept", "all"), "proposals": digest(web, url)}).status_code == 403
    assert web.post(f"{url}/apply", data={"token": "wrong", "out": "x.csv"}).status_code == 403
    refused = web.get(f"{url}/decide")
    assert refused.status_code == 405 and refused.headers["Allow"] == "POST"  # RFC 9110: a 405 names what is allowed
    assert not (work / "x.csv").exists()


def test_an_empty_knowledge_base_says_how_to_fill_it(tmp_path: Path) -> None:
    web = signed_in(tmp_path)
    assert "The knowledge base is empty: run <code>cikb gather</code> first." in web.get("/").text
    assert web.get("/companies").text == web.get("/").text  # the list the company pages' addresses are under
    asked = web.get("/ask", params={"q": "Who founded Acme?"})
    assert asked.status_code == 409 and "error: " in asked.text and "gather a company first" in asked.text
    assert web.get("/companies/acme").status_code == 404


# --- review and apply -------------------------------------------------------------


def test_review_shows_value_confidence_word_evidence_with_the_value_marked_and_source(reviewed, tmp_path: Path) -> None:
    work, _ = reviewed
    web = signed_in(tmp_path, work)
    html = web.get(review_url(web)).text
    assert html.index('<th data-column="City">City') < html.index('<th data-column="Founded">Founded')  # one column per proposal
    assert "Acme was founded in <mark>2011</mark>." in html
    assert 'class="conf conf-high">high<' in html and 'class="conf conf-low">low<' in html
    assert 'href="https://example.com/0"' in html
    assert "Page 0</a> (published 2019-03-05)" in html and "Page 2</a></div>" in html  # a dated post's source; an undated one
    assert "not found" in html  # Globex has no City, and says why as `cikb review` does
    globex_city = html[html.index('data-row="1" data-column="City"'):]
    assert '<div class="reason note">' in globex_city[:globex_city.index("</td>")]


def test_accept_and_reject_per_cell_row_and_column_then_apply_writes_only_accepted_cells(reviewed, tmp_path: Path) -> None:
    work, table = reviewed
    original = table.read_bytes()
    web = signed_in(tmp_path, work)
    url = review_url(web)
    choose(web, url, choice("accept", "column", column="Founded"))  # all three
    choose(web, url, choice("reject", "row", 1))                    # Globex: none
    choose(web, url, choice("accept", "cell", 0, "City"))           # Acme's City
    choose(web, url, choice("reject", "cell", 2, "City"))           # Initech's City
    html = web.get(url).text
    assert html.count('data-decision="accept"') == 3 and html.count('data-decision="reject"') == 2
    response = apply(web, url, "companies.reviewed.csv")
    assert response.status_code == 200, response.text
    rows = read_rows(work / "companies.reviewed.csv")
    assert [(r["Company"], r["Founded"], r["City"]) for r in rows] == [("Acme", "2011", "Portland"), ("Globex", "", ""), ("Initech", "1999", "")]
    assert table.read_bytes() == original  # the input is never modified
    choose(web, url, choice(None, "all"))
    assert 'data-decision="accept"' not in web.get(url).text


def test_apply_refuses_a_table_that_changed_since_the_proposal(reviewed, tmp_path: Path) -> None:
    work, table = reviewed
    web = signed_in(tmp_path, work)
    url = review_url(web)
    choose(web, url, choice("accept", "all"))
    table.write_text(table.read_text() + "Hooli,h.example\n")
    response = apply(web, url, "out.csv")
    assert response.status_code == 400 and "another file or an earlier version" in response.text
    assert not (work / "out.csv").exists()


def test_apply_writes_a_formula_like_value_as_text(reviewed, tmp_path: Path) -> None:
    """The same CSV-injection guard as `cikb apply`: a value a spreadsheet would run gets a leading apostrophe."""
    work, table = reviewed
    formula = '=HYPERLINK("http://evil.example","x")'
    save_proposal(proposal_for(table, "Link", {0: (formula, "high", "see it"), 2: ("-42", "high", "-42")}, ["Acme", "Globex", "Initech"]),
                  work / "link.proposal.json")
    web = signed_in(tmp_path, work)
    url = review_url(web)
    choose(web, url, choice("accept", "all"))
    assert apply(web, url, "safe.csv").status_code == 200
    rows = read_rows(work / "safe.csv")
    assert rows[0]["Link"] == "'" + formula and rows[2]["Link"] == "-42"


@pytest.mark.parametrize("name", ["../escaped.csv", "/tmp/x.csv", "companies.csv", "notes.txt", "",
                                  "a\x00.csv", "new\nline.csv", "tab\t.csv", ".csv", " .csv"])  # control characters, no name
def test_apply_writes_only_a_new_csv_beside_the_table(reviewed, tmp_path: Path, name: str) -> None:
    work, table = reviewed
    before = sorted(p.name for p in work.iterdir())
    web = signed_in(tmp_path, work)
    response = apply(web, review_url(web), name)
    assert response.status_code == 400 and "error:" in response.text
    assert sorted(p.name for p in work.iterdir()) == before and not (tmp_path / "escaped.csv").exists()


def test_an_unknown_choice_is_one_error_line(reviewed, tmp_path: Path) -> None:
    work, _ = reviewed
    web = signed_in(tmp_path, work)
    url = review_url(web)
    for value in ("approve:everything", "accept:cell:0:1", "do=accept&scope=cell&row=0", "do=accept&scope=all&row=x"):
        response = web.post(f"{url}/decide", data={"token": TOKEN, "proposals": digest(web, url), "choice": value})
        assert response.status_code == 400 and "error: not a review choice" in response.text, value


def test_a_choice_names_its_column_so_a_new_column_cannot_shift_it(reviewed, tmp_path: Path) -> None:
    """Columns sort by name: a new "Address" column moves City and Founded one place right. A choice names them."""
    work, table = reviewed
    web = signed_in(tmp_path, work)
    url = review_url(web)
    choose(web, url, choice("accept", "cell", 0, "Founded"))
    save_proposal(proposal_for(table, "Address", {0: ("1 Main St", "high", "At 1 Main St.")}, ["Acme", "Globex", "Initech"]),
                  work / "address.proposal.json")
    choose(web, url, choice("accept", "cell", 0, "City"))  # a page loaded after the new column
    html = web.get(url).text
    accepted = [part.split('"')[0] for part in html.split('data-row="0" data-column="')[1:] if 'data-decision="accept"' in part.split(">")[0]]
    assert accepted == ["City", "Founded"]


def test_a_decision_from_a_stale_page_is_refused_with_a_link_back_and_changes_nothing(reviewed, tmp_path: Path) -> None:
    work, table = reviewed
    web = signed_in(tmp_path, work)
    url = review_url(web)
    shown = digest(web, url)
    save_proposal(proposal_for(table, "City", {0: ("Salem", "high", "Acme moved to Salem.")}, ["Acme", "Globex", "Initech"]),
                  work / "city2.proposal.json")  # City enriched again after the page was shown
    response = web.post(f"{url}/decide", data={"token": TOKEN, "proposals": shown, "choice": choice("accept", "cell", 0, "City")})
    assert response.status_code == 409 and "the proposals changed since this page was shown" in response.text
    assert "Nothing was changed" in response.text and f'id="back" href="{url}"' in response.text
    assert apply(web, url, "x.csv").status_code == 200  # no decision was recorded: nothing accepted
    assert [r["City"] for r in read_rows(work / "x.csv")] == ["", "", ""]
    stale_apply = web.post(f"{url}/apply", data={"token": TOKEN, "proposals": shown, "out": "y.csv"})
    assert stale_apply.status_code == 409 and not (work / "y.csv").exists()
    for unknown in (choice("accept", "cell", 99, "City"), choice("accept", "cell", 0, "Nope"), choice("accept", "cell", 1, "City"),
                    choice("reject", "row", 99), choice("accept", "column", column="Nope")):
        response = web.post(f"{url}/decide", data={"token": TOKEN, "proposals": digest(web, url), "choice": unknown})
        assert response.status_code == 409 and 'id="back"' in response.text, unknown
    assert 'data-decision="reject"' not in web.get(url).text


def test_the_proposal_and_the_applied_csv_download(reviewed, tmp_path: Path) -> None:
    work, _ = reviewed
    web = signed_in(tmp_path, work)
    url = review_url(web)
    proposal = web.get(f"{url}/proposal", params={"column": "Founded"})
    assert proposal.status_code == 200 and proposal.content == (work / "founded.proposal.json").read_bytes()
    assert 'filename="founded.proposal.json"' in proposal.headers["content-disposition"]
    assert web.get(f"{url}/proposal", params={"column": "Nope"}).status_code == 409
    assert web.get(f"{url}/applied", params={"file": "companies.csv"}).status_code == 404  # only what Apply wrote
    choose(web, url, choice("accept", "all"))
    page = apply(web, url, "out.csv").text
    assert f'href="{url}/applied?file=out.csv"' in page
    download = web.get(f"{url}/applied", params={"file": "out.csv"})
    assert download.status_code == 200 and download.content == (work / "out.csv").read_bytes()
    assert download.headers["content-type"].startswith("text/csv")
    again = apply(web, url, "out.csv")
    assert again.status_code == 400 and "out.csv already exists beside companies.csv: type another file name under Apply" in again.text
    assert "--out" not in again.text and "--force" not in again.text and f'href="{url}"' in again.text


# --- escaping --------------------------------------------------------------------


SCRIPT = "<script>alert(1)</script>"


def test_scraped_text_with_a_script_tag_renders_escaped(make_site, tmp_path: Path) -> None:
    """A page whose text (not markup) is a <script> tag: its chunk, title and review evidence show it as text."""
    from cikb.app.pipeline import gather_company

    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;"
    site: SiteServer = make_site({
        "/": page(f"Evil Corp {escaped}", paragraphs(f"Evil Corp was founded in 2001 by people who write {escaped} on walls.",
                                                      "Evil Corp makes tests for web pages and other software products.")),
        "/robots.txt": Reply(body="User-agent: *\nAllow: /\n", content_type="text/plain"),
    })
    settings = load_settings()
    settings.gather.download_delay = 0.05
    gather_company(settings, "Evil Corp", {"website": site.url + "/"})
    work = tmp_path / "work"
    work.mkdir()
    table = write_table(work / "t.csv", [["Company"], [f"Evil {SCRIPT}"]])
    save_proposal(proposal_for(table, "Founded", {0: ("2001", "high", f"founded in 2001 by {SCRIPT}")}, [f"Evil {SCRIPT}"]), work / "f.proposal.json")
    web = signed_in(tmp_path, work)
    company = web.get("/companies/evil-corp").text
    start = company.index('href="/companies/evil-corp/documents/') + len('href="')
    document_url = company[start:company.index('"', start)]
    pages = [web.get("/ask", params={"q": "When was Evil Corp founded?"}), web.get("/companies/evil-corp"), web.get(review_url(web)),
             web.get(document_url), web.get("/search", params={"q": "Evil Corp founded", "company": "evil-corp"})]
    for response in pages:
        assert response.status_code == 200, response.text
        assert SCRIPT not in response.text and "&lt;script&gt;alert(1)&lt;/script&gt;" in response.text, response.url
    assert f"{site.url}/" in pages[1].text and "<td>website</td>" in pages[1].text  # its source and its page
    answer = pages[0].text
    assert "2001" in answer and 'class="cite" href="#chunk-1"' in answer  # a citation links to its chunk...
    chunk = answer[answer.index('id="chunk-1"'):]
    assert "founded in 2001" in chunk[:chunk.index("</details>")]  # ...which holds the cited text
    document = pages[3].text  # the document as Markdown made HTML, then the chunks the store holds for it
    assert '<div class="markdown" id="document"><h1>Evil Corp' in document and 'id="chunk-0"' in document
    assert "<td>website</td>" in company and ">company<" in company  # its source type and page kind
    search = pages[4].text
    assert 'id="trace"' in search and "<td>evil-corp (explicit" in search and 'data-rank="1"' in search and "other software products.</pre>" in search
    assert web.get("/companies/evil-corp/documents/secrets.md").status_code == 400  # not a document's file name
    assert web.get("/companies/evil-corp/documents/..%2F..%2Fcikb.toml").status_code == 404
    assert web.get("/search", params={"q": "x", "company": "nobody-here"}).status_code in (400, 404)


def test_a_posts_publication_date_is_shown_where_its_page_is(make_site, tmp_path: Path) -> None:
    from cikb.app.pipeline import gather_company

    post = page("Initrode raises a Series A", paragraphs("Initrode Corp raised a $4 million Series A to build more staplers.",
                                                          "Initrode Corp makes staplers for offices in Ohio and Texas."))
    post = Reply(body=str(post.body).replace("<head>", '<head><meta property="article:published_time" content="2019-03-05">'))
    site: SiteServer = make_site({"/": page("Initrode Corp", paragraphs("Initrode Corp makes staplers for offices in Ohio.",
                                                                         "Read about our round.") + '<a href="/blog/initrode-series-a">Series A</a>'),
                                  "/blog/initrode-series-a": post,
                                  "/robots.txt": Reply(body="User-agent: *\nAllow: /\n", content_type="text/plain")})
    settings = load_settings()
    settings.gather.download_delay = 0.05
    gather_company(settings, "Initrode Corp", {"website": site.url + "/"})
    web = signed_in(tmp_path, tmp_path)
    company = web.get("/companies/initrode-corp").text
    assert "<td>2019-03-05</td>" in company  # the post's row; the home page's date cell is empty
    start = company.index('href="/companies/initrode-corp/documents/website-blog') + len('href="')
    assert "published 2019-03-05, scraped" in web.get(company[start:company.index('"', start)]).text
    search = web.get("/search", params={"q": "Initrode Series A", "company": "initrode-corp"}).text
    assert "published 2019-03-05, crawled" in search
    answer = web.get("/ask", params={"q": "How much did Initrode Corp raise in its Series A?"}).text
    assert "published 2019-03-05, crawled" in answer


def test_a_question_about_two_companies_shows_each_answer_as_its_own_paragraph(make_site, tmp_path: Path) -> None:
    from cikb.app.pipeline import gather_company

    robots = Reply(body="User-agent: *\nAllow: /\n", content_type="text/plain")
    settings = load_settings()
    settings.gather.download_delay = 0.05
    for name, founded, host in (("Initrode Corp", 1998, "127.0.0.1"), ("Vandelay Industries", 1989, "127.0.0.2")):
        site: SiteServer = make_site({"/": page(name, paragraphs(f"{name} was founded in {founded} in Ohio.",
                                                                 f"{name} makes staplers and latex for offices.",
                                                                 f"{name} hired a new chief executive officer this year.")),
                                      "/robots.txt": robots}, host=host)
        gather_company(settings, name, {"website": site.url + "/"})
    web = signed_in(tmp_path, tmp_path)
    html = web.get("/ask", params={"q": "When were Initrode Corp and Vandelay Industries founded?"}).text
    answer = html[html.index('<div class="answer"'):html.index("</div>")]
    first, second = answer.split("<p>")[1:3]
    assert first.startswith("Initrode Corp: Initrode Corp was founded in 1998") and 'href="#chunk-1"' in first
    assert second.startswith("Vandelay Industries: Vandelay Industries was founded in 1989")
    cited = second[second.index('href="#chunk-') + len('href="#chunk-'):]
    number = cited[:cited.index('"')]
    assert number != "1" and f'id="chunk-{number}"' in html  # numbered on from the first company's sources
    chunk = html[html.index(f'id="chunk-{number}"'):]
    assert "Vandelay Industries was founded in 1989" in chunk[:chunk.index("</details>")]
    assert "In short (Initrode Corp):</strong> 1998" in html and "In short (Vandelay Industries):</strong> 1989" in html
    # The search page searches each company alone too, each with its trace and chunks.
    search = web.get("/search", params={"q": "Initrode Corp and Vandelay Industries founded"}).text
    assert 'id="trace-1"' in search and 'id="trace-2"' in search and "<h2>Initrode Corp founded</h2>" in search
    assert search.index("Initrode Corp was founded in 1998") < search.index("<h2>Vandelay Industries founded</h2>")
    assert search.index("Vandelay Industries was founded in 1989") > search.index("<h2>Vandelay Industries founded</h2>")
    # An abstention lists the sentences closest to the question, each linked to its source, opened below.
    html = web.get("/ask", params={"q": "Who is the CEO of Initrode Corp?"}).text
    answer = html[html.index('<div class="answer"'):html.index("</div>")]
    assert "I don&#39;t have enough information about that." in answer and "Related reading" in answer
    assert "not read as stating the answer; check them, it may be there" in answer  # not "they do not state it"
    related = answer[answer.index("<li>"):answer.index("</ul>")]
    assert "Initrode Corp" in related and 'href="#chunk-' in related
    number = related[related.index('href="#chunk-') + len('href="#chunk-'):].split('"')[0]
    assert f'<div class="chunk" id="chunk-{number}">\n<details open>' in html


def test_markdown_keeps_raw_html_as_text_and_drops_script_links() -> None:
    from cikb.web.reads import markdown

    html = markdown("# Title\n\n<img src=x onerror=alert(1)> [a](javascript:alert(1)) [b](https://ok.example/)")
    assert "<h1>Title</h1>" in html and "<img" not in html and "&lt;img" in html
    assert 'href="javascript:' not in html and 'href="https://ok.example/"' in html


def test_a_non_http_source_url_is_not_a_link(reviewed, tmp_path: Path) -> None:
    work, table = reviewed
    proposal = proposal_for(table, "Note", {0: ("x", "high", "x")}, ["Acme", "Globex", "Initech"])
    proposal.research_log[0].sources[0].url = "javascript:alert(1)"
    save_proposal(proposal, work / "note.proposal.json")
    web = signed_in(tmp_path, work)
    html = web.get(review_url(web)).text
    assert 'href="javascript:' not in html


# --- the command -------------------------------------------------------------------


def test_serve_help_documents_host_port_and_token() -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for words in ("--host", "--port", "--token", "127.0.0.1", "every request needs that token"):
        assert words.lower() in " ".join(result.output.split()).lower(), words


def run_cikb(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cikb", *args], capture_output=True, text=True, timeout=60)


def test_serve_refuses_a_short_token_and_a_busy_port_with_one_error_line() -> None:
    short = run_cikb("serve", "--token", "short")
    assert short.returncode == 2 and short.stderr.startswith("error: --token must be at least 16 characters"), short.stderr
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        taken = run_cikb("serve", "--port", str(port))
    assert taken.returncode == 2 and taken.stderr.startswith(f"error: cannot listen on 127.0.0.1:{port}"), taken.stderr
    assert "Traceback" not in short.stderr + taken.stderr


def test_no_response_can_be_framed_not_even_a_refusal(tmp_path: Path) -> None:
    web = client(tmp_path)
    for response in (web.get("/"), web.get(f"/?token={TOKEN}"), signed_in(tmp_path).get("/")):  # 403, 303, 200
        assert response.headers["x-frame-options"] == "DENY", response.status_code
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]


def test_bound_to_every_interface_the_host_check_holds_with_the_names_given() -> None:
    guard = Guard(token=TOKEN, host="0.0.0.0", port=PORT, extra_hosts=("kb.example",))
    assert guard.exposed and guard.url().startswith(f"http://127.0.0.1:{PORT}/")
    assert all(guard.host_ok(f"{name}:{PORT}") for name in ("kb.example", "KB.example", "127.0.0.1", "localhost"))
    assert not any(guard.host_ok(f"{name}:{PORT}") for name in ("evil.example", "0.0.0.0", "kb.example.evil.example"))
    assert not Guard(token=TOKEN, host="127.0.0.1", port=PORT).exposed


def test_serve_on_every_interface_warns_in_one_line_naming_the_hosts_it_answers_to() -> None:
    server = subprocess.Popen([sys.executable, "-m", "cikb", "serve", "--host", "0.0.0.0", "--port", "0", "--allow-host", "kb.example"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "COLUMNS": "300"})
    try:
        url = server.stdout.readline().strip()
    finally:
        server.terminate()
        _, errors = server.communicate(timeout=30)
    assert url.startswith("http://127.0.0.1:") and "token=" in url
    [warning] = [line for line in errors.splitlines() if line.startswith("warning:")]
    assert "0.0.0.0 is not loopback: plain HTTP" in warning and "kb.example:" in warning and "--allow-host" in warning


# --- jobs -----------------------------------------------------------------------------


def test_the_jobs_pages_poll_a_fragment_that_sends_only_the_rows_finished_since(reviewed, tmp_path: Path) -> None:
    from cikb.app.jobs import ColumnRequest, JobRequest, JobStore

    work, table = reviewed
    proposal = proposal_for(table, "Founded", {0: ("2011", "high", "Acme was founded in 2011."), 1: ("1989", "low", "since 1989")},
                            ["Acme", "Globex", "Initech"])
    data_dir = load_settings().data_dir
    with JobStore(data_dir) as store:  # this process runs the job: it is alive, so the job is running
        column = ColumnRequest(name="Founded", question="When was {Company} founded?", proposal_path=str(work / "founded.proposal.json"))
        job_id = store.create(JobRequest(csv_path=str(table), columns=[column]))
        store.started(job_id, "Founded", proposal.target, rows=3)
        store.record(job_id, proposal.research_log[0], "Founded")
    web = signed_in(tmp_path, work)
    listing = web.get("/jobs").text
    assert f'data-job="{job_id}" data-status="running"' in listing and "1/3" in listing
    assert 'hx-get="/jobs/table?page=1" hx-trigger="every 2s"' in listing
    assert '<noscript><meta http-equiv="refresh" content="5"></noscript>' in listing  # without JavaScript: a reload
    assert "<html" not in web.get("/jobs/table").text
    page = web.get(f"/jobs/{job_id}").text
    assert page.count("<tr id=\"slot-") == 3 and page.count("data-pending=") == 2  # row 1 finished, 2 placeholders
    poll = page[page.index('hx-get="', page.index('id="progress"')) + len('hx-get="'):]
    poll = poll[:poll.index('"')].replace("&amp;", "&")
    assert web.get(poll).text.count("<template>") == 0  # nothing new since the page was shown
    with JobStore(data_dir) as store:
        store.record(job_id, proposal.research_log[1], "Founded")
    fresh = web.get(poll).text
    assert fresh.count("<template>") == 1 and 'data-row="1" hx-swap-oob="true"' in fresh and "Acme" not in fresh  # only the new row
    with JobStore(data_dir) as store:
        store.record(job_id, proposal.research_log[2], "Founded")
        store.finish(job_id, "done")
    final = web.get(poll).text
    assert "hx-trigger" not in final and ">done<" in final  # the last answer stops the polling
    assert 'data-status="done"' in web.get("/jobs").text and "hx-trigger" not in web.get("/jobs").text
    detail = web.get(f"/jobs/{job_id}").text
    assert detail.count("<tr id=\"slot-") == 3 and "data-pending" not in detail and "<strong>answer</strong> 2011" in detail
    assert "Founded: lookup, question When was {Company} founded?; proposal" in detail
    missing = web.get("/jobs/nope")  # no such job: not found, as an unknown company is
    assert missing.status_code == 404 and "no job &#39;nope&#39;" in missing.text


def test_an_error_page_says_where_to_go_on(reviewed, tmp_path: Path) -> None:
    web = signed_in(tmp_path, reviewed[0])
    missing = web.get("/no/such/page")
    assert missing.status_code == 404 and "no such page here" in missing.text and 'id="back" href="/"' in missing.text
    gone = web.get("/review/0123456789ab")
    assert gone.status_code == 404 and 'id="back" href="/review"' in gone.text  # not back to the table that is not there
    unknown = web.get("/companies/nobody")
    assert unknown.status_code == 404 and 'id="back" href="/companies/nobody"' not in unknown.text


def test_the_jobs_list_and_a_jobs_rows_are_paginated(reviewed, tmp_path: Path) -> None:
    from cikb.app.jobs import ColumnRequest, JobRequest, JobStore

    work, table = reviewed
    labels = [f"Company {n}" for n in range(60)]
    proposal = proposal_for(table, "Founded", {n: (str(1900 + n), "high", f"since {1900 + n}") for n in range(60)}, labels)
    with JobStore(load_settings().data_dir) as store:
        column = ColumnRequest(name="Founded", question="When was {Company} founded?", proposal_path=str(work / "f.proposal.json"))
        ids = [store.create(JobRequest(csv_path=str(table), columns=[column])) for _ in range(21)]
        store.started(ids[0], "Founded", proposal.target, rows=60)
        for log in proposal.research_log:
            store.record(ids[0], log, "Founded")
        for job_id in ids:
            store.finish(job_id, "done")
    web = signed_in(tmp_path, work)
    first, second = web.get("/jobs").text, web.get("/jobs?page=2").text
    assert first.count("<tr data-job=") == 20 and second.count("<tr data-job=") == 1 and "Page 2 of 2" in second
    rows = web.get(f"/jobs/{ids[0]}").text
    assert rows.count("<tr id=\"slot-") == 50 and "Page 1 of 2" in rows and 'href="?page=2"' in rows
    rest = web.get(f"/jobs/{ids[0]}?page=2").text
    assert rest.count("<tr id=\"slot-") == 10 and ">Company 59<" in rest and ">Company 0<" not in rest
