"""Wrong is worse than unknown (issue 23, items 2-3): the offline reader answers only when a sentence states a
value of the asked kind about the asked company; otherwise it abstains and lists the closest sentences as related
reading. Values are confirmed by a trained entity recogniser (spaCy's en_core_web_sm), phone numbers by
libphonenumber."""

from __future__ import annotations

import pytest

from answer_helpers import retrieval
from cikb.answer import ABSTENTION, Answerer
from cikb.answer.reader import Passage, read, read_question, states_question


def _answer(question: str, texts: list[str]):
    return Answerer().answer(question, retrieval(question, texts))


def _reading(question: str, text: str, company: str = "Acme Corp"):
    return read(read_question(question, None, company), [Passage(text, 1, 1)])


def test_a_number_near_a_related_word_only_is_no_headcount_and_is_shown_as_related_reading():
    text = "Our head office is in Springfield, Ohio, and our team is spread across 34 different states."
    answer = _answer("How many employees does Acme Corp have?", [text])
    assert answer.abstained and answer.answer == ABSTENTION
    assert answer.short_answer is None
    assert [r.text for r in answer.related] == [text] and answer.related[0].number == 1
    assert answer.sources and answer.sources[0].number == 1  # the related reading's source, to open


def test_a_headcount_stated_in_the_questions_own_word_is_answered():
    answer = _answer("How many employees does Acme Corp have?", ["Acme Corp has 164 employees across the country."])
    assert not answer.abstained and answer.short_answer == "164"
    assert answer.confidence in ("high", "medium")
    assert not answer.related


def test_a_place_the_pattern_of_capitals_misses_is_found_by_the_entity_recogniser():
    reading = _reading("Where is Acme Corp headquartered?",
                       "Our official headquarters is in sunny Sarasota, Florida, but we work remotely.")
    assert reading.answer is not None and reading.answer.value == "Sarasota, Florida"


def test_a_place_stated_of_someone_else_is_not_the_companys():
    answer = _answer("Where is Acme Corp headquartered?", ["Arin is based in Sunnyvale, California."])
    assert answer.abstained and "Sunnyvale" not in answer.answer
    assert "Sunnyvale" in answer.related[0].text


def test_a_value_the_recogniser_reads_as_another_kind_is_no_answer():
    # "Acme Labs" is an organisation, not a person: no chief executive is named here.
    reading = _reading("Who is the chief executive of Acme Corp?", "The chief executive of Acme Corp visited Acme Labs in Ohio.")
    assert reading.answer is None


def test_a_person_is_still_read_where_the_recogniser_agrees():
    reading = _reading("Who is the chief executive of Acme Corp?", "Acme Corp's chief executive is Maria Lopez.")
    assert reading.answer is not None and reading.answer.value == "Maria Lopez"


def test_a_phone_number_keeps_its_area_code_in_brackets():
    reading = _reading("What is Acme Corp's phone number?", "You can call Acme Corp on +1 (415) 555-0100 on weekdays.")
    assert reading.answer is not None and reading.answer.value == "+1 (415) 555-0100"


def test_a_phone_number_from_another_country_is_read_by_libphonenumber():
    reading = _reading("What is Acme Corp's phone number?", "Acme Corp can be reached on +31 20 794 0000 during office hours.")
    assert reading.answer is not None and reading.answer.value == "+31 20 794 0000"
    assert _reading("What is Acme Corp's phone number?", "Acme Corp was founded between 1998 2001 and 2013.").answer is None


def test_a_contraction_keeps_the_pronoun_as_the_sentences_subject():
    reading = _reading("What did Acme Corp win in 2021?", "We’re proud that we won a $32M contract in 2021.")
    assert reading.sentences[0].role == 2


def test_the_company_in_a_question_is_the_subject_named_another_way():
    q = read_question("What is the company's legal name?", None, "Acme Corp")
    assert "compani" not in q.terms and "acme" in q.subject_terms
    # A question naming something else keeps its words as the terms: "its" is that thing's.
    other = read_question("When did Roadrunner Inc issue its first invoice?", None, "Acme Corp")
    assert not other.subject_terms


def test_a_free_text_answer_needs_most_of_the_questions_terms_about_the_subject():
    stated = _answer("What does Acme Corp sell?", ["Acme Corp sells anvils, rockets and giant magnets."])
    assert not stated.abstained and stated.answer.startswith("Acme Corp sells anvils")
    unrelated = _answer("What does Acme Corp sell?", ["Globex sells anvils.", "The weather in Ohio is mild in spring."])
    assert unrelated.abstained and unrelated.answer == ABSTENTION


def test_the_readers_sure_answer_reorders_the_context_of_the_offline_reader_only(tmp_path) -> None:
    # Issue 23, item 5: an LLM reads the context in retrieval's order; no measurement shows it gains from the
    # offline reader's reordering.
    from cikb.answer import sure_answer_first
    from cikb.app.reading import open_retriever

    from cikb.core.config import Settings

    offline = Settings(data_dir=tmp_path / "data")
    with open_retriever(offline) as retriever:
        assert retriever.reorder is sure_answer_first
    with_llm = Settings(data_dir=tmp_path / "data", llm={"base_url": "http://127.0.0.1:9/v1", "model": "scripted"})
    with open_retriever(with_llm) as retriever:
        assert retriever.reorder is None


def test_the_agent_of_a_passive_predicate_is_stated_after_adjuncts():
    # "was founded in 2011 in Portland, Oregon, by ...": the founders are the predicate's agent.
    reading = _reading("Who founded Acme Corp?", "Acme Corp was founded in 2011 in Portland, Oregon, by Maria Okafor and Daniel Reyes.")
    assert reading.answer is not None and reading.answer.value == "Maria Okafor and Daniel Reyes"
    assert reading.answer.confidence == "medium"


def test_a_first_name_alone_is_no_answer_to_who_holds_a_role():
    reading = _reading("Who is the CFO of Acme Corp?", "She joins Sarah Heil, our CFO, Josh, and me in Acme Corp leadership.")
    assert reading.answer is None or reading.answer.value != "Josh"


def test_a_labelled_address_of_any_country_is_the_whole_value_after_its_label():
    # "Where is it headquartered?" is answered by the company's "Address:" line, whatever the country's form.
    q = read_question("Where is Northwind headquartered?", "text", "Northwind")
    line = Passage("Address: Keizersgracht 123, 1015 CJ Amsterdam, The Netherlands", 1, 1, "Contact Northwind")
    reading = read(q, [line])
    assert reading.answer is not None and reading.answer.confidence == "medium"
    assert reading.answer.value == "Keizersgracht 123, 1015 CJ Amsterdam, The Netherlands"


# --- Team cards, footers and profile pages on the company's own website -------------------------------------------


def _own_page(question: str, title: str, *lines: str, company: str = "Acme Corp"):
    return read(read_question(question, None, company),
                [Passage(line, rank, rank, title, own_site=True) for rank, line in enumerate(lines, start=1)])


