"""cikb.core.sentences: the one sentence splitter that retrieval, the reader and the citation check share."""

from __future__ import annotations

from cikb.core.sentences import card_sections, split_sentences


def test_abbreviations_and_initials_do_not_end_a_sentence() -> None:
    text = "Acme Corp. was founded by John F. Kennedy in 2011. Dr. Ruiz joined in 2014."
    assert split_sentences(text) == ["Acme Corp. was founded by John F. Kennedy in 2011.", "Dr. Ruiz joined in 2014."]
    assert split_sentences("Acme, Lda. (VAT PT 509876543) and Acme Pty. Ltd. trade. It grew.") == [
        "Acme, Lda. (VAT PT 509876543) and Acme Pty. Ltd. trade.", "It grew."]
    # A lower-case letter is an abbreviation too: a legal form written with spaces, "circa".
    assert split_sentences("Acme e. V.: https://registry.example/0abc12 Built c. 1400 by Acme. It grew.") == [
        "Acme e. V.: https://registry.example/0abc12 Built c. 1400 by Acme.", "It grew."]


def test_a_closing_quote_stays_with_its_sentence() -> None:
    assert split_sentences('She said "We ship today." Then it shipped.') == ['She said "We ship today."', "Then it shipped."]


def test_markdown_is_read_as_prose() -> None:
    markdown = ("# About\n\nWe make [anvils](https://acme.example/anvils) for **roadrunners**\nand coyotes.\n\n"
                "| a | b |\n|---|---|\n\n- Founded: 2011\nEmployees: 420")
    assert split_sentences(markdown) == ["We make anvils for roadrunners and coyotes.", "Founded: 2011", "Employees: 420"]
    assert split_sentences(markdown, headings=True)[0] == "About"


def test_a_character_markdown_escaped_is_read_as_itself() -> None:
    markdown = r"We are \~30 engineers in \[Paris\]. A \*literal\* star and **bold**."
    assert split_sentences(markdown) == ["We are ~30 engineers in [Paris].", "A *literal* star and bold."]


def test_short_pieces_are_dropped_on_request() -> None:
    assert split_sentences("Yes! Acme was founded in 2011.", min_words=4) == ["Acme was founded in 2011."]


def test_a_short_label_line_states_a_fact_and_is_kept() -> None:
    imprint = "Acme GmbH\n\nVAT ID: DE123456789\n\nContact:\n\nRead more"
    assert split_sentences(imprint, min_words=4) == ["VAT ID: DE123456789"]


def test_a_heading_ends_the_paragraph_above_it() -> None:
    text = ("Intro text before any heading.\n\n## 1.6 Definitions\n\nAffiliate: A firm that controls another one.\n"
            "### 1.7 Contact\nWrite to us at the address below.")
    assert split_sentences(text) == ["Intro text before any heading.", "Affiliate: A firm that controls another one.",
                                     "Write to us at the address below."]
    assert split_sentences(text, headings=True)[1:3] == ["1.6 Definitions", "Affiliate: A firm that controls another one."]


TEAM_PAGE = """## Leadership

### Jane Roe

#### Chief Executive Officer

Jane has built teams for twenty years. She lives in Ohio.

### Kim Lee

#### President

## Our history

Acme was founded in 2011 by a group of engineers.
"""


def test_a_heading_followed_directly_by_a_deeper_one_is_read_as_one_card_on_request() -> None:
    # A team card: the name's heading and the role's heading under it, the section's title left alone.
    assert split_sentences(TEAM_PAGE, min_words=4, cards=True) == [
        "Jane Roe: Chief Executive Officer",
        "Jane has built teams for twenty years.",
        "She lives in Ohio.",
        "Kim Lee: President",  # a card whatever its length
        "Acme was founded in 2011 by a group of engineers.",
    ]
    assert "Jane Roe: Chief Executive Officer" not in split_sentences(TEAM_PAGE, min_words=4)


