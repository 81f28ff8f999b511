"""clean.clean_page on pages of our own: C1 (boilerplate out, headings in), C2 (NFC, bounds), C3 (English only)."""

from __future__ import annotations

import unicodedata
from datetime import date, datetime, timezone

import pytest
from cikb.clean import clean_page, detect_language
from cikb.clean.extraction import _with_card_galleries, _with_card_headings, _with_contact_links
from cikb.clean.facts import load_html
from cikb.core.sentences import split_sentences

from cikb.core.config import CleanSettings
from cikb.core.models import DropReason, FetchedPage, RawDocument

FETCHED_AT = datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)

ABOUT = [
    "Acme Corporation designs and manufactures industrial equipment for customers in more than forty countries. "
    "The company was founded in 1949 in Phoenix, Arizona, by a group of engineers who wanted to build reliable tools.",
    "Today Acme employs about 12,000 people and operates factories in Arizona, Ohio and Bavaria. "
    "Its best known products are heavy anvils, portable holes and rocket-powered roller skates.",
    "The company is led by Wile E. Coyote, who became chief executive officer in 1950, and by a board of seven directors. "
    "Acme reported revenue of 4.2 billion dollars in its most recent fiscal year.",
]

GERMAN = [
    "Die Acme GmbH entwickelt und fertigt seit vielen Jahren Maschinen für die Industrie in ganz Europa. "
    "Das Unternehmen wurde im Jahr 1949 gegründet und hat seinen Sitz heute in München.",
    "Unsere Mitarbeiterinnen und Mitarbeiter arbeiten jeden Tag daran, die Wünsche unserer Kunden zu erfüllen. "
    "Wir legen großen Wert auf Qualität, Nachhaltigkeit und eine partnerschaftliche Zusammenarbeit.",
]

COOKIE_TEXT = "We use cookies to improve your experience on our website. By continuing to browse you accept our cookie policy."


def page_html(
    body: str,
    *,
    title: str = "About us | Acme Corp",
    lang: str = "en",
    before: str = "",
    after: str = "",
) -> str:
    """A typical company page: nav, sidebar and footer around an article."""
    return f"""<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title></head><body>
{before}
<header><nav><ul><li><a href="/">Home</a></li><li><a href="/about/">About</a></li><li><a href="/press/">Press room</a></li>
<li><a href="/careers/">Careers at Acme</a></li></ul></nav></header>
<aside class="sidebar"><h3>Popular posts</h3><ul><li><a href="/p/1">Ten uses for a rubber band</a></li>
<li><a href="/p/2">Anvil safety explained for everyone</a></li></ul></aside>
<main><article>{body}</article></main>
<footer><p>Copyright 2024 Acme Corp. All rights reserved. Imprint and terms of service apply to this website.</p>
<ul><li><a href="/privacy">Privacy policy</a></li><li><a href="/terms">Terms</a></li></ul></footer>
{after}
</body></html>"""


def paragraphs(texts: list[str]) -> str:
    return "".join(f"<p>{text}</p>" for text in texts)


def fetched(html: str, url: str = "https://acme.example/about/") -> FetchedPage:
    return FetchedPage(url=url, source_type="website", html=html, fetched_at=FETCHED_AT)


def clean(html: str, settings: CleanSettings | None = None, **kwargs: object) -> RawDocument | DropReason:
    return clean_page(fetched(html), "acme-corp", settings or CleanSettings(), **kwargs)


def document(html: str, settings: CleanSettings | None = None, **kwargs: object) -> RawDocument:
    result = clean(html, settings, **kwargs)
    assert isinstance(result, RawDocument), f"dropped: {result}"
    return result


ABOUT_PAGE = page_html(f"<h1>About Acme Corp</h1>{paragraphs(ABOUT[:2])}<h2>Leadership</h2>{paragraphs(ABOUT[2:])}")


def test_an_english_page_becomes_a_document_with_its_metadata() -> None:
    doc = document(ABOUT_PAGE)
    assert doc.url == "https://acme.example/about/"
    assert doc.company == "acme-corp"
    assert doc.source_type == "website"
    assert doc.scraped_at == FETCHED_AT
    assert "About" in doc.title and "Acme" in doc.title
    for text in ABOUT:
        assert text in doc.content
    assert doc.page_kind == "company"


