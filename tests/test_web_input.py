"""`cikb serve` against odd input a user (or a crafted request) sends: the answer is a page with one `error:` line, never a bare 500."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient
from test_web import BASE, PORT, TOKEN, apply, digest, reviewed, review_url, run_cikb, signed_in  # noqa: F401 (reviewed: a fixture)

from cikb.core.config import load_settings
from cikb.web import Guard, create_app


@pytest.mark.parametrize("page", ["²", "¹⁰", "-1", "x", "99999999999999999999"])
def test_an_odd_page_number_shows_the_first_or_last_page_not_a_server_error(reviewed, tmp_path: Path, page: str) -> None:
    web = signed_in(tmp_path, reviewed[0])
    for path in ("/jobs", "/jobs/table"):
        response = web.get(path, params={"page": page})
        assert response.status_code == 200, (path, page)


def test_a_failure_the_page_did_not_foresee_is_one_error_line_with_a_way_back(reviewed, tmp_path: Path) -> None:
    """A file name the file system refuses (too long; a full disk reads the same): an error page, not "Internal Server Error"."""
    work, _ = reviewed
    guard = Guard(token=TOKEN, host="127.0.0.1", port=PORT)
    web = TestClient(create_app(load_settings(), guard, work), base_url=BASE, follow_redirects=False, raise_server_exceptions=False)
    web.get(f"/?token={TOKEN}")
    url = review_url(web)
    response = apply(web, url, "x" * 300 + ".csv")
    assert response.status_code == 500 and 'id="error"' in response.text and "error: " in response.text
    assert "File name too long" in response.text and f'id="back" href="{url}"' in response.text


def test_serve_refuses_a_token_a_cookie_or_header_cannot_carry() -> None:
    result = run_cikb("serve", "--token", "€" * 20)
    assert result.returncode == 2 and result.stderr.startswith("error: --token must be printable ASCII"), result.stderr


def test_two_tabs_applying_to_one_name_at_once_write_it_once(reviewed, tmp_path: Path, monkeypatch) -> None:
    """Both checked that the name was free, then both wrote: the second replaced the first and both pages said "Wrote"."""
    import asyncio
    import time

    import httpx

    import cikb.web.review as review

    work, _ = reviewed
    real = review.apply_proposals

    def slow_apply(*args, **kwargs):
        time.sleep(0.3)  # a large table: the other tab's request arrives while this one writes
        return real(*args, **kwargs)

    monkeypatch.setattr(review, "apply_proposals", slow_apply)
    url = review_url(signed_in(tmp_path, work))
    form = {"token": TOKEN, "proposals": digest(signed_in(tmp_path, work), url), "out": "both.csv"}
    app = create_app(load_settings(), Guard(token=TOKEN, host="127.0.0.1", port=PORT), work)

    async def both() -> list[int]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE, headers={"X-Cikb-Token": TOKEN}) as web:
            answers = await asyncio.gather(*(web.post(f"{url}/apply", data=form) for _ in range(2)))
        return sorted(answer.status_code for answer in answers)

    assert asyncio.run(both()) == [200, 400]


def test_a_proposal_downloaded_from_a_page_shown_before_it_was_redone_is_refused_not_swapped(reviewed, tmp_path: Path) -> None:
    """`cikb enrich` rewrote founded.proposal.json after the page was shown: its link must not hand out values the page never showed."""
    import html

    from test_web import proposal_for

    from cikb.enrich import save_proposal

    work, table = reviewed
    web = signed_in(tmp_path, work)
    url = review_url(web)
    page = web.get(url).text
    start = page.index(f'href="{url}/proposal?column=Founded') + len('href="')
    link = html.unescape(page[start:page.index('"', start)])
    assert web.get(link).content == (work / "founded.proposal.json").read_bytes()
    save_proposal(proposal_for(table, "Founded", {0: ("2012", "high", "Acme, since 2012.")}, ["Acme", "Globex", "Initech"]),
                  work / "founded.proposal.json")
    stale = web.get(link)
    assert stale.status_code == 409 and "the proposals changed since this page was shown" in stale.text and f'id="back" href="{url}"' in stale.text


def test_the_review_says_its_choices_are_lost_when_the_server_stops(reviewed, tmp_path: Path) -> None:
    """Choices live in the server's memory only: a reviewer who stops `cikb serve` before Apply loses them, so the page says so."""
    web = signed_in(tmp_path, reviewed[0])
    page = " ".join(web.get(review_url(web)).text.split())
    assert "kept only while this cikb serve runs: apply before stopping it" in page


def test_an_accept_holds_for_the_value_accepted_not_for_another_written_in_its_place(reviewed, tmp_path: Path) -> None:
    """The proposal file was rewritten in place (same creation time, another value in the accepted cell): the accept must not carry over."""
    from test_web import choice, choose, read_rows

    from cikb.enrich import load_proposal, save_proposal

    work, _ = reviewed
    web = signed_in(tmp_path, work)
    url = review_url(web)
    choose(web, url, choice("accept", "cell", 0, "Founded"))
    choose(web, url, choice("accept", "cell", 1, "Founded"))
    path = work / "founded.proposal.json"
    edited = load_proposal(path)
    edited.operations[0].changes["Founded"] = "2012"
    edited.research_log[0].value = "2012"
    save_proposal(edited, path)
    page = web.get(url).text
    assert 'data-row="0" data-column="Founded" data-decision="undecided"' in page
    assert 'data-row="1" data-column="Founded" data-decision="accept"' in page  # its value did not change
    assert apply(web, url, "edited.csv").status_code == 200
    assert [row["Founded"] for row in read_rows(work / "edited.csv")] == ["", "1989", ""]


def test_gather_times_show_to_the_minute() -> None:
    from cikb.web.app import minute

    assert minute("2026-12-05T22:21:46.123456+00:00") == "2026-12-05 22:21 UTC"  # was shown with its microseconds
    assert minute("2026-12-05T22:21:46") == "2026-12-05 22:21"
    assert minute(None) == "-" and minute("yesterday") == "yesterday"
