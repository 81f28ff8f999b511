"""One company is one company (issue 23, item 4), where names alike or equal meet.

A question naming "C++ Foundation" is not about the C Foundation the knowledge base holds (its slug's words,
"c foundation", are no name of a "C++ Foundation"). Two companies may have one name: a "Nimbus" gathered from
one domain is not the "Nimbus" of another, so a second gather from that other domain is refused (unless the user
says the website moved, ``--replace``) and a table row whose Website is there gets none of the first's facts.
`cikb changes` resolves its company by identity as `--company` does; `cikb rebuild` names the slug to give it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from enrich_support import run_cli
from sites import SiteServer, page, paragraphs

from cikb.core.config import Settings, load_settings
from cikb.core.errors import BadInputError, UnknownCompanyError
from cikb.core.identity import CompanyIdentity
from cikb.retrieve.companies import candidate_names, company_variants, infer_company, resolve_company, unmentioned_names

C_FOUNDATION_TEXT = "The C Foundation was founded in 1999 and is headquartered in Oslo. It maintains tools for the C language."


# --- a question naming a lookalike with "+" or "#" ------------------------------------------------


@pytest.mark.parametrize("question", ["When was the C++ Foundation founded?", "When was the C# Foundation founded?",
                                      "Who runs C++ Foundation's conference?"])
def test_a_question_naming_c_plus_plus_foundation_is_not_about_c_foundation(question: str) -> None:
    # `ask "When was the C++ Foundation founded?"` answered from C Foundation's pages: "company: c-foundation (inferred from 'c foundation')".
    assert infer_company(question, {"c-foundation": "C Foundation"}).slug is None
    lookalike = next(name for name in candidate_names(question) if "Foundation" in name)
    assert lookalike in {"C++ Foundation", "C# Foundation"}  # one name, not "C" and "Foundation"
    assert unmentioned_names(question, [C_FOUNDATION_TEXT]) == [lookalike]  # so the question abstains


def test_a_slugs_words_name_a_company_in_a_question_only_where_they_spell_its_name() -> None:
    held = {"c-foundation": "C++ Foundation"}  # "C++ Foundation" gathered first: its slug is c-foundation
    assert "c foundation" not in company_variants("c-foundation", "C++ Foundation")
    assert infer_company("When was the C Foundation founded?", held).slug is None
    assert infer_company("When was the C++ Foundation founded?", held).slug == "c-foundation"
    assert infer_company("When was Société Générale founded?", {"societe-generale": "Société Générale"}).slug == "societe-generale"
    assert infer_company("When was Societe Generale founded?", {"societe-generale": "Société Générale"}).slug == "societe-generale"


# --- a table row whose Website is on another domain -------------------------------------------------

NIMBUS = {"nimbus": CompanyIdentity("nimbus", "Nimbus", websites=("https://nimbus-two.example/",)),
          "cirrus": CompanyIdentity("cirrus", "Cirrus", websites=("https://nimbus-one.example/",)),
          "stratus": CompanyIdentity("stratus", "Stratus")}  # gathered from no website (Wikipedia only)


@pytest.mark.parametrize(("website", "slug"), [("http://nimbus-three.example/", None),
                                               ("https://nimbus-one.example/about/", "cirrus")])  # another gathered company's site: it
def test_a_row_whose_website_is_on_another_domain_is_not_the_company_of_its_name(website: str, slug: str | None) -> None:
    # Row "Nimbus,http://A/" got the HQ of the Nimbus gathered from B.
    assert resolve_company("Nimbus", NIMBUS, website) == slug
    assert resolve_company("nimbus", NIMBUS, website) == slug  # the slug as the row's name: the same


def test_the_rows_cell_says_why_a_company_of_its_name_is_not_it() -> None:
    """The cell's reason names the domains, and what to do if the row is that company after all (its other site)."""
    import asyncio

    from cikb.enrich.base import ColumnSpec, EnrichContext, RowInput
    from cikb.enrich.evidence import kb_first

    class KnowledgeBase:
        def resolve(self, name, website=None):
            slug = resolve_company(name, NIMBUS, website)
            return NIMBUS[slug] if slug else None

        def search(self, question, company):
            raise AssertionError("no company: nothing is searched")

    ctx = EnrichContext(settings=Settings(), column=ColumnSpec(name="HQ"), columns=["Company", "Website"], kb=KnowledgeBase())
    row = RowInput(0, {"Company": "Nimbus"}, "Nimbus", "nimbus", "http://nimbus-three.example/")
    [step], candidate = asyncio.run(kb_first("Where is Nimbus based?", row, ctx))
    assert candidate.value is None and step.detail == candidate.note == (
        "not in the knowledge base: its Website is on nimbus-three.example, nimbus (Nimbus) was gathered from "
        "nimbus-two.example (another company of that name?); if it is that company, empty the row's Website cell or "
        "gather the company from that website")
    other = RowInput(1, {"Company": "Nimbus Labs"}, "Nimbus Labs", "nimbus-labs", "http://nimbus-three.example/")
    assert asyncio.run(kb_first("Where is Nimbus Labs based?", other, ctx))[1].note == "not in the knowledge base"


