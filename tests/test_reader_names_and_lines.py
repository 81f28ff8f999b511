"""The reader on what session 64's new tuning sites showed (Cal.com, Mastodon, Olimex, pretix as written for
bench/sites): a company named by the legal name its own pages give it (in ask and in enrich), an identifier's line
however its name is worded, a count that sizes other things, a price on another product's page, a team card's name,
and an address asked where the company was incorporated. Sentences written for these tests."""

from __future__ import annotations

from answer_helpers import scored_chunk
from cikb.answer.reader import Passage, read, read_question
from cikb.core.identity import CompanyIdentity
from cikb.enrich import enrich_table


def _read(question: str, *texts: str, company: str = "pretix", aliases: tuple[str, ...] = (), title: str = "",
          headings: tuple[str, ...] = ()):
    q = read_question(question, None, company, (), aliases)
    return read(q, [Passage(t, i, i + 1, title, own_site=True, headings=headings) for i, t in enumerate(texts)])


def test_a_sentence_naming_the_company_by_its_legal_name_is_about_the_company() -> None:
    founded = "Raphael Michel and Martin Gross founded rami.io GmbH in 2017 to turn the project into a business."
    with_name = _read("Who are the co-founders of pretix?", founded, aliases=("rami.io GmbH",)).answer
    assert with_name is not None and with_name.value == "Raphael Michel and Martin Gross"
    # Without the name its imprint gives it, rami.io GmbH is another company: its founders are not pretix's.
    assert _read("Who are the co-founders of pretix?", founded).answer is None


def test_asked_for_its_legal_name_the_reader_still_sees_that_name() -> None:
    said = "The legal name of Acme is Acme Widgets GmbH."
    answer = _read("What is the legal name of Acme?", said, company="Acme", aliases=("Acme Widgets GmbH",)).answer
    assert answer is not None and answer.value == "Acme Widgets GmbH"


def test_of_two_values_voted_for_alike_the_one_stated_in_the_questions_own_word_is_given() -> None:
    # (One passage: the two sentences of one page, as likely to answer.)
    page = ("pretix began in 2014 as a hobby project of two students at Heidelberg University. Raphael Michel and "
            "Martin Gross founded rami.io GmbH in 2017 to turn the project into a sustainable business.")
    answer = _read("When was the pretix company founded?", page, aliases=("rami.io GmbH",)).answer
    assert answer is not None and answer.value == "2017"


def test_an_identifiers_line_is_the_companys_however_long_its_label() -> None:
    vat = "VAT identification number according to § 27a of the German VAT Act: DE336918027"
    answer = _read("What is Mastodon gGmbH's VAT ID?", vat, company="Mastodon", title="Imprint").answer
    assert answer is not None and answer.value == "DE336918027"
    ein = "US Employer Identification Number 85-3461907."
    answer = _read("What is Acme's Employer Identification Number?", ein, company="Acme", title="Imprint").answer
    assert answer is not None and answer.value == "85-3461907"


def test_a_count_of_teams_or_of_things_a_measure_sizes_is_no_headcount() -> None:
    teams = "2025-05-20 — Acme passes 40,000 paying teams"
    assert _read("How many employees does Acme have?", teams, company="Acme").answer is None
    agencies = "From two-person agencies to hospitals, tens of thousands of organisations run their bookings on Acme."
    assert _read("How many employees does Acme have?", agencies, company="Acme").answer is None
    team = "Acme is a bootstrapped two-person team in Lisbon."
    answer = _read("How many employees does Acme have?", team, company="Acme").answer
    assert answer is not None and answer.value == "two"


def test_a_price_under_another_products_heading_is_that_products() -> None:
    price = "Price: €59.00 including VAT."
    other = _read("How much does the Nitrokey 3A NFC cost?", price, company="Nitrokey", title="Nitrokey Pro 2",
                  headings=("Nitrokey Pro 2",))
    assert other.answer is None
    own = _read("How much does the Nitrokey 3A NFC cost?", price, company="Nitrokey", title="Nitrokey 3A NFC",
                headings=("Nitrokey 3A NFC",))
    assert own.answer is not None and own.answer.value == "€59.00"