@pytest.mark.parametrize(
    ("question", "card", "name"),
    [("Who is the CFO of Acme Corp?", "Ernie Ramos — Co-Founder / CFO", "Ernie Ramos"),  # "Co-Founder / CFO" no org
     ("Who is Acme Corp's Chief Delivery Officer?", "Josh Lund — Chief Delivery Officer", "Josh Lund"),
     ("Who is the president of Acme Corp?", "Dan Lee — President", "Dan Lee")],  # a line of three words
)
def test_a_team_cards_role_on_the_companys_own_page_is_the_companys(question: str, card: str, name: str):
    reading = _own_page(question, "About Us", card)
    assert reading.answer is not None and reading.answer.value == name
    assert reading.answer.confidence == "medium"


def test_on_its_own_website_the_companys_legal_name_may_hold_a_word_more():
    question = "What is the legal name of Acme?"
    reading = _own_page(question, "Home", "Copyright © 2026 Acme Software Applications, Inc.", company="Acme")
    assert reading.answer is not None and reading.answer.value == "Acme Software Applications, Inc."
    # Elsewhere "Acme Robotics Inc." may be another company.
    news = read(read_question(question, None, "Acme"), [Passage("Acme Robotics Inc. builds arms.", 1, 1, "News")])
    assert news.answer is None


def test_a_postal_address_alone_on_the_companys_page_is_its_address():
    reading = _own_page("What is the mailing address of Acme Corp?", "Facts about Acme Corp",
                        "3527 Mt Diablo Blvd, Unit 269, Lafayette, CA 94549")
    assert reading.answer is not None and reading.answer.value == "3527 Mt Diablo Blvd, Unit 269, Lafayette, CA 94549"
    assert reading.answer.confidence == "medium"


def test_a_code_after_its_label_on_the_companys_page_is_its_identifier():
    reading = _own_page("What is Acme Corp's CAGE code?", "Get in touch", "Cage Code 79H77")
    assert reading.answer is not None and (reading.answer.value, reading.answer.confidence) == ("79H77", "medium")


def test_a_label_that_begins_with_a_count_is_a_label_too():
    reading = _own_page("How many vacation days do Acme Corp employees get?", "Careers",
                        "30+ vacation days: 18 accrued days per year + 11 paid holidays + 2 floating holidays")
    assert reading.answer is not None and reading.answer.value == "30"


def test_a_label_line_on_a_team_members_page_is_the_persons_not_the_companys():
    reading = _own_page("Where is Acme Corp headquartered?", "Aaron Pava", "Location: San Mateo, Alajuela, Costa Rica")
    assert reading.answer is None


def test_a_contact_line_that_names_the_company_only_in_its_domain_is_no_rival():
    # A press release's media contact ("214.697.3123, jo.roe@acme.example") is a person's, not the company's number.
    reading = read(read_question("What is the phone number of Acme?", None, "Acme"),
                   [Passage("Phone: (510) 408-7510", 1, 1, "Hire Us", own_site=True),
                    Passage("214.697.3123, jo.roe@acme.example", 2, 2, "Acme expands", own_site=True)])
    assert reading.answer is not None and reading.answer.value == "(510) 408-7510"
    assert reading.answer.confidence == "medium"


# --- Which page is newer (issue 23: "an old office given for the current one") ------------------------------------

OLD_POST = "Acme Corp's CEO is John Smith, who founded the company in 2011."
ABOUT_NOW = "Acme Corp's CEO is Maria Lopez."


def _dated(*texts_and_dates):
    return [Passage(text, rank, rank, "", when) for rank, (text, when) in enumerate(texts_and_dates, start=1)]


def test_asked_how_things_are_the_newer_page_states_the_answer():
    from datetime import date

    reading = read(read_question("Who is the CEO of Acme Corp?", None, "Acme Corp"),
                   _dated((OLD_POST, date(2019, 3, 1)), (ABOUT_NOW, date(2026, 3, 1))))
    assert reading.answer is not None and reading.answer.value == "Maria Lopez"
    assert reading.answer.confidence == "medium"  # the older page's value stays a rival: never high


def test_asked_how_things_were_or_of_a_named_year_the_pages_dates_change_nothing():
    from datetime import date

    passages = _dated((OLD_POST, date(2019, 3, 1)), (ABOUT_NOW, date(2026, 3, 1)))
    undated = _dated((OLD_POST, None), (ABOUT_NOW, date(2026, 3, 1)))
    for question, found in (("Who was the CEO of Acme Corp?", passages), ("Who is the CEO of Acme Corp in 2019?", passages),
                            ("Who is the CEO of Acme Corp?", undated)):  # an undated statement may be the newer one
        reading = read(read_question(question, None, "Acme Corp"), found)
        assert reading.answer is not None and reading.answer.value == "John Smith", question


def test_a_fact_page_read_today_is_newer_than_a_dated_post(tmp_path) -> None:
    # ChunkMetadata.as_of: a post's publication date; a fact page (page_kind company), the day it was crawled.
    from datetime import date

    question = "Who is the CEO of Acme Corp?"
    result = retrieval(question, [OLD_POST, ABOUT_NOW])
    post, about = result.context
    post.chunk.metadata.published, post.chunk.metadata.page_kind = date(2019, 3, 1), "news"
    about.chunk.metadata.page_kind = "company"
    answer = Answerer().answer(question, result)
    assert not answer.abstained and answer.short_answer == "Maria Lopez"
    about.chunk.metadata.page_kind = "page"  # an undated page that is no fact page: not known to be newer
    assert Answerer().answer(question, result).short_answer == "John Smith"


# --- A value that hangs on the question's verb, however far apart they stand ----------------------------------------


def test_a_date_fronted_before_the_sentence_dates_the_verb_it_hangs_on():
    # The parse ties "In March 2014" to "started"; the company is that verb's object.
    reading = _reading("When was Acme Corp started?",
                       "In March 2014, a group of former Globex engineers started Acme Corp to build delivery robots.")
    assert reading.answer is not None and reading.answer.value == "March 2014"
    assert reading.answer.confidence in ("high", "medium")


def test_a_date_on_the_same_verb_of_another_party_dates_nothing_of_the_companys():
    reading = _reading("What year was Acme Corp founded?",
                       "The Acme Corp logo first appeared in 1993, and its later versions were incorporated within "
                       "program promotions until 2011.")
    assert reading.answer is None


# --- A contact page's addresses each serve a purpose ---------------------------------------------------------------

CONTACT_PAGE = ("Contact our sales team at sales@acme.example. For press inquiries, email our media team at "
                "press@acme.example. For anything else, write to our support team at hello@acme.example.")


def test_the_purpose_the_question_names_picks_one_of_a_contact_pages_addresses():
    # "our sales team" is the company's (as "our new CEO" is), and the other addresses' sentences hold less of the
    # question: they are no rivals.
    for question, address in (("What e-mail address can I use to contact Acme Corp's sales team?", "sales@acme.example"),
                              ("Which e-mail address reaches Acme Corp's media team?", "press@acme.example")):
        reading = read(read_question(question, None, "Acme Corp"), [Passage(CONTACT_PAGE, 1, 1, "Contact Acme Corp")])
        assert reading.answer is not None and reading.answer.value == address, question
        assert reading.answer.confidence == "medium"


def test_asked_for_the_address_without_a_purpose_a_contact_page_of_several_gives_none():
    reading = read(read_question("What is Acme Corp's e-mail address?", None, "Acme Corp"),
                   [Passage(CONTACT_PAGE, 1, 1, "Contact Acme Corp")])
    assert reading.answer is None and reading.unsure is not None  # shown as related reading


