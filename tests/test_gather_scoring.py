"""The website crawl's scorer and frontier (gather.scoring), on general URLs and link labels of made-up companies."""

from __future__ import annotations

import pytest
from cikb.gather.scoring import (
    FactScorer,
    Frontier,
    core_categories,
    fact_page_title,
    is_core_url,
    is_generic,
    is_hub,
    is_listing,
    page_kind,
    score_url,
    words,
    year_of,
)
from cikb.gather.urls import is_fact_page

SITE = "https://www.acme.example"


def u(path: str) -> str:
    return SITE + path


@pytest.mark.parametrize(
    ("path", "category"),
    [
        ("/about", "about"),
        ("/about-us/", "about"),
        ("/en/about/", "about"),
        ("/company/", "about"),
        ("/our-story", "about"),
        ("/company/leadership", "team"),
        ("/company/policies/privacy", "legal"),  # one folder deeper under a fact section
        ("/team.html", "team"),
        ("/board-of-directors/", "team"),
        ("/contact-us", "contact"),
        ("/pricing", "pricing"),
        ("/press-releases/", "press"),
        ("/newsroom/", "press"),
        ("/investor-relations/", "press"),
        ("/legal/imprint", "legal"),
        ("/impressum", "legal"),
        ("/terms-of-service", "legal"),
        ("/privacy-policy.html", "legal"),
        ("/careers/", "careers"),
        ("/donations/", "funding"),  # a foundation's donors and sponsorship tiers
        ("/sponsors", "funding"),
        ("/become-member/", "funding"),
        ("/de/ueber-uns/", "about"),  # for a crawl in German (language="de"); an English one fetches /de/ last
        ("/fr/mentions-legales", "legal"),
        ("/open-source/", "open source"),  # what the company publishes its code or designs under
        ("/license", "open source"),
        ("/licensing/", "open source"),
        ("/self-hosting/", "open source"),  # a self-hosted edition's page says what its code may be run under
        ("/docs/self-hosted/", "open source"),
        ("/products/on-premise/", "open source"),
        ("/warranty/", "warranty"),  # what a customer is promised
        ("/shipping", "warranty"),
        ("/support/warranty/", "warranty"),  # a fact page right under a help section names the site's own terms
        ("/help/contact", "contact"),
        ("/docs/licensing/", "open source"),
    ],
)
def test_core_pages_are_named_by_the_last_path_segment(path: str, category: str) -> None:
    assert category in [c.name for c in core_categories(u(path))], path
    assert is_core_url(u(path)) and is_fact_page(u(path))


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/blog/why-our-team-loves-rust",  # a core word in a long slug: a post
        "/2019/05/02/about-time.html",  # a dated path: a post
        "/blog/category/company/",  # a listing
        "/tag/about/",
        "/docs/contact-api/",  # docs
        "/docs/guides/team/",  # deep in the docs: a guide's page on a feature
        "/help/billing/pricing-faq",
        "/reports/transparency-report-2023",
        "/about/jane-doe",  # a page under /about/ is not /about/ itself
        "/products/anvil-3000",
        "/blog/dashboards-people-read",  # a core word among other words: a post
        "/blog/about-time",  # under /blog/: a post
        "/about-acme-corp-and-its-history",
        "/work/toolkits/content-guide/definition-of-terms/",  # deep in a guide: the guide's page, not the site's terms
        "/careers/career-pathways/people-manager/",  # a job family, not the team page
        "/blog/why-we-changed-our-license",  # a post about a licence
    ],
)
def test_other_pages_are_not_core(path: str) -> None:
    assert not is_core_url(u(path)) and not is_fact_page(u(path)), path


@pytest.mark.parametrize(
    "path",
    [
        "/blog/author/jane-doe/",
        "/blog-categories/product",
        "/post-tags/security/",
        "/authors/jane",
        "/blog/category/news/",
        "/tag/security",
        "/blog/tags/",
        "/blog/page/3/",
        "/news/page-2",
        "/blog/2/",
        "/news/?page=2",
        "/blog?sort=newest",
        "/archive/2021/",
        "/2024/05/",
        "/search?q=anvils",
        "/feed/",
        "/login",
    ],
)
def test_listing_pages(path: str) -> None:
    assert is_listing(u(path)), path
    assert score_url(u(path)).tier == "listing"


