"""Names are text: markup and terminal escapes in a company name, a page title or an answer are shown literally.

A site on 127.0.0.1 serves a page whose title holds Rich markup, an SGR colour, an OSC 8
hyperlink, a carriage return and a bidi override; a company is gathered under a name with
markup and escapes. Every command that prints a name, title, URL or answer (gather, companies,
ask, search, logs, enrich, review) must show the markup as written and no control character.
Names in any script get a slug, and a question finds its company by the name it was given.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI
from sites import SiteServer, page, paragraphs


pytestmark = pytest.mark.slow

CIKB = Path(sys.executable).with_name("cikb")
EVIL_TITLE = ("[bold red]Evil[/] \x1b[31mRed\x1b[0m \x1b]8;;http://evil.example/\x1b\\Click\x1b]8;;\x1b\\ "
              "done\rOver \u202eReversed \x9b31mCSI")
EVIL_NAME = "Initech [bold red]Evil [blink]Corp \x1b[31mRed \x1b]8;;x\x07 \x9b1m"
# What a terminal would act on: ESC, CSI, BEL, CR, a right-to-left override.
CONTROLS = "\x1b\x9b\x07\r\u202e"
LETSENCRYPT = paragraphs(
    "Let's Encrypt was founded in 2014 by the Internet Security Research Group in San Francisco, California.",
    "It issues free TLS certificates to hundreds of millions of websites every year, automatically and openly.",
)
MERCARI = paragraphs(
    "Mercari was founded in 2013 in Tokyo by Shintaro Yamada and runs a marketplace app for second-hand goods.",
    "The company listed on the Tokyo Stock Exchange in 2018 and also operates the payment service Merpay.",
)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):
    """A knowledge base gathered through the command: the evil name and title, Let's Encrypt, 株式会社メルカリ."""
    root = tmp_path_factory.mktemp("names")
    (root / "cikb.toml").write_text("")
    env = {**os.environ, "CIKB_DATA_DIR": str(root / "data"), "CIKB_CONFIG": str(root / "cikb.toml"),
           "COLUMNS": "400", "HF_HUB_OFFLINE": "1"}
    env = {k: v for k, v in env.items() if not k.startswith("CIKB_") or k in ("CIKB_DATA_DIR", "CIKB_CONFIG")}
    site = SiteServer({"/": page(EVIL_TITLE, LETSENCRYPT), "/mercari/": page("Mercari", MERCARI)}).start()
    gathers = {}
    try:
        for name, url in ((EVIL_NAME, f"{site.url}/"), ("Let's Encrypt", f"{site.url}/"), ("株式会社メルカリ", f"{site.url}/mercari/")):
            gathers[name] = run(env, "gather", name, "--website", url, "--max-pages", "1", "--delay", "0")
    finally:
        site.stop()
    return env, root, gathers


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([str(CIKB), *args], capture_output=True, timeout=180, env=env)
    # Bytes decoded by hand: text=True would turn a carriage return into a newline before we look.
    result.stdout, result.stderr = result.stdout.decode(), result.stderr.decode()
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result


def shown_as_text(result: subprocess.CompletedProcess[str]) -> str:
    """stdout and stderr together, checked free of every control character a terminal acts on."""
    both = result.stdout + result.stderr
    assert not [c for c in CONTROLS if c in both], repr(both)
    return both


def test_gather_and_companies_show_the_name_literally(kb) -> None:
    env, root, gathers = kb
    gathered = shown_as_text(gathers[EVIL_NAME])
    assert "gathered Initech [bold red]Evil [blink]Corp [31mRed ]8;;x 1m (initech-bold-red-evil-blink-corp-31mred-8-x-1m)" in gathered
    listed = shown_as_text(run(env, "companies"))
    assert "Initech [bold red]Evil [blink]Corp [31mRed ]8;;x 1m" in listed
    assert "merukari" in listed and "株式会社メルカリ" in listed and "lets-encrypt" in listed
    names = {c["slug"]: c["name"] for c in json.loads(run(env, "companies", "--json").stdout)}
    assert names["initech-bold-red-evil-blink-corp-31mred-8-x-1m"] == "Initech [bold red]Evil [blink]Corp [31mRed ]8;;x 1m"
    assert names["merukari"] == "株式会社メルカリ" and names["lets-encrypt"] == "Let's Encrypt"


