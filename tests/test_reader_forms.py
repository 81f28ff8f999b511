"""Ways English states a company fact that the offline reader reads by their grammar (issue 23, item 3): a title
whose words the parser splits ("chief executive"), a role given by a verb ("runs the company as ..."), a registry
number after "under", a mailbox named for its purpose, a footer's items, a legal name written as a web address,
the amount of a round, and the thing a question asks of ("the round", "the Pro plan"), said without the company's
name on its own pages. And the other side: a sentence about another plan than the one asked of is no answer."""

from __future__ import annotations

from datetime import date

import pytest

from cikb.answer.reader import Passage, read, read_asked, read_question
from cikb.answer.reader._licence import licences


def _own_page(question: str, title: str, *lines: str, company: str = "Acme Corp", as_of: date | None = None):
    return read(read_question(question, None, company),
                [Passage(line, rank, rank, title, as_of, own_site=True) for rank, line in enumerate(lines, start=1)])


def _given(reading) -> tuple[str, str] | None:
    return (reading.answer.value, reading.answer.confidence) if reading.answer is not None else None


def test_a_title_the_parser_splits_is_held_by_the_one_appointed_to_it():
    # "chief" modifies "executive": the title's owner and holder hang on "executive".
    line = "Acme Corp's supervisory board has appointed Dana Whitfield as the company's new chief executive."
    assert _given(_own_page("Who is the CEO of Acme Corp?", "Newsroom", line)) == ("Dana Whitfield", "medium")


def test_a_role_given_by_a_verb_on_the_companys_own_page_is_the_companys():
    line = "Priya Natarajan runs the company day to day as chief executive, and Tom Reyes looks after the workshop."
    assert _given(_own_page("Who is the CEO of Acme Corp?", "Team", line)) == ("Priya Natarajan", "medium")


def test_its_role_is_the_companys_when_the_holder_is_first_named_by_a_first_name():
    # "its" refers to the company, not to "Dana", the value itself named before by a first name only.
    line = ("Dana has built developer tools since 2005, and Dana Whitfield today steers the company as its chief "
            "executive.")
    assert _given(_own_page("Who is the CEO of Acme Corp?", "Team", line)) == ("Dana Whitfield", "medium")


def test_a_role_whose_owner_is_not_said_stays_unanswered():
    reading = _own_page("Who is the CEO of Acme Corp?", "Team", "The chief executive is Priya Natarajan.")
    assert reading.answer is None


@pytest.mark.parametrize(
    ("question", "line", "code"),
    [("What is Acme Corp's Chamber of Commerce (KvK) number?",
      "Acme Corp B.V. is registered with the Dutch Chamber of Commerce (KvK) under number 71234568.", "71234568"),
     ("What is the company registration number of Acme Corp?",
      "The company is entered in the Estonian Commercial Register under registry code 16012345.", "16012345"),
     ("What is Acme Corp's company number?",
      "Acme Corp Ltd is registered in England and Wales under company number 09876543.", "09876543"),
     ("What is Acme Corp's commercial register number?",
      "The company is entered in the commercial register of the Amtsgericht Potsdam under HRB 31234 P.", "HRB 31234 P"),
     ("What is Acme Corp's commercial register number?",
      "The company is entered in the commercial register of the Local Court of Leipzig under HRB 12345.", "HRB 12345"),
     ("What is Acme Corp's VAT ID?",
      "Our VAT identification number under § 27a of the German VAT Act is DE312345678.", "DE312345678"),
     ("What is Acme Corp's VAT ID?",  # the law's section written out, as English translations of an imprint do
      "Our VAT identification number under Section 27a of the German VAT Act is DE312345678.", "DE312345678")],
)
def test_a_registry_number_given_after_under_is_read(question: str, line: str, code: str):
    assert _given(_own_page(question, "Imprint", line)) == (code, "medium")


def test_a_mailbox_named_for_the_asked_purpose_is_the_one_asked_for():
    # The key term "support" is written only as the mailbox's name, far from the question's other words.
    lines = ("The quickest way to get help is to write to support@acme.example, and someone replies within a day.",
             "Acme Corp's email address for applications is jobs@acme.example.")
    assert _given(_own_page("What is Acme Corp's support email address?", "Contact", *lines)) == (
        "support@acme.example", "medium")