def test_the_document_says_what_kind_of_page_it_is() -> None:
    # gather.page_kind's verdict on the URL and the title, which retrieval weighs (retrieve.page_kind_weights).
    as_kind = {path: clean_page(fetched(ABOUT_PAGE, f"https://acme.example{path}"), "acme-corp", CleanSettings()).page_kind
               for path in ("/about/", "/blog/", "/docs/anvils/", "/2024/05/24/acme-turns-75")}
    assert as_kind == {"/about/": "company", "/blog/": "listing", "/docs/anvils/": "generic", "/2024/05/24/acme-turns-75": "news"}


POST_TITLE = "Acme grows again | Acme Corp"


def dated_page(published: str, title: str = POST_TITLE) -> str:
    """A page whose markup gives its publication date (the meta tag posts carry), with a copyright footer."""
    return page_html(paragraphs(ABOUT), title=title).replace(
        "<head>", f'<head><meta property="article:published_time" content="{published}T09:00:00+00:00">')


def test_a_post_keeps_the_publication_date_its_markup_gives() -> None:
    post = clean_page(fetched(dated_page("2019-03-05"), "https://acme.example/blog/acme-names-a-new-ceo"), "acme-corp",
                      CleanSettings())
    assert isinstance(post, RawDocument) and post.published == date(2019, 3, 5)


def test_a_post_is_dated_by_its_url_when_its_markup_is_silent() -> None:
    post = clean_page(fetched(page_html(paragraphs(ABOUT), title=POST_TITLE), "https://acme.example/2021/06/14/acme-opens-berlin"),
                      "acme-corp", CleanSettings())
    assert isinstance(post, RawDocument) and post.published == date(2021, 6, 14)


def test_no_date_is_guessed_from_the_text_or_the_copyright_footer() -> None:
    undated = page_html(paragraphs([*ABOUT, "The plant opened on 12 March 2015 after two years of building."]), title=POST_TITLE)
    post = clean_page(fetched(undated, "https://acme.example/blog/our-new-plant"), "acme-corp", CleanSettings())
    assert isinstance(post, RawDocument) and post.published is None


@pytest.mark.parametrize(("path", "title"), [("/about/", "About us | Acme Corp"), ("/blog/", "Blog | Acme Corp"),
                                             ("/company/brand/", "Our brand | Acme Corp")])
def test_fact_pages_listings_and_other_pages_carry_no_publication_date(path: str, title: str) -> None:
    # A site may stamp every page with its launch date: on an about page, a blog index or a brand page the
    # markup's date is not when the page's statements held.
    doc = clean_page(fetched(dated_page("2017-06-18", title), f"https://acme.example{path}"), "acme-corp", CleanSettings())
    assert isinstance(doc, RawDocument) and doc.published is None


def test_headings_are_kept_as_markdown_headings() -> None:
    lines = document(ABOUT_PAGE).content.split("\n")
    assert "# About Acme Corp" in lines
    assert "## Leadership" in lines


def test_navigation_sidebar_and_footer_are_removed() -> None:
    content = document(ABOUT_PAGE).content
    for boilerplate in ("Press room", "Careers at Acme", "Popular posts", "rubber band", "All rights reserved", "Privacy policy"):
        assert boilerplate not in content


def test_a_body_written_after_a_closing_html_tag_is_read_as_a_browser_reads_it() -> None:
    # A theme that closes </html> after </head>, then writes <body>: libxml2 ends the document at </html>.
    early_close = ABOUT_PAGE.replace("</head><body>", "</head></html><body>", 1)
    assert "</html><body>" in early_close
    for html in (early_close, early_close.encode()):
        content = clean_page(fetched(html), "acme-corp", CleanSettings()).content
        for text in ABOUT:
            assert text in content
        assert "Press room" not in content


def test_a_contact_whose_link_block_is_dropped_comes_back_after_the_paragraph_that_introduces_it() -> None:
    # A contact page's card: a paragraph, then a button that is nothing but a mailto: link (trafilatura drops it).
    card = ('<div class="card"><h2>General</h2><p>For general information or volunteer opportunities, please email '
            'us:</p><div class="small"><a class="arrow" href="mailto:contact@acme.example">&gt;&gt; contact@acme.example'
            '</a></div></div>')
    content = document(page_html(f"<h1>Contact</h1><p>{ABOUT[0]}</p>{card}")).content
    assert "please email us: contact@acme.example" in content
    # An address the text already holds is not repeated; one in the site's footer is not the page's.
    inline = '<p>Write to <a href="mailto:press@acme.example">press@acme.example</a> for press questions.</p>'
    footer = '<footer><p>Questions?</p><div><a href="mailto:web@acme.example">web@acme.example</a></div></footer>'
    content = document(page_html(f"<h1>About Acme Corp</h1>{paragraphs(ABOUT)}{inline}", after=footer)).content
    assert content.count("press@acme.example") == 1 and "web@acme.example" not in content