def test_a_short_heading_over_a_value_alone_is_a_label_line_and_a_coded_line_is_kept() -> None:
    box = "#### Cage Code\n\n79H77\n\n#### Founded\n\n2014\n\n## Milestones\n\n2016\n\nWe opened an office in Lyon."
    assert split_sentences(box, min_words=4, cards=True) == ["Cage Code: 79H77", "Founded: 2014",
                                                               "We opened an office in Lyon."]
    # A label of a word or two and a code, without a colon, states a fact in few words; "Page 2" does not.
    assert split_sentences("EIN 12-3456789\n\nPage 2", min_words=4) == ["EIN 12-3456789"]
    # So does a team list's name, a dash and a role.
    assert split_sentences("- Dan Lee — President\n- Read more", min_words=4) == ["Dan Lee — President"]
    # And a name with its role in brackets; a bracket after one word, or a line that goes on, is none.
    team = "# Board members\n\n- Dan Lee (President)\n- Ann Roe (Treasurer)\n- Downloads (PDF)\n- Read (more) here"
    assert split_sentences(team, min_words=4) == ["Dan Lee (President)", "Ann Roe (Treasurer)"]


def test_a_card_is_given_the_title_of_the_section_it_sits_in() -> None:
    text = ("## The Board of Directors\n\nThe board sets the direction of Acme.\n\n"
            "### Jane Roe\n\n#### Chair\n\nJane joined in 2017.\n\n### Richard Miles\n\n#### Treasurer\n\n"
            "Richard keeps the books.\n\n## Staff\n\n### Ann Lee\n\n#### Executive Director\n\nAnn runs Acme.")
    assert card_sections(text) == {"Jane Roe: Chair": "The Board of Directors",
                                   "Richard Miles: Treasurer": "The Board of Directors",
                                   "Ann Lee: Executive Director": "Staff"}
    assert card_sections("### Jane Roe\n\n#### Chair\n\nJane joined in 2017.") == {"Jane Roe: Chair": ""}


def test_headings_with_prose_between_or_of_section_length_are_no_card() -> None:
    assert split_sentences("## Products\n\nWe make anvils.\n\n### Anvils\n\nHeavy ones.", cards=True) == [
        "We make anvils.", "Heavy ones."]
    long_title = "## What we learned from ten years of making anvils for the world\n\n### Lessons\n\nMany."
    assert split_sentences(long_title, cards=True) == ["Many."]


def test_a_heading_that_labels_a_name_with_a_role_is_a_card_of_its_own() -> None:
    page = ("# Leadership team\n\nThese are the people you meet.\n\n"
            "## Tsvetan Usunov – Founder and Chief Executive Officer\n\nTsvetan founded the company in 1991.\n\n"
            "## 2019 – the year we grew\n\nWe moved.")
    assert split_sentences(page, min_words=4, cards=True) == [
        "These are the people you meet.", "Tsvetan Usunov – Founder and Chief Executive Officer",
        "Tsvetan founded the company in 1991."]
    assert split_sentences(page, min_words=4) == [  # only on request
        "These are the people you meet.", "Tsvetan founded the company in 1991."]


def test_a_heading_of_a_persons_name_over_a_line_of_their_office_is_a_card() -> None:
    page = ("# Team\n\nA small team in Athens.\n\n## Pierros Papadeas\n\nCo-founder and Executive Director.\n\n"
            "Pierros leads the foundation.\n\n## Manthos Papamatthaiou\n\n"
            "Co-founder and Head of Hardware. Manthos designs our ground stations.\n\n"
            "## Support Plans\n\nEvery plan includes a named support lead.\n\n"
            "## Jane Roe\n\nShe joined us in 2019, after six years at Globex, and leads our sales team.")
    # Not a heading that is no person's name, nor a first line that says more than an office.
    assert split_sentences(page, min_words=3, cards=True) == [
        "A small team in Athens.", "Pierros Papadeas — Co-founder and Executive Director.",
        "Pierros leads the foundation.",
        "Manthos Papamatthaiou — Co-founder and Head of Hardware.", "Manthos designs our ground stations.",
        "Every plan includes a named support lead.",
        "She joined us in 2019, after six years at Globex, and leads our sales team."]


def test_a_two_cell_row_whose_value_says_its_own_kind_is_a_label_line() -> None:
    # An imprint's key-value table (its first row taken for a header by the extractor): a registry or tax code,
    # a phone number and an e-mail address are what their row's label says, whatever the header above them.
    imprint = ("# Company details\n\n| Company name | Acme SIA |\n|---|---|\n| Registration number | 40103980741 |\n"
               "| VAT number | LV40103980741 |\n| Commercial register | HRB 198435 B |\n| Phone | +371 6700 0000 |\n"
               "| E-mail | hello@acme.example |\n| Founded | 2014 |\n| Employees | about 40 |")
    assert split_sentences(imprint, min_words=4) == [
        "Registration number: 40103980741", "VAT number: LV40103980741", "Commercial register: HRB 198435 B",
        "Phone: +371 6700 0000", "E-mail: hello@acme.example"]
    # A value the header must say the kind of stays unread, as do a label with digits and a sentence of a cell.
    other = "| Period | Runway |\n|---|---|\n| Past Month | 2 months |\n| Q3 2024 | AB123456 |\n| Basic | 1000 |"
    assert split_sentences(other, min_words=4) == []