def test_a_footers_line_of_items_is_read_as_one_line_of_the_companys():
    line = "Acme Corp LLC · 410 Harbor Ave, Suite 12 · Portland, OR 97201 · USA"
    reading = _own_page("What is Acme Corp's mailing address?", "Contact", line)
    assert _given(reading) == ("410 Harbor Ave, Suite 12, Portland, OR 97201, USA", "medium")


def test_a_legal_name_written_as_a_web_address_is_the_companys():
    line = "These terms apply to all orders from our shop, operated by Stack.io, Inc., a Delaware corporation."
    reading = _own_page("What is the legal name of Stackio?", "Terms of sale", line, company="Stackio")
    assert _given(reading) == ("Stack.io, Inc.", "medium")


def test_on_its_own_site_the_brands_first_word_names_its_legal_entity():
    line = "The controller is Tallbird Insights OÜ, Pikk 12, 10123 Tallinn, Estonia."
    reading = _own_page("What is the legal name of the company behind Tallbird Analytics?", "Privacy", line,
                        company="Tallbird Analytics")
    assert _given(reading) == ("Tallbird Insights OÜ", "medium")


def test_the_lead_of_the_asked_round_is_read_from_the_rounds_own_sentence():
    # "investment" names the round (a noun), so the question asks who led it, not what Acme led.
    lines = ("Acme Corp has closed a €30 million equity round to grow its product range.",
             "The round was led by the Northwind Impact Fund, with participation from Kestrel Capital.")
    reading = _own_page("Who led Acme Corp's 2023 investment round?", "Acme Corp secures new investment", *lines,
                        as_of=date(2023, 1, 12))
    assert _given(reading) == ("Northwind Impact Fund", "medium")


@pytest.mark.parametrize("line", ["Acme Corp has closed a €30 million equity round to grow its product range.",
                                  "Acme Corp has closed an equity round of €30 million to grow its product range."])
def test_the_amount_of_a_round_is_what_quantifies_it(line: str):
    reading = _own_page("How much did Acme Corp raise in its 2023 funding round?", "Acme Corp secures new investment",
                        line, as_of=date(2023, 1, 12))
    assert _given(reading) == ("€30 million", "medium")


def test_a_price_of_the_asked_product_on_the_companys_own_site_is_its_price():
    line = "Starting today, the Model 7 will cost $249, up from $229."
    reading = _own_page("How much does the Acme Corp Model 7 cost?", "Price update", line)
    assert _given(reading) == ("$249", "medium")


def test_a_sentence_on_another_plan_does_not_answer_for_the_asked_one():
    lines = ("Once your list grows past that, the Basic plan covers up to 1,000 subscribers for $9 a month.",)
    reading = _own_page("How many subscribers does Acme Corp's free plan allow?", "Pricing", *lines)
    assert reading.answer is None and reading.unsure is not None and reading.unsure.value == "1,000"


def test_an_opening_word_of_time_does_not_hide_the_sentences_subject():
    line = "Today we are a small team working remotely, with our home base in Richmond, Virginia."
    reading = _own_page("Where is Acme Corp headquartered?", "About", line)
    assert reading.answer is not None and reading.answer.value == "Richmond, Virginia"


def test_a_house_number_with_a_letter_is_part_of_a_postal_address():
    line = "Our office and warehouse are at Lindenstraße 10 C, 14513 Teltow, just south of Berlin."
    reading = _own_page("What is Acme Corp's street address?", "Contact", line)
    assert _given(reading) == ("Lindenstraße 10 C, 14513 Teltow", "medium")


def test_an_address_after_the_companys_own_name_is_its_address():
    # "us" is the object, not the subject; the address is written to the company's name, as on an envelope.
    lines = ("Paper mail reaches us at Acme Corp, Inc., 2045 W Grand Ave, Suite B, Chicago, IL 60612.",
             "Acme Corp, Inc. · 2045 W Grand Ave, Suite B · Chicago, IL 60612 · USA")  # the same address, and its country
    reading = _own_page("What is Acme Corp's mailing address?", "Contact", *lines)
    assert _given(reading) == ("2045 W Grand Ave, Suite B, Chicago, IL 60612", "medium")


