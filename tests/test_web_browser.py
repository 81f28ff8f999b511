"""`cikb serve` in a real browser: gather the sample site, enrich two columns, and walk every page in headless Chromium.

One server and one browser walk: a framing page on another port of 127.0.0.1 (it cannot show the
page, so cannot click in it), the company page (documents with kind and date, the facts document),
a document (rendered Markdown and its chunks), search (the retriever's trace), the jobs pages while a
job runs (updated in place: an open row stays open, the scroll stays, each poll sends only new rows),
the review (accept, reject, an empty cell's reason, a click on a stale page, both downloads, apply,
an "already exists" error). Needs Debian's `chromium` package (scripts/setup.sh test installs it when
run as root) and Playwright (the dev extra), which drives that browser through ``executable_path``: no
browser download. Screenshots are written to tests/output/.
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from cikb.app.sample_site import SAMPLE_SITE, sample_table, serve_sample_site

pytestmark = [pytest.mark.browser, pytest.mark.slow]

OUTPUT = Path(__file__).resolve().parent / "output"
INSTALL = "apt-get install -y chromium (as root; `bash scripts/setup.sh test` does it)"
JOB_ROWS = 30


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.fail(f"headless Chromium is not installed: {INSTALL}")
    return path


def cikb(*args: str) -> str:
    result = subprocess.run([sys.executable, "-m", "cikb", *args], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def start_server(proposals: Path) -> tuple[subprocess.Popen, str]:
    """`cikb serve --port 0` in a child process; returns it and the URL it printed."""
    server = subprocess.Popen([sys.executable, "-m", "cikb", "serve", "--port", "0", "--proposals", str(proposals)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert server.stdout is not None
    url = server.stdout.readline().strip()
    if not url.startswith("http://127.0.0.1:"):
        server.kill()
        pytest.fail(f"cikb serve printed {url!r}: {server.communicate(timeout=10)[1][-2000:]}")
    return server, url


def framing_site(folder: Path, target: str) -> ThreadingHTTPServer:
    """Another origin on 127.0.0.1 (another port, so the same site: it shares the cookie) that frames ``target``."""
    (folder / "index.html").write_text(f'<h1>Win a prize</h1><iframe id="victim" src="{target}" width="1200" height="600"></iframe>')
    site = ThreadingHTTPServer(("127.0.0.1", 0), partial(SimpleHTTPRequestHandler, directory=str(folder)))
    threading.Thread(target=site.serve_forever, daemon=True).start()
    return site


ORGANIZATION = ('<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Organization", "name": "Acme Corp",'
                ' "foundingDate": "2011", "address": {"@type": "PostalAddress", "addressLocality": "Portland"}}</script>')


def site_with_schema_org(folder: Path) -> Path:
    """The sample site, its home page carrying schema.org data: the gather keeps it as the company's facts document."""
    shutil.copytree(SAMPLE_SITE, folder)
    home = folder / "index.html"
    home.write_text(home.read_text(encoding="utf-8").replace("</head>", ORGANIZATION + "</head>", 1), encoding="utf-8")
    return folder


def running_job(table: Path, proposal_path: Path):
    """A job of JOB_ROWS rows that this test process runs (alive, so `running`), one row finished; returns a recorder."""
    from cikb.app.jobs import ColumnRequest, JobRequest, JobStore
    from cikb.core.config import load_settings
    from cikb.enrich import load_proposal
    from cikb.enrich.models import RowLog, RowStep

    target = load_proposal(proposal_path).target
    store = JobStore(load_settings().data_dir)
    column = ColumnRequest(name="Employees", question="How many people work at {Company}?", proposal_path=str(table.parent / "e.proposal.json"))
    job_id = store.create(JobRequest(csv_path=str(table), columns=[column]))
    store.started(job_id, "Employees", target, rows=JOB_ROWS)

    def record(row: int) -> None:
        store.record(job_id, RowLog(row_id=row, label=f"Company {row}", status="found", value=str(100 + row), confidence="high",
                                    strategy="lookup", steps=[RowStep(type="answer", detail=f"{100 + row} people")]), "Employees")

    record(0)
    return store, job_id, record


