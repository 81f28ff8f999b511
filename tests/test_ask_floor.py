"""Quality floors of offline ask on the shared company sites (issue 23, item 1), as bench/ask.py measures them.

Each site is served on 127.0.0.1 and gathered through the real pipeline with the default 20-page budget; each fact's
question is asked extractively (no LLM) and scored as ../shared/tools/score_facts.py scores it: right when the first
cited statement holds the answer, abstained, or wrong. letsencrypt and skylight are the sites the reader was tuned
on; vamp and gitpod are held out (never read fact by fact while changing the reader). Measured when written:

    site          right  abstained  wrong  evidence in the top 10
    letsencrypt   13/14      0        1       14/14     (tuned)
    skylight      10/15      5        0       12/15     (tuned; 4 evidence pages are beyond the 20-page crawl)
    vamp           4/15     11        0       14/15     (held out; 3/11/1 before an address asked had to hold a
                                                          street number or a postcode, 3/12/0 before former
                                                          names were read from renamings)
    gitpod         3/15     12        0       10/15     (held out; 3/11/1 before session 40's own-site label lines,
                                                          4/10/1 before a post's date dated its announcements,
                                                          4/11/0 before session 60's registered office and
                                                          organisation lists, not looked at)

(Team cards, counts by the noun they count, "with"/"from" ties, labels the question names, a crawl spread over
the site's folders and parse-based checks of counts and roles raised the tuned sites from 12 and 4 right and left
the held-out figures where they were.)

Before issue 23 (same command, gitpod then gathered 1 page): letsencrypt 13/0/1, skylight 5/2/8, vamp 5/1/9,
gitpod 0/12/3. The issue's targets (right >= 75%, wrong <= 5% on held-out sites) are not met: see the README.
Each floor allows EPSILON fewer right and no more wrong; high-confidence answers must all be right. About a minute.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bench_loader import load_bench

# site: (right, wrong, evidence in the top 10), measured with the defaults (20 pages).
MEASURED = {"letsencrypt": (13, 1, 14), "skylight": (10, 0, 12), "vamp": (6, 0, 14), "gitpod": (4, 0, 9)}
MEASURED_RIGHT_AS_BRAND = 11  # letsencrypt.org gathered as "Let's Encrypt": its facts are about ISRG, its operator
EPSILON = 1

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("name", sorted(MEASURED))
def test_offline_ask_on_each_shared_site_stays_above_its_floor(tmp_path: Path, name: str) -> None:
    bench = load_bench("ask")
    site = bench.SITES[name]
    settings = bench.bench_settings(tmp_path / "data")
    bench.gather_site(settings, site)
    scores = bench.measure(settings, site)
    right, wrong, top10 = MEASURED[name]
    figures = f"{name} ({site.role}): {scores.line()}"
    assert scores.right >= right - EPSILON, figures
    assert scores.wrong <= wrong, figures
    assert scores.top10 >= top10 - EPSILON, figures
    assert scores.high.count("right") == len(scores.high), figures  # high confidence is never wrong
    assert scores.cells["high"].count("right") == len(scores.cells["high"]), figures  # nor is a high cell's value


# The written sites held out (the "written held-out" rows of bench/ask.py's WRITTEN: 32 sites since session 108),
# together: right, wrong and evidence in the top 10 of their 480 facts, as this test measured them at session 108's end
# (the held-out sites gathered alone, so BM25's IDF spans them only: 276 / 188 / 16, top 10 424, as in the bench's
# store of every site). How each session moved them is in bench/HISTORY.md ("Session 108" quotes the trail this comment
# kept until then). Their high-confidence cells were all right when measured: that is asserted. One of their
# high-confidence first statements (Purism's) does not hold the fact's words, so that is reported, not asserted: the
# issue's targets are not met.
MEASURED_WRITTEN_HELD_OUT = (276, 16, 424)


# 32 sites gathered and 480 facts read: 158 s alone in session 108 (139 s for 31 in session 107; 21 sites took over
# 300 s on a worker beside the rest of the suite and two benchmarks in session 100).
@pytest.mark.timeout(600)
def test_offline_ask_on_the_written_held_out_sites_stays_above_its_floor(tmp_path: Path) -> None:
    bench = load_bench("ask")
    settings = bench.bench_settings(tmp_path / "data")
    totals = bench.Scores()
    sites = [s for s in bench.WRITTEN.values() if s.role == "written held-out"]
    for site in sites:  # all gathered first, as bench/ask.py does: the BM25 IDF spans the knowledge base
        bench.gather_site(settings, site)
    for site in sites:
        totals.add(bench.measure(settings, site))
    right, wrong, top10 = MEASURED_WRITTEN_HELD_OUT
    assert totals.facts == 480, totals.line()
    assert totals.right >= right - EPSILON and totals.wrong <= wrong and totals.top10 >= top10 - EPSILON, totals.line()
    high_cells = totals.cells["high"]
    assert high_cells and high_cells.count("right") == len(high_cells), totals.line()  # a high cell is never wrong


def test_the_held_out_sites_are_not_the_tuned_ones() -> None:
    sites = load_bench("ask").SITES
    assert {n for n, s in sites.items() if s.role == "held-out"} == {"vamp", "gitpod"}
    assert {n for n, s in sites.items() if s.role == "tuned"} == {"letsencrypt", "skylight"}


def test_named_by_its_brand_the_site_still_answers_above_the_floor(tmp_path: Path) -> None:
    # The company's display name is the reader's subject: "Let's" in a question is its name, not a word to match.
    bench = load_bench("ask")
    site = bench.SITES["letsencrypt"]
    settings = bench.bench_settings(tmp_path / "data")
    bench.gather_site(settings, site, "Let's Encrypt")
    scores = bench.measure(settings, site, slug="lets-encrypt")
    assert scores.right >= MEASURED_RIGHT_AS_BRAND - EPSILON, scores.line()
    assert scores.wrong <= 1, scores.line()


@pytest.mark.parametrize(("value", "truth", "verdict"), [
    ("$9", "$9 a month", "right"), ("2 June 2016", "2016", "right"), ("five", "five devices", "right"),
    ("Linux Foundation", "The Linux Foundation", "right"), ("Textilgatan 31, 120 30 Stockholm", "Stockholm", "right"),
    ("Stripe", "Paddle", "wrong"),
    ("$200", "$20", "wrong"),  # a sentence holding both prices holds "$20"; the cell does not
    ("€ 10", "2.5 %", "wrong"), ("Box 237, 4000 Plovdiv", "2 Pravda Street", "wrong"),
    ("jobs@acme.example", "support@acme.example", "wrong"), ("Support@Acme.example", "support@acme.example", "right"),
])
def test_a_cell_is_scored_by_its_value_alone(value: str, truth: str, verdict: str) -> None:
    assert load_bench("ask").cell_verdict(value, truth) == verdict