@pytest.mark.parametrize("path", ["/blog/acme-raises-series-b", "/?p=123", "/pages/about", "/2024/05/acme-turns-10.html", "/blog/2024"])
def test_not_listing_pages(path: str) -> None:
    assert not is_listing(u(path)), path


@pytest.mark.parametrize(
    ("path", "anchor"),
    [
        ("/docs/getting-started", ""),
        ("/blog/how-to-build-a-sales-dashboard", ""),
        ("/help/reset-your-password", ""),
        ("/changelog/2024-03", ""),
        ("/blog/10-tips-for-better-reports", ""),
        ("/guides/onboarding/", ""),
        ("/blog/post-81", "A beginner's guide to cohort analysis"),
        ("/blog/acme-raises-money-how-to", ""),  # an event word does not save a how-to
        ("/2016/04/01/legal-transparency-report.html", ""),
        ("/blog/sdk-release-notes-v2", ""),
        ("/blog/customer-acquisition-strategies", ""),
    ],
)
def test_generic_articles(path: str, anchor: str) -> None:
    assert is_generic(u(path), anchor), path
    assert score_url(u(path), [anchor]).tier == "generic"


@pytest.mark.parametrize(
    ("path", "anchor", "category"),
    [
        ("/blog/acme-raises-series-b", "", "funding"),
        ("/news/acme-secures-funding-from-globex-ventures", "", "funding"),
        ("/blog/a-new-chapter", "Acme raises $40M Series C", "funding"),
        ("/news/acme-acquires-widgetco", "", "acquisition"),
        ("/press/2023/merger-completed", "", "acquisition"),
        ("/blog/p/7731", "Acme completes merger with Initech", "acquisition"),
        ("/blog/acme-rebrands-as-zenith", "", "rename"),
        ("/blog/our-new-name", "", "rename"),
        ("/blog/acme-turns-10", "", "anniversary"),
        ("/blog/5-years-of-acme", "", "anniversary"),
        ("/blog/happy-anniversary", "", "anniversary"),
        ("/blog/ten-years-of-acme", "", "anniversary"),  # the count in words, as style guides write small ones
        ("/blog/p/88", "Acme turns twenty", "anniversary"),
        ("/blog/partnership-with-globex", "", "partnership"),
        ("/blog/globex", "Acme partners with Globex on payments", "partnership"),
        ("/press/acme-wins-best-startup-award", "", "award"),
        ("/blog/jane-doe-joins-as-cfo", "", "people"),
        ("/news/welcome", "Acme appoints Jane Doe as chief executive", "people"),
        ("/blog/2023-annual-letter", "", "letter"),
        ("/blog/2024-recap", "", "letter"),
        ("/blog/acme-named-to-the-cloud-100", "", "award"),
        ("/blog/welcoming-our-new-chief-revenue-officer", "", "people"),
        ("/blog/backed-by-globex-ventures", "", "funding"),
        ("/blog/introducing-our-new-brand", "", "rename"),
        ("/blog/2022-year-in-review", "", "letter"),
        ("/blog/announcing-acme-cloud", "", "announce"),
    ],
)
def test_announcement_posts(path: str, anchor: str, category: str) -> None:
    explanation = score_url(u(path), [anchor])
    assert explanation.tier == "event", (path, explanation)
    assert category in explanation.categories


@pytest.mark.parametrize(
    "path", ["/blog/resolving-merge-conflicts", "/blog/quick-wins-for-seo", "/blog/image-recognition-at-scale", "/blog/our-favourite-charts"]
)
def test_everyday_posts_are_not_announcements(path: str) -> None:
    assert score_url(u(path)).tier == "other", path


@pytest.mark.parametrize(
    ("anchor", "tier"),
    [
        ("About Acme", "core-anchor"),
        ("Meet the team", "core-anchor"),
        ("Contact sales", "core-anchor"),
        ("Policy and legal repository", "core-anchor"),
        ("Dashboards people actually read", "other"),  # a post title with a core word in it
        ("Why our team moved to a four-day week", "other"),
    ],
)
def test_nav_labels_name_core_pages_post_titles_do_not(anchor: str, tier: str) -> None:
    assert score_url(u("/x7"), [anchor]).tier == tier, anchor


def test_hubs_are_section_indexes() -> None:
    for path in ("/blog/", "/news", "/company/press/", "/resources/blog/", "/press-releases/"):
        assert is_hub(u(path)), path
    for path in ("/blog/page/2/", "/blog/acme-raises-series-b", "/blog/?page=2", "/a/b/blog/", "/blog/category/news/"):
        assert not is_hub(u(path)), path


