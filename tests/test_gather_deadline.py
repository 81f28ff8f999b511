"""A slow server cannot hold a gather (issue 11 item 6).

A page that drips one byte every 0.2 s, forever, is cut off at its deadline
(``request_timeout``, retries included) and reported as timed out; the other pages
are kept. A source stops at its time budget (``source_timeout``), requests in flight
included.
"""

from __future__ import annotations

import time

from sites import SiteServer, drip, page, paragraphs

from cikb import gather
from cikb.core.config import GatherSettings
from cikb.core.models import SourceResult

NORMAL = ["/about/", "/team/", "/contact/"]
ROUTES = {
    "/": page("Drip Corp", paragraphs("Drip Corp makes valves and taps for homes and offices."), links=["/slow/", *NORMAL]),
    "/slow/": drip(0.2),
    "/about/": page("About", paragraphs("Drip Corp was founded in 1987 in Leeds by two plumbers.")),
    "/team/": page("Team", paragraphs("Ann Smith leads Drip Corp as its chief executive officer.")),
    "/contact/": page("Contact", paragraphs("Write to Drip Corp at 1 Tap Lane, Leeds, or call 0113 496 0000.")),
}
BASE = {"download_delay": 0.1, "backoff_base": 0.2, "max_attempts": 3, "user_agent": "cikb-test/1.0", "crawl_order": "breadth_first"}


def crawl_site(site: SiteServer, **settings: float) -> tuple[SourceResult, float]:
    config = GatherSettings(**{**BASE, **settings})
    started = time.monotonic()
    result = gather.crawl([gather.resolve_source("website", site.url + "/", config)], config)
    return result.sources[0], time.monotonic() - started


def test_a_dripping_page_times_out_at_its_deadline_and_the_gather_goes_on(make_site) -> None:
    site = make_site(ROUTES)
    source, seconds = crawl_site(site, request_timeout=2.0)

    # Bounded: one 2 s deadline for the slow page (not one per attempt: 3 x 2 s + backoff), the other
    # pages beside it. The whole crawl adds a process start, slow on a busy machine: its bound is looser.
    assert source.summary.seconds < 4.0
    assert seconds < 15.0
    assert site.paths().count("/slow/") == 1  # its deadline is spent: no time left for a retry
    kept = {p.url for p in source.pages}
    assert {site.url_for(path) for path in ["/", *NORMAL]} <= kept
    assert site.url_for("/slow/") not in kept
    assert source.summary.timed_out == [site.url_for("/slow/")]
    assert source.summary.dropped["timeout"] == 1
    assert not source.summary.time_budget_spent
    assert source.summary.error is None


def test_a_source_stops_at_its_time_budget_with_its_request_in_flight(make_site) -> None:
    site = make_site({**ROUTES, "/": drip(0.2)})
    source, seconds = crawl_site(site, request_timeout=30.0, source_timeout=1.5)

    assert source.summary.seconds < 3.0  # the 1.5 s budget, not the 30 s request deadline
    assert seconds < 15.0
    assert source.summary.time_budget_spent
    assert source.summary.timed_out == [site.url_for("/")]
    assert source.summary.fetched == 0



def test_the_gather_summary_names_the_timed_out_pages(capsys) -> None:
    from datetime import datetime, timezone

    from cikb.app.models import GatherSummary
    from cikb.cli.gather_cmd import print_summary
    from cikb.core.models import Company, SourceSummary

    source = SourceSummary(source_type="website", fetched=3, timed_out=["http://a.example/slow/"], time_budget_spent=True)
    source.drop("timeout")
    summary = GatherSummary(company=Company(name="Drip Corp", slug="drip-corp"), sources=[source], raw_dir="data/drip-corp/raw",
                            started_at=datetime.now(timezone.utc))
    print_summary(summary)
    printed = capsys.readouterr().out
    assert "website: 1 timed out: http://a.example/slow/" in printed
    assert summary.model_dump(mode="json")["sources"][0]["timed_out"] == ["http://a.example/slow/"]
