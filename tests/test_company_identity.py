"""One company is one company (issue 23, item 4): a name resolves to a knowledge-base company by its identity only.

A question, a ``--company`` or a table row is a gathered company when, legal form, case and punctuation
aside, it is the company's slug, display name or a name its own pages give it (schema.org
``alternateName``, "formerly ..."), or, for a row, when its Website is on the company's gathered domain.
Sharing a word is not identity: with Zentra and Acme Corp gathered, "Zentra Labs", "Zentra Analytics
GmbH" and "Acme Robotics" are other companies, and get none of their facts.

The fast tests resolve names against identities directly and read names from pages; the slow ones
gather two small sites on 127.0.0.1 through the real pipeline and run `cikb enrich`, `search` and `ask`.
"""

from __future__ import annotations

import csv
import json
import os
import re
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from enrich_support import run_cli
from sites import Reply, SiteServer

from cikb.core.identity import CompanyIdentity, name_keys, site_key
from cikb.core.models import Company, FetchedPage
from cikb.retrieve.companies import infer_company, nearest_companies, resolve_company, unmentioned_names

ABSTENTION = "I don't have enough information about that."
ZENTRA = CompanyIdentity(slug="zentra", name="Zentra", aliases=("Bluebird Social",), websites=("https://www.zentra.example/",))
ACME = CompanyIdentity(slug="acme-corp", name="Acme Corp", aliases=("Roadrunner Supply",), websites=("https://acme.example/",))
IDENTITIES = {identity.slug: identity for identity in (ZENTRA, ACME)}


# --- resolution by identity ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Zentra Labs", "Zentra Analytics GmbH", "Acme Robotics", "Acme Robotics GmbH", "Acme Corp Robotics",
                                  "Labs", "acme-robotics", "Roadrunner", "Bluebird", "Globex"])
def test_a_name_sharing_a_word_is_another_company(name: str) -> None:
    assert resolve_company(name, IDENTITIES) is None


@pytest.mark.parametrize(
    ("name", "slug"),
    [("Acme", "acme-corp"), ("ACME Corp.", "acme-corp"), ("acme-corp", "acme-corp"), ("Acme Corporation", "acme-corp"),
     ("Acme Corp, Inc.", "acme-corp"), ("  acme   corp ", "acme-corp"), ("A.C.M.E. Inc", "acme-corp"),
     ("Roadrunner Supply Co.", "acme-corp"),  # a name the company's own site gives it
     ("ZENTRA", "zentra"), ("Zentra GmbH", "zentra"), ("Bluebird Social, Inc.", "zentra"), ("zentra", "zentra")],
)
def test_a_name_of_the_company_itself_resolves(name: str, slug: str) -> None:
    assert resolve_company(name, IDENTITIES) == slug


def test_a_rows_website_on_the_gathered_domain_resolves_and_another_domain_does_not() -> None:
    assert resolve_company("Anvil Works", IDENTITIES, "http://shop.acme.example/anvils") == "acme-corp"
    assert resolve_company("Zentra Labs", IDENTITIES, "zentra.example") == "zentra"  # the company's own domain says it is Zentra
    assert resolve_company("Acme Robotics", IDENTITIES, "https://acme-robotics.example/") is None
    assert resolve_company("Anvil Works", IDENTITIES, "") is None
    # One machine's sites differ by port: 127.0.0.1:8001 is not 127.0.0.1:8002.
    local = {"a": CompanyIdentity("a", "A One", websites=("http://127.0.0.1:8001/",)), "b": CompanyIdentity("b", "B Two", websites=("http://127.0.0.1:8002/",))}
    assert resolve_company("Whatever", local, "http://127.0.0.1:8002/about/") == "b"
    assert (site_key("https://blog.acme.co.uk/x"), site_key("http://127.0.0.1:8001/")) == ("acme.co.uk", "127.0.0.1:8001")


