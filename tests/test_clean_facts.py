"""Structured facts are kept (issue 10, item 2): schema.org data and the site-wide footer become one facts document."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timezone

import pytest
from sites import Reply, SiteServer

from cikb.app.documents import read_documents
from cikb.app.indexing import load_index
from cikb.app.pipeline import gather_company
from cikb.app.reading import ask, enrich_table, open_retriever
from cikb.app.workspace import CompanyDir
from cikb.clean import site_facts
from cikb.clean.facts import FRAGMENT, footer_lines, schema_items
from cikb.core.config import load_settings
from cikb.core.models import Company, FetchedPage

ACME = Company(name="Acme Corp", slug="acme-corp")
WHEN = datetime(2026, 1, 2, tzinfo=timezone.utc)


def fetched(url: str, html: str) -> FetchedPage:
    return FetchedPage(url=url, source_type="website", html=html, fetched_at=WHEN)


def html_page(body: str, *, head: str = "", footer: str = "", title: str = "Acme") -> str:
    return (
        f"<!DOCTYPE html><html lang='en'><head><title>{title}</title>{head}</head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/about/'>About</a></nav></header>"
        f"<main><h1>{title}</h1><p>{body}</p></main>{footer}</body></html>"
    )


def json_ld(data: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


ORGANIZATION = {
    "@context": "https://schema.org",
    "@type": "Corporation",
    "name": "Acme Corp",
    "legalName": "Acme Corporation, Inc.",
    "alternateName": "ACME",
    "url": "https://acme.example/",
    "logo": {"@type": "ImageObject", "url": "https://acme.example/logo.png"},
    "foundingDate": "2011-04-01",
    "founder": [{"@type": "Person", "name": "Jane Doe"}, {"@type": "Person", "name": "Richard Roe"}],
    "numberOfEmployees": {"@type": "QuantitativeValue", "value": 420},
    "address": {
        "@type": "PostalAddress",
        "streetAddress": "100 Harbor Way, Suite 5",
        "addressLocality": "Portland",
        "addressRegion": "OR",
        "postalCode": "97201",
        "addressCountry": "US",
    },
    "telephone": "+1-503-555-0100",
    "email": "mailto:hello@acme.example",
    "contactPoint": {"@type": "ContactPoint", "contactType": "customer support", "telephone": "+1-503-555-0199", "email": "help@acme.example"},
    "sameAs": ["https://www.linkedin.com/company/acme", "https://github.com/acme"],
}


def lines_of(content: str) -> list[str]:
    return [line for line in content.splitlines() if line.startswith("- ")]


# --- schema.org data ------------------------------------------------------------------------------


def test_json_ld_organization_with_its_postal_address_becomes_label_value_lines_of_the_pages_document() -> None:
    url = "https://acme.example/about/"
    doc = site_facts([fetched(url, html_page("About Acme.", head=json_ld(ORGANIZATION)))], ACME)

    assert doc is not None
    assert doc.url == url + FRAGMENT and doc.title == "Facts about Acme Corp"
    assert doc.company == "acme-corp" and doc.source_type == "website" and doc.scraped_at == WHEN
    assert doc.content.startswith("# Facts about Acme Corp\n\n## schema.org data\n\n### Acme Corp\n")
    for line in [
        "- Name: Acme Corp (Corporation)",
        "- Legal name: Acme Corporation, Inc.",
        "- Also known as: ACME",
        "- Founded: 2011-04-01",
        "- Founder: Jane Doe; Richard Roe",
        "- Number of employees: 420",
        "- Address: 100 Harbor Way, Suite 5, Portland, OR 97201, US",
        "- Telephone: +1-503-555-0100",
        "- Email: hello@acme.example",
        "- Contact: customer support: telephone +1-503-555-0199, email help@acme.example",
        "- Website: https://acme.example/",
        "- Same as: https://www.linkedin.com/company/acme; https://github.com/acme",
        "- Logo: https://acme.example/logo.png",
    ]:
        assert line in lines_of(doc.content), line
    # Nothing the markup does not say: no dissolution date, no parent, no invented headquarters line. Every line
    # comes from the document's own page, which its URL names: no line repeats it.
    assert len(lines_of(doc.content)) == 13 and url not in doc.content


def test_a_json_ld_graph_resolves_references_and_keeps_the_sites_publisher_but_not_organizations_it_mentions() -> None:
    graph = {
        "@context": "https://schema.org",
        "@graph": [
            {"@type": "WebPage", "@id": "https://acme.example/#page", "isPartOf": {"@id": "https://acme.example/#site"},
             "mentions": {"@type": "Organization", "name": "Globex", "foundingDate": "1989"}},
            {"@type": "WebSite", "@id": "https://acme.example/#site", "publisher": {"@id": "https://acme.example/#org"}},
            {"@type": "Organization", "@id": "https://acme.example/#org", "name": "Acme Corp", "foundingDate": "2011"},
        ],
    }
    doc = site_facts([fetched("https://acme.example/", html_page("Hello.", head=json_ld(graph)))], ACME)

    assert doc is not None
    assert "- Founded: 2011" in lines_of(doc.content)
    assert "Globex" not in doc.content and "1989" not in doc.content
    assert doc.content.count("### Acme Corp") == 1  # the node and the publisher reference are one organization


MICRODATA = """
<div itemscope itemtype="https://schema.org/Organization">
  <span itemprop="name">Acme Corp</span> was founded in <span itemprop="foundingDate">2011</span>.
  <div itemprop="address" itemscope itemtype="https://schema.org/PostalAddress">
    <span itemprop="streetAddress">100 Harbor Way</span>, <span itemprop="addressLocality">Portland</span>,
    <span itemprop="addressRegion">OR</span> <span itemprop="postalCode">97201</span>
  </div>
  <span itemprop="founder" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Jane Doe</span></span>
  <a itemprop="sameAs" href="https://twitter.com/acme">Twitter</a>