def test_a_team_cards_name_the_recogniser_leaves_unlabelled_is_still_a_persons() -> None:
    card = "Renaud Chaput — Chief Technology Officer"  # the small model reads no person in it
    answer = _read("Who is Mastodon's CTO?", card, company="Mastodon", title="Our team").answer
    assert answer is not None and answer.value == "Renaud Chaput" and answer.confidence == "medium"
    # A department's card names no one.
    assert _read("Who is Mastodon's CTO?", "Platform Team — Chief Technology Officer", company="Mastodon",
                 title="Our team").answer is None


def test_an_address_says_where_the_company_is_not_where_it_was_incorporated() -> None:
    address = "Cal.com, Inc., 2261 Market Street #5039, San Francisco, CA 94114, United States"
    letters = f"Letters and legal notices can be sent to {address}."  # two pages agreeing make it no surer
    asked = "In which US state is Cal.com incorporated?"
    assert _read(asked, address, letters, company="Cal.com", title="Imprint").answer is None
    answer = _read("Where is Cal.com headquartered?", address, letters, company="Cal.com", title="Imprint").answer
    assert answer is not None and "2261 Market Street" in answer.value


class _KnowledgeBaseOfPretix:
    """One company, gathered as pretix, whose imprint names rami.io GmbH (an alias, as cikb.clean.facts finds it)."""

    def resolve(self, name: str, website: str | None = None):
        return CompanyIdentity(slug="pretix", name="pretix", aliases=("rami.io GmbH",)) if name == "pretix" else None

    def search(self, question: str, company: str | None):
        about = "Raphael Michel and Martin Gross founded rami.io GmbH in 2017 to turn the project into a business."
        return [scored_chunk(about, 1, company="pretix", title="About pretix")]


def test_enrich_reads_the_company_under_its_other_names_as_ask_does(tmp_path) -> None:
    table = tmp_path / "companies.csv"
    table.write_text("Company\npretix\n", encoding="utf-8")
    proposal = enrich_table(table, "Founders", question="Who founded {Company}?", column_type="text",
                            kb=_KnowledgeBaseOfPretix(), web=None, llm=None)
    assert proposal.research_log[0].value == "Raphael Michel and Martin Gross"


def test_a_bio_that_names_its_person_by_first_name_is_read_as_the_card_names_them() -> None:
    # A team page's card: the name as its heading, then a bio that calls the person by first name.
    card = "## Ilse Marchetti\n\nIlse has been Kestrel's managing director since day one and still packs orders."
    answer = _read("Who is the managing director of Kestrel?", card, company="Kestrel").answer
    assert answer is not None and answer.value == "Ilse Marchetti"
    # Quoted as written, after the card's name, and never high: the sentence itself does not hold the name.
    assert answer.sentence.quote.startswith("Ilse Marchetti: Ilse has been") and answer.confidence == "medium"
    # The heading the passage begins under names the card as well.
    bio = "Ilse has been Kestrel's managing director since day one."
    answer = _read("Who is the managing director of Kestrel?", bio, company="Kestrel",
                   headings=("Team", "Ilse Marchetti")).answer
    assert answer is not None and answer.value == "Ilse Marchetti"
    # Two people of that first name on the page: which one is not known.
    two = "## Ilse Marchetti\n\n## Ilse Varga\n\n" + bio
    assert _read("Who is the managing director of Kestrel?", two, company="Kestrel").answer is None
    # Asked for no person, the sentence is read as written.
    assert _read("When did Ilse join Kestrel?", card, company="Kestrel").sentences[0].card == ""