def test_contact_links_after_an_address_written_over_several_lines_come_back_below_it_as_written() -> None:
    # An address paragraph whose line breaks the Markdown keeps apart, then a paragraph of nothing but links.
    block = ('<h3>Contact us</h3><p>Castellastraat 26<br>6512 EX Nijmegen<br>The Netherlands</p>'
             '<p><a href="tel:+31243010484">+31 24 30 10 484</a><br>'
             '<a href="mailto:info@acme.example">info@acme.example</a></p>')
    said = "### Contact us\n\nCastellastraat 26\n\n6512 EX Nijmegen\n\nThe Netherlands"
    tree = load_html(f"<html><body><main><div>{block}</div></main></body></html>")
    assert _with_contact_links(said, tree) == f"{said}\n\n+31 24 30 10 484 info@acme.example"


def test_a_phone_link_comes_back_unless_the_text_holds_its_digits() -> None:
    html = ('<html><body><main><div><p>For orders of anvils in bulk, please call our sales desk:</p>'
            '<div><a href="tel:+15550100">Call now</a></div></div></main></body></html>')
    tree = load_html(html)
    said = "For orders of anvils in bulk, please call our sales desk:"
    assert _with_contact_links(said, tree) == f"{said} +15550100"
    assert _with_contact_links(f"{said} +1 (555) 0100", tree) == f"{said} +1 (555) 0100"


def _gallery_card(name: str, *lines: str) -> str:
    said = "<br />\n   ".join(lines)
    return f'<div class="member"><img src="/{name[:3]}.png" /><div><h4>{name}</h4>\n   {said}<br />\n</div></div>'


def test_a_gallery_of_cards_without_paragraphs_comes_back_at_the_end_of_its_section() -> None:
    # A board page: each card a name and short lines parted by <br>, no paragraph (trafilatura drops such cards).
    intro = "Our Board is made of directors elected from among our member organisations, for two-year terms."
    board = (_gallery_card("Jane Roe", "Member Director (Globex)", "Board Chair", 'GitHub: <a href="/gh/jroe">jroe</a>')
             + _gallery_card("Richard Miles", "Treasurer"))
    committee = _gallery_card("Nick Doe", "Elected Delegate", "Committee Chair") + _gallery_card("Jane Roe", "Delegate")
    governs = "The committee governs the projects that the alliance hosts and the way they are run."
    tree = load_html(page_html(f'<h2>Board</h2><p>{intro}</p><div class="gallery">{board}</div><h2>Committee</h2>'
                               f'<p>{governs}</p><div class="gallery">{committee}</div>'
                               f'<h2>Values</h2><p>{ABOUT[0]}</p>'))
    kept = f"## Board\n\n{intro}\n\n## Committee\n\n{governs}\n\n## Values\n\n{ABOUT[0]}"
    assert _with_card_galleries(kept, tree) == (
        f"## Board\n\n{intro}\n\n#### Jane Roe\n\n##### Member Director (Globex), Board Chair\n\n#### Richard Miles\n\n"
        f"##### Treasurer\n\n## Committee\n\n{governs}\n\n#### Nick Doe\n\n##### Elected Delegate, Committee Chair\n\n"
        f"#### Jane Roe\n\n##### Delegate\n\n## Values\n\n{ABOUT[0]}")  # a name on two boards, on each with its office
    # Cards it kept are not repeated; one card alone is no gallery (a heading over a line may be anything).
    assert _with_card_galleries(_with_card_galleries(kept, tree), tree) == _with_card_galleries(kept, tree)
    alone = load_html(page_html(f"<h2>Board</h2><p>{intro}</p>{_gallery_card('Jane Roe', 'Board Chair')}"))
    assert _with_card_galleries(f"## Board\n\n{intro}", alone) == f"## Board\n\n{intro}"
    # Nor are a sidebar's blocks of links: where to go, not what a card says.
    links = "".join(_gallery_card(name, '<a href="/a">Apps</a>', '<a href="/rss">RSS</a>')
                    for name in ("News", "Opinion"))
    sidebar = load_html(page_html(f"<h2>Board</h2><p>{intro}</p>{links}"))
    assert _with_card_galleries(f"## Board\n\n{intro}", sidebar) == f"## Board\n\n{intro}"