</div>"""


def test_microdata_organization() -> None:
    doc = site_facts([fetched("https://acme.example/about/", html_page(MICRODATA))], ACME)

    assert doc is not None
    body = lines_of(doc.content)
    assert "- Name: Acme Corp (Organization)" in body
    assert "- Founded: 2011" in body
    assert "- Founder: Jane Doe" in body
    assert "- Address: 100 Harbor Way, Portland, OR 97201" in body
    assert "- Same as: https://twitter.com/acme" in body


RDFA = """
<div vocab="https://schema.org/" typeof="NGO">
  <span property="name">Acme Foundation</span>
  <span property="telephone">+1 503 555 0100</span>
  <div property="address" typeof="PostalAddress">
    <span property="streetAddress">1 Main St</span>, <span property="addressLocality">Salem</span>
  </div>
  <a property="sameAs" href="https://b.example/acme">b</a> <a property="sameAs" href="https://a.example/acme">a</a>
</div>"""


def test_rdfa_organization_reads_the_same_on_every_run() -> None:
    page = fetched("https://acme.example/", html_page(RDFA))
    doc = site_facts([page], ACME)

    assert doc is not None
    body = lines_of(doc.content)
    assert "- Name: Acme Foundation (NGO)" in body
    assert "- Telephone: +1 503 555 0100" in body
    assert "- Address: 1 Main St, Salem" in body
    assert "- Same as: https://a.example/acme; https://b.example/acme" in body  # an RDF graph is unordered: sorted
    assert all(site_facts([page], ACME) == doc for _ in range(3))  # blank node ids differ per run, the document does not


def test_a_postal_address_on_its_own_and_a_person_with_a_job_title_are_kept() -> None:
    body = (
        '<span itemscope itemtype="http://schema.org/PostalAddress"><span itemprop="postOfficeBoxNumber">18</span>, '
        '<span itemprop="addressLocality">Salem</span> <span itemprop="addressCountry">USA</span></span>'
    )
    person = {"@context": "https://schema.org", "@type": "Person", "name": "Jane Doe", "jobTitle": "Chief Executive Officer",
              "worksFor": {"@type": "Organization", "name": "Acme Corp"}}
    blogger = {"@context": "https://schema.org", "@type": "Person", "name": "Sam Smith"}  # no job title: not a fact about the company
    doc = site_facts([fetched("https://acme.example/team/", html_page(body, head=json_ld(person) + json_ld(blogger)))], ACME)

    assert doc is not None
    assert lines_of(doc.content) == [
        "- Person: Jane Doe, Chief Executive Officer, works for Acme Corp",
        "- Address: PO Box 18, Salem, USA",
    ]


def test_garbled_json_ld_is_ignored_without_a_crash_and_the_pages_other_data_still_count() -> None:
    garbled = '<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Organization", "name": </script>'
    other_vocabulary = json_ld({"@context": "https://example.org/vocab", "@type": "Organization", "name": "Not schema.org"})
    page = fetched("https://acme.example/", html_page(MICRODATA, head=garbled + other_vocabulary + "<script type='application/ld+json'>[1, null, \"x\"]</script>"))

    items = schema_items(page.html, page.url)
    assert [item["@type"] for item in items] == [["Organization"]]  # the microdata
    doc = site_facts([page], ACME)
    assert doc is not None and "Not schema.org" not in doc.content and "- Founded: 2011" in doc.content
    assert site_facts([fetched("https://acme.example/x/", garbled)], ACME) is None


def test_a_page_without_structured_data_or_a_repeated_footer_gives_nothing() -> None:
    plain = html_page("Acme makes anvils. " * 20, footer="<footer><a href='/privacy/'>Privacy</a> <a href='/terms/'>Terms</a></footer>")
    assert schema_items(plain, "https://acme.example/") == []
    assert site_facts([fetched("https://acme.example/", plain), fetched("https://acme.example/a/", plain)], ACME) is None
    assert site_facts([], ACME) is None
    assert site_facts([fetched("https://acme.example/", "")], ACME) is None


def test_the_home_pages_own_description_of_the_site_is_a_description_line() -> None:
    # The meta description is the site's one line on what the company does; the main text may not repeat it.
    head = '<meta name="description" content="Acme Corp makes anvils and rocket skates for the West.">'
    home = fetched("https://acme.example/", html_page("Welcome. " * 20, head=head))
    other = fetched("https://acme.example/blog/a/", html_page("A post. " * 20, head='<meta name="description" content="A post about our new anvil line.">'))
    doc = site_facts([other, home], ACME)
    assert doc is not None and doc.url == "https://acme.example/" + FRAGMENT
    assert "## The home page's description of the site" in doc.content
    assert lines_of(doc.content) == ["- Description: Acme Corp makes anvils and rocket skates for the West."]
    # Only the home page's: another page's description is about that page.
    assert site_facts([other], ACME) is None
    # An Open Graph description counts when there is no meta one; a few words are no description.
    og = fetched("https://acme.example/", html_page("Hi. " * 20, head='<meta property="og:description" content="Acme Corp makes anvils for the West.">'))
    assert "- Description: Acme Corp makes anvils for the West." in lines_of(site_facts([og], ACME).content)
    assert site_facts([fetched("https://acme.example/", html_page("Hi. " * 20, head='<meta name="description" content="Home">'))], ACME) is None


# --- the site-wide footer -------------------------------------------------------------------------

FOOTER = """<footer class="site-footer">
  <h4>Contact us</h4>
  <p>Acme Corp makes anvils for the West since 1999.</p>
  <address>100 Harbor Way<br>Portland, OR 97201</address>
  <p>Send all mail to:</p><p>PO Box 7, Salem, OR 97301</p>
  <p>Phone: +1 503 555 0100 · hello@acme.example</p>
  <ul class="social"><li><a href="https://x.example/acme">X</a></li><li><a href="https://gh.example/acme">GitHub</a></li></ul>
  <form><label>Newsletter</label><input name="email"><button>Subscribe</button></form>
  <p>&copy; 2026 Acme Corp. All rights reserved.</p>