def test_a_first_row_the_extractor_made_a_header_is_read_where_its_value_says_its_own_kind() -> None:
    # trafilatura writes a table without a header with its first row as the header: a column's title is no value,
    # but "| General enquiries | info@acme.example |" is a row of data wherever it stands.
    contacts = ("| General enquiries | info@acme.example |\n|---|---|\n| Orders and support | support@acme.example |\n"
                "| Press | press@acme.example |")
    assert split_sentences(contacts, min_words=4) == [
        "General enquiries: info@acme.example", "Orders and support: support@acme.example", "Press: press@acme.example"]


def test_a_team_tables_row_is_read_as_its_persons_card() -> None:
    table = ("## Leadership\n\n| Name | Role |\n|---|---|\n| Renaud Chaput | Chief Technology Officer |\n"
             "| Past Month | 2 months |\n| Hannah Aubry | Head of Community |")
    # A row of a name and an office; not a row of a label and a value (session 55's runway table stays unread).
    assert split_sentences(table, min_words=4) == ["Renaud Chaput — Chief Technology Officer",
                                                   "Hannah Aubry — Head of Community"]


def test_a_run_of_short_lines_is_read_as_one_line_where_the_caller_accepts_it() -> None:
    # Extractors write an address block one line to a paragraph; each line alone is too short to be read.
    imprint = ("# Imprint\n\nAcme GmbH\n\nHafenstraße 12\n\n20457 Hamburg\n\nGermany\n\nPhone: +49 40 1234567\n\n"
               "Home\n\nPricing\n\nBlog\n\nWe answer every message within a day.")
    is_address = lambda text: "20457 Hamburg" in text  # noqa: E731 - the reader passes its address test
    assert split_sentences(imprint, min_words=4, blocks=is_address) == [
        "Acme GmbH, Hafenstraße 12, 20457 Hamburg, Germany",
        "Phone: +49 40 1234567",  # a label line is a line of its own, and ends the run
        "We answer every message within a day.",  # a run the caller refuses stays apart ("Home", "Pricing", "Blog")
    ]
    assert split_sentences(imprint, min_words=4) == ["Phone: +49 40 1234567", "We answer every message within a day."]


def test_a_date_alone_on_its_line_dates_the_sentence_after_it():
    timeline = ("## Milestones\n\n2014\n\nJane Roe founds Acme in August. It hires ten people.\n\n"
                "### May 2016\n\nLaunched Anvil.")
    assert split_sentences(timeline, dated=True) == [
        "2014: Jane Roe founds Acme in August.", "It hires ten people.", "May 2016: Launched Anvil."]
    # Without it, a lone year is a piece of its own, and a number that is no year is never a date.
    assert split_sentences(timeline)[:2] == ["2014", "Jane Roe founds Acme in August."]
    assert split_sentences("30+\n\nEmbedded across federal agencies.", dated=True)[0] == "30+"


def test_a_definition_lists_term_and_value_are_one_label_line():
    # Extractors write <dt>Founded:</dt><dd>2014</dd> as two list items; a label may hold a hyphen.
    facts = "- Founded:\n- 2014\n- USt-ID:\n- DE344258260\n- Plain item\n- Other item\n\nVAT-ID: DE344258260"
    assert split_sentences(facts) == ["Founded: 2014", "USt-ID: DE344258260", "Plain item", "Other item",
                                      "VAT-ID: DE344258260"]
    # A label line is kept however short, a hyphen in its label or not.
    assert split_sentences(facts, min_words=4) == ["Founded: 2014", "USt-ID: DE344258260", "VAT-ID: DE344258260"]