def _card(name: str, *lines: str, bio: str) -> str:
    beside = "".join(f'<div class="uppercase">{line}</div>' for line in lines)
    return (f'<div class="border rounded"><div class="flex"><img src="/{name[:3]}.png" alt="{name}"><div>'
            f'<h3 class="text-xl">{name}</h3>{beside}</div></div><p>{bio}</p></div>')


def test_a_team_cards_name_and_role_come_back_as_a_heading_over_a_deeper_one() -> None:
    # A utility-class theme's team cards, where trafilatura kept the bios and dropped each card's name and role.
    jane = "Jane joined the anvil business in 2017 and maintains several open projects for anvil makers."
    richard = "Richard brings a varied background as a serial entrepreneur, manager and teacher to the company."
    cards = (_card("Jane Roe", "Chair", bio=jane)
             + _card("Richard Miles", "Executive Director", "2021-02-22 - 2022-03-31", bio=richard))
    tree = load_html(page_html(f'<div class="grid">{cards}</div>'))
    restored = _with_card_headings(f"{jane}\n\n{richard}", tree)
    assert restored.split("\n\n") == ["### Jane Roe", "#### Chair", jane, "### Richard Miles",
                                        "#### Executive Director 2021-02-22 - 2022-03-31", richard]
    # A section's title over its paragraph comes back alone: the paragraph is the section's, not a card's lines.
    intro = "Does your company use anvils? Email us to join the conversation with other users of anvils."
    section = f'<div class="bg-gray-100"><h2>Sponsorship</h2><p>{intro}</p><div><a href="/s">Sponsor</a></div></div>'
    assert _with_card_headings(intro, load_html(page_html(section))).split("\n\n") == ["## Sponsorship", intro]
    # A card whose name it kept is left as it is.
    kept = f"### Jane Roe\n\nChair\n\n{jane}"
    assert _with_card_headings(kept, load_html(page_html(_card("Jane Roe", "Chair", bio=jane)))) == kept


def _about_page_of_sections(support: str, *, article: bool = False) -> str:
    bio = ("{0} is a platform engineer who has built cloud systems for many teams over the years and enjoys hiking in "
           "the mountains near home. Outside of work {0} plays piano and reads history books.")
    cards = "".join(f'<div class="col"><h3>Person {i}</h3><h4>Engineer</h4><p>{bio.format(f"Person {i}")}</p></div>'
                    for i in range(6))
    team = f'<section id="team"><h2>Our Team</h2><div class="row">{cards}</div></section>'
    if article:
        team = f"<article>{team}</article>"
    return page_html("").replace("<main><article></article></main>", f"<main>{team}{support}</main>")


def test_the_prose_of_a_main_section_trafilatura_left_out_comes_back_under_its_heading() -> None:
    # An about page of several sections: trafilatura keeps the team and drops whom the company supports, a block of
    # text in a <div> of its own.
    planet = "We are proud to be a member of 1% for the Planet, a global network of businesses that give to nature."
    support = (f'<section><h3>Who We Support</h3><div class="supportBx"><h3>1% for the Planet</h3>'
               f'<div class="supportDesc">{planet}</div><div class="more">Read more</div></div>'
               '<aside><p>Sign up to our newsletter for monthly updates on all of our open source work.</p></aside>'
               "</section>")
    content = document(_about_page_of_sections(support)).content
    assert f"## 1% for the Planet\n\n{planet}" in content and content.count("1% for the Planet, a global") == 1
    assert "Read more" not in content and "newsletter" not in content  # no sentence; the page's frame
    # A page with an article: that is its main text, and the rest of <main> is not brought back.
    assert planet not in document(_about_page_of_sections(support, article=True)).content


def test_a_page_whose_dates_trip_the_metadata_step_keeps_its_text_and_title() -> None:
    # htmldate reads a term of office's "2021-02-22 - 2022-03-31" as a time with an offset of 2022 hours and raises;
    # trafilatura then dropped the whole page.
    term = '<div class="uppercase">2021-02-22 - 2022-03-31</div>'
    doc = document(page_html(f"<h1>Past boards</h1>{paragraphs(ABOUT)}{term}", title="Past Boards | Acme Corp"))
    assert ABOUT[0] in doc.content and doc.title.lower().startswith("past boards")