def test_tiers_order_the_kinds_of_page() -> None:
    ordered = [
        score_url(u("/about/")),
        score_url(u("/who-we-are-and-what-we-believe"), ["About us"]),  # a nav label names it
        score_url(u("/blog/")),
        score_url(u("/blog/acme-acquires-widgetco")),
        score_url(u("/solutions/retail-analytics")),
        score_url(u("/blog/how-to-pick-an-anvil")),
        score_url(u("/blog/author/jane/")),
        score_url(u("/de/ueber-uns/")),
    ]
    assert [e.tier for e in ordered] == ["core", "core-anchor", "hub", "event", "other", "generic", "listing", "other-language"]
    scores = [e.score for e in ordered]
    assert scores == sorted(scores, reverse=True)


def test_about_outranks_privacy_and_the_sitemap_counts() -> None:
    assert score_url(u("/about/")).score > score_url(u("/contact/")).score > score_url(u("/privacy/")).score
    assert score_url(u("/products/")).score > score_url(u("/stories/anvils-in-space")).score  # what the company sells
    plain, listed = score_url(u("/solutions/")), score_url(u("/solutions/"), in_sitemap=True)
    assert listed.score > plain.score
    assert score_url(u("/about/")).score > score_url(u("/about/?ref=footer")).score


def test_other_language_is_last_whatever_its_words() -> None:
    assert score_url(u("/fr/a-propos/")).score < score_url(u("/blog/author/jane/")).score
    assert score_url(u("/de/about/"), language="en").score < score_url(u("/2020/05/some-post"), language="en").score
    assert score_url(u("/de/about/"), language="de").tier == "core"


def test_words_years_and_titles() -> None:
    assert words("About-us_page Team!") == ["about", "us", "page", "team"]
    assert year_of(u("/2021/06/01/letter-2023.html")) == 2023
    assert year_of(u("/blog/post-12345")) == 0
    assert fact_page_title("About Acme") and fact_page_title("Acme raises $5M seed round")
    assert fact_page_title("About us | Acme Corp, makers of fine anvils")
    assert not fact_page_title("How to sharpen an anvil") and not fact_page_title("Ten anvil facts")


def frontier_of(paths_and_anchors: list[tuple[str, str]], **kwargs: bool) -> Frontier:
    frontier = Frontier(FactScorer("en", **kwargs))
    for path, anchor in paths_and_anchors:
        frontier.add(u(path), u(path), anchor=anchor)
    return frontier


def drain(frontier: Frontier) -> list[str]:
    order = []
    while (candidate := frontier.pop()) is not None:
        order.append(candidate.url.removeprefix(SITE))
    return order


def test_frontier_spreads_the_budget_over_kinds_of_fact() -> None:
    frontier = frontier_of(
        [
            ("/blog/2021-annual-letter", ""),
            ("/blog/2023-annual-letter", ""),
            ("/blog/2022-annual-letter", ""),
            ("/blog/acme-wins-design-award", ""),
            ("/blog/acme-raises-seed-round", ""),
            ("/products/anvils", ""),
            ("/about/", ""),
        ]
    )
    assert drain(frontier) == [
        "/about/",
        "/blog/acme-raises-seed-round",
        "/blog/2023-annual-letter",  # the newest letter first
        "/blog/acme-wins-design-award",  # a second letter counts for less than a first award
        "/blog/2022-annual-letter",
        "/blog/2021-annual-letter",
        "/products/anvils",
    ]


def test_a_new_anchor_raises_a_queued_url() -> None:
    frontier = frontier_of([("/products/anvils", ""), ("/blog/p/17", ""), ("/blog/p/18", "")])
    frontier.add(u("/blog/p/18"), u("/blog/p/18"), anchor="Acme acquires Initech")
    assert drain(frontier)[0] == "/blog/p/18"


def test_a_link_on_every_page_fetched_comes_before_one_on_a_single_page() -> None:
    # A footer's "Contracting" link (on each page fetched) over a shallower page linked from one post; a page
    # that links twice counts once, and no signal that names a page is outweighed.
    frontier = frontier_of([("/garden/", ""), ("/connect/contracting/", ""), ("/about/", "")])
    for page in ("/", "/services/", "/blog/"):
        frontier.add(u("/connect/contracting/"), u("/connect/contracting/"), referrer=u(page))
    frontier.add(u("/garden/"), u("/garden/"), referrer=u("/blog/"))
    frontier.add(u("/garden/"), u("/garden/"), referrer=u("/blog/"))
    assert drain(frontier) == ["/about/", "/connect/contracting/", "/garden/"]
    # Linked from the same pages, the shallower page comes first, as before.
    frontier = frontier_of([("/connect/contracting/", ""), ("/garden/", "")])
    for path in ("/connect/contracting/", "/garden/"):
        frontier.add(u(path), u(path), referrer=u("/"))
    assert drain(frontier) == ["/garden/", "/connect/contracting/"]