def test_the_asked_plan_by_its_own_name_on_the_pricing_page_is_answered():
    line = "The Starter plan costs $19 a month and covers up to 20,000 downloads across all of your shows."
    assert _given(_own_page("How much does Acme Corp's Starter plan cost?", "Pricing", line)) == ("$19", "medium")


def test_plans_in_general_do_not_price_the_asked_one():
    reading = _own_page("How much is Acme Corp's Professional plan per month?", "Pricing", "Plans start at $19 a month.")
    assert reading.answer is None and reading.unsure is not None and reading.unsure.value == "$19"


@pytest.mark.parametrize(("question", "price"), [("How much does Acme Corp's Business plan cost?", "$99"),
                                                  ("How much is Acme Corp's Professional plan per month?", "$49")])
def test_each_plan_of_a_pricing_line_has_its_own_price(question: str, price: str):
    # The parse gives each amount its own doer: "Professional runs $49", "Business is $99".
    line = "For growing shows, Professional runs $49 monthly, and Business is $99 each month with priority support."
    assert _given(_own_page(question, "Pricing", line)) == (price, "medium")


def test_the_price_of_another_plan_or_for_another_period_is_no_value_at_all():
    starter = _own_page("How much does Acme Corp's Business plan cost?", "Pricing",
                        "The Starter plan costs $19 a month.")
    yearly = _own_page("How much is Acme Corp's Pro plan per month?", "Pricing", "The Pro plan costs $90 a year.")
    assert starter.answer is None and starter.unsure is None and yearly.answer is None and yearly.unsure is None
    # "year" is a filler word of the question reader ("What year ...?"): asked per year, it is still the period.
    for question in ("How much does Acme Corp's Pro plan cost per year?", "How much is Acme Corp's Pro plan annually?"):
        monthly = _own_page(question, "Pricing", "The Pro plan costs $12 per month.")
        assert monthly.answer is None and monthly.unsure is None, question  # "$12" was given at medium


@pytest.mark.parametrize("line", ["The entry-level Growth plan costs $9 a month and covers 10,000 pageviews.",
                                  "Plans start at $9 a month.", "Our cheapest plan, Starter, costs $9 a month.",
                                  "The lowest-priced plan is $9 a month.", "Paid plans start from $9/month."])
def test_the_cheapest_plan_is_the_one_the_page_ranks_lowest(line: str):
    # "the cheapest plan" asks no plan by name: a named plan the line ranks lowest ("entry-level") is the one asked of.
    for question in ("How much does Acme Corp's cheapest plan cost per month?", "What is the price of Acme Corp's cheapest plan?"):
        assert _given(_own_page(question, "Pricing", line)) == ("$9", "medium"), question


def test_a_plan_the_page_does_not_rank_lowest_is_not_the_cheapest():
    for line in ("The Growth plan costs $9 a month.", "The Basic plan costs $9 a month."):
        reading = _own_page("How much does Acme Corp's cheapest plan cost per month?", "Pricing", line)
        assert reading.answer is None and reading.unsure is None, line


def test_the_price_of_the_item_without_the_name_that_tells_the_asked_one_is_anothers():
    # The sentence names the Beacon Pro too: the $99 is the plain Beacon's (it was given for the Pro at medium).
    both = "The Acme Beacon costs $99 and the Beacon Pro $199."
    assert _own_page("How much does the Acme Beacon Pro cost?", "Shop", both).answer is None
    assert _given(_own_page("How much does the Acme Beacon cost?", "Shop", both))[0] == "$99"


def test_a_filler_word_the_question_capitalises_is_a_name():
    # "business" asks nothing in "What business is Acme Corp in?"; "the Business plan" names a plan. A title-cased
    # header capitalises every word.
    assert "busi" in read_question("How much does Acme Corp's Business plan cost?", None, "Acme Corp").terms
    assert "year" not in read_question("What Year Was Acme Corp Founded?", None, "Acme Corp").terms
    assert read_question("How much is Acme Corp's Pro plan per month?", None, "Acme Corp").kind == "money"


@pytest.mark.parametrize(("line", "count"), [
    ("Altogether there are 16 of us, and nobody has a manager in the traditional sense.", "16"),
    ("That makes seven of us, spread between Oakland, Budapest and Shenzhen.", "seven")])