def test_a_posts_date_says_when_what_it_announces_happened():
    from datetime import date

    # The post's own "Date:" line holds the question's words; the announcement holds them by the post's date.
    question = read_question("Which company did Acme Corp acquire in November 2020?", None, "Acme Corp")
    post = ("Date: Monday, November 9, 2020\n\n"
            "Lafayette, Calif. – Acme Corp, a services firm, today announced it has acquired Initech, a maker of staplers.")
    reading = read(question, [Passage(post, 1, 1, "Acme Corp expands", date(2020, 11, 9), own_site=True)])
    assert reading.answer is not None and reading.answer.value == "Initech"


def test_an_enrich_cell_reads_the_newer_page_and_its_source_names_the_posts_date():
    from datetime import date

    from cikb.enrich.evidence import passages_from_chunks
    from cikb.enrich.extract import extract_answer

    question = "Who is the CEO of Acme Corp?"
    result = retrieval(question, [OLD_POST, ABOUT_NOW])
    post, about = result.context
    post.chunk.metadata.published, post.chunk.metadata.page_kind = date(2019, 3, 1), "news"
    about.chunk.metadata.page_kind = "company"
    passages = passages_from_chunks(result.context)
    assert [p.source.published for p in passages] == [date(2019, 3, 1), None]
    cell = extract_answer(question, "text", passages, company="Acme Corp")
    assert cell.value == "Maria Lopez" and cell.confidence == "medium"


def test_asked_what_a_named_thing_is_only_a_sentence_that_says_what_it_is_answers():
    question = "What is Beacon Notify?"  # one of Acme Corp's products
    assert _reading(question, "Jane Roe, Head of Beacon Notify and Beacon Forms").answer is None
    defined = _reading(question, "Beacon Notify is a free messaging tool that small shops use to text their customers.")
    assert defined.answer is not None
    assert defined.answer.sentence.text.startswith("Beacon Notify is a free messaging tool")


@pytest.mark.parametrize("assistant_first", [False, True])
def test_a_team_cards_title_names_who_holds_the_role_not_whom_they_assist(assistant_first):
    cards = ["Jane Roe, Executive Assistant to the COO", "John Smith, Acting Chief Operating Officer and Director"]
    text = "\n".join(f"- {card}" for card in (cards if assistant_first else cards[::-1]))
    passage = Passage(text, 1, 1, title="Meet the team", own_site=True)
    reading = read(read_question("Who is the chief operating officer of Acme Corp?", None, "Acme Corp"), [passage])
    assert reading.answer is not None and reading.answer.value == "John Smith"


def test_an_instruction_on_the_companys_own_page_gives_the_companys_contact():
    # Its addresses are on its parent agency's domain, which does not name it.
    text = ("Want to see if Acme Corp can help your agency? "
            "Contact our partnerships team at partners@agency.example.\n\n"
            "Anything else? For other inquiries, contact our outreach team at hello@agency.example.\n\n"
            "For all press inquiries, please email press@agency.example with your deadline.")
    question = read_question("What is the press contact email for Acme Corp?", None, "Acme Corp")
    reading = read(question, [Passage(text, 1, 1, title="About Acme Corp", own_site=True)])
    assert reading.answer is not None and reading.answer.value == "press@agency.example"
    # Another body's desk is not the company's, however it is asked for.
    elsewhere = "For press inquiries, please email Globex Media at press@agency.example."
    assert read(question, [Passage(elsewhere, 1, 1, title="Contact", own_site=True)]).answer is None
    # A bid to do something else, with an address at its end, is no contact given for what is asked.
    sponsor = ("If you are interested in our mission, consider becoming a sponsor, or reaching out with your idea "
               "on how you can help financially support our mission at sponsor@agency.example.")
    support = read_question("What is Acme Corp's support email?", None, "Acme Corp")
    assert read(support, [Passage(sponsor, 1, 1, title="About Acme Corp", own_site=True)]).answer is None


def test_a_bid_the_tagger_reads_as_a_present_still_bids_the_reader():
    # "write" with no subject, tagged a present ("VBP") by the small model (here, before this address): still a bid.
    line = ("For help with your account or the script, write to support@acmeanalytics.com and a real person will "
            "answer, usually within one working day.")
    others = "Jobs: jobs@acmeanalytics.com\n\nOur sales team can be reached at sales@acmeanalytics.com."
    question = read_question("What is the support e-mail address of Acme Corp?", None, "Acme Corp")
    reading = read(question, [Passage(line, 1, 1, title="Contact", own_site=True),
                              Passage(others, 2, 2, title="Contact", own_site=True)])
    assert reading.answer is not None and reading.answer.value == "support@acmeanalytics.com"


def test_a_line_telling_the_reader_to_reach_us_gives_the_companys_contact():
    # On its own contact page "us" is the company, whatever the page's line says beside it.
    question = read_question("What phone number can I call to reach Acme Corp?", None, "Acme Corp")
    for line in ("You can call us on +46 40 22 32 00", "Feel free to call us on +46 40 22 32 00."):
        reading = read(question, [Passage(line, 1, 1, title="Contact", own_site=True)])
        assert reading.answer is not None and reading.answer.value == "+46 40 22 32 00", line
    # Someone else who calls "us", or can reach "us", gives no number of the company's.
    for line in ("Journalists called us on +46 40 22 32 00.", "The courier can reach us on +46 40 22 32 00."):
        assert read(question, [Passage(line, 1, 1, title="Contact", own_site=True)]).answer is None, line


def test_a_line_telling_readers_of_a_kind_how_to_reach_the_company_gives_its_contact():
    # "Journalists can write to ..." on its own page says what any journalist may do: the company's address (on a
    # domain that does not name it).
    question = read_question("Which e-mail address should journalists use to contact Acme Corp?", None, "Acme Corp")
    line = "For interviews, logos and screenshots, journalists can write to press@agency.example."
    reading = read(question, [Passage(line, 1, 1, title="Contact", own_site=True)])
    assert reading.answer is not None and reading.answer.value == "press@agency.example"
    # What one party did, or can do, gives no address of the company's.
    one_party = ("Journalists wrote to press@agency.example last week.", "The journalist can write to press@agency.example.",
                 "Three journalists can write to press@agency.example.")
    for line in one_party:
        assert read(question, [Passage(line, 1, 1, title="Contact", own_site=True)]).answer is None, line


def test_an_e_mail_address_in_a_line_is_no_other_bodys_name():
    # The small recogniser reads "press@acme-widgets.com" as a name, one that does not spell "Acme Widgets": the line
    # would then name another body, and its address would be no contact of the company's.
    question = read_question("What is the Acme Widgets press e-mail address?", None, "Acme Widgets")
    text = ("Journalists should write to press@acme-widgets.com, and we will find someone who knows the answer.\n\n"
            "Support: support@acme-widgets.com")
    reading = read(question, [Passage(text, 1, 1, title="Contact", own_site=True)])
    assert reading.answer is not None and reading.answer.value == "press@acme-widgets.com"