@pytest.mark.parametrize("website", ["", "http://nimbus-two.example/", "https://www.nimbus-two.example/en/", "nimbus-two.example:8443"])
def test_a_row_on_the_companys_domain_or_without_a_website_is_the_company(website: str) -> None:
    assert resolve_company("Nimbus", NIMBUS, website) == "nimbus"
    assert resolve_company("Stratus", NIMBUS, "https://stratus.example/") == "stratus"  # no gathered website to tell


def test_two_companies_of_one_name_are_told_apart_by_the_rows_website() -> None:
    twins = {"acme": CompanyIdentity("acme", "Acme", websites=("https://acme.example/",)),
             "acme-corp": CompanyIdentity("acme-corp", "Acme Corp", websites=("https://acmecorp.example/",))}
    assert resolve_company("Acme Corp", twins, "https://acme-corp.example/") is None  # exactly its name, on a third domain
    assert resolve_company("Acme Corp", twins, "https://acmecorp.example/x") == "acme-corp"


# --- gathering a second company of one name --------------------------------------------------------


def _settings() -> Settings:
    settings = load_settings()
    settings.gather.download_delay = 0.05
    settings.gather.request_timeout = 1.0
    settings.gather.max_pages_per_source = 3
    return settings


def _site(make_site: Callable[..., SiteServer], name: str, text: str, host: str = "127.0.0.1") -> str:
    about = paragraphs(f"{text} " * 4, f"{name} serves customers in many countries and has done so for years. " * 3)
    server = make_site({"/": page(name, about), "/about/": page(f"About {name}", about)}, host=host)
    return server.url + "/"


def test_a_company_of_the_same_name_from_another_domain_never_replaces_the_first(make_site: Callable[..., SiteServer]) -> None:
    from cikb.app.changes import ChangeLog
    from cikb.app.pipeline import gather_company

    settings = _settings()
    umbrellas = _site(make_site, "Nimbus", "Nimbus was founded in 1990 in Rosario and makes umbrellas.")
    software = _site(make_site, "Nimbus", "Nimbus was founded in 2020 in Kumamoto and makes cloud software.", host="127.0.0.2")
    first = gather_company(settings, "Nimbus", {"website": umbrellas})
    # The second gather said only "changes: ... 2 new, 2 removed": the umbrella maker was gone.
    with pytest.raises(BadInputError) as refused:
        gather_company(settings, "Nimbus", {"website": software})
    message = str(refused.value)
    assert "gathered from 127.0.0.1, not from 127.0.0.2" in message and "a name of its own" in message
    assert f"`cikb gather Nimbus --website {software} --replace`" in message and "\n" not in message
    assert len(ChangeLog(settings.data_dir).history("nimbus")) == 1
    # The same site again, moved to another port of its host (as to https or www): the same company.
    moved = _site(make_site, "Nimbus", "Nimbus was founded in 1990 in Rosario and makes umbrellas.")
    assert gather_company(settings, "Nimbus", {"website": moved}).company.slug == first.company.slug
    # The user says the website moved to the other domain: replaced, its history kept.
    assert gather_company(settings, "Nimbus", {"website": software}, replace=True).documents > 0
    assert len(ChangeLog(settings.data_dir).history("nimbus")) == 3


