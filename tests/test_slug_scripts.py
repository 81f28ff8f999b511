"""Slugs for names in any script (issue 9): transliterated, apostrophes joined, a hash when nothing is readable."""

from __future__ import annotations

import pytest

from cikb.core.errors import BadInputError
from cikb.core.slug import check_slug, company_from_name, slugify
from cikb.retrieve.companies import infer_company, name_variants


@pytest.mark.parametrize(
    "name, slug",
    [
        ("株式会社メルカリ", "merukari"),  # the legal form 株式会社 goes like "Inc."
        ("メルカリ", "merukari"),
        ("(株)メルカリ", "merukari"),
        ("トヨタ自動車株式会社", "toyota-zidongche"),  # kana and kanji runs are words of their own
        ("LINEヤフー株式会社", "line-yafu"),
        ("삼성전자 주식회사", "samseongjeonja"),
        ("Яндекс", "yandeks"),
        ("Ελληνικά", "ellinika"),
        ("Société Générale S.A.", "societe-generale-s-a"),
        ("Straße AG", "strasse"),
        ("ＡＣＭＥ", "acme"),  # full-width letters
        ("Let's Encrypt", "lets-encrypt"),
        ("Let’s Encrypt", "lets-encrypt"),  # U+2019
        ("O'Reilly Media", "oreilly-media"),
        ("Ben & Jerry's", "ben-jerrys"),
        ("Acme Corp, Inc.", "acme-corp"),
        ("🚀 Rocket", "rocket"),
    ],
)
def test_names_in_any_script_get_a_readable_slug(name: str, slug: str) -> None:
    assert slugify(name) == slug
    assert check_slug(slugify(name)) == slug


@pytest.mark.parametrize("name", ["🚀", "!!!", "???", "★☆", "—", "€"])
def test_a_name_with_nothing_readable_gets_a_stable_hash(name: str) -> None:
    slug = slugify(name)
    assert slug.startswith("company-") and len(slug) == len("company-") + 8
    assert check_slug(slug) == slug and slugify(name) == slug


def test_hashed_slugs_are_distinct_per_name() -> None:
    assert len({slugify(n) for n in ["🚀", "!!!", "???", "★☆"]}) == 4


@pytest.mark.parametrize("name", ["", "   ", "../../etc", "a/b", "\x00"])
def test_empty_and_path_like_names_stay_errors(name: str) -> None:
    with pytest.raises(BadInputError):
        slugify(name)


def test_the_display_name_keeps_its_script_and_loses_control_characters() -> None:
    assert company_from_name("  株式会社メルカリ ").name == "株式会社メルカリ"
    assert company_from_name("Evil\x1b[31m Corp\x07").name == "Evil[31m Corp"


KB = {"lets-encrypt": "Let's Encrypt", "merukari": "株式会社メルカリ", "acme-corp": "Acme Corp", "oreilly-media": None}


@pytest.mark.parametrize(
    "question, slug, matched",
    [
        ("When was Let's Encrypt founded?", "lets-encrypt", "lets encrypt"),
        ("When was Let’s Encrypt founded?", "lets-encrypt", "lets encrypt"),
        ("When was Lets Encrypt founded?", "lets-encrypt", "lets encrypt"),
        ("What does O'Reilly Media publish?", "oreilly-media", "oreilly media"),  # slug only: no display name known
        ("メルカリの創業者は誰ですか？", "merukari", "メルカリ"),  # no spaces around a Japanese name
        ("株式会社メルカリはいつ設立されましたか", "merukari", "株式会社メルカリ"),
        ("Who founded Acme's rocket division?", "acme-corp", "acme"),
    ],
)
def test_a_question_finds_the_company_by_its_display_name(question: str, slug: str, matched: str) -> None:
    choice = infer_company(question, KB)
    assert (choice.slug, choice.matched) == (slug, matched)


def test_name_variants_of_names_with_apostrophes_and_legal_forms() -> None:
    assert name_variants("lets-encrypt", "Let's Encrypt") == {"lets encrypt", "let encrypt"}
    assert name_variants("merukari", "株式会社メルカリ") == {"merukari", "株式会社メルカリ", "メルカリ"}