def test_a_company_whose_name_is_written_with_a_hyphen_is_read_as_any_other() -> None:
    # The tokenizer splits "Rolls-Royce" in three; read as parsed, "Rolls" named a body of its own before "Royce".
    for name in ("Rolls-Royce", "7-Eleven", "T-Mobile"):
        said = {f"When was {name} founded?": (f"{name} was founded in 1999 by two friends in Chicago.", "1999"),
                f"Who is the CEO of {name}?": (f"Jane Roe is the CEO of {name}.", "Jane Roe"),
                f"How many employees does {name} have?": (f"{name} has 60 employees around the world.", "60"),
                f"Where is {name} headquartered?": (f"{name} is headquartered in Chicago, Illinois.", "Chicago, Illinois")}
        for question, (sentence, value) in said.items():
            answer = _read(question, sentence, company=name).answer
            assert answer is not None and answer.value == value, (question, answer)


def test_a_sentence_led_by_the_companys_own_thing_is_about_the_company() -> None:
    # "company's" is one word as the sentence writes it: it is "the company" (read before as no name at all).
    said = {"Who is the CEO of Acme?": ("The company's CEO is Jane Roe.", "Jane Roe"),
            "Where is Acme headquartered?": ("The company's headquarters are in Chicago, Illinois.", "Chicago, Illinois"),
            "How many employees does Acme have?": ("The company's 60 employees work from home.", "60")}
    for question, (sentence, value) in said.items():
        answer = _read(question, sentence, company="Acme").answer
        assert answer is not None and answer.value == value, (question, answer)


def test_a_role_served_in_a_participles_clause_is_held_by_the_main_clauses_subject() -> None:
    # "serving as its chief executive" has no subject of its own: it is Jane Roe's, as "to serve as" is.
    for said in ("Jane Roe is the public face of Acme, serving as its chief executive since 2019.",
                 "Jane Roe joined Acme in 2015, serving as its chief executive since 2019."):
        answer = _read("Who is the chief executive of Acme?", said, company="Acme").answer
        assert answer is not None and answer.value == "Jane Roe", said


def test_a_count_of_those_who_use_the_company_is_no_headcount() -> None:
    # The counted people do something to the company (its object): its users, not its people.
    for said in ("More than 10,000 people use Acme every day.", "Today more than ten million people use Acme worldwide.",
                 "Millions of people trust us with their mail."):
        for question in ("How many employees does Acme have?", "How many people work at Acme?"):
            assert _read(question, said, company="Acme").answer is None, (question, said)
    # Asked how many use it, they are what is asked; and people who work at it are its people.
    answer = _read("How many people use Acme?", "More than 10,000 people use Acme every day.", company="Acme").answer
    assert answer is not None and answer.value == "10,000"
    answer = _read("How many employees does Acme have?", "Today around 70 people work at Acme.", company="Acme").answer
    assert answer is not None and answer.value == "70"


def test_a_count_of_those_who_act_through_the_company_is_no_headcount() -> None:
    # Through a preposition too ("search with", "contribute to"), unless the verb is of the asked relation: those who
    # work at or for it are its people.
    for said in ("Today more than 20 million people search with Acme every month.", "250 people contribute to Acme."):
        assert _read("How many employees does Acme have?", said, company="Acme").answer is None, said
    for said, count in (("Over 300 people work for Acme today.", "300"), ("About 70 people work at Acme.", "70")):
        answer = _read("How many employees does Acme have?", said, company="Acme").answer
        assert answer is not None and answer.value == count, said


def test_a_deed_of_another_body_the_aside_ties_to_the_company_is_that_bodys() -> None:
    # "an Acme customer" is set beside Globex: Globex raised the money, whoever it is a customer of.
    assert _read("How much funding has Acme raised?", "Globex, an Acme customer, raised $20 million.",
                 company="Acme").answer is None
    answer = _read("How much funding has Acme raised?", "Acme, a maker of robots, raised $20 million.",
                   company="Acme").answer
    assert answer is not None and answer.value == "$20 million"


def test_what_the_companys_customers_or_users_did_is_theirs() -> None:
    for said in ("Acme helped its customers raise $50 million.", "Acme's users have raised $100 million for charity."):
        assert _read("How much funding has Acme raised?", said, company="Acme").answer is None, said
    # Its founders raise the company's money, and asked of its users, they are what is asked.
    answer = _read("How much funding has Acme raised?", "Acme's founders raised $2 million in a seed round.",
                   company="Acme").answer
    assert answer is not None and answer.value == "$2 million"
    answer = _read("How many users does Acme have?", "Acme's users number more than 10,000.", company="Acme").answer
    assert answer is not None and answer.value == "10,000"