def test_another_name_of_a_gathered_company_gathers_that_company_again(make_site: Callable[..., SiteServer],
                                                                         monkeypatch: pytest.MonkeyPatch,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    # "Nimbus Corporation" after "Nimbus" (one identity, two slugs: nimbus-corporation) made a second folder of one company,
    # and every question about Nimbus read both.
    from cikb.app.pipeline import company_kept_as, gather_company
    from cikb.app.workspace import list_companies

    settings = _settings()
    site = _site(make_site, "Nimbus", "Nimbus was founded in 1990 in Rosario and makes umbrellas.")
    gather_company(settings, "Nimbus", {"website": site})
    for name in ("Nimbus Corporation", "Nimbus S.A."):  # slugs nimbus-corporation and nimbus-s-a
        assert gather_company(settings, name, {"website": site}).company.slug == "nimbus", name
    assert [folder.slug for folder in list_companies(settings.data_dir)] == ["nimbus"]
    # From another domain the name is another company's: refused as the same slug's would be, unless it moved there.
    elsewhere = "http://127.0.0.2:9/"
    with pytest.raises(BadInputError, match=r"^'Nimbus Corporation' is nimbus \(Nimbus\), gathered from 127.0.0.1, not from 127.0.0.2"):
        company_kept_as(settings, "Nimbus Corporation", [elsewhere])
    assert company_kept_as(settings, "Nimbus Corporation", [elsewhere], replace=True).slug == "nimbus"
    assert company_kept_as(settings, "Nimbus Labs", [elsewhere]).slug == "nimbus-labs"  # sharing a word is not identity
    # The command line says which company the name is, and gathers it again from its recorded site by that name alone.
    monkeypatch.setenv("CIKB_DATA_DIR", str(settings.data_dir))
    code, out, err = run_cli(monkeypatch, capsys, "gather", "Nimbus Corporation", "--delay", "0.05", "--max-pages", "3")
    assert code == 0 and "Nimbus Corporation is nimbus (Nimbus), gathered here before: gathering it again" in err
    assert "gathered Nimbus (nimbus)" in out
    assert [folder.slug for folder in list_companies(settings.data_dir)] == ["nimbus"]


def test_a_name_two_gathered_companies_go_by_is_refused_without_a_website_to_tell_them_apart(
        tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    import cikb.app.pipeline as pipeline

    identities = {"sky-uk": CompanyIdentity("sky-uk", "Sky (UK)", websites=("https://sky.example.co.uk/",)),
                  "sky-italia": CompanyIdentity("sky-italia", "Sky (Italia)", websites=("https://sky.example.it/",))}
    monkeypatch.setattr(pipeline, "gathered_identities", lambda data_dir: identities)
    settings = Settings(data_dir=tmp_path)
    with pytest.raises(BadInputError, match=r"^'Sky' names 2 companies gathered here \(sky-italia \(Sky \(Italia\)\), sky-uk"):
        pipeline.company_kept_as(settings, "Sky")
    assert pipeline.company_kept_as(settings, "Sky", ["https://www.sky.example.it/"]).slug == "sky-italia"
    assert pipeline.company_kept_as(settings, "Sky Italia").slug == "sky-italia"  # its own name, qualifier as words


def test_a_name_only_a_companys_pages_give_it_is_its_own_companys_on_another_domain(
        tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Orbit Labs' pages say "formerly Widgetco" (or name its operator): on Orbit's site "Widgetco" is Orbit Labs; on
    # another domain it may be the company that still goes by it, gathered as its own (as before), not refused.
    import cikb.app.pipeline as pipeline

    orbit = CompanyIdentity("orbit-labs", "Orbit Labs", aliases=("Widgetco",), websites=("https://orbit.example/",))
    monkeypatch.setattr(pipeline, "gathered_identities", lambda data_dir: {"orbit-labs": orbit})
    settings = Settings(data_dir=tmp_path)
    assert pipeline.company_kept_as(settings, "Widgetco", ["https://www.orbit.example/"]).slug == "orbit-labs"
    assert pipeline.company_kept_as(settings, "Widgetco").slug == "orbit-labs"  # no website to tell: the one it names
    assert pipeline.company_kept_as(settings, "Widgetco", ["https://widgetco.example/"]).slug == "widgetco"
    with pytest.raises(BadInputError, match="^'Orbit Labs, Inc.' is orbit-labs"):  # its own name elsewhere: refused
        pipeline.company_kept_as(settings, "Orbit Labs, Inc.", ["https://widgetco.example/"])
    assert pipeline.company_kept_as(settings, "Orbit Labs, Inc.", ["https://widgetco.example/"], replace=True).slug == "orbit-labs"


# --- `cikb changes NAME` and `cikb rebuild NAME` ----------------------------------------------------


def test_changes_and_rebuild_resolve_a_company_by_identity(make_site: Callable[..., SiteServer], monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from cikb.app.changes import company_history
    from cikb.app.pipeline import gather_company

    settings = _settings()
    gather_company(settings, "C Foundation", {"website": _site(make_site, "C Foundation", C_FOUNDATION_TEXT)})
    orbit = "Orbit Labs (formerly Widgetco) was founded in 2009 in Gdansk and makes satellite radios."
    gather_company(settings, "Orbit Labs", {"website": _site(make_site, "Orbit Labs", orbit, host="127.0.0.2")})

    assert [g.company for g in company_history(settings, "Widgetco")] == ["orbit-labs"]  # a recorded former name
    assert [g.company for g in company_history(settings, "c foundation")] == ["c-foundation"]
    # `changes 'C++ Foundation'` showed C Foundation's history (the same slug); "Orbit" named no nearest company.
    for name, nearest in [("C++ Foundation", "c-foundation (C Foundation)"), ("Orbit", "orbit-labs (Orbit Labs)")]:
        with pytest.raises(UnknownCompanyError, match="^" + re.escape(f"no company {name!r} in the knowledge base; nearest: {nearest}")):
            company_history(settings, name)
    code, out, err = run_cli(monkeypatch, capsys, "changes", "C++ Foundation")
    assert (code, out) != (0, "") and err.startswith("error: no company 'C++ Foundation'") and len(err.strip().splitlines()) == 1

    # `cikb rebuild` takes slugs only, and says which slug a name it was given is.
    code, _, err = run_cli(monkeypatch, capsys, "rebuild", "Widgetco")
    assert code != 0 and err.strip() == ("error: `cikb rebuild` takes a company's slug, as `cikb companies` lists it: "
                                         "'Widgetco' is 'orbit-labs' (`cikb rebuild orbit-labs`)")
    # So does `cikb forget`, which removes nothing for a name.
    code, _, err = run_cli(monkeypatch, capsys, "forget", "Orbit Labs")
    assert code != 0 and err.strip() == ("error: `cikb forget` takes a company's slug, as `cikb companies` lists it: "
                                         "'Orbit Labs' is 'orbit-labs' (`cikb forget orbit-labs`)")
    assert [g.company for g in company_history(settings, "orbit-labs")] == ["orbit-labs"]
