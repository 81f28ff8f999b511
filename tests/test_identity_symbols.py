"""Identity across symbols and accents (issue 23, item 4): "C++ Foundation" is not "C Foundation", and
"Societe Generale" is "Société Générale".

A "+" or "#" inside a name names another thing (C, C++ and C# are three languages, and their foundations
three companies), though a slug, which holds only letters and digits, cannot tell them apart: a slug's
words are a name of the company only where they spell its name. An accent is spelling, not identity: a
name typed without it is the same company (only for Latin letters: Japanese dakuten make another word).
"""

from __future__ import annotations

import pytest

from cikb.core.identity import CompanyIdentity, name_keys
from cikb.retrieve.companies import resolve_company

C_FOUNDATION = {"c-foundation": CompanyIdentity("c-foundation", "C Foundation")}
CPP_FOUNDATION = {"c-foundation": CompanyIdentity("c-foundation", "C++ Foundation")}


@pytest.mark.parametrize("name", ["C++ Foundation", "C# Foundation", "c++ foundation inc"])
def test_a_name_with_a_plus_or_sharp_is_not_the_name_without(name: str) -> None:
    # What the gather's same-slug guard compares: a second gather must not replace the first.
    assert not name_keys(name) & name_keys("C Foundation")
    assert resolve_company(name, C_FOUNDATION) is None


def test_the_slugs_words_are_no_name_where_the_slug_dropped_a_symbol() -> None:
    assert resolve_company("C Foundation", CPP_FOUNDATION) is None
    assert resolve_company("C++ Foundation, Inc.", CPP_FOUNDATION) == "c-foundation"
    assert resolve_company("c-foundation", CPP_FOUNDATION) == "c-foundation"  # the slug itself, exactly


@pytest.mark.parametrize(
    ("name", "slug", "typed"),
    [("Société Générale", "societe-generale", "Societe Generale"), ("Яндекс", "yandeks", "yandeks"),
     ("株式会社メルカリ", "merukari", "Merukari"), ("Let's Encrypt", "lets-encrypt", "lets encrypt"),
     ("Acme Corp, Inc.", "acme-corp", "acme corp")],
)
def test_the_slugs_words_stay_a_name_where_they_spell_it(name: str, slug: str, typed: str) -> None:
    assert resolve_company(typed, {slug: CompanyIdentity(slug, name)}) == slug


@pytest.mark.parametrize(("typed", "name"), [("Societe Generale SA", "Société Générale S.A."), ("MULLER GmbH", "Müller"),
                                              ("Nestle", "Nestlé")])
def test_a_name_typed_without_its_accents_is_the_company(typed: str, name: str) -> None:
    assert name_keys(typed) & name_keys(name)


def test_marks_that_make_another_letter_outside_latin_are_kept() -> None:
    assert not name_keys("ガス") & name_keys("カス")  # gasu, kasu: two words