def test_every_page_in_chromium(tmp_path: Path) -> None:
    try:
        from playwright.sync_api import TimeoutError as PlaywrightTimeout
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        pytest.fail("Playwright is not installed: pip install -e '.[dev]'")
    browser_path = chromium()
    with serve_sample_site(site_with_schema_org(tmp_path / "site")) as site:
        cikb("gather", "Acme Corp", "--website", f"{site}/", "--wikipedia", f"{site}/wiki/Acme_Corp", "--delay", "0.05")
    work = tmp_path / "work"
    work.mkdir()
    table = work / "companies.csv"
    table.write_text(sample_table(site), encoding="utf-8")  # Acme's Website where its site was served, as the demo's
    original = table.read_bytes()
    cikb("enrich", str(table), "--column", "Founded", "--question", "What year was {Company} founded?", "--type", "number",
         "--column", "Headquarters", "--question", "Where is {Company} headquartered?", "--type", "")  # one job, two proposals
    founded_proposal, headquarters_proposal = work / "companies.founded.proposal.json", work / "companies.headquarters.proposal.json"
    OUTPUT.mkdir(exist_ok=True)

    server, url = start_server(work)
    base = url.split("?")[0].rstrip("/")
    (tmp_path / "evil").mkdir()
    from cikb.enrich import load_proposal
    from cikb.web.review import table_key

    evil = framing_site(tmp_path / "evil", f"{base}/review/{table_key(load_proposal(founded_proposal).target.csv_path)}")
    jobs, job_id, record = running_job(table, founded_proposal)
    try:
        with pytest.raises(urllib.error.HTTPError) as refused:  # the running server, without the token
            urllib.request.urlopen(base + "/", timeout=10)
        assert refused.value.code == 403
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=browser_path, headless=True)
            context = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
            page = context.new_page()
            page.goto(url)
            assert page.locator("h1").inner_text() == "Companies"

            # A page on another port of 127.0.0.1 shares the cookie, but cannot show the review page in a frame.
            framing = context.new_page()
            framing.goto(f"http://127.0.0.1:{evil.server_address[1]}/")
            framing.wait_for_load_state("load")
            with pytest.raises(PlaywrightTimeout):  # Chromium refused to render it: nothing there to click
                framing.frame_locator("#victim").locator("button.accept").first.click(timeout=500)
            framing.screenshot(path=str(OUTPUT / "framed.png"))
            framing.close()

            # The company: its documents with kind and date, its facts document; a document with its chunks.
            page.click("text=acme-corp")
            expect(page.locator("#documents")).to_be_visible()
            kinds = page.locator("#documents tr[data-document] td:nth-child(2)").all_inner_texts()
            assert "company" in kinds and len(kinds) >= 5
            assert page.locator("#facts").count() == 1 and page.locator(".markdown.facts").inner_text().strip()
            page.screenshot(path=str(OUTPUT / "company.png"), full_page=True)
            page.locator("#documents tr[data-document] a").first.click()
            expect(page.locator("#document")).to_be_visible()
            assert page.locator("#document h1, #document h2, #document p").count() >= 1  # Markdown made HTML
            assert page.locator(".chunk").count() >= 1 and page.locator(".chunk pre").first.inner_text().strip()
            page.screenshot(path=str(OUTPUT / "document.png"), full_page=True)

            # Search, with the retriever's trace.
            page.click("header >> text=Search")
            page.fill("input[name=q]", "When was Acme founded?")
            page.fill("input[name=company]", "acme-corp")
            page.click("form >> text=Search")
            expect(page.locator("#trace")).to_contain_text("acme-corp (explicit")
            assert page.locator(".chunk[data-rank]").count() >= 1
            page.screenshot(path=str(OUTPUT / "search.png"), full_page=True)

            # The jobs page, and one running job whose page updates in place.
            page.click("header >> text=Jobs")
            expect(page.locator('#jobs tr[data-status="done"]')).to_have_count(1)
            expect(page.locator('#jobs tr[data-status="running"]')).to_have_count(1)
            page.screenshot(path=str(OUTPUT / "jobs.png"), full_page=True)
            polls: list[str] = []
            page.on("response", lambda r: polls.append(r.text()) if "/progress?" in r.url else None)
            page.click(f"a:has-text('{job_id}')")
            expect(page.locator("tr[data-pending]")).to_have_count(JOB_ROWS - 1)
            page.locator('tr[data-row="0"] summary').click()  # open row 1's steps
            page.mouse.wheel(0, 600)
            page.wait_for_function("window.scrollY > 0")
            scrolled = page.evaluate("window.scrollY")
            for row in (1, 2, 3):
                record(row)
            expect(page.locator('tr[data-row="3"]')).to_have_count(1, timeout=8000)
            assert page.locator('tr[data-row="0"] details').get_attribute("open") is not None  # still open
            assert page.evaluate("window.scrollY") == scrolled  # not moved
            jobs.finish(job_id, "done")
            expect(page.locator("#job-status")).to_have_text("done", timeout=8000)
            assert polls and max(poll.count("<tr") for poll in polls) <= 3  # each poll: only the rows finished since
            page.screenshot(path=str(OUTPUT / "job.png"), full_page=True)

            # The review: values, an empty cell's reason, accept, reject.
            page.click("header >> text=Proposals")
            page.click("a:has-text('review')")
            expect(page.locator("h1")).to_have_text("Review: companies.csv")
            assert page.locator('td[data-decision="accept"], td[data-decision="reject"]').count() == 0  # the framing page decided nothing
            founded = page.locator('td[data-row="0"][data-column="Founded"]')
            headquarters = page.locator('td[data-row="0"][data-column="Headquarters"]')
            assert "2011" in founded.inner_text() and "high" in founded.inner_text()
            assert founded.locator("mark").first.inner_text() == "2011"   # the value marked in its evidence
            assert "Portland" in headquarters.inner_text()
            assert page.locator('td[data-row="1"][data-column="Founded"] .reason').inner_text().strip()  # Globex: why empty
            founded.locator("button.accept").click()
            expect(founded).to_have_attribute("data-decision", "accept")  # after the form's POST and the reload
            headquarters.locator("button.reject").click()
            expect(headquarters).to_have_attribute("data-decision", "reject")
            expect(founded).to_have_attribute("data-decision", "accept")
            page.screenshot(path=str(OUTPUT / "review.png"), full_page=True)

            # A click on a page shown before the proposals changed is refused, and nothing changes.
            text = headquarters_proposal.read_text(encoding="utf-8")
            headquarters_proposal.write_text(text.replace("Portland", "Salem"), encoding="utf-8")
            founded.locator("button").filter(has_text="undo").click()
            expect(page.locator("#error")).to_contain_text("the proposals changed since this page was shown")
            page.screenshot(path=str(OUTPUT / "stale.png"), full_page=True)
            page.click("#back")
            expect(founded).to_have_attribute("data-decision", "accept")  # the undo did not happen
            assert "Salem" in headquarters.inner_text()

            # Downloads: a proposal, then the applied CSV; applying to the same name again is an error with a way on.
            with page.expect_download() as proposal_download:
                page.click("a:has-text('download companies.founded.proposal.json')")
            assert Path(proposal_download.value.path()).read_bytes() == founded_proposal.read_bytes()
            page.fill("input[name=out]", "companies.reviewed.csv")
            page.click("#apply-button")
            expect(page.locator("h1")).to_have_text("Applied")
            with page.expect_download() as csv_download:
                page.click("#download")
            assert Path(csv_download.value.path()).read_bytes() == (work / "companies.reviewed.csv").read_bytes()
            page.screenshot(path=str(OUTPUT / "applied.png"), full_page=True)
            page.go_back()
            page.fill("input[name=out]", "companies.reviewed.csv")
            page.click("#apply-button")
            expect(page.locator("#error")).to_contain_text("already exists beside companies.csv: type another file name under Apply")
            assert "--force" not in page.locator("main").inner_text()
            page.click("#back")
            expect(page.locator("h1")).to_have_text("Review: companies.csv")
            browser.close()
    finally:
        jobs.close()
        evil.shutdown()
        server.terminate()
        server.wait(timeout=10)

    with open(work / "companies.reviewed.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    acme, globex = rows
    assert (acme["Company"], acme["Founded"], acme["Headquarters"]) == ("Acme Corp", "2011", "")  # accepted, rejected
    assert (globex["Founded"], globex["Headquarters"]) == ("", "")  # nothing found, nothing written
    assert table.read_bytes() == original