def test_a_value_read_as_unsure_in_its_best_statement_is_given_where_another_states_it():
    # In the list, whose title is whose is not certain; the privacy policy's line (scored lower: a legal page) says it.
    question = read_question("Who is the managing director of Acme Hosting?", None, "Acme Hosting")
    listed = Passage("Priya Roe (Managing Director), Gareth Lowe (Technical Director) and Tom Ellery (non-executive).",
                     1, 1, title="Legal notice", own_site=True)
    said = Passage("Priya Roe is our Managing Director.", 2, 5, title="Privacy policy", own_site=True)
    assert read(question, [listed]).answer is None
    reading = read(question, [listed, said])
    assert reading.answer is not None and reading.answer.value == "Priya Roe"
    assert reading.answer.sentence.text == "Priya Roe is our Managing Director."  # the statement that says it is quoted


def test_asked_what_the_company_was_in_a_year_a_definition_of_that_year_answers():
    question = "What kind of business was Acme Corp in 2003?"
    then = _reading(question, "In 2003, Acme Corp was a web design firm of four people.")
    assert then.answer is not None and then.answer.value.endswith("a web design firm of four people")
    # What it is now does not say what it was then.
    assert _reading(question, "Acme Corp is a software company that makes accounting tools.").answer is None


def test_asked_what_the_company_makes_only_the_companys_own_making_answers():
    question = "What does Acme Corp make?"
    idiom = _reading(question, "We want a hiring process that makes it easy for people to see if Acme Corp suits them.")
    assert idiom.answer is None  # the process makes it easy: nothing the company makes
    made = _reading(question, "We make robots that move pallets in warehouses.")
    assert made.answer is not None and made.answer.value.startswith("robots that move pallets")
    # A labelled line's clause is the company's deed as the sentence alone would be ("Description" does nothing).
    labelled = _reading(question, "Description: Acme Corp makes open hardware: laptops, phones and watches.")
    assert labelled.answer is not None and labelled.answer.value.startswith("open hardware")


def test_asked_what_the_company_offers_an_offer_handed_to_the_reader_is_none():
    question = "What does Acme Corp offer?"
    handed = _reading(question, "We will send you an offer and, if needed, our data processing agreement.")
    assert handed.answer is None  # the noun names a thing sent, not what Acme offers
    own = _reading(question, "Our offer includes email, a calendar and an address book.")
    assert own.answer is not None and "email, a calendar" in own.answer.value
    assert _reading(question, "Acme Corp offers email, a calendar and an address book.").answer is not None


@pytest.mark.parametrize(("role", "holder"), [("CEO", "Jane Roe"), ("CFO", "John Doe")])
def test_a_role_set_before_its_holders_name_and_a_comma_is_theirs(role, holder):
    text = ("Note: changes to this page need sign-off by both the CFO and the CEO.\n\n"
            "Contracts may only be signed by the CEO, Jane Roe, or the CFO, John Doe, with the exceptions below.")
    passage = Passage(text, 1, 1, title="Company agreements", own_site=True)
    reading = read(read_question(f"Who is the {role} of Acme Corp?", None, "Acme Corp"), [passage])
    assert reading.answer is not None and reading.answer.value == holder


def test_asked_who_chairs_the_board_a_director_the_board_appointed_is_no_answer():
    question = "Who chairs the Board of Directors of Acme Corp?"
    appointed = ("Dr Jane Roe, currently Director of Training, has been appointed by the Acme Corp Board of Directors "
                 "to serve as Interim Executive Director for six months, beginning 2 September 2026.")
    assert _reading(question, appointed).answer is None  # she holds no chair: "chairs" asks for the Chair
    chaired = _reading(question, "John Doe chairs the Acme Corp Board of Directors.")
    assert chaired.answer is not None and chaired.answer.value == "John Doe"


def test_asked_what_the_company_does_its_tax_status_is_no_answer():
    question = "What does Acme Corp do?"
    for status in ("Acme Corp, Inc. is a registered 501(c)(3) non-profit organisation governed by a Board.",
                   "Acme Corp is a registered 501(c)(3) non-profit based in Delaware, USA."):
        assert _answer(question, [status]).abstained  # the code is no kind of work, "organisation" says none
    answer = _answer(question, ["Acme Corp is a registered 501(c)(3) non-profit organisation.",
                                "Acme Corp is a global community teaching data science skills to researchers."])
    assert not answer.abstained and answer.answer.startswith("Acme Corp is a global community teaching")


def test_asked_for_a_noun_an_adjective_made_from_it_is_no_answer():
    question = "What is Acme Corp's purpose?"
    policy = ("As part of the Acme Corp hybrid working policy, we want to encourage purposeful face-to-face sessions "
              "that help build relationships and stronger teams.")
    assert _answer(question, [policy]).abstained  # purposeful sessions: no purpose of Acme's
    stated = _answer(question, [policy, "Acme Corp's purpose is to improve public services with technology."])
    assert not stated.abstained and stated.answer.startswith("Acme Corp's purpose is to improve")


def test_asked_whether_the_company_has_a_thing_a_noun_before_another_is_no_answer():
    question = "Does Acme Corp have an office?"
    materials = "Additionally, Acme Corp covers the costs of your office materials, such as a desk and a chair."
    assert _answer(question, [materials]).abstained  # office materials are not an office
    stated = _answer(question, [materials, "Acme Corp has an office in Barcelona, near the harbour."])
    assert not stated.abstained and stated.answer.startswith("Acme Corp has an office in Barcelona")


def test_asked_for_a_person_by_a_noun_a_sentence_without_that_noun_is_no_answer():
    question = "Who was Acme Corp's first engineer?"
    fleet = ("Acme Corp runs roughly 70 hubs with Sean Morris for the classroom, and to support the workshop we added "
             "the first GPU enabled hub to this fleet!")
    assert _reading(question, fleet).answer is None  # a first hub, and no engineer named
    hired = _reading(question, "Acme Corp's first engineer was Georgiana Dolocan, who joined in 2020.")
    assert hired.answer is not None and hired.answer.value == "Georgiana Dolocan"


def test_asked_for_a_contact_with_a_purpose_an_address_given_for_another_thing_is_no_answer():
    question = "To which e-mail address do Acme Corp employees send travel requests?"
    receipts = ("If you pay for any taxi or meal, please send a photo of the receipt to admin@acme.example and "
                "you will get reimbursed in your next payroll.")
    assert _reading(question, receipts).answer is None  # receipts, not travel requests
    bare = _reading("What is Acme Corp's e-mail address?", "You can e-mail Acme Corp at hello@acme.example.")
    assert bare.answer is not None and bare.answer.value == "hello@acme.example"


def test_asked_what_the_company_does_being_an_employer_is_no_answer():
    question = "What does Acme Corp do?"
    assert _answer(question, ["Acme Corp is an equal opportunity employer and values diversity."]).abstained
    made = _answer(question, ["Acme Corp is an equal opportunity employer.", "Acme Corp is a software consultancy."])
    assert not made.abstained and made.answer.startswith("Acme Corp is a software consultancy")


def test_asked_what_the_company_does_a_phrase_that_only_holds_its_name_is_not_the_company():
    # A team card's line: "ODW-2 mentor" is a mentor of a cohort named after the company, not the company.
    question = read_question("What does ODW do?", None, "Open Data Works", aliases=["ODW"])
    for line, says in (("Role in ODW: ODW-2 mentor / ODW-3 mentor / ODW-6 project lead", False),
                       ("ODW is a mentoring programme for open science leaders.", True)):
        reading = read(question, [Passage(line, 1, 1, "Team", own_site=True)])
        assert states_question(question, reading.sentences[0]) is says, line