ARTICLE_FOOTER = (
    "Acme Corp is an employee-owned cooperative registered in Arizona since 1949. "
    "If you would like to support our work, please consider becoming a member."
)


def test_the_article_own_footer_prose_is_kept_and_the_site_footer_is_not() -> None:
    # trafilatura drops every footer; a post's own closing block is the page's text, not the site's.
    own_footer = (f'<div class="post-footer"><h6>Support our work</h6><p>{ARTICLE_FOOTER}</p>'
                  '<p>Published 10:02 AM EST Nov 19, 2019</p></div>')
    content = document(page_html(f"<h1>About Acme Corp</h1>{paragraphs(ABOUT)}{own_footer}")).content
    assert content.rstrip().endswith(ARTICLE_FOOTER)
    assert content.count("employee-owned cooperative") == 1
    for not_prose in ("Support our work", "Published 10:02", "All rights reserved", "Privacy policy"):
        assert not_prose not in content


def test_a_page_of_several_articles_gets_none_of_their_footers() -> None:
    # A listing's cards each have a footer ("posted by ..."); none of them is the page's own.
    cards = "".join(f'<article><h2>Post {i}</h2><p>{ABOUT[i]}</p><footer><p>{ARTICLE_FOOTER}</p></footer></article>'
                    for i in range(3))
    html = page_html("").replace("<main><article></article></main>", f"<main>{cards}</main>")
    assert "employee-owned cooperative" not in document(html).content


CONSENT_TEXT = "Your privacy matters to us. Choose which purposes you allow, then save your choices below."
AD_TEXT = "Special offer! Buy two anvils today and get the third one for free."


# Each of these sits inside the article, where trafilatura alone keeps it
# (checked with trafilatura 2.3); banners outside the article it drops itself.
@pytest.mark.parametrize(
    ("banner", "banner_text"),
    [
        (f"<p>{COOKIE_TEXT}</p>", "cookie"),  # marked by nothing but its wording
        (f'<div class="gdpr-box"><p>{CONSENT_TEXT}</p></div>', "privacy matters"),
        (f'<div class="cmp-container"><p>{CONSENT_TEXT}</p></div>', "privacy matters"),
        (f'<div role="dialog" aria-label="Cookie consent"><p>{CONSENT_TEXT}</p></div>', "privacy matters"),
        (f'<div id="cookie-banner"><p>{COOKIE_TEXT}</p><button>Accept all</button></div>', "cookie"),
    ],
    ids=["by-wording", "gdpr-class", "cmp-class", "aria-label", "cookie-id"],
)
def test_cookie_banners_are_removed(banner: str, banner_text: str) -> None:
    html = page_html(f"<h1>About Acme Corp</h1>{banner}{paragraphs(ABOUT)}", before=banner, after=banner)
    content = document(html).content
    assert banner_text not in content.lower()
    assert ABOUT[0] in content


def test_a_page_about_cookies_keeps_its_text() -> None:
    text = (
        "Acme's bakery division makes chocolate chip cookies in its Ohio plant, where a team of forty bakers works in two shifts. "
        "The cookies are sold in supermarkets across the United States and Canada, and the recipe has not changed since 1961."
    )
    html = page_html(f"<h1>Our bakery</h1><p>{text}</p>{paragraphs(ABOUT)}").replace("<body>", '<body class="cookie-consent-open">')
    assert text in document(html).content


@pytest.mark.parametrize("ad_class", ["ad advertisement", "sponsored"])
def test_ads_inside_the_article_are_removed(ad_class: str) -> None:
    ad = f'<div class="{ad_class}"><p>{AD_TEXT}</p></div>'
    content = document(page_html(f"<h1>About</h1>{paragraphs(ABOUT[:1])}{ad}{paragraphs(ABOUT[1:])}")).content
    assert "Special offer" not in content
    assert ABOUT[1] in content


def test_a_german_page_is_dropped_for_language() -> None:
    html = page_html(f"<h1>Über uns</h1>{paragraphs(GERMAN)}", title="Über uns | Acme", lang="de")
    assert clean(html) is DropReason.language