def test_a_failed_page_gives_its_category_back() -> None:
    frontier = frontier_of([("/about/", ""), ("/company/", ""), ("/contact/", "")])
    about = frontier.pop()
    assert about is not None and about.url.endswith("/about/")
    assert frontier.pop().url.endswith("/contact/")  # type: ignore[union-attr]  # a second about page counts for less
    frontier.untake(about)  # /about/ answered 404: /company/ is the about page after all
    assert frontier.taken["about"] == 0
    assert frontier.pop().url.endswith("/company/")  # type: ignore[union-attr]


def test_scorer_off_is_breadth_first_with_other_languages_last() -> None:
    frontier = frontier_of(
        [("/blog/author/jane/", ""), ("/de/ueber-uns/", ""), ("/2019/01/old-post", ""), ("/about/", ""), ("/2024/01/new-post", "")],
        enabled=False,
    )
    assert drain(frontier) == ["/blog/author/jane/", "/2019/01/old-post", "/about/", "/2024/01/new-post", "/de/ueber-uns/"]


def test_remaining_lists_what_was_never_popped_best_first() -> None:
    frontier = frontier_of([("/blog/tag/x/", ""), ("/careers/", ""), ("/team/", "")])
    assert frontier.pop().url.endswith("/team/")  # type: ignore[union-attr]
    assert [c.url.removeprefix(SITE) for c in frontier.remaining()] == ["/careers/", "/blog/tag/x/"]
    assert len(frontier) == 2 and u("/careers/") in frontier


@pytest.mark.parametrize(
    ("path", "title", "kind"),
    [
        ("/", "Acme Corp", "company"),
        ("/en/", "Acme Corp", "company"),
        ("/about-us/", "About us", "company"),
        ("/company/leadership", "Leadership", "company"),
        ("/privacy-policy", "Privacy Policy", "company"),
        ("/newsroom/", "Newsroom", "company"),
        ("/products/", "Products", "company"),
        ("/our-story-so-far-2", "Our story | Acme", "company"),  # the title's own name calls it a fact page
        ("/blog/", "Blog", "listing"),
        ("/blog/page/2/", "Blog", "listing"),
        ("/tag/robots/", "Robots", "listing"),
        ("/2024/05/", "May 2024", "listing"),
        ("/blog/acme-raises-series-b", "Acme raises $20M Series B", "news"),
        ("/2023/05/24/ten-years", "Acme turns 10", "news"),
        ("/docs/install/", "Installing the agent", "generic"),
        ("/blog/how-to-pick-a-robot", "How to pick a robot", "generic"),
        ("/2016/04/01/report", "Acme Transparency Report, H1 2016", "generic"),
        ("/blog/robots-at-the-beach", "Robots at the beach", "page"),
        ("/blog/200000-customers/", "Thank you: 200,000 customers", "page"),  # a post, not the customers overview
        ("/customers/", "Our customers", "company"),
        ("/documents/policy-v2/", "Certificate policy v2", "page"),
    ],
)
def test_page_kinds_of_a_website(path: str, title: str, kind: str) -> None:
    assert page_kind(u(path), title) == kind


def test_other_sources_are_about_the_company_or_news_about_it() -> None:
    assert page_kind("https://en.wikipedia.org/wiki/Acme_Corp", "Acme Corp", "wikipedia") == "company"
    assert page_kind("https://news.example/2024/acme-robots", "Robots", "news") == "news"
    assert page_kind("https://www.crunchbase.com/organization/acme", "Acme", "crunchbase") == "company"


def test_pages_no_signal_names_are_spread_over_the_sites_folders() -> None:
    # Seven policy pages under /company/ must not take a small budget from the rest of the site.
    policies = [(f"/company/policies/{name}/", "") for name in
                ("conduct", "linking", "open-source", "disclosure", "communications", "ip", "accessibility")]
    others = [("/connect/contracting/", ""), ("/work/toolkits/style/", ""), ("/thoughts/2019-in-numbers/", "")]
    first_six = drain(frontier_of(policies + others))[:6]
    assert sum(p.startswith("/company/policies/") for p in first_six) <= 3, first_six
    assert "/connect/contracting/" in first_six and "/work/toolkits/style/" in first_six