def test_we_after_an_opening_clause_is_the_company_on_its_own_page():
    question = read_question("How long does the yearly Acme Corp company retreat last?", None, "Acme Corp")
    once = Passage("Once a year, we hold a company retreat lasting three to four days.", 1, 1, title="Retreats",
                   own_site=True)
    reading = read(question, [once])
    assert reading.answer is not None and reading.answer.value == "three to four days"


def test_a_team_card_with_a_dash_gives_the_person_the_role_and_the_part_asked_of():
    question = read_question("Who is the Director of Curriculum at Acme Corp?", None, "Acme Corp")

    def card(line: str):
        return read(question, [Passage(line, 1, 1, title="Our Core Team", own_site=True)]).answer

    held = card("Jane Roe, PhD — Director of Curriculum, Curriculum Team Lead")
    assert held is not None and held.value == "Jane Roe"
    assert card("Jane Roe — Executive Assistant to the Director of Curriculum") is None  # a role she serves
    assert card("Jane Roe — Director of Curriculum at Globex Learning Corporation") is None  # another body's


def test_places_asked_in_the_plural_are_read_as_places():
    question = read_question("In which cities does Acme Corp have offices?", None, "Acme Corp")
    assert question.kind == "place"
    offices = Passage("We have offices in London, Bristol, Manchester, and Swansea.", 1, 1, title="Working here",
                      own_site=True)
    reading = read(question, [offices])
    assert reading.answer is not None and reading.answer.value == "London, Bristol, Manchester, and Swansea"
    assert read_question("Between what years did Acme Corp train in Arizona?", None, "Acme Corp").kind != "year"


# --- Benefits pages: amounts, list items and question headings (session 49) ----------------------------------------


@pytest.mark.parametrize("written", ["150€", "150 €", "€150"])
def test_an_amount_with_its_currency_sign_before_or_after_it_is_money(written: str):
    reading = _own_page("How much is the Acme Corp sports and health allowance?", "Benefits & Perks",
                        f"We offer you an allowance of {written} per year to invest in sports and health activities.")
    assert reading.answer is not None and reading.answer.value == written


def test_how_much_of_a_non_money_noun_is_measured_in_its_unit():
    question = "How much paid annual leave does Acme Corp offer?"
    assert read_question(question, None, "Acme Corp").kind == "number"  # "paid" describes the leave
    assert read_question("How much funding has Acme Corp raised?", None, "Acme Corp").kind == "money"
    reading = _own_page(question, "Handbook", "Taking Holiday – We offer 30 days’ paid annual leave")
    assert reading.answer is not None and reading.answer.value == "30 days"


def test_how_much_of_something_asks_for_a_share():
    q = read_question("How much of employees’ health insurance premiums does Acme Corp pay?", None, "Acme Corp")
    assert (q.kind, q.percent) == ("number", True)
    reading = _own_page(q.text, "Careers", "Health insurance: Acme Corp pays 90% of your premiums and 80% for family")
    assert reading.answer is not None and reading.answer.value == "90%"


@pytest.mark.parametrize("opening", ["Taking Holiday – ", "## How do I request days off?\n\n"])  # read as one
def test_a_list_items_label_or_a_question_heading_does_not_hide_the_sentences_subject(opening: str):
    line = f"{opening}We offer 25 working days of paid holiday per year."
    reading = _own_page("How many days of paid holiday do Acme Corp employees get?", "Time off", line)
    assert reading.answer is not None and reading.answer.value == "25"
    assert reading.sentences[0].role == 2


def test_a_label_with_an_acronym_in_brackets_labels_its_code():
    reading = _own_page("What is the employer identification number (EIN) of Acme Corp?", "Contact us",
                        "Taxpayer Identification Number (TIN)(EIN): 92-1581581")
    assert reading.answer is not None and (reading.answer.value, reading.answer.confidence) == ("92-1581581", "medium")


def test_how_big_asks_for_a_magnitude_often_written_in_money():
    question = "How big does Acme Corp estimate its market opportunity?"
    assert read_question(question, None, "Acme Corp").kind == "number"
    reading = _own_page(question, "About", "We see a $30B+ market opportunity in the secure collaboration space.")
    assert reading.answer is not None and reading.answer.value == "$30B"


@pytest.mark.parametrize("line", ["Acme Corp is an all-remote development consultancy from Barcelona, pioneering AI.",
                                  "Acme Corp, a robotics maker in Barcelona, was founded in 1990."])
def test_where_the_company_is_from_in_what_it_is_says_where_it_is_based(line: str):
    reading = _own_page("Where is Acme Corp based?", "Handbook", line)
    assert reading.answer is not None and (reading.answer.value, reading.answer.confidence) == ("Barcelona", "medium")
    # Asked where something else is, the place the company is from says nothing.
    assert _own_page("Where does Acme Corp hold its yearly conference?", "Handbook", line).answer is None


def test_two_street_addresses_on_the_companys_pages_leave_the_address_unsure():
    question = "What is Acme Corp's registered address?"
    company = "Acme Corp, 16 Avenue Curti, 94100 Saint-Maur-des-Fossés, France"
    host = "Address : 8 Colin P. Kelly Jr Street San Francisco, CA 94107 United States"  # its web host's, in fact
    reading = _own_page(question, "Legal", host, company)
    assert reading.answer is None and reading.unsure is not None
    # A box for mail beside a street address is the same company's second address, no rival.
    mail = "Send all mail to: PO Box 18666, Minneapolis, MN 55418-0666, USA"
    street = _own_page("What is the street address of Acme Corp?", "Facts about Acme Corp",
                       "Address: 548 Market St, PMB 77519, San Francisco, CA 94104-5401, USA", mail)
    assert street.answer is not None and street.answer.value.startswith("548 Market St")


@pytest.mark.parametrize(("question", "line", "code"), [
    ("What is Acme Corp's SIREN company number?", "SIREN (Company ID): 820 717 668", "820 717 668"),
    ("What is Acme Corp's company number?", "Company number: 08123456", "08123456"),
])
def test_a_code_is_read_under_any_identifier_name_the_question_gives(question: str, line: str, code: str):
    reading = _own_page(question, "Legal", line)
    assert reading.question.kind == "identifier"  # "company" names no organisation asked for
    assert reading.answer is not None and reading.answer.value == code


@pytest.mark.parametrize(("question", "line", "code"), [
    ("What is Acme Corp's Ontario corporation number?", "Acme Corp Inc. Ontario Corporation No. 5019866", "5019866"),
    ("What is Acme Corp's company registration number?",
     "Acme Corp Ltd. is a registered company in England & Wales with number: 11076587.", "11076587"),
])
def test_a_registry_number_is_read_where_its_name_is_abbreviated_or_after_registered(question: str, line: str,
                                                                                     code: str):
    reading = _own_page(question, "Facts about Acme Corp", line)
    assert reading.answer is not None and reading.answer.value == code
    assert not reading.sentences[0].negated  # "No." before a number is no "no"


