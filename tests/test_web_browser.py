"""`cikb serve` in a real browser: gather the sample site, enrich two columns, review them in headless Chromium, apply.

Needs Debian's `chromium` package (scripts/setup.sh test installs it when run as root) and
Playwright (the dev extra), which drives that browser through ``executable_path``: no
browser download. The screenshots of the review and jobs pages are written to tests/output/.
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from cikb.app.sample_site import SAMPLE_TABLE, serve_sample_site

pytestmark = [pytest.mark.browser, pytest.mark.slow]

OUTPUT = Path(__file__).resolve().parent / "output"
INSTALL = "apt-get install -y chromium (as root; `bash scripts/setup.sh test` does it)"


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


def test_review_page_in_chromium_accepts_one_cell_rejects_another_and_applies(tmp_path: Path) -> None:
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        pytest.fail("Playwright is not installed: pip install -e '.[dev]'")
    browser_path = chromium()
    with serve_sample_site() as site:
        cikb("gather", "Acme Corp", "--website", f"{site}/", "--wikipedia", f"{site}/wiki/Acme_Corp", "--delay", "0.05")
    work = tmp_path / "work"
    work.mkdir()
    table = work / "companies.csv"
    shutil.copyfile(SAMPLE_TABLE, table)
    original = table.read_bytes()
    cikb("enrich", str(table), "--column", "Founded", "--question", "What year was {Company} founded?", "--type", "number",
         "--out", str(work / "founded.proposal.json"))
    cikb("enrich", str(table), "--column", "Headquarters", "--question", "Where is {Company} headquartered?",
         "--out", str(work / "headquarters.proposal.json"))

    server, url = start_server(work)
    try:
        with pytest.raises(urllib.error.HTTPError) as refused:  # the running server, without the token
            urllib.request.urlopen(url.split("?")[0], timeout=10)
        assert refused.value.code == 403
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=browser_path, headless=True)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(url)
            assert page.locator("h1").inner_text() == "Companies"
            assert "acme-corp" in page.locator("table").inner_text()
            page.click("text=Jobs")  # the two enrichments, done, with their progress
            expect(page.locator('#jobs tr[data-status="done"]')).to_have_count(2)  # waits for the page, unlike count()
            assert "2/2" in page.locator("#jobs").inner_text()
            page.screenshot(path=str(tmp_path / "jobs.png"), full_page=True)
            page.click("text=Proposals")
            page.click("a:has-text('review')")
            expect(page.locator("h1")).to_have_text("Review: companies.csv")
            founded = page.locator('td[data-row="0"][data-column="0"]')   # Acme Corp's Founded (columns in name order)
            headquarters = page.locator('td[data-row="0"][data-column="1"]')
            assert "2011" in founded.inner_text() and "high" in founded.inner_text()
            assert founded.locator("mark").first.inner_text() == "2011"   # the value marked in its evidence
            assert "Portland" in headquarters.inner_text()
            founded.locator("button.accept").click()
            expect(founded).to_have_attribute("data-decision", "accept")  # after the form's POST and the reload
            headquarters.locator("button.reject").click()
            expect(headquarters).to_have_attribute("data-decision", "reject")
            expect(founded).to_have_attribute("data-decision", "accept")
            shot = tmp_path / "review.png"
            page.screenshot(path=str(shot), full_page=True)
            OUTPUT.mkdir(exist_ok=True)
            shutil.copyfile(shot, OUTPUT / "review.png")
            shutil.copyfile(tmp_path / "jobs.png", OUTPUT / "jobs.png")
            page.fill("input[name=out]", "companies.reviewed.csv")
            page.click("#apply-button")
            expect(page.locator("h1")).to_have_text("Applied")
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)

    with open(work / "companies.reviewed.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    acme, globex = rows
    assert (acme["Company"], acme["Founded"], acme["Headquarters"]) == ("Acme Corp", "2011", "")  # accepted, rejected
    assert (globex["Founded"], globex["Headquarters"]) == ("", "")  # nothing found, nothing written
    assert table.read_bytes() == original