def test_the_language_comes_from_the_text_not_the_html_lang_attribute() -> None:
    # A German site template (lang="de", German nav) around an English article is kept.
    html = page_html(paragraphs(ABOUT), lang="de", title="Über Acme")
    assert isinstance(clean(html), RawDocument)


def test_language_detection_is_deterministic() -> None:
    # Short, mixed text is where unseeded langdetect flips between answers.
    mixed = "Acme GmbH Produkte products Qualität quality"
    assert len({detect_language(mixed) for _ in range(20)}) == 1


def test_link_paths_do_not_decide_the_language() -> None:
    # langdetect drops full URLs itself, but not the root-relative paths of a link list.
    paths = " ".join(f"/unternehmen/standorte/niederlassung-muenchen-{i}/" for i in range(30))
    assert detect_language(f"Find all our offices and contact people on these pages. {paths}") == "en"


def test_a_page_under_min_chars_is_dropped_as_too_short() -> None:
    assert clean(page_html("<h1>Hi</h1><p>Acme makes anvils.</p>")) is DropReason.too_short
    assert clean("") is DropReason.too_short
    assert clean("<html><body><nav><a href='/'>Home</a></nav></body></html>") is DropReason.too_short


def test_min_chars_comes_from_the_settings() -> None:
    html = page_html(paragraphs(ABOUT))
    assert clean(html, CleanSettings(min_chars=100_000)) is DropReason.too_short


def test_text_is_nfc_normalized() -> None:
    decomposed = "The Cafe\u0301 Zu\u0308rich office of Acme opened in 2019 and employs 80 engineers."
    assert not unicodedata.is_normalized("NFC", decomposed)
    content = document(page_html(f"<h1>Offices</h1><p>{decomposed}</p>{paragraphs(ABOUT)}")).content
    assert unicodedata.is_normalized("NFC", content)
    assert "Café Zürich" in content


def test_documents_over_max_chars_are_truncated_at_a_paragraph_boundary() -> None:
    numbered = [f"Paragraph {i}. {ABOUT[i % 3]}" for i in range(40)]
    full = document(page_html(paragraphs(numbered))).content
    settings = CleanSettings(max_chars=2_000)
    doc = document(page_html(paragraphs(numbered)), settings)
    assert len(full) > 2_000 >= len(doc.content) > 1_000
    assert full.startswith(doc.content)
    assert full[len(doc.content) : len(doc.content) + 2] == "\n\n"  # cut where a paragraph ended


def test_a_page_over_100_kb_of_text_is_bounded() -> None:
    long_page = page_html(paragraphs([f"Section {i}. {text}" for i in range(200) for text in ABOUT]))
    unbounded = document(long_page, CleanSettings(max_chars=10_000_000)).content
    assert len(unbounded.encode("utf-8")) > 100_000
    bounded = document(long_page, CleanSettings(max_chars=10_000_000), max_raw_bytes=100_000).content
    assert 90_000 < len(bounded.encode("utf-8")) <= 100_000
    assert len(document(long_page, max_raw_bytes=100_000).content) <= 50_000  # the default max_chars


def test_the_same_html_gives_the_same_document() -> None:
    first, second = document(ABOUT_PAGE), document(ABOUT_PAGE)
    assert first == second


def test_the_title_falls_back_to_the_first_heading_then_the_url() -> None:
    no_title = ABOUT_PAGE.replace("<title>About us | Acme Corp</title>", "")
    assert document(no_title).title == "About Acme Corp"
    bare = "<html><body><div>" + paragraphs(ABOUT) + "</div></body></html>"
    assert document(bare).title == "about"


def test_a_short_page_loses_its_navigation_too() -> None:
    # On a page this short trafilatura falls back to every line of the page, nav included.
    text = "Write to Acme Corp at 100 Main Street, Springfield, OR 97477, or call +1 555 0100."
    html = page_html(f"<h1>Contact Acme Corp</h1><p>{text}</p>")
    content = document(html, CleanSettings(min_chars=50)).content
    assert content == f"# Contact Acme Corp\n\n{text}"