def test_a_legal_name_before_a_numbers_abbreviation_is_read():
    reading = _own_page("What is Globex's full legal name?", "Facts about Globex Worker Co-operative",
                        "Globex Worker Co-operative Inc. Ontario Corporation No. 5019866",
                        company="Globex Worker Co-operative")
    assert reading.answer is not None and reading.answer.value == "Globex Worker Co-operative Inc."


def test_a_fediverse_handle_is_no_e_mail_address():
    lines = ("If you're already on the Fediverse, you can search @news@acme.example from your instance.",
             "Email: hello@acme.example")
    reading = _own_page("What e-mail address should I use to contact Acme Corp about working together?", "Home",
                        *lines)
    assert reading.answer is not None and reading.answer.value == "hello@acme.example"
    assert not _own_page("What is Acme Corp's e-mail address?", "Home", lines[0]).sentences[0].spans


def test_a_price_answers_what_something_costs():
    reading = _own_page("How much does Acme Corp Edge cost?", "Acme Corp Edge", "$300 USD/month is the starting price")
    assert reading.sentences[0].lexical > 0  # "price" states what "cost" asks
    assert (reading.answer or reading.unsure) is not None and (reading.answer or reading.unsure).value == "$300"


def test_asked_which_of_the_companys_customers_did_something_the_name_doing_it_on_its_page_answers():
    question = "Which Acme Corp customer deploys AI analytics into oil and gas companies?"
    line = "Corva deploys AI analytics into oil and gas companies including Baker Hughes and Nabors."
    reading = _own_page(question, "Acme Corp - Home", line)
    assert reading.answer is not None and reading.answer.value == "Corva"
    # No name does it ("Our team", "Customers"), or the line is on another site: nothing to give.
    for other in ("Our team deploys AI analytics into oil and gas companies.",
                  "Customers deploy AI analytics into oil and gas companies."):
        assert _own_page(question, "Acme Corp - Home", other).answer is None
    assert _reading(question, line).answer is None


def test_a_name_said_to_hold_a_persons_role_is_a_person_and_that_line_is_the_evidence():
    # The small recogniser reads "Sylvain Corlay" as an organisation; "is the founder and CEO of" says otherwise, and
    # "of Acme Corp", hung on "founder", gives the CEO's role to Acme Corp too.
    interview = ("From Linux Parties to Global Impact: An Interview with Sylvain Corlay, Founder of Acme Corp In "
                 "today's article, we speak with its CEO.")
    reading = _own_page("Who is the CEO of Acme Corp?", "Posts", interview,
                        "Sylvain Corlay is the founder and CEO of Acme Corp.")
    assert reading.answer is not None and reading.answer.value == "Sylvain Corlay"
    assert reading.answer.sentence.plain == "Sylvain Corlay is the founder and CEO of Acme Corp."
    # The founder and CEO of another company is no answer.
    assert _own_page("Who is the CEO of Acme Corp?", "Posts", "Sylvain Corlay is the founder and CEO of Globex."
                     ).answer is None


def test_the_project_is_not_the_company_itself():
    # On a company's site "the project" is mostly one of its projects: its sponsor is not the company's.
    line = ("The project is made possible through generous support from Globex Foundation for the Open Web, and our "
            "supporters on Open Collective.")
    reading = _own_page("Which organisation gave Acme Corp support grants in its early years?", "Announcing Widget",
                        line)
    assert reading.sentences[0].role != 2 and reading.answer is None
    # "The company" still is.
    said = _own_page("Which organisation gave Acme Corp support grants in its early years?", "Announcing Widget",
                     line.replace("The project", "The company"))
    assert said.sentences[0].role == 2


def test_a_question_on_what_others_did_to_the_company_is_answered_by_their_deed():
    line = "To date, 404 wonderful people have contributed to Acme Corp."
    reading = _own_page("How many people have contributed to Acme Corp to date?", "Community", line)
    assert reading.answer is not None and (reading.answer.value, reading.answer.confidence) == ("404", "medium")
    # Asked what the company did, another body's deed stays no answer.
    other = _own_page("When did Acme Corp acquire Initech?", "News", "Globex acquired Initech in 2019.")
    assert other.answer is None


def test_a_subjectless_line_on_the_companys_about_us_page_is_the_companys():
    question = "In which city was Acme Corp founded?"
    reading = _own_page(question, "About us", "Founded in Paris in 2016.")
    assert reading.answer is not None and reading.answer.value == "Paris"
    # On a page of the site about something else it is no one's.
    assert _own_page(question, "JupyterGIS release notes", "Founded in Paris in 2016.").answer is None


def test_an_address_block_of_lines_on_the_contact_page_gives_the_street_address():
    # The name line, the street, then a Swedish postcode (three digits, a space, two digits) with its country prefix.
    page = "## Address\n\nAcme AB\nStorgatan 46\n\nSE – 212 22 MALMÖ\n\nSWEDEN"
    question = read_question("What is Acme AB's street address in Malmö?", None, "Acme AB")
    reading = read(question, [Passage(page, 1, 1, title="Contact", own_site=True)])
    assert reading.answer is not None and reading.answer.value == "Storgatan 46, SE – 212 22 MALMÖ"


@pytest.mark.parametrize("line", ["Don't hesitate to contact us at hello@acme.example for any questions.",
                                  "Please do not hesitate to write to us at hello@acme.example."])
def test_do_not_hesitate_bids_the_reader_and_negates_nothing(line: str):
    reading = _own_page("What is Acme Corp's e-mail address?", "Contact", line)
    assert not reading.sentences[0].negated
    assert reading.answer is not None and reading.answer.value == "hello@acme.example"
    denied = _own_page("What is Acme Corp's e-mail address?", "Contact", "We do not answer mail at hello@acme.example.")
    assert denied.answer is None


@pytest.mark.parametrize("line", ["Acme Corp wasn't founded in 2010.", "Acme Corp isn’t headquartered in Paris.",
                                  "Acme Corp hasn’t been acquired by Globex."])
def test_every_nt_with_either_apostrophe_negates(line: str):
    reading = _own_page("When was Acme Corp founded?", "About Acme Corp", line)
    assert reading.sentences[0].negated


@pytest.mark.parametrize(("question", "line", "value"), [
    ("How much is Acme Corp's referral bonus?",
     "If you make the introduction, you will receive a €1,000 referral bonus if we hire them.", "€1,000"),
    ("Which company processes payments for Acme Corp orders?",
     "Your payment may be processed by Northwind Payments.", "Northwind Payments"),
])
def test_a_line_told_to_the_reader_on_the_companys_own_page_is_the_companys(question: str, line: str, value: str):
    reading = _own_page(question, "Careers", line)
    assert reading.answer is not None and reading.answer.value == value
    # Elsewhere, "you" is no one's company.
    elsewhere = read(read_question(question, None, "Acme Corp"), [Passage(line, 1, 1, title="Careers")])
    assert elsewhere.answer is None


def test_a_hyphenated_not_or_no_makes_an_adjective_and_negates_nothing():
    reading = _own_page("Where is Acme Corp based?", "About", "Acme Corp is a not-for-profit company based in Leeds.")
    assert not reading.sentences[0].negated
    assert reading.answer is not None and reading.answer.value == "Leeds"
    assert _own_page("Where is Acme Corp based?", "About", "Acme Corp is not based in Leeds.").sentences[0].negated