def test_a_list_items_unmarked_next_lines_continue_it():
    # Extractors write <br> inside a list item as a line break: "- Address:", "- Acme Inc,", then the street.
    contact = "- Address:\n- Acme Inc,\n228 East 45th Street\nNew York, NY 10017\n- Phone: +1 212 555 0100"
    assert split_sentences(contact) == ["Address: Acme Inc, 228 East 45th Street New York, NY 10017",
                                        "Phone: +1 212 555 0100"]
    # A "Label: value" line outside a list stands alone: the line after it is a line of its own.
    assert split_sentences("Phone: +1 212 555 0100\nWe answer within a day.") == [
        "Phone: +1 212 555 0100", "We answer within a day."]


def test_a_question_heading_is_read_with_its_answers_first_sentence() -> None:
    faq = ("## Frequently asked questions\n\n### What does Acme mean?\n\nOur name is short for Anvil Company. "
           "It was chosen in 1999.\n\n### Is there a free plan?\n\n### Where are you based?\n\nIn Porto.")
    assert split_sentences(faq, asked=True) == [
        "What does Acme mean? Our name is short for Anvil Company.", "It was chosen in 1999.",
        "Where are you based? In Porto."]
    assert split_sentences(faq) == ["Our name is short for Anvil Company.", "It was chosen in 1999.", "In Porto."]


def test_an_address_block_broken_into_lines_is_read_as_one_line_with_the_name_first() -> None:
    def postal(text: str) -> bool:
        return "212 22" in text

    markdown = "## Address\n\nAcme AB\nSödra Bulltoftavägen 46\n\nSE – 212 22 MALMÖ\n\nSWEDEN"
    assert split_sentences(markdown, blocks=postal) == ["Acme AB, Södra Bulltoftavägen 46, SE – 212 22 MALMÖ, SWEDEN"]
    # A wrapped sentence's break is no line of a block; nor is a line that ends a sentence.
    assert split_sentences("We were founded in\n2013 by Jane Roe.", blocks=postal) == [
        "We were founded in 2013 by Jane Roe."]
    assert split_sentences("Founded in 2013.\nWe grew fast.", blocks=postal) == ["Founded in 2013.", "We grew fast."]
    # Read without blocks (as retrieval reads), the lines stay as the paragraph joins them.
    assert split_sentences(markdown)[0] == "Acme AB Södra Bulltoftavägen 46"


def test_a_whole_address_line_joins_the_block_around_it() -> None:
    # A footer lists the company, its address on one line, and its e-mail: one block, though the address is long.
    def postal(text: str) -> bool:
        return "FL 33929" in text

    footer = ("## Site footer\n\n- Acme Foundation\n- 20791 Three Oaks Pkwy, #980, Estero, FL 33929\n"
              "- hello@acme.example\n- Acme Foundation is a registered 501(c)(6) organization under US law.")
    assert split_sentences(footer, blocks=postal) == [
        "Acme Foundation, 20791 Three Oaks Pkwy, #980, Estero, FL 33929, hello@acme.example",
        "Acme Foundation is a registered 501(c)(6) organization under US law."]
    # A sentence that gives the address ends with its full stop: it stays a sentence of its own.
    said = "- Acme Foundation\n- Write to us at 20791 Three Oaks Pkwy, #980, Estero, FL 33929.\n- hello@acme.example"
    assert "Write to us at 20791 Three Oaks Pkwy, #980, Estero, FL 33929." in split_sentences(said, blocks=postal)


def test_a_german_street_names_abbreviation_ends_no_sentence():
    assert split_sentences("Acme e.V. Pasteurstr. 34 10407 Berlin E-Mail: info@acme.example") == [
        "Acme e.V. Pasteurstr. 34 10407 Berlin E-Mail: info@acme.example"]
    assert split_sentences("Acme GmbH, Hauptstr. 5, 10115 Berlin. We moved in 2020.") == [
        "Acme GmbH, Hauptstr. 5, 10115 Berlin.", "We moved in 2020."]


def test_a_tables_cells_of_prose_are_read_as_sentences() -> None:
    table = ("## 2024 Expenditures\n\n| Expense | Cost | Description |\n|---|---|---|\n"
             "| Employees | $154,263 | Acme has one employee, its lead engineer. She also chairs the board. |\n"
             "| CI | $14,986 | Servers |\n\n| Period | Runway |\n|---|---|\n| Past Month | 2 months |")
    # Header rows and short cells say nothing alone: "Past Month: 2 months" would be a label the table does not give.
    assert split_sentences(table, min_words=4) == ["Acme has one employee, its lead engineer.", "She also chairs the board."]