def test_an_amount_given_by_the_year_is_not_the_annual_revenue_unless_it_is_revenue() -> None:
    assert _read("What is Acme's annual revenue?", "Acme saves its customers $5 million a year.",
                 company="Acme").answer is None
    answer = _read("What is Acme's annual revenue?", "Acme's revenue is $40 million a year.", company="Acme").answer
    assert answer is not None and answer.value == "$40 million"


def test_what_was_done_to_another_body_the_aside_ties_to_the_company_is_not_done_to_it() -> None:
    assert _read("Who founded Acme?", "Jane Roe founded Globex, Acme's biggest customer.", company="Acme").answer is None


def test_a_date_of_the_founders_is_no_date_of_the_founding() -> None:
    assert _read("When was Acme founded?", "In 2015 Acme's founders were still at university.", company="Acme").answer is None
    # "started the company" tells the founding, whoever it names it by.
    answer = _read("When was Acme founded?", "Acme's founders started the company in 2015.", company="Acme").answer
    assert answer is not None and answer.value == "2015"


def test_where_a_thing_of_the_company_is_is_not_where_the_company_is() -> None:
    for said in ("Acme's servers are located in Frankfurt.", "Our warehouse is located in Leeds."):
        assert _read("Where is Acme headquartered?", said, company="Acme").answer is None, said
    for said in ("Acme's headquarters are located in Chicago, Illinois.", "Our offices are located in Chicago, Illinois."):
        answer = _read("Where is Acme headquartered?", said, company="Acme").answer
        assert answer is not None and answer.value == "Chicago, Illinois", said


def test_a_name_the_question_gives_the_company_beside_its_own_is_the_company() -> None:
    registered = ("Globex Group SA is registered in the Crossroads Bank for Enterprises under company number "
                  "0466.312.094.")
    asked = "What is the company number of Acme's operator Globex Group SA?"
    answer = _read(asked, registered, company="Acme").answer
    assert answer is not None and answer.value == "0466.312.094"
    # Asked of Acme alone, Globex Group SA is another body: its number is not Acme's.
    assert _read("What is Acme's company number?", registered, company="Acme").answer is None
    # In brackets, either way round: "Globex Labs (Acme)", "Acme (Globex Labs)".
    office = "Globex Labs is registered in Delaware under file number 7654321."
    for question in ("What is the file number of Globex Labs (Acme)?", "What is Acme's (Globex Labs) file number?"):
        bracketed = _read(question, office, company="Acme").answer
        assert bracketed is not None and bracketed.value == "7654321", question
    # A bracket that names no other body, or another name beside a name that is not the company's, adds no name.
    for question in ("What is the file number of Initech (Globex Labs)?", "Who is the operator of Acme (the app)?",
                     "What is the address of Acme (Berlin)?", "Where is Acme (UK) based?"):
        assert read_question(question, None, "Acme").other_names == (), question  # a place is no name of Acme's
    # Spaced apart by a slash, as the shared facts write them; "GST/HST" is one tax's number, no two names.
    assert read_question("What is the street address of Let's Encrypt / ISRG?", None, "ISRG").other_names == (
        "Let's Encrypt",)
    assert read_question("What is Acme's GST/HST registration number?", None, "Acme").other_names == ()


def test_a_line_labelled_with_another_identifiers_name_gives_that_identifier() -> None:
    vat = "EU VAT: Acme Ltd is registered for the EU non-Union OSS scheme under number EU372014556."
    assert _read("What is Acme's company registration number?", vat, company="Acme").answer is None
    answer = _read("What is Acme's company registration number?",
                   "Company number: Acme Ltd is registered in New Zealand under number 4423617.", company="Acme").answer
    assert answer is not None and answer.value == "4423617"