def test_a_name_two_companies_answer_to_is_decided_by_website_or_exact_name_else_nobody() -> None:
    twins = {"acme": CompanyIdentity("acme", "Acme", websites=("https://acme.example/",)),
             "acme-corp": CompanyIdentity("acme-corp", "Acme Corp", websites=("https://acmecorp.example/",))}
    assert resolve_company("Acme Corp", twins) == "acme-corp"  # exactly its name
    assert resolve_company("ACME Corporation", twins, "https://acmecorp.example/") == "acme-corp"
    assert resolve_company("ACME Corporation", twins) is None  # either could be meant: a guess would mix their facts
    # Another site claims the name too (an alias): the company whose own name it is is meant; an alias both claim is nobody's.
    claimed = {**twins, "other": CompanyIdentity("other", "Other Name", aliases=("Acme Corp", "Roadrunner Supply"))}
    claimed["acme-corp"] = CompanyIdentity("acme-corp", "Acme Corp", aliases=("Roadrunner Supply",))
    assert resolve_company("Acme Corp", claimed) == "acme-corp"
    assert resolve_company("Roadrunner Supply", claimed) is None


def test_identity_keys_drop_legal_forms_case_and_punctuation_only() -> None:
    assert name_keys("ACME Corp.") == name_keys("Acme Corporation") == name_keys("acme") == {"acme"}
    assert name_keys("Zentra Analytics GmbH") == {"zentra analytics"}
    assert "lets encrypt" in name_keys("Let's Encrypt") and name_keys("The Coca-Cola Company") == {"coca cola"}


def test_the_nearest_companies_of_an_unknown_name_come_first() -> None:
    assert nearest_companies("zentra-labs", IDENTITIES)[0].slug == "zentra"
    assert nearest_companies("Acme Robotics", IDENTITIES)[0].slug == "acme-corp"
    assert ACME.label() == "acme-corp (Acme Corp)"


def test_a_question_finds_the_company_by_a_name_its_pages_give_it() -> None:
    names = {slug: identity.name for slug, identity in IDENTITIES.items()}
    aliases = {slug: identity.aliases for slug, identity in IDENTITIES.items()}
    choice = infer_company("When was Bluebird Social founded?", names, aliases)
    assert (choice.slug, choice.matched) == ("zentra", "bluebird social")
    assert infer_company("When was Bluebird Social founded?", names).slug is None  # without the alias: nobody


def test_a_question_naming_a_lookalike_is_about_another_company_unless_the_sources_name_it() -> None:
    texts = ["Acme Corp was founded in 2011. Acme Corp sells robotics kits and anvils."]
    known = {"acme corp", "acme"}
    # "robotics" is in Acme's text, "Acme Robotics" is not: the question is about another company.
    assert unmentioned_names("When was Acme Robotics founded?", texts, known) == ["Acme Robotics"]
    assert unmentioned_names("When was Acme Robotics founded?", ["Acme Robotics, our sister company, was founded in 2015."], known) == []
    assert unmentioned_names("When was Acme Corporation founded?", texts, known) == []
    assert unmentioned_names("When did Acme Corp CEO Jane Doe join?", texts + ["Jane Doe joined in 2012."], known) == []


# --- the names a company's own pages give it -----------------------------------------------------


def _page(url: str, body: str, head: str = "", title: str = "Acme Corp") -> FetchedPage:
    html = f"<!DOCTYPE html><html lang='en'><head><title>{title}</title>{head}</head><body><main>{body}</main></body></html>"
    return FetchedPage(url=url, source_type="website", html=html, fetched_at=datetime(2026, 1, 2, tzinfo=timezone.utc))