def test_a_count_of_us_on_the_companys_own_site_is_its_headcount(line: str, count: str):
    # medium at most: "us" are the writers, staff most likely, but not said to be employees
    assert _given(_own_page("How many employees does Acme Corp have?", "Team", line)) == (count, "medium")


def test_one_of_us_is_no_headcount():
    reading = _own_page("How many employees does Acme Corp have?", "Contact", "One of us will reply within a day.")
    assert reading.answer is None


def test_a_team_counted_on_the_companys_own_site_is_its_headcount():
    line = "Today a team of more than 30 people designs, assembles and ships our devices from our premises near Berlin."
    assert _given(_own_page("How many employees does Acme Corp have?", "About", line)) == ("30", "medium")


PLANT = "What began as two engineers in a garage has grown into a 20,000 square foot plant in Leeds, where {} every radio."


@pytest.mark.parametrize(("who", "own_site", "value"), [
    ("we build", True, "20,000"),  # "we" on Acme's own site is Acme: the sentence is about it
    ("we build", False, None),  # another site's "we" is that site's writer
    ("Initech builds", True, None),  # the plant of the organisation that builds them, as far as the reader can tell
    ("our partner Initech Ltd builds", True, None),
])
def test_a_sentence_in_the_first_person_on_the_companys_own_site_is_about_the_company(who, own_site, value):
    passage = Passage(PLANT.format(who), 1, 1, "Our story", own_site=own_site)
    reading = read(read_question("How big is Acme Corp's plant?", None, "Acme Corp"), [passage])
    assert (reading.answer.value if reading.answer else None) == value, reading.unsure


def test_another_organisations_team_is_no_headcount():
    line = "A team of 12 engineers at Globex Corp uses our product every day."
    assert _own_page("How many employees does Acme Corp have?", "Customers", line).answer is None


def test_an_address_a_dated_post_gave_before_does_not_rival_the_one_read_today():
    contact = Passage("Our office is at Jollemanhof 17, 1019 GW Amsterdam, a short walk from the station.", 1, 1,
                      "Contact", date(2026, 12, 1), own_site=True)
    moved = Passage("From this month, the team can be found at Piet Heinkade 181A, 1019 HC Amsterdam.", 2, 2,
                    "Acme Corp moves to a new office", date(2016, 4, 4), own_site=True)
    reading = read(read_question("What is Acme Corp's street address?", None, "Acme Corp"), [contact, moved])
    assert _given(reading) == ("Jollemanhof 17, 1019 GW Amsterdam", "medium")
    asked_then = read(read_question("What was Acme Corp's street address in 2016?", None, "Acme Corp"),
                      [contact, moved])
    assert asked_then.answer is None or asked_then.answer.value != "Jollemanhof 17, 1019 GW Amsterdam"


@pytest.mark.parametrize(("company", "line"), [
    ("Acme Corp", "These terms apply to all orders from our shop, run by Acme Corp, Inc., a Delaware corporation."),
    ("Acme Corp", "Acme Corp, Inc. is a Delaware corporation."),
    # the parse hangs "a Delaware corporation" on "Inc.": the legal form is the name's before it
    ("Keyboardio", "These terms apply to all purchases from shop.keyboard.io, operated by Keyboard.io, Inc., "
                   "a Delaware corporation.")])
def test_the_place_a_company_is_a_corporation_of_is_where_it_is_incorporated(company: str, line: str):
    reading = _own_page(f"In which state is {company} incorporated?", "Terms", line, company=company)
    # "state" is the answer's grain: a line that says in so many words that it is a Delaware corporation is read
    # with high confidence since session 97, one that names it beside the terms it is in with medium
    assert reading.answer is not None and reading.answer.value == "Delaware" and reading.answer.confidence != "low"


def test_another_bodys_place_of_incorporation_is_not_the_companys():
    line = "Globex, a Delaware corporation, bought Acme Corp."
    reading = _own_page("In which state is Acme Corp incorporated?", "News", line)
    assert reading.answer is None


