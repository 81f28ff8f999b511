"""The reader on what session 66's blind sites showed (MNT Research, Healthchecks.io, Nextcloud and teenage engineering,
written for the bench): names written in letters beyond ASCII, a founder's card on a team page, a German
register's number after the court that keeps it, and a news index's dated line. Sentences written for these tests."""

from __future__ import annotations

from datetime import date

import pytest

from cikb.answer.reader import Passage, read, read_question
from cikb.answer.reader._spans import spans


def _read(question: str, *texts: str, company: str = "Acme", title: str = ""):
    q = read_question(question, None, company, (), ())
    return read(q, [Passage(t, i, i + 1, title, own_site=True) for i, t in enumerate(texts)])


@pytest.mark.parametrize("name", ["Pēteris Caune", "Jürgen Müller", "Ana Ćosić", "Łukasz Żak", "Josef Průša"])
def test_a_name_in_letters_beyond_ascii_is_a_persons_name(name: str) -> None:
    q = read_question("Who founded Acme?", None, "Acme")
    assert [span.text for span in spans(q, f"{name} founded the company in 2009.")] == [name]


def test_a_founders_card_on_the_team_page_names_who_founded_it() -> None:
    team = "## Team\n\nPēteris Caune — Founder & Director\n\nLaura Ozola — Billing & Operations"
    answer = _read("Who founded Acme?", team, title="Team").answer
    assert answer is not None and answer.value == "Pēteris Caune"


def test_a_co_founders_card_is_half_an_answer_to_who_founded_it() -> None:
    team = "## Team\n\nJon Williamson — Co-founder\n\nLaura Ozola — Billing & Operations"
    reading = _read("Who founded Acme?", team, title="Team")
    assert reading.answer is None
    assert reading.unsure is not None and reading.unsure.value == "Jon Williamson"


@pytest.mark.parametrize(("sentence", "number"), [
    ("Registered at the local court (Amtsgericht) Stuttgart under HRB 738291.", "HRB 738291"),
    ("Entered in the register of associations of the local court of Berlin under VR 36929 B.", "VR 36929 B"),
])
def test_a_german_registers_number_is_the_commercial_register_number(sentence: str, number: str) -> None:
    answer = _read("What is Acme's commercial register number?", "Acme GmbH, Hauptstraße 4, 70192 Stuttgart",
                   sentence, title="Acme").answer
    assert answer is not None and answer.value == number


def test_an_imprint_tables_rows_answer_for_its_codes() -> None:
    imprint = ("# Company details\n\nThe service is provided by Acme SIA, a limited liability company registered in "
               "Latvia.\n\n| Company name | Acme SIA |\n|---|---|\n| Registration number | 40103980741 |\n"
               "| VAT number | LV40103980741 |\n| Registered address | Brīvības iela 68-12, Rīga, LV-1011, Latvia |")
    vat = _read("What is Acme's VAT number?", imprint, title="Company details").answer
    assert vat is not None and vat.value == "LV40103980741"
    registration = _read("What is Acme's company registration number?", imprint, title="Company details").answer
    assert registration is not None and registration.value == "40103980741"


def test_a_register_number_is_not_asked_for_the_vat_number() -> None:
    reading = _read("What is Acme's VAT number?", "Registered at the local court of Stuttgart under HRB 738291.",
                    title="Acme")
    assert reading.answer is None


def test_a_dated_line_of_a_news_index_read_today_says_how_things_were_then() -> None:
    # The index is dated the day it was read; its item's own date says when the count held.
    index = Passage("# News\n\n- 9 September 2020: Acme passes 60 employees\n- 3 March 2019: Acme moves to Berlin",
                    0, 1, "News", as_of=date(2026, 12, 1), own_site=True)
    post = Passage("Berlin, 20 December 2024 – Acme ends 2024 with a workforce that has grown to about 170 employees.",
                   1, 2, "Acme closes a record year", as_of=date(2024, 12, 20), own_site=True)
    answer = read(read_question("How many employees does Acme have?", None, "Acme"), [index, post]).answer
    assert answer is not None and answer.value == "170"