def test_asked_where_a_part_of_the_company_is_its_doer_by_that_noun_is_the_companys():
    # A name the parse does not read as the sentence's subject ("iAcme is ...") leaves the line one that mentions it.
    question = "Where is the iAcme engineering team based?"
    line = "iAcme is a software company with an engineering team based in Leeds, UK."
    reading = _own_page(question, "Home", line, company="iAcme")
    assert reading.answer is not None and reading.answer.value == "Leeds, UK"
    # Another body by another noun is still another's.
    assert _own_page(question, "Home", line.replace("an engineering team", "a design agency"), company="iAcme"
                     ).answer is None


def test_a_british_address_with_its_postcode_after_the_town_is_a_whole_postal_address():
    question = "Where is Acme Corp's registered office?"
    line = "Acme Corp's registered address is at 7 Hills Road, Cambridge, CB2 1GE, UK."
    reading = _own_page(question, "Usage licence", line)
    assert reading.answer is not None
    assert (reading.answer.value, reading.answer.confidence) == ("7 Hills Road, Cambridge, CB2 1GE, UK", "medium")


def test_a_registered_office_after_the_country_of_registration_is_the_address_asked():
    # A filing's sentence names the country the company is registered in before its registered office; the office
    # asked is the address (any number of comma-separated parts, a building's name first, the postcode last).
    line = ("Acme Corp Limited is a company registered in England under number 01234567, whose registered office is "
            "Harbour House, 13 Quay Park, Wareham Road, Poole, Dorset, BH15 1AB.")
    address = "Harbour House, 13 Quay Park, Wareham Road, Poole, Dorset, BH15 1AB"
    for question in ("Where is Acme Corp's registered office?", "What is Acme Corp's registered address?"):
        reading = _own_page(question, "Legal", line)
        assert reading.answer is not None and reading.answer.value == address, question
    shorter = ("Acme Corp Ltd is registered in Northern Ireland, whose registered office is 46 Hill Street, Belfast, "
               "BT1 2LB.")
    reading = _own_page("Where is Acme Corp's registered office?", "Legal", shorter)
    assert reading.answer is not None and reading.answer.value == "46 Hill Street, Belfast, BT1 2LB"


def test_organisations_asked_of_together_are_the_whole_list_the_sentence_gives():
    # The recogniser reads some of the listed names as organisations, not all; the parse reads the list.
    line = ("Incorporated by Fastly, Intel, Mozilla and Microsoft, the Acme Alliance now invites organizations to join "
            "its mission.")
    reading = _own_page("Which organisations incorporated the Acme Alliance?", "News", line, company="Acme Alliance")
    assert reading.answer is not None and reading.answer.value == "Fastly, Intel, Mozilla and Microsoft"


def test_a_release_number_is_no_count_and_another_release_is_another_time():
    line = ("A 1.0 release for Acme Corp is a significant milestone for us after over 1,000,000 PyPI downloads and "
            "over 100,000,000 Docker pulls.")
    then = _own_page("How many Docker pulls did Acme Corp have by the time of the 1.0 release?", "Blog", line)
    assert then.answer is not None and then.answer.value == "100,000,000"  # not "1.0"
    later = _own_page("How many Docker pulls did Acme Corp have by the time of the 2.0 release?", "Blog", line)
    assert later.answer is None  # the 1.0 release's count says nothing of the 2.0 release's
    assert _own_page("How many users does Acme Corp have?", "Blog", "Acme Corp 3.0 brings offline mode.").answer is None


def test_a_sentence_that_says_what_the_thing_asked_is_comes_before_one_that_mentions_it():
    question = "What is Acme Corp's core product?"
    forum = "Platform: Questions and feedback on the core product, workflows, integration, documentation, and more!"
    stated = "Our core product is the Acme cloud emulator, a sandbox for developing cloud apps locally."
    answer = _answer(question, [forum, stated])
    assert not answer.abstained and answer.answer.startswith("Our core product is the Acme cloud emulator")


def test_a_legal_company_name_question_asks_the_subjects_legal_name_not_for_another_company():
    question = read_question("What is Acme's legal company name?", None, "Acme")
    assert question.kind == "text" and question.legal_name
    reading = read(question, [Passage("Holland & Knight served as the legal advisor to Acme.", 1, 1, "News"),
                              Passage("Northwind Partners has made a growth investment in Acme LLC.", 2, 2, "News",
                                      own_site=True)])
    assert reading.answer is not None and reading.answer.value == "Acme LLC"


def test_a_count_of_a_teams_members_counts_its_people():
    question = "How many employees does Acme Corp have?"
    reading = _own_page(question, "Careers", "We are a team of 200+ awesome humans and growing.")
    assert reading.answer is not None and reading.answer.value == "200"
    # The members of another group are not its people.
    assert _own_page(question, "Community", "We are a community of 5,000 awesome humans and growing.").answer is None


def test_a_word_after_of_or_a_determiner_is_a_noun_not_the_predicate_asked():
    question = "Who is the vice president of operations at Acme Corp?"
    assert read_question(question, None, "Acme Corp").wants is None  # "operations" is not "operates"
    line = ("Acme Corp announced today industry veteran Jane Roe has joined the company’s leadership team as vice "
            "president of operations.")
    reading = _own_page(question, "News", line)
    assert reading.answer is not None and (reading.answer.value, reading.answer.confidence) == ("Jane Roe", "medium")
    # Joining another company's team in that role is no answer.
    other = _own_page(question, "News", line.replace("the company’s", "Globex’s"))
    assert other.answer is None or other.answer.confidence == "low"


def test_a_name_with_a_nickname_in_quotes_and_a_generation_is_one_persons_name():
    line = ("Acme Corp today announced retired Colonel Frederick “Trey” Coleman III will join the firm as its "
            "first Chief Product Officer.")
    reading = _own_page("Who did Acme Corp hire as its first Chief Product Officer?", "News", line)
    assert [span.text for span in reading.sentences[0].spans] == ["Frederick “Trey” Coleman III"]


def test_a_legal_form_question_is_answered_only_by_a_sentence_saying_the_subject_is_one():
    question = "What kind of legal entity is Acme Corp?"
    lines = ("We still work closely with universities, as well as other academic and corporate partners.",
             "Acme Corp is a not-for-profit, private company limited by guarantee, registered in England and Wales.")
    reading = _own_page(question, "About Acme Corp", *lines)
    assert [s.text for s in reading.sentences if states_question(reading.question, s)] == [lines[1]]
    # Corporate partners say nothing of Acme's own form.
    alone = _own_page(question, "About Acme Corp", lines[0])
    assert not states_question(alone.question, alone.sentences[0])


def test_a_question_for_another_noun_is_no_contact_question_though_it_names_a_website():
    assert read_question("Under which licence is the text on the Acme Corp website published?", None,
                         "Acme Corp").kind == "licence"  # a licence, not a web address
    assert read_question("Which email address should I use to contact Acme Corp?", None, "Acme Corp").kind == "contact"
    assert read_question("What is Acme Corp's website?", None, "Acme Corp").kind == "contact"




# --- Session 53: signals read off IVPN and CorrelAid (tuned), none of them one sentence's rule -----------------------