@pytest.mark.parametrize(("line", "named"), [
    ("Acme Corp is licensed under the GNU Affero General Public License v3.0.",
     ["GNU Affero General Public License v3.0"]),
    ("Kaleidoscope is released under the GNU General Public License, version 3.",
     ["GNU General Public License, version 3"]),
    ("It may be used under either the Apache 2.0 or the MIT licence.", ["Apache 2.0", "MIT licence"]),
    ("The firmware is released under the GPL.", ["GPL"]),
    ("The client libraries are MIT-licensed.", ["MIT"]),
    ("Zammad is AGPLv3 licensed software.", ["AGPLv3"]),
    # An identifier of several parts, its parts joined by hyphens or spaces, and a name the list writes apart
    ("The board designs are released under the CERN-OHL-S v2 licence.", ["CERN-OHL-S v2 licence"]),
    ("The photos are licensed under CC BY-SA 4.0.", ["CC BY-SA 4.0"]),
    ("Acme Corp is BSD-3-Clause licensed.", ["BSD-3-Clause"]),
    ("It is published under the BSD 3-Clause licence.", ["BSD 3-Clause licence"]),  # not "Clause licence"
    ("The text is licensed Creative Commons Attribution-ShareAlike 4.0.",
     ["Creative Commons Attribution-ShareAlike 4.0"]),
    ("We rewrote the backend in PHP 8 under pressure.", []),  # a language, not a licence
    ("MIT researchers reviewed our license terms.", []),
])
def test_licences_are_read_by_the_spdx_lists_names_and_identifiers(line: str, named: list[str]):
    assert [licence.text for licence in licences(line)] == named


def test_a_licence_by_its_name_or_its_identifier_is_one_value():
    (by_name,), (by_id,) = licences("the GNU Affero General Public License v3.0 applies"), licences("AGPL-3.0 licensed")
    assert by_name.key == by_id.key == "AGPL 3"
    (by_name,), (by_id,) = (licences("under Creative Commons Attribution Share Alike 4.0 International"),
                            licences("licensed under CC-BY-SA-4.0"))
    assert by_name.key == by_id.key == "CC-BY-SA 4"


def test_the_licence_the_code_is_under_now_is_read_over_the_one_it_was_under():
    lines = ("Until today Acme Corp was available under the permissive MIT license.",
             "As of this week, Acme Corp is licensed under the GNU Affero General Public License v3.0.")
    reading = _own_page("What licence is the Acme Corp source code released under?", "Why we moved to the AGPL", *lines)
    assert read_question("Under what licence is Acme Corp's firmware released?", None, "Acme Corp").kind == "licence"
    assert _given(reading) == ("GNU Affero General Public License v3.0", "medium")


def test_licences_offered_together_are_one_value():
    line = "Acme Corp's firmware may be used under either the Apache 2.0 or the MIT licence, at your choice."
    reading = _own_page("Under what licence is Acme Corp's firmware released?", "Firmware", line)
    assert _given(reading) == ("Apache 2.0 or the MIT licence", "medium")


def test_a_count_of_the_people_who_make_a_thing_is_no_count_of_the_thing():
    # Snowball stems "podcasters" and "podcasts" alike; the agent noun counts people.
    question = "How many podcasts are hosted on Acme Corp?"
    beta = _own_page(question, "Launch",
                     "After a private beta with 200 podcasters, Acme Corp is now open for everyone.")
    hosted = _own_page(question, "About", "Acme Corp hosts more than 5,000 podcasts.")
    assert beta.answer is None and hosted.answer is not None and hosted.answer.value == "5,000"


def test_a_clause_that_dates_the_founding_by_an_earlier_date_of_the_sentence_is_dated_by_it():
    # "that summer" is the spring of 2019's summer; "we formed the company" on its own site is the company's founding.
    line = ("I joined him in the spring of 2019 to take care of marketing, and we formed the company together that "
            "summer.")
    assert _given(_own_page("When was Acme Corp founded?", "How we started", line)) == ("2019", "medium")
    other = "I joined him in the spring of 2019, and we formed a partnership with Globex that summer."
    assert _own_page("When was Acme Corp founded?", "How we started", other).answer is None


