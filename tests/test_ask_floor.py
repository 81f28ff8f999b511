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


# The written sites held out (bench/sites: zammad, system76, codeberg, framework, purism, kagi, since session 63
# igalia, fastmail, prusa, tailscale, since session 82 signals37, since session 83 infomaniak and bitwarden, since
# session 96 posthog and hetzner, since session 97 element and sentry, since session 98 bunny and tuxedo, since
# session 99 sparkfun, since session 100 raspberrypi, since session 101 threema and murena, since session 102 gandi,
# since session 103 vivaldi and discourse, since session 104 mojeek and scaleway, since session 105 netgate, since
# session 106 datawrapper, since session 107 xwiki), together: right, wrong, evidence in the top 10 of their 465 facts,
# measured in session 107 by this test (the held-out sites gathered alone: 270 / 180 / 15, top 10 412; in the bench's
# store of every site 271 / 180 / 14, xwiki 10 / 4 / 1 there as measured blind; of the 450 before it 259 / 178 / 13 ->
# 261 / 176 / 13 with a price said to be the lowest in other words read as "cheapest" and "a wholly owned subsidiary
# of" read as an owner); of the 450 before it, in session 106 (259 / 178 / 13, top 10 398, gathered afresh with
# job openings crawled after the site's other pages, then
# datawrapper gathered into that store: 10 / 5 / 0, as measured blind; of the 435 before it 249 / 173 / 13, top 10 384:
# 246 / 175 / 14, top 10 380, at the session's start, the job openings 248 / 174 / 13, "paying customers" one more
# right); of the 435 before it, in session 105 (246 / 175 / 14, top 10
# 380, gathered afresh, then netgate gathered into that store: 9 / 5 / 1, as measured blind; with a building's name
# for a British street number two more right, with a passive and "you" no deed of the subject's two wrong fewer; 244 /
# 175 / 16 before them); of the 420 before it, in session 104 (235 / 170 / 15, top 10 366, in
# session 103's store with
# mojeek and scaleway gathered into it: 11 / 2 / 2 and 8 / 7 / 0, as measured blind; the session's three reader changes
# moved no held-out first statement; 227 / 163 / 15, top 10 353, of the 405 before scaleway); of the 390 before it, in
# session 103 (216 / 161 / 13, top 10 340, gathered afresh, then vivaldi and discourse gathered into
# that store: 9 / 6 / 0 and 13 / 2 / 0, as measured blind; the session's two reader changes moved no held-out first
# statement; 203 / 159 / 13, top 10 325, of the 375 before discourse); of the 360 before it, in session 102
# (194 / 153 / 13, top 10 310, with gandi gathered into the store below: 9 / 5 / 1, as measured blind; 185 / 148 / 12
# of the 345 before it after that session's three reader changes); of the 345 before it, in session 101 (183 / 150 /
# 12, top 10 296, with
# murena gathered into the store below: 11 / 2 / 2, as measured blind); of the 330 before it, in session 101 (172 / 148 / 10, top 10
# 282, gathered afresh with a self-hosting page crawled as an open-source page, then threema gathered into that store:
# 10 / 4 / 1, as measured blind); of the 315 before it, in session 100 (161 / 145 / 9, top 10 269, in session 99's store with raspberrypi
# gathered into it: raspberrypi 7 / 8 / 0, as measured blind; 162 / 144 / 9, top 10 268, with the self-hosting page
# crawled); of the 300 before it, in session 99
# (154 / 137 / 9, top 10 256, with a mailbox named for the purpose asked saying it; 153 / 138 / 9 before it, gathered
# afresh: sparkfun 10 / 5 / 0, measured blind); of the 285 before it, in session 98 (143 / 133 / 9, top 10 242, with a
# "Registered office:" label read as a label; 142 / 134 / 9 before it: tuxedo 7 / 7 / 1, measured blind; of the 270
# before it, 135 / 127 / 8, top 10 229: bunny 9 / 6 / 0 in the bench store, 10 / 5 / 0 measured blind in its own; of
# the 255 before it,
# in session 97, 126 / 121 / 8, top 10 216, with a registered address read as an address;
# 125 / 121 / 9 before it: sentry 10 / 4 / 1, measured blind; of the 240 before it, 115 / 117 / 8, top 10 203, with the city asked for the answer's grain, not a word it
# must hold; 114 / 118 / 8 before it: element 10 / 5 / 0, measured blind; of the 225 before it,
# in session 96, 104 / 113 / 8, top 10 189, with Delaware's file number a company number; 103 / 112 / 10 before it:
# hetzner 4 / 9 / 2, measured blind, and posthog 7 / 6 / 2 with a free-text
# answer on another of the kind asked held back; of the 210 before hetzner, 99 / 102 / 9, top 10 175, with an address
# in the town given no other place; 98 / 103 / 9 before it: posthog 7 / 5 / 3, measured blind, and the 195 facts
# before it as in session 89);
# of the 195 before it, in session 89 (91 / 98 / 6, top 10 162, with a
# fact page right under a help section, /support/warranty, crawled as one), in session 87 (91 / 98 / 6, top 10 161, with
# a ", which ..." clause read as a sentence of its own), in session 84 (89 / 100 / 6, top 10 161, with the
# crawl taking open-source, licence, warranty and shipping pages among the fact pages), in session 83 (89 / 99 / 7:
# infomaniak 6 / 9 / 0 and bitwarden 10 / 5 / 0, measured blind; 73 / 85 / 7 of the 165 before them, in session 82: signals37 1 / 13 / 1, the
# others as in session 80: 72 / 72 / 6;
# 71 / 73 / 6 with values taken from sentences the offline model reads as stating the question,
# before a sentence in the first person on the company's own site was read as about it; 68 / 76 / 6 in session 71; 66 / 76 / 8 in session 66, 64 / 77 / 9 in session 65, 61 / 79 / 10 in session 64, 60 / 80 / 10
# in session 63). Their high-confidence answers' first statements are not all right (one of Purism's 2 does not hold
# the fact's words), so that is reported, not asserted: the targets are not met. Their high-confidence values,
# as enrich writes them in cells, were all right when measured (10 of 10, session 71; bench/ask.py's cell_verdict):
# that is asserted.
MEASURED_WRITTEN_HELD_OUT = (270, 15, 412)


# 31 sites gathered and 465 facts read (139 s alone in session 107; 30 and 450: 200 s alone in session 106; 29 and
# 435: 187 s in session 105; 28 and 420: 187 s in session 104; 27 and 405: 197 s; 26 and 390: 176 s alone in session
# 103; 24 and 360: 177 s alone in session 102;
# 23 sites 152 s in session 101; 21 sites took over 300 s on a worker beside the rest of the suite and two benchmarks in
# session 100).
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
    assert totals.facts == 465, totals.line()
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