def test_ask_and_search_show_titles_literally(kb) -> None:
    env, _, _ = kb
    title = "[bold red]Evil[/] [31mRed[0m ]8;;http://evil.example/\\Click]8;;\\ done Over Reversed 31mCSI"
    asked = shown_as_text(run(env, "ask", "When was Let's Encrypt founded?"))
    assert f"[1] {title} — http://127.0.0.1:" in asked
    searched = shown_as_text(run(env, "search", "free TLS certificates", "--company", "lets-encrypt"))
    assert title in searched
    payload = json.loads(run(env, "search", "free TLS certificates", "--company", "lets-encrypt", "--json").stdout)
    assert any(c["chunk"]["metadata"]["title"].startswith("[bold red]Evil[/]") for c in payload["chunks"])  # JSON: the data as stored


def test_a_question_finds_its_company_by_the_name_it_was_gathered_under(kb) -> None:
    env, _, _ = kb
    assert "company: lets-encrypt (inferred from 'lets encrypt')" in run(env, "ask", "When was Let's Encrypt founded?").stderr
    assert "company: lets-encrypt" in run(env, "ask", "When was Let’s Encrypt founded?").stderr
    assert "company: merukari (inferred from 'メルカリ')" in run(env, "search", "メルカリの創業者は誰ですか？").stderr
    assert "company: merukari" in run(env, "ask", "When was Mercari founded?", "--company", "株式会社メルカリ").stderr


def test_answers_and_the_call_log_show_model_text_literally(kb, fake_openai: FakeOpenAI, tmp_path: Path) -> None:
    env, root, _ = kb
    config = tmp_path / "llm.toml"
    config.write_text(f'[llm]\nbase_url = "{fake_openai.base_url}"\nmodel = "fake-model"\nmax_retries = 0\n')
    fake_openai.reply("[bold red]Boom[/] \x1b[31mred\x1b[0m \x1b]8;;http://evil.example/\x07link\x1b]8;;\x07 in 2014 [1].\rOver")
    llm_env = {**env, "CIKB_CONFIG": str(config)}
    answered = shown_as_text(run(llm_env, "ask", "When was Let's Encrypt founded?"))
    assert "[bold red]Boom[/] [31mred[0m ]8;;http://evil.example/link]8;; in 2014 [1].\nOver" in answered
    logged = shown_as_text(run(llm_env, "logs"))
    assert "[bold red]Boom[/] [31mred[0m" in logged


def test_enrich_and_review_show_labels_and_titles_literally(kb, tmp_path: Path) -> None:
    env, _, _ = kb
    table = tmp_path / "companies.csv"
    with open(table, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["Company"], ["Let's Encrypt"], ["[bold red]Nobody[/] \x1b[31mCorp"]])
    proposal = tmp_path / "founded.proposal.json"
    enriched = shown_as_text(run(env, "enrich", str(table), "--column", "Founded", "--question", "What year was {Company} founded?",
                                 "--type", "number", "--out", str(proposal)))
    assert "proposal written to" in enriched
    reviewed = shown_as_text(run(env, "review", str(proposal)))
    assert "[bold red]Nobody[/] [31mCorp" in reviewed
    assert "2014" in reviewed


def test_plain_and_safe_are_what_every_command_prints_names_through() -> None:
    from cikb.cli._text import plain, safe

    assert plain(EVIL_TITLE) == "[bold red]Evil[/] [31mRed[0m ]8;;http://evil.example/\\Click]8;;\\ done Over Reversed 31mCSI"
    assert plain("line one\r\nline two\ttab\roverwritten", multiline=True) == "line one\nline two\ttab\noverwritten"
    assert plain("line one\nline two") == "line one line two"
    assert safe("[bold red]x[/]") == "\\[bold red]x\\[/]"