def test_asked_how_things_are_a_post_dated_years_before_the_pages_read_today_goes_last():
    old = Passage('"Acme Corp has grown into a company with more than thirty employees," says its founder.', 1, 1,
                  "Acme Corp turns five", date(2015, 6, 1), own_site=True)
    team = Passage("Altogether there are 72 of us, spread over three offices.", 2, 2, "Team", date(2026, 11, 30),
                   own_site=True)
    question = read_question("How many employees does Acme Corp have?", None, "Acme Corp")
    assert read(question, [old, team]).answer.value == "72"
    alone = read(question, [old, Passage("Contact us any time.", 2, 2, "Contact", date(2026, 11, 30), own_site=True)])
    assert alone.answer is not None and alone.answer.value == "thirty" and alone.answer.confidence != "high"
    # Asked when something happened, an old post dates it as well as any
    when = read(read_question("When did Acme Corp open its Lisbon office?", None, "Acme Corp"),
                [Passage("Acme Corp opened its Lisbon office in March 2014.", 1, 1, "News", date(2014, 3, 2),
                         own_site=True), team])
    assert when.answer is not None and when.answer.value == "March 2014"


def test_a_code_another_identifier_labels_or_another_body_holds_is_not_the_asked_one():
    question = "What is Acme Corp's company registration number?"
    lines = ("Its registered office is in Gothenburg, and it is registered for VAT under number SE559160341701.",
             "All shares in Acme Corp AB are held by Globex AB (corporate identity number 556865-8814).",
             "The company is registered with the Swedish Companies Registration Office under corporate identity number "
             "559160-3417.")
    assert _given(_own_page(question, "Imprint", *lines)) == ("559160-3417", "medium")
    vat_only = read_asked(question, [Passage(lines[0], 1, 1, "Imprint", None, own_site=True)], company="Acme Corp")
    assert vat_only.answer is None  # nor read again as a count or an organisation's name ("SE559160341701")
    # The asked name as the end of another's: a VAT registration number is no registration number (read at medium).
    vat = read_asked(question, [Passage("Acme Corp Ltd, VAT registration number GB 123 4567 89.", 1, 1, "Imprint", None,
                                        own_site=True)], company="Acme Corp")
    assert vat.answer is None


def test_singapores_unique_entity_number_is_its_company_registration_number():
    line = "Its Unique Entity Number (UEN) is 201310498K."
    reading = _own_page("What is Acme Corp's company registration number?", "Legal notice",
                        "Acme Corp Ltd is a company.", line)
    assert _given(reading) == ("201310498K", "medium")
    sam = _own_page("What is Acme Corp's unique entity identifier?", "Contracting",
                    "SAM Unique Entity ID: F1QZXZNLZJF2")
    assert _given(sam) == ("F1QZXZNLZJF2", "medium")


def test_asked_who_did_it_a_sentence_with_the_deed_only_as_a_noun_names_its_doer_or_none():
    # "an independent security audit of its apps for Windows" names no auditor: Windows is what the apps are for.
    question = "Which security firm audited Acme Corp's VPN apps in 2020?"
    opening = ("GOTHENBURG – Acme Corp today published the full report from an independent security audit of its "
               "VPN apps")
    nobody = _own_page(question, "News", opening + " for Windows, macOS, Linux, Android and iOS.")
    by = _own_page(question, "News", opening + " by Trail of Bits.")
    assert nobody.answer is None and nobody.unsure is None
    assert [span.text for span in by.sentences[0].spans] == ["Trail of Bits"]


def test_a_price_lists_line_names_its_plan_before_the_amount():
    line = "Creator, $29 per month: for growing publications, with custom themes and integrations."
    assert _given(_own_page("How much does Acme Corp's Creator plan cost per month?", "Pricing", line)) == ("$29",
                                                                                                           "medium")
    other = "Starter, $9 per month: for a first publication."
    assert _own_page("How much does Acme Corp's Creator plan cost per month?", "Pricing", other).answer is None


def test_asked_what_the_company_costs_a_price_for_a_period_on_its_own_site_answers():
    question = "How much does Acme Corp cost per month?"
    line = "Every account costs a flat 5 euros a month, whether you add one month at a time or a full year."
    assert _given(_own_page(question, "Pricing", line)) == ("5 euros", "medium")
    two = _own_page(question, "Pricing", "The Basic plan costs $9 a month.", "The Pro plan costs $29 a month.")
    assert two.answer is None or two.answer.confidence == "low"  # which plan is asked is not known


