"""The gather-side commands as a user runs them: one clear line for bad input, JSON for scripts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cikb.app.sample_site import serve_sample_site

REPO = Path(__file__).resolve().parents[1]


def cikb(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cikb", *args], cwd=REPO, capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize(
    "args, message",
    [
        (["gather", "", "--website", "http://127.0.0.1:9/"], "company name is empty"),
        (["gather", "../../etc", "--website", "http://127.0.0.1:9/"], "looks like a path"),
        (["gather", "Acme", "--website", "http://acme.example:port/"], "malformed URL"),
        (["gather", "Acme", "--website", "ftp://acme.example/"], "unsupported URL scheme"),
        (["gather", "Acme", "--website", "file:///etc/passwd"], "unsupported URL scheme"),
        (["gather", "Acme"], "no source given, and 'Acme' was never gathered here"),
        (["forget", "../etc"], "not a company slug"),
        (["forget", "nobody"], "no company 'nobody'"),
    ],
)
def test_bad_input_gets_one_clear_line_and_no_traceback(args: list[str], message: str) -> None:
    result = cikb(*args)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr + result.stdout
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], result.stderr


def test_an_unreachable_host_fails_the_gather_with_its_reason_and_keeps_nothing(isolated_env: Path) -> None:
    result = cikb("gather", "Acme", "--website", "http://127.0.0.1:9/", "--delay", "0")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    error = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert error and "nothing gathered" in error[0] and "website" in error[0]
    assert not (isolated_env / "acme" / "raw").exists()


def test_gather_the_sample_site_then_list_and_forget_it(isolated_env: Path) -> None:
    with serve_sample_site() as site:
        result = cikb("gather", "Acme Corp", "--website", f"{site}/", "--wikipedia", f"{site}/wiki/Acme_Corp", "--news", f"{site}/news/rss.xml", "--delay", "0.05", "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)  # progress goes to stderr, so stdout is pure JSON
    website, wikipedia, news = summary["sources"]
    assert website["dropped"].get("language") == 1  # the German page
    assert wikipedia["documents"] == 1
    assert news["fetched"] == 2 and news["dropped"] == {"duplicate": 2}  # the feed links to press pages the website kept
    assert summary["documents"] == len(list((isolated_env / "acme-corp" / "raw").glob("*.md")))
    assert "all-MiniLM-L6-v2" in summary["model"]
    raw = {json.loads(line.split(": ", 1)[1]): path for path in (isolated_env / "acme-corp" / "raw").glob("*.md")
           for line in path.read_text().splitlines() if line.startswith("url: ")}
    published = {url.removeprefix(f"{site}"): _front_matter(path, "published") for url, path in raw.items()}
    assert published["/press/2024-series-c/"] == "2024-03-12"  # a press release's date, from its markup
    assert published["/about/"] is None and published["/press/"] is None  # a fact page, a listing
    with serve_sample_site(port=int(site.rsplit(":", 1)[1])) as again:  # its name alone: from its last gather's sources
        regathered = cikb("gather", "Acme Corp", "--delay", "0.05", "--json")
    assert regathered.returncode == 0, regathered.stderr
    assert (f"gathering Acme Corp again from the sources of its last gather: website {again}/; wikipedia {again}/wiki/Acme_Corp; "
            f"news {again}/news/rss.xml") in " ".join(regathered.stderr.split())
    assert [s["source_type"] for s in json.loads(regathered.stdout)["sources"]] == ["website", "wikipedia", "news"]
    [listed] = json.loads(cikb("companies", "--json").stdout)
    assert (listed["slug"], listed["name"], listed["documents"], listed["chunks"]) == ("acme-corp", "Acme Corp", summary["documents"], summary["chunks"])
    forgotten = json.loads(cikb("forget", "acme-corp", "--json").stdout)
    assert forgotten == {"company": "acme-corp", "points": summary["chunks"], "documents": summary["documents"]}
    assert json.loads(cikb("companies", "--json").stdout) == []


def _front_matter(path: Path, field: str) -> object:
    return next(json.loads(line.split(": ", 1)[1]) for line in path.read_text().splitlines() if line.startswith(f"{field}: "))


def test_config_reference_in_the_readme_is_the_generated_one() -> None:
    from cikb.core.config import config_reference_markdown

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert config_reference_markdown() in readme, "README's configuration table is stale: paste `cikb config --reference`"