def test_definition_pairs_the_extractor_drops_come_back_under_their_heading() -> None:
    # An imprint and a contact list as pages write them: <dt>/<dd> pairs, values that are e-mail links,
    # groups wrapped in <div>s (one without its <dl>). trafilatura drops most of them.
    imprint = ('<h2>Imprint</h2><dl><div><dt>Company name:</dt><dd>Acme GmbH</dd></div>'
               '<div><dt>Address:</dt><dd><address>Hafenweg 3<br/>20457 Hamburg<br/>Germany</address></dd></div>'
               '<div><dt>Contact:</dt><dd><a href="mailto:hello@acme.example">hello@acme.example</a></dd></div></dl>')
    contacts = ('<h2>Contact us</h2><div><dt>Press and media:</dt><dd>Interviews and press questions</dd>'
                '<dd><a href="mailto:press@acme.example">press@acme.example</a></dd></div>'
                '<div><dt>Point of contact:</dt><dd><a href="/help/contact">More information</a></dd></div>')
    chrome = '<nav><dl><dt>Shop:</dt><dd>Anvils and portable holes</dd></dl></nav>'
    content = document(page_html(f"<h1>About Acme Corp</h1>{paragraphs(ABOUT)}{chrome}{contacts}{imprint}")).content
    section = content[content.index("## Contact us"):content.index("## Imprint")]
    assert "- Press and media: Interviews and press questions; press@acme.example" in section
    imprint_lines = {"Company name: Acme GmbH", "Address: Hafenweg 3 20457 Hamburg Germany",
                     "Contact: hello@acme.example"}
    assert imprint_lines <= set(split_sentences(content[content.index("## Imprint"):]))
    for not_a_value in ("More information", "Point of contact", "Anvils and portable holes"):
        assert not_a_value not in content  # a link elsewhere is no value; navigation is no page text
    # What the extractor keeps is not written twice.
    kept = document(page_html(f"<h1>About Acme Corp</h1>{paragraphs(ABOUT)}<dl><dt>Founded</dt><dd>1949</dd>"
                              "<dt>Employees</dt><dd>About 12,000</dd></dl>")).content
    assert kept.count("1949") == 1 + ABOUT[0].count("1949") and kept.count("12,000") == 1 + ABOUT[1].count("12,000")


def test_a_list_of_bold_labelled_items_is_read_as_definition_pairs() -> None:
    # A board and a fact box written as lists of "<strong>Label:</strong> value" items, links around the names:
    # trafilatura drops such link-heavy lists. A value that is only a link ("download") is none.
    board = ('<h2>Board</h2><ul><li><strong>Chair:</strong> <a href="https://uni.example/roe">Jane Roe</a> '
             '(Springfield University)</li><li><strong>Treasurer:</strong> <a href="https://lab.example/doe">John '
             'Doe</a> (Shelbyville Lab)</li><li><strong>Statutes:</strong> <a href="/statutes.pdf">download</a></li>'
             '</ul>')
    one = '<ul><li><strong>Note:</strong> <a href="https://acme.example/a">a remark</a></li></ul>'
    tags = '<nav><ul><li><strong>Shop:</strong> Anvils</li><li><strong>Blog:</strong> Posts</li></ul></nav>'
    content = document(page_html(f"<h1>About Acme Corp</h1>{paragraphs(ABOUT)}{tags}{one}{board}")).content
    board_lines = set(split_sentences(content[content.index("## Board"):]))
    assert {"Chair: Jane Roe (Springfield University)", "Treasurer: John Doe (Shelbyville Lab)"} <= board_lines
    for not_a_pair in ("download", "Anvils"):
        assert not_a_pair not in content  # a link alone, navigation
    assert "- Note: a remark" not in content  # a list of one item is no fact box


def test_a_date_marked_up_as_time_keeps_its_text() -> None:
    # Hugo, Jekyll, Ghost and WordPress themes mark dates with <time>; trafilatura drops the element with its text.
    html = page_html(paragraphs([
        'Berlin, <time datetime="2024-03-21">21 March 2024</time> — Acme today opened a new office for its European customers.',
        "Acme was founded in <time>2013</time> in Amsterdam by Jane Roe and John Doe, two engineers who built anvils.",
        *ABOUT[:1],
    ]), title=POST_TITLE)
    post = document(html)
    assert "Acme was founded in 2013 in Amsterdam" in post.content
    assert "Berlin, 21 March 2024 — Acme today opened" in post.content