def test_a_negation_in_a_clause_beside_the_founding_does_not_deny_it():
    question = "When was the Acme Foundation founded?"
    purpose = ("The Acme Foundation was set up in 2013 as a non-profit organisation, so that no investor could ever "
               "sell the project to the highest bidder.")
    reading = _own_page(question, "About", purpose)
    assert not reading.sentences[0].negated
    assert _given(reading) is not None and _given(reading)[0] == "2013"
    denied = _own_page(question, "About", "The Acme Foundation was not set up in 2013, whatever the old site said.")
    assert denied.sentences[0].negated


def test_asked_when_the_company_started_doing_something_the_sentence_need_not_say_started():
    question = "When did Acme Corp start offering WireGuard?"
    line = "We became the first commercial VPN to offer WireGuard back in 2017, long before it was in the Linux kernel."
    assert _given(_own_page(question, "About", line)) == ("2017", "medium")
    assert "start" not in read_question(question, None, "Acme Corp").terms
    assert "began" in read_question("Who began spring training in Hot Springs in 1886?", None, "Acme Corp").terms


def test_a_co_founder_after_the_name_is_no_legal_form():
    question = "What is the legal name of the company behind Acme?"
    reading = _own_page(question, "About", "Acme GmbH is a private limited company registered in Berlin.",
                        "Acme co-founder Jane Roe hands over the day-to-day running of the company.", company="Acme")
    assert _given(reading) == ("Acme GmbH", "medium")


def test_asked_of_one_model_a_sentence_on_another_model_is_no_answer():
    question = "How long is the Acme 5 warranty?"
    assert _own_page(question, "History", "2021 – Acme 4 comes with a five-year warranty").answer is None
    listed = _own_page(question, "News",
                       "The Acme 3, 4 and 5 each come with a two-year warranty, twice the legal minimum.")
    assert _given(listed) is not None and _given(listed)[0] == "two-year"


def test_a_price_from_which_plans_start_is_read_for_the_cheapest_plan():
    # "from $9" ranks the amount lowest as "start at" does: read (here `low`: no plan named), not set aside.
    reading = _own_page("How much does Acme Corp's cheapest plan cost per month?", "Pricing", "Paid plans from $9 a month.")
    assert reading.unsure is not None and reading.unsure.value == "$9"


def test_a_count_a_dated_post_gives_yields_to_another_a_newer_page_gives() -> None:
    # Asked how many there are now: the 2016 post's "now" is 2016's; the home page, a fact page, is dated the day it
    # was read (ChunkMetadata.as_of).
    post = Passage("Acme now has more than 200,000 customers.", 0, 1, "Thank you: 200,000 customers",
                   as_of=date(2016, 11, 24), own_site=True)
    line = "More than 480,000 customers now use Acme for their everyday email."
    home = Passage(line, 1, 2, "Acme", as_of=date(2026, 12, 6), own_site=True)
    reading = read_asked("How many customers does Acme have?", [post, home], company="Acme")
    assert reading.answer is None or reading.answer.value == "480,000"
    # Alone, or beside a page not known to be newer, the post's count is given.
    assert _given(read_asked("How many customers does Acme have?", [post], company="Acme")) is not None
    undated = Passage(line, 1, 2, "Acme", own_site=True)
    assert _given(read_asked("How many customers does Acme have?", [post, undated], company="Acme")) is not None


def test_a_price_in_euro_words_is_money() -> None:
    reading = _own_page("How much does an Acme mailbox cost?", "Pricing", "An Acme mailbox costs 1 euro per month.")
    assert _given(reading) == ("1 euro", "medium")


def test_a_town_with_its_river_in_its_name_is_one_place() -> None:
    line = "All customer data are stored on servers we own in a data centre in Frankfurt am Main, Germany."
    reading = _own_page("Where does Acme store its customers' data?", "Security", line)
    assert _given(reading) == ("Frankfurt am Main, Germany", "medium")


def test_an_amount_in_words_counts_nothing() -> None:
    # "one euro a month" is a price in words: no count of users, though "users" is the question's word.
    reading = _own_page("How many users does Acme have?", "Pricing", "Acme users pay one euro a month for a mailbox.")
    assert reading.answer is None


