"""A press release's dateline dates it where its markup does not (the clean stage's ``published``): the line
under its heading that is a whole date, at most a place before it. No other date in the text does."""

from __future__ import annotations

import pytest

from cikb.clean.extraction import dateline, extract


@pytest.mark.parametrize(
    ("markdown", "day"),
    [("# Acme raises €30 million\n\n*Amsterdam, 12 January 2023*\n\nAcme has closed ...", "2023-01-12"),
     ("# Kickstarter results\n\nOakland, CA, May 4, 2015\n\nThank you!", "2015-05-04"),
     ("# New office\n\nBerlin, 3 March 2016 – Acme GmbH today announced its move.", "2016-03-03"),
     ("# Release\n\nPosted on 2021-03-03\n\nText.", "2021-03-03")],
)
def test_a_dateline_dates_the_announcement(markdown: str, day: str):
    assert str(dateline(markdown)) == day


@pytest.mark.parametrize(
    "markdown",
    ["# Privacy\n\nLast updated: 1 March 2023\n\nWe collect ...",  # an edit's date, not the page's
     "# About\n\nWe grew a lot in 2021.\n\nFounded 12 May 2013",  # a date in the text, not a dateline
     "# About\n\nOur story began in a garage.\n\nWe moved twice.\n\n12 May 2013"],  # not among the first lines
)
def test_a_date_that_is_no_dateline_dates_nothing(markdown: str):
    assert dateline(markdown) is None


def test_an_extracted_announcement_is_dated_by_its_dateline():
    html = ("<html><head><title>Acme raises €30 million</title></head><body><nav><a href='/'>Home</a></nav><main>"
            "<article><h1>Acme raises €30 million</h1><p><em>Amsterdam, 12 January 2023</em></p>"
            "<p>Acme has closed a €30 million equity round that will allow the company to grow its product range, "
            "expand into new markets and hire forty more engineers over the next two years.</p>"
            "<p>The round was led by the Northwind Impact Fund, with participation from Kestrel Capital and two "
            "pension funds that have backed the company since its seed round.</p></article></main></body></html>")
    extracted = extract(html, "https://acme.example/press/acme-raises/")
    assert extracted is not None and str(extracted.published) == "2023-01-12"