def test_job_openings_come_after_the_sites_other_pages() -> None:
    # A job ad describes one role, linked from the careers page (a fact page): what it says of the company, the
    # careers page says. The news post and the product page, linked from nowhere better, come first all the same.
    frontier = Frontier(FactScorer("en"))
    for path, anchor in [("/careers/backend-developer/", "Backend Developer (Django)"), ("/jobs/42", "RF Engineer")]:
        frontier.add(u(path), u(path), anchor=anchor, from_fact_page=True)
    for path, anchor in [("/news/2016-first-office.html", "The foundation gets its first office"),
                         ("/products/anvil-3/", "Anvil 3")]:
        frontier.add(u(path), u(path), anchor=anchor)
    frontier.add(u("/careers/"), u("/careers/"), anchor="Careers")
    order = drain(frontier)
    assert order[0] == "/careers/" and set(order[-2:]) == {"/careers/backend-developer/", "/jobs/42"}, order
    assert score_url(u("/careers/backend-developer/")).score > score_url(u("/docs/install-guide/")).score


@pytest.mark.parametrize("section", ["/blog", ""])
def test_a_blogs_dated_posts_are_one_folder_not_one_per_day(section: str) -> None:
    # /blog/2024/05/03/x and /blog/2023/11/20/y sit in one section: its dates must not make each post a folder of
    # its own, which would let every post of a long blog come before the site's other pages.
    posts = [(f"{section}/20{year}/0{month}/1{month}/post-{year}-{month}.html", "")
             for year in (19, 20, 21, 22, 23) for month in (1, 2)]
    others = [("/programmes/", ""), ("/events/", ""), ("/chapters/", "")]
    first_six = drain(frontier_of(posts + others))[:6]
    assert sum("/post-" in p for p in first_six) <= 3, first_six


def test_plural_words_name_categories_too() -> None:
    explanation = score_url(u("/thoughts/blog/five-former-fellows-and-18f-cofounders-join-acme/"))
    assert explanation.tier == "event" and "people" in explanation.categories


def test_links_of_a_page_in_another_language_come_after_those_in_the_crawls_language() -> None:
    frontier = Frontier(FactScorer("en"))
    # The German home page links its German about page and the site's English version.
    frontier.add(u("/ueber-uns/"), "ueber", anchor="Über uns", other_language=True)
    frontier.add(u("/about/"), "about-de", anchor="About", other_language=True)  # a German page named in English
    frontier.add(u("/en/"), "en", anchor="English", other_language=True)
    frontier.add(u("/blog/some-post"), "post", anchor="A post")
    assert {frontier.pop().key for _ in range(2)} == {"post", "en"}
    # Linked again from a page in the crawl's language, a page is one of its pages.
    frontier.add(u("/about/"), "about-de", anchor="About", referrer=u("/en/"))
    assert frontier.pop().key == "about-de"


def test_once_an_unprefixed_page_is_in_another_language_unprefixed_pages_are_presumed_so() -> None:
    frontier = Frontier(FactScorer("en"))
    frontier.add(u("/about/"), "about", anchor="About us", in_sitemap=True)
    frontier.add(u("/en/news/"), "news", anchor="News")
    frontier.unprefixed_elsewhere()  # "/" declared German, and "/en/..." pages are known
    assert frontier.pop().key == "news"
    # Without a page under the crawl's prefix there is nothing to prefer: nothing changes.
    alone = Frontier(FactScorer("en"))
    alone.add(u("/about/"), "about", anchor="About us")
    alone.add(u("/blog/post"), "post", anchor="A post")
    alone.unprefixed_elsewhere()
    assert alone.pop().key == "about"


@pytest.mark.parametrize("path", ["/blog/change-company-name-globex-acme-limited/", "/news/change-of-name/",
                                  "/blog/changing-our-name-to-acme/"])
def test_a_post_on_changing_the_companys_name_is_a_rename(path: str) -> None:
    assert score_url(u(path)).categories == ("rename",)


def test_changing_the_name_of_something_else_is_no_rename() -> None:
    assert "rename" not in score_url(u("/blog/change-the-name-of-a-file/")).categories