@pytest.mark.parametrize("question", [
    "What is the cheapest Acme Online subscription price?",  # the head noun, last of the phrase
    "What is the cheapest Acme price?",
    "What is the price of the cheapest Acme plan?",
])
def test_what_is_the_price_asks_for_money_however_many_words_come_before_it(question: str) -> None:
    assert read_question(question, None, "Acme").kind == "money"
    # A noun after a preposition is no head: "What is the name of its pricing page?" asks for no amount.
    assert read_question("What is the name of Acme's pricing page?", None, "Acme").kind != "money"


def test_a_price_asked_with_its_head_noun_last_is_read_as_an_amount() -> None:
    reading = _own_page("What is the cheapest Acme Online subscription price?", "Pricing",
                        "Acme Online subscriptions are priced per user per year.",
                        "Acme Online subscriptions start at €18 per user per year.", company="Acme")
    assert reading.answer is not None and reading.answer.value == "€18"


def test_paying_customers_are_counted_by_those_who_pay_for_the_company() -> None:
    # The small parser reads "How many paying customers" as "many" qualifying the participle, with "customers" its
    # object; the counted noun is then "customers", and the participle says what those counted do.
    line = "More than 3,000 organisations pay for Acme Corp."
    assert _given(_own_page("How many paying customers does Acme Corp have?", "About", line)) == ("3,000", "medium")
    assert _given(_own_page("How many paying subscribers does Acme Corp have?", "About", line)) == ("3,000", "medium")
    # A count of those who pay another company counts none of Acme's.
    assert _given(_own_page("How many paying customers does Acme Corp have?", "About",
                            "More than 3,000 organisations pay for Globex.")) is None


def test_a_price_said_to_be_the_lowest_in_other_words_is_the_cheapest() -> None:
    # "most affordable" (as "least expensive") ranks a price lowest as "cheapest" does.
    line = "The Basic plan is the most affordable plan at $9 a month."
    assert _given(_own_page("How much does the cheapest Acme Corp plan cost?", "Pricing", line)) == ("$9", "medium")
    # The most expensive plan's price is no answer.
    assert _given(_own_page("How much does the cheapest Acme Corp plan cost?", "Pricing",
                            "The Scale plan is the most expensive plan at $99 a month.")) is None


@pytest.mark.parametrize("line", [
    "The registered office of Acme GmbH is at Gladbacher Straße 74, 40219 Düsseldorf, Germany.",
    "The registered office of Acme, Inc. is at Gladbacher Straße 74, 40219 Düsseldorf, Germany.",
])
def test_the_legal_form_after_the_companys_name_is_of_its_name(line: str) -> None:
    # "Acme GmbH" is Acme: its legal form stands between the predicate and the value as its name does.
    assert _given(_own_page("What is the registered address of Acme?", "Imprint", line, company="Acme")) == (
        "Gladbacher Straße 74, 40219 Düsseldorf", "medium")
    # Another body's registered office, with its legal form, is not Acme's.
    other = line.replace("Acme", "Globex")
    assert _given(_own_page("What is the registered address of Acme?", "Imprint", other, company="Acme")) is None


def test_a_role_conjoined_to_another_is_owned_by_the_first_ones_possessor() -> None:
    # "Acme Corp's founder and chief executive": the parse hangs the possessive on "founder" alone.
    line = "Jane Roe is Acme Corp's founder and chief executive, and sits on the board of the Open Data Trust."
    assert _given(_own_page("Who is the CEO of Acme Corp?", "Team", line)) == ("Jane Roe", "medium")
    # Another company's founder and chief executive is not Acme's.
    other = "Jane Roe is Globex's founder and chief executive, and sits on the board of the Open Data Trust."
    assert _given(_own_page("Who is the CEO of Acme Corp?", "Team", other)) is None


def test_a_participle_that_describes_a_noun_is_no_predicate() -> None:
    # "wholly owned" describes the subsidiary: Globex is named after "of", not as what Acme owns.
    line = "Acme Corp is a wholly owned subsidiary of Globex."
    assert _given(_own_page("Which company owns Acme Corp?", "About", line)) == ("Globex", "high")
    # Owned the other way, it is no answer.
    assert _given(_own_page("Which company owns Acme Corp?", "About", "Acme Corp owns Globex.")) is None