def test_a_page_about_cookies_keeps_its_headings_and_sentences_on_them() -> None:
    # An analytics or privacy company writes about cookies: its text is no banner, wherever it stands.
    body = ("<h1>Why we don't use cookies</h1><p>Cookies are the reason for those banners that follow you around the "
            "web: a site needs consent before storing anything on a visitor's device.</p><h2>The one cookie we use</h2>"
            "<p>Our site uses a single session cookie, which expires when you close your browser.</p>")
    content = document(page_html(body + paragraphs(ABOUT), title="Why we don't use cookies | Acme Corp")).content
    assert "## The one cookie we use" in content and "Our site uses a single session cookie" in content
    assert "needs consent before storing" in content
    # On any page, a sentence on cookies amid the text is the page's own; a banner's sits at either end of it.
    middle = "Our site uses no cookies at all, so visitors are never asked to accept a consent banner."
    more = ["Acme's anvils are forged in Ohio from recycled steel and tested one by one before they are shipped.",
            "Its roller skates are assembled in Bavaria, where a team of sixty engineers designs each new model."]
    content = document(page_html(f"<h1>About Acme Corp</h1>{paragraphs([*ABOUT[:2], middle, *ABOUT[2:], *more])}")).content
    assert middle in content


def _wiki_section(title: str, number: int) -> str:  # a section heading as MediaWiki writes it today, with its edit link
    return (f'<div class="mw-heading mw-heading2"><h2 id="{title}">{title}</h2><span class="mw-editsection">'
            f'<span class="mw-editsection-bracket">[</span><a href="/w/index.php?title=Acme&amp;action=edit&amp;section={number}">'
            f'<span>edit</span></a><span class="mw-editsection-bracket">]</span></span></div>')


def test_a_wiki_article_keeps_its_sections_in_order_without_edit_links_or_citation_marks() -> None:
    note = '<sup class="reference"><a href="#cite_note-{n}">[{n}]</a></sup>'
    needed = '<sup class="noprint Inline-Template">[<i><a href="/wiki/Citation_needed">citation needed</a></i>]</sup>'
    body = (
        f"<p>Acme Corp makes rocket skates and portable holes in Springfield, Ohio.{note.format(n=1)} It was founded in 1949 "
        f"as a mail-order business selling anvils.{needed}</p>"
        f"<p>Roadrunner Holdings bought Acme Corp in 2019, and Jane Roe has led it since 2021.{note.format(n=2)} "
        "The Springfield plant employs about four hundred people.</p>"
        f"{_wiki_section('History', 1)}<p>{ABOUT[0]} The first factory opened in Springfield in 1950 and made anvils.</p>"
        f"{_wiki_section('Products', 2)}<p>{ABOUT[1]} Its best known products are rocket skates and instant tunnels.</p>"
        f"{_wiki_section('References', 3)}<div class=\"reflist\"><ol class=\"references\"><li>^ \"Acme's plant\". "
        "Springfield Gazette. 2010.</li></ol></div>"
        f"{_wiki_section('External links', 4)}<ul><li><a href=\"https://acme.example/\">Official website</a></li></ul>"
    )
    doc = clean_page(FetchedPage(url="https://en.wikipedia.example/wiki/Acme_Corp", source_type="wikipedia",
                                 html=page_html(f"<h1>Acme Corp</h1>{body}"), fetched_at=FETCHED_AT), "acme-corp", CleanSettings())
    assert isinstance(doc, RawDocument), doc
    text = doc.content
    # Each heading block was taken for a team card ("References" over "[]") and put before the article's sections.
    assert text.index("History") < text.index("Products") and "[]" not in text and "### " not in text.split("History")[0]
    assert "edit" not in text and "[1]" not in text and "[2]" not in text and "citation needed" not in text
    assert "since 2021. The Springfield plant employs about four hundred people." in text
    assert "Springfield Gazette" not in text  # the footnotes' list: no text of the article


def test_headings_with_a_bracketed_link_are_no_gallery_of_cards() -> None:
    # Two heading blocks that hold only "[edit]" besides their title: "[]" once the link is left out, no card's line.
    html = page_html("<h1>Acme Corp</h1><div>" + "".join(
        f'<div class="heading"><h2>{title}</h2><span>[<a href="/edit/{n}">edit</a>]</span></div><p>{ABOUT[n]}</p>'
        for n, title in enumerate(["Sources", "Elsewhere"])) + "</div>")
    markdown = "# Acme Corp\n\n" + "\n\n".join(ABOUT[:2])
    assert _with_card_galleries(markdown, load_html(html)) == markdown  # "## Sources" over "### []" before