def _json_ld(data: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


def test_own_names_are_the_sites_schema_org_names_formerly_and_defined_legal_names() -> None:
    from cikb.clean.facts import own_names

    organization = {"@context": "https://schema.org", "@type": "Organization", "name": "Acme Corp", "legalName": "Acme Corporation, Inc.",
                    "alternateName": ["ACME", "Roadrunner Supply"], "url": "https://acme.example/"}
    mentioned = {"@context": "https://schema.org", "@type": "WebPage",
                 "mentions": {"@type": "Organization", "name": "Globex", "alternateName": "Globex International", "foundingDate": "1989"}}
    pages = [
        _page("https://acme.example/", "<p>Welcome.</p>", _json_ld(organization) + _json_ld(mentioned)),
        _page("https://acme.example/about/", "<p>Acme Corporation (formerly Acme Widgets) makes anvils. Jane Doe, who joined Acme, "
                                             "previously CTO of Globex, leads it.</p><p>Initech (formerly Initrode) is a customer.</p>"),
        _page("https://acme.example/legal/terms/", '<p>These terms are between you and Anvil Holdings, LLC ("Acme", "we", "us"). '
                                                   'Globex Ltd ("Globex") hosts the site.</p>'),
    ]
    names = own_names(pages, Company(name="Acme Corp", slug="acme-corp"))
    # ACME and Acme Corporation, Inc. are the company's name already; Globex's names and Initech's former one are not its own.
    assert names == ["Roadrunner Supply", "Acme Widgets", "Anvil Holdings, LLC"]


def test_an_organization_whose_url_is_written_from_the_sites_root_is_the_sites_own() -> None:
    from cikb.clean.facts import own_names

    # Gathered under another name ("Other Name"): the schema.org node is the site's own by its url, "/" as written.
    organization = {"@context": "https://schema.org", "@type": "Organization", "name": "Acme Corp", "url": "/",
                    "alternateName": "Roadrunner Supply"}
    pages = [_page("https://acme.example/", "<p>Welcome.</p>", _json_ld(organization))]
    assert own_names(pages, Company(name="Other Name", slug="other-name")) == ["Acme Corp", "Roadrunner Supply"]
    elsewhere = {**organization, "url": "https://globex.example/"}  # another site's organization stays another's
    assert own_names([_page("https://acme.example/", "<p>Hi.</p>", _json_ld(elsewhere))], Company(name="Other Name", slug="other-name")) == []


def test_an_own_name_keeps_the_dot_of_its_legal_form_and_loses_a_full_stop() -> None:
    from cikb.clean.facts import own_names

    # "Anvil Holdings, Inc." was written "Anvil Holdings, Inc": the dot taken for punctuation around the name.
    terms = '<p>These terms are between you and Anvil Holdings, Inc. ("Acme", "we", "us").</p>'
    about = "<p>We are Acme Corp (formerly Acme Widgets).</p>"
    pages = [_page("https://acme.example/legal/terms/", terms), _page("https://acme.example/about/", about)]
    assert own_names(pages, Company(name="Acme Corp", slug="acme-corp")) == ["Anvil Holdings, Inc.", "Acme Widgets"]


def test_own_names_include_the_name_an_abbreviation_of_the_company_stands_for() -> None:
    from cikb.clean.facts import own_names

    about = ("<p>In 2017, the Global Exchange Network (GEN) launched as a pilot. It works with the Northern Rail "
             "Authority (NRA) and Acme Inc. (NASDAQ).</p>")
    pages = [_page("https://gen.example/about/", about)]
    # Its own abbreviation's name is its name; another body's, and a ticker in parentheses, are not.
    assert own_names(pages, Company(name="GEN", slug="gen")) == ["Global Exchange Network"]
    assert own_names(pages, Company(name="Global Exchange Network", slug="global-exchange-network")) == ["GEN"]


def test_a_legal_name_line_ends_at_its_line_break() -> None:
    from cikb.clean.facts import own_names

    # An imprint's lines in one paragraph, parted by <br> (and the source's own line ends after them).
    imprint = ("<p>Legal name: Stichting Acme Foundation<br />\nChamber of Commerce Registration (KvK): 93645546<br />"
               "\nVAT ID: NL866479004B01</p>")
    pages = [_page("https://acme.example/about/", imprint, title="About us")]
    assert own_names(pages, Company(name="Acme Foundation", slug="acme-foundation")) == ["Stichting Acme Foundation"]


def test_a_description_between_a_legal_name_and_the_short_name_it_defines_is_no_name() -> None:
    from cikb.clean.facts import own_names

    terms = ('<p>These terms form an agreement between you and Anvil Works, Inc., a Delaware corporation '
             '("Acme", "we"). Acme, Inc. is a Delaware corporation.</p>')
    pages = [_page("https://acme.example/legal/terms/", terms, title="Terms of Service")]
    # The legal name, not "Delaware corporation": that alias would make every Delaware corporation this company.
    assert own_names(pages, Company(name="Acme", slug="acme")) == ["Anvil Works, Inc."]


def test_an_imprints_first_line_that_is_a_name_with_a_legal_form_is_the_companys_legal_name() -> None:
    from cikb.clean.facts import own_names

    imprint = ("<p>Information according to § 5 DDG:</p><address>rami.io GmbH<br>Berthold-Mogel-Straße 1<br>"
               "69126 Heidelberg</address><p>Globex GmbH hosts this site.</p>")
    assert own_names([_page("https://pretix.example/legal/imprint/", imprint, title="Imprint")],
                     Company(name="pretix", slug="pretix")) == ["rami.io GmbH"]
    # Elsewhere such a line is no name of the company's (a customer's, a partner's), nor a line of common words.
    assert own_names([_page("https://pretix.example/customers/", imprint, title="Customers")],
                     Company(name="pretix", slug="pretix")) == []
    commonplace = "<p>Our Company</p><p>We are a GmbH</p>"
    assert own_names([_page("https://pretix.example/impressum/", commonplace, title="Impressum")],
                     Company(name="pretix", slug="pretix")) == []


def test_an_organization_the_site_only_mentions_gives_no_name() -> None:
    from cikb.clean.facts import own_names

    partner = {"@context": "https://schema.org", "@type": "Organization", "name": "Globex", "alternateName": "Globex International",
               "url": "https://globex.example/"}
    assert own_names([_page("https://acme.example/partners/", "<p>Our partners.</p>", _json_ld(partner))], Company(name="Acme Corp", slug="acme-corp")) == []


# --- end to end: two companies gathered, then enrich, search and ask through `cikb` ---------------


def _html(title: str, body: str, head: str = "") -> Reply:
    links = "".join(f'<a href="{href}">{href}</a> ' for href in ("/", "/about/"))
    return Reply(body=f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{title}</title>{head}</head><body>"
                      f"<header><nav>{links}</nav></header><main><article><h1>{title}</h1>{body}</article></main></body></html>")


def _paragraphs(*texts: str) -> str:
    return "".join(f"<p>{text}</p>" for text in texts)


ROBOTS = Reply(body="User-agent: *\nAllow: /\n", content_type="text/plain")


def zentra_routes() -> dict:
    return {
        "/robots.txt": ROBOTS,
        "/": _html("Zentra", _paragraphs(
            "Zentra (formerly Bluebird Social) builds messaging software for newsrooms and broadcasters around the world.",
            "Newsrooms in twelve countries run their morning meetings, wire alerts and reader messages on Zentra.")),
        "/about/": _html("About Zentra", _paragraphs(
            "Zentra was founded in 2015 in Austin, Texas, by Mara Quinn and Tom Okafor.",
            "Zentra employs 85 people and its switchboard number is +1 512 555 0142.",
            "The company sells subscriptions to newsrooms, universities and public broadcasters.")),
    }


def acme_routes(base_url: str) -> dict:
    organization = {"@context": "https://schema.org", "@type": "Organization", "name": "Acme Corp",
                    "alternateName": "Roadrunner Supply", "url": base_url + "/", "foundingDate": "2011"}
    return {
        "/robots.txt": ROBOTS,
        "/": _html("Acme Corp", _paragraphs(
            "Acme Corp sells anvils, rocket skates and robotics kits to workshops and schools.",
            "Customers order from the online catalogue or from dealers in forty countries."), _json_ld(organization)),
        "/about/": _html("About Acme Corp", _paragraphs(
            "Acme Corp was founded in 2011 in Portland, Oregon, by Jane Doe and Richard Roe.",
            "Acme Corp employs 420 people and sells robotics kits, anvils and rocket skates.",
            "Its workshop in Portland builds every anvil by hand.")),
    }


@pytest.fixture(scope="module")
def two_companies(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str, str]]:
    """Zentra and Acme Corp gathered from two sites on 127.0.0.1 (two ports): (data dir, Zentra's URL, Acme's URL)."""
    root = tmp_path_factory.mktemp("identity")
    config = root / "cikb.toml"
    config.write_text("[gather]\ndownload_delay = 0\nmax_pages_per_source = 4\n", encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        for key in [k for k in os.environ if k.startswith("CIKB_")]:
            mp.delenv(key)
        mp.setenv("CIKB_CONFIG", str(config))
        mp.setenv("CIKB_DATA_DIR", str(root / "data"))
        mp.setenv("HF_HUB_OFFLINE", "1")
        from cikb.app.pipeline import gather_company
        from cikb.core.config import load_settings

        zentra, acme = SiteServer(zentra_routes()).start(), SiteServer().start()
        try:
            acme.routes.update(acme_routes(acme.url))
            settings = load_settings()
            gather_company(settings, "Zentra", {"website": zentra.url + "/"})
            gather_company(settings, "Acme Corp", {"website": acme.url + "/"})
        finally:
            zentra.stop()
            acme.stop()
    yield root, zentra.url, acme.url


@pytest.fixture
def cikb(two_companies, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    root = two_companies[0]
    monkeypatch.setenv("CIKB_CONFIG", str(root / "cikb.toml"))
    monkeypatch.setenv("CIKB_DATA_DIR", str(root / "data"))

    def run(*args: str) -> tuple[int, str, str]:
        return run_cli(monkeypatch, capsys, *args)

    return run


@pytest.mark.slow
def test_the_gather_records_the_names_the_site_gives_the_company(two_companies) -> None:
    data = two_companies[0] / "data"
    manifests = {slug: json.loads(next((data / slug / "raw").resolve().parent.glob("manifest.json")).read_text()) for slug in ("zentra", "acme-corp")}
    assert manifests["zentra"]["company"] == {"name": "Zentra", "slug": "zentra", "aliases": ["Bluebird Social"]}
    assert manifests["acme-corp"]["company"]["aliases"] == ["Roadrunner Supply"]


@pytest.mark.slow
def test_enrich_gives_a_lookalike_row_nothing_and_resolves_the_companys_own_names(two_companies, cikb, tmp_path: Path) -> None:
    _, zentra_url, acme_url = two_companies
    rows = [("Zentra", ""), ("Zentra Labs", ""), ("Zentra Analytics GmbH", ""), ("Bluebird Social", ""),
            ("Acme Corp", ""), ("ACME Corp.", ""), ("Acme Corporation", ""), ("Acme Robotics", ""),
            ("Roadrunner Supply", ""), ("Anvil Works", acme_url + "/shop/"), ("Acme Robotics", "https://acme-robotics.example/")]
    table = tmp_path / "companies.csv"
    with table.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([("Company", "Website"), *rows])
    proposal = tmp_path / "founded.proposal.json"
    code, _, err = cikb("enrich", str(table), "--column", "Founded", "--question", "What year was {Company} founded?",
                        "--type", "number", "--out", str(proposal))
    assert code == 0, err
    code, out, err = cikb("review", str(proposal), "--json")
    assert code == 0, err
    review = {(r["label"], r["row"]): r for r in json.loads(out)["rows"]}
    cells = {(label, row): (r["value"], r["reason"]) for (label, row), r in review.items()}

    for row, label in [(1, "Zentra Labs"), (2, "Zentra Analytics GmbH"), (7, "Acme Robotics"), (10, "Acme Robotics")]:
        assert cells[(label, row)] == (None, "not in the knowledge base"), label
    for row, label, year in [(0, "Zentra", "2015"), (3, "Bluebird Social", "2015"), (4, "Acme Corp", "2011"), (5, "ACME Corp.", "2011"),
                             (6, "Acme Corporation", "2011"), (8, "Roadrunner Supply", "2011"), (9, "Anvil Works", "2011")]:
        assert cells[(label, row)][0] == year, (label, review[(label, row)])
    research = {log["row_id"]: log for log in json.loads(proposal.read_text(encoding="utf-8"))["research_log"]}
    assert research[9]["steps"][0]["data"]["company"] == "acme-corp"  # found by its website, on Acme's gathered site
    assert research[1]["attempts"] == []  # nothing to retry: no other phrasing finds a company the knowledge base lacks


@pytest.mark.slow
@pytest.mark.parametrize("command", ["search", "ask"])
def test_an_unknown_company_is_one_error_line_naming_the_nearest(cikb, command: str) -> None:
    for company, nearest in [("zentra-labs", "zentra (Zentra)"), ("Acme Robotics", "acme-corp (Acme Corp)")]:
        code, out, err = cikb(command, "When was it founded?", "--company", company)
        assert code != 0
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and f"no company {company!r} in the knowledge base" in lines[0], err
        assert lines[0].split("nearest: ")[1].startswith(nearest), err
        assert out == "" and "Traceback" not in err


@pytest.mark.slow
def test_search_and_ask_by_the_companys_own_names(cikb) -> None:
    code, out, err = cikb("search", "founded", "--company", "ACME Corp.", "--json")
    assert code == 0, err
    assert {c["chunk"]["metadata"]["company"] for c in json.loads(out)["chunks"]} == {"acme-corp"}
    code, out, err = cikb("ask", "When was it founded?", "--company", "Roadrunner Supply")
    assert code == 0 and "2011" in out, err
    # A question naming the company by its former name searches the company's sources, and only those.
    code, out, err = cikb("search", "When was Bluebird Social founded?", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["trace"]["company"]["slug"] == "zentra" and result["trace"]["abstain_reason"] is None
    assert result["chunks"] and {c["chunk"]["metadata"]["company"] for c in result["chunks"]} == {"zentra"}
    assert result["trace"]["company"]["aliases"] == ["Bluebird Social"]
    # ...and the reader reads its sources about "Zentra" as about the company asked for by its former name.
    code, out, err = cikb("ask", "When was Bluebird Social founded?", "--json")
    assert code == 0, err
    assert json.loads(out)["short_answer"] == "2015", out


@pytest.mark.slow
@pytest.mark.parametrize("question", ["When was Zentra Labs founded?", "When was Acme Robotics founded?",
                                      "When was Zentra Analytics GmbH founded?",
                                      "When was eBay founded?"])  # a name with its capital inside (answered 2015)
def test_a_question_about_a_lookalike_abstains(cikb, question: str) -> None:
    code, out, err = cikb("ask", question)
    assert code == 0, err
    assert out.strip().splitlines()[0] == ABSTENTION, out
    assert "2015" not in out and "2011" not in out
    # The company line says so, for `ask` and for `search` (whose results are the company its words matched).
    lookalike = question.removeprefix("When was ").removesuffix(" founded?")
    for command in (["ask", question], ["search", f"{lookalike} history"]):
        code, out, err = cikb(*command)
        [line] = [line for line in err.splitlines() if line.startswith("company: ")]
        assert line.endswith(f"; no retrieved source mentions {lookalike}"), (command, err)


@pytest.mark.slow
def test_a_question_asking_the_same_of_two_companies_answers_each_from_its_own_sources(cikb) -> None:
    # It read one company and abstained: "no retrieved source mentions Zentra".
    code, out, err = cikb("ask", "When were Zentra and Acme Corp founded?", "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert [part["retrieval"]["company"]["slug"] for part in answer["parts"]] == ["zentra", "acme-corp"]
    assert [part["short_answer"] for part in answer["parts"]] == ["2015", "2011"]
    companies = {source["number"]: source["company"] for source in answer["context"]}
    assert len(companies) == len(answer["context"])  # one numbering across the parts
    for part in answer["parts"]:
        assert part["citations"] and {companies[n] for n in part["citations"]} == {part["retrieval"]["company"]["slug"]}
    assert answer["answer"].startswith("Zentra: ") and "\n\nAcme Corp: " in answer["answer"]
    code, out, err = cikb("ask", "Who founded Zentra and Acme Corp?")
    assert code == 0, err
    assert "companies: zentra, acme-corp" in err and "Mara Quinn" in out and "Jane Doe" in out
    assert out.count("Extractive answer:") == 1 and out.index("Jane Doe") < out.index("Extractive answer:")  # once, last
    # One company asked about the other is one question, as before.
    code, out, err = cikb("ask", "Did Zentra buy Acme Corp?", "--json")
    assert code == 0 and json.loads(out)["parts"] == [], err
    # A name the knowledge base does not hold, a lookalike among them, is asked of too, and gets none of Acme Corp's facts.
    code, out, err = cikb("ask", "When were Zentra and Acme Robotics founded?", "--json")
    assert code == 0, err
    answer = json.loads(out)
    zentra, robotics = answer["parts"]
    said = re.sub(r'"\w+_ms": [\d.e+-]+', "", out)  # a timing's digits may hold "2011" ("total_ms": 66.2011...)
    assert zentra["short_answer"] == "2015" and robotics["answer"] == ABSTENTION and "2011" not in said
    assert answer["answer"].startswith("Zentra: ") and f"\n\nAcme Robotics: {ABSTENTION}" in answer["answer"]
    code, out, err = cikb("ask", "When were Zentra and Tom Okafor's firm founded?")
    assert code == 0, err
    assert "companies: zentra, Tom Okafor (" in err, err
    assert "company: all (the question asks about 'Tom Okafor', no company of the knowledge base)" in err, err
    assert out.count(ABSTENTION) == 1 and "In short: 2015" in out and "In short: 2011" not in out


@pytest.mark.slow
def test_with_an_llm_each_company_of_a_question_is_one_call_on_its_own_sources(cikb, fake_openai, monkeypatch) -> None:
    import re

    def founded(body: dict) -> str:  # cites the source that states the founding, as a model would
        prompt = body["messages"][-1]["content"]
        asked = re.search(r"Question: When were (.+) founded\?", prompt).group(1)
        number, year = next((n, y) for n, text in re.findall(r'<source id="(\d+)"[^>]*>(.*?)</source>', prompt, re.S)
                            for y in re.findall(rf"{asked} was founded in (\d{{4}})", text))
        return f"{asked} was founded in {year} [{number}]."

    fake_openai.respond_with(founded)
    monkeypatch.setenv("CIKB_LLM__BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("CIKB_LLM__MODEL", "scripted")
    code, out, err = cikb("ask", "When were Zentra and Acme Corp founded?", "--json")
    assert code == 0, err
    answer = json.loads(out)
    prompts = [request["messages"][-1]["content"] for request in fake_openai.chat_requests]
    assert [p.split("Question: ")[1].splitlines()[0] for p in prompts] == ["When were Zentra founded?", "When were Acme Corp founded?"]
    assert "Acme Corp was founded" not in prompts[0] and "Zentra was founded" not in prompts[1]  # its own sources only
    assert answer["mode"] == "llm" and answer["grounded"], answer
    zentra, acme = answer["parts"]
    companies = {source["number"]: source["company"] for source in answer["context"]}
    assert zentra["answer"].startswith("Zentra was founded in 2015 [") and acme["answer"].startswith("Acme Corp was founded in 2011 [")
    assert [companies[n] for n in zentra["citations"] + acme["citations"]] == ["zentra", "acme-corp"]
    assert answer["answer"] == f"Zentra: {zentra['answer']}\n\nAcme Corp: {acme['answer']}"


@pytest.mark.slow
def test_an_answer_to_a_question_naming_no_company_says_whose_it_is(cikb) -> None:
    # "When was the company founded?" with two companies gathered: one of them answers, and the answer says which.
    code, out, err = cikb("ask", "When was the company founded?", "--json")
    assert code == 0, err
    answer = json.loads(out)
    [company] = {source["company"] for source in answer["sources"]}
    assert answer["warnings"][-1] == (f"the question names no company: this answer is from {company}'s sources, of the 2 "
                                      "companies the knowledge base holds (name one in the question, or use --company)")
    code, out, err = cikb("ask", "When was Zentra founded?", "--json")
    assert code == 0 and not any("names no company" in w for w in json.loads(out)["warnings"]), out


def test_a_name_several_companies_answer_to_is_one_line_naming_them() -> None:
    from cikb.core.config import Settings
    from cikb.core.errors import UnknownCompanyError
    from cikb.retrieve import Retriever

    class Holding:  # a store that holds these companies' points
        def companies(self) -> dict[str, int]:
            return {"acme-corp": 3, "other": 2}

    identities = {"acme-corp": CompanyIdentity("acme-corp", "Acme Corp", aliases=("Roadrunner Supply",)),
                  "other": CompanyIdentity("other", "Other Name", aliases=("Roadrunner Supply",))}
    retriever = Retriever(Settings(), Holding(), None, None, identities=identities)  # type: ignore[arg-type]
    assert retriever.require_company("Acme Corp") == "acme-corp"
    with pytest.raises(UnknownCompanyError) as refused:
        retriever.require_company("Roadrunner Supply")
    # "no company 'Roadrunner Supply' in the knowledge base; nearest: acme-corp ..." named the companies it said were not there
    assert str(refused.value) == ("'Roadrunner Supply' names 2 companies of the knowledge base: acme-corp (Acme Corp), "
                                  "other (Other Name); give one's slug")