</footer>"""


def test_footer_lines_are_its_text_blocks_without_navigation_headings_forms_or_copyright() -> None:
    assert footer_lines(html_page("Hello.", footer=FOOTER)) == [
        "Acme Corp makes anvils for the West since 1999.",
        "100 Harbor Way, Portland, OR 97201",
        "Send all mail to: PO Box 7, Salem, OR 97301",
        "Phone: +1 503 555 0100 · hello@acme.example",
    ]


def test_an_email_or_phone_link_in_the_footer_is_its_contact_not_navigation() -> None:
    footer = ("<footer><h4>Contact us</h4><a href='mailto:info@acme.example'>info@acme.example</a> "
              "<a href='tel:503.555.0100'>p: 503.555.0100</a><p>1 Main St<br>Salem, OR 97301</p>"
              "<p><a href='/about'>About</a> <a href='/jobs'>Jobs</a></p></footer>")
    assert footer_lines(html_page("Hello.", footer=footer)) == [
        "info@acme.example p: 503.555.0100", "1 Main St, Salem, OR 97301"]


def test_a_copyright_line_keeps_its_other_sentences_of_prose() -> None:
    footer = ("<footer><p><small>The text content on this website is licensed under a <a href='https://cc.example/by'>"
              "Creative Commons Attribution 4.0 International License</a>, except where otherwise noted. Other content "
              "© Acme Contributors.</small></p></footer>")
    assert footer_lines(html_page("Hello.", footer=footer)) == [
        "The text content on this website is licensed under a Creative Commons Attribution 4.0 International License, "
        "except where otherwise noted."]


def test_a_footer_repeated_on_three_pages_is_kept_once_and_a_block_on_one_page_is_not() -> None:
    pages = [
        fetched(f"https://acme.example{path}", html_page(f"Page {path}.", footer=FOOTER.replace("</footer>", extra + "</footer>")))
        for path, extra in [("/", ""), ("/about/", "<p>Only on the about page footer.</p>"), ("/contact/", "")]
    ]
    doc = site_facts(pages, ACME)

    assert doc is not None
    assert doc.url == "https://acme.example/#facts"  # the page its lines cite: the first that showed them
    assert lines_of(doc.content) == [
        "- Acme Corp makes anvils for the West since 1999.",
        "- 100 Harbor Way, Portland, OR 97201",
        "- Send all mail to: PO Box 7, Salem, OR 97301",
        "- Phone: +1 503 555 0100 · hello@acme.example",
    ]
    assert doc.content.count("PO Box 7") == 1
    assert "## Site footer" in doc.content and "## schema.org data" not in doc.content
    assert site_facts(pages, ACME) == doc  # deterministic


def test_a_footer_without_footer_markup_is_the_block_that_closes_every_page() -> None:
    # A utility-class theme: the page is one wrapper <div>, its last block the footer, marked by nothing.
    closing = ('<div class="mt-20 bg-gray-800"><div>Acme Corp, Inc.</div><div>100 Harbor Way #7</div>'
               '<div>Portland, OR 97201</div></div>')

    def page(body: str) -> str:
        return (f"<!DOCTYPE html><html lang='en'><head><title>Acme</title></head><body><div class='min-h-screen'>"
                f"<div class='px-6'><h1>Acme</h1><p>{body}</p></div>{closing}</div><script>var x = 1;</script>"
                "</body></html>")

    pages = [fetched(f"https://acme.example{path}", page(f"The text of {path}, on this page only."))
             for path in ("/", "/about/")]
    doc = site_facts(pages, ACME)
    assert doc is not None and "## Site footer" in doc.content
    assert lines_of(doc.content) == ["- Acme Corp, Inc.", "- 100 Harbor Way #7", "- Portland, OR 97201"]


def test_a_footer_line_that_repeats_a_schema_org_value_is_written_once() -> None:
    address = (
        '<p><span itemscope itemtype="http://schema.org/PostalAddress"><span itemprop="streetAddress">1 Main St</span>, '
        '<span itemprop="addressLocality">Salem</span></span></p>'
    )
    footer = f"<footer>{address}<p>Call us: +1 503 555 0100</p></footer>"
    pages = [fetched(f"https://acme.example/{n}/", html_page("Text.", footer=footer)) for n in range(3)]
    doc = site_facts(pages, ACME)

    assert doc is not None
    assert lines_of(doc.content) == [
        "- Address: 1 Main St, Salem",
        "- Call us: +1 503 555 0100",
    ]


# --- gathered, chunked, retrieved and cited -------------------------------------------------------

SITE_FOOTER = """<footer class="site-footer"><p>Northwind Trading Company, 48 Quay Street, Bristol BS1 4DJ, United Kingdom</p>
<p>Send all orders and letters to:</p><p>PO Box 4410, Leeds LS1 9ZZ, United Kingdom</p><p><a href="/privacy/">Privacy</a></p></footer>"""
NORTHWIND_LD = json_ld({"@context": "https://schema.org", "@type": "Organization", "name": "Northwind", "foundingDate": "1994",
                        "address": {"@type": "PostalAddress", "streetAddress": "48 Quay Street", "addressLocality": "Bristol",
                                    "postalCode": "BS1 4DJ", "addressCountry": "United Kingdom"}})
PROSE = {
    "/": "Northwind sells tea, coffee and spices to restaurants across Europe. Our buyers visit growers every season. ",
    "/about/": "Northwind was started by two importers who wanted fairer prices for growers. Today the team ships to twelve countries. ",
    "/products/": "Our catalogue lists green and black teas, single-origin coffees and whole spices, packed to order each week. ",
}


def northwind_site(make_site: Callable[..., SiteServer]) -> SiteServer:
    links = "".join(f"<a href='{path}'>{path}</a> " for path in PROSE)
    routes = {}
    for path, text in PROSE.items():
        head = NORTHWIND_LD if path == "/about/" else ""
        routes[path] = Reply(body=html_page(text * 4 + links, head=head, footer=SITE_FOOTER, title=f"Northwind {path.strip('/') or 'home'}"))
    return make_site(routes)


def test_a_gathered_sites_facts_document_answers_an_address_question_with_a_citation(make_site: Callable[..., SiteServer]) -> None:
    site = northwind_site(make_site)
    settings = load_settings()
    settings.gather.download_delay = 0.05
    summary = gather_company(settings, "Northwind", {"website": site.url + "/"})

    docs = read_documents(settings.data_dir / "northwind" / "raw")
    facts = [doc for doc in docs if doc.url.endswith(FRAGMENT)]
    assert len(facts) == 1 and summary.documents == len(docs) == 4
    assert facts[0].url == site.url + "/about/" + FRAGMENT  # the page most of its lines cite (its schema.org data)
    # A line from the document's own page (/about/) does not repeat its URL; a line from another page names it.
    assert "- Founded: 1994" in lines_of(facts[0].content)
    assert "- Send all orders and letters to: PO Box 4410, Leeds LS1 9ZZ, United Kingdom (from " + site.url + "/)" in facts[0].content
    assert not any("PO Box 4410" in doc.content for doc in docs if doc is not facts[0])  # the clean stage drops footers
    chunks = load_index(CompanyDir(settings.data_dir, "northwind").current()).chunks
    assert any(chunk.metadata.url == facts[0].url for chunk in chunks)

    answer = ask(settings, "What is the street address of Northwind?")  # offline: the extractive reader
    assert "48 Quay Street, Bristol, BS1 4DJ" in answer.answer and answer.grounded
    assert [source.url for source in answer.sources] == [facts[0].url]  # cited: the page the address came from, #facts
    assert "(from " not in answer.answer  # the address line is the cited page's own
    table = settings.data_dir.parent / "companies.csv"
    table.write_text("Company\nNorthwind\n", encoding="utf-8")
    proposal = enrich_table(table, "Headquarters", question="Where is {Company} headquartered?", column_type="text", settings=settings)
    [row] = proposal.research_log
    assert "Bristol" in str(row.value) and row.sources[0].url == facts[0].url

    # An identical re-gather writes the same facts document and the same chunk ids.
    before = {chunk.id for chunk in chunks}
    gather_company(settings, "Northwind", {"website": site.url + "/"})
    again = [doc for doc in read_documents(settings.data_dir / "northwind" / "raw") if doc.url.endswith(FRAGMENT)]
    assert [doc.content for doc in again] == [facts[0].content]
    assert {chunk.id for chunk in load_index(CompanyDir(settings.data_dir, "northwind").current()).chunks} == before


def test_site_facts_can_be_turned_off(make_site: Callable[..., SiteServer]) -> None:
    site = northwind_site(make_site)
    settings = load_settings()
    settings.gather.download_delay = 0.05
    settings.clean.site_facts = False
    gather_company(settings, "Northwind", {"website": site.url + "/"})
    assert not any(doc.url.endswith(FRAGMENT) for doc in read_documents(settings.data_dir / "northwind" / "raw"))


@pytest.mark.parametrize("html", ["<html><body><footer>", "\x00\x01garbage", "<div itemscope itemtype='https://schema.org/Organization'><span itemprop='name'>"])
def test_broken_html_gives_no_facts_or_some_and_never_raises(html: str) -> None:
    site_facts([fetched("https://acme.example/", html), fetched("https://acme.example/b/", html)], ACME)


@pytest.mark.slow
def test_letsencrypt_addresses_are_retrieved_for_their_questions_after_a_default_gather(letsencrypt_site: SiteServer, corpora) -> None:
    """Both addresses sit in schema.org PostalAddress microdata in the footer, which the clean stage drops;
    the facts document brings them back (bench/site_facts.py: neither retrieved before; after, #2 and #1)."""
    facts = {f["id"]: f for f in json.loads((corpora / "letsencrypt_facts.json").read_text(encoding="utf-8"))["facts"]}
    settings = load_settings()
    settings.gather.download_delay = 0  # otherwise the default gather: 20 pages, best-first
    gather_company(settings, "ISRG", {"website": letsencrypt_site.url + "/"})

    [doc] = [d for d in read_documents(settings.data_dir / "isrg" / "raw") if d.url.endswith(FRAGMENT)]
    assert doc.url.startswith(letsencrypt_site.url + "/")
    with open_retriever(settings) as retriever:
        for fact_id in ("le-04", "le-14"):
            fact = facts[fact_id]
            assert fact["answer"] in doc.content
            result = retriever.search(fact["question"], company="isrg")
            holding = [hit.chunk.metadata.url for hit in result.chunks[:10] if fact["answer"] in hit.chunk.text]
            assert holding == [doc.url], fact_id


def _policy(version: int) -> str:
    """A page of a policy written without footer markup: a wrapper holds its title and its text."""
    return (f"<html><body><div class='wrapper'><h1>Certificate Policy v{version}</h1><div class='markdown'>"
            f"<p>This is version {version} of the policy.</p><ol><li>The CA MUST retain all audit logs for two years "
            "after the event.</li><li>The CA SHALL NOT delete a log before its retention period has ended.</li></ol>"
            "</div></div></body></html>")


def test_a_document_without_footer_markup_is_not_read_as_the_sites_footer() -> None:
    # Two versions of a policy share their closing list: the content, not a footer written without footer markup.
    footer = "<footer><p>Acme Corp · 1 Main St · Portland, OR 97201 · USA</p></footer>"
    pages = [fetched("https://acme.example/", html_page("We make anvils.", footer=footer)),
             fetched("https://acme.example/about/", html_page("Founded in 1949.", footer=footer, title="About")),
             fetched("https://acme.example/policy/v1/", _policy(1)), fetched("https://acme.example/policy/v2/", _policy(2))]
    document = site_facts(pages, ACME)
    assert document is not None and document.url == "https://acme.example/#facts"
    assert "audit logs" not in document.content and "1 Main St" in document.content


def test_a_tagline_that_is_also_the_footers_blurb_is_said_once() -> None:
    blurb = "Acme is a nonprofit certificate authority run by the Acme Research Group."
    pages = [fetched(url, html_page("Text.", title=title, footer=f"<footer><p>{blurb}</p></footer>",
                                    head=f'<meta name="description" content="{blurb}">'))
             for url, title in (("https://acme.example/", "Home"), ("https://acme.example/about/", "About"))]
    document = site_facts(pages, ACME)
    assert document is not None and document.content.count(blurb) == 1