def test_asked_when_the_company_itself_started_a_sentence_on_its_founding_answers():
    reading = _own_page("When was Acme Corp started / how long has it existed?", "Our team", "Founded: 2009",
                        "The Acme Corp team will start to take over support in December.")
    assert reading.answer is not None and reading.answer.value == "2009"
    # On its own site, "we started" is the company starting.
    reading = _own_page("In what year did Acme Corp start?", "Blog",
                        "When we started in 2015 we were only a handful of people wondering how to help.")
    assert reading.answer is not None and reading.answer.value == "2015"
    # Something else begun, or begun by another body, is no founding.
    assert read_question("When did Acme Corp start the podcast?", None, "Acme Corp").terms == ("start", "podcast")
    assert "found" not in read_question("What year did the Irish Acme Corp start?", None, "Acme Corp").terms
    assert "found" not in read_question("What year did the initial incarnation of Acme Corp start?", None,
                                        "Acme Corp").terms


def test_a_name_had_before_or_another_things_legal_entity_is_not_the_companys_legal_name():
    label = "Legal name: Acme Limited"
    former = _own_page("What was the legal name of the company behind Acme before it was renamed?", "About", label,
                       company="Acme")
    assert former.question.former_name and not former.question.legal_name and former.answer is None
    assert read_question("What was the former legal name of Acme?", None, "Acme").former_name
    publisher = _own_page("Which legal entity publishes the Acme Android app on Google Play?", "About", label,
                          company="Acme")
    assert not publisher.question.legal_name and publisher.answer is None
    assert read_question("Which legal entity operates Acme?", None, "Acme").legal_name


def test_a_label_whose_value_is_another_label_states_nothing():
    reading = _own_page("Under what licence are the Acme Corp apps released as open source?", "Roadmap",
                        "Acme Corp Apps: Implementing solutions for:")
    assert not states_question(reading.question, reading.sentences[0])
    assert _answer("Under what licence are the Acme Corp apps released as open source?",
                   ["Acme Corp Apps: Implementing solutions for:"]).abstained


def test_a_register_number_with_its_courts_letter_is_an_identifier():
    reading = _own_page("What is Acme Corp's association register number?", "Imprint",
                        "Register Court: Amtsgericht Charlottenburg", "Register number: VR 37779 B")
    assert reading.question.kind == "identifier"
    assert reading.answer is not None and reading.answer.value == "VR 37779 B"


def test_an_email_address_written_out_against_harvesters_is_an_email_address():
    line = "For general inquiries, please contact us at info [at] acme [dot] org."
    reading = _own_page("What is Acme Corp's general contact e-mail?", "Contact", line)
    assert reading.answer is not None and reading.answer.value == "info [at] acme [dot] org"
    assert reading.answer.sentence.spans[0].key == "info@acme.org"
    assert _own_page("What is Acme Corp's e-mail address?", "Contact",
                     "Write to info(at)acme.org").answer.value == "info(at)acme.org"
    # A bare "at" is a word of the sentence.
    assert _own_page("What is Acme Corp's e-mail address?", "Contact",
                     "Meet us at Acme dot com events.").answer is None


def test_a_verb_of_reaching_the_contact_names_no_purpose():
    lines = ("Government and law enforcement personnel submitting a legal request to Acme Corp should transmit it "
             "from their official email address to legal@acme.example.",
             "Contact: customer support: email support@acme.example, languages English, Spanish")
    reading = _own_page("What e-mail address should law enforcement use to send legal requests to Acme Corp?",
                        "Legal process guidelines", *lines)
    assert reading.answer is not None and reading.answer.value == "legal@acme.example"


def test_a_name_with_its_legal_form_states_the_legal_form():
    line = "The elected board of Acme e.V., the official registered non-profit association, consists of volunteers."
    reading = _own_page("What is Acme's legal form / official entity?", "Team", line, company="Acme")
    assert reading.question.legal_form and states_question(reading.question, reading.sentences[0])
    other = _own_page("What is Acme's legal form?", "Team", "The elected board of Acme consists of volunteers.",
                      company="Acme")
    assert not states_question(other.question, other.sentences[0])


def test_a_card_joined_from_a_name_and_a_role_heading_names_the_holder_of_the_asked_part():
    lines = ("Rahel Becker: Ethics Commission Member", "Arndt Leininger: Chair of the Ethics Commission")
    reading = _own_page("Who chairs Acme Corp's ethics commission?", "Ethics", *lines)
    assert reading.answer is not None and reading.answer.value == "Arndt Leininger"
    assert reading.answer.confidence == "medium"
    # Another body's commission is another body's.
    other = _own_page("Who chairs Acme Corp's ethics commission?", "Ethics",
                      "Arndt Leininger: Chair of the Globex Ethics Commission")
    assert other.answer is None


def test_changing_the_name_of_the_company_from_one_name_to_another_names_its_former_name():
    line = "We have officially changed the name of the company operating Acme from Globex Limited to Acme Limited."
    reading = _own_page("What was the legal name of the company behind Acme before it was renamed?",
                        "Change of company name to Acme Limited", line, company="Acme")
    assert reading.answer is not None and reading.answer.value == "Globex Limited"
    # Another's renaming names no former name of the subject's.
    other = _own_page("What was Acme's former name?", "News",
                      "Globex changed the name of the product from Widget Pro to Widget Max.", company="Acme")
    assert other.answer is None


# --- Session 55: signals read off Masterpoint and the OpenHW Group (tuned) ---------------------------------------------


@pytest.mark.parametrize("question", ["What kind of legal organisation is Acme Group?", "What is Acme Group's legal status?"])
def test_a_legal_form_asked_in_other_words_is_read_from_a_hyphenated_form(question):
    lines = ("Enforce adherence to legal guidelines to maintain the Acme Group’s non-profit legality and ethics",
             "The Acme Group is a global, non-profit, member-driven organization based in Canada.")
    reading = _own_page(question, "About Acme Group", *lines, company="Acme Group")
    # The parse splits "non-profit" into three tokens; the duty of a job advert says nothing of what Acme is.
    assert [s.text for s in reading.sentences if states_question(reading.question, s)] == [lines[1]]


def test_a_board_list_of_names_with_their_roles_in_brackets_answers_who_holds_a_role():
    board = "# Board members\n\n- Dan Lee (President)\n- Ann Roe (Secretary)\n- Jo Park (Treasurer)"
    reading = _own_page("Who is the president of Acme Group?", "Acme Group", board, company="Acme Group")
    assert reading.answer is not None and reading.answer.value == "Dan Lee"
    reading = _own_page("Who is the treasurer of Acme Group?", "Acme Group", board, company="Acme Group")
    assert reading.answer is not None and reading.answer.value == "Jo Park"


def test_a_capacity_after_as_is_no_person_though_the_recogniser_reads_one():
    duties = ("In 2024, I also volunteered my time as President of Acme Group, volunteered as Accounting Clerk, and "
              "volunteered as Development Director.")
    board = "# Board members\n\n- Dan Lee (President)\n- Ann Roe (Secretary)"
    reading = _own_page("Who is the president of Acme Group?", "Acme Group", duties, board, company="Acme Group")
    assert reading.answer is not None and reading.answer.value == "Dan Lee"
    listed = _own_page("Who founded Acme Group?", "Acme Group", "Acme Group was founded by engineers such as Jo Park.",
                       company="Acme Group")
    assert (listed.answer or listed.unsure).value == "Jo Park"  # "such as" lists people
